/* ply.h — Ply as a library: the one public header of libply.
 *
 * Ply is a general board-game engine: every registered game (chess,
 * draughts, shogi, go, reversi, kalah, ...) and every bot (random, greedy,
 * alphabeta, mcts, ...) behind one interface. This header is the stable
 * C API; nothing else of Ply's source is promised.
 *
 *   cc prog.c $(pkg-config --cflags --libs ply)
 *
 * Conventions:
 * - Handles are opaque. PlyGame and PlyBotType are static (never freed);
 *   every other handle is created by a *_new (or *_clone) function and
 *   freed by its *_free, which accepts NULL.
 * - Functions that can fail take a PlyError * last (NULL is allowed: the
 *   error is then only in the return value) and return -1 or NULL on
 *   failure, with err->code and err->message set. The library never
 *   prints and never aborts on bad input.
 * - Text is UTF-8. A function writing text into (buf, n) returns the
 *   length written (without the terminating 0), or -1 with PLY_E_RANGE
 *   when it does not fit.
 * - Thread safety: no global mutable state. Different handles may be
 *   used from different threads at once; one handle is used by one thread
 *   at a time, except ply_bot_stop() and ply_session_stop(), which any
 *   thread may call at any time.
 * - A fixed seed reproduces everything (random setups, bots, matches).
 *
 * Versions: PLY_VERSION is the release the header belongs to;
 * PLY_API_VERSION is the ABI version, the number in the soname
 * (libply.so.1). It changes only when an existing function or struct
 * changes; new functions may be added within an ABI version. */
#ifndef PLY_H
#define PLY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLY_VERSION "0.1"
#define PLY_VERSION_MAJOR 0
#define PLY_VERSION_MINOR 1
#define PLY_API_VERSION 1

/* ------------------------------------------------------------ errors */

typedef enum PlyErrorCode {
    PLY_OK = 0,
    PLY_E_ARGUMENT = 1,     /* a NULL handle, a bad index or count */
    PLY_E_NOT_FOUND = 2,    /* unknown game, bot, format or option */
    PLY_E_PARSE = 3,        /* bad options, setup string, spec or move text */
    PLY_E_ILLEGAL = 4,      /* a move that is not legal here */
    PLY_E_STATE = 5,        /* not now: game over, nothing to undo, a
                             * search running, a chance node, ... */
    PLY_E_MEMORY = 6,       /* out of memory */
    PLY_E_RANGE = 7,        /* the buffer is too small */
    PLY_E_FAILED = 8        /* the operation failed (the message says why) */
} PlyErrorCode;

typedef struct PlyError {
    int code;               /* PlyErrorCode; PLY_OK when nothing failed */
    char message[256];      /* for a human, naming the bad input */
} PlyError;

/* "PLY_E_PARSE" and the like; "PLY_E_UNKNOWN" for other values. */
const char *ply_error_name(int code);

/* ------------------------------------------------------------ versions */

/* The library's full version ("0.1-123-gabcdef0" from git describe). */
const char *ply_version(void);
/* The ABI version of the library loaded (PLY_API_VERSION it was built
 * with): compare with PLY_API_VERSION to detect a mismatch. */
int ply_api_version(void);

/* ------------------------------------------------------------ games */

typedef struct PlyGame PlyGame;     /* a registered game: static */
typedef uint64_t PlyMove;           /* a move, valid in the position whose
                                     * legal moves listed it */

enum {
    PLY_PLAYER_TERMINAL = -1,       /* ply_state_current_player() */
    PLY_PLAYER_CHANCE = -2,
    PLY_PLAYERS_MAX = 8
};

/* ply_game_flags() */
enum {
    PLY_GAME_ZERO_SUM = 1u << 0,    /* returns add up to 0 */
    PLY_GAME_CHANCE = 1u << 1,      /* has chance nodes */
    PLY_GAME_HIDDEN = 1u << 2,      /* imperfect information */
    PLY_GAME_IMPARTIAL = 1u << 3    /* both players have the same moves */
};

int ply_game_count(void);
/* Game i (0 <= i < ply_game_count()), NULL otherwise. */
const PlyGame *ply_game_at(int i);
/* The game named name ("chess", "draughts-russian"); NULL with
 * PLY_E_NOT_FOUND (the message lists the games) when none. */
const PlyGame *ply_game_find(const char *name, PlyError *err);

const char *ply_game_name(const PlyGame *g);
const char *ply_game_title(const PlyGame *g);
int ply_game_num_players(const PlyGame *g);
/* "White", "Black", ...; NULL for a bad player. */
const char *ply_game_player_name(const PlyGame *g, int player);
unsigned ply_game_flags(const PlyGame *g);
/* Bound on the number of legal moves of any position. */
int ply_game_max_moves(const PlyGame *g);
/* Bound on a game's length in moves (of any player). */
int ply_game_max_length(const PlyGame *g);
/* How moves and setup strings are written; a rules summary. */
const char *ply_game_notation(const PlyGame *g);
const char *ply_game_rules(const PlyGame *g);
/* The bot spec to use when the user names none. */
const char *ply_game_default_bot(const PlyGame *g);

/* The game's options ("houses=6,seeds=4" style keys). */
int ply_game_option_count(const PlyGame *g);
const char *ply_game_option_key(const PlyGame *g, int i);
/* One line: "key=N (1..32, default 6): help". */
int ply_game_option_describe(const PlyGame *g, int i, char *buf, size_t n,
                             PlyError *err);

/* The record formats and wire dialects the game speaks ("pgn", "uci"). */
int ply_game_format_count(const PlyGame *g);
const char *ply_game_format_name(const PlyGame *g, int i);

/* ------------------------------------------------------------ bot types */

typedef struct PlyBotType PlyBotType;   /* a registered bot: static */

int ply_bot_type_count(void);
const PlyBotType *ply_bot_type_at(int i);
const PlyBotType *ply_bot_type_find(const char *name, PlyError *err);
const char *ply_bot_type_name(const PlyBotType *t);
const char *ply_bot_type_help(const PlyBotType *t);
/* Its options, the shared ones (time, nodes, depth, seed) first. */
int ply_bot_type_option_count(const PlyBotType *t);
const char *ply_bot_type_option_key(const PlyBotType *t, int i);
int ply_bot_type_option_describe(const PlyBotType *t, int i, char *buf,
                                 size_t n, PlyError *err);

/* ------------------------------------------------------------ states */

typedef struct PlyState PlyState;   /* a position with its history */

/* A state of g under options ("key=value,..."; NULL or "": defaults) at
 * setup (a setup string in the game's notation; NULL or "": the start
 * position). seed serves games with random setups. */
PlyState *ply_state_new(const PlyGame *g, const char *options,
                        const char *setup, uint64_t seed, PlyError *err);
/* A copy, with its history. */
PlyState *ply_state_clone(const PlyState *s, PlyError *err);
void ply_state_free(PlyState *s);
const PlyGame *ply_state_game(const PlyState *s);

/* The player to move (0..players-1), PLY_PLAYER_CHANCE or
 * PLY_PLAYER_TERMINAL. */
int ply_state_current_player(const PlyState *s);
/* The players taking part at s: fewer than ply_game_num_players() when
 * the game's options leave seats empty (splut players=2); they are seats
 * 0..n-1. */
int ply_state_num_players(const PlyState *s);
/* The name of player (seat) 0..n-1 at s ("South", "North" in splut
 * players=2); NULL for a bad player. */
const char *ply_state_player_name(const PlyState *s, int player);
int ply_state_is_terminal(const PlyState *s);
/* The legal moves (at a chance node: the outcomes) in a fixed order:
 * writes min(count, max) of them to out (out may be NULL) and returns
 * count (0 at the end; -1 when out of memory). */
int ply_state_legal_moves(const PlyState *s, PlyMove *out, int max);
/* Chance outcomes with their probabilities; returns count (0 when the
 * state is not a chance node). */
int ply_state_chance_outcomes(const PlyState *s, PlyMove *out, double *p,
                              int max);
/* A legal move in the game's notation, and back (PLY_E_ILLEGAL or
 * PLY_E_PARSE when text is not a legal move here). */
int ply_state_move_to_text(const PlyState *s, PlyMove m, char *buf,
                           size_t n, PlyError *err);
int ply_state_parse_move(const PlyState *s, const char *text, PlyMove *m,
                         PlyError *err);
/* Plays a legal move (0), or fails leaving s unchanged. */
int ply_state_apply(PlyState *s, PlyMove m, PlyError *err);
int ply_state_apply_text(PlyState *s, const char *text, PlyError *err);
/* Takes back the last move (0), or PLY_E_STATE when there is none. */
int ply_state_undo(PlyState *s, PlyError *err);
/* Moves played since the state was made, and move i of them. */
int ply_state_history_length(const PlyState *s);
PlyMove ply_state_history_move(const PlyState *s, int i);
/* The value of each player at a terminal state (win 1, loss -1, draw 0
 * for two players; 0 for everyone while the game runs): writes
 * min(players, max) values, returns the number of players
 * (ply_state_num_players). */
int ply_state_returns(const PlyState *s, double *out, int max);
/* The setup string of the position (ply_state_new reads it back). */
int ply_state_to_text(const PlyState *s, char *buf, size_t n,
                      PlyError *err);
/* A picture of the position for humans (several lines). */
int ply_state_render(const PlyState *s, char *buf, size_t n, PlyError *err);
/* A hash of the position (equal positions hash equally). */
uint64_t ply_state_hash(const PlyState *s);
/* What player sees: a new state without history, in which what player
 * cannot see is hidden. In games with perfect information, a copy of the
 * position. */
PlyState *ply_state_observation(const PlyState *s, int player,
                                PlyError *err);
/* A full position consistent with an observation (from
 * ply_state_observation for player), sampled with seed. In games with
 * perfect information, a copy. */
PlyState *ply_state_determinize(const PlyState *obs, int player,
                                uint64_t seed, PlyError *err);

/* ------------------------------------------------------------ bots */

enum { PLY_MAX_PV = 64 };

typedef struct PlySearchInfo {
    PlyMove best;
    int value;          /* centipawn-like units (a pawn ~ 100), the mover's
                         * view; beyond +-1000000 a proven result */
    int proven;         /* +1 proven win, -1 proven loss, 0 unknown */
    int depth;          /* completed depth (alphabeta), 0 if none */
    int seldepth;
    uint64_t nodes;     /* nodes (alphabeta) or iterations (mcts) */
    uint64_t playouts;
    double seconds;
    int pv_len;
    PlyMove pv[PLY_MAX_PV];
} PlySearchInfo;

/* Progress of a search: root is the searched position, valid during the
 * call only (read it: move text, render; never apply to it). */
typedef void (*PlyInfoFn)(void *user, const PlyState *root,
                          const PlySearchInfo *info);

/* Limits of one search; a zero field keeps the bot spec's limit. */
typedef struct PlyLimits {
    int64_t time_ms;    /* milliseconds */
    uint64_t nodes;     /* nodes or iterations */
    int depth;
    PlyInfoFn on_info;  /* may be NULL */
    void *user;
} PlyLimits;

/* A player's clock at its move. Ply's time manager (the one every engine
 * mode and `ply match --tc` use) turns it into the move's time: a share
 * of what is left over the moves to come (the game's estimate when
 * moves_to_go is 0) plus most of the increment, never more than is left
 * less a safety margin, and all of the byoyomi once the main time is
 * spent (then the move searches to its deadline: what it leaves is
 * lost). Every field is >= 0 and at most PLY_CLOCK_MAX_MS; a zero field
 * is absent. */
typedef struct PlyClock {
    int64_t left_ms;    /* main time left on the mover's clock */
    int64_t inc_ms;     /* added after each move (Fischer) */
    int64_t byoyomi_ms; /* a move's own time once the main time is spent */
    int moves_to_go;    /* own moves to the next time control; 0: the game */
    int64_t margin_ms;  /* kept back for the pipe and the clock's grain;
                         * 0: the game's default (10 ms and more) */
} PlyClock;

#define PLY_CLOCK_MAX_MS ((int64_t)1000 * 1000 * 1000 * 1000)

/* The time in ms (>= 1) the time manager gives the move of the player to
 * move at s under clock c; *spend_all (may be NULL) is 1 when the time is
 * the move's own (byoyomi), 0 when what the move leaves is kept. -1 with
 * PLY_E_ARGUMENT for a bad clock, PLY_E_STATE when nobody is to move. In
 * games with hidden information only the mover's observation is used. */
int64_t ply_time_budget(const PlyState *s, const PlyClock *c, int *spend_all,
                        PlyError *err);

typedef struct PlyBot PlyBot;

/* A bot for game g from a spec "NAME[:key=value,...]" ("mcts:time=1s",
 * "alphabeta:depth=6"); NULL or "": the game's default bot. */
PlyBot *ply_bot_new(const PlyGame *g, const char *spec, uint64_t seed,
                    PlyError *err);
void ply_bot_free(PlyBot *b);
const char *ply_bot_spec(const PlyBot *b);
/* The bot's move for the player to move at s, under lim (NULL: the
 * limits of the spec; lim->on_info reports progress on this thread or
 * the bot's). In games with hidden information the bot sees
 * only the mover's observation. info may be NULL. PLY_E_STATE at a
 * terminal or chance state. */
int ply_bot_choose(PlyBot *b, const PlyState *s, const PlyLimits *lim,
                   PlyMove *move, PlySearchInfo *info, PlyError *err);
/* As ply_bot_choose, with the move's time from the clock c
 * (ply_time_budget). A time in lim or in the spec caps it; lim's other
 * fields apply as in ply_bot_choose. */
int ply_bot_choose_clock(PlyBot *b, const PlyState *s, const PlyClock *c,
                         const PlyLimits *lim, PlyMove *move,
                         PlySearchInfo *info, PlyError *err);
/* A move was played at s (lets a bot reuse its tree). */
int ply_bot_inform(PlyBot *b, const PlyState *s, PlyMove played,
                   PlyError *err);
/* Forget everything learnt: a new game. */
void ply_bot_new_game(PlyBot *b);
/* Ask a running ply_bot_choose() to return soon. Any thread. */
void ply_bot_stop(PlyBot *b);

/* ------------------------------------------------------------ sessions */

/* A session: a game, a position with history, and a bot that searches in
 * its own thread (what Ply's engine modes run on). */
typedef struct PlySession PlySession;

/* The search has ended: best is the bot's move at root. */
typedef void (*PlyDoneFn)(void *user, const PlyState *root, PlyMove best,
                          const PlySearchInfo *info);

PlySession *ply_session_new(const PlyGame *g, const char *options,
                            const char *bot_spec, uint64_t seed,
                            PlyError *err);
void ply_session_free(PlySession *ps);
/* The position from a setup string (NULL: the start) and moves in
 * notation separated by spaces (NULL: none). */
int ply_session_set_position(PlySession *ps, const char *setup,
                             const char *moves, PlyError *err);
int ply_session_play(PlySession *ps, const char *move, PlyError *err);
/* Takes back up to n moves; returns how many. */
int ply_session_undo(PlySession *ps, int n);
/* A copy of the current position (free it with ply_state_free). */
PlyState *ply_session_state(const PlySession *ps, PlyError *err);
int ply_session_set_bot(PlySession *ps, const char *spec, PlyError *err);
int ply_session_set_bot_option(PlySession *ps, const char *key,
                               const char *value, PlyError *err);
/* Callbacks for the next searches; they run on the search thread and
 * must not call the session's functions. Call while no search runs. */
int ply_session_on_info(PlySession *ps, PlyInfoFn info, PlyDoneFn done,
                        void *user, PlyError *err);
/* Starts a search of the current position and returns at once. lim NULL:
 * the bot's own limits (lim's callback fields are ignored: see
 * ply_session_on_info). */
int ply_session_go(PlySession *ps, const PlyLimits *lim, PlyError *err);
/* As ply_session_go, with the move's time from the clock c
 * (ply_time_budget at the current position); a time in lim or in the
 * bot's spec caps it. */
int ply_session_go_clock(PlySession *ps, const PlyClock *c,
                         const PlyLimits *lim, PlyError *err);
/* Asks the search to end soon. Any thread. */
void ply_session_stop(PlySession *ps);
/* Waits for the search and gives its move; PLY_E_STATE when none ran. */
int ply_session_wait(PlySession *ps, PlyMove *move, PlySearchInfo *info,
                     PlyError *err);

/* ------------------------------------------------------------ matches */

typedef struct PlyMatch PlyMatch;
typedef struct PlyRecord PlyRecord;  /* one finished game */

/* A match of g under options between nbots bots (specs, 2 to 16): games
 * per pairing of the bots, seats alternating, every game determined by
 * seed and its number. */
PlyMatch *ply_match_new(const PlyGame *g, const char *options,
                        const char *const *bots, int nbots, uint64_t games,
                        uint64_t seed, PlyError *err);
void ply_match_free(PlyMatch *m);
/* A time control: "100ms" per move, "30s+0.1s" per game (default: the
 * bots' own limits). */
int ply_match_set_time(PlyMatch *m, const char *tc, PlyError *err);
/* Openings of plies random moves (drawn from the seed), 0 for none. */
int ply_match_set_openings(PlyMatch *m, int plies, PlyError *err);
/* Games in the match. */
uint64_t ply_match_total(const PlyMatch *m);
/* Plays game number index (0 <= index < total) and returns its record.
 * Different indices may be played from different threads at once. */
PlyRecord *ply_match_play(const PlyMatch *m, uint64_t index, PlyError *err);
/* Adds a game's result to the match's tally (ply_match_score); like
 * ply_match_play, callable from several threads at once. */
int ply_match_count(PlyMatch *m, const PlyRecord *r, PlyError *err);
/* Wins, draws and losses of bot i over the games counted. */
int ply_match_score(const PlyMatch *m, int bot, uint64_t *wins,
                    uint64_t *draws, uint64_t *losses, PlyError *err);

void ply_record_free(PlyRecord *r);
uint64_t ply_record_index(const PlyRecord *r);
/* The setup the game started from ("": the start position). */
const char *ply_record_setup(const PlyRecord *r);
int ply_record_num_moves(const PlyRecord *r);
/* The seats of the record's game (its players under the match's
 * options). */
int ply_record_num_seats(const PlyRecord *r);
const char *ply_record_move(const PlyRecord *r, int i);
/* Which bot (index into the match's list) sat at seat, -1 if none. */
int ply_record_bot(const PlyRecord *r, int seat);
double ply_record_result(const PlyRecord *r, int seat);
/* "normal", "time", "illegal", "crash" or "adjudicated". */
const char *ply_record_reason(const PlyRecord *r);
/* The winning seat, -1 for a draw. */
int ply_record_winner(const PlyRecord *r);
/* The record in a format: "json" (a line of `ply match --out`) or one of
 * the game's record formats ("pgn", "pdn", "kif", "csa", "sgf"). Returns
 * a new string (free it with ply_free). */
char *ply_record_write(const PlyRecord *r, const char *format,
                       PlyError *err);

/* Frees a string the library allocated. */
void ply_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
