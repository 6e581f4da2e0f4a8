#!/bin/sh
# python.sh — the Python package's tests (python/tests, unittest) on the
# library of this build. A library built with sanitizers needs their
# runtime loaded first into python3 (leak checks are left to the C tests:
# the interpreter itself keeps memory to the end).
# Environment: BUILD (build dir), PLY (the ply binary, for match records).
set -eu
: "${BUILD:=build/release}"
lib=$BUILD/lib/libply.so.1
[ -f "$lib" ] || { echo "no $lib: make lib" >&2; exit 1; }
export PLY_LIBRARY="$lib"
if nm -D "$lib" | grep -q ' U __asan_init'; then
    LD_PRELOAD=$(cc -print-file-name=libasan.so)
    # the last setting wins: ours after whatever the caller set
    export LD_PRELOAD ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
elif nm -D "$lib" | grep -q ' U __tsan_init'; then
    LD_PRELOAD=$(cc -print-file-name=libtsan.so)
    export LD_PRELOAD
fi
exec python3 -m unittest discover -s python/tests -v
