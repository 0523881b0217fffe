#pragma once
// Error types that carry the command's exit status (docs/commands.md, "Exit status"):
// 2 for bad usage or input, 3 for a database file that cannot be used.

#include <cstddef>
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

/// `text` fit to stand in a one-line message that is always valid UTF-8: a newline becomes
/// `\n`; every other control character (bytes below 0x20 and 0x7f, and the C1 controls
/// U+0080..U+009F, byte by byte) and every byte that is not part of a well-formed UTF-8
/// character becomes `\xNN`. Everything else, whole UTF-8 characters included, is kept as it is.
std::string escape_control(std::string_view text);

/// How much of an input a message quotes by default: a 128 KiB argument is not repeated whole,
/// while the longest position string (2x32: 97 bytes) still is.
inline constexpr std::size_t kQuotedInputBytes = 100;

/// User input as every message quotes it: escaped (escape_control) and in single quotes. Input
/// longer than `max_length` bytes is cut at or before that byte, never inside a UTF-8
/// character, and marked "...".
std::string quote_input(std::string_view text, std::size_t max_length = kQuotedInputBytes);

/// A whole message cut to `max_length` bytes (never inside a UTF-8 character) and marked "..."
/// when longer: messages of other libraries (Boost's) repeat any argument in full.
std::string shorten_message(std::string_view message, std::size_t max_length = 512);

/// The character of `text` that holds byte `at`: the whole UTF-8 sequence when that byte is
/// part of a well-formed one, otherwise that byte alone (empty when `at` is past the end).
std::string_view character_at(std::string_view text, std::size_t at);

/// The character holding byte `at` (character_at), quoted as quote_input quotes input: how a
/// parser names the unexpected character it met at `at`.
std::string quote_character(std::string_view text, std::size_t at);

}  // namespace rastros
