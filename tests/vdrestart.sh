#!/bin/sh
# vdrestart.sh — a Vindinium training game survives a kill -9 of the
# server: the server restarts on the same database and port, resumes the
# journaled game, the client (retrying its move) finishes it. Loopback
# only; every wait is bounded; everything started here is killed on exit.
set -u
PLY=${PLY:-./ply}
dir=$(mktemp -d /tmp/ply-vdrestart-XXXXXX)
spid=
cpid=
cleanup() {
    [ -n "$spid" ] && kill -9 "$spid" 2>/dev/null
    [ -n "$cpid" ] && kill -9 "$cpid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/*.out "$dir"/*.err; do echo "== $f"; cat "$f"; done; exit 1; }

# waits (at most 10 s) for a pattern in a file
wait_for() {
    i=0
    while ! grep -q -- "$2" "$1" 2>/dev/null; do
        i=$((i + 1)); [ $i -le 100 ] || return 1
        sleep 0.1
    done
}

start_server() {   # $1: port, $2: log name
    "$PLY" serve vindinium --port "$1" --db "$dir/vd.db" --min-move-ms 20 \
        --seed 5 >"$dir/$2.out" 2>"$dir/$2.err" &
    spid=$!
    wait_for "$dir/$2.out" "vindinium server on" || fail "server $2 did not start"
}

start_server 0 server1
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/server1.out")
[ -n "$port" ] || fail "no port"

"$PLY" vindinium-client --server "http://127.0.0.1:$port" --key restarter \
    --turns 60 --map m1 --bot random --seed 3 --reconnect-ms 20000 \
    --max-seconds 60 >"$dir/client.out" 2>"$dir/client.err" &
cpid=$!
wait_for "$dir/client.err" "^game " || fail "the client did not start a game"
sleep 0.4
kill -9 "$spid"
wait "$spid" 2>/dev/null
spid=
kill -0 "$cpid" 2>/dev/null || fail "the game ended before the kill"

start_server "$port" server2
grep -q "resumed 1 game in progress" "$dir/server2.err" || fail "no game resumed"

i=0
while kill -0 "$cpid" 2>/dev/null; do
    i=$((i + 1)); [ $i -le 300 ] || fail "the client did not finish in 30 s"
    sleep 0.1
done
wait "$cpid"; rc=$?
cpid=
[ $rc -eq 0 ] || fail "client exit $rc"
id=$(sed -n 's/^game \([0-9a-z]*\), hero 1.*/\1/p' "$dir/client.err")
grep -q "^game $id: hero 1 place [1-4]" "$dir/client.out" || fail "game $id did not finish"
kill -TERM "$spid"; wait "$spid" 2>/dev/null; spid=
echo "game $id survived kill -9 of the server and finished"
