#pragma once
// Answering positions from a loaded database: the value of any position (any frame, either
// side to move) and of every legal move from it, without searching.
//
// Records are keyed by canonical keys (rastros/canonical.hpp), which fold in the 180-degree
// rotation and, on square boards, the diagonal reflection, so a stored best move is a square in
// the key's frame, not necessarily in the user's. Rather than map it back, a query looks up
// every child in the user's own frame: that gives each move's value and remoteness, and the
// best moves are simply the children that achieve the position's score. Children whose game has
// ended (a goal entered, the next player stuck) are never stored; the rules value them.

#include <optional>
#include <vector>

#include "core/value.hpp"
#include "db/database_file.hpp"
#include "db/database_reader.hpp"
#include "rastros/canonical.hpp"
#include "rastros/rastros.hpp"
#include "search/solver.hpp"

namespace rastros {

/// The full answer for one position, shaped like the live solver's Analysis.
struct DatabaseAnswer {
  Outcome outcome;                    // for the side to move
  std::vector<Square> best_moves;     // every move achieving it (empty once the game ended)
  std::vector<MoveOutcome> children;  // every legal move, in square order
};

/// The moves of `position` worth searching to complete `answer` (DatabaseQuery::answer, from a
/// database of `kind`), none of them listed in it. A strategy or proof database holds, at a
/// position the side to move wins, the stored move's outcome only, and a proof database leaves
/// that out too when it leads into a small endgame. So: in a strategy database every move the
/// answer lacks; in a proof database the stored move when it is missing (a small endgame; the
/// other moves of its boards, 8x8, are too big to search on demand); in a strong one none.
SquareMask moves_to_search(const DatabaseAnswer& answer, const Rastros& game,
                           const Position& position, DatabaseKind kind);

/// Adds to `answer` the outcome of each of `moves` (from moves_to_search), solved by `solver`
/// (which must play `game`; value-only for a proof database, whose outcomes have no remoteness),
/// then settles the outcome and best moves again from the moves now listed.
void complete_by_search(DatabaseAnswer& answer, const Rastros& game, const Position& position,
                        SquareMask moves, Solver& solver);

/// Answers queries against one database, in memory or read a block at a time from its file.
/// Holds a reference: `database` must outlive it. Lookups in a DatabaseReader throw FileError
/// when a block they read is damaged.
class DatabaseQuery {
 public:
  /// Throws FileError when the header describes a game this build cannot play.
  explicit DatabaseQuery(const Database& database);
  explicit DatabaseQuery(const DatabaseReader& database);

  const Rastros& game() const { return game_; }
  const DatabaseHeader& header() const { return header_; }

  /// The stored outcome of a position that has not ended, or nothing when the database lacks
  /// its key. An ended position is valued by the rules. A proof database's outcomes have no
  /// remoteness.
  std::optional<Outcome> lookup(const Position& position) const;

  /// The position's outcome, every move's outcome and the best moves; nothing when the
  /// position or one of its unfinished children is not in the database. (A strong database
  /// holds every position reachable from its own start, so positions from other starts are
  /// usually missing; a proof database leaves out small endgames.) Exception: in a strategy or
  /// proof database a stored position the side to move
  /// wins is answered from its own record even when some children are missing; its best moves
  /// are then the stored move alone (in the position's frame) and `children` lists only the
  /// moves whose outcome the database knows.
  std::optional<DatabaseAnswer> answer(const Position& position) const;

 private:
  std::optional<DatabaseRecord> find(const PackedPosition& key) const;

  const Database* database_ = nullptr;
  const DatabaseReader* reader_ = nullptr;
  DatabaseHeader header_;
  Rastros game_;
  Canonicalizer canonicalizer_;
};

}  // namespace rastros
