// The .rdb database file on ~1M canonical 7x7 keys met by random games: find() latency on a
// loaded database (hits in random order, and misses), write and read throughput, and the
// file's bytes per position; deflating all the columns as one stream in pieces on 1 and 2
// threads (core/parallel_deflate) against zlib's one-piece compress2.
#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/parallel_deflate.hpp"
#include "db/database_file.hpp"
#include "rastros/canonical.hpp"
#include "rastros/rastros.hpp"

namespace rastros {
namespace {

constexpr std::size_t kPositions = 1 << 20;

// Random records shaped like real ones: wins in odd plies, losses in even, best move a step.
Database make_database() {
  const Board board(7, 7);
  const Rastros game(board);
  const Canonicalizer canonicalizer(board);
  std::mt19937_64 rng(2024);
  std::set<PackedPosition> keys;
  while (keys.size() < kPositions) {
    Position position = game.start_position();
    while (!game.has_ended(position) && keys.size() < kPositions) {
      keys.insert(canonicalizer.pack(position));
      const SquareSet moves = game.legal_moves(position);
      SquareMask rest = moves.mask();
      for (int skip = static_cast<int>(rng() % moves.size()); skip > 0; --skip) rest &= rest - 1;
      position = game.play(position, lowest_square(rest));
    }
  }
  std::vector<PackedPosition> sorted(keys.begin(), keys.end());
  std::vector<DatabaseRecord> records;
  records.reserve(sorted.size());
  for (const PackedPosition& key : sorted) {
    const bool win = rng() % 2;
    const int plies = static_cast<int>(rng() % std::max(1, count(key.free)));
    SquareMask steps = board.neighbours(key.snail) & key.free;
    if (steps == 0) steps = board.neighbours(key.snail);
    for (int skip = static_cast<int>(rng() % count(steps)); skip > 0; --skip) steps &= steps - 1;
    records.push_back({win ? Value::win : Value::loss,
                       static_cast<std::uint8_t>(win ? plies | 1 : plies & ~1),
                       static_cast<std::uint8_t>(lowest_square(steps))});
  }
  DatabaseHeader header;
  header.width = board.width();
  header.height = board.height();
  header.start = board.default_start();
  return Database(header, std::move(sorted), std::move(records));
}

const Database& database() {
  static const Database instance = make_database();
  return instance;
}

std::filesystem::path bench_file() {
  return std::filesystem::temp_directory_path() /
         ("rastros_bench_" + std::to_string(::getpid()) + ".rdb");
}

// The database as loaded from disk, which is what the tools query.
const Database& loaded_database() {
  static const Database instance = [] {
    write_database(bench_file(), database());
    Database loaded = read_database(bench_file());
    std::filesystem::remove(bench_file());
    return loaded;
  }();
  return instance;
}

void BM_FindHit(benchmark::State& state) {
  const Database& db = loaded_database();
  // Random order, so each lookup pays the cache misses a real query would.
  std::vector<PackedPosition> probes(db.keys().begin(), db.keys().end());
  std::shuffle(probes.begin(), probes.end(), std::mt19937_64(1));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(db.find(probes[i]));
    if (++i == probes.size()) i = 0;
  }
  state.counters["positions"] = static_cast<double>(db.size());
}
BENCHMARK(BM_FindHit);

void BM_FindMiss(benchmark::State& state) {
  const Database& db = loaded_database();
  std::vector<PackedPosition> probes;
  std::mt19937_64 rng(2);
  for (const PackedPosition& key : db.keys()) {
    if (rng() % 8 == 0)
      probes.push_back({key.free ^ bit(static_cast<Square>(rng() % 49)), key.snail});
  }
  std::shuffle(probes.begin(), probes.end(), rng);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(db.find(probes[i]));
    if (++i == probes.size()) i = 0;
  }
}
BENCHMARK(BM_FindMiss);

// Argument: threads. The blocks are encoded and deflated on every thread, so /2 against /1 is
// the writer's speed-up.
void BM_Write(benchmark::State& state) {
  const Database& db = database();
  std::uintmax_t bytes = 0;
  oneapi::tbb::task_arena arena(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    arena.execute([&] { write_database(bench_file(), db); });
    bytes = std::filesystem::file_size(bench_file());
  }
  std::filesystem::remove(bench_file());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * db.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["bytes_per_position"] = static_cast<double>(bytes) / db.size();
}
BENCHMARK(BM_Write)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The database's three columns, all positions end to end, before compression (what format 1
// stored as one stream; format 2 stores them block by block).
const std::vector<unsigned char>& payload() {
  static const std::vector<unsigned char> instance = [] {
    const Database& db = database();
    PayloadColumns columns = encode_columns(db.header(), db.keys(), db.records(), nullptr);
    std::vector<unsigned char> raw = std::move(columns.keys);
    raw.insert(raw.end(), columns.values.begin(), columns.values.end());
    raw.insert(raw.end(), columns.moves.begin(), columns.moves.end());
    return raw;
  }();
  return instance;
}

// Baseline: zlib's one-piece compress2 at the same level, on one thread.
void BM_DeflateOnePiece(benchmark::State& state) {
  const std::vector<unsigned char>& input = payload();
  std::vector<unsigned char> output(compressBound(input.size()));
  uLongf size = 0;
  for (auto _ : state) {
    size = output.size();
    compress2(output.data(), &size, input.data(), input.size(), Z_DEFAULT_COMPRESSION);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.counters["compressed_bytes"] = static_cast<double>(size);
}
BENCHMARK(BM_DeflateOnePiece)->Unit(benchmark::kMillisecond)->UseRealTime();

// Argument: threads.
void BM_DeflateInPieces(benchmark::State& state) {
  const std::vector<unsigned char>& input = payload();
  oneapi::tbb::task_arena arena(static_cast<int>(state.range(0)));
  std::size_t size = 0;
  for (auto _ : state) {
    arena.execute([&] { size = deflate_in_parallel(input, Z_DEFAULT_COMPRESSION).size(); });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.counters["compressed_bytes"] = static_cast<double>(size);
}
BENCHMARK(BM_DeflateInPieces)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Read(benchmark::State& state) {
  const Database& db = database();
  write_database(bench_file(), db);
  const auto bytes = std::filesystem::file_size(bench_file());
  for (auto _ : state) benchmark::DoNotOptimize(read_database(bench_file()).size());
  std::filesystem::remove(bench_file());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * db.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["bytes_per_position"] = static_cast<double>(bytes) / db.size();
}
BENCHMARK(BM_Read)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rastros
