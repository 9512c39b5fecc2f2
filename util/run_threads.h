// The threads of a run (play, balance, ladder, teach, self-play): how many it may be given,
// and starting them so that a system that cannot start one is an error, not an abort.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace knightgym {

// The most threads a run may be given: far above any machine's cores, past which more
// threads gain nothing, and far below the count whose stacks and per-thread agents would
// exhaust memory before a game is played.
inline constexpr int kMaxRunThreads = 1024;

// Throws std::invalid_argument "<name> must be in 1..1024, got N" for a count outside.
inline void check_run_threads(const std::string& name, int64_t threads) {
  if (threads < 1 || threads > kMaxRunThreads)
    throw std::invalid_argument(name + " must be in 1.." + std::to_string(kMaxRunThreads) +
                                ", got " + std::to_string(threads));
}

// `count` threads running `worker`. Where the system cannot start one (out of memory or of
// threads), stop() tells those started to end; they are joined and std::runtime_error
// says how many started, where a joinable thread's destructor would abort the process.
template <class Worker, class Stop>
std::vector<std::thread> start_threads(int count, const Worker& worker, const Stop& stop) {
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(count));
  try {
    for (int t = 0; t < count; ++t) threads.emplace_back(worker);
  } catch (const std::system_error& error) {
    stop();
    for (std::thread& thread : threads) thread.join();
    throw std::runtime_error("the system started " + std::to_string(threads.size()) + " of " +
                             std::to_string(count) + " threads (" + error.what() +
                             "): give fewer threads");
  }
  return threads;
}

}  // namespace knightgym
