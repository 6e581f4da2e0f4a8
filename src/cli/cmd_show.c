/* cmd_show.c — `ply show GAME`: a position, its moves, its result. */
#include <getopt.h>
#include <stdlib.h>

#include "cli.h"

int cmd_show(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "show"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"moves", required_argument, 0, 'm'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'm': moves = optarg; break;
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
    cli_print_position(stdout, g, st);
    free(st);
    return 0;
}
