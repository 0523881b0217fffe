#pragma once
// One line of a Kalah batch file (`rastros batch --game kalah`):
//
//   [--houses M] [--seeds N] [--rules R] MOVES-OR-POSITION
//
//   3 6 1                                  a game from the start (empty: the start itself)
//   --houses 4 --seeds 3 2 1               a game of another variant
//   4,4,0,5,5,0,2/5,5,5,5,4,4,0 2          a position string (recognised by its '/')
//   # a comment, or a blank line           skipped
//
// Options may also be written --houses=4. They apply to their line only, over the batch's
// defaults. Parsing never throws: a bad line becomes an error message, so one typo does not
// stop a long run.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {

struct KalahVariantText {
  int houses = 6;
  int seeds = 4;
  std::string rules = "standard";
};

struct KalahBatchJob {
  Kalah game;
  std::vector<KalahMove> moves;  // empty when the line gave a position string
  KalahPosition position;
};

struct KalahBatchLine {
  enum class Kind { skip, job, error };
  Kind kind = Kind::skip;
  std::optional<KalahBatchJob> job;
  std::string error;
};

/// Longest line accepted (a long game of 8 houses is well under it).
inline constexpr std::size_t kMaxKalahBatchLineBytes = 4096;

/// Parses one line (without its newline). Never throws.
KalahBatchLine parse_kalah_batch_line(std::string_view text, const KalahVariantText& defaults);

}  // namespace rastros::kalah
