#pragma once
// What the Kalah test suites share: a variant named once and built both ways, as the
// independent reference's game (kalah_reference.hpp) and as the library's, and the seed of
// their random cases (RASTROS_TEST_SEED shifts it, to run the same tests on other cases).

#include <cstdint>
#include <cstdlib>
#include <string>

#include "games/kalah/kalah.hpp"
#include "kalah_reference.hpp"

namespace kalah_test {

struct Variant {
  int houses;
  int seeds;
  kalah_reference::RefRule rule;
};

inline kalah_reference::RefGame ref_game(const Variant& v) {
  return kalah_reference::RefGame{v.houses, v.seeds, v.rule};
}

inline rastros::kalah::Kalah lib_game(const Variant& v) {
  return rastros::kalah::Kalah(v.houses, v.seeds,
                               v.rule == kalah_reference::RefRule::standard
                                   ? rastros::kalah::CaptureRule::standard
                                   : rastros::kalah::CaptureRule::empty_capture);
}

inline std::string variant_name(const Variant& v) {
  return "kalah(" + std::to_string(v.houses) + "," + std::to_string(v.seeds) +
         (v.rule == kalah_reference::RefRule::standard ? ",standard)" : ",empty-capture)");
}

inline std::uint64_t seeded(std::uint64_t seed) {
  const char* offset = std::getenv("RASTROS_TEST_SEED");
  return offset ? seed + std::strtoull(offset, nullptr, 10) : seed;
}

}  // namespace kalah_test
