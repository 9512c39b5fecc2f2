// A persistent pool that runs one task per thread and waits for all of them: the caller
// runs task 0 and size()-1 workers run the rest. Workers spin briefly, then sleep on an
// atomic wait, so back-to-back steps pay no thread start and no mutex.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "env/vector/function_ref.h"

namespace knightgym {

class ThreadPool {
 public:
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(t) for every t in [0, size()) concurrently and returns when all are done.
  // Tasks must not throw. Not reentrant: one run() at a time.
  void run(FunctionRef<void(int)> task);

 private:
  void work(int index);

  std::vector<std::thread> workers_;
  const FunctionRef<void(int)>* task_ = nullptr;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace knightgym
