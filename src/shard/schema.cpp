#include "shard/schema.h"

#include "shard/row.h"

namespace manaka::shard {

std::shared_ptr<arrow::DataType> candidate_type() {
  static const auto type = arrow::struct_({arrow::field("mv", arrow::uint16(), false),
                                           arrow::field("prob", arrow::float32(), false),
                                           arrow::field("cp", arrow::int16(), true)});
  return type;
}

std::shared_ptr<arrow::Schema> shard_schema() {
  static const auto schema = arrow::schema({
      arrow::field("packed", arrow::fixed_size_binary(kPackedLen), false),
      arrow::field("ply", arrow::uint16(), false),
      arrow::field("value_z", arrow::float32(), false),
      arrow::field("value_q", arrow::float32(), false),
      arrow::field("weight", arrow::uint32(), false),
      arrow::field("candidates",
                   arrow::list(arrow::field("element", candidate_type(), false)), false),
  });
  return schema;
}

namespace {

// Type equality that ignores field nullability and names of list elements.
bool same_shape(const arrow::DataType& a, const arrow::DataType& b) {
  if (a.id() != b.id()) return false;
  if (a.id() == arrow::Type::FIXED_SIZE_BINARY) {
    return static_cast<const arrow::FixedSizeBinaryType&>(a).byte_width() ==
           static_cast<const arrow::FixedSizeBinaryType&>(b).byte_width();
  }
  if (a.num_fields() != b.num_fields()) return false;
  for (int i = 0; i < a.num_fields(); ++i) {
    if (a.id() == arrow::Type::STRUCT && a.field(i)->name() != b.field(i)->name()) return false;
    if (!same_shape(*a.field(i)->type(), *b.field(i)->type())) return false;
  }
  return true;
}

}  // namespace

Status check_schema(const arrow::Schema& schema, const std::string& path) {
  auto want = shard_schema();
  for (int i = 0; i < want->num_fields(); ++i) {
    const auto& f = want->field(i);
    int at = schema.GetFieldIndex(f->name());
    if (at < 0) return Status::invalid(path + ": not a shard: no column '" + f->name() + "'");
    const auto& got = schema.field(at);
    if (!same_shape(*got->type(), *f->type())) {
      return Status::invalid(path + ": not a shard: column '" + f->name() + "' is " +
                             got->type()->ToString() + ", expected " + f->type()->ToString());
    }
  }
  return Status();
}

}  // namespace manaka::shard
