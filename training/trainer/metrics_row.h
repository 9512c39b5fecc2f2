// A training run's metrics.csv: its columns, and the row that sums up one period (about
// log_seconds of training): the run's counters, the period's mean losses, game length
// and speeds, the agreement with a teacher's held-out games, the scores of a match round
// that ended in it, the learner's steps per second and the staleness of self-play's
// games.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "training/learner/learner.h"
#include "training/selfplay/trajectory.h"
#include "training/teacher/teacher_set.h"
#include "training/trainer/run_summary.h"

namespace knightgym {

// What one metrics row sums up.
template <Game G>
struct TrainingPeriod {
  double start = 0;
  int64_t steps = 0, games = 0, game_decisions = 0;
  double policy = 0, value = 0, entropy = 0;
  // Recorded decisions that came in, and their staleness (weighted by decisions).
  int64_t positions = 0, staleness_sum = 0, staleness_max = 0;

  void add(const Losses& l) {
    ++steps;
    policy += l.policy, value += l.value, entropy += l.entropy;
  }
  void add_game(const Trajectory<G>& game, int64_t staleness) {
    ++games;
    game_decisions += game.plies;
    positions += game.size();
    staleness_sum += staleness * game.size();
    staleness_max = std::max(staleness_max, staleness);
  }
  double mean_policy_loss() const {
    return policy / static_cast<double>(std::max<int64_t>(1, steps));
  }
};

inline std::vector<std::string> metrics_columns(const std::vector<std::string>& baselines) {
  std::vector<std::string> out = {"step",
                                  "samples",
                                  "decisions",
                                  "games",
                                  "seconds",
                                  "replay",
                                  "policy_loss",
                                  "value_loss",
                                  "entropy",
                                  "game_length",
                                  "selfplay_pos_per_s",
                                  "evaluations_per_s",
                                  "generation",
                                  "holdout_policy_loss",
                                  "holdout_top1",
                                  "score_vs_best"};
  for (const std::string& baseline : baselines) out.push_back("score_vs_" + baseline);
  for (const char* column :
       {"learner_steps_per_s", "staleness", "staleness_max", "actor_pos_per_s"})
    out.push_back(column);
  return out;
}

// The row of `period`, ended at `now` seconds of training: `decisions` and `evaluations`
// are the period's, `holdout` the agreement with a teacher's held-out games (while
// learning from one), `round` the scores of a match round that ended in the period (or
// nullptr), `baselines` the number of baselines, `actor_rates` each actor's positions per
// second (a distributed run's).
template <Game G>
std::vector<std::string> metrics_row(const TrainingCounters& counters, int64_t replay,
                                     const TrainingPeriod<G>& period, double now, int64_t decisions,
                                     int64_t evaluations, const std::optional<Agreement>& holdout,
                                     const std::vector<MatchResult>* round, size_t baselines,
                                     const std::vector<double>& actor_rates) {
  const auto number = [](double value, const char* format = "%.4f") {
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return std::string(text);
  };
  const double seconds = std::max(1e-9, now - period.start);
  const double steps = static_cast<double>(std::max<int64_t>(1, period.steps));
  const bool trained = period.steps > 0;
  std::vector<std::string> row = {
      std::to_string(counters.steps),
      std::to_string(counters.samples),
      std::to_string(counters.decisions),
      std::to_string(counters.games),
      number(now, "%.1f"),
      std::to_string(replay),
      trained ? number(period.policy / steps) : "",
      trained ? number(period.value / steps) : "",
      trained ? number(period.entropy / steps) : "",
      period.games ? number(static_cast<double>(period.game_decisions) / period.games, "%.1f") : "",
      number(decisions / seconds, "%.1f"),
      number(evaluations / seconds, "%.1f"),
      std::to_string(counters.generation)};
  row.push_back(holdout ? number(holdout->policy_loss) : "");
  row.push_back(holdout ? number(holdout->top1) : "");
  for (size_t i = 0; i <= baselines; ++i)
    row.push_back(round && i < round->size() ? number((*round)[i].score.score) : "");
  row.push_back(number(period.steps / seconds, "%.2f"));
  row.push_back(period.positions
                    ? number(static_cast<double>(period.staleness_sum) / period.positions, "%.1f")
                    : "");
  row.push_back(period.positions ? std::to_string(period.staleness_max) : "");
  std::string rates;  // each actor's, ';' between them
  for (const double rate : actor_rates) rates += (rates.empty() ? "" : ";") + number(rate, "%.1f");
  row.push_back(rates);
  return row;
}

}  // namespace knightgym
