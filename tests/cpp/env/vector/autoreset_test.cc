// The vector env's options: the three auto-reset modes, resets of chosen environments,
// what a finished episode's mask holds, and seeds drawn from entropy.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "env/registry/registry.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

using Catch::Contains;

// Environment i's outputs, copied.
struct Row {
  std::vector<float> observation, rewards;
  std::vector<uint8_t> mask;
  bool terminated = false, truncated = false;
  int current_player = 0;
  std::string state;
  bool operator==(const Row&) const = default;
};

Row row(const AnyVectorEnv& env, int i) {
  const GameInfo& info = env.game().info();
  const size_t obs = info.observation_shape.size();
  const size_t players = info.num_players;
  const size_t actions = info.num_actions;
  Row r;
  r.observation.assign(env.observations() + i * obs, env.observations() + (i + 1) * obs);
  r.rewards.assign(env.rewards() + i * players, env.rewards() + (i + 1) * players);
  r.mask.assign(env.masks() + i * actions, env.masks() + (i + 1) * actions);
  r.terminated = env.terminated()[i];
  r.truncated = env.truncated()[i];
  r.current_player = env.current_player()[i];
  r.state = env.state(i)->serialize();
  return r;
}

std::vector<Row> rows(const AnyVectorEnv& env) {
  std::vector<Row> out;
  for (int i = 0; i < env.num_envs(); ++i) out.push_back(row(env, i));
  return out;
}

bool all_equal(const uint8_t* begin, size_t n, uint8_t value) {
  return std::all_of(begin, begin + n, [value](uint8_t v) { return v == value; });
}

TEST_CASE("same-step auto-reset is next-step with the reset step folded in", "[vector_env]") {
  // One environment each, the same seed: the next-step env's step after an end (which
  // ignores its action and draws none) is the same-step env's restart.
  for (const auto& spec : testing::conformance_specs()) {
    INFO(spec);
    const auto game = load_game(spec);
    const size_t obs = game->info().observation_shape.size();
    const size_t actions = game->info().num_actions;
    const auto next = game->make_vector_env({1, 1, 11, Autoreset::kNextStep});
    const auto same = game->make_vector_env({1, 1, 11, Autoreset::kSameStep});
    REQUIRE(row(*same, 0) == row(*next, 0));
    Action a = 0;
    int ends = 0;
    for (int step = 0; ends < 3 && step < 20000; ++step) {
      INFO("step " << step);
      next->sample_actions(&a);
      next->step(&a);
      same->sample_actions(&a);
      same->step(&a);
      const bool ended = next->terminated()[0] || next->truncated()[0];
      REQUIRE(bool(same->has_final()[0]) == ended);
      if (!ended) {
        REQUIRE(row(*same, 0) == row(*next, 0));
        continue;
      }
      ++ends;
      // The final observation and mask are the next-step env's at the end.
      REQUIRE(std::memcmp(same->final_observations(), next->observations(), obs * 4) == 0);
      REQUIRE(std::memcmp(same->final_masks(), next->masks(), actions) == 0);
      REQUIRE(same->terminated()[0] == next->terminated()[0]);
      REQUIRE(same->truncated()[0] == next->truncated()[0]);
      REQUIRE(
          std::equal(same->rewards(), same->rewards() + game->info().num_players, next->rewards()));
      REQUIRE_FALSE(same->needs_reset()[0]);
      // The returned observation is the new episode's: the next-step env's one step on.
      next->step(&a);
      Row restarted = row(*same, 0);
      const Row fresh = row(*next, 0);
      REQUIRE(restarted.observation == fresh.observation);
      REQUIRE(restarted.mask == fresh.mask);
      REQUIRE(restarted.state == fresh.state);
      REQUIRE(restarted.current_player == fresh.current_player);
    }
    CHECK(ends == 3);
  }
}

TEST_CASE("same-step auto-reset does not depend on the thread count", "[vector_env]") {
  const auto game = load_game("knight_fight(max_turns=6)");
  std::vector<std::vector<Row>> runs;
  for (int threads : {1, 3}) {
    const auto env = game->make_vector_env({9, threads, 4, Autoreset::kSameStep});
    std::vector<Action> actions(9);
    std::vector<Row> trace;
    for (int step = 0; step < 40; ++step) {
      env->sample_actions(actions.data());
      env->step(actions.data());
      for (const Row& r : rows(*env)) trace.push_back(r);
    }
    runs.push_back(trace);
  }
  CHECK(runs[0] == runs[1]);
}

TEST_CASE("with auto-reset disabled an ended episode waits for a reset of it", "[vector_env]") {
  const auto game = load_game("knight_fight(max_turns=2)");
  const auto env = game->make_vector_env({3, 2, 5, Autoreset::kDisabled});
  std::vector<Action> actions(3);
  for (int step = 0; step < 2; ++step) {
    env->sample_actions(actions.data());
    env->step(actions.data());
  }
  REQUIRE(all_equal(env->truncated(), 3, 1));
  REQUIRE(all_equal(env->needs_reset(), 3, 1));
  const std::vector<Row> ended = rows(*env);
  REQUIRE_THROWS_WITH(env->step(actions.data()),
                      Contains("env 0: its episode is over and auto-reset is disabled"));
  REQUIRE(rows(*env) == ended);

  const std::vector<uint8_t> chosen = {0, 1, 0};
  env->reset(std::nullopt, chosen.data());
  const std::vector<Row> after = rows(*env);
  CHECK(after[0] == ended[0]);
  CHECK(after[2] == ended[2]);
  CHECK_FALSE(after[1].truncated);
  CHECK(after[1].state.find("turns=0 ") != std::string::npos);
  CHECK_THROWS_WITH(env->step(actions.data()), Contains("env 0: its episode is over"));
  env->reset(std::nullopt, nullptr);
  env->sample_actions(actions.data());
  env->step(actions.data());
  CHECK(all_equal(env->needs_reset(), 3, 0));
}

TEST_CASE("a reset of chosen environments leaves the others alone", "[vector_env]") {
  const auto game = load_game("tailten");
  const auto env = game->make_vector_env({4, 2, 3});
  std::vector<Action> actions(4);
  for (int step = 0; step < 5; ++step) {
    env->sample_actions(actions.data());
    env->step(actions.data());
  }
  const std::vector<Row> before = rows(*env);
  const std::vector<uint8_t> chosen = {1, 0, 0, 1};
  env->reset(21, chosen.data());
  const std::vector<Row> after = rows(*env);
  CHECK(after[1] == before[1]);
  CHECK(after[2] == before[2]);
  // A chosen environment's new episode is the one a reset of all with that seed gives it.
  const auto reference = game->make_vector_env({4, 1, 99});
  reference->reset(21, nullptr);
  CHECK(after[0] == row(*reference, 0));
  CHECK(after[3] == row(*reference, 3));
}

TEST_CASE("a finished episode's mask is all ones, or all zeros on request", "[vector_env]") {
  for (const FinishedMask finished : {FinishedMask::kAllOnes, FinishedMask::kAllZeros}) {
    const auto env = load_game("knight_fight(max_turns=2)")
                         ->make_vector_env({2, 1, 3, Autoreset::kNextStep, finished});
    REQUIRE(env->finished_mask() == finished);
    std::vector<Action> actions(2);
    for (int step = 0; step < 2; ++step) {
      env->sample_actions(actions.data());
      env->step(actions.data());
    }
    const int num_actions = env->game().info().num_actions;
    REQUIRE(all_equal(env->truncated(), 2, 1));
    CHECK(all_equal(env->masks(), 2 * num_actions, finished == FinishedMask::kAllOnes ? 1 : 0));
    env->sample_actions(actions.data());
    CHECK(actions == std::vector<Action>{0, 0});  // nothing to sample in a finished episode
  }
}

TEST_CASE("an env made without a seed draws one, and reports it", "[vector_env]") {
  const auto game = load_game("knight_fight");
  const auto a = game->make_vector_env({3, 1, std::nullopt});
  const auto b = game->make_vector_env({3, 1, std::nullopt});
  CHECK(a->seed() != b->seed());
  const auto replay = game->make_vector_env({3, 1, a->seed()});
  CHECK(rows(*replay) == rows(*a));
  a->reset(17, nullptr);
  CHECK(a->seed() == 17);
}

TEST_CASE("the options' names parse, and bad ones are refused naming the valid ones",
          "[vector_env]") {
  for (const Autoreset mode : {Autoreset::kNextStep, Autoreset::kSameStep, Autoreset::kDisabled})
    CHECK(parse_autoreset(autoreset_name(mode)) == mode);
  for (const FinishedMask mask : {FinishedMask::kAllOnes, FinishedMask::kAllZeros})
    CHECK(parse_finished_mask(finished_mask_name(mask)) == mask);
  CHECK_THROWS_WITH(parse_autoreset("sometimes"),
                    Contains("autoreset_mode must be one of next_step, same_step, disabled, "
                             "got 'sometimes'"));
  CHECK_THROWS_WITH(parse_finished_mask("legal"),
                    Contains("finished_mask must be one of all, none, got 'legal'"));
}

}  // namespace
}  // namespace knightgym
