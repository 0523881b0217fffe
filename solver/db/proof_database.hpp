#pragma once
// Proof databases: a certificate of the start's value (win or loss) for boards whose
// remoteness is out of reach, such as 8x8.
//
// A strategy database (db/strategy_database.hpp) stores the exact remoteness of every position
// on the winner's strategy, which needs a remoteness search at each of them. A proof needs
// much less: that the winner has a move keeping the loser lost, and that every reply of the
// loser keeps the winner winning. So a proof database holds, with value only (remoteness 0):
//   - the start;
//   - at a position the side to move wins: its record (win, the chosen move) and the position
//     after that move;
//   - at a position the side to move loses: its record (loss, no move) and the position after
//     every legal move;
// down to the leaves, which are not stored:
//   - positions whose game has ended (the rules value them), and
//   - small endgames: positions whose region (rastros/region.hpp, the squares the snail can
//     still reach) has at most `leaf_squares` squares. Small endgames are most of a proof's
//     positions and are cheap to solve, so `rastros verify` solves them itself, with the
//     proof-number search (search/proof_number_search.hpp), while the builder decides every
//     value with the alpha-beta Solver: two independent searches must agree.
//
// The winner's move is chosen to keep the proof small: the first move, by increasing size of
// the region left, that the solver shows to win.

#include <functional>
#include <string>

#include "db/database_file.hpp"
#include "db/walk_checkpoint.hpp"
#include "rastros/rastros.hpp"
#include "search/solver.hpp"

namespace rastros {

/// Default leaf size: regions of at most this many squares are left to the verifier.
inline constexpr int kDefaultProofLeafSquares = 16;
/// The largest leaf size the command line accepts: leaves must stay cheap to solve.
inline constexpr int kMaxProofLeafSquares = 32;

/// Whether a position (that has not ended) is a leaf of a proof with `leaf_squares`.
bool is_proof_leaf(const Board& board, const Position& position, int leaf_squares);

/// Builds the proof database of the start of `rastros`. `solver` must play the same game and
/// be value-only (a remoteness solver would do needless work); it is called concurrently and its
/// table is shared across the build. Throws std::invalid_argument when the start is a draw
/// (stuck-draw rules), which no proof database certifies, and std::logic_error if the solver
/// contradicts itself (a position it called won with no winning move).
/// `progress`, when set, gets one line per ply of the breadth-first walk. With `checkpoint`
/// enabled (db/walk_checkpoint.hpp; its identity is filled in here) the build saves each ply
/// and continues a build saved there; a stop flag, in it or in the solver's cancellation,
/// ends the build with SearchCancelled.
Database build_proof_database(const Rastros& rastros, int leaf_squares, Solver& solver,
                              const std::function<void(const std::string&)>& progress = {},
                              WalkCheckpoint checkpoint = {});

}  // namespace rastros
