#pragma once
// Strong databases of small Congkak variants: every position reachable from the start of
// Congkak(M, N), each with its exact score, what the side to move gains from there on
// (engine/score_database.hpp; the stores banked before are not part of a state, so positions
// that differ only in their stores share one record). A variant whose reachable positions do
// not fit in memory is refused.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/score_database.hpp"
#include "engine/score_database_file.hpp"
#include "games/congkak/congkak_analysis.hpp"

namespace rastros::congkak {

/// The strong database of every position reachable from the start. Throws InputError as soon
/// as the walk would need more than `memory_bytes` (engine::kWalkBytesPerState a position).
engine::ScoreRecords build_congkak_database(
    const Congkak& game, const std::function<void(std::uint64_t)>& progress = {},
    std::uint64_t memory_bytes = engine::kDefaultWalkBytes);

void save_congkak_database(const std::filesystem::path& path, const Congkak& game,
                           const engine::ScoreRecords& records);
/// Throws FileError for a missing, damaged or foreign file (another game, another variant).
engine::ScoreRecords load_congkak_database(const std::filesystem::path& path, const Congkak& game);
/// The file opened for queries: its header and index read, its blocks read as they are asked
/// for. Throws FileError as load_congkak_database does for what the header and index show.
engine::ScoreDatabaseReader open_congkak_database(const std::filesystem::path& path,
                                                  const Congkak& game);

/// The position's value, final score and every move's score (stores included, as the solver
/// gives them); nothing when the records do not hold it.
std::optional<CongkakResult> query_congkak_database(const Congkak& game,
                                                    const engine::ScoreLookup& records,
                                                    const CongkakPosition& position,
                                                    bool root_only);

/// Every reachable position's record recomputed from its moves' records and the rules.
std::optional<std::string> verify_congkak_database(const Congkak& game,
                                                   const engine::ScoreRecords& records);

/// Positions by seeds left in the houses and by score: one entry a seed count, ascending.
std::vector<engine::ScoreCounts> count_congkak_database(const Congkak& game,
                                                        const engine::ScoreRecords& records);

}  // namespace rastros::congkak
