#!/bin/sh
# strength.sh — the strength table of the bots issue: each search bot
# against random and greedy, and mcts against alphabeta, at a fixed time per
# move, N games per pairing (seats swapped on each opening).
#   usage: sh bench/strength.sh [GAMES...]    (env: N=100 TC=100ms J=2)
# Writes bench/out/GAME-A-vs-B.jsonl records and prints the summary lines.
set -u
N=${N:-100}; TC=${TC:-100ms}; J=${J:-2}
PLY=${PLY:-./ply}
games=${*:-$($PLY list | awk '/^games:/{f=1;next} /^bots:/{f=0} f{print $1}')}
mkdir -p bench/out
for g in $games; do
    for pair in "mcts random" "alphabeta random" "mcts greedy" \
                "alphabeta greedy" "mcts alphabeta"; do
        set -- $pair
        out=bench/out/$g-$1-vs-$2.jsonl
        rm -f "$out"
        $PLY match "$g" "$1" "$2" -n "$N" -j "$J" --tc "$TC" \
            --openings random:2 --seed 7 --out "$out" --quiet 2>/dev/null |
            grep -E ' vs .*score' | sed "s/^/$g: /"
    done
done
