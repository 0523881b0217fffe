#include "rastros/rastros.hpp"

#include "core/errors.hpp"
#include "rastros/notation.hpp"

namespace rastros {

Rastros::Rastros(Board board, std::optional<Square> start, StuckRule stuck_rule)
    : Rastros(board, start, stuck_rule, true) {}

Rastros Rastros::for_positions(Board board, std::optional<Square> start, StuckRule stuck_rule) {
  return Rastros(board, start, stuck_rule, false);
}

Rastros::Rastros(Board board, std::optional<Square> start, StuckRule stuck_rule, bool need_start)
    : board_(board), start_(start.value_or(board.default_start())), stuck_rule_(stuck_rule) {
  if (start_ < 0 || start_ >= board_.square_count()) {
    throw InputError("start square is off the " + board_.name() + " board");
  }
  if (board_.is_goal(start_) && (start || need_start)) refuse_goal_start(start.has_value());
}

void Rastros::refuse_goal_start(bool given) const {
  throw InputError((given ? "start square " : "the default start square ") +
                   square_name(board_, start_) + " is a goal corner" +
                   (given ? "" : "; choose another with --start"));
}

Position Rastros::start_position() const {
  if (!has_start()) refuse_goal_start(false);
  return {board_.all_squares() & ~bit(start_), start_, Player::one};
}

SquareMask Rastros::move_mask(const Position& position) const {
  if (board_.is_goal(position.snail)) return 0;
  return board_.neighbours(position.snail) & position.free;
}

std::optional<Value> Rastros::terminal_value(const Position& position) const {
  if (position.snail == board_.goal_of(position.to_move)) return Value::win;
  if (position.snail == board_.goal_of(opponent(position.to_move))) return Value::loss;
  if (move_mask(position) == 0) return stuck_rule_ == StuckRule::loses ? Value::loss : Value::draw;
  return std::nullopt;
}

std::optional<Player> Rastros::winner(const Position& position) const {
  const auto value = terminal_value(position);
  if (!value || *value == Value::draw) return std::nullopt;
  return *value == Value::win ? position.to_move : opponent(position.to_move);
}

}  // namespace rastros
