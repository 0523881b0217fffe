#pragma once
// The endgame-database options of the `--game oware` commands: --endgame FILE (a database
// written by `solve --game oware --db FILE`) or --endgame-seeds K (built in memory), the
// search budget beyond it, and the build itself (`solve --db FILE`, with --checkpoint DIR and
// --resume). (The Oware twin of tools/kalah/kalah_endgame_options.hpp.)

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "games/oware/oware_database.hpp"
#include "oware/oware_options.hpp"

namespace rastros::tools::oware_cli {

struct EndgameOptions {
  std::optional<std::string> file;
  std::optional<int> seeds;
  std::uint64_t max_positions = 2'000'000;
};

void add_endgame_options(po::options_description& description, EndgameOptions& options);

/// The database a solve rests on: the file given, or one built in memory up to --endgame-seeds
/// (by default the most seeds whose database has at most a million positions, built silently).
std::shared_ptr<const oware::OwareDatabase> database_for_solve(const oware::Oware& game,
                                                               const EndgameOptions& options,
                                                               bool quiet);
/// The same from --endgame and --endgame-seeds alone (the server's options).
std::shared_ptr<const oware::OwareDatabase> database_for_solve(
    const oware::Oware& game, const std::optional<std::string>& file, std::optional<int> seeds,
    bool quiet);

/// What `solve --db FILE` takes beyond the endgame options.
struct WriteOptions {
  std::string file;
  std::string checkpoint;
  bool resume = false;
  std::string level_memory = std::to_string(oware::kDefaultLevelMemory >> 30) + "G";
  std::string scratch;
};
/// Adds --db, --checkpoint, --resume, --level-memory and --scratch.
void add_write_options(po::options_description& description, WriteOptions& options);

/// `solve --db FILE`: builds the database up to --endgame-seeds and writes it; prints a
/// summary. Returns the exit status.
int write_database(const oware::Oware& game, const EndgameOptions& endgame,
                   const WriteOptions& write, bool quiet, bool json);

}  // namespace rastros::tools::oware_cli
