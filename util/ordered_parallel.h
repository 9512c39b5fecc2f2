// Work items produced on threads and consumed in order on the calling thread:
// produce(i) for i in [0, count) runs on `threads` threads, and consume(result) sees the
// results in index order, so what it builds does not depend on the thread count. The
// threads run at most `window` items ahead of consume, which keeps memory bounded
// however many items there are. idle() runs on the calling thread while it waits, about
// every `idle_period`.
//
// An exception from produce, consume or idle stops the work: `stop` is set for produce
// to quit early, the threads finish the items they hold (their results and exceptions
// then dropped), and the first exception is rethrown.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "util/run_threads.h"

namespace knightgym {

template <class Produce, class Consume, class Idle>
void ordered_parallel(int64_t count, int threads, int64_t window, const Produce& produce,
                      const Consume& consume, const Idle& idle,
                      std::chrono::milliseconds idle_period = std::chrono::milliseconds(250)) {
  using Result = decltype(produce(int64_t{0}, std::declval<const std::atomic<bool>&>()));
  std::mutex mutex;
  std::condition_variable changed;  // a result is ready, or the consumer moved on
  std::map<int64_t, Result> ready;
  int64_t next = 0, consumed = 0;
  std::atomic<bool> stop{false};
  std::exception_ptr failure;

  const auto worker = [&] {
    while (true) {
      int64_t i;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || next >= count || next < consumed + window; });
        if (stop || next >= count) return;
        i = next++;
      }
      try {
        Result result = produce(i, stop);
        std::lock_guard lock(mutex);
        ready.emplace(i, std::move(result));
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!stop && !failure) failure = std::current_exception();
        stop = true;
      }
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool = start_threads(std::max(1, threads), worker, [&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
  });
  try {
    while (consumed < count) {
      std::unique_lock lock(mutex);
      if (!changed.wait_for(lock, idle_period, [&] { return stop || ready.count(consumed); })) {
        lock.unlock();
        idle();
        continue;
      }
      if (stop) break;
      Result result = std::move(ready.at(consumed));
      ready.erase(consumed);
      ++consumed;
      lock.unlock();
      changed.notify_all();
      consume(std::move(result));
    }
  } catch (...) {
    std::lock_guard lock(mutex);
    if (!failure) failure = std::current_exception();
    stop = true;
  }
  changed.notify_all();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace knightgym
