#include "training/balance/balance.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "agents/network.h"
#include "env/core/params.h"
#include "env/registry/registry.h"
#include "training/balance/balance_chunks.h"
#include "training/balance/progress_file.h"
#include "util/ordered_parallel.h"
#include "util/text.h"
#include "util/timing.h"

namespace knightgym {

SprtSettings parse_sprt(const std::string& text) {
  ParamReader reader(parse_spec("sprt(" + text + ")"));
  SprtSettings settings;
  settings.a0 = reader.get_float("a0", settings.a0, -1, 1,
                                 "H0: the first seat's advantage (its mean return above the mean)");
  settings.a1 = reader.get_float("a1", settings.a1, -1, 1, "H1: the advantage, above a0");
  settings.alpha = reader.get_float("alpha", settings.alpha, 0, 1, "P(accept H1 | H0)");
  settings.beta = reader.get_float("beta", settings.beta, 0, 1, "P(accept H0 | H1)");
  reader.finish();
  check_sprt_settings(settings);
  return settings;
}

namespace {

// A run resumed with other games: more, in whole chunks (chunk i holds the same games
// whatever the run's size, but a short last chunk would not).
void check_extension(const SavedProgress& saved, const BalanceOptions& options,
                     const ChunkLayout& layout) {
  if (saved.games == 0 || saved.games == options.games) return;
  const std::string planned = std::to_string(saved.games);
  if (options.games < saved.games)
    throw std::invalid_argument(options.progress_file + ": a run of " + planned +
                                " games per rule set can be extended, not shortened: --games " +
                                planned + " or more");
  if (saved.games % layout.chunk_games != 0)
    throw std::invalid_argument(options.progress_file + ": a run of " + planned +
                                " games per rule set ends in a short chunk (" +
                                std::to_string(layout.chunk_games) +
                                " games a chunk), so it cannot be extended");
}

}  // namespace

BalanceResult run_balance(const BalanceOptions& options,
                          const std::function<void(const BalanceProgress&)>& progress,
                          const ChunkRunner& runner, const std::atomic<bool>* stop) {
  const auto start = SteadyClock::now();
  const BalanceChunkPlayer player(options);
  const ChunkLayout& layout = player.layout();
  const std::vector<RuleSet>& grid = player.grid();
  BalanceResult result;
  result.options = options;
  result.agent_specs = player.agent_specs();
  result.chunk_games = layout.chunk_games;
  const int64_t block_games = static_cast<int64_t>(options.agents.size());

  const std::string identity =
      progress_identity(options, result.agent_specs, layout.chunk_games, grid);
  SavedProgress saved_progress;
  if (!options.progress_file.empty() && std::filesystem::exists(options.progress_file)) {
    if (!options.resume)
      throw std::invalid_argument(options.progress_file +
                                  " holds a run's progress: --resume goes on with it (with more "
                                  "--games, it extends the run), or delete the file to start "
                                  "afresh");
    saved_progress = load_progress(options.progress_file, identity);
    if (saved_progress.rule_sets.size() > grid.size())
      throw std::invalid_argument(options.progress_file + ": more rule sets than the grid's");
    check_extension(saved_progress, options, layout);
  }
  // The sequences keep the tuning of the run's start when it is extended.
  const int64_t planned = saved_progress.games > 0 ? saved_progress.games : options.games;
  result.tuned_blocks = saved_progress.tuned_blocks > 0 ? saved_progress.tuned_blocks
                                                        : (planned + block_games - 1) / block_games;
  saved_progress.tuned_blocks = result.tuned_blocks;
  saved_progress.games = options.games;
  std::vector<SavedRuleSet>& saved = saved_progress.rule_sets;

  BalanceProgress status{0, static_cast<int>(grid.size()), 0,
                         options.games * static_cast<int64_t>(grid.size())};
  const auto report = [&] {
    if (progress) progress(status);
  };
  // Reports, and ends the window once `stop` is set (caught below, where the progress is
  // saved).
  const auto poll = [&] {
    report();
    if (stop && stop->load()) throw BalanceStopped("");
  };
  // The chunks on this process's threads, at most a few per thread ahead of the fold,
  // each thread's networks on one intra-op thread (agents/network.h).
  const ChunkRunner on_threads = [&](int rule_set, int64_t first, int64_t count,
                                     const std::function<void(const RuleSetTally&)>& consume) {
    const NetworkThreadShare share(options.threads);
    ordered_parallel(
        count, options.threads, 4 * static_cast<int64_t>(options.threads),
        [&](int64_t i, const std::atomic<bool>& quit) {
          return player.play(rule_set, first + i, &quit);
        },
        consume, poll);
  };
  const ChunkRunner& play = runner ? runner : on_threads;

  // Chunks go to the runner in windows of about a minute, so that the progress is saved
  // that often; the windows end at the sequential test's looks. Results do not depend
  // on them.
  constexpr double kWindowSeconds = 60;
  int64_t window = options.threads;
  auto last_save = SteadyClock::now();
  double earlier_seconds = 0;
  for (size_t r = 0; r < grid.size(); ++r) {
    const auto rule_start = SteadyClock::now();
    RuleSetResult rule_set{grid[r], {}, {}, 0};
    const int players = player.players(static_cast<int>(r));
    const int k = static_cast<int>(options.agents.size());
    if (r == saved.size()) saved.push_back({0, 0, RuleSetTally(players, k)});
    SavedRuleSet& done = saved[r];
    if (done.chunks_done > layout.chunks || done.tally.players != players ||
        done.tally.block_games != k)
      throw std::invalid_argument(options.progress_file + ": rule set " + std::to_string(r) +
                                  " does not fit the run");
    status.rule_set = static_cast<int>(r);
    status.games_done += done.tally.games;
    report();
    int64_t& next = done.chunks_done;
    const double seconds_before = done.seconds;
    earlier_seconds += seconds_before;  // played before a resume
    while (true) {
      const bool look = next == layout.chunks || (next > 0 && next % layout.look_chunks == 0);
      if (options.sprt && look) {
        const SprtState state =
            sprt_state(*options.sprt, done.tally.blocks, done.tally.block_advantage.sum,
                       done.tally.block_advantage.squares);
        rule_set.sprt = SprtOutcome{*options.sprt, state};
        if (state.decision != SprtDecision::kContinue) break;
      }
      if (next == layout.chunks) break;
      const int64_t until =
          options.sprt
              ? std::min(layout.chunks, (next / layout.look_chunks + 1) * layout.look_chunks)
              : layout.chunks;
      const int64_t count = std::min(until - next, window);
      const auto window_start = SteadyClock::now();
      int64_t expected = next;
      // Once `stop` is set: the chunks folded so far are saved, those under way dropped.
      const auto stopped = [&] {
        next = expected;
        done.seconds = seconds_before + seconds_since(rule_start);
        std::string kept;
        if (!options.progress_file.empty()) {
          save_progress(options.progress_file, identity, saved_progress);
          kept = "; " + options.progress_file + " holds them, and --resume goes on";
        }
        return BalanceStopped("balance: stopped after " + std::to_string(status.games_done) +
                              " games" + kept);
      };
      if (stop && stop->load()) throw stopped();
      try {
        play(static_cast<int>(r), next, count, [&](const RuleSetTally& chunk) {
          if (expected++ >= next + count)
            throw std::logic_error("balance: a runner handed back more chunks than asked for");
          done.tally.merge(chunk);
          status.games_done += chunk.games;
          poll();
        });
      } catch (const BalanceStopped&) {
        throw stopped();
      }
      if (expected != next + count)
        throw std::runtime_error("balance: the runner handed back " +
                                 std::to_string(expected - next) + " of " + std::to_string(count) +
                                 " chunks");
      next += count;
      const double per_chunk = seconds_since(window_start) / static_cast<double>(count);
      window = std::max<int64_t>(options.threads,
                                 static_cast<int64_t>(kWindowSeconds / std::max(per_chunk, 1e-6)));
      done.seconds = seconds_before + seconds_since(rule_start);
      if (!options.progress_file.empty() && seconds_since(last_save) >= kWindowSeconds) {
        save_progress(options.progress_file, identity, saved_progress);
        last_save = SteadyClock::now();
      }
    }
    // A rule set the test stopped early hands its unplayed games to the plan.
    status.games_planned -= options.games - done.tally.games;
    done.seconds = seconds_before + seconds_since(rule_start);
    rule_set.figures = measure(done.tally, result.tuned_blocks);
    rule_set.seconds = done.seconds;
    result.rule_sets.push_back(std::move(rule_set));
    if (!options.progress_file.empty())
      save_progress(options.progress_file, identity, saved_progress);
  }
  std::vector<MeanEstimate> advantages;
  std::vector<SequenceDesign> designs, game_designs;
  std::vector<std::vector<int64_t>> wins;
  std::vector<int64_t> games;
  std::vector<GamesFingerprint> fingerprints;
  for (const RuleSetResult& rule_set : result.rule_sets) {
    const RuleSetFigures& figures = rule_set.figures;
    fingerprints.push_back(fingerprint(figures));
    advantages.push_back(figures.advantage);
    designs.push_back(figures.design);
    game_designs.push_back(figures.game_design);
    wins.emplace_back();
    for (const SeatFigures& seat : figures.seats) wins.back().push_back(seat.wins);
    games.push_back(figures.games);
  }
  result.verdicts = advantage_verdicts(advantages, designs);
  result.comparisons = compare_with_first(advantages, designs);
  result.fairness = fairest_rule_sets(wins, games, game_designs);
  result.same_games = match_same_games(fingerprints);
  result.seconds = seconds_since(start) + earlier_seconds;
  return result;
}

}  // namespace knightgym
