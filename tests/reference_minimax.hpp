#pragma once
// An independent reference for the solver tests: plain minimax written straight from the rules
// in docs/rules.md. It deliberately shares nothing with the library (no board masks, move
// generation, scores, canonical keys or tables), so agreeing with it means something.
//
// Rules, as implemented here:
//   - one snail on a W x H board; the side to move steps it to an empty neighbouring square
//     (8 king directions or 4 orthogonal ones); the square it leaves is slimed for good;
//   - player 1 owns a1 (file 0, rank 0), player 2 the top-right square; the game ends the
//     moment the snail enters a corner, and that corner's owner wins whoever moved it there;
//   - a side to move with no legal move loses (standard) or draws (stuck-draw).
// Values are for the side to move. Remoteness (plies to the end) follows the definition: the
// winner ends the game as soon as it can, the loser as late as it can; a position's value is
// the best of its children for the mover (win > draw > loss); among winning moves the smallest
// remoteness counts, among losing moves the largest. A draw carries a remoteness only where the
// game ends in it: 0 for a stuck side to move under stuck-draw, 1 for the move that leaves the
// opponent stuck; a drawn position whose game goes on has none.
//
// Memoisation keys on the full state (every slimed square, the snail, the side to move), with no
// canonicalisation of any kind.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rastros_reference {

struct RefRules {
  int width = 7;
  int height = 7;
  bool king_steps = true;    // false: orthogonal steps only
  bool stuck_draws = false;  // false: a stuck player loses
};

/// A square by its coordinates: file 0 = a, rank 0 = 1.
struct RefSquare {
  int file = 0;
  int rank = 0;
  friend bool operator==(const RefSquare&, const RefSquare&) = default;
};

struct RefPosition {
  std::vector<bool> slime;  // indexed rank * width + file; the snail's own square is not slime
  RefSquare snail;
  int to_move = 1;  // 1 or 2
};

enum class RefValue { loss, draw, win };

struct RefOutcome {
  RefValue value = RefValue::draw;
  int remoteness = -1;  // plies to the end; -1 for a draw whose game goes on
  friend bool operator==(const RefOutcome&, const RefOutcome&) = default;
};

inline std::string to_string(const RefOutcome& outcome) {
  switch (outcome.value) {
    case RefValue::win:
      return "win in " + std::to_string(outcome.remoteness);
    case RefValue::loss:
      return "loss in " + std::to_string(outcome.remoteness);
    case RefValue::draw:
      break;
  }
  return outcome.remoteness < 0 ? "draw" : "draw in " + std::to_string(outcome.remoteness);
}

class ReferenceMinimax {
 public:
  explicit ReferenceMinimax(RefRules rules) : rules_(rules) {
    if (rules_.width * rules_.height > 64) std::abort();  // the memo key packs slime in 64 bits
    for (int df = -1; df <= 1; ++df) {
      for (int dr = -1; dr <= 1; ++dr) {
        if (df == 0 && dr == 0) continue;
        if (!rules_.king_steps && df != 0 && dr != 0) continue;
        steps_.push_back({df, dr});
      }
    }
  }

  const RefRules& rules() const { return rules_; }
  int index(RefSquare square) const { return square.rank * rules_.width + square.file; }
  bool on_board(RefSquare square) const {
    return square.file >= 0 && square.file < rules_.width && square.rank >= 0 &&
           square.rank < rules_.height;
  }
  /// The corner player `player` wins by entering.
  RefSquare goal_of(int player) const {
    return player == 1 ? RefSquare{0, 0} : RefSquare{rules_.width - 1, rules_.height - 1};
  }
  bool is_goal(RefSquare square) const { return square == goal_of(1) || square == goal_of(2); }

  /// The snail on `start`, nothing slimed, player 1 to move.
  RefPosition start(RefSquare start_square) const {
    return {std::vector<bool>(static_cast<std::size_t>(rules_.width * rules_.height), false),
            start_square, 1};
  }

  /// The snail is in a corner: the game is over.
  bool in_goal(const RefPosition& position) const { return is_goal(position.snail); }

  /// Every empty square one step from the snail (none once the snail is in a corner), in
  /// square order (rank by rank from a1).
  std::vector<RefSquare> moves(const RefPosition& position) const {
    std::vector<RefSquare> result;
    if (in_goal(position)) return result;
    for (const auto& [df, dr] : steps_) {
      const RefSquare to{position.snail.file + df, position.snail.rank + dr};
      if (on_board(to) && !position.slime[static_cast<std::size_t>(index(to))]) {
        result.push_back(to);
      }
    }
    // Square order, so callers can line the list up with other move lists.
    for (std::size_t i = 1; i < result.size(); ++i) {
      for (std::size_t j = i; j > 0 && index(result[j]) < index(result[j - 1]); --j) {
        std::swap(result[j], result[j - 1]);
      }
    }
    return result;
  }

  RefPosition play(const RefPosition& position, RefSquare to) const {
    RefPosition next = position;
    next.slime[static_cast<std::size_t>(index(position.snail))] = true;
    next.snail = to;
    next.to_move = 3 - position.to_move;
    return next;
  }

  /// The value of the position for the side to move, by exhaustive minimax.
  RefOutcome solve(const RefPosition& position) {
    if (position.snail == goal_of(position.to_move)) return {RefValue::win, 0};
    if (position.snail == goal_of(3 - position.to_move)) return {RefValue::loss, 0};
    const Key key = key_of(position);
    if (const auto found = memo_.find(key); found != memo_.end()) return found->second;

    const std::vector<RefSquare> options = moves(position);
    RefOutcome best;
    if (options.empty()) {
      best = {rules_.stuck_draws ? RefValue::draw : RefValue::loss, 0};
    } else {
      bool first = true;
      for (const RefSquare to : options) {
        const RefOutcome candidate = move_outcome(position, to);
        if (first || better(candidate, best)) best = candidate;
        first = false;
      }
      // The game goes on from here: a draw has no remoteness, even when its move ends the game.
      if (best.value == RefValue::draw) best.remoteness = -1;
    }
    memo_.emplace(key, best);
    return best;
  }

  /// The outcome of a move for the player making it, remoteness counted from before the move.
  RefOutcome move_outcome(const RefPosition& position, RefSquare to) {
    const RefOutcome child = solve(play(position, to));
    switch (child.value) {
      case RefValue::win:
        return {RefValue::loss, child.remoteness + 1};
      case RefValue::loss:
        return {RefValue::win, child.remoteness + 1};
      case RefValue::draw:
        break;
    }
    // A move into a stuck draw ends the game: a draw in 1.
    return {RefValue::draw, child.remoteness == 0 ? 1 : -1};
  }

  /// True when `a` is strictly better than `b` for the player who gets it.
  static bool better(const RefOutcome& a, const RefOutcome& b) {
    if (a.value != b.value) return static_cast<int>(a.value) > static_cast<int>(b.value);
    if (a.value == RefValue::win) return a.remoteness < b.remoteness;
    if (a.value == RefValue::loss) return a.remoteness > b.remoteness;
    return false;
  }

  std::size_t memo_size() const { return memo_.size(); }

 private:
  // The full state: every slimed square, the snail's square and the side to move.
  struct Key {
    std::uint64_t slime = 0;
    int snail_and_side = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const {
      std::uint64_t h = key.slime * 0x9E3779B97F4A7C15ULL;
      h ^= static_cast<std::uint64_t>(key.snail_and_side) + 0x632BE59BD9B4E019ULL + (h << 6) +
           (h >> 2);
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };

  Key key_of(const RefPosition& position) const {
    Key key;
    for (std::size_t i = 0; i < position.slime.size(); ++i) {
      if (position.slime[i]) key.slime |= std::uint64_t{1} << i;
    }
    key.snail_and_side = index(position.snail) * 2 + (position.to_move - 1);
    return key;
  }

  RefRules rules_;
  std::vector<std::pair<int, int>> steps_;
  std::unordered_map<Key, RefOutcome, KeyHash> memo_;
};

}  // namespace rastros_reference
