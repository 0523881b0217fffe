#pragma once
// zlib compression of a large buffer on every thread, with the same bytes whatever the number
// of threads (the pigz scheme).
//
// The input is cut into fixed 1 MiB chunks. Each chunk is deflated on its own as raw deflate,
// primed with the 32 KiB before it as its dictionary (so matches reaching back across the cut
// are still found, and the stream is within a fraction of a percent of a one-piece stream), and
// ended with a sync flush, which pads it to a byte boundary. The chunks, concatenated between a
// zlib header and the Adler-32 of the whole input, are one ordinary zlib stream: `uncompress()`
// reads it as it reads any other.

#include <cstddef>
#include <span>
#include <vector>

namespace rastros {

/// A zlib stream (RFC 1950) of `input` at `level` (0-9, or -1 for zlib's default, 6). The chunks
/// are compressed in parallel on the calling thread's TBB arena. Throws std::bad_alloc when zlib
/// cannot allocate its state, std::runtime_error on any other zlib failure.
std::vector<unsigned char> deflate_in_parallel(std::span<const unsigned char> input, int level);

}  // namespace rastros
