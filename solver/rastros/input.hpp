#pragma once
// Reading a game's variant and a position from text: the one place where every entry point (the
// command line, batch lines, the web API) turns what it was given into a checked position.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rastros/rastros.hpp"

namespace rastros {

/// The variant options in text form, as given on the command line, on a batch line or in a
/// request.
struct VariantText {
  std::string board = "7x7";
  std::optional<std::string> start;
  std::string rules = "standard";
  std::string steps = "king";

  friend bool operator==(const VariantText&, const VariantText&) = default;
};

/// A position to solve: its variant, and the game leading to it when given as moves.
struct PositionInput {
  Rastros rastros;
  std::vector<Square> moves;  // empty when the position was given as a string
  Position position;
};

/// Builds the variant from its text form. Throws InputError naming the bad option. For a position
/// string (`for_position`), a default start on a goal (2x2 without --start) is no error: the
/// variant then has no start (Rastros::for_positions).
Rastros resolve_variant_text(const VariantText& variant, bool for_position = false);

/// The variant of a start-square map: its start (the board's default, or any square that is not
/// a goal) stands for every square, which the map replaces. `variant.start` is not read.
Rastros resolve_map_variant(const VariantText& variant);

/// The variant and the position of one input, checked: `text` is the moves played from the start,
/// or with `is_position` a position string, refused when no game could reach it
/// (parse_reachable_position). Throws InputError naming what is wrong.
PositionInput resolve_input(const VariantText& variant, std::string_view text, bool is_position);

/// The same from the two ways of naming a position, moves or a position string, at most one of
/// them given (neither: the start). Throws InputError when both are.
PositionInput resolve_input(const VariantText& variant, const std::optional<std::string>& moves,
                            const std::optional<std::string>& position);

}  // namespace rastros
