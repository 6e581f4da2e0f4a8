"""Random playouts from a game's start position through the Python
package: the loop bench/playouts.c runs in C through ply.h.
    python3 bench/py_playouts.py GAME N SEED"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "python"))
import ply  # noqa: E402


def main():
    name, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    start = ply.Game(name).new_state()
    plies = 0
    t0 = time.perf_counter()
    for _ in range(n):
        s = start.clone()
        while True:
            acts = s.legal_actions()
            if not acts:
                break
            s.apply(acts[rng.randrange(len(acts))])
            plies += 1
    sec = time.perf_counter() - t0
    print("%s %d playouts %.3f s %.0f/s plies %d" % (name, n, sec, n / sec,
                                                     plies))


main()
