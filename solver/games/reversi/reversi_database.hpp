#pragma once
// The strong database of Reversi 4×4: every position reachable from the start (passes
// included), each with its exact final margin for the side to move
// (engine/score_database.hpp). A state is seen from the side to move, so a position and its
// colour-swapped twin with the other side to move share one record. Larger boards are out of
// reach: their reachable positions are far more than memory holds.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/score_database.hpp"
#include "engine/score_database_file.hpp"
#include "games/reversi/reversi_analysis.hpp"

namespace rastros::reversi {

/// The one board a strong database is built for.
inline constexpr int kDatabaseBoard = 4;

/// Builds the database of `game`'s board. Throws InputError for a board other than 4×4.
engine::ScoreRecords build_reversi_database(
    const Reversi& game, const std::function<void(std::uint64_t)>& progress = {});

void save_reversi_database(const std::filesystem::path& path, const Reversi& game,
                           const engine::ScoreRecords& records);
/// Throws FileError for a missing, damaged or foreign file (another game, another board).
engine::ScoreRecords load_reversi_database(const std::filesystem::path& path, const Reversi& game);
/// The file opened for queries: its header and index read, its blocks read as they are asked
/// for. Throws FileError as load_reversi_database does for what the header and index show.
engine::ScoreDatabaseReader open_reversi_database(const std::filesystem::path& path,
                                                  const Reversi& game);

/// The position's value, score and every move's score from the records, as solve_position
/// gives them; nothing when the records do not hold it (a position not reachable from the
/// start).
std::optional<ReversiResult> query_reversi_database(const Reversi& game,
                                                    const engine::ScoreLookup& records,
                                                    const ReversiPosition& position,
                                                    bool root_only);

/// Every reachable position's record recomputed from its moves' records and the rules; the
/// first problem found, or nothing.
std::optional<std::string> verify_reversi_database(const Reversi& game,
                                                   const engine::ScoreRecords& records);

/// Positions by empty squares (the group) and by score, ascending.
std::vector<engine::ScoreCounts> count_reversi_database(const Reversi& game,
                                                        const engine::ScoreRecords& records);

}  // namespace rastros::reversi
