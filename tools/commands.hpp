#pragma once
// One function per subcommand; each gets the words after the command name and returns the exit
// status. Errors are thrown (InputError, FileError, po::error) and mapped to statuses in main.

#include <string>
#include <vector>

namespace rastros::tools {

using Arguments = std::vector<std::string>;

int run_batch(const Arguments& arguments);
int run_show(const Arguments& arguments);
int run_perft(const Arguments& arguments);
int run_play(const Arguments& arguments);
int run_solve(const Arguments& arguments);
int run_map(const Arguments& arguments);
int run_query(const Arguments& arguments);
int run_verify(const Arguments& arguments);
int run_stats(const Arguments& arguments);
int run_serve(const Arguments& arguments);

}  // namespace rastros::tools
