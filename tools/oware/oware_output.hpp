#pragma once
// The output of `solve --game oware` and `query --game oware`, text or JSON: the score (rule
// 7: net captures from here on), the value for the side to move (the sign of the captures so
// far plus the score), each move's score, and what the answer rests on.

#include "games/oware/oware_analysis.hpp"
#include "json.hpp"
#include "oware/oware_options.hpp"

namespace rastros::tools::oware_cli {

struct OwareReport {
  const OwareInput& input;
  const oware::OwareAnalysis& analysis;
  int database_seeds = -1;  // the K of the database the answer rests on
};

/// "win", "loss" or "draw" for the side to move.
std::string value_name(const OwareReport& report);
Json report_json(const OwareReport& report);
/// The keys of `show --game oware --json`: the position's, then legal_moves, ended, and for an
/// ended game captures (each side's final captures).
Json show_json(const OwareInput& input);
void print_report(const OwareReport& report);

}  // namespace rastros::tools::oware_cli
