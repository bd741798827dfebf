// The SQLite handles and calls every VPD1 step uses: owning handles, and
// open / exec / prepare / step whose refusals name the file and carry
// SQLite's own message ("positions.vpd: prepare: no such table: positions").
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>

#include "core/status.h"

namespace manaka::vpd {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;
using Stmt = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

// "<name>: <what>: <SQLite's message>".
Status sqlite_error(const std::string& name, sqlite3* db, const std::string& what);
// Opens path with SQLITE_OPEN_* flags; name is what errors call it.
Result<Db> open_db(const std::string& path, const std::string& name, int flags);
Status exec(sqlite3* db, const std::string& name, const char* sql);
Result<Stmt> prepare(sqlite3* db, const std::string& name, const char* sql);
void bind_text(sqlite3_stmt* s, int i, const std::string& text);
// Steps a statement that returns no row, then resets it for the next use.
Status step_done(sqlite3* db, sqlite3_stmt* s, const std::string& name, const std::string& what);
// The value of `key` in a VPD1 file's metadata table; "" when absent.
Result<std::string> metadata_value(sqlite3* db, const std::string& name, const std::string& key);

}  // namespace manaka::vpd
