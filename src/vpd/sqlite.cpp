#include "vpd/sqlite.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/file.h"

namespace manaka::vpd {
namespace {

// SQLite's message, and for a refusal of the operating system its reason,
// which SQLite keeps apart ("disk I/O error" for a directory, "unable to
// open database file" for a missing directory).
std::string sqlite_reason(sqlite3* db, const char* message) {
  std::string out = message;
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL: {
      const int err = sqlite3_system_errno(db);
      if (err > 0) out += std::string(" (") + std::strerror(err) + ")";
      break;
    }
    default: break;
  }
  return out;
}

// An existing database file opened by SQLite fails late and vaguely (a
// directory is a "disk I/O error" at the first read, a file without read
// permission "unable to open database file"): open(2) it first, as SQLite
// will, so the refusal names the operating system's reason.
Status check_openable(const std::string& path, const std::string& name, int flags) {
  const bool write = (flags & SQLITE_OPEN_READWRITE) != 0;
  const int fd = ::open(path.c_str(), (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return io_error(name, "cannot open", errno);
  struct stat st;
  const int rc = ::fstat(fd, &st);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return io_error(name, "cannot stat", err);
  if (S_ISDIR(st.st_mode)) return io_error(name, "cannot open", EISDIR);
  return {};
}

}  // namespace

Status sqlite_error(const std::string& name, sqlite3* db, const std::string& what) {
  return Status::io(name + ": " + what + ": " + (db ? sqlite_reason(db, sqlite3_errmsg(db)) : "out of memory"));
}

Result<Db> open_db(const std::string& path, const std::string& name, int flags) {
  if (!(flags & SQLITE_OPEN_CREATE)) MANAKA_RETURN_NOT_OK(check_openable(path, name, flags));
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Db db(raw);
  if (rc != SQLITE_OK) return sqlite_error(name, raw, "cannot open");
  sqlite3_extended_result_codes(raw, 1);
  return db;
}

Status exec(sqlite3* db, const std::string& name, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) == SQLITE_OK) return {};
  std::string msg = sqlite_reason(db, err ? err : sqlite3_errmsg(db));
  sqlite3_free(err);
  return Status::io(name + ": " + msg);
}

Result<Stmt> prepare(sqlite3* db, const std::string& name, const char* sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &raw, nullptr) != SQLITE_OK) return sqlite_error(name, db, "prepare");
  return Stmt(raw);
}

void bind_text(sqlite3_stmt* s, int i, const std::string& text) {
  sqlite3_bind_text(s, i, text.data(), int(text.size()), SQLITE_TRANSIENT);
}

Status step_done(sqlite3* db, sqlite3_stmt* s, const std::string& name, const std::string& what) {
  const int rc = sqlite3_step(s);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  if (rc != SQLITE_DONE) return sqlite_error(name, db, what);
  return {};
}

Result<std::string> metadata_value(sqlite3* db, const std::string& name, const std::string& key) {
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(db, name, "SELECT value FROM metadata WHERE key = ?1"));
  bind_text(s.get(), 1, key);
  const int rc = sqlite3_step(s.get());
  if (rc == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
    return std::string(text ? text : "");
  }
  if (rc == SQLITE_DONE) return std::string();
  return sqlite_error(name, db, "metadata " + key);
}

}  // namespace manaka::vpd
