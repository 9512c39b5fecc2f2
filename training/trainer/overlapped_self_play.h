// Self-play beside the learner: a thread plays one step (a decision in every game) with
// copies of the network, on selfplay_threads threads (game_source.h), while the learner
// trains on the games before it, so that neither waits for the other
// (training/trainer/trainer.h asks for games, then trains as much as they allow). Each
// call to next() waits for the step in flight, hands over its games, sends the learner's
// weights to the copies and starts the next step: the step played during the learner's
// k-th round of training uses the weights of the end of round k-1. The games therefore
// depend on the seed alone, not on the threads' timing or number (a run plays exactly
// the same games as itself), and lag the learner by one round, which the metrics report
// as staleness.
#pragma once

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "training/trainer/game_source.h"

namespace knightgym {

template <Game G>
class OverlappedSelfPlay final : public GameSource<G> {
 public:
  // A session of the run, which has made counters.decisions decisions before it.
  OverlappedSelfPlay(const RuleSets<G>& rules, const TrainConfig& config, Learner& learner,
                     const TrainingCounters& counters)
      : learner_(learner),
        self_play_(session_self_play(
            rules, config, learner.copies(config.selfplay_threads, config.selfplay_precision),
            counters)),
        threads_(config.threads) {}

  ~OverlappedSelfPlay() override {
    if (player_) player_->join();  // its games and any failure die with the session
  }
  OverlappedSelfPlay(const OverlappedSelfPlay&) = delete;
  OverlappedSelfPlay& operator=(const OverlappedSelfPlay&) = delete;

  SourceStep next(const Learner&, const TrainingCounters& counters,
                  std::vector<Trajectory<G>>& games) override {
    wait();
    for (Trajectory<G>& game : played_) games.push_back(std::move(game));
    played_.clear();
    const SourceStep step{self_play_.decisions() - decisions_,
                          self_play_.evaluations() - evaluations_, 0,
                          counters.steps - published_at_};
    decisions_ = self_play_.decisions();
    evaluations_ = self_play_.evaluations();
    learner_.sync_copies();
    published_at_ = counters.steps;
    player_.emplace([this] {
      try {
        Learner::set_intra_op_threads(threads_);
        self_play_.step([&](Trajectory<G>&& game) { played_.push_back(std::move(game)); });
      } catch (...) {
        failure_ = std::current_exception();
      }
    });
    return step;
  }

  std::vector<double> actor_rates(double seconds) override {
    const int64_t decisions = decisions_ - reported_;
    reported_ = decisions_;
    return {static_cast<double>(decisions) / std::max(seconds, 1e-9)};
  }

 private:
  // Joins the step in flight, if any, and rethrows what it threw.
  void wait() {
    if (!player_) return;
    player_->join();
    player_.reset();
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

  Learner& learner_;
  ParallelSelfPlay<G> self_play_;
  int threads_;
  std::optional<std::thread> player_;
  std::exception_ptr failure_;
  std::vector<Trajectory<G>> played_;  // the step in flight's finished games
  int64_t decisions_ = 0, evaluations_ = 0, reported_ = 0, published_at_ = 0;
};

}  // namespace knightgym
