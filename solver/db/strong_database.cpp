#include "db/strong_database.hpp"

#include "core/errors.hpp"

namespace rastros {

DatabaseHeader header_for(const Rastros& rastros, DatabaseKind kind) {
  DatabaseHeader header;
  header.width = rastros.board().width();
  header.height = rastros.board().height();
  header.steps = rastros.board().steps();
  header.start = rastros.start();
  header.rules = rastros.stuck_rule();
  header.kind = kind;
  return header;
}

Database to_database(const Rastros& rastros, StrongTable table) {
  std::vector<DatabaseRecord> records;
  records.reserve(table.size());
  for (const StrongRecord& record : table.records()) {
    records.push_back({record.value, record.remoteness, record.best_move});
  }
  return Database(header_for(rastros, DatabaseKind::strong), std::move(table).release_keys(),
                  std::move(records));
}

Database build_strong_database(const Rastros& rastros,
                               const std::function<void(const std::string&)>& progress,
                               const StrongSolveControl& control) {
  return to_database(rastros, solve_strong(rastros, progress, control));
}

Rastros game_of(const DatabaseHeader& header) {
  try {
    return Rastros(Board(header.width, header.height, header.steps), header.start, header.rules);
  } catch (const InputError& error) {
    throw FileError(std::string("database header describes an impossible game: ") + error.what());
  }
}

}  // namespace rastros
