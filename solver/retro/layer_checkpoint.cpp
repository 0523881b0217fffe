#include "retro/layer_checkpoint.hpp"

#include <boost/crc.hpp>
#include <cstdio>

#include "core/binary_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

constexpr std::string_view kMagic = "RSTRLAYR";
constexpr std::uint32_t kVersion = 1;
// After the frame's magic and version: u32 region size | u64 count | u32 CRC-32 of the keys.
constexpr std::size_t kHeaderBytes = kBinaryHeaderBytes + 4 + 8 + 4;
constexpr std::size_t kRecordBytes = 3;
constexpr std::string_view kWhat = "checkpoint layer";

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
  std::vector<unsigned char> out = begin_binary_file(kMagic, kVersion);
  out.reserve(kHeaderBytes + records.size() * kRecordBytes + 4);
  put_le(out, static_cast<std::uint64_t>(region_size), 4);
  put_le(out, records.size(), 8);
  put_le(out, keys_crc, 4);
  for (const StrongRecord& record : records) {
    out.push_back(static_cast<unsigned char>(record.value));
    out.push_back(record.remoteness);
    out.push_back(record.best_move);
  }
  finish_binary_file(layer_path(directory, region_size), std::move(out), kWhat);
}

std::vector<StrongRecord> read_layer_records(const std::filesystem::path& directory,
                                             int region_size, std::size_t count,
                                             std::uint32_t keys_crc) {
  const std::filesystem::path path = layer_path(directory, region_size);
  const auto fail = [&](const std::string& problem) {
    return binary_file_error(kWhat, path, problem);
  };
  const std::vector<unsigned char> in = read_binary_file(path, kMagic, kVersion, kWhat);
  const std::size_t expected = kHeaderBytes + count * kRecordBytes;
  if (in.size() != expected) {
    throw fail("holds " + std::to_string(in.size() + 4) + " bytes, the layer needs " +
               std::to_string(expected + 4));
  }
  if (get_le(in, 12, 4) != static_cast<std::uint64_t>(region_size) || get_le(in, 16, 8) != count ||
      get_le(in, 24, 4) != keys_crc) {
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
  if (saved->text("game") != game_identity(rastros)) {
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
  checkpoint.fields = {{"game", game_identity(rastros)}};
  if (ranks > 0) checkpoint.fields["ranks"] = std::to_string(ranks);
  checkpoint.fields["valued_layers"] = std::to_string(valued_layers);
  write_checkpoint(directory / "strong.checkpoint", checkpoint);
}

}  // namespace rastros
