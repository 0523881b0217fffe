#pragma once
// The keys every score game's solved position shares in JSON (`solve --json`, batch lines):
// value, winner, score, and unless root-only, best_moves and children.

#include "core/value.hpp"
#include "json.hpp"

namespace rastros::tools {

/// Sets value, winner (1 or 2; null for a draw), score (when known) and, unless `root_only`,
/// best_moves and children ({"move", "value", "score"}) on `out`. `to_move` is 0 or 1; a
/// Result has value, optional score, best_moves and children of {move, value, optional score}.
template <class Result, class MoveName>
void set_score_result(Json& out, const Result& result, int to_move, bool root_only,
                      const MoveName& move_name) {
  out.set("value", to_string(result.value))
      .set("winner", result.value == Value::draw
                         ? Json(nullptr)
                         : Json((result.value == Value::win ? to_move : 1 - to_move) + 1));
  if (result.score) out.set("score", *result.score);
  if (root_only) return;
  Json best = Json::array();
  for (const auto move : result.best_moves) best.push(move_name(move));
  Json children = Json::array();
  for (const auto& child : result.children) {
    Json entry = Json::object();
    entry.set("move", move_name(child.move)).set("value", to_string(child.value));
    if (child.score) entry.set("score", *child.score);
    children.push(entry);
  }
  out.set("best_moves", best).set("children", children);
}

}  // namespace rastros::tools
