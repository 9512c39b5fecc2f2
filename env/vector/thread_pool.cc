#include "env/vector/thread_pool.h"

#include <stdexcept>
#include <string>

namespace knightgym {
namespace {

constexpr int kSpins = 1 << 14;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Waits until `value` differs from `old`: spin first (steps follow each other within
// microseconds), then sleep in the kernel.
template <class T>
T wait_change(const std::atomic<T>& value, T old) {
  for (int i = 0; i < kSpins; ++i) {
    const T now = value.load(std::memory_order_acquire);
    if (now != old) return now;
    cpu_relax();
  }
  value.wait(old, std::memory_order_acquire);
  return value.load(std::memory_order_acquire);
}

}  // namespace

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads < 1)
    throw std::invalid_argument("num_threads must be at least 1, got " +
                                std::to_string(num_threads));
  workers_.reserve(num_threads - 1);
  for (int i = 1; i < num_threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool() {
  stop_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::run(FunctionRef<void(int)> task) {
  if (workers_.empty()) {
    task(0);
    return;
  }
  task_ = &task;
  pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  task(0);
  for (int left = pending_.load(std::memory_order_acquire); left != 0;)
    left = wait_change(pending_, left);
}

void ThreadPool::work(int index) {
  uint64_t seen = 0;
  while (true) {
    seen = wait_change(generation_, seen);
    if (stop_.load(std::memory_order_relaxed)) return;
    (*task_)(index);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

}  // namespace knightgym
