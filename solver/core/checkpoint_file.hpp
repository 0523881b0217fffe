#pragma once
// Checkpoint files: the small state from which an interrupted job (a batch, a map) resumes.
//
// A checkpoint is a few named text fields, written atomically (core/atomic_file.hpp) as
//
//   rastros-checkpoint 1          magic word and format version
//   kind batch                    which job wrote it
//   input_offset 123456           fields, one per line: name, one space, value (no newline)
//   ...
//   crc32 1a2b3c4d                CRC-32 of every byte before this line
//
// Text because it is tiny and a person debugging a stuck cluster job can read it; the
// checksum because a person (or a disk) can also damage it, and resuming from a damaged
// checkpoint would silently produce wrong output.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace rastros {

inline constexpr int kCheckpointFormatVersion = 1;

struct Checkpoint {
  std::string kind;
  std::map<std::string, std::string> fields;

  /// The field's value; throws FileError naming the checkpoint when it is missing or, for
  /// numbers, not a number.
  const std::string& text(std::string_view name) const;
  std::uint64_t number(std::string_view name) const;

  std::filesystem::path path;  // where it was read from, for messages
};

/// Writes atomically. Field names must be single words, values single lines.
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);

/// Creates `directory` (and its parents) for a job's checkpoints. Throws InputError naming it
/// when that fails or the name is taken by something that is not a directory.
void prepare_checkpoint_directory(const std::filesystem::path& directory);

/// Removes the checkpoint at `path` and the temporary files of writes that a crash cut short
/// (`path.tmp.*`, see core/atomic_file.hpp), for a job that has completed.
void remove_checkpoint(const std::filesystem::path& path);

/// Reads a checkpoint; nullopt when there is none at `path`. Throws FileError when the file is
/// damaged, of another format version, or of another kind than `expected_kind`.
std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path,
                                          std::string_view expected_kind);

}  // namespace rastros
