#include "games/kalah/kalah_endgame.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <mutex>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/chunk_crcs.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "core/regular_file.hpp"
#include "core/thread_sanitizer.hpp"
#include "games/mancala/mancala_endgame.hpp"

namespace rastros::kalah {

namespace {

constexpr const char* kMagic = "rastros-kalah-endgame";
constexpr int kFormatVersion = 2;  // the levels, then a CRC-32 a 64 KiB chunk (core/chunk_crcs.hpp)
constexpr int kUnchunkedVersion = 1;  // the levels alone: read whole
// The largest level a file may claim: a byte holds every score up to here, and no variant of
// up to 8 houses with more would fit a machine.
constexpr int kMaxLevel = 127;
// The largest file accepted: beyond every database a machine builds.
constexpr std::uint64_t kMaxFile = std::uint64_t{64} << 30;
constexpr const char* kTooLarge = "larger than any Kalah endgame database";

std::string header_line(int houses, CaptureRule rule, int max_seeds, int version = kFormatVersion) {
  return std::string(kMagic) + " " + std::to_string(version) + " houses=" + std::to_string(houses) +
         " rules=" + std::string(rules_name(rule)) + " max_seeds=" + std::to_string(max_seeds) +
         "\n";
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
  throw FileError(path.string() + ": " + why);
}

}  // namespace

KalahEndgame KalahEndgame::build(const Kalah& game, int max_seeds,
                                 const std::function<void(int, std::uint64_t)>& progress) {
  if (max_seeds < 0 || max_seeds > std::min(kMaxLevel, game.total_seeds())) {
    throw InputError("--endgame-seeds must be between 0 and " +
                     std::to_string(std::min(kMaxLevel, game.total_seeds())) + ", not " +
                     std::to_string(max_seeds));
  }
  KalahEndgame database;
  database.houses_ = game.houses();
  database.rule_ = game.rule();
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    database.levels_.push_back(mancala::build_endgame_level(game, database.levels_, seeds));
    database.max_seeds_ = seeds;
    if (progress) progress(seeds, database.levels_.back().size());
  }
  return database;
}

std::optional<std::string> KalahEndgame::verify(const Kalah& game) const {
  std::optional<std::string> first_error;
  std::mutex mutex;
  for (int seeds = 0; seeds <= max_seeds_; ++seeds) {
    const std::uint64_t size = levels_[seeds].size();
    oneapi::tbb::parallel_for(
        oneapi::tbb::blocked_range<std::uint64_t>(0, size, 1 << 12),
        thread_sanitizer::handed_off([&](const auto& range) {
          const thread_sanitizer::PublishOnExit published(&mutex);
          KalahState state = game.level_unrank(seeds, range.begin());
          for (auto r = range.begin(); r != range.end(); ++r) {
            if (r != range.begin()) game.level_next(state);
            int expected = -1000;
            if (game.is_terminal(state)) {
              expected = game.terminal_score(state);
            } else {
              for (const KalahMove move : game.legal_moves(state)) {
                const KalahPlayed played = game.play(state, move);
                const int child = game.is_terminal(played.next)
                                      ? game.terminal_score(played.next)
                                      : levels_[seeds - played.gain][game.level_rank(played.next)];
                expected = std::max(expected, played.gain + (played.again ? child : -child));
              }
            }
            if (expected != levels_[seeds][r]) {
              const std::lock_guard lock(mutex);
              if (!first_error) {
                first_error = std::to_string(seeds) + " seeds, rank " + std::to_string(r) +
                              ": stored " + std::to_string(levels_[seeds][r]) +
                              ", its moves give " + std::to_string(expected);
              }
              return;
            }
          }
        }));
    thread_sanitizer::acquire(&mutex);
    if (first_error) return first_error;
  }
  return std::nullopt;
}

std::vector<std::vector<std::uint64_t>> KalahEndgame::score_counts() const {
  std::vector<std::vector<std::uint64_t>> counts;
  for (int seeds = 0; seeds <= max_seeds_; ++seeds) {
    std::vector<std::uint64_t> by_score(2 * seeds + 1);
    for (const std::int8_t score : levels_[seeds]) ++by_score[score + seeds];
    counts.push_back(std::move(by_score));
  }
  return counts;
}

std::uint64_t KalahEndgame::states_up_to(const Kalah& game, int max_seeds) {
  return mancala::endgame_states_up_to(game, max_seeds);
}

int KalahEndgame::seeds_within(const Kalah& game, std::uint64_t max_states) {
  return mancala::endgame_seeds_within(game, max_states, game.total_seeds());
}

std::uint64_t KalahEndgame::build_bytes(const Kalah& game, int max_seeds) {
  return states_up_to(game, max_seeds) + game.level_size(max_seeds);
}

std::uint64_t KalahEndgame::size() const {
  std::uint64_t total = 0;
  for (const auto& level : levels_) total += level.size();
  return total;
}

void KalahEndgame::save(const std::filesystem::path& path) const {
  AtomicFileWriter writer(path, "endgame database");
  const std::string header = header_line(houses_, rule_, max_seeds_);
  std::uint32_t crc =
      crc32_update(0, {reinterpret_cast<const unsigned char*>(header.data()), header.size()});
  writer.write(header);
  ChunkCrcs chunks;
  const auto write = [&](std::span<const unsigned char> bytes) {
    crc = crc32_update(crc, bytes);
    writer.write(bytes);
  };
  for (const auto& level : levels_) {
    const std::span bytes(reinterpret_cast<const unsigned char*>(level.data()), level.size());
    chunks.add(bytes);
    write(bytes);
  }
  write(encode_chunk_table(chunks.finish()));
  unsigned char tail[4];
  for (int i = 0; i < 4; ++i) tail[i] = static_cast<unsigned char>(crc >> (8 * i));
  writer.write(std::span<const unsigned char>(tail, 4));
  writer.commit();
}

namespace {

// What a file's header line says, every size it implies checked against the file.
struct FileHeader {
  int version = 0;
  int houses = 0;
  CaptureRule rule = CaptureRule::standard;
  int max_seeds = -1;
  std::uint64_t header_bytes = 0;            // the line and its newline
  std::vector<std::uint64_t> level_offsets;  // in the file; one more: the levels' end

  std::uint64_t payload() const { return level_offsets.back() - header_bytes; }
};

FileHeader read_header(const RegularFile& file, const std::filesystem::path& path,
                       const Kalah* game) {
  const std::string head = file.read(256);
  const std::size_t newline = head.find('\n');
  if (newline == std::string::npos || newline > 200) fail(path, "not a Kalah endgame database");
  std::istringstream line(head.substr(0, newline));
  std::string magic, houses_field, rules_field, seeds_field;
  FileHeader header;
  line >> magic >> header.version >> houses_field >> rules_field >> seeds_field;
  if (magic != kMagic) fail(path, "not a Kalah endgame database");
  if (header.version != kFormatVersion && header.version != kUnchunkedVersion) {
    fail(path, "format version " + std::to_string(header.version) + "; this build reads versions " +
                   std::to_string(kUnchunkedVersion) + " and " + std::to_string(kFormatVersion));
  }
  try {
    if (houses_field.rfind("houses=", 0) != 0 || seeds_field.rfind("max_seeds=", 0) != 0 ||
        rules_field.rfind("rules=", 0) != 0) {
      throw InputError("fields");
    }
    header.houses = std::stoi(houses_field.substr(7));
    header.max_seeds = std::stoi(seeds_field.substr(10));
    header.rule = parse_rules(rules_field.substr(6));
  } catch (const std::exception&) {
    fail(path, "damaged header");
  }
  if (header.houses < 1 || header.houses > kMaxHouses || header.max_seeds < 0 ||
      header.max_seeds > kMaxLevel ||
      header_line(header.houses, header.rule, header.max_seeds, header.version) !=
          head.substr(0, newline + 1)) {
    fail(path, "damaged header");
  }
  if (game && (game->houses() != header.houses || game->rule() != header.rule)) {
    fail(path, "an endgame database of " + std::to_string(header.houses) + " houses, " +
                   std::string(rules_name(header.rule)) + " rules; the game is " + game->name());
  }
  // Level sizes come from a game of these houses (the seeds a house starts with do not matter).
  const Kalah shape(header.houses, 1, header.rule);
  header.header_bytes = newline + 1;
  header.level_offsets.push_back(header.header_bytes);
  for (int seeds = 0; seeds <= header.max_seeds; ++seeds) {
    header.level_offsets.push_back(header.level_offsets.back() + shape.level_size(seeds));
    if (header.level_offsets.back() > file.size())
      fail(path, "truncated (smaller than its header says)");
  }
  const std::uint64_t table =
      header.version == kUnchunkedVersion ? 0 : chunk_table_bytes(header.payload());
  if (file.size() != header.level_offsets.back() + table + 4) {
    fail(path, "truncated or padded (wrong size)");
  }
  return header;
}

}  // namespace

KalahEndgame KalahEndgame::load(const std::filesystem::path& path, const Kalah* game) {
  // The header is read first and every size it implies is checked against the file before
  // the levels are allocated.
  const RegularFile file(path, kMaxFile, "", kTooLarge);
  const FileHeader header = read_header(file, path, game);
  const std::string bytes = file.read(file.size());
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::uint32_t stored = 0;
  for (int i = 0; i < 4; ++i)
    stored |= static_cast<std::uint32_t>(data[bytes.size() - 4 + i]) << (8 * i);
  if (crc32_of({data, bytes.size() - 4}) != stored) fail(path, "checksum mismatch (damaged)");
  if (header.version == kFormatVersion) {
    // The chunks as a query would check them, so that a file passes both ways or neither.
    ChunkCrcs chunks;
    chunks.add({data + header.header_bytes, header.payload()});
    const auto table = decode_chunk_table(
        {data + header.level_offsets.back(), chunk_table_bytes(header.payload())});
    if (!table || chunks.finish() != *table) {
      fail(path, "chunk checksums that do not match (damaged)");
    }
  }

  KalahEndgame database;
  database.houses_ = header.houses;
  database.rule_ = header.rule;
  database.max_seeds_ = header.max_seeds;
  for (int seeds = 0; seeds <= header.max_seeds; ++seeds) {
    database.levels_.emplace_back(
        bytes.begin() + static_cast<std::ptrdiff_t>(header.level_offsets[seeds]),
        bytes.begin() + static_cast<std::ptrdiff_t>(header.level_offsets[seeds + 1]));
    for (const std::int8_t value : database.levels_.back()) {
      if (value < -seeds || value > seeds) fail(path, "a score out of range (damaged)");
    }
  }
  return database;
}

struct KalahEndgameFile::Impl {
  Impl(const std::filesystem::path& path, const Kalah& game)
      : file(path, kMaxFile, "", kTooLarge), header(read_header(file, path, &game)) {}

  RegularFile file;
  FileHeader header;
  std::optional<ChunkedLevels> levels;  // format 2
  std::optional<KalahEndgame> whole;    // format 1
};

KalahEndgameFile::KalahEndgameFile(const std::filesystem::path& path, const Kalah& game)
    : impl_(std::make_unique<Impl>(path, game)) {
  if (impl_->header.version == kUnchunkedVersion) {
    impl_->whole = KalahEndgame::load(path, &game);
  } else {
    impl_->levels.emplace(impl_->file, impl_->header.level_offsets);
  }
}

KalahEndgameFile::~KalahEndgameFile() = default;

int KalahEndgameFile::max_seeds() const {
  return impl_->header.max_seeds;
}

std::optional<int> KalahEndgameFile::probe(const Kalah& game, const KalahState& state) const {
  if (impl_->whole) return impl_->whole->probe(game, state);
  const int seeds = game.seeds_in_play(state);
  if (seeds > impl_->header.max_seeds) return std::nullopt;
  const int value = impl_->levels->at(seeds, game.level_rank(state));
  if (value < -seeds || value > seeds) impl_->file.fail("a score out of range (damaged)");
  return value;
}

std::size_t KalahEndgameFile::chunks_read() const {
  return impl_->levels ? impl_->levels->chunks_read() : 0;
}

}  // namespace rastros::kalah
