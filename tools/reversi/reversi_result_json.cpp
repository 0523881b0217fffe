#include "reversi/reversi_result_json.hpp"

#include "score_result_json.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

Json result_json(const ReversiReport& report) {
  const ReversiResult& result = report.result;
  const int to_move = report.input.position.to_move;
  Json out = position_json(report.input);
  set_score_result(out, result, to_move, report.root_only,
                   [](ReversiMove move) { return move_name(move); });
  if (report.timing) out.set("nodes", report.nodes).set("seconds", report.seconds);
  return out;
}

}  // namespace rastros::tools::reversi_cli
