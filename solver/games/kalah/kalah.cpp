#include "games/kalah/kalah.hpp"

#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/errors.hpp"
#include "games/mancala/mancala_variant.hpp"

namespace rastros::kalah {

namespace {

// Binomial coefficients C(n, k) for the ranks, saturated at the largest 64-bit value (the
// constructor refuses variants that would need one of those).
inline constexpr int kMaxN = 320;
inline constexpr int kMaxK = 2 * kMaxHouses;

struct Binomials {
  std::array<std::array<std::uint64_t, kMaxN + 1>, kMaxK + 1> by_k{};  // [k][n]
  Binomials() {
    constexpr auto kSaturated = std::numeric_limits<std::uint64_t>::max();
    for (int n = 0; n <= kMaxN; ++n) {
      by_k[0][n] = 1;
      for (int k = 1; k <= kMaxK; ++k) {
        if (n == 0) continue;
        const std::uint64_t a = by_k[k - 1][n - 1], b = by_k[k][n - 1];
        by_k[k][n] = (a > kSaturated - b) ? kSaturated : a + b;
      }
    }
  }
  std::uint64_t operator()(int n, int k) const { return n < k ? 0 : by_k[k][n]; }
};

const Binomials& binomial() {
  static const Binomials table;
  return table;
}

}  // namespace

std::string_view rules_name(CaptureRule rule) {
  return rule == CaptureRule::standard ? "standard" : "empty-capture";
}

CaptureRule parse_rules(std::string_view text) {
  if (text == "standard") return CaptureRule::standard;
  if (text == "empty-capture") return CaptureRule::empty_capture;
  throw InputError("--rules must be standard or empty-capture for kalah, not " + quote_input(text, 40));
}

Kalah::Kalah(int houses, int seeds, CaptureRule rule) : houses_(houses), seeds_(seeds), rule_(rule) {
  mancala::check_variant("kalah", houses, seeds);
  // The table of binomials is exact below kMaxN: every state's key is below C(total + 2M, 2M).
  if (total_seeds() + 2 * houses > kMaxN) throw std::logic_error("kalah: binomial table too small");
}

std::string Kalah::name() const {
  std::string text = "kalah(" + std::to_string(houses_) + "," + std::to_string(seeds_);
  if (rule_ == CaptureRule::empty_capture) text += ",empty-capture";
  return text + ")";
}

KalahState Kalah::start() const {
  State state;
  for (int i = 0; i < 2 * houses_; ++i) state.houses[i] = static_cast<std::uint8_t>(seeds_);
  return state;
}

int Kalah::seeds_in_play(const State& state) const {
  int total = 0;
  for (int i = 0; i < 2 * houses_; ++i) total += state.houses[i];
  return total;
}

bool Kalah::is_terminal(const State& state) const {
  bool mine = false, theirs = false;
  for (int i = 0; i < houses_; ++i) {
    mine |= state.houses[i] != 0;
    theirs |= state.houses[houses_ + i] != 0;
  }
  return !mine || !theirs;
}

int Kalah::terminal_score(const State& state) const {
  int margin = 0;
  for (int i = 0; i < houses_; ++i) margin += state.houses[i] - state.houses[houses_ + i];
  return margin;
}

KalahMoveList Kalah::legal_moves(const State& state) const {
  MoveList moves;
  if (is_terminal(state)) return moves;
  for (int i = 0; i < houses_; ++i) {
    if (state.houses[i] != 0) moves.push_back(static_cast<Move>(i));
  }
  return moves;
}

KalahPlayed Kalah::play(const State& state, Move move) const {
  // The ring from the mover's view: its houses [0, M), its store M, the opponent's houses
  // [M+1, 2M]; the opponent's store is never sown.
  const int m = houses_;
  const int ring_size = 2 * m + 1;
  std::array<int, 2 * kMaxHouses + 1> ring{};
  for (int i = 0; i < m; ++i) {
    ring[i] = state.houses[i];
    ring[m + 1 + i] = state.houses[m + i];
  }
  const int start = move;
  const int count = ring[start];
  ring[start] = 0;
  // Whole laps first (one seed in every pit of the ring, the emptied house included), then
  // the rest one by one: the cost does not grow with the seeds.
  const int laps = count / ring_size, rest = count - laps * ring_size;
  if (laps) {
    for (int p = 0; p < ring_size; ++p) ring[p] += laps;
  }
  int last = start;
  for (int k = 0; k < rest; ++k) {
    if (++last == ring_size) last = 0;
    ++ring[last];
  }

  Played played;
  // A last seed in an own house that was empty before it landed (it now holds exactly one).
  if (last < m && ring[last] == 1) {
    const int opposite = 2 * m - last;
    if (ring[opposite] != 0 || rule_ == CaptureRule::empty_capture) {
      ring[m] += ring[opposite] + 1;
      ring[opposite] = 0;
      ring[last] = 0;
    }
  }
  played.gain = ring[m];
  played.again = last == m;
  // Whoever moves next sees their own houses first.
  const int own = played.again ? 0 : m, other = played.again ? m : 0;
  for (int i = 0; i < m; ++i) {
    played.next.houses[own + i] = static_cast<std::uint8_t>(ring[i]);
    played.next.houses[other + i] = static_cast<std::uint8_t>(ring[m + 1 + i]);
  }
  return played;
}

int Kalah::move_order(const State& state, Move move) const {
  // Without sowing: where the last seed lands tells an extra turn and, short of a lap, a
  // capture (the sowing stays in the mover's row, so the opposite house is as it was).
  const int m = houses_;
  const int count = state.houses[move];
  const int last = (move + count) % (2 * m + 1);
  if (last == m) return 1024 + move;  // another turn; the house nearest the store first
  const bool banks = move + count > m;
  if (count < 2 * m + 1 && last < m && last > move && state.houses[last] == 0) {
    const int opposite = state.houses[2 * m - 1 - last];
    if (opposite != 0 || rule_ == CaptureRule::empty_capture) return 32 * (opposite + 1) + banks;
  }
  return banks;
}

std::uint64_t Kalah::key(const State& state) const {
  // The counts c_0..c_{k-1} as the k-subset {p_j = c_0 + ... + c_j + j} of the naturals, ranked
  // in the combinatorial number system: sum of C(p_j, j + 1). A bijection onto the naturals.
  const Binomials& c = binomial();
  std::uint64_t rank = 0;
  int p = -1;
  for (int j = 0; j < 2 * houses_; ++j) {
    p += state.houses[j] + 1;
    rank += c.by_k[j + 1][p];
  }
  return rank;
}

std::uint64_t Kalah::level_size(int seeds) const {
  return binomial()(seeds + 2 * houses_ - 1, 2 * houses_ - 1);
}

std::uint64_t Kalah::level_rank(const State& state) const {
  // The same rank without its last term: with the sum fixed, the last p is fixed too.
  const Binomials& c = binomial();
  std::uint64_t rank = 0;
  int p = -1;
  for (int j = 0; j + 1 < 2 * houses_; ++j) {
    p += state.houses[j] + 1;
    rank += c.by_k[j + 1][p];
  }
  return rank;
}

KalahState Kalah::level_unrank(int seeds, std::uint64_t rank) const {
  const Binomials& c = binomial();
  const int k = 2 * houses_;
  std::array<int, kMaxK> p{};
  p[k - 1] = seeds + k - 1;
  for (int j = k - 2; j >= 0; --j) {
    // The largest p_j below p_{j+1} with C(p_j, j + 1) <= rank.
    int candidate = p[j + 1] - 1;
    while (c(candidate, j + 1) > rank) --candidate;
    p[j] = candidate;
    rank -= c(candidate, j + 1);
  }
  State state;
  int previous = -1;
  for (int j = 0; j < k; ++j) {
    state.houses[j] = static_cast<std::uint8_t>(p[j] - previous - 1);
    previous = p[j];
  }
  return state;
}

void Kalah::level_next(State& state) const {
  // The colex successor of the bars p_0 < ... < p_{k-2}: the lowest bar that can move up by
  // one does (its right neighbour's count gives a seed to it), and the bars below it go back to
  // the bottom (their counts gather in it).
  auto& c = state.houses;
  int below = 0;
  for (int j = 0; j + 1 < 2 * houses_; ++j) {
    if (c[j + 1] > 0) {
      const int gathered = below + c[j] + 1;
      for (int i = 0; i < j; ++i) c[i] = 0;
      c[j] = static_cast<std::uint8_t>(gathered);
      --c[j + 1];
      return;
    }
    below += c[j];
  }
}

}  // namespace rastros::kalah
