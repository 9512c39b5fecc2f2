// Self-play on T threads: the games split into groups of B, each group a SelfPlay of its
// own (its searches batched together, one evaluator call per round of simulations), group
// g played by thread g mod T with that thread's evaluator. A step plays one decision in
// every game of every group, the threads at once, and hands the finished games over in
// the groups' order.
//
// The games do not depend on T, only on the number of games, B and the seed: a group draws
// from a stream of its own (derive_seed(seed, g); a single group from the seed itself, so
// that it plays the games of one SelfPlay), and its batches hold its own games whichever
// thread plays them. That takes evaluators that answer a batch alike: copies of one
// network, each on the same number of intra-op threads (on_thread_start sets them on each
// worker; the calling thread is worker 0, and is as the caller left it).
#pragma once

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agents/env_clock.h"
#include "training/selfplay/self_play.h"

namespace knightgym {

// Where a self-play thread's time went, when measured.
struct SelfPlayThreadClock {
  EnvClock env;  // in the game's code, inside the searches
  // Playing its groups; the rest of each step it waits for the other threads.
  int64_t playing_nanoseconds = 0;
};

template <Game G>
class ParallelSelfPlay {
 public:
  // evaluators: one per thread (T = their number). Throws std::invalid_argument if there
  // are none, or more threads than groups (a thread with nothing to play).
  ParallelSelfPlay(const RuleSets<G>& rules, const AzConfig& search,
                   std::span<Evaluator* const> evaluators, int num_games, int group_games,
                   uint64_t seed, int sample_plies = 30, PlayoutCap cap = {}, int horizon = 0,
                   std::function<void()> on_thread_start = {})
      : threads_(static_cast<int>(evaluators.size())),
        on_thread_start_(std::move(on_thread_start)) {
    const int group_size = group_games > 0 ? group_games : num_games;
    const int groups = (num_games + group_size - 1) / group_size;
    if (threads_ < 1 || threads_ > groups)
      throw std::invalid_argument("self-play on " + std::to_string(threads_) +
                                  " threads: " + std::to_string(num_games) +
                                  " games in groups of " + std::to_string(group_size) + " make " +
                                  std::to_string(groups) + " groups, one or more per thread");
    for (int g = 0; g < groups; ++g)
      groups_.push_back(std::make_unique<SelfPlay<G>>(
          rules, search, *evaluators[g % threads_],
          std::min(group_size, num_games - g * group_size),
          groups == 1 ? seed : derive_seed(seed, static_cast<uint64_t>(g)), sample_plies, cap,
          horizon));
    finished_.resize(groups);
    failures_.resize(threads_);
  }

  // One decision in every game; on_finished(Trajectory<G>&&) receives each game that
  // ended, group by group. An exception on any thread is rethrown here once all are done.
  template <class OnFinished>
  void step(OnFinished&& on_finished) {
    std::fill(failures_.begin(), failures_.end(), nullptr);
    {
      std::vector<std::jthread> workers;
      for (int t = 1; t < threads_; ++t)
        workers.emplace_back([this, t] {
          if (on_thread_start_) on_thread_start_();
          play_groups(t, failures_[t]);
        });
      play_groups(0, failures_[0]);
    }
    for (const std::exception_ptr& failure : failures_)
      if (failure) std::rethrow_exception(failure);
    for (std::vector<Trajectory<G>>& games : finished_) {
      for (Trajectory<G>& game : games) on_finished(std::move(game));
      games.clear();
    }
  }

  // Measures where each thread's time goes from the next step on, thread t's into
  // clocks[t] (the self-play benchmark); empty: no measuring. Throws
  // std::invalid_argument for another number of clocks than threads.
  void set_clocks(std::span<SelfPlayThreadClock> clocks) {
    if (!clocks.empty() && static_cast<int>(clocks.size()) != threads_)
      throw std::invalid_argument("self-play clocks: " + std::to_string(clocks.size()) + " for " +
                                  std::to_string(threads_) + " threads");
    clocks_ = clocks;
    for (size_t g = 0; g < groups_.size(); ++g)
      groups_[g]->set_env_clock(clocks.empty() ? nullptr : &clocks[g % threads_].env);
  }

  int threads() const { return threads_; }
  int64_t decisions() const { return sum(&SelfPlay<G>::decisions); }
  int64_t finished_games() const { return sum(&SelfPlay<G>::finished_games); }
  int64_t evaluations() const { return sum(&SelfPlay<G>::evaluations); }

 private:
  // Thread t's step: its groups in order, the first failure kept.
  void play_groups(int t, std::exception_ptr& failure) {
    const auto start = std::chrono::steady_clock::now();
    try {
      for (size_t g = t; g < groups_.size(); g += threads_)
        groups_[g]->step([&](Trajectory<G>&& game) { finished_[g].push_back(std::move(game)); });
    } catch (...) {
      failure = std::current_exception();
    }
    if (!clocks_.empty())
      clocks_[t].playing_nanoseconds +=
          std::chrono::nanoseconds(std::chrono::steady_clock::now() - start).count();
  }

  int64_t sum(int64_t (SelfPlay<G>::*count)() const) const {
    int64_t total = 0;
    for (const auto& group : groups_) total += ((*group).*count)();
    return total;
  }

  int threads_;
  std::function<void()> on_thread_start_;
  std::span<SelfPlayThreadClock> clocks_;
  std::vector<std::unique_ptr<SelfPlay<G>>> groups_;
  std::vector<std::vector<Trajectory<G>>> finished_;  // each group's games of the step
  std::vector<std::exception_ptr> failures_;          // each thread's of the step
};

}  // namespace knightgym
