#include "cluster/work_dealer.hpp"

#include <algorithm>
#include <boost/mpi/nonblocking.hpp>
#include <boost/mpi/request.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace rastros::cluster {
namespace {

enum Tag : int { kResult = 1, kWork = 2, kDone = 3 };
constexpr std::int64_t kNoResult = -1;

using Message = std::pair<std::int64_t, std::string>;

// Waits for a request without spinning: Open MPI's blocking calls busy-poll a core, which on a
// machine with as many ranks as cores would take it from the root's own work. `meanwhile` runs
// between polls. (A completed request must not be waited on again: for serialised messages
// that would unpack the message a second time from a freed buffer.)
template <class Meanwhile>
boost::mpi::status wait_politely(boost::mpi::request& request, Meanwhile meanwhile) {
  // The pause doubles while nothing comes, from 100 us to 1 ms: answers stay quick when results
  // arrive often (batch chunks), and a root waiting on long map squares wakes rarely (it shares
  // a core with its own worker thread).
  std::chrono::microseconds pause(100);
  for (;;) {
    if (boost::optional<boost::mpi::status> status = request.test()) return *status;
    meanwhile();
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

}  // namespace

void deal_work(const boost::mpi::communicator& world, const WorkCallbacks& callbacks) {
  if (world.rank() != 0) {
    Message message{kNoResult, {}};
    for (;;) {
      world.send(0, kResult, message);
      boost::mpi::status status = world.probe(0, boost::mpi::any_tag);
      if (status.tag() == kDone) {
        world.recv(0, kDone);
        return;
      }
      Message item;
      world.recv(0, kWork, item);
      message = {item.first, callbacks.work(item.second)};
    }
  }

  std::mutex mutex;
  std::uint64_t next_sequence = 0;
  const auto take = [&](int rank) -> std::optional<Message> {
    std::lock_guard lock(mutex);
    std::optional<std::string> item = callbacks.next_item(rank);
    if (!item) return std::nullopt;
    return Message{static_cast<std::int64_t>(next_sequence++), std::move(*item)};
  };
  const auto deliver = [&](const Message& result) {
    std::lock_guard lock(mutex);
    callbacks.deliver(static_cast<std::uint64_t>(result.first), result.second);
  };
  const auto holding = [&] {
    std::lock_guard lock(mutex);
    return callbacks.hold && callbacks.hold();
  };

  // The dealer thread is the only thread of the root that calls MPI until it is joined. An
  // exception on either thread (a full disk in `deliver`, say) must not escape a thread, which
  // would end the process without a word: it is kept and rethrown here, and the caller's error
  // handling ends the whole job (tools/main.cpp aborts every rank).
  std::exception_ptr dealer_error;
  std::thread dealer([&] {
    try {
      int working = world.size() - 1;
      std::vector<int> waiting_ranks;  // asked while the job held new items back
      const auto answer = [&](int rank) {
        if (std::optional<Message> item = take(rank)) {
          world.send(rank, kWork, *item);
        } else {
          world.send(rank, kDone);
          --working;
        }
      };
      const auto answer_waiting = [&] {
        while (!waiting_ranks.empty() && !holding()) {
          answer(waiting_ranks.back());
          waiting_ranks.pop_back();
        }
      };
      while (working > 0) {
        if (static_cast<int>(waiting_ranks.size()) == working) {
          // Every rank still in the job waits for an answer: none can send, so post no receive.
          answer_waiting();
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          continue;
        }
        Message result;
        boost::mpi::request request = world.irecv(boost::mpi::any_source, kResult, result);
        // Ranks held back may be released by the root's own thread delivering meanwhile.
        const boost::mpi::status status = wait_politely(request, answer_waiting);
        if (result.first != kNoResult) deliver(result);
        waiting_ranks.push_back(status.source());
        answer_waiting();
      }
    } catch (...) {
      dealer_error = std::current_exception();
    }
  });
  try {
    for (;;) {
      while (holding()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::optional<Message> item = take(0);
      if (!item) break;
      deliver({item->first, callbacks.work(item->second)});
    }
  } catch (...) {
    // The dealer may be waiting for ranks that will never be told to stop: leave it behind.
    dealer.detach();
    throw;
  }
  dealer.join();
  if (dealer_error) std::rethrow_exception(dealer_error);
}

std::uint64_t deal_in_order(const boost::mpi::communicator& world, const OrderedWork& ordered) {
  std::map<std::uint64_t, std::string> waiting;  // results that came before an earlier one
  std::size_t waiting_bytes = 0;
  std::uint64_t committed = 0;
  std::uint64_t holds = 0;
  WorkCallbacks callbacks;
  callbacks.next_item = [&](int) { return ordered.next_item(); };
  callbacks.work = ordered.work;
  callbacks.hold = [&] { return waiting_bytes >= ordered.max_waiting_bytes; };
  callbacks.deliver = [&](std::uint64_t sequence, std::string result) {
    if (sequence != committed && waiting_bytes < ordered.max_waiting_bytes &&
        waiting_bytes + result.size() >= ordered.max_waiting_bytes) {
      ++holds;
    }
    waiting_bytes += result.size();
    waiting.emplace(sequence, std::move(result));
    // Commit every result whose predecessors are all in.
    for (auto next = waiting.find(committed); next != waiting.end();
         next = waiting.find(committed)) {
      ordered.commit(committed, next->second);
      waiting_bytes -= next->second.size();
      waiting.erase(next);
      ++committed;
    }
  };
  deal_work(world, callbacks);
  return holds;
}

}  // namespace rastros::cluster
