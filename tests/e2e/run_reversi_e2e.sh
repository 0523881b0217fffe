#!/usr/bin/env bash
# The Reversi page's end-to-end test (reversi_e2e.mjs) against a real `rastros serve --game
# reversi --board 4x4` on a free loopback port, in headless Chromium, with the vendored
# playwright-core unpacked into the build tree. Usage: run_reversi_e2e.sh path/to/rastros
# SOURCE_DIR BUILD_DIR
# (exit 77: skipped, node too old)
set -euo pipefail
rastros=$1 source=$2 build=$3

major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 20)); then
  echo "SKIP: playwright-core needs Node.js 20 or later, found $(node --version)"
  exit 77
fi

work=$build/e2e-reversi
rm -rf "$work/package"
mkdir -p "$work"
tar -xzf "$source/tests/e2e/vendor/playwright-core-1.65.1.tgz" -C "$work"

server=
trap 'if [[ -n $server ]]; then kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; fi' EXIT
# shellcheck source=../serve_start.sh
source "$source/tests/serve_start.sh"
start_serve "$rastros" "" "$work" --game reversi --board 4x4
echo "server at $url"
node "$source/tests/e2e/reversi_e2e.mjs" "$url" "$build/reversi_e2e.png" "$work/package"
echo "screenshot: $build/reversi_e2e.png"
