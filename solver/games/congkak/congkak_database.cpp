#include "games/congkak/congkak_database.hpp"

#include <cstdio>

#include "engine/score_database_file.hpp"

namespace rastros::congkak {

namespace {

std::string variant_name(const Congkak& game) {
  // snprintf rather than string concatenation: GCC 12 reports a false -Wrestrict in the
  // latter (GCC bug 105651).
  char text[32];
  std::snprintf(text, sizeof text, "(%d,%d)", game.houses(), game.seeds());
  return text;
}

/// A state as a position string, player 1 to move and no stores.
std::string describe(const Congkak& game, const CongkakState& state) {
  const mancala::MancalaBoard board = board_of(game);
  CongkakPosition position;
  for (int i = 0; i < game.houses(); ++i) {
    position.rows[0][i] = state.houses[i];
    position.rows[1][i] = state.houses[game.houses() + i];
  }
  return "position " + mancala::position_string(board, position);
}

}  // namespace

engine::ScoreRecords build_congkak_database(const Congkak& game,
                                            const std::function<void(std::uint64_t)>& progress,
                                            std::uint64_t memory_bytes) {
  return engine::build_score_database(game, game.start(), progress, memory_bytes);
}

void save_congkak_database(const std::filesystem::path& path, const Congkak& game,
                           const engine::ScoreRecords& records) {
  engine::save_score_database(path, {"congkak", variant_name(game), records});
}

engine::ScoreRecords load_congkak_database(const std::filesystem::path& path, const Congkak& game) {
  return engine::load_score_database(path, "congkak", variant_name(game)).records;
}

engine::ScoreDatabaseReader open_congkak_database(const std::filesystem::path& path,
                                                  const Congkak& game) {
  return engine::ScoreDatabaseReader(path, "congkak", variant_name(game));
}

std::optional<CongkakResult> query_congkak_database(const Congkak& game,
                                                    const engine::ScoreLookup& records,
                                                    const CongkakPosition& position,
                                                    bool root_only) {
  const CongkakState state = search_state(game, position);
  const auto score = records.find(game.key(state));
  if (!score) return std::nullopt;
  const int banked = mancala::store_margin(position);
  CongkakResult result;
  result.score = banked + *score;
  result.value = mancala::value_of_margin(*result.score);
  if (root_only || game.is_terminal(state)) return result;
  for (const CongkakMove move : game.legal_moves(state)) {
    const auto played = game.play(state, move);
    const auto next = records.find(game.key(played.next));
    if (!next) return std::nullopt;  // a damaged file: verify names it
    const int margin = banked + played.gain + (played.again ? *next : -*next);
    result.children.push_back({move, mancala::value_of_margin(margin), margin});
    if (margin == *result.score) result.best_moves.push_back(move);
  }
  return result;
}

std::optional<std::string> verify_congkak_database(const Congkak& game,
                                                   const engine::ScoreRecords& records) {
  return engine::verify_score_database(game, game.start(), records, [&](const CongkakState& state) {
    return describe(game, state);
  });
}

std::vector<engine::ScoreCounts> count_congkak_database(const Congkak& game,
                                                        const engine::ScoreRecords& records) {
  return engine::count_score_database(game, game.start(), records, [&](const CongkakState& state) {
    return game.seeds_in_play(state);
  });
}

}  // namespace rastros::congkak
