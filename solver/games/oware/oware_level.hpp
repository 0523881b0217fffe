#pragma once
// One level of Oware's endgame databases (the boards with the same seeds on the board) as a
// graph for oware_level_solver.hpp, held two ways:
// - level_graph(): every move's target stored, then the reverse edges built: up to 8·M + 13
//   bytes a board while the level is solved (stored_bytes_per_board);
// - solve_generated_level(): nothing of the edges stored. Each board keeps its best exit and
//   its number of moves that stay in the level (2 bytes); the attractors find a board's
//   parents when they need them by un-sowing (for_each_unmove), and the attractors' own
//   counters take 2 more and the value 1: 5 bytes a board, and the frontiers of the attractors'
//   rounds (about 8.5 in all on 6 houses at 22 seeds), so memory no longer bounds the levels
//   before time does; the price is un-sowing each board once per threshold it is decided at.
// Both give the same values: the tests compare them level by level.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "games/oware/oware.hpp"
#include "games/oware/oware_level_solver.hpp"

namespace rastros::oware {

/// Levels 0..s-1 of a database, by rank: what level s needs.
using LowerLevels = std::vector<std::vector<std::int8_t>>;

/// Level `seeds`'s graph in memory: captures are exits valued from `lower`, the other moves
/// children. Throws InputError for a level of 2^32 boards or more.
LevelGraph level_graph(const Oware& game, int seeds, const LowerLevels& lower);

/// The boards [first, last) of level `seeds`: each one's best exit (kNoExit when every move
/// stays in the level) and its number of moves that stay, at [rank - first]. Throws InputError
/// as level_graph does.
void level_exits(const Oware& game, int seeds, const LowerLevels& lower, std::uint64_t first,
                 std::uint64_t last, std::int8_t* best_exit, std::uint8_t* child_count);

/// Bytes a board takes at most while its level is solved with its graph stored: each move's
/// target (4 a move), best exit and move count (2), the reverse edges (8 and 4 a move), the
/// attractors' counters (2) and the value (1).
constexpr std::uint64_t stored_bytes_per_board(int houses) {
  return 8 * static_cast<std::uint64_t>(houses) + 13;
}
/// The memory a level's graph may take stored before its edges are generated instead.
inline constexpr std::uint64_t kDefaultLevelMemory = std::uint64_t{8} << 30;

/// Whether level `seeds` solved with its graph stored takes at most `memory` bytes.
bool level_graph_fits(const Oware& game, int seeds, std::uint64_t memory);

/// The level's values (and distances): with its graph stored when that fits in `memory`
/// (faster), else with its edges generated (slower, about 5 bytes a board).
std::vector<std::int8_t> solve_level_within(const Oware& game, int seeds, const LowerLevels& lower,
                                            std::uint64_t memory,
                                            std::vector<std::uint16_t>* distances = nullptr,
                                            const LevelProgress& progress = {});

/// The values (and with `distances`, the distances to exit) that solve_level gives on
/// level_graph(game, seeds, lower), with the edges generated as they are needed.
std::vector<std::int8_t> solve_generated_level(const Oware& game, int seeds,
                                               const LowerLevels& lower,
                                               std::vector<std::uint16_t>* distances = nullptr,
                                               const LevelProgress& progress = {});

/// f(parent) once for each move from a board `parent` to `child` (seen from its side to move)
/// that is legal and captures nothing, so stays in child's level: the sowing undone.
template <class F>
void for_each_unmove(const Oware& game, const OwareState& child, F f) {
  const int m = std::min(game.houses(), kMaxHouses);  // bounded for the compiler
  const int ring = 2 * m;
  // The board just after the move, seen from the side that made it (its houses first).
  OwareState after;
  for (int i = 0; i < m; ++i) {
    after.houses[i] = child.houses[m + i];
    after.houses[m + i] = child.houses[i];
  }
  for (int h = 0; h < m; ++h) {
    if (after.houses[h] != 0) continue;  // a move empties its house, which no lap refills
    // s seeds sown from h put one in each of the first s houses after h (h skipped, lapping):
    // undoing one more seed takes it back from the next of those houses.
    OwareState before = after;
    int opponent_seeds = 0;
    for (int i = m; i < ring; ++i) opponent_seeds += after.houses[i];
    int at = h;
    for (int s = 1;; ++s) {
      at = at + 1 == ring ? 0 : at + 1;
      if (at == h) at = at + 1 == ring ? 0 : at + 1;
      if (before.houses[at] == 0) break;  // and so for every larger s
      --before.houses[at];
      if (at >= m) --opponent_seeds;
      before.houses[h] = static_cast<std::uint8_t>(s);
      // Rule 5: with the opponent's row empty only a move that reaches it is legal.
      if (opponent_seeds == 0 && s < m - h) continue;
      if (game.play(before, static_cast<OwareMove>(h)).gain == 0) f(before);
    }
  }
}

}  // namespace rastros::oware
