#!/bin/sh
# python-overhead.sh — random playouts per second from the start position,
# side by side: the same loop in C through ply.h (bench/playouts.c) and in
# Python through python/ply (bench/py_playouts.py), and `ply bench`'s own
# playout row (the engine's playout on its fixed positions, no API).
#   sh bench/python-overhead.sh [GAME [N]]     (after make lib)
set -eu
game=${1:-draughts-russian}
n=${2:-200}
lib=build/release/lib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -std=c11 -O2 -Iinclude -o "$tmp/playouts" bench/playouts.c -L"$lib" -lply \
    -Wl,-rpath,"$PWD/$lib"
echo "C through ply.h:      $("$tmp/playouts" "$game" "$n" 1)"
echo "Python through ply:   $(PLY_LIBRARY=$lib/libply.so.1 python3 bench/py_playouts.py "$game" "$n" 1)"
echo "ply bench playouts:   $(./ply bench "$game" --playouts "$n" | grep ' playouts ')"
