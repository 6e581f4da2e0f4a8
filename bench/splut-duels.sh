#!/bin/sh
# splut-duels.sh — two bots compared where a four-team splut game is down
# to two teams (docs/nplayer.md, "Two players left"): every position of
# POSITIONS (one setup string a line) played twice, A and B in its two
# live seats and then swapped, the removed seats' bots never moving.
#   usage: sh bench/splut-duels.sh POSITIONS A B OUTDIR   (env: PLY=./ply
#          TC=100ms)
#          sh bench/splut-duels.sh --positions RECORDS... > POSITIONS
# --positions: from `ply match splut ... --options players=4 --out` records,
# the position at the first ply where two teams are left, for each game
# one team won with at least six plies left. Then each position's two
# games go to OUTDIR/N.jsonl (a position already there is skipped, so a
# stopped run resumes), and the summary counts A's wins and the pairs.
set -eu
ply=${PLY:-./ply}
tc=${TC:-100ms}
if [ "${1:-}" = --positions ]; then
    shift
    for f in "$@"; do
        python3 - "$ply" "$f" <<'EOF'
import json, subprocess, sys
ply, rec = sys.argv[1], sys.argv[2]
def setup(g, k):
    o = subprocess.run([ply, 'show', 'splut', '--record', rec, '--game',
                        str(g), '--ply', str(k)], capture_output=True,
                       text=True, check=True).stdout
    return next(l[7:] for l in o.splitlines() if l.startswith('setup: '))
def alive(s):
    return s.split()[6].count('a')
for g, line in enumerate(open(rec), 1):
    n = len(json.loads(line)['moves'])
    if alive(setup(g, n)) != 1:
        continue
    lo, hi = 0, n           # the first ply with at most two teams left
    while lo < hi:
        m = (lo + hi) // 2
        if alive(setup(g, m)) <= 2:
            hi = m
        else:
            lo = m + 1
    s = setup(g, lo)
    if alive(s) == 2 and n - lo >= 6:
        print(s)
EOF
    done
    exit 0
fi
[ $# -eq 4 ] || { echo "usage: $0 POSITIONS A B OUTDIR" >&2; exit 2; }
pos=$1 a=$2 b=$3 out=$4
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while IFS= read -r s; do
    i=$((i + 1))
    [ -s "$out/$i.jsonl" ] && continue
    live=$(echo "$s" | awk '{print $7}')
    echo "$s" > "$tmp/pos"
    for sw in 0 1; do
        x=$a y=$b
        [ $sw = 1 ] && { x=$b y=$a; }
        set --
        first=1
        for k in 1 2 3 4; do
            if [ "$(echo "$live" | cut -c$k)" = a ]; then
                if [ $first = 1 ]; then set -- "$@" "$x"; first=0
                else set -- "$@" "$y"; fi
            else
                set -- "$@" random      # a removed team: never moves
            fi
        done
        "$ply" match splut "$@" --options players=4 -n 1 -j 1 \
            --fixed-seats --tc "$tc" --openings "$tmp/pos" \
            --out "$tmp/$sw.jsonl" > /dev/null 2>&1
    done
    cat "$tmp/0.jsonl" "$tmp/1.jsonl" > "$out/$i.jsonl"
    rm -f "$tmp/0.jsonl" "$tmp/1.jsonl"
done < "$pos"
python3 - "$a" "$out" <<'EOF'
import glob, json, sys
a, out = sys.argv[1], sys.argv[2]
games = won = 0
pairs = [0, 0, 0]
for f in sorted(glob.glob(out + '/*.jsonl')):
    wins = []
    for line in open(f):
        r = json.loads(line)
        wins.append(r['result'][r['seats'].index(a)] > 0.99)
    games += len(wins)
    won += sum(wins)
    if len(wins) == 2:
        pairs[sum(wins)] += 1
print('%d games, A won %d (%.1f%%); positions: A won both %d, one each %d,'
      ' B won both %d' % (games, won, 100.0 * won / max(games, 1),
                          pairs[2], pairs[1], pairs[0]))
EOF
