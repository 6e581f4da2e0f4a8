/* player.h — a seat at the referee's table: an in-process bot (a Session)
 * or a program spoken to in some protocol. The referee (referee.h) knows
 * players only through this interface; each protocol's client lives
 * beside its server in src/proto and reaches the referee through a
 * PlayerClient table that the caller passes in (tools does not include
 * proto).
 *
 * Life of a player in one game: begin (once), then move whenever its seat
 * is to move, inform for every move played (its own included, chance
 * outcomes too), end (also after a failed begin, and when begin was never
 * called), and free. A player is used for one game. */
#ifndef PLY_PLAYER_H
#define PLY_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"

struct EngineWatch;             /* engine.h */

typedef enum { TC_NONE, TC_MOVE, TC_GAME } TcKind;

/* How a game ended: normally, or by a forfeit (time, crash, illegal move)
 * or an adjudication (resignation, length). */
typedef enum {
    REASON_NORMAL, REASON_TIME, REASON_CRASH, REASON_ILLEGAL,
    REASON_ADJUDICATED, REASON_COUNT
} Reason;

extern const char *const match_reason_names[REASON_COUNT];

/* A program's own count of the final position (GTP's final_score) against
 * the referee's result: none asked or answered; the same winner and
 * margin; the same winner, another margin; another winner. */
typedef enum {
    SCORE_CHECK_NONE, SCORE_CHECK_AGREE, SCORE_CHECK_MARGIN,
    SCORE_CHECK_DISAGREE, SCORE_CHECK_COUNT
} ScoreCheck;

extern const char *const score_check_names[SCORE_CHECK_COUNT];

enum { PLAYER_SCORE_MAX = 64 };

typedef struct TimeControl {
    TcKind kind;
    int64_t tc_ms, inc_ms;      /* per move: tc_ms; per game: base + inc */
    int64_t grace_ms;           /* slack before a time forfeit */
    int64_t ext_move_ms;        /* without a control: a program's move
                                 * time, and a bot's without limits */
    int64_t start_ms;           /* a program's handshake */
} TimeControl;

/* What a player is told at the start of a game. */
typedef struct PlayerGame {
    const GameVtbl *g;
    const char *options;        /* game options text ("" = defaults) */
    const char *setup;          /* the position before the opening */
    int startpos;               /* setup is the game's plain start */
    char *const *opening;       /* opening moves from setup, in notation */
    int opening_plies;
    const void *st;             /* the position after them: the game's */
    int seat;
    uint64_t seed;              /* this seat's seed in this game */
    const TimeControl *tc;
} PlayerGame;

/* The clocks at a move. */
typedef struct PlayerClock {
    int64_t allowed_ms;         /* this move may take; -1: no limit */
    const int64_t *left_ms;     /* every seat's game clock */
    uint64_t seed;              /* for time_budget() */
} PlayerClock;

typedef struct Player Player;

typedef struct PlayerVtbl {
    /* REASON_NORMAL, or why the player cannot play (err says more). */
    Reason (*begin)(Player *p, const PlayerGame *pg, PlyError *err);
    /* The move at st (the seat's turn). *out must be legal at st, else
     * REASON_ILLEGAL; a resignation is REASON_ADJUDICATED. */
    Reason (*move)(Player *p, const void *st, const PlayerClock *c,
                   Move *out, PlyError *err);
    /* m (in notation: text) was played at st; NULL when not needed. */
    void (*inform)(Player *p, const void *st, Move m, const char *text);
    /* The game is over: result per seat, why, whether this seat lost by
     * forfeit. */
    void (*end)(Player *p, const double *result, Reason why,
                int forfeited);
    void (*free)(Player *p);
    /* An engine option (`--engine ...,option.NAME=VALUE`), set before
     * begin; NULL for players that take none. 0, or -1 with err set. */
    int (*set_option)(Player *p, const char *name, const char *value,
                      PlyError *err);
} PlayerVtbl;

struct Player {
    const PlayerVtbl *vt;
    char name[128];             /* for messages */
    int64_t game_ms;            /* a game clock its protocol keeps when
                                 * there is no time control (CodeCup's
                                 * 30 s); 0: none */
    int external;               /* a program: without a time control it
                                 * gets tc->ext_move_ms per move */
    int claimed;                /* set by move(): the move claimed a win
                                 * (CodeCup's '!'); the referee clears it */
    /* set by end() of a program asked to count the final position: its
     * answer, the referee's result written the same way, and how they
     * compare; the referee copies them into the record */
    ScoreCheck score_check;
    char score_own[PLAYER_SCORE_MAX], score_ref[PLAYER_SCORE_MAX];
};

/* A protocol's client: a program run by `sh -c cmd`, its stderr to
 * /dev/null when quiet. */
typedef struct PlayerClient {
    const char *proto;          /* "ugi", "uci", ... */
    /* watch: the match's engine watchdog (engine.h), or NULL */
    Player *(*create)(const char *name, const char *cmd, int quiet,
                      const struct EngineWatch *watch, PlyError *err);
} PlayerClient;

/* The client of that protocol in a table ended by {NULL}, or NULL. */
const PlayerClient *player_client(const PlayerClient *table,
                                  const char *proto);

/* The in-process bot of spec; its session is made at begin. */
Player *bot_player_new(const char *name, const char *spec, PlyError *err);

/* Sets err and returns why: `return player_fail(err, REASON_TIME, ...)`. */
Reason player_fail(PlyError *err, Reason why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A move in Ply's notation from a player, checked at st. */
Reason player_text_move(const Player *p, const GameVtbl *g, const void *st,
                        const char *text, Move *m, PlyError *err);

#endif
