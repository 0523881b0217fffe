#pragma once
// Crash-safe file replacement: every file the tools write (databases, checkpoints, batch
// output) goes through here, so a reader never sees half a file under its final name.

#include <filesystem>
#include <span>
#include <string_view>

namespace rastros {

/// The file a write to `path` replaces: `path` itself or, when `path` is a symbolic link, the
/// file it leads to (the link is kept, and the new file appears where it points). Throws
/// InputError naming `what` when that exists and is not a regular file: a rename would replace
/// a directory's entry, a device, a pipe or a socket instead of writing to it.
std::filesystem::path replaceable_file(const std::filesystem::path& path, std::string_view what);

/// Writes `bytes` to a new temporary file in the directory of replaceable_file(path), fsyncs
/// it, renames it over that file and fsyncs the directory: after a crash at any moment `path`
/// holds either its previous contents (or nothing) or the complete new file. Throws
/// std::system_error naming `what` ("database", "checkpoint") and `path` after removing the
/// temporary file when a step fails (InputError from replaceable_file before any).
void write_file_atomically(const std::filesystem::path& path, std::span<const unsigned char> bytes,
                           std::string_view what);

}  // namespace rastros
