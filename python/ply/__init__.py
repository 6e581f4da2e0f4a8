"""Ply from Python: games, states, bots and matches of the Ply engine over
its C library (libply.so.1, include/ply.h) through ctypes.

    import ply
    game = ply.Game("chess")
    state = game.new_state()
    while not state.is_terminal():
        state.apply(ply.Bot("mcts:time=100ms").choose(state))
    print(state.returns())

The shape follows OpenSpiel's pyspiel where it fits (load_game,
new_initial_state, legal_actions, apply_action, current_player, returns,
clone, chance_outcomes, bot.step); docs/python.md says where it differs.
The library is looked for through PLY_LIBRARY, next to this package, in the
repository's build/release/lib, then among the system's libraries.
"""

import ctypes
import json as _json

from . import _lib as _l

__all__ = ["PlyError", "Game", "State", "Move", "Bot", "Match", "Record",
           "Session", "Clock",
           "SearchInfo", "games", "bots", "load_game", "version",
           "read_records", "bot_options", "bot_help",
           "PLAYER_TERMINAL", "PLAYER_CHANCE"]

# The package's directory: __path__ is set both for an ordinary import and
# for the repository root's ply.py shim.
_lib = _l.load(__path__[0])

PLAYER_TERMINAL = -1
PLAYER_CHANCE = -2

GAME_ZERO_SUM = 1
GAME_CHANCE = 2
GAME_HIDDEN = 4
GAME_IMPARTIAL = 8

_TEXT = 256         # move texts
_BIG = 1 << 16      # pictures and setup strings (grown when too small)


class PlyError(Exception):
    """An error of the library: .code (PLY_E_* number), .name, .message."""

    def __init__(self, code, message):
        self.code = code
        self.name = _lib.ply_error_name(code).decode()
        self.message = message
        super().__init__(message)


def _s(b):
    return None if b is None else b.decode("utf-8", "replace")


def _b(s):
    if s is None:
        return None
    if not isinstance(s, str):
        raise TypeError("expected a string, got %r" % (s,))
    return s.encode("utf-8")


def _raise(err):
    raise PlyError(err.code, err.message.decode("utf-8", "replace"))


def _call(fn, *args):
    """fn(*args, &err): raises PlyError when it returns -1 or NULL."""
    err = _l.Error()
    r = fn(*args, ctypes.byref(err))
    if r is None or (isinstance(r, int) and r < 0 and err.code):
        _raise(err)
    return r


def _text(fn, *args):
    """Text from fn(*args, buf, n, &err), growing buf while too small."""
    n = _BIG
    while True:
        buf = ctypes.create_string_buffer(n)
        err = _l.Error()
        r = fn(*args, buf, n, ctypes.byref(err))
        if r >= 0:
            return buf.value.decode("utf-8", "replace")
        if err.code != 7 or n >= (1 << 24):   # PLY_E_RANGE
            _raise(err)
        n *= 4


def version():
    """The library's version ("0.1-123-gabcdef0")."""
    return _s(_lib.ply_version())


def games():
    """The names of every registered game."""
    return [_s(_lib.ply_game_name(_lib.ply_game_at(i)))
            for i in range(_lib.ply_game_count())]


def bots():
    """The names of every registered bot."""
    return [_s(_lib.ply_bot_type_name(_lib.ply_bot_type_at(i)))
            for i in range(_lib.ply_bot_type_count())]


def bot_options(name):
    """A bot's options, one description line each."""
    t = _call(_lib.ply_bot_type_find, _b(name))
    return [_text(_lib.ply_bot_type_option_describe, t, i)
            for i in range(_lib.ply_bot_type_option_count(t))]


def bot_help(name):
    """What a bot does, in a paragraph."""
    return _s(_lib.ply_bot_type_help(_call(_lib.ply_bot_type_find,
                                           _b(name))))


class Move(int):
    """A move: an int (the engine's code, valid in the position that listed
    it, like a pyspiel action) that prints as its notation."""


    def __new__(cls, code, text):
        m = int.__new__(cls, code)
        m.text = text
        return m

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Move(%r)" % self.text


class Game:
    """A registered game under options ("key=value,..." or keywords):
    Game("kalah", houses=4), Game("kalah", "houses=4,seeds=3") or, as
    pyspiel writes it, Game("kalah(houses=4,seeds=3)")."""

    def __init__(self, name, options=None, **kw):
        parts = []
        if isinstance(name, str) and name.endswith(")") and "(" in name:
            # pyspiel's spelling: "kalah(houses=4,seeds=3)"
            name, inner = name[:-1].split("(", 1)
            if inner:
                parts.append(inner)
        self._g = _call(_lib.ply_game_find, _b(name))
        if options:
            parts.append(options)
        parts += ["%s=%s" % (k, v) for k, v in kw.items()]
        self._options = ",".join(parts)
        self._max_moves = _lib.ply_game_max_moves(self._g)
        # Fail now on bad options, not at the first state.
        _lib.ply_state_free(self._new(None, 0))

    def _new(self, setup, seed):
        return _call(_lib.ply_state_new, self._g, _b(self._options),
                     _b(setup), seed)

    @property
    def name(self):
        return _s(_lib.ply_game_name(self._g))

    @property
    def title(self):
        return _s(_lib.ply_game_title(self._g))

    @property
    def options(self):
        """The options this game was made with ("" for the defaults)."""
        return self._options

    @property
    def notation(self):
        return _s(_lib.ply_game_notation(self._g))

    @property
    def rules(self):
        return _s(_lib.ply_game_rules(self._g))

    @property
    def default_bot(self):
        return _s(_lib.ply_game_default_bot(self._g))

    @property
    def flags(self):
        return _lib.ply_game_flags(self._g)

    def num_players(self):
        return _lib.ply_game_num_players(self._g)

    def player_names(self):
        return [_s(_lib.ply_game_player_name(self._g, i))
                for i in range(self.num_players())]

    def max_game_length(self):
        return _lib.ply_game_max_length(self._g)

    def num_distinct_actions(self):
        """Bound on the legal moves of one position (not pyspiel's
        action-space size: Ply's move codes are not dense)."""
        return _lib.ply_game_max_moves(self._g)

    def option_help(self):
        """The game's options, one description line each."""
        return [_text(_lib.ply_game_option_describe, self._g, i)
                for i in range(_lib.ply_game_option_count(self._g))]

    def formats(self):
        """The record formats and wire dialects the game speaks."""
        return [_s(_lib.ply_game_format_name(self._g, i))
                for i in range(_lib.ply_game_format_count(self._g))]

    def new_state(self, setup=None, seed=0):
        """The start position, or the position of a setup string."""
        return State(self, self._new(setup, seed))

    def new_initial_state(self):
        return self.new_state()

    def __repr__(self):
        if self._options:
            return "Game(%r, %r)" % (self.name, self._options)
        return "Game(%r)" % self.name

    def __str__(self):
        return self.name


def load_game(name, options=None, **kw):
    """pyspiel's spelling of Game(name, ...)."""
    return Game(name, options, **kw)


class State:
    """A position with its history. Made by Game.new_state()."""

    def __init__(self, game, handle, owned=True):
        self._game = game
        self._s = handle
        self._owned = owned

    def __del__(self):
        if getattr(self, "_owned", False) and self._s:
            _lib.ply_state_free(self._s)
            self._s = None

    def get_game(self):
        return self._game

    game = property(get_game)

    def current_player(self):
        """0..players-1, PLAYER_CHANCE (-2) or PLAYER_TERMINAL (-1)."""
        return _lib.ply_state_current_player(self._s)

    def is_terminal(self):
        return bool(_lib.ply_state_is_terminal(self._s))

    def is_chance_node(self):
        return self.current_player() == PLAYER_CHANCE

    def num_players(self):
        """The players taking part (fewer than the game's seats when its
        options leave some empty: splut players=2)."""
        return _lib.ply_state_num_players(self._s)

    def player_names(self):
        return [_s(_lib.ply_state_player_name(self._s, i))
                for i in range(self.num_players())]

    def legal_actions(self):
        """The legal moves as plain ints (fast: no notation)."""
        cap = self._game._max_moves
        buf = (ctypes.c_uint64 * cap)()
        n = _lib.ply_state_legal_moves(self._s, buf, cap)
        return buf[:n] if n > 0 else []

    def legal_moves(self):
        """The legal moves as Move objects (ints printing their
        notation)."""
        return [Move(m, self.move_to_string(m)) for m in self.legal_actions()]

    def move_to_string(self, move):
        return _text(_lib.ply_state_move_to_text, self._s, int(move))

    def action_to_string(self, *args):
        """action_to_string([player,] action), as in pyspiel."""
        return self.move_to_string(args[-1])

    def parse_move(self, text):
        """The legal move written as text (PlyError if none)."""
        m = ctypes.c_uint64()
        _call(_lib.ply_state_parse_move, self._s, _b(text), ctypes.byref(m))
        return Move(m.value, self.move_to_string(m.value))

    string_to_action = parse_move

    def apply(self, move):
        """Plays a move: a Move or int from this position's legal moves, or
        its text. PlyError if it is not legal; the state is then
        unchanged."""
        if isinstance(move, str):
            _call(_lib.ply_state_apply_text, self._s, _b(move))
        elif _lib.ply_state_apply(self._s, int(move), None):
            # Failed and changed nothing: again, for the message.
            _call(_lib.ply_state_apply, self._s, int(move))

    apply_action = apply

    def child(self, move):
        """A new state: this one after move."""
        c = self.clone()
        c.apply(move)
        return c

    def undo(self):
        """Takes back the last move (PlyError when there is none)."""
        _call(_lib.ply_state_undo, self._s)

    def history(self):
        """The moves played since the state was made, as ints."""
        return [_lib.ply_state_history_move(self._s, i)
                for i in range(_lib.ply_state_history_length(self._s))]

    def returns(self):
        """One value per player at the end (win 1, loss -1, draw 0 in
        two-player games); zeros while the game runs."""
        n = self.num_players()
        buf = (ctypes.c_double * n)()
        _lib.ply_state_returns(self._s, buf, n)
        return [v + 0.0 for v in buf]

    def chance_outcomes(self):
        """[(Move, probability)] at a chance node, [] elsewhere."""
        n = _lib.ply_state_chance_outcomes(self._s, None, None, 0)
        if n <= 0:
            return []
        mv = (ctypes.c_uint64 * n)()
        p = (ctypes.c_double * n)()
        _lib.ply_state_chance_outcomes(self._s, mv, p, n)
        return [(Move(mv[i], self.move_to_string(mv[i])), p[i])
                for i in range(n)]

    def observation(self, player):
        """What player sees, as a State without history (a copy of the
        position in games with perfect information)."""
        return State(self._game,
                     _call(_lib.ply_state_observation, self._s, player))

    def observation_string(self, player):
        return str(self.observation(player))

    def determinize(self, player, seed=0):
        """A full position consistent with this observation of player."""
        return State(self._game, _call(_lib.ply_state_determinize, self._s,
                                       player, seed))

    def clone(self):
        return State(self._game, _call(_lib.ply_state_clone, self._s))

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    def setup(self):
        """The setup string (Game.new_state(setup=...) reads it back)."""
        return _text(_lib.ply_state_to_text, self._s)

    def hash(self):
        return _lib.ply_state_hash(self._s)

    def time_budget(self, clock):
        """The seconds Ply's time manager gives the move of the player to
        move here under clock (a Clock)."""
        return _call(_lib.ply_time_budget, self._s, _clock(clock),
                     None) / 1000.0

    def __str__(self):
        return _text(_lib.ply_state_render, self._s)

    def __repr__(self):
        return "<ply.State %s %r>" % (self._game.name, self.setup())


class SearchInfo:
    """A search's report: best (Move), value, proven, depth, seldepth,
    nodes, playouts, seconds, pv (list of Move)."""

    def __init__(self, root, si):
        def mv(code):
            try:
                return Move(code, root.move_to_string(code))
            except PlyError:
                return Move(code, str(code))
        self.best = mv(si.best) if si.best or si.nodes else None
        self.value = si.value
        self.proven = si.proven
        self.depth = si.depth
        self.seldepth = si.seldepth
        self.nodes = si.nodes
        self.playouts = si.playouts
        self.seconds = si.seconds
        # The pv's later moves belong to later positions: name them by
        # playing them out on a copy.
        self.pv = []
        st = root.clone()
        for i in range(si.pv_len):
            try:
                m = Move(si.pv[i], st.move_to_string(si.pv[i]))
                st.apply(m)
            except PlyError:
                break
            self.pv.append(m)

    def __repr__(self):
        return ("SearchInfo(best=%s, value=%d, depth=%d, nodes=%d, "
                "seconds=%.3f)" % (self.best, self.value, self.depth,
                                   self.nodes, self.seconds))


def _ms(time):
    """Milliseconds from seconds (a number) or "150ms", "2s", "5m"."""
    if time is None:
        return 0
    if isinstance(time, str):
        t = time.strip()
        scale = 1
        if t.endswith("ms"):
            t = t[:-2]
        elif t.endswith("s"):
            t, scale = t[:-1], 1000
        elif t.endswith("m"):
            t, scale = t[:-1], 60000
        return int(float(t) * scale)
    return int(time * 1000)


class Clock:
    """A player's clock at its move: left (main time), inc (added after
    each move), byoyomi (a move's own time once the main time is spent),
    each in seconds or as "150ms", "2s", "5m"; moves_to_go (own moves to
    the next time control, 0 for the whole game); margin (kept back, 0 for
    the game's default). Ply's time manager, the one its engine modes use,
    turns it into the move's time: State.time_budget(), or clock= in
    Bot.choose() and Session.go()."""

    def __init__(self, left=0, inc=0, byoyomi=0, moves_to_go=0, margin=0):
        self.left, self.inc, self.byoyomi = left, inc, byoyomi
        self.moves_to_go, self.margin = moves_to_go, margin

    def _c(self):
        return _l.Clock(_ms(self.left), _ms(self.inc), _ms(self.byoyomi),
                        int(self.moves_to_go), _ms(self.margin))

    def __repr__(self):
        return ("Clock(left=%r, inc=%r, byoyomi=%r, moves_to_go=%r, "
                "margin=%r)" % (self.left, self.inc, self.byoyomi,
                                self.moves_to_go, self.margin))


def _clock(clock):
    if clock is None:
        return None
    if not isinstance(clock, Clock):
        raise TypeError("expected a ply.Clock, got %r" % (clock,))
    return ctypes.byref(clock._c())


def _limits(time, nodes, depth, on_info, game):
    """A PlyLimits, or None for the spec's own limits."""
    if time is None and nodes is None and depth is None and on_info is None:
        return None, None
    lim = _l.Limits()
    lim.time_ms = _ms(time)
    lim.nodes = nodes or 0
    lim.depth = depth or 0
    cb = None
    if on_info is not None:
        def tramp(user, root, si):
            view = State(game, root, owned=False)
            on_info(SearchInfo(view, si.contents))
        cb = _l.INFO_FN(tramp)
        lim.on_info = cb
    return lim, cb


class Bot:
    """A bot from a spec ("mcts:time=1s", "alphabeta:depth=6"; None: the
    game's default bot). It binds to a game at its first move, or to the
    game given."""

    def __init__(self, spec=None, game=None, seed=0):
        self.spec = spec
        self.seed = seed
        self._b = None
        self._game = None
        if game is not None:
            self._bind(game)
        elif spec:
            # An unknown bot fails here, not at the first move.
            _call(_lib.ply_bot_type_find, _b(spec.split(":", 1)[0]))

    def _bind(self, game):
        if self._b is not None and self._game._g == game._g:
            return
        if self._b is not None:
            _lib.ply_bot_free(self._b)
            self._b = None
        self._b = _call(_lib.ply_bot_new, game._g, _b(self.spec), self.seed)
        self._game = game

    def __del__(self):
        if getattr(self, "_b", None):
            _lib.ply_bot_free(self._b)
            self._b = None

    def choose(self, state, time=None, nodes=None, depth=None,
               on_info=None, clock=None):
        """The bot's move for the player to move (a Move). Limits (time in
        seconds or "150ms"/"2s", nodes, depth) replace the spec's;
        on_info(SearchInfo) is called as the search deepens. clock (a
        Clock): the move's time from the time manager, capped by time."""
        self._bind(state.game)
        lim, keep = _limits(time, nodes, depth, on_info, state.game)
        m = ctypes.c_uint64()
        si = _l.SearchInfo()
        limp = ctypes.byref(lim) if lim is not None else None
        if clock is None:
            _call(_lib.ply_bot_choose, self._b, state._s, limp,
                  ctypes.byref(m), ctypes.byref(si))
        else:
            _call(_lib.ply_bot_choose_clock, self._b, state._s,
                  _clock(clock), limp, ctypes.byref(m), ctypes.byref(si))
        del keep
        self.last_info = SearchInfo(state, si)
        return Move(m.value, state.move_to_string(m.value))

    def step(self, state):
        """pyspiel's name for choose()."""
        return self.choose(state)

    def inform(self, state, move):
        """move was played at state (lets the bot reuse its tree)."""
        self._bind(state.game)
        _call(_lib.ply_bot_inform, self._b, state._s, int(move))

    def restart(self):
        """Forget everything learnt: a new game."""
        if self._b:
            _lib.ply_bot_new_game(self._b)

    def stop(self):
        """Ask a running choose() (in another thread) to return soon."""
        if self._b:
            _lib.ply_bot_stop(self._b)

    def __repr__(self):
        return "Bot(%r)" % self.spec


class Session:
    """A game, a position with its history, and a bot that searches in its
    own thread (what Ply's engine modes run on): go() returns at once,
    stop() ends the search early, wait() gives its move."""

    def __init__(self, game, bot=None, seed=0):
        if isinstance(game, str):
            game = Game(game)
        self.game = game
        self._p = _call(_lib.ply_session_new, game._g, _b(game.options),
                        _b(bot), seed)
        self._cbs = None

    def __del__(self):
        if getattr(self, "_p", None):
            _lib.ply_session_free(self._p)
            self._p = None

    def set_position(self, setup=None, moves=None):
        """A setup string (None: the start) and moves in notation (a list
        or a space-separated string)."""
        if isinstance(moves, (list, tuple)):
            moves = " ".join(str(m) for m in moves)
        _call(_lib.ply_session_set_position, self._p, _b(setup), _b(moves))

    def play(self, move):
        _call(_lib.ply_session_play, self._p, _b(str(move)))

    def undo(self, n=1):
        """Takes back up to n moves; returns how many."""
        return _lib.ply_session_undo(self._p, n)

    def state(self):
        """A copy of the current position."""
        return State(self.game, _call(_lib.ply_session_state, self._p))

    def set_bot(self, spec):
        _call(_lib.ply_session_set_bot, self._p, _b(spec))

    def set_bot_option(self, key, value):
        _call(_lib.ply_session_set_bot_option, self._p, _b(key),
              _b(None if value is None else str(value)))

    def go(self, time=None, nodes=None, depth=None, on_info=None,
           on_done=None, clock=None):
        """Starts a search of the current position and returns at once.
        on_info(SearchInfo) and on_done(move, SearchInfo) run on the search
        thread. clock (a Clock): the move's time from the time manager,
        capped by time."""
        game = self.game

        def info(user, root, si):
            if on_info is not None:
                on_info(SearchInfo(State(game, root, owned=False),
                                   si.contents))

        def done(user, root, best, si):
            if on_done is not None:
                view = State(game, root, owned=False)
                try:
                    mv = Move(best, view.move_to_string(best))
                except PlyError:
                    mv = None
                on_done(mv, SearchInfo(view, si.contents))
        cbs = (_l.INFO_FN(info), _l.DONE_FN(done))
        _call(_lib.ply_session_on_info, self._p, cbs[0], cbs[1], None)
        self._cbs = cbs         # alive while the search may call them
        lim, keep = _limits(time, nodes, depth, None, game)
        self._keep = keep
        limp = ctypes.byref(lim) if lim is not None else None
        if clock is None:
            _call(_lib.ply_session_go, self._p, limp)
        else:
            _call(_lib.ply_session_go_clock, self._p, _clock(clock), limp)

    def stop(self):
        """Asks the search to end soon (any thread)."""
        _lib.ply_session_stop(self._p)

    def wait(self):
        """Waits for the search: (Move, SearchInfo)."""
        st = self.state()
        m = ctypes.c_uint64()
        si = _l.SearchInfo()
        _call(_lib.ply_session_wait, self._p, ctypes.byref(m),
              ctypes.byref(si))
        info = SearchInfo(st, si)
        try:
            return Move(m.value, st.move_to_string(m.value)), info
        except PlyError:
            return None, info


class Record:
    """One finished game: game, options, index, setup, moves (texts), seats
    (the bot at each seat), result (per seat), reason, winner (seat, -1 for
    a draw, -2 without a result). From a Match, or from a file of `ply
    match --out` (read_records)."""

    _r = None
    _line = None

    def __init__(self, match, handle):
        self._match = match     # keeps the match alive
        self._r = handle
        r = handle
        self.game = match.game.name
        self.options = match.game.options
        self.index = _lib.ply_record_index(r)
        self.setup = _s(_lib.ply_record_setup(r))
        self.moves = [_s(_lib.ply_record_move(r, i))
                      for i in range(_lib.ply_record_num_moves(r))]
        n = _lib.ply_record_num_seats(r)
        self.bots = [_lib.ply_record_bot(r, s) for s in range(n)]
        self.seats = [match.bots[b] for b in self.bots]
        self.result = [_lib.ply_record_result(r, s) + 0.0 for s in range(n)]
        self.reason = _s(_lib.ply_record_reason(r))
        self.winner = _lib.ply_record_winner(r)

    @classmethod
    def _from_json(cls, d, line):
        r = cls.__new__(cls)
        r._line = line
        r.game = d["game"]
        r.options = d.get("options") or ""
        r.index = d.get("index", -1)
        r.setup = d.get("setup") or ""
        r.moves = list(d.get("moves") or [])
        r.seats = list(d.get("seats") or [])
        r.bots = None
        r.result = [float(x) for x in d.get("result") or []]
        r.reason = d.get("reason")
        if not r.result:
            r.winner = -2
        else:
            best = max(r.result)
            r.winner = (r.result.index(best)
                        if r.result.count(best) == 1 else -1)
        return r

    def __del__(self):
        if self._r:
            _lib.ply_record_free(self._r)
            self._r = None

    def states(self):
        """The game's positions: the start, then the position after each
        move (an illegal last move that lost the game is not played)."""
        s = Game(self.game, self.options or None).new_state(
            setup=self.setup or None)
        yield s.clone()
        for i, mv in enumerate(self.moves):
            if self.reason == "illegal" and i == len(self.moves) - 1:
                break
            s.apply(mv)
            yield s.clone()

    def write(self, format="json"):
        """The record as text: "json" (a line of `ply match --out`) or, for
        a record of a Match, one of the game's record formats ("pgn",
        "pdn", "kif", "csa", "sgf"; `ply record --to FORMAT` converts
        files)."""
        if self._r is None:
            if format == "json":
                return self._line
            raise PlyError(2, "a record read from a file is written as "
                           "json only: convert files with ply record --to "
                           + format)
        p = _call(_lib.ply_record_write, self._r, _b(format))
        try:
            return ctypes.string_at(p).decode("utf-8", "replace")
        finally:
            _lib.ply_free(p)

    def to_json(self):
        return _json.loads(self.write("json"))

    def __repr__(self):
        return "<ply.Record %d: %s, %d moves, result %s>" % (
            self.index, " vs ".join(self.seats), len(self.moves),
            self.result)


def read_records(path):
    """Iterates over the records of a `ply match --out` file (JSON lines),
    yielding Records. PlyError names the line of a bad one."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                d = _json.loads(line)
                if not isinstance(d, dict) or "game" not in d:
                    raise ValueError("not a game record")
                yield Record._from_json(d, line)
            except (ValueError, TypeError, KeyError) as e:
                raise PlyError(3, "%s:%d: %s" % (path, number, e)) from None


class Match:
    """A match between bots (specs) in-process: games per pairing, seats
    alternating, each game fixed by seed and its number. Iterating plays
    the games in order and yields their Records; score(i) is bot i's
    (wins, draws, losses) over the games played so far."""

    def __init__(self, game, bots, games=2, seed=1, time=None, openings=0):
        if isinstance(game, str):
            game = Game(game)
        self.game = game
        self.bots = list(bots)
        arr = (ctypes.c_char_p * len(self.bots))(*[_b(b)
                                                   for b in self.bots])
        self._m = _call(_lib.ply_match_new, game._g, _b(game.options), arr,
                        len(self.bots), games, seed)
        if time is not None:
            _call(_lib.ply_match_set_time, self._m, _b(time))
        if openings:
            _call(_lib.ply_match_set_openings, self._m, openings)

    def __del__(self):
        if getattr(self, "_m", None):
            _lib.ply_match_free(self._m)
            self._m = None

    def __len__(self):
        return _lib.ply_match_total(self._m)

    def play(self, index, count=True):
        """Plays game number index and returns its Record (counted in the
        score unless count is False)."""
        r = Record(self, _call(_lib.ply_match_play, self._m, index))
        if count:
            _call(_lib.ply_match_count, self._m, r._r)
        return r

    def __iter__(self):
        for i in range(len(self)):
            yield self.play(i)

    def score(self, bot):
        w, d, l = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        _call(_lib.ply_match_score, self._m, bot, ctypes.byref(w),
              ctypes.byref(d), ctypes.byref(l))
        return (w.value, d.value, l.value)
