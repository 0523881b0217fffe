#pragma once
// What stepping into a goal pocket is worth to each player (rastros/goal_pockets.hpp), kept
// for the pockets the search has valued: a pocket stays the same while the snail moves about
// the rest of the region, so the children of many nodes ask for the same one.
//
// Exact, unlike the move memory: a wrong value would give a position a wrong key. Each slot is
// two 64-bit words written with relaxed atomics, as in the transposition table:
//   word 0   the pocket's squares XOR word 1
//   word 1   bits 0-7 the gateway, bit 8 player 1 wins stepping in, bit 9 player 2 does,
//            bit 10 slot in use
// A reader accepts a slot only when word 0 XOR word 1 gives back the pocket's squares and the
// gateway matches, so a slot torn by two writers reads as a miss. A new pocket overwrites
// whatever its slot held.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

#include "rastros/board.hpp"
#include "rastros/goal_pockets.hpp"
#include "rastros/position.hpp"
#include "search/zeroed_memory.hpp"

namespace rastros {

class GoalPocketValues {
 public:
  /// 2^slot_bits slots of 16 bytes; none (every find a miss) with 0, for searches that do not
  /// use goal pockets. 2^16 (1 MiB) suits 7x7, whose value-only analysis values about 40 K
  /// pockets; smaller boards, whose solvers `rastros serve` builds one per request, take
  /// 2^12 (slot_bits_for).
  explicit GoalPocketValues(int slot_bits)
      : shift_(64 - slot_bits),
        memory_(slot_bits ? ZeroedMemory::for_small_table(sizeof(Slot) << slot_bits)
                          : ZeroedMemory()) {
    // Empty slots, constructed in place: the memory is zero already, this makes them atomics.
    if (slots()) std::uninitialized_value_construct_n(slots(), std::size_t{1} << slot_bits);
  }
  static int slot_bits_for(const Board& board) { return board.square_count() >= 42 ? 16 : 12; }

  std::optional<GoalPocketValue> find(const GoalPocket& pocket) const {
    if (!slots()) return std::nullopt;
    const Slot& slot = slots()[index_of(pocket)];
    const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
    const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
    if (!(data & kInUse) || (check ^ data) != pocket.part ||
        (data & 0xff) != static_cast<std::uint64_t>(pocket.gateway)) {
      return std::nullopt;
    }
    return GoalPocketValue{(data & kPlayerOneWins) != 0, (data & kPlayerTwoWins) != 0};
  }

  void store(const GoalPocket& pocket, const GoalPocketValue& value) {
    if (!slots()) return;
    Slot& slot = slots()[index_of(pocket)];
    const std::uint64_t data = static_cast<std::uint64_t>(pocket.gateway) | kInUse |
                               (value.player_one_wins_entering ? kPlayerOneWins : 0) |
                               (value.player_two_wins_entering ? kPlayerTwoWins : 0);
    slot.data.store(data, std::memory_order_relaxed);
    slot.check.store(pocket.part ^ data, std::memory_order_relaxed);
  }

 private:
  static constexpr std::uint64_t kPlayerOneWins = 1 << 8;
  static constexpr std::uint64_t kPlayerTwoWins = 1 << 9;
  static constexpr std::uint64_t kInUse = 1 << 10;
  struct Slot {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  std::size_t index_of(const GoalPocket& pocket) const {
    const std::uint64_t hash =
        (pocket.part ^ static_cast<std::uint64_t>(pocket.gateway) << 57) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(hash >> shift_);
  }
  /// Null without slots.
  Slot* slots() const { return static_cast<Slot*>(memory_.data()); }
  int shift_;
  ZeroedMemory memory_;  // the slots; every one starts empty
};

}  // namespace rastros
