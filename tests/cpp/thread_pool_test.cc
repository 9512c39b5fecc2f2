#include <atomic>
#include <catch2/catch.hpp>
#include <vector>

#include "env/vector/thread_pool.h"

namespace knightgym {
namespace {

TEST_CASE("every task index runs exactly once per run", "[thread_pool]") {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    REQUIRE(pool.size() == threads);
    std::vector<std::atomic<int>> calls(threads);
    for (int run = 0; run < 2000; ++run) pool.run([&](int t) { calls[t].fetch_add(1); });
    for (int t = 0; t < threads; ++t) REQUIRE(calls[t].load() == 2000);
  }
}

TEST_CASE("run returns only after every task has finished", "[thread_pool]") {
  ThreadPool pool(4);
  std::vector<int> written(4, 0);
  for (int run = 1; run <= 500; ++run) {
    pool.run([&](int t) { written[t] = run; });
    for (int t = 0; t < 4; ++t) REQUIRE(written[t] == run);
  }
}

TEST_CASE("a pool needs at least one thread", "[thread_pool]") {
  REQUIRE_THROWS_AS(ThreadPool(0), std::invalid_argument);
}

}  // namespace
}  // namespace knightgym
