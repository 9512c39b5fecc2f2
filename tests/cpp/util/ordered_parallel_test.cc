// ordered_parallel: results consumed in index order whatever the threads' timing, never
// more than the window ahead, and the first exception stops the work and comes back.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <thread>

#include "util/ordered_parallel.h"

using namespace knightgym;

TEST_CASE("ordered_parallel consumes in order within its window", "[util]") {
  for (const int threads : {1, 2, 4}) {
    std::vector<int64_t> seen;
    std::atomic<int64_t> running_ahead{0};
    int64_t most_ahead = 0;
    ordered_parallel(
        200, threads, 6,
        [&](int64_t i, const std::atomic<bool>&) {
          // Later items finish first now and then.
          if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
          ++running_ahead;
          return i * i;
        },
        [&](int64_t square) {
          seen.push_back(square);
          most_ahead =
              std::max(most_ahead, running_ahead.load() - static_cast<int64_t>(seen.size()));
        },
        [] {});
    REQUIRE(seen.size() == 200);
    for (int64_t i = 0; i < 200; ++i) CHECK(seen[i] == i * i);
    CHECK(most_ahead <= 6);
  }
}

TEST_CASE("ordered_parallel stops at the first exception", "[util]") {
  std::atomic<int64_t> produced{0};
  const auto produce = [&](int64_t i, const std::atomic<bool>&) {
    ++produced;
    if (i == 30) throw std::runtime_error("item 30 failed");
    return i;
  };
  CHECK_THROWS_WITH(ordered_parallel(
                        1000, 2, 8, produce, [](int64_t) {}, [] {}),
                    "item 30 failed");
  CHECK(produced < 1000);

  // From the consumer, and from idle() while an item is slow.
  CHECK_THROWS_WITH(ordered_parallel(
                        100, 2, 4, [](int64_t i, const std::atomic<bool>&) { return i; },
                        [](int64_t i) {
                          if (i == 5) throw std::runtime_error("consumer stops");
                        },
                        [] {}),
                    "consumer stops");
  CHECK_THROWS_WITH(ordered_parallel(
                        4, 1, 4,
                        [](int64_t, const std::atomic<bool>& stop) {
                          while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                          return 0;
                        },
                        [](int) {}, [] { throw std::runtime_error("interrupted"); },
                        std::chrono::milliseconds(5)),
                    "interrupted");
}
