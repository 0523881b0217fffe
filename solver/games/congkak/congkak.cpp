#include "games/congkak/congkak.hpp"

#include <array>
#include <stdexcept>

#include "games/mancala/mancala_variant.hpp"

namespace rastros::congkak {
namespace {

// The variant checked under Congkak's name before the Kalah board (same limits) is built.
int checked_houses(int houses, int seeds) {
  mancala::check_variant("congkak", houses, seeds);
  return houses;
}

}  // namespace

std::int64_t max_laps(int houses, int seeds) {
  const std::int64_t s = seeds;
  return (s + 1) * (2 * houses * s + 1);
}

Congkak::Congkak(int houses, int seeds) : board_(checked_houses(houses, seeds), seeds) {}

std::string Congkak::name() const {
  return "congkak(" + std::to_string(houses()) + "," + std::to_string(seeds()) + ")";
}

CongkakPlayed Congkak::play(const State& state, Move move) const {
  // The ring from the mover's view: its houses [0, M), its store M, the opponent's houses
  // [M+1, 2M]; the opponent's store is never sown.
  const int m = houses();
  const int ring_size = 2 * m + 1;
  std::array<int, 2 * kalah::kMaxHouses + 1> ring{};
  int in_houses = 0;
  for (int i = 0; i < m; ++i) {
    ring[i] = state.houses[i];
    ring[m + 1 + i] = state.houses[m + i];
    in_houses += state.houses[i] + state.houses[m + i];
  }
  const std::int64_t lap_limit = max_laps(m, in_houses);
  Played played;
  int pit = move;
  for (std::int64_t laps = 1;; ++laps) {
    if (laps > lap_limit) throw std::logic_error("congkak: a move ran past its lap bound");
    const int count = ring[pit];
    ring[pit] = 0;
    // Whole rings first (one seed in every pit, the lifted house included), then the rest.
    const int whole = count / ring_size, rest = count - whole * ring_size;
    if (whole) {
      for (int p = 0; p < ring_size; ++p) ring[p] += whole;
    }
    int last = pit + rest;
    if (last < ring_size) {
      for (int p = pit + 1; p <= last; ++p) ++ring[p];
    } else {
      last -= ring_size;
      for (int p = pit + 1; p < ring_size; ++p) ++ring[p];
      for (int p = 0; p <= last; ++p) ++ring[p];
    }
    if (last == m) {  // in the mover's store: another turn
      played.again = true;
      break;
    }
    if (ring[last] > 1) {  // a house that was not empty: relay from it
      pit = last;
      continue;
    }
    // An empty house: the turn ends, with a capture in the mover's own row.
    if (last < m) {
      const int opposite = 2 * m - last;
      if (ring[opposite] != 0) {
        ring[m] += ring[opposite] + 1;
        ring[opposite] = 0;
        ring[last] = 0;
      }
    }
    break;
  }
  played.gain = ring[m];
  // Whoever moves next sees their own houses first.
  const int own = played.again ? 0 : m, other = played.again ? m : 0;
  for (int i = 0; i < m; ++i) {
    played.next.houses[own + i] = static_cast<std::uint8_t>(ring[i]);
    played.next.houses[other + i] = static_cast<std::uint8_t>(ring[m + 1 + i]);
  }
  return played;
}

int Congkak::move_order(const State& state, Move move) const {
  // A relay's end cannot be told without sowing it; the move is sown.
  const Played played = play(state, move);
  return played.again ? 1024 + played.gain : played.gain;
}

}  // namespace rastros::congkak
