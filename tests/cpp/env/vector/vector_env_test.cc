// The vector env against single states, its auto-reset, determinism across thread
// counts, and the errors that leave it unchanged.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "env/registry/registry.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

using Catch::Contains;
constexpr int kKnightFightActions = 101;

// Everything the env exposes, copied: two snapshots compare equal iff the buffers do.
struct Snapshot {
  std::vector<float> observations, rewards;
  std::vector<uint8_t> masks, terminated, truncated;
  std::vector<int32_t> current_player;
  std::vector<std::string> states;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const AnyVectorEnv& env) {
  const GameInfo& info = env.game().info();
  const size_t n = env.num_envs();
  Snapshot s;
  s.observations.assign(env.observations(), env.observations() + n * info.observation_shape.size());
  s.rewards.assign(env.rewards(), env.rewards() + n * info.num_players);
  s.masks.assign(env.masks(), env.masks() + n * info.num_actions);
  s.terminated.assign(env.terminated(), env.terminated() + n);
  s.truncated.assign(env.truncated(), env.truncated() + n);
  s.current_player.assign(env.current_player(), env.current_player() + n);
  for (size_t i = 0; i < n; ++i) s.states.push_back(env.state(static_cast<int>(i))->serialize());
  return s;
}

std::vector<Snapshot> trajectory(const std::string& spec, int threads, int steps) {
  const auto env = load_game(spec)->make_vector_env({13, threads, 99});
  std::vector<Action> actions(13);
  std::vector<Snapshot> out{snapshot(*env)};
  for (int t = 0; t < steps; ++t) {
    env->sample_actions(actions.data());
    env->step(actions.data());
    out.push_back(snapshot(*env));
  }
  return out;
}

TEST_CASE("a restored snapshot goes on exactly as the env it was taken from", "[vector_env]") {
  for (const auto& spec : testing::conformance_specs()) {
    for (const Autoreset mode : {Autoreset::kNextStep, Autoreset::kSameStep}) {
      INFO(spec << " " << autoreset_name(mode));
      const auto game = load_game(spec);
      const auto env = game->make_vector_env({5, 1, 21, mode, FinishedMask::kAllOnes});
      std::vector<Action> actions(5);
      for (int t = 0; t < 30; ++t) {
        env->sample_actions(actions.data());
        env->step(actions.data());
      }
      // Another seed and thread count: the snapshot decides everything.
      const auto copy = game->make_vector_env({5, 2, 4, mode, FinishedMask::kAllOnes});
      copy->restore(env->snapshot());
      REQUIRE(snapshot(*copy) == snapshot(*env));
      REQUIRE(copy->seed() == env->seed());
      for (int t = 0; t < 40; ++t) {
        std::vector<Action> copy_actions(5);
        env->sample_actions(actions.data());
        copy->sample_actions(copy_actions.data());
        REQUIRE(copy_actions == actions);
        env->step(actions.data());
        copy->step(actions.data());
        REQUIRE(snapshot(*copy) == snapshot(*env));
      }
    }
  }
}

TEST_CASE("a snapshot that does not fit is refused and changes nothing", "[vector_env]") {
  const auto game = load_game("knight_fight");
  const auto env = game->make_vector_env({3, 1, 1});
  const Snapshot before = snapshot(*env);
  const EnvSnapshot good = game->make_vector_env({3, 1, 2})->snapshot();
  const auto refused = [&](auto change, const std::string& message) {
    EnvSnapshot bad = good;
    change(bad);
    REQUIRE_THROWS_WITH(env->restore(bad), Contains(message));
    REQUIRE(snapshot(*env) == before);
  };
  refused([](EnvSnapshot& s) { s.states[2] = "nonsense"; }, "snapshot: state of env 2");
  refused([](EnvSnapshot& s) { s.states.pop_back(); },
          "states holds 2 values where this env has 3");
  refused([](EnvSnapshot& s) { std::fill_n(&s.streams[12], 4, 0); },
          "the action stream of env 1 is all zeros");
  refused([](EnvSnapshot& s) { s.truncated[0] = 7; }, "truncated must hold 0 or 1, got 7 at 0");
  refused([](EnvSnapshot& s) { s.final_observations.push_back(0); }, "final_observations holds 1");
  refused([](EnvSnapshot& s) { s.rewards.clear(); }, "rewards holds 0 values");
  env->restore(good);
  for (int i = 0; i < 3; ++i) REQUIRE(env->state(i)->serialize() == good.states[i]);
}

TEST_CASE("the vector env steps exactly like single states", "[vector_env]") {
  for (const auto& spec : testing::conformance_specs()) {
    INFO(spec);
    const auto game = load_game(spec);
    const GameInfo& info = game->info();
    const int n = 7;
    const auto env = game->make_vector_env({n, 3, 5});
    std::vector<std::unique_ptr<AnyState>> singles;
    for (int i = 0; i < n; ++i) singles.push_back(env->state(i));
    std::vector<Action> actions(n);
    std::vector<float> observation(info.observation_shape.size());
    std::vector<uint8_t> mask(info.num_actions);
    std::vector<uint8_t> ended(n, 0);
    for (int step = 0; step < 600; ++step) {
      env->sample_actions(actions.data());
      env->step(actions.data());
      for (int i = 0; i < n; ++i) {
        INFO("env " << i << ", step " << step);
        int observer;
        if (ended[i]) {  // auto-reset: a new episode, the action ignored
          singles[i] = env->state(i);
          REQUIRE_FALSE(singles[i]->is_terminal());
          observer = singles[i]->current_player();
          REQUIRE(env->rewards()[i * info.num_players] == 0.0f);
        } else {
          observer = singles[i]->current_player();
          singles[i]->apply_action(actions[i]);
          const std::vector<float> returns = singles[i]->returns();
          REQUIRE(
              std::equal(returns.begin(), returns.end(), env->rewards() + i * info.num_players));
          if (!singles[i]->is_terminal()) observer = singles[i]->current_player();
        }
        ended[i] = singles[i]->is_terminal();
        REQUIRE(env->state(i)->serialize() == singles[i]->serialize());
        REQUIRE(bool(env->terminated()[i]) == (ended[i] && !singles[i]->is_truncated()));
        REQUIRE(bool(env->truncated()[i]) == singles[i]->is_truncated());
        REQUIRE(env->current_player()[i] == singles[i]->current_player());
        singles[i]->observe(observer, observation.data());
        singles[i]->legal_mask(mask.data());
        if (ended[i]) std::fill(mask.begin(), mask.end(), 1);  // FinishedMask::kAllOnes
        REQUIRE(std::memcmp(observation.data(), env->observations() + i * observation.size(),
                            observation.size() * sizeof(float)) == 0);
        REQUIRE(std::memcmp(mask.data(), env->masks() + i * mask.size(), mask.size()) == 0);
      }
    }
  }
}

TEST_CASE("trajectories depend on the seed, never on the thread count", "[vector_env]") {
  const auto one = trajectory("knight_fight", 1, 300);
  // Up to one thread per environment (13), the most a vector env takes.
  for (int threads : {2, 3, 4, 13}) REQUIRE(trajectory("knight_fight", threads, 300) == one);
}

TEST_CASE("reset with a seed replays, reset without one continues", "[vector_env]") {
  const auto env = load_game("knight_fight")->make_vector_env({4, 2, 7});
  const Snapshot start = snapshot(*env);
  env->reset(7, nullptr);
  CHECK(snapshot(*env) == start);
  env->reset(std::nullopt, nullptr);
  CHECK_FALSE(snapshot(*env) == start);
  env->reset(8, nullptr);
  CHECK_FALSE(snapshot(*env) == start);
}

TEST_CASE("the first reset after construction keeps the first episodes", "[vector_env]") {
  const auto env = load_game("knight_fight")->make_vector_env({4, 2, 7});
  const Snapshot start = snapshot(*env);
  env->reset(std::nullopt, nullptr);  // make, then reset: every stream's first episode
  CHECK(snapshot(*env) == start);
  env->reset(std::nullopt, nullptr);  // and the next reset its second
  CHECK_FALSE(snapshot(*env) == start);
}

TEST_CASE("an illegal or out-of-range action throws naming the env and changes nothing",
          "[vector_env]") {
  const auto env = load_game("knight_fight(layout=identity)")->make_vector_env({3, 2, 1});
  std::vector<Action> actions(3);
  env->sample_actions(actions.data());
  const Snapshot before = snapshot(*env);

  std::vector<Action> bad = actions;
  bad[1] = 95;  // f10 is not on White's first rank
  REQUIRE_THROWS_WITH(env->step(bad.data()), Contains("env 1: action 95 (f10) is not legal"));
  REQUIRE(snapshot(*env) == before);
  bad = actions;
  bad[2] = 101;
  REQUIRE_THROWS_WITH(env->step(bad.data()), Contains("env 2: action 101 is out of range"));
  bad[2] = -1;
  REQUIRE_THROWS_WITH(env->step(bad.data()), Contains("env 2: action -1 is out of range"));
  REQUIRE(snapshot(*env) == before);
  env->step(actions.data());
  REQUIRE_FALSE(snapshot(*env) == before);
}

TEST_CASE("a finished episode resets on the next step whatever its action", "[vector_env]") {
  const auto env = load_game("knight_fight(max_turns=2)")
                       ->make_vector_env({2, 1, 3, Autoreset::kNextStep, FinishedMask::kAllZeros});
  std::vector<Action> actions(2);
  for (int step = 0; step < 2; ++step) {
    env->sample_actions(actions.data());
    env->step(actions.data());
  }
  for (int i = 0; i < 2; ++i) {
    REQUIRE(env->truncated()[i]);
    REQUIRE_FALSE(env->terminated()[i]);
    REQUIRE(env->current_player()[i] == kTerminalPlayer);
    const auto mask = env->masks() + i * kKnightFightActions;
    REQUIRE(std::all_of(mask, mask + kKnightFightActions, [](uint8_t m) { return m == 0; }));
  }
  const std::vector<Action> ignored = {-5, 1000};
  env->step(ignored.data());
  for (int i = 0; i < 2; ++i) {
    REQUIRE_FALSE(env->truncated()[i]);
    REQUIRE(env->current_player()[i] == 0);
    REQUIRE(env->rewards()[2 * i] == 0.0f);
    REQUIRE(env->state(i)->serialize().find("turns=0 ") != std::string::npos);
  }
}

TEST_CASE("bad sizes are rejected", "[vector_env]") {
  const auto game = load_game("knight_fight");
  CHECK_THROWS_WITH(game->make_vector_env({0, 1, 0}), Contains("num_envs must be at least 1"));
  CHECK_THROWS_WITH(game->make_vector_env({4, 0, 0}), Contains("num_threads must be at least 1"));
  // More threads than environments, or than kMaxThreads, is refused, not cut back.
  CHECK_THROWS_WITH(game->make_vector_env({2, 8, 0}),
                    Contains("num_threads must be at most num_envs (2), got 8"));
  CHECK_THROWS_WITH(game->make_vector_env({1000, 1000000, 0}),
                    Contains("num_threads must be at most 256 (kMaxThreads), got 1000000"));
  CHECK(game->make_vector_env({2, 2, 0})->num_threads() == 2);
  CHECK_THROWS_WITH(game->make_vector_env({2, 1, 0})->state(2), Contains("out of range"));
}

TEST_CASE("a game that is over before its first decision is refused", "[vector_env]") {
  // Fool's-mate-like: White's royal knight on h1 is mated by the black queen and commoner.
  const auto mated = load_game("knightmate(fen=8/8/8/8/8/5k2/6mq/7K w - - 0 1)");
  REQUIRE(mated->new_initial_state(0)->is_terminal());
  CHECK_THROWS_WITH(mated->make_vector_env({2, 1, 0}), Contains("over in its initial state"));
}

}  // namespace
}  // namespace knightgym
