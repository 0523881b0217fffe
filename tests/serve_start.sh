# Shared by the tests that drive a live `rastros serve` (sourced): start_serve RASTROS DB WORK
# [OPTION...] starts it (with --db DB unless DB is empty, and the options) on a free loopback port, its stdout and stderr in WORK/serve.out and WORK/serve.log,
# and waits for the line that names its URL. Sets $server (the process) and $url; exits 1 when
# the server exits first or no URL appears within 10 s. The caller's EXIT trap must stop $server.
start_serve() {
  local rastros=$1 db=$2 work=$3
  shift 3
  # Emptied first: a line left by an earlier run must not be read as this server's URL.
  : >"$work/serve.out"
  "$rastros" serve --port 0 ${db:+--db "$db"} "$@" >"$work/serve.out" 2>"$work/serve.log" &
  server=$!
  for _ in $(seq 100); do
    # The whole first line, not just its first bytes (a partly written line read as no URL).
    grep -q '^listening on http://127.0.0.1:[0-9]*/$' "$work/serve.out" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || break # it exited: no URL will come
    sleep 0.1
  done
  url=$(awk 'NR == 1 {print $3}' "$work/serve.out")
  [[ $url == http://127.0.0.1:* ]] || {
    echo "server did not start: $(cat "$work/serve.log")"
    exit 1
  }
}
