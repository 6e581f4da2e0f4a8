#!/bin/sh
# zrf-cc-check.sh DIR [DEPTH] [PLY] — for every .zrf file under DIR that
# loads, perft to DEPTH (default 3) with the templates compiled to native
# code and with the interpreter (PLY_ZRF_CC=off) must agree. Prints one
# line per disagreement and a summary; exits 1 on any disagreement. Each
# run is bounded by timeout; runs that time out either way are counted,
# not compared. The compiled objects go to a temporary cache.
set -u
dir=${1:?usage: zrf-cc-check.sh DIR [DEPTH] [PLY]}
depth=${2:-3}
ply=${3:-./ply}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
export XDG_CACHE_HOME="$tmp/cache"
total=0 same=0 differ=0 skipped=0 native=0
find "$dir" -type f -iname '*.zrf' | sort > "$tmp/files"
while IFS= read -r f; do
    total=$((total + 1))
    if ! PLY_ZRF_CC=off timeout 30 "$ply" perft "$f" "$depth" \
            > "$tmp/a" 2>&1; then
        skipped=$((skipped + 1))
        continue
    fi
    if ! timeout 120 "$ply" perft "$f" "$depth" > "$tmp/b" 2>&1; then
        differ=$((differ + 1))
        echo "DIFFER (compiled run failed): $f"
        continue
    fi
    timeout 60 "$ply" info "$f" 2>/dev/null | grep -q 'compiled to native' &&
        native=$((native + 1))
    if cmp -s "$tmp/a" "$tmp/b" ||
       [ "$(awk '{print $1, $2, $3}' "$tmp/a")" = \
         "$(awk '{print $1, $2, $3}' "$tmp/b")" ]; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFER: $f"
        paste "$tmp/a" "$tmp/b" | head -5
    fi
    [ $((total % 25)) = 0 ] && echo "... $total files" >&2
done < "$tmp/files"
echo "files: $total  compared: $((same + differ))  agree: $same  differ: $differ  compiled: $native  not loading or timing out: $skipped"
[ "$differ" -eq 0 ]
