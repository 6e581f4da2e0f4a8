/* session.h — one engine session: a game with its options, a position with
 * its full history (undo, redo, repetitions), a bot, and a search that runs
 * in its own thread on a copy of the position. Every front end sits on it:
 * the engine modes (UGI, UCI, UCCI, USI, CodeCup), `ply play`, `ply
 * analyze` and the referee's in-process seats; they keep only their
 * protocol's grammar and printing.
 *
 * Threads: a Session belongs to one owner thread, which calls every
 * function, except session_stop() and session_ponderhit(), which any
 * thread may call at any time (also the callbacks). The callbacks run on
 * the search thread; they must not call other session functions. Every
 * function that changes the position or the bot first stops and joins a
 * running search (its done callback still runs). */
#ifndef PLY_SESSION_H
#define PLY_SESSION_H

#include <stdint.h>

#include "bot.h"
#include "game.h"

typedef struct Session Session;

/* Progress of a search: root is the searched position (valid during the
 * call). */
typedef void (*SessionInfoFn)(void *user, const void *root,
                              const SearchInfo *si);
/* The search has ended (after stop or ponderhit for an infinite one):
 * best is the bot's move at root, not yet checked for legality. */
typedef void (*SessionDoneFn)(void *user, const void *root, Move best,
                              const SearchInfo *si);

/* A session at g's start position under options ("" or NULL: defaults)
 * with bot_spec (NULL: game_default_bot(g)). NULL with *err set when the
 * options or the spec are bad. */
Session *session_new(const GameVtbl *g, const char *options,
                     const char *bot_spec, uint64_t seed, PlyError *err);
/* Stops and joins a running search, frees everything. NULL is fine. */
void session_free(Session *s);

const GameVtbl *session_game(const Session *s);
const char *session_options(const Session *s);
const char *session_bot_spec(const Session *s);
uint64_t session_seed(const Session *s);
/* The limits written in the bot spec (time=, nodes=, depth=). */
Limits session_bot_limits(const Session *s);
/* Whether the bot can be stopped early (else it runs to its limits). */
int session_bot_can_stop(const Session *s);

/* ---- the bot */
/* From now on every bot of s is built from an untrusted client's spec
 * (bot_new_guarded: no files, nested specs or costly values), for a
 * server's sessions; the bot already there stays. */
void session_guard(Session *s);
/* Replaces the bot by a new one built from spec (the position stays). */
int session_set_bot(Session *s, const char *spec, PlyError *err);
/* The bot spec with key=value set (added, or replacing the key's value),
 * checked by building the bot: every front end's setoption for a bot
 * option goes here. value NULL or "" removes the key. */
int session_set_bot_option(Session *s, const char *key, const char *value,
                           PlyError *err);
/* A new seed: the bot is rebuilt with it (also seeds random setups). */
int session_set_seed(Session *s, uint64_t seed, PlyError *err);
/* The bot's table (bot_option_at(), bot_option_engine()). */
const BotVtbl *session_bot_vtbl(const Session *s);
/* A standard engine option ("Hash" in MiB, "Threads"; case-insensitive)
 * through the bot's row of that engine name. The value is kept: a bot
 * installed later by session_set_bot() gets it too where it has such a
 * row. -1 with err when the bot has no such row or the value is bad. */
enum { SESSION_ENGINE_OPTIONS = 8 };
int session_set_engine_option(Session *s, const char *name,
                              const char *value, PlyError *err);

/* ---- the position */
/* The current position (valid until the next change). */
const void *session_state(const Session *s);
/* Moves played since the position was set, and moves that redo can
 * replay. */
int session_ply(const Session *s);
int session_redo_count(const Session *s);
/* The position before move i (0 <= i <= session_ply()) and move i. */
const void *session_state_at(const Session *s, int i);
Move session_move_at(const Session *s, int i);

/* The position from a setup string (NULL or "": the start position) and
 * then whitespace-separated moves in notation (NULL: none). On error
 * nothing changes and *err names the bad part ("move 3 'e9e1': ..."). The
 * history starts at the setup; the bot keeps what it learnt. */
int session_set_position(Session *s, const char *setup, const char *moves,
                         PlyError *err);
/* Hidden information: the position as one player's view (the game's
 * from_view: what an external engine is told, since the true state is
 * not its to know). The view must be the player's to move; the bot
 * searches it as it would that player's observation of the true state.
 * Moves cannot follow a view (the next position comes as a new view). */
int session_set_view(Session *s, const char *view, PlyError *err);
/* The position given as a state blob; the history starts there. */
int session_set_state(Session *s, const void *st, PlyError *err);
/* Back to the start position with a freshly built bot: a new game. */
int session_new_game(Session *s, PlyError *err);
/* Plays a legal move (a player's or a chance outcome): the bot is told
 * (tree reuse; not in games with hidden information) and the redo list
 * dropped. -1 if m is not legal. */
int session_play(Session *s, Move m, PlyError *err);
int session_play_text(Session *s, const char *text, PlyError *err);
/* Takes back (replays) up to n moves; returns how many. The bot forgets
 * its game so stale trees are not reused. */
int session_undo(Session *s, int n);
int session_redo(Session *s, int n);

/* ---- the search */
/* Callbacks for the next searches (call while no search runs). */
void session_on_info(Session *s, SessionInfoFn info, SessionDoneFn done,
                     void *user);
/* Starts a search of the current position on a copy (an observation of
 * it for the mover in games with hidden information) and returns at
 * once. lim NULL means the bot's own limits; lim's callback fields are
 * ignored (use session_on_info). infinite: the result is held back until
 * session_stop() or session_ponderhit() even when the bot finishes
 * earlier. -1 when a search is running or the position has no player to
 * move. */
int session_go(Session *s, const Limits *lim, int infinite, PlyError *err);
/* Asks a running search to end soon. Any thread; harmless when idle. A
 * bot may miss a stop sent just as its search begins: session_wait() and
 * session_search_done() repeat it, so follow a stop with one of them. */
void session_stop(Session *s);
/* An infinite search may report as soon as the bot is done. Any thread. */
void session_ponderhit(Session *s);
/* A search was started and not yet waited for. */
int session_searching(const Session *s);
/* That search has ended (session_wait() will not block). */
int session_search_done(Session *s);
/* That search is infinite and neither stopped nor ponderhit: waiting for
 * it would block until another thread stops it. */
int session_search_endless(Session *s);
/* Joins the search and returns its move (0 and a zeroed *out when there
 * was none); out may be NULL. Does not stop it (see session_stop). */
Move session_wait(Session *s, SearchInfo *out);
/* Stops and joins a running search; its result is dropped. */
void session_cancel(Session *s);
/* Milliseconds since the last session_go(). */
int64_t session_search_ms(const Session *s);

#endif
