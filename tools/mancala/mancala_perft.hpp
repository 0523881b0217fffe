#pragma once
// The counting and printing of a mancala game's `perft` (a move that earns another turn
// counts as one ply, and the same player's next move as another), for any game on the score
// engine.

#include <chrono>
#include <cstdint>
#include <iostream>

#include "engine/score_perft.hpp"
#include "games/mancala/mancala_position.hpp"
#include "json.hpp"

namespace rastros::tools::mancala_cli {

/// Counts the sequences of `depth` plies from `state` and prints them ("perft 3: 343", with
/// `divide` one line a first move; with `json` one object with the `variant` keys first).
template <engine::ScoreGame Game>
void print_perft(const Game& game, const typename Game::State& state, int depth, bool divide,
                 bool json, Json variant) {
  const auto started = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  Json parts = Json::object();
  if (divide && depth > 0) {
    for (const auto& [move, count] : engine::perft_divide(game, state, depth)) {
      nodes += count;
      if (json) {
        parts.set(mancala::move_name(move), count);
      } else {
        std::cout << mancala::move_name(move) << ": " << count << "\n";
      }
    }
  } else {
    nodes = engine::perft(game, state, depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (json) {
    variant.set("depth", depth).set("nodes", nodes);
    if (divide) variant.set("divide", parts);
    variant.set("seconds", seconds);
    std::cout << variant.dump() << "\n";
  } else {
    std::cout << "perft " << depth << ": " << nodes << "\n";
  }
}

}  // namespace rastros::tools::mancala_cli
