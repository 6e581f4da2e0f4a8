#!/bin/sh
# kif-readers.sh — writes shogi match records as KIF (UTF-8 and Shift_JIS)
# and CSA with `ply record` and reads them back with other programs'
# readers, comparing every move with what Ply wrote: json-kifu-format and tsshogi (npm packages), when
# installed in $KIF_READERS (default /tmp/kifcheck):
#     mkdir -p /tmp/kifcheck && cd /tmp/kifcheck &&
#     npm install json-kifu-format tsshogi
# Nothing is installed here, and the unit tests do not need npm. Exits 0
# when every game is read back move for move, 1 when a reader disagrees,
# 0 with a note when no reader is installed.
#   usage: scripts/kif-readers.sh [RECORDS.jsonl ...]
# Without files it plays a few random shogi games (rich in declined
# promotions, drops, handicap-free starts) and adds tests/data's records.
PLY=${PLY:-./ply}
DIR=${KIF_READERS:-/tmp/kifcheck}
if ! command -v node >/dev/null 2>&1 ||
   { [ ! -d "$DIR/node_modules/json-kifu-format" ] &&
     [ ! -d "$DIR/node_modules/tsshogi" ]; }; then
    echo "kif-readers: no reader installed in $DIR (see the head of $0); skipped"
    exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ $# -eq 0 ]; then
    $PLY match shogi random random -n 6 --seed 11 --out "$T/random.jsonl" \
        >/dev/null 2>&1 || { echo "kif-readers: ply match failed"; exit 1; }
    set -- "$T/random.jsonl" tests/data/shogi-match.jsonl
fi
cat "$@" > "$T/all.jsonl"
$PLY record --to kif "$T/all.jsonl" --split "$T/g" 2>/dev/null
$PLY record --to kif-sjis "$T/all.jsonl" --split "$T/s" 2>/dev/null
$PLY record --to csa "$T/all.jsonl" --split "$T/c" 2>/dev/null
for f in "$T"/g-*.kifu "$T"/s-*.kif "$T"/c-*.csa; do
    [ -e "$f" ] || continue
    # Ply's own reading of the file: the moves the readers must find
    case $f in *.csa) fmt=csa ;; *) fmt=kif ;; esac
    $PLY record --from $fmt "$f" > "$f.json" || exit 1
done
cat > "$T/check.js" <<'JS'
// For each KIF file: its moves as json-kifu-format and tsshogi read them
// (USI), against the moves of Ply's record (FILE.json).
const fs = require('fs');
const dir = process.argv[2];
const load = (name) => { try { return require(dir + '/node_modules/' + name); } catch (e) { return null; } };
const JKF = load('json-kifu-format'), TS = load('tsshogi');
const LETTER = {FU: 'P', KY: 'L', KE: 'N', GI: 'S', KI: 'G', KA: 'B', HI: 'R'};
const sq = (p) => String(p.x) + String.fromCharCode(96 + p.y);
function viaJkf(text, csa) {
  const moves = [];
  const p = csa ? JKF.JKFPlayer.parseCSA(text) : JKF.JKFPlayer.parseKIF(text);
  for (const m of p.kifu.moves) {
    if (!m.move) continue;
    const mv = m.move;
    if (!mv.to) throw new Error('a move without a destination');
    moves.push(mv.from ? sq(mv.from) + sq(mv.to) + (mv.promote ? '+' : '')
                       : LETTER[mv.piece] + '*' + sq(mv.to));
  }
  return moves;
}
function viaTs(text, csa) {
  const r = csa ? TS.importCSA(text) : TS.importKIF(text);
  if (r instanceof Error) throw r;
  const moves = [];
  for (let n = r.first.next; n; n = n.next) {
    if (n.move instanceof TS.Move) moves.push(n.move.usi);
    else if (!TS.isKnownSpecialMove || !TS.isKnownSpecialMove(n.move))
      throw new Error('unknown move or ending: ' + JSON.stringify(n.move));
  }
  return moves;
}
let bad = 0, read = 0, skipped = 0;
for (const f of process.argv.slice(3)) {
  const raw = fs.readFileSync(f);
  const text = f.endsWith('.kif') ? new TextDecoder('shift_jis').decode(raw) : raw.toString('utf8');
  const want = JSON.parse(fs.readFileSync(f + '.json', 'utf8').split('\n')[0]);
  if (want.game !== 'shogi') { skipped++; continue; }  // 5五将棋: lishogi only
  for (const [name, fn] of [['json-kifu-format', JKF && viaJkf], ['tsshogi', TS && viaTs]]) {
    if (!fn) continue;
    let got;
    try { got = fn(text, f.endsWith('.csa')); } catch (e) { got = 'error: ' + String(e.message || e).split('\n')[0]; }
    read++;
    if (JSON.stringify(got) !== JSON.stringify(want.moves)) {
      bad++;
      const i = Array.isArray(got) ? got.findIndex((m, k) => m !== want.moves[k]) : -1;
      console.log(`FAIL ${f} ${name}: ` + (Array.isArray(got)
        ? `move ${i + 1}: ${got[i]} instead of ${want.moves[i]} (${got.length} of ${want.moves.length} moves)`
        : got));
    }
  }
}
console.log(`kif-readers: ${read - bad} of ${read} readings agree` +
            (skipped ? `; ${skipped} minishogi file(s) not read (lishogi only)` : ''));
process.exit(bad ? 1 : 0);
JS
node "$T/check.js" "$DIR" "$T"/g-*.kifu "$T"/s-*.kif "$T"/c-*.csa
