#pragma once
// One level of an Oware endgame database solved over the ranks of an MPI job
// (`mpirun -np K rastros solve --game oware --db FILE --endgame-seeds S`).
//
// The level's boards are split by rank into K equal ranges, one a rank. Each rank holds the
// levels below whole (one byte a board: a capture may lead anywhere in them) and, for its own
// range only, what games/oware/oware_level.hpp's generated level holds: each board's best exit,
// its number of moves staying in the level and the attractors' counters (level_attractor.hpp).
// For each threshold, round by round, a rank un-sows the boards of its range decided in the
// last round and sends each parent found to the parent's owner, one all-to-all exchange a
// round (cluster/word_exchange.hpp); the owner applies what it receives, which decides the
// next round's boards. The rounds end when no rank decided any board. Then every rank gathers
// the whole level, which the next level needs. The values equal the one-process build's,
// board for board: the attractors do not depend on the order of their updates.

#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "games/oware/oware.hpp"
#include "games/oware/oware_level.hpp"

namespace rastros::cluster {

/// Level `seeds` of `game`'s houses from `lower` (levels 0..seeds-1), on every rank of `world`
/// together; every rank returns the whole level. Throws InputError on every rank for a level
/// of 2^31 boards or more (gathered whole through MPI's int counts) and std::length_error when
/// an exchange passes MPI's 2^31 bytes.
std::vector<std::int8_t> solve_level_distributed(const boost::mpi::communicator& world,
                                                 const oware::Oware& game, int seeds,
                                                 const oware::LowerLevels& lower);

/// Checks that every rank of `world` `found` level `seeds` in the checkpoint `directory`, or
/// none did; else throws InputError on every rank (the ranks would solve different levels).
void agree_on_checkpoint_level(const boost::mpi::communicator& world, int seeds, bool found,
                               const std::string& directory);

}  // namespace rastros::cluster
