/* cmd_usi.c — `ply usi [GAME]` (shogi, minishogi, micro-shogi): the USI engine mode
 * (src/proto/usi.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../core/format.h"
#include "../core/registry.h"
#include "../proto/usi.h"
#include "cli.h"

int cmd_usi(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "usi"))
        return 0;
    static const struct option longopts[] = {
        {"bot", required_argument, 0, 'b'},
        {0, 0, 0, 0},
    };
    const char *spec = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case ':': return cli_error("usi", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("usi", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return cli_error("usi", "usage: ply usi [GAME] "
                         "[--bot SPEC]");
    const GameVtbl *native = format_native_game("usi", NULL);
    const char *gname = argc - optind == 1 ? argv[optind]
                      : native ? native->info.name : "";
    if (!game_format(game_find(gname), "usi")) {
        /* the games that declare USI, by Ply's names */
        const GameVtbl *gs[32];
        char list[512] = "";
        size_t len = 0;
        int k = games_with_format("usi", gs, 32);
        for (int i = 0; i < k && i < 32 && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    i ? " or " : "", gs[i]->info.name);
        return cli_error("usi", "USI plays %s, not '%s'", list, gname);
    }
    if (spec && strlen(spec) >= 256)
        return cli_error("usi", "bot spec too long");
    return usi_run(stdin, stdout, gname, spec);
}
