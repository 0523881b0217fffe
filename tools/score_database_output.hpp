#pragma once
// The output of `verify` and `stats` on a strong score database (engine/score_database.hpp),
// the same for every game: `head` holds the game's keys (game and variant), `group` names what
// the stats count by ("empties", "seeds").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/score_database.hpp"
#include "json.hpp"
#include "options.hpp"

namespace rastros::tools {

/// The options every command on a strong database takes: --db FILE (`written_by` says which
/// command writes it), --json and --quiet (accepted for uniformity).
void add_database_options(po::options_description& description, std::string& file, bool& json,
                          const std::string& written_by);

/// Prints verify's verdict ("verify: ok, N positions recomputed" or "verify: FAILED at ...";
/// with `json` one object with "positions", "ok" and "problem"). Returns the exit status:
/// 0 when it passed, 1 otherwise.
int print_database_verify(Json head, std::uint64_t positions,
                          const std::optional<std::string>& problem, bool json);

/// Prints the positions by group and by score: a line a group, or one JSON object with
/// "positions" and "by_GROUP": [{GROUP, "positions", "by_score"}].
void print_database_stats(Json head, const std::string& group, std::uint64_t positions,
                          const std::vector<engine::ScoreCounts>& counts, bool json);

}  // namespace rastros::tools
