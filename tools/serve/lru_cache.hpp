#pragma once
// Search results of `rastros serve` by key, least recently used dropped first; thread-safe.

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace rastros::tools::serve {

template <typename Entry>
class LruCache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity) {}

  std::optional<Entry> find(const std::string& key) {
    const std::lock_guard lock(mutex_);
    const auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, found->second);
    return found->second->second;
  }
  void store(const std::string& key, Entry entry) {
    if (capacity_ == 0) return;
    const std::lock_guard lock(mutex_);
    if (const auto found = index_.find(key); found != index_.end()) {
      order_.erase(found->second);
      index_.erase(found);
    }
    order_.emplace_front(key, std::move(entry));
    index_[key] = order_.begin();
    while (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

 private:
  using Order = std::list<std::pair<std::string, Entry>>;
  std::size_t capacity_;
  std::mutex mutex_;
  Order order_;
  std::unordered_map<std::string, typename Order::iterator> index_;
};

}  // namespace rastros::tools::serve
