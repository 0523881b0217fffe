#!/usr/bin/env bash
# Command-line contract of `rastros` (docs/commands.md): exit statuses, one-line error messages
# on stderr with nothing on stdout, and the --json output.
# Usage: cli_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: cli_test.sh path/to/rastros}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"

# Perft of 7x7 from d4, counted by a brute force written here, independent of the binary.
brute_perft_7x7() {
  python3 - "$1" <<'EOF'
import sys
depth = int(sys.argv[1])
W = H = 7
used = {(3, 3)}
def count(x, y, d):
    if d == 0:
        return 1
    if (x, y) in ((0, 0), (W - 1, H - 1)):
        return 0
    total = 0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            n = (x + dx, y + dy)
            if (dx or dy) and 0 <= n[0] < W and 0 <= n[1] < H and n not in used:
                used.add(n)
                total += count(n[0], n[1], d - 1)
                used.remove(n)
    return total
print(count(3, 3, depth))
EOF
}

# --- success -------------------------------------------------------------------------------
expect_ok "show" show
expect_ok "show --help" show --help
expect_ok "perft --help" perft --help
expect_ok "--help" --help
expect_ok "show --moves" show --moves "c3 b2 c1"
expect_ok "show a finished game" show --moves "c3 b2 a1"
expect_ok "show --position" show --position "7/7/7/3x3/2o4/7/7 2"
expect_ok "show other board" show --board 5x3 --steps orthogonal --rules stuck-draw --start b2

KEYS='all(k in j for k in ("board","start","rules","steps","moves","position","to_move"))'
expect_json "show --json keys" \
  "$KEYS and j['board']=='7x7' and j['start']=='d4' and j['rules']=='standard' and \
   j['steps']=='king' and j['moves']==[] and j['position']=='7/7/7/3o3/7/7/7 1' and \
   j['to_move']==1" \
  show --json
expect_json "show --json after c3" \
  "$KEYS and j['moves']==['c3'] and j['position']=='7/7/7/3x3/2o4/7/7 2' and j['to_move']==2" \
  show --json --moves c3
expect_json "show --json finished game names the winner" \
  "$KEYS and j['winner']==1 and j['moves']==['c3','b2','a1']" \
  show --json --moves "c3 b2 a1"
expect_json "show --json variant" \
  "$KEYS and j['board']=='5x3' and j['start']=='b2' and j['rules']=='stuck-draw' and \
   j['steps']=='orthogonal'" \
  show --json --board 5x3 --steps orthogonal --rules stuck-draw --start b2
expect_json "show --json position" \
  "$KEYS and j['position']=='7/7/7/3x3/2o4/7/7 2' and j['to_move']==2 and j['moves']==[]" \
  show --json --position "7/7/7/3x3/2o4/7/7 2"

for depth in 0 1 2 3; do
  nodes=$(brute_perft_7x7 "$depth")
  expect_json "perft --depth $depth --json" \
    "list(j)[:2]==['depth','nodes'] and j['depth']==$depth and j['nodes']==$nodes" \
    perft --depth "$depth" --json
done
expect_json "perft --divide --json" \
  "j['nodes']==$(brute_perft_7x7 3) and sum(j['divide'].values())==j['nodes'] and \
   len(j['divide'])==8" \
  perft --depth 3 --divide --json
run perft --depth 3
if [[ $status -eq 0 ]] && grep -q "$(brute_perft_7x7 3)" "$WORK/out"; then pass; else
  fail "perft --depth 3 text output: $(cat "$WORK/out")"
fi
expect_json "perft --rules stuck-draw: the same count (no rule changes which moves are legal)" \
  "j['nodes']==$(brute_perft_7x7 3)" perft --depth 3 --rules stuck-draw --json --quiet
# Every command takes --quiet (the README's common options), stats aside.
for quiet_run in "show --quiet" "perft --depth 1 --quiet" "solve --board 4x4 --quiet" \
    "map --board 3x3 --quiet"; do
  # shellcheck disable=SC2086 # the command and its options, split on purpose
  expect_ok "$quiet_run" $quiet_run
done
run play --board 6x6 --side 2 --quiet </dev/null
if [[ $status -eq 0 && ! -s $WORK/err ]]; then pass; else
  fail "play --quiet: exit $status, stderr: $(head -c 300 "$WORK/err")"
fi

# --- bad usage and bad input: exit 2, one line naming the problem ----------------------------
expect_error 2 "z9" "off-board square" show --moves "c3 z9"
expect_error 2 "3c" "malformed square" show --moves "3c"
expect_error 2 "e5" "illegal move (not a step)" show --moves "c3 e5"
expect_error 2 "slime" "move onto slime" show --moves "c3 d4"
expect_error 2 "ended" "move after the end" show --moves "c3 b2 a1 b1"
expect_error 2 "snail" "position without a snail" show --position "7/7/7/7/7/7/7 1"
expect_error 2 "rank" "position with a short rank" show --position "7/7/7/3o2/7/7/7 1"
expect_error 2 "side to move" "position with a bad side" show --position "7/7/7/3o3/7/7/7 3"
expect_error 2 "slime on the goal g7" "slime on a goal" show --position "6x/7/7/3o3/7/7/7 1"
# Impossible positions: no game from the start reaches them (README "Errors", three rules).
expect_error 2 "0 slimed squares, so player 1 is to move, not player 2" \
  "position: side to move against the slime count" show --position "7/7/7/3o3/7/7/7 2"
expect_error 2 "1 slimed square, so player 2 is to move, not player 1" \
  "position: side to move against the slime count (2)" solve --position "7/7/7/3x3/2o4/7/7 1"
expect_error 2 "no slime, so the snail must be on the start square d4, not c3" \
  "position: no slime and the snail off the start" show --position "7/7/7/7/2o4/7/7 1"
expect_error 2 "has slime, but not on the start square d4" "position: the start not slimed" \
  show --position "7/7/7/7/2x4/1o5/7 2"
expect_ok "position from another start, with --start" show --start c3 --position "7/7/7/7/2x4/1o5/7 2"
expect_error 2 "slime on a7 not joined to the snail's trail" "position: slime apart from the trail" \
  show --position "x6/7/7/3x3/2o4/7/7 1"
expect_error 2 "slime on d4 not joined .* orthogonal steps" "position: a diagonal trail, orthogonal steps" \
  show --steps orthogonal --position "7/7/7/3x3/2o4/7/7 2"
expect_error 2 "so player 1 is to move" "perft of an impossible position" \
  perft --depth 1 --position "7/7/7/3o3/7/7/7 2"
# A finished game's position string (the snail on a goal) reads back as the same ended game,
# for both goals: show and solve say the same as with the moves.
for game in "c3 b2 a1" "e5 f6 g7"; do
  run show --moves "$game" --json
  cp "$WORK/out" "$WORK/ended_show.json"
  fen=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["position"])' <"$WORK/ended_show.json")
  expect_json "show --position of the finished game $game ($fen)" \
    "j['ended'] and j['legal_moves'] == [] and all(j[k] == json.load(open('$WORK/ended_show.json'))[k] for k in ('position', 'to_move', 'ended', 'winner'))" \
    show --position "$fen" --json
  run solve --moves "$game" --json --quiet
  cp "$WORK/out" "$WORK/ended_solve.json"
  expect_json "solve --position of the finished game $game ($fen)" \
    "j['remoteness'] == 0 and all(j[k] == json.load(open('$WORK/ended_solve.json'))[k] for k in ('position', 'to_move', 'value', 'winner', 'remoteness', 'best_moves', 'children'))" \
    solve --position "$fen" --json --quiet
done
expect_error 2 "either|both|--moves" "--moves and --position" \
  show --moves c3 --position "7/7/7/3o3/7/7/7 1"
expect_error 2 "9x8|64" "board too big" show --board 9x8
expect_error 2 "1x5|small" "board too small" show --board 1x5
expect_error 2 "32x2|26" "too many files" show --board 32x2
expect_error 2 "board" "malformed board" show --board 7by7
expect_error 2 "goal" "start on a goal" show --start a1
expect_error 2 "goal" "default start on a goal" show --board 2x2
# A position needs no start: on 2x2 without --start (the default b2 is a goal) there is none
# ("start": null) and the start rule is skipped; games still need --start.
expect_json "2x2 position without --start" \
  "j['start'] is None and j['position'] == 'x1/1o 2' and j['to_move'] == 2 and j['legal_moves'] == ['a1', 'b2']" \
  show --board 2x2 --position "x1/1o 2" --json
expect_json "solve a 2x2 position without --start" \
  "j['start'] is None and j['value'] == 'win' and j['remoteness'] == 1 and j['best_moves'] == ['b2']" \
  solve --board 2x2 --position "x1/1o 2" --json --quiet
expect_ok "2x2 position without --start, text" show --board 2x2 --position "o1/2 1"
expect_error 2 "default start square b2 is a goal corner; choose another with --start" \
  "2x2 game without --start" show --board 2x2 --moves a2
expect_error 2 "the start square a2, not b1" "2x2 position with --start keeps the start rule" \
  show --board 2x2 --start a2 --position "2/1o 1"
expect_error 2 "h8|off" "start off the board" show --start h8
expect_error 2 "rules|bogus" "unknown rules" show --rules bogus
expect_error 2 "step|diagonal" "unknown steps" show --steps diagonal
expect_error 2 "bogus" "unknown option" show --bogus
expect_error 2 "extra|positional|stray|too many" "stray argument" show stray
expect_error 2 "frobnicate" "unknown command" frobnicate
expect_error 2 "depth" "perft without --depth" perft
expect_error 2 "depth" "perft with a negative depth" perft --depth -1
expect_error 2 "depth" "perft with a huge depth" perft --depth 64
expect_error 2 "depth|abc" "perft with a non-number depth" perft --depth abc
expect_error 2 "e5" "perft after an illegal move" perft --depth 2 --moves "c3 e5"

# solve and map: small boards, the design's JSON, bad input.
expect_ok "solve --help" solve --help
expect_ok "map --help" map --help
expect_json "solve --json keys on 4x4" \
  'set(["board","start","rules","steps","moves","position","to_move","value","winner","remoteness","best_moves","children","nodes","seconds"]) <= set(j) and j["value"] in ("win","loss") and all(set(c) == {"move","value","remoteness"} for c in j["children"])' \
  solve --board 4x4 --json --quiet
expect_json "solve --value-only --json omits remoteness" \
  '"remoteness" not in j and all("remoteness" not in c for c in j["children"])' \
  solve --board 4x4 --value-only --json --quiet
# The second algorithm (df-pn) and --root-only: same values as alpha-beta, move by move.
run solve --board 6x5 --moves "c4" --value-only --json --quiet
cp "$WORK/out" "$WORK/alpha_beta.json"
expect_json "solve --algorithm proof-number agrees with alpha-beta move by move" \
  "j['value'] == json.load(open('$WORK/alpha_beta.json'))['value'] and j['children'] == json.load(open('$WORK/alpha_beta.json'))['children'] and j['best_moves'] == json.load(open('$WORK/alpha_beta.json'))['best_moves']" \
  solve --board 6x5 --moves "c4" --value-only --algorithm proof-number --json --quiet
expect_json "solve --root-only: the value without the moves" \
  "'children' not in j and 'best_moves' not in j and j['value'] == json.load(open('$WORK/alpha_beta.json'))['value'] and j['winner'] == json.load(open('$WORK/alpha_beta.json'))['winner']" \
  solve --board 6x5 --moves "c4" --value-only --root-only --json --quiet
expect_json "solve --root-only --algorithm proof-number" \
  "set(j) >= {'value', 'winner', 'nodes'} and 'remoteness' not in j and j['value'] == json.load(open('$WORK/alpha_beta.json'))['value']" \
  solve --board 6x5 --moves "c4" --value-only --root-only --algorithm proof-number --json --quiet
run solve --board 5x5 --json --quiet
cp "$WORK/out" "$WORK/full.json"
expect_json "solve --root-only keeps the remoteness" \
  "'children' not in j and j['remoteness'] == json.load(open('$WORK/full.json'))['remoteness']" \
  solve --board 5x5 --root-only --json --quiet
expect_error 2 "add --value-only" "df-pn without --value-only" solve --algorithm proof-number
expect_error 2 "alpha-beta or proof-number" "unknown --algorithm" solve --algorithm pn --value-only
expect_error 2 "alpha-beta only" "df-pn with a --no-* aid" \
  solve --algorithm proof-number --value-only --no-matching
expect_error 2 "applies to --value-only" "--no-pockets without --value-only" solve --no-pockets
expect_error 2 "alpha-beta only" "df-pn with --no-pockets" \
  solve --algorithm proof-number --value-only --no-pockets
# Pockets change keys, never values: each move of a 6x5 position the same with and without.
run solve --board 6x5 --moves "c3" --value-only --json --quiet
cp "$WORK/out" "$WORK/pockets.json"
expect_json "solve --value-only --no-pockets gives the same values" \
  "[(c['move'], c['value']) for c in j['children']] == [(c['move'], c['value']) for c in json.load(open('$WORK/pockets.json'))['children']] and j['value'] == json.load(open('$WORK/pockets.json'))['value']" \
  solve --board 6x5 --moves "c3" --value-only --no-pockets --json --quiet
# Goal pockets too: the same values with and without, and --no-goal-pockets needs --value-only.
expect_json "solve --value-only --no-goal-pockets gives the same values" \
  "[(c['move'], c['value']) for c in j['children']] == [(c['move'], c['value']) for c in json.load(open('$WORK/pockets.json'))['children']] and j['value'] == json.load(open('$WORK/pockets.json'))['value']" \
  solve --board 6x5 --moves "c3" --value-only --no-goal-pockets --json --quiet
expect_error 2 "applies to --value-only" "--no-goal-pockets without --value-only" \
  solve --no-goal-pockets
# The move memory changes the order moves are tried in (so the node count), never a value.
run solve --board 5x5 --threads 1 --json --quiet
cp "$WORK/out" "$WORK/memory.json"
expect_json "solve --no-move-memory gives the same values and remoteness" \
  "[(c['move'], c['value'], c['remoteness']) for c in j['children']] == [(c['move'], c['value'], c['remoteness']) for c in json.load(open('$WORK/memory.json'))['children']] and j['nodes'] != json.load(open('$WORK/memory.json'))['nodes']" \
  solve --board 5x5 --threads 1 --no-move-memory --json --quiet
expect_error 2 "alpha-beta only" "df-pn with --no-move-memory" \
  solve --algorithm proof-number --value-only --no-move-memory
# The lost-move rule settles some moves without searching them (fewer nodes), never a value.
run solve --board 5x5 --threads 1 --value-only --json --quiet
cp "$WORK/out" "$WORK/lost.json"
expect_json "solve --value-only --no-lost-move-rule gives the same values" \
  "[(c['move'], c['value']) for c in j['children']] == [(c['move'], c['value']) for c in json.load(open('$WORK/lost.json'))['children']] and j['nodes'] > json.load(open('$WORK/lost.json'))['nodes']" \
  solve --board 5x5 --threads 1 --value-only --no-lost-move-rule --json --quiet
expect_error 2 "alpha-beta only" "df-pn with --no-lost-move-rule" \
  solve --algorithm proof-number --value-only --no-lost-move-rule
# The trap rule settles positions without searching their moves (fewer nodes), never a value or
# a remoteness: both kinds of search, with and without it.
run solve --board 5x5 --threads 1 --json --quiet
cp "$WORK/out" "$WORK/traps.json"
expect_json "solve --no-trap-rule gives the same values and remoteness" \
  "[(c['move'], c['value'], c['remoteness']) for c in j['children']] == [(c['move'], c['value'], c['remoteness']) for c in json.load(open('$WORK/traps.json'))['children']] and j['nodes'] > json.load(open('$WORK/traps.json'))['nodes']" \
  solve --board 5x5 --threads 1 --no-trap-rule --json --quiet
run solve --board 6x5 --threads 1 --value-only --json --quiet
cp "$WORK/out" "$WORK/traps.json"
expect_json "solve --value-only --no-trap-rule gives the same values" \
  "[(c['move'], c['value']) for c in j['children']] == [(c['move'], c['value']) for c in json.load(open('$WORK/traps.json'))['children']] and j['nodes'] > json.load(open('$WORK/traps.json'))['nodes']" \
  solve --board 6x5 --threads 1 --value-only --no-trap-rule --json --quiet
expect_error 2 "alpha-beta only" "df-pn with --no-trap-rule" \
  solve --algorithm proof-number --value-only --no-trap-rule
expect_error 2 "do not apply" "--db with --no-trap-rule" \
  solve --db "$WORK/never.rdb" --board 3x3 --no-trap-rule
expect_error 2 "too small" "df-pn with --memory too small" \
  solve --algorithm proof-number --value-only --memory 1K
expect_error 2 "needs --checkpoint" "--checkpoint-every without --checkpoint" \
  solve --value-only --algorithm proof-number --checkpoint-every 5
expect_error 2 "between 0 and" "--checkpoint-every out of range" \
  solve --value-only --algorithm proof-number --checkpoint "$WORK/never" --checkpoint-every 1e12
expect_error 2 "applies to --algorithm proof-number" "--checkpoint-every with --db" \
  solve --db "$WORK/never.rdb" --board 4x4 --kind proof --checkpoint "$WORK/never" \
  --checkpoint-every 5
expect_error 2 "do not apply to --db" "--root-only with --db" solve --db "$WORK/r.rdb" --board 4x4 --root-only
expect_json "solve an ended game" \
  'j["value"] == "loss" and j["winner"] == 1 and j["remoteness"] == 0 and j["children"] == []' \
  solve --moves "c3 b2 a1" --json --quiet
# Under stuck-draw a stuck side to move has drawn with remoteness 0, a move that leaves the
# opponent stuck draws in 1 (counted from before it), and a draw still going on has null.
expect_json "stuck-draw: the stuck side's draw has remoteness 0" \
  'j["value"] == "draw" and j["winner"] is None and j["remoteness"] == 0 and j["children"] == []' \
  solve --board 3x3 --rules stuck-draw --moves "a2 b3 a3" --json --quiet
expect_json "stuck-draw: a stuck position given as a string, remoteness 0" \
  'j["value"] == "draw" and j["remoteness"] == 0' \
  solve --board 3x3 --rules stuck-draw --position "ox1/xx1/3 2" --json --quiet
expect_json "stuck-draw: leaving the opponent stuck draws in 1; the position's draw stays null" \
  'j["value"] == "draw" and j["remoteness"] is None and j["best_moves"] == ["a3"] and {"move": "a3", "value": "draw", "remoteness": 1} in j["children"]' \
  solve --board 3x3 --rules stuck-draw --moves "a2 b3" --json --quiet
run solve --db "$WORK/3x3-draw.rdb" --board 3x3 --rules stuck-draw --quiet
expect_json "stuck-draw: query from a database agrees" \
  'j["source"] == "database" and j["remoteness"] is None and j["best_moves"] == ["a3"] and {"move": "a3", "value": "draw", "remoteness": 1} in j["children"]' \
  query --db "$WORK/3x3-draw.rdb" --moves "a2 b3" --json
expect_json "stuck-draw: query of the stuck position" \
  'j["source"] == "database" and j["value"] == "draw" and j["remoteness"] == 0' \
  query --db "$WORK/3x3-draw.rdb" --moves "a2 b3 a3" --json
expect_json "best move has the position's value" \
  'all(any(c["move"] == m and c["value"] == j["value"] and c["remoteness"] == j["remoteness"] for c in j["children"]) for m in j["best_moves"])' \
  solve --board 5x5 --json --quiet --threads 2
expect_json "map --json on 4x4" \
  'j["board"] == "4x4" and len(j["squares"]) == 14 and "a1" not in j["squares"] and "d4" not in j["squares"]' \
  map --board 4x4 --json --quiet
expect_error 2 "memory|small" "solve with a tiny table" solve --memory 1K --board 4x4
expect_error 2 "memory|abc" "solve with a malformed --memory" solve --memory abc --board 4x4
expect_error 2 "threads" "solve with negative threads" solve --threads -1 --board 4x4
expect_error 2 "c3" "solve after an illegal move" solve --moves "c3 c3"
expect_error 2 "both|either" "solve with --moves and --position" solve --moves c3 --position "7/7/7/3o3/7/7/7 1"
expect_error 2 "board|64" "map on a board too large" map --board 9x9
expect_json "map --square-seconds: squares over budget are unknown, the rest solved" \
  'all(v["value"] in ("win", "loss", "unknown") for v in j["squares"].values()) and any(v["value"] == "unknown" for v in j["squares"].values()) and j["squares"]["b2"]["value"] == "win"' \
  map --board 6x6 --value-only --square-seconds 0.000001 --json --quiet
expect_error 2 "square-seconds" "map --square-seconds negative" map --board 4x4 --square-seconds -1
# Over budget with a checkpoint: the solved squares stay for a resume that solves the rest.
run map --board 6x6 --value-only --square-seconds 0.000001 --checkpoint "$WORK/budget" --quiet
if [[ $status -eq 0 && -s $WORK/budget/map.checkpoint ]]; then pass; else
  fail "map over budget with --checkpoint: exit $status, checkpoint kept? $(ls "$WORK/budget" 2>&1)"
fi
expect_json "map --resume with a larger budget solves every square" \
  'all(v["value"] in ("win", "loss") for v in j["squares"].values()) and len(j["squares"]) == 34' \
  map --board 6x6 --value-only --square-seconds 100 --checkpoint "$WORK/budget" --resume --json --quiet
if [[ -e $WORK/budget/map.checkpoint ]]; then fail "map: checkpoint left after a complete resume"; else pass; fi
expect_error 2 "start" "map has no --start" map --start c3
# The proof-number map (a second method): same squares as alpha-beta's, values only.
run map --board 6x5 --value-only --json --quiet
alpha_beta_map=$(python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["squares"], sort_keys=True))' <"$WORK/out")
expect_json "map --algorithm proof-number agrees with alpha-beta" \
  "json.dumps(j['squares'], sort_keys=True) == '$alpha_beta_map'" \
  map --board 6x5 --value-only --algorithm proof-number --json --quiet
expect_error 2 "value-only" "map --algorithm proof-number without --value-only" \
  map --board 4x4 --algorithm proof-number
expect_error 2 "algorithm" "map with an unknown --algorithm" map --board 4x4 --algorithm mcts
# (RASTROS_MAX_THREADS: 8 threads are allowed on a machine of fewer than 2 cores too.)
RASTROS_MAX_THREADS=8 expect_error 2 "squares at once|more than this machine" \
  "map: a table a square beyond the machine" \
  map --board 4x4 --value-only --algorithm proof-number --memory 20G --threads 8

# Databases: solve --db writes a strong database; query answers from it ("source"), falls back
# to search or exits 4 with --no-search; damaged files exit 3; stats in JSON and CSV.
DB=$WORK/4x4.rdb
expect_ok "solve --db writes a database" solve --db "$DB" --board 4x4 --quiet
if [[ -s $DB ]]; then pass; else fail "solve --db: $DB not written"; fi
expect_json "solve --db --json summary" \
  'j["positions"] > 0 and j["bytes"] > 0 and j["kind"] == "strong" and j["board"] == "4x4"' \
  solve --db "$WORK/4x4-again.rdb" --board 4x4 --quiet --json
expect_json "solve --db --kind strategy" \
  'j["kind"] == "strategy" and j["book_depth"] == 1 and j["positions"] > 0' \
  solve --db "$WORK/s.rdb" --board 4x4 --kind strategy --book-depth 1 --quiet --json
expect_ok "verify accepts the strategy file" verify --db "$WORK/s.rdb" --quiet
expect_error 2 "book-depth" "--book-depth without --kind strategy" \
  solve --db "$WORK/b.rdb" --board 4x4 --book-depth 2
# Proof databases: values only, small endgames left to verify, which then proves the start.
expect_json "solve --db --kind proof" \
  'j["kind"] == "proof" and j["leaf_squares"] == 10 and j["positions"] > 0 and j["value"] == "win"' \
  solve --db "$WORK/p.rdb" --board 6x5 --kind proof --leaf-squares 10 --memory 16M --threads 1 --quiet --json
expect_json "verify proves the proof database's start" \
  'j["ok"] and j["kind"] == "proof" and j["proven_value"] == "win" and j["leaves_solved"] > 0 and "max_remoteness" not in j' \
  verify --db "$WORK/p.rdb" --json --quiet
expect_json "query on a proof database has no remoteness, and a won position the stored move only" \
  'j["source"] == "database" and j["value"] == "win" and "remoteness" not in j and len(j["children"]) == 1 and j["nodes"] == 0' \
  query --db "$WORK/p.rdb" --json --quiet
expect_json "query on a proof database searches a small endgame value-only" \
  'j["source"] == "search" and "remoteness" not in j and j["value"] in ("win", "loss")' \
  query --db "$WORK/p.rdb" --moves "c2 b1 a2 a3 b4 c5 d4 e5 f4 f3 e2 d1" --json --quiet
# A won position whose stored move leads into a left-out endgame (this file, built on one
# thread, stores a2 there): the file lists no move; query searches the stored one, and its
# value agrees with a live search.
LEAF_GAME="c2 d1 c1 d2 c3 b4 a5 a4 a3 b3"
expect_json "query --no-search of a proof's won position whose move leads into a left-out endgame" \
  'j["value"] == "win" and j["best_moves"] == ["a2"] and j["children"] == []' \
  query --db "$WORK/p.rdb" --moves "$LEAF_GAME" --no-search --json --quiet
run solve --board 6x5 --moves "$LEAF_GAME" --value-only --json --quiet
cp "$WORK/out" "$WORK/live-leaf.json"
expect_json "query of that position: the stored move searched, as a live search values it" \
  "j['source'] == 'database' and j['best_moves'] == ['a2'] and \
   j['children'] == [c for c in json.load(open('$WORK/live-leaf.json'))['children'] if c['move'] == 'a2']" \
  query --db "$WORK/p.rdb" --moves "$LEAF_GAME" --json --quiet
expect_error 2 "leaf-squares" "--leaf-squares with --kind strategy" \
  solve --db "$WORK/p2.rdb" --board 4x4 --kind strategy --leaf-squares 3
expect_error 2 "leaf-squares" "--leaf-squares above 32" \
  solve --db "$WORK/p2.rdb" --board 4x4 --kind proof --leaf-squares 33
expect_ok "strategy database of a board under 16 squares" \
  solve --db "$WORK/s53.rdb" --board 5x3 --kind strategy --quiet
expect_ok "proof database of a board under 16 squares" \
  solve --db "$WORK/p53.rdb" --board 5x3 --kind proof --quiet
expect_ok "verify the small proof" verify --db "$WORK/p53.rdb" --quiet
expect_error 2 "book-depth" "--book-depth with --kind proof" \
  solve --db "$WORK/p2.rdb" --board 4x4 --kind proof --book-depth 1
expect_error 2 "db" "--leaf-squares without --db" solve --board 4x4 --leaf-squares 3
expect_error 2 "moves|position" "solve --db with --moves" solve --db "$WORK/m.rdb" --board 4x4 --moves b2
expect_error 2 "memory|6x6" "solve --db of a board too large" solve --db "$WORK/big.rdb" --board 8x8
expect_json "query --json from the database" \
  'j["source"] == "database" and set(["board","start","rules","steps","moves","position","to_move","value","winner","remoteness","best_moves","children","nodes","seconds"]) <= set(j) and j["board"] == "4x4" and j["moves"] == ["b2"] and all(set(c) == {"move","value","remoteness"} for c in j["children"])' \
  query --db "$DB" --moves b2 --json
expect_json "query agrees with solve" \
  "j['value'] == '$("$RASTROS" solve --board 4x4 --moves b2 --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')'" \
  query --db "$DB" --moves b2 --json
expect_json "query of a position no game reaches falls back to search" \
  'j["source"] == "search" and j["value"] in ("win","loss")' \
  query --db "$DB" --position "4/1xxx/2o1/4 2" --json --quiet
expect_error 4 "does not hold|not in" "query --no-search of a missing position" \
  query --db "$DB" --position "4/1xxx/2o1/4 2" --no-search
expect_error 2 "no slime, so the snail must be on the start square c3" \
  "query of an impossible position" query --db "$DB" --position "4/4/1o2/4 1"
expect_ok "query text output" query --db "$DB"
expect_error 2 "board|4x4" "query with a mismatched --board" query --db "$DB" --board 5x5
expect_error 2 "rules|standard" "query with mismatched --rules" query --db "$DB" --rules stuck-draw
expect_error 2 "db" "query without --db" query --moves b2
expect_error 2 "threads" "query --threads -1, answered from the file" query --db "$DB" --threads -1
expect_error 2 "too small" "query --memory 1K, answered from the file" query --db "$DB" --memory 1K
expect_error 2 "z9" "query with an illegal move" query --db "$DB" --moves z9
expect_error 3 "missing|no such|not found" "query of a missing file" query --db "$WORK/none.rdb"
head -c 100 "$DB" >"$WORK/truncated.rdb"
expect_error 3 "truncated|corrupt" "query of a truncated file" query --db "$WORK/truncated.rdb"
echo "not a database at all, just some text" >"$WORK/garbage.rdb"
expect_error 3 "magic|not a rastros|truncated" "query of a garbage file" \
  query --db "$WORK/garbage.rdb"
expect_error 3 "truncated|corrupt|magic" "stats of a truncated file" stats --db "$WORK/truncated.rdb"
expect_json "stats --json" \
  'j["positions"] == sum(r["win"] + r["loss"] + r["draw"] for r in j["by_layer"]) and j["by_value"]["win"] + j["by_value"]["loss"] == j["positions"] and len(j["by_remoteness"]) > 0' \
  stats --db "$DB" --json
run stats --db "$DB" --csv
if [[ $status -eq 0 && $(head -1 "$WORK/out") == "table,index,win,loss,draw,total" ]] &&
    grep -q '^layer,' "$WORK/out" && grep -q '^remoteness,' "$WORK/out"; then
  pass
else
  fail "stats --csv: exit $status: $(head -c 300 "$WORK/out")"
fi
expect_ok "stats text" stats --db "$DB"

# verify: the no-draw property exhaustively, a database written by solve --db, and the same
# database with one record's value flipped behind a valid checksum (exit 1, the record named).
expect_ok "verify --help" verify --help
expect_ok "verify --board 4x4 --no-draw" verify --board 4x4 --no-draw --quiet
expect_json "verify --no-draw --json under standard rules" \
  'j["ok"] and j["no_draw"] is True and j["draws"] == 0 and j["checked"] > 0 and j["failures"] == [] and set(["checked","children","failures","draws","max_remoteness","no_draw","ok","seconds"]) <= set(j)' \
  verify --board 4x4 --no-draw --json --quiet
expect_json "verify --no-draw --json under stuck-draw counts draws" \
  'j["ok"] and j["no_draw"] is False and j["draws"] > 0' \
  verify --board 4x4 --steps orthogonal --rules stuck-draw --no-draw --json --quiet
expect_error 2 "30|6x6" "verify --no-draw on a board too large to solve in memory" verify --board 6x6 --no-draw
expect_error 2 "--db|no-draw" "verify without --db or --no-draw" verify --board 4x4
expect_error 3 "missing" "verify a missing database" verify --db "$WORK/missing.rdb"
run solve --db "$WORK/verify.rdb" --board 4x4 --quiet
if [[ $status -ne 0 ]]; then
  fail "solve --db for verify: exit $status; stderr: $(head -c 300 "$WORK/err")"
else
  expect_json "verify --db on a database from solve --db" \
    'j["ok"] and j["no_draw"] is True and j["kind"] == "strong"' \
    verify --db "$WORK/verify.rdb" --json --quiet --threads 2
  expect_error 2 "board" "verify --db with --board" verify --db "$WORK/verify.rdb" --board 5x5
  # Rewrites the file with one decided record's value flipped, its block stored raw (codec 0),
  # and the sizes and CRC-32s (the block's, the index's, the file's) fixed, so only verify can
  # tell it is wrong (format 2: solver/db/database_file.hpp).
  if python3 - "$WORK/verify.rdb" "$WORK/flipped.rdb" <<'EOF'; then
import binascii, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
(header_length,) = struct.unpack_from("<I", data, 20)
words = data[24:24 + header_length].decode().split()
count, block_positions = int(words[-4]), int(words[-2])
blocks = -(-count // block_positions)
index_at = 24 + header_length
entries = [list(struct.unpack_from("<QBBHIII", data, index_at + 24 * j)) for j in range(blocks)]
at = index_at + 24 * blocks + 4
stored = []
for entry in entries:
    stored.append(data[at:at + entry[5]])
    at += entry[5]
# The first decided record from the middle of the middle block on.
j = blocks // 2
positions = min(block_positions, count - j * block_positions)
free, snail, codec, _, key_bytes, _, _ = entries[j]
payload = bytearray(zlib.decompress(stored[j], -15) if codec == 1 else stored[j])
for i in range(positions // 2, positions):
    value = payload[key_bytes + i] >> 6
    if value != 1:  # not a draw: win (2) <-> loss (0)
        payload[key_bytes + i] = (2 - value) << 6 | (payload[key_bytes + i] & 63)
        break
else:
    sys.exit(1)
stored[j] = bytes(payload)
entries[j] = [free, snail, 0, 0, key_bytes, len(payload), binascii.crc32(payload) & 0xFFFFFFFF]
words[-1] = str(sum(len(b) for b in stored))
header = (" ".join(words) + "\n").encode()
index = b"".join(struct.pack("<QBBHIII", *entry) for entry in entries)
size = 24 + len(header) + len(index) + 4 + sum(len(b) for b in stored) + 4
front = data[:12] + struct.pack("<QI", size, len(header)) + header + index
out = front + struct.pack("<I", binascii.crc32(front) & 0xFFFFFFFF) + b"".join(stored)
out += struct.pack("<I", binascii.crc32(out) & 0xFFFFFFFF)
open(sys.argv[2], "wb").write(out)
EOF
    run verify --db "$WORK/flipped.rdb" --json --quiet
    if [[ $status -ne 1 ]]; then
      fail "verify a flipped record: exit $status, expected 1; stderr: $(head -c 300 "$WORK/err")"
    elif ! python3 -c 'import json,sys; j=json.load(sys.stdin); sys.exit(0 if not j["ok"] and j["failure_count"] >= 1 and any("children give" in f["problem"] for f in j["failures"]) else 1)' <"$WORK/out"; then
      fail "verify a flipped record: report does not name it: $(head -c 300 "$WORK/out")"
    else
      pass
    fi
  else
    fail "could not write the flipped database for verify"
  fi
fi

run
if [[ $status -eq 2 ]]; then pass; else fail "no command: exit $status, expected 2"; fi

# --- README "Errors": the rows not checked above ----------------------------------------------
expect_error 2 "2 snails" "position with two snails" show --position "7/7/7/3oo2/7/7/7 1"
expect_error 2 "more than 7 ranks" "position with too many ranks" show --position "7/7/7/3o3/7/7/7/7 1"
expect_error 2 "unexpected character 'q'" "position with a stray character" \
  show --position "7/7/7/3q3/7/7/7 1"
expect_error 2 "no side to move" "position without a side to move" show --position "7/7/7/3o3/7/7/7"
expect_error 2 "slime on the goal a1" "position with slime on a goal" show --position "7/7/7/3o3/7/7/x6 1"
# Input holding a newline or another control byte is quoted escaped: still one line.
expect_error 2 "malformed board '7\\\\nx7'" "a newline in --board" show --board $'7\nx7'
expect_error 2 "malformed square 'd\\\\n4'" "a newline in --start" show --start $'d\n4'
expect_error 2 "position '7/7/7/3o3/7/7/7\\\\n1' has no side" "a newline in --position" \
  show --position $'7/7/7/3o3/7/7/7\n1'
expect_error 2 "unknown rules 'bo\\\\x01gus'" "a control byte in --rules" show --rules $'bo\x01gus'
expect_error 2 "malformed memory size 'abc\\\\n'" "a newline in --memory" solve --memory $'abc\n'
expect_error 2 "unrecognised option '--bo\\\\ngus'" "a newline in an unknown option" show $'--bo\ngus'
expect_error 2 "unknown command 'frob\\\\nnicate'" "a newline in the command" $'frob\nnicate'
expect_error 2 "alpha-beta or proof-number, not 'pn\\\\x0d'" "a carriage return in --algorithm" \
  solve --algorithm $'pn\r' --value-only
expect_error 2 "more than this machine" "solve with --memory beyond physical memory" \
  solve --memory 100T --board 4x4
expect_error 2 "needs about .* more than --memory 1M" "solve --db with a --memory too small" \
  solve --db "$WORK/small.rdb" --board 4x4 --memory 1M
if [[ -e $WORK/small.rdb ]]; then fail "solve --db refused by --memory wrote a file"; else pass; fi
expect_ok "solve --db with a --memory large enough" solve --db "$WORK/enough.rdb" --board 4x4 \
  --memory 64M --quiet
expect_error 2 "strategy" "solve --db --kind strategy with --memory" \
  solve --db "$WORK/s2.rdb" --board 4x4 --kind strategy --memory 64M
expect_error 2 "--kind" "solve --db with an unknown --kind" solve --db "$WORK/k.rdb" --board 4x4 --kind weak
expect_error 2 "value-only" "solve --db --value-only" solve --db "$WORK/v.rdb" --board 4x4 --value-only
expect_error 2 "directory .* does not exist" "solve --db into a missing directory" \
  solve --db "$WORK/no/such/dir/x.rdb" --board 4x4
expect_error 2 "is a directory" "solve --db naming a directory" solve --db "$WORK" --board 4x4
expect_error 2 "needs a file name" "solve --db with an empty name" solve --db '' --board 4x4
# Damaged and foreign files, one line each, exit 3.
cp "$DB" "$WORK/checksum.rdb"
printf '\xff' | dd of="$WORK/checksum.rdb" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_error 3 "checksum mismatch" "query of a file with a flipped byte" query --db "$WORK/checksum.rdb"
cp "$DB" "$WORK/version.rdb"
printf '\x07' | dd of="$WORK/version.rdb" bs=1 seek=8 conv=notrunc 2>/dev/null
expect_error 3 "format version 7, this build reads 1 and 2" "query of another format version" \
  query --db "$WORK/version.rdb"
cat "$DB" >"$WORK/long.rdb"
echo "more" >>"$WORK/long.rdb"
expect_error 3 "bytes more than its header says" "query of a file with trailing bytes" \
  query --db "$WORK/long.rdb"
expect_error 3 "not a regular file" "query of a directory" query --db "$WORK"
# A FIFO or a device is refused at once, never read or waited on (a FIFO with no writer would
# block an ordinary open; `timeout` turns a hang into a failure).
mkfifo "$WORK/fifo.rdb"
timeout 10 "$RASTROS" query --db "$WORK/fifo.rdb" >"$WORK/out" 2>"$WORK/err"
status=$?
if [[ $status -eq 3 ]] && grep -q "not a regular file" "$WORK/err"; then
  pass
else
  fail "query of a FIFO: exit $status, expected 3 at once; stderr: $(head -c 300 "$WORK/err")"
fi
expect_error 3 "not a regular file" "play with a device as its database" play --db /dev/zero </dev/null
# A header claiming far more positions than the file holds is refused before anything is
# allocated for them (the database's index would not fit in the file).
python3 - "$DB" "$WORK/claims.rdb" <<'EOF'
import binascii, struct, sys
data = open(sys.argv[1], "rb").read()
(header_length,) = struct.unpack_from("<I", data, 20)
words = data[24:24 + header_length].decode().split()
words[-4] = "1000000000000"
header = (" ".join(words) + "\n").encode()
rest = data[24 + header_length:-4]
size = 24 + len(header) + len(rest) + 4
out = data[:12] + struct.pack("<QI", size, len(header)) + header + rest
out += struct.pack("<I", binascii.crc32(out) & 0xFFFFFFFF)
open(sys.argv[2], "wb").write(out)
EOF
expect_error 3 "corrupt header" "query of a header claiming 10^12 positions" \
  query --db "$WORK/claims.rdb"
expect_error 3 "truncated|corrupt|magic" "verify of a truncated file" verify --db "$WORK/truncated.rdb"
expect_error 3 "truncated" "play with a truncated database" \
  play --db "$WORK/truncated.rdb" </dev/null
expect_error 2 "--steps orthogonal differs" "query with mismatched --steps" \
  query --db "$DB" --steps orthogonal
expect_error 2 "book-depth must be between" "solve --db --book-depth out of range" \
  solve --db "$WORK/b99.rdb" --board 4x4 --kind strategy --book-depth 99
# A write that fails at the end (a 1 KiB file size limit: rastros ignores SIGXFSZ, so write()
# fails with EFBIG): exit 1, one line, the old file kept and no temporary file left.
cp "$DB" "$WORK/kept.rdb"
( ulimit -f 1; exec "$RASTROS" solve --db "$WORK/kept.rdb" --board 5x5 --quiet ) \
  >"$WORK/out" 2>"$WORK/err"
status=$?
if [[ $status -eq 1 && ! -s $WORK/out && $(wc -l <"$WORK/err") -eq 1 ]] &&
    grep -q "writing database .*: write failed" "$WORK/err" && cmp -s "$DB" "$WORK/kept.rdb" &&
    ! compgen -G "$WORK/kept.rdb.tmp.*" >/dev/null; then
  pass
else
  fail "solve --db with a failing write: exit $status: $(head -c 300 "$WORK/err")"
fi
# Only a regular file is replaced: a pipe (or a device) is refused before any work, and a
# symbolic link is followed, so the link stays and the file it names is written.
mkfifo "$WORK/pipe"
expect_error 2 "--db .*pipe is not a regular file" "solve --db onto a named pipe" \
  solve --db "$WORK/pipe" --board 4x4
check_that "the pipe is still a pipe" test -p "$WORK/pipe"
ln -s linked.rdb "$WORK/link.rdb"
expect_ok "solve --db through a symbolic link" solve --db "$WORK/link.rdb" --board 4x4 --quiet
check_that "the link is kept and its file written" test -L "$WORK/link.rdb" -a -s "$WORK/linked.rdb"
# Under a timeout: were the check gone, serve would start and never return.
timeout 10 "$RASTROS" serve --web-root "$WORK/no-such-page" --port 0 >"$WORK/out" 2>"$WORK/err"
status=$?
if [[ $status -eq 2 && ! -s $WORK/out && $(wc -l <"$WORK/err") -eq 1 ]] &&
    grep -q -- "--web-root .* is not a directory holding the page" "$WORK/err"; then
  pass
else
  fail "serve --web-root missing: exit $status: $(head -c 300 "$WORK/err")"
fi
# Batch, checkpoint rows (more in batch_test.sh, checkpoint_test.sh).
printf 'c3\nzz9\n' >"$WORK/batch.txt"
expect_error 2 "--output .*pipe is not a regular file" "batch --output onto a named pipe" \
  batch --input "$WORK/batch.txt" --output "$WORK/pipe"
expect_error 2 "cannot read input" "batch: missing input" batch --input "$WORK/none.txt"
expect_error 2 "malformed board '7y7'" "batch: bad default board" batch --input "$WORK/batch.txt" --board 7y7
expect_error 2 "--chunk must be between 1 and 1000000" "batch: --chunk 0" \
  batch --input "$WORK/batch.txt" --chunk 0
expect_error 2 "--resume needs --checkpoint DIR" "batch: --resume alone" \
  batch --input "$WORK/batch.txt" --resume
expect_error 2 "standard input cannot be read again" "batch: checkpoint of stdin" \
  batch --input - --checkpoint "$WORK/ck"
expect_error 2 "--resume needs --checkpoint DIR" "map: --resume alone" map --board 4x4 --resume
expect_error 2 "--resume needs --checkpoint DIR" "solve --db: --resume alone" \
  solve --db "$WORK/r.rdb" --board 4x4 --resume
expect_error 2 "apply to --db builds and to --algorithm proof-number" "solve: --checkpoint without --db" \
  solve --checkpoint "$WORK/ck"
run solve --db "$WORK/s.rdb" --board 4x4 --kind strategy --checkpoint "$WORK/ck" --quiet
if [[ $status -eq 0 && -s $WORK/s.rdb && ! -e $WORK/ck ]]; then
  pass
else
  fail "solve --db --kind strategy --checkpoint: exit $status, or no database, or the checkpoint left"
fi
run batch --input "$WORK/batch.txt" --value-only --quiet
if [[ $status -eq 2 && $(wc -l <"$WORK/out") -eq 2 ]] &&
    grep -q '^{"line": 2, "error": "malformed square .zz9.' "$WORK/out"; then
  pass
else
  fail "batch: a bad line gives an error object and exit 2 at the end (exit $status)"
fi
printf '%5000s\n' x | tr ' ' 'c' >"$WORK/long.txt"
run batch --input "$WORK/long.txt" --quiet
if [[ $status -eq 2 ]] && grep -q '"error": "line longer than 4096 bytes"' "$WORK/out"; then
  pass
else
  fail "batch: a line over 4096 bytes is an error line (exit $status)"
fi
mkdir -p "$WORK/badck"
printf 'rastros-checkpoint 1\nkind batch\ncrc32 00000000\n' >"$WORK/badck/batch.checkpoint"
expect_error 3 "checksum mismatch" "batch: damaged checkpoint" \
  batch --input "$WORK/batch.txt" --checkpoint "$WORK/badck" --resume

# rastros play: commands from a pipe; bad input is refused politely and never ends the game.
# play_script SCRIPT ARGS...: runs `rastros play ARGS` with SCRIPT on stdin (like run).
play_script() {
  local script=$1
  shift
  printf '%b' "$script" | "$RASTROS" play "$@" >"$WORK/out" 2>"$WORK/err"
  status=$?
}
# expect_play_words DESCRIPTION SCRIPT WORDS ARGS...: exit 0 and stdout holds every ;-separated
# extended regular expression of WORDS.
expect_play_words() {
  local what=$1 script=$2 words=$3
  shift 3
  play_script "$script" "$@"
  if [[ $status -ne 0 ]]; then
    fail "$what: exit $status, expected 0; stderr: $(head -c 300 "$WORK/err")"
    return
  fi
  local word wanted
  IFS=';' read -ra wanted <<<"$words"
  for word in "${wanted[@]}"; do
    if ! grep -qiE -- "$word" "$WORK/out"; then
      fail "$what: output lacks '$word': $(head -c 600 "$WORK/out")"
      return
    fi
  done
  pass
}
play_words='computer \(player 1\) plays [a-d][1-4];wins in [0-9]+ pl;(win|loss) in [0-9]+'
play_words+=';not a square;nothing to undo;Bye'
expect_play_words "play 4x4 as player 2: hint, bad square, undo, quit" 'hint\nzz\nundo\nquit\n' \
  "$play_words" --board 4x4 --side 2
expect_play_words "play 4x4: a move, a step too far, onto slime, undo" 'b2\nd4\nb2\nundo\nshow\n' \
  'plays;not a step from the snail;onto slime;Took back b2;Your move \(player 1\)' \
  --board 4x4
expect_play_words "play ends at end of input" '' 'Your move' --board 4x4
DB_5X5="$(dirname "$0")/../data/5x5-standard.rdb"
if [[ -f $DB_5X5 ]]; then
  expect_play_words "play --db 5x5" 'b2\nhint\n' 'plays;with best play;(win|loss) in [0-9]+' \
    --db "$DB_5X5" --board 5x5
  expect_error 2 "board 6x6 differs" "play --db with another board" \
    play --db "$DB_5X5" --board 6x6 </dev/null
  # A won position of a strategy database holds the winning move only: --no-search lists that,
  # otherwise the other moves are searched, and every move then agrees with a live solve.
  STRATEGY_7X7="$(dirname "$0")/../data/7x7-standard-strategy.rdb"
  expect_json "query --no-search of a strategy database's won position: the stored move" \
    'j["source"] == "database" and j["to_move"] == 1 and len(j["children"]) == 1' \
    query --db "$STRATEGY_7X7" --moves "c3 c2 d2 e1" --no-search --json --quiet
  run solve --moves "c3 c2 d2 e1" --json --quiet
  cp "$WORK/out" "$WORK/live.json"
  expect_json "query of a strategy database's won position: every move, as a live solve" \
    "j['source'] == 'database' and len(j['children']) == 4 and \
     (lambda s: (j['children'], j['best_moves'], j['remoteness']) == \
       (s['children'], s['best_moves'], s['remoteness']))(json.load(open('$WORK/live.json')))" \
    query --db "$STRATEGY_7X7" --moves "c3 c2 d2 e1" --json --quiet
  # data/README.md: the shipped file is what its command rebuilds, byte for byte.
  expect_ok "rebuild the shipped 5x5 database" solve --db "$WORK/5x5-rebuilt.rdb" --board 5x5 --quiet
  check_that "the rebuilt 5x5 database is the shipped file, byte for byte" \
    cmp -s "$WORK/5x5-rebuilt.rdb" "$DB_5X5"
else
  fail "play --db: $DB_5X5 is missing"
fi
expect_error 2 "--side must be 1 or 2" "play --side 3" play --board 4x4 --side 3 </dev/null
expect_error 3 "missing" "play with a missing database" play --db "$WORK/missing.rdb" </dev/null

# A message quoting input that is not ASCII stays valid UTF-8: whole characters are kept, a byte
# of no character is escaped, and a cut input ends before a character it would split.
is_utf8() { python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' <"$1" 2>/dev/null; }
expect_error 2 "position '7/7/7ÿ/3o3/7/7/7 1' has an unexpected character" \
  "a two-byte character in --position" show --position "7/7/7ÿ/3o3/7/7/7 1"
check_that "the message about a two-byte character is valid UTF-8" is_utf8 "$WORK/err"
expect_error 2 "unknown rules 'bo\\\\xffgus'" "a byte of no character in --rules" \
  show --rules $'bo\xffgus'
expect_error 2 "unknown game 'a(é){19}\\.\\.\\.'" "a cut inside a two-byte character" \
  --game "a$(printf 'é%.0s' {1..30})" show
check_that "the cut message is valid UTF-8" is_utf8 "$WORK/err"

finish cli_test
