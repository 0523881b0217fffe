#pragma once
// Exact scores of Oware positions: from an endgame database when the board holds at most its
// K seeds, otherwise by a search whose leaves are the database. The search gathers every
// position reachable from the given one without falling to K seeds or fewer, and solves them
// level by level (fewer seeds first) with the same cycle-proof
// level solver as the database; it gives up, never guesses, past a budget of positions.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "games/oware/oware.hpp"
#include "games/oware/oware_database.hpp"

namespace rastros::oware {

struct OwareMoveScore {
  OwareMove move = 0;
  int gain = 0;   // seeds the move captures
  int score = 0;  // rule 7's score for the mover: gain minus the next position's score
};

struct OwareAnalysis {
  int score = 0;  // rule 7's score for the side to move
  std::vector<OwareMoveScore> moves;
  /// "database" (answered from the records) or "search" (positions beyond the database solved
  /// with the database's records as leaves).
  std::string source;
  std::uint64_t positions = 0;  // positions the search solved (0 from the database)
};

/// The analysis of `state`, or nothing when the search would need more than `max_positions`
/// positions beyond the database. `database` must have `game`'s houses. With `stop`, throws
/// engine::SearchStopped soon after it is set (from another thread: a server's deadline).
std::optional<OwareAnalysis> analyse(const Oware& game, const OwareDatabase& database,
                                     const OwareState& state, std::uint64_t max_positions,
                                     const std::atomic<bool>* stop = nullptr);

/// The analysis of `state` read from `database` alone (an OwareDatabase in memory or an
/// OwareDatabaseFile read chunk by chunk) when the board holds at most its K seeds (a move
/// never adds seeds, so every move's next position is held too); otherwise nothing.
template <class Database>
std::optional<OwareAnalysis> answer_from_database(const Oware& game, const Database& database,
                                                  const OwareState& state) {
  const auto score = database.probe(game, state);
  if (!score) return std::nullopt;
  OwareAnalysis analysis;
  analysis.score = *score;
  analysis.source = "database";
  for (const OwareMove move : game.legal_moves(state)) {
    const OwarePlayed played = game.play(state, move);
    analysis.moves.push_back({move, played.gain, played.gain - *database.probe(game, played.next)});
  }
  return analysis;
}

}  // namespace rastros::oware
