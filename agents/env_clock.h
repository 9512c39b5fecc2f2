// The time a search spends in the game's own code (moves, end checks and returns, legal
// actions, observations and masks, roll-outs), measured only when asked: the self-play
// benchmark gives its searches a clock; without one, as everywhere else, a search reads no
// time, and each timed call costs one predictable branch.
#pragma once

#include <chrono>
#include <cstdint>

namespace knightgym {

struct EnvClock {
  int64_t nanoseconds = 0;
};

// Adds the time from its construction to its end to the clock, if there is one.
class EnvTimer {
 public:
  explicit EnvTimer(EnvClock* clock) : clock_(clock) {
    if (clock_) start_ = std::chrono::steady_clock::now();
  }
  ~EnvTimer() {
    if (clock_)
      clock_->nanoseconds +=
          std::chrono::nanoseconds(std::chrono::steady_clock::now() - start_).count();
  }
  EnvTimer(const EnvTimer&) = delete;
  EnvTimer& operator=(const EnvTimer&) = delete;

 private:
  EnvClock* clock_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace knightgym
