#pragma once
// Strong databases: every position reachable from a start, solved by retrograde analysis
// (retro/strong_solver.hpp) and held in the .rdb format (db/database_file.hpp).

#include <functional>
#include <string>

#include "db/database_file.hpp"
#include "retro/strong_solver.hpp"

namespace rastros {

/// The header describing `rastros` for a database of `kind`.
DatabaseHeader header_for(const Rastros& rastros, DatabaseKind kind);

/// A solved strong table as a strong database (same keys, same records). The table's keys move
/// into the database rather than being copied: 16 bytes a position less at the peak.
Database to_database(const Rastros& rastros, StrongTable table);

/// Solves every position reachable from the start of `rastros` and returns the database.
Database build_strong_database(const Rastros& rastros,
                               const std::function<void(const std::string&)>& progress = {},
                               const StrongSolveControl& control = {});

/// The game a database's header describes. Throws FileError when the header names a board,
/// start or rule set this build cannot play.
Rastros game_of(const DatabaseHeader& header);

}  // namespace rastros
