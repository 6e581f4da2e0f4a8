#!/usr/bin/env python3
"""play_tty.py — `ply play` (and `ply analyze --interactive`) as a person
meets it, in a pseudo-terminal:
readline edits the line (up-arrow recalls a mistyped move, left-arrow and
backspace fix it), the bot thinks in the background (`stop` makes it move
at once), `undo` takes the moves back. Needs $PLY. Exits 1 on failure."""
import os
import pty
import select
import sys
import time

PLY = os.environ.get("PLY", "./ply")
out = b""


def fail(msg):
    sys.stdout.write("FAIL: %s\n--- terminal output ---\n%s\n"
                     % (msg, out.decode("utf-8", "replace")))
    sys.exit(1)


def expect(fd, needle, timeout=10.0, other=None):
    """Reads until needle (or other) appears after what was already
    matched; returns the one found."""
    global out, mark
    end = time.time() + timeout
    while True:
        hits = [(out.find(n, mark), n) for n in (needle, other) if n]
        hits = [h for h in hits if h[0] >= 0]
        if hits:
            i, n = min(hits)
            mark = i + len(n)
            return n
        left = end - time.time()
        if left <= 0:
            fail("no %r within %.0f s" % (needle, timeout))
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                fail("ply ended before %r" % needle)
            out += chunk


def expect_exit(fd, timeout=10.0):
    """Reads until ply closes the terminal (it has ended)."""
    global out
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], max(0.0, end - time.time()))
        if not r:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return
        if not chunk:
            return
        out += chunk
    fail("ply did not end")


mark = 0
pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ, TERM="xterm", INPUTRC="/dev/null")
    os.execvpe(PLY, [PLY, "play", "kalah", "--bot", "alphabeta:time=60s"],
               env)
try:
    expect(fd, b"South> ")
    os.write(fd, b"x3\r")                       # a typo
    expect(fd, b"illegal move 'x3'")
    expect(fd, b"South> ")
    # up-arrow recalls "x3", left-arrow goes before the 3, backspace
    # deletes the x, enter plays 3 (an extra turn in kalah)
    os.write(fd, b"\x1b[A")
    time.sleep(0.2)
    os.write(fd, b"\x1b[D")
    time.sleep(0.2)
    os.write(fd, b"\x7f\r")
    expect(fd, b"S:4,4,0,5,5,5,1:4,4,4,4,4,4,0")  # 3 was played
    expect(fd, b"South> ")
    os.write(fd, b"1\r")                        # the bot's turn: 60 s...
    expect(fd, b"(the bot is thinking)> ")
    t0 = time.time()
    os.write(fd, b"stop\r")                     # ...unless stopped
    expect(fd, b"North plays ", timeout=15)
    if time.time() - t0 > 10:
        fail("stop took %.1f s" % (time.time() - t0))
    # kalah gives extra turns: stop the bot until it is South's turn
    for _ in range(20):
        thinking = b"(the bot is thinking)> "
        if expect(fd, b"South> ", other=thinking) == b"South> ":
            break
        os.write(fd, b"stop\r")
    else:
        fail("the bot kept the turn")
    os.write(fd, b"undo\r")                     # 1 and the replies go
    expect(fd, b"took back ")
    expect(fd, b"South> ")
    os.write(fd, b"quit\r")
    expect(fd, b"record: 3\r\n")
    expect_exit(fd)
finally:
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    os.waitpid(pid, 0)

# ply analyze --interactive: the analysis prints while the prompt waits
mark = 0
out = b""
pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ, TERM="xterm", INPUTRC="/dev/null")
    os.execvpe(PLY, [PLY, "analyze", "kalah", "--interactive", "--bot",
                     "alphabeta"], env)
try:
    expect(fd, b"analyze> ")
    expect(fd, b"depth 3 ")                     # nothing typed: it thinks
    os.write(fd, b"3\r")
    expect(fd, b"S:4,4,0,5,5,5,1:4,4,4,4,4,4,0")
    expect(fd, b"depth 3 ")
    os.write(fd, b"undo\r")
    expect(fd, b"S:4,4,4,4,4,4,0:4,4,4,4,4,4,0")
    os.write(fd, b"stop\r")
    expect(fd, b"best: ")
    os.write(fd, b"quit\r")
    expect_exit(fd)
finally:
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    os.waitpid(pid, 0)
print("play_tty: passed")
