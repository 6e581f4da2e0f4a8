/* cmd_vindinium_client.c — `ply vindinium-client`: a Ply bot on a
 * Vindinium server (src/apps/vindinium/client.c). */
#include "cli.h"

#ifndef PLY_SERVER
#define PLY_SERVER 1
#endif

#if !PLY_SERVER
int cmd_vindinium_client(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "vindinium-client"))
        return 0;
    return cli_error("vindinium-client", "this build has no server support "
                     "(built with SERVER=0; rebuild with make SERVER=1)");
}
#else
#include <curl/curl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../apps/vindinium/client.h"

int cmd_vindinium_client(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "vindinium-client"))
        return 0;
    static const struct option longopts[] = {
        {"server", required_argument, 0, 's'},
        {"key", required_argument, 0, 'k'},
        {"mode", required_argument, 0, 'm'},
        {"bot", required_argument, 0, 'b'},
        {"turns", required_argument, 0, 't'},
        {"map", required_argument, 0, 'M'},
        {"games", required_argument, 0, 'g'},
        {"seed", required_argument, 0, 'r'},
        {"quiet", no_argument, 0, 'q'},
        {"max-moves", required_argument, 0, 'x'},
        {"max-seconds", required_argument, 0, 'X'},
        {"reconnect-ms", required_argument, 0, 'c'},
        {0, 0, 0, 0},
    };
    VdcOptions o;
    memset(&o, 0, sizeof o);
    o.bot = "vindinium";
    o.seed = 1;
    o.log = stderr;
    unsigned long long v, games = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': o.server = optarg; break;
        case 'k': o.key = optarg; break;
        case 'm':
            if (!strcmp(optarg, "arena"))
                o.arena = 1;
            else if (strcmp(optarg, "training"))
                return cli_error("vindinium-client", "--mode is training or "
                                 "arena, not '%s'", optarg);
            break;
        case 'b': o.bot = optarg; break;
        case 't':
            if (cli_parse_uint("vindinium-client", "--turns", optarg, &v))
                return 2;
            if (v < 1 || v > 600)
                return cli_error("vindinium-client", "--turns must be "
                                 "1..600 (per hero)");
            o.turns = (int)v;
            break;
        case 'M': o.map = optarg; break;
        case 'g':
            if (cli_parse_uint("vindinium-client", "--games", optarg, &games))
                return 2;
            break;
        case 'r':
            if (cli_parse_uint("vindinium-client", "--seed", optarg, &v))
                return 2;
            o.seed = v;
            break;
        case 'q': o.log = NULL; break;
        case 'x':
            if (cli_parse_uint("vindinium-client", "--max-moves", optarg, &v))
                return 2;
            if (v < 1 || v > 100000)
                return cli_error("vindinium-client", "--max-moves must be "
                                 "1..100000");
            o.max_moves = (int)v;
            break;
        case 'X':
            if (cli_parse_uint("vindinium-client", "--max-seconds", optarg,
                               &v))
                return 2;
            if (v < 1 || v > 86400 * 7)
                return cli_error("vindinium-client", "--max-seconds must be "
                                 "1..604800");
            o.max_seconds = (int)v;
            break;
        case 'c':
            if (cli_parse_uint("vindinium-client", "--reconnect-ms", optarg,
                               &v))
                return 2;
            if (v < 1 || v > 3600000)
                return cli_error("vindinium-client", "--reconnect-ms must be "
                                 "1..3600000");
            o.reconnect_ms = (int)v;
            break;
        case ':': return cli_error("vindinium-client", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("vindinium-client", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_error("vindinium-client", "unexpected argument '%s'",
                         argv[optind]);
    if (!o.server || !o.key)
        return cli_error("vindinium-client", "--server URL and --key K are "
                         "required");
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int rc = 0;
    for (unsigned long long gi = 0; gi < games; gi++) {
        VdcResult r;
        PlyError err = {{0}};
        if (vdc_play(&o, &r, &err)) {
            rc = cli_error("vindinium-client", "%s", err.msg);
            break;
        }
        printf("game %s: hero %d place %d%s; gold", r.game_id, r.hero,
               r.place, r.crashed ? " (crashed)" : "");
        for (int h = 0; h < 4; h++)
            printf(" %s=%d", r.names[h], r.gold[h]);
        printf("\n");
        fflush(stdout);
        o.seed++;
    }
    curl_global_cleanup();
    return rc;
}
#endif
