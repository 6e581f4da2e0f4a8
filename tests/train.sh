#!/bin/sh
# train.sh — ply train end to end: data made in two shards and merged
# equals one run's, data rescored at gen's depth equals gen's, a tiny net fitted on it is written and used by
# alphabeta:net=FILE (analyze and a short match), a residual one
# (--add-eval 1) carries its flag and plays; clear errors for bad
# arguments, data of another game, a net of another game and a cut net.
# Needs $PLY.
set -u
fails=0
n=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
expect_fail() {
    desc=$1; pat=$2; shift 2
    out=$("$@" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 0 ]; then bad "$desc: exit 0"; return; fi
    if [ $rc -gt 128 ]; then bad "$desc: crashed (exit $rc)"; return; fi
    echo "$out" | grep -q -- "$pat" || { bad "$desc: message '$out' lacks '$pat'"; return; }
    ok
}

G="--game chess --games 4 --play alphabeta:nodes=300 --depth 1 --keep 0.5 --seed 3"
$P train gen $G --out "$T/all.txt" 2>/dev/null || bad "gen failed"
$P train gen $G --shard 0/2 --out "$T/s0.txt" 2>/dev/null || bad "shard 0 failed"
$P train gen $G --shard 1/2 -j 2 --out "$T/s1.txt" 2>/dev/null || bad "shard 1 failed"
$P train merge --out "$T/m.txt" "$T/s0.txt" "$T/s1.txt" 2>/dev/null || bad "merge failed"
check "data has positions" test "$(wc -l < "$T/all.txt")" -gt 10
sort "$T/all.txt" > "$T/a.sorted"; sort "$T/m.txt" > "$T/m.sorted"
check "shards merged = one run" cmp -s "$T/a.sorted" "$T/m.sorted"
$P train fit --game chess --hidden 8 --epochs 2 --out "$T/c.net" "$T/m.txt" \
    2> "$T/fit.log" || bad "fit failed: $(cat "$T/fit.log")"
check "fit reports epochs" grep -q "epoch 2 " "$T/fit.log"
out=$($P analyze chess --bot "alphabeta:depth=3,net=$T/c.net" 2>&1)
echo "$out" | grep -q "^best: " || bad "analyze with the net: $out"
ok
$P match chess "alphabeta:depth=2,net=$T/c.net" alphabeta:depth=2 -n 2 \
    > "$T/match.txt" 2>&1 || bad "match with the net failed"
check "match played" grep -q "games" "$T/match.txt"
# a residual net (--add-eval 1): written with its flag, played with
$P train fit --game chess --hidden 8 --epochs 1 --add-eval 1 \
    --out "$T/r1.net" "$T/m.txt" 2> "$T/fit1.log" || bad "residual fit failed"
check "residual net flag set" test "$(od -An -tu1 -j24 -N1 "$T/r1.net" | tr -d ' ')" = 1
check "plain net flag clear" test "$(od -An -tu1 -j24 -N1 "$T/c.net" | tr -d ' ')" = 0
out=$($P analyze chess --bot "alphabeta:depth=3,net=$T/r1.net" 2>&1)
echo "$out" | grep -q "^best: " || bad "analyze with the residual net: $out"
ok
expect_fail "bad --add-eval" "--add-eval" \
    $P train fit --game chess --add-eval 2 --out "$T/x.net" "$T/m.txt"

# rescore: a position searched again as gen's rescoring searched it gives
# gen's score back (reversi: no history such as repetitions that the
# setup string does not carry), on one thread or two; a deeper search
# changes some (the control: the comparison can fail)
R="--game reversi --games 3 --play alphabeta:nodes=300 --keep 0.5 --seed 4"
$P train gen $R --depth 2 --out "$T/rv.txt" 2>/dev/null || bad "reversi gen failed"
check "reversi data has positions" test "$(wc -l < "$T/rv.txt")" -gt 10
$P train rescore --game reversi --depth 2 --out "$T/rv2.txt" "$T/rv.txt" \
    2> "$T/rs.log" || bad "rescore failed: $(cat "$T/rs.log")"
check "rescore at gen's depth = gen" cmp -s "$T/rv.txt" "$T/rv2.txt"
check "rescore reports its counts" grep -q "positions read" "$T/rs.log"
$P train rescore --game reversi --depth 2 -j 2 "$T/rv.txt" > "$T/rvj.txt" \
    2>/dev/null || bad "rescore -j 2 failed"
check "rescore -j 2 = -j 1" cmp -s "$T/rv.txt" "$T/rvj.txt"
$P train rescore --game reversi --bot alphabeta:depth=4,hash=4 "$T/rv.txt" \
    > "$T/rv4.txt" 2>/dev/null || bad "rescore --bot failed"
check "a deeper rescore keeps positions" test "$(wc -l < "$T/rv4.txt")" -gt 10
check "a deeper rescore changes scores" \
    test -n "$(grep -v -F -x -f "$T/rv.txt" "$T/rv4.txt")"
grep -v '^#' "$T/rv.txt" | cut -d' ' -f2- > "$T/k0"
grep -v '^#' "$T/rv4.txt" | cut -d' ' -f2- > "$T/k4"
check "the results are kept" test -z "$(grep -v -F -x -f "$T/k0" "$T/k4")"
expect_fail "rescore without a game" "needs --game" $P train rescore "$T/rv.txt"
expect_fail "rescore without data" "needs data files" $P train rescore --game reversi
expect_fail "rescore of another game's data" "expected the header" \
    $P train rescore --game chess "$T/rv.txt"
printf '# ply-train-data 1 reversi\n12 0.7 x\n' > "$T/badres.txt"
expect_fail "rescore of a bad line" "badres.txt:2: expected a result" \
    $P train rescore --game reversi "$T/badres.txt"
expect_fail "rescore with a bad bot" "alphabeta" \
    $P train rescore --game reversi --bot "alphabeta:nodes=x" "$T/rv.txt"
expect_fail "rescore of a missing file" "cannot read" \
    $P train rescore --game reversi "$T/none.txt"

expect_fail "gen without a game" "needs --game" $P train gen
expect_fail "unknown subcommand" "unknown subcommand" $P train bake
expect_fail "bad shard" "--shard must be" $P train gen --game chess --shard 2/2
expect_fail "bad depth" "--depth" $P train gen --game chess --depth 99
expect_fail "bad bot" "alphabeta" $P train gen --game chess --play "alphabeta:nodes=x"
expect_fail "game without net inputs" "no net inputs" \
    $P train fit --game reversi --out "$T/r.net" "$T/m.txt"
expect_fail "data of another game" "expected the header" \
    $P train fit --game makruk --out "$T/k.net" "$T/m.txt"
printf '# ply-train-data 1 makruk\n' > "$T/k.txt"
expect_fail "merge of two games" "another game" \
    $P train merge "$T/m.txt" "$T/k.txt"
expect_fail "net of another game" "for chess, not makruk" \
    $P analyze makruk --bot "alphabeta:depth=1,net=$T/c.net"
head -c 200 "$T/c.net" > "$T/cut.net"
expect_fail "cut net" "truncated" \
    $P analyze chess --bot "alphabeta:depth=1,net=$T/cut.net"
expect_fail "net and weights" "exclude" \
    $P analyze chess --bot "alphabeta:depth=1,net=$T/c.net,weights=$T/c.net"

# embed: a checked net as a C array that compiles and holds the file
$P train embed --game chess --name my_net --source "from train.sh" \
    --out "$T/my_net.h" "$T/c.net" 2>/dev/null || bad "embed failed"
check "embed names the source" grep -q "from train.sh" "$T/my_net.h"
cat > "$T/e.c" <<EOC
#include <stdio.h>
#include "my_net.h"
int main(void) { return fwrite(my_net, 1, sizeof my_net, stdout) != sizeof my_net; }
EOC
if cc -I"$T" -o "$T/e" "$T/e.c" 2>"$T/cc.log"; then
    "$T/e" > "$T/back.net"
    check "embedded bytes = the net" cmp -s "$T/back.net" "$T/c.net"
else
    bad "embedded header does not compile: $(cat "$T/cc.log")"
fi
expect_fail "embed of another game's net" "for chess, not makruk" \
    $P train embed --game makruk --name x --out "$T/x.h" "$T/c.net"
expect_fail "embed of a cut net" "truncated" \
    $P train embed --game chess --name x --out "$T/x.h" "$T/cut.net"
expect_fail "embed with a bad name" "C identifier" \
    $P train embed --game chess --name 9x --out "$T/x.h" "$T/c.net"
check "a refused embed writes nothing" test ! -e "$T/x.h"

echo "train: $((n - fails))/$n passed"
[ $fails -eq 0 ]
