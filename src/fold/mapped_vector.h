// Large arrays in their own memory mappings.
//
// The fold's arenas and the spools' buffers are tens to hundreds of MB, are
// allocated and freed once per spool, and must give their memory back when
// freed: --buckets promises a peak that follows the largest spool, not the
// sum of them. glibc's malloc does not promise that: after freeing a large
// mmapped block it raises its mmap threshold to that size (up to 32 MiB), and
// later blocks below it come from the heap, where freed memory stays
// resident. So blocks of at least kMappedBytes go straight to mmap/munmap
// here; smaller ones to the ordinary allocator.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace manaka::fold {

inline constexpr size_t kMappedBytes = size_t{1} << 20;

template <typename T>
struct MappedAllocator {
  using value_type = T;

  MappedAllocator() = default;
  template <typename U>
  MappedAllocator(const MappedAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kMappedBytes) return std::allocator<T>().allocate(n);
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();  // what std::allocator does too
    return static_cast<T*>(p);
  }

  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kMappedBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      ::munmap(p, bytes);
    }
  }

  // resize() leaves new elements default-initialised (trivial types: not
  // zeroed): every arena here is written before it is read, and zeroing
  // would be a second pass over gigabytes (core/default_init.h does the same).
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const MappedAllocator<U>&) const { return true; }
};

template <typename T>
using MappedVector = std::vector<T, MappedAllocator<T>>;

}  // namespace manaka::fold
