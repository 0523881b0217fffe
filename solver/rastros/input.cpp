#include "rastros/input.hpp"

#include "core/errors.hpp"
#include "rastros/notation.hpp"

namespace rastros {

Rastros resolve_variant_text(const VariantText& variant, bool for_position) {
  const Board board = parse_board(variant.board, parse_steps(variant.steps));
  std::optional<Square> start;
  if (variant.start) start = parse_square(board, *variant.start);
  const StuckRule rules = parse_rules(variant.rules);
  return for_position ? Rastros::for_positions(board, start, rules) : Rastros(board, start, rules);
}

Rastros resolve_map_variant(const VariantText& variant) {
  const Board board = parse_board(variant.board, parse_steps(variant.steps));
  return Rastros(board, board.is_goal(board.default_start()) ? 1 : board.default_start(),
                 parse_rules(variant.rules));
}

PositionInput resolve_input(const VariantText& variant, std::string_view text, bool is_position) {
  const Rastros rastros = resolve_variant_text(variant, is_position);
  if (is_position) {
    try {
      return {rastros, {}, parse_reachable_position(rastros, text)};
    } catch (const StartSquareError& error) {
      // The start was the board's default: the position may come from another game.
      if (variant.start) throw;
      throw StartSquareError(std::string(error.what()) + " (another start: give --start)");
    }
  }
  PlayedGame game = parse_game(rastros, text);
  return {rastros, std::move(game.moves), game.position};
}

PositionInput resolve_input(const VariantText& variant, const std::optional<std::string>& moves,
                            const std::optional<std::string>& position) {
  if (moves && position) throw InputError("give either --moves or --position, not both");
  return resolve_input(variant, position.value_or(moves.value_or("")), position.has_value());
}

}  // namespace rastros
