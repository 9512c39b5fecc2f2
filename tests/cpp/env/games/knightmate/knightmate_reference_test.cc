// Differential tests of the Knightmate move generator and FEN writer against the real
// Fairy-Stockfish (programs/engines): positions sampled from seeded random games, from
// the start and from set-up positions, compared by perft divide and by the FEN each
// engine writes after the same moves. KNIGHTGYM_CONFORMANCE_GAMES sets how many positions
// (default 1000; the sanitizer run uses 30, the perft comparison at least 100). Last, the
// engine judges a repetition from the game that Knightmate::uci_position writes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "env/core/rng.h"
#include "env/games/knightmate/fen.h"
#include "env/games/knightmate/knightmate.h"
#include "env/games/knightmate/perft.h"
#include "env/registry/registry.h"
#include "programs/engines/fairy_stockfish.h"
#include "tests/cpp/env/registry/conformance_specs.h"
#include "util/uci_process.h"

namespace knightgym::knightmate {
namespace {

using Divide = std::map<std::string, uint64_t>;

// Games also start from these, where promotions, castling and en passant come early.
constexpr std::string_view kSetUps[] = {
    // Pawns a step from promotion on both sides, next to rooks to capture; castling
    // rights, but the squares the royal knights would pass are attacked.
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    // Castling on both wings for both sides, and exd6 en passant.
    "r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9",
    // Rooks and royal knights only: castling rights lost, and squares attacked, as rooks move.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    // Black to move: c7c5 gives bxc6 en passant; a-pawns promote on both sides.
    "4k3/P1p5/8/1P6/8/8/p5P1/4K3 b - - 0 1",
    // exd6 en passant would expose the royal knight on a5 to the rook on h5.
    "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
};

struct Sample {
  std::string start;               // the FEN the game began from
  std::vector<std::string> moves;  // UCI moves played from there
  Position position;
};

// `count` positions from seeded random games: each set-up position itself, then one ply in
// twelve and every position with an en-passant square (they are rare otherwise). A game
// ends with no legal move, after 200 plies, or at halfmove 100.
std::vector<Sample> random_positions(int count, uint64_t seed) {
  std::vector<std::string> starts{std::string(kStartFen)};
  for (const std::string_view fen : kSetUps) starts.emplace_back(fen);
  Rng rng(seed);
  std::vector<Sample> samples;
  for (size_t game = 0; samples.size() < static_cast<size_t>(count); ++game) {
    const std::string& start = starts[game % starts.size()];
    Position p = parse_fen(start);
    std::vector<std::string> moves;
    for (int ply = 0; samples.size() < static_cast<size_t>(count); ++ply) {
      if ((ply == 0 && game < starts.size()) || rng.below(12) == 0 || p.en_passant != kNoSquare)
        samples.push_back({start, moves, p});
      Move legal[kMaxMoves];
      const int n = p.legal_moves(legal);
      if (n == 0 || ply == 200 || p.halfmove >= 100) break;
      const Move m = legal[rng.below(static_cast<uint32_t>(n))];
      moves.push_back(move_to_uci(m));
      p.play(m);
    }
  }
  return samples;
}

Divide our_divide(const Position& p, int depth) {
  Divide divide;
  for (const auto& [move, count] : perft_divide(p, depth)) divide[move_to_uci(move)] = count;
  return divide;
}

// Empty if equal, else one line per move that differs.
std::string difference(const Divide& ours, const Divide& theirs) {
  std::ostringstream out;
  for (const auto& [move, count] : ours) {
    const auto it = theirs.find(move);
    if (it == theirs.end())
      out << "  only ours:            " << move << " (" << count << ")\n";
    else if (it->second != count)
      out << "  different counts:     " << move << " ours " << count << ", Fairy-Stockfish "
          << it->second << "\n";
  }
  for (const auto& [move, count] : theirs)
    if (!ours.count(move)) out << "  only Fairy-Stockfish: " << move << " (" << count << ")\n";
  return out.str();
}

TEST_CASE("Knightmate perft divide agrees with Fairy-Stockfish on random positions",
          "[knightmate][reference]") {
  // At least 100 positions: fewer random games may reach no castling or en passant.
  const int count = std::max(100, testing::conformance_games());
  const std::vector<Sample> samples = random_positions(count, 20240611);
  engines::FairyStockfish fairy(*load_game("knightmate")->uci());
  int compared = 0, promotions = 0, castlings = 0, en_passants = 0;
  for (const Sample& sample : samples) {
    const int depth = 2 + compared % 2;
    const std::string fen = to_fen(sample.position);
    const std::string diff =
        difference(our_divide(sample.position, depth), fairy.perft_divide(fen, depth));
    if (!diff.empty()) FAIL_CHECK("perft " << depth << " of " << fen << "\n" << diff);
    ++compared;
    Move legal[kMaxMoves];
    const int n = sample.position.legal_moves(legal);
    for (int i = 0; i < n; ++i) {
      promotions += is_promotion(legal[i]);
      castlings += move_flag(legal[i]) == kCastling;
      en_passants += move_flag(legal[i]) == kEnPassant;
    }
  }
  INFO(compared << " positions; among their legal moves " << promotions << " promotions, "
                << castlings << " castlings, " << en_passants << " en passant captures");
  REQUIRE(compared == count);
  REQUIRE(promotions > 0);
  REQUIRE(castlings > 0);
  REQUIRE(en_passants > 0);
}

TEST_CASE("Knightmate FEN after random moves agrees with Fairy-Stockfish",
          "[knightmate][reference]") {
  const int count = testing::conformance_games();
  engines::FairyStockfish fairy(*load_game("knightmate")->uci());
  int compared = 0;
  for (const Sample& sample : random_positions(count, 20240611)) {
    std::string moves;
    for (const std::string& move : sample.moves) moves += move + ' ';
    INFO("from " << sample.start << " after the moves " << moves);
    CHECK(to_fen(sample.position) == fairy.fen_after(sample.start, sample.moves));
    ++compared;
  }
  REQUIRE(compared == count);
}

// The score Fairy-Stockfish gives the move `move` in the position `position` (the
// arguments of UCI's position command) at `depth`: "cp N" or "mate N", from the last
// info line of `go depth D searchmoves MOVE`.
std::string engine_score(UciProcess& engine, const std::string& position, const std::string& move,
                         int depth) {
  engine.send("position " + position);
  engine.send("isready");
  engine.read_until_prefix("readyok");
  engine.send("go depth " + std::to_string(depth) + " searchmoves " + move);
  std::string score;
  for (std::string line = engine.read_line(); line.rfind("bestmove", 0) != 0;
       line = engine.read_line()) {
    std::istringstream in(line);
    for (std::string word; in >> word;)
      if (word == "score") {
        std::string kind, value;
        in >> kind >> value;
        score = kind + " " + value;
      }
  }
  return score;
}

TEST_CASE("Fairy-Stockfish sees a threefold repetition in uci_position, not in the FEN",
          "[knightmate][reference]") {
  // White, a queen up, and Black shuffle their royal knights out and back. After seven
  // plies White's g2e1 would bring the start position round a third time: the game ends
  // there in a draw. The engine searches only that move (searchmoves), to a fixed depth
  // on its one default thread, so nothing depends on time: told the game, it scores the
  // move a draw at once (Stockfish's rule: a position that occurred twice before the
  // root is a draw), "cp 0" at every depth; told the FEN alone, the position after g2e1
  // is new to it, and a queen up it scores far above 0 (about 700 centipawns, or a mate).
  // After three plies, where g2e1 would repeat the start only once, the engine plays on
  // as the game does: a twofold repetition before the root is no draw.
  const std::string start = "4k3/8/8/8/8/8/8/1Q2K3 b - - 0 1";
  const Knightmate game(Knightmate::Params{.start = parse_fen(start)});
  Rng rng(0);
  Knightmate::State s;
  game.init(s, rng);
  const auto play = [&](std::initializer_list<std::string_view> line) {
    for (const std::string_view move : line) game.apply(s, game.string_to_action(s, move));
  };
  const auto winning = [](const std::string& score) {
    return score.rfind("mate ", 0) == 0 ? std::stoi(score.substr(5)) > 0
                                        : std::stoi(score.substr(3)) >= 300;
  };
  UciProcess engine({engine_program("fairy-stockfish")}, "Fairy-Stockfish");
  engine.send("uci");
  engine.read_until_prefix("uciok");
  engine.send("setoption name UCI_Variant value knightmate");

  play({"e8g7", "e1g2", "g7e8"});
  REQUIRE(game.uci_position(s) == "fen " + start + " moves e8g7 e1g2 g7e8");
  {
    const std::string score = engine_score(engine, game.uci_position(s), "g2e1", 4);
    INFO("twofold: " << score);
    CHECK(winning(score));
  }

  play({"g2e1", "e8g7", "e1g2", "g7e8"});
  REQUIRE(game.uci_position(s) == "fen " + start + " moves e8g7 e1g2 g7e8 g2e1 e8g7 e1g2 g7e8");
  for (const int depth : {1, 4}) {
    INFO("depth " << depth);
    CHECK(engine_score(engine, game.uci_position(s), "g2e1", depth) == "cp 0");
    const std::string score = engine_score(engine, "fen " + game.fen(s), "g2e1", depth);
    INFO("FEN alone: " << score);
    CHECK(winning(score));
  }
  // The game agrees: g2e1 ends it by repetition.
  play({"g2e1"});
  REQUIRE(s.reason == Knightmate::Reason::kRepetition);
}

// The known perft counts of the start, through the registry (the bitboard perft behind the
// perft capability, env/core/perft.h), and Fairy-Stockfish's.
TEST_CASE("knightmate perft: the known counts of the start, Fairy-Stockfish's",
          "[knightmate][reference][perft]") {
  const std::shared_ptr<const AnyGame> game = load_game("knightmate");
  engines::FairyStockfish fairy(*game->uci());
  const std::unique_ptr<AnyState> start = game->new_initial_state(0);
  const uint64_t known[] = {18, 324, 6765, 139774, 3249033};
  for (int depth = 1; depth <= 5; ++depth) {
    INFO("depth " << depth);
    CHECK(start->perft(depth) == known[depth - 1]);
    CHECK(fairy.perft("startpos", depth) == known[depth - 1]);
  }
}

}  // namespace
}  // namespace knightgym::knightmate
