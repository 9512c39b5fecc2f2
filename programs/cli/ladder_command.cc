// knightgym ladder: agents play each other in pairs and get Bradley-Terry Elo with 95%
// intervals, one agent (random by default) at 0 (training/ladder/ladder.h), on --threads
// threads (default: every core), with --batch B in chunks of B games played together
// (--chunk C: chunks of C games, B of them in play, as play's).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "agents/agent_kinds.h"
#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/markdown_report.h"
#include "training/ladder/ladder.h"
#include "util/atomic_file.h"
#include "util/output_lock.h"

namespace knightgym::cli {

int ladder_command(Args& args) {
  args.expect_positional(1);
  const auto game = load_game(args.positional()[0]);
  LadderOptions options;
  options.agents = split_agent_specs(args.get_string("agents", ""));
  options.schedule = parse_ladder_schedule(args.get_string("schedule", "roundrobin"));
  options.challengers = static_cast<int>(args.get_int("challengers", 1, 1));
  options.games = args.get_int("games", 100, 1);
  options.threads = args.get_threads("threads", hardware_threads());
  options.batch = args.get_int("batch", 0, 1);  // 0: not given, each game on its own
  options.chunk = args.get_int("chunk", 0, 1);  // 0: not given, chunks of B
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  options.anchor = args.get_string("anchor", "");
  options.prior_draws = args.get_double("prior-draws", 2, 0);
  const std::string json = args.get_string("json", "");
  args.finish();
  const std::vector<OutputLock> outputs = lock_files({json});  // held to the end

  const bool terminal = isatty(STDERR_FILENO);
  const auto progress = [&](int64_t done, int64_t total) {
    if (terminal)
      std::fprintf(stderr, "\r%lld/%lld games", static_cast<long long>(done),
                   static_cast<long long>(total));
  };
  const LadderResult result = run_ladder(game, options, progress);
  if (terminal) std::fputs("\n", stderr);

  const std::string text = ladder_json(result);
  if (json.empty()) return print_markdown_report_of("knightgym.ladder", text);
  write_file_atomically(json, text);
  return print_markdown_report("knightgym.ladder", json);
}

}  // namespace knightgym::cli
