#include "games/reversi/reversi_piece_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "core/atomic_file.hpp"
#include "core/binary_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"

namespace rastros::reversi {

namespace {

constexpr std::string_view kMagic = "RVSPLIT1";
constexpr std::size_t kHeaderBytes = 20;
constexpr std::size_t kRecordBytes = 32;
constexpr std::string_view kWhat = "split-job checkpoint";

std::vector<unsigned char> encode(const PieceRecord& record) {
  std::vector<unsigned char> out;
  put_le(out, record.key.mine, 8);
  put_le(out, record.key.theirs, 8);
  put_le(out, static_cast<std::uint8_t>(record.alpha), 1);
  put_le(out, static_cast<std::uint8_t>(record.beta), 1);
  put_le(out, static_cast<std::uint8_t>(record.result), 1);
  put_le(out, 0, 1);
  put_le(out, record.nodes, 8);
  put_le(out, crc32_of(out), 4);
  return out;
}

int signed_byte(std::span<const unsigned char> in, std::size_t at) {
  return static_cast<std::int8_t>(in[at]);
}

PieceRecord decode(std::span<const unsigned char> in) {
  PieceRecord record;
  record.key = {get_le(in, 0, 8), get_le(in, 8, 8)};
  record.alpha = signed_byte(in, 16);
  record.beta = signed_byte(in, 17);
  record.result = signed_byte(in, 18);
  record.nodes = get_le(in, 20, 8);
  return record;
}

bool crc_holds(std::span<const unsigned char> in, std::size_t bytes) {
  return get_le(in, bytes - 4, 4) == crc32_of(in.first(bytes - 4));
}

// A record that passed its CRC but could not have been written by the job: another program's
// bytes, never to be resumed from.
bool plausible(const PieceRecord& r, int n) {
  const Bits inside = inside_mask(n);
  const int bound = n * n;
  return (r.key.mine & r.key.theirs) == 0 && ((r.key.mine | r.key.theirs) & ~inside) == 0 &&
         -bound <= r.alpha && r.alpha < r.beta && r.beta <= bound && -bound <= r.result &&
         r.result <= bound;
}

std::vector<unsigned char> read_all(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<unsigned char> in((std::istreambuf_iterator<char>(file)), {});
  if (file.bad()) throw binary_file_error(kWhat, path, "cannot read");
  return in;
}

}  // namespace

PieceLog::PieceLog(const std::filesystem::path& directory, int n, bool resume)
    : path_(directory / kPieceLogName) {
  prepare_checkpoint_directory(directory);
  const bool exists = std::filesystem::exists(path_);
  if (exists && !resume) {
    throw InputError("the checkpoint directory " + directory.string() +
                     " already holds a split job: add --resume to go on with it, or choose "
                     "another directory");
  }
  if (exists) {
    load(n);
  } else {
    create(n);
  }
}

PieceLog::~PieceLog() {
  if (fd_ >= 0) ::close(fd_);
}

void PieceLog::create(int n) {
  std::vector<unsigned char> header = begin_binary_file(kMagic, kPieceLogVersion);
  put_le(header, static_cast<std::uint32_t>(n), 4);
  finish_binary_file(path_, std::move(header), kWhat);
}

void PieceLog::load(int n) {
  const std::vector<unsigned char> in = read_all(path_);
  const auto fail = [&](const std::string& problem) {
    return binary_file_error(kWhat, path_, problem);
  };
  if (in.size() < kHeaderBytes) throw fail("truncated header");
  const std::span<const unsigned char> bytes(in);
  if (!std::equal(kMagic.begin(), kMagic.end(), in.begin()))
    throw fail("not a Reversi split-job checkpoint");
  if (!crc_holds(bytes, kHeaderBytes)) throw fail("header checksum mismatch (corrupt)");
  if (get_le(bytes, 8, 4) != kPieceLogVersion) {
    throw fail("format version " + std::to_string(get_le(bytes, 8, 4)) + ", this program reads " +
               std::to_string(kPieceLogVersion));
  }
  const auto board = get_le(bytes, 12, 4);
  if (board != static_cast<std::uint64_t>(n)) {
    throw fail("written for a " + std::to_string(board) + "x" + std::to_string(board) +
               " board, not " + std::to_string(n) + "x" + std::to_string(n));
  }
  std::size_t at = kHeaderBytes;
  for (; at + kRecordBytes <= in.size(); at += kRecordBytes) {
    const auto record_bytes = bytes.subspan(at, kRecordBytes);
    const bool last = at + kRecordBytes == in.size();
    if (!crc_holds(record_bytes, kRecordBytes)) {
      if (last) break;  // the append a crash cut short: dropped
      throw fail("record " + std::to_string(records_.size() + 1) + " checksum mismatch (corrupt)");
    }
    const PieceRecord record = decode(record_bytes);
    if (!plausible(record, n))
      throw fail("record " + std::to_string(records_.size() + 1) +
                 " is not a position of the board");
    records_.push_back(record);
  }
  // The torn tail cut off, so that the next record follows the last whole one.
  if (at != in.size()) std::filesystem::resize_file(path_, at);
}

void PieceLog::append(const PieceRecord& record) {
  // Opened at the first append only: a finished job's log (read-only, say) is just read.
  if (fd_ < 0) fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) {
    throw binary_file_error(kWhat, path_, std::string("cannot open: ") + std::strerror(errno));
  }
  const std::vector<unsigned char> bytes = encode(record);
  const auto fail = [&] {
    return binary_file_error(kWhat, path_, std::string("cannot append: ") + std::strerror(errno));
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t now = ::write(fd_, bytes.data() + written, bytes.size() - written);
    if (now < 0 && errno == EINTR) continue;
    if (now <= 0) throw fail();
    written += static_cast<std::size_t>(now);
  }
  if (::fsync(fd_) != 0) throw fail();
}

}  // namespace rastros::reversi
