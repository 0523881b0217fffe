#include "options.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>

#include "core/errors.hpp"
#include "game_registry.hpp"
#include "mpi_world.hpp"
#include "progress.hpp"

namespace rastros::tools {

void add_variant_options(po::options_description& description, VariantOptions& options,
                         bool with_rules, bool with_start) {
  description.add_options()("board", po::value(&options.board)->default_value(options.board),
                            "board size WxH: 2 <= W, H; W*H <= 64; W <= 26");
  if (with_start) {
    description.add_options()(
        "start",
        po::value<std::string>()->notifier([&](const std::string& v) { options.start = v; }),
        "start square (default: file floor(W/2), rank floor(H/2)+1, d4 on 7x7)");
  }
  description.add_options()("steps", po::value(&options.steps)->default_value(options.steps),
                            "snail steps: king (8 directions) or orthogonal (4)");
  if (with_rules) {
    description.add_options()(
        "rules", po::value(&options.rules)->default_value(options.rules),
        "standard (a stuck player loses) or stuck-draw (a stuck snail draws)");
  }
}

void add_position_options(po::options_description& description, PositionOptions& options) {
  description.add_options()(
      "moves", po::value<std::string>()->notifier([&](const std::string& v) { options.moves = v; }),
      "moves played from the start, space-separated: \"c3 b2 c1\"")(
      "position",
      po::value<std::string>()->notifier([&](const std::string& v) { options.position = v; }),
      "position string instead of moves: \"7/7/7/3x3/2o4/7/7 2\"");
}

void add_search_options(po::options_description& description, std::string& memory,
                        bool& value_only) {
  description.add_options()(
      "memory", po::value(&memory),
      "the most memory the search may use, e.g. 32M or 2G: its transposition table, 64K up to "
      "the machine's memory (default: 8M with --value-only, else 32M; see README: small tables "
      "are faster)")(
      "value-only", po::bool_switch(&value_only), "win/loss/draw only, no remoteness (faster)");
}

void add_score_solve_options(po::options_description& description, ScoreSolveOptions& options) {
  description.add_options()("memory", po::value(&options.memory)->default_value(options.memory),
                            "transposition table size, e.g. 64M or 1G")(
      "value-only", po::bool_switch(&options.value_only),
      "win/draw/loss only, by null-window searches (no scores; faster)")(
      "root-only", po::bool_switch(&options.root_only),
      "the position's value and score alone, not each move's");
  add_threads_option(description, options.threads);
  description.add_options()("quiet", po::bool_switch(&options.quiet),
                            "no progress lines on stderr")(
      "json", po::bool_switch(&options.json), "print one JSON object");
}

void add_threads_option(po::options_description& description, int& threads) {
  // Checked as the command line is read, before any file is touched or any output printed.
  description.add_options()(
      "threads", po::value(&threads)->default_value(0)->notifier(check_threads),
      ("worker threads, 0 to " + std::to_string(max_threads()) +
       " (0: all cores; under mpirun, the cores divided among the ranks on each machine; at "
       "most 4x the cores unless RASTROS_MAX_THREADS allows more)")
          .c_str());
}

int max_threads() {
  // Every TBB worker reserves its stack: 2^31 of them is gigabytes for no gain. An explicit
  // override for machines where oversubscription is wanted (tests of contention, say).
  if (const char* text = std::getenv("RASTROS_MAX_THREADS")) {
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && errno == 0 && value >= 1 && value <= kThreadsCeiling) {
      return static_cast<int>(value);
    }
    throw InputError("RASTROS_MAX_THREADS must be a number from 1 to " +
                     std::to_string(kThreadsCeiling) + ", not " + quote_input(text, 64));
  }
  return 4 * std::max(1, oneapi::tbb::info::default_concurrency());
}

void check_threads(int threads) {
  const int most = max_threads();
  if (threads < 0 || threads > most) {
    throw InputError("--threads must be between 0 (all cores) and " + std::to_string(most) +
                     " (4x the cores; RASTROS_MAX_THREADS raises it), not " +
                     std::to_string(threads));
  }
}

void add_optional_option(po::options_description& description, const char* name,
                         std::optional<std::string>& target, const char* help) {
  description.add_options()(
      name, po::value<std::string>()->notifier([&target](const std::string& v) { target = v; }),
      help);
}

void check_given_variant(const GivenVariant& given, const Rastros& game, const std::string& file) {
  const Board& board = game.board();
  const auto differs = [&](const std::string& option, const std::string& value,
                           const std::string& stored) {
    throw InputError("--" + option + " " + value + " differs from the database's " + stored + " (" +
                     file + "); omit it, the database's game is used");
  };
  if (given.steps && parse_steps(*given.steps) != board.steps()) {
    differs("steps", *given.steps, std::string(steps_name(board.steps())));
  }
  if (given.board) {
    const Board other = parse_board(*given.board, board.steps());
    if (other.width() != board.width() || other.height() != board.height()) {
      differs("board", *given.board, board.name());
    }
  }
  if (given.start && parse_square(board, *given.start) != game.start()) {
    differs("start", *given.start, square_name(board, game.start()));
  }
  if (given.rules && parse_rules(*given.rules) != game.stuck_rule()) {
    differs("rules", *given.rules, std::string(rules_name(game.stuck_rule())));
  }
}

Rastros resolve_variant(const VariantOptions& options) {
  return resolve_variant_text(options);
}

PositionInput resolve_position(const VariantOptions& variant, const PositionOptions& options) {
  return resolve_input(variant, options.moves, options.position);
}

bool parse_command_line(const std::vector<std::string>& arguments,
                        const po::options_description& description, const std::string& usage,
                        const po::positional_options_description* positional) {
  po::options_description all = description;
  // Read by main.cpp, which picks the game's command; declared here so every command accepts
  // it and lists it.
  all.add_options()("game", po::value<std::string>()->default_value("rastros"),
                    ("the game: " + game_names()).c_str())("help,h", "show this help");
  po::variables_map values;
  po::command_line_parser parser(arguments);
  parser.options(all);
  if (positional) {
    parser.positional(*positional);
  } else {
    parser.positional(po::positional_options_description());
  }
  po::store(parser.run(), values);
  if (values.count("help")) {
    std::cout << usage << "\n\n" << all << "\n";
    return false;
  }
  po::notify(values);
  // Every command's --memory is a size, parsed here so that a malformed one (an empty string
  // included, which the commands would take for "not given") fails before any work or output.
  if (values.count("memory") && !values["memory"].defaulted()) {
    if (const auto* memory = boost::any_cast<std::string>(&values["memory"].value())) {
      parse_memory_size(*memory);
    }
  }
  return true;
}

ThreadLimit::ThreadLimit(int threads) {
  const int cores = oneapi::tbb::info::default_concurrency();
  check_threads(threads);
  // Ranks of an MPI job on one machine share its cores.
  threads_ = threads == 0 ? std::max(1, cores / mpi_ranks_on_this_machine()) : threads;
  control_ = std::make_shared<oneapi::tbb::global_control>(
      oneapi::tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads_));
}

ThreadLimit::~ThreadLimit() = default;

bool is_proof_number_algorithm(const std::string& algorithm, bool value_only) {
  if (algorithm != "alpha-beta" && algorithm != "proof-number") {
    throw InputError("--algorithm must be alpha-beta or proof-number, not " +
                     quote_input(algorithm));
  }
  const bool proof_number = algorithm == "proof-number";
  if (proof_number && !value_only) {
    throw InputError("--algorithm proof-number finds values only: add --value-only");
  }
  return proof_number;
}

Json variant_json(const Rastros& rastros) {
  const Board& board = rastros.board();
  Json json = Json::object();
  json.set("board", board.name())
      .set("start", square_name(board, rastros.start()))
      .set("rules", rules_name(rastros.stuck_rule()))
      .set("steps", steps_name(board.steps()));
  return json;
}

Json position_json(const PositionInput& input, bool with_rules) {
  const Board& board = input.rastros.board();
  Json moves = Json::array();
  for (Square move : input.moves) moves.push(square_name(board, move));
  Json json = Json::object();
  // A position on 2x2 read without --start has no start square: null.
  json.set("board", board.name())
      .set("start", input.rastros.has_start() ? Json(start_name(input.rastros)) : Json(nullptr));
  if (with_rules) json.set("rules", rules_name(input.rastros.stuck_rule()));
  json.set("steps", steps_name(board.steps()))
      .set("moves", moves)
      .set("position", position_string(board, input.position))
      .set("to_move", number_of(input.position.to_move));
  return json;
}

}  // namespace rastros::tools
