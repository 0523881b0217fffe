# Shared by the shell tests (sourced): a work directory removed on exit, pass/fail counting and
# the summary line. Each script sets RASTROS (and anything else it needs) before sourcing.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
}
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
  local what=$1
  shift
  if "$@"; then pass; else fail "$what"; fi
}
# finish NAME: prints the counts; the script's status is 0 only when nothing failed.
finish() {
  echo "$1: $passed passed, $failed failed"
  [[ $failed -eq 0 ]]
}
# squares FILE: the "squares" object of a map's JSON (nodes and seconds differ between runs).
squares() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["squares"]))' "$1"; }
