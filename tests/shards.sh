#!/bin/sh
# shards.sh — ply match --shard and --merge end to end: a match played at
# once and the same match played in shards (one of them on two threads,
# one resumed after a cut) and merged give the same summary, the same JSON
# statistics and the same records; two and four players; clear errors for
# shards of another match, a game twice, a missing shard, a cut line.
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
# records FILE...: the records without the shard fields, sorted.
records() { sed 's/,"shard":\[.*$/}/' "$@" | sort; }
same() { cmp -s "$1" "$2" || { diff "$1" "$2" | head -20; return 1; }; }

# --- two players, a round robin of three, random openings, -n odd -------
M="kalah random greedy mcts:iterations=40 -n 7 --seed 5 --openings random:2"
$P match $M --out "$T/all.jsonl" > "$T/all.txt" 2>/dev/null
$P match $M --json > "$T/all.json" 2>/dev/null
check "whole match ran" test "$(wc -l < "$T/all.jsonl")" -eq 21
for i in 1 2 3; do
    j=1; [ $i = 2 ] && j=2
    $P match $M --shard $i/3 -j $j --out "$T/s$i.jsonl" > "$T/s$i.txt" 2>/dev/null \
        || bad "shard $i/3 failed"
done
# shard 3 again, cut after two records and a half, then resumed
head -n 2 "$T/s3.jsonl" > "$T/r3.jsonl"
sed -n 3p "$T/s3.jsonl" | head -c 40 >> "$T/r3.jsonl"
$P match $M --shard 3/3 --out "$T/r3.jsonl" --resume > /dev/null 2>&1 \
    || bad "resume of shard 3/3 failed"
records "$T/s3.jsonl" > "$T/a"; records "$T/r3.jsonl" > "$T/b"
check "a resumed shard has the same records" same "$T/a" "$T/b"
sum=0
for i in 1 2 3; do
    k=$(wc -l < "$T/s$i.jsonl"); sum=$((sum + k))
    check "shard $i/3 says its share" grep -q "^kalah: $k of $k games (shard $i/3 of 21)" "$T/s$i.txt"
done
check "the shards' games add up to the match" test "$sum" -eq 21
# merged in another order than played
$P match --merge "$T/s3.jsonl" "$T/s1.jsonl" "$T/s2.jsonl" > "$T/m.txt" 2>"$T/m.err" \
    || { bad "merge failed: $(cat "$T/m.err")"; }
check "merged summary equals the whole match's" same "$T/all.txt" "$T/m.txt"
$P match --merge "$T/s2.jsonl" "$T/r3.jsonl" "$T/s1.jsonl" --json > "$T/m.json" 2>/dev/null
check "merged JSON equals the whole match's" same "$T/all.json" "$T/m.json"
records "$T/all.jsonl" > "$T/ra"; records "$T/s1.jsonl" "$T/s2.jsonl" "$T/s3.jsonl" > "$T/rs"
check "the shards' records are the match's records" same "$T/ra" "$T/rs"
check "pentanomial statistics survive the merge" grep -q pentanomial "$T/m.txt"
check "W/D/L lines present" grep -q '^random vs greedy: +' "$T/m.txt"

# --- four players: placements and ratings -------------------------------
S="splut random greedy random mcts:iterations=30 -n 5 --seed 9"
$P match $S --out "$T/sp.jsonl" > "$T/sp.txt" 2>/dev/null
$P match $S --json > "$T/sp.json" 2>/dev/null
for i in 1 2 3 4; do
    $P match $S --shard $i/4 --out "$T/sp$i.jsonl" > /dev/null 2>&1 || bad "splut shard $i/4 failed"
done
$P match --merge "$T"/sp[1-4].jsonl > "$T/spm.txt" 2>/dev/null
$P match --merge "$T"/sp[1-4].jsonl --json > "$T/spm.json" 2>/dev/null
check "four players: merged summary equals the whole" same "$T/sp.txt" "$T/spm.txt"
check "four players: merged JSON equals the whole" same "$T/sp.json" "$T/spm.json"
check "four players: placements shown" grep -q '^placements over 5 games' "$T/spm.txt"
records "$T/sp.jsonl" > "$T/ra"; records "$T"/sp[1-4].jsonl > "$T/rs"
check "four players: same records" same "$T/ra" "$T/rs"

# --- more shards than opening pairs: empty shards are fine ---------------
for i in 1 2 3; do
    $P match kalah random greedy -n 2 --shard $i/3 --out "$T/e$i.jsonl" > "$T/e$i.txt" 2>/dev/null \
        || bad "shard $i/3 of a one-pair match failed"
done
check "an empty shard plays nothing" grep -q '^kalah: 0 of 0 games (shard 2/3 of 2)' "$T/e2.txt"
check "an empty shard's file is empty" test ! -s "$T/e2.jsonl"
$P match --merge "$T/e2.jsonl" "$T/e1.jsonl" "$T/e3.jsonl" > "$T/em.txt" 2>/dev/null \
    || bad "merging with empty shards failed"
check "merge with empty shards" grep -q '^kalah: 2 of 2 games' "$T/em.txt"

# --- --slurm: the scripts, run here without Slurm --------------------------
Q="kalah random mcts:iterations=40 -n 8 --se 3 -j 2 --openings=random:2"
(cd "$T" && $P match $Q --sprt 0,10 --slurm 4 --out sl > sl.out 2>&1) || bad "--slurm failed: $(cat "$T/sl.out")"
check "--slurm wrote the scripts" test -x "$T/sl/shard.sbatch" -a -x "$T/sl/merge.sbatch" -a -x "$T/sl/submit.sh"
check "the array has 4 tasks" grep -q '^#SBATCH --array=1-4$' "$T/sl/shard.sbatch"
check "a task per -j" grep -q '^#SBATCH --cpus-per-task=2$' "$T/sl/shard.sbatch"
check "no --sprt in the shards" test "$(grep -c sprt "$T/sl/shard.sbatch")" -eq 0
for i in 1 2 3 4; do
    (cd / && SLURM_ARRAY_TASK_ID=$i sh "$T/sl/shard.sbatch" > "$T/task.log" 2>&1) || bad "array task $i failed: $(tail -n 3 "$T/task.log")"
done
(cd / && sh "$T/sl/merge.sbatch" > /dev/null 2>&1) || bad "the merge job failed"
(cd "$T" && $P match $Q --sprt 0,10 > "$T/q.txt" 2>/dev/null)
check "the scripts' merged summary equals the match at once" same "$T/q.txt" "$T/sl/summary.txt"
check "and its JSON was written" grep -q '"scheduled": 8' "$T/sl/summary.json"
# submit.sh through a stand-in sbatch that logs its arguments
cat > "$T/sbatch" <<'EOS'
#!/bin/sh
echo "$*" >> "$(dirname "$0")/sbatch.log"
n=$(wc -l < "$(dirname "$0")/sbatch.log")
echo "$((41 + n));cluster"
EOS
chmod +x "$T/sbatch"
SBATCH="$T/sbatch" sh "$T/sl/submit.sh" > "$T/submit.out" || bad "submit.sh failed"
check "submit: the array first" grep -q "^--parsable $T/sl/shard.sbatch\$" "$T/sbatch.log"
check "submit: the merge after the array" grep -q "^--parsable --dependency=afterok:42 $T/sl/merge.sbatch\$" "$T/sbatch.log"
check "submit says the job ids" grep -q 'job array 42; merge: job 43' "$T/submit.out"
expect_fail "--slurm into a used directory" "not empty" $P match $Q --slurm 2 --out "$T/sl"
expect_fail "--slurm with --shard" "drop --shard" $P match $Q --slurm 2 --shard 1/2 --out "$T/sl2"
expect_fail "--slurm 0" "1 to" $P match $Q --slurm 0 --out "$T/sl2"
expect_fail "--slurm into a path with blanks" "letters, digits" $P match $Q --slurm 2 --out "$T/a b"

# --- errors --------------------------------------------------------------
expect_fail "a shard missing" "missing (from shard 2/3)" \
    $P match --merge "$T/s1.jsonl" "$T/s3.jsonl"
expect_fail "a shard twice" "on record twice" \
    $P match --merge "$T/s1.jsonl" "$T/s2.jsonl" "$T/s3.jsonl" "$T/s2.jsonl"
$P match kalah random greedy mcts:iterations=40 -n 7 --seed 6 --openings random:2 \
    --shard 2/3 --out "$T/other.jsonl" > /dev/null 2>&1
expect_fail "a shard of another seed" "another match" \
    $P match --merge "$T/s1.jsonl" "$T/other.jsonl" "$T/s3.jsonl"
$P match kalah random greedy mcts:iterations=40 -n 9 --seed 5 --openings random:2 \
    --shard 2/3 --out "$T/other9.jsonl" > /dev/null 2>&1
expect_fail "a shard with other -n" "another match" \
    $P match --merge "$T/s1.jsonl" "$T/other9.jsonl" "$T/s3.jsonl"
$P match $M --shard 2/4 --out "$T/four.jsonl" > /dev/null 2>&1
expect_fail "a shard of another split" "not a shard of" \
    $P match --merge "$T/s1.jsonl" "$T/four.jsonl" "$T/s3.jsonl"
head -c 60 "$T/s3.jsonl" > "$T/cut.jsonl"
expect_fail "a cut line" "cut short" \
    $P match --merge "$T/s1.jsonl" "$T/s2.jsonl" "$T/cut.jsonl"
echo '{"game":"kalah"' > "$T/junk.jsonl"
expect_fail "not JSON" "not a match record" \
    $P match --merge "$T/s1.jsonl" "$T/junk.jsonl"
expect_fail "an unsharded record file" "not a record of a sharded match" \
    $P match --merge "$T/all.jsonl"
expect_fail "no file" "No such file" $P match --merge "$T/none.jsonl"
: > "$T/empty.jsonl"
expect_fail "an empty first file" "no records" $P match --merge "$T/empty.jsonl"
expect_fail "no files" "usage" $P match --merge
expect_fail "merge with --out" "not --out" $P match --merge "$T/s1.jsonl" --out "$T/x"
expect_fail "bad shard" "bad --shard" $P match kalah random greedy --shard 4/3
expect_fail "bad shard 0" "bad --shard" $P match kalah random greedy --shard 0/3
expect_fail "bad shard text" "bad --shard" $P match kalah random greedy --shard 1-3
expect_fail "sprt in a shard" "give it to --merge" \
    $P match kalah random greedy --shard 1/3 --sprt 0,10
expect_fail "resume with another shard" "from shard 1/3, not 2" \
    $P match $M --shard 2/3 --out "$T/s1.jsonl" --resume
expect_fail "resume a shard without --shard" "give the same --shard" \
    $P match $M --out "$T/s1.jsonl" --resume
# SPRT on the merged whole
$P match --merge "$T/s1.jsonl" "$T/s2.jsonl" "$T/s3.jsonl" --sprt 0,10 > "$T/sprt.txt" 2>/dev/null \
    || bad "merge with --sprt failed"
check "no SPRT line over a round robin" test "$(grep -c SPRT "$T/sprt.txt")" -eq 0
$P match kalah random greedy -n 6 --shard 1/2 --out "$T/p1.jsonl" > /dev/null 2>&1
$P match kalah random greedy -n 6 --shard 2/2 --out "$T/p2.jsonl" > /dev/null 2>&1
$P match --merge "$T/p1.jsonl" "$T/p2.jsonl" --sprt 0,10 > "$T/sprt.txt" 2>/dev/null
check "SPRT over the merged pair" grep -q '^SPRT elo0=0 elo1=10' "$T/sprt.txt"

echo "$n checks, $fails failed"
[ "$fails" -eq 0 ]
