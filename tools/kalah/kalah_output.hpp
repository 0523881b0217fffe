#pragma once
// The output of `solve --game kalah` (text or JSON), shared with `query --game kalah`, which
// prints the same plus where the answer came from.

#include <cstdint>
#include <optional>
#include <string>

#include "games/kalah/kalah_analysis.hpp"
#include "json.hpp"
#include "kalah/kalah_options.hpp"

namespace rastros::tools::kalah_cli {

struct KalahReport {
  const KalahInput& input;
  const kalah::KalahResult& result;
  bool root_only = false;
  std::uint64_t nodes = 0;
  double seconds = 0;
  int endgame_seeds = -1;  // the endgame database's K, -1 without one
  std::optional<std::string> source;  // "database" or "search" (query only)
  /// "nodes" and "seconds", which describe the run rather than the position (batch output
  /// leaves them out unless asked, so that reruns give identical files).
  bool timing = true;
};

/// "win for player 1 (player 1 wins by 8)".
std::string value_text(Value value, int to_move, std::optional<int> score);
void print_text(const KalahReport& report);
/// The keys of docs/commands.md: the position's, then value, winner, score, best_moves,
/// children, source (query), endgame_seeds, nodes, seconds.
Json result_json(const KalahReport& report);
/// The keys of `show --game kalah --json`: the position's, then legal_moves, ended, and for an
/// ended game score and winner.
Json show_json(const KalahInput& input);

}  // namespace rastros::tools::kalah_cli
