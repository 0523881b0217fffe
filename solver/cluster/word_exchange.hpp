#pragma once
// One all-to-all exchange of plain words between the ranks of an MPI job, straight through
// MPI_Alltoallv (Boost.MPI's all_to_all would serialise every vector element by element).
// Shared by the distributed solvers (the Rastros strong solver, Oware's levels).

#include <mpi.h>

#include <algorithm>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/all_to_all.hpp>
#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace rastros::cluster {

using Words = std::vector<std::uint64_t>;
// MPI counts and offsets are ints: at most 2^31 bytes an exchange.
inline constexpr std::size_t kMaxMessageWords =
    (std::size_t{1} << 31) / sizeof(std::uint64_t) - 1;

/// Sends item_counts[r] of the items of `send` (end to end, rank after rank) to rank r; what
/// each rank sent here is appended to `incoming`, rank after rank. Returns where each rank's
/// items start in `incoming`, and the end. The items travel as whole words. An exchange past
/// MPI's 2^31 bytes throws std::length_error ("`who`: ... use more ranks") on every rank (one
/// alone would leave the others waiting in the exchange).
template <class Item>
std::vector<std::size_t> exchange_items(const boost::mpi::communicator& world,
                                        std::span<const Item> send,
                                        const std::vector<std::size_t>& item_counts,
                                        std::vector<Item>& incoming, const std::string& who) {
  static_assert(std::is_trivially_copyable_v<Item> && sizeof(Item) % sizeof(std::uint64_t) == 0);
  constexpr std::size_t kWords = sizeof(Item) / sizeof(std::uint64_t);
  const std::size_t ranks = item_counts.size();
  std::vector<std::size_t> counts(ranks);
  for (std::size_t rank = 0; rank < ranks; ++rank) counts[rank] = kWords * item_counts[rank];
  std::vector<int> send_counts(ranks), receive_counts(ranks);
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    // Clamped: a count beyond an int is refused below, on every rank.
    send_counts[rank] = static_cast<int>(std::min(counts[rank], kMaxMessageWords));
  }
  boost::mpi::all_to_all(world, send_counts, receive_counts);
  std::vector<int> send_offsets(ranks), receive_offsets(ranks);
  std::size_t sent = 0, received = 0;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    send_offsets[rank] = static_cast<int>(std::min(sent, kMaxMessageWords));
    sent += counts[rank];
    receive_offsets[rank] = static_cast<int>(std::min(received, kMaxMessageWords));
    received += static_cast<std::size_t>(receive_counts[rank]);
  }
  const bool too_large = sent > kMaxMessageWords || received > kMaxMessageWords;
  if (boost::mpi::all_reduce(world, too_large, std::logical_or<bool>())) {
    throw std::length_error(who + ": an exchange exceeds MPI's 2^31 bytes; use more ranks");
  }
  const std::size_t base = incoming.size();
  incoming.resize(base + received / kWords);
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_UINT64_T,
                incoming.data() + base, receive_counts.data(), receive_offsets.data(),
                MPI_UINT64_T, static_cast<MPI_Comm>(world));
  std::vector<std::size_t> offsets;
  for (const int offset : receive_offsets) {
    offsets.push_back(base + static_cast<std::size_t>(offset) / kWords);
  }
  offsets.push_back(base + received / kWords);
  return offsets;
}

}  // namespace rastros::cluster
