/* cmd_perft.c — `ply perft GAME DEPTH`: leaf counts per depth. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../tools/perft.h"
#include "cli.h"

int cmd_perft(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "perft"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"moves", required_argument, 0, 'm'},
        {"divide", no_argument, 0, 'd'},
        {"terminal-leaves", no_argument, 0, 't'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL;
    int divide = 0, term_leaf = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'm': moves = optarg; break;
        case 'd': divide = 1; break;
        case 't': term_leaf = 1; break;
        case ':': return cli_error("perft", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("perft", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_error("perft", "usage: ply perft GAME DEPTH [options]");
    const GameVtbl *g = cli_game("perft", argv[optind]);
    if (!g)
        return 2;
    unsigned long long depth;
    if (cli_parse_uint("perft", "DEPTH", argv[optind + 1], &depth))
        return 2;
    if (depth < 1 || depth > 64)
        return cli_error("perft", "DEPTH must be 1..64, not %llu", depth);
    void *st = cli_position("perft", g, options, setup, moves, 1);
    if (!st)
        return 2;
    if (divide) {
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        void *child = malloc(g->info.state_size);
        int n = g->to_move(st) == PLAYER_TERMINAL ? 0 : g->gen_moves(st, mv);
        uint64_t total = 0;
        double t0 = now_seconds();
        for (int i = 0; i < n; i++) {
            char mb[128];
            memcpy(child, st, g->info.state_size);
            g->make(child, mv[i]);
            uint64_t k = perft(g, child, (int)depth - 1, term_leaf);
            total += k;
            printf("%s %llu\n", cli_move_text(g, st, mv[i], mb, sizeof mb),
                   (unsigned long long)k);
        }
        double dt = now_seconds() - t0;
        printf("moves %d total %llu time %.3f s\n", n,
               (unsigned long long)total, dt);
        free(mv);
        free(child);
    } else {
        for (int d = 1; d <= (int)depth; d++) {
            double t0 = now_seconds();
            uint64_t k = perft(g, st, d, term_leaf);
            double dt = now_seconds() - t0;
            printf("perft %2d %14llu  %8.3f s  %12.0f nodes/s\n", d,
                   (unsigned long long)k, dt, dt > 0 ? (double)k / dt : 0.0);
            fflush(stdout);
        }
    }
    free(st);
    return 0;
}
