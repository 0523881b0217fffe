#pragma once
// The game API of the score engine: what a game with a final margin (mancala, Reversi) offers
// the generic solver, perft and databases. Each game is a folder of its own under
// solver/games/ and a line in tools/game_registry.cpp.
//
// A state is seen from the side to move and holds what the future depends on; what the
// players banked before (stores, captures) is left out, so the engine's score of a state is
// the margin the side to move gains *from here on*. The final margin of a game is the banked
// margin plus that score.

#include <concepts>
#include <cstdint>
#include <optional>

namespace rastros::engine {

template <class G>
concept ScoreGame = requires(const G& game, const typename G::State& state, typename G::Move move) {
  typename G::State;     // REQUIRED: small, copyable, ==
  typename G::Move;      // REQUIRED
  typename G::MoveList;  // REQUIRED: iterable, size(), operator[]
  // REQUIRED. One move: `next` (seen from whoever moves next), `gain` (what the mover banked
  // by it) and `again` (the mover moves again, as after a mancala last seed in the store).
  { game.play(state, move) } -> std::same_as<typename G::Played>;
  requires requires(typename G::Played played) {
    { played.next } -> std::convertible_to<typename G::State>;
    { played.gain } -> std::convertible_to<int>;
    { played.again } -> std::convertible_to<bool>;
  };
  // REQUIRED. Every legal move; empty exactly when is_terminal().
  { game.legal_moves(state) } -> std::same_as<typename G::MoveList>;
  // REQUIRED. The game has ended, and what the side to move gains at its end.
  { game.is_terminal(state) } -> std::same_as<bool>;
  { game.terminal_score(state) } -> std::same_as<int>;
  // REQUIRED. A bound on |score| from this state on (mancala: the seeds still in houses); the
  // search cuts a window against it.
  { game.seeds_in_play(state) } -> std::same_as<int>;
  // REQUIRED. An exact 64-bit identity of the state (never shared by two states), for the
  // transposition table.
  { game.key(state) } -> std::same_as<std::uint64_t>;
};

/// OPTIONAL for a game: an exact score from an endgame database, when the state is in it.
/// A probe is any callable `std::optional<int>(const State&)`; the solver takes one in its
/// options (see score_solver.hpp).
template <class P, class State>
concept ScoreProbe = requires(const P& probe, const State& state) {
  { probe(state) } -> std::same_as<std::optional<int>>;
};

}  // namespace rastros::engine
