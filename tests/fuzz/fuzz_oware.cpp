// libFuzzer target: Oware's text parsers (games/oware/oware_position.hpp) and its endgame
// database loader (games/oware/oware_database.hpp) on arbitrary bytes.
//
// The first two bytes pick the variant (houses 1..8, seeds 1..6) and the third what to do with
// the rest: parse it as a position string, as a game, or write it to a file and load it as an
// endgame database. A parser either throws InputError or returns a position whose text form
// parses back to the same position and whose seeds add up to the variant's, and each of whose
// legal moves sown seed by seed (oware_sowing) gives play()'s position; the loader either
// throws FileError or returns a database whose stats and (when small) verify() run, and the
// chunk-by-chunk reader (OwareDatabaseFile) either throws FileError or answers as it does.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "games/oware/oware.hpp"
#include "games/oware/oware_database.hpp"
#include "games/oware/oware_position.hpp"
#include "games/oware/oware_sowing.hpp"

namespace {

using namespace rastros;
using namespace rastros::oware;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_position(const Oware& game, const OwarePosition& position) {
  int total = position.captured[0] + position.captured[1];
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < game.houses(); ++i) total += position.rows[p][i];
  }
  check(total == game.total_seeds());
  check(parse_position(game, position_string(game, position)) == position);
  // Every legal move sown seed by seed (the page's account) lands where play() says.
  for (const OwareMove move : game.legal_moves(search_state(game, position))) {
    check(sow(game, position, move).after == play(game, position, move));
  }
}

void load_database(const Oware& game, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("rastros_fuzz_oware_" + std::to_string(::getpid()) + ".odb");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::optional<OwareDatabase> loaded;
  try {
    const OwareDatabase database = OwareDatabase::load(path, nullptr);
    (void)database.score_counts();
    if (database.max_seeds() <= 10 && database.houses() <= 3) {
      (void)database.verify(Oware(database.houses(), 1));  // must not crash
    }
    if (database.houses() == game.houses()) loaded = database;
  } catch (const FileError&) {
  } catch (const InputError&) {
  }
  // Read chunk by chunk: answers or FileError; a file load() accepts answers as it does.
  try {
    const OwareDatabaseFile file(path, game);
    for (int level = 0; level <= file.max_seeds() && level <= game.total_seeds(); ++level) {
      for (const std::uint64_t rank : {std::uint64_t{0}, game.level_size(level) - 1}) {
        const OwareState state = game.level_unrank(level, rank);
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  std::optional<Oware> variant;
  try {
    variant.emplace(1 + data[0] % 8, 1 + data[1] % 6);
  } catch (const InputError&) {
    return 0;  // a variant too big to number is refused, as the tools refuse it
  }
  const Oware& game = *variant;
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
        OwarePosition position = start_position(game);
        for (const OwareMove move : moves) position = play(game, position, move);
        check_position(game, position);
        check(parse_moves(game, moves_text(moves)) == moves);
      } catch (const InputError&) {
      }
      break;
    default:
      load_database(game, text);
  }
  return 0;
}
