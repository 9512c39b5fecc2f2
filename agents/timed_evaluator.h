// An evaluator that measures another: its calls, the rows they held and the time they
// took, and, over every TimedEvaluator sharing one BusyMeter, the time at least one call
// was in flight (what keeps the network's device busy, as far as the host can see: a
// call's time includes its copies to and from the device). For the self-play benchmark;
// each thread its own TimedEvaluator, the meter shared.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "agents/evaluator.h"

namespace knightgym {

class BusyMeter {
 public:
  void enter() {
    std::lock_guard lock(mutex_);
    if (in_flight_++ == 0) since_ = Clock::now();
  }
  void leave() {
    std::lock_guard lock(mutex_);
    if (--in_flight_ == 0) busy_ += Clock::now() - since_;
  }
  // Busy time so far, the interval in flight included.
  int64_t nanoseconds() const {
    std::lock_guard lock(mutex_);
    const Clock::duration busy =
        busy_ + (in_flight_ > 0 ? Clock::now() - since_ : Clock::duration{});
    return std::chrono::nanoseconds(busy).count();
  }

 private:
  using Clock = std::chrono::steady_clock;
  mutable std::mutex mutex_;
  int in_flight_ = 0;
  Clock::time_point since_;
  Clock::duration busy_{};
};

class TimedEvaluator final : public Evaluator {
 public:
  TimedEvaluator(Evaluator& inner, BusyMeter& meter) : inner_(inner), meter_(meter) {}

  const GameInfo& info() const override { return inner_.info(); }

  void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                float* values) override {
    meter_.enter();
    const auto start = std::chrono::steady_clock::now();
    try {
      inner_.evaluate(n, observations, masks, priors, values);
    } catch (...) {
      meter_.leave();
      throw;
    }
    nanoseconds_ += std::chrono::nanoseconds(std::chrono::steady_clock::now() - start).count();
    meter_.leave();
    ++calls_;
    rows_ += n;
  }

  int64_t calls() const { return calls_; }
  int64_t rows() const { return rows_; }
  int64_t nanoseconds() const { return nanoseconds_; }

 private:
  Evaluator& inner_;
  BusyMeter& meter_;
  int64_t calls_ = 0, rows_ = 0, nanoseconds_ = 0;
};

}  // namespace knightgym
