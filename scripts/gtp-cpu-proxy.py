#!/usr/bin/env python3
"""gtp-cpu-proxy.py LOG CMD [ARG...] — runs the GTP engine CMD, passing
commands and answers through unchanged, and appends one line
"<engine pid> <CPU seconds>" to LOG for each genmove answer: the user+sys
CPU the engine spent (from /proc, Linux) between the command and the end
of its answer. For equal-CPU matches against engines that ignore time
controls (docs/reversi.md):
    ply match reversi BOT rhino \\
        --engine "rhino=scripts/gtp-cpu-proxy.py rhino.cpu /usr/games/gtp-rhino -l 5,proto=gtp"
"""
import os
import subprocess
import sys
import threading

if len(sys.argv) < 3:
    sys.exit("usage: gtp-cpu-proxy.py LOG CMD [ARG...]")
log = sys.argv[1]
eng = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, bufsize=0)
tick = os.sysconf("SC_CLK_TCK")


def cpu():
    with open(f"/proc/{eng.pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / tick


pending = []            # (command name, engine CPU when it was sent)
lock = threading.Lock()


def answers():
    out = sys.stdout.buffer
    for line in iter(eng.stdout.readline, b""):
        out.write(line)
        out.flush()
        if line.strip() == b"":          # an answer ends with a blank line
            with lock:
                cmd, t0 = pending.pop(0) if pending else ("", 0.0)
            if cmd == "genmove":
                with open(log, "a") as f:
                    f.write(f"{eng.pid} {cpu() - t0:.2f}\n")


threading.Thread(target=answers, daemon=True).start()
for line in sys.stdin.buffer:
    words = line.split()
    if words:
        w = words[1] if words[0].isdigit() and len(words) > 1 else words[0]
        with lock:
            pending.append((w.decode(errors="replace").lower(), cpu()))
    eng.stdin.write(line)
    eng.stdin.flush()
eng.stdin.close()
eng.wait()
