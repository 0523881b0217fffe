#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "core/errors.hpp"

namespace rastros::tools {

ProgressReporter::ProgressReporter(bool enabled, std::function<std::string(double)> line)
    : line_(std::move(line)) {
  if (!enabled) return;
  thread_ = std::thread([this] {
    const auto started = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << "\r" << line_(seconds) << "   " << std::flush;
      printed_ = true;
    }
  });
}

ProgressReporter::~ProgressReporter() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (printed_) std::cerr << "\n";
}

std::string human_count(double value) {
  static const char* const units[] = {"", " k", " M", " G", " T"};
  int unit = 0;
  while (std::fabs(value) >= 1000 && unit < 4) {
    value /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit ? "%.1f%s" : "%.0f%s", value, units[unit]);
  return text;
}

double physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

namespace {

// "512M" and the like in bytes; 0 only when `zero` allows it. Throws InputError.
double parse_bytes(const std::string& text, bool zero) {
  std::size_t used = 0;
  double number = 0;
  // Digits and a point only: std::stod alone would also take leading blanks, "inf", "nan",
  // exponents and hexadecimal.
  const std::size_t digits = text.find_first_not_of("0123456789.");
  if (digits != 0) {
    try {
      number = std::stod(text.substr(0, digits), &used);
      if (used != std::min(digits, text.size())) used = 0;
    } catch (const std::exception&) {
      used = 0;
    }
  }
  std::string unit = text.substr(used);
  if (!unit.empty() && unit.back() == 'B') unit.pop_back();
  if (unit.size() == 2 && unit[1] == 'i') unit.pop_back();
  double scale = 0;
  if (unit.empty())
    scale = 1;
  else if (unit == "K" || unit == "k")
    scale = 1024.0;
  else if (unit == "M" || unit == "m")
    scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "g")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "t")
    scale = 1024.0 * 1024 * 1024 * 1024;
  if (used == 0 || scale == 0 || !(number > 0 || (zero && number == 0)) || number * scale > 1e15) {
    throw InputError("malformed memory size " + quote_input(text) +
                     ": expected a number with K, M or G, such as 512M");
  }
  return number * scale;
}

}  // namespace

std::size_t parse_size(const std::string& text) {
  return static_cast<std::size_t>(parse_bytes(text, true));
}

std::size_t parse_memory_size(const std::string& text) {
  const double bytes = parse_bytes(text, false);
  // A size the machine cannot hold would be accepted (tables are mapped lazily) and then end in
  // the kernel's out-of-memory killer deep into a search: refused here instead.
  const double physical = physical_memory_bytes();
  if (physical > 0 && bytes > physical) {
    char available[32];
    std::snprintf(available, sizeof available, "%.1f GiB", physical / (1024.0 * 1024 * 1024));
    throw InputError("--memory " + escape_control(text) + " is more than this machine's " +
                     available);
  }
  return static_cast<std::size_t>(bytes);
}

}  // namespace rastros::tools
