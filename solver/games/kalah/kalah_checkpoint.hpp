#pragma once
// Checkpoints of long Kalah solves (`solve --game kalah --checkpoint DIR`): what the solve has
// settled (KalahSolveProgress) in DIR/solve.checkpoint, a checked text file
// (core/checkpoint_file.hpp), rewritten atomically after every step; and the endgame database
// the solve built, in DIR/endgame.kdb, so that a resumed solve does not build it again.

#include <filesystem>
#include <optional>

#include "games/kalah/kalah_analysis.hpp"

namespace rastros::kalah {

std::filesystem::path solve_checkpoint_path(const std::filesystem::path& directory);
std::filesystem::path endgame_checkpoint_path(const std::filesystem::path& directory);

void save_solve_checkpoint(const std::filesystem::path& directory, const Kalah& game,
                           const KalahPosition& position, bool root_only,
                           const KalahSolveProgress& progress);

/// The progress saved in `directory`, or nothing when it holds none. Throws FileError when the
/// checkpoint is damaged or belongs to another variant, position or mode.
std::optional<KalahSolveProgress> load_solve_checkpoint(const std::filesystem::path& directory,
                                                        const Kalah& game,
                                                        const KalahPosition& position,
                                                        bool root_only);

}  // namespace rastros::kalah
