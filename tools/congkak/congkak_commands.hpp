#pragma once
// The `--game congkak` commands: the same names and conventions as Kalah's.

#include <string>

#include "commands.hpp"

namespace rastros::tools::congkak_cli {

int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_play(const Arguments& arguments);
int run_solve(const Arguments& arguments);
int run_query(const Arguments& arguments);
int run_verify(const Arguments& arguments);
int run_stats(const Arguments& arguments);

/// `solve --game congkak --db FILE`: builds the variant's strong database and writes it.
struct CongkakOptions;
int write_database(const CongkakOptions& options, const std::string& file, bool quiet, bool json);

}  // namespace rastros::tools::congkak_cli
