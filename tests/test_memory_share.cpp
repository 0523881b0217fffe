// --memory shared by the searches running at once (search/memory_share.hpp).

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "search/memory_share.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

TEST(MemoryShare, EachSearchGetsAnEqualShare) {
  EXPECT_EQ(table_share(std::size_t{64} << 20, 4, "squares at once", "--threads"),
            std::size_t{16} << 20);
  EXPECT_EQ(table_share(std::size_t{64} << 20, 1, "squares at once", "--threads"),
            std::size_t{64} << 20);
}

TEST(MemoryShare, RefusesAShareBelowTheSmallestTable) {
  EXPECT_EQ(table_share(kMinimumTableBytes * 2, 2, "searches at once", "--max-searches"),
            kMinimumTableBytes);
  try {
    table_share(kMinimumTableBytes * 2, 3, "searches at once", "--max-searches");
    FAIL() << "a share below the smallest table was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("3 searches at once"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("--max-searches"), std::string::npos);
  }
}

}  // namespace
}  // namespace rastros
