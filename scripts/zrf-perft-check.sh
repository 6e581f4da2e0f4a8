#!/bin/sh
# zrf-perft-check.sh TABLE DIR [PLY [plies]] — each line of TABLE is "FILE
# N1 N2 ..." (lines starting with # are comments): perft of DIR/FILE at
# depths 1.. against those counts, by whole turns as Dagaz counts them
# (`ply rules perft`; "plies" counts each partial move, `ply perft`).
# scripts/zrf-dagaz-perft.txt holds Dagaz's raw figures (shared/rules/
# zrf.md section 8). Prints one line per file; depths whose count
# exceeds 2,000,000 are skipped; each file bounded by timeout.
table=${1:?usage: zrf-perft-check.sh TABLE DIR [PLY [plies]]}
dir=${2:?usage: zrf-perft-check.sh TABLE DIR [PLY [plies]]}
ply=${3:-./ply}
if [ "${4:-turns}" = plies ]; then
    cmd=perft word=perft
else
    cmd="rules perft" word=turns
fi
ok=0 n=0
while read -r file rest; do
    case "$file" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    depth=0 line="" same=1
    for want in $rest; do
        depth=$((depth + 1))
        [ "$want" -gt 2000000 ] && break
        # shellcheck disable=SC2086
        got=$(timeout 60 "$ply" $cmd "$dir/$file" $depth 2>&1 |
              awk -v d=$depth -v w=$word '$1 == w && $2 == d {print $3}')
        [ -z "$got" ] && got="-"
        line="$line $got/$want"
        [ "$got" = "$want" ] || same=0
    done
    [ $same = 1 ] && ok=$((ok + 1))
    echo "$([ $same = 1 ] && echo SAME || echo DIFF) $file:$line"
done < "$table"
echo "$ok of $n files equal at every depth checked"
