#include "score_batch_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "batch/batch_checkpoint.hpp"
#include "batch/batch_identity.hpp"
#include "batch/batch_runner.hpp"
#include "batch_files.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#include "progress.hpp"
#ifdef RASTROS_HAVE_MPI
#include "cluster/work_dealer.hpp"
#endif

namespace rastros::tools {

namespace {

// The input is cut into chunks, the unit a rank of an MPI job is dealt and the step of the
// checkpoint: "FIRST-LINE-NUMBER\n" and the raw lines (each ending in '\n') up to and including
// the chunk's last line to answer; blank lines and comments before it ride along so that line
// numbers stay right. A chunk's result is "BAD-LINES\n" and its output lines. One process runs
// the same chunks in turn, so its output is the MPI job's to the byte.
class Chunks {
 public:
  Chunks(std::istream& input, const BatchCursor& start, std::size_t lines, const std::atomic<bool>& stop)
      : reader_(input, start), lines_(lines), stop_(stop) {
    reader_.stop_on(stop);
  }

  std::optional<std::string> next() {
    if (stop_.load()) return std::nullopt;
    std::string item = std::to_string(reader_.line_number() + 1) + "\n";
    std::string text;
    bool any = false;
    std::size_t answered = 0;
    // A long run of comments is split over several chunks rather than held at once.
    while (item.size() < kMaxChunkBytes && reader_.next(text)) {
      any = true;
      item.append(text).append("\n");
      if (!skipped_batch_line(text) && ++answered == lines_) break;
    }
    if (!any) return std::nullopt;
    ends_.push_back({reader_.offset(), reader_.line_number()});
    return item;
  }

  /// The cursor after the oldest chunk not yet committed, its results and bad lines added.
  BatchCursor commit(BatchCursor cursor, std::uint64_t results, std::uint64_t bad) {
    cursor.input_offset = ends_.front().first;
    cursor.lines_read = ends_.front().second;
    cursor.results += results;
    cursor.bad_lines += bad;
    ends_.pop_front();
    return cursor;
  }

 private:
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 20;
  LineReader reader_;
  std::size_t lines_;
  const std::atomic<bool>& stop_;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> ends_;  // input offset, lines read
};

std::string answer_chunk(const std::string& item, const ScoreBatchAnswer& answer) {
  std::istringstream lines(item);
  std::uint64_t number = 0;
  lines >> number;
  lines.ignore(1);
  std::string text, output;
  std::uint64_t bad = 0;
  for (; std::getline(lines, text); ++number) {
    bool wrong = false;
    const auto line = answer(text, number, wrong);
    if (!line) continue;
    bad += wrong;
    output.append(*line).append("\n");
  }
  return std::to_string(bad) + "\n" + output;
}

// Answers every chunk (over the ranks of an MPI job, or here) and commits the results to
// `sink` in input order, on the root; returns the cursor after the last one committed.
BatchCursor answer_lines(Chunks& chunks, BatchCursor cursor, ResultSink& sink,
                         const ScoreBatchAnswer& answer) {
  const auto commit = [&](std::uint64_t, const std::string& result) {
    const std::size_t newline = result.find('\n');
    const std::string_view text = std::string_view(result).substr(newline + 1);
    cursor = chunks.commit(cursor, std::count(text.begin(), text.end(), '\n'),
                           std::stoull(result.substr(0, newline)));
    sink.commit(text, cursor);
  };
  const auto work = [&](const std::string& item) { return answer_chunk(item, answer); };
#ifdef RASTROS_HAVE_MPI
  if (mpi_size() > 1) {
    cluster::OrderedWork dealt;
    dealt.next_item = [&] { return chunks.next(); };
    dealt.work = work;
    dealt.commit = commit;
    cluster::deal_in_order(mpi_world(), dealt);
    return cursor;
  }
#endif
  while (const auto item = chunks.next()) commit(0, work(*item));
  return cursor;
}

void check_files(const ScoreBatchFiles& files, bool root) {
  if (files.chunk_lines == 0 || files.chunk_lines > 1'000'000) {
    throw InputError("--chunk must be between 1 and 1000000");
  }
  if (files.resume && files.checkpoint.empty()) throw InputError("--resume needs --checkpoint DIR");
  if (files.input == "-" && !files.checkpoint.empty()) {
    throw InputError("--checkpoint needs --input FILE: standard input cannot be read again");
  }
  if (!root || files.input == "-") return;
  std::error_code error;
  if (std::filesystem::is_directory(files.input, error)) {
    throw InputError("cannot open --input " + quote_input(files.input, 200) + ": a directory");
  }
  if (!std::ifstream(files.input, std::ios::binary)) {
    throw InputError("cannot open --input " + quote_input(files.input, 200));
  }
  if (!files.checkpoint.empty()) check_resumable_input(files.input);
  if (files.output && std::filesystem::is_directory(*files.output, error)) {
    throw InputError("cannot write --output " + quote_input(*files.output, 200) + ": a directory");
  }
}

// The results' way out: through the checkpoint (resumable) on --checkpoint, else straight to
// --output or stdout; nothing on the ranks other than the root under mpirun.
std::unique_ptr<ResultSink> open_sink(const ScoreBatchFiles& files, const std::string& identity,
                                      bool root) {
  if (!root) return std::make_unique<ResultSink>();
  if (files.checkpoint.empty()) return std::make_unique<ResultSink>(files.output.value_or(""));
  return std::make_unique<ResultSink>(std::make_unique<BatchCheckpoint>(
      files.checkpoint, batch_identity(files.input, identity), files.resume));
}

std::string progress_line(const BatchCursor& at, double input_bytes) {
  std::string line = "batch: " + std::to_string(at.results) + " lines answered, " +
                     std::to_string(at.bad_lines) + " bad";
  if (input_bytes > 0) {
    line += ", " + std::to_string(static_cast<int>(at.input_offset * 100 / input_bytes)) +
            "% of input";
  }
  return line;
}

}  // namespace

void add_score_batch_files(po::options_description& description, ScoreBatchFiles& files) {
  description.add_options()("input", po::value(&files.input)->required(),
                            "file of games or position strings, one a line ('-': stdin)");
  add_optional_option(description, "output", files.output,
                      "write the JSON Lines here (atomically, when complete) instead of stdout");
}

void add_score_batch_run(po::options_description& description, ScoreBatchFiles& files) {
  description.add_options()(
      "checkpoint", po::value(&files.checkpoint),
      "save the output in this directory after every chunk; Ctrl-C/SIGTERM stop after the "
      "chunk being solved")(
      "resume", po::bool_switch(&files.resume), "continue the batch saved in --checkpoint DIR")(
      "chunk", po::value(&files.chunk_lines)->default_value(files.chunk_lines),
      "lines answered between two checkpoints (under MPI, the lines dealt to a rank at a time)")(
      "progress", po::bool_switch(&files.progress),
      "progress line on stderr even when it is not a terminal");
}

std::string score_batch_error(std::uint64_t number, const std::string& error) {
  Json json = Json::object();
  json.set("line", number).set("error", error);
  return json.dump();
}

int run_score_batch(const ScoreBatchFiles& files, const std::string& identity,
                    const ScoreBatchAnswer& answer, const std::atomic<bool>& stop) {
  // Under MPI the root reads the input and writes the output; every rank answers.
  const bool root = mpi_rank() == 0;
  check_files(files, root);
  BatchInput input(root ? files.input : "/dev/null", root && files.input == "-");
  const std::unique_ptr<ResultSink> sink = open_sink(files, identity, root);
  const BatchCursor start = sink->start();
  if (sink->resumed() && !files.quiet) {
    std::cerr << "rastros batch: resuming after line " << start.lines_read << " ("
              << start.results << " results saved)\n";
  }
  // Only a resumed run starts past 0 (its input a regular file: standard input cannot seek).
  if (start.input_offset > 0) input.stream().seekg(static_cast<std::streamoff>(start.input_offset));
  Chunks chunks(input.stream(), start, files.chunk_lines, stop);
  BatchCursor end;
  try {
    const bool show = root && !files.quiet && (files.progress || ::isatty(STDERR_FILENO));
    ProgressReporter reporter(show, [&](double) { return progress_line(sink->now(), input.bytes()); });
    end = answer_lines(chunks, start, *sink, answer);
  } catch (const engine::SearchStopped&) {
    if (!stop.load()) throw;
    end = sink->now();  // after the last chunk committed; the one stopped is solved again
  }
  if (!root) return 0;
  if (stop.load()) {
    std::cerr << "rastros batch: stopped after line " << end.lines_read
              << (sink->resumable() ? "; progress saved in " + files.checkpoint +
                                          " (run again with --resume to continue)\n"
                                    : "; no checkpoint (use --checkpoint DIR to be able to resume)\n");
    return stopped_exit_status();
  }
  sink->finish(files.output.value_or(""));
  if (end.bad_lines && !files.quiet) {
    std::cerr << "rastros batch: " << end.bad_lines << " bad line(s)\n";
  }
  return end.bad_lines ? 2 : 0;
}

}  // namespace rastros::tools
