#pragma once
// Text pictures of boards for terminal output.

#include <functional>
#include <string>

#include "rastros/rastros.hpp"

namespace rastros::tools {

/// The board, top rank first, with file letters and rank numbers:
///   `o` snail, `x` slime, `.` empty, `1` / `2` the empty goal of player 1 / 2.
std::string board_diagram(const Rastros& rastros, const Position& position);

/// A grid in board orientation with a short label per square (`cell(square)`, padded).
std::string board_grid(const Board& board, int cell_width,
                       const std::function<std::string(Square)>& cell);

/// "Player 1 wins: the snail entered a1." and the like, for an ended game.
std::string ending_text(const Rastros& rastros, const Position& position);

}  // namespace rastros::tools
