/* timeman.c — the one rule from a clock to a move's time budget. */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "setup.h"
#include "timeman.h"

/* The random-game estimator: at most PROBES games, at most PROBE_PLIES
 * moves in all, each game cut where the bound on moves makes its length
 * irrelevant. */
enum { PROBES = 32, PROBE_PLIES = 2000 };

int64_t time_margin(const GameVtbl *g, const Clock *c)
{
    int64_t fixed = c->margin_ms;
    if (fixed <= 0)
        fixed = g && g->info.time_margin_ms > 0 ? g->info.time_margin_ms
                                                : TIME_MARGIN_MS;
    int64_t left = c->left_ms > 0 ? c->left_ms : 0;
    int64_t byo = c->byoyomi_ms > 0 ? c->byoyomi_ms : 0;
    int64_t m = fixed + left / TIME_MARGIN_DIV;
    /* A byoyomi is renewed each move, so the margin need only cover one
     * move's overhead: at most a quarter of the move's time (a front
     * end's network margin of 100 ms left 1 ms of a 100 ms byoyomi).
     * Sudden death keeps its whole margin: there it is the game's. */
    int64_t cap = (left + byo) / TIME_MARGIN_CAP;
    return byo > 0 && m > cap ? cap : m;
}

/* Mean plies to the end of seeded uniformly random games from st, each
 * counted up to cap plies; -1 if nothing could be played. */
static double random_plies_left(const GameVtbl *g, const void *st, int cap,
                                uint64_t seed)
{
    size_t sz = g->info.state_size;
    unsigned char *t = malloc(sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
    long total = 0;
    int games = 0, cut = 0;
    Rng r;
    rng_seed(&r, seed);
    for (int i = 0; t && mv && pr && i < PROBES && total < PROBE_PLIES; i++) {
        memcpy(t, st, sz);
        int k = 0;
        for (; k < cap && total < PROBE_PLIES; k++) {
            int p = g->to_move(t);
            if (p == PLAYER_TERMINAL)
                break;
            int n = p == PLAYER_CHANCE ? g->chance_outcomes(t, mv, pr)
                                       : g->gen_moves(t, mv);
            if (n <= 0)
                break;
            g->make(t, mv[rng_below(&r, (uint32_t)n)]);
            total++;
        }
        games++;
        cut += k >= cap;
        if (games >= 4 && cut == games)
            break;      /* long games: the bound decides, not the mean */
    }
    free(t);
    free(mv);
    free(pr);
    return games ? (double)total / games : -1;
}

int time_moves_left(const GameVtbl *g, const void *st, const Clock *c,
                    uint64_t seed)
{
    if (c->moves_to_go > 0)
        return c->moves_to_go;
    if (!g || !st)
        return TIME_MOVES_MAX;
    int np = state_seats(g, st, NULL);     /* the players taking part */
    double plies = -1;
    if (g->plies_left)
        plies = g->plies_left(st);
    if (plies <= 0)
        plies = random_plies_left(g, st, 2 * np * TIME_MOVES_MAX, seed);
    if (plies < 0)
        return TIME_MOVES_MAX;
    /* the mover's share of the plies; strong play lasts a little longer
     * than random play */
    int moves = (int)((plies + 2 + np - 1) / np);
    if (moves < TIME_MOVES_MIN)
        moves = TIME_MOVES_MIN;
    if (moves > TIME_MOVES_MAX)
        moves = TIME_MOVES_MAX;
    return moves;
}

int time_spend_all(const GameVtbl *g, const Clock *c)
{
    int64_t left = c->left_ms > 0 ? c->left_ms : 0;
    return c->byoyomi_ms > 0 && c->inc_ms <= 0 &&
           left - time_margin(g, c) <= 0;
}

int64_t time_budget(const GameVtbl *g, const void *st, const Clock *c,
                    uint64_t seed)
{
    int64_t left = c->left_ms > 0 ? c->left_ms : 0;
    int64_t inc = c->inc_ms > 0 ? c->inc_ms : 0;
    int64_t byo = c->byoyomi_ms > 0 ? c->byoyomi_ms : 0;
    int64_t margin = time_margin(g, c);
    int64_t usable = left - margin;
    int64_t b = 0;
    if (usable > 0) {
        int moves = time_moves_left(g, st, c, seed);
        b = usable / moves + inc * 3 / 4;
        if (c->moves_to_go != 1 && b > usable / 2)
            b = usable / 2;
        if (b > usable)
            b = usable;
    }
    b += byo;
    if (b > left + byo - margin)
        b = left + byo - margin;
    return b < 1 ? 1 : b;
}
