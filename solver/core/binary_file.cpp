#include "core/binary_file.hpp"

#include <algorithm>
#include <string>

#include "core/atomic_file.hpp"
#include "core/crc32.hpp"
#include "core/regular_file.hpp"

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

BinaryFileWriter::BinaryFileWriter(const std::filesystem::path& path, std::string_view magic,
                                   std::uint32_t version, std::string_view what)
    : file_(path, what) {
  write(begin_binary_file(magic, version));
}

void BinaryFileWriter::write(std::span<const unsigned char> bytes) {
  crc_ = crc32_update(crc_, bytes);
  file_.write(bytes);
}

void BinaryFileWriter::commit() {
  std::vector<unsigned char> crc;
  put_le(crc, crc_, 4);
  file_.write(crc);
  file_.commit();
}

FileError binary_file_error(std::string_view what, const std::filesystem::path& path,
                            const std::string& problem) {
  return FileError(std::string(what) + " " + path.string() + ": " + problem);
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
  const RegularFile file(path, UINT64_MAX, std::string(what));
  if (file.size() < kBinaryHeaderBytes + 4) throw fail("truncated");
  std::vector<unsigned char> in(static_cast<std::size_t>(file.size()));
  file.read_into(0, in);
  const std::uint64_t stored_crc = get_le(in, in.size() - 4, 4);
  in.erase(in.end() - 4, in.end());
  if (stored_crc != crc32_of(in)) throw fail("checksum mismatch (corrupt)");
  if (!std::equal(magic.begin(), magic.end(), in.begin())) throw fail("bad magic");
  const auto version = static_cast<std::uint32_t>(get_le(in, 8, 4));
  if (version < oldest || version > newest) throw fail("format version " + std::to_string(version));
  return {std::move(in), version};
}

}  // namespace rastros
