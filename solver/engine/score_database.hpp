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
#include <stdexcept>
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

/// The memory a walk of the reachable states takes a state: one hash-map node (its key, its
/// byte and the chain pointer, 32 bytes as allocated) and its bucket, then, for a build, the
/// sorted (key, score) pairs and the records made from them. Measured: Congkak(5,4)'s build,
/// 15.3 M states, peaks at 917 MB resident, 60 bytes a state (docs/commands.md, Congkak).
inline constexpr std::uint64_t kWalkBytesPerState = 72;

/// What a strong database's walk may use unless told otherwise: 4 GiB (about 60 M states).
inline constexpr std::uint64_t kDefaultWalkBytes = std::uint64_t{4} << 30;

/// The most states a walk within `bytes` of memory holds.
inline std::uint64_t states_within(std::uint64_t bytes) { return bytes / kWalkBytesPerState; }

/// What a walk keeps of each state met: kOnPath while its children are walked, then the byte
/// its visit returned (a build: the state's score).
using WalkMarks = std::unordered_map<std::uint64_t, std::int8_t>;
inline constexpr std::int8_t kOnPath = -128;

/// Every state reachable from `root` once, children before parents (post-order), each given
/// to `visit(state, marks)` after its children; what it returns (-127..127) is kept in
/// `marks` as the state's mark, where the visits of its parents find it. Iterative: deep games
/// do not overflow the stack. Throws InputError, as soon as it is known, when the reachable
/// states need more than `memory_bytes` (see kWalkBytesPerState).
template <ScoreGame Game, class Visit>
void walk_reachable(const Game& game, const typename Game::State& root, const Visit& visit,
                    WalkMarks& marks, std::uint64_t memory_bytes = kDefaultWalkBytes) {
  using State = typename Game::State;
  const std::uint64_t max_states = states_within(memory_bytes);
  struct Frame {
    State state;
    typename Game::MoveList moves;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  const auto push = [&](const State& state) {
    if (marks.size() >= max_states) {
      throw InputError("more than " + std::to_string(max_states) +
                       " positions are reachable: walking them needs more than " +
                       std::to_string(memory_bytes) + " bytes of memory (--db-memory)");
    }
    marks.emplace(game.key(state), kOnPath);
    stack.push_back(
        {state, game.is_terminal(state) ? typename Game::MoveList{} : game.legal_moves(state)});
  };
  push(root);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next < frame.moves.size()) {
      const State child = game.play(frame.state, frame.moves[frame.next++]).next;
      if (!marks.contains(game.key(child))) push(child);
      continue;
    }
    const State done = frame.state;
    stack.pop_back();
    const std::int8_t mark = visit(done, static_cast<const WalkMarks&>(marks));
    marks[game.key(done)] = mark;
  }
}

/// walk_reachable for a visit that keeps nothing: `visit(state)`.
template <ScoreGame Game, class Visit>
void walk_reachable(const Game& game, const typename Game::State& root, const Visit& visit,
                    std::uint64_t memory_bytes = kDefaultWalkBytes) {
  WalkMarks marks;
  walk_reachable(
      game, root,
      [&](const typename Game::State& state, const WalkMarks&) {
        visit(state);
        return std::int8_t{0};
      },
      marks, memory_bytes);
}

/// Builds the strong database of the states reachable from `root`. `progress(states)` is told
/// every 2^20 states. Throws InputError when a score does not fit in -127..127 or the walk
/// needs more than `memory_bytes`.
template <ScoreGame Game>
ScoreRecords build_score_database(const Game& game, const typename Game::State& root,
                                  const std::function<void(std::uint64_t)>& progress = {},
                                  std::uint64_t memory_bytes = kDefaultWalkBytes) {
  WalkMarks scores;  // the walk's marks are the scores: a child is always finished first
  std::uint64_t solved = 0;
  walk_reachable(
      game, root,
      [&](const typename Game::State& state, const WalkMarks& marks) {
        const int score = score_from_children(game, state, [&](const typename Game::State& child) {
          const std::int8_t mark = marks.at(game.key(child));
          if (mark == kOnPath) throw std::logic_error("a strong database of a game that cycles");
          return static_cast<int>(mark);
        });
        if (score < -127 || score > 127) throw InputError("a score beyond ±127 cannot be stored");
        if (progress && ++solved % (1u << 20) == 0) progress(solved);
        return static_cast<std::int8_t>(score);
      },
      scores, memory_bytes);
  std::vector<std::pair<std::uint64_t, std::int8_t>> sorted(scores.begin(), scores.end());
  WalkMarks().swap(scores);  // the map's memory back before the records are made
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

/// The memory a walk over a database's states takes: enough for its records (a file built
/// with a larger budget than the default is still read), the default at least.
inline std::uint64_t walk_bytes_for(const ScoreRecords& records) {
  return std::max(kDefaultWalkBytes, (records.keys.size() + 1) * kWalkBytesPerState);
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
  const auto visit = [&](const typename Game::State& state) {
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
  };
  try {
    walk_reachable(game, root, visit, walk_bytes_for(records));
  } catch (const InputError&) {
    // The walk outgrew what the file's records need: the file lacks positions.
    return problem ? problem
                   : "more positions are reachable than the file's " +
                         std::to_string(records.keys.size()) + " records";
  }
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
  }, walk_bytes_for(records));
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
