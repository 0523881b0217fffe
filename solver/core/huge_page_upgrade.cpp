#include "core/huge_page_upgrade.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/huge_pages.hpp"

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace rastros {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kHugePage = 2 * kMiB;
constexpr std::size_t kCollapsePiece = std::size_t{32} << 20;
constexpr double kWatchSeconds = 0.5;
constexpr double kUpgradeAtResident = 0.5;

std::size_t free_huge_page_bytes_now() {
  std::ifstream file("/proc/buddyinfo");
  if (!file) return 0;
  std::ostringstream text;
  text << file.rdbuf();
  return free_huge_page_bytes(text.str());
}

}  // namespace

std::size_t free_huge_page_bytes(std::string_view buddyinfo) {
  // Lines like "Node 0, zone   Normal  44196  5005 ... 1018": free blocks of order 0, 1, ...
  constexpr int kHugeOrder = 9;  // 2^9 pages of 4 KiB: 2 MiB
  std::size_t bytes = 0;
  std::istringstream lines{std::string(buddyinfo)};
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t zone = line.find("zone");
    if (zone == std::string::npos) continue;
    std::istringstream words(line.substr(zone + 4));
    std::string name;
    words >> name;
    std::size_t count = 0;
    for (int order = 0; words >> count; ++order) {
      if (order >= kHugeOrder) bytes += count * (std::size_t{4096} << order);
    }
  }
  return bytes;
}

double resident_fraction(const void* data, std::size_t size) {
#ifdef __linux__
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((size + page - 1) / page);
  if (resident.empty() || mincore(const_cast<void*>(data), size, resident.data()) != 0) return 0;
  const auto in_memory = std::count_if(resident.begin(), resident.end(),
                                       [](unsigned char flags) { return flags & 1; });
  return static_cast<double>(in_memory) / static_cast<double>(resident.size());
#else
  (void)data;
  (void)size;
  return 0;
#endif
}

HugePageUpgrade::HugePageUpgrade(void* data, std::size_t size, bool filled_at_once)
    : data_(static_cast<unsigned char*>(data)), size_(size & ~(kHugePage - 1)) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const std::size_t smallest = filled_at_once ? kHugePage : kHugePageRequestBytes;
  if (size_ >= smallest && huge_pages_allowed()) {
    // Small enough to be filled by any search that uses it: huge pages at once, while the
    // kernel has them free (no compaction wait), and no watcher.
    if (size_ <= kEagerHugePageBytes && size_ <= free_huge_page_bytes_now() / 2) {
      upgraded_ = madvise(data_, size_, MADV_HUGEPAGE) == 0;
      return;
    }
    // A small table filled at once is over before a watcher's first look: small pages.
    if (filled_at_once) return;
    try {
      watcher_ = std::thread([this] { watch(); });
    } catch (const std::system_error&) {
      // No thread to spare: the table simply stays on small pages.
    }
  }
#endif
}

HugePageUpgrade::~HugePageUpgrade() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

bool HugePageUpgrade::upgraded() const {
  std::lock_guard lock(mutex_);
  return upgraded_;
}

bool HugePageUpgrade::stopping_for(double seconds) {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return stop_; });
}

void HugePageUpgrade::watch() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Rebuilding pages costs time (on a virtual machine, each new huge page is memory the host
  // must back: about 1 ms a MiB), which only a search that goes on for a while wins back.
  // So the table must also have been in use for 2 s plus 1 s for every 256 MiB. Measured with
  // a 256 MiB table on the 7x7 start (1 s of search): upgraded at once, 1.1 s -> 1.8 s.
  const auto started = std::chrono::steady_clock::now();
  const std::chrono::duration<double> settle(2.0 + static_cast<double>(size_) / (256.0 * kMiB));
  while (!stopping_for(kWatchSeconds)) {
    if (std::chrono::steady_clock::now() - started < settle) continue;
    if (resident_fraction(data_, size_) < kUpgradeAtResident) continue;
    // Only as much as half the free huge pages cover: beyond that, each fault and collapse
    // would wait for the kernel to compact memory.
    const std::size_t budget = std::min(size_, free_huge_page_bytes_now() / 2) & ~(kHugePage - 1);
    if (budget == 0) return;
    // From here on, new pages of that part come as huge pages.
    madvise(data_, budget, MADV_HUGEPAGE);
    {
      std::lock_guard lock(mutex_);
      upgraded_ = true;
    }
#ifndef MADV_COLLAPSE
    constexpr int MADV_COLLAPSE = 25;  // Linux 6.1; older C libraries do not name it
#endif
    // The pages already there are rebuilt a piece at a time.
    for (std::size_t offset = 0; offset < budget; offset += kCollapsePiece) {
      {
        std::lock_guard lock(mutex_);
        if (stop_) return;
      }
      // EINVAL: a kernel before 6.1. Then khugepaged rebuilds them in its own time.
      if (madvise(data_ + offset, std::min(kCollapsePiece, budget - offset), MADV_COLLAPSE) != 0 &&
          errno == EINVAL) {
        break;
      }
    }
    return;
  }
#endif
}

}  // namespace rastros
