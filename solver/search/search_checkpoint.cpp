#include "search/search_checkpoint.hpp"

#include <cstdio>
#include <fstream>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"

namespace rastros {
namespace {

constexpr std::string_view kSearchKind = "proof-number-search";
const std::string kTablePrefix = "search.table.";
/// The layout of ProofTable's buckets; a table of another layout must not be read as this one.
constexpr int kTableFormat = 1;

std::string hex(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", value);
  return text;
}

}  // namespace

SearchCheckpoint::SearchCheckpoint(std::filesystem::path directory, std::string identity,
                                   bool resume)
    : directory_(std::move(directory)),
      state_path_(directory_ / "search.checkpoint"),
      identity_(std::move(identity) + " table-format " + std::to_string(kTableFormat)) {
  prepare_checkpoint_directory(directory_);
  if (!resume && std::filesystem::exists(state_path_)) {
    throw InputError("checkpoint directory " + directory_.string() +
                     " holds an unfinished search; add --resume to continue it, or remove it");
  }
}

SearchProgress SearchCheckpoint::restore(ProofNumberSearch& search) const {
  const std::optional<Checkpoint> saved = read_checkpoint(state_path_, kSearchKind);
  if (!saved) return {};
  if (saved->text("search") != identity_) {
    throw InputError("the checkpoint in " + directory_.string() + " is of another search (" +
                     saved->text("search") + ", not " + identity_ +
                     "); remove it or drop --resume");
  }
  const std::string table_name = saved->text("table");
  if (!table_name.starts_with(kTablePrefix) || table_name.find('/') != std::string::npos) {
    throw FileError("checkpoint " + state_path_.string() + ": bad table name '" + table_name + "'");
  }
  const std::filesystem::path table_path = directory_ / table_name;
  const auto damaged = [&](const std::string& problem) {
    return FileError("checkpoint " + table_path.string() + ": " + problem);
  };
  try {
    generation_ = std::stoull(table_name.substr(kTablePrefix.size()));
  } catch (const std::exception&) {
    throw FileError("checkpoint " + state_path_.string() + ": bad table name '" + table_name + "'");
  }
  SearchProgress progress;
  progress.nodes = saved->number("nodes");
  try {
    progress.seconds = std::stod(saved->text("seconds"));
  } catch (const std::exception&) {
    throw FileError("checkpoint " + state_path_.string() + ": field 'seconds' is not a number");
  }
  const std::uint64_t table_bytes = saved->number("table_bytes");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(table_path, error);
  if (error) throw damaged("missing");
  if (size != table_bytes) {
    throw damaged("holds " + std::to_string(size) + " bytes, the checkpoint says " +
                  std::to_string(table_bytes));
  }
  if (table_bytes != search.table_image().size()) {
    throw damaged("holds a table of " + std::to_string(table_bytes) + " bytes, this search's has " +
                  std::to_string(search.table_image().size()));
  }
  search.restore_table([&](std::span<unsigned char> destination) {
    std::ifstream in(table_path, std::ios::binary);
    constexpr std::size_t kPiece = std::size_t{64} << 20;
    for (std::size_t offset = 0; offset < destination.size() && in; offset += kPiece) {
      const std::size_t length = std::min(kPiece, destination.size() - offset);
      in.read(reinterpret_cast<char*>(destination.data() + offset),
              static_cast<std::streamsize>(length));
    }
    if (!in) throw damaged("cannot be read");
  });
  if (hex(crc32_of(search.table_image())) != saved->text("table_crc32")) {
    throw damaged("checksum mismatch (corrupt)");
  }
  search.add_restored_nodes(progress.nodes);
  return progress;
}

void SearchCheckpoint::save(const ProofNumberSearch& search, const SearchProgress& progress) const {
  const std::span<const unsigned char> table = search.table_image();
  const std::string name = kTablePrefix + std::to_string(generation_ + 1);
  write_file_atomically(directory_ / name, table, "checkpoint");
  Checkpoint checkpoint;
  checkpoint.kind = kSearchKind;
  checkpoint.fields["search"] = identity_;
  checkpoint.fields["nodes"] = std::to_string(progress.nodes);
  checkpoint.fields["seconds"] = std::to_string(progress.seconds);
  checkpoint.fields["table"] = name;
  checkpoint.fields["table_bytes"] = std::to_string(table.size());
  checkpoint.fields["table_crc32"] = hex(crc32_of(table));
  write_checkpoint(state_path_, checkpoint);
  ++generation_;
  // Every older table goes: the previous one, and any a kill left behind between the two
  // writes of an earlier save.
  remove_tables_except(name);
}

void SearchCheckpoint::remove_tables_except(const std::string& kept) const {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(kTablePrefix) && name != kept) {
      std::filesystem::remove(entry.path(), error);
    }
  }
}

void SearchCheckpoint::remove() const {
  try {
    remove_checkpoint(state_path_);  // with its temporaries
  } catch (const std::filesystem::filesystem_error&) {
    // Never fails the search it cleans up after; a leftover file only costs disk.
  }
  remove_tables_except("");
  std::error_code error;
  std::filesystem::remove(directory_, error);  // only if empty
}

}  // namespace rastros
