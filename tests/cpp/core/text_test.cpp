// core/text: messages safe for a terminal, JSON that survives any bytes.
#include <gtest/gtest.h>

#include <string>

#include "core/text.h"

namespace manaka {
namespace {

TEST(Text, PrintableEscapesControlsAndBadBytes) {
  EXPECT_EQ(printable("plain text, caf\xc3\xa9, \xe5\xb0\x86\xe6\xa3\x8b\n\tok"),
            "plain text, caf\xc3\xa9, \xe5\xb0\x86\xe6\xa3\x8b\n\tok");
  EXPECT_EQ(printable("a\x1b[2Jb\x07\x7f"), "a\\x1b[2Jb\\x07\\x7f");
  EXPECT_EQ(printable("caf\xe9.pgn"), "caf\\xe9.pgn");
  EXPECT_EQ(printable("csi \xc2\x9b here"), "csi \\u009b here");  // C1 control as UTF-8
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");          // a surrogate is not UTF-8
  EXPECT_EQ(printable("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
  EXPECT_EQ(printable("cut \xe5\xb0"), "cut \\xe5\\xb0");
}

TEST(Text, JsonNeverThrowsOnBytesThatAreNotUtf8) {
  nlohmann::json j = {{"path", "caf\xe9.pgn"}, {"n", 1}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);  // why json_text exists
  EXPECT_EQ(json_text(j), "{\"n\":1,\"path\":\"caf\xef\xbf\xbd.pgn\"}");
  nlohmann::ordered_json o = {{"esc", "a\x1b"}};
  EXPECT_EQ(json_text(o, 2), "{\n  \"esc\": \"a\\u001b\"\n}");
}

TEST(Text, ExcerptCutsALongInputAndSaysHowLongItWas) {
  EXPECT_EQ(excerpt("short\x1b"), "short\\x1b");
  EXPECT_EQ(excerpt(std::string(100'000, 'p'), 8), "pppppppp... (100000 bytes)");
  // A cut inside a UTF-8 character moves back to its start.
  EXPECT_EQ(excerpt("ab\xe5\xb0\x86" "cd", 3), "ab... (7 bytes)");
}

}  // namespace
}  // namespace manaka
