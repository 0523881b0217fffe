#include "games/oware/oware_database.hpp"

#include <algorithm>
#include <string_view>

#include "core/binary_file.hpp"
#include "core/errors.hpp"
#include "core/parallel_ranges.hpp"
#include "games/oware/oware_level_solver.hpp"

namespace rastros::oware {

namespace {

constexpr std::string_view kMagic = "RSOWARDB";
constexpr std::string_view kLevelMagic = "RSOWARLV";
constexpr std::uint32_t kVersion = 1;
constexpr std::string_view kGameName = "oware";

// Ranks are 32-bit node numbers in the level solver.
constexpr std::uint64_t kMaxLevelSize = std::uint64_t{1} << 32;

// One position's moves: captures are exits valued from `lower`, the others children in the
// level. An ended game's only exit is rule 4's.
void add_node(const Oware& game, int seeds, const OwareState& state,
              const std::vector<std::vector<std::int8_t>>& lower, LevelGraph& graph,
              std::uint64_t node) {
  const auto moves = game.legal_moves(state);
  if (moves.size() == 0) {
    graph.best_exit[node] = static_cast<std::int8_t>(game.terminal_score(state));
    return;
  }
  int best = kNoExit;
  int count = 0;
  for (const OwareMove move : moves) {
    const OwarePlayed played = game.play(state, move);
    if (played.gain > 0) {
      const int after = lower[seeds - played.gain][game.level_rank(played.next)];
      best = std::max(best, played.gain - after);
    } else {
      graph.children[node * graph.stride + count++] =
          static_cast<std::uint32_t>(game.level_rank(played.next));
    }
  }
  graph.best_exit[node] = static_cast<std::int8_t>(best);
  graph.child_count[node] = static_cast<std::uint8_t>(count);
}

LevelGraph level_graph(const Oware& game, int seeds,
                       const std::vector<std::vector<std::int8_t>>& lower) {
  const std::uint64_t size = game.level_size(seeds);
  if (size >= kMaxLevelSize) {
    throw InputError("level " + std::to_string(seeds) + " of oware with " +
                     std::to_string(game.houses()) + " houses has " + std::to_string(size) +
                     " positions, more than a level can hold (2^32)");
  }
  LevelGraph graph(size, game.houses());
  parallel_for_ranges(0, size, [&](std::uint64_t first, std::uint64_t last) {
    OwareState state = game.level_unrank(seeds, first);
    for (std::uint64_t rank = first; rank != last; ++rank) {
      if (rank != first) game.level_next(state);
      add_node(game, seeds, state, lower, graph, rank);
    }
  }, 8192);
  return graph;
}

std::filesystem::path level_file(const std::filesystem::path& directory, int houses, int seeds) {
  return directory / ("oware-" + std::to_string(houses) + "-level-" + std::to_string(seeds) + ".bin");
}

void save_level(const std::filesystem::path& path, int houses, int seeds,
                const std::vector<std::int8_t>& level) {
  std::vector<unsigned char> bytes = begin_binary_file(kLevelMagic, kVersion);
  put_le(bytes, static_cast<std::uint64_t>(houses), 4);
  put_le(bytes, static_cast<std::uint64_t>(seeds), 4);
  bytes.insert(bytes.end(), level.begin(), level.end());
  finish_binary_file(path, std::move(bytes), "checkpoint level");
}

// The level kept in a checkpoint, or nothing when its file is absent.
std::optional<std::vector<std::int8_t>> load_level(const std::filesystem::path& path,
                                                   const Oware& game, int seeds) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  const auto bytes = read_binary_file(path, kLevelMagic, kVersion, "checkpoint level");
  const std::size_t at = kBinaryHeaderBytes;
  const std::uint64_t size = game.level_size(seeds);
  if (bytes.size() != at + 8 + size || get_le(bytes, at, 4) != static_cast<std::uint64_t>(game.houses()) ||
      get_le(bytes, at + 4, 4) != static_cast<std::uint64_t>(seeds)) {
    throw binary_file_error("checkpoint level", path,
                            "not level " + std::to_string(seeds) + " of oware with " +
                                std::to_string(game.houses()) + " houses");
  }
  return std::vector<std::int8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(at + 8), bytes.end());
}

}  // namespace

std::vector<std::int8_t> OwareDatabase::solve_one_level(
    const Oware& game, int seeds, const std::vector<std::vector<std::int8_t>>& lower) {
  return solve_level(level_graph(game, seeds, lower), seeds);
}

OwareDatabase OwareDatabase::build(const Oware& game, int max_seeds, const BuildOptions& options) {
  if (max_seeds < 0 || max_seeds > kMaxDatabaseSeeds) {
    throw InputError("--endgame-seeds must be between 0 and " + std::to_string(kMaxDatabaseSeeds) +
                     ", not " + std::to_string(max_seeds));
  }
  OwareDatabase database;
  database.houses_ = game.houses();
  database.max_seeds_ = max_seeds;
  if (!options.checkpoint.empty()) std::filesystem::create_directories(options.checkpoint);
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    const auto kept = options.checkpoint.empty() ? std::filesystem::path()
                                                 : level_file(options.checkpoint, game.houses(), seeds);
    std::optional<std::vector<std::int8_t>> level;
    if (options.resume && !kept.empty()) level = load_level(kept, game, seeds);
    const bool resumed = level.has_value();
    if (!level) {
      level = solve_one_level(game, seeds, database.levels_);
      if (!kept.empty()) save_level(kept, game.houses(), seeds, *level);
    }
    database.levels_.push_back(std::move(*level));
    if (options.progress) options.progress(seeds, database.levels_.back().size(), resumed);
  }
  return database;
}

std::uint64_t OwareDatabase::states_up_to(const Oware& game, int max_seeds) {
  std::uint64_t total = 0;
  for (int seeds = 0; seeds <= max_seeds; ++seeds) total += game.level_size(seeds);
  return total;
}

std::uint64_t OwareDatabase::size() const {
  std::uint64_t total = 0;
  for (const auto& level : levels_) total += level.size();
  return total;
}

void OwareDatabase::save(const std::filesystem::path& path) const {
  std::vector<unsigned char> bytes = begin_binary_file(kMagic, kVersion);
  put_le(bytes, kGameName.size(), 1);
  bytes.insert(bytes.end(), kGameName.begin(), kGameName.end());
  put_le(bytes, static_cast<std::uint64_t>(houses_), 4);
  put_le(bytes, static_cast<std::uint64_t>(max_seeds_), 4);
  for (const auto& level : levels_) bytes.insert(bytes.end(), level.begin(), level.end());
  finish_binary_file(path, std::move(bytes), "database");
}

OwareDatabase OwareDatabase::load(const std::filesystem::path& path, const Oware* game) {
  const auto bytes = read_binary_file(path, kMagic, kVersion, "database");
  std::size_t at = kBinaryHeaderBytes;
  const auto fail = [&](const std::string& problem) {
    return binary_file_error("database", path, problem);
  };
  const std::size_t header = 1 + kGameName.size() + 8;
  if (bytes.size() < at + header || get_le(bytes, at, 1) != kGameName.size() ||
      !std::equal(kGameName.begin(), kGameName.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at + 1))) {
    throw fail("not an oware endgame database");
  }
  at += 1 + kGameName.size();
  const auto houses = static_cast<int>(get_le(bytes, at, 4));
  const auto max_seeds = static_cast<int>(get_le(bytes, at + 4, 4));
  at += 8;
  if (houses < 1 || houses > kMaxHouses || max_seeds < 0 || max_seeds > kMaxDatabaseSeeds) {
    throw fail("bad houses or seeds in its header");
  }
  if (game && game->houses() != houses) {
    throw fail("it is for " + std::to_string(houses) + " houses, not " +
               std::to_string(game->houses()) + " (give --houses " + std::to_string(houses) + ")");
  }
  const Oware shape(houses, 1);
  OwareDatabase database;
  database.houses_ = houses;
  database.max_seeds_ = max_seeds;
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    const std::uint64_t size = shape.level_size(seeds);
    if (bytes.size() - at < size) throw fail("cut short at level " + std::to_string(seeds));
    const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(at);
    database.levels_.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(size));
    // A score outside the level's range would index past the stats' counts.
    for (const std::int8_t score : database.levels_.back()) {
      if (score < -seeds || score > seeds) {
        throw fail("a score of " + std::to_string(score) + " in level " + std::to_string(seeds));
      }
    }
    at += size;
  }
  if (at != bytes.size()) throw fail("extra bytes after its last level");
  return database;
}

std::optional<std::string> OwareDatabase::verify(const Oware& game) const {
  for (int seeds = 0; seeds <= max_seeds_; ++seeds) {
    // Only the levels below `seeds` are read.
    const auto recomputed = solve_one_level(game, seeds, levels_);
    for (std::uint64_t rank = 0; rank < recomputed.size(); ++rank) {
      if (recomputed[rank] != levels_[seeds][rank]) {
        return std::to_string(seeds) + " seeds, rank " + std::to_string(rank) + ": stored " +
               std::to_string(levels_[seeds][rank]) + ", recomputed " +
               std::to_string(recomputed[rank]);
      }
    }
  }
  return std::nullopt;
}

std::vector<std::vector<std::uint64_t>> OwareDatabase::score_counts() const {
  std::vector<std::vector<std::uint64_t>> counts;
  for (int seeds = 0; seeds <= max_seeds_; ++seeds) {
    std::vector<std::uint64_t> by_score(2 * static_cast<std::size_t>(seeds) + 1, 0);
    for (const std::int8_t score : levels_[seeds]) ++by_score[score + seeds];
    counts.push_back(std::move(by_score));
  }
  return counts;
}

}  // namespace rastros::oware
