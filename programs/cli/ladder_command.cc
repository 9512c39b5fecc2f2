// knightgym ladder: agents play each other in pairs and get Bradley-Terry Elo with 95%
// intervals, one agent (random by default) at 0 (training/ladder/ladder.h).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "agents/agent_kinds.h"
#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "training/ladder/ladder.h"
#include "util/atomic_file.h"

namespace knightgym::cli {

int ladder_command(Args& args) {
  if (args.positional().size() != 1)
    throw std::invalid_argument(
        "usage: knightgym ladder GAME --agents SPEC,SPEC[,...] [--schedule roundrobin|gauntlet "
        "[--challengers K]] [--games N] [--threads T | --batch B] [--seed S] [--anchor SPEC] "
        "[--json FILE]");
  const auto game = load_game(args.positional()[0]);
  LadderOptions options;
  options.agents = split_agent_specs(args.get_string("agents", ""));
  options.schedule = parse_ladder_schedule(args.get_string("schedule", "roundrobin"));
  options.challengers = static_cast<int>(args.get_int("challengers", 1, 1));
  options.games = args.get_int("games", 100, 1);
  options.threads = static_cast<int>(args.get_int("threads", 1, 1));
  options.batch = args.get_int("batch", 0, 0);
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  options.anchor = args.get_string("anchor", "");
  options.prior_draws = args.get_double("prior-draws", 2, 0);
  const std::string json = args.get_string("json", "");
  args.finish();

  const bool terminal = isatty(STDERR_FILENO);
  const auto progress = [&](int64_t done, int64_t total) {
    if (terminal)
      std::fprintf(stderr, "\r%lld/%lld games", static_cast<long long>(done),
                   static_cast<long long>(total));
  };
  const LadderResult result = run_ladder(game, options, progress);
  if (terminal) std::fputs("\n", stderr);

  std::printf("%s, %lld games per pair (%s), seed %llu, %.1f s\n\n", result.game.c_str(),
              static_cast<long long>(options.games),
              options.schedule == LadderSchedule::kRoundRobin ? "round robin" : "gauntlet",
              static_cast<unsigned long long>(options.seed), result.seconds);
  std::printf("| %-48s | %7s | %7s | %6s | %6s |\n", "agent", "Elo", "95%", "games", "score");
  std::printf("|%s|--------:|--------:|-------:|-------:|\n", std::string(50, '-').c_str());
  for (size_t i = 0; i < result.ratings.size(); ++i) {
    const LadderRating& r = result.ratings[i];
    const std::string interval = static_cast<int>(i) == result.anchor
                                     ? "anchor"
                                     : "+-" + std::to_string(std::lround(r.half_width));
    std::printf("| %-48s | %7.0f | %7s | %6lld | %5.1f%% |\n", r.name.substr(0, 48).c_str(), r.elo,
                interval.c_str(), static_cast<long long>(r.games), 100 * r.score);
  }
  std::printf("\npairs (the first agent's wins-draws-losses and score, as the fit reads them):\n");
  for (const LadderPair& p : result.pairs) {
    const AgentScore& s = p.first_score;
    std::printf("  %s vs %s: %lld-%lld-%lld, %.1f%%\n", result.ratings[p.first].name.c_str(),
                result.ratings[p.second].name.c_str(), static_cast<long long>(s.wins),
                static_cast<long long>(s.draws), static_cast<long long>(s.losses),
                100 * ladder_points(s) / static_cast<double>(s.games));
  }
  if (!json.empty()) write_file_atomically(json, ladder_json(result));
  return 0;
}

}  // namespace knightgym::cli
