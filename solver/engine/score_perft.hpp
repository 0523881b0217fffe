#pragma once
// Perft for score games: the number of move sequences of exactly `depth` plies, a ply being one
// move (a mancala move that earns another turn is one ply, and the same player's next move
// another). A game that has ended has no moves.

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/score_game.hpp"

namespace rastros::engine {

template <ScoreGame G>
std::uint64_t perft(const G& game, const typename G::State& state, int depth) {
  if (depth == 0) return 1;
  const auto moves = game.legal_moves(state);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const auto move : moves) total += perft(game, game.play(state, move).next, depth - 1);
  return total;
}

/// Perft broken down by first move, in move order.
template <ScoreGame G>
std::vector<std::pair<typename G::Move, std::uint64_t>> perft_divide(
    const G& game, const typename G::State& state, int depth) {
  std::vector<std::pair<typename G::Move, std::uint64_t>> parts;
  if (depth == 0) return parts;
  for (const auto move : game.legal_moves(state)) {
    parts.emplace_back(move, perft(game, game.play(state, move).next, depth - 1));
  }
  return parts;
}

}  // namespace rastros::engine
