// manaka.shogi: boards, moves and move generation in python-chess's shape
// (Board, Move, push / pop / legal_moves / turn / move_stack), as
// docs/python.md describes side by side with manaka.chess.
//
// A Move is the move16 itself (shogi/move.h), a value with no position:
// from_square / to_square are MPK1 squares, promotion a bool, drop the piece
// kind dropped (as python-chess's crazyhouse drops, from_square == to_square).
// turn is a bool with WHITE (gote) True and BLACK (sente, who moves first)
// False: the same numbers as the core's and cshogi's colours (BLACK 0,
// WHITE 1), so nothing that indexes by colour changes.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/move_surface.h"
#include "python/numpy.h"
#include "shogi/movegen.h"
#include "shogi/pack.h"
#include "shogi/perft.h"
#include "shogi/position.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using shogi::Move;

// The Python Board: a position with its move history, so moves can be taken
// back (python-chess's move stack).
struct Board {
  shogi::Position pos = shogi::Position::startpos();
  std::vector<Move> moves;
  std::deque<shogi::StateInfo> states;  // a deque keeps StateInfo addresses stable

  void push(Move m) {
    states.emplace_back();
    pos.do_move(m, states.back());
    moves.push_back(m);
  }
  Move pop() {
    if (moves.empty()) throw nb::index_error("pop from an empty move stack");
    Move mv = moves.back();
    pos.undo_move(mv);
    moves.pop_back();
    states.pop_back();
    return mv;
  }
};

Board board_from_sfen(const std::string& sfen) {
  return Board{unwrap(shogi::Position::from_sfen(sfen)), {}, {}};
}

Move require_legal(const Board& b, Move m) {
  if (!b.pos.is_legal(m)) throw StatusError{Status::invalid("illegal usi: '" + m.to_usi() + "' in " + b.pos.sfen())};
  return m;
}

Move parse_legal(const Board& b, const std::string& usi) {
  auto m = shogi::Move::parse_usi(usi);
  if (!m.ok()) throw StatusError{Status::invalid("invalid usi: '" + usi + "' in " + b.pos.sfen() + ": " +
                                                 m.status().message())};
  return require_legal(b, *m);
}

// A move16 as an int: well formed (shogi/move.h), or InvalidDataError naming it.
Move move16_arg(nb::handle raw_arg) {
  const int64_t raw = int_arg(raw_arg, "move16", 0, 0xFFFF);
  Move mv{static_cast<uint16_t>(raw)};
  if (!mv.well_formed()) throw StatusError{Status::invalid("not a move16: " + std::to_string(raw))};
  return mv;
}

std::vector<Move> legal_list(const shogi::Position& pos) {
  shogi::MoveList list;
  shogi::generate_legal(pos, list);
  return {list.begin(), list.end()};
}

// A colour as turn gives it (WHITE True, BLACK False) or as the ints 0/1
// the old surface and cshogi use.
shogi::Color color_arg(nb::handle color) {
  if (PyBool_Check(color.ptr())) return color.ptr() == Py_True ? shogi::WHITE : shogi::BLACK;
  return shogi::Color(int_arg(color, "color", 0, 1));
}

shogi::Square square_arg(nb::handle sq, const char* name) {
  return shogi::Square(int_arg(sq, name, 0, shogi::SQUARE_NB - 1));
}

// Move(from_square, to_square, promotion=False, drop=None): a board move, or
// with drop (a kind PAWN..ROOK) a drop, whose from_square is its to_square.
Move make_move(nb::handle from_arg, nb::handle to_arg, bool promotion, nb::handle drop_arg) {
  const shogi::Square from = square_arg(from_arg, "from_square"), to = square_arg(to_arg, "to_square");
  if (drop_arg.is_none()) {
    Move mv = Move::normal(from, to, promotion);
    if (!mv.well_formed())
      throw StatusError{Status::invalid("not a shogi move: from_square " + std::to_string(from) + " == to_square")};
    return mv;
  }
  const auto kind = shogi::Kind(int_arg(drop_arg, "drop", 0, shogi::KIND_NB - 1));
  const shogi::HandKind hk = shogi::HAND_OF[kind];
  if (hk == shogi::HAND_KIND_NB || shogi::KIND_OF_HAND[hk] != kind)
    throw StatusError{Status::invalid("drop: kind " + std::to_string(int(kind)) + " is not one a hand holds (PAWN, "
                                      "LANCE, KNIGHT, SILVER, GOLD, BISHOP or ROOK)")};
  if (promotion) throw StatusError{Status::invalid("a drop does not promote")};
  if (from != to)
    throw StatusError{Status::invalid("a drop's from_square is its to_square (" + std::to_string(to) + "), not " +
                                      std::to_string(from))};
  return Move::drop(hk, to);
}

auto usi_notation() {
  return Notation{[](Move m) { return m.to_usi(); }, [](const std::string& t) { return Move::parse_usi(t); }, "usi"};
}

}  // namespace

void bind_shogi(nb::module_ m) {
  // python-chess's colours are bools; shogi's keep the core's and cshogi's
  // numbers: BLACK (sente, moves first) False == 0, WHITE (gote) True == 1.
  static_assert(shogi::BLACK == 0 && shogi::WHITE == 1);
  m.attr("BLACK") = nb::bool_(false);
  m.attr("WHITE") = nb::bool_(true);
  m.attr("PACKED_LEN") = shogi::PACKED_LEN;
  // Piece kinds: the low four bits of piece_on's byte, and Move.drop's values.
  m.attr("KING") = int(shogi::KING);
  m.attr("ROOK") = int(shogi::ROOK);
  m.attr("BISHOP") = int(shogi::BISHOP);
  m.attr("GOLD") = int(shogi::GOLD);
  m.attr("SILVER") = int(shogi::SILVER);
  m.attr("KNIGHT") = int(shogi::KNIGHT);
  m.attr("LANCE") = int(shogi::LANCE);
  m.attr("PAWN") = int(shogi::PAWN);

  auto notation = usi_notation();
  nb::class_<Move> move(m, "Move",
                        "A shogi move: the move16 as a value (no position), printed as USI. Immutable and hashable.");
  move.def("__init__", [](Move* self, nb::handle from, nb::handle to, bool promotion, nb::handle drop) {
             new (self) Move(make_move(from, to, promotion, drop));
           }, "from_square"_a, "to_square"_a, "promotion"_a = false, "drop"_a.none() = nb::none(),
           nb::sig("def __init__(self, from_square: int, to_square: int, promotion: bool = False, "
                   "drop: int | None = None) -> None"),
           "A board move between two squares (0..80), or with drop (PAWN..ROOK, not KING) a drop on to_square, "
           "whose from_square is to_square as in python-chess.")
      .def_static("from_usi", [](const std::string& usi) { return unwrap(Move::parse_usi(usi)); }, "usi"_a,
                  "Reads USI text ('7g7f', '8h2b+', 'P*5e'); syntax only, not legality.")
      .def_static("from_move16", [](nb::handle raw) { return move16_arg(raw); }, "move16"_a,
                  nb::sig("def from_move16(move16: int) -> Move"),
                  "The move a move16 (MPK1's 16-bit move) names.")
      .def_prop_ro("move16", [](Move mv) { return mv.raw; }, "The MPK1 move16.")
      .def_prop_ro("from_square", [](Move mv) { return int(mv.is_drop() ? mv.to_square() : mv.from_square()); },
                   "The origin square; a drop's is its to_square (python-chess's drops).")
      .def_prop_ro("to_square", [](Move mv) { return int(mv.to_square()); })
      .def_prop_ro("promotion", [](Move mv) { return mv.is_promote(); }, "Whether the piece promotes.")
      .def_prop_ro("drop", [](Move mv) -> std::optional<int> {
             if (!mv.is_drop()) return std::nullopt;
             return int(shogi::KIND_OF_HAND[mv.dropped_kind()]);
           }, "The kind dropped (PAWN..ROOK), or None for a board move.");
  bind_move_text(move, notation);

  using Legal = LegalMoves<Move>;
  bind_legal_moves<Move>(m, notation)
      .def("__call__", [](const Legal& l) {
             warn_deprecated("board.legal_moves() is deprecated and goes in 0.2: legal_moves is a property of "
                             "Move objects; [m.usi() for m in board.legal_moves] is the old list");
             std::vector<std::string> out;
             for (Move mv : l.moves) out.push_back(mv.to_usi());
             return out;
           }, "Deprecated (goes in 0.2): the moves as USI text, as legal_moves() returned them.");

  nb::class_<Board>(m, "Board", "A shogi position with its move history (python-chess's Board shape).")
      .def("__init__", [](Board* self, const std::string& sfen) { new (self) Board(board_from_sfen(sfen)); },
           "sfen"_a = "startpos", "A SFEN (optionally after 'sfen ') or 'startpos'.")
      .def_static("from_sfen", &board_from_sfen, "sfen"_a)
      .def_static("unpack", [](nb::bytes packed) { return Board{unwrap(shogi::unpack(bytes_of(packed))), {}, {}}; },
                  "packed"_a, "The position 96 packed bytes hold (move number 1).")
      .def("sfen", [](const Board& b) { return b.pos.sfen(); })
      .def("pack", [](const Board& b) { return to_bytes(shogi::pack(b.pos)); },
           "The 96-byte packed position an MPK1 record stores.")
      .def_prop_ro("turn", [](const Board& b) { return b.pos.side_to_move() == shogi::WHITE; },
                   "WHITE (True, gote) or BLACK (False, sente): equal to cshogi's turn (WHITE 1, BLACK 0).")
      .def_prop_ro("move_number", [](const Board& b) { return b.pos.move_number(); })
      .def_prop_ro("key", [](const Board& b) { return b.pos.key(); }, "Zobrist hash of board, hands and side.")
      .def("piece_on", [](const Board& b, int sq) {
             if (sq < 0 || sq >= shogi::SQUARE_NB) throw nb::index_error("square out of range 0..80");
             return int(b.pos.piece_on(shogi::Square(sq)));
           }, "square"_a, "The board byte (colour << 4 | kind) or 0xFF when empty.")
      .def("hand", [](const Board& b, nb::handle color) {
             std::vector<int> counts;
             for (int hk = 0; hk < shogi::HAND_KIND_NB; ++hk)
               counts.push_back(b.pos.hand_count(color_arg(color), shogi::HandKind(hk)));
             return counts;
           }, "color"_a, nb::sig("def hand(self, color: bool | int) -> list[int]"), "Hand counts in the order P L N S G B R of BLACK or WHITE (or 0 / 1).")
      .def("is_check", [](const Board& b) { return b.pos.in_check(); })
      .def_prop_ro("legal_moves", [](const Board& b) { return Legal{legal_list(b.pos)}; },
                   "The legal moves now, as Move objects (a LegalMoves snapshot).")
      .def("legal_move_count", [](const Board& b) { return shogi::count_legal(b.pos); })
      .def("legal_move16s", [](const Board& b) {
             std::vector<uint16_t> raw;
             for (Move mv : legal_list(b.pos)) raw.push_back(mv.raw);
             return to_numpy(std::move(raw));
           }, "Every legal move as a move16 (uint16 array).")
      .def("legal_mask", [](const Board& b) {
             auto mask = shogi::legal_mask(b.pos);
             auto* out = new bool[mask.size()];
             for (size_t i = 0; i < mask.size(); ++i) out[i] = mask[i];
             nb::capsule owner(out, [](void* p) noexcept { delete[] static_cast<bool*>(p); });
             size_t n = mask.size();
             return nb::ndarray<nb::numpy, bool>(out, 1, &n, owner);
           }, "A (32768,) bool array, True at each legal move16.")
      .def("is_legal", [](const Board& b, Move mv) { return b.pos.is_legal(mv); }, "move"_a)
      .def("is_legal", [](const Board& b, const std::string& usi) {
             warn_deprecated("board.is_legal(usi text) is deprecated and goes in 0.2; pass Move.from_usi(text)");
             auto mv = shogi::Move::parse_usi(usi);
             return mv.ok() && b.pos.is_legal(*mv);
           }, "usi"_a, "Deprecated (goes in 0.2): USI text instead of a Move.")
      .def("push", [](Board& b, Move mv) { b.push(require_legal(b, mv)); }, "move"_a,
           "Plays a legal Move; InvalidDataError names it and the position otherwise.")
      .def("push", [](Board& b, nb::int_ raw) {
             warn_deprecated("board.push(move16) is deprecated and goes in 0.2; pass Move.from_move16(move16)");
             b.push(require_legal(b, move16_arg(raw)));
           }, "move16"_a, "Deprecated (goes in 0.2): a move16 int instead of a Move.")
      .def("push_usi", [](Board& b, const std::string& usi) {
             Move mv = parse_legal(b, usi);
             b.push(mv);
             return mv;
           }, "usi"_a, "Plays a legal move given as USI; returns the Move.")
      .def("pop", &Board::pop, "Takes back the last move and returns it; IndexError when none was pushed.")
      .def("peek", [](const Board& b) {
             if (b.moves.empty()) throw nb::index_error("peek at an empty move stack");
             return b.moves.back();
           }, "The last move pushed.")
      .def_prop_ro("move_stack", [](const Board& b) { return b.moves; },
                   "The moves pushed since the board was made, oldest first.")
      .def("perft", [](Board& b, nb::handle depth_arg) {
             const int depth = static_cast<int>(int_arg(depth_arg, "depth", 0, kMaxPerftDepth));
             nb::gil_scoped_release release;
             return shogi::perft(b.pos, depth);
           }, "depth"_a.none())
      .def("copy", [](const Board& b) { return Board{b.pos, {}, {}}; }, "The position without its history.")
      .def("__repr__", [](const Board& b) { return "Board('" + b.pos.sfen() + "')"; });

  m.def("perft", [](const std::string& sfen, nb::handle depth_arg) {
        const int depth = static_cast<int>(int_arg(depth_arg, "depth", 0, kMaxPerftDepth));
        auto pos = unwrap(shogi::Position::from_sfen(sfen));
        nb::gil_scoped_release release;
        return shogi::perft(pos, depth);
      }, "sfen"_a, "depth"_a.none(), "Leaf count of the legal move tree, bulk-counted at the leaves.");
  m.def("move16_from_usi", [](const std::string& usi) { return unwrap(Move::parse_usi(usi)).raw; }, "usi"_a);
  m.def("move16_to_usi", [](int raw) {
        Move mv{static_cast<uint16_t>(raw)};
        if (raw < 0 || raw > 0xFFFF || !mv.well_formed())
          throw StatusError{Status::invalid("not a move16: " + std::to_string(raw))};
        return mv.to_usi();
      }, "move16"_a);
}

}  // namespace manaka::python
