#!/bin/sh
# engines.sh — ply match against UCI, USI and CECP (xboard) engines: fake
# engines that crash, print garbage or play illegal moves forfeit with the
# right reason; the commands sent (variant, position, clocks, force,
# usermove) are checked in the fakes' logs; xiangqi ranks are converted
# for UCI; ply uci / ply usi play complete games through the match client.
# Needs $PLY; no installed engine is used.
set -u
fails=0
n=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
E=$(cd "$(dirname "$0")" && pwd)/engines
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
has() { echo "$1" | grep -q -- "$2"; }
count() { c=$(grep -c -- "$2" "$1" 2>/dev/null); echo "${c:-0}"; }
moves_of() {
    echo "$1" | sed -e 's/.*"moves":\[//' -e 's/\].*//' -e 's/","/ /g' -e 's/"//g'
}

# --- misbehaving engines: every game a forfeit with its reason
for spec in "uci crash crash" "uci garbage illegal" "uci illegal illegal" \
            "usi crash crash" "usi illegal illegal" \
            "cecp crash crash" "cecp garbage illegal" "cecp illegal illegal" \
            "cecp reject crash"; do
    set -- $spec
    g=chess; [ "$1" = usi ] && g=shogi
    if [ "$1" = cecp ]; then cmd="sh $E/cecp-fake.sh $2"
    else cmd="sh $E/uci-fake.sh $1 $2"; fi
    out=$T/$1-$2.jsonl
    $P match $g random f -n 2 --tc 200ms --grace 100ms --startup 500ms \
        --engine "f=$cmd,proto=$1" --out "$out" --quiet > "$T/sum" 2>/dev/null
    check "$1 $2: match finishes" [ $? -eq 0 ]
    check "$1 $2: 2 records" [ "$(count "$out" '')" -eq 2 ]
    check "$1 $2: forfeits as $3" \
        [ "$(count "$out" "\"reason\":\"$3\".*\"error\":\"f: ")" -eq 2 ]
done
check "cecp reject: names the rejection" [ "$(count "$T/cecp-reject.jsonl" "rejected our input: \\(Illegal move\\|Error\\)")" -eq 2 ]

# --- UCI xiangqi: UCI_Variant, ranks 1-10 on the wire, 0-9 in records
$P match xiangqi f random -n 1 --tc 1s+0.1s --engine \
    "f=sh $E/uci-fake.sh uci cannon $T/x.log,proto=uci" --out "$T/x.jsonl" \
    --quiet > /dev/null 2>&1
line=$(head -n 1 "$T/x.jsonl")
check "uci xiangqi: variant set" grep -q "^setoption name UCI_Variant value xiangqi$" "$T/x.log"
check "uci xiangqi: first move recorded as h2e2" [ "$(moves_of "$line" | cut -d' ' -f1)" = h2e2 ]
# the second position sent has both moves, the first one shifted back
check "uci xiangqi: moves sent in ranks 1-10" grep -q "^position startpos moves h3e3 [a-i][0-9]*[a-i][0-9]*$" "$T/x.log"
second=$(moves_of "$line" | cut -d' ' -f2)
sent=$(grep "^position startpos moves h3e3 " "$T/x.log" | head -n 1 | cut -d' ' -f5)
want=$(echo "$second" | sed 's/^\([a-i]\)\([0-9]*\)\([a-i]\)\([0-9]*\)$/\1 \2 \3 \4/' |
       awk '{print $1 ($2 + 1) $3 ($4 + 1)}')
check "uci xiangqi: reply shifted ($second sent as $sent)" [ "$sent" = "$want" ]
check "uci xiangqi: clocks as wtime/btime" grep -q "^go wtime [0-9]* btime [0-9]* winc 100 binc 100$" "$T/x.log"
check "uci xiangqi: second answer forfeits" grep -q '"reason":"illegal"' "$T/x.jsonl"

# --- CECP: two fakes play fool's mate through force/usermove/go
$P match chess a b -n 1 --tc 2s+0.1s \
    --engine "a=sh $E/cecp-fake.sh fool $T/a.log,proto=cecp" \
    --engine "b=sh $E/cecp-fake.sh fool $T/b.log,proto=cecp" \
    --out "$T/fool.jsonl" --quiet > /dev/null 2>&1
line=$(head -n 1 "$T/fool.jsonl")
check "cecp fool: moves" [ "$(moves_of "$line")" = "f2f3 e7e5 g2g4 d8h4" ]
check "cecp fool: black wins by mate" grep -q '"result":\[-1,1\],"reason":"normal"' "$T/fool.jsonl"
check "cecp fool: handshake" [ "$(head -n 2 "$T/a.log" | tr '\n' ' ')" = "xboard protover 2 " ]
check "cecp fool: level" grep -q "^level 0 0:02 0.1$" "$T/a.log"
check "cecp fool: clocks" grep -q "^time [0-9]*$" "$T/b.log"
check "cecp fool: usermove" grep -q "^usermove f2f3$" "$T/b.log"
check "cecp fool: own moves not echoed" [ "$(count "$T/a.log" "usermove f2f3")" -eq 0 ]
check "cecp fool: result sent" grep -q "^result 0-1" "$T/a.log"
check "cecp fool: no variant for chess" [ "$(count "$T/a.log" "^variant")" -eq 0 ]

# protocol 1 (no features): plain moves; a random opening needs no setboard
$P match chess a b -n 1 --tc 2s+0.1s --startup 300ms \
    --engine "a=sh $E/cecp-fake.sh v1 $T/c.log,proto=cecp" \
    --engine "b=sh $E/cecp-fake.sh v1 $T/d.log,proto=cecp" \
    --out "$T/v1.jsonl" --quiet > /dev/null 2>&1
check "cecp v1: fool's mate" grep -q '"moves":\["f2f3","e7e5","g2g4","d8h4"\],"result":\[-1,1\]' "$T/v1.jsonl"
check "cecp v1: plain moves" grep -q "^f2f3$" "$T/d.log"

# a set-up position needs setboard; the variant is named
printf '%s\n' "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAK1BNR w - - 0 1" > "$T/op.txt"
$P match xiangqi f random -n 1 --tc 200ms --openings "$T/op.txt" \
    --engine "f=sh $E/cecp-fake.sh illegal $T/e.log,proto=cecp" \
    --out "$T/sb.jsonl" --quiet > /dev/null 2>&1
check "cecp setboard" grep -q "^setboard rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAK1BNR w - - 0 1$" "$T/e.log"
check "cecp variant" grep -q "^variant xiangqi$" "$T/e.log"

# --- Ply's own engine modes through the match client: complete games
for spec in "chess uci" "makruk uci" "shatranj uci" "xiangqi uci" \
            "minishogi usi"; do
    set -- $spec
    out=$T/own-$1.jsonl
    $P match "$1" random u -n 2 --openings random:2 \
        --engine "u=$P $2 --bot random,proto=$2" --out "$out" --quiet \
        > /dev/null 2>&1
    check "ply $2 $1: 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
done

out=$($P match kalah random f --options houses=4 --engine "f=true,proto=uci" 2>&1)
check "options refused for uci" has "$out" "no way to pass game options"

# an engine whose program is not there stops the match before any game
# (it would lose every game at the handshake); the shell still reads
# commands it alone can parse
out=$($P match chess random f --engine "f=/nonexistent/engine --uci,proto=uci" -n 2 --out "$T/gone.jsonl" 2>&1)
check "missing engine: exit 2" [ $? -eq 2 ]
check "missing engine: named" has "$out" "engine f: cannot run '/nonexistent/engine': No such file"
check "missing engine: no records" [ ! -s "$T/gone.jsonl" ]
out=$($P match chess random f --engine "f=no-such-engine-here,proto=uci" -n 2 2>&1)
check "engine not on PATH" has "$out" "cannot run 'no-such-engine-here': not found on PATH"
out=$($P match chess random f --engine "f=/tmp,proto=uci" -n 2 2>&1)
check "a directory is no engine" has "$out" "cannot run '/tmp': not a file"
$P match kalah random f -n 2 --options houses=4 --engine "f=X=1 $P ugi --bot random,proto=ugi" --out "$T/env.jsonl" --quiet > /dev/null 2>&1
check "a command with an assignment runs" [ "$(count "$T/env.jsonl" '"reason":"normal"')" -eq 2 ]

# --- ply pgn: SAN, tags, set-up positions, bad records by line number
$P pgn "$T/fool.jsonl" > "$T/fool.pgn" 2> "$T/err"
check "pgn: exit 0" [ $? -eq 0 ]
check "pgn: fool's mate in SAN" grep -q "^1. f3 e5 2. g4 Qh4# 0-1$" "$T/fool.pgn"
check "pgn: seven tags" [ "$(grep -c '^\[\(Event\|Site\|Date\|Round\|White\|Black\|Result\) ' "$T/fool.pgn")" -eq 7 ]
check "pgn: players" grep -q '^\[Black "b"\]$' "$T/fool.pgn"
check "pgn: no FEN from the start" [ "$(count "$T/fool.pgn" FEN)" -eq 0 ]
fen="r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20"
{
    echo '{"game":"chess","setup":"'"$fen"'","seats":["x","y"],"moves":["e8c8","e1g1","d8d1"],"result":[0,0],"reason":"time","error":"x: used {all}"}'
    echo '{"game":"kalah","setup":"","seats":["x","y"],"moves":[],"result":[1,-1]}'
    echo '{"game":"makruk","seats":["x","y"],"moves":["e3e4"],"result":[1,-1],"reason":"normal"}'
} > "$T/r.jsonl"
$P pgn "$T/r.jsonl" > "$T/r.pgn" 2> "$T/err"
check "pgn: FEN and SetUp" grep -q "^\[FEN \"$fen\"\]$" "$T/r.pgn"
check "pgn: SetUp 1" grep -q '^\[SetUp "1"\]$' "$T/r.pgn"
check "pgn: black first, castling, comment" grep -q "^20... O-O-O 21. O-O Rd1 {x: used (all)} 1/2-1/2$" "$T/r.pgn"
check "pgn: termination" grep -q '^\[Termination "time forfeit"\]$' "$T/r.pgn"
check "pgn: variant tag" grep -q '^\[Variant "makruk"\]$' "$T/r.pgn"
check "pgn: makruk move" grep -q "^1. e4 1-0$" "$T/r.pgn"
check "pgn: skipped kalah" grep -q "skipped 1 record" "$T/err"
printf '%s\n' "$(head -n 1 "$T/fool.jsonl")" \
    '{"game":"chess","seats":["x","y"],"moves":["e2e4","e2e4"]}' > "$T/b1.jsonl"
out=$($P pgn "$T/b1.jsonl" 2>&1 >/dev/null); rc=$?
check "pgn: illegal move fails" [ $rc -ne 0 -a $rc -lt 128 ]
check "pgn: names line and move ($out)" has "$out" "line 2: move 2 'e2e4'"
printf '%s\n' "$(head -n 1 "$T/fool.jsonl")" '' '{"game": "chess", ' > "$T/b2.jsonl"
out=$($P pgn "$T/b2.jsonl" 2>&1 >/dev/null); rc=$?
check "pgn: bad JSON fails" [ $rc -ne 0 -a $rc -lt 128 ]
check "pgn: names line 3 ($out)" has "$out" "line 3: not a JSON object"
out=$($P pgn "$T/none" 2>&1 >/dev/null)
check "pgn: missing file" has "$out" "cannot open"

echo "engines: $((n - fails))/$n passed"
[ $fails -eq 0 ]
