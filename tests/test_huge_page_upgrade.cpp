// Tables move onto huge pages once mostly in use, small ones at once
// (core/huge_page_upgrade.hpp): the free huge memory is read right from /proc/buddyinfo,
// residency from mincore, and the move keeps every byte of the table.

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <thread>

#include "core/huge_page_upgrade.hpp"
#include "core/huge_pages.hpp"
#include "search/zeroed_memory.hpp"

namespace rastros {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
// Regions above kEagerHugePageBytes start on small pages and are watched.
constexpr std::size_t kWatchedSize = 2 * kEagerHugePageBytes;

TEST(HugePageUpgrade, CountsFreeBlocksOfTwoMebibytesAndMore) {
  // Orders 0-10: only orders 9 (2 MiB) and 10 (4 MiB) count.
  const char* text =
      "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      "
      "1      3 \n"
      "Node 0, zone    DMA32      1      2      4      2      5      4      3      3      4      "
      "2    752 \n"
      "Node 0, zone   Normal  44196   5005    761    652    510    296    186     55     16      "
      "1   1018 \n";
  EXPECT_EQ(free_huge_page_bytes(text), (1 + 2 + 1) * 2 * kMiB + (3 + 752 + 1018) * 4 * kMiB);
  EXPECT_EQ(free_huge_page_bytes(""), 0u);
  EXPECT_EQ(free_huge_page_bytes("no zones here\n"), 0u);
  // Fewer orders (another kernel's configuration): what is there counts.
  EXPECT_EQ(free_huge_page_bytes("Node 0, zone Normal 5 5 5 5 5 5 5 5 5 7\n"), 7 * 2 * kMiB);
}

TEST(HugePageUpgrade, ResidentFractionFollowsTouchedPages) {
  ZeroedMemory memory(kWatchedSize);
  auto* bytes = static_cast<unsigned char*>(memory.data());
  EXPECT_LT(resident_fraction(bytes, kWatchedSize), 0.01);  // mapped, never touched
  for (std::size_t i = 0; i < kWatchedSize / 2; i += 4096) bytes[i] = 1;
  const double half = resident_fraction(bytes, kWatchedSize);
  EXPECT_GE(half, 0.5);
  EXPECT_LT(half, 0.8);  // small pages: the untouched half stays out
}

bool transparent_huge_pages_available() {
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string setting((std::istreambuf_iterator<char>(enabled)), {});
  std::ifstream buddyinfo("/proc/buddyinfo");
  std::ostringstream text;
  text << buddyinfo.rdbuf();
  return setting.find("[never]") == std::string::npos && !setting.empty() &&
         free_huge_page_bytes(text.str()) >= 256 * kMiB && huge_pages_allowed();
}

/// `size` bytes of fresh memory on a 2 MiB boundary, mapped here rather than by ZeroedMemory
/// (which watches its own), unmapped at the end.
class AlignedMapping {
 public:
  explicit AlignedMapping(std::size_t size) : mapped_bytes_(size + 2 * kMiB) {
    mapped_ = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped_ == MAP_FAILED) throw std::bad_alloc();
  }
  ~AlignedMapping() { munmap(mapped_, mapped_bytes_); }
  AlignedMapping(const AlignedMapping&) = delete;
  AlignedMapping& operator=(const AlignedMapping&) = delete;

  unsigned char* data() const {
    return reinterpret_cast<unsigned char*>(
        (reinterpret_cast<std::uintptr_t>(mapped_) + 2 * kMiB - 1) & ~(2 * kMiB - 1));
  }

 private:
  std::size_t mapped_bytes_;
  void* mapped_;
};

TEST(HugePageUpgrade, SmallRegionGoesOntoHugePagesAtOnce) {
  if (!transparent_huge_pages_available()) GTEST_SKIP() << "no transparent huge pages here";
  constexpr std::size_t kSize = 16 * kMiB;
  static_assert(kSize <= kEagerHugePageBytes);
  const AlignedMapping mapping(kSize);
  unsigned char* bytes = mapping.data();
  HugePageUpgrade upgrade(bytes, kSize);
  EXPECT_TRUE(upgrade.upgraded());  // no watch: asked for at construction
  // One byte in the first 4 KiB page brings in its whole 2 MiB page.
  bytes[0] = 1;
  EXPECT_GE(resident_fraction(bytes, 2 * kMiB), 0.99);
  EXPECT_LT(resident_fraction(bytes, kSize), 0.2);  // the pages not touched stay out
}

TEST(HugePageUpgrade, SmallTableFilledAtOnceTakesOneHugePage) {
  if (!transparent_huge_pages_available()) GTEST_SKIP() << "no transparent huge pages here";
  // 1 MiB (the move memory of a 7x7 search): rounded up to one whole huge page, asked at once.
  const ZeroedMemory memory = ZeroedMemory::for_small_table(kMiB);
  auto* bytes = static_cast<unsigned char*>(memory.data());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bytes) % (2 * kMiB), 0u);
  bytes[0] = 1;  // one touch brings in the whole table
  EXPECT_GE(resident_fraction(bytes, kMiB), 0.99);
}

TEST(HugePageUpgrade, SmallTablesStartZeroed) {
  // Below 1 MiB from the heap, from 1 MiB up mapped: zero either way, and writable throughout.
  for (const std::size_t size : {std::size_t{64} << 10, kMiB, 3 * kMiB}) {
    SCOPED_TRACE(size);
    const ZeroedMemory memory = ZeroedMemory::for_small_table(size);
    auto* bytes = static_cast<unsigned char*>(memory.data());
    ASSERT_NE(bytes, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bytes) % 16, 0u);  // slots of two 64-bit words
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < size; ++i) nonzero += bytes[i] != 0;
    EXPECT_EQ(nonzero, 0u);
    std::memset(bytes, 0xff, size);
  }
}

TEST(HugePageUpgrade, MostlyUsedRegionIsUpgradedWithItsContentsKept) {
  if (!transparent_huge_pages_available()) GTEST_SKIP() << "no transparent huge pages here";
  constexpr std::size_t kSize = kWatchedSize;
  const AlignedMapping mapping(kSize);
  unsigned char* data = mapping.data();
  // Three quarters written with a pattern; the rest untouched (it must still read as zeros).
  for (std::size_t i = 0; i < kSize / 4 * 3; ++i) data[i] = static_cast<unsigned char>(i * 7 + 1);
  {
    HugePageUpgrade upgrade(data, kSize);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!upgrade.upgraded() && std::chrono::steady_clock::now() < deadline) {
      // The table stays in use while the watcher works on it.
      data[kSize / 2] = static_cast<unsigned char>(kSize / 2 * 7 + 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(upgrade.upgraded());
  }  // the destructor waits for the collapse to stop
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kSize; ++i) {
    const auto expected = i < kSize / 4 * 3 ? static_cast<unsigned char>(i * 7 + 1) : 0;
    wrong += data[i] != expected;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(HugePageUpgrade, SparseRegionStaysOnSmallPages) {
  constexpr std::size_t kSize = kWatchedSize;
  ZeroedMemory memory(kSize);
  auto* bytes = static_cast<unsigned char*>(memory.data());
  // One page in sixteen, spread as a table's stores spread: every 2 MiB range has some.
  for (std::size_t i = 0; i < kSize; i += 16 * 4096) bytes[i] = 1;
  // Past the watcher's wait for a 128 MiB table (2.5 s), so that it has looked at the pages.
  static_assert(kWatchedSize == 128 * kMiB);
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  EXPECT_LT(resident_fraction(bytes, kSize), 0.3);  // a collapse would have filled it in
}

TEST(HugePageUpgrade, TurnedOffByTheEnvironment) {
  const SmallPagesOnly small_pages;
  std::vector<unsigned char> block(64 * kMiB, 1);
  auto* aligned = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(block.data()) + 2 * kMiB - 1) & ~(2 * kMiB - 1));
  {
    HugePageUpgrade upgrade(aligned, 32 * kMiB);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    EXPECT_FALSE(upgrade.upgraded());
  }
}

}  // namespace
}  // namespace rastros
