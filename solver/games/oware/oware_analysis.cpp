#include "games/oware/oware_analysis.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "engine/score_solver.hpp"
#include "games/oware/oware_level_solver.hpp"

namespace rastros::oware {

namespace {

// The positions beyond the database reachable from a root, and once solved their scores.
class BeyondDatabase {
 public:
  BeyondDatabase(const Oware& game, const OwareDatabase& database, const std::atomic<bool>* stop)
      : game_(game), database_(database), stop_(stop) {}

  // Gathers the positions; false when there are more than `budget`.
  bool explore(const OwareState& root, std::uint64_t budget) {
    if (beyond(root)) add(root);
    for (std::size_t next = 0; next < states_.size(); ++next) {
      check_stop();
      const OwareState state = states_[next];
      for (const OwareMove move : game_.legal_moves(state)) {
        const OwareState child = game_.play(state, move).next;
        if (beyond(child) && !index_.contains(game_.key(child))) {
          if (states_.size() >= budget) return false;
          add(child);
        }
      }
    }
    return true;
  }

  // Solves the levels gathered, fewer seeds first: a capture's target is then known.
  void solve() {
    std::map<int, std::vector<std::uint32_t>> by_seeds;
    for (std::uint32_t i = 0; i < states_.size(); ++i) {
      by_seeds[game_.seeds_in_play(states_[i])].push_back(i);
    }
    scores_.assign(states_.size(), 0);
    for (const auto& [seeds, members] : by_seeds) {
      check_stop();
      solve_level_of(seeds, members);
    }
  }

  int score(const OwareState& state) const {
    if (auto known = database_.probe(game_, state)) return *known;
    return scores_[index_.at(game_.key(state))];
  }
  std::uint64_t size() const { return states_.size(); }

 private:
  void check_stop() const {
    if (stop_ && stop_->load(std::memory_order_relaxed)) throw engine::SearchStopped{};
  }
  bool beyond(const OwareState& state) const {
    return game_.seeds_in_play(state) > database_.max_seeds();
  }
  void add(const OwareState& state) {
    index_.emplace(game_.key(state), static_cast<std::uint32_t>(states_.size()));
    states_.push_back(state);
  }

  void solve_level_of(int seeds, const std::vector<std::uint32_t>& members) {
    std::unordered_map<std::uint32_t, std::uint32_t> local;
    for (std::uint32_t j = 0; j < members.size(); ++j) local.emplace(members[j], j);
    LevelGraph graph(members.size(), game_.houses());
    for (std::uint32_t j = 0; j < members.size(); ++j) {
      const OwareState& state = states_[members[j]];
      const auto moves = game_.legal_moves(state);
      if (moves.size() == 0) {
        graph.best_exit[j] = static_cast<std::int8_t>(game_.terminal_score(state));
        continue;
      }
      int best = kNoExit;
      for (const OwareMove move : moves) {
        const OwarePlayed played = game_.play(state, move);
        if (played.gain > 0) {
          best = std::max(best, played.gain - score(played.next));
        } else {
          graph.children[j * graph.stride + graph.child_count[j]++] =
              local.at(index_.at(game_.key(played.next)));
        }
      }
      graph.best_exit[j] = static_cast<std::int8_t>(best);
    }
    const auto values = solve_level(graph, seeds);
    for (std::uint32_t j = 0; j < members.size(); ++j) scores_[members[j]] = values[j];
  }

  const Oware& game_;
  const OwareDatabase& database_;
  const std::atomic<bool>* stop_;
  std::vector<OwareState> states_;
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
  std::vector<int> scores_;
};

}  // namespace

std::optional<OwareAnalysis> analyse(const Oware& game, const OwareDatabase& database,
                                     const OwareState& state, std::uint64_t max_positions,
                                     const std::atomic<bool>* stop) {
  BeyondDatabase beyond(game, database, stop);
  if (!beyond.explore(state, max_positions)) return std::nullopt;
  beyond.solve();
  OwareAnalysis analysis;
  analysis.score = beyond.score(state);
  analysis.positions = beyond.size();
  analysis.source = beyond.size() == 0 ? "database" : "search";
  for (const OwareMove move : game.legal_moves(state)) {
    const OwarePlayed played = game.play(state, move);
    analysis.moves.push_back({move, played.gain, played.gain - beyond.score(played.next)});
  }
  return analysis;
}

}  // namespace rastros::oware
