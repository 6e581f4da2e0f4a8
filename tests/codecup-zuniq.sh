#!/bin/sh
# codecup-zuniq.sh — `ply codecup zuniq` under Ply's CodeCup referee: a
# full game against itself ends normally and the winner claims it with
# '!' (recorded as "claims"), a proof-only claim is never false, the
# CodeCup score counts claim bonuses and false claims, bad options are
# refused. Short clocks (--total 2s). Needs $PLY.
set -u
fails=0
n=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
count() { c=$(grep -c -- "$2" "$1" 2>/dev/null); echo "${c:-0}"; }
# field FILE KEY: the JSON array KEY of the first record, as "a b".
field() {
    sed -n "1{s/.*\"$2\":\\[\\([^]]*\\)\\].*/\\1/p;}" "$1" | tr ',' ' '
}
# winner_claimed FILE: in every record the seat with result 1 has a claim
winner_claimed() {
    while IFS= read -r line; do
        echo "$line" > "$T/one"
        set -- $(field "$T/one" result)
        r0=$1
        set -- $(field "$T/one" claims)
        [ $# -eq 2 ] || return 1
        if [ "$r0" = 1 ]; then [ "$1" -gt 0 ] || return 1
        else [ "$2" -gt 0 ] || return 1; fi
    done < "$1"
}
# loser_silent FILE: the seat with result -1 never claimed
loser_silent() {
    while IFS= read -r line; do
        echo "$line" > "$T/one"
        set -- $(field "$T/one" result)
        r0=$1
        set -- $(field "$T/one" claims)
        if [ "$r0" = 1 ]; then [ "$2" -eq 0 ] || return 1
        else [ "$1" -eq 0 ] || return 1; fi
    done < "$1"
}

# --- the default player against itself, both colours
out=$T/self.jsonl
$P match zuniq a b -n 2 -j 1 --out "$out" \
    --engine "a=$P codecup zuniq --total 2s --seed 3,proto=codecup" \
    --engine "b=$P codecup zuniq --total 2s --seed 4,proto=codecup" \
    > "$T/self.txt" 2>&1
check "self-play: match finishes" [ $? -eq 0 ]
check "self-play: 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
check "self-play: claims recorded" [ "$(count "$out" '"claims":\[')" -eq 2 ]
check "self-play: the winner claimed with '!'" winner_claimed "$out"
check "self-play: CodeCup score printed" grep -q "CodeCup score" "$T/self.txt"

# --- proofs only (--claim 2): the winner claims, the loser never does
out=$T/proof.jsonl
$P match zuniq a b -n 2 -j 1 --out "$out" \
    --engine "a=$P codecup zuniq --total 2s --claim 2 --seed 5,proto=codecup" \
    --engine "b=$P codecup zuniq --total 2s --claim 2 --seed 6,proto=codecup" \
    > /dev/null 2>&1
check "proof claims: 2 normal games" [ "$(count "$out" '"reason":"normal"')" -eq 2 ]
check "proof claims: the winner claimed" winner_claimed "$out"
check "proof claims: never false" loser_silent "$out"

# --- the score: a player claiming at its first move scores 110 a win
# (the full bonus) and 0 a loss; its opponent 100 or 50
$P match zuniq random c -n 4 -j 1 --json \
    --engine "c=$P codecup zuniq --bot random | sed -u 's/\$/!/',proto=codecup" \
    > "$T/score.json" 2>/dev/null
check "score: match finishes" [ $? -eq 0 ]
check "score: CodeCup scores add up" python3 - "$T/score.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
r, c = m["participants"]
ok = (c["claims"] == 4 and c["claims_won"] == c["wins"]
      and c["codecup_score"] == 110 * c["wins"]
      and r["codecup_score"] == 100 * r["wins"] + 50 * r["losses"])
sys.exit(0 if ok else 1)
EOF

# --- one move as White, and bad options
printf 'Start\n' > "$T/in"
check "plays first on Start" sh -c "$P codecup zuniq --total 1s < $T/in 2>/dev/null | grep -qx '[A-F][1-6][hv]'"
$P codecup zuniq --claim 3 < /dev/null > /dev/null 2> "$T/err"
check "bad --claim: exit 2" [ $? -eq 2 ]
check "bad --claim: message" grep -q "bad --claim" "$T/err"
$P codecup zuniq --claim-from x < /dev/null > /dev/null 2> "$T/err"
check "bad --claim-from: exit 2" [ $? -eq 2 ]

echo "codecup-zuniq.sh: $n checks, $fails failed"
[ "$fails" -eq 0 ]
