// `rastros batch`: solves every game or position of an input file, one JSON object per line
// of output in input order; bad lines get an error object and the run goes on.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>

#include "analysis_output.hpp"
#include "batch/batch_checkpoint.hpp"
#include "batch/batch_runner.hpp"
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

// The output line of one result: the design's keys plus "line", or {"line", "error"}.
std::string format_result(const BatchResult& result, bool value_only, bool timing) {
  if (!result.job) {
    Json error = Json::object();
    error.set("line", result.line).set("error", result.error);
    return error.dump();
  }
  const PositionInput input{result.job->rastros, result.job->moves, result.job->position};
  AnalysisReport report{input, result.analysis, result.seconds, value_only, std::nullopt};
  report.timing = timing;
  return analysis_json(report).prepend("line", result.line).dump();
}

// What makes a checkpoint reusable: the same input file (path, size, modification time) and
// the options that change the output.
std::string batch_identity(const std::string& input, const VariantOptions& defaults,
                           bool value_only, bool timing) {
  struct stat status {};
  if (::stat(input.c_str(), &status) != 0) throw InputError("cannot read input " + input);
  std::string identity = "input=" + std::filesystem::absolute(input).string() +
                         ";size=" + std::to_string(status.st_size) +
                         ";mtime=" + std::to_string(status.st_mtim.tv_sec) + "." +
                         std::to_string(status.st_mtim.tv_nsec) + ";board=" + defaults.board +
                         ";start=" + defaults.start.value_or("") + ";rules=" + defaults.rules +
                         ";steps=" + defaults.steps + ";value_only=" + std::to_string(value_only) +
                         ";timing=" + std::to_string(timing);
  for (char& c : identity) {
    if (c == '\n') c = '?';
  }
  return identity;
}

// Results written as they come, to standard output or through an AtomicFileWriter (a
// temporary file renamed over --output at the end: the final name only ever holds a complete
// output, made durable before the rename).
class DirectOutput {
 public:
  explicit DirectOutput(const std::string& path) {
    if (path.empty()) return;
    try {
      file_.emplace(path, "output");
    } catch (const std::system_error& error) {
      throw InputError(error.what());  // "writing output FILE: cannot create ...": exit 2
    }
  }
  void write(std::string_view text) {
    if (file_) {
      file_->write(text);
      return;
    }
    std::cout << text;
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("cannot write output (stdout)");
  }
  void finish() {
    if (file_) file_->commit();
  }

 private:
  std::optional<AtomicFileWriter> file_;
};

}  // namespace

int run_batch(const Arguments& arguments) {
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
  po::options_description description("Options");
  description.add_options()("input", po::value(&input_path)->required(),
                            "file of games or position strings, one per line ('-': stdin)")(
      "output", po::value(&output_path),
      "write the JSON Lines here (atomically, when complete) instead of stdout");
  add_variant_options(description, variant);
  add_threads_option(description, threads);
  description.add_options()("memory", po::value(&memory),
                            "bound on all transposition tables together, e.g. 512M (default "
                            "256M); one table per board/rules/steps met, 32 MiB each (8 MiB "
                            "with --value-only) or less when the bound is small")(
      "value-only", po::bool_switch(&value_only), "win/loss/draw only: faster, no remoteness keys")(
      "timing", po::bool_switch(&timing),
      "add \"nodes\" and \"seconds\" to each line (they vary from run to run, so they are off "
      "by default and reruns give identical output)")(
      "checkpoint", po::value(&checkpoint_directory),
      "save progress in this directory after every chunk; Ctrl-C/SIGTERM stop after saving")(
      "resume", po::bool_switch(&resume), "continue the batch saved in --checkpoint DIR")(
      "chunk", po::value(&chunk_lines)->default_value(256),
      "lines solved together (in parallel); also the checkpoint step (under MPI, the lines dealt "
      "to a rank at a time; default 8 there)")(
      "progress", po::bool_switch(&progress),
      "progress line on stderr even when it is not a terminal")("quiet", po::bool_switch(&quiet),
                                                                "no progress line");
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros batch --input FILE [--output FILE] [options]\n"
          "Solves each line of FILE: a game (c3 b2 ...) or a position string (7/7/7/3o3/7/7/7 "
          "1),\noptionally preceded by --board, --start, --rules, --steps for that line alone. "
          "Blank lines\nand # comments are skipped. Prints one JSON object per line, in input "
          "order, with the keys of\n`rastros solve --json` plus \"line\"; a bad line gives "
          "{\"line\": N, \"error\": \"...\"} and the exit\nstatus is 2 at the end. Exit 130/143 "
          "when stopped by Ctrl-C/SIGTERM.")) {
    return 0;
  }
  // Under MPI chunks are the unit of dealing: small ones keep every rank busy to the end.
  if (mpi_size() > 1 &&
      std::find(arguments.begin(), arguments.end(), "--chunk") == arguments.end()) {
    chunk_lines = kMpiChunkLines;
  }
  if (chunk_lines == 0 || chunk_lines > 1'000'000) {
    throw InputError("--chunk must be between 1 and 1000000");
  }
  if (resume && checkpoint_directory.empty()) throw InputError("--resume needs --checkpoint DIR");
  const bool from_stdin = input_path == "-";
  if (from_stdin && !checkpoint_directory.empty()) {
    throw InputError("--checkpoint needs --input FILE: standard input cannot be read again");
  }
  if (!from_stdin && !checkpoint_directory.empty()) check_resumable_input(input_path);
  // The defaults are checked once here, so that a typo fails the run instead of every line. A
  // default start on a goal (2x2 without --start) is left to the lines: position lines need no
  // start, game lines are refused one by one.
  resolve_variant_text({variant.board, variant.start, variant.rules, variant.steps}, true);

  BatchOptions options;
  options.defaults = {variant.board, variant.start, variant.rules, variant.steps};
  options.value_only = value_only;
  options.chunk_lines = chunk_lines;
  if (!memory.empty()) options.memory_bytes = parse_memory_size(memory);
  if (options.memory_bytes < kMinimumTableBytes) {
    throw InputError("--memory " + escape_control(memory) + " is below the smallest table (" +
                     std::to_string(kMinimumTableBytes >> 10) + " KiB)");
  }

  // Under MPI the root reads the input and writes the output and checkpoints; the other ranks
  // only solve the chunks dealt to them.
  const bool root = mpi_rank() == 0;
  if (!root) {
    quiet = true;
    input_path = "/dev/null";
  }
  // Refused before any work: a directory opens as a stream but fails on the first read, and
  // an output directory would only fail at the final rename, after the whole batch.
  std::error_code error;
  if (!from_stdin && std::filesystem::is_directory(input_path, error)) {
    throw InputError("cannot read input " + input_path + ": it is a directory");
  }
  if (root && !output_path.empty() && std::filesystem::is_directory(output_path, error)) {
    throw InputError("cannot write output " + output_path + ": it is a directory");
  }
  // The output replaces a regular file only (a link is followed): renaming over a device or a
  // pipe would replace it rather than write to it.
  if (root && !output_path.empty())
    output_path = replaceable_file(output_path, "--output").string();
  std::ifstream file;
  if (!from_stdin) {
    file.open(input_path, std::ios::binary);
    if (!file) throw InputError("cannot read input " + input_path);
  }
  // Standard input read so that a signal stops a run that waits for a line (an idle pipe).
  StopAwareInput standard_input(STDIN_FILENO, stop_requested());
  std::istream& input = from_stdin ? static_cast<std::istream&>(standard_input) : file;
  struct stat input_status {};
  const double input_bytes =
      !from_stdin && ::stat(input_path.c_str(), &input_status) == 0 ? input_status.st_size : 0;

  std::unique_ptr<BatchCheckpoint> checkpoint;
  BatchCursor cursor;
  if (!checkpoint_directory.empty() && root) {
    checkpoint = std::make_unique<BatchCheckpoint>(
        checkpoint_directory, batch_identity(input_path, variant, value_only, timing), resume);
    cursor = checkpoint->cursor();
    if (checkpoint->resumed() && !quiet) {
      std::cerr << "rastros batch: resuming after line " << cursor.lines_read << " ("
                << cursor.results << " results saved)\n";
    }
    file.seekg(static_cast<std::streamoff>(cursor.input_offset));
  }
  std::unique_ptr<DirectOutput> direct;
  if (!checkpoint && root) direct = std::make_unique<DirectOutput>(output_path);

  const ThreadLimit limit(threads);
  BatchSolvers solvers(options);
  const std::atomic<bool>& stop = stop_requested();
  BatchCursor now = cursor;  // read by the progress thread
  std::mutex now_mutex;
  const auto started = std::chrono::steady_clock::now();
  BatchCallbacks callbacks;
  callbacks.format = [&](const BatchResult& result) {
    return format_result(result, value_only, timing);
  };
  callbacks.commit = [&](std::string_view text, const BatchCursor& after) {
    if (checkpoint) {
      checkpoint->commit(text, after);
    } else {
      direct->write(text);
    }
    std::lock_guard lock(now_mutex);
    now = after;
  };
  LineReader reader(input, cursor);
  BatchCursor final_cursor;
  {
    const bool show = !quiet && (progress || ::isatty(STDERR_FILENO));
    ProgressReporter reporter(show, [&](double seconds) {
      BatchCursor at;
      {
        std::lock_guard lock(now_mutex);
        at = now;
      }
      const double done = static_cast<double>(at.results - cursor.results);
      std::string line = "batch: " + std::to_string(at.results) + " lines solved (" +
                         human_count(done / seconds) + "/s), " + std::to_string(at.bad_lines) +
                         " bad";
      if (input_bytes > 0) {
        const double fraction = static_cast<double>(at.input_offset) / input_bytes;
        const double run_fraction =
            static_cast<double>(at.input_offset - cursor.input_offset) / input_bytes;
        line += ", " + std::to_string(static_cast<int>(fraction * 100)) + "% of input";
        if (run_fraction > 0) {
          const double eta = seconds * (1 - fraction) / run_fraction;
          line += ", ETA " + std::to_string(static_cast<long>(eta)) + " s";
        }
      }
      return line;
    });
#ifdef RASTROS_HAVE_MPI
    if (mpi_size() > 1) {
      final_cursor = cluster::run_batch_distributed(mpi_world(), reader, cursor, options, solvers,
                                                    callbacks, stop);
    } else {
      final_cursor = run_batch(reader, cursor, options, solvers, callbacks, stop);
    }
#else
    final_cursor = run_batch(reader, cursor, options, solvers, callbacks, stop);
#endif
  }
  if (!root) return 0;
  if (stop.load()) {
    std::cerr << "rastros batch: stopped after line " << final_cursor.lines_read;
    if (checkpoint) {
      std::cerr << "; progress saved in " << checkpoint_directory
                << " (run again with --resume to continue)\n";
    } else {
      std::cerr << "; no checkpoint (use --checkpoint DIR to be able to resume)\n";
    }
    return stopped_exit_status();
  }
  if (checkpoint) {
    if (output_path.empty()) {
      checkpoint->finish(std::cout);
    } else {
      checkpoint->finish(output_path);
    }
  } else {
    direct->finish();
  }
  if (!quiet) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << "rastros batch: " << final_cursor.results << " lines, " << final_cursor.bad_lines
              << " bad, " << seconds << " s\n";
  }
  return final_cursor.bad_lines ? 2 : 0;
}

}  // namespace rastros::tools
