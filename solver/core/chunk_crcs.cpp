#include "core/chunk_crcs.hpp"

#include <algorithm>

#include "core/binary_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "core/regular_file.hpp"

namespace rastros {

void ChunkCrcs::add(std::span<const unsigned char> bytes) {
  while (!bytes.empty()) {
    const auto take =
        static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), kChunkBytes - filled_));
    crc_ = crc32_update(crc_, bytes.first(take));
    filled_ += take;
    bytes = bytes.subspan(take);
    if (filled_ == kChunkBytes) {
      crcs_.push_back(crc_);
      crc_ = 0;
      filled_ = 0;
    }
  }
}

std::vector<std::uint32_t> ChunkCrcs::finish() {
  if (filled_ > 0) crcs_.push_back(crc_);
  crc_ = 0;
  filled_ = 0;
  return std::move(crcs_);
}

std::vector<unsigned char> encode_chunk_table(const std::vector<std::uint32_t>& crcs) {
  std::vector<unsigned char> bytes;
  for (const std::uint32_t crc : crcs) put_le(bytes, crc, 4);
  put_le(bytes, crc32_of(bytes), 4);
  return bytes;
}

std::optional<std::vector<std::uint32_t>> decode_chunk_table(std::span<const unsigned char> bytes) {
  if (bytes.size() < 4 || bytes.size() % 4 != 0) return std::nullopt;
  const std::size_t table = bytes.size() - 4;
  if (get_le(bytes, table, 4) != crc32_of(bytes.first(table))) return std::nullopt;
  std::vector<std::uint32_t> crcs;
  for (std::size_t at = 0; at < table; at += 4)
    crcs.push_back(static_cast<std::uint32_t>(get_le(bytes, at, 4)));
  return crcs;
}

ChunkedPayload::ChunkedPayload(ReadAt read, std::uint64_t payload_offset,
                               std::uint64_t payload_bytes, std::vector<std::uint32_t> crcs,
                               std::filesystem::path path)
    : read_(std::move(read)),
      payload_offset_(payload_offset),
      payload_bytes_(payload_bytes),
      crcs_(std::move(crcs)),
      path_(std::move(path)) {}

unsigned char ChunkedPayload::at(std::uint64_t offset) const {
  if (offset >= payload_bytes_) {
    throw FileError(path_.string() + ": a probe at byte " + std::to_string(offset) +
                    " of levels of " + std::to_string(payload_bytes_) + " (another game's shape?)");
  }
  const std::uint64_t chunk = offset / kChunkBytes;
  const std::lock_guard lock(mutex_);
  auto found = chunks_.find(chunk);
  if (found == chunks_.end()) {
    // A long-lived reader keeps at most this many chunks (64 MiB).
    constexpr std::size_t kMostChunksKept = 1024;
    if (chunks_.size() >= kMostChunksKept) chunks_.clear();
    const std::uint64_t begin = chunk * kChunkBytes;
    std::string bytes =
        read_(payload_offset_ + begin, std::min(kChunkBytes, payload_bytes_ - begin));
    const std::span view(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    if (chunk >= crcs_.size() || crc32_of(view) != crcs_[chunk]) {
      throw FileError(path_.string() + ": chunk " + std::to_string(chunk) +
                      " checksum mismatch (damaged)");
    }
    ++chunks_read_;
    found = chunks_.emplace(chunk, std::move(bytes)).first;
  }
  return static_cast<unsigned char>(found->second[offset % kChunkBytes]);
}

std::size_t ChunkedPayload::chunks_read() const {
  const std::lock_guard lock(mutex_);
  return chunks_read_;
}

namespace {

std::vector<std::uint32_t> read_chunk_table(const RegularFile& file, std::uint64_t levels_begin,
                                            std::uint64_t levels_end) {
  const std::string bytes = file.read_at(levels_end, chunk_table_bytes(levels_end - levels_begin));
  auto table =
      decode_chunk_table({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
  if (!table) file.fail("chunk table checksum mismatch (damaged)");
  return std::move(*table);
}

}  // namespace

ChunkedLevels::ChunkedLevels(const RegularFile& file, std::vector<std::uint64_t> level_offsets)
    : level_offsets_(std::move(level_offsets)),
      payload_([&file](std::uint64_t offset,
                       std::uint64_t length) { return file.read_at(offset, length); },
               level_offsets_.front(), level_offsets_.back() - level_offsets_.front(),
               read_chunk_table(file, level_offsets_.front(), level_offsets_.back()), file.path()) {
}

}  // namespace rastros
