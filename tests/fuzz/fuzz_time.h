// How the fuzz targets check that a reader's time is linear in its input: the input is
// read as it is and grown eight-fold (kGrowth copies), and the larger input may cost at
// most kFactor times the smaller's CPU time per byte, or kFloor, whichever is more: a
// generous budget that a linear reader meets even under the sanitizers on a loaded
// machine (CPU time of this thread, the least of several runs, so that waiting for a core
// does not count), and that a quadratic scan over hundreds of items misses.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

namespace knightgym::fuzz {

inline constexpr int kGrowth = 8;       // the larger input is this many copies of the smaller
inline constexpr double kFactor = 50;   // allowed growth of the time per byte
inline constexpr double kFloor = 0.05;  // seconds that any one read may take regardless

inline double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// CPU seconds of one read(): the least over a few runs, each of enough reads to be
// measured (at least 20 microseconds).
template <class Read>
double seconds_per_read(const Read& read) {
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    int reads = 0;
    const double start = cpu_seconds();
    double elapsed = 0;
    do {
      read();
      ++reads;
      elapsed = cpu_seconds() - start;
    } while (elapsed < 20e-6 && reads < 1000);
    best = std::min(best, elapsed / reads);
  }
  return best;
}

// Fails unless reading `larger` (by read(text)) costs at most the budget above against
// reading `smaller`.
template <class Read>
void require_linear(std::string_view reader, const std::string& smaller, const std::string& larger,
                    const Read& read) {
  if (smaller.empty()) return;
  const double small = seconds_per_read([&] { read(smaller); });
  const double large = seconds_per_read([&] { read(larger); });
  const double budget = std::max(kFloor, kFactor * small * static_cast<double>(larger.size()) /
                                             static_cast<double>(smaller.size()));
  if (large > budget)
    fail(reader, " took ", std::to_string(large * 1e6), " us on ", std::to_string(larger.size()),
         " bytes, ", std::to_string(small * 1e6), " us on ", std::to_string(smaller.size()),
         ": more than linear (budget ", std::to_string(budget * 1e6), " us)");
}

}  // namespace knightgym::fuzz
