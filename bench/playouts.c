/* playouts.c — random playouts from a game's start position through the
 * public API (ply.h), the loop bench/py_playouts.py runs in Python:
 * list the legal moves, play one drawn uniformly, to the end.
 *   playouts GAME N SEED   prints "GAME N playouts S s R/s plies P" */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ply.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: playouts GAME N SEED\n");
        return 2;
    }
    PlyError err;
    const PlyGame *g = ply_game_find(argv[1], &err);
    long n = atol(argv[2]);
    uint64_t x = strtoull(argv[3], NULL, 10) * 2654435761u + 1;
    PlyState *start = g ? ply_state_new(g, NULL, NULL, 0, &err) : NULL;
    PlyMove *mv = g ? malloc(sizeof *mv * (size_t)ply_game_max_moves(g)) : NULL;
    if (!start || !mv || n <= 0) {
        fprintf(stderr, "playouts: %s\n", n > 0 ? err.message : "N must be positive");
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long plies = 0;
    for (long i = 0; i < n; i++) {
        PlyState *s = ply_state_clone(start, &err);
        int k;
        while ((k = ply_state_legal_moves(s, mv, ply_game_max_moves(g))) > 0) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (ply_state_apply(s, mv[x % (uint64_t)k], &err)) {
                fprintf(stderr, "playouts: %s\n", err.message);
                return 1;
            }
            plies++;
        }
        ply_state_free(s);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%s %ld playouts %.3f s %.0f/s plies %ld\n", argv[1], n, sec,
           (double)n / sec, plies);
    free(mv);
    ply_state_free(start);
    return 0;
}
