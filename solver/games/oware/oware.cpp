#include "games/oware/oware.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace rastros::oware {

namespace {

int row_sum(const OwareState& state, int from, int count) {
  int sum = 0;
  for (int i = from; i < from + count; ++i) sum += state.houses[i];
  return sum;
}

// The variant's checks, worded for Oware, before Kalah's ranking is built on the same houses.
int checked_houses(int houses, int seeds) {
  if (houses < 1 || houses > kMaxHouses) {
    throw InputError("--houses must be between 1 and " + std::to_string(kMaxHouses) + ", not " +
                     std::to_string(houses));
  }
  if (seeds < 1) throw InputError("--seeds must be at least 1, not " + std::to_string(seeds));
  const long long total = 2LL * houses * seeds;  // --seeds may be any int: no overflow
  if (total > kMaxSeeds) {
    throw InputError("oware(" + std::to_string(houses) + "," + std::to_string(seeds) + ") has " +
                     std::to_string(total) + " seeds; at most " +
                     std::to_string(kMaxSeeds) + " are supported");
  }
  return houses;
}

// Kalah's ranking of the same houses; its one refusal (keys past 62 bits) worded for Oware.
kalah::Kalah ranking_for(int houses, int seeds) {
  checked_houses(houses, seeds);
  try {
    return kalah::Kalah(houses, seeds);
  } catch (const InputError&) {
    throw InputError("oware(" + std::to_string(houses) + "," + std::to_string(seeds) +
                     ") has too many positions to number in 62 bits: lower --houses or --seeds");
  }
}

}  // namespace

Oware::Oware(int houses, int seeds)
    : houses_(houses), seeds_(seeds), ranking_(ranking_for(houses, seeds)) {}

std::string Oware::name() const {
  return "oware(" + std::to_string(houses_) + "," + std::to_string(seeds_) + ")";
}

OwareState Oware::start() const {
  State state;
  for (int i = 0; i < 2 * houses_; ++i) state.houses[i] = static_cast<std::uint8_t>(seeds_);
  return state;
}

int Oware::seeds_in_play(const State& state) const {
  return row_sum(state, 0, 2 * houses_);
}

OwareMoveList Oware::legal_moves(const State& state) const {
  const int m = houses_;
  const bool opponent_empty = row_sum(state, m, m) == 0;
  MoveList moves;
  for (int i = 0; i < m; ++i) {
    // From house i (0-based) the seeds reach the opponent's row once they pass house m-1.
    if (state.houses[i] > 0 && (!opponent_empty || state.houses[i] >= m - i)) {
      moves.push_back(static_cast<Move>(i));
    }
  }
  return moves;
}

bool Oware::is_terminal(const State& state) const {
  return legal_moves(state).size() == 0;
}

int Oware::terminal_score(const State& state) const {
  const int board = seeds_in_play(state);
  return row_sum(state, 0, houses_) == 0 ? -board : board;
}

OwarePlayed Oware::play(const State& state, Move move) const {
  const int ring = 2 * houses_;
  State after = state;
  int seeds = after.houses[move];
  after.houses[move] = 0;
  int at = move;
  while (seeds > 0) {
    at = (at + 1) % ring;
    if (at == move) continue;  // the starting house is skipped on every lap
    ++after.houses[at];
    --seeds;
  }
  // The capture chain: backwards from the last house while in the opponent's row and 2 or 3.
  int captured = 0;
  int first = at + 1;  // the chain is [first, at]
  while (first - 1 >= houses_ && (after.houses[first - 1] == 2 || after.houses[first - 1] == 3)) {
    --first;
    captured += after.houses[first];
  }
  const bool grand_slam = captured > 0 && captured == row_sum(after, houses_, houses_);
  if (captured > 0 && !grand_slam) {
    for (int i = first; i <= at; ++i) after.houses[i] = 0;
  } else {
    captured = 0;
  }
  // Seen from the opponent, who moves next (m bounded for the compiler).
  const int m = std::min(houses_, kMaxHouses);
  Played played;
  for (int i = 0; i < m; ++i) {
    played.next.houses[i] = after.houses[m + i];
    played.next.houses[m + i] = after.houses[i];
  }
  played.gain = captured;
  return played;
}

}  // namespace rastros::oware
