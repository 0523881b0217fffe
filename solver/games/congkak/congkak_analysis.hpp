#pragma once
// Solving one Congkak position: the shared mancala solver (games/mancala/mancala_analysis.hpp)
// on Congkak's rules, without an endgame database.

#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_position.hpp"
#include "games/mancala/mancala_analysis.hpp"

namespace rastros::congkak {

using CongkakSolver = mancala::MancalaSolver<Congkak>;
using CongkakResult = mancala::MancalaResult;
using CongkakSolveOptions = mancala::MancalaSolveOptions;

}  // namespace rastros::congkak
