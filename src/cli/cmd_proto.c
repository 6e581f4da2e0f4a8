/* cmd_proto.c — `ply ugi`, `ply codecup`, `ply gtp` and `ply gomocup`:
 * engine modes over stdin/stdout; the protocols are in src/proto/. The
 * four share one argument parser (--bot, --options, --seed, and each
 * mode's own options) and, for the modes that speak a format (GTP,
 * Gomocup), one choice of game. */
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

typedef struct {
    const char *spec, *options;
    unsigned long long seed;
} ModeArgs;

/* A mode's own option: `c` from its getopt table, `arg` its value. 0, or
 * 2 after printing the error. */
typedef int (*ModeOption)(const char *cmd, int c, const char *arg, void *u);

#define MODE_MAX_OPTS 8

/* Parses argv for the engine mode `cmd`: --bot, --options and --seed for
 * every mode, `own` (up to MODE_MAX_OPTS entries, ended by a zero entry)
 * handed to `f`. On success optind is the first operand. 0, or 2 after
 * printing the error. */
static int mode_args(const char *cmd, int argc, char **argv,
                     const struct option *own, ModeOption f, void *u,
                     ModeArgs *a)
{
    struct option all[3 + MODE_MAX_OPTS + 1] = {
        {"bot", required_argument, 0, 'b'},
        {"options", required_argument, 0, 'o'},
        {"seed", required_argument, 0, 'r'},
    };
    int n = 3;
    for (int i = 0; own && own[i].name && i < MODE_MAX_OPTS; i++)
        all[n++] = own[i];
    all[n] = (struct option){0, 0, 0, 0};
    *a = (ModeArgs){NULL, NULL, 1};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", all, NULL)) != -1) {
        switch (c) {
        case 'b': a->spec = optarg; break;
        case 'o': a->options = optarg; break;
        case 'r':
            if (cli_parse_uint(cmd, "--seed", optarg, &a->seed))
                return 2;
            break;
        case ':': return cli_error(cmd, "%s needs a value",
                                   argv[optind - 1]);
        case '?': return cli_error(cmd, "unknown option '%s'",
                                   argv[optind - 1]);
        default:
            if (!f)
                return cli_error(cmd, "unknown option '%s'",
                                 argv[optind - 1]);
            if (f(cmd, c, optarg, u))
                return 2;
        }
    }
    return 0;
}

/* The game of a mode that speaks `format` (named "gtp", titled "GTP"):
 * the one named, else the format's native game, else the only game that
 * speaks it. NULL after printing an error that lists the games that do. */
static const GameVtbl *mode_game(const char *format, const char *title,
                                 int nargs, char **args)
{
    if (nargs > 1) {
        cli_error(format, "usage: ply %s [GAME] [--bot SPEC]", format);
        return NULL;
    }
    const GameVtbl *all[64];
    int n = games_with_format(format, all, 64);
    const GameVtbl *g = NULL;
    if (nargs == 1) {
        if (!(g = cli_game(format, args[0])))
            return NULL;
    } else if (!(g = format_native_game(format, NULL)) && n == 1) {
        g = all[0];
    }
    if (g && game_format(g, format))
        return g;
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; i < n && i < 64 && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i ? ", " : "", all[i]->info.name);
    cli_error(format, "%s%s does not speak %s (games that do: %s)",
              g ? "" : "name a game: ", g ? g->info.name : "", title, list);
    return NULL;
}

static int ugi_option(const char *cmd, int c, const char *arg, void *u)
{
    (void)cmd, (void)c;
    *(const char **)u = arg;    /* --game */
    return 0;
}

int cmd_ugi(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "ugi"))
        return 0;
    static const struct option own[] = {
        {"game", required_argument, 0, 'g'},
        {0, 0, 0, 0},
    };
    const char *game = NULL;
    ModeArgs a;
    if (mode_args("ugi", argc, argv, own, ugi_option, &game, &a))
        return 2;
    if (optind != argc)
        return cli_error("ugi", "unexpected argument '%s'", argv[optind]);
    if (game && !cli_game("ugi", game))
        return 2;
    signal(SIGPIPE, SIG_IGN);
    return ugi_run(stdin, stdout, game, a.options, a.spec, a.seed);
}

typedef struct {
    int64_t total;
    CodecupClaim claim;
} CodecupArgs;

static int codecup_option(const char *cmd, int c, const char *arg, void *u)
{
    CodecupArgs *x = u;
    switch (c) {
    case 't':
        if (parse_duration_ms(arg, &x->total) || x->total < 100)
            return cli_error(cmd, "bad --total '%s'", arg);
        return 0;
    case 'c': {
        char *e;
        x->claim.value = strtod(arg, &e);
        if (e == arg || *e || !(x->claim.value >= -1 &&
                                x->claim.value <= 2))
            return cli_error(cmd, "bad --claim '%s' (a mean value in "
                             "[-1, 1], or 2: proofs only)", arg);
        return 0;
    }
    default: {  /* 'f', --claim-from */
        unsigned long long f;
        if (cli_parse_uint(cmd, "--claim-from", arg, &f))
            return 2;
        x->claim.from_ply = f > 100000 ? 100000 : (int)f;
        return 0;
    }
    }
}

int cmd_codecup(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "codecup"))
        return 0;
    static const struct option own[] = {
        {"total", required_argument, 0, 't'},
        {"claim", required_argument, 0, 'c'},
        {"claim-from", required_argument, 0, 'f'},
        {0, 0, 0, 0},
    };
    CodecupArgs x = {30000, {CODECUP_CLAIM_VALUE, CODECUP_CLAIM_FROM}};
    ModeArgs a;
    if (mode_args("codecup", argc, argv, own, codecup_option, &x, &a))
        return 2;
    if (argc - optind != 1)
        return cli_error("codecup", "usage: ply codecup GAME [--bot SPEC]");
    const GameVtbl *g = cli_game("codecup", argv[optind]);
    if (!g)
        return 2;
    if (g->info.num_players != 2)
        return cli_error("codecup", "%s is not a two-player game",
                         g->info.name);
    PlyError err = {{0}};
    Bot *b = bot_new(g, a.spec ? a.spec : codecup_default_bot(g), a.seed,
                     &err);
    if (!b)
        return cli_error("codecup", "%s", err.msg);
    bot_free(b);
    signal(SIGPIPE, SIG_IGN);
    return codecup_run_claim(stdin, stdout, stderr, g, a.options, a.spec,
                             a.seed, x.total, &x.claim);
}

int cmd_gtp(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "gtp"))
        return 0;
    ModeArgs a;
    if (mode_args("gtp", argc, argv, NULL, NULL, NULL, &a))
        return 2;
    const GameVtbl *g = mode_game("gtp", "GTP", argc - optind, argv + optind);
    if (!g)
        return 2;
    PlyError err = {{0}};
    signal(SIGPIPE, SIG_IGN);
    if (gtp_run(stdin, stdout, g, a.options, a.spec, a.seed, &err))
        return cli_error("gtp", "%s", err.msg);
    return 0;
}

int cmd_gomocup(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "gomocup"))
        return 0;
    ModeArgs a;
    if (mode_args("gomocup", argc, argv, NULL, NULL, NULL, &a))
        return 2;
    const GameVtbl *g = mode_game("gomocup", "the Gomocup protocol",
                                  argc - optind, argv + optind);
    if (!g)
        return 2;
    PlyError err = {{0}};
    signal(SIGPIPE, SIG_IGN);
    if (gomocup_run(stdin, stdout, g, a.options, a.spec, a.seed, &err))
        return cli_error("gomocup", "%s", err.msg);
    return 0;
}
