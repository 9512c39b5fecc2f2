// knightgym teach: teacher data (training/teacher/teacher_data.h) into DIR, or with --rules
// a run for each rule set of a grid in DIR/rules-NNN; with --resume, and SIGINT/SIGTERM
// stopping with whole shards written.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "env/registry/registry.h"
#include "env/registry/rule_grid.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/stop_signals.h"
#include "training/teacher/teacher_data.h"

namespace knightgym::cli {
namespace {

constexpr size_t kMostRuleSets = 1000;  // rules-NNN

}  // namespace

int teach_command(Args& args) {
  args.expect_positional(1);
  const auto game = load_game(args.positional()[0]);
  TeacherOptions options;
  options.teacher = args.get_string("teacher", options.teacher);
  options.games = args.get_int("games", options.games, 1);
  options.threads = args.get_threads("threads", options.threads);
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  options.opening_plies = static_cast<int>(args.get_int("opening-plies", 0, 0));
  options.shard_games = args.get_int("shard-games", options.shard_games, 1);
  options.batch = args.get_int("batch", options.batch, 1);
  const std::string out = args.get_string("out", "");
  const std::vector<Sweep> rules = parse_sweeps(args.get_string("rules", ""));
  const bool resume = args.get_switch("resume");
  args.finish();
  if (out.empty()) throw std::invalid_argument("--out DIR is required");

  // A run for each rule set of the grid, in DIR/rules-NNN, or the game's own in DIR.
  std::vector<std::pair<std::string, std::string>> runs;  // spec, directory
  if (rules.empty()) {
    runs.emplace_back(game->spec(), out);
  } else {
    const std::vector<RuleSet> grid = expand_grid(game->spec(), rules);
    if (grid.size() > kMostRuleSets)
      throw std::invalid_argument("--rules makes " + std::to_string(grid.size()) +
                                  " rule sets; at most " + std::to_string(kMostRuleSets));
    for (size_t r = 0; r < grid.size(); ++r) {
      char name[32];
      std::snprintf(name, sizeof name, "/rules-%03zu", r);
      runs.emplace_back(grid[r].spec, out + name);
    }
  }
  // Each folder is checked before the first game. With --rules, --resume goes on in the
  // folders that hold a run and starts the others (a run stopped before them).
  std::vector<bool> go_on;
  for (const auto& [spec, dir] : runs) {
    go_on.push_back(resume && (rules.empty() || std::filesystem::exists(dir + "/teach.txt")));
    check_teacher_dir(dir, go_on.back());
  }
  for (size_t r = 0; r < runs.size(); ++r) {
    const auto& [spec, dir] = runs[r];
    const TeacherRun run =
        generate_teacher_data(*load_game(spec), options, dir, go_on[r], stderr, stop_on_signals());
    std::printf("%s: %lld games, %lld positions in %.1f s (%.1f positions/s); %lld shards in %s\n",
                spec.c_str(), static_cast<long long>(run.games),
                static_cast<long long>(run.decisions), run.seconds,
                static_cast<double>(run.decisions) / std::max(run.seconds, 1e-9),
                static_cast<long long>(run.shards), dir.c_str());
    if (stop_signal() != 0) break;
  }
  if (stop_signal() == 0) return 0;
  std::fprintf(stderr, "stopped by signal %d: whole shards written; --resume continues\n",
               stop_signal());
  return 128 + stop_signal();
}

}  // namespace knightgym::cli
