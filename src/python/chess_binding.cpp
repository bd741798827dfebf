// manaka.chess: chess positions shaped like python-chess's Board for what a
// data pipeline reads off a position (fen, turn, legal moves as Move objects,
// castling rights, counters, pieces, material), plus perft and a bulk count
// of legal moves over many FENs. docs/python.md sets the surface beside
// manaka.shogi's. Every rule is src/chess's; a refusal raises
// manaka.InvalidDataError (a ValueError) with the core's message.
//
// Colours are python-chess's: True for White, False for Black (the core's
// WHITE is 0, so an int colour would be ambiguous and is refused). Squares
// (a1 = 0 .. h8 = 63) and piece types (PAWN 1 .. KING 6) are the same
// numbers in both.
//
// A Move is python-chess's: a value (chess/move.h's 16 bits) printed as UCI,
// with from_square, to_square and promotion; a Piece (piece_at's) is
// python-chess's too, type and colour printed as a FEN letter. SAN and PGN:
// Board.san / parse_san / push_san as python-chess names them, and
// read_pgn(path), an iterator of Game values (headers, start fen, UCI moves,
// result) over a plain or zstd PGN file read block by block.
//
// Board is a chess::Game (a start position and the moves pushed), so it has
// python-chess's move stack: pop, move_stack, root, and the rules that need
// the history (is_repetition, can_claim_draw, outcome). The Python class
// Game is a PGN game (chess::PgnGame), as in python-chess's chess.pgn.
//
// The corpus encodings (chess/encode.h, chess/move_index.h): encode_planes,
// decode_planes, move_index, move_from_index, and encode_game for a whole
// game in one call.
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

#include "chess/encode.h"
#include "chess/game.h"
#include "chess/move_index.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/pgn.h"
#include "chess/pgn_games.h"
#include "chess/san.h"
#include "chess/position.h"
#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/move_surface.h"
#include "python/numpy.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using chess::Game;
using chess::Move;
using chess::Position;

Position position_from_fen(const std::string& fen) { return unwrap(Position::from_fen(fen)); }

std::optional<bool> winner_arg(std::optional<chess::Color> c) {
  if (!c) return std::nullopt;
  return *c == chess::WHITE;
}

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

Move require_legal(const Position& pos, Move m) {
  if (!pos.is_legal(m)) throw StatusError{Status::invalid("illegal uci: '" + m.to_uci() + "' in " + pos.fen())};
  return m;
}

LegalMoves<Move> legal_moves(const Position& pos) {
  chess::MoveList list;
  chess::generate_legal(pos, list);
  return {{list.begin(), list.end()}};
}

// Move(from_square, to_square, promotion=None): well formed (chess/move.h)
// or InvalidDataError saying why; Move(0, 0) is the null move, as
// python-chess's Move.null().
Move make_move(nb::handle from_arg, nb::handle to_arg, nb::handle promotion_arg) {
  const auto from = chess::Square(int_arg(from_arg, "from_square", 0, chess::SQUARE_NB - 1));
  const auto to = chess::Square(int_arg(to_arg, "to_square", 0, chess::SQUARE_NB - 1));
  const auto promotion = promotion_arg.is_none()
                             ? chess::NO_PIECE_TYPE
                             : chess::PieceType(int_arg(promotion_arg, "promotion", chess::KNIGHT, chess::QUEEN));
  Move mv = Move::make(from, to, promotion);
  if (mv != chess::MOVE_NONE && !mv.well_formed())
    throw StatusError{Status::invalid("not a chess move: from_square " + std::to_string(from) + ", to_square " +
                                      std::to_string(to) + ", promotion " + std::to_string(int(promotion)) +
                                      " (the squares are equal, or a promotion is not to the last rank from the one "
                                      "before)")};
  return mv;
}

// python-chess's Piece: a value of piece type and colour, printed as its FEN
// letter. For one release it also unpacks, indexes and compares as the
// (color, piece_type) tuple piece_at returned before, with a
// DeprecationWarning; its hash is that tuple's, so == and hash agree.
struct PieceValue {
  chess::Piece pc;
  bool operator==(const PieceValue&) const = default;
  bool white() const { return chess::color_of(pc) == chess::WHITE; }
  int type() const { return int(chess::type_of(pc)); }
  nb::tuple as_tuple() const { return nb::make_tuple(white(), type()); }
  std::string symbol() const {
    const char letter = chess::PIECE_TYPE_LETTER[type()];
    return {white() ? letter : char(letter - 'A' + 'a')};
  }
};

PieceValue piece_from_symbol(const std::string& symbol) {
  static const std::string letters = "PNBRQKpnbrqk";
  const size_t i = symbol.size() == 1 ? letters.find(symbol[0]) : std::string::npos;
  if (i == std::string::npos)
    throw StatusError{Status::invalid("not a piece symbol: '" + symbol + "' (PNBRQK White, pnbrqk Black)")};
  return {chess::make_piece(i < 6 ? chess::WHITE : chess::BLACK, chess::PieceType(i % 6 + 1))};
}

void warn_piece_tuple(const char* what) {
  warn_deprecated(std::string(what) + " a Piece as the (color, piece_type) tuple piece_at returned is deprecated "
                                      "and goes in 0.2; use piece.color and piece.piece_type");
}

void bind_piece(nb::module_ m) {
  // python-chess's UNICODE_PIECE_SYMBOLS by piece type: White's outlined, Black's filled.
  static constexpr const char* kUnicode[2][chess::PIECE_TYPE_NB] = {
      {"", "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654"},
      {"", "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a"}};
  nb::class_<PieceValue>(m, "Piece", "A piece as python-chess's Piece: piece_type (PAWN..KING) and color (True "
                                     "White), printed as its letter. Immutable and hashable.")
      .def("__init__", [](PieceValue* self, nb::handle piece_type, bool color) {
             const auto pt = chess::PieceType(int_arg(piece_type, "piece_type", chess::PAWN, chess::KING));
             new (self) PieceValue{chess::make_piece(color_arg(color), pt)};
           }, "piece_type"_a, "color"_a, nb::sig("def __init__(self, piece_type: int, color: bool) -> None"),
           "A piece type (PAWN..KING) and a colour (True White).")
      .def_static("from_symbol", &piece_from_symbol, "symbol"_a,
                  "The piece of a FEN letter: PNBRQK White, pnbrqk Black; InvalidDataError otherwise.")
      .def_prop_ro("piece_type", &PieceValue::type)
      .def_prop_ro("color", &PieceValue::white, "True for White.")
      .def("symbol", &PieceValue::symbol, "The FEN letter: uppercase for White ('P'), lowercase for Black ('p').")
      .def("unicode_symbol", [](const PieceValue& p, bool invert_color) {
             return kUnicode[p.white() == invert_color][p.type()];
           }, nb::kw_only(), "invert_color"_a = false, "The chess glyph python-chess prints ('\u2659' a White pawn).")
      .def("__str__", &PieceValue::symbol)
      .def("__repr__", [](const PieceValue& p) { return "Piece.from_symbol('" + p.symbol() + "')"; })
      .def("__hash__", [](const PieceValue& p) { return nb::hash(p.as_tuple()); })
      .def("__eq__", [](const PieceValue& p, nb::handle other) -> nb::object {
             if (nb::isinstance<PieceValue>(other)) return nb::bool_(nb::cast<PieceValue>(other) == p);
             if (nb::isinstance<nb::tuple>(other)) {
               warn_piece_tuple("comparing");
               return nb::bool_(p.as_tuple().equal(other));
             }
             return nb::borrow(Py_NotImplemented);
           }, nb::arg("other").none(), nb::sig("def __eq__(self, other: object) -> bool"))
      .def("__iter__", [](const PieceValue& p) {
             warn_piece_tuple("unpacking");
             return nb::iter(p.as_tuple());
           }, nb::sig("def __iter__(self) -> collections.abc.Iterator[bool | int]"),
           "Deprecated (goes in 0.2): color, piece_type = piece.")
      .def("__getitem__", [](const PieceValue& p, nb::handle index) -> nb::object {
             warn_piece_tuple("indexing");
             return p.as_tuple().attr("__getitem__")(index);
           }, "index"_a, nb::sig("def __getitem__(self, index: int) -> bool | int"),
           "Deprecated (goes in 0.2): piece[0] the color, piece[1] the piece type.");
}

auto uci_notation() {
  return Notation{[](Move m) { return m.to_uci(); }, [](const std::string& t) { return Move::parse_uci(t); }, "uci"};
}

// The planes of the position before each move and each move's index, for
// a game from `fen` with `moves` (UCI). A refusal names the move's index.
struct EncodedGame {
  std::vector<int8_t> states;
  std::vector<int32_t> move_indices;
};

Result<EncodedGame> encode_game(const std::string& fen, const std::vector<std::string>& moves) {
  auto start = Position::from_fen(fen);
  if (!start.ok()) return std::move(start).take_status();
  Game game(*start);
  EncodedGame out;
  out.states.resize(moves.size() * chess::PLANES_SIZE);
  out.move_indices.reserve(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    const Position& pos = game.position();
    auto m = Move::parse_uci(moves[i]);
    if (!m.ok() || !pos.is_legal(*m))
      return Status::invalid("moves[" + std::to_string(i) + "]: " + (m.ok() ? "illegal" : "invalid") + " uci: '" +
                             moves[i] + "' in " + pos.fen());
    chess::encode_planes(pos, game.is_repetition(2), out.states.data() + i * chess::PLANES_SIZE);
    out.move_indices.push_back(int32_t(chess::move_index(pos, *m)));
    game.push(*m);
  }
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

// read_pgn's iterator: the policy of chess/pgn_games.h over one file, every
// skipped game's message kept.
struct PgnIterator {
  chess::PgnGames games;
};

chess::PgnGame next_game(PgnIterator& it) {
  chess::PgnGame game;
  Result<bool> more = [&] {
    nb::gil_scoped_release release;
    return it.games.next(game);
  }();
  if (!unwrap(std::move(more))) throw nb::stop_iteration();
  return game;
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

  nb::enum_<chess::Termination>(m, "Termination", "How a game ended: python-chess's Termination names.")
      .value("CHECKMATE", chess::Termination::CHECKMATE)
      .value("STALEMATE", chess::Termination::STALEMATE)
      .value("INSUFFICIENT_MATERIAL", chess::Termination::INSUFFICIENT_MATERIAL)
      .value("SEVENTYFIVE_MOVES", chess::Termination::SEVENTYFIVE_MOVES)
      .value("FIVEFOLD_REPETITION", chess::Termination::FIVEFOLD_REPETITION)
      .value("FIFTY_MOVES", chess::Termination::FIFTY_MOVES)
      .value("THREEFOLD_REPETITION", chess::Termination::THREEFOLD_REPETITION);

  nb::class_<chess::Outcome>(m, "Outcome", "How a game ended and who won, as python-chess's Outcome.")
      .def_ro("termination", &chess::Outcome::termination)
      .def_prop_ro("winner", [](const chess::Outcome& o) { return winner_arg(o.winner); },
                   "True (White), False (Black) or None (a draw).")
      .def("result", &chess::Outcome::result, "'1-0', '0-1' or '1/2-1/2'.")
      .def("__eq__", [](const chess::Outcome& a, const chess::Outcome& b) { return a == b; })
      .def("__repr__", [](const chess::Outcome& o) {
             const char* winner = !o.winner ? "None" : *o.winner == chess::WHITE ? "True" : "False";
             return std::string("Outcome(termination=Termination.") + chess::termination_name(o.termination) +
                    ", winner=" + winner + ")";
           });

  bind_piece(m);
  auto notation = uci_notation();
  nb::class_<Move> move(m, "Move", "A chess move as python-chess's Move: a value (no position), printed as UCI. "
                                   "Immutable and hashable.");
  move.def("__init__", [](Move* self, nb::handle from, nb::handle to, nb::handle promotion) {
             new (self) Move(make_move(from, to, promotion));
           }, "from_square"_a, "to_square"_a, "promotion"_a.none() = nb::none(),
           nb::sig("def __init__(self, from_square: int, to_square: int, promotion: int | None = None) -> None"),
           "From and to squares (a1 = 0 .. h8 = 63) and the piece type a pawn becomes (KNIGHT..QUEEN) or None.")
      .def_static("from_uci", [](const std::string& uci) { return unwrap(Move::parse_uci(uci)); }, "uci"_a,
                  "Reads UCI text ('e2e4', 'e7e8q', '0000' the null move); syntax only, not legality.")
      .def_static("null", [] { return chess::MOVE_NONE; }, "The null move '0000' (false in a boolean context).")
      .def_prop_ro("from_square", [](Move mv) { return int(mv.from_square()); })
      .def_prop_ro("to_square", [](Move mv) { return int(mv.to_square()); })
      .def_prop_ro("promotion", [](Move mv) -> std::optional<int> {
             if (mv.promotion() == chess::NO_PIECE_TYPE) return std::nullopt;
             return int(mv.promotion());
           }, "The piece type a pawn becomes (KNIGHT..QUEEN), or None.")
      .def("__bool__", [](Move mv) { return mv != chess::MOVE_NONE; });
  bind_move_text(move, notation);
  bind_legal_moves<Move>(m, notation);

  nb::class_<Game>(m, "Board",
                   "A chess position and the moves pushed since its start (python-chess's move stack).")
      .def("__init__", [](Game* self, const std::string& fen) { new (self) Game(position_from_fen(fen)); },
           "fen"_a = starting_fen,
           "Six FEN fields, the first four (then '0 1'), or 'startpos'. Stricter than python-chess: "
           "InvalidDataError names the offset or the rule. The history starts here.")
      .def("fen", [](const Game& g) { return g.position().fen(); },
           "The FEN python-chess's Board.fen() prints (en passant only when a legal capture exists).")
      .def("normalized_fen", [](const Game& g) { return g.position().normalized_fen(); },
           "fen() with the fullmove number 1: VPD1's position identity.")
      .def_prop_ro("turn", [](const Game& g) { return g.position().side_to_move() == chess::WHITE; },
                   "True when White is to move (python-chess's chess.WHITE).")
      .def_prop_ro("castling_mask", [](const Game& g) { return g.position().castling_rights(); },
                   "Castling rights as bits K = 1, Q = 2, k = 4, q = 8.")
      .def_prop_ro("halfmove_clock", [](const Game& g) { return g.position().halfmove_clock(); })
      .def_prop_ro("fullmove_number", [](const Game& g) { return g.position().fullmove_number(); })
      .def_prop_ro("ep_square",
                   [](const Game& g) -> std::optional<int> {
                     if (g.position().ep_square() == chess::SQ_NONE) return std::nullopt;
                     return int(g.position().ep_square());
                   },
                   "The square a pawn just passed over with a double push, whether or not a capture there is "
                   "legal (as python-chess's ep_square), or None.")
      .def_prop_ro("zobrist", [](const Game& g) { return g.position().key(); },
                   "The 64-bit Zobrist key: equal for two boards exactly when python-chess's "
                   "_transposition_key() is (board, turn, castling rights, en passant only when legal).")
      .def_prop_ro("legal_moves", [](const Game& g) { return legal_moves(g.position()); },
                   "The legal moves now, as Move objects in generation order (a LegalMoves snapshot).")
      .def("legal_move_count", [](const Game& g) { return chess::count_legal(g.position()); })
      .def("is_legal", [](const Game& g, Move mv) { return g.position().is_legal(mv); }, "move"_a,
           "Whether the Move is legal here.")
      .def("is_legal", [](const Game& g, const std::string& uci) {
             warn_deprecated("board.is_legal(uci text) is deprecated and goes in 0.2; pass Move.from_uci(text)");
             auto mv = Move::parse_uci(uci);
             return mv.ok() && g.position().is_legal(*mv);
           }, "uci"_a, "Deprecated (goes in 0.2): UCI text instead of a Move; False for text that is not UCI.")
      .def("parse_uci", [](const Game& g, const std::string& uci) { return parse_legal(g.position(), uci); }, "uci"_a,
           "The legal Move uci names; InvalidDataError names the text and the FEN otherwise.")
      .def("push", [](Game& g, Move mv) { g.push(require_legal(g.position(), mv)); }, "move"_a,
           "Plays a legal Move; InvalidDataError names it and the FEN otherwise.")
      .def("push_uci", [](Game& g, const std::string& uci) {
             Move mv = parse_legal(g.position(), uci);
             g.push(mv);
             return mv;
           }, "uci"_a, "Plays a legal move given as UCI and returns the Move; InvalidDataError names the move and "
                       "the FEN.")
      .def("pop", [](Game& g) {
             if (g.ply() == 0) throw nb::index_error("pop from an empty move stack");
             return g.pop();
           }, "Takes back the last move and returns it; IndexError when none was pushed.")
      .def("peek", [](const Game& g) {
             if (g.ply() == 0) throw nb::index_error("peek at an empty move stack");
             return g.moves().back();
           }, "The last move pushed.")
      .def_prop_ro("move_stack", [](const Game& g) { return std::vector<Move>(g.moves().begin(), g.moves().end()); },
                   "The moves pushed since the start, oldest first.")
      .def("root", [](const Game& g) { return Game(g.start()); }, "The starting position, with no moves.")
      .def("san", [](const Game& g, Move mv) { return chess::to_san(g.position(), require_legal(g.position(), mv)); },
           "move"_a, "The SAN of a legal Move, as python-chess's Board.san() prints it.")
      .def("san", [](const Game& g, const std::string& uci) {
             warn_deprecated("board.san(uci text) is deprecated and goes in 0.2; pass Move.from_uci(text)");
             return chess::to_san(g.position(), parse_legal(g.position(), uci));
           }, "uci"_a, "Deprecated (goes in 0.2): UCI text instead of a Move.")
      .def("parse_san", [](const Game& g, const std::string& san) { return unwrap(chess::parse_san(g.position(), san)); },
           "san"_a, "The legal Move SAN names; InvalidDataError says why not (invalid, illegal, ambiguous).")
      .def("push_san", [](Game& g, const std::string& san) {
             Move mv = unwrap(chess::parse_san(g.position(), san));
             g.push(mv);
             return mv;
           }, "san"_a, "Plays the legal move SAN names and returns the Move.")
      .def("copy", [](const Game& g, bool stack) { return stack ? g : Game(g.position()); }, "stack"_a = true,
           "A copy; with stack=False its history starts at the current position.")
      .def("__copy__", [](const Game& g) { return g; })
      .def("is_check", [](const Game& g) { return g.position().in_check(); })
      .def("is_checkmate", [](const Game& g) {
             return g.position().in_check() && chess::count_legal(g.position()) == 0;
           })
      .def("is_stalemate", [](const Game& g) {
             return !g.position().in_check() && chess::count_legal(g.position()) == 0;
           })
      .def("is_insufficient_material", [](const Game& g) { return chess::is_insufficient_material(g.position()); },
           "Neither side can win by material alone (python-chess's rule, bishop colours counted).")
      .def("has_insufficient_material", [](const Game& g, bool color) {
             return chess::has_insufficient_material(g.position(), color_arg(color));
           }, "color"_a)
      .def("is_repetition", &Game::is_repetition, "count"_a = 3,
           "The position occurred count times (itself included) since the last irreversible move.")
      .def("is_fivefold_repetition", &Game::is_fivefold_repetition)
      .def("is_seventyfive_moves", &Game::is_seventyfive_moves)
      .def("is_fifty_moves", &Game::is_fifty_moves)
      .def("can_claim_fifty_moves", &Game::can_claim_fifty_moves,
           "The clock is at 100, or a legal move that is no capture or pawn move brings it there.")
      .def("can_claim_threefold_repetition", &Game::can_claim_threefold_repetition,
           "The position occurred three times, or a legal move reaches one that occurred twice.")
      .def("can_claim_draw", &Game::can_claim_draw)
      .def("outcome", &Game::outcome, nb::kw_only(), "claim_draw"_a = false,
           "How the game ended, or None: python-chess's Board.outcome, its checks in its order.")
      .def("is_game_over", [](const Game& g, bool claim_draw) { return g.outcome(claim_draw).has_value(); },
           nb::kw_only(), "claim_draw"_a = false)
      .def("result", [](const Game& g, bool claim_draw) -> std::string {
             auto o = g.outcome(claim_draw);
             return o ? o->result() : "*";
           }, nb::kw_only(), "claim_draw"_a = false, "'1-0', '0-1', '1/2-1/2', or '*' while the game goes on.")
      .def("piece_count", [](const Game& g) { return chess::popcount(g.position().pieces()); }, "Occupied squares.")
      .def("material", [](const Game& g, bool color) { return g.position().material(color_arg(color)); }, "color"_a,
           "The colour's pawns, knights, bishops, rooks and queens in pawn units (1, 3, 3, 5, 9).")
      .def("non_pawn_material", [](const Game& g) { return g.position().non_pawn_material(); },
           "Knights, bishops, rooks and queens of both colours in pawn units.")
      .def("piece_at", [](const Game& g, int sq) -> std::optional<PieceValue> {
             chess::Piece pc = g.position().piece_on(square_arg(sq));
             if (pc == chess::NO_PIECE) return std::nullopt;
             return PieceValue{pc};
           }, "square"_a, "The Piece on the square (a1 = 0 .. h8 = 63), or None.")
      .def("__repr__", [](const Game& g) { return "Board('" + g.position().fen() + "')"; });

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
      .def("board", [](const chess::PgnGame& g) { return Game(g.start); }, "The starting position as a Board.")
      .def("__repr__", [](const chess::PgnGame& g) {
             return "<Game " + std::to_string(g.number) + ": " + std::to_string(g.moves.size()) + " plies, " +
                    g.result + ">";
           });

  nb::class_<PgnIterator>(m, "PgnReader", "An iterator of the games of a PGN file (see read_pgn).")
      .def("__iter__", [](nb::handle self) { return self; }, nb::rv_policy::reference)
      .def("__next__", &next_game)
      .def_prop_ro("errors", [](const PgnIterator& it) { return it.games.messages(); },
                   "The messages of the games skipped so far (skip_invalid=True).")
      .def_prop_ro("games", [](const PgnIterator& it) { return it.games.games_read() + it.games.games_skipped(); },
                   "Games started so far, read or refused.");

  m.def("read_pgn", [](const std::string& path, bool skip_invalid) {
        (void)unwrap(chess::PgnReader::open(path));  // an unreadable file raises here, not at the first next()
        chess::PgnPolicy policy{.skip_refused = skip_invalid, .skip_unreadable = false, .keep_messages = SIZE_MAX};
        return PgnIterator{chess::PgnGames({path}, std::move(policy))};
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
  m.attr("PLANE_NB") = chess::PLANE_NB;
  m.attr("POLICY_SIZE") = chess::POLICY_SIZE;
  m.def("encode_planes", [](const Game& g) {
        std::vector<int8_t> out(chess::PLANES_SIZE);
        chess::encode_planes(g.position(), g.is_repetition(2), out.data());
        return to_numpy(std::move(out), {size_t(chess::PLANE_NB), 8, 8});
      }, "board"_a,
      "The (20, 8, 8) int8 input planes from the side to move's view (docs/chess-position.md); plane 19 is "
      "board.is_repetition(2).");
  m.def("decode_planes", [](nb::ndarray<const int8_t, nb::c_contig, nb::device::cpu> planes) {
        if (planes.ndim() != 3 || planes.shape(0) != size_t(chess::PLANE_NB) || planes.shape(1) != 8 ||
            planes.shape(2) != 8) {
          std::string shape;
          for (size_t i = 0; i < planes.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(planes.shape(i));
          throw StatusError{Status::invalid("planes: expected shape (20, 8, 8), got (" + shape + ")")};
        }
        chess::DecodedPlanes d = unwrap(chess::decode_planes(planes.data()));
        return std::make_tuple(Game(d.position), d.repeated_before);
      }, "planes"_a,
      "(board, repeated) from (20, 8, 8) int8 planes (fullmove number 1); InvalidDataError names the plane, "
      "row and column of what encode_planes could not have written.");
  m.def("move_index", [](const Game& g, Move mv) {
        return chess::move_index(g.position(), require_legal(g.position(), mv));
      }, "board"_a, "move"_a, "The AlphaZero policy index (0..4671) of a legal Move, from the mover's view.");
  m.def("move_index", [](const Game& g, const std::string& uci) {
        warn_deprecated("move_index(board, uci text) is deprecated and goes in 0.2; pass Move.from_uci(text)");
        return chess::move_index(g.position(), parse_legal(g.position(), uci));
      }, "board"_a, "uci"_a, "Deprecated (goes in 0.2): UCI text instead of a Move.");
  m.def("move_from_index", [](const Game& g, int index) -> std::optional<Move> {
        Move mv = chess::move_from_index(g.position(), index);
        if (mv == chess::MOVE_NONE) return std::nullopt;
        return mv;
      }, "board"_a, "index"_a, "The legal Move a policy index names here, or None.");
  m.def("encode_game", [](const std::string& fen, const std::vector<std::string>& moves) {
        Result<EncodedGame> r = [&] {
          nb::gil_scoped_release release;
          return encode_game(fen, moves);
        }();
        EncodedGame e = unwrap(std::move(r));
        const size_t n = e.move_indices.size();
        return std::make_tuple(to_numpy(std::move(e.states), {n, size_t(chess::PLANE_NB), 8, 8}),
                               to_numpy(std::move(e.move_indices)));
      }, "fen"_a, "moves"_a,
      "(states, move_indices) of a game from fen with UCI moves, in one call: int8 (N, 20, 8, 8) planes of the "
      "position before each move (repetitions counted from fen) and each move's int32 policy index.");
  m.def("legal_move_counts", [](const std::vector<std::string>& fens) {
        Result<std::vector<int32_t>> counts = [&] {
          nb::gil_scoped_release release;
          return count_legal_all(fens);
        }();
        return to_numpy(unwrap(std::move(counts)));
      }, "fens"_a, "The legal move count of each FEN as an int32 array; InvalidDataError names the first bad one.");
}

}  // namespace manaka::python
