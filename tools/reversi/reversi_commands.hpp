#pragma once
// The `--game reversi` commands: the same names and conventions as Kalah's (tools/kalah/).

#include <string>

#include "commands.hpp"

namespace rastros::tools::reversi_cli {

int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_solve(const Arguments& arguments);
int run_play(const Arguments& arguments);
int run_query(const Arguments& arguments);
int run_verify(const Arguments& arguments);
int run_stats(const Arguments& arguments);

/// `solve --game reversi --db FILE`: builds the strong database of the board and writes it.
struct ReversiOptions;
int write_database(const ReversiOptions& options, const std::string& file, bool quiet, bool json);

}  // namespace rastros::tools::reversi_cli
