#pragma once
// Crash-safe file replacement: every file the tools write (databases, checkpoints, batch
// output) goes through here, so a reader never sees half a file under its final name.

#include <filesystem>
#include <span>
#include <string_view>

namespace rastros {

/// Writes `bytes` to a new temporary file in the directory of `path`, fsyncs it, renames it
/// over `path` and fsyncs the directory: after a crash at any moment `path` holds either its
/// previous contents (or nothing) or the complete new file. Throws std::system_error naming
/// `what` ("database", "checkpoint") and `path` after removing the temporary file when a step
/// fails.
void write_file_atomically(const std::filesystem::path& path, std::span<const unsigned char> bytes,
                           std::string_view what);

}  // namespace rastros
