#pragma once
// Congkak(M, N): M houses a side, N seeds in each at the start (docs/rules.md, "Congkak").
// Kalah's ring and stores, with relay sowing: a last seed that lands in a house that was not
// empty lifts that house and sowing goes on, so one move can run many laps.
//
// The state is Kalah's (the houses seen from the side to move, stores left out), and so are
// the end, the score, the legal moves and the exact key: Congkak delegates them to a Kalah of
// the same size and has only its own sowing.

#include <cstdint>
#include <string>

#include "games/kalah/kalah.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::congkak {

using CongkakState = kalah::KalahState;
using CongkakMove = kalah::KalahMove;
using CongkakMoveList = kalah::KalahMoveList;

/// What one move does: the state after it (from the view of whoever moves next), the seeds it
/// put in the mover's store (sown and captured), and whether the mover moves again.
struct CongkakPlayed {
  CongkakState next;
  int gain = 0;
  bool again = false;
};

/// The most laps one move can run with `seeds` seeds in houses. Every lap either puts a seed
/// into the mover's store (which never loses one during a move: at most `seeds` times) or, not
/// reaching the store, moves each seed it lifts closer to the store along the ring, so the sum
/// over seeds of their distance to the store (at most 2M each) drops by at least one. Hence
/// at most (seeds + 1) * (2M * seeds + 1) laps: every move ends.
std::int64_t max_laps(int houses, int seeds);

class Congkak {
 public:
  using State = CongkakState;
  using Move = CongkakMove;
  using MoveList = CongkakMoveList;
  using Played = CongkakPlayed;

  /// Throws InputError unless 1 <= houses <= 8, 1 <= seeds, at most 250 seeds in all and every
  /// position's key fits in 62 bits.
  Congkak(int houses, int seeds);

  int houses() const { return board_.houses(); }
  int seeds() const { return board_.seeds(); }
  int total_seeds() const { return board_.total_seeds(); }
  std::string name() const;  // "congkak(7,7)"
  /// The size and name the shared mancala text forms need.
  mancala::MancalaBoard board() const { return {houses(), seeds(), name(), "a store"}; }

  State start() const { return board_.start(); }
  int seeds_in_play(const State& state) const { return board_.seeds_in_play(state); }
  /// The game has ended: one side's houses are all empty (Kalah's rule 4).
  bool is_terminal(const State& state) const { return board_.is_terminal(state); }
  int terminal_score(const State& state) const { return board_.terminal_score(state); }
  MoveList legal_moves(const State& state) const { return board_.legal_moves(state); }
  std::uint64_t key(const State& state) const { return board_.key(state); }

  /// Sows `move` lap by lap: each lap's seeds are added a whole ring at a time, so a lap costs
  /// at most one pass over the ring whatever it holds.
  Played play(const State& state, Move move) const;
  /// How promising a move looks (higher first): another turn, then what it banks.
  int move_order(const State& state, Move move) const;

  /// The numbering of the states with a given number of seeds in play (Kalah's): the index of
  /// the endgame databases by seeds (congkak_endgame.hpp).
  std::uint64_t level_size(int seeds) const { return board_.level_size(seeds); }
  std::uint64_t level_rank(const State& state) const { return board_.level_rank(state); }
  State level_unrank(int seeds, std::uint64_t rank) const {
    return board_.level_unrank(seeds, rank);
  }
  void level_next(State& state) const { board_.level_next(state); }

 private:
  kalah::Kalah board_;  // the board's size, end, score and keys (its sowing is not used)
};

/// The size and name the shared mancala layer needs (as kalah::board_of).
inline mancala::MancalaBoard board_of(const Congkak& game) {
  return game.board();
}

}  // namespace rastros::congkak
