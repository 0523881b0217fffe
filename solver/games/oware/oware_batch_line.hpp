#pragma once
// One line of an Oware batch file (`rastros batch --game oware`): the mancala batch line
// (games/mancala/mancala_batch_line.hpp), `--houses M --seeds N` then moves or a position
// string, as `solve --game oware` takes them.

#include <string_view>

#include "batch/score_batch_line.hpp"
#include "games/oware/oware_input.hpp"

namespace rastros::oware {

using OwareBatchLine = ScoreBatchLine<OwareInput>;

/// Parses one line (without its newline) over the batch's default variant. Never throws.
OwareBatchLine parse_oware_batch_line(std::string_view text, int houses, int seeds);

}  // namespace rastros::oware
