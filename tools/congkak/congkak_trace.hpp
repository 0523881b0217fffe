#pragma once
// The lap-by-lap account of Congkak moves (`show --game congkak --trace`), as text and JSON.

#include <string>

#include "games/congkak/congkak_sowing.hpp"
#include "json.hpp"

namespace rastros::tools::congkak_cli {

/// "player 1's house 3" / "player 2's store".
std::string pit_name(const congkak::Congkak& game, const congkak::CongkakPit& pit);
/// One line a lap, then how the move ended:
///   "lap 1: player 1's house 3, 7 seeds, to player 2's house 2 (held seeds: relay)".
std::string trace_text(const congkak::Congkak& game, const congkak::CongkakSowing& sowing);
/// {"move", "player", "laps": [{"start", "seeds", "end"}], "again", "capture"}.
Json trace_json(const congkak::Congkak& game, const congkak::CongkakSowing& sowing);

}  // namespace rastros::tools::congkak_cli
