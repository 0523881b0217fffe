#!/usr/bin/env python3
"""Random Rastros games for the shell tests and the MPI benchmark, one per line.

Written from the rules alone (king steps, goals a1 and the top-right corner avoided, no slime
revisited), so the input does not depend on the code under test.
Usage: random_games.py OUTPUT COUNT SEED WIDTH HEIGHT MIN_PLIES MAX_PLIES [EXTRA]
EXTRA=mixed adds comments, blank lines, bad lines and 5x5 lines among the games.
"""
import random
import sys


def main():
    output, count, seed, width, height, low, high = sys.argv[1:8]
    count, seed, width, height, low, high = map(int, (count, seed, width, height, low, high))
    mixed = len(sys.argv) > 8 and sys.argv[8] == "mixed"
    random.seed(seed)
    name = lambda s: "abcdefghijklmnopqrstuvwxyz"[s % width] + str(s // width + 1)
    goals = (0, width * height - 1)
    with open(output, "w") as out:
        for i in range(count):
            if mixed and i % 25 == 7:
                out.write("# a comment\n\nzz9\n")
            snail = width // 2 + (height // 2) * width
            slimed = {snail}
            moves = []
            for _ in range(random.randint(low, high)):
                x, y = snail % width, snail // width
                steps = [(x + dx) + (y + dy) * width for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                         if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height]
                steps = [s for s in steps if s not in slimed and s not in goals]
                if not steps:
                    break
                snail = random.choice(steps)
                slimed.add(snail)
                moves.append(name(snail))
            prefix = "--board 5x5 c2\n" if mixed and i % 10 == 3 else ""
            out.write(prefix + " ".join(moves) + "\n")


if __name__ == "__main__":
    main()
