#include "games/kalah/kalah_checkpoint.hpp"

#include <sstream>

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"

namespace rastros::kalah {

namespace {

constexpr const char* kKind = "kalah-solve";

std::string mode_name(bool root_only) {
  return root_only ? "root-only" : "every-move";
}

}  // namespace

std::filesystem::path solve_checkpoint_path(const std::filesystem::path& directory) {
  return directory / "solve.checkpoint";
}

std::filesystem::path endgame_checkpoint_path(const std::filesystem::path& directory) {
  return directory / "endgame.kdb";
}

void save_solve_checkpoint(const std::filesystem::path& directory, const Kalah& game,
                           const KalahPosition& position, bool root_only,
                           const KalahSolveProgress& progress) {
  Checkpoint checkpoint;
  checkpoint.kind = kKind;
  checkpoint.fields["game"] = game.name();
  checkpoint.fields["position"] = position_string(game, position);
  checkpoint.fields["mode"] = mode_name(root_only);
  std::string moves;
  for (const auto& [move, score] : progress.move_scores) {
    // Appended piece by piece: `"x" + std::string` trips GCC 12's false -Wrestrict (105651).
    if (!moves.empty()) moves.append(" ");
    moves.append(move_name(move)).append(":").append(std::to_string(score));
  }
  checkpoint.fields["moves"] = moves.empty() ? "-" : moves;
  if (progress.root_bounds) {
    checkpoint.fields["lower"] = std::to_string(progress.root_bounds->first);
    checkpoint.fields["upper"] = std::to_string(progress.root_bounds->second);
  }
  write_checkpoint(solve_checkpoint_path(directory), checkpoint);
}

std::optional<KalahSolveProgress> load_solve_checkpoint(const std::filesystem::path& directory,
                                                        const Kalah& game,
                                                        const KalahPosition& position,
                                                        bool root_only) {
  const auto path = solve_checkpoint_path(directory);
  const auto checkpoint = read_checkpoint(path, kKind);
  if (!checkpoint) return std::nullopt;
  const auto differs = [&](const std::string& what, const std::string& saved) {
    throw FileError(path.string() + ": a checkpoint of " + what + " " + saved +
                    "; resume with the same game and position, or use another directory");
  };
  if (checkpoint->text("game") != game.name()) differs("game", checkpoint->text("game"));
  if (checkpoint->text("position") != position_string(game, position)) {
    differs("position", checkpoint->text("position"));
  }
  if (checkpoint->text("mode") != mode_name(root_only)) differs("mode", checkpoint->text("mode"));
  KalahSolveProgress progress;
  const auto damaged = [&] { throw FileError(path.string() + ": damaged (bad moves or bounds)"); };
  try {
    std::istringstream moves(checkpoint->text("moves"));
    std::string entry;
    while (moves >> entry) {
      if (entry == "-") break;
      const auto colon = entry.find(':');
      if (colon == std::string::npos) damaged();
      const KalahMove move = parse_move(game, position, entry.substr(0, colon));
      progress.move_scores.emplace_back(move, std::stoi(entry.substr(colon + 1)));
    }
    if (checkpoint->fields.count("lower")) {
      progress.root_bounds = {std::stoi(checkpoint->text("lower")), std::stoi(checkpoint->text("upper"))};
      if (progress.root_bounds->first > progress.root_bounds->second) damaged();
    }
  } catch (const InputError&) {
    damaged();
  } catch (const std::logic_error&) {  // stoi
    damaged();
  }
  return progress;
}

}  // namespace rastros::kalah
