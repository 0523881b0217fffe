#include "search/start_map.hpp"

#include <oneapi/tbb/parallel_for_each.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <sstream>

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "core/thread_sanitizer.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "search/proof_number_search.hpp"

namespace rastros {

std::vector<Square> start_squares(const Board& board) {
  std::vector<Square> squares;
  for (Square square = 0; square < board.square_count(); ++square) {
    if (!board.is_goal(square)) squares.push_back(square);
  }
  return squares;
}

namespace {

/// When a square started now must be given up.
std::chrono::steady_clock::time_point deadline_after(std::chrono::duration<double> budget) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(budget);
}

/// One square by its own proof-number search. False when the map's stop flag ended it (the
/// square stays unsolved); over its budget, `result` is marked over_budget.
bool solve_by_proof_numbers(const Rastros& rastros, std::size_t table_bytes,
                            const StartMapControl& control, const Position& start,
                            StartSquareOutcome& result) {
  ProofNumberSearch search(rastros, table_bytes);
  const SquareSolverNodes::Counting counting(control.budget_nodes, search);
  ProofSearchControl search_control;
  search_control.stop = control.stop;
  if (control.square_budget) search_control.deadline = deadline_after(*control.square_budget);
  search.set_control(std::move(search_control));
  try {
    result.outcome = {search.solve(start), std::nullopt};
  } catch (const SearchStopped&) {
    if (control.stop && control.stop->load(std::memory_order_relaxed)) return false;
    result.over_budget = true;
  }
  return true;
}

}  // namespace

std::vector<StartSquareOutcome> solve_start_map(const Rastros& rastros, Solver& solver,
                                                const StartMapControl& control) {
  const Board& board = rastros.board();
  struct Slot {
    StartSquareOutcome result;
    bool solved = false;
  };
  std::vector<Slot> slots;
  for (Square square : start_squares(board)) {
    Slot slot{{square, {}}, false};
    for (const StartSquareOutcome& known : control.known) {
      if (known.start == square) slot = {known, true};
    }
    slots.push_back(slot);
  }
  // Squares whose starts are one position under the board's symmetry (canonical keys) are
  // solved once, by the first of them: with a solver per square (budgets) a twin would be a
  // whole second search, not a table hit.
  const Canonicalizer canonicalizer(board);
  std::vector<std::size_t> first_twin(slots.size());
  std::vector<PackedPosition> keys;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    keys.push_back(canonicalizer.pack(
        Rastros(board, slots[i].result.start, rastros.stuck_rule()).start_position()));
    first_twin[i] =
        static_cast<std::size_t>(std::find(keys.begin(), keys.end(), keys[i]) - keys.begin());
  }
  std::vector<Slot*> to_solve;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (first_twin[i] == i) to_solve.push_back(&slots[i]);
  }
  const auto solve_square = [&](Slot& slot) {
    if (slot.solved) return;
    if (control.stop && control.stop->load(std::memory_order_relaxed)) return;
    const Rastros variant(board, slot.result.start, rastros.stuck_rule());
    if (control.algorithm == MapAlgorithm::proof_number) {
      if (!solve_by_proof_numbers(rastros, solver.options().table_bytes, control,
                                  variant.start_position(), slot.result)) {
        return;  // stopped: not solved, and tried again on --resume
      }
      if (slot.result.over_budget) {
        slot.solved = true;  // reported as over budget, not passed to on_solved
        if (control.on_over_budget) control.on_over_budget(slot.result);
        return;
      }
    } else if (control.square_budget) {
      const auto deadline = deadline_after(*control.square_budget);
      // The map solver's table is left untouched (tables are mapped lazily, so it costs
      // no memory).
      {
        // The solver and its count end here, before the task publishes what it wrote.
        Solver own(rastros, solver.options(), {control.stop, deadline});
        const SquareSolverNodes::Counting counting(control.budget_nodes, own);
        try {
          // Isolated: while this square's search waits for its helpers, the thread must
          // not pick up another square, whose solver would hold a second table and whose
          // clock would run out while this one ran.
          oneapi::tbb::this_task_arena::isolate(
              [&] { slot.result.outcome = own.solve(variant.start_position()); });
        } catch (const SearchCancelled&) {
          slot.result.over_budget = true;
        }
      }
      if (slot.result.over_budget) {
        // A stop, not the budget, ends the map: the square is simply not solved.
        slot.solved = !(control.stop && control.stop->load(std::memory_order_relaxed));
        if (slot.solved && control.on_over_budget) control.on_over_budget(slot.result);
        return;
      }
    } else {
      slot.result.outcome = solver.solve(variant.start_position());
    }
    slot.solved = true;
    if (control.on_solved) control.on_solved(slot.result);
  };
  // Each task publishes what it wrote (ThreadSanitizer, core/thread_sanitizer.hpp), also when
  // it throws (a cancelled search): this thread acquires it before the exception goes on.
  try {
    oneapi::tbb::parallel_for_each(to_solve.begin(), to_solve.end(),
                                   thread_sanitizer::handed_off([&](Slot* slot) {
                                     try {
                                       solve_square(*slot);
                                     } catch (...) {
                                       thread_sanitizer::publish(&slots);
                                       throw;
                                     }
                                     thread_sanitizer::publish(&slots);
                                   }));
  } catch (...) {
    thread_sanitizer::acquire(&slots);
    throw;
  }
  thread_sanitizer::acquire(&slots);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Slot& first = slots[first_twin[i]];
    if (slots[i].solved || !first.solved) continue;
    slots[i].solved = true;
    slots[i].result.outcome = first.result.outcome;
    slots[i].result.over_budget = first.result.over_budget;
    if (!first.result.over_budget && control.on_solved) control.on_solved(slots[i].result);
  }
  std::vector<StartSquareOutcome> results;
  for (const Slot& slot : slots) {
    if (slot.solved) results.push_back(slot.result);
  }
  return results;
}

// -- Checkpoints ------------------------------------------------------------------------------
//
// Fields: "map" names the variant, "square.b2" holds "win 17" (or "win" value-only), "nodes"
// and "seconds" the work so far.

namespace {

constexpr std::string_view kMapKind = "map";

std::string map_identity(const Rastros& rastros, bool value_only) {
  const Board& board = rastros.board();
  std::ostringstream identity;  // a stream: GCC 12 misreports chained string + (bug 105651)
  identity << board.name() << " " << steps_name(board.steps()) << " "
           << rules_name(rastros.stuck_rule()) << (value_only ? " value-only" : " remoteness");
  return identity.str();
}

}  // namespace

void write_map_checkpoint(const std::filesystem::path& path, const Rastros& rastros,
                          bool value_only, const MapProgress& progress) {
  Checkpoint checkpoint;
  checkpoint.kind = kMapKind;
  checkpoint.fields["map"] = map_identity(rastros, value_only);
  checkpoint.fields["nodes"] = std::to_string(progress.nodes);
  std::ostringstream seconds;
  seconds.precision(17);
  seconds << progress.seconds;
  checkpoint.fields["seconds"] = seconds.str();
  for (const StartSquareOutcome& result : progress.solved) {
    std::string text(to_string(result.outcome.value));
    if (result.outcome.remoteness) {
      text += ' ';
      text += std::to_string(*result.outcome.remoteness);
    }
    std::string name = "square.";
    name += square_name(rastros.board(), result.start);
    checkpoint.fields[name] = text;
  }
  write_checkpoint(path, checkpoint);
}

MapProgress read_map_checkpoint(const std::filesystem::path& path, const Rastros& rastros,
                                bool value_only) {
  MapProgress progress;
  const std::optional<Checkpoint> checkpoint = read_checkpoint(path, kMapKind);
  if (!checkpoint) return progress;
  const std::string identity = map_identity(rastros, value_only);
  if (checkpoint->text("map") != identity) {
    throw InputError("the checkpoint " + path.string() + " is of another map (" +
                     checkpoint->text("map") + ", not " + identity +
                     "); remove it or drop --resume");
  }
  progress.nodes = checkpoint->number("nodes");
  try {
    progress.seconds = std::stod(checkpoint->text("seconds"));
  } catch (const std::exception&) {
    throw FileError("checkpoint " + path.string() + ": field 'seconds' is not a number");
  }
  const auto damaged = [&](const std::string& what) {
    return FileError("checkpoint " + path.string() + ": " + what);
  };
  for (const auto& [name, text] : checkpoint->fields) {
    if (!name.starts_with("square.")) continue;
    StartSquareOutcome result;
    try {
      result.start = parse_square(rastros.board(), name.substr(7));
    } catch (const InputError& error) {
      throw damaged(error.what());
    }
    if (rastros.board().is_goal(result.start)) throw damaged("a goal square in the map");
    std::istringstream words(text);
    std::string value;
    words >> value;
    if (value == "win") {
      result.outcome.value = Value::win;
    } else if (value == "loss") {
      result.outcome.value = Value::loss;
    } else if (value != "draw") {
      throw damaged("bad value '" + text + "' for " + name);
    }
    int remoteness = 0;
    if (words >> remoteness) result.outcome.remoteness = remoteness;
    if (result.outcome.remoteness.has_value() == value_only && value != "draw") {
      throw damaged("bad remoteness '" + text + "' for " + name);
    }
    progress.solved.push_back(result);
  }
  std::sort(progress.solved.begin(), progress.solved.end(),
            [](const auto& a, const auto& b) { return a.start < b.start; });
  return progress;
}

}  // namespace rastros
