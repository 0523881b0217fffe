// libFuzzer target: Kalah's text parsers (games/kalah/kalah_position.hpp) and its endgame
// database loader (games/kalah/kalah_endgame.hpp) on arbitrary bytes.
//
// The first two bytes pick the variant (houses 1..8, seeds 1..6, capture rule; the
// constructor's refusal of a variant too big to number is expected) and the third
// what to do with the rest: parse it as a position string, as a game, or write it to a file
// and load it as an endgame database. A parser either throws InputError or returns a position
// whose text form parses back to the same position and whose seeds add up to the variant's;
// the loader either throws FileError or returns a database that verify() accepts, and the
// chunk-by-chunk reader (KalahEndgameFile) either throws FileError or answers as it does.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "games/kalah/kalah_position.hpp"

namespace {

using namespace rastros;
using namespace rastros::kalah;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_position(const Kalah& game, const KalahPosition& position) {
  int total = position.stores[0] + position.stores[1];
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < game.houses(); ++i) total += position.rows[p][i];
  }
  check(total == game.total_seeds());
  check(parse_position(game, position_string(game, position)) == position);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const int houses = 1 + data[0] % 8;
  const int seeds = 1 + data[1] % 6;
  const CaptureRule rule = data[1] & 0x80 ? CaptureRule::empty_capture : CaptureRule::standard;
  std::optional<Kalah> variant;
  try {
    variant.emplace(houses, seeds, rule);
  } catch (const InputError&) {
    return 0;  // a variant too big to number (kalah(8,6)) is refused, as the tools refuse it
  }
  const Kalah& game = *variant;
  const std::string text(reinterpret_cast<const char*>(data + 3), size - 3);
  switch (data[2] % 3) {
    case 0:
      try {
        check_position(game, parse_position(game, text));
      } catch (const InputError&) {
      }
      break;
    case 1:
      try {
        const auto moves = parse_moves(game, text);
        KalahPosition position = start_position(game);
        for (const KalahMove move : moves) position = play(game, position, move);
        check_position(game, position);
        check(parse_moves(game, moves_text(moves)) == moves);
      } catch (const InputError&) {
      }
      break;
    default: {
      const auto path = std::filesystem::temp_directory_path() /
                        ("rastros_fuzz_kalah_" + std::to_string(::getpid()) + ".kdb");
      {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
      }
      std::optional<KalahEndgame> loaded;
      try {
        const KalahEndgame database = KalahEndgame::load(path, nullptr);
        const Kalah shape(database.houses(), 8, database.rule());
        if (database.max_seeds() <= 16 && database.houses() <= 3) {
          (void)database.verify(shape);  // must not crash; a wrong record is reported
        }
        if (database.houses() == game.houses() && database.rule() == game.rule()) {
          loaded = database;
        }
      } catch (const FileError&) {
      } catch (const InputError&) {
      }
      // Read chunk by chunk: answers or FileError; a file load() accepts answers as it does.
      try {
        const KalahEndgameFile file(path, game);
        for (int level = 0; level <= file.max_seeds() && level <= game.total_seeds(); ++level) {
          for (const std::uint64_t rank : {std::uint64_t{0}, game.level_size(level) - 1}) {
            const KalahState state = game.level_unrank(level, rank);
            const auto probed = file.probe(game, state);
            if (loaded) check(probed == loaded->probe(game, state));
          }
        }
      } catch (const FileError&) {
        check(!loaded);
      } catch (const InputError&) {
      }
      std::filesystem::remove(path);
    }
  }
  return 0;
}
