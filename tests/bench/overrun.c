/* overrun.c — how far a bot's moves overrun their time budget: one bot
 * instance plays MOVES moves of self-play (each move informed back, so
 * tree reuse runs as in a game) on the games named, in turn, a new game
 * whenever one ends; every bot_choose() is timed with the monotonic
 * clock around the call. Prints min, median, p99 and max of
 * elapsed - budget in ms and how many moves went over, with the most CPU
 * time any of those got: far below the budget (single-threaded bots)
 * means they overran while waiting for a core, not by searching on.
 *   built and run by bench/overrun.sh; by hand:
 *   cc -O2 -Isrc -o overrun tests/bench/overrun.c build/release/libply.a \
 *       -lmicrohttpd -ljansson -lsqlite3 -lcurl -lm -pthread
 *   ./overrun SPEC MOVES GAME [GAME ...]   (SPEC carries time=...) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bot.h"
#include "core/registry.h"
#include "core/setup.h"

static double now_ms_f(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double cpu_ms_f(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: overrun SPEC MOVES GAME [GAME ...]\n");
        return 2;
    }
    const char *spec = argv[1];
    int total = atoi(argv[2]);
    if (total < 1) {
        fprintf(stderr, "overrun: MOVES must be a positive number\n");
        return 2;
    }
    double *over = malloc(sizeof(double) * (size_t)total);
    if (!over)
        return 1;
    int n = 0, ngames = 0;
    double late_cpu = 0;        /* the most CPU time of a move over budget */
    double worst = -1e9, worst_cpu = 0;
    const char *worst_game = "";
    int64_t budget = 0;
    for (int gi = 3; n < total; gi = gi + 1 < argc ? gi + 1 : 3) {
        const GameVtbl *g = game_find(argv[gi]);
        if (!g) {
            fprintf(stderr, "overrun: unknown game '%s'\n", argv[gi]);
            return 2;
        }
        PlyError err = {{0}};
        Bot *b = bot_new(g, spec, 1000 + (uint64_t)ngames, &err);
        if (!b) {
            fprintf(stderr, "overrun: %s\n", err.msg);
            return 2;
        }
        budget = b->limits.time_ms;
        if (budget <= 0) {
            fprintf(stderr, "overrun: SPEC needs time=...\n");
            return 2;
        }
        void *st = state_alloc(g);
        if (state_setup(g, st, NULL, NULL, (uint64_t)ngames, &err)) {
            fprintf(stderr, "overrun: %s\n", err.msg);
            return 2;
        }
        Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        if (!moves)
            return 1;
        Rng r;
        rng_seed(&r, (uint64_t)ngames);
        for (int ply = 0; n < total && ply < g->info.max_game_length;
             ply++) {
            int tm = g->to_move(st);
            if (tm == PLAYER_TERMINAL)
                break;
            Move m;
            if (tm == PLAYER_CHANCE) {
                int k = g->gen_moves(st, moves);
                m = moves[rng_below(&r, (uint32_t)k)];
            } else {
                double t0 = now_ms_f(), c0 = cpu_ms_f();
                m = bot_choose(b, st, NULL, NULL);
                double el = now_ms_f() - t0, cpu = cpu_ms_f() - c0;
                over[n++] = el - (double)budget;
                /* a move over budget on the wall clock that got much less
                 * CPU than the budget (one thread) lost the difference
                 * waiting for a core */
                if (el > (double)budget && cpu > late_cpu)
                    late_cpu = cpu;
                if (el - (double)budget > worst) {
                    worst = el - (double)budget;
                    worst_cpu = cpu;
                    worst_game = g->info.name;
                }
            }
            bot_inform(b, st, m);
            g->make(st, m);
        }
        free(moves);
        free(st);
        bot_free(b);
        ngames++;
    }
    qsort(over, (size_t)n, sizeof *over, cmp_double);
    int late = 0;
    for (int i = 0; i < n; i++)
        late += over[i] > 0;
    printf("%s: %d moves in %d games, elapsed - budget (%lld ms): min "
           "%.3f median %.3f p99 %.3f max %.3f ms; over budget: %d "
           "(CPU time of each at most %.3f ms); the worst: %s, %.3f ms "
           "CPU\n",
           spec, n, ngames, (long long)budget, over[0], over[n / 2],
           over[(int)(n * 0.99) < n ? (int)(n * 0.99) : n - 1],
           over[n - 1], late, late_cpu, worst_game, worst_cpu);
    free(over);
    return late ? 1 : 0;
}
