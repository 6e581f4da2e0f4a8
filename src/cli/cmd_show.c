/* cmd_show.c — `ply show GAME`: a position, its moves, its result. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* What one player sees (games with hidden information): his observation
 * drawn and written as a view string; his moves when he is to move. */
static int show_as(const GameVtbl *g, const void *st, const char *who)
{
    if (!(g->info.flags & GAME_HIDDEN) || !g->observe)
        return cli_error("show", "--as: %s has no hidden information; every "
                         "player sees the whole position", g->info.name);
    int seat = -1;
    for (int p = 0; p < g->info.num_players; p++)
        if (!strcasecmp(who, g->info.player_names[p]))
            seat = p;
    if (seat < 0) {
        char *end;
        long v = strtol(who, &end, 10);
        if (*who && !*end && v >= 1 && v <= g->info.num_players)
            seat = (int)v - 1;
    }
    if (seat < 0)
        return cli_error("show", "--as: no player '%s' in %s (give a name "
                         "or 1..%d)", who, g->info.name,
                         g->info.num_players);
    return cli_print_view(stdout, g, st, seat) ? cli_error("show", "out of memory") : 0;
}

int cmd_show(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "show"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"moves", required_argument, 0, 'm'},
        {"as", required_argument, 0, 'a'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL, *as = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'm': moves = optarg; break;
        case 'a': as = optarg; break;
        case ':': return cli_error("show", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("show", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("show", "usage: ply show GAME [options]");
    const GameVtbl *g = cli_game("show", argv[optind]);
    if (!g)
        return 2;
    void *st = cli_position("show", g, options, setup, moves, 1);
    if (!st)
        return 2;
    if (as) {
        int rc = show_as(g, st, as);
        free(st);
        return rc;
    }
    cli_print_position(stdout, g, st);
    free(st);
    return 0;
}
