// core/parallel_deflate: the chunked stream is an ordinary zlib stream (zlib's own uncompress
// reads it back), its bytes do not depend on the number of threads, and priming each chunk with
// the one before keeps it as small as a one-piece stream.

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <zlib.h>

#include <cstddef>
#include <random>
#include <vector>

#include "core/parallel_deflate.hpp"

namespace rastros {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

/// Bytes that compress like a database payload: runs of small gaps with some noise.
std::vector<unsigned char> payload_like(std::size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<unsigned char> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = random() % 8 == 0 ? static_cast<unsigned char>(random())
                                 : static_cast<unsigned char>(i % 7);
  }
  return bytes;
}

std::vector<unsigned char> inflated(const std::vector<unsigned char>& stream, std::size_t size) {
  std::vector<unsigned char> output(size + 1);
  uLongf output_size = output.size();
  EXPECT_EQ(uncompress(output.data(), &output_size, stream.data(), stream.size()), Z_OK);
  output.resize(output_size);
  return output;
}

TEST(ParallelDeflate, ZlibReadsBackEverySize) {
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{1}, kMiB - 1, kMiB, kMiB + 1, 3 * kMiB + kMiB / 2}) {
    const std::vector<unsigned char> input = payload_like(size, static_cast<unsigned>(size));
    for (const int level : {Z_DEFAULT_COMPRESSION, 1, 9}) {
      const std::vector<unsigned char> stream = deflate_in_parallel(input, level);
      EXPECT_EQ(inflated(stream, size), input) << size << " bytes at level " << level;
    }
  }
}

TEST(ParallelDeflate, SameBytesOnOneThreadAndOnAll) {
  const std::vector<unsigned char> input = payload_like(5 * kMiB + 12345, 3);
  std::vector<unsigned char> one;
  oneapi::tbb::task_arena(1).execute(
      [&] { one = deflate_in_parallel(input, Z_DEFAULT_COMPRESSION); });
  EXPECT_EQ(deflate_in_parallel(input, Z_DEFAULT_COMPRESSION), one);
}

TEST(ParallelDeflate, WithinOnePercentOfOnePieceStream) {
  const std::vector<unsigned char> input = payload_like(6 * kMiB, 5);
  std::vector<unsigned char> whole(compressBound(input.size()));
  uLongf whole_size = whole.size();
  ASSERT_EQ(compress2(whole.data(), &whole_size, input.data(), input.size(), Z_DEFAULT_COMPRESSION),
            Z_OK);
  const std::vector<unsigned char> pieces = deflate_in_parallel(input, Z_DEFAULT_COMPRESSION);
  EXPECT_LT(static_cast<double>(pieces.size()), 1.01 * static_cast<double>(whole_size));
  // The header matches what zlib itself writes at this level.
  EXPECT_EQ(pieces[0], whole[0]);
  EXPECT_EQ(pieces[1], whole[1]);
}

}  // namespace
}  // namespace rastros
