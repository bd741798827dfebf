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

Status check_output_dir(const std::string& output, const std::vector<std::string>& inputs, bool overwrite) {
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
  return check_existing(output, overwrite, /*directory=*/true);
}

}  // namespace manaka
