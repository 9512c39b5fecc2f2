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
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
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

TEST_CASE("uci agent: specs and games it refuses", "[uci_agent]") {
  CHECK(read_agent_config("uci").spec ==
        "uci:engine=fairy-stockfish,nodes=1000,movetime=0,depth=0,hash=16,timeout=30");
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
  CHECK_THROWS_WITH(engine.agent->act(s),
                    Contains("uci agent, position " + game.fen(s)) && Contains("UCI engine"));
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
      Contains("played 'e1e5', which is not a legal move in position " + game.fen(s)));
  const std::string chess_only = script_engine("chess_only", " var chess", "true");
  auto other = make_player(game, "uci:engine=" + chess_only);
  CHECK_THROWS_WITH(other.agent->act(s), Contains("does not play the variant 'knightmate'"));
}

}  // namespace
}  // namespace knightgym
