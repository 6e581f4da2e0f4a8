#!/bin/sh
# go-playouts.sh — 9x9 Go playouts per CPU second from the empty board,
# komi 7, one thread, side by side:
#   - go's playout hook alone, light and heavy (bench/go_playouts.c);
#   - Ply's MCTS (tree, priors, heavy playouts): `ply analyze` at N/4 and
#     N iterations, the difference per user+system CPU second;
#   - Pachi's genmove at N/4 and N playouts (-t =N, threads=1) measured
#     the same way, and Pachi's own "games/s" line (wall clock).
# CPU seconds, not wall time, so that a loaded machine biases neither.
#   sh bench/go-playouts.sh [N] [PACHI]      (after make ply)
# PACHI (or $PACHI) is the Pachi Go engine; Debian's package "pachi" is a
# platform game, not the Go program: build Pachi from source (e.g. make
# DCNN=0 JOSEKIFIX=0) and name its binary. Without one that row is
# skipped.
set -eu
n=${1:-20000}
pachi=${2:-${PACHI:-}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -std=c11 -O2 -Isrc -o "$tmp/go_playouts" bench/go_playouts.c \
    build/release/libply.a -lmicrohttpd -ljansson -lsqlite3 -lcurl -lm \
    -pthread -lreadline
echo "playout hook, light:  $("$tmp/go_playouts" size=9,komi=7,playout=light "$n" 1)"
echo "playout hook, heavy:  $("$tmp/go_playouts" size=9,komi=7 "$n" 1)"
# cpu CMD...: runs CMD (stdin from $tmp/in), prints user+system seconds
cpu() {
    /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" <"$tmp/in" >"$tmp/out" \
        2>"$tmp/err"
    awk '{ printf "%.3f", $1 + $2 }' "$tmp/t"
}
# rate LABEL N CPU(N/4) CPU(N): the playouts between the two runs per CPU
# second, so that start-up work (Pachi loads its pattern dictionary and
# reads the board's ownership before searching) is not counted
rate() {
    awk -v n="$2" -v a="$3" -v b="$4" -v l="$1" 'BEGIN {
        m = n - int(n / 4)
        printf "%s %d playouts %.3f s CPU, less %d in %.3f s: %.0f/s\n",
               l, n, b, int(n / 4), a, (b > a ? m / (b - a) : 0) }'
}
q=$((n / 4))
: >"$tmp/in"
a=$(cpu ./ply analyze go --options size=9,komi=7 --seed 1 \
    --bot "mcts:iterations=$q,threads=1")
b=$(cpu ./ply analyze go --options size=9,komi=7 --seed 1 \
    --bot "mcts:iterations=$n,threads=1")
rate "ply mcts (tree+heavy):" "$n" "$a" "$b"
echo "  ply's move: $(grep -m1 '^best' "$tmp/out" || true)"
if [ -n "$pachi" ]; then
    printf 'boardsize 9\nkomi 7\nclear_board\ngenmove b\nquit\n' >"$tmp/in"
    a=$(cpu "$pachi" --nodcnn -t "=$q" threads=1,pondering=0)
    b=$(cpu "$pachi" --nodcnn -t "=$n" threads=1,pondering=0)
    rate "pachi (tree+moggy):   " "$n" "$a" "$b"
    echo "  pachi's move: $(grep -m1 '^= [A-Z]' "$tmp/out" || true)"
    echo "  pachi's own report (wall clock): $(grep -m1 'games/s' "$tmp/err" || echo 'no games/s line')"
else
    echo "pachi: not given (sh bench/go-playouts.sh N /path/to/pachi)"
fi
