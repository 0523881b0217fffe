#pragma once
// How much a strong database build (`rastros solve --db`) needs, estimated before any work: so
// that a build which would run out of memory after hours is refused up front, and --memory can
// be checked against it.

#include "rastros/board.hpp"

namespace rastros {

/// Peak memory of a strong build per stored position: the retrograde solver's 16-byte entries
/// and merged layers, then the solved table (19 bytes) and its copy as a Database (19 more) side
/// by side, and the compressed file image. Measured peak resident memory (2 threads, less the
/// process's 6 MB at rest): 85 bytes per position on 5x5 (476k positions), 78 on 6x4 and 7x4
/// (491k, 4.4M), 51 on 6x5 (25M), 44 on 4x8 (41M).
inline constexpr double kStrongPeakBytesPerPosition = 90;

/// The process itself, its libraries and TBB's threads; on small boards the whole peak is below
/// this (10 MB for 5x4's 49k positions).
inline constexpr double kStrongFixedBytes = 16.0 * 1024 * 1024;

/// Positions reachable from the start with king steps, fitted over the measured counts as an
/// upper bound for boards with at least 4 files and ranks: log2(count) <= 15.68 + 0.9 (n - 20)
/// for n squares up to 30 (5x4 49k, 6x4 491k, 7x4 4.4M, 6x5 25.3M: each under the line by 6% to
/// 1.7x), then doubling per square (4x8 41M, estimated 107M), and halved on square boards by the
/// diagonal symmetry (5x5 476k, estimated 594k). Narrower boards have far fewer (9x3 213k,
/// estimated 4.1M). Smaller boards are covered by kStrongFixedBytes.
double estimated_strong_positions(const Board& board);

/// The peak memory of a strong build of `board` on one machine, in bytes.
double estimated_strong_bytes(const Board& board);

}  // namespace rastros
