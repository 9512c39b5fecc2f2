// A balance run's progress bar on stderr: the rule set, the games played and an ETA,
// redrawn a few times a second on a terminal and every half minute elsewhere.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "training/balance/balance.h"
#include "util/progress.h"

namespace knightgym {

class BalanceProgressPrinter {
 public:
  explicit BalanceProgressPrinter(std::FILE* out)
      : line_(out), period_(isatty(fileno(out)) ? 0.25 : 30.0) {}

  void operator()(const BalanceProgress& progress) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const bool last = progress.games_done >= progress.games_planned;
    if (elapsed - last_print_ < period_ && !last) return;
    last_print_ = elapsed;
    line_.update(static_cast<double>(progress.games_done) /
                     static_cast<double>(std::max<int64_t>(1, progress.games_planned)),
                 elapsed,
                 "rule set " + std::to_string(progress.rule_set + 1) + "/" +
                     std::to_string(progress.rule_sets) + ", " +
                     std::to_string(progress.games_done) + "/" +
                     std::to_string(progress.games_planned) + " games");
  }

  void finish() { line_.finish_line(); }

 private:
  using Clock = std::chrono::steady_clock;
  ProgressLine line_;
  double period_;
  Clock::time_point start_ = Clock::now();
  double last_print_ = -1e9;
};

}  // namespace knightgym
