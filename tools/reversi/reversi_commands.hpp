#pragma once
// The `--game reversi` commands: the same names and conventions as Kalah's (tools/kalah/).

#include "commands.hpp"

namespace rastros::tools::reversi_cli {

int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_solve(const Arguments& arguments);
int run_play(const Arguments& arguments);

}  // namespace rastros::tools::reversi_cli
