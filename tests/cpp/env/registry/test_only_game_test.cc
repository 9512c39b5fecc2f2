// Nim, a game defined only in the test tree (tests/games/nim/nim.h), in no list, runs
// through everything built on the game contract: the vector env, every kind of the agent
// table (through AgentFactory, as the CLI and Python make agents), self-play and the
// arena, and the fallbacks of every optional capability. No line in agents/ or training/
// names it, which is what "adding a game is its folder, one registry line and its docs"
// rests on (docs/api.md); tests/python/test_game_outside_the_list.py runs the Python
// suites on it.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agents/agent_adapter.h"
#include "env/core/extras.h"
#include "env/core/heuristic.h"
#include "env/core/perft.h"
#include "env/core/sample.h"
#include "env/core/symmetry.h"
#include "env/core/training_defaults.h"
#include "env/core/uci_game.h"
#include "env/registry/game_adapter.h"
#include "env/registry/registry.h"
#include "tests/games/nim/nim.h"
#include "training/arena/arena.h"
#include "training/arena/typed_matches.h"
#include "training/selfplay/self_play.h"

namespace knightgym {
namespace {

static_assert(!HasHeuristic<Nim> && !HasSymmetries<Nim> && !HasTrainingDefaults<Nim> &&
              !HasSampler<Nim> && !HasPerft<Nim> && !HasExtras<Nim> && !UciGame<Nim>);

std::shared_ptr<const AnyGame> load_nim(const std::string& params = "") {
  return GameAdapter<Nim>::load(parse_spec("nim(" + params + ")"));
}

TEST_CASE("a test-only game: the type-erased face and the generic fallbacks", "[test_game]") {
  const auto game = load_nim("stones=6");
  CHECK(game->spec() == "nim(stones=6,max_turns=100)");
  CHECK(game->training_defaults().blocks == TrainingDefaults{}.blocks);
  auto state = game->new_initial_state(0);
  state->apply_action(state->string_to_action("take2"));
  CHECK(state->serialize() == "stones=4 turns=1 to_move=1 end=running winner=0");
  CHECK(game->deserialize_state(state->serialize())->serialize() == state->serialize());
  CHECK_THROWS_WITH(state->apply_action(5), Catch::Contains("5"));
  CHECK(state->last_move() == "take2");
  CHECK(state->clone()->last_move() == "take2");
  CHECK(game->deserialize_state(state->serialize())->last_move().empty());

  // Without a drawing of its own, the picture is an empty board of the observation's size
  // with the text rendering as its notes.
  const Picture picture = state->picture();
  CHECK(picture.grid.width == 7);
  CHECK(picture.grid.height == 1);
  CHECK(picture.cells.size() == 7);
  CHECK(picture.sides == std::vector<std::string>{"player 0", "player 1"});
  CHECK(picture.to_move == 1);
  CHECK(picture.notes == text_lines(state->to_string()));
  CHECK(picture.links.empty());

  // Perft by the generic count: from 3 stones, 3 takes, then 2 + 1 + 0 (the game that
  // ended adds nothing), then 1 + 0 + 0 (2 - 1 - 1 stones; the rest ended).
  const auto three = load_nim("stones=3")->new_initial_state(0);
  CHECK(three->perft(0) == 1);
  CHECK(three->perft(1) == 3);
  CHECK(three->perft(2) == 3);
  CHECK(three->perft(3) == 1);
  CHECK(three->perft(4) == 0);
  using Divide = std::vector<std::pair<std::string, uint64_t>>;
  CHECK(three->perft_divide(2) == Divide{{"take1", 2}, {"take2", 1}, {"take3", 0}});
  CHECK_THROWS_WITH(three->perft(-1), "perft depth must be >= 0, got -1");
  CHECK_THROWS_WITH(three->perft_divide(0), "perft depth must be >= 1, got 0");

  // A game registered at run time must have a name of its own; a refused one changes
  // nothing.
  const size_t games = registered_games().size();
  GameEntry named_twice = game_entry<Nim>();
  named_twice.name = registered_games().front().name;
  CHECK_THROWS_WITH(register_game(named_twice),
                    "a game named " + std::string(named_twice.name) + " is registered already");
  CHECK(registered_games().size() == games);

  // No extras and no FEN: each refusal names the game and why.
  CHECK(game->extras().empty());
  CHECK(!game->uci());
  CHECK_THROWS_WITH(three->extra("score"), "nim has no extra 'score': it has none");
  CHECK_THROWS_WITH(three->fen(), "nim has no FEN: no UCI engine plays it");
  CHECK_THROWS_WITH(game->state_from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
                    "nim has no FEN: no UCI engine plays it");

  const Nim nim(Nim::Params{4, 100});
  Nim::State s;
  Rng rng(1);
  nim.init(s, rng);
  CHECK(heuristic_value(nim, s, 0) == 0.0f);
  CHECK(Symmetries<Nim>::kCount == 1);
  int taken[3] = {};
  for (int i = 0; i < 3000; ++i) ++taken[sample_legal_action(nim, s, rng)];
  for (const int count : taken) CHECK(count > 900);
}

TEST_CASE("a test-only game runs in the vector env", "[test_game][vector_env]") {
  const auto game = load_nim("stones=7,max_turns=4");
  const auto env = game->make_vector_env({16, 2, 3});
  std::vector<Action> actions(16);
  int ended = 0, truncated = 0;
  for (int step = 0; step < 40; ++step) {
    env->sample_actions(actions.data());
    env->step(actions.data());
    for (int i = 0; i < 16; ++i) {
      if (!env->terminated()[i] && !env->truncated()[i]) continue;
      ++ended;
      truncated += env->truncated()[i];
      CHECK(env->rewards()[2 * i] + env->rewards()[2 * i + 1] == 0.0f);
    }
  }
  CHECK(ended > 50);
  CHECK(truncated > 0);
  CHECK(truncated < ended);
}

TEST_CASE(
    "every agent kind plays a test-only game (uci refuses it), and the searches find "
    "Nim's answer",
    "[test_game][agents]") {
  const auto game = load_nim("stones=9");
  for (const std::string_view kind : AgentKinds::kNames) {
    INFO(kind);
    const AgentFactory factory = AgentFactory::of<Nim>(kind, game);
    if (kind == "uci") {  // it plays the games a UCI engine plays, which Nim is not
      CHECK_THROWS_WITH(factory.make(7), Catch::Contains("nim has no UCI variant"));
      continue;
    }
    const auto agent = factory.make(7);
    auto state = game->new_initial_state(0);
    while (!state->is_terminal()) state->apply_action(agent->act(*state));
    // Facing 5 stones, only taking 1 leaves the opponent a multiple of 4.
    auto five = game->deserialize_state("stones=5 turns=2 to_move=0 end=running winner=0");
    if (kind == "mcts" || kind == "az") CHECK(agent->act(*five) == 0);
    // Facing 3 stones, taking all 3 wins at once.
    auto three = game->deserialize_state("stones=3 turns=3 to_move=1 end=running winner=0");
    if (kind != "random") CHECK(agent->act(*three) == 2);
  }
}

TEST_CASE("a test-only game runs in self-play and the arena", "[test_game][arena]") {
  const Nim nim(Nim::Params{9, 100});
  UniformEvaluator evaluator(nim.info());
  AzConfig search;
  search.sims = 16;
  SelfPlay<Nim> self_play(nim, search, evaluator, 4, 11);
  std::vector<Trajectory<Nim>> finished;
  for (int step = 0; step < 30; ++step)
    self_play.step([&](Trajectory<Nim>&& game) { finished.push_back(std::move(game)); });
  REQUIRE(finished.size() >= 4);
  for (const Trajectory<Nim>& game : finished) CHECK(game.returns[0] == -game.returns[1]);

  const auto game = load_nim("stones=10");
  const std::vector<std::shared_ptr<const AgentFactory>> agents{
      std::make_shared<AgentFactory>(AgentFactory::of<Nim>("mcts:sims=200", game)),
      std::make_shared<AgentFactory>(AgentFactory::of<Nim>("random", game))};
  const auto records = play_arena(*game, agents, {40, 2, 5});
  const auto scores = score_agents(records, 2);
  CHECK(scores[0].games == 40);
  CHECK(scores[0].wins > 30);
}

TEST_CASE("what needs a game's typed code refuses one that has none by name",
          "[test_game][arena]") {
  // This test program registers no Nim: every layer's typed code is the list's alone.
  const auto game = load_nim("stones=6");
  CHECK_THROWS_WITH(AgentFactory("random", game),
                    Catch::Contains("nim(stones=6,max_turns=100): no typed code for the agents"));
  const std::vector<std::shared_ptr<const AgentFactory>> agents{
      std::make_shared<AgentFactory>(AgentFactory::of<Nim>("random", game))};
  CHECK_THROWS_WITH(play_arena_in_batches(*game, agents, {4, 1, 5}, {.batch = 2}),
                    Catch::Contains("no typed code for a match played in batches"));
  // Once added, the same call plays (the batched games of a registered game).
  TypedCode<TypedMatches>::add<Nim>();
  CHECK(play_arena_in_batches(*game, agents, {4, 1, 5}, {.batch = 2}).size() == 4);
}

}  // namespace
}  // namespace knightgym
