#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

#include "env/vector/thread_pool.h"

namespace knightgym {
namespace {

TEST_CASE("every index is covered exactly once per run", "[thread_pool]") {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    REQUIRE(pool.size() == threads);
    for (int count : {0, 1, 5, 64, 1000}) {
      std::vector<std::atomic<int>> calls(count);
      std::atomic<int> bad_ranges{0};  // Catch2 assertions are not thread-safe
      for (int run = 0; run < 300; ++run)
        pool.parallel_for(count, [&](int begin, int end) {
          bad_ranges += !(0 <= begin && begin < end && end <= count);
          for (int i = begin; i < end; ++i) calls[i].fetch_add(1);
        });
      REQUIRE(bad_ranges.load() == 0);
      for (int i = 0; i < count; ++i) REQUIRE(calls[i].load() == 300);
    }
  }
}

TEST_CASE("parallel_for returns only after every range has finished", "[thread_pool]") {
  ThreadPool pool(4);
  std::vector<int> written(100, 0);
  for (int run = 1; run <= 500; ++run) {
    pool.parallel_for(100, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) written[i] = run;
    });
    for (int i = 0; i < 100; ++i) REQUIRE(written[i] == run);
  }
}

TEST_CASE("a slow block does not stop the other threads from taking the rest", "[thread_pool]") {
  ThreadPool pool(2);
  constexpr int kCount = 64;
  std::atomic<int> done{0};
  int others_done_first = -1, first_end = 0;
  // The block holding index 0 waits (up to 10 s) for all other indices: they finish only
  // if the other thread keeps claiming blocks, as a split into fixed halves would not.
  pool.parallel_for(kCount, [&](int begin, int end) {
    if (begin == 0) {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (done.load() < kCount - end && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
      others_done_first = done.load();
      first_end = end;
    }
    done.fetch_add(end - begin);
  });
  REQUIRE(done.load() == kCount);
  REQUIRE(first_end < kCount);  // the run was cut into more than one block
  REQUIRE(others_done_first == kCount - first_end);
}

TEST_CASE("a pool needs at least one thread", "[thread_pool]") {
  REQUIRE_THROWS_AS(ThreadPool(0), std::invalid_argument);
}

// Thread starts that fail from the third on (as std::thread's constructor does when the
// system has no thread to give), counting the workers that ran and returned.
std::atomic<int> started{0}, finished{0};
std::thread start_two(int index, std::function<void()> body) {
  if (index > 2)
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "no thread for you");
  ++started;
  return std::thread([body = std::move(body)] {
    body();
    ++finished;
  });
}

TEST_CASE("a pool that cannot start a thread stops the others and says which", "[thread_pool]") {
  started = finished = 0;
  // Without the cleanup, the two started threads would end the process (std::terminate).
  REQUIRE_THROWS_WITH(ThreadPool(6, &start_two),
                      Catch::Contains("cannot start thread 4 of 6: no thread for you"));
  CHECK(started == 2);
  CHECK(finished == 2);  // joined before the constructor threw
  ThreadPool fine(3, &start_two);
  std::atomic<int> sum{0};
  fine.parallel_for(100, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) sum += i;
  });
  CHECK(sum == 4950);
}

}  // namespace
}  // namespace knightgym
