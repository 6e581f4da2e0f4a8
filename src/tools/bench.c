/* bench.c — fixed positions, fixed limits, fixed seeds: speed numbers and
 * a reproducible signature per game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "bench.h"

void bench_default_config(BenchConfig *c)
{
    c->mcts_iterations = 600;
    c->ab_depth = 5;
    c->ab_nodes = 40000;
    c->playouts = 300;
    c->scale = 1;
    c->min_iterations = 100;
    c->min_playouts = 20;
}

void bench_long_config(BenchConfig *c)
{
    c->mcts_iterations = 20000;
    c->ab_depth = 6;
    c->ab_nodes = 2000000;
    c->playouts = 5000;
    c->scale = 1;
    c->min_iterations = 1000;
    c->min_playouts = 200;
}

/* CPU seconds of the calling thread. Every workload runs on one thread
 * (mcts threads=1, alphabeta, the playout loop), so this is its cost on
 * one core; wall-clock time on a shared machine (2 cores, several jobs)
 * counted the time the thread waited for a core and understated the
 * speed by up to 5x between runs. */
static double thread_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
        return now_seconds();
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

uint64_t bench_fold(uint64_t sig, uint64_t v)
{
    return ply_mix64(sig ^ ply_mix64(v + 0x632be59bd9b4e019ull));
}

/* Plays random moves (and chance outcomes) from st, seeded; stops before
 * a terminal position and goes on past chance nodes so that a bot can
 * move. */
static void random_walk(const GameVtbl *g, void *st, int plies, uint64_t seed,
                        Move *mv, double *pr, void *save)
{
    Rng r;
    rng_seed(&r, seed);
    size_t sz = g->info.state_size;
    for (int i = 0; i < plies || g->to_move(st) == PLAYER_CHANCE; i++) {
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL || i > g->info.max_game_length)
            break;
        int n = p == PLAYER_CHANCE ? g->chance_outcomes(st, mv, pr)
                                   : g->gen_moves(st, mv);
        if (n <= 0)
            break;
        memcpy(save, st, sz);
        g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        if (g->to_move(st) == PLAYER_TERMINAL) {
            memcpy(st, save, sz);
            break;
        }
    }
}

/* A bot from spec on each position; the signature folds node counts,
 * chosen moves and (mcts) the visit counts of the top moves. */
static int bench_bot(const GameVtbl *g, const char *spec, const Limits *lim,
                     unsigned char *pos, BenchResult *res, PlyError *err)
{
    Bot *b = bot_new(g, spec, 1, err);
    if (!b)
        return -1;
    size_t sz = g->info.state_size;
    uint64_t sig = 0, count = 0;
    double t0 = thread_seconds();
    for (int i = 0; i < BENCH_POSITIONS; i++) {
        const void *st = pos + sz * (size_t)i;
        if (g->to_move(st) < 0)
            continue;
        SearchInfo si;
        bot_new_game(b);
        Move m = bot_choose(b, st, lim, &si);
        count += si.nodes;
        sig = bench_fold(sig, m);
        sig = bench_fold(sig, si.nodes);
        sig = bench_fold(sig, si.playouts);
        sig = bench_fold(sig, (uint64_t)(int64_t)si.value);
        for (int k = 0; k < si.top_len; k++)
            sig = bench_fold(sig, si.top_visits[k]);
    }
    res->seconds = thread_seconds() - t0;
    res->count = count;
    res->signature = sig;
    bot_free(b);
    return 0;
}

static void bench_playouts(const GameVtbl *g, uint64_t n, const void *start,
                           BenchResult *res, Move *mv, double *pr, void *st)
{
    Rng r;
    rng_seed(&r, 12345);
    size_t sz = g->info.state_size;
    uint64_t sig = 0, plies = 0;
    double t0 = thread_seconds();
    for (uint64_t i = 0; i < n; i++) {
        memcpy(st, start, sz);
        if (g->playout) {
            g->playout(st, &r);
        } else {
            for (int k = 0; k < 2 * g->info.max_game_length; k++) {
                int p = g->to_move(st);
                if (p == PLAYER_TERMINAL)
                    break;
                int c = p == PLAYER_CHANCE ? g->chance_outcomes(st, mv, pr)
                                           : g->gen_moves(st, mv);
                if (c <= 0)
                    break;
                g->make(st, mv[rng_below(&r, (uint32_t)c)]);
                plies++;
            }
        }
        sig = bench_fold(sig, g->hash(st));
    }
    res->seconds = thread_seconds() - t0;
    res->count = n;
    res->signature = bench_fold(sig, plies);
}

/* Mean length in plies of 16 seeded uniformly random games from st. */
static double mean_length(const GameVtbl *g, const void *start, Move *mv,
                          double *pr, void *st)
{
    Rng r;
    rng_seed(&r, 99);
    uint64_t plies = 0;
    for (int i = 0; i < 16; i++) {
        memcpy(st, start, g->info.state_size);
        for (int k = 0; k < 2 * g->info.max_game_length; k++) {
            int p = g->to_move(st);
            if (p == PLAYER_TERMINAL)
                break;
            int c = p == PLAYER_CHANCE ? g->chance_outcomes(st, mv, pr)
                                       : g->gen_moves(st, mv);
            if (c <= 0)
                break;
            g->make(st, mv[rng_below(&r, (uint32_t)c)]);
            plies++;
        }
    }
    return (double)plies / 16.0;
}

static uint64_t scaled(uint64_t n, double f, uint64_t lo)
{
    uint64_t x = (uint64_t)((double)n * f / 100.0) * 100;
    return x < lo ? (n < lo ? n : lo) : x;
}

int bench_game(const GameVtbl *g, const BenchConfig *cfg, BenchResult *out,
               PlyError *err)
{
    BenchConfig cc = *cfg;
    const BenchConfig *c = &cc;
    size_t sz = g->info.state_size;
    int nres = 0, rc = 0;
    unsigned char *pos = calloc(BENCH_POSITIONS, sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
    void *tmp = malloc(sz);
    if (!pos || !mv || !pr || !tmp) {
        rc = ply_fail(err, "out of memory");
        goto done;
    }
    /* positions: the start, and two reached by seeded random moves */
    static const int plies[BENCH_POSITIONS] = {0, 8, 20};
    for (int i = 0; i < BENCH_POSITIONS; i++) {
        void *st = pos + sz * (size_t)i;
        if (state_setup(g, st, NULL, NULL, 1, err)) {
            rc = -1;
            goto done;
        }
        random_walk(g, st, plies[i], 1000 + (uint64_t)i, mv, pr, tmp);
    }
    if (cc.scale) {
        double len = mean_length(g, pos, mv, pr, tmp);
        if (len > 64) {
            cc.mcts_iterations = scaled(cc.mcts_iterations, 64 / len,
                                        cc.min_iterations);
            cc.playouts = scaled(cc.playouts, 64 / len, cc.min_playouts);
        }
    }
    memset(out, 0, sizeof(BenchResult) * BENCH_MAX_RESULTS);
    if (bot_find("mcts") && !(g->info.flags & GAME_HIDDEN)) {
        Limits lim = {0};
        lim.nodes = c->mcts_iterations;
        BenchResult *r = &out[nres];
        snprintf(r->what, sizeof r->what, "mcts");
        snprintf(r->unit, sizeof r->unit, "iterations");
        if (bench_bot(g, "mcts:threads=1,reuse=0", &lim, pos, r, err)) {
            rc = -1;
            goto done;
        }
        nres++;
    }
    if (bot_find("alphabeta") && !(g->info.flags & GAME_HIDDEN)) {
        Limits lim = {0};
        lim.depth = c->ab_depth;
        lim.nodes = c->ab_nodes;
        BenchResult *r = &out[nres];
        snprintf(r->what, sizeof r->what, "alphabeta");
        snprintf(r->unit, sizeof r->unit, "nodes");
        if (bench_bot(g, "alphabeta", &lim, pos, r, err)) {
            rc = -1;
            goto done;
        }
        nres++;
    }
    if (c->playouts) {
        BenchResult *r = &out[nres];
        snprintf(r->what, sizeof r->what, g->playout ? "playout-hook"
                                                     : "playouts");
        snprintf(r->unit, sizeof r->unit, "playouts");
        bench_playouts(g, c->playouts, pos, r, mv, pr, tmp);
        nres++;
    }
done:
    free(pos);
    free(mv);
    free(pr);
    free(tmp);
    return rc ? rc : nres;
}
