#include "python/errors.h"

namespace nb = nanobind;

namespace manaka::python {
namespace {

// The tree, each kind under the builtin a Python user would catch:
//   Error(Exception)                     every manaka failure
//     UsageError(Error, ValueError)      a bad option or argument
//     InvalidDataError(Error, ValueError) input that breaks a rule
//       TruncatedError                   input that ends inside a unit
//     FileError(Error, OSError)          the OS refused
//     EngineError(Error, RuntimeError)   an engine crashed or stalled
PyObject* g_error = nullptr;
PyObject* g_usage = nullptr;
PyObject* g_invalid = nullptr;
PyObject* g_truncated = nullptr;
PyObject* g_file = nullptr;
PyObject* g_engine = nullptr;

PyObject* exception_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return g_usage;
    case ErrorKind::Invalid: return g_invalid;
    case ErrorKind::Truncated: return g_truncated;
    case ErrorKind::IO: return g_file;
    case ErrorKind::Engine: return g_engine;
  }
  return g_error;
}

PyObject* make(nb::module_& m, const char* name, PyObject* bases, const char* doc) {
  std::string qualified = std::string("manaka.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!cls) throw nb::python_error();
  m.attr(name) = nb::handle(cls);
  return cls;
}

}  // namespace

void register_errors(nb::module_& m) {
  auto pair = [](PyObject* a, PyObject* b) { return PyTuple_Pack(2, a, b); };
  g_error = make(m, "Error", PyExc_Exception, "Base class of every manaka error.");
  PyObject* bases = pair(g_error, PyExc_ValueError);
  g_usage = make(m, "UsageError", bases, "A bad option or argument: the caller's mistake, not the data's.");
  g_invalid = make(m, "InvalidDataError", bases, "Input that breaks a rule of its format or of the game.");
  Py_DECREF(bases);
  g_truncated = make(m, "TruncatedError", g_invalid, "Input that ends inside a record, chunk or game.");
  bases = pair(g_error, PyExc_OSError);
  g_file = make(m, "FileError", bases, "A file could not be opened, read, written or renamed.");
  Py_DECREF(bases);
  bases = pair(g_error, PyExc_RuntimeError);
  g_engine = make(m, "EngineError", bases, "An external engine crashed, stalled or answered nonsense.");
  Py_DECREF(bases);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      PyErr_SetString(exception_for(e.status.kind()), e.status.message().c_str());
    }
  });
}

}  // namespace manaka::python
