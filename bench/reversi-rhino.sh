#!/bin/sh
# reversi-rhino.sh — issue 14's Reversi row: Ply's reversi bot at a fixed
# node budget against gtp-rhino at its strongest level (5), 100 games in
# 10 shards of 5 opening pairs (4 random plies, each played with both
# colours). A game costs about 13 minutes of one core (rhino spends
# 6-30 s of CPU a move), so the match spans sessions: each shard's
# records go to bench/records/reversi-rhino/shard-I.jsonl, which is
# committed as it grows, and a stopped shard continues with --resume.
# rhino ignores GTP time controls and may start slowly on a loaded
# machine: it has an hour for each move and for each game's set-up
# (--startup; at the default 10 s a starved rhino forfeited at
# "boardsize 8", and those games were dropped). The proxy logs its CPU
# per genmove (rhino-I.cpu beside the records); Ply's budget spends
# less CPU a move than rhino does (docs/reversi.md).
#   usage: sh bench/reversi-rhino.sh I...     (I in 1..10; one per core)
#          sh bench/reversi-rhino.sh merge    (the 100-game summary)
#   env: PLY=build/release/ply NODES=3000000 RHINO=/usr/games/gtp-rhino
set -u
PLY=${PLY:-build/release/ply}; NODES=${NODES:-3000000}
RHINO=${RHINO:-/usr/games/gtp-rhino}
DIR=bench/records/reversi-rhino
mkdir -p "$DIR"
[ $# -gt 0 ] || { sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 2; }
[ -x "$RHINO" ] || { echo "reversi-rhino.sh: no $RHINO (apt-get install grhino)" >&2; exit 2; }
if [ "$1" = merge ]; then
    # the whole match's statistics once every shard is played; before
    # that (--merge refuses a match with games missing) Ply's score so far
    "$PLY" match --merge "$DIR"/shard-*.jsonl 2>/dev/null && exit 0
    cat "$DIR"/shard-*.jsonl | python3 -c '
import json, sys
w = d = l = 0
for line in sys.stdin:
    r = json.loads(line)
    v = r["result"][r["seats"].index([s for s in r["seats"] if s != "rhino"][0])]
    w, d, l = w + (v > 0), d + (v == 0), l + (v < 0)
n = w + d + l
print(f"{n} of 100 games so far: Ply +{w} ={d} -{l}" +
      (f", {100 * (w + d / 2) / n:.1f}%" if n else ""))'
    exit 0
fi
for i in "$@"; do
    case $i in [1-9]|10) ;; *) echo "reversi-rhino.sh: shard $i not in 1..10" >&2; exit 2 ;; esac
    out=$DIR/shard-$i.jsonl
    resume=""; [ -s "$out" ] && resume=--resume
    "$PLY" match reversi "reversi:nodes=$NODES" rhino \
        --engine "rhino=python3 scripts/gtp-cpu-proxy.py $DIR/rhino-$i.cpu $RHINO -l 5,proto=gtp" \
        --movetime 3600s --startup 3600s -n 100 -j 1 --seed 21 \
        --openings random:4 \
        --shard "$i/10" --out "$out" $resume || exit $?
done
