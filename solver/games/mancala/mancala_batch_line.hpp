#pragma once
// The batch lines of the mancala games whose variant is --houses and --seeds alone (Congkak,
// Oware):
//
//   [--houses M] [--seeds N] MOVES-OR-POSITION
//
//   3 6 1                                  a game from the start (empty: the start itself)
//   --houses 4 --seeds 3 2 1               a game of another variant
//   4,4,4,4,0/4,4,4,4,0 1                  a position string (recognised by its '/')
//
// and what batch/score_batch_line.hpp says of every score game's lines (comments, options
// written --houses=4, never a throw).

#include <optional>
#include <string>
#include <string_view>

namespace rastros::mancala {

/// A line's variant and what follows it.
struct MancalaBatchText {
  int houses = 0;
  int seeds = 0;
  std::optional<std::string> moves;     // set unless a position string was given
  std::optional<std::string> position;  // set when the rest holds a '/'
};

/// Reads the line's options over the defaults. Throws InputError for an unknown option or a
/// bad number.
MancalaBatchText read_mancala_batch_line(std::string_view text, int default_houses,
                                         int default_seeds);

}  // namespace rastros::mancala
