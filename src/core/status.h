// Status and Result<T>: the one error style below the command and binding
// edges. Expected failures (bad input, corrupt bytes, I/O) are values; the
// message carries its own context (file, record, byte offset, rule).
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace manaka {

enum class ErrorKind : uint8_t {
  Usage,      // the caller's mistake: a bad option or argument, an output that exists
  Invalid,    // input that breaks a rule of the format or the game
  Truncated,  // input that ends inside a unit (record, chunk, game)
  IO,         // the operating system refused (open, read, write, rename)
  Engine,     // an external engine crashed, stalled or answered nonsense
};

const char* to_string(ErrorKind kind);

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status usage(std::string msg) { return {ErrorKind::Usage, std::move(msg)}; }
  static Status invalid(std::string msg) { return {ErrorKind::Invalid, std::move(msg)}; }
  static Status truncated(std::string msg) { return {ErrorKind::Truncated, std::move(msg)}; }
  static Status io(std::string msg) { return {ErrorKind::IO, std::move(msg)}; }
  static Status engine(std::string msg) { return {ErrorKind::Engine, std::move(msg)}; }

  bool ok() const { return !error_.has_value(); }
  ErrorKind kind() const { assert(!ok()); return error_->kind; }
  const std::string& message() const { assert(!ok()); return error_->message; }

  // Prefixes context ("file.mpk: ") to an error; a no-op on success.
  Status with_context(const std::string& prefix) && {
    if (error_) error_->message = prefix + error_->message;
    return std::move(*this);
  }

 private:
  struct Error {
    ErrorKind kind;
    std::string message;
  };
  Status(ErrorKind kind, std::string msg) : error_(Error{kind, std::move(msg)}) {}
  std::optional<Error> error_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  Status take_status() && { return ok() ? Status() : std::move(std::get<Status>(v_)); }
  T& value() & { assert(ok()); return std::get<T>(v_); }
  const T& value() const& { assert(ok()); return std::get<T>(v_); }
  T&& value() && { assert(ok()); return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace manaka

#define MANAKA_CONCAT_INNER(a, b) a##b
#define MANAKA_CONCAT(a, b) MANAKA_CONCAT_INNER(a, b)

// Returns the status from the enclosing function when it is an error.
#define MANAKA_RETURN_NOT_OK(expr)              \
  do {                                          \
    ::manaka::Status _st = (expr);              \
    if (!_st.ok()) return _st;                  \
  } while (0)

#define MANAKA_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                 \
  if (!tmp.ok()) return std::move(tmp).take_status(); \
  lhs = std::move(tmp).value()

// `MANAKA_ASSIGN_OR_RETURN(auto x, f())` binds x or returns f()'s error.
#define MANAKA_ASSIGN_OR_RETURN(lhs, rexpr) \
  MANAKA_ASSIGN_OR_RETURN_IMPL(MANAKA_CONCAT(_res_, __LINE__), lhs, rexpr)
