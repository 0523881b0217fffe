#!/usr/bin/env python3
"""Database files (format 2) whose header or block index claims a huge size behind valid
checksums: decompression bombs that a loader must refuse (exit 3) before allocating.

Usage: database_bombs.py SMALL.rdb PREFIX [--corpus]

Writes PREFIX-NAME.rdb for each bomb, made from SMALL.rdb (a strong or strategy database of
format 2, such as `rastros solve --db small.rdb --board 3x3`). With --corpus, writes
PREFIX-NAME instead, each with the leading mode byte of tests/fuzz/fuzz_database.cpp (0: the
bytes as they are), as seeds of its corpus (tests/fuzz/corpus/fuzz_database/bomb-*).
"""
import binascii
import struct
import sys

PREAMBLE = 24  # magic (8), version (4), file size (8), header length (4)
ENTRY = 24     # a block index entry: first key (8), key byte (1), codec (1), 0 (2), key bytes,
               # stored bytes, CRC-32 (4 each)


def crc(data):
    return struct.pack("<I", binascii.crc32(data) & 0xFFFFFFFF)


def split(data):
    """The header's words, the index entries and the stored blocks of a format 2 file."""
    assert data[8] == 2, "format 2 only"
    (header_length,) = struct.unpack_from("<I", data, 20)
    words = data[PREAMBLE:PREAMBLE + header_length].decode().split()
    count_at = -5 if words[8] == "2" else -4  # a proof database has one more word, its leaf size
    blocks = -(-int(words[count_at]) // int(words[-2]))
    index_at = PREAMBLE + header_length
    entries = [bytearray(data[index_at + ENTRY * j:index_at + ENTRY * (j + 1)])
               for j in range(blocks)]
    stored = data[index_at + ENTRY * blocks + 4:-4]
    return words, count_at, entries, stored


def join(words, entries, stored, header_length=None, size=None):
    """The file again, its size field and both checksums made to match (unless overridden)."""
    header = (" ".join(words) + "\n").encode()
    index = b"".join(bytes(entry) for entry in entries)
    total = PREAMBLE + len(header) + len(index) + 4 + len(stored) + 4
    front = (b"\x89RDB\r\n\x1a\n" + struct.pack("<IQI", 2, total if size is None else size,
                                                 len(header) if header_length is None
                                                 else header_length) + header + index)
    body = front + crc(front) + stored
    return body + crc(body)


def bombs(data):
    words, count_at, entries, stored = split(data)

    def with_words(**changes):
        changed = list(words)
        for at, value in changes.values():
            changed[at] = str(value)
        return join(changed, entries, stored)

    def with_entry(offset, value):
        changed = [bytearray(entry) for entry in entries]
        struct.pack_into("<I", changed[0], offset, value)
        return join(words, changed, stored)

    return {
        "positions": with_words(count=(count_at, 1 << 40)),
        "positions-blocks": with_words(count=(count_at, 1 << 40), block=(-2, 1 << 20)),
        "stored-bytes": with_words(stored=(-1, 1 << 62)),
        "block-key-bytes": with_entry(12, 0xFFFFFFF0),
        "block-stored-bytes": with_entry(16, 0xFFFFFFF0),
        "header-length": join(words, entries, stored, header_length=0xFFFFFFF0),
        "file-size": join(words, entries, stored, size=1 << 62),
    }


def main():
    small, prefix = sys.argv[1], sys.argv[2]
    corpus = "--corpus" in sys.argv[3:]
    for name, data in bombs(open(small, "rb").read()).items():
        path = prefix + "-" + name + ("" if corpus else ".rdb")
        with open(path, "wb") as out:
            out.write((b"\x00" if corpus else b"") + data)


if __name__ == "__main__":
    main()
