// Commands whose work needs a Python library (torch, matplotlib) stay native
// commands: they check their options here, then replace this process with
// `python -m manaka.<module> SPEC`, the options as one JSON object. The
// interpreter is the one the command was built with (the venv's), or
// $MANAKA_PYTHON.
#pragma once

#include <string>

namespace manaka::cli {

// execvp's the interpreter; returns only by throwing CLI::RuntimeError(1)
// after saying on stderr why the interpreter could not be run (`what`
// names the command, `needs` what that Python must have).
[[noreturn]] void exec_python_module(const std::string& module, const std::string& spec, const std::string& what,
                                     const std::string& needs);

}  // namespace manaka::cli
