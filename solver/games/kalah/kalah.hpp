#pragma once
// Kalah(M, N): M houses a side, N seeds in each at the start (docs/rules.md, "Kalah").
//
// The search state holds the houses only, seen from the side to move: its houses 1..M, then
// the opponent's houses 1..M. The stores are left out on purpose: what a side gains from a
// position on does not depend on what either side banked before, so positions that differ
// only in their stores share one table entry and one endgame-database record. A position as
// people see it (stores, whose turn) is `KalahPosition` (kalah_position.hpp).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/small_vector.hpp"
#include "games/mancala/mancala_position.hpp"
#include "games/mancala/mancala_variant.hpp"

namespace rastros::kalah {

inline constexpr int kMaxHouses = mancala::kMaxHouses;
/// Seeds in all (a house holds a byte).
inline constexpr int kMaxSeeds = mancala::kMaxSeeds;

/// The capture rule: `standard` captures only when the opposite house holds seeds;
/// `empty_capture` (Irving, Donkers and Uiterwijk's rule) banks the last seed even when the
/// opposite house is empty.
enum class CaptureRule : std::uint8_t { standard, empty_capture };

std::string_view rules_name(CaptureRule rule);
/// Throws InputError for anything but "standard" and "empty-capture".
CaptureRule parse_rules(std::string_view text);

/// Houses from the view of the side to move: [0, M) its own (house 1 first, the farthest from
/// its store), [M, 2M) the opponent's (its house 1 first).
struct KalahState {
  std::array<std::uint8_t, 2 * kMaxHouses> houses{};
  friend bool operator==(const KalahState&, const KalahState&) = default;
};

/// A move: the index (0-based) of the mover's house emptied. People write it 1-based.
using KalahMove = mancala::MancalaMove;
using KalahMoveList = SmallVector<KalahMove, kMaxHouses>;

/// What one move does: the state after it (from the view of whoever moves next), the seeds it
/// put in the mover's store (sown and captured), and whether the mover moves again.
struct KalahPlayed {
  KalahState next;
  int gain = 0;
  bool again = false;
};

class Kalah {
 public:
  using State = KalahState;
  using Move = KalahMove;
  using MoveList = KalahMoveList;
  using Played = KalahPlayed;

  /// Throws InputError unless 1 <= houses <= 8, 1 <= seeds and every position's key fits in
  /// 62 bits (see key()).
  Kalah(int houses, int seeds, CaptureRule rule = CaptureRule::standard);

  int houses() const { return houses_; }
  int seeds() const { return seeds_; }
  CaptureRule rule() const { return rule_; }
  /// Every seed of the game: 2 * houses * seeds.
  int total_seeds() const { return 2 * houses_ * seeds_; }
  std::string name() const;  // "kalah(6,4)" or "kalah(6,4,empty-capture)"

  State start() const;

  /// Seeds still in houses: the most either side can still gain.
  int seeds_in_play(const State& state) const;
  /// The game has ended: one side's houses are all empty.
  bool is_terminal(const State& state) const;
  /// The final margin for the side to move of an ended game: each side takes its own houses.
  int terminal_score(const State& state) const;

  MoveList legal_moves(const State& state) const;
  Played play(const State& state, Move move) const;
  /// How promising a move looks, cheaply (higher first): another turn, then the largest
  /// capture, then a move that banks a seed.
  int move_order(const State& state, Move move) const;

  /// A number that identifies the houses exactly: the rank of the seed counts in the
  /// combinatorial number system, so no two states share one (checked by the constructor to
  /// fit in 62 bits for every state of the variant).
  std::uint64_t key(const State& state) const;

  /// The number of states with exactly `seeds` seeds in houses, and the rank of one of them
  /// among those (0-based, dense): the endgame database's index.
  std::uint64_t level_size(int seeds) const;
  std::uint64_t level_rank(const State& state) const;
  /// The state of rank `rank` among those with `seeds` seeds (the inverse of level_rank).
  State level_unrank(int seeds, std::uint64_t rank) const;
  /// The state of the next rank in the same level (the last one has none: not to be called).
  void level_next(State& state) const;

 private:
  int houses_;
  int seeds_;
  CaptureRule rule_;
};

}  // namespace rastros::kalah
