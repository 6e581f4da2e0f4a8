#!/bin/sh
# golden.sh — rewrites the golden playthroughs in tests/golden (run by
# `make golden`): every file again with the command in its "# command:"
# line, and a new file with the default seed and ply cap for each
# registered game that has none. Review the diff before committing it:
# test_golden fails on any byte that differs from what ply writes.
# Environment: PLY (the ply binary, default ./ply).
set -eu
PLY=${PLY:-./ply}
dir=tests/golden
mkdir -p "$dir"
for f in "$dir"/*.txt; do
    [ -f "$f" ] || continue
    cmd=$(sed -n 's/^# command: ply playthrough //p' "$f" | head -n 1)
    if [ -z "$cmd" ]; then
        echo "golden.sh: $f has no '# command: ply playthrough' line" >&2
        exit 1
    fi
    # the command holds no quotes or spaces inside arguments (ply writes it)
    # shellcheck disable=SC2086
    "$PLY" playthrough $cmd --out "$f.tmp"
    mv -f "$f.tmp" "$f"
done
for g in $("$PLY" list | awk '/^games:/ {on = 1; next} /^bots:/ {on = 0}
                            on && NF {print $1}'); do
    if [ ! -f "$dir/$g.txt" ]; then
        "$PLY" playthrough "$g" --out "$dir/$g.txt"
        echo "golden.sh: new $dir/$g.txt"
    fi
done
