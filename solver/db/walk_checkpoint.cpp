#include "db/walk_checkpoint.hpp"

#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "core/binary_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"

namespace rastros {
namespace {

constexpr std::string_view kMagic = "RSTRWALK";
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kEntryBytes = 8 + 4;
constexpr std::uint8_t kUnknownValue = 255;
constexpr const char* kStateName = "walk.checkpoint";
constexpr std::string_view kWhat = "walk checkpoint";
// The body after the frame's header: u32 ply | u64 count | the entries.
constexpr std::size_t kFirstEntry = kBinaryHeaderBytes + 12;

std::filesystem::path positions_path(const std::filesystem::path& directory, const char* what,
                                     int ply) {
  char name[48];
  std::snprintf(name, sizeof name, "walk-%s-%02d.positions", what, ply);
  return directory / name;
}

/// One entry per position: the record, or only the value (255: none) with no move.
struct Entry {
  PackedPosition key;
  std::uint8_t value;
  std::uint8_t remoteness;
  std::uint8_t move;
};

// Body (core/binary_file.hpp frame): u32 ply | u64 count | the entries.
void write_entries(const std::filesystem::path& path, int ply, const std::vector<Entry>& entries) {
  std::vector<unsigned char> out = begin_binary_file(kMagic, kVersion);
  out.reserve(kFirstEntry + entries.size() * kEntryBytes + 4);
  put_le(out, static_cast<std::uint64_t>(ply), 4);
  put_le(out, entries.size(), 8);
  for (const Entry& entry : entries) {
    put_le(out, entry.key.free, 8);
    out.insert(out.end(), {entry.key.snail, entry.value, entry.remoteness, entry.move});
  }
  finish_binary_file(path, std::move(out), kWhat);
}

std::vector<Entry> read_entries(const std::filesystem::path& path, int ply) {
  const std::vector<unsigned char> in = read_binary_file(path, kMagic, kVersion, kWhat);
  const auto fail = [&](const std::string& problem) {
    return binary_file_error(kWhat, path, problem);
  };
  if (in.size() < kFirstEntry) throw fail("truncated");
  const std::uint64_t count = get_le(in, kBinaryHeaderBytes + 4, 8);
  if (get_le(in, kBinaryHeaderBytes, 4) != static_cast<std::uint64_t>(ply) ||
      count != (in.size() - kFirstEntry) / kEntryBytes ||
      (in.size() - kFirstEntry) % kEntryBytes != 0) {
    throw fail("not the file of ply " + std::to_string(ply) + " it is named for");
  }
  std::vector<Entry> entries(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = kFirstEntry + i * kEntryBytes;
    entries[i] = {{get_le(in, at, 8), in[at + 8]}, in[at + 9], in[at + 10], in[at + 11]};
    if (entries[i].value > static_cast<std::uint8_t>(Value::win) &&
        entries[i].value != kUnknownValue) {
      throw fail("bad value");
    }
  }
  return entries;
}

}  // namespace

std::optional<SavedWalk> read_walk_checkpoint(const WalkCheckpoint& checkpoint) {
  const std::optional<Checkpoint> state =
      read_checkpoint(checkpoint.directory / kStateName, "walk");
  if (!state) return std::nullopt;
  if (!checkpoint.resume) {
    throw InputError("checkpoint directory " + checkpoint.directory.string() +
                     " holds an unfinished build; add --resume to continue it, or remove it");
  }
  if (state->text("build") != checkpoint.identity) {
    throw InputError("the checkpoint in " + checkpoint.directory.string() +
                     " is of another build (" + state->text("build") +
                     "); remove it or drop --resume");
  }
  const std::filesystem::path state_path = checkpoint.directory / kStateName;
  const std::uint64_t plies = state->number("plies");
  if (plies > kMaxSquares + 1) {
    throw binary_file_error(kWhat, state_path, "bad plies " + std::to_string(plies));
  }
  SavedWalk saved;
  saved.plies = static_cast<int>(plies);
  // Room for every stored position at once (the 8x8 proof has 69 million): from the file
  // sizes, which the reads below check.
  std::size_t expected = 0;
  for (int ply = 0; ply < saved.plies; ++ply) {
    std::error_code error;
    const std::uintmax_t size =
        std::filesystem::file_size(positions_path(checkpoint.directory, "ply", ply), error);
    if (!error && size > kFirstEntry + 4) expected += (size - kFirstEntry - 4) / kEntryBytes;
  }
  saved.stored.reserve(expected);
  for (int ply = 0; ply < saved.plies; ++ply) {
    const std::filesystem::path path = positions_path(checkpoint.directory, "ply", ply);
    for (const Entry& entry : read_entries(path, ply)) {
      if (entry.value == kUnknownValue) {
        throw binary_file_error(kWhat, path, "a stored position has no value");
      }
      saved.stored.push_back(
          {entry.key, {static_cast<Value>(entry.value), entry.remoteness, entry.move}});
    }
  }
  // Each ply's file is in key order; together they are not.
  oneapi::tbb::parallel_sort(
      saved.stored.begin(), saved.stored.end(),
      [](const StoredPosition& a, const StoredPosition& b) { return a.key < b.key; });
  const auto same_key = [](const auto& a, const auto& b) { return a.key == b.key; };
  if (std::adjacent_find(saved.stored.begin(), saved.stored.end(), same_key) !=
      saved.stored.end()) {
    throw FileError("walk checkpoint in " + checkpoint.directory.string() +
                    ": a position is stored by two plies");
  }
  const std::filesystem::path next_path = positions_path(checkpoint.directory, "next", saved.plies);
  for (const Entry& entry : read_entries(next_path, saved.plies)) {
    std::optional<Value> value;
    if (entry.value != kUnknownValue) value = static_cast<Value>(entry.value);
    // The walk keeps the next ply in key order, each key once, none of them stored.
    const bool in_order = saved.next.empty() || saved.next.back().key < entry.key;
    const auto at = std::lower_bound(saved.stored.begin(), saved.stored.end(), entry.key,
                                     [](const StoredPosition& position, const PackedPosition& key) {
                                       return position.key < key;
                                     });
    if (!in_order || (at != saved.stored.end() && at->key == entry.key)) {
      throw binary_file_error(kWhat, next_path, "not the positions a walk leaves to expand");
    }
    saved.next.push_back({entry.key, value});
  }
  return saved;
}

void save_walk_ply(const WalkCheckpoint& checkpoint, int ply,
                   const std::vector<StoredPosition>& expanded, const std::vector<WalkNode>& next) {
  if (ply > 0) {
    std::vector<Entry> entries;
    entries.reserve(expanded.size());
    for (const StoredPosition& position : expanded) {
      entries.push_back({position.key, static_cast<std::uint8_t>(position.record.value),
                         position.record.remoteness, position.record.best_move});
    }
    write_entries(positions_path(checkpoint.directory, "ply", ply - 1), ply - 1, entries);
  }
  std::vector<Entry> entries;
  entries.reserve(next.size());
  for (const WalkNode& node : next) {
    entries.push_back({node.key,
                       node.value ? static_cast<std::uint8_t>(*node.value) : kUnknownValue, 0,
                       DatabaseRecord::kNoMove});
  }
  write_entries(positions_path(checkpoint.directory, "next", ply), ply, entries);
  Checkpoint state;
  state.kind = "walk";
  state.fields = {{"build", checkpoint.identity}, {"plies", std::to_string(ply)}};
  write_checkpoint(checkpoint.directory / kStateName, state);
  // The frontier the state no longer names.
  if (ply > 0) {
    std::error_code error;
    std::filesystem::remove(positions_path(checkpoint.directory, "next", ply - 1), error);
  }
}

void remove_walk_checkpoint(const std::filesystem::path& directory) {
  if (directory.empty()) return;
  // The state file first: without it the positions files are never trusted again.
  remove_checkpoint(directory / kStateName);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().filename().string().starts_with("walk-")) {
      std::filesystem::remove(entry.path(), error);
    }
  }
  std::filesystem::remove(directory, error);  // only if empty
}

}  // namespace rastros
