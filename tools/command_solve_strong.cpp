// `rastros solve --db FILE` (--kind strong): every position reachable from the start valued by
// retrograde analysis, on one machine or, under mpirun, each rank solving its share of each
// layer and writing its part of the file.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "core/errors.hpp"
#include "db/strong_database.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#ifdef RASTROS_HAVE_MPI
#include "cluster/distributed_database_writer.hpp"
#include "cluster/distributed_strong_solver.hpp"
#endif
#include "progress.hpp"
#include "retro/strong_memory.hpp"
#include "solve_requests.hpp"

namespace rastros::tools {
namespace {

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return text;
}

// "about N MiB" below a GiB, "about N GiB" above (estimates for boards far too large say less).
std::string memory_text(double bytes) {
  if (bytes >= 1024.0 * 1024 * 1024 * 1024 * 1024) return "more than a PiB";
  if (bytes >= 1024.0 * 1024 * 1024) return "about " + gib(bytes);
  char text[32];
  std::snprintf(text, sizeof text, "about %.0f MiB", bytes / (1024.0 * 1024));
  return text;
}

// Refuses, before any work, a build estimated to need more than --memory or than this machine
// has: it would otherwise run out of memory after hours of work.
void check_strong_memory(const Rastros& rastros, const std::string& memory) {
  const double physical = physical_memory_bytes();
  const double needed = estimated_strong_bytes(rastros.board());
  if (!memory.empty()) {
    const double limit = static_cast<double>(parse_memory_size(memory));
    if (needed > limit) {
      throw InputError("a strong database of " + rastros.board().name() + " needs " +
                       memory_text(needed) + " of memory, more than --memory " +
                       escape_control(memory));
    }
  }
  if (physical > 0 && needed > 0.8 * physical) {
    throw InputError("a strong database of " + rastros.board().name() + " needs " +
                     memory_text(needed) + " of memory while solving, more than this machine's " +
                     gib(physical) + "; use a smaller board");
  }
}

// Solves and writes the database; nothing on the ranks other than the root under mpirun, which
// print nothing. (The checkpoints are removed only once the database is safely on disk.)
std::optional<StrongSolveStats> solve_and_write(const Rastros& rastros,
                                                const DatabaseRequest& request,
                                                const StrongSolveControl& control, bool quiet) {
  const auto progress = [&](const std::string& line) {
    if (!quiet) std::cerr << line << "\n";
  };
#ifdef RASTROS_HAVE_MPI
  if (mpi_size() > 1) {
    // Every rank solves its share of each layer, then holds a run of the table's keys and
    // writes its part of the file (cluster/distributed_database_writer.hpp).
    cluster::StrongTableRun run =
        cluster::solve_strong_distributed(mpi_world(), rastros, progress, control);
    const StrongSolveStats stats = run.stats();
    cluster::write_database_distributed(mpi_world(), request.path,
                                        header_for(rastros, DatabaseKind::strong), run);
    if (mpi_rank() != 0) return std::nullopt;
    cluster::remove_distributed_strong_checkpoint(request.checkpoint);
    return stats;
  }
#endif
  StrongTable table = solve_strong(rastros, progress, control);
  const StrongSolveStats stats = table.stats();
  write_database(request.path, to_database(rastros, std::move(table)));
  remove_strong_checkpoint(request.checkpoint);
  return stats;
}

void print_strong(const Rastros& rastros, const std::string& path, const StrongSolveStats& stats,
                  double seconds, bool json) {
  const std::uintmax_t bytes = std::filesystem::file_size(path);
  const std::uint64_t positions = stats.position_count();
  const int layer_count = stats.layer_count();
  const double per_position =
      positions ? static_cast<double>(bytes) / static_cast<double>(positions) : 0;
  const Board& board = rastros.board();
  if (json) {
    Json out = variant_json(rastros);
    out.set("kind", "strong")
        .set("file", path)
        .set("positions", positions)
        .set("layers", static_cast<std::int64_t>(layer_count))
        .set("seconds", seconds)
        .set("bytes", static_cast<std::uint64_t>(bytes))
        .set("bytes_per_position", per_position);
    std::cout << out.dump() << "\n";
    return;
  }
  std::cout << "Strong database of " << board.name() << ", " << steps_name(board.steps())
            << " steps, " << rules_name(rastros.stuck_rule()) << " rules, start "
            << square_name(board, rastros.start()) << "\n"
            << "File:       " << path << "\n"
            << "Positions:  " << positions << " in " << layer_count << " layers\n"
            << "Solved in:  " << seconds << " s\n"
            << "On disk:    " << bytes << " bytes (" << per_position << " bytes/position)\n";
}

}  // namespace

int build_strong_database(const VariantOptions& variant, const DatabaseRequest& request,
                          int threads, const SolveOutput& output) {
  const Rastros rastros = resolve_variant(variant);
  check_strong_memory(rastros, request.memory);
  const ThreadLimit limit(threads);
  const auto started = std::chrono::steady_clock::now();
  StrongSolveControl control;
  control.checkpoint_directory = request.checkpoint;
  control.resume = request.resume;
  if (!request.checkpoint.empty()) control.stop = &stop_requested();
  std::optional<StrongSolveStats> stats;
  try {
    stats = solve_and_write(rastros, request, control, output.quiet);
  } catch (const SolveStopped&) {
    if (mpi_rank() == 0) {
      std::cerr << "rastros solve: stopped; the layers valued so far are saved in "
                << request.checkpoint << " (run again with --resume to continue)\n";
    }
    return stopped_exit_status();
  }
  if (!stats) return 0;  // a rank other than the root under mpirun
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  print_strong(rastros, request.path, *stats, seconds, output.json);
  return 0;
}

}  // namespace rastros::tools
