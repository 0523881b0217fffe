#pragma once
// `rastros map --svg`: a start-square map as a picture: each square coloured by the value for
// player 1 moving first from it, with the remoteness written in it, the goals marked.

#include <string>
#include <vector>

#include "rastros/rastros.hpp"
#include "search/start_map.hpp"

namespace rastros::report {

/// One SVG document of the map of `rastros`'s board; `results` holds one entry per start
/// square solved (squares without one, and those over budget, are drawn as unknown).
std::string map_svg(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
                    bool value_only);

}  // namespace rastros::report
