#include "env/vector/thread_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <system_error>

namespace knightgym {
namespace {

// Waiting is spin, then yield, then sleep: steps follow each other within microseconds,
// so a short spin catches the next one; yielding lets a busy machine run whoever holds
// work; the kernel wait costs nothing while idle.
constexpr int kSpins = 2000;
constexpr int kYields = 50;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Waits until `value` differs from `old` and returns the new value.
template <class T>
T wait_change(const std::atomic<T>& value, T old) {
  for (int i = 0; i < kSpins + kYields; ++i) {
    const T now = value.load(std::memory_order_acquire);
    if (now != old) return now;
    if (i < kSpins)
      cpu_relax();
    else
      std::this_thread::yield();
  }
  value.wait(old, std::memory_order_acquire);
  return value.load(std::memory_order_acquire);
}

constexpr uint64_t pack(uint32_t generation, uint32_t next, uint32_t end) {
  return uint64_t{generation} << 32 | uint64_t{next} << 16 | end;
}

}  // namespace

ThreadPool::ThreadPool(int num_threads, ThreadStarter start)
    : slots_(num_threads > 0 ? num_threads : 0) {
  if (num_threads < 1)
    throw std::invalid_argument("num_threads must be at least 1, got " +
                                std::to_string(num_threads));
  workers_.reserve(num_threads - 1);
  // A constructor that throws runs no destructor: the threads started so far are stopped
  // and joined here, since destroying a joinable std::thread ends the process.
  for (int i = 1; i < num_threads; ++i) {
    try {
      workers_.push_back(start(i, [this, i] { worker_loop(i); }));
    } catch (const std::system_error& error) {
      stop_workers();
      // The caller's thread is thread 1; worker i is thread i + 1.
      throw std::runtime_error("cannot start thread " + std::to_string(i + 1) + " of " +
                               std::to_string(num_threads) + ": " + error.what());
    } catch (...) {
      stop_workers();
      throw;
    }
  }
}

ThreadPool::~ThreadPool() { stop_workers(); }

void ThreadPool::stop_workers() {
  stop_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (auto& worker : workers_)
    if (worker.joinable()) worker.join();
}

void ThreadPool::parallel_for(int count, FunctionRef<void(int, int)> task) {
  if (count <= 0) return;
  if (workers_.empty()) {
    task(0, count);
    return;
  }
  const int threads = size();
  const int blocks = std::min({count, threads * kBlocksPerThread, kMaxBlocks});
  const uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
  task_ = &task;
  count_ = count;
  blocks_ = blocks;
  blocks_left_.store(blocks, std::memory_order_relaxed);
  for (int t = 0; t < threads; ++t)
    slots_[t].claim.store(pack(generation, blocks * t / threads, blocks * (t + 1) / threads),
                          std::memory_order_release);
  generation_.store(generation, std::memory_order_release);
  generation_.notify_all();
  work(generation, 0);
  for (int left = blocks_left_.load(std::memory_order_acquire); left != 0;)
    left = wait_change(blocks_left_, left);
}

void ThreadPool::work(uint32_t generation, int self) {
  const int threads = size();
  for (int k = 0; k < threads; ++k) {  // own run first, then the others'
    std::atomic<uint64_t>& slot = slots_[(self + k) % threads].claim;
    uint64_t claim = slot.load(std::memory_order_acquire);
    while (true) {
      const uint32_t next = (claim >> 16) & 0xffff, end = claim & 0xffff;
      if ((claim >> 32) != generation || next >= end) break;
      if (!slot.compare_exchange_weak(claim, pack(generation, next + 1, end),
                                      std::memory_order_acq_rel, std::memory_order_acquire))
        continue;  // claim now holds the fresh value
      // Holding an unfinished block of this call, its fields are stable until we finish.
      (*task_)(static_cast<int>(int64_t{count_} * next / blocks_),
               static_cast<int>(int64_t{count_} * (next + 1) / blocks_));
      if (blocks_left_.fetch_sub(1, std::memory_order_acq_rel) == 1) blocks_left_.notify_one();
      claim = slot.load(std::memory_order_acquire);
    }
  }
}

void ThreadPool::worker_loop(int self) {
  uint32_t seen = 0;
  while (true) {
    seen = wait_change(generation_, seen);
    if (stop_.load(std::memory_order_relaxed)) return;
    work(seen, self);
  }
}

}  // namespace knightgym
