#include "games/kalah/kalah_input.hpp"

#include "core/errors.hpp"

namespace rastros::kalah {

Kalah resolve_kalah_variant(const KalahVariantText& variant) {
  return Kalah(variant.houses, variant.seeds, parse_rules(variant.rules));
}

KalahInput resolve_kalah_input(const KalahVariantText& variant, std::string_view text,
                               bool is_position) {
  KalahInput input{resolve_kalah_variant(variant), {}, {}};
  if (is_position) {
    input.position = parse_position(input.game, text);
    return input;
  }
  input.moves = parse_moves(input.game, text);
  input.position = start_position(input.game);
  for (const KalahMove move : input.moves) input.position = play(input.game, input.position, move);
  return input;
}

KalahInput resolve_kalah_input(const KalahVariantText& variant,
                               const std::optional<std::string>& moves,
                               const std::optional<std::string>& position) {
  if (moves && position) throw InputError("give either --moves or --position, not both");
  return resolve_kalah_input(variant, position.value_or(moves.value_or("")),
                             position.has_value());
}

}  // namespace rastros::kalah
