// manaka.shogi: positions, moves and move generation, shaped like cshogi's
// and python-chess's Board (push_usi / pop / legal_moves / sfen).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <deque>
#include <string>
#include <vector>

#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
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

// A position with its move history, so moves can be taken back.
struct Board {
  shogi::Position pos = shogi::Position::startpos();
  std::vector<Move> moves;
  std::deque<shogi::StateInfo> states;  // a deque keeps StateInfo addresses stable

  void push(Move m) {
    states.emplace_back();
    pos.do_move(m, states.back());
    moves.push_back(m);
  }
};

Board board_from_sfen(const std::string& sfen) {
  return Board{unwrap(shogi::Position::from_sfen(sfen)), {}, {}};
}

Move parse_legal(const Board& b, const std::string& usi) {
  auto m = shogi::Move::parse_usi(usi);
  if (!m.ok() || !b.pos.is_legal(*m))
    throw StatusError{Status::invalid("illegal usi: '" + usi + "' in " + b.pos.sfen())};
  return *m;
}

Move legal_move16(const Board& b, int raw) {
  Move m{static_cast<uint16_t>(raw)};
  if (raw < 0 || raw > 0xFFFF || !b.pos.is_legal(m))
    throw StatusError{Status::invalid("illegal move16 " + std::to_string(raw) + " in " + b.pos.sfen())};
  return m;
}

std::vector<Move> legal_list(const shogi::Position& pos) {
  shogi::MoveList list;
  shogi::generate_legal(pos, list);
  return {list.begin(), list.end()};
}

}  // namespace

void bind_shogi(nb::module_ m) {
  m.attr("BLACK") = int(shogi::BLACK);
  m.attr("WHITE") = int(shogi::WHITE);
  m.attr("PACKED_LEN") = shogi::PACKED_LEN;

  nb::class_<Board>(m, "Position", "A shogi position with its move history.")
      .def("__init__", [](Board* self, const std::string& sfen) { new (self) Board(board_from_sfen(sfen)); },
           "sfen"_a = "startpos", "A SFEN (optionally after 'sfen ') or 'startpos'.")
      .def_static("from_sfen", &board_from_sfen, "sfen"_a)
      .def_static("unpack", [](nb::bytes packed) { return Board{unwrap(shogi::unpack(bytes_of(packed))), {}, {}}; },
                  "packed"_a, "The position 96 packed bytes hold (move number 1).")
      .def("sfen", [](const Board& b) { return b.pos.sfen(); })
      .def("pack", [](const Board& b) { return to_bytes(shogi::pack(b.pos)); },
           "The 96-byte packed position an MPK1 record stores.")
      .def_prop_ro("turn", [](const Board& b) { return int(b.pos.side_to_move()); }, "BLACK (0) or WHITE (1).")
      .def_prop_ro("move_number", [](const Board& b) { return b.pos.move_number(); })
      .def_prop_ro("key", [](const Board& b) { return b.pos.key(); }, "Zobrist hash of board, hands and side.")
      .def("piece_on", [](const Board& b, int sq) {
             if (sq < 0 || sq >= shogi::SQUARE_NB) throw nb::index_error("square out of range 0..80");
             return int(b.pos.piece_on(shogi::Square(sq)));
           }, "square"_a, "The board byte (colour << 4 | kind) or 0xFF when empty.")
      .def("hand", [](const Board& b, int color) {
             if (color != 0 && color != 1) throw nb::value_error("color must be 0 or 1");
             std::vector<int> counts;
             for (int hk = 0; hk < shogi::HAND_KIND_NB; ++hk)
               counts.push_back(b.pos.hand_count(shogi::Color(color), shogi::HandKind(hk)));
             return counts;
           }, "color"_a, "Hand counts in the order P L N S G B R.")
      .def("is_check", [](const Board& b) { return b.pos.in_check(); })
      .def("legal_moves", [](const Board& b) {
             std::vector<std::string> out;
             for (Move mv : legal_list(b.pos)) out.push_back(mv.to_usi());
             return out;
           }, "Every legal move as USI text.")
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
      .def("is_legal", [](const Board& b, const std::string& usi) {
             auto mv = shogi::Move::parse_usi(usi);
             return mv.ok() && b.pos.is_legal(*mv);
           }, "usi"_a)
      .def("push_usi", [](Board& b, const std::string& usi) {
             Move mv = parse_legal(b, usi);
             b.push(mv);
             return mv.raw;
           }, "usi"_a, "Plays a legal move given as USI; returns its move16.")
      .def("push", [](Board& b, int raw) { b.push(legal_move16(b, raw)); }, "move16"_a)
      .def("pop", [](Board& b) {
             if (b.moves.empty()) throw nb::index_error("pop from a position with no moves played");
             Move mv = b.moves.back();
             b.pos.undo_move(mv);
             b.moves.pop_back();
             b.states.pop_back();
             return mv.to_usi();
           }, "Takes back the last move; returns it as USI.")
      .def("perft", [](Board& b, nb::handle depth_arg) {
             const int depth = static_cast<int>(int_arg(depth_arg, "depth", 0, kMaxPerftDepth));
             nb::gil_scoped_release release;
             return shogi::perft(b.pos, depth);
           }, "depth"_a.none())
      .def("copy", [](const Board& b) { return Board{b.pos, {}, {}}; }, "The position without its history.")
      .def("__repr__", [](const Board& b) { return "Position('" + b.pos.sfen() + "')"; });

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
