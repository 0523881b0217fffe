"""Checks the output of `rastros batch --game GAME` against `rastros solve --game GAME`, line by
line (tests/congkak_cli_test.sh, oware_cli_test.sh, reversi_cli_test.sh).

    python3 score_batch_check.py OUTPUT RASTROS GAME INPUT BAD-LINES [DEFAULT OPTIONS...]

Every line of INPUT that is not blank or a comment has one output object, in order, with its
"line" number; the lines numbered in BAD-LINES (comma-separated, or "-") are error objects, and
every other one holds exactly the keys and values that `solve --json` prints for the line's
options and moves (or position string) over the DEFAULT OPTIONS, bar "nodes" and "seconds".
"""
import json
import subprocess
import sys

output, rastros, game, input_path, bad = sys.argv[1:6]
defaults = sys.argv[6:]
bad = set() if bad == "-" else {int(n) for n in bad.split(",")}
results = [json.loads(line) for line in open(output)]
numbered = [(n, text.strip()) for n, text in enumerate(open(input_path).read().split("\n")[:-1], 1)
            if text.strip() and not text.strip().startswith("#")]
assert [r["line"] for r in results] == [n for n, _ in numbered], (results, numbered)


def is_reversi_squares(word):  # a Reversi position string may start with "--" (empty squares)
    return game == "reversi" and not set(word) - set("XOxo-")


def is_position(body):
    if game == "reversi":
        return len(body.split(" ")[0]) > 4
    return "/" in body


for result, (number, text) in zip(results, numbered):
    if number in bad:
        assert set(result) == {"line", "error"}, result
        continue
    assert "error" not in result and "nodes" not in result, result
    words = text.split()
    options = dict(zip(defaults[::2], defaults[1::2]))  # the line's own override the defaults
    while words and words[0].startswith("--") and not is_reversi_squares(words[0]):
        option = words.pop(0)
        name, value = option.split("=", 1) if "=" in option else (option, words.pop(0))
        options[name] = value
    body = " ".join(words)
    where = ["--position", body] if is_position(body) else (["--moves", body] if body else [])
    solved = subprocess.run([rastros, "solve", "--game", game,
                             *[word for pair in options.items() for word in pair], *where,
                             "--json", "--quiet"], capture_output=True, text=True, check=True)
    expected = json.loads(solved.stdout)
    for key in ("nodes", "seconds"):
        expected.pop(key, None)
    del result["line"]
    assert result == expected, (number, result, expected)
