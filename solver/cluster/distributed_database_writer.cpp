#include "cluster/distributed_database_writer.hpp"

#include <mpi.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/thread_sanitizer.hpp"

namespace rastros::cluster {
namespace {

// MPI counts and offsets are ints.
constexpr std::size_t kMaxMessageBytes = INT_MAX;
constexpr int kGatherTag = 72;
// A position of a head as words: free mask, snail, record.
constexpr std::size_t kWordsPerPosition = 3;
// A stored block's description as words: first key (free, snail), compressed, key bytes, CRC,
// stored bytes.
constexpr std::size_t kWordsPerBlock = 6;

MPI_Comm comm(const boost::mpi::communicator& world) {
  return static_cast<MPI_Comm>(world);
}

/// Every rank's `words`, rank after rank, on every rank.
std::vector<std::uint64_t> all_gather(const boost::mpi::communicator& world,
                                      const std::vector<std::uint64_t>& words) {
  std::vector<std::uint64_t> all(words.size() * static_cast<std::size_t>(world.size()));
  MPI_Allgather(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, all.data(),
                static_cast<int>(words.size()), MPI_UINT64_T, comm(world));
  return all;
}

/// Every rank's `words` (as many as each has), rank after rank, on every rank; `starts` gets
/// where each rank's words begin, and last their end.
std::vector<std::uint64_t> all_gather_varying(const boost::mpi::communicator& world,
                                              const std::vector<std::uint64_t>& words,
                                              std::vector<std::size_t>& starts) {
  const std::vector<std::uint64_t> sizes = all_gather(world, {words.size()});
  std::vector<int> counts(sizes.size()), offsets(sizes.size());
  starts.assign(1, 0);
  for (std::size_t rank = 0; rank < sizes.size(); ++rank) {
    counts[rank] = static_cast<int>(sizes[rank]);
    offsets[rank] = static_cast<int>(starts.back());
    starts.push_back(starts.back() + sizes[rank]);
  }
  std::vector<std::uint64_t> all(starts.back());
  MPI_Allgatherv(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, all.data(),
                 counts.data(), offsets.data(), MPI_UINT64_T, comm(world));
  return all;
}

/// Sends `bytes` to the root in messages MPI can count.
void send_to_root(const boost::mpi::communicator& world, std::span<const unsigned char> bytes) {
  for (std::size_t at = 0; at < bytes.size(); at += kMaxMessageBytes) {
    const std::size_t piece = std::min(kMaxMessageBytes, bytes.size() - at);
    MPI_Send(bytes.data() + at, static_cast<int>(piece), MPI_BYTE, 0, kGatherTag, comm(world));
  }
}

/// The root's side of send_to_root.
void receive_from(const boost::mpi::communicator& world, int rank, std::span<unsigned char> into) {
  for (std::size_t at = 0; at < into.size(); at += kMaxMessageBytes) {
    const std::size_t piece = std::min(kMaxMessageBytes, into.size() - at);
    MPI_Recv(into.data() + at, static_cast<int>(piece), MPI_BYTE, rank, kGatherTag, comm(world),
             MPI_STATUS_IGNORE);
  }
}

std::uint64_t record_word(const DatabaseRecord& record) {
  return static_cast<std::uint64_t>(record.value) | std::uint64_t{record.remoteness} << 8 |
         std::uint64_t{record.best_move} << 16;
}

DatabaseRecord record_of(std::uint64_t word) {
  return {static_cast<Value>(word & 0xff), static_cast<std::uint8_t>(word >> 8),
          static_cast<std::uint8_t>(word >> 16)};
}

/// Stores the blocks from their columns, on the rank's threads.
std::vector<StoredBlock> store_blocks(std::vector<PayloadColumns>& columns,
                                      const std::vector<PackedPosition>& first_keys) {
  std::vector<StoredBlock> stored(columns.size());
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(std::size_t{0}, columns.size(),
                            thread_sanitizer::handed_off([&](std::size_t j) {
                              stored[j] = store_block(first_keys[j], std::move(columns[j]));
                              thread_sanitizer::publish(&finished);
                            }));
  thread_sanitizer::acquire(&finished);
  return stored;
}

}  // namespace

std::uint64_t write_database_distributed(const boost::mpi::communicator& world,
                                         const std::filesystem::path& path,
                                         const DatabaseHeader& header, DatabaseRun& run) {
  const auto ranks = static_cast<std::size_t>(world.size());
  const auto me = static_cast<std::size_t>(world.rank());
  const std::uint64_t block = kDatabaseBlockPositions;
  // Each rank's position count and last key: where this run starts in the whole, and the key
  // its first must be above (the last of the nearest rank before it that holds any).
  const PackedPosition last = run.size() ? run.last_key() : PackedPosition{};
  const std::vector<std::uint64_t> ends =
      all_gather(world, {run.size(), last.free, std::uint64_t{last.snail}});
  std::uint64_t positions = 0, start = 0;
  PackedPosition previous;
  bool has_previous = false;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    positions += ends[3 * rank];
    if (rank < me) {
      start += ends[3 * rank];
      if (ends[3 * rank] > 0) {
        previous = {ends[3 * rank + 1], static_cast<std::uint8_t>(ends[3 * rank + 2])};
        has_previous = true;
      }
    }
  }
  const std::uint64_t end = start + run.size();
  // [start, head_end): the positions of a block begun by an earlier rank.
  const std::uint64_t head_end = std::min(end, (start + block - 1) / block * block);

  std::vector<std::uint64_t> head;
  std::vector<PayloadColumns> columns;
  std::vector<PackedPosition> first_keys;
  std::optional<ColumnEncoder> encoder;
  // The head's records are checked here too, so that a bad run throws on its own rank.
  ColumnEncoder head_check(header, has_previous ? &previous : nullptr);
  std::uint64_t at = start;
  run.for_each([&](const PackedPosition& key, const DatabaseRecord& record) {
    if (has_previous && !(previous < key)) {
      throw std::invalid_argument("database: keys not strictly increasing");
    }
    previous = key;
    has_previous = true;
    if (at < head_end) {
      head_check.add(key, record);
      head.insert(head.end(), {key.free, std::uint64_t{key.snail}, record_word(record)});
    } else {
      if (at % block == 0) {
        if (encoder) columns.push_back(std::move(*encoder).finish());
        encoder.emplace(header, nullptr);
        encoder->reserve(std::min(block, positions - at));
        first_keys.push_back(key);
      }
      encoder->add(key, record);
    }
    ++at;
  });
  run.release();

  // The heads of the ranks after this one complete its last block, in rank order.
  std::vector<std::size_t> head_starts;
  const std::vector<std::uint64_t> heads = all_gather_varying(world, head, head_starts);
  std::vector<std::uint64_t>().swap(head);
  if (encoder) {
    const std::uint64_t block_start = (end - 1) / block * block;
    std::uint64_t needed = std::min(block, positions - block_start) - (end - block_start);
    for (std::size_t rank = me + 1; rank < ranks && needed > 0; ++rank) {
      for (std::size_t word = head_starts[rank]; word < head_starts[rank + 1];
           word += kWordsPerPosition) {
        encoder->add({heads[word], static_cast<std::uint8_t>(heads[word + 1])},
                     record_of(heads[word + 2]));
        --needed;
      }
    }
    columns.push_back(std::move(*encoder).finish());
  }
  std::vector<StoredBlock> stored = store_blocks(columns, first_keys);
  std::vector<PayloadColumns>().swap(columns);

  // The stored blocks to the root: their descriptions, then their bytes.
  const std::vector<std::uint64_t> block_counts = all_gather(world, {stored.size()});
  if (me != 0) {
    std::vector<std::uint64_t> described;
    for (const StoredBlock& one : stored) {
      described.insert(described.end(),
                       {one.first_key.free, std::uint64_t{one.first_key.snail},
                        std::uint64_t{one.compressed}, one.key_bytes, one.crc, one.bytes.size()});
    }
    send_to_root(world, std::span(reinterpret_cast<const unsigned char*>(described.data()),
                                  described.size() * sizeof(std::uint64_t)));
    for (const StoredBlock& one : stored) send_to_root(world, one.bytes);
    return positions;
  }
  for (std::size_t rank = 1; rank < ranks; ++rank) {
    std::vector<std::uint64_t> described(kWordsPerBlock * block_counts[rank]);
    receive_from(world, static_cast<int>(rank),
                 std::span(reinterpret_cast<unsigned char*>(described.data()),
                           described.size() * sizeof(std::uint64_t)));
    const std::size_t first = stored.size();
    for (std::size_t j = 0; j < block_counts[rank]; ++j) {
      const std::uint64_t* words = described.data() + kWordsPerBlock * j;
      StoredBlock& one = stored.emplace_back();
      one.first_key = {words[0], static_cast<std::uint8_t>(words[1])};
      one.compressed = words[2] != 0;
      one.key_bytes = static_cast<std::uint32_t>(words[3]);
      one.crc = static_cast<std::uint32_t>(words[4]);
      one.bytes.resize(words[5]);
    }
    for (std::size_t j = first; j < stored.size(); ++j) {
      receive_from(world, static_cast<int>(rank), stored[j].bytes);
    }
  }
  DatabaseHeader whole = header;
  whole.position_count = positions;
  write_file_atomically(path, database_file_image(whole, stored, kDatabaseBlockPositions),
                        "database");
  return positions;
}

}  // namespace rastros::cluster
