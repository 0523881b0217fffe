#pragma once
// Options shared by every command that works on one position, and their resolution into a
// game variant and a position (docs/commands.md, "Common options").

#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "rastros/input.hpp"
#include "rastros/notation.hpp"

namespace rastros::tools {

namespace po = boost::program_options;

/// --board --start --rules --steps as given (rastros/input.hpp reads them).
using VariantOptions = VariantText;

struct PositionOptions {
  std::optional<std::string> moves;
  std::optional<std::string> position;
};

/// Variant options given without defaults, for commands that read the game from a database
/// header: only the options the user gave are compared with it.
struct GivenVariant {
  std::optional<std::string> board;
  std::optional<std::string> start;
  std::optional<std::string> rules;
  std::optional<std::string> steps;
};

/// Adds --board --start --rules --steps (rules only when `with_rules`, start only when
/// `with_start`).
void add_variant_options(po::options_description& description, VariantOptions& options,
                         bool with_rules = true, bool with_start = true);
void add_position_options(po::options_description& description, PositionOptions& options);
/// Adds --memory (the most memory the search may use: its transposition table) and --value-only,
/// shared by the searching commands.
void add_search_options(po::options_description& description, std::string& memory,
                        bool& value_only);
/// What an exact-score solve takes (Congkak, Reversi): --memory (its default is the one given
/// here), --value-only, --root-only, --threads, --quiet, --json.
struct ScoreSolveOptions {
  std::string memory;
  bool value_only = false;
  bool root_only = false;
  bool quiet = false;
  bool json = false;
  int threads = 0;
};
void add_score_solve_options(po::options_description& description, ScoreSolveOptions& options);
/// Adds --threads; returns where the value goes (0: all cores, divided among the MPI ranks
/// running on this machine).
void add_threads_option(po::options_description& description, int& threads);
/// The most --threads accepts: 4x the cores, or RASTROS_MAX_THREADS (1..kThreadsCeiling) when
/// set. Throws InputError for a malformed RASTROS_MAX_THREADS.
inline constexpr int kThreadsCeiling = 4096;
int max_threads();
/// Throws InputError unless 0 <= threads <= max_threads().
void check_threads(int threads);

/// Adds an option with no default whose value, when given, lands in `target`.
void add_optional_option(po::options_description& description, const char* name,
                         std::optional<std::string>& target, const char* help);
/// Throws InputError naming the first given option that differs from `game` (read from `file`).
void check_given_variant(const GivenVariant& given, const Rastros& game, const std::string& file);

/// The variant, and the variant with the position of --moves or --position: read, as batch lines
/// and the web API's requests are, by rastros/input.hpp. Throw InputError.
Rastros resolve_variant(const VariantOptions& options);
PositionInput resolve_position(const VariantOptions& variant, const PositionOptions& options);

/// Parses `arguments` (the words after the command name). Returns false when --help was given
/// (the help text has been printed). Throws po::error on bad usage.
bool parse_command_line(const std::vector<std::string>& arguments,
                        const po::options_description& description, const std::string& usage,
                        const po::positional_options_description* positional = nullptr);

/// Limits TBB to `threads` workers for the life of the object (0: all cores). Throws InputError.
class ThreadLimit {
 public:
  explicit ThreadLimit(int threads);
  ~ThreadLimit();
  int threads() const { return threads_; }

 private:
  int threads_;
  std::shared_ptr<void> control_;
};

/// Checks `--algorithm`: true for proof-number (which needs --value-only), false for
/// alpha-beta. Throws InputError for anything else.
bool is_proof_number_algorithm(const std::string& algorithm, bool value_only);

/// The design's keys describing a variant: board, start, rules, steps.
Json variant_json(const Rastros& rastros);

/// The design's keys describing the variant and position: board, start, rules, steps, moves,
/// position, to_move.
Json position_json(const PositionInput& input, bool with_rules = true);

}  // namespace rastros::tools
