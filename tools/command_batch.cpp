// `rastros batch`: solves every game or position of an input file, one JSON object per line
// of output in input order; bad lines get an error object and the run goes on. This file reads
// the options and prints; batch_files.hpp reads the input and writes the results, and the batch
// itself is batch/batch_runner.hpp (under mpirun cluster/distributed_jobs.hpp).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>

#include "analysis_output.hpp"
#include "batch/batch_checkpoint.hpp"
#include "batch/batch_identity.hpp"
#include "batch/batch_runner.hpp"
#include "batch_files.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#ifdef RASTROS_HAVE_MPI
#include "cluster/distributed_jobs.hpp"
#endif
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools {
namespace {

// Lines per chunk dealt to a rank under MPI when --chunk is not given.
constexpr std::size_t kMpiChunkLines = 8;

struct BatchArguments {
  VariantOptions variant;
  std::string input_path;
  std::string output_path;
  std::string checkpoint_directory;
  std::string memory;
  int threads = 0;
  std::size_t chunk_lines = 256;
  bool value_only = false;
  bool timing = false;
  bool resume = false;
  bool progress = false;
  bool quiet = false;
};

void add_batch_options(po::options_description& description, BatchArguments& batch) {
  description.add_options()("input", po::value(&batch.input_path)->required(),
                            "file of games or position strings, one per line ('-': stdin)")(
      "output", po::value(&batch.output_path),
      "write the JSON Lines here (atomically, when complete) instead of stdout");
  add_variant_options(description, batch.variant);
  add_threads_option(description, batch.threads);
  description.add_options()("memory", po::value(&batch.memory),
                            "the most memory the transposition tables may use together, e.g. "
                            "512M (default 256M); one table per board/rules/steps met, 32 MiB "
                            "each (8 MiB with --value-only) or less when the bound is small; "
                            "under mpirun each machine's, shared by its ranks (default 256M a "
                            "rank)")(
      "value-only", po::bool_switch(&batch.value_only),
      "win/loss/draw only: faster, no remoteness keys")(
      "timing", po::bool_switch(&batch.timing),
      "add \"nodes\" and \"seconds\" to each line (they vary from run to run, so they are off "
      "by default and reruns give identical output)")(
      "checkpoint", po::value(&batch.checkpoint_directory),
      "save progress in this directory after every chunk; Ctrl-C/SIGTERM stop after saving")(
      "resume", po::bool_switch(&batch.resume), "continue the batch saved in --checkpoint DIR")(
      "chunk", po::value(&batch.chunk_lines)->default_value(256),
      "lines solved together (in parallel); also the checkpoint step (under MPI, the lines dealt "
      "to a rank at a time; default 8 there)")(
      "progress", po::bool_switch(&batch.progress),
      "progress line on stderr even when it is not a terminal")(
      "quiet", po::bool_switch(&batch.quiet), "no progress line");
}

constexpr const char* kBatchUsage =
    "Usage: rastros batch --input FILE [--output FILE] [options]\n"
    "Solves each line of FILE: a game (c3 b2 ...) or a position string (7/7/7/3o3/7/7/7 "
    "1),\noptionally preceded by --board, --start, --rules, --steps for that line alone. "
    "Blank lines\nand # comments are skipped. Prints one JSON object per line, in input "
    "order, with the keys of\n`rastros solve --json` plus \"line\"; a bad line gives "
    "{\"line\": N, \"error\": \"...\"} and the exit\nstatus is 2 at the end. Exit 130/143 "
    "when stopped by Ctrl-C/SIGTERM.";

// Checks the options and turns them into the runner's.
BatchOptions batch_options(BatchArguments& batch, const Arguments& arguments) {
  // Under MPI chunks are the unit of dealing: small ones keep every rank busy to the end.
  if (mpi_size() > 1 &&
      std::find(arguments.begin(), arguments.end(), "--chunk") == arguments.end()) {
    batch.chunk_lines = kMpiChunkLines;
  }
  if (batch.chunk_lines == 0 || batch.chunk_lines > 1'000'000) {
    throw InputError("--chunk must be between 1 and 1000000");
  }
  if (batch.resume && batch.checkpoint_directory.empty()) {
    throw InputError("--resume needs --checkpoint DIR");
  }
  if (batch.input_path == "-" && !batch.checkpoint_directory.empty()) {
    throw InputError("--checkpoint needs --input FILE: standard input cannot be read again");
  }
  if (batch.input_path != "-" && !batch.checkpoint_directory.empty()) {
    check_resumable_input(batch.input_path);
  }
  // The defaults are checked once here, so that a typo fails the run instead of every line. A
  // default start on a goal (2x2 without --start) is left to the lines: position lines need no
  // start, game lines are refused one by one.
  resolve_variant_text(batch.variant, true);
  BatchOptions options;
  options.defaults = batch.variant;
  options.value_only = batch.value_only;
  options.chunk_lines = batch.chunk_lines;
  // --memory is the machine's: the ranks of an MPI job on it share it (the threads of a rank
  // share its tables). Without it each rank keeps the default bound.
  const int ranks = mpi_ranks_on_this_machine();
  if (!batch.memory.empty()) options.memory_bytes = parse_memory_size(batch.memory) / ranks;
  if (options.memory_bytes < kMinimumTableBytes) {
    throw InputError("--memory " + escape_control(batch.memory) + " is below the smallest table (" +
                     std::to_string(kMinimumTableBytes >> 10) + " KiB)" +
                     (ranks > 1 ? " for each of the " + std::to_string(ranks) +
                                      " ranks on this machine"
                                : std::string()));
  }
  return options;
}

// Refused before any work: a directory opens as a stream but fails on the first read, and an
// output directory would only fail at the final rename, after the whole batch. The output
// replaces a regular file only (a link is followed): renaming over a device or a pipe would
// replace it rather than write to it.
void check_paths(BatchArguments& batch, bool root) {
  std::error_code error;
  if (batch.input_path != "-" && std::filesystem::is_directory(batch.input_path, error)) {
    throw InputError("cannot read input " + batch.input_path + ": it is a directory");
  }
  if (root && !batch.output_path.empty() &&
      std::filesystem::is_directory(batch.output_path, error)) {
    throw InputError("cannot write output " + batch.output_path + ": it is a directory");
  }
  if (root && !batch.output_path.empty()) {
    batch.output_path = replaceable_file(batch.output_path, "--output").string();
  }
}

// The output line of one result: the design's keys plus "line", or {"line", "error"}.
std::string format_result(const BatchResult& result, bool value_only, bool timing) {
  if (!result.job) {
    Json error = Json::object();
    error.set("line", result.line).set("error", result.error);
    return error.dump();
  }
  AnalysisReport report{*result.job, result.analysis, result.seconds, value_only, std::nullopt};
  report.timing = timing;
  return analysis_json(report).prepend("line", result.line).dump();
}

// The results' way out: through the checkpoint (resumable) on --checkpoint, else straight to
// --output or stdout; nothing on the ranks other than the root under mpirun.
std::unique_ptr<ResultSink> open_sink(const BatchArguments& batch, bool root) {
  if (!root) return std::make_unique<ResultSink>();
  if (batch.checkpoint_directory.empty()) return std::make_unique<ResultSink>(batch.output_path);
  return std::make_unique<ResultSink>(std::make_unique<BatchCheckpoint>(
      batch.checkpoint_directory,
      batch_identity(batch.input_path, batch.variant, batch.value_only, batch.timing),
      batch.resume));
}

std::string progress_line(const BatchCursor& at, const BatchCursor& start, double input_bytes,
                          double seconds) {
  const double done = static_cast<double>(at.results - start.results);
  std::string line = "batch: " + std::to_string(at.results) + " lines solved (" +
                     human_count(done / seconds) + "/s), " + std::to_string(at.bad_lines) + " bad";
  if (input_bytes > 0) {
    const double fraction = static_cast<double>(at.input_offset) / input_bytes;
    const double run_fraction = static_cast<double>(at.input_offset - start.input_offset) / input_bytes;
    line += ", " + std::to_string(static_cast<int>(fraction * 100)) + "% of input";
    if (run_fraction > 0) {
      const double eta = seconds * (1 - fraction) / run_fraction;
      line += ", ETA " + std::to_string(static_cast<long>(eta)) + " s";
    }
  }
  return line;
}

BatchCursor solve_lines(LineReader& reader, const BatchCursor& start, const BatchOptions& options,
                        BatchSolvers& solvers, const BatchCallbacks& callbacks,
                        const std::atomic<bool>& stop) {
#ifdef RASTROS_HAVE_MPI
  if (mpi_size() > 1) {
    return cluster::run_batch_distributed(mpi_world(), reader, start, options, solvers, callbacks,
                                          stop);
  }
#endif
  return run_batch(reader, start, options, solvers, callbacks, stop);
}

int report_stop(const BatchCursor& final_cursor, const BatchArguments& batch, bool resumable) {
  std::cerr << "rastros batch: stopped after line " << final_cursor.lines_read;
  if (resumable) {
    std::cerr << "; progress saved in " << batch.checkpoint_directory
              << " (run again with --resume to continue)\n";
  } else {
    std::cerr << "; no checkpoint (use --checkpoint DIR to be able to resume)\n";
  }
  return stopped_exit_status();
}

}  // namespace

int run_batch(const Arguments& arguments) {
  BatchArguments batch;
  po::options_description description("Options");
  add_batch_options(description, batch);
  if (!parse_command_line(arguments, description, kBatchUsage)) return 0;
  const BatchOptions options = batch_options(batch, arguments);
  const bool from_stdin = batch.input_path == "-";
  // Under MPI the root reads the input and writes the output and checkpoints; the other ranks
  // only solve the chunks dealt to them.
  const bool root = mpi_rank() == 0;
  if (!root) {
    batch.quiet = true;
    batch.input_path = "/dev/null";
  }
  check_paths(batch, root);
  BatchInput input(batch.input_path, from_stdin);
  const std::unique_ptr<ResultSink> out = open_sink(batch, root);
  ResultSink& sink = *out;
  const BatchCursor start = sink.start();
  if (sink.resumable()) {
    if (sink.resumed() && !batch.quiet) {
      std::cerr << "rastros batch: resuming after line " << start.lines_read << " ("
                << start.results << " results saved)\n";
    }
    input.stream().seekg(static_cast<std::streamoff>(start.input_offset));
  }
  const ThreadLimit limit(batch.threads);
  BatchSolvers solvers(options);
  const std::atomic<bool>& stop = stop_requested();
  const auto started = std::chrono::steady_clock::now();
  BatchCallbacks callbacks;
  callbacks.format = [&](const BatchResult& result) {
    return format_result(result, batch.value_only, batch.timing);
  };
  callbacks.commit = [&](std::string_view text, const BatchCursor& after) {
    sink.commit(text, after);
  };
  LineReader reader(input.stream(), start);
  BatchCursor final_cursor;
  {
    const bool show = !batch.quiet && (batch.progress || ::isatty(STDERR_FILENO));
    ProgressReporter reporter(show, [&](double seconds) {
      return progress_line(sink.now(), start, input.bytes(), seconds);
    });
    final_cursor = solve_lines(reader, start, options, solvers, callbacks, stop);
  }
  if (!root) return 0;
  if (stop.load()) return report_stop(final_cursor, batch, sink.resumable());
  sink.finish(batch.output_path);
  if (!batch.quiet) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << "rastros batch: " << final_cursor.results << " lines, " << final_cursor.bad_lines
              << " bad, " << seconds << " s\n";
  }
  return final_cursor.bad_lines ? 2 : 0;
}

}  // namespace rastros::tools
