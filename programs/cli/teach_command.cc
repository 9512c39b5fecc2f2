// knightgym teach: teacher data (training/teacher/teacher_data.h) into DIR, with --resume,
// and SIGINT/SIGTERM stopping with whole shards written.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/stop_signals.h"
#include "training/teacher/teacher_data.h"

namespace knightgym::cli {

int teach_command(Args& args) {
  args.expect_positional(1);
  const auto game = load_game(args.positional()[0]);
  TeacherOptions options;
  options.teacher = args.get_string("teacher", options.teacher);
  options.games = args.get_int("games", options.games, 1);
  options.threads = static_cast<int>(args.get_int("threads", options.threads, 1));
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  options.opening_plies = static_cast<int>(args.get_int("opening-plies", 0, 0));
  options.shard_games = args.get_int("shard-games", options.shard_games, 1);
  options.batch = args.get_int("batch", options.batch, 1);
  const std::string out = args.get_string("out", "");
  const bool resume = args.get_switch("resume");
  args.finish();
  if (out.empty()) throw std::invalid_argument("--out DIR is required");

  const TeacherRun run =
      generate_teacher_data(*game, options, out, resume, stderr, stop_on_signals());
  std::printf("%s: %lld games, %lld positions in %.1f s (%.1f positions/s); %lld shards in %s\n",
              game->spec().c_str(), static_cast<long long>(run.games),
              static_cast<long long>(run.decisions), run.seconds,
              static_cast<double>(run.decisions) / std::max(run.seconds, 1e-9),
              static_cast<long long>(run.shards), out.c_str());
  if (stop_signal() == 0) return 0;
  std::fprintf(stderr, "stopped by signal %d: whole shards written; --resume continues\n",
               stop_signal());
  return 128 + stop_signal();
}

}  // namespace knightgym::cli
