// Results depend on the seed, never on the thread count, for every game: the promise of
// env/vector/vector_env.h and training/arena/arena.h, checked over every spec rather than
// Knight Fight alone (tests/cpp/env/vector/vector_env_test.cc), since a game whose stepping kept
// shared or thread-local state would break it only for itself.
//
// The vector env: for every spec of tests/cpp/env/games/*/conformance_specs.txt, kEnvs environments
// are reset with a seed and stepped kSteps times with sample_actions (auto-resets included) on 1, 2
// and 3 threads; after the reset and after every step the observations, masks, rewards, terminated,
// truncated and current player buffers must be bit-identical (bytes, so -0.0 and 0.0 differ), and
// so must every environment's serialize(). The arena ([arena], left out of the sanitizer run): for
// every registered game at its default rules, kArenaGames games of mcts:sims=8 against random on 1
// and 2 threads, one by one, in chunks of kBatch played together and in chunks of 3 played 2 at a
// time (refilled as games end), must give the same record for every game (seats, returns,
// truncation, decisions, start and moves).
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "env/registry/registry.h"
#include "tests/cpp/env/registry/conformance_specs.h"
#include "training/arena/arena.h"

namespace knightgym {
namespace {

constexpr int kEnvs = 5;
constexpr int kSteps = 40;
constexpr uint64_t kSeed = 2024;
constexpr int kArenaGames = 6;
constexpr int kBatch = 4;  // chunks of 4 and 2 games

template <typename T>
std::string bytes(const T* data, size_t count) {
  return std::string(reinterpret_cast<const char*>(data), count * sizeof(T));
}

// Every buffer of the env as raw bytes, and every environment's state as text.
struct Snapshot {
  std::string observations, masks, rewards, terminated, truncated, current_player;
  std::vector<std::string> states;
};

Snapshot snapshot(const AnyVectorEnv& env) {
  const GameInfo& info = env.game().info();
  const size_t n = env.num_envs();
  Snapshot s{bytes(env.observations(), n * info.observation_shape.size()),
             bytes(env.masks(), n * info.num_actions),
             bytes(env.rewards(), n * info.num_players),
             bytes(env.terminated(), n),
             bytes(env.truncated(), n),
             bytes(env.current_player(), n),
             {}};
  for (size_t i = 0; i < n; ++i) s.states.push_back(env.state(static_cast<int>(i))->serialize());
  return s;
}

// The names of the parts in which two snapshots differ, or an empty string.
std::string difference(const Snapshot& a, const Snapshot& b) {
  std::string out;
  const auto compare = [&out](bool same, const char* name) {
    if (!same) out += out.empty() ? name : std::string(", ") + name;
  };
  compare(a.observations == b.observations, "observations");
  compare(a.masks == b.masks, "masks");
  compare(a.rewards == b.rewards, "rewards");
  compare(a.terminated == b.terminated, "terminated");
  compare(a.truncated == b.truncated, "truncated");
  compare(a.current_player == b.current_player, "current_player");
  compare(a.states == b.states, "states");
  return out;
}

std::vector<Snapshot> trajectory(const std::string& spec, int threads) {
  const auto env = load_game(spec)->make_vector_env({kEnvs, threads, kSeed + 1});
  REQUIRE(env->num_threads() == threads);
  env->reset(kSeed, nullptr);
  std::vector<Action> actions(kEnvs);
  std::vector<Snapshot> out{snapshot(*env)};
  for (int t = 0; t < kSteps; ++t) {
    env->sample_actions(actions.data());
    env->step(actions.data());
    out.push_back(snapshot(*env));
  }
  return out;
}

TEST_CASE("every spec's vector env steps bit-identically on 1, 2 and 3 threads", "[vector_env]") {
  for (const std::string& spec : testing::conformance_specs()) {
    const std::vector<Snapshot> one = trajectory(spec, 1);
    for (const int threads : {2, 3}) {
      const std::vector<Snapshot> other = trajectory(spec, threads);
      for (int t = 0; t <= kSteps; ++t) {
        const std::string differs = difference(one[t], other[t]);
        if (!differs.empty())
          FAIL(spec << " on " << threads << " threads, " << (t ? "step " : "after the reset")
                    << (t ? std::to_string(t) : "") << ": " << differs << " differ from 1 thread");
      }
    }
  }
}

TEST_CASE("every game's arena results are the same on 1 and 2 threads", "[arena]") {
  for (const GameEntry& entry : registered_games()) {
    const auto game = load_game(entry.name);
    const std::vector<std::shared_ptr<const AgentFactory>> agents{
        std::make_shared<AgentFactory>("mcts:sims=8", game),
        std::make_shared<AgentFactory>("random", game)};
    for (const Batching batching : {Batching{0}, Batching{kBatch}, Batching{2, 3}}) {
      const auto play = [&](int threads) {
        const ArenaOptions options{kArenaGames, threads, kSeed};
        return batching.batch ? play_arena_in_batches(*game, agents, options, batching)
                              : play_arena(*game, agents, options);
      };
      const std::vector<GameRecord> one = play(1), two = play(2);
      REQUIRE(one.size() == static_cast<size_t>(kArenaGames));
      REQUIRE(two.size() == one.size());
      for (size_t g = 0; g < one.size(); ++g) {
        INFO(entry.name << ", batch " << batching.batch << ", chunk " << batching.chunk << ", game "
                        << g);
        CHECK(two[g] == one[g]);
      }
    }
  }
}

}  // namespace
}  // namespace knightgym
