#include "oware/oware_endgame_options.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "core/errors.hpp"
#include "core/scratch_memory.hpp"
#include "mpi_world.hpp"
#include "progress.hpp"

#ifdef RASTROS_HAVE_MPI
#include "cluster/distributed_oware_level.hpp"
#endif

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

namespace {

constexpr std::uint64_t kDefaultPositions = 1'000'000;

int default_seeds(const Oware& game) {
  int seeds = 0;
  while (seeds < kMaxDatabaseSeeds &&
         OwareDatabase::states_up_to(game, seeds + 1) <= kDefaultPositions) {
    ++seeds;
  }
  return seeds;
}

// Lines within a level come at most this often: a small level's thresholds print nothing.
constexpr double kLevelLineSeconds = 10;

BuildOptions progress_options(bool quiet, const Oware& game,
                              std::uint64_t level_memory = kDefaultLevelMemory) {
  BuildOptions options;
  options.level_memory = level_memory;
  if (quiet) return options;
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [started] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  options.progress = [=, &game](int seeds, std::uint64_t states, bool resumed) {
    std::cerr << "oware database: level " << seeds << ", " << states << " positions";
    if (resumed) {
      std::cerr << " (read from the checkpoint)";
    } else if (!level_graph_fits(game, seeds, level_memory)) {
      std::cerr << " (moves generated)";
    }
    std::cerr << ", " << static_cast<long long>(seconds()) << " s\n";
  };
  // Called on the building thread alone, between the level's parallel steps. A line once the
  // level has run kLevelLineSeconds and as long since the last one.
  auto level_started = std::make_shared<double>(0);
  auto last_line = std::make_shared<double>(0);
  options.level_progress = [=, &game](int seeds, int threshold, std::uint64_t decided) {
    const double now = seconds();
    if (threshold == 0) *level_started = now;
    if (now - *level_started < kLevelLineSeconds && threshold != 0) return;
    if (now - *last_line < kLevelLineSeconds) return;
    *last_line = now;
    std::cerr << "oware database: level " << seeds << " under way: ";
    if (threshold == 0) {
      std::cerr << "the exits of its " << game.level_size(seeds) << " positions found";
    } else {
      std::cerr << decided << " positions won or lost by " << threshold << " or more";
    }
    std::cerr << ", " << static_cast<long long>(now) << " s\n";
  };
  return options;
}

}  // namespace

void add_endgame_options(po::options_description& description, EndgameOptions& options) {
  description.add_options()(
      "endgame", po::value<std::string>()->notifier([&](const std::string& v) { options.file = v; }),
      "an endgame database written by solve --game oware --db")(
      "endgame-seeds", po::value<int>()->notifier([&](int v) { options.seeds = v; }),
      "the most seeds on the board of the database (built in memory, or by --db)")(
      "max-positions", po::value(&options.max_positions)->default_value(options.max_positions),
      "the most positions beyond the database a solve may gather before it refuses");
}

std::shared_ptr<const OwareDatabase> database_for_solve(const Oware& game,
                                                        const EndgameOptions& options, bool quiet) {
  return database_for_solve(game, options.file, options.seeds, quiet);
}

std::shared_ptr<const OwareDatabase> database_for_solve(const Oware& game,
                                                        const std::optional<std::string>& file,
                                                        std::optional<int> seeds, bool quiet) {
  if (file && seeds) throw InputError("give --endgame or --endgame-seeds, not both");
  if (file) return std::make_shared<OwareDatabase>(OwareDatabase::load(*file, &game));
  // No level above the variant's seeds can occur.
  const int k = seeds ? *seeds : std::min(default_seeds(game), game.total_seeds());
  return std::make_shared<OwareDatabase>(
      OwareDatabase::build(game, k, progress_options(quiet || !seeds, game)));
}

void add_write_options(po::options_description& description, WriteOptions& options) {
  description.add_options()("db", po::value(&options.file),
                            "build the endgame database up to --endgame-seeds and write it here")(
      "checkpoint", po::value(&options.checkpoint),
      "with --db: keep each finished level in this directory")(
      "resume", po::bool_switch(&options.resume),
      "with --checkpoint: read the levels already finished")(
      "level-memory", po::value(&options.level_memory)->default_value(options.level_memory),
      "with --db: a level whose graph stored would take more memory than this (6 houses: 61 "
      "bytes a position) is solved with its moves generated as needed instead, about 5 to 9 "
      "bytes a position and 1.5 to 2.5 times slower; 0: every level (under mpirun and with "
      "--scratch: always)")(
      "scratch", po::value(&options.scratch),
      "with --db: solve every level with its moves generated and keep its working arrays (4 "
      "bytes a position and the frontiers) in files in this directory instead of memory, so a "
      "level larger than memory still builds (slowly once it does not fit); the files are "
      "removed as they are made");
}

int write_database(const Oware& game, const EndgameOptions& endgame, const WriteOptions& write,
                   bool quiet, bool json) {
  if (!endgame.seeds) throw InputError("solve --game oware --db FILE needs --endgame-seeds K");
  if (write.resume && write.checkpoint.empty()) throw InputError("--resume needs --checkpoint DIR");
  const bool root = mpi_rank() == 0;
  // Under MPI every level is generated (each rank holds a range of its boards), and with
  // --scratch (a stored graph would stay in memory).
  const std::uint64_t parsed = parse_size(write.level_memory);
  const std::uint64_t level_memory = mpi_size() > 1 || !write.scratch.empty() ? 0 : parsed;
  set_scratch_directory(write.scratch, scratch_min_bytes());
  BuildOptions options = progress_options(quiet || !root, game, level_memory);
  options.checkpoint = write.checkpoint;
  options.resume = write.resume;
#ifdef RASTROS_HAVE_MPI
  if (mpi_size() > 1) {
    // Every rank solves its share of each level and holds the whole of it once solved; the
    // root alone writes the checkpoint and the file.
    options.solve_level = [&game](int seeds, const LowerLevels& lower) {
      return cluster::solve_level_distributed(mpi_world(), game, seeds, lower);
    };
    options.writes_checkpoint = root;
    options.agree_on_checkpoint = [&write](int seeds, bool found) {
      cluster::agree_on_checkpoint_level(mpi_world(), seeds, found, write.checkpoint);
    };
  }
#endif
  const std::string& file = write.file;
  const auto started = std::chrono::steady_clock::now();
  const OwareDatabase database = OwareDatabase::build(game, *endgame.seeds, options);
  if (!root) return 0;
  database.save(file);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (json) {
    Json out = Json::object();
    out.set("game", "oware").set("houses", game.houses()).set("max_seeds", database.max_seeds())
        .set("positions", database.size()).set("file", file).set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "Oware endgame database, " << game.houses() << " houses, 0.." << database.max_seeds()
              << " seeds: " << database.size() << " positions, written to " << file << "\n";
  }
  return 0;
}

}  // namespace rastros::tools::oware_cli
