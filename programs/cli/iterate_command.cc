// knightgym iterate: expert iteration a generation at a time (training/iteration/
// iteration.h): the parent's search teaches, the child trains from the parent's weights,
// a sequential gate against the parent keeps or discards it. Into DIR, with --resume,
// and SIGINT/SIGTERM stopping it with every step's progress written.
#include <cstdio>
#include <filesystem>
#include <string>

#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/stop_signals.h"
#include "programs/cli/train_session.h"
#include "training/balance/balance.h"
#include "training/iteration/iteration.h"

namespace knightgym::cli {

int iterate_command(Args& args) {
  args.expect_positional(1);
  const auto game = load_game(args.positional()[0]);
  IterationOptions options;
  options.parent = args.get_string("parent", "");
  options.generations = static_cast<int>(args.get_int("generations", 1, 1));
  options.minutes = args.get_double("minutes", 0, 0);
  options.steps = args.get_int("steps", 0, 0);
  const std::string config = args.get_string("config", "");
  options.teacher_sims = static_cast<int>(args.get_int("teacher-sims", options.teacher_sims, 1));
  options.teacher_steps = static_cast<int>(args.get_int("teacher-steps", options.teacher_steps, 1));
  options.teach.games = args.get_int("teach-games", 1000, 1);
  options.teach.opening_plies = static_cast<int>(args.get_int("opening-plies", 2, 0));
  options.teach.shard_games = args.get_int("shard-games", options.teach.shard_games, 1);
  options.teach.threads = args.get_threads("threads", 1);
  options.teach.batch = args.get_int("batch", 32, 1);
  options.teacher_device = args.get_string("teacher-device", options.teacher_device);
  options.device = args.get_string("device", options.device);
  options.gate.max_games = args.get_int("gate-games", options.gate.max_games, 0);
  options.gate.chunk_games = args.get_int("gate-batch", options.gate.chunk_games, 1);
  options.gate.sims = static_cast<int>(args.get_int("gate-sims", options.gate.sims, 1));
  if (args.has("gate-sprt")) options.gate.sprt = parse_sprt(args.get_string("gate-sprt", ""));
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  const std::string out = args.get_string("out", "");
  const bool resume = args.get_switch("resume");
  args.finish();
  if (out.empty()) throw std::invalid_argument("--out DIR is required");
  if (!config.empty()) options.settings = read_settings(config);

  const std::atomic<bool>& stop = stop_on_signals();
  const TrainSession train = [&](const TrainConfig& settings, const std::string& dir, bool again,
                                 double minutes, int64_t steps) {
    return train_session(*game, settings, options.device, dir, again, minutes, steps, stop, stderr);
  };
  const IterationEnd end = run_iteration(game, options, out, resume, train, stderr, stop);
  if (end != IterationEnd::kStopped) {
    const std::string best = out + "/best.pt";
    std::printf(
        "%s/generations.csv: the generations; %s\n", out.c_str(),
        std::filesystem::exists(best) ? (best + ": the last kept child").c_str() : "no child kept");
    return 0;
  }
  std::fprintf(stderr, "stopped by signal %d: the progress written; --resume continues\n",
               stop_signal());
  return 128 + stop_signal();
}

}  // namespace knightgym::cli
