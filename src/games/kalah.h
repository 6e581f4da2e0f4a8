/* kalah.h — what kalah.c shares with its solver (kalah_solve.c): the
 * endgame databases of a Kalah board and their rules (mancala_db.h), and
 * the solver, an exact search over the databases.
 *
 * A board here is the mancala_db.c one: 2h houses from the side to
 * move's view, its houses 0..h-1 (its store after house h-1), then the
 * opponent's houses h..2h-1 in their own order; the stores are not on
 * it. Values are net seeds the side to move banks from there on. */
#ifndef PLY_KALAH_H
#define PLY_KALAH_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "mancala_db.h"

enum { KALAH_SOLVE_MAX_HOUSES = MDB_MAX_HOUSES / 2 };

/* The process-wide database of Kalah with h houses a side (1..8) and a
 * capture rule (0 empty, 1 nonempty); NULL when out of range. */
MancalaDb *kalah_db(int houses, int capture);

/* The largest database size (seeds) up to dbseeds that stays within 2^30
 * boards for h houses a side: the game refuses more, the solver uses
 * no more. */
int kalah_db_fit(int houses, int dbseeds);

/* The board of a kalah state (the game's state, not over) from the side
 * to move's view, its houses per side and capture rule: 0, or -1 when
 * the game is over or the board does not fit (more than 8 houses a side
 * or 255 seeds). */
int kalah_board(const void *st, uint8_t *b, int *houses, int *capture);

typedef struct KalahSolver KalahSolver;

/* A solver with a transposition table of about tt_bytes (at least one
 * bucket), probing the databases for boards of at most dbseeds seeds
 * (built here when they are not yet; no more than kalah_db_fit allows).
 * NULL when out of range or out of
 * memory. The table is kept between calls, so later positions of the
 * same game are solved from what the earlier solves found. */
KalahSolver *kalah_solver_new(int houses, int capture, int dbseeds,
                              size_t tt_bytes);
void kalah_solver_free(KalahSolver *s);

/* The exact value of board b (net seeds for the side to move, best play
 * of both sides) and in *best a move keeping it (house 0..h-1), -1 when
 * the game is over there. Returns 0, -1 when the board has more than
 * 255 seeds, -2 when stopped (kalah_solver_limit). */
int kalah_solve(KalahSolver *s, const uint8_t *b, int *value, int *best);

/* A move from b (house 0..h-1, in *best) proven to keep a net value of
 * at least v, by null-window searches only: 1, 0 when none does (or the
 * game is over), -1 past 255 seeds, -2 when stopped. */
int kalah_solve_keep(KalahSolver *s, const uint8_t *b, int v, int *best);

/* Stops the next solves after about `nodes` more nodes each (0: no
 * limit); a stopped solve returns -2 and leaves the table sound. */
void kalah_solver_limit(KalahSolver *s, uint64_t nodes);

/* Stops the next solves also at clk's deadline (NULL: none; the clock
 * must outlive the solves) and when *halt becomes non-zero (NULL: never):
 * a stopped solve returns -2 as at the node limit. */
struct BotClock;
void kalah_solver_clock(KalahSolver *s, const struct BotClock *clk,
                        const atomic_int *halt);

/* Whether the value of b is at least v (a null-window search): 1 or 0,
 * -2 when stopped (kalah_solver_limit). */
int kalah_solve_at_least(KalahSolver *s, const uint8_t *b, int v);

uint64_t kalah_solver_nodes(const KalahSolver *s);

#endif
