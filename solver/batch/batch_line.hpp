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

#include "rastros/input.hpp"

namespace rastros {

/// A batch line's position: its variant, and the game leading to it when given as moves.
using BatchJob = PositionInput;

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

}  // namespace rastros
