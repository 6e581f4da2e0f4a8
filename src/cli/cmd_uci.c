/* cmd_uci.c — `ply uci` and `ply ucci`: the UCI and UCCI engine modes
 * (src/proto/uci.c). */
#include <getopt.h>
#include <stdlib.h>

#include "../proto/uci.h"
#include "cli.h"

static int engine_mode(int argc, char **argv, const char *cmd)
{
    if (!cli_wants_help(argc, argv, cmd))
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
            if (cli_parse_uint(cmd, "--seed", optarg, &seed))
                return 2;
            break;
        case ':': return cli_error(cmd, "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error(cmd, "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_error(cmd, "usage: ply %s [--bot SPEC] [--seed N]", cmd);
    if (cmd[2] == 'c')   /* ucci */
        return ucci_run(stdin, stdout, bot, seed);
    return uci_run(stdin, stdout, bot, seed);
}

int cmd_uci(int argc, char **argv)
{
    return engine_mode(argc, argv, "uci");
}

int cmd_ucci(int argc, char **argv)
{
    return engine_mode(argc, argv, "ucci");
}
