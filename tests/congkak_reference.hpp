#pragma once
// An independent reference for the Congkak tests: a deliberately naive implementation written
// from the rules text alone (Congkak(M, N), docs/rules.md). It includes nothing from solver/,
// sows seed by seed, and its minimax is plain (no pruning; at most a memo of exact scores).
//
// Rules, as implemented here:
//   - one ring, sown counter-clockwise: player 1's houses 1..M, player 1's store, player 2's
//     houses 1..M, player 2's store (ring indices 0..2M+1); the mover skips the opponent's
//     store. House i of one player faces house M+1-i of the other: index j faces 2M - j;
//   - a move lifts one of the mover's non-empty houses and drops its seeds one by one into the
//     following pits; where the last seed falls decides:
//       the mover's store: the mover moves again;
//       a house (either side) that held seeds just before: lift all of it and sow on;
//       an empty house of the mover's: with seeds opposite, that seed and the opposite seeds go
//       to the mover's store; the turn ends;
//       an empty house of the opponent's: the turn ends;
//   - as soon as, after a move, either row is empty, the game ends: each side adds the seeds
//     of its own houses to its own store. The score is the final store margin.

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <random>
#include <utility>
#include <vector>

namespace congkak_reference {

struct RefGame {
  int houses = 7;
  int seeds = 7;
  int ring() const { return 2 * houses + 2; }
  int house(int player, int i) const { return player * (houses + 1) + i; }
  int store(int player) const { return player * (houses + 1) + houses; }
  int opposite(int pit) const { return 2 * houses - pit; }
  int owner(int pit) const { return pit <= houses ? 0 : 1; }
};

struct RefPosition {
  std::array<int, 18> pits{};  // ring order, the first 2M+2 entries (M <= 8)
  int to_move = 0;
  friend bool operator==(const RefPosition&, const RefPosition&) = default;
};

inline RefPosition ref_start(const RefGame& game) {
  RefPosition position;
  for (int pit = 0; pit < game.ring(); ++pit) position.pits[pit] = game.seeds;
  position.pits[game.store(0)] = 0;
  position.pits[game.store(1)] = 0;
  return position;
}

inline int ref_row(const RefGame& game, const RefPosition& position, int player) {
  int sum = 0;
  for (int i = 0; i < game.houses; ++i) sum += position.pits[game.house(player, i)];
  return sum;
}

inline bool ref_ended(const RefGame& game, const RefPosition& position) {
  return ref_row(game, position, 0) == 0 || ref_row(game, position, 1) == 0;
}

inline std::vector<int> ref_moves(const RefGame& game, const RefPosition& position) {
  std::vector<int> moves;
  if (ref_ended(game, position)) return moves;
  for (int i = 0; i < game.houses; ++i) {
    if (position.pits[game.house(position.to_move, i)] > 0) moves.push_back(i);
  }
  return moves;
}

/// The move `house` (0-based) sown seed by seed, relay after relay. `laps` counts them.
inline RefPosition ref_play(const RefGame& game, RefPosition position, int house,
                            long* laps = nullptr) {
  const int mover = position.to_move;
  int pit = game.house(mover, house);
  while (true) {
    if (laps) ++*laps;
    int hand = position.pits[pit];
    position.pits[pit] = 0;
    while (hand > 0) {
      pit = (pit + 1) % game.ring();
      if (pit == game.store(1 - mover)) continue;
      ++position.pits[pit];
      --hand;
    }
    if (pit == game.store(mover)) return position;  // the mover again
    if (position.pits[pit] > 1) continue;           // it held seeds: relay
    if (game.owner(pit) == mover && position.pits[game.opposite(pit)] > 0) {
      position.pits[game.store(mover)] += position.pits[game.opposite(pit)] + 1;
      position.pits[game.opposite(pit)] = 0;
      position.pits[pit] = 0;
    }
    position.to_move = 1 - mover;
    return position;
  }
}

/// The final margin (player to move's store minus the other's) of an ended game.
inline int ref_final_margin(const RefGame& game, const RefPosition& position) {
  const int p = position.to_move;
  const int mine = position.pits[game.store(p)] + ref_row(game, position, p);
  const int theirs = position.pits[game.store(1 - p)] + ref_row(game, position, 1 - p);
  return mine - theirs;
}

/// Plain minimax: the final margin for the side to move with perfect play.
inline int ref_minimax(const RefGame& game, const RefPosition& position) {
  if (ref_ended(game, position)) return ref_final_margin(game, position);
  int best = -1000;
  for (const int move : ref_moves(game, position)) {
    const RefPosition next = ref_play(game, position, move);
    const int score = ref_minimax(game, next);
    best = std::max(best, next.to_move == position.to_move ? score : -score);
  }
  return best;
}

/// The same recursion with a memo of what each side gains from a position on (the stores
/// taken out of the key: what follows does not depend on them), for bigger games.
class RefMemoMinimax {
 public:
  explicit RefMemoMinimax(RefGame game) : game_(game) {}
  int margin(const RefPosition& position) {
    const int p = position.to_move;
    return position.pits[game_.store(p)] - position.pits[game_.store(1 - p)] + future(position);
  }

 private:
  int future(RefPosition position) {
    position.pits[game_.store(0)] = position.pits[game_.store(1)] = 0;
    if (ref_ended(game_, position)) return ref_final_margin(game_, position);
    // The pits a byte each (a pit holds at most 250 seeds), then the side.
    Key key{0, 0, static_cast<std::uint64_t>(position.to_move) << 56};
    for (int pit = 0; pit < game_.ring(); ++pit) {
      key[pit / 8] |= static_cast<std::uint64_t>(position.pits[pit]) << (8 * (pit % 8));
    }
    const auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    int best = -1000;
    for (const int move : ref_moves(game_, position)) {
      const RefPosition next = ref_play(game_, position, move);
      const int gained = next.pits[game_.store(position.to_move)];
      const int rest = future(next);
      best = std::max(best, gained + (next.to_move == position.to_move ? rest : -rest));
    }
    memo_.emplace(std::move(key), best);
    return best;
  }

  RefGame game_;
  using Key = std::array<std::uint64_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& key) const {
      return std::hash<std::uint64_t>()((key[0] * 0x9E3779B97F4A7C15ull ^ key[1]) *
                                            0x9E3779B97F4A7C15ull ^
                                        key[2]);
    }
  };
  std::unordered_map<Key, int, KeyHash> memo_;
};

/// A random position of the variant: the seeds thrown into random houses and stores, with at
/// most `in_houses` in houses, and a random side to move.
inline RefPosition ref_random(const RefGame& game, int in_houses, std::mt19937_64& random) {
  RefPosition position;
  const int total = 2 * game.houses * game.seeds;
  std::uniform_int_distribution<int> house_pit(0, 2 * game.houses - 1), side(0, 1);
  for (int s = 0; s < total; ++s) {
    if (s < in_houses) {
      const int h = house_pit(random);
      ++position.pits[game.house(h / game.houses, h % game.houses)];
    } else {
      ++position.pits[game.store(side(random))];
    }
  }
  position.to_move = side(random);
  return position;
}

}  // namespace congkak_reference
