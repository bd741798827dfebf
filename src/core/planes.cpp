#include "core/planes.h"

namespace manaka {

std::string plane_cell_name(const PlaneLayout& l, int plane, int cell) {
  return "plane " + std::to_string(plane) + " (" + l.plane_name(plane) + "), row " + std::to_string(cell / l.side) +
         ", column " + std::to_string(cell % l.side);
}

Result<int> uniform_plane_value(const PlaneLayout& l, const int8_t* planes, int plane) {
  const int8_t* p = planes + plane * l.cells();
  for (int cell = 1; cell < l.cells(); ++cell)
    if (p[cell] != p[0])
      return Status::invalid(plane_cell_name(l, plane, cell) + ": the plane must be uniform, got " +
                             std::to_string(int(p[cell])) + " after " + std::to_string(int(p[0])));
  return int(p[0]);
}

Result<bool> uniform_plane_flag(const PlaneLayout& l, const int8_t* planes, int plane) {
  MANAKA_ASSIGN_OR_RETURN(int v, uniform_plane_value(l, planes, plane));
  if (v != 0 && v != 1)
    return Status::invalid(plane_cell_name(l, plane, 0) + ": expected 0 or 1, got " + std::to_string(v));
  return v == 1;
}

}  // namespace manaka
