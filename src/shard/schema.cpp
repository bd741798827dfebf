#include "shard/schema.h"

#include "shard/row.h"

namespace manaka::shard {

using parquet::Field;
using parquet::Type;

const std::vector<Field>& shard_fields() {
  using parquet::field;
  static const std::vector<Field> fields = {
      parquet::fixed_size_binary("packed", static_cast<int32_t>(kPackedLen), false),
      field("ply", Type::UInt16, false),
      field("value_z", Type::Float, false),
      field("value_q", Type::Float, false),
      field("weight", Type::UInt32, false),
      parquet::list_of("candidates",
                       parquet::struct_of("element",
                                          {field("mv", Type::UInt16, false), field("prob", Type::Float, false),
                                           field("cp", Type::Int16, true)},
                                          false),
                       false),
  };
  return fields;
}

namespace {

// Type equality that ignores field nullability and names of list elements.
bool same_shape(const Field& a, const Field& b) {
  if (a.type != b.type) return false;
  if (a.type == Type::FixedSizeBinary) return a.byte_width == b.byte_width;
  if (a.children.size() != b.children.size()) return false;
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (a.type == Type::Struct && a.children[i].name != b.children[i].name) return false;
    if (!same_shape(a.children[i], b.children[i])) return false;
  }
  return true;
}

}  // namespace

Status check_schema(const std::vector<Field>& fields, const std::string& path) {
  for (const Field& want : shard_fields()) {
    const Field* got = nullptr;
    for (const Field& f : fields) {
      if (f.name == want.name) {
        got = &f;
        break;
      }
    }
    if (!got) return Status::invalid(path + ": not a shard: no column '" + want.name + "'");
    if (!same_shape(*got, want)) {
      return Status::invalid(path + ": not a shard: column '" + want.name + "' is " + got->type_name +
                             ", expected " + parquet::type_name(want));
    }
  }
  return Status();
}

}  // namespace manaka::shard
