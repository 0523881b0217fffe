#pragma once
// Perft: the number of legal move sequences of exactly `depth` plies from a state, where a
// game that has ended has no moves (as chess engines count it). Generic over any `Game`.

#include <cstdint>
#include <utility>
#include <vector>

#include "core/game.hpp"

namespace rastros {

template <Game G>
std::uint64_t perft(const G& game, const typename G::State& state, int depth) {
  if (depth == 0) return 1;
  if (game.terminal_value(state)) return 0;
  std::uint64_t total = 0;
  for (auto move : game.legal_moves(state)) {
    if (depth == 1) {
      ++total;  // every legal move is one sequence, even one that ends the game
    } else {
      total += perft(game, game.play(state, move), depth - 1);
    }
  }
  return total;
}

/// Perft broken down by first move, in move order.
template <Game G>
std::vector<std::pair<typename G::Move, std::uint64_t>> perft_divide(const G& game,
                                                                     const typename G::State& state,
                                                                     int depth) {
  std::vector<std::pair<typename G::Move, std::uint64_t>> parts;
  if (depth == 0 || game.terminal_value(state)) return parts;
  for (auto move : game.legal_moves(state)) {
    parts.emplace_back(move, perft(game, game.play(state, move), depth - 1));
  }
  return parts;
}

}  // namespace rastros
