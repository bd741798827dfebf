// Network input planes as the encoders write them (chess/encode.h,
// shogi/encode.h): int8 values in C order (plane, row, column) on a square
// board of `side` x `side` cells. Filling a plane, and reading one back with
// refusals that name the plane, row and column, are the same for both games.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "core/status.h"

namespace manaka {

struct PlaneLayout {
  int side;                                   // 8 (chess) or 9 (shogi)
  std::string (*plane_name)(int plane);       // "our pawns", ...
  int cells() const { return side * side; }
};

inline void fill_plane(const PlaneLayout& l, int8_t* out, int plane, int8_t value) {
  std::memset(out + plane * l.cells(), value, size_t(l.cells()));
}

// "plane 3 (our rooks), row 2, column 5"
std::string plane_cell_name(const PlaneLayout& l, int plane, int cell);

// The value every cell of a plane that must be uniform holds, or the
// refusal naming the first cell that differs.
Result<int> uniform_plane_value(const PlaneLayout& l, const int8_t* planes, int plane);

// The same, and the value must be 0 or 1.
Result<bool> uniform_plane_flag(const PlaneLayout& l, const int8_t* planes, int plane);

}  // namespace manaka
