#pragma once
// The `--game congkak` commands: the same names and conventions as Kalah's.

#include <cstdint>
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

struct CongkakOptions;
/// `solve --game congkak --db FILE`: builds the variant's strong database within
/// `memory_bytes` (--db-memory) and writes it.
int write_database(const CongkakOptions& options, const std::string& file,
                   std::uint64_t memory_bytes, bool quiet, bool json);

}  // namespace rastros::tools::congkak_cli
