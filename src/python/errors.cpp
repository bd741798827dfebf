#include "python/errors.h"

namespace nb = nanobind;

namespace manaka::python {
namespace {

PyObject* g_error = nullptr;      // Error(ValueError): every manaka failure
PyObject* g_invalid = nullptr;    // InvalidDataError: input breaks a rule
PyObject* g_truncated = nullptr;  // TruncatedError: input ends inside a unit
PyObject* g_file = nullptr;       // FileError(Error, OSError): the OS refused
PyObject* g_engine = nullptr;     // EngineError: an engine crashed or stalled

PyObject* exception_for(ErrorKind kind) {
  switch (kind) {
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
  g_error = make(m, "Error", PyExc_ValueError, "Base class of every manaka error.");
  g_invalid = make(m, "InvalidDataError", g_error, "Input that breaks a rule of its format or of the game.");
  g_truncated = make(m, "TruncatedError", g_error, "Input that ends inside a record, chunk or game.");
  PyObject* file_bases = PyTuple_Pack(2, g_error, PyExc_OSError);
  g_file = make(m, "FileError", file_bases, "A file could not be opened, read, written or renamed.");
  Py_DECREF(file_bases);
  g_engine = make(m, "EngineError", g_error, "An external engine crashed, stalled or answered nonsense.");
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      PyErr_SetString(exception_for(e.status.kind()), e.status.message().c_str());
    }
  });
}

}  // namespace manaka::python
