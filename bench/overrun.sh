#!/bin/sh
# overrun.sh — time discipline: how far moves overrun their budget (issue
# 21). Builds tests/bench/overrun.c against the release library and runs
# MOVES self-play moves of each bot at 100 ms on chess, kalah, reversi
# and draughts-russian in turn (the bot keeps its tree between moves).
# Prints min / median / p99 / max of elapsed - budget; exits non-zero
# when a move went over.
#   usage: sh bench/overrun.sh [MOVES] [SPEC ...]
#   (defaults: 1000 moves; alphabeta:time=100ms mcts:time=100ms)
set -u
MOVES=${1:-1000}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- alphabeta:time=100ms mcts:time=100ms
make -s -j2 build/release/libply.a || exit 1
mkdir -p build/release/bench
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -o build/release/bench/overrun \
    tests/bench/overrun.c build/release/libply.a \
    -lmicrohttpd -ljansson -lsqlite3 -lcurl -lm -pthread || exit 1
rc=0
for spec in "$@"; do
    build/release/bench/overrun "$spec" "$MOVES" chess kalah reversi \
        draughts-russian || rc=1
done
exit $rc
