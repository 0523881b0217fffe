#!/usr/bin/env bash
# A page's end-to-end test (tests/e2e/NAME.mjs) against a real `rastros serve` on a free
# loopback port, in headless Chromium, with the vendored playwright-core unpacked into the build
# tree; every test runs on the harness of browser.mjs. The pages: serve_e2e (Rastros, the 5x5
# database), kalah_e2e (Kalah(3,3)), congkak_e2e (Congkak(3,3), then other variants),
# oware_e2e (Oware(3,2) over a 4-seed database), reversi_e2e (Reversi 4x4).
# The server serves the pages of SOURCE_DIR/data/web, the tree under test.
# Usage: run_e2e.sh NAME path/to/rastros SOURCE_DIR BUILD_DIR    (exit 77: skipped, node too old)
set -euo pipefail
name=$1 rastros=$2 source=$3 build=$4

major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 20)); then
  echo "SKIP: playwright-core needs Node.js 20 or later, found $(node --version)"
  exit 77
fi

work=$build/e2e-$name
rm -rf "$work/package"
mkdir -p "$work"
tar -xzf "$source/tests/e2e/vendor/playwright-core-1.65.1.tgz" -C "$work"

server=
trap 'if [[ -n $server ]]; then kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; fi' EXIT
# shellcheck source=../serve_start.sh
source "$source/tests/serve_start.sh"
case $name in
  serve_e2e) start_serve "$rastros" "$source/data/5x5-standard.rdb" "$work" --web-root "$source/data/web" ;;
  kalah_e2e) start_serve "$rastros" "" "$work" --web-root "$source/data/web" --game kalah --houses 3 --seeds 3 ;;
  congkak_e2e) start_serve "$rastros" "" "$work" --web-root "$source/data/web" --game congkak --houses 3 --seeds 3 ;;
  oware_e2e) start_serve "$rastros" "" "$work" --web-root "$source/data/web" --game oware --houses 3 --seeds 2 --endgame-seeds 4 ;;
  reversi_e2e) start_serve "$rastros" "" "$work" --web-root "$source/data/web" --game reversi --board 4x4 ;;
  *) echo "run_e2e.sh: unknown page test '$name'" >&2; exit 2 ;;
esac
echo "server at $url"
node "$source/tests/e2e/$name.mjs" "$url" "$build/$name.png" "$work/package"
echo "screenshots: $build/$name*.png"
