#pragma once
// The `--game kalah` commands: the same names and conventions as Rastros's (commands.hpp).

#include "commands.hpp"

namespace rastros::tools::kalah_cli {

int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_solve(const Arguments& arguments);
int run_play(const Arguments& arguments);
int run_query(const Arguments& arguments);
int run_verify(const Arguments& arguments);
int run_stats(const Arguments& arguments);
int run_batch(const Arguments& arguments);

}  // namespace rastros::tools::kalah_cli
