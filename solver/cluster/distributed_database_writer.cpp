#include "cluster/distributed_database_writer.hpp"

#include <mpi.h>

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

  /// The deflate pieces rank `rank` compresses: a consecutive share of them.
  std::pair<std::size_t, std::size_t> pieces_of(std::size_t rank) const {
    const std::size_t pieces = deflate_piece_count(total());
    return {pieces * rank / ranks_, pieces * (rank + 1) / ranks_};
  }
  /// The payload bytes that rank's pieces read.
  ByteRange window_of(std::size_t rank) const {
    const auto [first, last] = pieces_of(rank);
    return deflate_window(total(), first, last);
  }

 private:
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

/// The bytes [window.begin, window.end) of the payload that this rank deflates, gathered from
/// the ranks that encoded them in one all-to-all exchange.
Bytes fetch_window(const boost::mpi::communicator& world, const PayloadLayout& layout,
                   const PayloadColumns& columns) {
  const auto ranks = static_cast<std::size_t>(world.size());
  const auto me = static_cast<std::size_t>(world.rank());
  const auto mine = columns_of(columns);
  // What goes to each rank: the parts of this rank's columns inside its window, in payload
  // order (the keys column's part, then the values', then the moves').
  Bytes send;
  std::vector<int> send_counts(ranks), send_offsets(ranks);
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    const ByteRange window = layout.window_of(rank);
    send_offsets[rank] = static_cast<int>(std::min(send.size(), kMaxMessageBytes));
    const std::size_t before = send.size();
    for (std::size_t column = 0; column < kColumns; ++column) {
      const ByteRange segment = layout.segment(column, me);
      const ByteRange part = intersection(segment, window);
      const auto from =
          mine[column].begin() + static_cast<std::ptrdiff_t>(part.begin - segment.begin);
      send.insert(send.end(), from, from + static_cast<std::ptrdiff_t>(part.end - part.begin));
    }
    send_counts[rank] = static_cast<int>(std::min(send.size() - before, kMaxMessageBytes));
  }
  const ByteRange window = layout.window_of(me);
  std::vector<int> receive_counts(ranks), receive_offsets(ranks);
  std::size_t received = 0;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    receive_offsets[rank] = static_cast<int>(std::min(received, kMaxMessageBytes));
    const std::size_t before = received;
    for (std::size_t column = 0; column < kColumns; ++column) {
      const ByteRange part = intersection(layout.segment(column, rank), window);
      received += part.end - part.begin;
    }
    receive_counts[rank] = static_cast<int>(std::min(received - before, kMaxMessageBytes));
  }
  agree_on_size(world, send.size() > kMaxMessageBytes || received > kMaxMessageBytes);
  Bytes incoming(received);
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, incoming.data(),
                receive_counts.data(), receive_offsets.data(), MPI_BYTE, comm(world));
  Bytes().swap(send);
  // Each rank's parts, in the order it sent them, to their places in the window.
  Bytes bytes(window.end - window.begin);
  std::size_t at = 0;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    for (std::size_t column = 0; column < kColumns; ++column) {
      const ByteRange part = intersection(layout.segment(column, rank), window);
      std::copy_n(incoming.begin() + static_cast<std::ptrdiff_t>(at), part.end - part.begin,
                  bytes.begin() + static_cast<std::ptrdiff_t>(part.begin - window.begin));
      at += part.end - part.begin;
    }
  }
  return bytes;
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

/// On the root: the zlib stream of the payload from every rank's deflated share. Elsewhere:
/// sends its share.
Bytes gather_stream(const boost::mpi::communicator& world, const DeflatedPieces& share) {
  const std::vector<std::uint64_t> shares = all_gather(
      world, {share.bytes.size(), share.adler, static_cast<std::uint64_t>(share.input_bytes)});
  if (world.rank() != 0) {
    send_to_root(world, share.bytes);
    return {};
  }
  std::size_t total = 0;
  for (std::size_t rank = 0; rank < shares.size() / 3; ++rank) total += shares[3 * rank];
  Bytes pieces(total);
  std::copy(share.bytes.begin(), share.bytes.end(), pieces.begin());
  std::uint32_t adler = share.adler;
  std::size_t at = share.bytes.size();
  for (int rank = 1; rank < world.size(); ++rank) {
    const auto r = static_cast<std::size_t>(rank);
    receive_from(world, rank, std::span(pieces).subspan(at, shares[3 * r]));
    at += shares[3 * r];
    adler =
        combine_adler32(adler, static_cast<std::uint32_t>(shares[3 * r + 1]), shares[3 * r + 2]);
  }
  return zlib_stream(pieces, adler, kPayloadDeflateLevel);
}

}  // namespace

std::uint64_t write_database_distributed(const boost::mpi::communicator& world,
                                         const std::filesystem::path& path, const Database& run) {
  const auto ranks = static_cast<std::size_t>(world.size());
  const auto me = static_cast<std::size_t>(world.rank());
  // Each rank's position count and last key: this run's first key is stored relative to the
  // last key of the nearest rank before it that holds any.
  const PackedPosition last = run.size() ? run.keys().back() : PackedPosition{};
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
  const PayloadColumns columns = encode_columns(run.header(), run.keys(), run.records(),
                                                has_previous ? &previous_key : nullptr);
  const PayloadLayout layout(
      all_gather(world, {columns.keys.size(), columns.values.size(), columns.moves.size()}), ranks);

  // Deflate this rank's share of the pieces; the stream is stored only if it is smaller.
  const auto [first, last_piece] = layout.pieces_of(me);
  DeflatedPieces share;
  if (layout.total() > 0) {
    const Bytes window = fetch_window(world, layout, columns);
    share = deflate_pieces(window, layout.window_of(me).begin, layout.total(), first, last_piece,
                           kPayloadDeflateLevel);
  }
  const std::size_t deflated = boost::mpi::all_reduce(world, share.bytes.size(), std::plus<>());
  StoredPayload stored;
  stored.compressed = layout.total() > 0 && deflated + 6 < layout.total();  // + zlib's frame
  stored.bytes =
      stored.compressed ? gather_stream(world, share) : gather_payload(world, layout, columns);
  if (world.rank() != 0) return positions;
  stored.key_bytes = layout.key_bytes();
  stored.payload_bytes = layout.total();
  DatabaseHeader header = run.header();
  header.position_count = positions;
  write_file_atomically(path, database_file_image(header, stored), "database");
  return positions;
}

}  // namespace rastros::cluster
