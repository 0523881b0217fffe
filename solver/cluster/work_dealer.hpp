#pragma once
// Dynamic work dealing over MPI (Boost.MPI): the root rank hands out items one at a time to
// whichever rank asks next, so ranks that draw quick items come back for more and no rank
// idles while work remains. The root computes items too: a dealer thread on the root does all
// its MPI communication while the root's main thread works like any other rank.
//
//   rank 0                                   rank k > 0
//   dealer thread: receive {sequence,result}  send {-1, ""}            (first request)
//     deliver(sequence, result)               loop: receive item or done
//     reply with the next item, or done         result = work(item)
//   main thread: loop next_item/work/deliver     send {sequence, result}
//
// Messages are Boost.MPI serialised (sequence, text) pairs; items and results are opaque text,
// so the same dealer serves maps (a start square each) and batches (a chunk of lines each).

#include <boost/mpi/communicator.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace rastros::cluster {

struct WorkCallbacks {
  /// Root only: the next item for rank `rank`, or nullopt when there are no more (or the job
  /// must stop). Called under a lock, from the dealer thread and the main thread. Knowing the
  /// rank lets a job keep related items on one rank (a map: neighbouring start squares share
  /// subtrees, which only a rank's own table can reuse).
  std::function<std::optional<std::string>(int rank)> next_item;
  /// Every rank: computes an item's result.
  std::function<std::string(const std::string& item)> work;
  /// Root only: receives each result with the item's sequence number (0, 1, 2... in the order
  /// next_item gave the items), in completion order. Called under the same lock.
  std::function<void(std::uint64_t sequence, std::string result)> deliver;
  /// Root only, optional: true while no new item may be handed out (a batch holding too many
  /// results that wait for an earlier, slower chunk). A rank that asks meanwhile waits for its
  /// answer; the root's own thread waits too. Called under the same lock. It must turn false
  /// once enough items handed out earlier are delivered, or the job never ends.
  std::function<bool()> hold;
};

/// Runs on every rank of `world` and returns on each once all items are done.
void deal_work(const boost::mpi::communicator& world, const WorkCallbacks& callbacks);

/// Work whose results are used in the order of the items (a batch's output follows its input).
struct OrderedWork {
  /// Root only: the next item, or nullopt when there are no more (or the job must stop).
  std::function<std::optional<std::string>()> next_item;
  /// Every rank: computes an item's result.
  std::function<std::string(const std::string& item)> work;
  /// Root only: each result, in item order (sequence 0, 1, 2...).
  std::function<void(std::uint64_t sequence, const std::string& result)> commit;
  /// Results held on the root while they wait for an earlier item, at most (about): past this
  /// no item is handed out until the earlier one is in, so one slow item cannot make the root
  /// hold the rest of the output.
  std::size_t max_waiting_bytes = std::size_t{64} << 20;
};

/// deal_work with results committed in item order. Returns, on the root, how many times
/// dealing stopped for an earlier item (0 elsewhere).
std::uint64_t deal_in_order(const boost::mpi::communicator& world, const OrderedWork& work);

}  // namespace rastros::cluster
