#include "core/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace manaka {

namespace {

constexpr double kLiveFirst = 0.5, kLiveEvery = 0.2;
constexpr double kLogFirst = 10.0, kLogEvery = 10.0;

std::string printf_string(const char* fmt, double a, const char* unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, a, unit);
  return buf;
}

}  // namespace

std::string format_bytes(double bytes) {
  static const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 5) {
    bytes /= 1000.0;
    ++u;
  }
  if (u == 0) return printf_string("%.0f %s", bytes, units[u]);
  return printf_string(bytes < 100.0 ? "%.2f %s" : "%.1f %s", bytes, units[u]);
}

std::string format_count(double n) {
  if (n < 1e4) return printf_string("%.0f%s", n, "");
  if (n < 1e6) return printf_string("%.1f%s", n / 1e3, "k");
  if (n < 1e9) return printf_string("%.2f%s", n / 1e6, "M");
  return printf_string("%.2f%s", n / 1e9, "G");
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  auto s = static_cast<uint64_t>(seconds + 0.5);
  char buf[48];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  }
  return buf;
}

Progress::Progress(std::string label, uint64_t total_bytes, std::FILE* out)
    : label_(std::move(label)), total_(total_bytes), out_(out), start_(Clock::now()), job_start_(start_) {
  set_live(out_ != nullptr && ::isatty(::fileno(out_)) == 1);
}

void Progress::set_live(bool live) {
  live_ = live;
  auto after = [](Clock::time_point t, double seconds) {
    return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  };
  next_report_ = live_ ? after(start_, kLiveFirst) : std::max(after(start_, 1.0), after(job_start_, kLogFirst));
}

void Progress::set_job_start(Clock::time_point job_start) {
  job_start_ = std::min(job_start, start_);
  set_live(live_);
}

void Progress::set_units(std::string work, std::string rows) {
  work_unit_ = std::move(work);
  row_unit_ = std::move(rows);
}

std::string Progress::amount(double n) const {
  return work_unit_.empty() ? format_bytes(n) : format_count(n) + " " + work_unit_;
}

Progress::~Progress() { finish(); }

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

std::string Progress::counted() const {
  return row_unit_.empty() ? amount(static_cast<double>(bytes_))
                           : format_count(static_cast<double>(rows_)) + " " + row_unit_ + "  " +
                                 amount(static_cast<double>(bytes_));
}

std::string Progress::rate_text(double rate) const {
  if (work_unit_.empty()) return format_bytes(rate) + "/s";
  return (rate >= 1000 ? format_count(rate) : printf_string("%.3g%s", rate, "")) + " " + work_unit_ + "/s";
}

std::string Progress::status_line() const {
  double secs = elapsed_seconds();
  double rate = secs > 0 ? static_cast<double>(bytes_) / secs : 0.0;
  std::string line = label_ + ": " + counted();
  if (total_ > 0) {
    char pct[32];
    std::snprintf(pct, sizeof pct, " (%.1f%%)", 100.0 * static_cast<double>(bytes_) / static_cast<double>(total_));
    line += " / " + amount(static_cast<double>(total_)) + pct;
  }
  line += "  " + rate_text(rate);
  if (total_ > 0 && rate > 0 && bytes_ <= total_) {
    line += "  ETA " + format_duration(static_cast<double>(total_ - bytes_) / rate);
  }
  return line;
}

std::string Progress::summary_line() const {
  double secs = elapsed_seconds();
  double rate = secs > 0 ? static_cast<double>(bytes_) / secs : 0.0;
  char tail[64];
  std::snprintf(tail, sizeof tail, " in %.2f s (", secs);
  return label_ + ": " + counted() + tail + rate_text(rate) + ")";
}

void Progress::check_clock() {
  checked_bytes_ = bytes_;
  checked_rows_ = rows_;
  if (!enabled_ || out_ == nullptr || finished_) return;
  auto now = Clock::now();
  if (now < next_report_) return;
  double every = live_ ? kLiveEvery : kLogEvery;
  next_report_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(every));
  std::string line = status_line();
  if (live_) {
    // Pad over the previous, possibly longer, line.
    size_t width = line.size();
    if (line.size() < last_width_) line.append(last_width_ - line.size(), ' ');
    last_width_ = width;
    std::fprintf(out_, "\r%s", line.c_str());
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
  shown_ = true;
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_ || out_ == nullptr || !shown_) return;
  std::string line = summary_line();
  if (live_) {
    if (line.size() < last_width_) line.append(last_width_ - line.size(), ' ');
    std::fprintf(out_, "\r%s\n", line.c_str());
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

}  // namespace manaka
