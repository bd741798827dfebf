#include "parquet/column_builder.h"

namespace manaka::parquet {

namespace {

void set_bit(std::vector<uint8_t>& bits, int64_t i, bool on) {
  const auto byte = static_cast<size_t>(i >> 3);
  if (bits.size() <= byte) bits.resize(byte + 1, 0);
  if (on) bits[byte] = static_cast<uint8_t>(bits[byte] | (1u << (i & 7)));
}

}  // namespace

ColumnBuilder::ColumnBuilder(const Field& field) : type_(field.type) {
  width_ = static_cast<size_t>(value_width(type_));
  if (is_text(type_) || is_list(type_)) {
    assert(type_ == Type::Utf8 || type_ == Type::Binary || type_ == Type::List);
    offsets_.push_back(0);
  }
  if (type_ == Type::List) element_ = std::make_unique<ColumnBuilder>(field.children.at(0));
}

// The validity bitmap appears with the first null; every earlier element is valid.
void ColumnBuilder::append_valid() {
  if (!validity_.empty() || nulls_ > 0) set_bit(validity_, length_, true);
  ++length_;
}

void ColumnBuilder::append_null() {
  if (nulls_ == 0)
    for (int64_t i = 0; i < length_; ++i) set_bit(validity_, i, true);
  set_bit(validity_, length_, false);
  ++nulls_;
  switch (type_) {
    case Type::Bool: set_bit(values_, length_, false); break;
    case Type::Utf8: case Type::Binary: offsets_.push_back(static_cast<int32_t>(data_.size())); break;
    case Type::List: offsets_.push_back(static_cast<int32_t>(element_->length())); break;
    default: values_.resize(values_.size() + width_, 0); break;  // a slot of zeros
  }
  ++length_;
}

void ColumnBuilder::append_bool(bool value) {
  set_bit(values_, length_, value);
  append_valid();
}

void ColumnBuilder::append_text(std::string_view value) {
  data_.insert(data_.end(), value.begin(), value.end());
  offsets_.push_back(static_cast<int32_t>(data_.size()));
  append_valid();
}

void ColumnBuilder::end_list() {
  offsets_.push_back(static_cast<int32_t>(element_->length()));
  append_valid();
}

Column ColumnBuilder::column() const {
  Column c;
  c.type = type_;
  c.length = length_;
  c.null_count = nulls_;
  c.validity = nulls_ > 0 ? validity_.data() : nullptr;
  c.values = values_.data();
  if (!offsets_.empty()) c.offsets = offsets_.data();
  c.data = data_.data();
  if (element_) c.children.push_back(element_->column());
  return c;
}

void ColumnBuilder::clear() {
  values_.clear();
  validity_.clear();
  data_.clear();
  if (!offsets_.empty()) offsets_.assign(1, 0);
  length_ = nulls_ = 0;
  if (element_) element_->clear();
}

}  // namespace manaka::parquet
