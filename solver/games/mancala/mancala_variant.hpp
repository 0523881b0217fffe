#pragma once
// The checks every mancala variant shares: its size, the seeds a house's byte holds, and
// that each state's exact key (the rank of its seed counts, kalah.hpp) fits in 62 bits.

#include <string_view>

namespace rastros::mancala {

/// Seeds in all (a house holds a byte).
inline constexpr int kMaxSeeds = 250;

/// Throws InputError unless 1 <= houses <= 8, 1 <= seeds, 2 * houses * seeds <= kMaxSeeds and
/// every state's key fits in 62 bits; `game` ("kalah") names the variant in the message.
void check_variant(std::string_view game, int houses, int seeds);

}  // namespace rastros::mancala
