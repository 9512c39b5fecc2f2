// Wall-clock time for benchmarks, progress and reports: a monotonic clock, never the
// system time, so measurements survive clock adjustments.
#pragma once

#include <chrono>

namespace knightgym {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace knightgym
