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
    if (argc < 3 || strcmp(argv[1], "check"))
        return cli_error("rules", "usage: ply rules check FILE.zrf "
                         "[--variant N]");
    int variant = 0;
    for (int i = 3; i < argc; i++) {
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
    int rc = game_rules_check(argv[2], variant, stdout, &err);
    if (rc < 0)
        return cli_error("rules", "%s", err.msg);
    return rc ? 1 : 0;
}
