/* bench.h — the fixed workload behind `ply bench`: per game, fixed
 * positions, fixed limits (iterations, depth, playout counts; never time),
 * fixed seeds and one thread, so the signature (a checksum of node counts
 * and chosen moves) is the same on every run of the same binary, and a
 * change that moves it is a change in what the search does. */
#ifndef PLY_BENCH_H
#define PLY_BENCH_H

#include <stdint.h>

#include "../core/game.h"

typedef struct BenchConfig {
    uint64_t mcts_iterations;   /* per position */
    int ab_depth;               /* alphabeta depth per position */
    uint64_t ab_nodes;          /* alphabeta node cap (0: none) */
    uint64_t playouts;          /* random playouts from the start */
    /* Scale iterations and playouts down for games whose random games
     * are long (chess, xiangqi), so a bench of every game stays quick:
     * by 64 / (mean length of 16 seeded random games), when above 64,
     * rounded down to hundreds, but not below the floors (or below the
     * unscaled count, when that is smaller). */
    int scale;
    uint64_t min_iterations, min_playouts;  /* floors of the scaling */
} BenchConfig;

/* One measured workload: a bot (or "playouts") on one game. */
typedef struct BenchResult {
    char what[32];              /* "mcts", "alphabeta", "playouts" */
    char unit[16];              /* "iterations", "nodes", "playouts" */
    uint64_t count;             /* summed over the positions */
    double seconds;             /* CPU time of the one bench thread */
    uint64_t signature;
} BenchResult;

enum { BENCH_POSITIONS = 3, BENCH_MAX_RESULTS = 4 };

/* The default workload of `ply bench`: every game, both search bots,
 * small node and iteration limits (a few seconds of CPU for all games),
 * for a signature in every commit that touches search. */
void bench_default_config(BenchConfig *c);
/* `ply bench --long`: the former default, about 20 times the work, for
 * speed measurements that average over more positions of the search. */
void bench_long_config(BenchConfig *c);
/* Runs the workloads that apply to g; returns how many results it wrote
 * (up to BENCH_MAX_RESULTS), or -1 with err set. */
int bench_game(const GameVtbl *g, const BenchConfig *c, BenchResult *out,
               PlyError *err);
/* Folds v into a running signature. */
uint64_t bench_fold(uint64_t sig, uint64_t v);

#endif
