#include "search/memory_share.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "search/solver.hpp"

namespace rastros {

std::size_t table_share(std::size_t memory, int searches, const std::string& what,
                        const std::string& instead) {
  const std::size_t share = memory / static_cast<std::size_t>(std::max(searches, 1));
  if (share < kMinimumTableBytes) {
    throw InputError("--memory of " + std::to_string(memory) + " bytes shared by " +
                     std::to_string(searches) + " " + what + " leaves " + std::to_string(share) +
                     " bytes a table, below the smallest (" + std::to_string(kMinimumTableBytes) +
                     " bytes); raise --memory or lower " + instead);
  }
  return share;
}

}  // namespace rastros
