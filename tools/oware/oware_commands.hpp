#pragma once
// The `--game oware` commands: the same names and conventions as Kalah's.

#include "commands.hpp"

namespace rastros::tools::oware_cli {

/// Exit status of a position the databases and the search cannot answer exactly (solve's
/// refusal; play's when the computer's move would be a guess).
inline constexpr int kRefused = 4;

int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_play(const Arguments& arguments);
int run_solve(const Arguments& arguments);
int run_query(const Arguments& arguments);
int run_verify(const Arguments& arguments);
int run_stats(const Arguments& arguments);

}  // namespace rastros::tools::oware_cli
