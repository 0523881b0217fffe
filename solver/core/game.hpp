#pragma once
// The interface a game module offers the generic analysis code (perft, reference search).
// A game is a value type describing one variant; its states are small copyable values.

#include <concepts>
#include <optional>

#include "core/value.hpp"

namespace rastros {

template <class G>
concept Game = requires(const G& game, const typename G::State& state, typename G::Move move) {
  typename G::State;
  typename G::Move;
  typename G::MoveList;
  /// The game's value for the side to move if the game has ended, otherwise nothing.
  { game.terminal_value(state) } -> std::same_as<std::optional<Value>>;
  /// Every legal move of a state that has not ended.
  { game.legal_moves(state) } -> std::same_as<typename G::MoveList>;
  /// The state after `move`.
  { game.play(state, move) } -> std::same_as<typename G::State>;
};

}  // namespace rastros
