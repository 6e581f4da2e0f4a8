/* cmd_playthrough.c — `ply playthrough GAME`: a golden playthrough
 * (src/tools/playthrough.h) on stdout or into a file. */
#include <getopt.h>
#include <stdlib.h>

#include "../tools/playthrough.h"
#include "cli.h"

int cmd_playthrough(int argc, char **argv);

int cmd_playthrough(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "playthrough"))
        return 0;
    static const struct option longopts[] = {
        {"seed", required_argument, 0, 's'},
        {"plies", required_argument, 0, 'p'},
        {"options", required_argument, 0, 'o'},
        {"out", required_argument, 0, 'O'},
        {0, 0, 0, 0},
    };
    const char *options = NULL, *outfile = NULL;
    unsigned long long seed = 1, plies = PLAYTHROUGH_PLIES, v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (cli_parse_uint("playthrough", "--seed", optarg, &seed))
                return 2;
            break;
        case 'p':
            if (cli_parse_uint("playthrough", "--plies", optarg, &v))
                return 2;
            if (v > PLAYTHROUGH_MAX_PLIES)
                return cli_error("playthrough", "--plies must be 0..%d",
                                 PLAYTHROUGH_MAX_PLIES);
            plies = v;
            break;
        case 'o': options = optarg; break;
        case 'O': outfile = optarg; break;
        case ':': return cli_error("playthrough", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("playthrough", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("playthrough",
                         "usage: ply playthrough GAME [--seed N] "
                         "[--plies N] [--options K=V,...] [--out FILE]");
    const GameVtbl *g = cli_game("playthrough", argv[optind]);
    if (!g)
        return 2;
    FILE *out = stdout;
    if (outfile && !(out = fopen(outfile, "w")))
        return cli_error("playthrough", "cannot write '%s'", outfile);
    PlyError err = {{0}};
    int rc = playthrough_write(g, options, seed, (int)plies, out, &err);
    if (out != stdout && fclose(out) && !rc)
        return cli_error("playthrough", "cannot write '%s'", outfile);
    if (rc)
        return cli_error("playthrough", "%s: %s", g->info.name, err.msg);
    return 0;
}
