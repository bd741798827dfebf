// Hands C++ buffers to numpy without copying: the array owns the vector
// through a capsule.
#pragma once

#include <nanobind/ndarray.h>

#include <cstddef>
#include <initializer_list>
#include <vector>

namespace manaka::python {

template <typename T>
using NumpyArray = nanobind::ndarray<nanobind::numpy, T>;

// A numpy array of `shape` over v's elements (one dimension of v.size() by default).
template <typename T>
NumpyArray<T> to_numpy(std::vector<T>&& v, std::initializer_list<size_t> shape = {}) {
  auto* owned = new std::vector<T>(std::move(v));
  nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  std::vector<size_t> dims(shape);
  if (dims.empty()) dims.push_back(owned->size());
  return NumpyArray<T>(owned->data(), dims.size(), dims.data(), owner);
}

}  // namespace manaka::python
