#pragma once
// A strong database of a score game: every state reachable from a root (the start), each with
// its exact score for the side to move. Built by a depth-first walk that values each state
// from its children's values (memoised, so each state is solved once), kept as sorted keys and
// one signed byte a state; it answers any reachable state by a binary search.
//
// The game's key() must be exact (ScoreGame requires it) and the reachable states few enough to
// hold in memory: Reversi 4×4, small mancala variants. The file form is
// score_database_file.hpp.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "engine/score_game.hpp"

namespace rastros::engine {

/// What answers a state's key with its score: records in memory, or a file read block by
/// block (score_database_file.hpp). Queries take either.
class ScoreLookup {
 public:
  virtual ~ScoreLookup() = default;
  /// The key's score, or nothing when the database does not hold the key.
  virtual std::optional<int> find(std::uint64_t key) const = 0;
};

/// Sorted keys and their scores: what a strong database holds and its file stores.
struct ScoreRecords final : ScoreLookup {
  std::vector<std::uint64_t> keys;  // ascending, distinct
  std::vector<std::int8_t> scores;  // scores[i] belongs to keys[i]

  std::optional<int> find(std::uint64_t key) const override {
    const auto it = std::lower_bound(keys.begin(), keys.end(), key);
    if (it == keys.end() || *it != key) return std::nullopt;
    return scores[static_cast<std::size_t>(it - keys.begin())];
  }
};

/// The score of `state` from its children's scores: terminal, or the best over the moves of
/// the gain plus the next state's score (for the mover when it moves again, else negated).
template <ScoreGame Game, class ChildScore>
int score_from_children(const Game& game, const typename Game::State& state,
                        const ChildScore& child_score) {
  if (game.is_terminal(state)) return game.terminal_score(state);
  int best = -1'000'000;
  for (const auto move : game.legal_moves(state)) {
    const auto played = game.play(state, move);
    const int next = child_score(played.next);
    best = std::max(best, played.gain + (played.again ? next : -next));
  }
  return best;
}

/// The most states a walk holds unless told otherwise (about 4 GB of hash map at the limit).
inline constexpr std::uint64_t kDefaultMaxStates = 64'000'000;

/// Every state reachable from `root` once, children before parents (post-order), each given
/// to `visit(state)` after its children. Iterative: deep games do not overflow the stack.
/// Throws InputError once more than `max_states` states are met.
template <ScoreGame Game, class Visit>
void walk_reachable(const Game& game, const typename Game::State& root, const Visit& visit,
                    std::uint64_t max_states = kDefaultMaxStates) {
  using State = typename Game::State;
  std::unordered_map<std::uint64_t, bool> seen;  // key -> finished
  struct Frame {
    State state;
    typename Game::MoveList moves;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  const auto push = [&](const State& state) {
    seen.emplace(game.key(state), false);
    if (seen.size() > max_states) {
      throw InputError("more than " + std::to_string(max_states) +
                       " positions are reachable: too many for a strong database in memory");
    }
    stack.push_back(
        {state, game.is_terminal(state) ? typename Game::MoveList{} : game.legal_moves(state)});
  };
  push(root);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next < frame.moves.size()) {
      const State child = game.play(frame.state, frame.moves[frame.next++]).next;
      if (!seen.contains(game.key(child))) push(child);
      continue;
    }
    const State done = frame.state;
    stack.pop_back();
    seen[game.key(done)] = true;
    visit(done);
  }
}

/// Builds the strong database of the states reachable from `root`. `progress(states)` is told
/// every 2^20 states. Throws InputError when a score does not fit in a signed byte or more
/// than `max_states` states are reachable.
template <ScoreGame Game>
ScoreRecords build_score_database(const Game& game, const typename Game::State& root,
                                  const std::function<void(std::uint64_t)>& progress = {},
                                  std::uint64_t max_states = kDefaultMaxStates) {
  std::unordered_map<std::uint64_t, std::int8_t> solved;
  walk_reachable(
      game, root,
      [&](const typename Game::State& state) {
        const int score = score_from_children(game, state, [&](const typename Game::State& child) {
          return solved.at(game.key(child));
        });
        if (score < -127 || score > 127) throw InputError("a score beyond ±127 cannot be stored");
        solved.emplace(game.key(state), static_cast<std::int8_t>(score));
        if (progress && solved.size() % (1u << 20) == 0) progress(solved.size());
      },
      max_states);
  std::vector<std::pair<std::uint64_t, std::int8_t>> sorted(solved.begin(), solved.end());
  std::sort(sorted.begin(), sorted.end());
  ScoreRecords records;
  records.keys.reserve(sorted.size());
  records.scores.reserve(sorted.size());
  for (const auto& [key, score] : sorted) {
    records.keys.push_back(key);
    records.scores.push_back(score);
  }
  return records;
}

/// Checks a database against the rules: walks every state reachable from `root` and recomputes
/// its score from its children's stored scores (terminal states from the rules), and checks
/// that the file holds exactly those states. By induction from the ends of the game a database
/// that passes holds the true scores. Returns the first problem, or nothing.
template <ScoreGame Game, class Describe>
std::optional<std::string> verify_score_database(const Game& game, const typename Game::State& root,
                                                 const ScoreRecords& records,
                                                 const Describe& describe) {
  std::optional<std::string> problem;
  std::uint64_t reachable = 0;
  walk_reachable(game, root, [&](const typename Game::State& state) {
    ++reachable;
    if (problem) return;
    const auto stored = records.find(game.key(state));
    if (!stored) {
      problem = describe(state) + ": reachable but not in the file";
      return;
    }
    const int recomputed = score_from_children(game, state, [&](const typename Game::State& child) {
      const auto score = records.find(game.key(child));
      return score ? *score : 1'000;  // a missing child is reported when the walk reaches it
    });
    if (recomputed != *stored) {
      problem = describe(state) + ": stored " + std::to_string(*stored) + ", recomputed " +
                std::to_string(recomputed);
    }
  });
  if (!problem && reachable != records.keys.size()) {
    problem = std::to_string(records.keys.size()) + " records for " + std::to_string(reachable) +
              " reachable positions";
  }
  return problem;
}

/// The stored states of one group (Reversi: empty squares; mancala: seeds in the houses).
struct ScoreCounts {
  int group = 0;
  std::vector<std::pair<int, std::uint64_t>> by_score;  // (score, states), ascending score
};

/// The stored states reachable from `root` counted by group(state) (0 or more; negative: left
/// out) and by score, groups ascending. It walks the game again rather than the records because
/// a key does not give back its state (ScoreGame asks for key(), not its inverse), and the
/// group is a property of the state.
template <ScoreGame Game, class Group>
std::vector<ScoreCounts> count_score_database(const Game& game, const typename Game::State& root,
                                              const ScoreRecords& records, const Group& group) {
  std::vector<std::vector<std::uint64_t>> table;  // [group][score + 128]
  walk_reachable(game, root, [&](const typename Game::State& state) {
    const auto score = records.find(game.key(state));
    const int g = group(state);
    if (!score || g < 0) return;
    if (static_cast<std::size_t>(g) >= table.size()) table.resize(static_cast<std::size_t>(g) + 1);
    if (table[g].empty()) table[g].assign(256, 0);
    ++table[g][static_cast<std::size_t>(*score + 128)];
  });
  std::vector<ScoreCounts> out;
  for (std::size_t g = 0; g < table.size(); ++g) {
    if (table[g].empty()) continue;
    ScoreCounts counts{static_cast<int>(g), {}};
    for (int i = 0; i < 256; ++i) {
      if (table[g][i]) counts.by_score.emplace_back(i - 128, table[g][i]);
    }
    out.push_back(std::move(counts));
  }
  return out;
}

}  // namespace rastros::engine
