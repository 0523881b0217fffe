#pragma once
// One line of a Reversi batch file (`rastros batch --game reversi`):
//
//   [--board 4x4|6x6|8x8] MOVES-OR-POSITION
//
//   f5 d6 c3                                 a game from the start (empty: the start itself)
//   --board 6x6 c4 e3                        a game on another board
//   -----OX--XO----- X                       a position string (its first word is the board,
//                                            longer than any move: recognised by its length;
//                                            starting with "--", it is still no option)
//
// and what batch/score_batch_line.hpp says of every score game's lines (comments, options
// written --board=6x6, never a throw).

#include <string>
#include <string_view>

#include "batch/score_batch_line.hpp"
#include "games/reversi/reversi_position.hpp"

namespace rastros::reversi {

using ReversiBatchLine = ScoreBatchLine<ReversiInput>;

/// Parses one line (without its newline) over the batch's default board. Never throws.
ReversiBatchLine parse_reversi_batch_line(std::string_view text, const std::string& board);

}  // namespace rastros::reversi
