#!/bin/bash
# mcts-speed.sh — CPU time of `ply analyze` with fixed-iteration bot specs
# on two ply binaries, runs interleaved (old, new, old, ...), the best of
# N each: compares search speed with the iteration counts and results
# equal (the output of the two must match, which is checked too).
#   usage: bash bench/mcts-speed.sh OLD NEW [N] ["GAME SPEC" ...]
set -u
A=$1; B=$2; N=${3:-5}; shift 2; [ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- "zuniq mcts:iterations=300000,reuse=0" \
    "kalah mcts:iterations=300000,reuse=0" \
    "zuniq mcts:iterations=200000,reuse=0,rave=1"
for spec in "$@"; do
    g=${spec%% *}; bot=${spec#* }
    ba=999; bb=999
    ra=$($A analyze "$g" --bot "$bot" --seed 1 | grep -v 'time\|nodes/s')
    rb=$($B analyze "$g" --bot "$bot" --seed 1 | grep -v 'time\|nodes/s')
    [ "$ra" = "$rb" ] || echo "$g $bot: the results differ"
    for _ in $(seq "$N"); do
        ta=$( { /usr/bin/time -f "%U" "$A" analyze "$g" --bot "$bot" \
                --seed 1 >/dev/null; } 2>&1 | tail -1)
        tb=$( { /usr/bin/time -f "%U" "$B" analyze "$g" --bot "$bot" \
                --seed 1 >/dev/null; } 2>&1 | tail -1)
        ba=$(echo "$ta $ba" | awk '{print ($1<$2)?$1:$2}')
        bb=$(echo "$tb $bb" | awk '{print ($1<$2)?$1:$2}')
    done
    echo "$g $bot: old ${ba}s new ${bb}s new/old" \
        "$(echo "$bb $ba" | awk '{printf "%.3f", $1/$2}')"
done
