#!/bin/sh
# zuniq-codecup.sh PLAYER [GAMES] [OUT] [SPEC] — `ply codecup zuniq` against
# another CodeCup Zuniq program (PLAYER: its command, e.g. the CodeCup
# 2021 winner's player built as docs/zuniq.md says) under CodeCup
# conditions: 30 s a player a game, colours alternating, claims and the
# CodeCup score in the summary. SPEC: a bot for Ply's player (default:
# the game's CodeCup default). Resumes OUT when it exists. Run it on
# quiet cores: the clock is wall time (docs/zuniq.md, on autogroups).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 PLAYER [GAMES] [OUT] [SPEC]" >&2; exit 2; }
player=$1
games=${2:-20}
out=${3:-zuniq-codecup.jsonl}
spec=${4:-}
ply=${PLY:-$(dirname "$0")/../ply}
ply=$(cd "$(dirname "$ply")" && pwd)/$(basename "$ply")
wrap=$(mktemp)
trap 'rm -f "$wrap"' EXIT
# an engine's command cannot hold the commas of a bot spec: a wrapper
if [ -n "$spec" ]; then
    printf '#!/bin/sh\nexec "%s" codecup zuniq --bot "%s"\n' "$ply" "$spec" > "$wrap"
else
    printf '#!/bin/sh\nexec "%s" codecup zuniq\n' "$ply" > "$wrap"
fi
chmod +x "$wrap"
resume=
[ -s "$out" ] && resume=--resume
"$ply" match zuniq ply other -n "$games" -j 1 --out "$out" $resume \
    --engine "ply=$wrap,proto=codecup" --engine "other=$player,proto=codecup"
