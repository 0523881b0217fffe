#include "congkak/congkak_trace.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

std::string pit_name(const Congkak& game, const CongkakPit& pit) {
  const std::string player = "player " + std::to_string(pit.player + 1) + "'s ";
  if (pit.house == game.houses()) return player + "store";
  return player + "house " + std::to_string(pit.house + 1);
}

std::string trace_text(const Congkak& game, const CongkakSowing& sowing) {
  std::string text;
  for (std::size_t i = 0; i < sowing.laps.size(); ++i) {
    const CongkakLap& lap = sowing.laps[i];
    text += "  lap " + std::to_string(i + 1) + ": " + pit_name(game, lap.start) + ", " +
            std::to_string(lap.seeds) + (lap.seeds == 1 ? " seed" : " seeds") + ", to " +
            pit_name(game, lap.end);
    if (i + 1 < sowing.laps.size()) {
      text += " (not empty: relay)";
    } else if (sowing.again) {
      text += ": player " + std::to_string(sowing.mover + 1) + " moves again";
    } else if (sowing.capture) {
      text += " (empty): captures " + std::to_string(sowing.capture->seeds) + " with " +
              pit_name(game, sowing.capture->opposite);
    } else {
      text += " (empty): the turn ends";
    }
    text += "\n";
  }
  return text;
}

Json trace_json(const Congkak& game, const CongkakSowing& sowing) {
  Json laps = Json::array();
  for (const CongkakLap& lap : sowing.laps) {
    Json entry = Json::object();
    entry.set("start", pit_name(game, lap.start))
        .set("seeds", lap.seeds)
        .set("end", pit_name(game, lap.end));
    laps.push(entry);
  }
  Json out = Json::object();
  out.set("move", mancala::move_name(sowing.move))
      .set("player", sowing.mover + 1)
      .set("laps", laps)
      .set("again", sowing.again)
      .set("capture", sowing.capture ? Json(sowing.capture->seeds) : Json(nullptr));
  return out;
}

}  // namespace rastros::tools::congkak_cli
