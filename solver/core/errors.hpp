#pragma once
// Error types that carry the command's exit status (see shared/design.md):
// 2 for bad usage or input, 3 for a database file that cannot be used.

#include <stdexcept>
#include <string>

namespace rastros {

/// Bad user input: a malformed square, an illegal move, an impossible board or position.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// A database or checkpoint file that is missing, truncated, corrupt or of another version.
class FileError : public std::runtime_error {
 public:
  explicit FileError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace rastros
