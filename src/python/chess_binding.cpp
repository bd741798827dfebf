// manaka.chess: chess positions shaped like python-chess's Board for what a
// data pipeline reads off a position (fen, turn, legal moves as UCI text,
// castling rights, counters, pieces, material), plus perft and a bulk count
// of legal moves over many FENs. Every rule is src/chess's; a refusal raises
// manaka.InvalidDataError (a ValueError) with the core's message.
//
// Colours are python-chess's: True for White, False for Black (the core's
// WHITE is 0, so an int colour would be ambiguous and is refused). Squares
// (a1 = 0 .. h8 = 63) and piece types (PAWN 1 .. KING 6) are the same
// numbers in both.
//
// SAN and PGN: Board.san / parse_san / push_san as python-chess names them
// (moves in and out are UCI text here), and read_pgn(path), an iterator of
// Game values (headers, start fen, UCI moves, result) over a plain or zstd
// PGN file read block by block.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "chess/position.h"
#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/numpy.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using chess::Move;
using chess::Position;

Position position_from_fen(const std::string& fen) { return unwrap(Position::from_fen(fen)); }

chess::Color color_arg(bool white) { return white ? chess::WHITE : chess::BLACK; }

chess::Square square_arg(int sq) {
  if (sq < 0 || sq >= chess::SQUARE_NB)
    throw nb::index_error(("square " + std::to_string(sq) + " out of range 0..63").c_str());
  return chess::Square(sq);
}

// The move uci names if it is legal in pos; otherwise the refusal names the
// text and the position, as python-chess's "illegal uci: 'e2e5' in <fen>".
Move parse_legal(const Position& pos, const std::string& uci) {
  auto m = Move::parse_uci(uci);
  if (!m.ok())
    throw StatusError{Status::invalid("invalid uci: '" + uci + "' in " + pos.fen() + ": " + m.status().message())};
  if (!pos.is_legal(*m)) throw StatusError{Status::invalid("illegal uci: '" + uci + "' in " + pos.fen())};
  return *m;
}

std::vector<std::string> legal_uci(const Position& pos) {
  chess::MoveList list;
  chess::generate_legal(pos, list);
  std::vector<std::string> out;
  out.reserve(size_t(list.size));
  for (Move m : list) out.push_back(m.to_uci());
  return out;
}

// The legal move count of each FEN; a refusal names its index ("fens[3]: ").
Result<std::vector<int32_t>> count_legal_all(const std::vector<std::string>& fens) {
  std::vector<int32_t> counts;
  counts.reserve(fens.size());
  for (size_t i = 0; i < fens.size(); ++i) {
    auto pos = Position::from_fen(fens[i]);
    if (!pos.ok()) return std::move(pos).take_status().with_context("fens[" + std::to_string(i) + "]: ");
    counts.push_back(int32_t(chess::count_legal(*pos)));
  }
  return counts;
}

// read_pgn's iterator: a reader, and the refusals it skipped when asked to.
struct PgnIterator {
  chess::PgnReader reader;
  bool skip_invalid = false;
  std::vector<std::string> errors;
};

chess::PgnGame next_game(PgnIterator& it) {
  chess::PgnGame game;
  for (;;) {
    Result<bool> more = [&] {
      nb::gil_scoped_release release;
      return it.reader.next(game);
    }();
    if (more.ok()) {
      if (!*more) throw nb::stop_iteration();
      return game;
    }
    // A refused game; an I/O error always raises.
    if (!it.skip_invalid || more.status().kind() == ErrorKind::IO) throw StatusError{std::move(more).take_status()};
    it.errors.push_back(more.status().message());
  }
}

}  // namespace

void bind_chess(nb::module_ m) {
  const std::string starting_fen = Position::startpos().fen();
  m.attr("STARTING_FEN") = starting_fen;
  m.attr("WHITE") = true;
  m.attr("BLACK") = false;
  m.attr("PAWN") = int(chess::PAWN);
  m.attr("KNIGHT") = int(chess::KNIGHT);
  m.attr("BISHOP") = int(chess::BISHOP);
  m.attr("ROOK") = int(chess::ROOK);
  m.attr("QUEEN") = int(chess::QUEEN);
  m.attr("KING") = int(chess::KING);

  nb::class_<Position>(m, "Board", "A chess position (no move history: copy() before push_uci to keep one).")
      .def("__init__", [](Position* self, const std::string& fen) { new (self) Position(position_from_fen(fen)); },
           "fen"_a = starting_fen,
           "Six FEN fields, the first four (then '0 1'), or 'startpos'. Stricter than python-chess: "
           "InvalidDataError names the offset or the rule.")
      .def("fen", &Position::fen,
           "The FEN python-chess's Board.fen() prints (en passant only when a legal capture exists).")
      .def("normalized_fen", &Position::normalized_fen, "fen() with the fullmove number 1: VPD1's position identity.")
      .def_prop_ro("turn", [](const Position& p) { return p.side_to_move() == chess::WHITE; },
                   "True when White is to move (python-chess's chess.WHITE).")
      .def_prop_ro("castling_mask", &Position::castling_rights, "Castling rights as bits K = 1, Q = 2, k = 4, q = 8.")
      .def_prop_ro("halfmove_clock", &Position::halfmove_clock)
      .def_prop_ro("fullmove_number", &Position::fullmove_number)
      .def_prop_ro("ep_square",
                   [](const Position& p) -> std::optional<int> {
                     if (p.ep_square() == chess::SQ_NONE) return std::nullopt;
                     return int(p.ep_square());
                   },
                   "The square a pawn just passed over with a double push, whether or not a capture there is "
                   "legal (as python-chess's ep_square), or None.")
      .def_prop_ro("legal_moves", &legal_uci, "Every legal move as UCI text, in generation order.")
      .def("legal_move_count", [](const Position& p) { return chess::count_legal(p); })
      .def("is_legal", [](const Position& p, const std::string& uci) {
             auto mv = Move::parse_uci(uci);
             return mv.ok() && p.is_legal(*mv);
           }, "uci"_a, "Whether uci is a legal move here; False for text that is not UCI.")
      .def("push_uci", [](Position& p, const std::string& uci) {
             Move mv = parse_legal(p, uci);
             p.do_move(mv);
             return mv.to_uci();
           }, "uci"_a, "Plays a legal move given as UCI and returns it; InvalidDataError names the move and the FEN.")
      .def("san", [](const Position& p, const std::string& uci) { return chess::to_san(p, parse_legal(p, uci)); },
           "uci"_a, "The SAN of a legal move given as UCI, as python-chess's Board.san() prints it.")
      .def("parse_san", [](const Position& p, const std::string& san) {
             return unwrap(chess::parse_san(p, san)).to_uci();
           }, "san"_a, "The legal move SAN names, as UCI; InvalidDataError says why not (invalid, illegal, ambiguous).")
      .def("push_san", [](Position& p, const std::string& san) {
             Move mv = unwrap(chess::parse_san(p, san));
             p.do_move(mv);
             return mv.to_uci();
           }, "san"_a, "Plays the legal move SAN names and returns it as UCI.")
      .def("copy", [](const Position& p) { return p; })
      .def("__copy__", [](const Position& p) { return p; })
      .def("is_check", &Position::in_check)
      .def("piece_count", [](const Position& p) { return chess::popcount(p.pieces()); }, "Occupied squares.")
      .def("material", [](const Position& p, bool color) { return p.material(color_arg(color)); }, "color"_a,
           "The colour's pawns, knights, bishops, rooks and queens in pawn units (1, 3, 3, 5, 9).")
      .def("non_pawn_material", &Position::non_pawn_material,
           "Knights, bishops, rooks and queens of both colours in pawn units.")
      .def("piece_at", [](const Position& p, int sq) -> std::optional<std::tuple<bool, int>> {
             chess::Piece pc = p.piece_on(square_arg(sq));
             if (pc == chess::NO_PIECE) return std::nullopt;
             return std::make_tuple(chess::color_of(pc) == chess::WHITE, int(chess::type_of(pc)));
           }, "square"_a, "(color, piece_type) of the piece on the square (a1 = 0 .. h8 = 63), or None.")
      .def("__repr__", [](const Position& p) { return "Board('" + p.fen() + "')"; });

  nb::class_<chess::PgnGame>(m, "Game", "One game of a PGN file: its tags, start position, mainline and result.")
      .def_prop_ro("headers", [](const chess::PgnGame& g) {
             nb::dict d;
             for (auto& [key, value] : g.tags)
               if (!d.contains(key.c_str())) d[key.c_str()] = value;  // the first of repeated tags
             return d;
           }, "The tags in file order, as a dict (the first of a repeated name).")
      .def_prop_ro("fen", [](const chess::PgnGame& g) { return g.start.fen(); },
                   "The starting position (the FEN tag's, or the initial position).")
      .def_prop_ro("moves", [](const chess::PgnGame& g) {
             std::vector<std::string> out;
             out.reserve(g.moves.size());
             for (Move mv : g.moves) out.push_back(mv.to_uci());
             return out;
           }, "The mainline as UCI moves.")
      .def_prop_ro("result", [](const chess::PgnGame& g) { return g.result; },
                   "The result token: '1-0', '0-1', '1/2-1/2' or '*'.")
      .def_prop_ro("number", [](const chess::PgnGame& g) { return g.number; },
                   "The game's number in the file, from 1, refused games counted.")
      .def("board", [](const chess::PgnGame& g) { return g.start; }, "The starting position as a Board.")
      .def("__repr__", [](const chess::PgnGame& g) {
             return "<Game " + std::to_string(g.number) + ": " + std::to_string(g.moves.size()) + " plies, " +
                    g.result + ">";
           });

  nb::class_<PgnIterator>(m, "PgnReader", "An iterator of the games of a PGN file (see read_pgn).")
      .def("__iter__", [](nb::handle self) { return self; }, nb::rv_policy::reference)
      .def("__next__", &next_game)
      .def_prop_ro("errors", [](const PgnIterator& it) { return it.errors; },
                   "The messages of the games skipped so far (skip_invalid=True).")
      .def_prop_ro("games", [](const PgnIterator& it) { return it.reader.games(); },
                   "Games started so far, read or refused.");

  m.def("read_pgn", [](const std::string& path, bool skip_invalid) {
        return PgnIterator{unwrap(chess::PgnReader::open(path)), skip_invalid, {}};
      }, "path"_a, "skip_invalid"_a = false,
      "An iterator of the games of a PGN file, plain or zstd-compressed, read block by block. A game that "
      "cannot be read raises InvalidDataError naming the file, game, line, byte and move (iteration may go on "
      "after it), or with skip_invalid=True is skipped and its message added to .errors.");
  m.def("perft", [](const std::string& fen, nb::handle depth_arg) {
        const int depth = static_cast<int>(int_arg(depth_arg, "depth", 0, kMaxPerftDepth));
        Position pos = position_from_fen(fen);
        nb::gil_scoped_release release;
        return chess::perft(pos, depth);
      }, "fen"_a, "depth"_a.none(), "Leaf count of the legal move tree (1 at depth 0), bulk-counted at the leaves.");
  m.def("legal_move_counts", [](const std::vector<std::string>& fens) {
        Result<std::vector<int32_t>> counts = [&] {
          nb::gil_scoped_release release;
          return count_legal_all(fens);
        }();
        return to_numpy(unwrap(std::move(counts)));
      }, "fens"_a, "The legal move count of each FEN as an int32 array; InvalidDataError names the first bad one.");
}

}  // namespace manaka::python
