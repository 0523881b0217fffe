#pragma once
// The output of `rastros solve` (text or the design's JSON), shared with `rastros query`, which
// prints the same thing plus where the answer came from.

#include <optional>
#include <string>

#include "options.hpp"
#include "search/solver.hpp"

namespace rastros::tools {

struct AnalysisReport {
  const PositionInput& input;
  const Analysis& analysis;
  double seconds = 0;
  bool value_only = false;
  /// "database" or "search" for `rastros query`; unset for `rastros solve`, which has no key.
  std::optional<std::string> source;
  /// Include "nodes" and "seconds", which describe the run rather than the position (batch
  /// output leaves them out by default so that reruns give identical files).
  bool timing = true;
  /// The position's value alone (`solve --root-only`): no "best_moves" and "children" keys.
  bool root_only = false;
};

/// The design's JSON object for the report (the keys of `rastros solve --json`, plus "source"
/// when set).
Json analysis_json(const AnalysisReport& report);

/// Prints the report on stdout: one JSON object when `json`, else the text form.
void print_analysis(const AnalysisReport& report, bool json);

}  // namespace rastros::tools
