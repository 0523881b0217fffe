#pragma once
// The JSON of a solved Reversi position: `solve --game reversi --json`, and each line of
// `batch --game reversi`.

#include <cstdint>

#include "games/reversi/reversi_analysis.hpp"
#include "json.hpp"
#include "reversi/reversi_options.hpp"

namespace rastros::tools::reversi_cli {

struct ReversiReport {
  const ReversiInput& input;
  const reversi::ReversiResult& result;
  bool root_only = false;
  std::uint64_t nodes = 0;
  double seconds = 0;
  /// "nodes" and "seconds", which describe the run rather than the position (batch output
  /// leaves them out unless asked, so that reruns give identical files).
  bool timing = true;
};

/// The board, the position, the value, score, best moves and every move's score; the nodes
/// searched when `timing`: `solve --game reversi` without --json.
void print_result_text(const ReversiReport& report);

/// The position's keys, then value, winner, score, best_moves, children, nodes, seconds.
Json result_json(const ReversiReport& report);

}  // namespace rastros::tools::reversi_cli
