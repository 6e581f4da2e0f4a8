#!/bin/sh
# zrf-perft-check.sh TABLE DIR [PLY] — each line of TABLE is "FILE N1 N2
# ...": perft of DIR/FILE at depths 1.. against those counts (Dagaz's raw
# figures in shared/rules/zrf.md §8). Prints one line per file; depths
# whose count exceeds 2,000,000 are skipped; each file bounded by timeout.
table=${1:?usage: zrf-perft-check.sh TABLE DIR [PLY]}
dir=${2:?usage: zrf-perft-check.sh TABLE DIR [PLY]}
ply=${3:-./ply}
ok=0 n=0
while read -r file rest; do
    [ -z "$file" ] && continue
    n=$((n + 1))
    depth=0 line="" same=1
    for want in $rest; do
        depth=$((depth + 1))
        [ "$want" -gt 2000000 ] && break
        got=$(timeout 60 "$ply" perft "$dir/$file" $depth 2>&1 |
              awk -v d=$depth '$1 == "perft" && $2 == d {print $3}')
        [ -z "$got" ] && got="-"
        line="$line $got/$want"
        [ "$got" = "$want" ] || same=0
    done
    [ $same = 1 ] && ok=$((ok + 1))
    echo "$([ $same = 1 ] && echo SAME || echo DIFF) $file:$line"
done < "$table"
echo "$ok of $n files equal at every depth checked"
