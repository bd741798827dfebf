// Text that leaves the program: messages for a terminal, JSON for scripts.
// Both must survive whatever bytes a file or a path holds: a name that is not
// UTF-8 (caf\xe9.pgn) never aborts a JSON dump, and bytes of a hostile file
// quoted in a message never reach a terminal as escape sequences.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace manaka {

// s as valid UTF-8 with no control characters but '\n' and '\t': C0 and
// C1 controls and DEL as "\x1b" / "\u009b", bytes that are not UTF-8 as
// "\xe9". Printable text passes unchanged.
std::string printable(std::string_view s);

// An input quoted in a message: printable(s) when it is short, else its first
// `limit` bytes and "... (N bytes)", so a 100 KB line does not fill a log.
std::string excerpt(std::string_view s, size_t limit = 120);

// The shortest text that reads back as the same value ("100", "57.5",
// "756.0865"): for footers, headers and messages that quote a number.
std::string number_text(double v);
std::string number_text(float v);

// A uint64_t for printf's %llu (uint64_t is unsigned long on Linux).
inline unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

// printf into the end of out (a summary built line by line).
void append_format(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// j.dump(indent), with strings that are not UTF-8 written with U+FFFD in
// place of each bad byte instead of throwing (nlohmann's type_error.316).
std::string json_text(const nlohmann::json& j, int indent = -1);
std::string json_text(const nlohmann::ordered_json& j, int indent = -1);

}  // namespace manaka
