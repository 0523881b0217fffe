// `rastros solve` without --db: the perfect-play value of one position and of every move from
// it, by alpha-beta or by df-pn; a long df-pn search saves its table in a checkpoint directory
// and resumes from it.

#include <chrono>
#include <iostream>
#include <optional>
#include <tuple>

#include "analysis_output.hpp"
#include "board_text.hpp"
#include "core/errors.hpp"
#include "interrupt.hpp"
#include "progress.hpp"
#include "search/proof_number_search.hpp"
#include "search/search_checkpoint.hpp"
#include "solve_requests.hpp"

namespace rastros::tools {
namespace {

// Refuses options that do not go together. Returns whether the search is df-pn.
bool check_position_request(const PositionRequest& request) {
  for (const auto& [off, flag, what] :
       {std::tuple{request.off.pockets, "--no-pockets", "pockets"},
        std::tuple{request.off.goal_pockets, "--no-goal-pockets", "goal pockets"}}) {
    if (off && !request.value_only) {
      throw InputError(std::string(flag) + " applies to --value-only searches (" + what +
                       " are never used when searching for remoteness)");
    }
  }
  const bool proof_number = is_proof_number_algorithm(request.algorithm, request.value_only);
  if (proof_number && request.off.any()) {
    throw InputError("the --no-* search options apply to --algorithm alpha-beta only");
  }
  if ((!request.checkpoint.empty() || request.resume) && !proof_number) {
    throw InputError(
        "--checkpoint and --resume apply to --db builds and to --algorithm proof-number searches");
  }
  if (request.resume && request.checkpoint.empty()) {
    throw InputError("--resume needs --checkpoint DIR");
  }
  if (request.checkpoint_every_given && request.checkpoint.empty()) {
    throw InputError("--checkpoint-every needs --checkpoint DIR");
  }
  if (!(request.checkpoint_every > 0 && request.checkpoint_every <= kMaxCheckpointEvery)) {
    throw InputError("--checkpoint-every must be between 0 and " +
                     std::to_string(static_cast<long>(kMaxCheckpointEvery)) + " seconds");
  }
  return proof_number;
}

SolverOptions solver_options_of(const PositionRequest& request) {
  SolverOptions options;
  options.value_only = request.value_only;
  options.prune_region = !request.off.region;
  options.use_symmetry = !request.off.symmetry;
  options.use_matching = !request.off.matching;
  options.simplify_pockets = !request.off.pockets;
  options.summarize_goal_pockets = !request.off.goal_pockets;
  options.remember_moves = !request.off.move_memory;
  options.lost_move_rule = !request.off.lost_move_rule;
  options.trap_rule = !request.off.trap_rule;
  // The table is nearly all one search holds: it gets the whole of --memory.
  options.table_bytes = request.memory.empty() ? default_table_bytes(request.value_only)
                                               : parse_memory_size(request.memory);
  // Checked here for df-pn too, which would accept any size.
  check_table_bytes(options.table_bytes);
  return options;
}

/// What a search checkpoint must match to be resumed: the game, the position, the table size.
std::string search_identity(const PositionInput& input, std::size_t table_bytes) {
  const Board& board = input.rastros.board();
  return board.name() + " " + std::string(steps_name(board.steps())) + " " +
         std::string(rules_name(input.rastros.stuck_rule())) + " start " +
         start_name(input.rastros) + " position " + position_string(board, input.position) +
         " table " + std::to_string(table_bytes);
}

// One search of the position, by one of the two algorithms, with its clock (which counts the
// earlier runs of a resumed search) and, for df-pn, its checkpoint.
class PositionSearch {
 public:
  PositionSearch(const PositionInput& input, const PositionRequest& request, bool proof_number,
                 const SolverOptions& options) {
    if (proof_number) {
      proof_search_.emplace(input.rastros, options.table_bytes);
    } else {
      solver_.emplace(input.rastros, options);
    }
    started_ = std::chrono::steady_clock::now();
    if (request.checkpoint.empty()) return;
    checkpoint_.emplace(request.checkpoint, search_identity(input, options.table_bytes),
                        request.resume);
    if (request.resume) earlier_ = checkpoint_->restore(*proof_search_);
    started_ = std::chrono::steady_clock::now();  // the restore is not search time
  }

  double elapsed() const {
    return earlier_.seconds +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  std::uint64_t nodes() const { return solver_ ? solver_->nodes() : proof_search_->nodes(); }
  bool saves() const { return checkpoint_.has_value(); }
  const std::string& save_failure() const { return save_failure_; }

  // Saves the df-pn table every `every` seconds of search, and on Ctrl-C before stopping.
  void save_every(double every) {
    ProofSearchControl control;
    control.stop = &stop_requested();
    control.save_every = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(every));
    control.save = [this] {
      try {
        checkpoint_->save(*proof_search_, {proof_search_->nodes(), elapsed()});
        save_failure_.clear();
      } catch (const std::system_error& error) {
        // The search goes on (the previous checkpoint, if any, is intact); said once per failure.
        save_failure_ = error.what();
        std::cerr << "rastros solve: warning: checkpoint not saved: " << save_failure_ << "\n";
      }
    };
    proof_search_->set_control(std::move(control));
  }

  std::string progress_line() const {
    const double seconds = elapsed();
    const double nodes = static_cast<double>(this->nodes());
    std::string line = "searching: " + human_count(nodes) + " nodes, " +
                       human_count(nodes / seconds) + " nodes/s, ";
    if (solver_) {
      line += "table " + std::to_string(static_cast<int>(solver_->table_fill() * 100)) + "% full, ";
    }
    return line + std::to_string(static_cast<int>(seconds)) + " s";
  }

  Analysis analyse(const Position& position, bool root_only) {
    Analysis analysis;
    if (!root_only) {
      analysis = solver_ ? solver_->analyse(position) : proof_search_->analyse(position);
    } else if (solver_) {
      analysis.outcome = solver_->solve(position);
      analysis.nodes = solver_->nodes();
    } else {
      analysis.outcome = {proof_search_->solve(position), std::nullopt};
      analysis.nodes = proof_search_->nodes();
    }
    // With checkpoints, nodes count every run of the search.
    if (proof_search_) analysis.nodes = proof_search_->nodes();
    return analysis;
  }

  // Only once the answer is out is the checkpoint no longer needed.
  void remove_checkpoint() const {
    if (checkpoint_) checkpoint_->remove();
  }

 private:
  std::optional<Solver> solver_;
  std::optional<ProofNumberSearch> proof_search_;
  std::optional<SearchCheckpoint> checkpoint_;
  SearchProgress earlier_;
  std::string save_failure_;  // why the last save failed; empty when it succeeded
  std::chrono::steady_clock::time_point started_;
};

void report_stopped(const PositionSearch& search, const std::string& directory) {
  if (search.save_failure().empty()) {
    std::cerr << "rastros solve: stopped; the search is saved in " << directory
              << " (run again with --resume to continue)\n";
  } else {
    std::cerr << "rastros solve: stopped, but the last save failed (" << search.save_failure()
              << "); an earlier checkpoint in " << directory << ", if any, is intact\n";
  }
}

}  // namespace

int solve_position(const PositionRequest& request, int threads, const SolveOutput& output) {
  const bool proof_number = check_position_request(request);
  const PositionInput input = resolve_position(request.variant, request.where);
  const SolverOptions options = solver_options_of(request);
  const ThreadLimit limit(threads);
  PositionSearch search(input, request, proof_number, options);
  if (search.saves()) search.save_every(request.checkpoint_every);
  Analysis analysis;
  try {
    ProgressReporter progress(!output.quiet, [&](double) { return search.progress_line(); });
    analysis = search.analyse(input.position, request.root_only);
  } catch (const SearchStopped&) {
    report_stopped(search, request.checkpoint);
    return stopped_exit_status();
  }
  AnalysisReport report{input, analysis, search.elapsed(), request.value_only, std::nullopt};
  report.root_only = request.root_only;
  print_analysis(report, output.json);
  if (search.saves()) {
    std::cout.flush();
    if (std::cout) search.remove_checkpoint();
  }
  return 0;
}

}  // namespace rastros::tools
