#include "core/checkpoint_file.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"

namespace rastros {
namespace {

constexpr std::string_view kMagic = "rastros-checkpoint";
// A checkpoint is a few hundred bytes; anything far larger is not one.
constexpr std::uintmax_t kMaxCheckpointBytes = 1 << 20;

std::string hex(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", value);
  return text;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw FileError("checkpoint " + path.string() + ": " + problem);
}

}  // namespace

const std::string& Checkpoint::text(std::string_view name) const {
  const auto found = fields.find(std::string(name));
  if (found == fields.end()) fail(path, "field '" + std::string(name) + "' is missing");
  return found->second;
}

std::uint64_t Checkpoint::number(std::string_view name) const {
  const std::string& value = text(name);
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) {
    fail(path, "field '" + std::string(name) + "' is not a number");
  }
  return number;
}

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint) {
  std::string text = std::string(kMagic) + " " + std::to_string(kCheckpointFormatVersion) + "\n";
  text += "kind " + checkpoint.kind + "\n";
  for (const auto& [name, value] : checkpoint.fields) {
    if (name.empty() || name.find_first_of(" \n") != std::string::npos ||
        value.find('\n') != std::string::npos) {
      throw std::invalid_argument("checkpoint field '" + name + "' cannot be written");
    }
    text += name + " " + value + "\n";
  }
  text += "crc32 " + hex(crc32_of(text)) + "\n";
  write_file_atomically(path, {reinterpret_cast<const unsigned char*>(text.data()), text.size()},
                        "checkpoint");
}

void prepare_checkpoint_directory(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory)) {
    throw InputError("cannot use checkpoint directory " + directory.string() +
                     (error ? ": " + error.message() : ": not a directory"));
  }
}

void remove_checkpoint(const std::filesystem::path& path) {
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const std::string prefix = path.filename().string() + ".tmp.";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().filename().string().starts_with(prefix)) {
      std::filesystem::remove(entry.path(), error);
    }
  }
  std::filesystem::remove(path);
}

std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path,
                                          std::string_view expected_kind) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) {
    if (!std::filesystem::exists(path)) return std::nullopt;
    fail(path, "cannot read: " + error.message());
  }
  if (size > kMaxCheckpointBytes) fail(path, "too large to be a checkpoint");
  std::ifstream file(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) fail(path, "cannot read");

  // The checksum line is the last one; everything before it is covered.
  const std::size_t last = text.size() >= 2 ? text.rfind('\n', text.size() - 2) : std::string::npos;
  if (text.empty() || text.back() != '\n' || last == std::string::npos ||
      text.compare(last + 1, 6, "crc32 ") != 0) {
    fail(path, "truncated");
  }
  const std::string body = text.substr(0, last + 1);
  if (text.substr(last + 7, text.size() - last - 8) != hex(crc32_of(body))) {
    fail(path, "checksum mismatch (corrupt)");
  }
  std::istringstream lines(body);
  std::string line;
  std::getline(lines, line);
  if (!line.starts_with(std::string(kMagic) + " ")) fail(path, "not a rastros checkpoint");
  const std::string version = line.substr(kMagic.size() + 1);
  if (version != std::to_string(kCheckpointFormatVersion)) {
    fail(path, "format version " + version + ", this build reads " +
                   std::to_string(kCheckpointFormatVersion));
  }
  Checkpoint checkpoint;
  checkpoint.path = path;
  while (std::getline(lines, line)) {
    const std::size_t space = line.find(' ');
    if (space == std::string::npos) fail(path, "malformed line '" + line + "'");
    const std::string name = line.substr(0, space);
    if (name == "kind" && checkpoint.kind.empty()) {
      checkpoint.kind = line.substr(space + 1);
    } else {
      checkpoint.fields[name] = line.substr(space + 1);
    }
  }
  if (checkpoint.kind != expected_kind) {
    fail(path, "is a '" + checkpoint.kind + "' checkpoint, expected '" +
                   std::string(expected_kind) + "'");
  }
  return checkpoint;
}

}  // namespace rastros
