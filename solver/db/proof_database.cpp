#include "db/proof_database.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/value.hpp"
#include "db/strategy_walk.hpp"
#include "db/strong_database.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "rastros/region.hpp"

namespace rastros {
namespace {

int region_size(const Board& board, const Position& position) {
  return count(region_of(board, position.snail, position.free));
}

class ProofBuilder {
 public:
  ProofBuilder(const Rastros& rastros, int leaf_squares, Solver& solver)
      : rastros_(rastros),
        board_(rastros.board()),
        canonicalizer_(board_),
        leaf_squares_(leaf_squares),
        solver_(solver) {}

  WalkStep expand(const WalkNode& node) const {
    // Work in the key's own frame, so the chosen square is already what the record stores.
    const Position position = Canonicalizer::unpack(node.key);
    return *node.value == Value::win ? expand_win(position) : expand_loss(position);
  }

 private:
  // The side to move wins: the first winning move by increasing region left, so that the
  // loser's replies have as little room as possible.
  WalkStep expand_win(const Position& position) const {
    struct Candidate {
      int room;
      Square move;
      Position child;
    };
    std::vector<Candidate> candidates;
    for (Square move : rastros_.legal_moves(position)) {
      const Position child = rastros_.play(position, move);
      if (const std::optional<Value> ended = rastros_.terminal_value(child)) {
        if (*ended == Value::loss) return {{Value::win, 0, static_cast<std::uint8_t>(move)}, {}};
        continue;
      }
      candidates.push_back({region_size(board_, child), move, child});
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.room < b.room; });
    for (const Candidate& candidate : candidates) {
      if (solver_.solve(candidate.child).value != Value::loss) continue;
      WalkStep step{{Value::win, 0, static_cast<std::uint8_t>(candidate.move)}, {}};
      if (!is_proof_leaf(board_, candidate.child, leaf_squares_)) {
        step.next.push_back({canonicalizer_.pack(candidate.child), Value::loss});
      }
      return step;
    }
    throw std::logic_error("proof database: " + position_string(board_, position) +
                           " was solved as a win, but no move wins");
  }

  // The side to move loses: every reply must be shown to lose.
  WalkStep expand_loss(const Position& position) const {
    WalkStep step{{Value::loss, 0, DatabaseRecord::kNoMove}, {}};
    for (Square move : rastros_.legal_moves(position)) {
      const Position child = rastros_.play(position, move);
      if (const std::optional<Value> ended = rastros_.terminal_value(child)) {
        if (*ended != Value::win) {
          throw std::logic_error("proof database: " + position_string(board_, position) +
                                 " was solved as a loss, but " + square_name(board_, move) +
                                 " ends the game without losing");
        }
        continue;
      }
      // Each reply is expanded as a win, which finds the winning answer or throws.
      if (!is_proof_leaf(board_, child, leaf_squares_)) {
        step.next.push_back({canonicalizer_.pack(child), Value::win});
      } else if (solver_.solve(child).value != Value::win) {
        throw std::logic_error("proof database: " + position_string(board_, position) +
                               " was solved as a loss, but " + square_name(board_, move) +
                               " does not lose");
      }
    }
    return step;
  }

  const Rastros& rastros_;
  const Board& board_;
  const Canonicalizer canonicalizer_;
  const int leaf_squares_;
  Solver& solver_;
};

}  // namespace

bool is_proof_leaf(const Board& board, const Position& position, int leaf_squares) {
  return region_size(board, position) <= leaf_squares;
}

Database build_proof_database(const Rastros& rastros, int leaf_squares, Solver& solver,
                              const std::function<void(const std::string&)>& progress,
                              WalkCheckpoint checkpoint) {
  if (leaf_squares < 0 || leaf_squares > kMaxSquares) {
    throw std::invalid_argument("leaf squares must be between 0 and " +
                                std::to_string(kMaxSquares));
  }
  if (!solver.options().value_only) {
    throw std::invalid_argument("a proof database needs a value-only solver");
  }
  const Board& board = rastros.board();
  const auto roots = [&] {
    const Position start = rastros.start_position();
    std::vector<WalkNode> roots;
    if (!rastros.has_ended(start)) {
      // The start is stored even when it is a leaf: it carries the value the proof certifies.
      const Value value = solver.solve(start).value;
      if (value == Value::draw) {
        throw std::invalid_argument("the start of " + board.name() +
                                    " is a draw; a proof database certifies a win or a loss");
      }
      roots.push_back({Canonicalizer(board).pack(start), value});
    }
    return roots;
  };
  checkpoint.identity =
      "proof " + game_identity(rastros) + " leaf_squares " + std::to_string(leaf_squares);
  const ProofBuilder builder(rastros, leaf_squares, solver);
  WalkedPositions walked = walk_breadth_first(
      roots, [&](const WalkNode& node, int) { return builder.expand(node); },
      ply_progress_lines(progress, solver), checkpoint);
  DatabaseHeader header = header_for(rastros, DatabaseKind::proof);
  header.leaf_squares = leaf_squares;
  return Database(header, std::move(walked.keys), std::move(walked.records));
}

}  // namespace rastros
