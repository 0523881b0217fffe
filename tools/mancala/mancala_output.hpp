#pragma once
// The output of a mancala game's `solve` and `show` (text or JSON), shared by Kalah and
// Congkak: what a game supplies is a MancalaView of its position (its title, its variant's
// JSON keys, the board's size and the legal moves).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/value.hpp"
#include "games/mancala/mancala_analysis.hpp"
#include "games/mancala/mancala_position.hpp"
#include "json.hpp"

namespace rastros::tools::mancala_cli {

/// A position of some mancala game, as the printers need it.
struct MancalaView {
  mancala::MancalaBoard board;
  std::string title;  // "Kalah(6,4), standard rules"
  Json variant;       // the variant's keys: "game", "houses", "seeds" (and "rules" for Kalah)
  std::vector<mancala::MancalaMove> moves;  // from the start, empty for a position string
  mancala::MancalaPosition position;
  std::vector<mancala::MancalaMove> legal_moves;
};

struct MancalaReport {
  const MancalaView& view;
  const mancala::MancalaResult& result;
  bool root_only = false;
  std::uint64_t nodes = 0;
  double seconds = 0;
  int endgame_seeds = -1;  // the endgame database's K, -1 without one
  std::optional<std::string> source;  // "database" or "search" (query only)
  /// "nodes" and "seconds", which describe the run rather than the position (batch output
  /// leaves them out unless asked, so that reruns give identical files).
  bool timing = true;
};

/// "win for player 1 (player 1 wins by 8)".
std::string value_text(Value value, int to_move, std::optional<int> score);
void print_text(const MancalaReport& report);
/// The variant's keys, then "moves", "position", "to_move".
Json position_json(const MancalaView& view);
/// The keys of docs/commands.md: the position's, then value, winner, score, best_moves,
/// children, source (query), endgame_seeds, nodes, seconds.
Json result_json(const MancalaReport& report);
/// The keys of `show --json`: the position's, then legal_moves, ended, and for an ended game
/// score and winner.
Json show_json(const MancalaView& view);
/// The text of `show`: the title, the board, the position, the moves, and whose turn it is
/// with the legal moves or how the game ended.
void print_show(const MancalaView& view);

}  // namespace rastros::tools::mancala_cli
