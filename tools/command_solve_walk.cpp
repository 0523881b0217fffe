// `rastros solve --db FILE --kind strategy|proof`: a walk from the start along the winner's
// strategy, each position decided by one live solver whose table is shared across the whole
// build; strategy databases store every reply's answer, proof databases values only.

#include <chrono>
#include <filesystem>
#include <iostream>

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "db/proof_database.hpp"
#include "db/strategy_database.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#include "progress.hpp"
#include "rastros/canonical.hpp"
#include "solve_requests.hpp"

namespace rastros::tools {
namespace {

// Plies of a strategy database's opening book; more than a few multiply the file's size.
constexpr int kMaxBookDepth = 16;

// Transposition table of a proof build unless --memory says otherwise: the build solves
// millions of related positions, so a larger table than one solve's pays for itself.
constexpr std::size_t kProofTableBytes = std::size_t{256} << 20;

struct WalkBuild {
  Rastros rastros;
  bool proof = false;
  int book_depth = 0;
  int leaf_squares = 0;
  SolverOptions options;
};

WalkBuild check_walk(const VariantOptions& variant, const DatabaseRequest& request) {
  const bool proof = request.kind == "proof";
  const int book_depth = request.book_depth.value_or(0);
  if (book_depth < 0 || book_depth > kMaxBookDepth) {
    throw InputError("--book-depth must be between 0 and " + std::to_string(kMaxBookDepth));
  }
  WalkBuild build{resolve_variant(variant), proof, book_depth,
                  request.leaf_squares.value_or(kDefaultProofLeafSquares), {}};
  if (proof && (build.leaf_squares < 0 || build.leaf_squares > kMaxProofLeafSquares)) {
    // Larger leaves would leave verify whole searches of big boards to do.
    throw InputError("--leaf-squares must be between 0 and " +
                     std::to_string(kMaxProofLeafSquares));
  }
  build.options.value_only = proof;
  if (proof) {
    // The table is nearly all a proof build holds: it gets the whole of --memory.
    build.options.table_bytes =
        request.memory.empty() ? kProofTableBytes : parse_memory_size(request.memory);
  }
  return build;
}

// With a checkpoint, Ctrl-C stops the searches at once and the build keeps its finished plies.
WalkCheckpoint walk_checkpoint(const DatabaseRequest& request, SearchCancellation& cancellation) {
  WalkCheckpoint checkpoint;
  if (request.checkpoint.empty()) return checkpoint;
  if (mpi_size() > 1) {
    // Every rank would build the whole walk and write the same files.
    throw InputError("--checkpoint with --kind " + request.kind +
                     " is not available under mpirun (strategy and proof builds run in one "
                     "process)");
  }
  prepare_checkpoint_directory(request.checkpoint);
  checkpoint.directory = request.checkpoint;
  checkpoint.resume = request.resume;
  checkpoint.stop = cancellation.stop = &stop_requested();
  return checkpoint;
}

void print_walk(const WalkBuild& build, const DatabaseRequest& request, const Database& database,
                const Solver& solver, double seconds, bool json) {
  const Rastros& rastros = build.rastros;
  const Board& board = rastros.board();
  const std::uintmax_t bytes = std::filesystem::file_size(request.path);
  const double per_position =
      database.size() ? static_cast<double>(bytes) / static_cast<double>(database.size()) : 0;
  const DatabaseRecord* start = database.find(Canonicalizer(board).pack(rastros.start_position()));
  if (json) {
    Json out = variant_json(rastros);
    out.set("kind", request.kind);
    if (build.proof) {
      out.set("leaf_squares", build.leaf_squares);
      if (start) out.set("value", to_string(start->value));
    } else {
      out.set("book_depth", build.book_depth);
    }
    out.set("file", request.path)
        .set("positions", static_cast<std::uint64_t>(database.size()))
        .set("nodes", solver.nodes())
        .set("seconds", seconds)
        .set("bytes", static_cast<std::uint64_t>(bytes))
        .set("bytes_per_position", per_position);
    std::cout << out.dump() << "\n";
    return;
  }
  std::cout << (build.proof ? "Proof" : "Strategy") << " database of " << board.name() << ", "
            << steps_name(board.steps()) << " steps, " << rules_name(rastros.stuck_rule())
            << " rules, start " << square_name(board, rastros.start());
  if (build.proof) {
    std::cout << ", leaves of at most " << build.leaf_squares << " squares\n";
    if (start) {
      std::cout << "Value:      " << to_string(start->value) << " for player 1 (certify it with "
                << "rastros verify --db " << request.path << ")\n";
    }
  } else {
    std::cout << ", book depth " << build.book_depth << "\n";
  }
  std::cout << "File:       " << request.path << "\n"
            << "Positions:  " << database.size() << "\n"
            << "Solved in:  " << seconds << " s (" << solver.nodes() << " nodes searched)\n"
            << "On disk:    " << bytes << " bytes (" << per_position << " bytes/position)\n";
}

}  // namespace

int build_walk_database(const VariantOptions& variant, const DatabaseRequest& request,
                        int threads, const SolveOutput& output) {
  const WalkBuild build = check_walk(variant, request);
  const ThreadLimit limit(threads);
  const auto started = std::chrono::steady_clock::now();
  SearchCancellation cancellation;
  const WalkCheckpoint checkpoint = walk_checkpoint(request, cancellation);
  Solver solver(build.rastros, build.options, cancellation);
  const auto progress = [&](const std::string& line) {
    if (!output.quiet) std::cerr << line << "\n";
  };
  Database database;
  try {
    database = build.proof ? build_proof_database(build.rastros, build.leaf_squares, solver,
                                                  progress, checkpoint)
                           : build_strategy_database(build.rastros, build.book_depth, solver,
                                                     progress, checkpoint);
  } catch (const SearchCancelled&) {
    std::cerr << "rastros solve: stopped; what was finished (the start's value, then each ply) "
              << "is saved in " << request.checkpoint << " (run again with --resume to continue)\n";
    return stopped_exit_status();
  }
  write_database(request.path, database);
  // Only now that the database is safely on disk is the checkpoint no longer needed.
  remove_walk_checkpoint(request.checkpoint);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  print_walk(build, request, database, solver, seconds, output.json);
  return 0;
}

}  // namespace rastros::tools
