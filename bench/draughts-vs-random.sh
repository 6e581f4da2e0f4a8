#!/bin/sh
# draughts-vs-random.sh — alphabeta against random in every draughts
# variant (the draughts issue's bar: at least 98 of 100 games).
#   usage: sh bench/draughts-vs-random.sh   (env: N=100 TC=50ms J=2)
set -u
N=${N:-100}; TC=${TC:-50ms}; J=${J:-2}; PLY=${PLY:-./ply}
mkdir -p bench/out
for g in $($PLY list | awk '/^  draughts-/{print $1}'); do
    $PLY match "$g" alphabeta random -n "$N" -j "$J" --tc "$TC" \
        --openings random:2 --seed 11 --out "bench/out/$g-ab-vs-random.jsonl" \
        --quiet 2>/dev/null | grep -E ' vs .*score' | sed "s/^/$g: /"
done
