#!/usr/bin/env bash
# The documentation's examples run as written, and its links stay inside the repository.
#
#   bash tests/docs_test.sh path/to/rastros [repository root]
#
# Commands: every line of a ```sh, ```bash or ```shell block in README.md, docs/*.md,
# bench/README.md and data/README.md that starts with `rastros` or pipes into `rastros` runs
# with `rastros` meaning the binary given. It must exit 0 within TIMEOUT seconds (default 120),
# or with the status a trailing `# exit N` names. Lines whose comment says `# not run` are
# shown to readers only (interactive, a server, too slow for CI, or mpirun). A line ending in
# `# setup` runs whatever its first word (it writes an input file for the lines after it).
# A line ending in `\` continues on the next. Each page's lines run in order, in a scratch
# directory of its own where `data` is the repository's data/ (so data/... resolves and the
# files the examples write stay out of the repository).
#
# Links: every markdown link and image in those pages must be a relative path to a file or
# directory of the repository (no http://, https:// or other scheme, no absolute path, no
# ../ out of the repository), and an #anchor must name a heading of the page it points to.
#
# Prints one line per check and then "N passed, M failed"; exits 1 if any failed.
set -uo pipefail

if (($# < 1)); then
  echo "usage: $0 path/to/rastros [repository root]" >&2
  exit 2
fi
rastros=$(realpath "$1")
root=$(realpath "${2:-$(dirname "$0")/..}")
timeout_seconds=${TIMEOUT:-120}
[[ -x $rastros ]] || { echo "$0: $rastros is not an executable" >&2; exit 2; }
[[ -f $root/README.md ]] || { echo "$0: $root holds no README.md" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$rastros" "$work/bin/rastros"

pages=("$root/README.md")
for page in "$root"/docs/*.md "$root/bench/README.md" "$root/data/README.md"; do
  [[ -f $page ]] && pages+=("$page")
done

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok    $*"; }
fail() { failed=$((failed + 1)); echo "FAIL  $*"; }

# extract PAGE: one record per example line, fields separated by a tab:
# line number, expected status ("skip" for a line not run), command.
extract() {
  python3 - "$1" <<'PY'
import re, sys
fence = re.compile(r'^\s*(```+|~~~+)\s*([\w+-]*)')
runnable = re.compile(r'(^|\|\s*)rastros(\s|$)')
lines = open(sys.argv[1], encoding='utf-8').read().split('\n')
in_block = None  # the fence that opened the block, and whether its lines are shell
number = 0
pending, start = '', 0
for number, line in enumerate(lines, 1):
    match = fence.match(line)
    if in_block is None:
        if match:
            in_block = (match.group(1), match.group(2) in ('sh', 'bash', 'shell'))
        continue
    if match and match.group(1)[0] == in_block[0][0] and not match.group(2):
        in_block = None
        continue
    if not in_block[1]:
        continue
    if not pending:
        start = number
    if line.rstrip().endswith('\\'):
        pending += line.rstrip()[:-1] + ' '
        continue
    command, pending = (pending + line).strip(), ''
    if not command or command.startswith('#'):
        continue
    if re.search(r'#\s*not run\b', command):
        expected = 'skip'
    elif re.search(r'#\s*setup\s*$', command):
        expected = '0'
    elif runnable.search(command):
        status = re.search(r'#\s*exit\s+([0-9]+)\b', command)
        expected = status.group(1) if status else '0'
    else:
        continue  # shown only: setup.sh, mpirun, build/bench/..., a job script
    print(f'{start}\t{expected}\t{command}')
PY
}

run_examples() {  # run_examples PAGE
  local page=$1 name dir
  name=${page#"$root"/}
  dir=$work/run/${name//\//_}
  mkdir -p "$dir"
  ln -s "$root/data" "$dir/data"
  local number expected command status log=$work/last.log
  while IFS=$'\t' read -r number expected command; do
    if [[ $expected == skip ]]; then
      echo "skip  $name:$number: $command"
      continue
    fi
    (cd "$dir" && PATH="$work/bin:$PATH" timeout --kill-after=10 "$timeout_seconds" \
      bash -o pipefail -c "$command" </dev/null >"$log" 2>&1)
    status=$?
    if [[ $status == "$expected" ]]; then
      pass "$name:$number: $command"
    elif ((status == 124)); then
      fail "$name:$number: $command (still running after $timeout_seconds s)"
    else
      fail "$name:$number: $command (exit $status, expected $expected)"
      tail -n 5 "$log" | sed 's/^/        /'
    fi
  done < <(extract "$page")
}

check_links() {  # check_links PAGE...: one line per link, "ok" or the problem
  python3 - "$root" "$@" <<'PY'
import os, re, sys, unicodedata
root = os.path.realpath(sys.argv[1])

def strip_code(text):
    """The text without fenced blocks and inline code, lines kept in place."""
    out, fence = [], None
    for line in text.split('\n'):
        match = re.match(r'^\s*(```+|~~~+)', line)
        if fence is None and match:
            fence = match.group(1)[0]
            out.append('')
            continue
        if fence is not None:
            if match and match.group(1)[0] == fence:
                fence = None
            out.append('')
            continue
        out.append(re.sub(r'(`+)(.+?)\1', '', line))
    return out

def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r'(`+)(.+?)\1', r'\2', heading.strip())
    heading = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading)
    kept = ''.join(c for c in heading.lower()
                   if c.isalnum() or c in ' -_' or unicodedata.category(c) == 'Mn')
    return kept.replace(' ', '-')

anchors_of = {}
def anchors(path):
    if path not in anchors_of:
        seen, found = {}, set()
        for line in strip_code(open(path, encoding='utf-8').read()):
            match = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
            if not match:
                continue
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f'{base}-{count}')
        anchors_of[path] = found
    return anchors_of[path]

link = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
reference = re.compile(r'^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)')
for page in sys.argv[2:]:
    name = os.path.relpath(page, root)
    here = os.path.dirname(page)
    for number, line in enumerate(strip_code(open(page, encoding='utf-8').read()), 1):
        targets = [m.group(1) for m in link.finditer(line)]
        match = reference.match(line)
        if match:
            targets.append(match.group(1))
        for target in targets:
            where = f'link {name}:{number}: {target}'
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target) or target.startswith('//'):
                print(f'FAIL\t{where} (points outside the repository)')
                continue
            path, _, anchor = target.partition('#')
            if path.startswith('/'):
                print(f'FAIL\t{where} (an absolute path)')
                continue
            resolved = os.path.realpath(os.path.join(here, path)) if path else page
            if resolved != root and not resolved.startswith(root + os.sep):
                print(f'FAIL\t{where} (leaves the repository)')
            elif not os.path.exists(resolved):
                print(f'FAIL\t{where} (no such file)')
            elif anchor and not (resolved.endswith('.md') and anchor in anchors(resolved)):
                print(f'FAIL\t{where} (no heading with that anchor)')
            else:
                print(f'ok\t{where}')
PY
}

for page in "${pages[@]}"; do
  run_examples "$page"
done

while IFS=$'\t' read -r verdict what; do
  if [[ $verdict == ok ]]; then pass "$what"; else fail "$what"; fi
done < <(check_links "${pages[@]}")

echo "$passed passed, $failed failed"
((failed == 0))
