/* vindinium_bench.c — a throwaway benchmark loop until `ply match` can
 * seat four bots: GAMES games on random maps (seeds 5000..), SPEC in seat
 * g % 4 against three copies of OPP (default vindinium-simple); prints
 * each game, the count of finishing places and SPEC's slowest move.
 *   make && cc -O2 -march=native -Isrc -o vbench \
 *       tests/bench/vindinium_bench.c build/release/libply.a \
 *       -lmicrohttpd -ljansson -lsqlite3 -lcurl -lm -pthread
 *   ./vbench 40 vindinium [OPP] [OPTIONS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bot.h"
#include "core/registry.h"
#include "core/setup.h"
#include "games/vindinium/vindinium.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: vbench GAMES SPEC [OPP] [OPTIONS]\n");
        return 2;
    }
    int games = atoi(argv[1]);
    const char *spec = argv[2];
    const char *opp = argc > 3 ? argv[3] : "vindinium-simple";
    const char *opts = argc > 4 ? argv[4] : "";
    const GameVtbl *g = game_find("vindinium");
    int places[5] = {0}, ties = 0;
    double slowest = 0;
    for (int gi = 0; gi < games; gi++) {
        Vd v;
        PlyError err = {{0}};
        if (state_setup(g, &v, opts, NULL, 5000 + (uint64_t)gi, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        int seat = gi % 4;
        Bot *b[4];
        for (int h = 0; h < 4; h++) {
            b[h] = bot_new(g, h == seat ? spec : opp,
                           77 + (uint64_t)gi * 4 + (uint64_t)h, &err);
            if (!b[h]) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
        }
        while (!v.finished) {
            int h = vd_to_move(&v);
            double t0 = now();
            Move m = bot_choose(b[h], &v, NULL, NULL);
            double dt = now() - t0;
            if (h == seat && dt > slowest)
                slowest = dt;
            vd_apply(&v, (int)m);
        }
        int place = 1, tie = 0;
        for (int h = 0; h < 4; h++)
            if (h != seat) {
                place += v.hero[h].gold > v.hero[seat].gold;
                tie |= v.hero[h].gold == v.hero[seat].gold;
            }
        places[place]++;
        ties += tie && place == 1;
        printf("game %d size %d seat %d place %d gold %d %d %d %d\n", gi,
               v.size, seat + 1, place, v.hero[0].gold, v.hero[1].gold,
               v.hero[2].gold, v.hero[3].gold);
        fflush(stdout);
        for (int h = 0; h < 4; h++)
            bot_free(b[h]);
    }
    printf("places: 1st %d (tied %d) 2nd %d 3rd %d 4th %d of %d; slowest "
           "move %.3f s\n", places[1], ties, places[2], places[3], places[4],
           games, slowest);
    return 0;
}
