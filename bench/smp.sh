#!/bin/sh
# smp.sh — Lazy SMP of the alphabeta bot: time to a fixed depth and
# nodes/s with threads=1 and threads=2 (or THREADS="1 2 4"), side by side,
# on middlegame positions of chess, xiangqi and shogi; the run with the
# best wall time of R runs each, with its CPU time (user + sys) and nodes
# per wall second. On a busy machine a second thread may get no second
# core: compare CPU times then (the load average is printed before and
# after).
#   usage: sh bench/smp.sh [PLY]   (env: R=3 THREADS="1 2")
set -u
PLY=${1:-./ply}; R=${R:-3}; THREADS=${THREADS:-1 2}
# game|depth|--setup or --moves|argument
positions() {
    cat <<'P'
chess|10|--setup|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
chess|11|--setup|r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8
chess|11|--setup|2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12
xiangqi|9|--moves|h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5 b2b6 h7i7
xiangqi|8|--moves|b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 b0b7 f7f5 b7d7 f9e8 d7h7 g9e7 h7h8 f5i5 g0i2 i5c5 c0e2 a8b8 b9a9 b8b9
shogi|8|--moves|7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d
shogi|8|--moves|5i4h 8b6b 4h3h 6b3b 3h4h 7a6b 6i5h 3a4b 9g9f 5a5b 9f9e 5b5a 8g8f 5a5b 8f8e 5b5a 7g7f 5a5b 7f7e 5b5a
P
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %5s' game depth
for t in $THREADS; do
    printf ' | threads=%-2s %8s %7s %9s %6s' "$t" wall cpu nodes/s best
done
echo
positions | while IFS='|' read -r g d how arg; do
    printf '%-8s %5s' "$g" "$d"
    for t in $THREADS; do
        best=""; line=""
        for i in $(seq "$R"); do
            tf=$(mktemp)
            out=$(/usr/bin/time -f '%U %S' -o "$tf" "$PLY" analyze "$g" \
                  "$how" "$arg" --bot "alphabeta:depth=$d,threads=$t" |
                  awk '/^best:/{m=$2} /^nodes:/{n=$2} /^time:/{sub("s","",$2); s=$2}
                       END{printf "%s %s %s", s, n, m}')
            out="$out $(awk '{printf "%.2f", $1 + $2}' "$tf")"
            rm -f "$tf"
            s=${out%% *}
            if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then
                best=$s; line=$out
            fi
        done
        set -- $line
        nps=$(awk "BEGIN{printf \"%.0f\", ($1 > 0) ? $2 / $1 : 0}")
        printf ' | %10s %7.3fs %6ss %9s %6s' "" "$1" "$4" "$nps" "$3"
    done
    echo
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
