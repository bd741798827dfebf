// Progress of a long job over bytes (a file scan, a conversion), or over
// units of work that are not bytes (games played: set_units).
//
// On a terminal (isatty on the output's descriptor) a live line is redrawn
// in place at most ~5 times a second:
//   games.mpk: 1.24M rows  512.0 MB / 2.00 GB (25.6%)  310.2 MB/s  ETA 0:05
// Otherwise (a log, a pipe) the same line is printed every ~10 seconds. When
// the job ends, finish() prints a summary:
//   games.mpk: 4.96M rows  2.00 GB in 6.45 s (310.1 MB/s)
// Short jobs stay quiet: nothing is printed before the first report is due
// (0.5 s on a terminal, 10 s otherwise), and finish() prints its summary only
// when a progress line was shown, so a fast job leaves no noise behind.
//
// update() is cheap enough to call once per record: it looks at the clock only
// every 4096 rows or 1 MiB. poll() looks every time, for a loop that wakes a
// few times a second (a pool of workers playing games).
//
// With units ("games", "positions") the line reads
//   generate: 12/100 games (12.0%)  1.23k positions  0.52 games/s  ETA 2:50
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace manaka {

class Progress {
 public:
  // total_bytes 0 means unknown (no percentage and no ETA).
  Progress(std::string label, uint64_t total_bytes, std::FILE* out = stderr);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();  // finish() if not yet called

  // Turns all output off (e.g. --quiet); the counters still advance.
  void set_enabled(bool enabled) { enabled_ = enabled; }
  // Forces a mode instead of asking isatty (tests).
  void set_live(bool live);
  // A phase of a longer job that began at job_start: off a terminal its first
  // line is due once the job has run ~10 s, not the phase (a pack of two 9 s
  // phases said nothing), though not before a second of the phase.
  void set_job_start(std::chrono::steady_clock::time_point job_start);
  // Counts work in `work` (the total and the first counter) and rows in
  // `rows` instead of bytes and rows; rows "" when the work is the rows.
  void set_units(std::string work, std::string rows);

  void update(uint64_t bytes_done, uint64_t rows_done) {
    bytes_ = bytes_done;
    rows_ = rows_done;
    if (rows_done - checked_rows_ < kRowsPerCheck && bytes_done - checked_bytes_ < kBytesPerCheck) {
      return;
    }
    check_clock();
  }
  void poll(uint64_t done, uint64_t rows_done) {
    bytes_ = done;
    rows_ = rows_done;
    check_clock();
  }
  void finish();

  uint64_t rows() const { return rows_; }
  uint64_t bytes() const { return bytes_; }
  double elapsed_seconds() const;
  // The line update() would print now (without a trailing newline).
  std::string status_line() const;
  std::string summary_line() const;

 private:
  static constexpr uint64_t kRowsPerCheck = 4096;
  static constexpr uint64_t kBytesPerCheck = uint64_t{1} << 20;
  using Clock = std::chrono::steady_clock;

  void check_clock();

  std::string amount(double n) const;  // bytes, or n work units
  std::string counted() const;         // "1.2M rows  512.0 MB", or the amount alone (row unit "")
  std::string rate_text(double rate) const;

  std::string label_;
  std::string work_unit_, row_unit_ = "rows";  // work_unit_ "": bytes
  uint64_t total_;
  std::FILE* out_;
  bool enabled_ = true;
  bool live_ = false;
  bool shown_ = false;
  bool finished_ = false;
  uint64_t bytes_ = 0, rows_ = 0;
  uint64_t checked_bytes_ = 0, checked_rows_ = 0;
  Clock::time_point start_;
  Clock::time_point job_start_;  // start_ unless set_job_start
  Clock::time_point next_report_;
  size_t last_width_ = 0;
};

// "512.0 MB", "2.00 GB" (decimal units), "1.24M" for counts.
std::string format_bytes(double bytes);
std::string format_count(double n);
// "0:05", "1:02:03".
std::string format_duration(double seconds);

}  // namespace manaka
