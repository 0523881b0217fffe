#pragma once
// zlib compression of a large buffer on every thread, with the same bytes whatever the number
// of threads (the pigz scheme), and, for a buffer spread over several processes, piece by
// piece on each (cluster/distributed_database_writer.hpp).
//
// The input is cut into fixed 1 MiB pieces. Each piece is deflated on its own as raw deflate,
// primed with the 32 KiB before it as its dictionary (so matches reaching back across the cut
// are still found, and the stream is within a fraction of a percent of a one-piece stream), and
// ended with a sync flush, which pads it to a byte boundary. The pieces, concatenated between a
// zlib header and the Adler-32 of the whole input, are one ordinary zlib stream: `uncompress()`
// reads it as it reads any other. A piece depends only on its own bytes and the 32 KiB before
// them, so any process holding those can deflate it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rastros {

/// The input bytes each piece covers (the last piece may be shorter).
inline constexpr std::size_t kDeflatePieceBytes = std::size_t{1} << 20;
/// The input bytes before a piece that prime it (deflate's whole window).
inline constexpr std::size_t kDeflateDictionaryBytes = std::size_t{1} << 15;

/// A zlib stream (RFC 1950) of `input` at `level` (0-9, or -1 for zlib's default, 6). The pieces
/// are compressed in parallel on the calling thread's TBB arena. Throws std::bad_alloc when zlib
/// cannot allocate its state, std::runtime_error on any other zlib failure.
std::vector<unsigned char> deflate_in_parallel(std::span<const unsigned char> input, int level);

/// How many pieces an input of `total` bytes is cut into (at least one: an empty input is one
/// empty piece, which still ends the stream).
std::size_t deflate_piece_count(std::size_t total);

/// Pieces [first, last) of an input of `total` bytes, deflated in parallel, end to end.
struct DeflatedPieces {
  std::vector<unsigned char> bytes;
  std::uint32_t adler = 1;      // Adler-32 of the pieces' input (1: of nothing)
  std::size_t input_bytes = 0;  // how many input bytes the pieces cover
};

/// Deflates pieces [first, last) of an input of `total` bytes of which `window` holds bytes
/// [window_offset, window_offset + window.size()); it must hold every byte of the pieces and
/// the dictionary before the first. Throws std::invalid_argument when it does not, and as
/// deflate_in_parallel does.
DeflatedPieces deflate_pieces(std::span<const unsigned char> window, std::size_t window_offset,
                              std::size_t total, std::size_t first, std::size_t last, int level);

/// The input bytes [begin, end) that deflate_pieces(…, first, last, …) reads.
struct ByteRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};
ByteRange deflate_window(std::size_t total, std::size_t first, std::size_t last);

/// The zlib stream of the pieces of a whole input at `level`: header, `pieces` (every piece in
/// order, end to end) and the input's Adler-32.
std::vector<unsigned char> zlib_stream(std::span<const unsigned char> pieces, std::uint32_t adler,
                                       int level);

/// The Adler-32 of two inputs end to end, from each one's Adler-32 and the second's length.
std::uint32_t combine_adler32(std::uint32_t first, std::uint32_t second, std::size_t second_length);

}  // namespace rastros
