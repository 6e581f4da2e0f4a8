/* cmd_proto.c — `ply ugi`, `ply codecup` and `ply gtp`: engine modes over
 * stdin/stdout; the protocols are in src/proto/. */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/registry.h"
#include "../proto/gomocup.h"
#include "../proto/gtp.h"
#include "../proto/ugi.h"
#include "cli.h"

int cmd_ugi(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "ugi"))
        return 0;
    static const struct option longopts[] = {
        {"bot", required_argument, 0, 'b'},
        {"game", required_argument, 0, 'g'},
        {"options", required_argument, 0, 'o'},
        {"seed", required_argument, 0, 'r'},
        {0, 0, 0, 0},
    };
    const char *spec = NULL, *game = NULL, *options = NULL;
    unsigned long long seed = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case 'g': game = optarg; break;
        case 'o': options = optarg; break;
        case 'r':
            if (cli_parse_uint("ugi", "--seed", optarg, &seed))
                return 2;
            break;
        case ':': return cli_error("ugi", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("ugi", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_error("ugi", "unexpected argument '%s'", argv[optind]);
    if (game && !cli_game("ugi", game))
        return 2;
    signal(SIGPIPE, SIG_IGN);
    return ugi_run(stdin, stdout, game, options, spec, seed);
}

int cmd_codecup(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "codecup"))
        return 0;
    static const struct option longopts[] = {
        {"bot", required_argument, 0, 'b'},
        {"options", required_argument, 0, 'o'},
        {"seed", required_argument, 0, 'r'},
        {"total", required_argument, 0, 't'},
        {"claim", required_argument, 0, 'c'},
        {"claim-from", required_argument, 0, 'f'},
        {0, 0, 0, 0},
    };
    const char *spec = NULL, *options = NULL;
    unsigned long long seed = 1;
    int64_t total = 30000;
    CodecupClaim claim = {CODECUP_CLAIM_VALUE, CODECUP_CLAIM_FROM};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case 'o': options = optarg; break;
        case 'r':
            if (cli_parse_uint("codecup", "--seed", optarg, &seed))
                return 2;
            break;
        case 't':
            if (parse_duration_ms(optarg, &total) || total < 100)
                return cli_error("codecup", "bad --total '%s'", optarg);
            break;
        case 'c': {
            char *e;
            claim.value = strtod(optarg, &e);
            if (e == optarg || *e || !(claim.value >= -1 &&
                                       claim.value <= 2))
                return cli_error("codecup", "bad --claim '%s' (a mean "
                                 "value in [-1, 1], or 2: proofs only)",
                                 optarg);
            break;
        }
        case 'f': {
            unsigned long long f;
            if (cli_parse_uint("codecup", "--claim-from", optarg, &f))
                return 2;
            claim.from_ply = f > 100000 ? 100000 : (int)f;
            break;
        }
        case ':': return cli_error("codecup", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("codecup", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("codecup", "usage: ply codecup GAME [--bot SPEC]");
    const GameVtbl *g = cli_game("codecup", argv[optind]);
    if (!g)
        return 2;
    if (g->info.num_players != 2)
        return cli_error("codecup", "%s is not a two-player game",
                         g->info.name);
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec ? spec : codecup_default_bot(g), seed, &err);
    if (!b)
        return cli_error("codecup", "%s", err.msg);
    bot_free(b);
    signal(SIGPIPE, SIG_IGN);
    return codecup_run_claim(stdin, stdout, stderr, g, options, spec, seed,
                             total, &claim);
}

int cmd_gtp(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "gtp"))
        return 0;
    static const struct option longopts[] = {
        {"bot", required_argument, 0, 'b'},
        {"options", required_argument, 0, 'o'},
        {"seed", required_argument, 0, 'r'},
        {0, 0, 0, 0},
    };
    const char *spec = NULL, *options = NULL;
    unsigned long long seed = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case 'o': options = optarg; break;
        case 'r':
            if (cli_parse_uint("gtp", "--seed", optarg, &seed))
                return 2;
            break;
        case ':': return cli_error("gtp", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("gtp", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return cli_error("gtp", "usage: ply gtp [GAME] [--bot SPEC]");
    const GameVtbl *g = NULL;
    if (argc - optind == 1) {
        if (!(g = cli_game("gtp", argv[optind])))
            return 2;
    } else if (!(g = format_native_game("gtp", NULL))) {
        const GameVtbl *all[64];
        int n = games_with_format("gtp", all, 64);
        if (n == 1)
            g = all[0];
    }
    if (!g || !game_format(g, "gtp")) {
        const GameVtbl *all[64];
        int n = games_with_format("gtp", all, 64);
        char list[512] = "";
        size_t len = 0;
        for (int i = 0; i < n && i < 64; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    i ? ", " : "", all[i]->info.name);
        return cli_error("gtp", "%s%s does not speak GTP (games that do: "
                         "%s)", g ? "" : "name a game: ",
                         g ? g->info.name : "", list);
    }
    PlyError err = {{0}};
    signal(SIGPIPE, SIG_IGN);
    if (gtp_run(stdin, stdout, g, options, spec, seed, &err))
        return cli_error("gtp", "%s", err.msg);
    return 0;
}

int cmd_gomocup(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "gomocup"))
        return 0;
    static const struct option longopts[] = {
        {"bot", required_argument, 0, 'b'},
        {"options", required_argument, 0, 'o'},
        {"seed", required_argument, 0, 'r'},
        {0, 0, 0, 0},
    };
    const char *spec = NULL, *options = NULL;
    unsigned long long seed = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case 'o': options = optarg; break;
        case 'r':
            if (cli_parse_uint("gomocup", "--seed", optarg, &seed))
                return 2;
            break;
        case ':': return cli_error("gomocup", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("gomocup", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return cli_error("gomocup", "usage: ply gomocup [GAME] [--bot SPEC]");
    const GameVtbl *g = NULL;
    if (argc - optind == 1) {
        if (!(g = cli_game("gomocup", argv[optind])))
            return 2;
    } else {
        g = format_native_game("gomocup", NULL);
    }
    if (!g || !game_format(g, "gomocup")) {
        const GameVtbl *all[64];
        int n = games_with_format("gomocup", all, 64);
        char list[512] = "";
        size_t len = 0;
        for (int i = 0; i < n && i < 64 && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    i ? ", " : "", all[i]->info.name);
        return cli_error("gomocup", "%s%s does not speak the Gomocup "
                         "protocol (games that do: %s)", g ? "" : "name a "
                         "game: ", g ? g->info.name : "", list);
    }
    PlyError err = {{0}};
    signal(SIGPIPE, SIG_IGN);
    if (gomocup_run(stdin, stdout, g, options, spec, seed, &err))
        return cli_error("gomocup", "%s", err.msg);
    return 0;
}
