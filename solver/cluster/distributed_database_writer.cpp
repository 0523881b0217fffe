#include "cluster/distributed_database_writer.hpp"

#include <mpi.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <climits>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/parallel_deflate.hpp"
#include "core/thread_sanitizer.hpp"

namespace rastros::cluster {
namespace {

using Bytes = std::vector<unsigned char>;
constexpr std::size_t kColumns = 3;  // keys, values, moves: their order in the payload
// MPI counts and offsets are ints.
constexpr std::size_t kMaxMessageBytes = INT_MAX;

/// The columns of one rank, in payload order.
std::array<std::span<const unsigned char>, kColumns> columns_of(const PayloadColumns& columns) {
  return {columns.keys, columns.values, columns.moves};
}

ByteRange intersection(ByteRange a, ByteRange b) {
  const std::size_t begin = std::max(a.begin, b.begin);
  return {begin, std::max(begin, std::min(a.end, b.end))};
}

/// Where every rank's columns sit in the whole payload: the keys columns of ranks 0..K-1, then
/// the values columns, then the moves columns.
class PayloadLayout {
 public:
  /// `sizes` holds each rank's three column sizes, rank after rank.
  PayloadLayout(const std::vector<std::uint64_t>& sizes, std::size_t ranks) : ranks_(ranks) {
    offsets_.resize(kColumns * ranks + 1);
    std::size_t at = 0;
    for (std::size_t column = 0; column < kColumns; ++column) {
      for (std::size_t rank = 0; rank < ranks; ++rank) {
        offsets_[column * ranks + rank] = at;
        at += sizes[rank * kColumns + column];
      }
      if (column == 0) key_bytes_ = at;
    }
    offsets_.back() = at;
  }

  ByteRange segment(std::size_t column, std::size_t rank) const {
    const std::size_t index = column * ranks_ + rank;
    return {offsets_[index], offsets_[index + 1]};
  }
  std::size_t total() const { return offsets_.back(); }
  std::size_t key_bytes() const { return key_bytes_; }
  std::size_t pieces() const { return deflate_piece_count(total()); }

  /// Groups of consecutive deflate pieces: about kGroupsPerRank a rank, group g deflated by
  /// rank g mod K.
  std::size_t groups() const { return (pieces() + group_pieces() - 1) / group_pieces(); }
  std::size_t rank_of_group(std::size_t group) const { return group % ranks_; }
  /// Group `group`'s pieces [first, last).
  std::pair<std::size_t, std::size_t> pieces_of_group(std::size_t group) const {
    return {group * group_pieces(), std::min(pieces(), (group + 1) * group_pieces())};
  }
  /// The payload bytes the group's pieces read.
  ByteRange window_of_group(std::size_t group) const {
    const auto [first, last] = pieces_of_group(group);
    return deflate_window(total(), first, last);
  }
  /// The groups rank `rank` deflates, in increasing order.
  std::vector<std::size_t> groups_of(std::size_t rank) const {
    std::vector<std::size_t> mine;
    for (std::size_t group = rank; group < groups(); group += ranks_) mine.push_back(group);
    return mine;
  }
  /// Where each of groups_of(rank)'s windows starts in that rank's buffer (the windows end to
  /// end), and last the buffer's size.
  std::vector<std::size_t> window_starts(std::size_t rank) const {
    std::vector<std::size_t> starts{0};
    for (const std::size_t group : groups_of(rank)) {
      const ByteRange window = window_of_group(group);
      starts.push_back(starts.back() + window.end - window.begin);
    }
    return starts;
  }

 private:
  static constexpr std::size_t kGroupsPerRank = 8;
  std::size_t group_pieces() const {
    return std::max<std::size_t>(1, pieces() / (kGroupsPerRank * ranks_));
  }

  std::size_t ranks_;
  std::vector<std::size_t> offsets_;  // column-major: segment (column, rank) starts here
  std::size_t key_bytes_ = 0;
};

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

/// Every rank throws std::length_error if `too_large` holds on any.
void agree_on_size(const boost::mpi::communicator& world, bool too_large) {
  if (boost::mpi::all_reduce(world, too_large, std::logical_or<bool>())) {
    throw std::length_error(
        "distributed database writer: a rank's share of the payload exceeds one MPI message "
        "(2^31 bytes); use more ranks");
  }
}

/// The payload bytes this rank's groups read, each group's window after the one before, gathered
/// from the ranks that encoded them in one all-to-all exchange.
Bytes fetch_groups(const boost::mpi::communicator& world, const PayloadLayout& layout,
                   const PayloadColumns& columns) {
  const auto ranks = static_cast<std::size_t>(world.size());
  const auto me = static_cast<std::size_t>(world.rank());
  const auto mine = columns_of(columns);
  // What goes to each rank: for each of its groups, the parts of this rank's columns inside the
  // group's window, in payload order (the keys column's part, then the values', the moves').
  Bytes send;
  std::vector<int> send_counts(ranks), send_offsets(ranks);
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    send_offsets[rank] = static_cast<int>(std::min(send.size(), kMaxMessageBytes));
    const std::size_t before = send.size();
    for (const std::size_t group : layout.groups_of(rank)) {
      const ByteRange window = layout.window_of_group(group);
      for (std::size_t column = 0; column < kColumns; ++column) {
        const ByteRange segment = layout.segment(column, me);
        const ByteRange part = intersection(segment, window);
        if (part.end == part.begin) continue;  // (its begin may lie past the segment)
        const auto from =
            mine[column].begin() + static_cast<std::ptrdiff_t>(part.begin - segment.begin);
        send.insert(send.end(), from, from + static_cast<std::ptrdiff_t>(part.end - part.begin));
      }
    }
    send_counts[rank] = static_cast<int>(std::min(send.size() - before, kMaxMessageBytes));
  }
  // Where each of this rank's groups starts in its buffer, and what each rank sends here.
  const std::vector<std::size_t> groups = layout.groups_of(me);
  const std::vector<std::size_t> group_start = layout.window_starts(me);
  std::vector<int> receive_counts(ranks), receive_offsets(ranks);
  std::size_t received = 0;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    receive_offsets[rank] = static_cast<int>(std::min(received, kMaxMessageBytes));
    const std::size_t before = received;
    for (const std::size_t group : groups) {
      for (std::size_t column = 0; column < kColumns; ++column) {
        const ByteRange part =
            intersection(layout.segment(column, rank), layout.window_of_group(group));
        received += part.end - part.begin;
      }
    }
    receive_counts[rank] = static_cast<int>(std::min(received - before, kMaxMessageBytes));
  }
  agree_on_size(world, send.size() > kMaxMessageBytes || received > kMaxMessageBytes);
  Bytes incoming(received);
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, incoming.data(),
                receive_counts.data(), receive_offsets.data(), MPI_BYTE, comm(world));
  Bytes().swap(send);
  // Each rank's parts, in the order it sent them, to their places in the groups' windows.
  Bytes bytes(group_start.back());
  std::size_t at = 0;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    for (std::size_t index = 0; index < groups.size(); ++index) {
      const ByteRange window = layout.window_of_group(groups[index]);
      for (std::size_t column = 0; column < kColumns; ++column) {
        const ByteRange part = intersection(layout.segment(column, rank), window);
        if (part.end == part.begin) continue;  // (its begin may lie past the window)
        std::copy_n(incoming.begin() + static_cast<std::ptrdiff_t>(at), part.end - part.begin,
                    bytes.begin() + static_cast<std::ptrdiff_t>(group_start[index] + part.begin -
                                                                window.begin));
        at += part.end - part.begin;
      }
    }
  }
  return bytes;
}

/// Deflates this rank's groups from their windows (fetch_groups), all on the rank's threads.
std::vector<DeflatedPieces> deflate_groups(const PayloadLayout& layout, std::size_t rank,
                                           const Bytes& windows) {
  const std::vector<std::size_t> groups = layout.groups_of(rank);
  const std::vector<std::size_t> group_start = layout.window_starts(rank);
  std::vector<DeflatedPieces> deflated(groups.size());
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(
      std::size_t{0}, groups.size(), thread_sanitizer::handed_off([&](std::size_t index) {
        const ByteRange window = layout.window_of_group(groups[index]);
        const auto [first, last] = layout.pieces_of_group(groups[index]);
        deflated[index] = deflate_pieces(
            std::span(windows).subspan(group_start[index], window.end - window.begin), window.begin,
            layout.total(), first, last, kPayloadDeflateLevel);
        thread_sanitizer::publish(&finished);
      }));
  thread_sanitizer::acquire(&finished);
  return deflated;
}

constexpr int kGatherTag = 72;

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

/// On the root: the payload, every rank's columns in their places. Elsewhere: sends them.
Bytes gather_payload(const boost::mpi::communicator& world, const PayloadLayout& layout,
                     const PayloadColumns& columns) {
  const auto mine = columns_of(columns);
  if (world.rank() != 0) {
    for (const auto column : mine) send_to_root(world, column);
    return {};
  }
  Bytes payload(layout.total());
  const std::span<unsigned char> all(payload);
  for (std::size_t column = 0; column < kColumns; ++column) {
    std::copy(mine[column].begin(), mine[column].end(),
              payload.begin() + static_cast<std::ptrdiff_t>(layout.segment(column, 0).begin));
  }
  for (int rank = 1; rank < world.size(); ++rank) {
    for (std::size_t column = 0; column < kColumns; ++column) {
      const ByteRange segment = layout.segment(column, static_cast<std::size_t>(rank));
      receive_from(world, rank, all.subspan(segment.begin, segment.end - segment.begin));
    }
  }
  return payload;
}

/// On the root: the zlib stream of the payload from every rank's deflated groups. Elsewhere:
/// sends its groups, in order.
Bytes gather_stream(const boost::mpi::communicator& world, const PayloadLayout& layout,
                    const std::vector<DeflatedPieces>& mine) {
  // Each group's deflated size, Adler-32 and input length, group after group, on every rank.
  std::vector<std::uint64_t> own(3 * layout.groups(), 0), all(3 * layout.groups(), 0);
  const std::vector<std::size_t> groups = layout.groups_of(static_cast<std::size_t>(world.rank()));
  for (std::size_t index = 0; index < groups.size(); ++index) {
    own[3 * groups[index]] = mine[index].bytes.size();
    own[3 * groups[index] + 1] = mine[index].adler;
    own[3 * groups[index] + 2] = mine[index].input_bytes;
  }
  MPI_Allreduce(own.data(), all.data(), static_cast<int>(own.size()), MPI_UINT64_T, MPI_SUM,
                comm(world));
  if (world.rank() != 0) {
    for (const DeflatedPieces& group : mine) send_to_root(world, group.bytes);
    return {};
  }
  std::size_t total = 0;
  for (std::size_t group = 0; group < layout.groups(); ++group) total += all[3 * group];
  Bytes pieces(total);
  std::uint32_t adler = 1;  // of nothing
  std::size_t at = 0, own_index = 0;
  for (std::size_t group = 0; group < layout.groups(); ++group) {
    const std::size_t size = all[3 * group];
    const std::size_t rank = layout.rank_of_group(group);
    if (rank == 0) {
      const Bytes& bytes = mine[own_index++].bytes;
      std::copy(bytes.begin(), bytes.end(), pieces.begin() + static_cast<std::ptrdiff_t>(at));
    } else {
      receive_from(world, static_cast<int>(rank), std::span(pieces).subspan(at, size));
    }
    at += size;
    adler =
        combine_adler32(adler, static_cast<std::uint32_t>(all[3 * group + 1]), all[3 * group + 2]);
  }
  return zlib_stream(pieces, adler, kPayloadDeflateLevel);
}

}  // namespace

std::uint64_t write_database_distributed(const boost::mpi::communicator& world,
                                         const std::filesystem::path& path,
                                         const DatabaseHeader& header, DatabaseRun& run) {
  const auto ranks = static_cast<std::size_t>(world.size());
  const auto me = static_cast<std::size_t>(world.rank());
  // Each rank's position count and last key: this run's first key is stored relative to the
  // last key of the nearest rank before it that holds any.
  const PackedPosition last = run.size() ? run.last_key() : PackedPosition{};
  const std::vector<std::uint64_t> ends =
      all_gather(world, {run.size(), last.free, std::uint64_t{last.snail}});
  std::uint64_t positions = 0;
  PackedPosition previous_key;
  bool has_previous = false;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    positions += ends[3 * rank];
    if (rank < me && ends[3 * rank] > 0) {
      previous_key = {ends[3 * rank + 1], static_cast<std::uint8_t>(ends[3 * rank + 2])};
      has_previous = true;
    }
  }
  ColumnEncoder encoder(header, has_previous ? &previous_key : nullptr);
  encoder.reserve(run.size());
  run.for_each(
      [&](const PackedPosition& key, const DatabaseRecord& record) { encoder.add(key, record); });
  run.release();
  const PayloadColumns columns = std::move(encoder).finish();
  const PayloadLayout layout(
      all_gather(world, {columns.keys.size(), columns.values.size(), columns.moves.size()}), ranks);

  // Deflate this rank's groups of pieces; the stream is stored only if it is smaller.
  std::vector<DeflatedPieces> deflated;
  if (layout.total() > 0) {
    deflated = deflate_groups(layout, me, fetch_groups(world, layout, columns));
  }
  std::size_t own_bytes = 0;
  for (const DeflatedPieces& group : deflated) own_bytes += group.bytes.size();
  const std::size_t deflated_bytes =
      boost::mpi::all_reduce(world, own_bytes, std::plus<std::size_t>());
  StoredPayload stored;
  // + 6: the zlib stream's header and trailer.
  stored.compressed = layout.total() > 0 && deflated_bytes + 6 < layout.total();
  stored.bytes = stored.compressed ? gather_stream(world, layout, deflated)
                                   : gather_payload(world, layout, columns);
  if (world.rank() != 0) return positions;
  stored.key_bytes = layout.key_bytes();
  stored.payload_bytes = layout.total();
  DatabaseHeader whole = header;
  whole.position_count = positions;
  write_file_atomically(path, database_file_image(whole, stored), "database");
  return positions;
}

}  // namespace rastros::cluster
