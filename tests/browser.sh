#!/bin/sh
# browser.sh — the web page end to end in Debian's headless chromium, driven by
# playwright-core (tests/web/, installed with `npm ci` from its lockfile
# when node_modules is missing or the lockfile changed). Starts `ply serve`
# on a free loopback port, runs tests/web/run.mjs against it, and always
# kills the server. Screenshots go to $BUILD/web/ (kept as artifacts).
# Environment: PLY (the ply binary), BUILD (build dir), CHROMIUM (the
# browser, default /usr/bin/chromium), WEB_ONLY (a test name filter),
# WEB_SWEEP_PLIES (the sweep stops each game after that many plies).
set -u
PLY=${PLY:-./ply}
BUILD=${BUILD:-build/release}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
root=$(cd "$(dirname "$0")/.." && pwd)
tw=$root/tests/web
out=$BUILD/web
mkdir -p "$out"
out=$(cd "$out" && pwd)
spid=
cleanup() {
    if [ -n "$spid" ]; then kill "$spid" 2>/dev/null; sleep 0.2; kill -9 "$spid" 2>/dev/null; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; [ -f "$out/server.err" ] && tail -n 20 "$out/server.err"; exit 1; }

[ -x "$CHROMIUM" ] || fail "$CHROMIUM is missing: run scripts/install-deps.sh as root (Debian package chromium)"
command -v node >/dev/null || fail "node is missing: run scripts/install-deps.sh as root"
command -v npm >/dev/null || fail "npm is missing: run scripts/install-deps.sh as root"

# npm ci only when node_modules is missing or the lockfile changed
stamp=$tw/node_modules/.ply-lockfile
if ! cmp -s "$tw/package-lock.json" "$stamp" 2>/dev/null; then
    echo "web: npm ci in tests/web"
    (cd "$tw" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) \
        || fail "npm ci failed"
    cp "$tw/package-lock.json" "$stamp"
fi

# the page's move entry logic alone (no browser)
node --test "$tw/entry.test.mjs" >"$out/entry.log" 2>&1 || { cat "$out/entry.log"; fail "entry.test.mjs"; }
echo "web: $(grep -E '^# (pass|fail) ' "$out/entry.log" | tr '\n' ' ')(entry.test.mjs)"

# the server, bounded: it dies after 17 minutes whatever happens here
timeout 1020 "$PLY" serve --host 127.0.0.1 --port 0 \
    >"$out/server.out" 2>"$out/server.err" &
spid=$!
i=0
url=
while [ -z "$url" ]; do
    i=$((i + 1)); [ $i -le 100 ] || fail "ply serve did not print its URL in 10 s"
    kill -0 "$spid" 2>/dev/null || fail "ply serve exited"
    sleep 0.1
    url=$(sed -n 's|.*\(http://127.0.0.1:[0-9][0-9]*/\).*|\1|p' "$out/server.out" 2>/dev/null | head -n 1)
done
echo "web: server at $url, screenshots in $out"

# a sanitizer build's server is several times slower: the sweep over every
# game then stops each game after 40 plies instead of playing it out
case "$BUILD" in
    *sanitize*|*tsan*) : "${WEB_SWEEP_PLIES:=40}"; export WEB_SWEEP_PLIES ;;
esac
# the tests, bounded: the sweep alone takes 2-4 minutes on an idle
# machine and was cut at 240 s on a loaded one; each test has its own limit
CHROMIUM=$CHROMIUM PLY=$PLY timeout 960 node "$tw/run.mjs" "$url" "$out"
rc=$?
kill -0 "$spid" 2>/dev/null || { echo "FAIL: ply serve died during the tests"; rc=1; }
exit $rc
