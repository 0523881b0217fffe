#include "games/congkak/congkak_batch_line.hpp"

#include "games/mancala/mancala_batch_line.hpp"

namespace rastros::congkak {

CongkakBatchLine parse_congkak_batch_line(std::string_view text, int houses, int seeds) {
  return parse_score_batch_line<CongkakInput>(text, [&](std::string_view line) {
    const auto read = mancala::read_mancala_batch_line(line, houses, seeds);
    return resolve_congkak_input(read.houses, read.seeds, read.moves, read.position);
  });
}

}  // namespace rastros::congkak
