#include "core/parallel_deflate.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <stdexcept>

#include "core/thread_sanitizer.hpp"

namespace rastros {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kDictionaryBytes = std::size_t{1} << 15;  // deflate's whole window
constexpr int kWindowBits = 15;

/// Chunk `index` of `input` as raw deflate: primed with the bytes before it, ended with a sync
/// flush (or, for the last chunk, the final block).
std::vector<unsigned char> deflate_chunk(std::span<const unsigned char> input, std::size_t index,
                                         std::size_t chunks, int level) {
  const std::size_t begin = index * kChunkBytes;
  const std::size_t end = std::min(input.size(), begin + kChunkBytes);
  z_stream stream{};
  // Negative window bits: raw deflate, no zlib header or trailer of its own.
  const int status = deflateInit2(&stream, level, Z_DEFLATED, -kWindowBits, 8, Z_DEFAULT_STRATEGY);
  if (status == Z_MEM_ERROR) throw std::bad_alloc();
  if (status != Z_OK) throw std::runtime_error("zlib: deflateInit2 failed");
  struct End {
    z_stream* stream;
    ~End() { deflateEnd(stream); }
  } end_stream{&stream};
  if (begin > 0) {
    const std::size_t from = begin - std::min(begin, kDictionaryBytes);
    if (deflateSetDictionary(&stream, input.data() + from, static_cast<uInt>(begin - from)) !=
        Z_OK) {
      throw std::runtime_error("zlib: deflateSetDictionary failed");
    }
  }
  // The bound plus room for the sync flush's empty stored block; grown if ever short.
  std::vector<unsigned char> output(deflateBound(&stream, end - begin) + 64);
  stream.next_in = const_cast<Bytef*>(input.data() + begin);
  stream.avail_in = static_cast<uInt>(end - begin);
  const int flush = index + 1 == chunks ? Z_FINISH : Z_SYNC_FLUSH;
  std::size_t produced = 0;
  for (;;) {
    stream.next_out = output.data() + produced;
    stream.avail_out = static_cast<uInt>(output.size() - produced);
    const int result = deflate(&stream, flush);
    if (result == Z_STREAM_ERROR) throw std::runtime_error("zlib: deflate failed");
    produced = output.size() - stream.avail_out;
    // A flush is complete once deflate returns with output space to spare.
    const bool done =
        flush == Z_FINISH ? result == Z_STREAM_END : stream.avail_in == 0 && stream.avail_out > 0;
    if (done) {
      output.resize(produced);
      return output;
    }
    output.resize(output.size() * 2);
  }
}

}  // namespace

std::vector<unsigned char> deflate_in_parallel(std::span<const unsigned char> input, int level) {
  const std::size_t chunks =
      std::max<std::size_t>(1, (input.size() + kChunkBytes - 1) / kChunkBytes);
  std::vector<std::vector<unsigned char>> pieces(chunks);
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(std::size_t{0}, chunks,
                            thread_sanitizer::handed_off([&](std::size_t index) {
                              pieces[index] = deflate_chunk(input, index, chunks, level);
                              thread_sanitizer::publish(&finished);
                            }));
  thread_sanitizer::acquire(&finished);

  // The zlib header as deflate() writes it: method and window, then the level hint, padded so
  // that the two bytes read as a multiple of 31.
  const int effective_level = level == Z_DEFAULT_COMPRESSION ? 6 : level;
  const unsigned level_hint = effective_level < 2    ? 0
                              : effective_level < 6  ? 1
                              : effective_level == 6 ? 2
                                                     : 3;
  unsigned header = (Z_DEFLATED + ((kWindowBits - 8) << 4)) << 8 | level_hint << 6;
  header += 31 - header % 31;
  std::size_t total = 2 + 4;
  for (const auto& piece : pieces) total += piece.size();
  std::vector<unsigned char> stream;
  stream.reserve(total);
  stream.push_back(static_cast<unsigned char>(header >> 8));
  stream.push_back(static_cast<unsigned char>(header & 0xff));
  for (auto& piece : pieces) {
    stream.insert(stream.end(), piece.begin(), piece.end());
    std::vector<unsigned char>().swap(piece);
  }
  // The trailer: Adler-32 of the whole input, big-endian. zlib's adler32 takes a uInt length.
  uLong adler = adler32(0, nullptr, 0);
  for (std::size_t at = 0; at < input.size(); at += kChunkBytes) {
    const std::size_t length = std::min(kChunkBytes, input.size() - at);
    adler = adler32(adler, input.data() + at, static_cast<uInt>(length));
  }
  for (int shift = 24; shift >= 0; shift -= 8) {
    stream.push_back(static_cast<unsigned char>(adler >> shift));
  }
  return stream;
}

}  // namespace rastros
