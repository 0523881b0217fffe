#include "db/strategy_database.hpp"

#include <stdexcept>
#include <utility>

#include "core/value.hpp"
#include "db/strategy_walk.hpp"
#include "db/strong_database.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"

namespace rastros {

Database build_strategy_database(const Rastros& rastros, int book_depth, Solver& solver,
                                 const std::function<void(const std::string&)>& progress,
                                 WalkCheckpoint checkpoint) {
  if (book_depth < 0) throw std::invalid_argument("book depth must not be negative");
  if (solver.options().value_only) {
    throw std::invalid_argument("a strategy database needs remoteness; the solver is value-only");
  }
  const Canonicalizer canonicalizer(rastros.board());
  const auto expand = [&](const WalkNode& node, int depth) {
    // Work in the key's own frame, so the chosen square is already what the record stores.
    const Position position = Canonicalizer::unpack(node.key);
    Score best = 0;
    bool have_best = false;
    Square best_move = DatabaseRecord::kNoMove;
    std::vector<std::pair<Square, PackedPosition>> children;
    for (Square move : rastros.legal_moves(position)) {
      const Position child = rastros.play(position, move);
      Outcome outcome;
      if (const std::optional<Value> ended = rastros.terminal_value(child)) {
        outcome = {*ended, 0};
      } else {
        outcome = solver.solve(child);
        children.emplace_back(move, canonicalizer.pack(child));
      }
      const Score score = parent_score(score_of(outcome));
      // Squares come in increasing order, so a strict comparison keeps the lowest on ties.
      if (!have_best || score > best) {
        best = score;
        best_move = move;
        have_best = true;
      }
    }
    WalkStep step;
    const Outcome outcome = outcome_of_score(best);
    step.record = {outcome.value, static_cast<std::uint8_t>(outcome.remoteness.value_or(0)),
                   static_cast<std::uint8_t>(best_move)};
    // The loser's (and a drawing side's) every reply must be answerable; the winner needs
    // only its chosen move, unless the position is still inside the opening book.
    const bool all_children = depth < book_depth || outcome.value != Value::win;
    for (const auto& [move, key] : children) {
      if (all_children || move == best_move) step.next.push_back({key, std::nullopt});
    }
    return step;
  };

  const auto roots = [&] {
    std::vector<WalkNode> roots;
    const Position start = rastros.start_position();
    if (!rastros.has_ended(start)) roots.push_back({canonicalizer.pack(start), std::nullopt});
    return roots;
  };
  checkpoint.identity =
      "strategy " + game_identity(rastros) + " book_depth " + std::to_string(book_depth);
  WalkedPositions walked =
      walk_breadth_first(roots, expand, ply_progress_lines(progress, solver), checkpoint);
  DatabaseHeader header = header_for(rastros, DatabaseKind::strategy);
  header.book_depth = book_depth;
  return Database(header, std::move(walked.keys), std::move(walked.records));
}

}  // namespace rastros
