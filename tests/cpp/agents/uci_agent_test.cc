// The uci agent against the real Fairy-Stockfish: it plays only legal Knightmate moves,
// the same moves for the same games whatever the thread count, and every way an engine
// can fail (missing, killed mid-game, silent, answering nonsense, lacking the variant)
// ends in a clear error within the timeout, never a hung run. Engines that fail on
// purpose are small shell scripts written here.
#include <signal.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "agents/external_engine.h"
#include "env/registry/game_list.h"
#include "tests/cpp/env/games/game_test_helpers.h"
#include "tests/cpp/test_files.h"
#include "training/arena/arena.h"

namespace knightgym {
namespace {

using Catch::Contains;

struct Player {
  std::shared_ptr<SharedResource> shared;
  std::unique_ptr<Agent<Knightmate>> agent;
};

Player make_player(const Knightmate& game, const std::string& spec, uint64_t seed = 1) {
  const AgentConfig config = read_agent_config(spec);
  Player player;
  player.shared = share_for_game(config, game.info(), "knightmate");
  player.agent = make_agent(game, config, player.shared, seed);
  return player;
}

// A game of `engine` (White) against random (Black); every move is checked legal here.
std::vector<Action> play_against_random(const Knightmate& game, Agent<Knightmate>& engine,
                                        uint64_t seed) {
  auto random = make_player(game, "random", seed).agent;
  auto s = testing::new_state(game);
  std::vector<Action> moves;
  while (!game.terminal(s)) {
    Agent<Knightmate>& mover = game.current_player(s) == 0 ? engine : *random;
    const Action action = mover.act(s);
    const std::vector<Action> legal = testing::legal(game, s);
    REQUIRE(std::find(legal.begin(), legal.end(), action) != legal.end());
    game.apply(s, action);
    moves.push_back(action);
  }
  return moves;
}

// A UCI engine as a shell script: it answers the handshake, offering `variants`, and
// isready; on `go` it runs `on_go`.
std::string script_engine(const std::string& name, const std::string& variants,
                          const std::string& on_go) {
  const std::string path = testing::temporary_dir("uci_agent_" + name) + "/engine.sh";
  std::ofstream(path) << "#!/bin/sh\n"
                      << "while read -r line; do\n"
                      << "  case \"$line\" in\n"
                      << "    uci) echo 'id name " << name << "'\n"
                      << "         echo 'option name UCI_Variant type combo default chess"
                      << variants << "'\n"
                      << "         echo uciok ;;\n"
                      << "    isready) echo readyok ;;\n"
                      << "    go*) " << on_go << " ;;\n"
                      << "    quit) exit 0 ;;\n"
                      << "  esac\n"
                      << "done\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

// The process ids of this process's children named `name` (Linux: /proc).
std::vector<pid_t> children_named(const std::string& name) {
  std::vector<pid_t> out;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream children(task.path() / "children");
    for (pid_t pid; children >> pid;) {
      std::string comm;
      std::ifstream("/proc/" + std::to_string(pid) + "/comm") >> comm;
      if (comm == name) out.push_back(pid);
    }
  }
  return out;
}

TEST_CASE("uci agent: Fairy-Stockfish plays only legal Knightmate moves", "[uci_agent]") {
  Knightmate::Params params;
  params.max_turns = 60;
  const Knightmate game(params);
  auto engine = make_player(game, "uci:nodes=50");
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    const std::vector<Action> moves = play_against_random(game, *engine.agent, seed);
    CHECK(moves.size() >= 10);
  }
  // It beats random: a third game, mated within 60 turns.
  auto s = testing::new_state(game);
  auto random = make_player(game, "random", 9).agent;
  while (!game.terminal(s))
    game.apply(s, (game.current_player(s) == 0 ? *engine.agent : *random).act(s));
  CHECK(testing::returns(game, s)[0] == 1.0f);
}

TEST_CASE("uci agent: the same games give the same moves, pooled or fresh", "[uci_agent]") {
  Knightmate::Params params;
  params.max_turns = 40;
  const Knightmate game(params);
  // The pool's engine is reused by the second agent: the hash table left by the first
  // game must not change its moves.
  auto first = make_player(game, "uci:nodes=200");
  const std::vector<Action> moves = play_against_random(game, *first.agent, 3);
  first.agent.reset();
  first.agent = make_agent(game, read_agent_config("uci:nodes=200"), first.shared, 1);
  CHECK(play_against_random(game, *first.agent, 3) == moves);
  auto fresh = make_player(game, "uci:nodes=200");
  CHECK(play_against_random(game, *fresh.agent, 3) == moves);
}

TEST_CASE("uci agent: an arena's results do not depend on the thread count", "[uci_agent]") {
  const auto game = load_game("knightmate(max_turns=30)");
  const std::vector<std::shared_ptr<const AgentFactory>> agents = {
      std::make_shared<AgentFactory>("uci:nodes=20", game),
      std::make_shared<AgentFactory>("random", game)};
  ArenaOptions options;
  options.games = 6;
  options.seed = 5;
  const auto one = play_arena(*game, agents, options);
  options.threads = 2;
  const auto two = play_arena(*game, agents, options);
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    INFO("game " << i);
    CHECK(one[i].returns == two[i].returns);
    CHECK(one[i].decisions == two[i].decisions);
  }
}

TEST_CASE("uci agent: the engine's info lines become scored moves", "[uci_agent]") {
  EngineAnswer answer;
  read_info_line("info depth 1 seldepth 1 multipv 1 score cp 30 nodes 20 nps 1 pv e2e4 e7e5",
                 answer);
  read_info_line("info depth 1 seldepth 1 multipv 2 score cp -12 nodes 25 pv d2d4", answer);
  // A bound does not replace an exact score; a later exact one does.
  read_info_line("info depth 2 multipv 1 score cp 90 lowerbound nodes 40 pv g1f3", answer);
  CHECK(answer.lines[0].move == "e2e4");
  read_info_line("info depth 2 multipv 1 score mate -3 nodes 50 pv g1h3 a7a6", answer);
  read_info_line("info string NNUE evaluation using nn.nnue", answer);
  read_info_line("bestmove g1h3", answer);
  REQUIRE(answer.lines.size() == 2);
  CHECK(answer.lines[0].move == "g1h3");
  CHECK(answer.lines[0].score.mate == -3);
  CHECK(answer.lines[1].move == "d2d4");
  CHECK(answer.lines[1].score.centipawns == -12);
  CHECK(answer.nodes == 50);
  CHECK(answer.depth == 2);

  // Values: the logistic of the Elo scale, mates at the ends; orderings put any mate
  // beyond any centipawns, a quicker one further.
  CHECK(EngineScore{0, 0}.value() == 0.0f);
  CHECK(EngineScore{400, 0}.value() == Approx(2.0 * 10 / 11 - 1));
  CHECK(EngineScore{-400, 0}.value() == Approx(-(2.0 * 10 / 11 - 1)));
  CHECK(EngineScore{0, 2}.value() == 1.0f);
  CHECK(EngineScore{0, -1}.value() == -1.0f);
  CHECK(EngineScore{0, 2}.ordering() > EngineScore{0, 5}.ordering());
  CHECK(EngineScore{0, 5}.ordering() > EngineScore{30000, 0}.ordering());
  CHECK(EngineScore{0, -5}.ordering() > EngineScore{0, -2}.ordering());
  CHECK(EngineScore{-30000, 0}.ordering() > EngineScore{0, -5}.ordering());
}

TEST_CASE("uci agent: with MultiPV it reports the engine's scored moves and its value",
          "[uci_agent]") {
  const Knightmate game;
  auto engine = make_player(game, "uci:nodes=2000,multipv=4,spread=50");
  const auto s = testing::new_state(game);
  const Action played = engine.agent->act(s);
  const SearchReport report = engine.agent->last_report();
  REQUIRE(report.visit_shares.size() == 4);
  CHECK(report.visit_shares[0].first == played);  // the best move, played
  CHECK(report.sims >= 2000);
  CHECK(report.value > -0.5f);  // the start is about level
  CHECK(report.value < 0.5f);
  float total = 0;
  const std::vector<Action> legal = testing::legal(game, s);
  for (size_t i = 0; i < report.visit_shares.size(); ++i) {
    const auto [action, share] = report.visit_shares[i];
    CHECK(std::find(legal.begin(), legal.end(), action) != legal.end());
    if (i > 0) CHECK(share <= report.visit_shares[i - 1].second);  // best first
    total += share;
  }
  CHECK(total == Approx(1.0f));

  // One move scored: all of the policy on it.
  auto single = make_player(game, "uci:nodes=100");
  const Action move = single.agent->act(s);
  REQUIRE(single.agent->last_report().visit_shares.size() == 1);
  CHECK(single.agent->last_report().visit_shares[0] == std::pair<Action, float>(move, 1.0f));
}

TEST_CASE("uci agent: scored moves out of order, a mate among them, still make a policy",
          "[uci_agent]") {
  // An iteration cut short by the node budget may leave a better line below the first.
  const Knightmate game;
  const std::string engine = script_engine(
      "unordered", " var chess var knightmate",
      "echo 'info depth 3 multipv 1 score cp 20 nodes 9 pv e2e4'; "
      "echo 'info depth 2 multipv 2 score mate 4 nodes 9 pv d2d4'; "
      "echo 'info depth 2 multipv 3 score cp -40 nodes 9 pv g2g3'; echo 'bestmove e2e4'");
  auto player = make_player(game, "uci:engine=" + engine + ",multipv=3");
  const auto s = testing::new_state(game);
  const Action played = player.agent->act(s);
  CHECK(game.action_to_string(s, played) == "e2e4");
  const SearchReport report = player.agent->last_report();
  REQUIRE(report.visit_shares.size() == 3);
  CHECK(report.value == EngineScore{20, 0}.value());  // the first line's
  CHECK(game.action_to_string(s, report.visit_shares[1].first) == "d2d4");
  CHECK(report.visit_shares[1].second == 1.0f);  // the mate: all of the weight
  CHECK(report.visit_shares[0].second == 0.0f);
  CHECK(report.visit_shares[2].second == 0.0f);
  // With tie, the moves within it of the best score, here the mate alone.
  auto tied = make_player(game, "uci:engine=" + engine + ",multipv=3,tie=10");
  CHECK(game.action_to_string(s, tied.agent->act(s)) == "d2d4");
}

TEST_CASE("uci agent: tie plays the moves scored alike at random, seeded", "[uci_agent]") {
  const Knightmate game;
  const auto s = testing::new_state(game);
  // Every move of the start within a queen of the best: the seed picks among the four.
  std::set<Action> played;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    auto engine = make_player(game, "uci:nodes=300,multipv=4,tie=900", seed);
    const Action action = engine.agent->act(s);
    const auto& shares = engine.agent->last_report().visit_shares;
    CHECK(std::find_if(shares.begin(), shares.end(),
                       [&](const auto& share) { return share.first == action; }) != shares.end());
    played.insert(action);
    auto again = make_player(game, "uci:nodes=300,multipv=4,tie=900", seed);
    CHECK(again.agent->act(s) == action);
  }
  CHECK(played.size() >= 3);
}

TEST_CASE("uci agent: specs and games it refuses", "[uci_agent]") {
  CHECK(read_agent_config("uci").spec ==
        "uci:engine=fairy-stockfish,nodes=1000,movetime=0,depth=0,hash=16,timeout=30,multipv=1,"
        "spread=100,tie=0");
  CHECK_THROWS_WITH(read_agent_config("uci:multipv=0"), Contains("multipv"));
  CHECK_THROWS_WITH(read_agent_config("uci:tie=10"), Contains("set multipv above 1"));
  CHECK_THROWS_WITH(read_agent_config("uci:nodes=0"), Contains("no budget per move"));
  CHECK_THROWS_WITH(read_agent_config("uci:movetime=-5"), Contains("movetime"));
  // Knight Fight is no chess variant.
  const AgentConfig config = read_agent_config("uci:nodes=1");
  const KnightFight fight;
  CHECK_THROWS_WITH(
      make_agent(fight, config, share_for_game(config, fight.info(), "knight_fight"), 1),
      Contains("knight_fight has no UCI variant"));
}

TEST_CASE("uci agent: a missing engine is named before play", "[uci_agent]") {
  const Knightmate game;
  CHECK_THROWS_WITH(make_player(game, "uci:engine=/no/such/engine"),
                    Contains("cannot start UCI engine '/no/such/engine'"));
}

TEST_CASE(
    "uci agent: an engine killed mid-game is an error naming the position, and the "
    "next game gets a new engine",
    "[uci_agent]") {
  const Knightmate game;
  auto engine = make_player(game, "uci:nodes=20");
  auto s = testing::new_state(game);
  game.apply(s, engine.agent->act(s));
  game.apply(s, make_player(game, "random").agent->act(s));
  const std::vector<pid_t> running = children_named("fairy-stockfish");
  REQUIRE(running.size() == 1);
  kill(running[0], SIGKILL);
  CHECK_THROWS_WITH(engine.agent->act(s), Contains("uci agent, position " + game.uci_position(s)) &&
                                              Contains("UCI engine"));
  const std::vector<Action> legal = testing::legal(game, s);
  const Action recovered = engine.agent->act(s);
  CHECK(std::find(legal.begin(), legal.end(), recovered) != legal.end());
  CHECK(children_named("fairy-stockfish").size() == 1);
}

TEST_CASE("uci agent: a silent engine is stopped at the timeout", "[uci_agent]") {
  const Knightmate game;
  // On `go` it says nothing: the agent must not wait past timeout=1.
  const std::string silent = script_engine("silent", " var chess var knightmate", "true");
  auto engine = make_player(game, "uci:engine=" + silent + ",timeout=1");
  CHECK_THROWS_WITH(engine.agent->act(testing::new_state(game)),
                    Contains("said nothing for 1000 ms"));
}

TEST_CASE("uci agent: an illegal move or a missing variant is an error", "[uci_agent]") {
  const Knightmate game;
  const std::string illegal =
      script_engine("illegal", " var chess var knightmate", "echo 'bestmove e1e5'");
  auto engine = make_player(game, "uci:engine=" + illegal);
  const auto s = testing::new_state(game);
  CHECK_THROWS_WITH(
      engine.agent->act(s),
      Contains("played 'e1e5', which is not a legal move in position " + game.uci_position(s)));
  const std::string chess_only = script_engine("chess_only", " var chess", "true");
  auto other = make_player(game, "uci:engine=" + chess_only);
  CHECK_THROWS_WITH(other.agent->act(s), Contains("does not play the variant 'knightmate'"));
}

}  // namespace
}  // namespace knightgym
