/* cmd_uci.c — `ply uci`: the UCI engine mode (src/proto/uci.c). */
#include <getopt.h>
#include <stdlib.h>

#include "../proto/uci.h"
#include "cli.h"

int cmd_uci(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "uci"))
        return 0;
    static const struct option longopts[] = {
        {"bot", required_argument, 0, 'b'},
        {"seed", required_argument, 0, 's'},
        {0, 0, 0, 0},
    };
    const char *bot = NULL;
    unsigned long long seed = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': bot = optarg; break;
        case 's':
            if (cli_parse_uint("uci", "--seed", optarg, &seed))
                return 2;
            break;
        case ':': return cli_error("uci", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("uci", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_error("uci", "usage: ply uci [--bot SPEC] [--seed N]");
    return uci_run(stdin, stdout, bot, seed);
}
