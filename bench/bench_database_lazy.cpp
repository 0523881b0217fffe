// The first query of a fresh process on each shipped database (data/): the file opened (its
// header and block index read and checked) and the start position answered with every move,
// which reads at most nine blocks (db/database_reader.hpp), against the whole file loaded by
// read_database and the same query (what `rastros query` did before files had a block index).
// The cold variants first drop the file from the page cache (posix_fadvise DONTNEED, this file
// only), as for a process started after the file was last read long ago. Target: under 50 ms
// whatever the file's size. Times in milliseconds.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "db/database_file.hpp"
#include "db/database_query.hpp"
#include "db/database_reader.hpp"

namespace rastros {
namespace {

const std::filesystem::path kData = RASTROS_DATA_DIR;

// Drops the file's pages from the page cache, so that the next read goes to the disk.
void evict(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

// Answers the start from `database` as `rastros query` does; the number of moves answered.
template <class Source>
std::size_t answer_start(const Source& database) {
  const DatabaseQuery query(database);
  const std::optional<DatabaseAnswer> answer = query.answer(query.game().start_position());
  return answer ? answer->children.size() : 0;
}

// Argument: 1 to drop the file from the page cache before each open.
void BM_FirstQuery(benchmark::State& state, const char* file) {
  const std::filesystem::path path = kData / file;
  const bool cold = state.range(0) != 0;
  std::uint64_t blocks = 0;
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      evict(path);
      state.ResumeTiming();
    }
    const DatabaseReader reader(path);
    benchmark::DoNotOptimize(answer_start(reader));
    blocks = reader.blocks_read();
  }
  state.counters["blocks_read"] = static_cast<double>(blocks);
}
BENCHMARK_CAPTURE(BM_FirstQuery, 5x5, "5x5-standard.rdb")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FirstQuery, 7x7_strategy, "7x7-standard-strategy.rdb")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FirstQuery, 8x8_proof, "8x8-standard-proof.rdb")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

// The same query after loading the whole file (read_database): every byte read, checked and
// decoded. The 8x8 file takes seconds, so it runs one iteration.
void BM_FirstQueryWholeLoad(benchmark::State& state, const char* file) {
  const std::filesystem::path path = kData / file;
  for (auto _ : state) {
    const Database database = read_database(path);
    benchmark::DoNotOptimize(answer_start(database));
  }
}
BENCHMARK_CAPTURE(BM_FirstQueryWholeLoad, 5x5, "5x5-standard.rdb")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FirstQueryWholeLoad, 7x7_strategy, "7x7-standard-strategy.rdb")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FirstQueryWholeLoad, 8x8_proof, "8x8-standard-proof.rdb")
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// One block read and decoded (pread, CRC, inflate, keys and records) with nothing cached: a
// cache of one block and lookups alternating between the first and the last block.
void BM_BlockRead(benchmark::State& state, const char* file) {
  DatabaseReaderOptions options;
  options.cache_bytes = 1;
  const DatabaseReader reader(kData / file, std::nullopt, options);
  const std::span<const PackedPosition> first_keys = reader.block_first_keys();
  bool last = false;
  for (auto _ : state) {
    benchmark::DoNotOptimize(reader.find((last = !last) ? first_keys.back() : first_keys.front()));
  }
  state.counters["blocks"] = static_cast<double>(first_keys.size());
}
BENCHMARK_CAPTURE(BM_BlockRead, 5x5, "5x5-standard.rdb")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BlockRead, 7x7_strategy, "7x7-standard-strategy.rdb")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BlockRead, 8x8_proof, "8x8-standard-proof.rdb")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rastros
