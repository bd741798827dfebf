#include "core/output.h"

#include <sys/stat.h>

#include <cerrno>

#include "core/file.h"

namespace manaka {

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

Status check_output(const std::string& output, const std::vector<std::string>& inputs, bool overwrite) {
  if (output.empty()) return Status::usage("no output path given");
  MANAKA_RETURN_NOT_OK(check_not_input(output, inputs));
  struct stat st;
  if (::lstat(output.c_str(), &st) == 0) {
    if (!overwrite) return Status::usage(output + ": exists; pass --overwrite to replace it");
    if (S_ISDIR(st.st_mode)) return Status::usage(output + ": is a directory, not a file to replace");
  } else if (errno != ENOENT) {
    return io_error(output, "cannot check the output", errno);
  }
  return Status();
}

}  // namespace manaka
