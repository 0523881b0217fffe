#include "db/database_query.hpp"

#include <algorithm>

#include "db/strong_database.hpp"
#include "search/analysis.hpp"

namespace rastros {

DatabaseQuery::DatabaseQuery(const Database& database)
    : database_(&database),
      header_(database.header()),
      game_(game_of(header_)),
      canonicalizer_(game_.board()) {}

DatabaseQuery::DatabaseQuery(const DatabaseReader& database)
    : reader_(&database),
      header_(database.header()),
      game_(game_of(header_)),
      canonicalizer_(game_.board()) {}

std::optional<DatabaseRecord> DatabaseQuery::find(const PackedPosition& key) const {
  if (reader_) return reader_->find(key);
  const DatabaseRecord* record = database_->find(key);
  if (record == nullptr) return std::nullopt;
  return *record;
}

std::optional<Outcome> DatabaseQuery::lookup(const Position& position) const {
  const bool values_only = header_.kind == DatabaseKind::proof;
  if (const std::optional<Value> ended = game_.terminal_value(position)) {
    // A proof database's outcomes carry no remoteness, the rules' included, so that children
    // compare with each other and with the position's own record.
    if (values_only) return Outcome{*ended, std::nullopt};
    return ended_outcome(*ended);
  }
  const std::optional<DatabaseRecord> record = find(canonicalizer_.pack(position));
  if (!record) return std::nullopt;
  // A proof database stores values only.
  if (values_only) return Outcome{record->value, std::nullopt};
  return stored_outcome(record->value, record->remoteness);
}

std::optional<DatabaseAnswer> DatabaseQuery::answer(const Position& position) const {
  DatabaseAnswer answer;
  const std::optional<Outcome> own = lookup(position);
  if (!own) return std::nullopt;
  answer.outcome = *own;
  if (game_.has_ended(position)) return answer;

  bool complete = true;
  for (Square move : game_.legal_moves(position)) {
    const std::optional<Outcome> child = lookup(game_.play(position, move));
    if (!child) {
      complete = false;
      continue;
    }
    answer.children.push_back({move, outcome_of_move(*child)});
  }
  if (!complete) {
    // A strategy or proof database keeps only the stored move's child of a position the side
    // to move wins, so there the answer is the position's own record: its best move, mapped out of
    // the key's frame, and the children it happens to know. Anywhere else a missing child means the
    // database cannot answer.
    if (header_.kind == DatabaseKind::strong || own->value != Value::win) {
      return std::nullopt;
    }
    const std::optional<DatabaseRecord> record = find(canonicalizer_.pack(position));
    if (!record || record->best_move == DatabaseRecord::kNoMove) return std::nullopt;
    const Square best = canonicalizer_.from_key_frame(position, record->best_move);
    if (!game_.is_legal(position, best)) return std::nullopt;
    answer.best_moves.push_back(best);
    return answer;
  }
  // The position's own record and its best child must agree; the children are what the user
  // can play, so best moves are read from them (no mapping of the stored move out of the key's
  // rotated or reflected frame).
  for (const MoveOutcome& child : answer.children) {
    // (A move that leaves the opponent stuck under stuck-draw draws in 1; the drawn position's
    // own record has no remoteness: equally good.)
    if (equally_good(child.outcome, answer.outcome)) answer.best_moves.push_back(child.move);
  }
  return answer;
}

SquareMask moves_to_search(const DatabaseAnswer& answer, const Rastros& game,
                           const Position& position, DatabaseKind kind) {
  SquareMask moves = 0;
  if (kind == DatabaseKind::strategy) {
    moves = game.move_mask(position);
  } else if (kind == DatabaseKind::proof) {
    for (Square move : answer.best_moves) moves |= bit(move);
  }
  for (const MoveOutcome& child : answer.children) moves &= ~bit(child.move);
  return moves;
}

void complete_by_search(DatabaseAnswer& answer, const Rastros& game, const Position& position,
                        SquareMask moves, Solver& solver) {
  if (!moves) return;
  for (Square move : SquareSet(moves)) {
    answer.children.push_back({move, outcome_of_move(solver.solve(game.play(position, move)))});
  }
  std::sort(answer.children.begin(), answer.children.end(),
            [](const MoveOutcome& a, const MoveOutcome& b) { return a.move < b.move; });
  Analysis settled{answer.outcome, {}, answer.children, 0};
  settle_from_children(settled);
  answer.outcome = settled.outcome;
  answer.best_moves = settled.best_moves;
}

}  // namespace rastros
