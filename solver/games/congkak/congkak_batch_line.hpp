#pragma once
// One line of a Congkak batch file (`rastros batch --game congkak`): the mancala batch line
// (games/mancala/mancala_batch_line.hpp), `--houses M --seeds N` then moves or a position
// string, as `solve --game congkak` takes them.

#include <string_view>

#include "batch/score_batch_line.hpp"
#include "games/congkak/congkak_position.hpp"

namespace rastros::congkak {

using CongkakBatchLine = ScoreBatchLine<CongkakInput>;

/// Parses one line (without its newline) over the batch's default variant. Never throws.
CongkakBatchLine parse_congkak_batch_line(std::string_view text, int houses, int seeds);

}  // namespace rastros::congkak
