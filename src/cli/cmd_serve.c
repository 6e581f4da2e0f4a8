/* cmd_serve.c — `ply serve`: the web page and its JSON API
 * (src/apps/web, docs/web-api.md); `ply serve vindinium`: the
 * Vindinium-compatible HTTP server (src/apps/vindinium/server.c). Both
 * run until SIGINT or SIGTERM. A build with SERVER=0 has no server and
 * says so. */
#include "cli.h"

#ifndef PLY_SERVER
#define PLY_SERVER 1
#endif

#if !PLY_SERVER
int cmd_serve(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "serve"))
        return 0;
    return cli_error("serve", "this build has no server support (built "
                     "with SERVER=0; rebuild with make SERVER=1)");
}
#else
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/vindinium/server.h"
#include "../apps/web/web.h"

/* `ply serve [--host H] [--port P] [--web-dir DIR] ...`: the web page. */
static int serve_web(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"host", required_argument, 0, 'h'},
        {"port", required_argument, 0, 'p'},
        {"web-dir", required_argument, 0, 'w'},
        {"max-games", required_argument, 0, 'G'},
        {"max-body", required_argument, 0, 'B'},
        {"idle-s", required_argument, 0, 'i'},
        {"max-think-ms", required_argument, 0, 'T'},
        {"max-searches", required_argument, 0, 'S'},
        {"threads", required_argument, 0, 't'},
        {"seed", required_argument, 0, 's'},
        {"trust-clients", no_argument, 0, 'C'},
        {0, 0, 0, 0},
    };
    WebConfig cfg;
    web_config_default(&cfg);
    unsigned long long v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        static const struct {
            int opt;
            const char *name;
            unsigned long long lo, hi;
        } lim[] = {
            {'p', "--port", 0, 65535},
            {'G', "--max-games", 1, 100000},
            {'B', "--max-body", 1024, 16 << 20},
            {'i', "--idle-s", 1, 365 * 86400},
            {'T', "--max-think-ms", 10, 3600000},
            {'S', "--max-searches", 1, 1024},
            {'t', "--threads", 1, 64},
            {'s', "--seed", 0, ~0ull},
        };
        int k = -1;
        for (int i = 0; i < (int)(sizeof lim / sizeof *lim); i++)
            if (lim[i].opt == c)
                k = i;
        if (k >= 0) {
            if (cli_parse_uint("serve", lim[k].name, optarg, &v))
                return 2;
            if (v < lim[k].lo || v > lim[k].hi)
                return cli_error("serve", "%s must be %llu..%llu",
                                 lim[k].name, lim[k].lo, lim[k].hi);
        }
        switch (c) {
        case 'h': cfg.host = optarg; break;
        case 'w': cfg.web_dir = optarg; break;
        case 'p': cfg.port = (int)v; break;
        case 'G': cfg.max_games = (int)v; break;
        case 'B': cfg.max_body = (int)v; break;
        case 'i': cfg.idle_s = (int)v; break;
        case 'T': cfg.max_think_ms = (int)v; break;
        case 'S': cfg.max_searches = (int)v; break;
        case 't': cfg.threads = (int)v; break;
        case 's': cfg.seed = v; break;
        case 'C': cfg.trust_clients = 1; break;
        case ':': return cli_error("serve", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("serve", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_error("serve", "only 'vindinium' has a server of its "
                         "own, not '%s' (ply serve [--host H] [--port P] "
                         "serves every game's web page)", argv[optind]);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    PlyError err = {{0}};
    WebServer *w = web_new(&cfg, &err);
    if (!w)
        return cli_error("serve", "%s", err.msg);
    if (web_listen(w, &err)) {
        web_free(w);
        return cli_error("serve", "%s", err.msg);
    }
    printf("Ply: open http://%s:%d/\n", cfg.host, web_port(w));
    fflush(stdout);
    int sig;
    sigwait(&set, &sig);
    web_free(w);
    return 0;
}

/* Whether argv names the vindinium server (its first operand). */
static int wants_vindinium(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "vindinium"))
            return 1;
        if (argv[i][0] != '-')
            return 0;
        if (!strchr(argv[i], '=') && i + 1 < argc && strcmp(argv[i], "-r") &&
            strcmp(argv[i], "--registered-only"))
            i++;    /* its value */
    }
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "serve"))
        return 0;
    if (!wants_vindinium(argc, argv))
        return serve_web(argc, argv);
    static const struct option longopts[] = {
        {"host", required_argument, 0, 'h'},
        {"port", required_argument, 0, 'p'},
        {"db", required_argument, 0, 'd'},
        {"timeout-ms", required_argument, 0, 't'},
        {"min-move-ms", required_argument, 0, 'm'},
        {"training-bot", required_argument, 0, 'b'},
        {"registered-only", no_argument, 0, 'r'},
        {"register", required_argument, 0, 'R'},
        {"seed", required_argument, 0, 's'},
        {"threads", required_argument, 0, 'T'},
        {"max-conns", required_argument, 0, 'C'},
        {"max-per-ip", required_argument, 0, 'I'},
        {"conn-timeout-s", required_argument, 0, 'O'},
        {"max-games", required_argument, 0, 'G'},
        {"key-games", required_argument, 0, 'K'},
        {"resume-grace-ms", required_argument, 0, 'g'},
        {"keep-abandoned-s", required_argument, 0, 'A'},
        {"keep-training-s", required_argument, 0, 'L'},
        {0, 0, 0, 0},
    };
    VdsConfig cfg;
    vds_config_default(&cfg);
    const char *reg = NULL;
    unsigned long long v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': cfg.host = optarg; break;
        case 'p':
            if (cli_parse_uint("serve", "--port", optarg, &v))
                return 2;
            if (v > 65535)
                return cli_error("serve", "--port %llu is not 0..65535", v);
            cfg.port = (int)v;
            break;
        case 'd': cfg.db_path = optarg; break;
        case 't':
            if (cli_parse_uint("serve", "--timeout-ms", optarg, &v))
                return 2;
            if (v < 1 || v > 600000)
                return cli_error("serve", "--timeout-ms must be 1..600000");
            cfg.timeout_ms = (int)v;
            break;
        case 'm':
            if (cli_parse_uint("serve", "--min-move-ms", optarg, &v))
                return 2;
            if (v > 10000)
                return cli_error("serve", "--min-move-ms must be 0..10000");
            cfg.min_move_ms = (int)v;
            break;
        case 'b': cfg.training_bot = optarg; break;
        case 'r': cfg.registered_only = 1; break;
        case 'R': reg = optarg; break;
        case 's':
            if (cli_parse_uint("serve", "--seed", optarg, &v))
                return 2;
            cfg.seed = v;
            break;
        case 'A': case 'L':
            if (cli_parse_uint("serve", c == 'A' ? "--keep-abandoned-s" :
                               "--keep-training-s", optarg, &v))
                return 2;
            if (v > 100ull * 365 * 86400)
                return cli_error("serve", "%s must be at most 100 years",
                                 c == 'A' ? "--keep-abandoned-s" :
                                 "--keep-training-s");
            if (c == 'A')
                cfg.abandoned_keep_s = (long long)v;
            else
                cfg.training_keep_s = (long long)v;
            break;
        case 'T': case 'C': case 'I': case 'O': case 'G': case 'K':
        case 'g': {
            static const struct {
                int opt;
                const char *name;
                unsigned long long lo, hi;
            } lim[] = {
                {'T', "--threads", 1, 64},
                {'C', "--max-conns", 16, 100000},
                {'I', "--max-per-ip", 1, 100000},
                {'O', "--conn-timeout-s", 1, 3600},
                {'G', "--max-games", 1, 100000},
                {'K', "--key-games", 1, 10000},
                {'g', "--resume-grace-ms", 1, 3600000},
            };
            int k = 0;
            while (lim[k].opt != c)
                k++;
            if (cli_parse_uint("serve", lim[k].name, optarg, &v))
                return 2;
            if (v < lim[k].lo || v > lim[k].hi)
                return cli_error("serve", "%s must be %llu..%llu",
                                 lim[k].name, lim[k].lo, lim[k].hi);
            int iv = (int)v;
            switch (c) {
            case 'T': cfg.threads = iv; break;
            case 'C': cfg.max_conns = iv; break;
            case 'I': cfg.max_per_ip = iv; break;
            case 'O': cfg.conn_timeout_s = iv; break;
            case 'G': cfg.max_games = iv; break;
            case 'K': cfg.key_games = iv; break;
            default: cfg.resume_grace_ms = iv; break;
            }
            break;
        }
        case ':': return cli_error("serve", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("serve", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("serve", "usage: ply serve vindinium [options]");
    if (strcmp(argv[optind], "vindinium"))
        return cli_error("serve", "only 'vindinium' has a server, not '%s'",
                         argv[optind]);
    /* block the stop signals before threads start, then wait for one */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    PlyError err = {{0}};
    VdServer *s = vds_start(&cfg, &err);
    if (!s)
        return cli_error("serve", "%s", err.msg);
    if (reg) {
        char key[16];
        if (vds_register(s, reg, key, &err)) {
            vds_stop(s);
            return cli_error("serve", "%s", err.msg);
        }
        printf("registered %s: key %s\n", reg, key);
    }
    printf("vindinium server on http://%s:%d/ (database %s, %d ms per "
           "move)\n", cfg.host, vds_port(s), cfg.db_path, cfg.timeout_ms);
    fflush(stdout);
    int sig;
    sigwait(&set, &sig);
    vds_stop(s);
    return 0;
}
#endif
