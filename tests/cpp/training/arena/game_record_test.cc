// The arena keeps what replays each game: the seed of its initial state and every
// decision, the random opening's included, whether the games are played one by one or
// together (all at once, or a few in play and refilled); game_record_line writes them as the moves'
// texts.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "env/registry/registry.h"
#include "training/arena/arena.h"
#include "training/arena/game_record_file.h"

namespace knightgym {
namespace {

// A game's default rules, cut to 40 turns where it has a turn limit, so that its games
// stay short.
std::string short_spec(std::string_view name) {
  const std::string spec(name);
  return load_game(spec)->spec().find("max_turns=") == std::string::npos ? spec
                                                                         : spec + "(max_turns=40)";
}

// Replays a record from its seed: every action legal, the end reached with its returns.
void check_replays(const AnyGame& game, const GameRecord& record) {
  REQUIRE(record.actions.size() == static_cast<size_t>(record.decisions));
  auto state = game.new_initial_state(record.start_seed);
  for (const Action action : record.actions) {
    REQUIRE_FALSE(state->is_terminal());
    state->apply_action(action);  // throws if illegal
  }
  CHECK(state->is_terminal());
  CHECK(state->returns() == record.returns);
  CHECK(state->is_truncated() == record.truncated);
}

TEST_CASE("arena games keep the seed and the decisions that replay them", "[game_record]") {
  for (const GameEntry& entry : registered_games()) {
    INFO(entry.name);
    const auto game = load_game(short_spec(entry.name));
    const std::vector<std::shared_ptr<const AgentFactory>> agents{
        std::make_shared<AgentFactory>("mcts:sims=4", game),
        std::make_shared<AgentFactory>("random", game)};
    for (const GameRecord& record : play_arena(*game, agents, {.games = 4, .threads = 2}))
      check_replays(*game, record);
    for (const GameRecord& record :
         play_games_together(*game, agents, 0, 4, 7, /*opening_plies=*/3))
      check_replays(*game, record);
    // Two of five in play at once, each game that ends giving its place to the next.
    const std::vector<GameRecord> refilled =
        play_games_together(*game, agents, 0, 5, 7, /*opening_plies=*/3, nullptr, 2);
    REQUIRE(refilled.size() == 5);
    for (size_t g = 0; g < refilled.size(); ++g) {
      check_replays(*game, refilled[g]);
      CHECK(refilled[g].start_seed == start_seed(7, static_cast<int64_t>(g), 2));
    }
    const GameRecord opened = play_game(*game, agents, 5, 7, /*opening_plies=*/3);
    check_replays(*game, opened);
    CHECK(opened.start_seed == start_seed(7, 5, 2));
    CHECK(opened.start_seed == start_seed(7, 4, 2));  // one start per block of k games
    CHECK(opened.start_seed != start_seed(7, 6, 2));
  }
}

TEST_CASE("a game record line names the spec, seed, seats' agents, moves and returns",
          "[game_record]") {
  const auto game = load_game("knight_fight(layout=identity)");
  GameRecord record;
  record.start_seed = 18446744073709551615ull;  // all 64 bits survive
  record.agent_of_seat = {1, 0};
  for (const char* move : {"c1", "c10"}) {
    auto state = game->new_initial_state(record.start_seed);
    for (const Action a : record.actions) state->apply_action(a);
    record.actions.push_back(state->string_to_action(move));
  }
  record.decisions = 2;
  record.returns = {0, 0};
  const std::vector<std::string> agents{"random", "mcts:sims=4"};
  CHECK(game_record_line(*game, record, agents, 12, 1) ==
        "{\"spec\": \"" + game->spec() +
            "\", \"seed\": 18446744073709551615, \"game\": 12, \"agents\": [\"mcts:sims=4\", "
            "\"random\"], \"opening_plies\": 1, \"moves\": [\"c1\", \"c10\"], \"returns\": [0, "
            "0], \"truncated\": false}");
  CHECK(game_record_lines(*game, std::vector<GameRecord>{record, record}, agents, 3, 0) ==
        game_record_line(*game, record, agents, 3, 0) + "\n" +
            game_record_line(*game, record, agents, 4, 0) + "\n");
}

}  // namespace
}  // namespace knightgym
