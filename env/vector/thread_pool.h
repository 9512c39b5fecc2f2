// A persistent pool for data-parallel loops. parallel_for cuts [0, count) into blocks;
// each thread owns a contiguous run of them (the same one every call, so an item's data
// stays in that core's cache) and, once its own are done, steals the blocks others have
// not claimed yet. It returns once every block is done: a thread that is descheduled (a
// busy machine, a learner beside the envs) delays at most the block it holds. Workers
// spin briefly, yield, then sleep on an atomic wait, so back-to-back calls pay no thread
// start and no mutex. Which thread runs a block must not change results.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "env/vector/function_ref.h"

namespace knightgym {

class ThreadPool {
 public:
  // Starts worker thread `index` (1 to num_threads - 1) running `body`: std::thread's
  // constructor, which tests replace to see a start fail.
  using ThreadStarter = std::thread (*)(int index, std::function<void()> body);
  static std::thread start_thread(int, std::function<void()> body) {
    return std::thread(std::move(body));
  }

  // num_threads counts the caller's: it starts num_threads - 1 workers. Throws
  // std::invalid_argument for fewer than 1, and std::runtime_error ("cannot start thread
  // k of n: why") if a thread cannot start, after stopping those it started.
  explicit ThreadPool(int num_threads, ThreadStarter start = &start_thread);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(begin, end) over disjoint ranges covering [0, count), concurrently, and
  // returns when all are done. Tasks must not throw. One parallel_for at a time.
  void parallel_for(int count, FunctionRef<void(int, int)> task);

 private:
  // A thread's run of blocks for the current call: the call's generation (bits 32-63),
  // the next unclaimed block (16-31) and the end of the run (0-15). A thread that wakes
  // late sees a newer generation and claims nothing, so it never reads the fields of a
  // call it does not belong to.
  struct alignas(64) Slot {
    std::atomic<uint64_t> claim{0};
  };
  static constexpr int kBlocksPerThread = 8;
  static constexpr int kMaxBlocks = 0xffff;

  void work(uint32_t generation, int self);
  void worker_loop(int self);
  void stop_workers();

  std::vector<std::thread> workers_;
  std::vector<Slot> slots_;
  // Fields of the current call, written before the slots are published.
  const FunctionRef<void(int, int)>* task_ = nullptr;
  int count_ = 0, blocks_ = 0;
  std::atomic<int> blocks_left_{0};
  std::atomic<uint32_t> generation_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace knightgym
