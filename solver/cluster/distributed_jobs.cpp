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
  // Each rank walks its own stretch of the classes in row-major order (of their first squares),
  // so that its table keeps reusing what its neighbouring squares searched, as one process's
  // table does for all of them. Ranks go in pairs: of each pair's share of the order, the even
  // rank walks forwards from the start and the odd rank backwards from the end, and they meet
  // wherever their squares' costs make them meet. A rank whose next class is taken goes on
  // with the untaken class nearest to it in the order. Measured on the 7x7 value-only map
  // (nodes searched): one table 86.4 M; two ranks so 98.1 M; two ranks each taking the class
  // nearest its last one by king distance 107.2 M; on 7x6 with remoteness, 80 M in one
  // table, 84 M for fixed left and right halves, 99 M for alternate squares.
  struct Walk {
    std::ptrdiff_t last;  // index of the rank's last class (one before its first at the start)
    std::ptrdiff_t step;  // +1 forwards, -1 backwards
  };
  std::map<int, Walk> walk_of_rank;
  std::vector<std::size_t> handed_out;  // class index by sequence number
  std::vector<bool> taken(classes.size(), false);
  const auto first_walk = [&](int rank) {
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(classes.size());
    const int pairs = (world.size() + 1) / 2;
    const std::ptrdiff_t begin = count * (rank / 2) / pairs;
    const std::ptrdiff_t end = count * (rank / 2 + 1) / pairs;
    return rank % 2 ? Walk{end, -1} : Walk{begin - 1, +1};
  };
  WorkCallbacks callbacks;
  callbacks.next_item = [&](int rank) -> std::optional<std::string> {
    if (handed_out.size() == classes.size()) return std::nullopt;
    if (control.stop && control.stop->load(std::memory_order_relaxed)) return std::nullopt;
    auto found = walk_of_rank.find(rank);
    if (found == walk_of_rank.end()) found = walk_of_rank.emplace(rank, first_walk(rank)).first;
    Walk& walk = found->second;
    const std::ptrdiff_t wanted = walk.last + walk.step;
    std::ptrdiff_t chosen = -1;
    std::ptrdiff_t chosen_score = 0;
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(classes.size()); ++i) {
      if (taken[i]) continue;
      // Nearest to the wanted index; of two at the same distance, the one ahead of the walk.
      const std::ptrdiff_t score = 2 * std::abs(i - wanted) + ((i - wanted) * walk.step < 0);
      if (chosen < 0 || score < chosen_score) {
        chosen = i;
        chosen_score = score;
      }
    }
    taken[chosen] = true;
    handed_out.push_back(static_cast<std::size_t>(chosen));
    walk.last = chosen;
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
  // Root: the input position after each dealt chunk.
  std::map<std::uint64_t, BatchCursor> read_after;
  std::uint64_t dealt = 0;
  bool more = true;
  std::string line;
  reader.stop_on(stop);

  OrderedWork work;
  work.next_item = [&]() -> std::optional<std::string> {
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
  // (The test environment variable sets the limit to 1 byte: every result out of order then
  // makes the ranks wait, and the output must still come out whole and in order.)
  if (const char* text = std::getenv("RASTROS_TEST_BATCH_WAITING_BYTES")) {
    work.max_waiting_bytes = std::max<std::size_t>(1, std::strtoull(text, nullptr, 10));
  }
  work.commit = [&](std::uint64_t sequence, const std::string& result) {
    const std::size_t newline = result.find('\n');
    std::istringstream counts(result.substr(0, newline));
    std::uint64_t results = 0;
    std::uint64_t bad = 0;
    counts >> results >> bad;
    const BatchCursor& after = read_after.at(sequence);
    cursor.input_offset = after.input_offset;
    cursor.lines_read = after.lines_read;
    cursor.results += results;
    cursor.bad_lines += bad;
    callbacks.commit(std::string_view(result).substr(newline + 1), cursor);
    read_after.erase(sequence);
  };
  const std::uint64_t holds = deal_in_order(world, work);
  if (world.rank() == 0 && std::getenv("RASTROS_TEST_BATCH_WAITING_BYTES")) {
    std::fprintf(stderr, "batch: dealing held %llu times for an earlier chunk\n",
                 static_cast<unsigned long long>(holds));
  }
  return cursor;
}

}  // namespace rastros::cluster
