/* go_playouts.c — go's own playout hook (no tree) from a position, N
 * times, timed on the process CPU clock:
 *   go_playouts OPTIONS N SEED [SETUP]
 * prints "OPTIONS: N playouts S s R/s, P plies/playout, black wins W%".
 * Built by bench/go-playouts.sh against build/release/libply.a. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/registry.h"
#include "core/rng.h"
#include "core/setup.h"
#include "games/go/go.h"

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: go_playouts OPTIONS N SEED [SETUP]\n");
        return 2;
    }
    const GameVtbl *g = game_find("go");
    long n = atol(argv[2]);
    PlyError err;
    void *start = g ? state_alloc(g) : NULL;
    void *st = g ? state_alloc(g) : NULL;
    if (!start || !st || n <= 0 ||
        state_setup(g, start, argv[1], argc == 5 ? argv[4] : NULL, 1,
                    &err)) {
        fprintf(stderr, "go_playouts: %s\n",
                n <= 0 ? "N must be positive" : err.msg);
        return 1;
    }
    Rng r;
    rng_seed(&r, strtoull(argv[3], NULL, 10));
    size_t sz = g->info.state_size;
    long plies = 0, bwins = 0;
    double ret[2];
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < n; i++) {
        memcpy(st, start, sz);
        int p0 = ((GoState *)st)->ply;
        g->playout(st, &r);
        plies += ((GoState *)st)->ply - p0;
        g->returns(st, ret);
        bwins += ret[0] > 0;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s: %ld playouts %.3f s %.0f/s, %.1f plies/playout, "
           "black wins %.1f%%\n",
           argv[1], n, s, (double)n / s, (double)plies / (double)n,
           100.0 * (double)bwins / (double)n);
    free(start);
    free(st);
    return 0;
}
