#include "retro/layer_checkpoint.hpp"

#include <boost/crc.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

constexpr char kMagic[8] = {'R', 'S', 'T', 'R', 'L', 'A', 'Y', 'R'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 4;
constexpr std::size_t kRecordBytes = 3;

void put(std::vector<unsigned char>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

std::uint64_t get(const std::vector<unsigned char>& in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
  return value;
}

std::filesystem::path layer_path(const std::filesystem::path& directory, int region_size) {
  char name[32];
  std::snprintf(name, sizeof name, "layer-%02d.records", region_size);
  return directory / name;
}

}  // namespace

std::uint32_t keys_checksum(std::span<const PackedPosition> keys) {
  boost::crc_32_type crc;
  unsigned char bytes[9];
  for (const PackedPosition& key : keys) {
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(key.free >> (8 * i));
    bytes[8] = key.snail;
    crc.process_bytes(bytes, sizeof bytes);
  }
  return crc.checksum();
}

void write_layer_records(const std::filesystem::path& directory, int region_size,
                         std::uint32_t keys_crc, std::span<const StrongRecord> records) {
  std::vector<unsigned char> out(std::begin(kMagic), std::end(kMagic));
  out.reserve(kHeaderBytes + records.size() * kRecordBytes + 4);
  put(out, kVersion, 4);
  put(out, static_cast<std::uint64_t>(region_size), 4);
  put(out, records.size(), 8);
  put(out, keys_crc, 4);
  for (const StrongRecord& record : records) {
    out.push_back(static_cast<unsigned char>(record.value));
    out.push_back(record.remoteness);
    out.push_back(record.best_move);
  }
  put(out, crc32_of(out), 4);
  write_file_atomically(layer_path(directory, region_size), out, "checkpoint layer");
}

std::vector<StrongRecord> read_layer_records(const std::filesystem::path& directory,
                                             int region_size, std::size_t count,
                                             std::uint32_t keys_crc) {
  const std::filesystem::path path = layer_path(directory, region_size);
  const auto fail = [&](const std::string& problem) {
    return FileError("checkpoint layer " + path.string() + ": " + problem);
  };
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw fail("missing");
  const std::uintmax_t expected = kHeaderBytes + count * kRecordBytes + 4;
  if (size != expected) {
    throw fail("holds " + std::to_string(size) + " bytes, the layer needs " +
               std::to_string(expected));
  }
  std::ifstream file(path, std::ios::binary);
  std::vector<unsigned char> in(static_cast<std::size_t>(size));
  if (!file.read(reinterpret_cast<char*>(in.data()), static_cast<std::streamsize>(size))) {
    throw fail("cannot read");
  }
  if (get(in, in.size() - 4, 4) != crc32_of(std::span(in).first(in.size() - 4))) {
    throw fail("checksum mismatch (corrupt)");
  }
  if (!std::equal(std::begin(kMagic), std::end(kMagic), in.begin())) throw fail("bad magic");
  if (get(in, 8, 4) != kVersion) throw fail("format version " + std::to_string(get(in, 8, 4)));
  if (get(in, 12, 4) != static_cast<std::uint64_t>(region_size) || get(in, 16, 8) != count ||
      get(in, 24, 4) != keys_crc) {
    throw fail("written for other positions than this solve enumerates (another game or build)");
  }
  std::vector<StrongRecord> records(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = kHeaderBytes + i * kRecordBytes;
    if (in[at] > static_cast<unsigned char>(Value::win)) throw fail("bad value");
    records[i] = {static_cast<Value>(in[at]), in[at + 1], in[at + 2]};
  }
  return records;
}

std::string strong_game_identity(const Rastros& rastros) {
  const Board& board = rastros.board();
  std::ostringstream identity;
  identity << board.name() << " " << steps_name(board.steps()) << " "
           << rules_name(rastros.stuck_rule()) << " start " << square_name(board, rastros.start());
  return identity.str();
}

int valued_layers_to_resume(const std::filesystem::path& directory, const Rastros& rastros,
                            bool resume, int ranks) {
  const std::filesystem::path state = directory / "strong.checkpoint";
  const std::optional<Checkpoint> saved = read_checkpoint(state, "strong");
  if (!saved) return 0;
  if (!resume) {
    throw InputError("checkpoint directory " + directory.string() +
                     " holds an unfinished strong solve; add --resume to continue it, or "
                     "remove it");
  }
  if (saved->text("game") != strong_game_identity(rastros)) {
    throw InputError("the checkpoint in " + directory.string() + " is of another game (" +
                     saved->text("game") + "); remove it or drop --resume");
  }
  if (ranks > 0 && saved->number("ranks") != static_cast<std::uint64_t>(ranks)) {
    throw InputError("the checkpoint in " + directory.string() + " was written by " +
                     std::to_string(saved->number("ranks")) + " MPI ranks; resume it with -np " +
                     std::to_string(saved->number("ranks")));
  }
  const std::uint64_t valued = saved->number("valued_layers");
  if (valued > kMaxSquares + 1)
    throw FileError("checkpoint " + state.string() + ": bad valued_layers");
  return static_cast<int>(valued);
}

void write_strong_state(const std::filesystem::path& directory, const Rastros& rastros,
                        int valued_layers, int ranks) {
  Checkpoint checkpoint;
  checkpoint.kind = "strong";
  checkpoint.fields = {{"game", strong_game_identity(rastros)}};
  if (ranks > 0) checkpoint.fields["ranks"] = std::to_string(ranks);
  checkpoint.fields["valued_layers"] = std::to_string(valued_layers);
  write_checkpoint(directory / "strong.checkpoint", checkpoint);
}

}  // namespace rastros
