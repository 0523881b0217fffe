#include "games/mancala/mancala_variant.hpp"

#include <cstdint>
#include <string>

#include "core/errors.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::mancala {
namespace {

// C(n, k), or nothing once it reaches 2^62.
bool binomial_below_2_62(int n, int k) {
  constexpr unsigned __int128 kLimit = std::uint64_t{1} << 62;
  unsigned __int128 value = 1;
  for (int i = 1; i <= k; ++i) {
    // C(n-k+i, i) = C(n-k+i-1, i-1) * (n-k+i) / i, exact at every step.
    value = value * static_cast<unsigned>(n - k + i) / static_cast<unsigned>(i);
    if (value >= kLimit) return false;
  }
  return true;
}

}  // namespace

void check_variant(std::string_view game, int houses, int seeds) {
  if (houses < 1 || houses > kMaxHouses) {
    throw InputError("--houses must be between 1 and " + std::to_string(kMaxHouses) + ", not " +
                     std::to_string(houses));
  }
  if (seeds < 1) throw InputError("--seeds must be at least 1, not " + std::to_string(seeds));
  const std::string name =
      std::string(game) + "(" + std::to_string(houses) + "," + std::to_string(seeds) + ")";
  // In 64 bits: --seeds may be any int (2 * 8 * 2^31 overflows an int).
  const long long total = 2LL * houses * seeds;
  if (total > kMaxSeeds) {
    throw InputError(name + " has " + std::to_string(total) + " seeds; at most " +
                     std::to_string(kMaxSeeds) + " are supported");
  }
  // Every state's key is below C(total + 2M, 2M).
  if (!binomial_below_2_62(total + 2 * houses, 2 * houses)) {
    throw InputError(name + " has too many positions to number in 62 bits: lower --houses or "
                     "--seeds");
  }
}

}  // namespace rastros::mancala
