#pragma once
// Text forms of boards, squares, games and positions (docs/rules.md, "Notation").
// Every parser throws InputError with a one-line message naming what is wrong.
//
//   board     "7x7"                      W files (a, b, ...) by H ranks (1, 2, ...)
//   square    "d4"                       file letter, rank number
//   game      "c3 b2 c1"                 moves from the start, each named by its destination
//   position  "7/7/7/3x3/2o4/7/7 2"      ranks top to bottom; digits run empty squares,
//                                        `x` slime, `o` the snail; then the side to move

#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "rastros/rastros.hpp"

namespace rastros {

Board parse_board(std::string_view text, StepSet steps = StepSet::king);
StepSet parse_steps(std::string_view text);
StuckRule parse_rules(std::string_view text);
std::string_view steps_name(StepSet steps);
std::string_view rules_name(StuckRule rule);

std::string square_name(const Board& board, Square square);
/// The name of the variant's start square; "none" for a variant without one (Rastros::has_start).
std::string start_name(const Rastros& rastros);
Square parse_square(const Board& board, std::string_view text);

/// A game played out from the start position.
struct PlayedGame {
  std::vector<Square> moves;
  Position position;  // after the last move
};
/// Parses and plays a space-separated list of moves, checking each is legal.
PlayedGame parse_game(const Rastros& rastros, std::string_view text);
std::string game_text(const Board& board, const std::vector<Square>& moves);

std::string position_string(const Board& board, const Position& position);
/// The game in one line, as checkpoints record it: "6x5 king standard start d3".
std::string game_identity(const Rastros& rastros);
/// Parses a position string. The snail may stand on a goal (a game that ended there, as
/// position_string prints it); slime on a goal is refused, since a snail never leaves a goal.
Position parse_position(const Board& board, std::string_view text);

/// Refuses a position that no game of `rastros` could reach, by three necessary conditions, each
/// with its own one-line message (`what` names the position: "position '...'"):
///   1. the side to move matches the number of slimed squares: each move slimes one square, so
///      player 1 is to move after an even number and player 2 after an odd one;
///   2. with slime, the start square is slimed (the first move slimes it); with none, the snail
///      is on the start square. Skipped for a variant without a start (Rastros::has_start: a
///      position on 2x2, whose default start is a goal, with no --start);
///   3. the slimed squares and the snail's square are joined by steps of the board's step set
///      (king or orthogonal): one trail.
/// Not sufficient: the trail must also be a single path from the start to the snail, which is a
/// Hamiltonian path question and could take exponential time on adversarial input.
void check_reachable(const Rastros& rastros, const Position& position, const std::string& what);

/// What check_reachable throws when the slime (or its absence) does not fit the game's start
/// square: a caller that chose the start itself can suggest giving another.
class StartSquareError : public InputError {
 public:
  using InputError::InputError;
};

/// parse_position, then check_reachable: how every entry point (the command line, batch lines,
/// the web API) reads a position string of a game.
Position parse_reachable_position(const Rastros& rastros, std::string_view text);

}  // namespace rastros
