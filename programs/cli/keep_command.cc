// knightgym keep: a training run's kept state, to commit and go on from on another
// machine (training/trainer/kept_run.h).
#include <cstdio>
#include <stdexcept>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "training/trainer/kept_run.h"

namespace knightgym::cli {

int keep_command(Args& args) {
  args.expect_positional(2);
  KeepOptions options;
  options.compact = args.get_switch("compact");
  options.replay_decisions = args.get_int("replay-decisions", -1, 0);
  args.finish();
  const std::string& run = args.positional()[0];
  const std::string& dest = args.positional()[1];
  const KeptRun kept = keep_run(run, dest, options);
  std::printf(
      "%s: step %lld, %lld replay decisions, %.1f MB; go on with: knightgym train GAME "
      "--out %s --resume\n",
      dest.c_str(), static_cast<long long>(kept.step),
      static_cast<long long>(kept.replay_decisions), kept.bytes / 1e6, dest.c_str());
  return 0;
}

}  // namespace knightgym::cli
