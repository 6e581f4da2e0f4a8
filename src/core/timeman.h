/* timeman.h — the one rule from a clock to a move's time budget, used by
 * every engine mode (UGI, UCI, UCCI, USI, CodeCup) and by the referee's
 * in-process seats, so a strength measured with `ply match --tc` is the
 * strength a GUI sees.
 *
 * The budget is the time handed to the bot (Limits.time_ms). It keeps a
 * safety margin for the bot's deadline granularity, the pipe and the
 * opponent's clock: it never exceeds left + byoyomi - margin and is never
 * below 1 ms. */
#ifndef PLY_TIMEMAN_H
#define PLY_TIMEMAN_H

#include <stdint.h>

#include "game.h"

/* Default safety margin: TIME_MARGIN_MS plus left / TIME_MARGIN_DIV; with
 * a byoyomi at most (left + byoyomi) / TIME_MARGIN_CAP. */
enum { TIME_MARGIN_MS = 10, TIME_MARGIN_DIV = 64, TIME_MARGIN_CAP = 4 };

/* Bounds on the number of own moves the clock is shared over. */
enum { TIME_MOVES_MIN = 2, TIME_MOVES_MAX = 20 };

typedef struct Clock {
    int64_t left_ms;     /* time on the mover's clock (clamped at 0) */
    int64_t inc_ms;      /* added after each move (Fischer increment) */
    int64_t byoyomi_ms;  /* per-move time once the clock is spent (shogi) */
    int moves_to_go;     /* moves to the next time control; 0: the game */
    /* Fixed part of the safety margin; 0 means the game's
     * info.time_margin_ms, else TIME_MARGIN_MS. */
    int64_t margin_ms;
} Clock;

/* The safety margin this clock keeps back, in ms: the fixed part (the
 * front end's, the game's or TIME_MARGIN_MS) plus left / TIME_MARGIN_DIV;
 * with a byoyomi (renewed each move) never more than a quarter of left +
 * byoyomi, so that a short byoyomi (100 ms over USI with its 100 ms
 * margin) still leaves the bot most of its time. Without one the margin
 * guards the game's clock and is kept whole. */
int64_t time_margin(const GameVtbl *g, const Clock *c);

/* Own moves the remaining time is shared over at st: moves_to_go when
 * given, else the game's plies_left() hook, else the mean length of a
 * few seeded random games from st (fast, deterministic in seed), turned
 * into the mover's moves and bounded to TIME_MOVES_MIN..TIME_MOVES_MAX.
 * st may be NULL (then TIME_MOVES_MAX). */
int time_moves_left(const GameVtbl *g, const void *st, const Clock *c,
                    uint64_t seed);

/* Whether the time the move does not use is lost: the main time is
 * spent (less the margin) and only the byoyomi remains, which a move
 * cannot bank (Limits.spend_all). */
int time_spend_all(const GameVtbl *g, const Clock *c);

/* The move budget in ms for the player to move at st:
 *   share = (left - margin) / moves_left + 3/4 inc, at most half of
 *   (left - margin) unless this is the last move before the control
 *   (moves_to_go 1: the clock is renewed after it, so all of it), plus
 *   the byoyomi;
 * then bounded to [1, left + byoyomi - margin]. */
int64_t time_budget(const GameVtbl *g, const void *st, const Clock *c,
                    uint64_t seed);

#endif
