// manaka._core.shogi, continued: the network encodings (shogi/encode.h,
// shogi/move_index.h) and a game's outcomes (shogi/game.h). Registered into
// the same submodule as shogi_binding.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "python/bindings.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "shogi/csa.h"
#include "shogi/encode.h"
#include "shogi/game.h"
#include "shogi/move_index.h"
#include "shogi/pack.h"
#include "shogi/position.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using shogi::Move;
using shogi::Position;

Move parse_legal(const Position& pos, const std::string& usi) {
  auto m = Move::parse_usi(usi);
  if (!m.ok() || !pos.is_legal(*m)) throw StatusError{Status::invalid("illegal usi: '" + usi + "' in " + pos.sfen())};
  return *m;
}

NumpyArray<int8_t> planes_array(const Position& pos, bool repeated) {
  std::vector<int8_t> out(shogi::PLANES_SIZE);
  shogi::encode_planes(pos, repeated, out.data());
  return to_numpy(std::move(out), {size_t(shogi::PLANE_NB), 9, 9});
}

// moves[i], a legal move of pos; a refusal names its index.
Move legal_at(const Position& pos, const std::vector<std::string>& moves, size_t i) {
  auto m = Move::parse_usi(moves[i]);
  if (!m.ok() || !pos.is_legal(*m))
    throw StatusError{Status::invalid("moves[" + std::to_string(i) + "]: illegal usi: '" + moves[i] + "' in " +
                                      pos.sfen())};
  return *m;
}

using OutcomeTuple = std::tuple<bool, std::optional<std::string>, std::optional<std::string>>;

OutcomeTuple outcome_tuple(const shogi::Game& game, int max_plies) {
  auto o = game.outcome(max_plies);
  std::optional<std::string> termination, winner;
  if (o) {
    termination = shogi::termination_name(o->termination);
    if (o->winner) winner = *o->winner == shogi::BLACK ? "black" : "white";
  }
  return {game.is_repetition(2), termination, winner};
}

}  // namespace

void bind_shogi_encode(nb::module_ m) {
  m.attr("PLANE_NB") = shogi::PLANE_NB;
  m.attr("POLICY_SIZE") = shogi::POLICY_SIZE;
  m.def("encode_planes", [](const std::string& sfen, bool repeated) {
        return planes_array(unwrap(Position::from_sfen(sfen)), repeated);
      }, "sfen"_a, "repeated"_a = false,
      "The (44, 9, 9) int8 input planes from the side to move's view (docs/shogi-network.md); plane 42 is "
      "`repeated` (the position occurred before in the game).");
  m.def("encode_planes", [](nb::bytes packed, bool repeated) {
        return planes_array(unwrap(shogi::unpack(bytes_of(packed))), repeated);
      }, "packed"_a, "repeated"_a = false, "The same from the 96-byte packed position.");
  m.def("decode_planes", [](nb::ndarray<const int8_t, nb::c_contig, nb::device::cpu> planes) {
        if (planes.ndim() != 3 || planes.shape(0) != size_t(shogi::PLANE_NB) || planes.shape(1) != 9 ||
            planes.shape(2) != 9) {
          std::string shape;
          for (size_t i = 0; i < planes.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(planes.shape(i));
          throw StatusError{Status::invalid("planes: expected shape (44, 9, 9), got (" + shape + ")")};
        }
        shogi::DecodedPlanes d = unwrap(shogi::decode_planes(planes.data()));
        return std::make_tuple(d.position.sfen(), d.repeated_before);
      }, "planes"_a,
      "(sfen, repeated) of (44, 9, 9) int8 planes; refuses, naming the plane, row and column, what "
      "encode_planes could not have written.");
  m.def("move_index", [](const std::string& sfen, const std::string& usi) {
        const Position pos = unwrap(Position::from_sfen(sfen));
        return shogi::move_index(pos, parse_legal(pos, usi));
      }, "sfen"_a, "usi"_a, "The policy index (0..11258) of a legal move, from the mover's view.");
  m.def("move_from_index", [](const std::string& sfen, int index) -> std::optional<std::string> {
        const Move mv = shogi::move_from_index(unwrap(Position::from_sfen(sfen)), index);
        if (mv == shogi::MOVE_NONE) return std::nullopt;
        return mv.to_usi();
      }, "sfen"_a, "index"_a, "The legal move (USI) a policy index names here, or None.");
  m.def("encode_game", [](const std::string& sfen, const std::vector<std::string>& moves) {
        shogi::Game game(unwrap(Position::from_sfen(sfen)));
        std::vector<int8_t> states(moves.size() * shogi::PLANES_SIZE);
        std::vector<int32_t> indices;
        for (size_t i = 0; i < moves.size(); ++i) {
          const Position& pos = game.position();
          const Move m = legal_at(pos, moves, i);
          shogi::encode_planes(pos, game.is_repetition(2), states.data() + i * shogi::PLANES_SIZE);
          indices.push_back(int32_t(shogi::move_index(pos, m)));
          game.push(m);
        }
        const size_t n = indices.size();
        return std::make_tuple(to_numpy(std::move(states), {n, size_t(shogi::PLANE_NB), 9, 9}),
                               to_numpy(std::move(indices)));
      }, "sfen"_a, "moves"_a,
      "(states (N, 44, 9, 9) int8, move_indices (N,) int32) of a game's N moves from `sfen`; the repetition "
      "plane is whether the position occurred before in the game.");
  m.def("game_csa", [](const std::string& sfen, const std::vector<std::string>& moves, const std::string& black,
                       const std::string& white, const std::string& event, const std::vector<std::string>& comments,
                       int max_plies) {
        shogi::Game game(unwrap(Position::from_sfen(sfen)));
        for (size_t i = 0; i < moves.size(); ++i) game.push(legal_at(game.position(), moves, i));
        shogi::CsaRecord r{black, white, event, comments, game.start(), game.moves(), game.outcome(max_plies)};
        return unwrap(shogi::csa_text(r));
      }, "sfen"_a, "moves"_a, "black"_a = "", "white"_a = "", "event"_a = "",
      "comments"_a = std::vector<std::string>{}, "max_plies"_a = 0,
      "The game as a CSA record (shogi/csa.h), its ending from shogi::Game::outcome(max_plies); %CHUDAN while "
      "it goes on.");
  m.def("game_outcomes", [](const std::string& sfen, const std::vector<std::string>& moves, int max_plies) {
        shogi::Game game(unwrap(Position::from_sfen(sfen)));
        std::vector<OutcomeTuple> out;
        out.push_back(outcome_tuple(game, max_plies));
        for (size_t i = 0; i < moves.size(); ++i) {
          game.push(legal_at(game.position(), moves, i));
          out.push_back(outcome_tuple(game, max_plies));
        }
        return out;
      }, "sfen"_a, "moves"_a, "max_plies"_a = 0,
      "For the start and after each move: (occurred before, termination or None, winner 'black' / 'white' or "
      "None), termination one of 'no_legal_move', 'repetition', 'perpetual_check', 'ply_limit' "
      "(shogi::Game::outcome).");
}

}  // namespace manaka::python
