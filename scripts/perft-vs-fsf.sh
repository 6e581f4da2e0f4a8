#!/bin/sh
# perft-vs-fsf.sh — perft speed of ./ply beside Fairy-Stockfish's `go perft`
# on the same machine in the same run (start positions). FSF's time is the
# wall time of the whole process (about 0.3 s of it is start-up).
#   sh scripts/perft-vs-fsf.sh ["chess 6" "makruk 6" ...]
# Needs ./ply (make) and /usr/games/fairy-stockfish (apt-get install
# fairy-stockfish). The machine is shared: run it twice and compare.
set -u
FSF=${FSF:-/usr/games/fairy-stockfish}
[ $# -gt 0 ] || set -- "chess 6" "makruk 6" "shatranj 6" "xiangqi 5"
for vd in "$@"; do
    set -- $vd
    s=$(date +%s.%N)
    n=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
        "$1" "$2" | "$FSF" 2>&1 | sed -n 's/^Nodes searched: //p')
    e=$(date +%s.%N)
    awk -v v="$1" -v d="$2" -v n="$n" -v s="$s" -v e="$e" 'BEGIN {
        printf "fsf %-9s d%s %12s nodes %8.2f s %12.0f nodes/s\n",
               v, d, n, e - s, n / (e - s) }'
    ./ply perft "$1" "$2" | tail -1 | awk -v v="$1" -v d="$2" '{
        printf "ply %-9s d%s %12s nodes %8.2f s %12.0f nodes/s\n",
               v, d, $3, $4, $6 }'
done
