/* cmd_rules.c — `ply rules check FILE.zrf`: what Ply does not support in a
 * Zillions rules file, word by word with lines. */
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "cli.h"

int cmd_rules(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "rules"))
        return 0;
    int perft = argc >= 4 && !strcmp(argv[1], "perft");
    if (argc < 3 || (strcmp(argv[1], "check") && !perft))
        return cli_error("rules", "usage: ply rules check FILE.zrf "
                         "[--variant N] | ply rules perft FILE.zrf DEPTH "
                         "[--variant N]");
    int variant = 0, depth = 0;
    if (perft) {
        char *end;
        long d = strtol(argv[3], &end, 10);
        if (*end || d < 1 || d > 20)
            return cli_error("rules", "bad depth '%s'", argv[3]);
        depth = (int)d;
    }
    for (int i = 3 + perft; i < argc; i++) {
        if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 1000)
                return cli_error("rules", "bad variant '%s'", argv[i]);
            variant = (int)v;
        } else {
            return cli_error("rules", "unknown argument '%s'", argv[i]);
        }
    }
    PlyError err = {{0}};
    if (perft) {
        const GameVtbl *g = cli_game("rules", argv[2]);
        if (!g)
            return 2;
        char opt[32];
        snprintf(opt, sizeof opt, "variant=%d", variant);
        void *st = cli_position("rules", g, opt, NULL, NULL, 1);
        if (!st)
            return 2;
        for (int d = 1; d <= depth; d++) {
            uint64_t n = 0;
            if (game_turn_perft(g, st, d, &n)) {
                free(st);
                return cli_error("rules", "%s is not a rules file", argv[2]);
            }
            printf("turns %2d %14llu\n", d, (unsigned long long)n);
        }
        free(st);
        return 0;
    }
    int rc = game_rules_check(argv[2], variant, stdout, &err);
    if (rc < 0)
        return cli_error("rules", "%s", err.msg);
    return rc ? 1 : 0;
}
