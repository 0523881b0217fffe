#pragma once
// The output of `rastros map` (the grid text or the design's JSON), shared with the commands
// that produce maps elsewhere (batch jobs, the MPI map, the web server).

#include <string>
#include <vector>

#include "json.hpp"
#include "search/start_map.hpp"

namespace rastros::tools {

/// {"board", "rules", "steps", "squares": {"a2": {"value", "remoteness"}, ...}}.
Json map_json(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
              bool value_only);

/// The header lines and the grid in board orientation (top rank first, goals marked).
std::string map_text(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
                     bool value_only);

}  // namespace rastros::tools
