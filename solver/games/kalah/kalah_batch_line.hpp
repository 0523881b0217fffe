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
// Options may also be written --houses=4 (batch/score_batch_line.hpp: what every score game's
// batch line shares).

#include <string_view>

#include "batch/score_batch_line.hpp"
#include "games/kalah/kalah_input.hpp"

namespace rastros::kalah {

/// A line's position: its variant, and the game leading to it when given as moves.
using KalahBatchJob = KalahInput;

using KalahBatchLine = ScoreBatchLine<KalahBatchJob>;

/// Longest line accepted (a long game of 8 houses is well under it).
inline constexpr std::size_t kMaxKalahBatchLineBytes = kMaxScoreBatchLineBytes;

/// Parses one line (without its newline). Never throws.
KalahBatchLine parse_kalah_batch_line(std::string_view text, const KalahVariantText& defaults);

}  // namespace rastros::kalah
