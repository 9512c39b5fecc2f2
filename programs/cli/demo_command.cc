// knightgym demo: the main job for now. Random Knight Fight games in a vector env, the
// board of the first finished game, the results, and a throughput line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"

namespace knightgym::cli {

int demo_command(Args& args) {
  const int envs = static_cast<int>(args.get_int("envs", 8, 1));
  const int64_t games = args.get_int("games", 100, 1);
  const uint64_t seed = static_cast<uint64_t>(args.get_int("seed", 1, 0));
  args.finish();

  const auto game = load_game("knight_fight");
  const auto env = game->make_vector_env({envs, 1, seed});
  std::vector<Action> actions(envs);
  std::vector<uint8_t> resetting(envs, 0);  // ended last step: this step starts a new game
  int64_t finished = 0, white = 0, black = 0, draws = 0, truncated = 0, decisions = 0;
  while (finished < games) {
    env->sample_actions(actions.data());
    env->step(actions.data());
    for (int i = 0; i < envs; ++i) {
      decisions += !resetting[i];
      resetting[i] = env->terminated()[i] || env->truncated()[i];
      if (!resetting[i]) continue;
      if (finished == 0)
        std::printf("The first finished game (env %d):\n%s\n", i,
                    env->state(i)->to_string().c_str());
      const float white_return = env->rewards()[i * game->info().num_players];
      white += white_return > 0, black += white_return < 0, draws += white_return == 0;
      truncated += env->truncated()[i];
      ++finished;
    }
  }
  std::printf(
      "%lld random games: White won %lld, Black won %lld, %lld drawn (%lld truncated); "
      "%.1f decisions per game\n",
      static_cast<long long>(finished), static_cast<long long>(white),
      static_cast<long long>(black), static_cast<long long>(draws),
      static_cast<long long>(truncated),
      static_cast<double>(decisions) / static_cast<double>(finished));

  const int batch = 1024;
  // Every core, as far as the vector env takes them.
  const int threads = std::min(
      {static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), batch, kMaxThreads});
  const auto fast = game->make_vector_env({batch, threads, seed});
  actions.resize(batch);
  const int batches = 2000;
  const auto start = std::chrono::steady_clock::now();
  for (int b = 0; b < batches; ++b) {
    fast->sample_actions(actions.data());
    fast->step(actions.data());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "throughput: %.2f M steps/s (vector env, %d envs, %d threads, observation + mask "
      "every step)\n",
      batches * batch / seconds / 1e6, batch, threads);
  return 0;
}

}  // namespace knightgym::cli
