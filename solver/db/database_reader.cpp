#include "db/database_reader.hpp"

#include <algorithm>
#include <atomic>
#include <list>
#include <mutex>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "db/database_format.hpp"

namespace rastros {

using namespace database_format;

namespace {

// A block's keys and records, decoded.
struct Block {
  std::vector<PackedPosition> keys;
  std::vector<DatabaseRecord> records;

  std::size_t bytes() const {
    return sizeof(Block) + keys.capacity() * sizeof(PackedPosition) +
           records.capacity() * sizeof(DatabaseRecord);
  }
};

}  // namespace

struct DatabaseReader::Impl {
  std::filesystem::path path;
  DatabaseHeader header;
  std::optional<Database> whole;  // format 1, or given in memory

  // Format 2, read a block at a time.
  OpenFile file;
  std::vector<BlockEntry> entries;
  std::vector<PackedPosition> first_keys;  // entries[j].first_key, for the search
  std::size_t cache_bytes = 0;

  mutable std::mutex mutex;  // guards the cache
  using Order = std::list<std::pair<std::size_t, std::shared_ptr<const Block>>>;
  mutable Order order;  // most recently used first
  mutable std::unordered_map<std::size_t, Order::iterator> cached;
  mutable std::size_t cached_bytes = 0;
  mutable std::atomic<std::uint64_t> blocks_read{0};

  std::shared_ptr<const Block> block(std::size_t j) const {
    {
      const std::lock_guard lock(mutex);
      if (const auto found = cached.find(j); found != cached.end()) {
        order.splice(order.begin(), order, found->second);
        return found->second->second;
      }
    }
    // Read and decoded outside the lock, so lookups in other blocks go on meanwhile.
    const BlockEntry& entry = entries[j];
    std::vector<unsigned char> stored(entry.stored_bytes);
    read_at(path, file.fd, entry.offset, stored);
    auto decoded = std::make_shared<Block>();
    decoded->keys.resize(entry.positions);
    decoded->records.resize(entry.positions);
    std::vector<unsigned char> scratch;
    decode_block(path, header, entries, j, stored, scratch, decoded->keys.data(),
                 decoded->records.data());
    blocks_read.fetch_add(1, std::memory_order_relaxed);

    const std::lock_guard lock(mutex);
    if (const auto found = cached.find(j); found != cached.end()) return found->second->second;
    order.emplace_front(j, decoded);
    cached.emplace(j, order.begin());
    cached_bytes += decoded->bytes();
    while (cached_bytes > cache_bytes && order.size() > 1) {
      cached_bytes -= order.back().second->bytes();
      cached.erase(order.back().first);
      order.pop_back();
    }
    return decoded;
  }
};

DatabaseReader::DatabaseReader(const std::filesystem::path& path,
                               std::optional<DatabaseKind> expected_kind,
                               DatabaseReaderOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& impl = *impl_;
  impl.path = path;
  impl.cache_bytes = options.cache_bytes;
  impl.file = OpenFile(path);
  const std::uint64_t size = impl.file.size;
  std::vector<unsigned char> preamble(std::min<std::uint64_t>(size, kPreambleSize));
  read_at(path, impl.file.fd, 0, preamble);
  const std::uint32_t version = check_preamble(path, preamble, size);
  if (version < 2) {
    // No index to read blocks by: the old whole-file load, checked by the whole-file CRC.
    impl.file = OpenFile();
    impl.whole.emplace(read_database(path, expected_kind));
    impl.header = impl.whole->header();
    return;
  }
  const std::uint32_t length = header_length(path, preamble, size);
  // The header, the index and its CRC: how long the index is, the header says, and layout_of
  // checks that against the file's size before the index is allocated.
  std::vector<unsigned char> front(kPreambleSize + length);
  std::copy(preamble.begin(), preamble.end(), front.begin());
  read_at(path, impl.file.fd, kPreambleSize, std::span(front).subspan(kPreambleSize));
  const FileHeader header = parse_header(path, std::span(front).subspan(kPreambleSize), version);
  check_kind(path, header.database, expected_kind);
  const Layout layout = layout_of(path, header, length, size);
  const std::uint64_t index_end = layout.blocks_offset - kChecksumSize;
  front.resize(layout.blocks_offset);
  read_at(path, impl.file.fd, layout.index_offset, std::span(front).subspan(layout.index_offset));
  std::uint32_t stored_crc = 0;
  for (std::size_t i = 0; i < kChecksumSize; ++i) {
    stored_crc |= static_cast<std::uint32_t>(front[index_end + i]) << (8 * i);
  }
  if (crc32_of(std::span(front).first(index_end)) != stored_crc) {
    fail(path, "checksum mismatch (corrupt) in the header or block index");
  }
  impl.entries =
      parse_index(path, header, layout,
                  std::span(front).subspan(layout.index_offset, index_end - layout.index_offset));
  impl.first_keys.reserve(impl.entries.size());
  for (const BlockEntry& entry : impl.entries) impl.first_keys.push_back(entry.first_key);
  impl.header = header.database;
}

DatabaseReader::DatabaseReader(Database database) : impl_(std::make_unique<Impl>()) {
  impl_->whole.emplace(std::move(database));
  impl_->header = impl_->whole->header();
}

DatabaseReader::~DatabaseReader() = default;
DatabaseReader::DatabaseReader(DatabaseReader&&) noexcept = default;
DatabaseReader& DatabaseReader::operator=(DatabaseReader&&) noexcept = default;

const DatabaseHeader& DatabaseReader::header() const {
  return impl_->header;
}

std::uint64_t DatabaseReader::size() const {
  return impl_->header.position_count;
}

bool DatabaseReader::reads_blocks() const {
  return !impl_->whole;
}

std::size_t DatabaseReader::block_count() const {
  return impl_->entries.size();
}

std::span<const PackedPosition> DatabaseReader::block_first_keys() const {
  return impl_->first_keys;
}

std::uint64_t DatabaseReader::blocks_read() const {
  return impl_->blocks_read.load(std::memory_order_relaxed);
}

std::optional<DatabaseRecord> DatabaseReader::find(const PackedPosition& key) const {
  const Impl& impl = *impl_;
  if (impl.whole) {
    const DatabaseRecord* record = impl.whole->find(key);
    if (record == nullptr) return std::nullopt;
    return *record;
  }
  // The last block whose first key is <= key is the only one that can hold it.
  const auto after = std::upper_bound(impl.first_keys.begin(), impl.first_keys.end(), key);
  if (after == impl.first_keys.begin()) return std::nullopt;
  const auto j = static_cast<std::size_t>(after - impl.first_keys.begin() - 1);
  const std::shared_ptr<const Block> block = impl.block(j);
  const auto found = std::lower_bound(block->keys.begin(), block->keys.end(), key);
  if (found == block->keys.end() || *found != key) return std::nullopt;
  return block->records[static_cast<std::size_t>(found - block->keys.begin())];
}

}  // namespace rastros
