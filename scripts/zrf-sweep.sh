#!/bin/sh
# zrf-sweep.sh DIR [PLY] — every .zrf file under DIR: does it load, do a
# few random games run to an end; the unsupported words by frequency.
# `make test-zrf ZRF_CORPUS=DIR`. Each file's work is bounded by timeout
# (ZRF_SWEEP_SECONDS of wall time a step, default 20; more on a loaded
# machine, where a first compile and the playouts can pass 20 s).
set -u
dir=${1:?usage: zrf-sweep.sh DIR [PLY]}
ply=${2:-./ply}
secs=${ZRF_SWEEP_SECONDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0 loaded=0 played=0 ended=0 moved=0
find "$dir" -type f -iname '*.zrf' | sort > "$tmp/files"
while IFS= read -r f; do
    total=$((total + 1))
    if timeout "$secs" "$ply" rules check "$f" > "$tmp/out" 2> "$tmp/err"; then
        :
    fi
    # the words, one per line, without file and line
    grep -v ': ok:\|: unsupported:\|: loads, but ignores:' "$tmp/out" |
        sed 's/ (.*//' >> "$tmp/words"
    if grep -q ': ok:\|loads, but ignores' "$tmp/out"; then
        loaded=$((loaded + 1))
        ok=1
        for seed in 1 2 3; do
            timeout "$secs" "$ply" playthrough "$f" --seed $seed --plies 300 \
                > "$tmp/play" 2>&1 || { ok=0; break; }
            # "end: terminal after N plies" when the game ended
            n=$(sed -n 's/^end: terminal after \([0-9]*\) plies.*/\1/p' \
                "$tmp/play")
            if [ $seed = 1 ] && [ -n "$n" ]; then
                ended=$((ended + 1))
                [ "$n" -gt 0 ] && moved=$((moved + 1))
            fi
        done
        if [ $ok = 1 ]; then
            played=$((played + 1))
        else
            echo "does not play: $f" >> "$tmp/noplay"
        fi
    else
        sed -n 1p "$tmp/err" | cut -c1-200 >> "$tmp/errors"
    fi
done < "$tmp/files"
echo "files: $total  load: $loaded  play 3 random games: $played"
echo "first random game (300 plies at most) ended: $ended, of which with at least one move: $moved"
[ "$total" -gt 0 ] && echo "loaded: $((100 * loaded / total))%  played: $((100 * played / total))%"
echo "unsupported or ignored words (files may count several times):"
sort "$tmp/words" 2>/dev/null | uniq -c | sort -rn | head -40
if [ -s "$tmp/errors" ]; then
    echo "other load errors (first 30 kinds):"
    sed 's/^[^:]*: [^:]*:[0-9]*: //' "$tmp/errors" | sort | uniq -c |
        sort -rn | head -30
fi
if [ -s "$tmp/noplay" ]; then
    echo "load but do not play ($(wc -l < "$tmp/noplay") files):"
    cat "$tmp/noplay"
fi
exit 0
