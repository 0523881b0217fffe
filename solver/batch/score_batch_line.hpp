#pragma once
// One line of the batch file of a score game (`rastros batch --game kalah|congkak|oware|
// reversi`), the part every game shares:
//
//   [--NAME VALUE | --NAME=VALUE]... MOVES-OR-POSITION
//   # a comment, or a blank line            skipped
//
// The options (a game's variant: --houses, --seeds, --board...) apply to their line only, over
// the batch's defaults; what they and the rest of the line mean is the game's (its
// GAME_batch_line.hpp). Parsing never throws: a bad line becomes an error message, so one typo
// does not stop a long run.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace rastros {

/// Longest line accepted (a long mancala game or a whole 8x8 Reversi game is well under it).
inline constexpr std::size_t kMaxScoreBatchLineBytes = 4096;

template <class Job>
struct ScoreBatchLine {
  enum class Kind { skip, job, error };
  Kind kind = Kind::skip;
  std::optional<Job> job;  // set for Kind::job
  std::string error;       // set for Kind::error
};

/// Calls `option(name, value)` for each leading option of `text` (a word starting with "--"
/// that `is_option`, when given, accepts), in order, and returns the rest: its words joined by
/// single spaces. Throws InputError for an option without a value.
std::string split_batch_line(
    std::string_view text,
    const std::function<void(const std::string& name, const std::string& value)>& option,
    const std::function<bool(const std::string& word)>& is_option = nullptr);

/// `value` as the number an option takes; throws InputError naming the option.
int batch_option_number(const std::string& name, const std::string& value);

/// True for the lines a batch skips: blank lines and comments (of an acceptable length).
bool skipped_batch_line(std::string_view text);

/// Parses one line (without its newline) with `parse` (the game's: the line's text to a Job,
/// throwing InputError), or skips it. Never throws.
template <class Job, class Parse>
ScoreBatchLine<Job> parse_score_batch_line(std::string_view text, Parse&& parse) {
  ScoreBatchLine<Job> line;
  using Kind = typename ScoreBatchLine<Job>::Kind;
  if (text.size() > kMaxScoreBatchLineBytes) {
    line.kind = Kind::error;
    line.error = "line longer than " + std::to_string(kMaxScoreBatchLineBytes) + " bytes";
    return line;
  }
  if (skipped_batch_line(text)) return line;
  try {
    line.job = parse(text);
    line.kind = Kind::job;
  } catch (const InputError& error) {
    line.kind = Kind::error;
    line.error = error.what();
  } catch (const std::exception& error) {  // bad_alloc and the like: a message, never a crash
    line.kind = Kind::error;
    line.error = std::string("cannot read the line: ") + error.what();
  }
  return line;
}

}  // namespace rastros
