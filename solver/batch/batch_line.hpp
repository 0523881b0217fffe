#pragma once
// One line of a batch input file (`rastros batch`):
//
//   [--board WxH] [--start SQ] [--rules R] [--steps S] GAME-OR-POSITION
//
//   c3 b2 c1                          a game from the default start (empty: the start itself)
//   --board 6x6 --rules stuck-draw c4 a position on another variant
//   --board 5x5 5/5/2o2/5/5 1         a position string (recognised by its '/')
//   # a comment, or a blank line      skipped
//
// Options may also be written --board=6x6. They apply to their line only, over the batch's
// defaults. Parsing never throws: a bad line becomes a BatchLine holding the one-line message,
// so one typo does not stop a run of millions of lines.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rastros/rastros.hpp"

namespace rastros {

/// The variant options in text form, as given on the command line or on a line.
struct VariantText {
  std::string board = "7x7";
  std::optional<std::string> start;
  std::string rules = "standard";
  std::string steps = "king";

  friend bool operator==(const VariantText&, const VariantText&) = default;
};

/// A position to solve: its variant, and the game leading to it when given as moves.
struct BatchJob {
  Rastros rastros;
  std::vector<Square> moves;  // empty when the line gave a position string
  Position position;
};

/// Longest line accepted; longer lines are reported as errors without being stored whole
/// (the longest meaningful line, a full 64-square game plus options, is under 300 bytes).
inline constexpr std::size_t kMaxBatchLineBytes = 4096;

struct BatchLine {
  enum class Kind { skip, job, error };
  Kind kind = Kind::skip;
  std::optional<BatchJob> job;  // set for Kind::job
  std::string error;            // set for Kind::error
};

/// Parses one line (without its newline). Never throws.
BatchLine parse_batch_line(std::string_view text, const VariantText& defaults);

/// Builds the variant from its text form. Throws InputError naming the bad option. For a position
/// string (`for_position`), a default start on a goal (2x2 without --start) is no error: the
/// variant then has no start (Rastros::for_positions).
Rastros resolve_variant_text(const VariantText& variant, bool for_position = false);

/// The variant and the position of one input, checked: `text` is the moves played from the start,
/// or with `is_position` a position string, refused when no game could reach it
/// (parse_reachable_position). Every entry point reads its input through this: the command line,
/// batch lines and the web API. Throws InputError naming what is wrong.
BatchJob resolve_input(const VariantText& variant, std::string_view text, bool is_position);

}  // namespace rastros
