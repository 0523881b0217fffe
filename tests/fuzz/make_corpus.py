#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (run again only to change the seeds).

Usage: make_corpus.py path/to/rastros

fuzz_notation inputs: three variant bytes (see fuzz_notation.cpp) and a text.
fuzz_database inputs: one mode byte (even: as is; odd: size and CRC repaired) and a file image:
tiny strong and strategy databases written by `rastros solve --db`, each also re-stored with
raw (uncompressed) blocks so that mutations reach the key, value and move columns directly.
The v1-* seeds are the same databases in format 1, written by an earlier build and kept.
The bomb-* seeds (sizes claimed in bomb range behind valid checksums) come from
database_bombs.py: database_bombs.py small.rdb corpus/fuzz_database/bomb --corpus.
"""
import binascii
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def variant(width, height, orthogonal=False, stuck_draw=False, start=None):
    b0 = width - 2
    b1 = (height - 2) | (0x80 if orthogonal else 0)
    assert 2 + (b1 & 0x7f) % (64 // width - 1) == height
    b2 = (0x40 if stuck_draw else 0) | ((0x80 | start) if start is not None else 0)
    return bytes([b0, b1, b2])


def notation_seeds():
    seven = variant(7, 7)
    five = variant(5, 5)
    four_orth = variant(4, 4, orthogonal=True, stuck_draw=True, start=5)
    ten = variant(10, 3)
    texts = {
        seven: ["7x7", "5X5", "8x8", "7by7", "0x9", "26x2", "d4", "a1", "g7", "h8", "z9", "3c",
                "d0", "d04", "c3 b2 c1", "c3 b2 a1", "c3 b2 a1 b1", "c3 e5", "c3 d4", "c3  e3 ",
                "7/7/7/3o3/7/7/7 1", "7/7/7/3x3/2o4/7/7 2", "7/7/7/7/7/7/7 1",
                "6o/7/7/7/7/7/7 1", "7/7/7/3o2/7/7/7 1", "7/7/7/3o3/7/7/7 3",
                "xxxxxx1/7/7/3o3/7/7/7 2", "7/7/7/3oo2/7/7/7 1", "7/7/7/3o3/7/7/7/7 1",
                "7/7/7/3o3/7/7/x6 1", "10/7/7/3o3/7/7/7 1", "standard", "stuck-draw", "king",
                "orthogonal"],
        five: ["5/5/2o2/5/5 1", "5/1x3/1xo2/5/5 2", "c3", "b2 a1", "b2 c1 d2 e3"],
        four_orth: ["4/4/1o2/4 1", "b3", "b3 c3 c4", "a2", "x3/4/4/o3 1"],
        ten: ["10/4o5/10 1", "j3", "i2", "e2 f1", "2x7/x3o5/10 2"],
    }
    seeds = {}
    for selector, lines in texts.items():
        for text in lines:
            seeds[selector + text.encode()] = None
    return list(seeds)


def raw_copy(data):
    """The same database with every block stored raw (codec 0), sizes and CRC-32s fixed."""
    (header_length,) = struct.unpack_from("<I", data, 20)
    words = data[24:24 + header_length].decode().split()
    count, block_positions = int(words[-4]), int(words[-2])
    if words[8] == "2":  # a proof database has one more word, its leaf size
        count = int(words[-5])
    blocks = -(-count // block_positions)
    index_at = 24 + header_length
    at = index_at + 24 * blocks + 4
    entries, stored = [], []
    for j in range(blocks):
        entry = list(struct.unpack_from("<QBBHIII", data, index_at + 24 * j))
        block = data[at:at + entry[5]]
        at += entry[5]
        payload = zlib.decompress(block, -15) if entry[2] == 1 else block
        entries.append(entry[:2] + [0, 0, entry[4], len(payload),
                                    binascii.crc32(payload) & 0xFFFFFFFF])
        stored.append(payload)
    words[-1] = str(sum(len(b) for b in stored))
    header = (" ".join(words) + "\n").encode()
    index = b"".join(struct.pack("<QBBHIII", *entry) for entry in entries)
    size = 24 + len(header) + len(index) + 4 + sum(len(b) for b in stored) + 4
    front = data[:12] + struct.pack("<QI", size, len(header)) + header + index
    out = front + struct.pack("<I", binascii.crc32(front) & 0xFFFFFFFF) + b"".join(stored)
    return out + struct.pack("<I", binascii.crc32(out) & 0xFFFFFFFF)


def database_seeds(rastros):
    builds = {
        "2x3": ["--board", "2x3"],
        "3x3": ["--board", "3x3"],
        "4x3": ["--board", "4x3"],
        "4x3-orthogonal-draw": ["--board", "4x3", "--steps", "orthogonal", "--rules",
                                "stuck-draw"],
        "4x3-strategy": ["--board", "4x3", "--kind", "strategy", "--book-depth", "1"],
    }
    seeds = {}
    with tempfile.TemporaryDirectory() as work:
        for name, options in builds.items():
            path = os.path.join(work, name + ".rdb")
            subprocess.run([rastros, "solve", "--db", path, "--quiet"] + options, check=True,
                           stdout=subprocess.DEVNULL)
            data = open(path, "rb").read()
            seeds[name] = b"\x00" + data
            seeds[name + "-raw"] = b"\x01" + raw_copy(data)
    seeds["empty-file"] = b"\x00"
    seeds["text"] = b"\x00not a database at all\n"
    seeds["magic-only"] = b"\x00\x89RDB\r\n\x1a\n"
    return seeds


def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as out:
        out.write(data)


def main():
    rastros = sys.argv[1]
    for i, seed in enumerate(notation_seeds()):
        write(os.path.join(HERE, "corpus", "fuzz_notation"), "seed-%03d" % i, seed)
    for name, seed in database_seeds(rastros).items():
        write(os.path.join(HERE, "corpus", "fuzz_database"), "seed-" + name, seed)


if __name__ == "__main__":
    main()
