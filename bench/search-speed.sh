#!/bin/sh
# search-speed.sh — fixed-depth alphabeta search time of one or more ply
# binaries on middlegame positions of xiangqi, shogi and minishogi (the
# first plies of seeded alphabeta games), the best of R runs: compares
# search speed (gen_noisy, evaluation) with the node counts equal.
#   usage: sh bench/search-speed.sh [PLY ...]   (env: R=5)
set -u
R=${R:-5}
[ $# -eq 0 ] && set -- ./ply
positions() {
    case $1 in
    xiangqi) cat <<'P'
b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 h2c2 a7a3 c2c6 i9i8 b0b3 i8b8 b3a3 b8b9 c6g6 f7c7 g0e2 a6a5 c3c4 a5a4
b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 h2c2 a7a3 c2c6 i9i8 b0b3 i8b8 b3a3 b8b9 c6g6 f7c7 g0e2 a6a5 c3c4 a5a4 a3d3 a4a3 d3d7 a8a7 d0e1 a3a2 c0a2 b9b0 e1d0 b0b2 e0e1 b2a2 d7h7 a2a1 e1e0 h9i7 h0g2 c9e7 g6g7 c7g7
b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 h2c2 a7a3 c2c6 i9i8 b0b3 i8b8 b3a3 b8b9 c6g6 f7c7 g0e2 a6a5 c3c4 a5a4 a3d3 a4a3 d3d7 a8a7 d0e1 a3a2 c0a2 b9b0 e1d0 b0b2 e0e1 b2a2 d7h7 a2a1 e1e0 h9i7 h0g2 c9e7 g6g7 c7g7 h7g7 a7a2 f0e1 a2e2 g2f0 e2e3 c4c5 e3e5 c5c6 a1a6 c6c7 a6a7 c7c8 a7a8 c8c9 d9e8 i0h0 e5c5 h0h8 e7g5
b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 b0b7 f7f5 b7d7 f9e8 d7h7 g9e7 h7h8 f5i5 g0i2 i5c5 c0e2 a8b8 b9a9 b8b9
b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 b0b7 f7f5 b7d7 f9e8 d7h7 g9e7 h7h8 f5i5 g0i2 i5c5 c0e2 a8b8 b9a9 b8b9 a9a6 a7a8 h8h4 h9f8 c3c4 c5e5 h4e4 b9b6 a6a5 a8a3 h0f1 a3a4 c4c5 e5a5 e4a4 a5a2 h2a2 e7c5 i0h0 b6b2
b0a2 h7f7 a0b0 a9a8 b2b9 b7a7 b0b7 f7f5 b7d7 f9e8 d7h7 g9e7 h7h8 f5i5 g0i2 i5c5 c0e2 a8b8 b9a9 b8b9 a9a6 a7a8 h8h4 h9f8 c3c4 c5e5 h4e4 b9b6 a6a5 a8a3 h0f1 a3a4 c4c5 e5a5 e4a4 a5a2 h2a2 e7c5 i0h0 b6b2 h0h2 i9i7 f0e1 i7f7 a2a1 f8h7 a1c1 c5a7 a4a6 b2c2 a6a1 c6c5 i2g4 g6g5 g4i2 c5c4 c1c4 f7f1 h2h7 c2e2
P
    ;;
    shogi) cat <<'P'
5i4h 8b6b 4h3h 6b3b 3h4h 7a6b 6i5h 3a4b 7i6h 5a5b 6h5i 5b5a 3i3h 5a5b 4i3i 5b5a 4h4i 5a5b 3i4h 5b5a
5i4h 8b6b 4h3h 6b3b 3h4h 7a6b 6i5h 3a4b 7i6h 5a5b 6h5i 5b5a 3i3h 5a5b 4i3i 5b5a 4h4i 5a5b 3i4h 5b5a 1i1h 5a5b 8g8f 5b5a 8f8e 5a5b 5g5f 5b5a 7g7f 5a5b 4g4f 5b5a 4f4e 9a9b 8h7g 6a5b 7g8f 1a1b 8f7e 3b3a
5i4h 8b6b 4h3h 6b3b 3h4h 7a6b 6i5h 3a4b 9g9f 5a5b 9f9e 5b5a 8g8f 5a5b 8f8e 5b5a 7g7f 5a5b 7f7e 5b5a
5i4h 8b6b 4h3h 6b3b 3h4h 7a6b 6i5h 3a4b 9g9f 5a5b 9f9e 5b5a 8g8f 5a5b 8f8e 5b5a 7g7f 5a5b 7f7e 5b5a 6g6f 5a5b 6f6e 5b5a 5g5f 5a5b 5f5e 5b5a 4g4f 5a5b 4f4e 5b5a 3g3f 5a5b 3f3e 5b5a 2g2f 5a5b 2f2e 5b5a
P
    ;;
    minishogi) cat <<'P'
5d5c 3a4b 5e5d 2a2b 3e4d 4a3b 5d5e 4b5c 4d5c 5a5c
5d5c 3a4b 5e5d 2a2b 3e4d 4a3b 5d5e 4b5c 4d5c 5a5c 5e4d 5c1c 1e1c 1b1c R*5a 1a1b 5a5c+ 1c1d S*2d P*2c
5d5c 3a4b 5e5d 2a2b 3e4d 4a3b 5d5e 4b5c 4d5c 5a5c
5d5c 3a4b 5e5d 2a2b 3e4d 4a3b 5d5e 4b5c 4d5c 5a5c S*5d 5c3c 4e3d 3c1c 1e1c 2b1c R*3a R*2a 3a2a+ 3b2a
P
    ;;
    esac
}
for bin in "$@"; do
    for gd in xiangqi:6 shogi:8 minishogi:7; do
        g=${gd%:*}; d=${gd#*:}; best=""; nodes=0
        for i in $(seq "$R"); do
            out=$(positions "$g" | while read -r mv; do
                "$bin" analyze "$g" --moves "$mv" --bot "alphabeta:depth=$d" |
                    awk '/^nodes:/{n=$2} /^time:/{sub("s","",$2); t=$2}
                         END{print n, t}'
            done | awk '{n+=$1; t+=$2} END{print n, t}')
            nodes=${out% *}; t=${out#* }
            best=$(echo "$t ${best:-$t}" | awk '{print ($1<$2)?$1:$2}')
        done
        echo "$bin $g depth $d: nodes $nodes, best time ${best}s"
    done
done
