#!/bin/sh
# tsan.sh — the threaded code under ThreadSanitizer (make MODE=tsan):
# MCTS with threads=2 (test_mcts's threaded tests), the engine session's search thread
# (test_session), alpha-beta's Lazy SMP (threads=2), the Vindinium server (test_vdserver,
# then six clients at once against `ply serve`), and ply match's worker
# threads with threaded bots and with engine processes, the public API's
# games of one match on two threads (test_libply), ply train's gen and
# rescore on two threads. Fails on any
# ThreadSanitizer report. Needs $BUILD (a tsan build dir with ply,
# tests/test_mcts, tests/test_session, tests/test_libply and tests/test_vdserver) and $PLY_CLIENT (any ply, for
# the clients). Run from the top of the tree.
set -u
T=$(mktemp -d)
SP=
cleanup() { [ -n "$SP" ] && kill "$SP" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 log_path=$T/tsan"
fails=0
step() {
    name=$1; shift
    if "$@" > "$T/$name.log" 2>&1; then
        echo "ok   $name"
    else
        echo "FAIL $name (exit $?)"; tail -n 20 "$T/$name.log"
        fails=$((fails + 1))
    fi
}
P=$BUILD/ply
# test_mcts's tests that search on several threads (test_tiny_pool,
# test_threads, test_three_players); the whole binary took over 17 CPU
# minutes under TSan, most of it single-threaded solver checks
step test_mcts env PLY_TEST_FILTER='test_t*' "$BUILD/tests/test_mcts"
step test_vdserver "$BUILD/tests/test_vdserver"
# without test_default_bot: one thread building every game's default
# bot (the endgame databases of oware and kalah), 6 CPU minutes under TSan
step test_session env PLY_TEST_SKIP=test_default_bot "$BUILD/tests/test_session"
step test_libply "$BUILD/tests/test_libply"
step test_web "$BUILD/tests/test_web"
step match-smp "$P" match kalah "alphabeta:threads=2,depth=7" \
    "alphabeta:depth=5" -n 4 -j 2 --out "$T/s.jsonl"
step match-threads "$P" match kalah "mcts:threads=2,iterations=3000" \
    "alphabeta:depth=3" -n 4 -j 2 --out "$T/m.jsonl"
step match-engines "$P" match kalah random u -n 6 -j 2 \
    --engine "u=$PLY_CLIENT ugi --bot random" --out "$T/e.jsonl"
# ply train's worker threads: self-play data, then the data rescored
step train-gen "$P" train gen --game reversi --games 3 -j 2 \
    --play alphabeta:nodes=300 --depth 2 --keep 0.5 --out "$T/t.txt"
step train-rescore "$P" train rescore --game reversi --depth 2 -j 2 \
    --out "$T/t2.txt" "$T/t.txt"

# the server with concurrent clients: an arena game of four, two trainings
port=$((20000 + $$ % 20000))
"$P" serve vindinium --port "$port" --db "$T/v.db" --timeout-ms 5000 \
    > "$T/server.log" 2>&1 &
SP=$!
i=0
until curl -s -o /dev/null "http://127.0.0.1:$port/ai" || [ $i -ge 100 ]; do
    sleep 0.1; i=$((i + 1))
done
pids=
for k in 1 2 3 4; do
    timeout 300 "$PLY_CLIENT" vindinium-client --server "http://127.0.0.1:$port" \
        --key "a$k" --mode arena --bot vindinium-simple > "$T/a$k.log" 2>&1 &
    pids="$pids $!"
done
for k in 1 2; do
    timeout 300 "$PLY_CLIENT" vindinium-client --server "http://127.0.0.1:$port" \
        --key "t$k" --mode training --turns 40 --bot vindinium-simple \
        > "$T/t$k.log" 2>&1 &
    pids="$pids $!"
done
ok=0
for p in $pids; do wait "$p" && ok=$((ok + 1)); done
kill "$SP"; wait "$SP"; SP=
if [ $ok -eq 6 ]; then echo "ok   server: 6 clients finished"
else echo "FAIL server: $ok of 6 clients finished"; fails=$((fails + 1)); fi

reports=$(cat "$T"/tsan* 2>/dev/null | grep -c 'WARNING: ThreadSanitizer')
if [ "$reports" -gt 0 ]; then
    cat "$T"/tsan*
    echo "FAIL: $reports ThreadSanitizer report(s)"; fails=$((fails + 1))
fi
echo "tsan: $fails failure(s), $reports report(s)"
[ $fails -eq 0 ]
