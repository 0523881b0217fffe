#include "db/database_query.hpp"

#include "db/strong_database.hpp"

namespace rastros {
namespace {

Outcome outcome_of(const DatabaseRecord& record) {
  // Draws are stored with remoteness 0 but carry none (core/value.hpp).
  if (record.value == Value::draw) return {Value::draw, std::nullopt};
  return {record.value, record.remoteness};
}

}  // namespace

DatabaseQuery::DatabaseQuery(const Database& database)
    : database_(database), game_(game_of(database.header())), canonicalizer_(game_.board()) {}

std::optional<Outcome> DatabaseQuery::lookup(const Position& position) const {
  if (const std::optional<Value> ended = game_.terminal_value(position)) {
    if (*ended == Value::draw) return Outcome{Value::draw, std::nullopt};
    return Outcome{*ended, 0};
  }
  const DatabaseRecord* record = database_.find(canonicalizer_.pack(position));
  if (record == nullptr) return std::nullopt;
  return outcome_of(*record);
}

std::optional<DatabaseAnswer> DatabaseQuery::answer(const Position& position) const {
  DatabaseAnswer answer;
  const std::optional<Outcome> own = lookup(position);
  if (!own) return std::nullopt;
  answer.outcome = *own;
  if (game_.has_ended(position)) return answer;

  for (Square move : game_.legal_moves(position)) {
    const std::optional<Outcome> child = lookup(game_.play(position, move));
    if (!child) return std::nullopt;
    MoveOutcome result{move, {negate(child->value), std::nullopt}};
    if (child->remoteness) result.outcome.remoteness = *child->remoteness + 1;
    answer.children.push_back(result);
  }
  // The position's own record and its best child must agree; the children are what the user
  // can play, so best moves are read from them (no mapping of the stored move out of the key's
  // rotated or reflected frame).
  for (const MoveOutcome& child : answer.children) {
    if (child.outcome == answer.outcome) answer.best_moves.push_back(child.move);
  }
  return answer;
}

}  // namespace rastros
