#include "chess/pgn.h"

#include <algorithm>
#include <cstring>

#include "chess/san.h"
#include "core/byte_source.h"
#include "core/text.h"

namespace manaka::chess {
namespace {

constexpr unsigned char UTF8_BOM[3] = {0xEF, 0xBB, 0xBF};

bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Characters that end a move token.
bool ends_token(int c) {
  return c < 0 || is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '[' ||
         c == ']' || c == '$' || c == '"';
}

bool is_tag_name_char(int c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
         c == '#' || c == '=' || c == ':' || c == '-';
}

bool is_result(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

// python-chess's null-move tokens (its MOVETEXT_REGEX and parse_san), a
// check or annotation glyph glued on allowed as on any move.
bool is_null_move(std::string_view t) {
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?')) t.remove_suffix(1);
  return t == "--" || t == "Z0" || t == "0000" || t == "@@@@";
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

}  // namespace

Result<Position> after_null_move(const Position& pos) {
  if (pos.in_check()) return Status::invalid("a null move in check leaves the king attacked in " + pos.fen());
  Setup setup;
  for (int sq = 0; sq < SQUARE_NB; ++sq) setup.board[size_t(sq)] = pos.piece_on(Square(sq));
  setup.side = ~pos.side_to_move();
  setup.castling = pos.castling_rights();
  setup.ep = SQ_NONE;
  setup.halfmove_clock = std::min(pos.halfmove_clock() + 1, Position::HALFMOVE_MAX);
  setup.fullmove_number = pos.fullmove_number() + (pos.side_to_move() == BLACK);
  return Position::from_setup(setup);
}

void play_mainline_move(Position& pos, Move m) {
  if (m != MOVE_NONE) {
    pos.do_move(m);
    return;
  }
  auto next = after_null_move(pos);
  if (next.ok()) pos = *next;  // the reader refused the game otherwise
}

const std::string* PgnGame::tag(std::string_view name) const {
  for (auto& [key, value] : tags)
    if (key == name) return &value;
  return nullptr;
}

struct PgnReader::State {
  std::unique_ptr<ByteSource> source;
  std::string name;
  std::vector<char> buf = std::vector<char>(PGN_BLOCK_BYTES);
  size_t pos = 0, len = 0;
  bool eof = false;     // the source is exhausted (or failed: then io holds why)
  Status io;
  bool done = false;    // next() returns false from now on
  bool between_games = false;  // done at the end of the input, between games
  uint64_t line = 1, offset = 0;
  bool line_start = true;  // the next byte is the first of its line
  uint64_t games = 0;

  bool fill() {
    if (eof) return false;
    auto got = source->read(buf.data(), buf.size());
    if (!got.ok()) {
      // Every failure of the source (the file, its zstd stream) is IO here.
      io = Status::io(got.status().message());
      eof = true;
      return false;
    }
    pos = 0;
    len = *got;
    if (len == 0) {
      eof = true;
      return false;
    }
    if (offset == 0 && len >= 3 && std::memcmp(buf.data(), UTF8_BOM, 3) == 0) pos = offset = 3;
    return true;
  }
  int peek() {
    if (pos == len && !fill()) return -1;
    return static_cast<unsigned char>(buf[pos]);
  }
  int get() {
    const int c = peek();
    if (c >= 0) {
      ++pos;
      ++offset;
      line_start = c == '\n';
      line += c == '\n';
    }
    return c;
  }
  void skip_line() {
    for (int c = get(); c >= 0 && c != '\n'; c = get()) {
    }
  }
  // Skips a {...} comment whose '{' is next; false if the input ends in it.
  // A block at a time (memchr), counting lines as get() would.
  bool skip_comment() {
    get();
    for (;;) {
      if (pos == len && !fill()) return false;
      const char* b = buf.data() + pos;
      const size_t n = len - pos;
      const char* close = static_cast<const char*>(std::memchr(b, '}', n));
      const size_t used = close ? size_t(close - b) + 1 : n;
      line += uint64_t(std::count(b, b + used, '\n'));
      line_start = b[used - 1] == '\n';
      pos += used;
      offset += used;
      if (close) return true;
    }
  }
};

PgnReader::PgnReader(std::unique_ptr<ByteSource> source, std::string name) : s_(std::make_unique<State>()) {
  s_->source = std::move(source);
  s_->name = std::move(name);
}
PgnReader::PgnReader(PgnReader&&) noexcept = default;
PgnReader& PgnReader::operator=(PgnReader&&) noexcept = default;
PgnReader::~PgnReader() = default;

uint64_t PgnReader::games() const { return s_->games; }
bool PgnReader::ended_between_games() const { return s_->between_games; }
const std::string& PgnReader::name() const { return s_->name; }

Result<PgnReader> PgnReader::open(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> source, open_byte_source(path));
  return PgnReader(std::move(source), path);
}

PgnReader PgnReader::from_memory(std::string_view bytes, std::string name, PgnStart start) {
  PgnReader reader(memory_source(bytes), std::move(name));
  reader.s_->line = start.line;
  reader.s_->offset = start.offset;
  return reader;
}

Result<bool> PgnReader::next(PgnGame& game) {
  State& s = *s_;
  if (s.done) return false;
  // Where the input ends: a source's error, or `why` as a truncation.
  auto end_of_input = [&](const std::string& where, const char* why) -> Status {
    s.done = true;
    if (!s.io.ok()) return s.io;  // names the file already
    return Status::truncated(where + why);
  };

  // Between games: white space, escape lines and comments.
  for (;;) {
    const int c = s.peek();
    if (c < 0) {
      s.done = true;
      if (!s.io.ok()) return s.io;
      s.between_games = true;
      return false;
    }
    if (is_space(c)) {
      s.get();
    } else if (c == '%' && s.line_start) {
      s.skip_line();
    } else if (c == ';') {
      s.skip_line();
    } else if (c == '{') {
      const uint64_t line = s.line, offset = s.offset;
      if (!s.skip_comment())
        return end_of_input(s.name + ": line " + std::to_string(line) + ", byte " + std::to_string(offset) + ": ",
                            "the input ends inside a comment");
    } else {
      break;
    }
  }

  game.number = ++s.games;
  game.line = s.line;
  game.offset = s.offset;
  game.tags.clear();
  game.moves.clear();
  game.result.clear();
  game.start = Position::startpos();

  Status error;  // the game's first problem; the rest of the game is skipped
  // "games.pgn: game 3, line 17, byte 1234: "; with a ply, ", ply 22: ".
  auto where = [&](uint64_t line, uint64_t offset, int64_t ply = -1) {
    return s.name + ": game " + std::to_string(game.number) + ", line " + std::to_string(line) + ", byte " +
           std::to_string(offset) + (ply >= 0 ? ", ply " + std::to_string(ply) : std::string()) + ": ";
  };
  // Messages quote the file's bytes: printable() keeps a hostile file's
  // escape sequences off the terminal that shows them.
  auto fail = [&](uint64_t line, uint64_t offset, const std::string& why) {
    if (error.ok()) error = Status::invalid(printable(where(line, offset) + why));
  };

  // The tag section: [Name "value"], any number a line.
  for (;;) {
    int c = s.peek();
    while (is_space(c) || (c == '%' && s.line_start)) {
      if (c == '%') s.skip_line(); else s.get();
      c = s.peek();
    }
    if (c != '[') break;
    const uint64_t line = s.line, offset = s.offset;
    s.get();
    for (c = s.peek(); c == ' ' || c == '\t'; c = s.peek()) s.get();
    std::string name, value;
    for (c = s.peek(); is_tag_name_char(c); c = s.peek()) {
      if (name.size() < PGN_MAX_TAG_NAME_BYTES + 1) name += char(c);
      s.get();
    }
    for (c = s.peek(); c == ' ' || c == '\t'; c = s.peek()) s.get();
    bool closed = false;
    if (c == '"') {
      // The value ends at a '"' followed by ']' (spaces between allowed);
      // another '"' is part of it, as python-chess, which does not escape
      // them, writes and reads. \" and \\ are the standard's escapes.
      s.get();
      auto append = [&](char ch) {
        if (value.size() <= PGN_MAX_TAG_VALUE_BYTES) value += ch;
      };
      for (c = s.get(); c >= 0 && c != '\n'; c = s.get()) {
        if (c == '\\' && (s.peek() == '"' || s.peek() == '\\')) {
          append(char(s.get()));
          continue;
        }
        if (c != '"') {
          append(char(c));
          continue;
        }
        std::string spaces;
        for (c = s.peek(); c == ' ' || c == '\t'; c = s.peek()) spaces += char(s.get());
        if (c == ']') {
          s.get();
          closed = true;
          break;
        }
        append('"');
        for (char sp : spaces) append(sp);
      }
    }
    if (name.empty() || !closed) {
      fail(line, offset, "expected a tag such as [Event \"name\"]");
      if (c < 0) return end_of_input(where(line, offset), "the input ends inside a tag");
      if (c != '\n') s.skip_line();
      continue;
    }
    if (name.size() > PGN_MAX_TAG_NAME_BYTES) fail(line, offset, "a tag name longer than 255 bytes");
    if (value.size() > PGN_MAX_TAG_VALUE_BYTES) fail(line, offset, "a tag value longer than 65536 bytes");
    if (game.tags.size() >= PGN_MAX_TAGS) fail(line, offset, "more than 1024 tags");
    if (error.ok()) game.tags.emplace_back(std::move(name), std::move(value));
  }

  // The starting position.
  const uint64_t movetext_line = s.line, movetext_offset = s.offset;
  if (error.ok()) {
    const std::string* variant = game.tag("Variant");
    if (variant != nullptr) {
      const std::string v = lowercase(*variant);
      if (v != "standard" && v != "chess" && v != "from position")
        fail(movetext_line, movetext_offset, "variant \"" + *variant + "\" is not standard chess");
    }
    const std::string* fen = game.tag("FEN");
    const std::string* setup = game.tag("SetUp");
    if (fen != nullptr && !(setup != nullptr && *setup == "0")) {
      auto start = Position::from_fen(*fen);
      if (start.ok())
        game.start = *start;
      else
        fail(movetext_line, movetext_offset, "FEN tag: " + start.status().message());
    }
  }

  // The movetext, up to the result token.
  Position pos = game.start;
  int depth = 0;  // inside this many variations
  std::string token;
  for (;;) {
    const int c = s.peek();
    const uint64_t line = s.line, offset = s.offset;
    auto at = [&] { return where(line, offset, int64_t(game.moves.size())); };
    if (c < 0) {
      if (!error.ok()) {
        s.done = true;
        return error;
      }
      return end_of_input(at(), depth > 0 ? "the input ends inside a variation" : "the input ends before the result token");
    }
    if (is_space(c) || c == '}' || c == ']' || c == '"') {
      s.get();  // stray closing marks are ignored, as python-chess does
      continue;
    }
    if (c == '%' && s.line_start) {
      s.skip_line();
      continue;
    }
    if (c == ';') {
      s.skip_line();
      continue;
    }
    if (c == '{') {
      if (!s.skip_comment()) {
        if (!error.ok()) {
          s.done = true;
          return error;
        }
        return end_of_input(at(), "the input ends inside a comment");
      }
      continue;
    }
    if (c == '(') {
      s.get();
      ++depth;
      continue;
    }
    if (c == ')') {
      s.get();
      depth -= depth > 0;
      continue;
    }
    if (c == '$') {  // a NAG
      s.get();
      while (s.peek() >= '0' && s.peek() <= '9') s.get();
      continue;
    }
    if (c == '[') {
      fail(line, offset, std::string(depth > 0 ? "a variation is not closed and " : "") +
                             "the next game's tags begin before this game's result token");
      return error;  // the '[' is left for the next game
    }
    token.clear();
    for (int t = s.peek(); !ends_token(t); t = s.peek()) {
      if (token.size() <= PGN_MAX_TOKEN_BYTES) token += char(t);
      s.get();
    }
    if (depth > 0) continue;
    std::string_view text = token;
    if (is_result(text)) {
      game.result = token;
      break;
    }
    // A move number, "12." or "12...", perhaps with the move glued on.
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits > 0 && digits < text.size() && text[digits] == '.') {
      text.remove_prefix(digits);
      while (!text.empty() && text.front() == '.') text.remove_prefix(1);
    } else if (digits == text.size() && text != "0000") {
      continue;  // a bare number; "0000" is the null move
    } else if (digits == 0) {
      while (!text.empty() && text.front() == '.') text.remove_prefix(1);  // "..." alone
    }
    if (text.empty()) continue;  // "12." or "..."
    if (text.find_first_not_of("!?+#") == std::string_view::npos) continue;  // glyphs
    if (!error.ok()) continue;
    if (token.size() > PGN_MAX_TOKEN_BYTES) {
      fail(line, offset, "a move text longer than 64 bytes");
      continue;
    }
    if (game.moves.size() >= PGN_MAX_PLIES) {
      fail(line, offset, "more than 65536 plies");
      continue;
    }
    if (is_null_move(text)) {
      auto next = after_null_move(pos);
      if (!next.ok()) {
        error = Status::invalid(printable(at() + next.status().message()));
        continue;
      }
      pos = *next;
      game.moves.push_back(MOVE_NONE);
      continue;
    }
    auto m = parse_san(pos, text);
    if (!m.ok()) {
      if (error.ok()) error = Status::invalid(printable(at() + m.status().message()));
      continue;
    }
    pos.do_move(*m);
    game.moves.push_back(*m);
  }
  if (!error.ok()) return error;
  return true;
}

}  // namespace manaka::chess
