#!/bin/sh
# match.sh — ply match, ply ugi and ply codecup end to end: forfeits of
# misbehaving engines, complete games over both protocols for every
# two-player game, resume after a kill, determinism across -j, SPRT, and
# clear errors. Needs $PLY.
set -u
fails=0
n=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
E=$(cd "$(dirname "$0")" && pwd)/engines
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# check DESCRIPTION CONDITION...: the condition (a shell command) holds.
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
expect_fail() {
    desc=$1; pat=$2; shift 2
    out=$("$@" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 0 ]; then bad "$desc: exit 0"; return; fi
    if [ $rc -gt 128 ]; then bad "$desc: crashed (exit $rc)"; return; fi
    echo "$out" | grep -q -- "$pat" || { bad "$desc: message '$out' lacks '$pat'"; return; }
    ok
}
# count FILE PATTERN: lines of FILE matching PATTERN.
count() { c=$(grep -c -- "$2" "$1" 2>/dev/null); echo "${c:-0}"; }
# moves_of LINE: the moves of a record, space-separated.
moves_of() {
    echo "$1" | sed -e 's/.*"moves":\[//' -e 's/\].*//' -e 's/","/ /g' -e 's/"//g'
}
setup_of() { echo "$1" | sed -e 's/.*"setup":"//' -e 's/".*//'; }
# replays FILE: every record replays to a finished game (normal endings).
replays() {
    g=$1; f=$2
    while IFS= read -r line; do
        echo "$line" | grep -q '"reason":"normal"' || continue
        $P show "$g" --setup "$(setup_of "$line")" --moves "$(moves_of "$line")" \
            | grep -q "game over" || { echo "does not replay: $line"; return 1; }
    done < "$f"
}
# indices_exact FILE N: indices 0..N-1, each once.
indices_exact() {
    got=$(sed -e 's/.*"index":\([0-9]*\).*/\1/' "$1" | sort -n | tr '\n' ' ')
    want=$(seq 0 $(($2 - 1)) | tr '\n' ' ')
    [ "$got" = "$want" ] || { echo "indices: $got"; return 1; }
}

games=$($P list | awk '/^games:/{f=1;next} /^bots:/{f=0} f && /\(2 players\)/{print $1}')

# --- misbehaving UGI engines: each game is a forfeit with its reason
for spec in "crash crash" "hang time" "garbage illegal" "illegal illegal" \
            "dead crash" "badhandshake crash" "mute time"; do
    set -- $spec
    out=$T/ugi-$1.jsonl
    $P match kalah random f -n 2 --tc 100ms --grace 100ms --startup 300ms \
        --engine "f=sh $E/ugi-fake.sh $1" --out "$out" --quiet \
        > "$T/sum" 2>/dev/null
    rc=$?
    check "ugi $1: match finishes" [ $rc -eq 0 ]
    check "ugi $1: 2 records" [ "$(count "$out" '')" -eq 2 ]
    check "ugi $1: forfeits as $2" [ "$(count "$out" "\"reason\":\"$2\".*\"error\":\"f: ")" -eq 2 ]
    check "ugi $1: summary counts it" grep -q "^f .* $2 2" "$T/sum"
done

# --- misbehaving CodeCup programs
for spec in "crash crash" "garbage illegal" "hang time"; do
    set -- $spec
    out=$T/cc-$1.jsonl
    $P match kalah random c -n 2 --tc 100ms --grace 100ms \
        --engine "c=sh $E/codecup-fake.sh $1,proto=codecup" --out "$out" \
        > /dev/null 2>&1
    check "codecup $1: match finishes" [ $? -eq 0 ]
    check "codecup $1: forfeits as $2" [ "$(count "$out" "\"reason\":\"$2\"")" -eq 2 ]
done

# --- ply ugi against the match's UGI client, every two-player game
for g in $games; do
    out=$T/ugi-$g.jsonl
    $P match "$g" random u -n 2 --engine "u=$P ugi --bot random" \
        --out "$out" > /dev/null 2>&1
    check "ugi $g: match finishes" [ $? -eq 0 ]
    check "ugi $g: 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
    check "ugi $g: records replay" replays "$g" "$out"
done
# every game differs: seeds come from the game number, also for a bot
# spec with its own seed and for Ply's UGI engine (setoption name seed)
$P match kalah random u -n 20 --engine "u=$P ugi --bot random" --out "$T/v1.jsonl" > /dev/null 2>&1
$P match kalah random random:seed=2 -n 20 --out "$T/v2.jsonl" > /dev/null 2>&1
distinct() { sed 's/.*"moves":\[\([^]]*\)\].*/\1/' "$1" | sort -u | wc -l; }
check "ugi engine games differ" [ "$(distinct "$T/v1.jsonl")" -eq 20 ]
check "seeded bot games differ" [ "$(distinct "$T/v2.jsonl")" -eq 20 ]
# per-game clock with increment, and game options told through setoption
out=$T/ugi-tc.jsonl
$P match kalah u random -n 2 --tc 2s+10ms --options houses=4 \
    --engine "u=$P ugi --bot random" --out "$out" > /dev/null 2>&1
check "ugi tc+options: 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
check "ugi tc+options: 4 houses" [ "$(count "$out" '"setup":"S:4,4,4,4,0:')" -eq 2 ]

# --- ply codecup against the CodeCup client, every two-player game
for g in $games; do
    out=$T/cc-$g.jsonl
    $P match "$g" a b -n 2 --out "$out" \
        --engine "a=$P codecup $g --bot random,proto=codecup" \
        --engine "b=$P codecup $g --bot random --seed 7,proto=codecup" \
        > /dev/null 2>&1
    check "codecup $g: match finishes" [ $? -eq 0 ]
    check "codecup $g: 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
    check "codecup $g: records replay" replays "$g" "$out"
done
# a claimed win ("!") is stripped before the move is used
out=$T/cc-claim.jsonl
$P match kalah random c -n 2 --out "$out" \
    --engine "c=$P codecup kalah --bot random | sed -u 's/\$/!/',proto=codecup" \
    > /dev/null 2>&1
check "codecup '!': 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
check "codecup '!': never recorded" [ "$(count "$out" '!')" -eq 0 ]
printf 'Start\n' > "$T/in"
check "codecup plays first on Start" sh -c "$P codecup kalah --bot random < $T/in 2>/dev/null | grep -qx '[1-6]'"
check "codecup: no claim without proof" sh -c "! $P codecup kalah --bot random < $T/in 2>/dev/null | grep -q '!'"
printf 'Start\nzz\n' > "$T/in"
expect_fail "codecup bad move" "bad move 'zz'" $P codecup kalah --bot random < "$T/in"

# --- ply ugi: malformed input gives errors, never a crash
printf 'ugi\ngo\nposition startpos\nquery gameover\nsetoption name game value nogame\nsetoption name game value kalah\nsetoption name houses value 99\nsetoption name bot value nobot\nposition fen garbage\nposition startpos moves 1 9\nposition sideways\ngo p1time x nodes\nfrobnicate\nsetoption\nquery nothing\nposition startpos moves 1\nquery p1turn\nisready\nquit\n' > "$T/in"
$P ugi --bot random < "$T/in" > "$T/out" 2>&1
check "ugi garbage: exit 0" [ $? -eq 0 ]
check "ugi garbage: errors named" [ "$(count "$T/out" '^info string error')" -ge 11 ]
check "ugi garbage: still answers" grep -q '^readyok' "$T/out"
check "ugi garbage: ugiok" grep -q '^ugiok' "$T/out"
printf 'position startpos moves 1 2 3\nquery p1turn\ngo nodes 5\nisready\nquit\n' > "$T/in"
$P ugi --game kalah --bot random < "$T/in" > "$T/out" 2>&1
check "ugi bestmove" grep -q '^bestmove [1-6]$' "$T/out"
check "ugi p1turn" grep -q '^response \(true\|false\)$' "$T/out"
check "ugi info line" grep -q '^info depth' "$T/out"
# seeded noise: commands with wrong arguments and junk bytes
for seed in 1 2 3; do
    awk -v seed=$seed -v lines=3000 -f "$E/ugi-noise.awk" > "$T/in"
    $P ugi --game kalah --bot random:nodes=5 < "$T/in" > "$T/out" 2>&1
    check "ugi noise $seed: exit 0" [ $? -eq 0 ]
    check "ugi noise $seed: errors reported" [ "$(count "$T/out" '^info string error')" -gt 100 ]
    check "ugi noise $seed: still plays" [ "$(count "$T/out" '^bestmove')" -gt 0 ]
    awk -v seed=$seed -v lines=300 -f "$E/ugi-noise.awk" > "$T/in"
    $P codecup kalah --bot random < "$T/in" > /dev/null 2>&1
    check "codecup noise $seed: an error exit, not a crash" [ $? -eq 1 ]
done
# "go infinite" answers only after stop
printf 'go infinite\nisready\nstop\nquit\n' > "$T/in"
$P ugi --game kalah --bot random < "$T/in" > "$T/out" 2>&1
check "ugi infinite: readyok before bestmove" sh -c "grep -n '' $T/out | grep -A9 readyok | grep -q bestmove"
# a finished game: queries
moves=$(moves_of "$(grep '"reason":"normal"' "$T/ugi-kalah.jsonl" | head -1)")
printf 'position startpos moves %s\nquery gameover\nquery result\ngo\nquit\n' "$moves" > "$T/in"
$P ugi --game kalah --bot random < "$T/in" > "$T/out" 2>&1
check "ugi gameover" grep -q '^response true' "$T/out"
check "ugi result" grep -q '^response \(p1win\|p2win\|draw\)' "$T/out"
check "ugi go at the end" grep -q '^bestmove (none)' "$T/out"

# --- resume: a cut last line, then a real SIGKILL
$P match kalah random random:seed=3 -n 40 --out "$T/full.jsonl" > /dev/null 2>&1
head -n 17 "$T/full.jsonl" > "$T/cut.jsonl"
sed -n 18p "$T/full.jsonl" | head -c 50 >> "$T/cut.jsonl"
$P match kalah random random:seed=3 -n 40 --out "$T/cut.jsonl" --resume -j 2 \
    > /dev/null 2>&1
check "resume after a cut line: exit 0" [ $? -eq 0 ]
check "resume after a cut line: 40 records" [ "$(count "$T/cut.jsonl" '')" -eq 40 ]
check "resume after a cut line: each game once" indices_exact "$T/cut.jsonl" 40
sort "$T/full.jsonl" > "$T/a"; sort "$T/cut.jsonl" > "$T/b"
check "resume after a cut line: same games" cmp -s "$T/a" "$T/b"
# slow engine (each input line delayed), killed halfway
slow="while IFS= read -r l; do sleep 0.002; echo \"\$l\"; done | $P ugi --bot random"
$P match kalah random s -n 40 -j 2 --engine "s=$slow" --out "$T/k.jsonl" \
    > /dev/null 2>&1 &
pid=$!
i=0
while [ "$(count "$T/k.jsonl" '')" -lt 10 ] && [ $i -lt 1200 ]; do
    sleep 0.05; i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
killed=$(count "$T/k.jsonl" '')
check "kill: halfway ($killed records)" [ "$killed" -ge 10 -a "$killed" -lt 40 ]
$P match kalah random s -n 40 -j 2 --engine "s=$slow" --out "$T/k.jsonl" \
    --resume > /dev/null 2>&1
check "kill+resume: exit 0" [ $? -eq 0 ]
check "kill+resume: 40 records" [ "$(count "$T/k.jsonl" '')" -eq 40 ]
check "kill+resume: each game once" indices_exact "$T/k.jsonl" 40
$P match kalah random s -n 40 -j 2 --engine "s=$slow" --out "$T/k.jsonl" \
    --resume > /dev/null 2>&1
check "resume of a finished match adds nothing" [ "$(count "$T/k.jsonl" '')" -eq 40 ]
expect_fail "resume with other bots" "do not fit" \
    $P match kalah random random:seed=4 -n 40 --out "$T/full.jsonl" --resume
expect_fail "existing records without --resume" "already has records" \
    $P match kalah random random:seed=3 -n 40 --out "$T/full.jsonl"
# a record whose result is out of [-1, 1] is refused, not counted
sed '1s/"result":\[[^]]*\]/"result":[7,-7]/' "$T/full.jsonl" > "$T/bad.jsonl"
expect_fail "resume: a result out of range" "do not fit" \
    $P match kalah random random:seed=3 -n 40 --out "$T/bad.jsonl" --resume

# --- the same seed gives the same games whatever -j is
$P match kalah random random:seed=2 -n 30 --openings random:3 --seed 9 -j 1 \
    --out "$T/j1.jsonl" > /dev/null 2>&1
$P match kalah random random:seed=2 -n 30 --openings random:3 --seed 9 -j 3 \
    --out "$T/j3.jsonl" > /dev/null 2>&1
sort "$T/j1.jsonl" > "$T/a"; sort "$T/j3.jsonl" > "$T/b"
check "-j 1 and -j 3 play the same games" cmp -s "$T/a" "$T/b"
check "openings: 3 plies recorded" [ "$(count "$T/j1.jsonl" '"opening_plies":3')" -eq 30 ]
# openings are shared by the two games of a pair (seats swapped)
o0=$(grep '"index":0,' "$T/j1.jsonl" | sed 's/.*"moves":\["\([^"]*\)","\([^"]*\)","\([^"]*\)".*/\1 \2 \3/')
o1=$(grep '"index":1,' "$T/j1.jsonl" | sed 's/.*"moves":\["\([^"]*\)","\([^"]*\)","\([^"]*\)".*/\1 \2 \3/')
check "openings paired" [ "$o0" = "$o1" ]

# --- statistics in the output
$P match kalah random random:seed=5 -n 40 --json > "$T/j" 2>/dev/null
lo=$(grep '"elo_lo"' "$T/j" | sed -e 's/.*: *//' -e 's/,$//')
hi=$(grep '"elo_hi"' "$T/j" | sed -e 's/.*: *//' -e 's/,$//')
check "same bot: interval contains 0 ($lo, $hi)" awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(a <= 0 && b >= 0) }'
$P match kalah random random -n 20 > "$T/o" 2>/dev/null
check "summary prints Elo and interval" grep -q 'Elo [-+][0-9.]* \[[-+][0-9.]*, [-+][0-9.]*\]' "$T/o"
$P match kalah random f -n 400 --sprt 0,10 --engine "f=sh $E/ugi-fake.sh crash" \
    > "$T/o" 2>/dev/null
check "sprt stops early" grep -q 'H1 accepted' "$T/o"
played=$(sed -n 's/^kalah: \([0-9]*\) of 400 games.*/\1/p' "$T/o")
check "sprt: fewer than 400 games ($played)" [ "${played:-400}" -lt 400 ]
$P match kalah random random:seed=5 random:seed=6 -n 4 > "$T/o" 2>/dev/null
check "round robin: 12 games" grep -q '^kalah: 12 of 12 games' "$T/o"
check "round robin: crosstable" grep -q '^crosstable' "$T/o"
printf '# two openings\nN:4,4,4,4,4,4,0:4,4,4,4,4,4,0\nS:5,5,5,5,5,5,0:5,5,5,5,5,5,0\n' > "$T/open"
$P match kalah random random -n 4 --openings "$T/open" --out "$T/o.jsonl" > /dev/null 2>&1
check "openings file: used" [ "$(count "$T/o.jsonl" '"setup":"S:5,5,5,5,5,5,0')" -eq 2 ]

# --- errors
expect_fail "bad tc" "bad time control" $P match kalah random random --tc fast
expect_fail "bad sprt" "bad --sprt" $P match kalah random random --sprt 10,0
expect_fail "bad engine proto" "unknown protocol" $P match kalah random e --engine "e=true,proto=foo"
expect_fail "unused engine" "not among the participants" $P match kalah random random --engine "e=true"
expect_fail "one bot" "at least two" $P match kalah random
expect_fail "unknown bot" "unknown bot 'nobot'" $P match kalah random nobot
expect_fail "resume without out" "needs --out" $P match kalah random random --resume
expect_fail "codecup with openings" "drop --openings" $P match kalah random c --openings random:2 --engine "c=true,proto=codecup"
expect_fail "bad openings file" "cannot read" $P match kalah random random --openings /nonexistent
printf 'S:4,4,4,4,4,4,0:4,4,4,4,4,4,0\nnot a setup\n' > "$T/open"
expect_fail "bad opening" "opening 2: bad setup string" $P match kalah random random --openings "$T/open"
expect_fail "ugi unknown game" "unknown game" $P ugi --game nogame
expect_fail "codecup unknown bot" "unknown bot" $P codecup kalah --bot nobot

# --- counts are bounded, with clear errors; nothing grows with -n
expect_fail "-n too large" "too large (at most 100000000" \
    $P match kalah random random -n 2000000000
expect_fail "-n 0" "at least 1" $P match kalah random random -n 0
expect_fail "too many games in all" "too many" \
    $P match kalah random greedy alphabeta mcts random:seed=2 random:seed=3 \
    -n 100000000
expect_fail "-j 0" "1..256" $P match kalah random random -j 0
expect_fail "-j 257" "1..256" $P match kalah random random -j 257
expect_fail "random openings too long" "at most 1000 plies" \
    $P match kalah random random --openings random:1001
expect_fail "sprt nan" "bad --sprt" $P match kalah random random --sprt nan,5
expect_fail "sprt inf" "bad --sprt" $P match kalah random random --sprt 0,inf
expect_fail "sprt huge elo" "bad --sprt" $P match kalah random random --sprt 0,5000
expect_fail "bot time nan" "bad value 'nan' for time" \
    $P match kalah alphabeta:time=nan random
expect_fail "bot time inf" "bad value 'inf' for time" \
    $P match kalah alphabeta:time=inf random
expect_fail "sprt alpha nan" "bad --sprt" $P match kalah random random --sprt 0,5,nan,0.05
awk 'BEGIN { s = "S:"; for (i = 0; i < 5000; i++) s = s "4"; print s }' > "$T/longop"
expect_fail "opening line too long" "4096 characters or more" \
    $P match kalah random random --openings "$T/longop"
# the largest -n starts at once in little memory (games are handed out
# lazily; before, 10 bytes per game were allocated and written up front)
$P match kalah random random -n 100000000 --out "$T/big.jsonl" \
    > /dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$(count "$T/big.jsonl" '')" -lt 20 ]; do
    sleep 0.05; i=$((i + 1))
done
hwm=$(awk '/^VmHWM:/ {print $2}' /proc/$pid/status 2>/dev/null)
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "-n 100000000: games start at once" [ "$(count "$T/big.jsonl" '')" -ge 20 ]
check "-n 100000000: peak memory ${hwm:-?} kB < 200000" [ "${hwm:-999999999}" -lt 200000 ]
check "-n 100000000: records in order" indices_exact "$T/big.jsonl" "$(count "$T/big.jsonl" '')"

# hidden information over UGI: a Ply engine plays dark chess told only its
# seat's view (the observation's setup string, no moves); everything it
# read is logged: no position line carries moves or the other seat's
# hidden pieces, and the games end normally
cat > "$T/ugilog" <<EOS
#!/bin/sh
tee -a "$T/ugi-in.log" | "$P" ugi
EOS
chmod +x "$T/ugilog"
rm -f "$T/ugi-in.log"
$P match dark-chess eng random -n 2 --tc 50ms --grace 2s --seed 4 \
    --engine "eng=$T/ugilog,proto=ugi" --out "$T/dark.jsonl" > /dev/null 2>&1
check "dark chess over UGI: 2 games end normally" [ "$(count "$T/dark.jsonl" '"reason":"normal"')" -eq 2 ]
check "dark chess over UGI: positions sent" [ "$(count "$T/ugi-in.log" '^position fen .* view ')" -ge 4 ]
check "dark chess over UGI: only views" [ "$(count "$T/ugi-in.log" '^position')" -eq "$(count "$T/ugi-in.log" '^position fen .* view ')" ]
check "dark chess over UGI: no moves" [ "$(count "$T/ugi-in.log" '^position.* moves')" -eq 0 ]
# the engine side refuses a view of the seat not to move, and views of a
# game without them
V=$($P show dark-chess --moves "e2e4" --as white | sed -n 's/^view: //p')
out=$(printf 'ugi\nsetoption name game value dark-chess\nposition fen %s\nquit\n' "$V" | $P ugi 2>&1)
has() { echo "$1" | grep -q -- "$2"; }
check "ugi: a view of the seat not to move is refused" has "$out" "the view is White's, but Black is to move"

# --fixed-seats: the participants keep their listed seats in every game
# (and in every pairing of a round robin); a resume or a merge keeps the
# setting: records of fixed seats do not fit a rotating match
"$P" match kalah random greedy -n 4 --fixed-seats --out "$T/fixed.jsonl" > "$T/fixed.txt" 2>&1
check "fixed seats: exit 0" [ $? -eq 0 ]
check "fixed seats: random first in all 4 games" [ "$(count "$T/fixed.jsonl" '"seats":\["random","greedy"\]')" -eq 4 ]
check "fixed seats: said in the summary" grep -q '(seats fixed)' "$T/fixed.txt"
expect_fail "fixed seats: a rotating resume refuses them" "do not fit this match" \
    "$P" match kalah random greedy -n 4 --out "$T/fixed.jsonl" --resume
"$P" match kalah random greedy -n 4 --out "$T/rot.jsonl" > /dev/null 2>&1
check "rotating seats: greedy first in 2 of 4" [ "$(count "$T/rot.jsonl" '"seats":\["greedy","random"\]')" -eq 2 ]
"$P" match kalah random greedy greedy:seed=2 -n 2 --fixed-seats --out "$T/rr.jsonl" > /dev/null 2>&1
check "fixed seats in a round robin: random first against both" [ "$(count "$T/rr.jsonl" '"seats":\["random","greedy' )" -eq 4 ]
for i in 1 2; do
    "$P" match kalah random greedy -n 4 --fixed-seats --shard $i/2 --out "$T/fs$i.jsonl" > /dev/null 2>&1
done
"$P" match --merge "$T/fs1.jsonl" "$T/fs2.jsonl" > "$T/fsm.txt" 2>&1
check "fixed seats: shards merge as one match" grep -q 'kalah: 4 of 4 games (seats fixed)' "$T/fsm.txt"

# ply openings: a file ply match reads, the same at -j 1 and -j 2, every
# setup distinct and valued within the band by the same fixed-depth bot
# (ply analyze), the band filtering some out; clear errors
"$P" openings chess -n 6 --bot alphabeta:depth=3 --max 30 -j 2 --out "$T/op2.txt" 2> "$T/op.err"
check "openings: exit 0" [ $? -eq 0 ]
check "openings: 6 setups" [ "$(grep -vc '^#' "$T/op2.txt")" -eq 6 ]
check "openings: the band left some out" grep -q 'outside \[0, 30\]' "$T/op.err"
check "openings: some were outside the band" [ "$(sed -n 's/.*proven, \([0-9]*\) outside.*/\1/p' "$T/op.err")" -gt 0 ]
"$P" openings chess -n 6 --bot alphabeta:depth=3 --max 30 -j 1 --out "$T/op1.txt" 2>/dev/null
check "openings: -j does not change the file" cmp -s "$T/op1.txt" "$T/op2.txt"
check "openings: distinct setups" [ -z "$(grep -v '^#' "$T/op1.txt" | sort | uniq -d)" ]
inband() {
    grep -v '^#' "$1" | while IFS= read -r s; do
        v=$($P analyze chess --setup "$s" --bot alphabeta:depth=3 | sed -n 's/^value: \(-*[0-9]*\).*/\1/p')
        [ -n "$v" ] && [ "${v#-}" -le "$2" ] || { echo "value '$v' of $s"; exit 1; }
    done
}
check "openings: every value within 30" inband "$T/op1.txt" 30
# the negative control: openings with an advantage of 100-400 fail it
"$P" openings chess -n 3 --bot alphabeta:depth=3 --min 100 --max 400 --out "$T/opx.txt" 2>/dev/null
check "openings: --min 100 found 3" [ "$(grep -vc '^#' "$T/opx.txt")" -eq 3 ]
if inband "$T/opx.txt" 30 > /dev/null; then bad "openings: the negative control passed the check within 30"; else ok; fi
"$P" match chess random random -n 2 --openings "$T/op1.txt" --out "$T/opm.jsonl" > /dev/null 2>&1
first=$(grep -v '^#' "$T/op1.txt" | head -n 1)
check "openings: ply match starts from the first" [ "$(setup_of "$(head -n 1 "$T/opm.jsonl")")" = "$first" ]
expect_fail "openings: -n 0" "\-n must be" "$P" openings chess -n 0
expect_fail "openings: min above max" "min and --max" "$P" openings chess --min 50 --max 10
expect_fail "openings: a bad bot" "nosuchbot" "$P" openings chess --bot nosuchbot
expect_fail "openings: an unknown game" "nosuchgame" "$P" openings nosuchgame
expect_fail "openings: too narrow a band" "only 0 of 5" "$P" openings chess -n 5 --bot alphabeta:depth=1 --min 5000 --max 5000 --tries 20

echo "match: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
