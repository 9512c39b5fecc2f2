// The UCI engine (programs/uci): in-process over string streams (handshake, positions,
// the go limits, stop, bad input), and `knightgym uci` as a child process playing the real
// Fairy-Stockfish, every move of each checked against the other's move generator.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "env/core/rng.h"
#include "env/registry/registry.h"
#include "programs/engines/fairy_stockfish.h"
#include "programs/uci/uci_engine.h"
#include "util/uci_process.h"

namespace knightgym {
namespace {

using Lines = std::vector<std::string>;

// Mate: the black royal knight on h8 is checked by the rook on a8, and its own pawns
// hold both of its squares.
constexpr const char* kMatedFen = "R6k/5p2/6p1/8/8/8/8/K7 b - - 0 1";

Lines run_engine(const std::string& script, std::string_view agent = "mcts:sims=200") {
  std::ostringstream out;
  {
    UciEngine engine(out, agent, 7);
    std::istringstream in(script);
    engine.run(in);
  }
  Lines lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

bool has_line(const Lines& lines, std::string_view prefix) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.starts_with(prefix); });
}

size_t index_of(const Lines& lines, std::string_view prefix) {
  const auto it = std::find_if(lines.begin(), lines.end(),
                               [&](const std::string& line) { return line.starts_with(prefix); });
  return static_cast<size_t>(it - lines.begin());
}

// The move of the only "bestmove" line; fails the test if there is not exactly one.
std::string bestmove(const Lines& lines) {
  std::vector<std::string> moves;
  for (const std::string& line : lines)
    if (line.starts_with("bestmove ")) moves.push_back(line.substr(9));
  INFO("engine output:\n" << Catch::Detail::stringify(lines));
  REQUIRE(moves.size() == 1);
  return moves[0];
}

std::unique_ptr<AnyState> after(const std::vector<std::string>& moves) {
  auto state = load_game("knightmate")->new_initial_state(0);
  for (const std::string& move : moves) state->apply_action(state->string_to_action(move));
  return state;
}

std::vector<std::string> legal_moves(const AnyState& state) {
  std::vector<std::string> moves;
  for (const Action action : state.legal_actions()) moves.push_back(state.action_to_string(action));
  std::sort(moves.begin(), moves.end());
  return moves;
}

bool is_legal(const AnyState& state, const std::string& move) {
  const std::vector<std::string> legal = legal_moves(state);
  return std::find(legal.begin(), legal.end(), move) != legal.end();
}

TEST_CASE("uci: handshake, options and isready", "[uci]") {
  const Lines lines = run_engine("uci\nisready\n");
  REQUIRE(lines.size() == 6);
  CHECK(lines[0] == "id name knightgym");
  CHECK(lines[1].starts_with("id author "));
  CHECK(lines[2] == "option name UCI_Variant type combo default knightmate var knightmate");
  CHECK(lines[3] == "option name Agent type string default mcts:sims=200");
  CHECK(lines[4] == "uciok");
  CHECK(lines[5] == "readyok");
}

TEST_CASE("uci: go nodes plays a legal move after position startpos moves", "[uci]") {
  const Lines lines = run_engine(
      "uci\nsetoption name UCI_Variant value knightmate\nucinewgame\n"
      "position startpos moves e2e4 e7e5 e1f3\ngo nodes 50\n");
  CHECK(is_legal(*after({"e2e4", "e7e5", "e1f3"}), bestmove(lines)));
  const std::string& info = lines[lines.size() - 2];
  CHECK(info.starts_with("info depth "));
  CHECK(info.find(" nodes 50 ") != std::string::npos);
  CHECK(info.find(" score cp ") != std::string::npos);
  CHECK(info.ends_with(" pv " + bestmove(lines)));
}

TEST_CASE("uci: position fen, and bestmove (none) once the game is over", "[uci][reference]") {
  const std::string fen = "rmbqkbmr/pppppppp/8/8/4P3/8/PPPP1PPP/RMBQKBMR b KQkq - 0 1";
  CHECK(is_legal(*after({"e2e4", "d7d5"}),
                 bestmove(run_engine("position fen " + fen + " moves d7d5\ngo nodes 30\n"))));

  // Fairy-Stockfish agrees that the side to move has no move.
  engines::FairyStockfish fairy(*load_game("knightmate")->uci());
  REQUIRE(fairy.legal_moves(kMatedFen, {}).empty());
  const Lines lines = run_engine("position fen " + std::string(kMatedFen) + "\ngo nodes 30\n");
  CHECK(bestmove(lines) == "(none)");
  CHECK(has_line(lines, "info string the game is over"));
}

TEST_CASE("uci: a game longer than knightmate's max_turns goes on", "[uci]") {
  // A seeded random game of 600 plies, found by trying seeds (about one in 150 lasts).
  const auto long_game = load_game("knightmate(max_turns=100000)");
  std::unique_ptr<AnyState> state;
  std::string script = "position startpos moves";
  for (uint64_t seed = 0; !state || state->is_terminal(); ++seed) {
    state = long_game->new_initial_state(0);
    script = "position startpos moves";
    Rng rng(seed);
    for (int ply = 0; ply < 600 && !state->is_terminal(); ++ply) {
      const std::vector<Action> legal = state->legal_actions();
      const Action action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      script += ' ';
      script += state->action_to_string(action);
      state->apply_action(action);
    }
  }
  const Lines lines = run_engine(script + "\ngo nodes 30\n");
  CHECK_FALSE(has_line(lines, "info string"));
  CHECK(is_legal(*state, bestmove(lines)));
}

TEST_CASE("uci: an illegal move or a bad FEN is reported and the position kept", "[uci]") {
  const Lines lines = run_engine(
      "position startpos moves e2e4\n"
      "position startpos moves e2e4 e7e4\n"
      "position startpos moves e2e4 e7e8n\n"
      "position fen rmbqkbmr/pppppppp/8 w - - 0 1\n"
      "position startpos e2e4\n"
      "position\n"
      "go nodes 30\n");
  CHECK(has_line(lines,
                 "info string position: move 2 (e7e4) rejected: knightmate: 'e7e4' is not a "
                 "legal move in rmbqkbmr/pppppppp/8/8/4P3/8/PPPP1PPP/RMBQKBMR b KQkq - 0 1; "
                 "position unchanged"));
  CHECK(has_line(lines,
                 "info string position: move 2 (e7e8n) rejected: knightmate: 'e7e8n' "
                 "promotes to a knight"));
  CHECK(has_line(lines,
                 "info string position: knightmate: invalid FEN "
                 "'rmbqkbmr/pppppppp/8 w - - 0 1'"));
  CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
          return line.starts_with("info string position: expected 'position startpos");
        }) == 2);
  // Black to move after e2e4: the first position stood through every rejected one.
  CHECK(is_legal(*after({"e2e4"}), bestmove(lines)));
}

TEST_CASE("uci: stop ends go infinite with a bestmove, isready answered meanwhile", "[uci]") {
  const auto start = std::chrono::steady_clock::now();
  const Lines lines = run_engine("position startpos moves d2d4\ngo infinite\nisready\nstop\n");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(index_of(lines, "readyok") < index_of(lines, "bestmove "));
  CHECK(is_legal(*after({"d2d4"}), bestmove(lines)));

  // At the end of the input an infinite search is stopped too; a bounded one finishes.
  CHECK(is_legal(*after({}), bestmove(run_engine("go infinite\n"))));
  const Lines finished = run_engine("go nodes 300\n");
  CHECK(finished[0].find(" nodes 300 ") != std::string::npos);

  // Any number of nodes is capped (Gumbel search plans its simulations ahead; it failed
  // to reserve room for 2^63 of them), so the time bound ends this search.
  const Lines capped =
      run_engine("go nodes 9223372036854775807 movetime 200\n", "az:model=uniform,sims=16");
  CHECK(is_legal(*after({}), bestmove(capped)));
}

TEST_CASE("uci: go movetime, depth and clock limits", "[uci]") {
  const auto start = std::chrono::steady_clock::now();
  const Lines timed = run_engine("go movetime 300\n", "mcts:sims=100000000");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed >= std::chrono::milliseconds(300));
  CHECK(elapsed < std::chrono::seconds(3));
  CHECK(is_legal(*after({}), bestmove(timed)));

  const Lines deep = run_engine("go depth 3\n");
  CHECK(is_legal(*after({}), bestmove(deep)));
  int depth = 0;
  std::istringstream(deep[0].substr(11)) >> depth;  // "info depth D ..."
  CHECK(depth >= 3);

  CHECK(is_legal(*after({"e2e4"}),
                 bestmove(run_engine("position startpos moves e2e4\n"
                                     "go wtime 100 btime 3000 winc 0 binc 0 movestogo 20\n"))));

  CHECK(UciEngine::clock_budget_ms(60000, 0, 0) == 2000);
  CHECK(UciEngine::clock_budget_ms(60000, 1000, 0) == 2500);
  CHECK(UciEngine::clock_budget_ms(60000, 0, 10) == 6000);
  CHECK(UciEngine::clock_budget_ms(1000, 0, 1) == 950);  // the overhead is kept back
  CHECK(UciEngine::clock_budget_ms(20, 0, 0) == 1);

  // Times past any clock (found by the fuzzer: the deadline overflowed) are a long time.
  CHECK(is_legal(*after({}), bestmove(run_engine("go nodes 20 movetime 4087392194332429879\n"))));
  CHECK(is_legal(*after({}), bestmove(run_engine("go nodes 20 wtime 9223372036854775807 btime 1 "
                                                 "winc 9223372036854775807\n"))));
}

TEST_CASE("uci: options, unknown commands and bad go parameters", "[uci]") {
  const Lines lines = run_engine(
      "setoption name UCI_Variant value chess\n"
      "setoption name Hash value 64\n"
      "setoption name Agent value alphabeta\n"
      "setoption name Agent value random\n"
      "setoption\n"
      "frobnicate\n"
      "go nodes many searchmoves e2e4\n");
  CHECK(has_line(lines, "info string UCI_Variant 'chess' is not supported"));
  CHECK(has_line(lines, "info string unknown option 'Hash' (known: UCI_Variant, Agent)"));
  CHECK(has_line(lines, "info string Agent 'alphabeta' rejected: unknown agent 'alphabeta'"));
  CHECK(has_line(lines, "info string setoption: expected"));
  CHECK(has_line(lines, "info string unknown command 'frobnicate'"));
  CHECK(has_line(lines, "info string go: nodes needs a whole number >= 0, not 'many'"));
  CHECK(has_line(lines, "info string go: 'searchmoves' is not supported"));
  // The random agent searches nothing, so its info line has no score.
  const std::string move = bestmove(lines);
  CHECK(is_legal(*after({}), move));
  const std::string& info = lines[lines.size() - 2];
  CHECK(info.starts_with("info depth 0 nodes 0 nps 0 time "));
  CHECK(info.find("score") == std::string::npos);
  CHECK(info.ends_with(" pv " + move));
}

TEST_CASE("uci: a line past the bound is ignored, not echoed, and the next one read", "[uci]") {
  const std::string huge(3 * UciEngine::kMaxLineBytes, 'x');
  const Lines lines = run_engine(huge + "\n" + std::string(100, 'y') + "\nisready\n" + huge);
  size_t bytes = 0;
  for (const std::string& line : lines) bytes += line.size();
  CHECK(bytes < 1000);  // answered in a few short lines, the input never echoed whole
  CHECK(std::count(lines.begin(), lines.end(),
                   "info string error: a line of more than 1048576 bytes, ignored") == 2);
  CHECK(has_line(lines, "info string unknown command '" + std::string(40, 'y') + "...'"));
  CHECK(has_line(lines, "readyok"));
}

// Every bestmove of the output, in order.
std::vector<std::string> bestmoves(const Lines& lines) {
  std::vector<std::string> moves;
  for (const std::string& line : lines)
    if (line.starts_with("bestmove ")) moves.push_back(line.substr(9));
  return moves;
}

TEST_CASE("uci: 100 position/go pairs piped at once get 100 legal bestmoves in order", "[uci]") {
  // A harness that does not wait for each bestmove: every go waits for the search before
  // it, as in Stockfish, instead of being dropped.
  Rng rng(5);
  std::string script;
  std::vector<std::unique_ptr<AnyState>> positions;
  for (int i = 0; i < 100; ++i) {
    auto state = after({});
    std::string moves;
    for (int ply = static_cast<int>(rng.below(6)); ply > 0 && !state->is_terminal(); --ply) {
      const std::vector<Action> legal = state->legal_actions();
      const Action action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      moves.append(" ").append(state->action_to_string(action));
      state->apply_action(action);
    }
    script += "position startpos";
    if (!moves.empty()) script.append(" moves").append(moves);
    script += "\ngo nodes 50\n";
    positions.push_back(std::move(state));
  }
  const Lines lines = run_engine(script);
  const std::vector<std::string> moves = bestmoves(lines);
  REQUIRE(moves.size() == 100);
  for (int i = 0; i < 100; ++i) {
    INFO("go " << i);
    CHECK(is_legal(*positions[i], moves[i]));
  }
  CHECK_FALSE(has_line(lines, "info string go ignored"));
}

TEST_CASE("uci: stop in the middle of searches yields exactly one bestmove per go", "[uci]") {
  // The script is read at once, so each stop meets its search while it runs.
  const Lines lines = run_engine(
      "go nodes 1000000\nstop\n"
      "go infinite\nisready\nstop\n"
      "go movetime 100000\nstop\nstop\n"
      "position startpos moves e2e4\ngo nodes 1000000\nstop\n"
      "go nodes 30\nstop\n"
      "stop\n",
      "mcts:sims=100000000");
  const std::vector<std::string> moves = bestmoves(lines);
  REQUIRE(moves.size() == 5);
  for (int i = 0; i < 3; ++i) CHECK(is_legal(*after({}), moves[i]));
  CHECK(is_legal(*after({"e2e4"}), moves[3]));
  CHECK(is_legal(*after({"e2e4"}), moves[4]));

  // A go or setoption after go infinite stops it first (it would end only with stop); one
  // bestmove each, the setoption applied between them.
  const Lines busy =
      run_engine("go infinite\ngo nodes 10\nsetoption name Agent value random\ngo\n");
  const std::vector<std::string> three = bestmoves(busy);
  REQUIRE(three.size() == 3);
  for (const std::string& move : three) CHECK(is_legal(*after({}), move));
  CHECK(busy.back().starts_with("bestmove "));
  CHECK(busy[busy.size() - 2].starts_with("info depth 0 nodes 0 "));  // the random agent
}

TEST_CASE("uci: a child process that stays silent is killed, not waited for", "[uci]") {
  UciProcess silent({"sleep", "30"}, "sleep", std::chrono::milliseconds(100));
  CHECK_THROWS_WITH(silent.read_line(),
                    "sleep (sleep) said nothing for 100 ms: it was killed by signal 9");
  CHECK_THROWS_WITH(UciProcess({"/nonexistent/engine"}, "engine"),
                    Catch::StartsWith("cannot start engine '/nonexistent/engine': "));
}

// The session: `knightgym uci` as a child process against Fairy-Stockfish, both
// told `position startpos moves ...` and `go nodes N`, once with each colour. Before each
// move the two move generators must list the same legal moves.
TEST_CASE("uci: knightgym uci plays Fairy-Stockfish with legal moves only", "[uci][reference]") {
  engines::FairyStockfish fairy(*load_game("knightmate")->uci());
  for (const int our_side : {0, 1}) {
    UciProcess ours({KNIGHTGYM_CLI, "uci", "--agent", "mcts:sims=100"}, "knightgym uci",
                    std::chrono::seconds(10));
    ours.send("uci");
    ours.read_until_prefix("uciok");
    ours.send("setoption name UCI_Variant value knightmate");
    ours.send("ucinewgame");
    ours.send("isready");
    REQUIRE(ours.read_until_prefix("readyok") == "readyok");

    std::vector<std::string> moves;
    auto state = after({});
    for (int ply = 0; ply < 40 && !state->is_terminal(); ++ply) {
      std::string line = "position startpos moves";
      for (const std::string& move : moves) line += " " + move;
      INFO(line);
      const std::vector<std::string> legal = fairy.legal_moves("startpos", moves);
      REQUIRE(legal_moves(*state) == legal);
      std::string move;
      if (state->current_player() == our_side) {
        ours.send(line);
        ours.send("go nodes 100");
        move = ours.read_until_prefix("bestmove ").substr(9);
        INFO("knightgym plays " << move);
        REQUIRE(std::find(legal.begin(), legal.end(), move) != legal.end());
      } else {
        move = fairy.bestmove("startpos", moves, 1000);
      }
      INFO("the move " << move);
      REQUIRE_NOTHROW(state->apply_action(state->string_to_action(move)));
      moves.push_back(move);
    }
  }
}

}  // namespace
}  // namespace knightgym
