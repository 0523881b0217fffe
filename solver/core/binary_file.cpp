#include "core/binary_file.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include "core/atomic_file.hpp"
#include "core/crc32.hpp"

namespace rastros {

void put_le(std::vector<unsigned char>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

std::uint64_t get_le(std::span<const unsigned char> in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
  }
  return value;
}

std::vector<unsigned char> begin_binary_file(std::string_view magic, std::uint32_t version) {
  std::vector<unsigned char> out(magic.begin(), magic.end());
  put_le(out, version, 4);
  return out;
}

void finish_binary_file(const std::filesystem::path& path, std::vector<unsigned char> bytes,
                        std::string_view what) {
  put_le(bytes, crc32_of(bytes), 4);
  write_file_atomically(path, bytes, what);
}

FileError binary_file_error(std::string_view what, const std::filesystem::path& path,
                            const std::string& problem) {
  return FileError(std::string(what) + " " + path.string() + ": " + problem);
}

std::uint64_t regular_file_size(const std::filesystem::path& path, std::string_view what) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) {
    throw binary_file_error(what, path, "missing");
  }
  if (error) throw binary_file_error(what, path, "cannot read: " + error.message());
  if (!std::filesystem::is_regular_file(status)) {
    throw binary_file_error(what, path, "not a regular file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw binary_file_error(what, path, "cannot read: " + error.message());
  return size;
}

std::vector<unsigned char> read_binary_file(const std::filesystem::path& path,
                                            std::string_view magic, std::uint32_t version,
                                            std::string_view what) {
  return read_binary_file(path, magic, version, version, what).bytes;
}

VersionedBinaryFile read_binary_file(const std::filesystem::path& path, std::string_view magic,
                                     std::uint32_t oldest, std::uint32_t newest,
                                     std::string_view what) {
  const auto fail = [&](const std::string& problem) {
    return binary_file_error(what, path, problem);
  };
  const std::uint64_t size = regular_file_size(path, what);
  if (size < kBinaryHeaderBytes + 4) throw fail("truncated");
  std::ifstream file(path, std::ios::binary);
  std::vector<unsigned char> in(static_cast<std::size_t>(size));
  if (!file.read(reinterpret_cast<char*>(in.data()), static_cast<std::streamsize>(size))) {
    throw fail("cannot read");
  }
  const std::uint64_t stored_crc = get_le(in, in.size() - 4, 4);
  in.erase(in.end() - 4, in.end());
  if (stored_crc != crc32_of(in)) throw fail("checksum mismatch (corrupt)");
  if (!std::equal(magic.begin(), magic.end(), in.begin())) throw fail("bad magic");
  const auto version = static_cast<std::uint32_t>(get_le(in, 8, 4));
  if (version < oldest || version > newest) throw fail("format version " + std::to_string(version));
  return {std::move(in), version};
}

}  // namespace rastros
