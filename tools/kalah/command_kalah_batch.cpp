// `rastros batch --game kalah`: solves every line of a file (games or position strings of any
// Kalah variant), one JSON object a line in input order.

#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>

#include "batch/batch_runner.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "games/kalah/kalah_analysis.hpp"
#include "games/kalah/kalah_batch_line.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "kalah/kalah_output.hpp"
#include "mpi_world.hpp"
#include "options.hpp"
#include "progress.hpp"
#ifdef RASTROS_HAVE_MPI
#include "cluster/work_dealer.hpp"
#endif

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

// A variant's table, or less when --memory is smaller: the size of one solve's.
constexpr std::size_t kVariantTableBytes = std::size_t{64} << 20;

// One solver (and endgame database) a variant met, kept for the lines after it. --memory bounds
// the tables together: when they are all in use the least recently used solver is dropped (its
// endgame database, small and slow to rebuild, is kept).
class Solvers {
 public:
  Solvers(KalahSolveOptions options, std::size_t memory, EndgameOptions endgame, bool quiet)
      : options_(options), endgame_(std::move(endgame)), quiet_(quiet) {
    options_.table_bytes = std::min(memory, kVariantTableBytes);
    capacity_ = std::max<std::size_t>(1, memory / options_.table_bytes);
  }

  struct Entry {
    std::shared_ptr<const KalahEndgame> endgame;
    std::unique_ptr<KalahSolver> solver;
  };

  Entry& for_game(const Kalah& game) {
    const Key key = std::make_tuple(game.houses(), game.seeds(), game.rule());
    auto found = entries_.find(key);
    if (found == entries_.end() || !found->second.solver) {
      Entry& entry = entries_[key];
      if (!entry.endgame) entry.endgame = endgame_for_search(game, endgame_, quiet_);
      make_room();
      entry.solver = std::make_unique<KalahSolver>(game, options_, entry.endgame.get());
      found = entries_.find(key);
    }
    recent_.remove(key);
    recent_.push_front(key);
    return found->second;
  }

 private:
  using Key = std::tuple<int, int, CaptureRule>;

  // Drops the least recently used solvers until one more fits.
  void make_room() {
    while (recent_.size() >= capacity_) {
      entries_[recent_.back()].solver.reset();
      recent_.pop_back();
    }
  }

  KalahSolveOptions options_;
  EndgameOptions endgame_;
  bool quiet_;
  std::size_t capacity_ = 1;
  std::map<Key, Entry> entries_;
  std::list<Key> recent_;  // the variants with a solver, most recently used first
};

// The input is cut into chunks, the unit a rank of an MPI job is dealt: "FIRST-LINE-NUMBER\n"
// and the raw lines (each ending in '\n') up to and including the next one to solve; blank
// lines and comments before it ride along so that line numbers stay right. A chunk's result is
// "BAD-LINES\n" and its JSON lines. One process runs the same chunks in turn, so its output is
// the MPI job's to the byte.
class Chunks {
 public:
  Chunks(std::istream& input, KalahVariantText defaults)
      : reader_(input, BatchCursor{}), defaults_(std::move(defaults)) {}

  std::optional<std::string> next() {
    std::string item = std::to_string(reader_.line_number() + 1) + "\n";
    std::string text;
    bool any = false;
    // A long run of comments is split over several chunks rather than held at once.
    while (item.size() < kMaxChunkBytes && reader_.next(text)) {
      any = true;
      item.append(text).append("\n");
      if (parse_kalah_batch_line(text, defaults_).kind != KalahBatchLine::Kind::skip) break;
    }
    if (!any) return std::nullopt;
    return item;
  }

 private:
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 20;
  LineReader reader_;
  KalahVariantText defaults_;
};

struct ChunkSolver {
  const KalahVariantText& defaults;
  Solvers& solvers;
  bool root_only;
  bool timing;

  std::string operator()(const std::string& item) const {
    std::istringstream lines(item);
    std::uint64_t number = 0;
    lines >> number;
    lines.ignore(1);
    std::string text, output;
    std::uint64_t bad = 0;
    for (; std::getline(lines, text); ++number) {
      const KalahBatchLine line = parse_kalah_batch_line(text, defaults);
      if (line.kind == KalahBatchLine::Kind::skip) continue;
      if (line.kind == KalahBatchLine::Kind::error) {
        ++bad;
        Json error = Json::object();
        error.set("line", number).set("error", line.error);
        output.append(error.dump()).append("\n");
        continue;
      }
      output.append(solve(*line.job, number)).append("\n");
    }
    return std::to_string(bad) + "\n" + output;
  }

  std::string solve(const KalahBatchJob& job, std::uint64_t number) const {
    auto& entry = solvers.for_game(job.game);
    const std::uint64_t nodes_before = entry.solver->nodes();
    const auto started = std::chrono::steady_clock::now();
    const KalahResult result = entry.solver->solve(job.position);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    Json json = result_json({job, result, root_only, entry.solver->nodes() - nodes_before, seconds,
                             entry.endgame ? entry.endgame->max_seeds() : -1, std::nullopt, timing});
    json.prepend("line", number);
    return json.dump();
  }
};

// Solves every chunk of `input` (over the ranks of an MPI job, or here) and hands the JSON lines
// to `emit` in input order, on the root; returns the bad lines there (0 on other ranks).
std::uint64_t solve_lines(std::istream& input, const std::function<void(const std::string&)>& emit,
                          const KalahVariantText& defaults, const ChunkSolver& solve) {
  Chunks chunks(input, defaults);
  std::uint64_t bad = 0;
  const auto commit = [&](std::uint64_t, const std::string& result) {
    const std::size_t newline = result.find('\n');
    bad += std::stoull(result.substr(0, newline));
    if (newline + 1 < result.size()) emit(result.substr(newline + 1));
  };
#ifdef RASTROS_HAVE_MPI
  if (mpi_size() > 1) {
    cluster::OrderedWork work;
    work.next_item = [&] { return chunks.next(); };
    work.work = solve;
    work.commit = commit;
    cluster::deal_in_order(mpi_world(), work);
    return bad;
  }
#endif
  while (const auto item = chunks.next()) commit(0, solve(*item));
  return bad;
}

}  // namespace

int run_batch(const Arguments& arguments) {
  KalahOptions options;
  EndgameOptions endgame_options;
  std::string input_path, memory = "256M";
  std::optional<std::string> output_path;
  bool value_only = false, root_only = false, timing = false, quiet = false;
  int threads = 0;
  po::options_description description("Options");
  description.add_options()("input", po::value(&input_path)->required(),
                            "file of games or position strings, one a line ('-': stdin)");
  add_optional_option(description, "output", output_path,
                      "write the JSON Lines here (atomically, when complete) instead of stdout");
  add_kalah_options(description, options, false);
  description.add_options()(
      "memory", po::value(&memory)->default_value(memory),
      "the most memory the transposition tables may use together: 64M a variant met, or "
      "less when the bound is small")(
      "value-only", po::bool_switch(&value_only), "win/draw/loss only, no scores")(
      "root-only", po::bool_switch(&root_only), "each position's value and score alone")(
      "timing", po::bool_switch(&timing), "add \"nodes\" and \"seconds\" to each line")(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr");
  add_threads_option(description, threads);
  add_endgame_options(description, endgame_options);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros batch --game kalah --input FILE [--output FILE] [options]\n"
                          "Solves each line of FILE: a game (3 6 1) or a position string "
                          "(4,4,0,5,5,0,2/5,5,5,5,4,4,0 2), optionally preceded by --houses, "
                          "--seeds, --rules for that line alone. Blank lines and # comments are "
                          "skipped. Prints one JSON object a line, in input order, with the keys of "
                          "`rastros solve --game kalah --json` plus \"line\"; a bad line gives "
                          "{\"line\": N, \"error\": \"...\"} and the exit status is 2 at the end.")) {
    return 0;
  }
  const ThreadLimit limit(threads);
  const KalahVariantText defaults{options.houses, options.seeds, options.rules};
  resolve_game(options);  // the defaults themselves must be a variant
  // Under MPI the root reads the input and writes the output; every rank solves.
  const bool root = mpi_rank() == 0;
  Solvers solvers({0, value_only, root_only}, parse_memory_size(memory), endgame_options,
                  quiet || !root);
  const ChunkSolver solve{defaults, solvers, root_only, timing};

  std::ifstream file;
  if (input_path != "-" && root) {
    file.open(input_path, std::ios::binary);
    if (!file) throw InputError("cannot open --input " + quote_input(input_path, 200));
  }
  std::istream& input = input_path == "-" ? std::cin : file;
  std::uint64_t bad = 0;
  if (output_path && root) {
    // Streamed into the temporary file, which appears under its name once complete.
    AtomicFileWriter writer(*output_path, "output");
    bad = solve_lines(input, [&](const std::string& lines) { writer.write(lines); }, defaults,
                      solve);
    writer.commit();
  } else {
    bad = solve_lines(input, [](const std::string& lines) { std::cout << lines; }, defaults,
                      solve);
  }
  if (!root) return 0;
  if (bad && !quiet) std::cerr << "rastros batch: " << bad << " bad line(s)\n";
  return bad ? 2 : 0;
}

}  // namespace rastros::tools::kalah_cli
