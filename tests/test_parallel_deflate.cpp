// core/parallel_deflate: the chunked stream is an ordinary zlib stream (zlib's own uncompress
// reads it back), its bytes do not depend on the number of threads or on how the pieces are
// shared out, and priming each piece with the one before keeps it as small as a one-piece
// stream.

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <zlib.h>

#include <cstddef>
#include <random>
#include <span>
#include <stdexcept>
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

// What the distributed database writer does: each process deflates a run of pieces from a
// window of the input holding only those pieces and the dictionary before them; the runs end
// to end, with their Adler-32s combined, are the one-process stream byte for byte.
TEST(ParallelDeflate, PiecesFromSeparateWindowsMakeTheSameStream) {
  for (const std::size_t size : {std::size_t{0}, kMiB / 3, 4 * kMiB + 777}) {
    const std::vector<unsigned char> input = payload_like(size, 11);
    const std::size_t pieces = deflate_piece_count(size);
    for (const int parts_count : {1, 2, 3, 7}) {
      const auto parts = static_cast<std::size_t>(parts_count);
      std::vector<unsigned char> deflated;
      std::uint32_t adler = 1;
      std::size_t covered = 0;
      for (std::size_t part = 0; part < parts; ++part) {
        const std::size_t first = pieces * part / parts, last = pieces * (part + 1) / parts;
        const ByteRange range = deflate_window(size, first, last);
        // Only the window's bytes: a copy, so reading outside it would not go unnoticed.
        const std::vector<unsigned char> window(input.begin() + static_cast<long>(range.begin),
                                                input.begin() + static_cast<long>(range.end));
        const DeflatedPieces run =
            deflate_pieces(window, range.begin, size, first, last, Z_DEFAULT_COMPRESSION);
        deflated.insert(deflated.end(), run.bytes.begin(), run.bytes.end());
        adler = combine_adler32(adler, run.adler, run.input_bytes);
        covered += run.input_bytes;
      }
      EXPECT_EQ(covered, size);
      EXPECT_EQ(zlib_stream(deflated, adler, Z_DEFAULT_COMPRESSION),
                deflate_in_parallel(input, Z_DEFAULT_COMPRESSION))
          << size << " bytes in " << parts << " parts";
    }
  }
}

TEST(ParallelDeflate, RefusesAWindowMissingThePiecesBytes) {
  const std::vector<unsigned char> input = payload_like(3 * kMiB, 2);
  const ByteRange range = deflate_window(input.size(), 1, 2);
  EXPECT_EQ(range.begin, kMiB - kDeflateDictionaryBytes);
  EXPECT_EQ(range.end, 2 * kMiB);
  // Without the dictionary before piece 1.
  EXPECT_THROW(deflate_pieces(std::span(input).subspan(kMiB, kMiB), kMiB, input.size(), 1, 2,
                              Z_DEFAULT_COMPRESSION),
               std::invalid_argument);
  EXPECT_THROW(deflate_pieces(input, 0, input.size(), 2, 4, Z_DEFAULT_COMPRESSION),
               std::invalid_argument);
}

}  // namespace
}  // namespace rastros
