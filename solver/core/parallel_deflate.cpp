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

constexpr int kWindowBits = 15;

/// `input` as raw deflate: primed with `dictionary` (the bytes before it), ended with a sync
/// flush, or for the last piece of the stream with the final block.
std::vector<unsigned char> deflate_piece(std::span<const unsigned char> dictionary,
                                         std::span<const unsigned char> input, bool last,
                                         int level) {
  z_stream stream{};
  // Negative window bits: raw deflate, no zlib header or trailer of its own.
  const int status = deflateInit2(&stream, level, Z_DEFLATED, -kWindowBits, 8, Z_DEFAULT_STRATEGY);
  if (status == Z_MEM_ERROR) throw std::bad_alloc();
  if (status != Z_OK) throw std::runtime_error("zlib: deflateInit2 failed");
  struct End {
    z_stream* stream;
    ~End() { deflateEnd(stream); }
  } end_stream{&stream};
  if (!dictionary.empty()) {
    if (deflateSetDictionary(&stream, dictionary.data(), static_cast<uInt>(dictionary.size())) !=
        Z_OK) {
      throw std::runtime_error("zlib: deflateSetDictionary failed");
    }
  }
  // The bound plus room for the sync flush's empty stored block; grown if ever short.
  std::vector<unsigned char> output(deflateBound(&stream, input.size()) + 64);
  stream.next_in = const_cast<Bytef*>(input.data());
  stream.avail_in = static_cast<uInt>(input.size());
  const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
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

std::size_t deflate_piece_count(std::size_t total) {
  return std::max<std::size_t>(1, (total + kDeflatePieceBytes - 1) / kDeflatePieceBytes);
}

ByteRange deflate_window(std::size_t total, std::size_t first, std::size_t last) {
  if (first >= last) return {};
  const std::size_t begin = first * kDeflatePieceBytes;
  return {begin - std::min(begin, kDeflateDictionaryBytes),
          std::min(total, last * kDeflatePieceBytes)};
}

DeflatedPieces deflate_pieces(std::span<const unsigned char> window, std::size_t window_offset,
                              std::size_t total, std::size_t first, std::size_t last, int level) {
  const std::size_t pieces = deflate_piece_count(total);
  if (first > last || last > pieces) {
    throw std::invalid_argument("deflate_pieces: pieces out of range");
  }
  DeflatedPieces result;
  if (first == last) return result;
  const ByteRange needed = deflate_window(total, first, last);
  if (needed.begin < window_offset || needed.end > window_offset + window.size()) {
    throw std::invalid_argument("deflate_pieces: the window does not hold the pieces' bytes");
  }
  std::vector<std::vector<unsigned char>> deflated(last - first);
  std::vector<std::uint32_t> adlers(last - first);
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(
      first, last, thread_sanitizer::handed_off([&](std::size_t index) {
        const std::size_t begin = index * kDeflatePieceBytes;
        const std::size_t end = std::min(total, begin + kDeflatePieceBytes);
        const std::size_t from = begin - std::min(begin, kDeflateDictionaryBytes);
        const auto input = window.subspan(begin - window_offset, end - begin);
        deflated[index - first] = deflate_piece(window.subspan(from - window_offset, begin - from),
                                                input, index + 1 == pieces, level);
        adlers[index - first] = static_cast<std::uint32_t>(
            adler32(adler32(0, nullptr, 0), input.data(), static_cast<uInt>(input.size())));
        thread_sanitizer::publish(&finished);
      }));
  thread_sanitizer::acquire(&finished);
  std::size_t size = 0;
  for (const auto& piece : deflated) size += piece.size();
  result.bytes.reserve(size);
  for (std::size_t index = first; index != last; ++index) {
    std::vector<unsigned char>& piece = deflated[index - first];
    result.bytes.insert(result.bytes.end(), piece.begin(), piece.end());
    std::vector<unsigned char>().swap(piece);
    const std::size_t length =
        std::min(total, (index + 1) * kDeflatePieceBytes) - index * kDeflatePieceBytes;
    result.adler = combine_adler32(result.adler, adlers[index - first], length);
    result.input_bytes += length;
  }
  return result;
}

std::vector<unsigned char> zlib_stream(std::span<const unsigned char> pieces, std::uint32_t adler,
                                       int level) {
  // The zlib header as deflate() writes it: method and window, then the level hint, padded so
  // that the two bytes read as a multiple of 31.
  const int effective_level = level == Z_DEFAULT_COMPRESSION ? 6 : level;
  const unsigned level_hint = effective_level < 2    ? 0
                              : effective_level < 6  ? 1
                              : effective_level == 6 ? 2
                                                     : 3;
  unsigned header = (Z_DEFLATED + ((kWindowBits - 8) << 4)) << 8 | level_hint << 6;
  header += 31 - header % 31;
  std::vector<unsigned char> stream;
  stream.reserve(2 + pieces.size() + 4);
  stream.push_back(static_cast<unsigned char>(header >> 8));
  stream.push_back(static_cast<unsigned char>(header & 0xff));
  stream.insert(stream.end(), pieces.begin(), pieces.end());
  // The trailer: Adler-32 of the whole input, big-endian.
  for (int shift = 24; shift >= 0; shift -= 8) {
    stream.push_back(static_cast<unsigned char>(adler >> shift));
  }
  return stream;
}

std::uint32_t combine_adler32(std::uint32_t first, std::uint32_t second,
                              std::size_t second_length) {
  return static_cast<std::uint32_t>(
      adler32_combine(first, second, static_cast<z_off_t>(second_length)));
}

std::vector<unsigned char> deflate_in_parallel(std::span<const unsigned char> input, int level) {
  const DeflatedPieces pieces =
      deflate_pieces(input, 0, input.size(), 0, deflate_piece_count(input.size()), level);
  return zlib_stream(pieces.bytes, pieces.adler, level);
}

}  // namespace rastros
