#include "cluster/distributed_jobs.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

#include "cluster/work_dealer.hpp"
#include "rastros/canonical.hpp"

namespace rastros::cluster {

// -- Maps -------------------------------------------------------------------------------------
// An item is a class of start squares whose start positions are the same canonical position
// (board symmetry, and the 180-degree turn that swaps the players' roles), as square numbers;
// the result is "value remoteness" (-1: none). One rank solves a whole class: its first
// square costs a search, the others are answered from that rank's table. Dealing squares one
// by one would have two ranks search the same position.

std::vector<StartSquareOutcome> solve_start_map_distributed(const boost::mpi::communicator& world,
                                                            const Rastros& rastros, Solver& solver,
                                                            const StartMapControl& control) {
  const Board& board = rastros.board();
  const Canonicalizer canonicalizer(board);
  std::vector<std::pair<PackedPosition, std::vector<Square>>> classes;
  std::vector<StartSquareOutcome> results = control.known;
  for (Square square : start_squares(board)) {
    const bool known = std::any_of(results.begin(), results.end(),
                                   [&](const auto& result) { return result.start == square; });
    if (known) continue;
    const PackedPosition key =
        canonicalizer.pack(Rastros(board, square, rastros.stuck_rule()).start_position());
    const auto found = std::find_if(classes.begin(), classes.end(),
                                    [&](const auto& entry) { return entry.first == key; });
    if (found == classes.end()) {
      classes.push_back({key, {square}});
    } else {
      found->second.push_back(square);
    }
  }
  // Classes are dealt with affinity: a rank gets the remaining class nearest (king distance
  // between first squares) to the one it solved last, so each rank's table reuses what its
  // earlier squares searched, as one process's table does for all of them. A rank's first
  // class is the one farthest from every class handed out so far. Measured on 7x6 (nodes, one
  // table per half, remoteness): left/right halves 84 M in all, alternate squares 99 M; one
  // table for everything 80 M.
  std::vector<std::size_t> handed_out;  // class index by sequence number
  std::vector<bool> taken(classes.size(), false);
  std::map<int, Square> last_of_rank;
  const auto distance = [&](Square a, Square b) {
    return std::max(std::abs(board.file_of(a) - board.file_of(b)),
                    std::abs(board.rank_of(a) - board.rank_of(b)));
  };
  WorkCallbacks callbacks;
  callbacks.next_item = [&](int rank) -> std::optional<std::string> {
    if (handed_out.size() == classes.size()) return std::nullopt;
    if (control.stop && control.stop->load(std::memory_order_relaxed)) return std::nullopt;
    const auto last = last_of_rank.find(rank);
    std::size_t chosen = classes.size();
    int chosen_score = 0;
    for (std::size_t i = 0; i < classes.size(); ++i) {
      if (taken[i]) continue;
      const Square square = classes[i].second.front();
      int score;  // lower is better
      if (last != last_of_rank.end()) {
        score = distance(square, last->second);
      } else {
        score = 0;  // the farthest from everything handed out: the most negative nearest distance
        int nearest = kMaxSquares;
        for (std::size_t given : handed_out) {
          nearest = std::min(nearest, distance(square, classes[given].second.front()));
        }
        if (!handed_out.empty()) score = -nearest;
      }
      if (chosen == classes.size() || score < chosen_score) {
        chosen = i;
        chosen_score = score;
      }
    }
    taken[chosen] = true;
    handed_out.push_back(chosen);
    last_of_rank[rank] = classes[chosen].second.front();
    std::string item;
    for (Square square : classes[chosen].second) item += std::to_string(square) + " ";
    return item;
  };
  callbacks.work = [&](const std::string& item) {
    std::istringstream squares(item);
    std::string result;
    int square = 0;
    while (squares >> square) {
      const Rastros variant(board, static_cast<Square>(square), rastros.stuck_rule());
      const Outcome outcome = solver.solve(variant.start_position());
      result += std::to_string(static_cast<int>(outcome.value)) + " " +
                std::to_string(outcome.remoteness.value_or(-1)) + " ";
    }
    return result;
  };
  callbacks.deliver = [&](std::uint64_t sequence, const std::string& result) {
    std::istringstream fields(result);
    for (Square square : classes[handed_out[sequence]].second) {
      int value = 0;
      int remoteness = -1;
      fields >> value >> remoteness;
      StartSquareOutcome solved{square, {static_cast<Value>(value), std::nullopt}};
      if (remoteness >= 0) solved.outcome.remoteness = remoteness;
      results.push_back(solved);
      if (control.on_solved) control.on_solved(solved);
    }
  };
  deal_work(world, callbacks);
  if (world.rank() != 0) return {};
  std::sort(results.begin(), results.end(),
            [](const auto& a, const auto& b) { return a.start < b.start; });
  return results;
}

// -- Batches ----------------------------------------------------------------------------------
// An item is "first-line-number\n" followed by the chunk's raw lines, each ending in '\n'
// (comments and blank lines included, so that numbering stays right); a result is
// "results bad-lines\n" followed by the formatted output of the chunk.

namespace {

// A dealt chunk's text at most (about): long runs of comments are split over several chunks.
constexpr std::size_t kMaxItemBytes = std::size_t{1} << 20;
// Results held on the root while they wait for an earlier chunk, at most (about).
constexpr std::size_t kMaxWaitingBytes = std::size_t{64} << 20;

std::string solve_chunk(const std::string& item, const BatchOptions& options, BatchSolvers& solvers,
                        const BatchCallbacks& callbacks) {
  std::istringstream text(item);
  std::uint64_t number = 0;
  text >> number;
  text.ignore(1);
  std::vector<std::pair<std::uint64_t, BatchLine>> lines;
  std::string line;
  while (std::getline(text, line)) {
    BatchLine parsed = parse_batch_line(line, options.defaults);
    if (parsed.kind != BatchLine::Kind::skip) lines.emplace_back(number, std::move(parsed));
    ++number;
  }
  const std::vector<BatchResult> results = solve_batch_lines(lines, solvers);
  std::string output;
  std::uint64_t bad = 0;
  for (const BatchResult& result : results) {
    output += callbacks.format(result);
    output += '\n';
    if (!result.job) ++bad;
  }
  return std::to_string(results.size()) + " " + std::to_string(bad) + "\n" + output;
}

}  // namespace

BatchCursor run_batch_distributed(const boost::mpi::communicator& world, LineReader& reader,
                                  BatchCursor cursor, const BatchOptions& options,
                                  BatchSolvers& solvers, const BatchCallbacks& callbacks,
                                  const std::atomic<bool>& stop) {
  // Root: the input position after each dealt chunk, and results waiting for earlier ones.
  std::map<std::uint64_t, BatchCursor> read_after;
  std::map<std::uint64_t, std::string> waiting;
  std::uint64_t dealt = 0;
  std::uint64_t committed = 0;
  bool more = true;
  std::string line;

  WorkCallbacks work;
  work.next_item = [&](int) -> std::optional<std::string> {
    if (!more || stop.load(std::memory_order_relaxed)) return std::nullopt;
    std::string item = std::to_string(reader.line_number() + 1) + "\n";
    std::size_t jobs = 0;
    std::vector<SolverVariant> variants;
    // Bounded in lines to solve, in bytes (blank lines and comments count there) and in
    // variants (each needs a table, and a chunk's tables must fit --memory together).
    while (jobs < options.chunk_lines && item.size() < kMaxItemBytes &&
           variants.size() < solvers.capacity()) {
      if (!reader.next(line)) {
        more = false;
        break;
      }
      item += line;
      item += '\n';
      // Blank lines and comments cost nothing; only lines to solve fill a chunk.
      const BatchLine parsed = parse_batch_line(line, options.defaults);
      if (parsed.kind == BatchLine::Kind::skip) continue;
      ++jobs;
      if (parsed.kind == BatchLine::Kind::job) {
        const SolverVariant variant = variant_of(parsed.job->rastros);
        if (std::find(variants.begin(), variants.end(), variant) == variants.end()) {
          variants.push_back(variant);
        }
      }
    }
    read_after[dealt++] = {reader.offset(), reader.line_number(), 0, 0};
    return item;
  };
  work.work = [&](const std::string& item) {
    return solve_chunk(item, options, solvers, callbacks);
  };
  // Results that wait for an earlier chunk are held in memory; past this many bytes no new
  // chunk is dealt until the earlier one is in, so a slow chunk cannot make the root hold the
  // rest of the output. (The test environment variable sets it to 1 byte: every result out of
  // order then makes the ranks wait, and the output must still come out whole and in order.)
  static const std::size_t max_waiting_bytes = [] {
    const char* text = std::getenv("RASTROS_TEST_BATCH_WAITING_BYTES");
    return text ? std::max<std::size_t>(1, std::strtoull(text, nullptr, 10)) : kMaxWaitingBytes;
  }();
  std::size_t waiting_bytes = 0;
  std::uint64_t holds = 0;  // times dealing stopped for a slow chunk
  work.hold = [&] { return waiting_bytes >= max_waiting_bytes; };
  work.deliver = [&](std::uint64_t sequence, std::string result) {
    if (sequence != committed && waiting_bytes < max_waiting_bytes &&
        waiting_bytes + result.size() >= max_waiting_bytes) {
      ++holds;
    }
    waiting_bytes += result.size();
    waiting.emplace(sequence, std::move(result));
    // Commit every chunk whose predecessors are all in, in input order.
    for (auto next = waiting.find(committed); next != waiting.end();
         next = waiting.find(committed)) {
      const std::size_t newline = next->second.find('\n');
      std::istringstream counts(next->second.substr(0, newline));
      std::uint64_t results = 0;
      std::uint64_t bad = 0;
      counts >> results >> bad;
      const BatchCursor& after = read_after.at(committed);
      cursor.input_offset = after.input_offset;
      cursor.lines_read = after.lines_read;
      cursor.results += results;
      cursor.bad_lines += bad;
      callbacks.commit(std::string_view(next->second).substr(newline + 1), cursor);
      read_after.erase(committed);
      waiting_bytes -= next->second.size();
      waiting.erase(next);
      ++committed;
    }
  };
  deal_work(world, work);
  if (world.rank() == 0 && std::getenv("RASTROS_TEST_BATCH_WAITING_BYTES")) {
    std::fprintf(stderr, "batch: dealing held %llu times for an earlier chunk\n",
                 static_cast<unsigned long long>(holds));
  }
  return cursor;
}

}  // namespace rastros::cluster
