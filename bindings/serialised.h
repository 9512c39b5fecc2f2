// One call at a time on an object that Python threads share (a vector env, an agent):
// each method takes the object's Serialised lock for its whole run, so calls from several
// threads follow one another and never see or leave the object half changed.
//
// The lock is taken while holding the GIL, and how it waits matters. A method releases
// the GIL while C++ works (stepping, searching) and takes it back to build its results,
// still holding the lock. A second thread that blocked on the lock while holding the GIL
// would keep the first from taking the GIL back: a deadlock. So the lock is tried first
// (try_lock, the common case of no contention, costs nothing more), and only if another
// thread holds it does the waiter release the GIL while it blocks; it takes the GIL back
// once it has the lock. A thread that calls the object again while one of its calls is
// running (a Python callback inside the call, such as an array-like's __array__)
// would wait for itself forever: that raises RuntimeError instead.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace knightgym::python {

class Serialised {
 public:
  // Holds the lock until destroyed. Construct it while holding the GIL.
  class Guard {
   public:
    Guard(Serialised& owner, const char* what) : owner_(owner) {
      const std::thread::id self = std::this_thread::get_id();
      // Only this thread writes its own id here, so reading it unlocked is exact for it.
      if (owner_.holder_.load(std::memory_order_relaxed) == self)
        throw std::runtime_error(std::string(what) +
                                 " is already in use by this thread (re-entered)");
      if (!owner_.mutex_.try_lock()) {
        pybind11::gil_scoped_release release;  // the holder may need the GIL to finish
        owner_.mutex_.lock();
      }
      owner_.holder_.store(self, std::memory_order_relaxed);
    }
    ~Guard() {
      owner_.holder_.store(std::thread::id(), std::memory_order_relaxed);
      owner_.mutex_.unlock();
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    Serialised& owner_;
  };

 private:
  std::mutex mutex_;
  std::atomic<std::thread::id> holder_{};  // the thread in a call, if any
};

}  // namespace knightgym::python
