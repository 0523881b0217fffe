#pragma once
// The breadth-first walk that strategy and proof databases share: from the start, ply by ply,
// every position named by an earlier one is expanded exactly once (the positions of one ply in
// parallel) into its stored record and the positions to expand next.
//
// Breadth-first, so a position is first met at its smallest depth from the start: a rule that
// depends on the depth (a strategy database's opening book) is applied to it once, at that
// depth, whatever the order of the threads.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/value.hpp"
#include "db/database_file.hpp"
#include "db/walk_checkpoint.hpp"
#include "rastros/position.hpp"
#include "search/solver.hpp"

namespace rastros {

/// What expanding one position gives: its record, and the positions it names.
struct WalkStep {
  DatabaseRecord record;
  std::vector<WalkNode> next;
};

/// Expands `node`, first met `depth` plies from the start. Called concurrently.
using ExpandPosition = std::function<WalkStep(const WalkNode& node, int depth)>;

/// Called after each ply: its depth, the positions it expanded, the positions stored so far.
using WalkProgress = std::function<void(int depth, std::size_t expanded, std::size_t stored)>;

/// Walks from the positions `roots()` gives and returns every expanded position with its
/// record, in strictly increasing key order, ready for a Database. A key named twice in one ply
/// is expanded once, with one of their values (positions with one key have one value).
/// With `checkpoint` enabled, the roots and each finished ply are saved there, and a walk saved
/// there is continued (roots() is then not called: it may be a long search); see
/// db/walk_checkpoint.hpp for the errors. The result is the same either way.
struct WalkedPositions {
  std::vector<PackedPosition> keys;
  std::vector<DatabaseRecord> records;
};
WalkedPositions walk_breadth_first(const std::function<std::vector<WalkNode>()>& roots,
                                   const ExpandPosition& expand, const WalkProgress& progress = {},
                                   const WalkCheckpoint& checkpoint = {});

/// The builders' line after each ply, "ply D: N positions, S stored, X nodes searched", passed
/// to `progress` (nothing when it is empty); `solver` is the one deciding the positions.
WalkProgress ply_progress_lines(const std::function<void(const std::string&)>& progress,
                                const Solver& solver);

}  // namespace rastros
