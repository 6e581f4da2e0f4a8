#!/bin/sh
# gtp.sh — `ply gtp` dialogues (answers, errors, ids, forced passes, undo,
# final_score, time commands) and ply match against GTP engines: fake
# engines (tests/engines/gtp-fake.sh) that crash, hang, refuse, resign or
# answer garbage and illegal moves forfeit with the right reason, and
# ply gtp plays whole games through the match's GTP client. Needs $PLY.
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
count() { c=$(grep -c -- "$2" "$1" 2>/dev/null); echo "${c:-0}"; }
# the replies of a dialogue, one per line (multi-line replies joined by |)
gtp() {
    printf "$1" | timeout 60 "$P" gtp reversi --bot "${2:-alphabeta:depth=2}" |
        awk 'BEGIN { r = "" } /^$/ { print r; r = ""; next }
             { r = r == "" ? $0 : r "|" $0 }'
}
reply() { echo "$1" | sed -n "${2}p"; }

# --- the standard commands
out=$(gtp 'protocol_version\n7 name\nknown_command genmove\nknown_command frobnicate\nlist_commands\nversion\n')
check "protocol_version" [ "$(reply "$out" 1)" = "= 2" ]
check "name with id" [ "$(reply "$out" 2)" = "=7 Ply" ]
check "known_command true" [ "$(reply "$out" 3)" = "= true" ]
check "known_command false" [ "$(reply "$out" 4)" = "= false" ]
check "list_commands" [ "$(reply "$out" 5)" = "= protocol_version|name|version|known_command|list_commands|quit|boardsize|clear_board|komi|play|genmove|undo|showboard|final_score|time_settings|time_left" ]
check "version" sh -c "echo '$(reply "$out" 6)' | grep -q '^= [0-9]'"

# --- errors: '? message', the session goes on
out=$(gtp 'boardsize 9\nboardsize x\nboardsize 8\nfrobnicate\nplay b\nplay q d3\nplay b z9\nplay b a1\nplay w d3\ngenmove x\nundo\nkomi abc\nkomi 6.5\ntime_settings 1 2\ntime_left b x 0\nfinal_score\n# a comment\n\n  \t name\n')
check "boardsize 9 refused" [ "$(reply "$out" 1)" = "? unacceptable size" ]
check "boardsize x" [ "$(reply "$out" 2)" = "? syntax error" ]
check "boardsize 8" [ "$(reply "$out" 3)" = "= " ]
check "unknown command" [ "$(reply "$out" 4)" = "? unknown command" ]
check "play without vertex" [ "$(reply "$out" 5)" = "? syntax error" ]
check "play bad colour" [ "$(reply "$out" 6)" = "? invalid color" ]
check "play off the board" [ "$(reply "$out" 7)" = "? illegal move" ]
check "play illegal square" [ "$(reply "$out" 8)" = "? illegal move" ]
check "play wrong colour" [ "$(reply "$out" 9)" = "? illegal move" ]
check "genmove bad colour" [ "$(reply "$out" 10)" = "? invalid color" ]
check "undo at the start" [ "$(reply "$out" 11)" = "? cannot undo" ]
check "komi abc" [ "$(reply "$out" 12)" = "? syntax error" ]
check "komi 6.5" [ "$(reply "$out" 13)" = "= " ]
check "time_settings short" [ "$(reply "$out" 14)" = "? syntax error" ]
check "time_left bad" [ "$(reply "$out" 15)" = "? syntax error" ]
check "final_score mid-game" [ "$(reply "$out" 16)" = "? cannot score" ]
check "comments, blank lines, tabs" [ "$(reply "$out" 17)" = "= Ply" ]
check "17 replies" [ "$(echo "$out" | wc -l)" -eq 17 ]

# --- play, genmove, undo, showboard: the board follows
out=$(gtp 'play b D3\nplay w c5\nshowboard\ngenmove b\nundo\nundo\nshowboard\ngenmove w\n')
check "play upper and lower case" [ "$(reply "$out" 1)$(reply "$out" 2)" = "= = " ]
check "showboard" sh -c "echo '$(reply "$out" 3)' | grep -q ' 5 . . O O O . . . 5'"
check "genmove answers a vertex" sh -c "echo '$(reply "$out" 4)' | grep -q '^= [A-H][1-8]$'"
check "undo twice" [ "$(reply "$out" 5)$(reply "$out" 6)" = "= = " ]
check "board after undo" sh -c "echo '$(reply "$out" 7)' | grep -q ' 3 . . . X . . . . 3'"
check "genmove w after undo" sh -c "echo '$(reply "$out" 8)' | grep -q '^= [A-H][1-8]$'"

# --- a whole game with forced passes left out (as Othello controllers
# do): play fills them in, undo takes them back, final_score at the end
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
    rm -f "$T/r.jsonl"
    "$P" match reversi random random -n 1 --seed $seed --out "$T/r.jsonl" \
        --quiet >/dev/null 2>&1
    grep -q '"pass","[a-h]' "$T/r.jsonl" && break
done
moves=$(sed -e 's/.*"moves":\[//' -e 's/\].*//' -e 's/","/ /g' -e 's/"//g' "$T/r.jsonl")
check "the game has a pass" sh -c "echo '$moves' | grep -q 'pass [a-h]'"
cmds=$(c=b; for m in $moves; do [ "$m" != pass ] && printf 'play %s %s\\n' $c $m
       if [ $c = b ]; then c=w; else c=b; fi; done)
res=$(sed -e 's/.*"result":\[//' -e 's/\].*//' "$T/r.jsonl")
out=$(gtp "${cmds}final_score\nundo\nfinal_score\n")
k=$(echo "$moves" | wc -w)
check "every play accepted" [ "$(echo "$out" | head -n $(($(echo "$cmds" | grep -c play))) | grep -vc '^= $')" -eq 0 ]
score=$(echo "$out" | tail -n 3 | head -n 1)
case $res in
    -1,1) want='^= W+[0-9]*$' ;; 1,-1) want='^= B+[0-9]*$' ;; *) want='^= 0$' ;;
esac
check "final_score names the winner ($res: $score)" sh -c "echo '$score' | grep -q '$want'"
check "undo then no score" [ "$(echo "$out" | tail -n 1)" = "? cannot score" ]

# --- time: time_settings and time_left drive the budget; a short clock
# gives a quick answer
out=$(gtp 'time_settings 60 0 0\ntime_left b 1 0\ngenmove b\ntime_settings 0 1 1\ntime_left w 1 1\ngenmove w\n' alphabeta)
check "time commands accepted" [ "$(reply "$out" 1)$(reply "$out" 2)$(reply "$out" 4)$(reply "$out" 5)" = "= = = = " ]
check "timed genmoves" [ "$(echo "$out" | grep -c '^= [A-H][1-8]$')" -eq 2 ]

# --- bad command lines
"$P" gtp chess < /dev/null > /dev/null 2> "$T/err"
check "ply gtp chess fails" [ $? -ne 0 ]
check "names the GTP games" grep -q "does not speak GTP (games that do: .*reversi" "$T/err"
"$P" gtp reversi --bot nosuchbot < /dev/null > /dev/null 2> "$T/err"
check "bad bot spec fails" [ $? -ne 0 ]
echo quit | "$P" gtp > "$T/out" 2>&1
check "ply gtp without a game: go, its native game" [ "$(cat "$T/out")" = "= " ]

# --- misbehaving GTP engines in a match: a forfeit with its reason
for spec in "crash crash" "hang time" "garbage illegal" "illegal illegal" \
            "refuse crash" "reject crash" "resign adjudicated"; do
    set -- $spec
    out=$T/$1.jsonl
    "$P" match reversi random f -n 2 --tc 300ms --grace 100ms \
        --startup 1s --engine "f=sh $E/gtp-fake.sh $1 $T/$1.log,proto=gtp" \
        --out "$out" --quiet > /dev/null 2>&1
    check "$1: match finishes" [ $? -eq 0 ]
    check "$1: 2 records" [ "$(count "$out" '')" -eq 2 ]
    check "$1: each lost by $2" \
        [ "$(count "$out" "\"reason\":\"$2\".*\"error\":\"f")" -eq 2 ]
done
check "reject: names the refused play" grep -q "rejected our move 'play b" "$T/reject.jsonl"
check "hang: no process left" [ -z "$(pgrep -f "gtp-fake.sh hang $T" 2>/dev/null)" ]
# the dialogue the client held
L=$T/d3.log
"$P" match reversi f random -n 1 --tc 2s+0.1s --engine "f=sh $E/gtp-fake.sh d3 $L,proto=gtp" --out "$T/d3.jsonl" --quiet > /dev/null 2>&1
check "d3: handshake" [ "$(head -n 3 "$L" | tr '\n' ' ')" = "boardsize 8 clear_board time_settings 2 0 0 " ]
check "d3: time_left then genmove" [ "$(sed -n '4,5p' "$L" | tr '\n' ' ' | sed 's/[0-9]* 0 /N 0 /')" = "time_left b N 0 genmove b " ]
check "d3: its move recorded, the reply played to it" grep -q '"moves":\["d3","[a-h][1-8]"\]' "$T/d3.jsonl"
mv2=$(sed -e 's/.*"moves":\["d3","//' -e 's/".*//' "$T/d3.jsonl" | tr a-h A-H)
check "d3: play w $mv2 sent" grep -q "^play w $mv2$" "$L"
check "d3: own move not echoed" [ "$(count "$L" '^play b')" -eq 0 ]
check "d3: resigned" grep -q '"reason":"adjudicated".*"error":"f resigned"' "$T/d3.jsonl"
# openings go as plays; setups cannot
"$P" match reversi random f -n 2 --openings random:3 --tc 300ms --engine "f=sh $E/gtp-fake.sh refuse $T/o.log,proto=gtp" --out "$T/o.jsonl" --quiet > /dev/null 2>&1
check "opening sent as plays" [ "$(grep -c '^play' "$T/o.log")" -ge 6 ]
echo '---------------------------OX------XO--------------------------- O' > "$T/open.txt"
"$P" match reversi random f -n 2 --openings "$T/open.txt" --tc 300ms --engine "f=sh $E/gtp-fake.sh d3,proto=gtp" --out "$T/s.jsonl" --quiet > /dev/null 2>&1
check "setup refused" [ "$(count "$T/s.jsonl" 'GTP cannot start from a position')" -eq 2 ]

# --- ply gtp through the GTP client: whole games, both seats
"$P" match reversi alphabeta:depth=2 g -n 2 --tc 5s+0.1s \
    --engine "g=$P gtp reversi --bot alphabeta:depth=1,proto=gtp" \
    --out "$T/full.jsonl" --quiet > /dev/null 2>&1
check "ply gtp: match finishes" [ $? -eq 0 ]
check "ply gtp: 2 normal games" [ "$(count "$T/full.jsonl" '"reason":"normal"')" -eq 2 ]

# --- go: boardsize and komi start the game again with those options,
# komi survives a later boardsize, final_score counts area and komi
gogtp() {
    printf "$1" | timeout 60 "$P" gtp go --bot mcts:iterations=300 |
        awk 'BEGIN { r = "" } /^$/ { print r; r = ""; next }
             { r = r == "" ? $0 : r "|" $0 }'
}
out=$(gogtp 'boardsize 9\nkomi 6.5\nclear_board\ngenmove b\nboardsize 5\nshowboard\nplay b pass\nplay w pass\nfinal_score\nboardsize 30\nkomi 99\nkomi 7\nclear_board\nplay b C3\nplay w pass\nplay b pass\nfinal_score\n')
check "go: boardsize 9" [ "$(reply "$out" 1)" = "= " ]
check "go: komi 6.5" [ "$(reply "$out" 2)" = "= " ]
check "go: genmove a vertex" sh -c "echo '$(reply "$out" 4)' | grep -qE '^= ([A-HJ][1-9]|pass)$'"
check "go: 5x5 board, komi kept" sh -c "echo '$(reply "$out" 6)' | grep -q 'komi 6.5' && echo '$(reply "$out" 6)' | grep -q ' 5  \. \. \. \. \.  5'"
check "go: empty board, two passes: W+6.5" [ "$(reply "$out" 9)" = "= W+6.5" ]
check "go: boardsize 30 refused" [ "$(reply "$out" 10)" = "? unacceptable size" ]
check "go: komi 99 refused" [ "$(reply "$out" 11)" = "? unacceptable komi" ]
check "go: one black stone owns 5x5: B+18" [ "$(reply "$out" 17)" = "= B+18" ]
# ply match sends boardsize and komi to a GTP engine; other options refused
"$P" match go alphabeta:depth=1 g -n 2 --options size=5,komi=3 --tc 5s+0.1s \
    --engine "g=$P gtp go --bot mcts:iterations=200,proto=gtp" \
    --out "$T/go.jsonl" --quiet > /dev/null 2>&1
check "go: match through ply gtp finishes" [ $? -eq 0 ]
check "go: 2 normal games" [ "$(count "$T/go.jsonl" '"reason":"normal"')" -eq 2 ]
out=$("$P" match go random g -n 2 --options size=5,ko=ssk --engine "g=$P gtp go,proto=gtp" 2>&1)
check "go: ko= refused for GTP" sh -c "echo '$out' | grep -q 'GTP passes only the options size'"

echo "gtp: $((n - fails))/$n passed"
[ "$fails" -eq 0 ]
