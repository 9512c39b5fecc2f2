// A long C++ call that Ctrl-C stops: work(stop) runs on a thread of its own without the GIL
// while the calling thread, which Python's signal handlers run on, looks for a signal
// every 100 ms. On one it sets `stop`, waits for the work to end as it ends when stopped
// (whole files written), and raises the signal's exception (KeyboardInterrupt) in the
// caller, whose process goes on.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace knightgym::python {

// work(const std::atomic<bool>& stop)'s result; its exception, if it throws, is rethrown.
// Call with the GIL held.
template <class Work>
auto run_stoppable(const Work& work) -> decltype(work(std::declval<const std::atomic<bool>&>())) {
  using Result = decltype(work(std::declval<const std::atomic<bool>&>()));
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false, interrupted = false;
  std::exception_ptr failure;
  std::optional<Result> result;
  {
    pybind11::gil_scoped_release release;
    std::thread worker([&] {
      try {
        result.emplace(work(stop));
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      ended.notify_all();
    });
    std::unique_lock lock(mutex);
    while (!ended.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) {
      if (interrupted) continue;
      lock.unlock();
      {
        pybind11::gil_scoped_acquire acquire;
        interrupted = PyErr_CheckSignals() != 0;  // the error stays set for the caller
      }
      if (interrupted) stop = true;
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted) throw pybind11::error_already_set();
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

}  // namespace knightgym::python
