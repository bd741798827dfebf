#include "core/status.h"

#include <gtest/gtest.h>

namespace manaka {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return Status::invalid(std::string("not a digit: '") + c + "'");
  return c - '0';
}

Result<int> sum_two(char a, char b) {
  MANAKA_ASSIGN_OR_RETURN(int x, parse_digit(a));
  MANAKA_ASSIGN_OR_RETURN(int y, parse_digit(b));
  return x + y;
}

TEST(Status, PropagatesTheFirstError) {
  EXPECT_EQ(*sum_two('3', '4'), 7);
  auto r = sum_two('3', 'x');
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::Invalid);
  EXPECT_EQ(r.status().message(), "not a digit: 'x'");
}

TEST(Status, ContextIsPrefixed) {
  Status st = Status::truncated("record 3 at byte 120 ends early").with_context("a.mpk: ");
  EXPECT_EQ(st.message(), "a.mpk: record 3 at byte 120 ends early");
  EXPECT_TRUE(Status().with_context("x").ok());
}

}  // namespace
}  // namespace manaka
