// Buffers across the binding: C++ vectors handed to numpy without a copy
// (the array owns the vector through a capsule), and Python bytes viewed as
// a span.
#pragma once

#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace manaka::python {

template <typename T>
using NumpyArray = nanobind::ndarray<nanobind::numpy, T>;

// A numpy array of `shape` over v's elements (one dimension of v.size() by default).
template <typename T, typename Allocator>
NumpyArray<T> to_numpy(std::vector<T, Allocator>&& v, std::initializer_list<size_t> shape = {}) {
  using Vector = std::vector<T, Allocator>;
  auto* owned = new Vector(std::move(v));
  nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<Vector*>(p); });
  std::vector<size_t> dims(shape);
  if (dims.empty()) dims.push_back(owned->size());
  return NumpyArray<T>(owned->data(), dims.size(), dims.data(), owner);
}

// The bytes of a Python bytes object, valid while it lives.
inline std::span<const uint8_t> bytes_of(const nanobind::bytes& b) {
  return {static_cast<const uint8_t*>(b.data()), b.size()};
}

// A Python bytes object holding a copy of b.
inline nanobind::bytes to_bytes(std::span<const uint8_t> b) {
  return nanobind::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}

}  // namespace manaka::python
