#!/bin/sh
# search-depth.sh — the depth alphabeta reaches in T seconds (default 3)
# on three chess middlegames, and with FSF=path the depth of a UCI engine
# (Fairy-Stockfish) on the same positions with the same time, hash and
# one thread.
#   usage: sh bench/search-depth.sh [PLY [BOT_OPTIONS]]   (env: T=3, FSF=)
set -u
PLY=${1:-./ply}
OPTS=${2:-}
T=${T:-3}
FSF=${FSF:-}
for fen in "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8" \
           "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8" \
           "2rq1rk1/pb2bppp/1pn1pn2/2pp4/3P4/1PNBPN2/PBQ2PPP/2R2RK1 w - - 0 12"; do
    printf 'ply: '
    "$PLY" analyze chess --setup "$fen" \
        --bot "alphabeta:time=${T}s,hash=16${OPTS:+,$OPTS}" 2>&1 |
        grep -E '^(depth|nodes):' | tr '\n' ' '
    echo
    if [ -n "$FSF" ]; then
        printf 'engine: '
        (printf 'uci\nsetoption name Hash value 16\n'
         printf 'setoption name Threads value 1\nisready\n'
         printf 'position fen %s\ngo movetime %d\n' "$fen" $((T * 1000))
         sleep $((T + 1)); echo quit) |
            timeout $((T + 5)) "$FSF" | grep '^info depth' | tail -1 |
            awk '{print "depth", $3, "(seldepth", $5 ")"}'
    fi
done
