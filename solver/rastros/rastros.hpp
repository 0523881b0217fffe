#pragma once
// The rules of one Rastros variant: board, start square, what a stuck snail means.
// Satisfies the `Game` concept (core/game.hpp).

#include <optional>
#include <string>

#include "core/game.hpp"
#include "rastros/board.hpp"
#include "rastros/position.hpp"

namespace rastros {

/// `standard`: a player with no legal move loses. `stuck-draw` (Taylor 1993): the game is drawn.
enum class StuckRule : std::uint8_t { loses, draws };

/// The squares of a mask, iterated lowest first: `for (Square s : SquareSet(mask))`.
class SquareSet {
 public:
  class Iterator {
   public:
    explicit Iterator(SquareMask rest) : rest_(rest) {}
    Square operator*() const { return lowest_square(rest_); }
    Iterator& operator++() {
      rest_ &= rest_ - 1;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return rest_ != other.rest_; }

   private:
    SquareMask rest_;
  };
  explicit SquareSet(SquareMask mask) : mask_(mask) {}
  Iterator begin() const { return Iterator(mask_); }
  Iterator end() const { return Iterator(0); }
  int size() const { return count(mask_); }
  SquareMask mask() const { return mask_; }

 private:
  SquareMask mask_;
};

class Rastros {
 public:
  using State = Position;
  using Move = Square;
  using MoveList = SquareSet;

  /// Throws InputError when the start square is a goal.
  explicit Rastros(Board board, std::optional<Square> start = std::nullopt,
                   StuckRule stuck_rule = StuckRule::loses);

  /// A variant for a position given as a string, where no game is played from the start: when
  /// `start` is not given and the board's default start is a goal (b2 on 2x2), that is no error
  /// and the variant has no start (has_start() false). A given `start` on a goal is refused.
  static Rastros for_positions(Board board, std::optional<Square> start = std::nullopt,
                               StuckRule stuck_rule = StuckRule::loses);

  const Board& board() const { return board_; }
  /// The start square; a goal when the variant has none (see has_start).
  Square start() const { return start_; }
  /// False only for a variant of for_positions without a start: its default start is a goal.
  bool has_start() const { return !board_.is_goal(start_); }
  StuckRule stuck_rule() const { return stuck_rule_; }

  /// The snail on the start square, every other square empty, player 1 to move. Throws
  /// InputError when the variant has no start (the default start is a goal).
  Position start_position() const;

  /// The squares the snail may step to (empty neighbours). Empty once the game has ended.
  SquareMask move_mask(const Position& position) const;
  SquareSet legal_moves(const Position& position) const { return SquareSet(move_mask(position)); }
  bool is_legal(const Position& position, Square to) const {
    return to >= 0 && to < board_.square_count() && (move_mask(position) & bit(to)) != 0;
  }
  /// The position after the snail steps to `to` (which must be legal).
  Position play(const Position& position, Square to) const {
    return {position.free & ~bit(to), to, opponent(position.to_move)};
  }

  /// The value for the side to move if the game has ended: the snail entered a goal, or the
  /// side to move has no legal move.
  std::optional<Value> terminal_value(const Position& position) const;
  bool has_ended(const Position& position) const { return terminal_value(position).has_value(); }
  /// The winner of an ended game; nothing for a draw or a game still going.
  std::optional<Player> winner(const Position& position) const;

 private:
  Rastros(Board board, std::optional<Square> start, StuckRule stuck_rule, bool need_start);
  /// The refusal of a start on a goal (`given`: by --start, else the board's default).
  [[noreturn]] void refuse_goal_start(bool given) const;

  Board board_;
  Square start_;
  StuckRule stuck_rule_;
};

static_assert(Game<Rastros>);

}  // namespace rastros
