#pragma once
// An independent reference for the Kalah tests: a deliberately naive implementation written
// from the rules text alone (Kalah(M, N), docs/rules.md). It shares nothing with the library
// (no search state, no keys, no tables) and includes nothing from solver/, so agreeing with it
// means something.
//
// Rules, as implemented here:
//   - the pits form one ring, sown counter-clockwise: player 1's houses 1..M, player 1's store,
//     player 2's houses 1..M, player 2's store (ring indices 0..2M+1). House i of one player
//     faces house M+1-i of the other: ring index j faces ring index 2M - j;
//   - a move empties one of the mover's non-empty houses and drops its seeds one by one into
//     the following pits, skipping the opponent's store, going round as often as needed;
//   - last seed in the mover's store: the mover moves again;
//   - last seed in one of the mover's houses that was empty just before it landed: with seeds
//     in the opposite house, that seed and the opposite seeds go to the mover's store; with
//     the opposite house empty, nothing happens (standard) or the seed alone goes to the store
//     (empty-capture);
//   - as soon as, after a move, either row is empty, the game ends: each side adds the seeds
//     of its own houses to its own store. The score is the final store margin.
// The minimax below is plain: no table, no pruning, no memo. It is only fit for small games.

#include <algorithm>
#include <cassert>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kalah_reference {

enum class RefRule { standard, empty_capture };

struct RefGame {
  int houses = 6;  // M
  int seeds = 4;   // N
  RefRule rule = RefRule::standard;

  int ring() const { return 2 * houses + 2; }
  /// Ring index of `player`'s (0 or 1) house `i` (0-based: house i+1).
  int house(int player, int i) const { return player * (houses + 1) + i; }
  int store(int player) const { return player * (houses + 1) + houses; }
  int total() const { return 2 * houses * seeds; }
  /// The house facing ring index `pit` (a house, not a store).
  int opposite(int pit) const { return 2 * houses - pit; }
  /// The player a pit belongs to.
  int owner(int pit) const { return pit <= houses ? 0 : 1; }
  bool is_store(int pit) const { return pit == store(0) || pit == store(1); }
};

struct RefPosition {
  std::vector<int> pits;  // ring order, 2M+2 entries
  int to_move = 0;        // 0: player 1, 1: player 2
  friend bool operator==(const RefPosition&, const RefPosition&) = default;
};

inline RefPosition ref_start(const RefGame& game) {
  RefPosition position;
  position.pits.assign(game.ring(), game.seeds);
  position.pits[game.store(0)] = 0;
  position.pits[game.store(1)] = 0;
  return position;
}

inline int ref_row_seeds(const RefGame& game, const RefPosition& position, int player) {
  int sum = 0;
  for (int i = 0; i < game.houses; ++i) sum += position.pits[game.house(player, i)];
  return sum;
}

inline int ref_houses_seeds(const RefGame& game, const RefPosition& position) {
  return ref_row_seeds(game, position, 0) + ref_row_seeds(game, position, 1);
}

inline bool ref_ended(const RefGame& game, const RefPosition& position) {
  return ref_row_seeds(game, position, 0) == 0 || ref_row_seeds(game, position, 1) == 0;
}

/// The stores once each side has added its own houses (the end of the game).
inline std::pair<int, int> ref_final_stores(const RefGame& game, const RefPosition& position) {
  return {position.pits[game.store(0)] + ref_row_seeds(game, position, 0),
          position.pits[game.store(1)] + ref_row_seeds(game, position, 1)};
}

/// The final margin for `player` of a finished position (each side takes its own houses).
inline int ref_final_margin(const RefGame& game, const RefPosition& position, int player) {
  const auto [first, second] = ref_final_stores(game, position);
  return player == 0 ? first - second : second - first;
}

/// The store margin of the side to move (what is banked already).
inline int ref_store_margin(const RefGame& game, const RefPosition& position) {
  const int own = position.pits[game.store(position.to_move)];
  const int other = position.pits[game.store(1 - position.to_move)];
  return own - other;
}

/// Legal moves: 0-based house indices of the side to move, in increasing order; none once the
/// game has ended.
inline std::vector<int> ref_moves(const RefGame& game, const RefPosition& position) {
  std::vector<int> moves;
  if (ref_ended(game, position)) return moves;
  for (int i = 0; i < game.houses; ++i) {
    if (position.pits[game.house(position.to_move, i)] > 0) moves.push_back(i);
  }
  return moves;
}

struct RefPlay {
  /// The position after the move, the houses left as they are even when the game has ended
  /// (not yet added to the stores). to_move: the mover after a last seed in its store, the
  /// opponent otherwise.
  RefPosition after;
  int gain = 0;         // seeds the move put in the mover's store (sown and captured)
  bool again = false;   // the last seed fell in the mover's store
  bool capture = false; // the last seed went to the store by a capture (either rule)
  bool lone_capture = false;  // empty-capture: the last seed banked alone, the opposite empty
  bool lapped = false;  // the sowing went round past its own starting house
  bool ended = false;   // a row is empty after the move
};

inline RefPlay ref_play(const RefGame& game, const RefPosition& position, int move) {
  RefPlay result;
  result.after = position;
  std::vector<int>& pits = result.after.pits;
  const int me = position.to_move;
  const int other = 1 - me;
  const int start = game.house(me, move);
  int hand = pits[start];
  assert(hand > 0);
  pits[start] = 0;
  const int store_before = pits[game.store(me)];
  int pit = start;
  bool was_empty = false;
  while (hand > 0) {
    pit = (pit + 1) % game.ring();
    if (pit == game.store(other)) continue;  // never the opponent's store
    if (pit == start) result.lapped = true;
    was_empty = pits[pit] == 0;
    pits[pit] += 1;
    hand -= 1;
  }
  if (pit == game.store(me)) {
    result.again = true;
  } else if (game.owner(pit) == me && was_empty) {
    const int facing = game.opposite(pit);
    if (pits[facing] > 0) {
      pits[game.store(me)] += pits[facing] + 1;
      pits[facing] = 0;
      pits[pit] = 0;
      result.capture = true;
    } else if (game.rule == RefRule::empty_capture) {
      pits[game.store(me)] += 1;
      pits[pit] = 0;
      result.capture = true;
      result.lone_capture = true;
    }
  }
  result.gain = pits[game.store(me)] - store_before;
  result.ended = ref_ended(game, result.after);
  result.after.to_move = result.again ? me : other;
  return result;
}

int reference_score(const RefGame& game, const RefPosition& position);

/// A move's score from the mover's view: the final margin for the mover under perfect play.
inline int reference_move_score(const RefGame& game, const RefPosition& position, int move) {
  const RefPlay played = ref_play(game, position, move);
  if (played.ended) return ref_final_margin(game, played.after, position.to_move);
  const int next = reference_score(game, played.after);
  return played.again ? next : -next;
}

/// The final store margin (banked stores included) for the side to move under perfect play:
/// plain minimax, the side to move maximising.
inline int reference_score(const RefGame& game, const RefPosition& position) {
  if (ref_ended(game, position)) return ref_final_margin(game, position, position.to_move);
  int best = -1000000;
  for (int move : ref_moves(game, position)) {
    best = std::max(best, reference_move_score(game, position, move));
  }
  return best;
}

/// Every legal move (0-based) with its score for the mover, in increasing house order.
inline std::vector<std::pair<int, int>> reference_move_scores(const RefGame& game,
                                                              const RefPosition& position) {
  std::vector<std::pair<int, int>> scores;
  for (int move : ref_moves(game, position)) {
    scores.emplace_back(move, reference_move_score(game, position, move));
  }
  return scores;
}

// The same recursion with a memo, for the few tests whose positions plain minimax cannot reach
// in time (the starts of Kalah(4,2), (3,4), (5,1), positions with 9..14 seeds in houses). The
// stores never change what a move does, and only ever grow, so the final margin minus the
// banked store margin depends on the houses and the side to move alone: that difference is
// what the memo keeps, keyed by every house and the side to move. The tests check this
// against reference_score where both are fast.
using RefMemo = std::unordered_map<std::string, int>;

int reference_score_memo(const RefGame& game, const RefPosition& position, RefMemo& memo);

inline int reference_move_score_memo(const RefGame& game, const RefPosition& position, int move,
                                     RefMemo& memo) {
  const RefPlay played = ref_play(game, position, move);
  if (played.ended) return ref_final_margin(game, played.after, position.to_move);
  const int next = reference_score_memo(game, played.after, memo);
  return played.again ? next : -next;
}

inline int reference_score_memo(const RefGame& game, const RefPosition& position, RefMemo& memo) {
  if (ref_ended(game, position)) return ref_final_margin(game, position, position.to_move);
  std::string key;
  for (int pit = 0; pit < game.ring(); ++pit) {
    if (!game.is_store(pit)) key.push_back(static_cast<char>(position.pits[pit]));  // < 256 seeds
  }
  key.push_back(static_cast<char>(position.to_move));
  const int banked = ref_store_margin(game, position);
  if (const auto it = memo.find(key); it != memo.end()) return banked + it->second;
  int best = -1000000;
  for (int move : ref_moves(game, position)) {
    best = std::max(best, reference_move_score_memo(game, position, move, memo));
  }
  memo.emplace(std::move(key), best - banked);
  return best;
}

/// The houses seen from `player`: its houses 1..M, then the other player's houses 1..M.
inline std::vector<int> ref_view(const RefGame& game, const RefPosition& position, int player) {
  std::vector<int> view;
  for (int i = 0; i < game.houses; ++i) view.push_back(position.pits[game.house(player, i)]);
  for (int i = 0; i < game.houses; ++i) view.push_back(position.pits[game.house(1 - player, i)]);
  return view;
}

/// The position with player 1 to move whose houses are `view` (player 1's row first) and whose
/// stores hold the rest of the seeds, all in player 1's.
inline RefPosition ref_from_view(const RefGame& game, const std::vector<int>& view) {
  RefPosition position;
  position.pits.assign(game.ring(), 0);
  int sum = 0;
  for (int i = 0; i < game.houses; ++i) {
    position.pits[game.house(0, i)] = view[i];
    position.pits[game.house(1, i)] = view[game.houses + i];
    sum += view[i] + view[game.houses + i];
  }
  position.pits[game.store(0)] = std::max(0, game.total() - sum);
  return position;
}

/// "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1", written from the rules text.
inline std::string ref_position_string(const RefGame& game, const RefPosition& position) {
  std::string text;
  for (int player = 0; player < 2; ++player) {
    if (player == 1) text += '/';
    for (int i = 0; i < game.houses; ++i) text += std::to_string(position.pits[game.house(player, i)]) + ",";
    text += std::to_string(position.pits[game.store(player)]);
  }
  text += position.to_move == 0 ? " 1" : " 2";
  return text;
}

// Conversions to and from the library's position type, written as templates so that this
// header needs nothing from solver/: any type with rows[p][i], stores[p] and to_move.
template <class LibPosition>
LibPosition to_library(const RefGame& game, const RefPosition& position) {
  LibPosition out{};
  for (int player = 0; player < 2; ++player) {
    for (int i = 0; i < game.houses; ++i) out.rows[player][i] = position.pits[game.house(player, i)];
    out.stores[player] = position.pits[game.store(player)];
  }
  out.to_move = position.to_move;
  return out;
}

template <class LibPosition>
RefPosition from_library(const RefGame& game, const LibPosition& position) {
  RefPosition out;
  out.pits.assign(game.ring(), 0);
  for (int player = 0; player < 2; ++player) {
    for (int i = 0; i < game.houses; ++i) out.pits[game.house(player, i)] = position.rows[player][i];
    out.pits[game.store(player)] = position.stores[player];
  }
  out.to_move = position.to_move;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Random positions.

struct RefRecord {
  RefPosition position;
  std::vector<int> moves;  // 0-based houses, as played from the start
};

/// A random legal game from the start, `plies` moves long or shorter when the game ends first.
/// With `keep_going`, moves that would end the game are avoided while others exist, and the
/// game stops (unended) when every move would end it.
template <class Rng>
RefRecord ref_random_game(const RefGame& game, Rng& rng, int plies, bool keep_going) {
  RefRecord record{ref_start(game), {}};
  for (int ply = 0; ply < plies; ++ply) {
    std::vector<int> moves = ref_moves(game, record.position);
    if (moves.empty()) break;
    if (keep_going) {
      std::vector<int> going;
      for (int move : moves) {
        if (!ref_play(game, record.position, move).ended) going.push_back(move);
      }
      if (going.empty()) break;
      moves = going;
    }
    const int move = moves[std::uniform_int_distribution<int>(0, int(moves.size()) - 1)(rng)];
    record.position = ref_play(game, record.position, move).after;
    record.moves.push_back(move);
  }
  return record;
}

/// A random game played to its end.
template <class Rng>
RefRecord ref_random_full_game(const RefGame& game, Rng& rng) {
  return ref_random_game(game, rng, 1 << 30, false);
}

/// A position built directly: `in_houses` seeds spread over the 2M houses, the rest of the
/// variant's seeds split at random between the stores, a random side to move. With `clumpy`,
/// a random share of the seeds goes to one or two chosen houses, so that houses holding more
/// seeds than the ring (laps) are common.
template <class Rng>
RefPosition ref_random_position(const RefGame& game, Rng& rng, int in_houses, bool clumpy) {
  RefPosition position;
  position.pits.assign(game.ring(), 0);
  const int houses = 2 * game.houses;
  auto any_house = [&] {
    const int h = std::uniform_int_distribution<int>(0, houses - 1)(rng);
    return h < game.houses ? game.house(0, h) : game.house(1, h - game.houses);
  };
  const int hot_a = any_house();
  const int hot_b = any_house();
  const double hot_share = clumpy ? std::uniform_real_distribution<double>(0.3, 1.0)(rng) : 0.0;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int s = 0; s < in_houses; ++s) {
    int pit;
    if (unit(rng) < hot_share) {
      pit = unit(rng) < 0.7 ? hot_a : hot_b;
    } else {
      pit = any_house();
    }
    position.pits[pit] += 1;
  }
  const int rest = game.total() - in_houses;
  const int first = std::uniform_int_distribution<int>(0, std::max(0, rest))(rng);
  position.pits[game.store(0)] = first;
  position.pits[game.store(1)] = rest - first;
  position.to_move = std::uniform_int_distribution<int>(0, 1)(rng);
  return position;
}

/// Calls `visit(view)` for every way of putting exactly `seeds` seeds in `cells` houses.
template <class Visit>
void ref_for_each_distribution(int cells, int seeds, Visit&& visit) {
  std::vector<int> view(cells, 0);
  auto recurse = [&](auto&& self, int cell, int left) -> void {
    if (cell == cells - 1) {
      view[cell] = left;
      visit(view);
      return;
    }
    for (int k = 0; k <= left; ++k) {
      view[cell] = k;
      self(self, cell + 1, left - k);
    }
  };
  recurse(recurse, 0, seeds);
}

/// The number of ways of putting `seeds` seeds in `cells` houses: C(seeds + cells - 1, cells - 1).
inline unsigned long long ref_distributions(int cells, int seeds) {
  unsigned long long result = 1;
  for (int k = 1; k <= cells - 1; ++k) result = result * (seeds + k) / k;
  return result;
}

}  // namespace kalah_reference
