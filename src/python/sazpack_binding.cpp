// manaka.sazpack: SAZ2 v4 chunks, shaped like rsshogi 1.7.0's
// rsshogi.sazpack (same classes, field and argument names, USI moves, SFEN or
// 32 packed bytes for the stem), plus the indexed and the columnar decode.
// Everything is checked in C++ (src/sazpack); a refusal raises the manaka
// error for its kind (InvalidDataError, TruncatedError, FileError: all
// ValueError) with the game, position, byte offset and rule.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cctype>
#include <string>
#include <vector>

#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "sazpack/chunk_file.h"
#include "sazpack/codec.h"
#include "sazpack/columns.h"
#include "sazpack/packed_sfen.h"
#include "shogi/position.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using namespace manaka::sazpack;

[[noreturn]] void refuse(const std::string& msg) { throw StatusError{Status::invalid("sazpack: " + msg)}; }

int64_t in_range(int64_t v, int64_t hi, const char* what, int64_t lo = 0) {
  if (v < lo || v > hi) {
    refuse(std::string(what) + " " + std::to_string(v) + " is out of range " + std::to_string(lo) + ".." +
           std::to_string(hi));
  }
  return v;
}

OutcomeBound bound_arg(int64_t v, const char* what) {
  if (v < 0 || v > kMaxOutcomeBound) {
    refuse(std::string(what) + " bound " + std::to_string(v) + " is unknown, must be 0 (Loss), 1 (Draw) or 2 (Win)");
  }
  return OutcomeBound(v);
}

// A bytes-like object pinned for the duration of a call (the GIL may be
// released meanwhile: the exporter cannot resize it).
class Buffer {
 public:
  explicit Buffer(nb::handle obj) {
    if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_SIMPLE) != 0) throw nb::python_error();
  }
  ~Buffer() { PyBuffer_Release(&view_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  std::span<const uint8_t> span() const { return {static_cast<const uint8_t*>(view_.buf), size_t(view_.len)}; }

 private:
  Py_buffer view_{};
};

// A move as rsshogi takes one: USI text, a Move16 value, or an object with
// to_usi() (rsshogi's Move and Move32).
Move16 move_arg(nb::handle mv, const char* what) {
  if (nb::isinstance<nb::str>(mv)) {
    auto parsed = Move16::parse_usi(nb::cast<std::string>(mv));
    if (!parsed.ok()) refuse(std::string(what) + ": " + parsed.status().message());
    return *parsed;
  }
  if (nb::isinstance<nb::int_>(mv)) return Move16{uint16_t(in_range(nb::cast<int64_t>(mv), 0xFFFF, what))};
  if (nb::hasattr(mv, "to_usi")) return move_arg(mv.attr("to_usi")(), what);
  throw nb::type_error((std::string(what) + " must be a USI str, an int Move16 or a Move").c_str());
}

GameResult game_result_arg(nb::handle v) {
  int64_t raw;
  if (nb::isinstance<nb::str>(v)) {
    std::string name = nb::cast<std::string>(v);
    for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
    nb::object members = nb::module_::import_("manaka._core.sazpack").attr("GameResult").attr("__members__");
    nb::str key(name.c_str());
    const int has = PySequence_Contains(members.ptr(), key.ptr());
    if (has < 0) throw nb::python_error();
    if (!has) refuse("unknown GameResult name \"" + nb::cast<std::string>(v) + "\"");
    return nb::cast<GameResult>(members[key]);
  }
  if (nb::isinstance<nb::float_>(v)) throw nb::type_error("game_result must be a GameResult, an int or a str");
  try {
    raw = nb::cast<int64_t>(nb::int_(v));
  } catch (const std::exception&) {
    throw nb::type_error("game_result must be a GameResult, an int or a str");
  }
  if (raw < 0 || raw > 255 || !is_known_game_result(uint8_t(raw))) {
    refuse("game_result " + std::to_string(raw) + " is not a known GameResult (0-14, 16, 17, 20, 21)");
  }
  return GameResult(raw);
}

PackedSfen stem_arg(nb::handle stem) {
  PackedSfen out{};
  if (nb::isinstance<nb::str>(stem)) {
    auto pos = shogi::Position::from_sfen(nb::cast<std::string>(stem));
    if (!pos.ok()) refuse("stem: " + pos.status().message());
    return encode_packed_sfen(*pos);
  }
  Buffer buf(stem);
  if (buf.span().size() != kStemSize) {
    refuse("stem packed sfen must be 32 bytes, got " + std::to_string(buf.span().size()));
  }
  std::copy(buf.span().begin(), buf.span().end(), out.begin());
  return out;
}

std::string wdl_repr(const SazWdl& w) {
  return "SazWdl(win=" + std::to_string(w.win) + ", draw=" + std::to_string(w.draw) +
         ", loss=" + std::to_string(w.loss) + ")";
}

nb::list games_to_list(std::vector<SazGame>&& games) {
  nb::list out;
  for (SazGame& g : games) out.append(nb::cast(std::move(g)));
  return out;
}

nb::list indexed_to_list(std::vector<IndexedSazGame>&& games) {
  nb::list out;
  for (IndexedSazGame& g : games) out.append(nb::make_tuple(nb::cast(std::move(g.game)), g.begin, g.end));
  return out;
}

std::vector<uint8_t> serialize(nb::handle games) {
  ChunkWriter writer;
  for (nb::handle item : nb::iter(games)) {
    if (!nb::isinstance<SazGame>(item)) refuse("games must contain SazGame instances");
    raise_if_error(writer.add(nb::cast<const SazGame&>(item)).with_context("sazpack: "));
  }
  return unwrap(writer.finish());
}

// Runs f without the GIL.
template <typename F>
auto released(F&& f) {
  nb::gil_scoped_release release;
  return f();
}

// decode(bytes) over a file's chunk; errors start with the path.
template <typename Decode>
auto from_file(const std::string& path, Decode&& decode) -> decltype(decode(std::span<const uint8_t>())) {
  auto chunk = ChunkFile::open(path);
  if (!chunk.ok()) return std::move(chunk).take_status();
  auto out = decode(chunk->bytes());
  if (!out.ok()) return std::move(out).take_status().with_context(path + ": ");
  return out;
}

template <typename T>
Result<T> in_memory(Result<T>&& r) {
  if (r.ok()) return std::move(r);
  return std::move(r).take_status().with_context("sazpack: ");
}

nb::dict columns_to_dict(SazColumns&& c) {
  const size_t games = c.games(), rows = c.positions();
  nb::dict d;
  d["stem"] = to_numpy(std::move(c.stem), {games, kStemSize});
  d["game_result"] = to_numpy(std::move(c.game_result));
  d["termination_reason"] = to_numpy(std::move(c.termination_reason));
  d["entering_king_rule"] = to_numpy(std::move(c.entering_king_rule));
  d["game_offsets"] = to_numpy(std::move(c.game_offsets));
  d["packed"] = to_numpy(std::move(c.packed), {rows, 96});
  d["game"] = to_numpy(std::move(c.game));
  d["ply"] = to_numpy(std::move(c.ply));
  d["played"] = to_numpy(std::move(c.played));
  d["played_move16"] = to_numpy(std::move(c.played_move16));
  d["root_wdl"] = to_numpy(std::move(c.root_wdl), {rows, 3});
  d["outcome_wdl"] = to_numpy(std::move(c.outcome_wdl), {rows, 3});
  d["raw_wdl"] = to_numpy(std::move(c.raw_wdl), {rows, 3});
  d["raw_mate"] = to_numpy(std::move(c.raw_mate));
  d["raw_moves_left"] = to_numpy(std::move(c.raw_moves_left));
  d["plies_left"] = to_numpy(std::move(c.plies_left));
  d["requested_visits"] = to_numpy(std::move(c.requested_visits));
  d["target_weight_milli"] = to_numpy(std::move(c.target_weight_milli));
  d["exploration_flags"] = to_numpy(std::move(c.exploration_flags));
  d["has_mate"] = to_numpy(std::move(c.has_mate));
  d["mate"] = to_numpy(std::move(c.mate));
  d["value_q"] = to_numpy(std::move(c.value_q));
  d["value_z"] = to_numpy(std::move(c.value_z));
  d["policy_offsets"] = to_numpy(std::move(c.policy_offsets));
  d["mv"] = to_numpy(std::move(c.mv));
  d["prior"] = to_numpy(std::move(c.prior));
  d["raw_prior"] = to_numpy(std::move(c.raw_prior));
  d["visits"] = to_numpy(std::move(c.visits));
  d["lower"] = to_numpy(std::move(c.lower));
  d["upper"] = to_numpy(std::move(c.upper));
  return d;
}

void bind_classes(nb::module_& m) {
  nb::class_<SazWdl>(m, "SazWdl", "A win/draw/loss distribution quantized to sum to 65535.")
      .def("__init__", [](SazWdl* self, int64_t win, int64_t draw, int64_t loss) {
             new (self) SazWdl{uint16_t(in_range(win, 0xFFFF, "SazWdl.win")),
                               uint16_t(in_range(draw, 0xFFFF, "SazWdl.draw")),
                               uint16_t(in_range(loss, 0xFFFF, "SazWdl.loss"))};
           }, "win"_a, "draw"_a, "loss"_a)
      .def_ro("win", &SazWdl::win)
      .def_ro("draw", &SazWdl::draw)
      .def_ro("loss", &SazWdl::loss)
      .def("__eq__", [](const SazWdl& a, const SazWdl& b) { return a == b; })
      .def("__repr__", &wdl_repr);

  nb::class_<SazPolicyEntry>(m, "SazPolicyEntry", "One candidate move of a position's policy.")
      .def("__init__", [](SazPolicyEntry* self, nb::handle mv, int64_t prior, int64_t raw_prior, int64_t visits,
                          int64_t lower, int64_t upper) {
             new (self) SazPolicyEntry{move_arg(mv, "SazPolicyEntry.mv"),
                                       uint16_t(in_range(prior, 0xFFFF, "SazPolicyEntry.prior")),
                                       uint16_t(in_range(raw_prior, 0xFFFF, "SazPolicyEntry.raw_prior")),
                                       bound_arg(lower, "lower"), bound_arg(upper, "upper"),
                                       uint32_t(in_range(visits, 0xFFFFFFFFll, "SazPolicyEntry.visits"))};
           }, "mv"_a, "prior"_a, "raw_prior"_a, "visits"_a, "lower"_a, "upper"_a)
      .def_prop_ro("mv", [](const SazPolicyEntry& e) { return e.mv.to_usi(); }, "The move as USI.")
      .def_prop_ro("move16", [](const SazPolicyEntry& e) { return e.mv.raw; }, "The stored YaneuraOu Move16.")
      .def_ro("prior", &SazPolicyEntry::prior)
      .def_ro("raw_prior", &SazPolicyEntry::raw_prior)
      .def_ro("visits", &SazPolicyEntry::visits)
      .def_prop_ro("lower", [](const SazPolicyEntry& e) { return int(e.lower); })
      .def_prop_ro("upper", [](const SazPolicyEntry& e) { return int(e.upper); })
      .def("__eq__", [](const SazPolicyEntry& a, const SazPolicyEntry& b) { return a == b; })
      .def("__repr__", [](const SazPolicyEntry& e) {
        return "SazPolicyEntry(mv='" + e.mv.to_usi() + "', prior=" + std::to_string(e.prior) +
               ", raw_prior=" + std::to_string(e.raw_prior) + ", visits=" + std::to_string(e.visits) +
               ", lower=" + std::to_string(int(e.lower)) + ", upper=" + std::to_string(int(e.upper)) + ")";
      });

  nb::class_<SazPosition>(m, "SazPosition", "One searched position: the position before `played`.")
      .def("__init__", [](SazPosition* self, nb::handle played, const SazWdl& root_wdl, const SazWdl& outcome_wdl,
                          const SazWdl& raw_wdl, int64_t raw_mate, int64_t raw_moves_left, int64_t plies_left,
                          int64_t requested_visits, int64_t target_weight_milli, int64_t exploration_flags,
                          std::vector<SazPolicyEntry> policy, std::optional<int64_t> mate) {
             SazPosition p;
             p.played = move_arg(played, "SazPosition.played");
             p.root_wdl = root_wdl;
             p.outcome_wdl = outcome_wdl;
             p.raw_wdl = raw_wdl;
             p.raw_mate = uint16_t(in_range(raw_mate, 0xFFFF, "SazPosition.raw_mate"));
             p.raw_moves_left = uint16_t(in_range(raw_moves_left, 0xFFFF, "SazPosition.raw_moves_left"));
             p.plies_left = uint16_t(in_range(plies_left, 0xFFFF, "SazPosition.plies_left"));
             p.requested_visits = uint32_t(in_range(requested_visits, 0xFFFFFFFFll, "SazPosition.requested_visits"));
             p.target_weight_milli = uint16_t(in_range(target_weight_milli, 0xFFFF, "SazPosition.target_weight_milli"));
             p.exploration_flags = uint8_t(in_range(exploration_flags, 0xFF, "SazPosition.exploration_flags"));
             if (mate) p.mate = int16_t(in_range(*mate, 32767, "SazPosition.mate", -32768));
             p.policy = std::move(policy);
             new (self) SazPosition(std::move(p));
           }, "played"_a, "root_wdl"_a, "outcome_wdl"_a, "raw_wdl"_a, "raw_mate"_a, "raw_moves_left"_a,
           "plies_left"_a, "requested_visits"_a, "target_weight_milli"_a, "exploration_flags"_a, "policy"_a,
           "mate"_a = nb::none())
      .def_prop_ro("played", [](const SazPosition& p) { return p.played.to_usi(); }, "The move played, as USI.")
      .def_prop_ro("played_move16", [](const SazPosition& p) { return p.played.raw; })
      .def_ro("root_wdl", &SazPosition::root_wdl, nb::rv_policy::copy)
      .def_ro("outcome_wdl", &SazPosition::outcome_wdl, nb::rv_policy::copy)
      .def_ro("raw_wdl", &SazPosition::raw_wdl, nb::rv_policy::copy)
      .def_ro("raw_mate", &SazPosition::raw_mate)
      .def_ro("raw_moves_left", &SazPosition::raw_moves_left)
      .def_ro("plies_left", &SazPosition::plies_left)
      .def_ro("requested_visits", &SazPosition::requested_visits)
      .def_ro("target_weight_milli", &SazPosition::target_weight_milli)
      .def_ro("exploration_flags", &SazPosition::exploration_flags)
      .def_ro("mate", &SazPosition::mate)
      .def_prop_ro("policy", [](const SazPosition& p) { return p.policy; }, "A new list of the entries.")
      .def("__eq__", [](const SazPosition& a, const SazPosition& b) { return a == b; })
      .def("__repr__", [](const SazPosition& p) {
        return "SazPosition(played='" + p.played.to_usi() + "', root_wdl=" + wdl_repr(p.root_wdl) + ", mate=" +
               (p.mate ? std::to_string(*p.mate) : std::string("None")) + ", policy=<" +
               std::to_string(p.policy.size()) + " entries>)";
      });

  nb::class_<SazGame>(m, "SazGame", "One self-play game: its stem, result and searched positions.")
      .def("__init__", [](SazGame* self, nb::handle stem, nb::handle game_result, int64_t termination_reason,
                          int64_t entering_king_rule, std::vector<SazPosition> positions) {
             SazGame g;
             g.stem = stem_arg(stem);
             g.game_result = game_result_arg(game_result);
             if (termination_reason < 0 || termination_reason > kMaxTerminationReason) {
               refuse("termination_reason " + std::to_string(termination_reason) + " is unknown, must be 0..9");
             }
             if (entering_king_rule < 0 || entering_king_rule > kMaxEnteringKingRule) {
               refuse("entering_king_rule " + std::to_string(entering_king_rule) + " is unknown, must be 0..6");
             }
             g.termination_reason = TerminationReason(termination_reason);
             g.entering_king_rule = EnteringKingRule(entering_king_rule);
             g.positions = std::move(positions);
             new (self) SazGame(std::move(g));
           }, "stem"_a, "game_result"_a, "termination_reason"_a, "entering_king_rule"_a, "positions"_a)
      .def_prop_ro("stem_packed_sfen", [](const SazGame& g) { return to_bytes(g.stem); },
                   "The stem as 32 bytes of YaneuraOu PackedSfen.")
      .def_prop_ro("stem_sfen", [](const SazGame& g) {
             auto pos = decode_packed_sfen(std::span<const uint8_t, kStemSize>(g.stem));
             if (!pos.ok()) refuse("stem: " + pos.status().message());
             return pos->sfen();
           }, "The stem as SFEN (move number 1; not in rsshogi).")
      .def_prop_ro("game_result", [](const SazGame& g) { return g.game_result; })
      .def_prop_ro("termination_reason", [](const SazGame& g) { return int(g.termination_reason); })
      .def_prop_ro("entering_king_rule", [](const SazGame& g) { return int(g.entering_king_rule); })
      .def_prop_ro("positions", [](const SazGame& g) { return g.positions; }, "A new list of the positions.")
      .def("__eq__", [](const SazGame& a, const SazGame& b) { return a == b; })
      .def("__repr__", [](const SazGame& g) {
        return std::string("SazGame(game_result=") + to_string(g.game_result) +
               ", termination_reason=" + std::to_string(int(g.termination_reason)) +
               ", entering_king_rule=" + std::to_string(int(g.entering_king_rule)) + ", positions=<" +
               std::to_string(g.positions.size()) + ">)";
      });
}

}  // namespace

void bind_sazpack(nb::module_ m) {
  nb::enum_<GameResult> result(m, "GameResult", nb::is_arithmetic(), "rsshogi's GameResult numbering.");
  for (int v = 0; v < 22; ++v) {
    if (!is_known_game_result(uint8_t(v))) continue;
    std::string name;  // "BlackWinByTryRule" -> "BLACK_WIN_BY_TRY_RULE"
    for (const char* c = to_string(GameResult(v)); *c; ++c) {
      if (std::isupper(static_cast<unsigned char>(*c)) && !name.empty()) name += '_';
      name += char(std::toupper(static_cast<unsigned char>(*c)));
    }
    result.value(name.c_str(), GameResult(v));
  }
  bind_classes(m);

  m.def("write_sazpack", [](nb::handle games) { return to_bytes(serialize(games)); }, "games"_a,
        "One SAZ2 v4 chunk holding the games.");
  m.def("write_sazpack_file", [](const std::string& path, nb::handle games) {
        std::vector<uint8_t> bytes = serialize(games);
        nb::gil_scoped_release release;
        raise_if_error(write_chunk_file(path, bytes));
      }, "path"_a, "games"_a, "Writes the chunk to a temporary beside path and renames it into place.");
  m.def("decode_sazpack", [](nb::handle data) {
        Buffer buf(data);
        auto games = released([&] { return in_memory(deserialize_chunk(buf.span())); });
        return games_to_list(unwrap(std::move(games)));
      }, "data"_a);
  m.def("decode_sazpack_file", [](const std::string& path) {
        auto games = released([&] { return from_file(path, [](auto bytes) { return deserialize_chunk(bytes); }); });
        return games_to_list(unwrap(std::move(games)));
      }, "path"_a);
  m.def("_decode_indexed", [](nb::handle data) {
        Buffer buf(data);
        auto games = released([&] { return in_memory(deserialize_chunk_indexed(buf.span())); });
        return indexed_to_list(unwrap(std::move(games)));
      }, "data"_a, "[(game, begin, end)] with each game's payload byte range.");
  m.def("_decode_indexed_file", [](const std::string& path) {
        auto games = released([&] {
          return from_file(path, [](auto bytes) { return deserialize_chunk_indexed(bytes); });
        });
        return indexed_to_list(unwrap(std::move(games)));
      }, "path"_a);
  m.def("_decode_columns", [](nb::handle data, bool check_policy_legality, nb::handle threads_arg) {
        const int threads = static_cast<int>(int_arg(threads_arg, "threads", 0, kMaxThreadsAsked));
        Buffer buf(data);
        auto cols = released([&] {
          return in_memory(decode_columns(buf.span(), ColumnOptions{check_policy_legality, threads}));
        });
        return columns_to_dict(unwrap(std::move(cols)));
      }, "data"_a, "check_policy_legality"_a = true, "threads"_a.none() = 0);
  m.def("_decode_columns_file", [](const std::string& path, bool check_policy_legality, nb::handle threads_arg) {
        const int threads = static_cast<int>(int_arg(threads_arg, "threads", 0, kMaxThreadsAsked));
        auto cols = released([&] {
          return from_file(path, [&](auto bytes) {
            return decode_columns(bytes, ColumnOptions{check_policy_legality, threads});
          });
        });
        return columns_to_dict(unwrap(std::move(cols)));
      }, "path"_a, "check_policy_legality"_a = true, "threads"_a.none() = 0);
  m.def("to_packed_sfen", [](const std::string& sfen) {
        return to_bytes(encode_packed_sfen(unwrap(shogi::Position::from_sfen(sfen))));
      }, "sfen"_a, "The 32-byte YaneuraOu PackedSfen of a position.");
  m.def("from_packed_sfen", [](nb::handle data) {
        Buffer buf(data);
        if (buf.span().size() != kStemSize) {
          refuse("a packed sfen is 32 bytes, got " + std::to_string(buf.span().size()));
        }
        return unwrap(decode_packed_sfen(std::span<const uint8_t, kStemSize>(buf.span().data(), kStemSize))).sfen();
      }, "data"_a, "The SFEN of 32 PackedSfen bytes (move number 1).");
}

}  // namespace manaka::python
