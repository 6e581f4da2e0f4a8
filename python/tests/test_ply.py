"""The Python package over libply: games, states, moves, undo, clones,
observations, bots, matches and errors, on chess, draughts, reversi, kalah
and go. Run from the repository root after `make lib`:

    python3 -m unittest discover -s python/tests -v

PLY_LIBRARY names the library to test (make test sets it to the build's).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import ply  # noqa: E402


def random_game(state, rng, cap=2000):
    """Plays state to the end with uniform random moves; returns the
    number of moves."""
    n = 0
    while not state.is_terminal() and n < cap:
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    return n


class TestGames(unittest.TestCase):
    def test_listing(self):
        names = ply.games()
        for g in ("chess", "draughts-russian", "reversi", "kalah", "go"):
            self.assertIn(g, names)
        self.assertIn("mcts", ply.bots())
        self.assertIn("alphabeta", ply.bots())
        self.assertTrue(any(o.startswith("time=")
                            for o in ply.bot_options("mcts")))
        self.assertTrue(ply.version().startswith("0."))

    def test_game_info(self):
        g = ply.Game("chess")
        self.assertEqual(g.name, "chess")
        self.assertEqual(g.num_players(), 2)
        self.assertEqual(g.player_names(), ["White", "Black"])
        self.assertIn("pgn", g.formats())
        self.assertTrue(g.flags & ply.GAME_ZERO_SUM)
        self.assertGreater(g.max_game_length(), 100)
        self.assertEqual(repr(ply.load_game("kalah", houses=4)),
                         "Game('kalah', 'houses=4')")

    def test_players_from_options(self):
        s = ply.load_game("splut", players=2).new_state()
        self.assertEqual(s.num_players(), 2)
        self.assertEqual(s.player_names(), ["South", "North"])
        self.assertEqual(len(s.returns()), 2)
        self.assertEqual(ply.load_game("splut").num_players(), 4)

    def test_start_positions(self):
        cases = {"chess": 20, "draughts-russian": 7, "reversi": 4,
                 "kalah": 6, "go": 19 * 19 + 1}
        for name, n in cases.items():
            with self.subTest(game=name):
                s = ply.Game(name).new_state()
                self.assertEqual(len(s.legal_moves()), n)
                self.assertEqual(len(s.legal_actions()), n)
                self.assertEqual(s.current_player(), 0)
                self.assertFalse(s.is_terminal())
                self.assertEqual(s.returns(), [0.0, 0.0])

    def test_options(self):
        s = ply.Game("kalah", houses=4, seeds=3).new_state()
        self.assertEqual(len(s.legal_moves()), 4)
        s = ply.Game("go", "size=9").new_state()
        self.assertEqual(len(s.legal_moves()), 82)
        g = ply.load_game("kalah(houses=4,seeds=3)")
        self.assertEqual(g.name, "kalah")
        self.assertEqual(g.options, "houses=4,seeds=3")
        self.assertEqual(len(g.new_initial_state().legal_actions()), 4)
        with self.assertRaises(ply.PlyError) as cm:
            ply.Game("kalah", houses=99)
        self.assertIn("houses", str(cm.exception))
        self.assertEqual(cm.exception.name, "PLY_E_PARSE")


class TestStates(unittest.TestCase):
    def test_moves_print_their_notation(self):
        s = ply.Game("chess").new_state()
        moves = s.legal_moves()
        self.assertIn("e2e4", [str(m) for m in moves])
        m = s.parse_move("e2e4")
        self.assertEqual(str(m), "e2e4")
        self.assertIn(m, moves)
        self.assertIn(int(m), s.legal_actions())
        self.assertEqual(s.action_to_string(0, m), "e2e4")
        s.apply(m)
        self.assertEqual(s.current_player(), 1)
        self.assertEqual(s.history(), [int(m)])

    def test_apply_undo_clone(self):
        rng = random.Random(5)
        for name in ("chess", "draughts-russian", "reversi", "kalah", "go"):
            with self.subTest(game=name):
                g = ply.Game(name, "size=9" if name == "go" else None)
                s = g.new_state()
                start = s.setup()
                h0 = s.hash()
                for _ in range(6):
                    s.apply(rng.choice(s.legal_moves()))
                mid = s.clone()
                mid_text = mid.setup()
                n = 6 + random_game(s, rng)
                self.assertTrue(s.is_terminal())
                r = s.returns()
                self.assertEqual(len(r), 2)
                self.assertAlmostEqual(sum(r), 0.0)
                self.assertIn(max(r), (0.0, 1.0))
                self.assertEqual(s.legal_moves(), [])
                self.assertEqual(mid.setup(), mid_text)  # clone untouched
                self.assertEqual(len(s.history()), n)
                for _ in range(n):
                    s.undo()
                self.assertEqual(s.setup(), start)
                self.assertEqual(s.hash(), h0)
                with self.assertRaises(ply.PlyError):
                    s.undo()
                # a setup string reads back
                again = g.new_state(setup=mid_text)
                self.assertEqual(again.setup(), mid_text)
                self.assertEqual(again.hash(), mid.hash())

    def test_child_and_str(self):
        s = ply.Game("reversi").new_state()
        c = s.child(s.legal_moves()[0])
        self.assertEqual(len(s.history()), 0)
        self.assertEqual(len(c.history()), 1)
        self.assertNotEqual(str(s), str(c))
        self.assertIn("reversi", repr(s))

    def test_observation(self):
        s = ply.Game("chess").new_state()
        s.apply("e2e4")
        o = s.observation(1)
        self.assertEqual(o.setup(), s.setup())
        self.assertEqual(o.history(), [])
        self.assertEqual(s.observation_string(0), str(s))
        self.assertEqual(o.determinize(1, seed=3).setup(), s.setup())
        with self.assertRaises(ply.PlyError):
            s.observation(2)

    def test_errors(self):
        s = ply.Game("chess").new_state()
        with self.assertRaises(ply.PlyError) as cm:
            s.apply("e2e5")
        self.assertEqual(cm.exception.name, "PLY_E_ILLEGAL")
        self.assertIn("e2e5", cm.exception.message)
        with self.assertRaises(ply.PlyError):
            s.apply(123456789)
        self.assertEqual(s.history(), [])
        with self.assertRaises(ply.PlyError) as cm:
            ply.Game("nosuch")
        self.assertEqual(cm.exception.name, "PLY_E_NOT_FOUND")
        with self.assertRaises(ply.PlyError):
            ply.Game("chess").new_state(setup="not a fen")
        with self.assertRaises(ply.PlyError):
            ply.Bot("nosuch")
        with self.assertRaises(TypeError):
            s.apply(None)


class TestBots(unittest.TestCase):
    def test_choose(self):
        for name, spec in (("chess", "alphabeta:depth=2"),
                           ("draughts-russian", "mcts:nodes=200"),
                           ("reversi", "greedy"), ("kalah", "random"),
                           ("go", "mcts:nodes=100")):
            with self.subTest(game=name):
                g = ply.Game(name, "size=9" if name == "go" else None)
                s = g.new_state()
                m = ply.Bot(spec, seed=3).choose(s)
                self.assertIsInstance(m, ply.Move)
                self.assertIn(m, s.legal_moves())
                s.apply(m)

    def test_same_seed_same_move(self):
        s = ply.Game("reversi").new_state()
        a = ply.Bot("mcts:nodes=300", seed=11).choose(s)
        b = ply.Bot("mcts:nodes=300", seed=11).choose(s)
        self.assertEqual(a, b)

    def test_limits_and_info(self):
        s = ply.Game("chess").new_state()
        seen = []
        bot = ply.Bot("alphabeta:depth=2")
        m = bot.choose(s, depth=3, on_info=seen.append)
        self.assertGreaterEqual(len(seen), 3)
        self.assertEqual(seen[-1].depth, 3)
        self.assertEqual(bot.last_info.best, m)
        self.assertTrue(all(str(x) for x in seen[-1].pv))
        bot.choose(s)
        self.assertEqual(bot.last_info.depth, 2)  # the spec's limit again

    def test_bot_follows_the_game(self):
        bot = ply.Bot("random", seed=1)
        for name in ("kalah", "chess", "kalah"):
            s = ply.Game(name).new_state()
            self.assertIn(bot.step(s), s.legal_moves())

    def test_stop_from_another_thread(self):
        s = ply.Game("go", "size=9").new_state()
        bot = ply.Bot("mcts:time=20s", seed=1)
        bot.choose(ply.Game("go", "size=9").new_state(), nodes=10)
        timer = threading.Timer(0.3, bot.stop)
        timer.start()
        m = bot.choose(s)
        timer.join()
        self.assertIn(m, s.legal_moves())
        self.assertLess(bot.last_info.seconds, 10)

    def test_game_between_bots(self):
        s = ply.Game("kalah").new_state()
        bots = [ply.Bot("mcts:nodes=100", seed=1), ply.Bot("greedy")]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
        self.assertAlmostEqual(sum(s.returns()), 0.0)


class TestSession(unittest.TestCase):
    def test_go_stop_wait(self):
        ses = ply.Session("chess", bot="mcts:time=30s", seed=2)
        ses.set_position(moves=["e2e4", "e7e5"])
        ses.play("g1f3")
        self.assertEqual(ses.undo(1), 1)
        ses.play("g1f3")
        with self.assertRaises(ply.PlyError):
            ses.play("g1f3")
        self.assertEqual(ses.state().current_player(), 1)
        done = []
        ses.go(on_done=lambda m, i: done.append(m))
        time.sleep(0.2)
        ses.stop()
        m, info = ses.wait()
        self.assertEqual(done, [m])
        self.assertIn(m, ses.state().legal_moves())
        self.assertLess(info.seconds, 10)
        ses.set_bot("alphabeta")
        seen = []
        ses.go(depth=2, on_info=seen.append)
        m2, info2 = ses.wait()
        self.assertEqual(info2.depth, 2)
        self.assertGreaterEqual(len(seen), 1)
        with self.assertRaises(ply.PlyError):
            ses.wait()                       # no search running
        with self.assertRaises(ply.PlyError):
            ses.set_bot("nosuch")


class TestClock(unittest.TestCase):
    def test_budget(self):
        s = ply.Game("chess").new_state()
        t = s.time_budget(ply.Clock(left=60))
        self.assertTrue(1.0 <= t <= 30.0)
        self.assertGreater(s.time_budget(ply.Clock(left="60s", inc="2s")), t)
        last = s.time_budget(ply.Clock(left=10, moves_to_go=1))
        self.assertTrue(9.0 <= last < 10.0)
        with self.assertRaises(ply.PlyError) as e:
            s.time_budget(ply.Clock(left=-1))
        self.assertEqual(e.exception.name, "PLY_E_ARGUMENT")
        with self.assertRaises(TypeError):
            s.time_budget(60)

    def test_bot_and_session_on_a_clock(self):
        s = ply.Game("chess").new_state()
        bot = ply.Bot("alphabeta", seed=1)
        # the time given caps the clock's 20 s
        m = bot.choose(s, time="30ms", clock=ply.Clock(left=20, moves_to_go=1))
        self.assertIn(m, s.legal_moves())
        self.assertLess(bot.last_info.seconds, 5)
        ses = ply.Session("chess", bot="alphabeta", seed=1)
        ses.go(time=0.03, clock=ply.Clock(left=20, moves_to_go=1))
        m, info = ses.wait()
        self.assertIn(m, ses.state().legal_moves())
        self.assertLess(info.seconds, 5)
        with self.assertRaises(ply.PlyError):
            ses.go(clock=ply.Clock(byoyomi=-1))


class TestMatches(unittest.TestCase):
    def test_records(self):
        m = ply.Match("draughts-russian", ["random", "greedy"], games=4,
                      seed=2, openings=2)
        self.assertEqual(len(m), 4)
        records = list(m)
        self.assertEqual([r.index for r in records], [0, 1, 2, 3])
        g = ply.Game("draughts-russian")
        for r in records:
            self.assertEqual(r.seats, ["random", "greedy"] if r.index % 2 == 0
                             else ["greedy", "random"])
            s = g.new_state(setup=r.setup)
            for mv in r.moves:
                s.apply(mv)
            self.assertTrue(s.is_terminal())
            self.assertEqual(s.returns(), r.result)
            j = r.to_json()
            self.assertEqual(j["game"], "draughts-russian")
            self.assertEqual(j["moves"], r.moves)
            self.assertIn(r.moves[0], r.write("pdn"))
            with self.assertRaises(ply.PlyError):
                r.write("pgn")
        total = [sum(m.score(i)) for i in range(2)]
        self.assertEqual(total, [4, 4])
        w0, d0, l0 = m.score(0)
        w1, d1, l1 = m.score(1)
        self.assertEqual((w0, d0, l0), (l1, d1, w1))
        # the same settings give the same games
        again = ply.Match("draughts-russian", ["random", "greedy"], games=4,
                          seed=2, openings=2)
        self.assertEqual(again.play(3, count=False).moves, records[3].moves)
        self.assertEqual(again.score(0), (0, 0, 0))

    def test_games_on_threads(self):
        # ctypes lets go of the GIL: games of one match on two threads give
        # the records of a sequential run.
        from concurrent.futures import ThreadPoolExecutor
        m = ply.Match("kalah", ["mcts:nodes=200", "greedy"], games=4, seed=5)
        with ThreadPoolExecutor(2) as pool:
            par = list(pool.map(lambda i: m.play(i).write(), range(4)))
        seq = [r.write() for r in ply.Match("kalah",
                                            ["mcts:nodes=200", "greedy"],
                                            games=4, seed=5)]
        self.assertEqual(par, seq)

    def test_pgn_and_time(self):
        m = ply.Match(ply.Game("chess"), ["random", "random"], games=1,
                      time="50ms")
        (r,) = list(m)
        self.assertIn("[White \"random\"]", r.write("pgn"))

    def test_read_records(self):
        # The records ply match --out writes, read back and replayed.
        out = os.path.join(self.tmp, "games.jsonl")
        plyb = os.environ.get("PLY", os.path.join(ROOT, "ply"))
        run = subprocess.run([plyb, "match", "reversi", "random", "greedy",
                              "-n", "2", "--out", out, "-j", "1"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        records = list(ply.read_records(out))
        self.assertEqual(len(records), 2)
        for r in records:
            self.assertEqual(r.game, "reversi")
            self.assertEqual(sorted(r.seats), ["greedy", "random"])
            states = list(r.states())
            self.assertEqual(len(states), len(r.moves) + 1)
            self.assertTrue(states[-1].is_terminal())
            self.assertEqual(states[-1].returns(), r.result)
            self.assertEqual(r.to_json()["moves"], r.moves)
            with self.assertRaises(ply.PlyError):
                r.write("pgn")
        # the same games played through the library give the same lines
        m = ply.Match("reversi", ["random", "greedy"], games=2, seed=1)
        self.assertEqual([r.write() for r in m],
                         [r.write() for r in records])
        bad = os.path.join(self.tmp, "bad.jsonl")
        with open(bad, "w") as f:
            f.write(records[0].write() + "{not json\n")
        with self.assertRaises(ply.PlyError) as cm:
            list(ply.read_records(bad))
        self.assertIn("bad.jsonl:2", str(cm.exception))

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_bad_match(self):
        with self.assertRaises(ply.PlyError):
            ply.Match("kalah", ["random", "nosuch"])
        with self.assertRaises(ply.PlyError):
            ply.Match("kalah", ["random", "greedy"], time="soon")


class TestImport(unittest.TestCase):
    def test_import_from_repository_root(self):
        # The check of issue 20: from the root, beside the ply binary.
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        out = subprocess.run(
            [sys.executable, "-c",
             "import ply; g = ply.Game('draughts-russian'); "
             "s = g.new_state(); print(len(s.legal_moves())); "
             "print(ply.__file__)"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.split()
        self.assertEqual(lines[0], "7")
        self.assertTrue(lines[1].endswith(os.path.join("python", "ply",
                                                       "__init__.py")))

    def test_missing_library(self):
        env = dict(os.environ, PLY_LIBRARY="/nonexistent/libply.so.1")
        out = subprocess.run([sys.executable, "-c", "import ply"], cwd=ROOT,
                             env=env, capture_output=True, text=True,
                             timeout=60)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("PLY_LIBRARY", out.stderr)


if __name__ == "__main__":
    unittest.main()
