// The two engine protocols as one table of words (Dialect), and the
// engine-to-GUI lines that a MultiPV search produces, parsed without a
// process (so they are tested on their own):
//
//   info depth 2 seldepth 2 multipv 1 score cp -142 nodes 301 ... pv 5a4b 7i7h
//   info depth 9 multipv 2 score mate -3 pv ...      (mated)
//   info depth 7 multipv 1 score cp 80 lowerbound pv ...
//   info depth 5 multipv 1 score cp 31 wdl 98 880 22 nodes 844 pv e2e4 ...   (UCI_ShowWDL)
//   bestmove 7g7f ponder 3c3d    bestmove resign    bestmove e7e8q    bestmove (none)
//
// USI and UCI differ in a few words and in one unit:
//
//                       USI            UCI
//   handshake           usi / usiok    uci / uciok
//   new game            usinewgame     ucinewgame
//   a position          position sfen  position fen   (both: position startpos)
//   score mate N        N plies        N moves
//
// Scores are from the side to move's point of view, as both protocols state
// them. A mate score is kept in one unit, plies, whatever the dialect:
// Score::value is the signed number of plies to mate, positive when the side
// to move mates, negative when it is mated, 0 when it is mated now. UCI's
// "mate N" moves become 2N - 1 plies (N > 0: the mating move is the mover's
// Nth) and -2N plies (N < 0: the opponent mates on its |N|th move);
// Score::mate_moves() converts back. USI's N is kept as sent (some USI
// engines count moves; nothing here can tell). "mate +" / "mate -" (USI,
// distance unknown) keep only the sign: value +-1 with mate_distance_known
// false.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace manaka::engine {

enum class Protocol : uint8_t { Usi, Uci };
// How an engine counts "score mate N".
enum class MateUnit : uint8_t { Plies, Moves };

// The words of one protocol.
struct Dialect {
  Protocol protocol;
  std::string_view name;           // "USI", "UCI"
  std::string_view hello;          // "usi": asks for id, options and ...
  std::string_view hello_ok;       // ... "usiok"
  std::string_view new_game;       // "usinewgame"
  std::string_view position_word;  // "sfen": "position sfen <sfen> [moves ...]"
  MateUnit mate_unit;
  // Options a GUI may set although the engine does not advertise them: USI
  // reserves USI_Hash and USI_Ponder for the GUI. UCI has none.
  std::array<std::string_view, 2> unadvertised_options;
};

inline constexpr Dialect kUsi{Protocol::Usi, "USI", "usi", "usiok", "usinewgame", "sfen", MateUnit::Plies,
                              {"USI_Hash", "USI_Ponder"}};
inline constexpr Dialect kUci{Protocol::Uci, "UCI", "uci", "uciok", "ucinewgame", "fen", MateUnit::Moves, {}};

constexpr const Dialect& dialect_of(Protocol p) { return p == Protocol::Uci ? kUci : kUsi; }
// "usi" or "uci" (any case), or nullopt.
std::optional<Protocol> parse_protocol(std::string_view name);

// UCI's "mate N" (moves) in plies: 2N - 1 for N > 0, 2N for N <= 0.
constexpr int mate_plies_from_moves(int moves) { return moves > 0 ? 2 * moves - 1 : 2 * moves; }

struct Score {
  enum class Kind : uint8_t { Cp, Mate };
  Kind kind = Kind::Cp;
  int value = 0;  // centipawns, or the signed distance to mate in plies
  bool mate_distance_known = true;

  bool is_mate() const { return kind == Kind::Mate; }
  // A mate's distance in moves of the side that mates, signed as value:
  // plies 1 and 2 are 1 move, 3 and 4 are 2; -2 plies is -1 move. 0 for 0.
  int mate_moves() const { return value > 0 ? (value + 1) / 2 : -((1 - value) / 2); }
  // "cp 35", "mate -3" (plies), "mate +"
  std::string to_string() const;
  bool operator==(const Score&) const = default;
};

// Win, draw and loss chances in permille, side to move's view ("wdl W D L",
// UCI engines with UCI_ShowWDL true).
struct Wdl {
  int win = 0;
  int draw = 0;
  int loss = 0;
  bool operator==(const Wdl&) const = default;
};

// An "info" line that carries a score and a principal variation. Only the
// first PV move is kept: a MultiPV line is one candidate for the root.
struct InfoLine {
  int depth = 0;
  int multipv = 1;  // 1-based; 1 when the engine does not say
  Score score;      // mate distances in plies (see the top of this file)
  std::optional<Wdl> wdl;
  bool bound = false;  // lowerbound / upperbound: not an exact score
  uint64_t nodes = 0;
  std::string first_move;
};

// An info line with a score and a non-empty pv, or nullopt (info string,
// currmove, hashfull, lines that are not info at all, malformed numbers).
// `mate_unit` is the unit the engine counts "score mate N" in.
std::optional<InfoLine> parse_info(std::string_view line, MateUnit mate_unit);

// "bestmove X [ponder Y]": X ("7g7f", "e7e8q", "resign", "(none)", ...) or
// nullopt when the line is not a bestmove line.
std::optional<std::string> parse_bestmove(std::string_view line);

// Whether a bestmove token names a move rather than a verdict (resign, win,
// none, (none), 0000).
bool bestmove_is_move(std::string_view token);

// An option the engine advertises in its handshake, between usi/uci and
// usiok/uciok (the same grammar in both protocols):
//
//   option name UCI_Elo type spin default 1350 min 1350 max 2850
//   option name Analysis Contempt type combo default Both var Both var Off
//   option name Debug Log File type string default
//   option name Clear Hash type button
struct EngineOption {
  std::string name;           // may hold spaces
  std::string type;           // check, spin, combo, button, string; USI adds filename
  std::string default_value;  // as sent ("" when absent; Stockfish writes "<empty>")
  std::optional<int64_t> min, max;  // spin
  std::vector<std::string> vars;    // combo's choices
};

// An option line, or nullopt when the line is not one (no name, no type,
// a min or max that is not a number). A string or filename default runs to
// the end of the line.
std::optional<EngineOption> parse_option(std::string_view line);

// The option named `name` in `options`, compared without regard to case (as
// UCI asks and both Stockfishes do), or nullptr.
const EngineOption* find_option(const std::vector<EngineOption>& options, std::string_view name);

// Whether `value` is one the option takes: spin an integer within [min, max],
// check "true" or "false", combo one of its vars (without regard to case);
// button, string and filename take anything. The refusal names the option,
// the value and what it takes: "UCI_Elo 100 is out of range 1350..2850".
Status check_option_value(const EngineOption& option, std::string_view value);

}  // namespace manaka::engine
