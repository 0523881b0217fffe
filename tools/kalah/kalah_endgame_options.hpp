#pragma once
// The endgame-database options of the `--game kalah` commands: --endgame FILE (a database
// written by `solve --db`) or --endgame-seeds K (built in memory before the search).

#include <memory>
#include <optional>
#include <string>

#include "games/kalah/kalah_endgame.hpp"
#include "kalah/kalah_options.hpp"

namespace rastros::tools::kalah_cli {

struct EndgameOptions {
  std::optional<std::string> file;
  std::optional<int> seeds;
};

void add_endgame_options(po::options_description& description, EndgameOptions& options);

/// The database a search uses: the file given, or one built in memory up to --endgame-seeds
/// (by default the most seeds whose database builds in well under a second). Null with
/// --endgame-seeds -1.
std::shared_ptr<const kalah::KalahEndgame> endgame_for_search(const kalah::Kalah& game,
                                                              const EndgameOptions& options,
                                                              bool quiet);

/// `solve --db FILE`: builds the database and writes it; prints a summary. Returns the status.
int write_endgame_database(const KalahOptions& options, const EndgameOptions& endgame,
                           const std::string& file, bool quiet, bool json);

}  // namespace rastros::tools::kalah_cli
