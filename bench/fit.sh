#!/bin/sh
# fit.sh — fit a game's evaluation weights from self-play and check the
# fit in play (docs/tuning.md, "The games of the Dagaz list"):
#   1. records: alphabeta:nodes=LO against alphabeta:nodes=HI, N games,
#      --openings random:8 --seed 1 (OUT/rec-GAME.jsonl; resumed if there)
#   2. ply tune --epochs 500 [TUNE args] -> OUT/GAME.h, and the compiled
#      weights -> OUT/GAME-init.h
#   3. verification: alphabeta:nodes=VN,weights=OUT/GAME.h against the
#      compiled alphabeta:nodes=VN, V games, --openings random:4 --seed 2
#      (OUT/ver-GAME.jsonl; resumed if there)
#   usage: sh bench/fit.sh GAME...
#   env: PLY=build/release/ply OUT=bench/out/fit N=400 LO=1000 HI=1500
#        V=200 VN=4000 J=2 TUNE="--freeze penalty"
set -u
PLY=${PLY:-build/release/ply}; OUT=${OUT:-bench/out/fit}
N=${N:-400}; LO=${LO:-1000}; HI=${HI:-1500}; V=${V:-200}; VN=${VN:-4000}
J=${J:-2}; TUNE=${TUNE:-}
[ $# -gt 0 ] || { sed -n '2,14p' "$0"; exit 2; }
mkdir -p "$OUT"
for g in "$@"; do
    r=""; [ -s "$OUT/rec-$g.jsonl" ] && r=--resume
    "$PLY" match "$g" "alphabeta:nodes=$LO" "alphabeta:nodes=$HI" -n "$N" \
        -j "$J" --openings random:8 --seed 1 --out "$OUT/rec-$g.jsonl" $r \
        > "$OUT/rec-$g.log" 2>&1 || { echo "fit.sh: $g: records failed" >&2; exit 1; }
    # shellcheck disable=SC2086
    "$PLY" tune --game "$g" "$OUT/rec-$g.jsonl" --epochs 500 $TUNE \
        --out "$OUT/$g.h" > "$OUT/tune-$g.log" 2>&1 || { echo "fit.sh: $g: tune failed" >&2; exit 1; }
    "$PLY" tune --game "$g" "$OUT/rec-$g.jsonl" --epochs 0 \
        --out "$OUT/$g-init.h" > /dev/null 2>&1
    r=""; [ -s "$OUT/ver-$g.jsonl" ] && r=--resume
    "$PLY" match "$g" "alphabeta:nodes=$VN,weights=$OUT/$g.h" \
        "alphabeta:nodes=$VN" -n "$V" -j "$J" --openings random:4 --seed 2 \
        --out "$OUT/ver-$g.jsonl" $r > "$OUT/ver-$g.log" 2>&1 \
        || { echo "fit.sh: $g: verification failed" >&2; exit 1; }
    sed -n '/^error/,/^wrote/p' "$OUT/tune-$g.log"
    grep "^alphabeta.* vs .*score" "$OUT/ver-$g.log"
done
