# Shared by the shell tests (sourced): a work directory removed on exit, pass/fail counting and
# the summary line. Each script sets RASTROS (and anything else it needs) before sourcing.
WORK=$(mktemp -d)
# python3 through a version manager's shim (pyenv's is a bash script that runs pyenv) costs most
# of a second a call, and the checks make hundreds: find the interpreter itself once.
RASTROS_PYTHON=${RASTROS_PYTHON:-$(command python3 -c 'import sys; print(sys.executable)')}
export RASTROS_PYTHON
python3() { "$RASTROS_PYTHON" "$@"; }
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

# Checks of one `rastros` run, for the scripts that set RASTROS (cli_test.sh, kalah_cli_test.sh).
# run ARGS...: runs rastros, leaving its stdout, stderr and status in $WORK/out, $WORK/err, $status.
run() {
  "$RASTROS" "$@" >"$WORK/out" 2>"$WORK/err"
  status=$?
}

# expect_ok DESCRIPTION ARGS...: status 0 and something on stdout.
expect_ok() {
  local what=$1
  shift
  run "$@"
  if [[ $status -ne 0 ]]; then
    fail "$what: exit $status, expected 0; stderr: $(head -c 300 "$WORK/err")"
  elif [[ ! -s $WORK/out ]]; then
    fail "$what: nothing on stdout"
  else
    pass
  fi
}

# check_that DESCRIPTION COMMAND...: the command succeeds.
check_that() {
  local what=$1
  shift
  if "$@"; then pass; else fail "$what"; fi
}

# expect_error STATUS PATTERN DESCRIPTION ARGS...: the given status, nothing on stdout, exactly one
# line on stderr matching the (case-insensitive, extended) regular expression PATTERN.
expect_error() {
  local want=$1 pattern=$2 what=$3
  shift 3
  run "$@"
  local lines
  lines=$(wc -l <"$WORK/err")
  if [[ $status -ne $want ]]; then
    fail "$what: exit $status, expected $want; stderr: $(head -c 300 "$WORK/err")"
  elif [[ -s $WORK/out ]]; then
    fail "$what: stdout not empty: $(head -c 300 "$WORK/out")"
  elif [[ $lines -ne 1 ]]; then
    fail "$what: $lines lines on stderr, expected one: $(head -c 300 "$WORK/err")"
  elif ! grep -qiE -- "$pattern" "$WORK/err"; then
    fail "$what: stderr does not match '$pattern': $(cat "$WORK/err")"
  else
    pass
  fi
}

# expect_json DESCRIPTION PYTHON-CHECK ARGS...: status 0, stdout one line of JSON; the check is a
# Python expression over the parsed object `j`.
expect_json() {
  local what=$1 check=$2
  shift 2
  run "$@"
  if [[ $status -ne 0 ]]; then
    fail "$what: exit $status; stderr: $(head -c 300 "$WORK/err")"
    return
  fi
  if [[ $(wc -l <"$WORK/out") -ne 1 ]]; then
    fail "$what: stdout is not a single line: $(head -c 300 "$WORK/out")"
    return
  fi
  if ! python3 -c 'import json,sys; json.load(sys.stdin)' <"$WORK/out" 2>/dev/null; then
    fail "$what: stdout is not JSON: $(head -c 300 "$WORK/out")"
    return
  fi
  if python3 -c "import json,sys; j=json.load(sys.stdin); sys.exit(0 if ($check) else 1)" \
      <"$WORK/out"; then
    pass
  else
    fail "$what: check '$check' failed on: $(head -c 500 "$WORK/out")"
  fi
}
