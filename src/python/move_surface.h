// The Python surface both games share, in python-chess's shape: a Move value
// class (str/repr/==/hash from its notation) and LegalMoves, the legal moves
// of a board. Each game's binding supplies its Move type and notation (USI,
// UCI); docs/python.md describes the surface.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/make_iterator.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace manaka::python {

// A DeprecationWarning at the caller's line (stacklevel 1 is the Python frame
// that called the binding); an error when warnings are errors.
inline void warn_deprecated(const std::string& message) {
  if (PyErr_WarnEx(PyExc_DeprecationWarning, message.c_str(), 1) != 0) throw nanobind::python_error();
}

// The legal moves of a board when `legal_moves` was read: a snapshot, not
// python-chess's live generator. It has the generator's iteration, len, `in`,
// count() and truth, and indexing and slicing besides (moves[0],
// random.choice, moves[:3] a list).
template <typename M>
struct LegalMoves {
  std::vector<M> moves;
};

// Notation of a game's Move: `text(m)` prints it, `parse(text)` reads it back
// (a failed Result for text that is not a move), `name` is "usi" or "uci".
template <typename Text, typename Parse>
struct Notation {
  Text text;
  Parse parse;
  const char* name;
};

// str(m) and m.usi()/m.uci() print the move; repr is python-chess's
// "Move.from_uci('e2e4')". Equality is the move's; for one release a Move
// also equals its text (pop() and legal_moves returned text before) with a
// DeprecationWarning, so the hash is the text's to keep == and hash agreeing.
template <typename M, typename N>
void bind_move_text(nanobind::class_<M>& cls, N n) {
  namespace nb = nanobind;
  cls.def(n.name, [n](const M& m) { return n.text(m); }, "The move as text (USI or UCI, as str(move)).")
      .def("__str__", [n](const M& m) { return n.text(m); })
      .def("__repr__", [n](const M& m) { return "Move.from_" + std::string(n.name) + "('" + n.text(m) + "')"; })
      .def("__hash__", [n](const M& m) { return nb::hash(nb::str(n.text(m).c_str())); })
      .def("__eq__", [n](const M& m, nb::handle other) -> nb::object {
             if (nb::isinstance<M>(other)) return nb::bool_(nb::cast<M>(other) == m);
             if (nb::isinstance<nb::str>(other)) {
               warn_deprecated(std::string("comparing a Move with text is deprecated and goes in 0.2; compare "
                                           "str(move) or Move.from_") + n.name + "(text)");
               return nb::bool_(nb::cast<std::string>(other) == n.text(m));
             }
             return nb::borrow(Py_NotImplemented);
           }, nb::arg("other").none(), nb::sig("def __eq__(self, other: object) -> bool"));
}

// LegalMoves<M> as the submodule's "LegalMoves". `in` takes a Move; for one
// release text too (legal_moves was text), with a DeprecationWarning;
// anything else is not a legal move, as in python-chess.
template <typename M, typename N>
nanobind::class_<LegalMoves<M>> bind_legal_moves(nanobind::module_ m, N n) {
  namespace nb = nanobind;
  using L = LegalMoves<M>;
  return nb::class_<L>(m, "LegalMoves",
                       "The legal moves of a board when legal_moves was read (a snapshot): iterable, sized, "
                       "indexable (a slice is a list of Moves), with `in` and count().")
      .def("__len__", [](const L& l) { return l.moves.size(); })
      .def("__bool__", [](const L& l) { return !l.moves.empty(); })
      .def("count", [](const L& l) { return l.moves.size(); }, "The number of legal moves (python-chess's count()).")
      .def("__iter__",
           [](const L& l) { return nb::make_iterator(nb::type<L>(), "iterator", l.moves.begin(), l.moves.end()); },
           nb::keep_alive<0, 1>())
      .def("__getitem__", [](const L& l, Py_ssize_t i) {
             const auto size = static_cast<Py_ssize_t>(l.moves.size());
             if (i < 0) i += size;
             if (i < 0 || i >= size) throw nb::index_error("legal move index out of range");
             return l.moves[size_t(i)];
           }, nb::arg("index"))
      .def("__getitem__", [](const L& l, nb::slice s) {
             auto [start, stop, step, n] = s.compute(l.moves.size());
             std::vector<M> out;
             out.reserve(n);
             for (size_t k = 0; k < n; ++k) out.push_back(l.moves[size_t(start + Py_ssize_t(k) * step)]);
             return out;
           }, nb::arg("index"), "A slice (steps and negative bounds as a list's) as a list of Moves.")
      .def("__contains__", [](const L& l, const M& mv) {
             return std::find(l.moves.begin(), l.moves.end(), mv) != l.moves.end();
           }, nb::arg("move"))
      .def("__contains__", [n](const L& l, const std::string& text) {
             warn_deprecated(std::string("a move as text in legal_moves is deprecated and goes in 0.2; use Move.from_") +
                             n.name + "(text)");
             auto mv = n.parse(text);
             return mv.ok() && std::find(l.moves.begin(), l.moves.end(), *mv) != l.moves.end();
           }, nb::arg("text"))
      .def("__contains__", [](const L&, nb::handle) { return false; }, nb::arg("other").none())
      .def("__repr__", [n](const L& l) {
             std::string s = "<LegalMoves (";
             for (size_t i = 0; i < l.moves.size(); ++i) s += (i ? ", " : "") + n.text(l.moves[i]);
             return s + ")>";
           });
}

}  // namespace manaka::python
