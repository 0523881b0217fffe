#include "games/oware/oware_database.hpp"

#include <algorithm>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>

#include "core/binary_file.hpp"
#include "core/chunk_crcs.hpp"
#include "core/errors.hpp"
#include "core/parallel_ranges.hpp"
#include "core/regular_file.hpp"
#include "games/oware/oware_level.hpp"

namespace rastros::oware {

namespace {

constexpr std::string_view kMagic = "RSOWARDB";
constexpr std::string_view kLevelMagic = "RSOWARLV";
constexpr std::uint32_t kVersion = 2;           // the levels, then a CRC-32 a 64 KiB chunk
constexpr std::uint32_t kUnchunkedVersion = 1;  // the levels alone: read whole
constexpr std::uint32_t kLevelVersion = 1;      // a checkpoint's level file
constexpr std::string_view kGameName = "oware";
// magic, version, the game's name with its length, houses, K
constexpr std::size_t kHeaderBytes = kBinaryHeaderBytes + 1 + kGameName.size() + 8;
// No file is this large: a header claiming more is refused before any sum can overflow.
constexpr std::uint64_t kMostFileBytes = std::uint64_t{1} << 44;

std::filesystem::path level_file(const std::filesystem::path& directory, int houses, int seeds) {
  return directory /
         ("oware-" + std::to_string(houses) + "-level-" + std::to_string(seeds) + ".bin");
}

std::span<const unsigned char> bytes_of(const std::vector<std::int8_t>& level) {
  return {reinterpret_cast<const unsigned char*>(level.data()), level.size()};
}

// Written piece by piece: a level is never copied whole (600 MB at 25 seeds on 6 houses).
void save_level(const std::filesystem::path& path, int houses, int seeds,
                const std::vector<std::int8_t>& level) {
  BinaryFileWriter file(path, kLevelMagic, kLevelVersion, "checkpoint level");
  std::vector<unsigned char> head;
  put_le(head, static_cast<std::uint64_t>(houses), 4);
  put_le(head, static_cast<std::uint64_t>(seeds), 4);
  file.write(head);
  file.write(bytes_of(level));
  file.commit();
}

// The level kept in a checkpoint, or nothing when its file is absent.
std::optional<std::vector<std::int8_t>> load_level(const std::filesystem::path& path,
                                                   const Oware& game, int seeds) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  const auto bytes = read_binary_file(path, kLevelMagic, kLevelVersion, "checkpoint level");
  const std::size_t at = kBinaryHeaderBytes;
  const std::uint64_t size = game.level_size(seeds);
  if (bytes.size() != at + 8 + size ||
      get_le(bytes, at, 4) != static_cast<std::uint64_t>(game.houses()) ||
      get_le(bytes, at + 4, 4) != static_cast<std::uint64_t>(seeds)) {
    throw binary_file_error("checkpoint level", path,
                            "not level " + std::to_string(seeds) + " of oware with " +
                                std::to_string(game.houses()) + " houses");
  }
  return std::vector<std::int8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(at + 8), bytes.end());
}

}  // namespace

std::vector<std::int8_t> OwareDatabase::solve_one_level(
    const Oware& game, int seeds, const std::vector<std::vector<std::int8_t>>& lower,
    std::uint64_t level_memory, const LevelProgress& progress) {
  return solve_level_within(game, seeds, lower, level_memory, nullptr, progress);
}

std::vector<std::uint16_t> OwareDatabase::distances(const Oware& game, int seeds) const {
  if (seeds < 0 || seeds > max_seeds_) {
    throw std::out_of_range("OwareDatabase::distances: level " + std::to_string(seeds) +
                            " is not in the database");
  }
  std::vector<std::uint16_t> distances;
  const std::vector<std::int8_t> values =
      solve_level_within(game, seeds, levels_, kDefaultLevelMemory, &distances);
  if (values != levels_[seeds]) {
    throw FileError("level " + std::to_string(seeds) +
                    " of the database is not what its rules and the levels below give: run verify");
  }
  return distances;
}

namespace {

// BuildOptions::level_progress for level `seeds`, as solve_one_level takes it.
LevelProgress level_progress(const BuildOptions& options, int seeds) {
  if (!options.level_progress) return {};
  return [&options, seeds](int threshold, std::uint64_t decided) {
    options.level_progress(seeds, threshold, decided);
  };
}

}  // namespace

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
    const auto kept = options.checkpoint.empty()
                          ? std::filesystem::path()
                          : level_file(options.checkpoint, game.houses(), seeds);
    std::optional<std::vector<std::int8_t>> level;
    if (options.resume && !kept.empty()) level = load_level(kept, game, seeds);
    if (options.agree_on_checkpoint) options.agree_on_checkpoint(seeds, level.has_value());
    const bool resumed = level.has_value();
    if (!level) {
      level = options.solve_level
                  ? options.solve_level(seeds, database.levels_)
                  : solve_one_level(game, seeds, database.levels_, options.level_memory,
                                    level_progress(options, seeds));
      if (!kept.empty() && options.writes_checkpoint) {
        save_level(kept, game.houses(), seeds, *level);
      }
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

// Written piece by piece, as the levels are: the database is never copied whole in memory.
void OwareDatabase::save(const std::filesystem::path& path) const {
  BinaryFileWriter file(path, kMagic, kVersion, "database");
  std::vector<unsigned char> head;
  put_le(head, kGameName.size(), 1);
  head.insert(head.end(), kGameName.begin(), kGameName.end());
  put_le(head, static_cast<std::uint64_t>(houses_), 4);
  put_le(head, static_cast<std::uint64_t>(max_seeds_), 4);
  file.write(head);
  ChunkCrcs chunks;
  for (const auto& level : levels_) {
    chunks.add(bytes_of(level));
    file.write(bytes_of(level));
  }
  file.write(encode_chunk_table(chunks.finish()));
  file.commit();
}

namespace {

// What a file's header says: houses, K and where each level lies, checked against the file's
// size before anything is allocated.
struct FileHeader {
  std::uint32_t version = 0;
  int houses = 0;
  int max_seeds = -1;
  std::vector<std::uint64_t> level_offsets;  // in the file; one more: the levels' end

  std::uint64_t payload() const { return level_offsets.back() - kHeaderBytes; }
  std::uint64_t file_size() const {
    return level_offsets.back() + (version == kVersion ? chunk_table_bytes(payload()) : 0) + 4;
  }
};

FileHeader read_header(std::span<const unsigned char> head, std::uint32_t version,
                       const std::filesystem::path& path, const Oware* game) {
  const auto fail = [&](const std::string& problem) {
    return binary_file_error("database", path, problem);
  };
  std::size_t at = kBinaryHeaderBytes;
  if (head.size() < kHeaderBytes || get_le(head, at, 1) != kGameName.size() ||
      !std::equal(kGameName.begin(), kGameName.end(),
                  head.begin() + static_cast<std::ptrdiff_t>(at + 1))) {
    throw fail("not an oware endgame database");
  }
  at += 1 + kGameName.size();
  FileHeader header;
  header.version = version;
  header.houses = static_cast<int>(get_le(head, at, 4));
  header.max_seeds = static_cast<int>(get_le(head, at + 4, 4));
  if (header.houses < 1 || header.houses > kMaxHouses || header.max_seeds < 0 ||
      header.max_seeds > kMaxDatabaseSeeds) {
    throw fail("bad houses or seeds in its header");
  }
  if (game && game->houses() != header.houses) {
    throw fail("it is for " + std::to_string(header.houses) + " houses, not " +
               std::to_string(game->houses()) + " (give --houses " + std::to_string(header.houses) +
               ")");
  }
  const Oware shape(header.houses, 1);
  header.level_offsets.push_back(kHeaderBytes);

  for (int seeds = 0; seeds <= header.max_seeds; ++seeds) {
    const std::uint64_t size = shape.level_size(seeds);
    if (size > kMostFileBytes || header.level_offsets.back() + size > kMostFileBytes)
      throw fail("cut short");
    header.level_offsets.push_back(header.level_offsets.back() + size);
  }
  return header;
}

void check_scores(std::span<const std::int8_t> level, int seeds,
                  const std::filesystem::path& path) {
  // A score outside the level's range would index past the stats' counts.
  for (const std::int8_t score : level) {
    if (score < -seeds || score > seeds) {
      throw binary_file_error(
          "database", path,
          "a score of " + std::to_string(score) + " in level " + std::to_string(seeds));
    }
  }
}

}  // namespace

OwareDatabase OwareDatabase::load(const std::filesystem::path& path, const Oware* game) {
  const auto [bytes, version] =
      read_binary_file(path, kMagic, kUnchunkedVersion, kVersion, "database");
  const FileHeader header = read_header(bytes, version, path, game);
  if (header.file_size() != bytes.size() + 4) {
    throw binary_file_error(
        "database", path,
        bytes.size() + 4 < header.file_size() ? "cut short" : "extra bytes after its last level");
  }
  if (version == kVersion) {
    // The chunks as a query would check them, so that a file passes both ways or neither.
    ChunkCrcs chunks;
    chunks.add(std::span(bytes).subspan(kHeaderBytes, header.payload()));
    const auto table = decode_chunk_table(std::span(bytes).subspan(header.level_offsets.back()));
    if (!table || *table != chunks.finish()) {
      throw binary_file_error("database", path, "chunk checksums that do not match (damaged)");
    }
  }
  OwareDatabase database;
  database.houses_ = header.houses;
  database.max_seeds_ = header.max_seeds;
  for (int seeds = 0; seeds <= header.max_seeds; ++seeds) {
    const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(header.level_offsets[seeds]);
    const auto end = bytes.begin() + static_cast<std::ptrdiff_t>(header.level_offsets[seeds + 1]);
    database.levels_.emplace_back(begin, end);
    check_scores(database.levels_.back(), seeds, path);
  }
  return database;
}

struct OwareDatabaseFile::Impl {
  explicit Impl(const std::filesystem::path& path) : file(path, kMostFileBytes, "database") {}

  RegularFile file;
  FileHeader header;
  std::optional<ChunkedLevels> levels;  // format 2
  std::optional<OwareDatabase> whole;   // format 1
};

OwareDatabaseFile::OwareDatabaseFile(const std::filesystem::path& path, const Oware& game)
    : impl_(std::make_unique<Impl>(path)) {
  const RegularFile& file = impl_->file;
  if (file.size() < kHeaderBytes + 4) file.fail("truncated");
  const std::string head = file.read(kHeaderBytes);
  const std::span head_bytes(reinterpret_cast<const unsigned char*>(head.data()), head.size());
  if (!std::equal(kMagic.begin(), kMagic.end(), head_bytes.begin())) file.fail("bad magic");
  const auto version = static_cast<std::uint32_t>(get_le(head_bytes, 8, 4));
  if (version == kUnchunkedVersion) {
    impl_->whole = OwareDatabase::load(path, &game);
    impl_->header = read_header(head_bytes, version, path, &game);
    return;
  }
  if (version != kVersion) file.fail("format version " + std::to_string(version));
  impl_->header = read_header(head_bytes, version, path, &game);
  const FileHeader& header = impl_->header;
  if (header.file_size() != file.size()) {
    file.fail(file.size() < header.file_size() ? "cut short" : "extra bytes after its last level");
  }
  impl_->levels.emplace(file, header.level_offsets);
}

OwareDatabaseFile::~OwareDatabaseFile() = default;

int OwareDatabaseFile::max_seeds() const {
  return impl_->header.max_seeds;
}

std::optional<int> OwareDatabaseFile::probe(const Oware& game, const OwareState& state) const {
  if (impl_->whole) return impl_->whole->probe(game, state);
  const int seeds = game.seeds_in_play(state);
  if (seeds > impl_->header.max_seeds) return std::nullopt;
  const std::int8_t score = impl_->levels->at(seeds, game.level_rank(state));
  check_scores({&score, 1}, seeds, impl_->file.path());
  return score;
}

std::size_t OwareDatabaseFile::chunks_read() const {
  return impl_->levels ? impl_->levels->chunks_read() : 0;
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
