#include "search/map_checkpoint.hpp"

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"

namespace rastros {

MapCheckpoint::MapCheckpoint(std::filesystem::path directory, const Rastros& rastros,
                             bool value_only, bool resume)
    : directory_(std::move(directory)),
      path_(directory_ / "map.checkpoint"),
      rastros_(rastros),
      value_only_(value_only) {
  prepare_checkpoint_directory(directory_);
  const bool unfinished = std::filesystem::exists(path_);
  earlier_ = read_map_checkpoint(path_, rastros_, value_only_);
  if (unfinished && !resume) {
    throw InputError("checkpoint directory " + directory_.string() +
                     " holds an unfinished map; add --resume to continue it, or remove it");
  }
  progress_ = earlier_;
  if (!unfinished) write_map_checkpoint(path_, rastros_, value_only_, progress_);
}

void MapCheckpoint::save(const StartSquareOutcome& result, std::uint64_t run_nodes,
                         double run_seconds) {
  std::lock_guard lock(mutex_);
  progress_.solved.push_back(result);
  progress_.nodes = earlier_.nodes + run_nodes;
  progress_.seconds = earlier_.seconds + run_seconds;
  write_map_checkpoint(path_, rastros_, value_only_, progress_);
}

void MapCheckpoint::remove() const {
  remove_checkpoint(path_);
  std::error_code ignored;
  std::filesystem::remove(directory_, ignored);  // only if empty
}

}  // namespace rastros
