#include "batch/batch_identity.hpp"

#include <sys/stat.h>

#include <filesystem>

#include "core/errors.hpp"

namespace rastros {

std::string batch_identity(const std::string& input, const std::string& options) {
  struct stat status {};
  if (::stat(input.c_str(), &status) != 0) throw InputError("cannot read input " + input);
  std::string identity = "input=" + std::filesystem::absolute(input).string() +
                         ";size=" + std::to_string(status.st_size) +
                         ";mtime=" + std::to_string(status.st_mtim.tv_sec) + "." +
                         std::to_string(status.st_mtim.tv_nsec) + ";" + options;
  for (char& c : identity) {
    if (c == '\n') c = '?';
  }
  return identity;
}

std::string batch_identity(const std::string& input, const VariantText& defaults, bool value_only,
                           bool timing) {
  return batch_identity(input, "board=" + defaults.board + ";start=" +
                                   defaults.start.value_or("") + ";rules=" + defaults.rules +
                                   ";steps=" + defaults.steps +
                                   ";value_only=" + std::to_string(value_only) +
                                   ";timing=" + std::to_string(timing));
}

}  // namespace rastros
