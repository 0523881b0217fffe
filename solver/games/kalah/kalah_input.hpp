#pragma once
// Reading a Kalah variant and a position from text: the one place where the command line and
// batch lines turn what they were given into a checked position.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {

/// The variant options as given (--houses --seeds --rules).
struct KalahVariantText {
  int houses = 6;
  int seeds = 4;
  std::string rules = "standard";
};

/// A variant and a position on it, checked.
struct KalahInput {
  Kalah game;
  std::vector<KalahMove> moves;  // empty when the position was given as a string
  KalahPosition position;
};

/// The variant. Throws InputError naming what is wrong.
Kalah resolve_kalah_variant(const KalahVariantText& variant);

/// The variant and the position of `text`: the moves played from the start, or with
/// `is_position` a position string. Throws InputError naming what is wrong.
KalahInput resolve_kalah_input(const KalahVariantText& variant, std::string_view text,
                               bool is_position);

/// The same from the two ways of naming a position, moves or a position string, at most one of
/// them given (neither: the start). Throws InputError when both are.
KalahInput resolve_kalah_input(const KalahVariantText& variant,
                               const std::optional<std::string>& moves,
                               const std::optional<std::string>& position);

}  // namespace rastros::kalah
