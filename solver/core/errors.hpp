#pragma once
// Error types that carry the command's exit status (see shared/design.md):
// 2 for bad usage or input, 3 for a database file that cannot be used.

#include <stdexcept>
#include <string>
#include <string_view>

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

/// `text` fit to stand in a one-line message: a newline becomes `\n` and every other control
/// byte (below 0x20, and 0x7f) `\xNN`, so that input echoed in a message never breaks it over
/// several lines. Everything else is kept as it is.
std::string escape_control(std::string_view text);

/// User input as every message quotes it: escaped (escape_control) and in single quotes. Input
/// longer than `max_length` bytes is cut there and marked "...".
std::string quote_input(std::string_view text, std::size_t max_length = std::string_view::npos);

}  // namespace rastros
