#include "search/proof_number_search.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "rastros/canonical.hpp"
#include "rastros/matching_endgame.hpp"
#include "search/zeroed_memory.hpp"

namespace rastros {
namespace {

// Proof and disproof numbers. kInfiniteNumber means "settled the other way": pn =
// kInfiniteNumber with dn = 0 is a disproof. Sums saturate one below it so an unsettled node
// never looks settled.
using Number = std::uint32_t;
constexpr Number kInfiniteNumber = 0xffffffffu;
constexpr Number kProvenPn = 0;

struct Numbers {
  Number pn = 1;
  Number dn = 1;
};
constexpr Numbers kProven{0, kInfiniteNumber};
constexpr Numbers kDisproven{kInfiniteNumber, 0};

constexpr Number saturate(std::uint64_t value) {
  return value >= kInfiniteNumber ? kInfiniteNumber - 1 : static_cast<Number>(value);
}
constexpr Number clamp_threshold(std::uint64_t value) {
  return value >= kInfiniteNumber ? kInfiniteNumber : static_cast<Number>(value);
}

// The 1 + epsilon trick: the threshold a best child gets from its runner-up is
// second * (1 + epsilon) instead of plain df-pn's second + 1, so the search stays in the chosen
// subtree instead of see-sawing between two close siblings and re-expanding both each time.
// Measured on 7x7 (value only, nodes): epsilon = 1/4 took 15.8 M nodes after "c3", 3 took
// 3.8 M, 10 took 1.77 M, 30 took 1.71 M (with only ~0.1% of visits re-expansions), and
// unbounded epsilon the same 1.71 M; "d3" 10.5 M / 6.4 M / 4.0 M for 3 / 10 / 30. So a large
// epsilon wins here: proofs in this game are narrow and deep, and once the heuristic numbers
// pick a child, leaving it early only costs re-expansions. The proof numbers still decide
// the order of the children, which is where df-pn beats the fixed move ordering of alpha-beta.
constexpr std::uint64_t kEpsilonTimes = 30;

constexpr std::uint64_t widened(Number second) {
  if (second == kInfiniteNumber) return kInfiniteNumber;
  return std::uint64_t{second} * (1 + kEpsilonTimes) + 1;
}

// ---------------------------------------------------------------------------------------------
// The table: 3-way buckets of one cache line. A slot holds the key's free mask, pn, dn and a
// meta word:
//   bits 0-5   snail square (the rest of the key)
//   bit  6     query flag (see the header: "win?" or "at least a draw?")
//   bit  7     slot in use
//   bits 8-31  work: nodes searched below this entry over all visits, saturating
// Replacement keeps the most-worked entries: an entry is overwritten only by its own key or,
// when the bucket is full, the least-worked slot goes. Cheap leaves (settled by the rules or
// the matching endgame, stored with work 1) therefore yield to interior nodes, and the big
// settled subtrees near the root stay, which is what saves re-searching them. Losing any entry
// is always sound: df-pn only reads the table for guidance and for settled results, and
// settled results are exact.
class ProofTable {
 public:
  explicit ProofTable(std::size_t bytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    memory_ = ZeroedMemory(buckets * sizeof(Bucket));
    buckets_ = static_cast<Bucket*>(memory_.data());
  }

  bool probe(const PackedPosition& key, bool flag, Numbers& numbers) const {
    const Bucket& bucket = buckets_[index_of(key)];
    const std::uint32_t tag = tag_of(key, flag);
    for (int i = 0; i < kWays; ++i) {
      if ((bucket.meta[i] & kTagMask) == tag && bucket.free[i] == key.free) {
        numbers = {bucket.pn[i], bucket.dn[i]};
        return true;
      }
    }
    return false;
  }

  /// Starts loading the bucket of `key`, so that a later probe finds it in the cache.
  void prefetch(const PackedPosition& key) const { __builtin_prefetch(&buckets_[index_of(key)]); }

  /// Records a node's numbers after `work` more nodes were searched below it.
  void store(const PackedPosition& key, bool flag, Numbers numbers, std::uint64_t work) {
    Bucket& bucket = buckets_[index_of(key)];
    const std::uint32_t tag = tag_of(key, flag);
    int target = 0;
    std::uint32_t target_work = kMaxWork + 1;
    for (int i = 0; i < kWays; ++i) {
      if ((bucket.meta[i] & kTagMask) == tag && bucket.free[i] == key.free) {
        work += bucket.meta[i] >> kWorkShift;
        target = i;
        break;
      }
      const std::uint32_t slot_work = bucket.meta[i] & kUsedBit ? bucket.meta[i] >> kWorkShift : 0;
      if (slot_work < target_work) {
        target = i;
        target_work = slot_work;
      }
    }
    bucket.free[target] = key.free;
    bucket.pn[target] = numbers.pn;
    bucket.dn[target] = numbers.dn;
    bucket.meta[target] = tag | static_cast<std::uint32_t>(std::min<std::uint64_t>(work, kMaxWork))
                                    << kWorkShift;
  }

  /// The table's memory, for checkpoints (search/search_checkpoint.hpp).
  std::span<const unsigned char> image() const {
    return {reinterpret_cast<const unsigned char*>(buckets_), bytes()};
  }
  std::span<unsigned char> image() { return {reinterpret_cast<unsigned char*>(buckets_), bytes()}; }

 private:
  std::size_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }
  static constexpr int kWays = 3;
  static constexpr std::uint32_t kFlagBit = 1u << 6;
  static constexpr std::uint32_t kUsedBit = 1u << 7;
  static constexpr std::uint32_t kTagMask = 0xff;
  static constexpr int kWorkShift = 8;
  static constexpr std::uint32_t kMaxWork = (1u << 24) - 1;

  struct alignas(64) Bucket {
    std::uint64_t free[kWays];
    Number pn[kWays];
    Number dn[kWays];
    std::uint32_t meta[kWays];
  };
  static_assert(sizeof(Bucket) == 64);

  static std::uint32_t tag_of(const PackedPosition& key, bool flag) {
    return key.snail | (flag ? kFlagBit : 0) | kUsedBit;
  }

  std::size_t index_of(const PackedPosition& key) const {
    return static_cast<std::size_t>(hash_of(key)) & mask_;
  }
  std::size_t mask_ = 0;
  ZeroedMemory memory_;
  Bucket* buckets_ = nullptr;
};

/// A child of the node being searched: its key and its current numbers (its mover's view).
struct Child {
  PackedPosition key;
  Numbers numbers;
};

/// At most 8 moves (king steps).
struct Children {
  std::array<Child, 8> list;
  int size = 0;
};

enum class Known : std::uint8_t { unknown, success, failure };

}  // namespace

class ProofNumberEngine {
 public:
  ProofNumberEngine(const Rastros& rastros, std::size_t table_bytes)
      : board_(rastros.board()),
        stuck_loses_(rastros.stuck_rule() == StuckRule::loses),
        canonicalizer_(board_),
        table_(table_bytes) {}

  /// True iff the side to move at `position` (not ended) succeeds at the query `draw_ok`:
  /// wins, or draws-or-wins when draw_ok.
  bool prove(const Position& position, bool draw_ok) {
    const Numbers result =
        mid(canonicalizer_.pack(position), draw_ok, kInfiniteNumber, kInfiniteNumber);
    return result.pn == kProvenPn;
  }

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  void add_nodes(std::uint64_t nodes) {
    nodes_.store(this->nodes() + nodes, std::memory_order_relaxed);
  }
  void set_control(ProofSearchControl control) {
    control_ = std::move(control);
    last_save_ = std::chrono::steady_clock::now();
  }
  std::span<const unsigned char> table_image() const { return table_.image(); }
  std::span<unsigned char> table_image() { return table_.image(); }

 private:
  Numbers mid(const PackedPosition& key, bool flag, Number threshold_pn, Number threshold_dn);
  Known expand(const PackedPosition& key, bool flag, Children& children);
  /// The query flag of a node's children: only stuck-draw rules have two different questions.
  bool child_flag(bool flag) const { return !stuck_loses_ && !flag; }
  Known stuck(bool flag) const { return !stuck_loses_ && flag ? Known::success : Known::failure; }
  /// The value of a position whose region holds no goal: matching endgame, or a certain draw.
  Known without_goals(Square snail, SquareMask region, bool flag) const {
    if (!stuck_loses_) return flag ? Known::success : Known::failure;
    return geography_mover_wins(board_, snail, region) ? Known::success : Known::failure;
  }

  Board board_;
  bool stuck_loses_;
  Canonicalizer canonicalizer_;
  /// Every kControlNodes nodes: saves when due, and stops (after saving) when asked to. Called
  /// at the start of mid(), where every entry in the table is a finished result.
  void check_control() {
    if (nodes() % kControlNodes != 0 || (!control_.stop && !control_.save && !control_.deadline)) {
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (control_.deadline && now >= *control_.deadline) throw SearchStopped();
    const bool stopping = control_.stop && control_.stop->load(std::memory_order_relaxed);
    if (control_.save && (stopping || now - last_save_ >= control_.save_every)) {
      control_.save();
      last_save_ = std::chrono::steady_clock::now();
      // A stop asked for during the save (which can take a while) needs no second one.
      if (control_.stop && control_.stop->load(std::memory_order_relaxed)) throw SearchStopped();
    }
    if (stopping) throw SearchStopped();
  }
  static constexpr std::uint64_t kControlNodes = 4096;

  ProofTable table_;
  ProofSearchControl control_;
  std::chrono::steady_clock::time_point last_save_;
  // Written by the searching thread only (a plain add, no locked instruction); read by progress.
  std::atomic<std::uint64_t> nodes_{0};
};

// Settles the node from the rules when it can; otherwise lists its children with their numbers
// (from the table, or the initial heuristic). A child whose region holds no goal is not
// settled here by the matching endgame but when it is first searched: most children are never
// searched, and evaluating them all eagerly cost about 7% more time for the same node count.
Known ProofNumberEngine::expand(const PackedPosition& key, bool flag, Children& children) {
  const Position node = Canonicalizer::unpack(key);  // player 1 to move, free = the region
  const Square my_goal = board_.goal_of(node.to_move);
  const Square their_goal = board_.goal_of(opponent(node.to_move));
  const SquareMask moves = board_.neighbours(node.snail) & node.free;

  if (!moves) return stuck(flag);
  if (moves & bit(my_goal)) return Known::success;
  SquareMask playable = moves & ~bit(their_goal);
  if (!playable) return Known::failure;
  // A move next to the opponent's empty goal loses at once: never better than any other move.
  if (node.free & bit(their_goal)) {
    playable &= ~board_.neighbours(their_goal);
    if (!playable) return Known::failure;
  }
  if (!(node.free & board_.goals())) return without_goals(node.snail, node.free, flag);

  // While our goal is empty, the opponent must not step on it or next to it.
  const SquareMask my_goal_zone = board_.goal_zone(node.to_move, node.free);
  const bool next_flag = child_flag(flag);
  for (Square move : SquareSet(playable)) {
    const SquareMask replies = board_.neighbours(move) & node.free & ~bit(move);
    if (!replies) {
      // The opponent is stuck: a win, or under stuck-draw a draw (useless to a "win?" query).
      if (stuck_loses_ || flag) return Known::success;
      continue;
    }
    const int safe_replies = count(replies & ~my_goal_zone);
    if (safe_replies == 0) return Known::success;  // every reply lets us into our goal

    Child& child = children.list[children.size++];
    child.key = canonicalizer_.pack_after_step(node, move);
    table_.prefetch(child.key);  // the probes below then overlap their cache misses
    child.numbers = {1, static_cast<Number>(safe_replies)};  // dn holds the count till probed
  }
  // Probed after every child's bucket was asked for: the cache misses overlap instead of
  // queueing (7x7 start, 8 MiB table: 0.68 s -> 0.41 s for the same 1.80 M nodes).
  for (int i = 0; i < children.size; ++i) {
    Child& child = children.list[i];
    const Number safe_replies = child.numbers.dn;
    if (!table_.probe(child.key, next_flag, child.numbers)) {
      // To refute the child its mover's every safe reply must fail; one success proves it.
      // dn = replies squared rather than replies: it ranks a child with 2 safe replies far
      // ahead of one with 4, like alpha-beta's fewest-replies ordering. Measured (value only,
      // nodes): 6x6 start 66 K with dn = 1, 10.0 K with dn = replies, 10.0 K squared; 7x7
      // after "c3" with epsilon 10: 6.2 M with replies, 1.77 M squared (epsilon 30: 1.72 M
      // and 1.71 M). pn = 1: one winning reply is enough.
      child.numbers = {1, safe_replies * safe_replies};
    }
    if (child.numbers.dn == 0) return Known::success;  // a reply the opponent cannot survive
  }
  return children.size == 0 ? Known::failure : Known::unknown;
}

Numbers ProofNumberEngine::mid(const PackedPosition& key, bool flag, Number threshold_pn,
                               Number threshold_dn) {
  check_control();
  const std::uint64_t nodes_before = nodes_.load(std::memory_order_relaxed) + 1;
  nodes_.store(nodes_before, std::memory_order_relaxed);
  Children children;
  const Known known = expand(key, flag, children);
  if (known != Known::unknown) {
    const Numbers result = known == Known::success ? kProven : kDisproven;
    table_.store(key, flag, result, 1);
    return result;
  }

  const bool next_flag = child_flag(flag);
  Numbers numbers;
  while (true) {
    // pn = min dn(child): one refuted child proves the node. dn = sum pn(child): every child
    // must be proven (for its mover) to disprove the node.
    int best = 0;
    Number best_dn = kInfiniteNumber;
    Number second_dn = kInfiniteNumber;
    std::uint64_t sum_pn = 0;
    for (int i = 0; i < children.size; ++i) {
      const Numbers& child = children.list[i].numbers;
      if (child.dn < best_dn) {
        second_dn = best_dn;
        best_dn = child.dn;
        best = i;
      } else if (child.dn < second_dn) {
        second_dn = child.dn;
      }
      sum_pn += child.pn;
    }
    if (best_dn == 0) {
      numbers = kProven;
    } else if (sum_pn == 0) {
      numbers = kDisproven;
    } else {
      numbers = {best_dn, saturate(sum_pn)};
    }
    if (numbers.pn >= threshold_pn || numbers.dn >= threshold_dn) break;

    // The best child's pn may grow until the node's dn reaches its threshold; its dn until it
    // passes the runner-up (widened by 1 + epsilon) or the node's pn threshold.
    Child& child = children.list[best];
    const Number child_threshold_pn =
        clamp_threshold(std::uint64_t{threshold_dn} - numbers.dn + child.numbers.pn);
    const Number child_threshold_dn =
        clamp_threshold(std::min<std::uint64_t>(threshold_pn, widened(second_dn)));
    child.numbers = mid(child.key, next_flag, child_threshold_pn, child_threshold_dn);
  }
  table_.store(key, flag, numbers, nodes() - nodes_before + 1);
  return numbers;
}

ProofNumberSearch::ProofNumberSearch(const Rastros& rastros, std::size_t table_bytes)
    : rastros_(rastros), engine_(std::make_unique<ProofNumberEngine>(rastros, table_bytes)) {}

ProofNumberSearch::~ProofNumberSearch() = default;

Value ProofNumberSearch::solve(const Position& position) {
  if (const auto ended = rastros_.terminal_value(position)) return *ended;
  if (engine_->prove(position, false)) return Value::win;
  // No draws under standard rules: not winning is losing.
  if (rastros_.stuck_rule() == StuckRule::loses) return Value::loss;
  return engine_->prove(position, true) ? Value::draw : Value::loss;
}

Analysis ProofNumberSearch::analyse(const Position& position) {
  const std::uint64_t nodes_before = nodes();
  Analysis analysis;
  if (const auto ended = rastros_.terminal_value(position)) {
    analysis.outcome = {*ended, std::nullopt};
    return analysis;
  }
  for (Square move : rastros_.legal_moves(position)) {
    analysis.children.push_back(
        {move, outcome_of_move({solve(rastros_.play(position, move)), std::nullopt})});
  }
  settle_from_children(analysis);
  analysis.nodes = nodes() - nodes_before;
  return analysis;
}

void ProofNumberSearch::set_control(ProofSearchControl control) {
  engine_->set_control(std::move(control));
}

std::span<const unsigned char> ProofNumberSearch::table_image() const {
  return engine_->table_image();
}

void ProofNumberSearch::restore_table(std::span<const unsigned char> image) {
  const std::span<unsigned char> table = engine_->table_image();
  if (image.size() != table.size()) {
    throw std::invalid_argument("proof-number table image of " + std::to_string(image.size()) +
                                " bytes for a table of " + std::to_string(table.size()));
  }
  std::copy(image.begin(), image.end(), table.begin());
}

void ProofNumberSearch::restore_table(const std::function<void(std::span<unsigned char>)>& read) {
  read(engine_->table_image());
}

void ProofNumberSearch::add_restored_nodes(std::uint64_t nodes) {
  engine_->add_nodes(nodes);
}

std::uint64_t ProofNumberSearch::nodes() const {
  return engine_->nodes();
}

}  // namespace rastros
