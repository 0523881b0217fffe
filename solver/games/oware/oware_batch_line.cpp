#include "games/oware/oware_batch_line.hpp"

#include "games/mancala/mancala_batch_line.hpp"

namespace rastros::oware {

OwareBatchLine parse_oware_batch_line(std::string_view text, int houses, int seeds) {
  return parse_score_batch_line<OwareInput>(text, [&](std::string_view line) {
    const auto read = mancala::read_mancala_batch_line(line, houses, seeds);
    return resolve_oware_input(read.houses, read.seeds, read.moves, read.position);
  });
}

}  // namespace rastros::oware
