#pragma once
#include <optional>
// `rastros batch --game congkak|oware|reversi` (tools/score_batch_command.hpp is what they
// share with Kalah's): each game's line parser and solve, and its options.

#include "commands.hpp"
#include "score_batch_command.hpp"

namespace rastros::tools {

namespace congkak_cli {
int run_batch(const Arguments& arguments);

/// What shapes a Congkak batch's answers.
struct CongkakBatchSettings {
  int houses = 7;
  int seeds = 7;
  std::size_t table_bytes = std::size_t{64} << 20;
  bool value_only = false;
  bool root_only = false;
  bool timing = false;
  std::optional<int> endgame_seeds;  // --endgame-seeds: nothing for the default K
};
/// Each line's answer: the keys of `solve --game congkak --json` after "line".
ScoreBatchAnswer batch_answer(const CongkakBatchSettings& settings);
}  // namespace congkak_cli

namespace oware_cli {
int run_batch(const Arguments& arguments);
}  // namespace oware_cli

namespace reversi_cli {
int run_batch(const Arguments& arguments);
}  // namespace reversi_cli

}  // namespace rastros::tools
