#pragma once
// A vector of at most N trivially copyable values kept inline: move lists are built and
// dropped at every node of a search, so they must not touch the heap.

#include <array>
#include <cassert>
#include <cstddef>
#include <type_traits>

namespace rastros {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kCapacity = N;

  void push_back(T value) {
    assert(size_ < N);
    items_[size_++] = value;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

 private:
  std::array<T, N> items_{};
  std::size_t size_ = 0;
};

}  // namespace rastros
