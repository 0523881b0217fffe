#pragma once
// The `--game congkak` commands: the same names and conventions as Kalah's.

#include "commands.hpp"

namespace rastros::tools::congkak_cli {

int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_play(const Arguments& arguments);
int run_solve(const Arguments& arguments);

}  // namespace rastros::tools::congkak_cli
