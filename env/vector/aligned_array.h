// A fixed-size, cache-line-aligned, zero-initialised array: the vector env's buffers.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace knightgym {

template <class T>
class AlignedArray {
 public:
  static constexpr std::align_val_t kAlignment{64};

  explicit AlignedArray(size_t size)
      : size_(size), data_(static_cast<T*>(::operator new[](bytes(size), kAlignment))) {
    std::uninitialized_value_construct_n(data_.get(), size);
  }

  size_t size() const { return size_; }
  T* data() { return data_.get(); }
  const T* begin() const { return data_.get(); }
  const T* end() const { return data_.get() + size_; }
  const T* data() const { return data_.get(); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  static size_t bytes(size_t size) { return size ? size * sizeof(T) : 1; }
  struct Free {
    void operator()(T* p) const { ::operator delete[](p, kAlignment); }
  };
  size_t size_;
  std::unique_ptr<T[], Free> data_;
};

}  // namespace knightgym
