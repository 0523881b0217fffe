#pragma once
// Checkpoints of a strong solve (retro/strong_solver.hpp). The forward pass is cheap to redo
// and deterministic, so a checkpoint holds only what the backward pass has valued: one file per
// valued layer with its records in key order, and a state file naming the game and how many
// layers (from region size 0 up) are valued.
//
//   DIR/strong.checkpoint      core/checkpoint_file.hpp, kind "strong": game, valued_layers
//   DIR/layer-NN.records       per layer, little-endian:
//       magic "RSTRLAYR" | u32 version | u32 region size | u64 count | u32 CRC-32 of the keys
//       | count x 3 bytes (value, remoteness, best move) | u32 CRC-32 of all the bytes before
//
// The keys' checksum ties the records to the layer the resumed forward pass rebuilds: if the
// code or the game changed in between, the resume is refused instead of pairing records with
// the wrong keys.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "retro/strong_solver.hpp"

namespace rastros {

/// CRC-32 of keys in their stored order (free mask as 8 little-endian bytes, then the snail).
std::uint32_t keys_checksum(std::span<const PackedPosition> keys);

void write_layer_records(const std::filesystem::path& directory, int region_size,
                         std::uint32_t keys_crc, std::span<const StrongRecord> records);

/// Throws FileError when the file is missing, damaged, or not for a layer of `count` keys with
/// checksum `keys_crc`.
std::vector<StrongRecord> read_layer_records(const std::filesystem::path& directory,
                                             int region_size, std::size_t count,
                                             std::uint32_t keys_crc);

/// How many layers the strong checkpoint DIR/strong.checkpoint holds valued (0 when there is
/// none). `ranks` > 0: it must have been written by that many MPI ranks. Throws InputError
/// when one exists without `resume`, is of another game or of another rank count, FileError
/// when it is damaged.
int valued_layers_to_resume(const std::filesystem::path& directory, const Rastros& rastros,
                            bool resume, int ranks = 0);

/// Records in DIR/strong.checkpoint that layers 0..valued_layers-1 are saved (`ranks` > 0:
/// by that many MPI ranks).
void write_strong_state(const std::filesystem::path& directory, const Rastros& rastros,
                        int valued_layers, int ranks = 0);

}  // namespace rastros
