#include "reversi/reversi_result_json.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

Json result_json(const ReversiReport& report) {
  const ReversiResult& result = report.result;
  const int to_move = report.input.position.to_move;
  Json out = position_json(report.input);
  out.set("value", to_string(result.value))
      .set("winner", result.value == Value::draw
                         ? Json(nullptr)
                         : Json((result.value == Value::win ? to_move : 1 - to_move) + 1));
  if (result.score) out.set("score", *result.score);
  if (!report.root_only) {
    Json best = Json::array();
    for (const ReversiMove move : result.best_moves) best.push(move_name(move));
    Json children = Json::array();
    for (const auto& child : result.children) {
      Json entry = Json::object();
      entry.set("move", move_name(child.move)).set("value", to_string(child.value));
      if (child.score) entry.set("score", *child.score);
      children.push(entry);
    }
    out.set("best_moves", best).set("children", children);
  }
  if (report.timing) out.set("nodes", report.nodes).set("seconds", report.seconds);
  return out;
}

}  // namespace rastros::tools::reversi_cli
