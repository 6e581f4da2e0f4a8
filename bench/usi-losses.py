#!/usr/bin/env python3
"""usi-losses.py: where a Ply bot loses against a USI engine.

Scores every position of the games the Ply seat lost (records of `ply
match`, JSON lines, shogi from the start position after the opening)
with a USI engine at full strength and a fixed number of nodes, from the
Ply seat's point of view, then lists per game the plies where one of
Ply's own moves dropped the score by DROP or more while the game was
still open (score above -600 before the move).

    python3 bench/usi-losses.py score RECORDS OUT [NODES] [ENGINE]
    python3 bench/usi-losses.py drops OUT [DROP]

`score` appends one line per lost game to OUT and skips the games already
in it, so a stopped run continues. NODES defaults to 60000, ENGINE to
/usr/games/fairy-stockfish (its USI mode plays shogi by default).
"""
import json
import subprocess
import sys


def engine(cmd):
    p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    def until(tok):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit('usi-losses: the engine quit')
            if line.startswith(tok):
                return line
    send('usi')
    until('usiok')
    send('setoption name USI_Hash value 64')
    send('isready')
    until('readyok')
    return p, send, until


def score(records, out, nodes, cmd):
    done = set()
    try:
        with open(out) as f:
            done = {json.loads(line)['index'] for line in f}
    except FileNotFoundError:
        pass
    p, send, until = engine(cmd)
    with open(records) as f, open(out, 'a') as o:
        for line in f:
            r = json.loads(line)
            if r['index'] in done:
                continue
            seat = [i for i, s in enumerate(r['seats'])
                    if s.startswith('alphabeta') or s.startswith('ply')][0]
            if r['result'][seat] >= 0:
                continue
            mv, sc = r['moves'], []
            for k in range(len(mv)):
                send('position startpos' +
                     (' moves ' + ' '.join(mv[:k]) if k else ''))
                send('go nodes %d' % nodes)
                last = None
                while True:
                    t = p.stdout.readline()
                    if t.startswith('info') and ' score ' in t:
                        last = t
                    if t.startswith('bestmove') or not t:
                        break
                w = last.split()
                i = w.index('score')
                v = int(w[i + 2])
                if w[i + 1] == 'mate':
                    v = (30000 - abs(v)) * (1 if v > 0 else -1)
                # the side to move at ply k is seat k % 2
                sc.append(v if k % 2 == seat else -v)
            o.write(json.dumps({'index': r['index'], 'seat': seat,
                                'plies': len(mv), 'scores': sc}) + '\n')
            o.flush()
    send('quit')


def drops(out, drop):
    games = with_drop = 0
    for line in open(out):
        r = json.loads(line)
        sc, s = r['scores'], r['seat']
        big = [(k, sc[k], sc[k + 1]) for k in range(len(sc) - 1)
               if k % 2 == s and sc[k] - sc[k + 1] >= drop and sc[k] > -600]
        games += 1
        with_drop += bool(big)
        print('game %d (seat %d, %d plies): %s' % (
            r['index'], s, r['plies'],
            ', '.join('ply %d %+d -> %+d' % b for b in big) or 'no drop'))
    print('%d of %d lost games have a drop of %d or more' %
          (with_drop, games, drop))


if __name__ == '__main__':
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == 'score':
        score(a[1], a[2], int(a[3]) if len(a) > 3 else 60000,
              a[4] if len(a) > 4 else '/usr/games/fairy-stockfish')
    elif len(a) >= 2 and a[0] == 'drops':
        drops(a[1], int(a[2]) if len(a) > 2 else 300)
    else:
        sys.exit(__doc__)
