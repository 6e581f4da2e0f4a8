#!/bin/sh
# gomocup.sh — `ply gomocup` dialogues (the Piskvork protocol): START /
# BEGIN / TURN / END answered per the protocol, BOARD..DONE, TAKEBACK,
# INFO, ABOUT, errors, and renju's forbidden points refused with the rule
# named. Needs $PLY.
set -u
fails=0
n=0
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
gc() { printf "$1" | timeout 60 "$P" gomocup ${2:-} 2>&1; }
line() { echo "$1" | sed -n "${2}p"; }
matches() { echo "$1" | grep -q -- "$2"; }
isxy() { echo "$1" | grep -Eq '^[0-9]+,[0-9]+$'; }

# --- the issue's session, CR LF line ends: OK, our first move, a reply
out=$(gc 'START 15\r\nINFO timeout_turn 200\r\nBEGIN\r\nTURN 7,8\r\nEND\r\n')
check "START answers OK" [ "$(line "$out" 1)" = "OK" ]
check "BEGIN on 15x15 takes the centre" [ "$(line "$out" 2)" = "7,7" ]
check "TURN answered with x,y" isxy "$(line "$out" 3)"
check "END exits without a word" [ "$(echo "$out" | wc -l)" -eq 3 ]
check "the reply is a new point" [ "$(line "$out" 3)" != "7,7" ] &&
    [ "$(line "$out" 3)" != "7,8" ]

# --- sizes, ABOUT, unknown commands, bad input; the session goes on
out=$(gc 'START 20\nINFO timeout_turn 100\nBEGIN\nSTART 3\nSTART x\nRECTSTART 15,10\nRECTSTART 15,15\nABOUT\nFROB\nTURN 99,0\nTURN 7\nTURN 7,7\nBEGIN\nEND\n')
check "START 20 (the Gomocup size)" [ "$(line "$out" 1)" = "OK" ]
check "BEGIN on 20x20: 9,9" [ "$(line "$out" 2)" = "9,9" ]
check "START 3 refused" matches "$(line "$out" 3)" '^ERROR unsupported size 3'
check "START x refused" matches "$(line "$out" 4)" '^ERROR'
check "RECTSTART 15,10 refused" [ "$(line "$out" 5)" = "ERROR only square boards are supported" ]
check "RECTSTART 15,15" [ "$(line "$out" 6)" = "OK" ]
check "ABOUT" matches "$(line "$out" 7)" '^name="Ply", version="'
check "unknown command" matches "$(line "$out" 8)" '^UNKNOWN'
check "TURN off the board" matches "$(line "$out" 9)" '^ERROR'
check "TURN without y" [ "$(line "$out" 10)" = "ERROR TURN wants x,y" ]
check "TURN 7,7 then a move" isxy "$(line "$out" 11)"
check "BEGIN on stones refused" [ "$(line "$out" 12)" = "ERROR BEGIN on a board with stones" ]

# --- TAKEBACK of the last move, RESTART
out=$(gc 'START 15\nINFO timeout_turn 100\nTURN 0,0\nTAKEBACK 0,0\nRESTART\nBEGIN\nTAKEBACK 7,7\nTAKEBACK 7,7\nEND\n')
mv=$(line "$out" 2)
check "TAKEBACK of another point refused" [ "$(line "$out" 3)" = "ERROR 0,0 is not the last move" ]
check "RESTART" [ "$(line "$out" 4)" = "OK" ]
check "BEGIN after RESTART" [ "$(line "$out" 5)" = "7,7" ]
check "TAKEBACK 7,7" [ "$(line "$out" 6)" = "OK" ]
check "TAKEBACK on an empty board" matches "$(line "$out" 7)" '^ERROR'

# --- BOARD: we must block the open-ended four (our stones 1, theirs 2)
out=$(gc 'START 15\nINFO timeout_turn 200\nBOARD\n0,0,2\n7,7,1\n1,0,2\n8,8,1\n2,0,2\n3,3,1\n3,0,2\nDONE\nEND\n')
check "BOARD: the four is blocked at 4,0" [ "$(line "$out" 2)" = "4,0" ]
out=$(gc 'START 15\nBOARD\n0,0,1\n1,0,1\n2,0,1\n3,0,1\n9,9,2\n9,10,2\n9,11,2\n9,12,2\nDONE\nEND\n')
check "BOARD: our five first" [ "$(line "$out" 2)" = "4,0" ]
out=$(gc 'START 15\nBOARD\n0,0,1\n1,0,1\n2,0,1\nDONE\nBOARD\n0,0,3\nDONE\nBOARD\n0,0,1\n0,0,2\nDONE\nEND\n')
check "BOARD: not our turn" matches "$(line "$out" 2)" '^ERROR 3 own and 0'
check "BOARD: walls refused" matches "$(line "$out" 3)" '^ERROR walls'
check "BOARD: a point twice" matches "$(line "$out" 4)" '^ERROR a stone'

# --- INFO rule: exactly five (1) makes 3,0 an overline, five or more (0)
# a win
ov='0,0,1\n1,0,1\n2,0,1\n4,0,1\n5,0,1\n9,9,2\n9,10,2\n9,11,2\n3,14,2\n5,14,2\n7,14,2\n'
out=$(gc "START 15\nINFO rule 0\nINFO timeout_turn 100\nBOARD\n${ov}DONE\nEND\n")
check "rule 0: the overline wins" [ "$(line "$out" 2)" = "3,0" ]
out=$(gc "START 15\nINFO rule 1\nINFO timeout_turn 100\nBOARD\n${ov}DONE\nEND\n")
check "rule 1: no overline" [ "$(line "$out" 2)" != "3,0" ]
out=$(gc "START 15\nINFO rule 8\nINFO rule 2\nEND\n")
check "rule 8 (caro) refused" matches "$(line "$out" 2)" '^ERROR rule 8'
check "rule 2 (continuous) is free-style: no answer" [ "$(echo "$out" | wc -l)" -eq 2 ]

# --- renju: Black's double-three is refused with the rule named. We are
# White and must block Black's four at 4,0; then Black tries 6,7, which
# makes two open threes (6..8 on row 7, 7..9 on column 6).
board='0,0,2\n1,0,2\n2,0,2\n3,0,2\n7,7,2\n8,7,2\n6,8,2\n6,9,2\n0,14,1\n2,14,1\n4,14,1\n6,14,1\n8,14,1\n10,14,1\n12,14,1\n'
out=$(gc "START 15\nINFO rule 4\nINFO timeout_turn 200\nBOARD\n${board}DONE\nTURN 6,7\nTURN 5,5\nEND\n")
check "renju: White blocks at 4,0" [ "$(line "$out" 2)" = "4,0" ]
check "renju: 6,7 refused as a double-three" [ "$(line "$out" 3)" = "ERROR '6,7' is forbidden for Black: double-three" ]
check "renju: a legal move after it" isxy "$(line "$out" 4)"
out=$(gc "START 15\nINFO rule 0\nINFO timeout_turn 200\nBOARD\n${board}DONE\nTURN 6,7\nEND\n")
check "freestyle: the same point is allowed" isxy "$(line "$out" 3)"
out=$(gc "START 15\nINFO timeout_turn 200\nBOARD\n${board}DONE\nTURN 6,7\nINFO rule 1\nEND\n" renju)
check "ply gomocup renju: refused too" [ "$(line "$out" 3)" = "ERROR '6,7' is forbidden for Black: double-three" ]
check "ply gomocup renju: rule 1 refused" matches "$(line "$out" 4)" '^ERROR rule 1'

# --- ply match against Gomocup brains: ply gomocup itself (TURN; BOARD
# after opening moves, renju's rule by INFO rule), and a brain that
# answers ERROR (it forfeits)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$P" match gomoku gomoku:vct=0 g -n 2 --tc 200ms --grace 2s --quiet \
    --engine "g=$P gomocup,proto=gomocup" --out "$T/g.jsonl" > /dev/null 2>&1
check "match: ply gomocup as a brain finishes" [ $? -eq 0 ]
check "match: 2 normal games" [ "$(grep -c '"reason":"normal"' "$T/g.jsonl")" -eq 2 ]
"$P" match renju gomoku:vct=0 g -n 2 --tc 200ms --grace 2s --quiet \
    --openings random:4 --engine "g=$P gomocup renju,proto=gomocup" \
    --out "$T/r.jsonl" > /dev/null 2>&1
check "match: renju with openings (BOARD)" [ "$(grep -c '"reason":"normal"' "$T/r.jsonl")" -eq 2 ]
cat > "$T/bad.sh" <<'EOS'
#!/bin/sh
while read -r l; do
    case "$l" in
    START*) echo OK ;;
    BEGIN*|TURN*|DONE*) echo "MESSAGE thinking"; echo "ERROR no idea" ;;
    END*) exit 0 ;;
    esac
done
EOS
"$P" match gomoku random bad -n 2 --tc 500ms --quiet \
    --engine "bad=sh $T/bad.sh,proto=gomocup" --out "$T/b.jsonl" > /dev/null 2>&1
check "match: a brain answering ERROR forfeits" [ "$(grep -c '"reason":"crash".*ERROR no idea' "$T/b.jsonl")" -eq 2 ]

# --- the command line
"$P" gomocup chess < /dev/null > /dev/null 2>&1
check "a game without the protocol: exit 2" [ $? -eq 2 ]
"$P" gomocup gomoku --bot nosuchbot < /dev/null > /dev/null 2>&1
check "a bad bot: non-zero exit" [ $? -ne 0 ]

echo "gomocup: $((n - fails))/$n passed"
[ "$fails" -eq 0 ]
