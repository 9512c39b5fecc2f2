// Where a training run's self-play games come from: played here between the learner's
// steps (LocalSelfPlay, the one-machine run), or by actors on a cluster
// (training/distributed/actor_games.h). The trainer asks for more games whenever it has
// trained as much as the games so far allow.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "training/learner/learner.h"
#include "training/selfplay/parallel_self_play.h"
#include "training/trainer/streams.h"
#include "training/trainer/train_config.h"

namespace knightgym {

// What one GameSource::next brought besides its games.
struct SourceStep {
  int64_t decisions = 0;    // decisions played, recorded or not
  int64_t evaluations = 0;  // network evaluations of their searches
  int64_t chunks = 0;       // chunks taken from actors
  // Optimizer steps between the weights that played these games and the learner's now.
  int64_t staleness = 0;
};

template <Game G>
class GameSource {
 public:
  virtual ~GameSource() = default;
  // Plays on (or waits for the actors) and appends the games that finished to `games`;
  // the learner is at `counters`. May bring no games: the run goes on asking (or, if it
  // was told to stop, stops).
  virtual SourceStep next(const Learner& learner, const TrainingCounters& counters,
                          std::vector<Trajectory<G>>& games) = 0;
  // Positions per second of each actor since the last call, `seconds` ago.
  virtual std::vector<double> actor_rates(double seconds) = 0;
};

// Self-play of a session of the run, which has made counters.decisions decisions before it:
// the setting's games on selfplay_threads threads in groups of selfplay_batch, with
// `evaluators` (one per thread), each worker on the run's LibTorch threads.
template <Game G>
ParallelSelfPlay<G> session_self_play(const RuleSets<G>& rules, const TrainConfig& config,
                                      const std::vector<std::shared_ptr<Evaluator>>& evaluators,
                                      const TrainingCounters& counters) {
  std::vector<Evaluator*> each;
  for (const auto& evaluator : evaluators) each.push_back(evaluator.get());
  return ParallelSelfPlay<G>(
      rules, config.search, each, config.games, config.selfplay_batch,
      stream_seed(config.seed, Stream::kSelfPlay, counters.decisions), config.sample_plies,
      config.playout_cap, config.horizon,
      [threads = config.threads] { Learner::set_intra_op_threads(threads); });
}

// Self-play between the learner's steps, with the network being trained: it sees every
// step at once (overlap=false). On one thread in float32 it plays the learner's own
// network; on more, or in another precision, copies of it brought up to date before each
// step.
template <Game G>
class LocalSelfPlay final : public GameSource<G> {
 public:
  LocalSelfPlay(const RuleSets<G>& rules, const TrainConfig& config, Learner& learner,
                const TrainingCounters& counters)
      : learner_(learner),
        copies_(config.selfplay_threads > 1 || config.selfplay_precision != Precision::kFloat32),
        self_play_(session_self_play(
            rules, config,
            copies_ ? learner.copies(config.selfplay_threads, config.selfplay_precision)
                    : std::vector<std::shared_ptr<Evaluator>>{learner.evaluator()},
            counters)) {}

  SourceStep next(const Learner&, const TrainingCounters&,
                  std::vector<Trajectory<G>>& games) override {
    if (copies_) learner_.sync_copies();
    const int64_t decisions = self_play_.decisions(), evaluations = self_play_.evaluations();
    self_play_.step([&](Trajectory<G>&& game) { games.push_back(std::move(game)); });
    return {self_play_.decisions() - decisions, self_play_.evaluations() - evaluations, 0, 0};
  }

  std::vector<double> actor_rates(double seconds) override {
    const int64_t decisions = self_play_.decisions() - reported_;
    reported_ = self_play_.decisions();
    return {static_cast<double>(decisions) / std::max(seconds, 1e-9)};
  }

 private:
  Learner& learner_;
  bool copies_;
  ParallelSelfPlay<G> self_play_;
  int64_t reported_ = 0;
};

}  // namespace knightgym
