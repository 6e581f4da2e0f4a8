#!/bin/sh
# go-playouts.sh — 9x9 Go playouts per CPU second from the empty board,
# komi 7, one thread, side by side:
#   - go's playout hook alone, light and heavy (bench/go_playouts.c);
#   - Ply's MCTS (tree, priors, heavy playouts): N iterations of
#     `ply analyze`, iterations per user+system CPU second;
#   - Pachi's genmove at a fixed N playouts (-t =N, threads=1): Pachi's
#     own "games/s" line, and N per CPU second measured the same way.
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
: >"$tmp/in"
s=$(cpu ./ply analyze go --options size=9,komi=7 --seed 1 \
    --bot "mcts:iterations=$n,threads=1")
echo "ply mcts (tree+heavy): $n iterations $s s CPU $(awk -v n="$n" -v s="$s" 'BEGIN { printf "%.0f", n / s }')/s; move $(grep -m1 '^best' "$tmp/out" || true)"
if [ -n "$pachi" ]; then
    printf 'boardsize 9\nkomi 7\nclear_board\ngenmove b\nquit\n' >"$tmp/in"
    s=$(cpu "$pachi" --nodcnn -t "=$n" threads=1,pondering=0)
    echo "pachi (tree+moggy):    $n playouts $s s CPU $(awk -v n="$n" -v s="$s" 'BEGIN { printf "%.0f", n / s }')/s; move $(grep -m1 '^=' "$tmp/out" || true)"
    echo "pachi's own report:    $(grep -m1 'games/s' "$tmp/err" || echo 'no games/s line')"
else
    echo "pachi: not given (sh bench/go-playouts.sh N /path/to/pachi)"
fi
