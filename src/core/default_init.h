// An allocator whose resize() leaves new elements of trivial types
// uninitialised instead of zeroing them.
//
// Why: a column sized up front and then filled by several threads would be
// zeroed, and every page faulted in, by the one thread that sized it; with
// this allocator each page is first touched by the thread that writes it.
// Only for arrays every element of which is written before it is read.
#pragma once

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace manaka {

template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;  // default-initialised: no zeroing
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), p,
                                                        std::forward<Args>(args)...);
  }
};

// A vector of trivial values that resize() does not zero.
template <typename T>
using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace manaka
