#pragma once
// The endgame once neither goal can be reached: undirected vertex geography.
//
// With no goal in the snail's region the game is geography on the region's graph (squares
// joined by steps): move to an unvisited neighbour, and a player who cannot move loses.
// Fraenkel, Scheinerman and Ullman (1993): the player to move wins iff every maximum matching of
// the graph (region plus the snail's square) covers the snail's square, that is iff
//     maximum_matching_size(region + snail) > maximum_matching_size(region).
// Matchings are found with Edmonds' blossom algorithm on at most 64 vertices.

#include "rastros/board.hpp"

namespace rastros {

/// The size of a maximum matching of the graph on `vertices` whose edges are the board's steps.
int maximum_matching_size(const Board& board, SquareMask vertices);

/// True iff the side to move wins the geography game from `snail` on `region` (the empty
/// squares the snail can reach; it must contain no goal and not the snail's own square).
bool geography_mover_wins(const Board& board, Square snail, SquareMask region);

}  // namespace rastros
