// knightgym bench GAME: steps/s of a single-state C++ loop (rules only, and with the
// observation and mask written every step), of the vector env at 1 and T threads, and of
// the vector env stepped from Python. Every row plays uniformly random legal actions and
// reports the median of --repeat measurements (the machines are shared VMs). Where the
// game has its own sampler, a second rules-only row draws from the full action list.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "agents/random_agent.h"
#include "env/registry/typed_code.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/python_package.h"
#include "util/python_process.h"
#include "util/timing.h"

namespace knightgym::cli {
namespace {

using Clock = SteadyClock;

// Keeps the compiler from dropping writes to memory that is never read.
inline void clobber(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

// Prints the median steps/s of `repeat` calls of measure().
template <class Measure>
void print_row(const std::string& loop, int threads, int repeat, Measure&& measure) {
  std::vector<double> rates;
  for (int r = 0; r < repeat; ++r) rates.push_back(measure());
  std::sort(rates.begin(), rates.end());
  std::printf("| %-44s | %7d | %12.2f M |\n", loop.c_str(), threads, rates[repeat / 2] / 1e6);
  std::fflush(stdout);
}

// How the single-state loop draws its random actions: as the random agent does (with the
// game's own sampler where it has one, env/core/sample.h), or from the full action list.
enum class Draw { kAgent, kActionList };

template <Game G>
double single_state_loop(const G& game, int64_t steps, bool observe, Draw draw) {
  const GameInfo info = game.info();
  std::vector<float> observation(info.observation_shape.size());
  std::vector<uint8_t> mask(info.num_actions);
  Rng rng(1);
  RandomAgent<G> agent(game, 2);
  Rng list_rng(2);
  Action legal[G::kMaxActions];
  typename G::State state;
  game.init(state, rng);
  const auto start = Clock::now();
  for (int64_t i = 0; i < steps; ++i) {
    if (observe) {
      game.observe(state, game.current_player(state), observation.data());
      game.legal_mask(state, mask.data());
      clobber(observation.data());
      clobber(mask.data());
    }
    if (draw == Draw::kAgent) {
      game.apply(state, agent.act(state));
    } else {
      const int n = game.legal_actions(state, legal);
      game.apply(state, legal[list_rng.below(static_cast<uint32_t>(n))]);
    }
    if (game.terminal(state)) game.init(state, rng);
  }
  return static_cast<double>(steps) / seconds_since(start);
}

double vector_env_loop(const AnyGame& game, int envs, int threads, int64_t steps) {
  const auto env = game.make_vector_env({envs, threads, 1});
  std::vector<Action> actions(envs);
  const int64_t batches = std::max<int64_t>(1, steps / envs);
  const auto start = Clock::now();
  for (int64_t b = 0; b < batches; ++b) {
    env->sample_actions(actions.data());
    env->step(actions.data());
  }
  return static_cast<double>(batches * envs) / seconds_since(start);
}

// The rows that time a game's typed rules themselves: the benchmarks' typed code for it
// (env/registry/typed_code.h).
struct TypedBenchRows {
  void (*print)(const AnyGame& game, int64_t steps, int repeat);

  template <Game G>
  static TypedBenchRows of() {
    return {[](const AnyGame& game, int64_t steps, int repeat) {
      const G& rules = typed_rules<G>(game);
      print_row("C++ single state, rules only", 1, repeat,
                [&] { return single_state_loop(rules, steps, false, Draw::kAgent); });
      if constexpr (HasSampler<G>)
        print_row("C++ single state, rules only, action list", 1, repeat,
                  [&] { return single_state_loop(rules, steps, false, Draw::kActionList); });
      print_row("C++ single state, observation + mask", 1, repeat,
                [&] { return single_state_loop(rules, steps, true, Draw::kAgent); });
    }};
  }
};

}  // namespace

int bench_command(Args& args) {
  args.expect_positional(1);
  const int hardware = hardware_threads();
  const int envs = static_cast<int>(args.get_int("envs", 1024, 1));
  // By default every core, as far as the vector env takes them; a --threads it does not
  // take is refused here, before the first row.
  const int threads =
      static_cast<int>(args.get_int("threads", std::min({hardware, envs, kMaxThreads}), 1));
  checked_num_threads(threads, envs);
  const int64_t steps = args.get_int("steps", 4'000'000, 1);
  const int repeat = static_cast<int>(args.get_int("repeat", 3, 1));
  // The Python row runs the package beside this program: by default with the interpreter
  // its module was built for, and not at all in a build without one.
  const std::string python =
      args.get_string("python", built_python().empty() ? "none" : built_python());
  args.finish();

  const auto game = load_game(args.positional()[0]);
  std::printf(
      "knightgym bench %s\n%d envs, %d threads, %lld steps per measurement, median of %d, "
      "random actions\n\n",
      game->spec().c_str(), envs, threads, static_cast<long long>(steps), repeat);
  std::printf("| %-44s | %7s | %14s |\n|%s|%s:|%s:|\n", "loop", "threads", "steps/s",
              std::string(46, '-').c_str(), std::string(8, '-').c_str(),
              std::string(15, '-').c_str());
  // A game registered at run time without the benchmarks' code gets the vector env's rows.
  if (const TypedBenchRows* rows = TypedCode<TypedBenchRows>::find(*game))
    rows->print(*game, steps, repeat);
  const auto vector_row = [&](int t) {
    print_row("C++ vector env, observation + mask", t, repeat,
              [&] { return vector_env_loop(*game, envs, t, steps); });
  };
  vector_row(1);
  if (threads > 1) vector_row(threads);

  if (python == "none") return 0;
  const int status = run_python_module(
      python, python_package_dir(), "knightgym.bench",
      {"--spec", game->spec(), "--envs", std::to_string(envs), "--threads", std::to_string(threads),
       "--steps", std::to_string(steps), "--repeat", std::to_string(repeat)});
  if (status != 0)
    throw std::runtime_error("the Python benchmark (" + python +
                             " -m knightgym.bench) failed with status " + std::to_string(status));
  return 0;
}

}  // namespace knightgym::cli
