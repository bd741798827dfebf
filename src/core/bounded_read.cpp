#include "core/bounded_read.h"
#include <utility>


#include "core/file.h"

namespace manaka {

namespace {

std::string size_text(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

Result<std::string> read_small_file(const std::string& path, std::string_view what, size_t limit) {
  auto file = InputFile::open(path);
  if (!file.ok()) return std::move(file).take_status().with_context(std::string(what) + ": ");
  std::string text;
  char buf[1 << 16];
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(size_t n, file->read(buf, sizeof buf));
    if (n == 0) break;
    if (text.size() + n > limit)
      return Status::invalid(path + ": " + std::string(what) + " is at most " + size_text(limit) +
                             ", and this is longer (is it the right file?)");
    text.append(buf, n);
  }
  return text;
}

Result<bool> read_line(std::istream& in, std::string& line, const std::string& path, uint64_t line_no,
                       size_t limit) {
  line.clear();
  std::streambuf* sb = in.rdbuf();
  bool any = false;
  for (int c; (c = sb->sbumpc()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') return true;
    if (line.size() == limit)
      return Status::invalid(path + ": line " + std::to_string(line_no) + " is longer than " + size_text(limit) +
                             " (a line of text is at most that; is it the right file?)");
    line.push_back(static_cast<char>(c));
  }
  if (!any) in.setstate(std::ios::eofbit);
  return any;
}

}  // namespace manaka
