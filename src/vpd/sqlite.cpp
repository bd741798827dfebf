#include "vpd/sqlite.h"

namespace manaka::vpd {

Status sqlite_error(const std::string& name, sqlite3* db, const std::string& what) {
  return Status::io(name + ": " + what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

Result<Db> open_db(const std::string& path, const std::string& name, int flags) {
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
  std::string msg = err ? err : sqlite3_errmsg(db);
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
