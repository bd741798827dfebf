#include "core/output.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "core/file.h"

namespace manaka {

namespace fs = std::filesystem;

Status check_not_input(const std::string& path, const std::vector<std::string>& inputs) {
  struct stat out;
  if (::stat(path.c_str(), &out) != 0) return Status();
  for (const std::string& input : inputs) {
    struct stat in;
    if (::stat(input.c_str(), &in) != 0) continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      return Status::usage(path + ": is the input " + input +
                             "; an input is never overwritten, write the output elsewhere");
    }
  }
  return Status();
}

namespace {

// Rule 2 for an output of one kind, a file or a directory: an existing one
// needs overwrite, and is replaced only by its own kind.
Status check_existing(const std::string& output, bool overwrite, bool directory) {
  struct stat st;
  if (::lstat(output.c_str(), &st) != 0) {
    return errno == ENOENT ? Status() : io_error(output, "cannot check the output", errno);
  }
  if (!overwrite) return Status::usage(output + ": exists; pass --overwrite to replace it");
  if (S_ISDIR(st.st_mode) != directory)
    return Status::usage(output + (directory ? ": is a file, not a directory to replace"
                                             : ": is a directory, not a file to replace"));
  return Status();
}

}  // namespace

Status check_output(const std::string& output, const std::vector<std::string>& inputs, bool overwrite) {
  if (output.empty()) return Status::usage("no output path given");
  MANAKA_RETURN_NOT_OK(check_not_input(output, inputs));
  return check_existing(output, overwrite, /*directory=*/false);
}

Status check_dir_not_input(const std::string& output, const std::vector<std::string>& inputs) {
  if (output.empty()) return Status::usage("no output path given");
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(output, ec);
  if (ec) return Status::io(output + ": " + ec.message());
  for (const std::string& input : inputs) {
    const fs::path in = fs::weakly_canonical(input, ec);
    if (ec) continue;  // opening it reports that
    if (std::mismatch(out.begin(), out.end(), in.begin(), in.end()).first == out.end())
      return Status::usage(output + ": the output directory is or would contain the input " + input +
                           "; an input is never overwritten, write the output elsewhere");
  }
  return Status();
}

Status check_output_dir(const std::string& output, const std::vector<std::string>& inputs, bool overwrite,
                        const std::string& marker) {
  MANAKA_RETURN_NOT_OK(check_dir_not_input(output, inputs));
  MANAKA_RETURN_NOT_OK(check_existing(output, overwrite, /*directory=*/true));
  std::error_code ec;
  struct stat st;
  if (::lstat(output.c_str(), &st) != 0) return Status();  // none yet
  if (fs::is_empty(output, ec) || fs::exists(fs::path(output) / marker, ec)) return Status();
  return Status::usage(output + ": is a directory without " + marker +
                       ", so not one this command wrote; an arbitrary directory is never replaced (remove it or "
                       "write the output elsewhere)");
}

Status check_distinct_inputs(const std::vector<std::string>& inputs) {
  struct Seen {
    dev_t dev;
    ino_t ino;
    size_t index;
  };
  std::vector<Seen> seen;
  for (size_t i = 0; i < inputs.size(); ++i) {
    struct stat st;
    if (::stat(inputs[i].c_str(), &st) != 0) continue;  // opening it reports that
    for (const Seen& s : seen) {
      if (s.dev != st.st_dev || s.ino != st.st_ino) continue;
      return Status::usage(inputs[i] + ": is given twice (also as " + inputs[s.index] +
                           "); its data would be counted twice");
    }
    seen.push_back({st.st_dev, st.st_ino, i});
  }
  return Status();
}

}  // namespace manaka
