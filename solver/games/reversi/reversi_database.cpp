#include "games/reversi/reversi_database.hpp"

#include <bit>

#include "core/errors.hpp"
#include "engine/score_database_file.hpp"

namespace rastros::reversi {

namespace {

std::string board_name(const Reversi& game) {
  return std::to_string(game.size()) + "x" + std::to_string(game.size());
}

/// A state as a position string with X to move (states have no colours).
std::string describe(const Reversi& game, const ReversiState& state) {
  return "position " + position_string(game, {state.mine, state.theirs, 0});
}

}  // namespace

engine::ScoreRecords build_reversi_database(const Reversi& game,
                                            const std::function<void(std::uint64_t)>& progress) {
  if (game.size() != kDatabaseBoard) {
    throw InputError("a strong database of Reversi " + board_name(game) +
                     " is out of reach (far more positions than memory holds): only 4x4 is built");
  }
  return engine::build_score_database(game, game.start(), progress);
}

void save_reversi_database(const std::filesystem::path& path, const Reversi& game,
                           const engine::ScoreRecords& records) {
  engine::save_score_database(path, {"reversi", board_name(game), records});
}

engine::ScoreRecords load_reversi_database(const std::filesystem::path& path, const Reversi& game) {
  return engine::load_score_database(path, "reversi", board_name(game)).records;
}

engine::ScoreDatabaseReader open_reversi_database(const std::filesystem::path& path,
                                                  const Reversi& game) {
  return engine::ScoreDatabaseReader(path, "reversi", board_name(game));
}

std::optional<ReversiResult> query_reversi_database(const Reversi& game,
                                                    const engine::ScoreLookup& records,
                                                    const ReversiPosition& position,
                                                    bool root_only) {
  const ReversiState state = search_state(position);
  const auto score = records.find(game.key(state));
  if (!score) return std::nullopt;
  ReversiResult result;
  result.score = *score;
  result.value = value_of_margin(*score);
  if (root_only || game.is_terminal(state)) return result;
  for (const ReversiMove move : game.legal_moves(state)) {
    const auto child = records.find(game.key(game.play(state, move).next));
    if (!child) return std::nullopt;  // a damaged file: verify names it
    result.children.push_back({move, value_of_margin(-*child), -*child});
    if (-*child == *score) result.best_moves.push_back(move);
  }
  return result;
}

std::optional<std::string> verify_reversi_database(const Reversi& game,
                                                   const engine::ScoreRecords& records) {
  return engine::verify_score_database(game, game.start(), records, [&](const ReversiState& state) {
    return describe(game, state);
  });
}

std::vector<engine::ScoreCounts> count_reversi_database(const Reversi& game,
                                                        const engine::ScoreRecords& records) {
  const int squares = game.size() * game.size();
  return engine::count_score_database(game, game.start(), records, [&](const ReversiState& state) {
    return squares - std::popcount(state.mine | state.theirs);
  });
}

}  // namespace rastros::reversi
