#include "engine/score_database_file.hpp"

#include <cstdint>
#include <vector>

#include "core/binary_file.hpp"

namespace rastros::engine {

namespace {

constexpr std::string_view kMagic = "RSCOREDB";
constexpr std::uint32_t kVersion = 1;
constexpr std::string_view kWhat = "score database";

void put_name(std::vector<unsigned char>& out, const std::string& name) {
  out.push_back(static_cast<unsigned char>(name.size()));
  out.insert(out.end(), name.begin(), name.end());
}

void put_leb128(std::vector<unsigned char>& out, std::uint64_t value) {
  do {
    const auto low = static_cast<unsigned char>(value & 0x7f);
    value >>= 7;
    out.push_back(value ? low | 0x80 : low);
  } while (value);
}

/// Reads the body of a file, each read checked against its end.
class Reader {
 public:
  Reader(const std::vector<unsigned char>& bytes, const std::filesystem::path& path)
      : bytes_(bytes), path_(path), at_(kBinaryHeaderBytes) {}

  unsigned char byte() {
    if (at_ >= bytes_.size()) throw binary_file_error(kWhat, path_, "cut short");
    return bytes_[at_++];
  }
  std::string name() {
    const std::size_t length = byte();
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text.push_back(static_cast<char>(byte()));
    return text;
  }
  std::uint64_t u64() {
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return value;
  }
  std::uint64_t leb128() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const unsigned char b = byte();
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return value;
    }
    throw binary_file_error(kWhat, path_, "a key longer than 64 bits");
  }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  const std::vector<unsigned char>& bytes_;
  const std::filesystem::path& path_;
  std::size_t at_;
};

}  // namespace

void save_score_database(const std::filesystem::path& path, const ScoreDatabaseFile& file) {
  std::vector<unsigned char> bytes = begin_binary_file(kMagic, kVersion);
  put_name(bytes, file.game);
  put_name(bytes, file.variant);
  const ScoreRecords& records = file.records;
  put_le(bytes, records.keys.size(), 8);
  std::uint64_t previous = 0;
  for (const std::uint64_t key : records.keys) {
    put_leb128(bytes, key - previous);
    previous = key;
  }
  for (const std::int8_t score : records.scores) bytes.push_back(static_cast<unsigned char>(score));
  finish_binary_file(path, std::move(bytes), kWhat);
}

std::size_t encoded_record_bytes(const ScoreRecords& records) {
  std::vector<unsigned char> gaps;
  std::uint64_t previous = 0;
  for (const std::uint64_t key : records.keys) {
    put_leb128(gaps, key - previous);
    previous = key;
  }
  return gaps.size() + records.scores.size();
}

ScoreDatabaseFile load_score_database(const std::filesystem::path& path, const std::string& game,
                                      const std::string& variant) {
  const std::vector<unsigned char> bytes = read_binary_file(path, kMagic, kVersion, kWhat);
  Reader in(bytes, path);
  ScoreDatabaseFile file;
  file.game = in.name();
  file.variant = in.name();
  if (file.game != game || file.variant != variant) {
    throw binary_file_error(
        kWhat, path,
        "a database of " + file.game + " " + file.variant + ", not " + game + " " + variant);
  }
  const std::uint64_t count = in.u64();
  if (count > in.left()) throw binary_file_error(kWhat, path, "cut short");
  ScoreRecords& records = file.records;
  records.keys.reserve(count);
  std::uint64_t key = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t gap = in.leb128();
    if ((i > 0 && gap == 0) || gap > UINT64_MAX - key) {
      throw binary_file_error(kWhat, path, "keys out of order");
    }
    key += gap;
    records.keys.push_back(key);
  }
  if (in.left() != count) throw binary_file_error(kWhat, path, "the scores do not match the keys");
  records.scores.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i)
    records.scores.push_back(static_cast<std::int8_t>(in.byte()));
  return file;
}

}  // namespace rastros::engine
