/* cmd_analyze.c — `ply analyze GAME`: what a bot thinks of a position
 * (best move, value, principal variation, depth, nodes, speed). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "cli.h"

typedef struct Watch {
    const GameVtbl *g;
    void *scratch;
} Watch;

/* The PV in notation, each move read in the position before it. */
static void print_pv(FILE *f, const GameVtbl *g, const void *root,
                     void *scratch, const SearchInfo *si)
{
    memcpy(scratch, root, g->info.state_size);
    for (int i = 0; i < si->pv_len; i++) {
        char mb[128];
        if (g->to_move(scratch) < 0 || !state_is_legal(g, scratch, si->pv[i]))
            break;
        fprintf(f, " %s", cli_move_text(g, scratch, si->pv[i], mb,
                                        sizeof mb));
        g->make(scratch, si->pv[i]);
    }
}

static void print_value(FILE *f, const SearchInfo *si)
{
    if (si->proven > 0)
        fprintf(f, "win in %d", EVAL_WIN - si->value);
    else if (si->proven < 0)
        fprintf(f, "loss in %d", EVAL_WIN + si->value);
    else
        fprintf(f, "%d", si->value);
}

static void on_info(void *user, const void *root, const SearchInfo *si)
{
    Watch *w = user;
    double nps = si->seconds > 0 ? (double)si->nodes / si->seconds : 0;
    printf("depth %d seldepth %d value ", si->depth, si->seldepth);
    print_value(stdout, si);
    printf(" nodes %llu time %.3fs nps %.0f pv",
           (unsigned long long)si->nodes, si->seconds, nps);
    print_pv(stdout, w->g, root, w->scratch, si);
    printf("\n");
    fflush(stdout);
}

int cmd_analyze(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "analyze"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"moves", required_argument, 0, 'm'},
        {"bot", required_argument, 0, 'b'},
        {"seed", required_argument, 0, 'r'},
        {"watch", no_argument, 0, 'w'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL, *spec = NULL;
    unsigned long long seed = 1;
    int watch = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'm': moves = optarg; break;
        case 'b': spec = optarg; break;
        case 'r':
            if (cli_parse_uint("analyze", "--seed", optarg, &seed))
                return 2;
            break;
        case 'w': watch = 1; break;
        case ':': return cli_error("analyze", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("analyze", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("analyze", "usage: ply analyze GAME [--setup S] "
                         "[--moves \"...\"] [--options K=V,...] --bot SPEC "
                         "[--watch]");
    const GameVtbl *g = cli_game("analyze", argv[optind]);
    if (!g)
        return 2;
    if (!spec)
        spec = bot_find("alphabeta") ? "alphabeta:time=1s" : "random";
    PlyError err = {{0}};
    Session *s = session_new(g, options, spec, seed, &err);
    if (!s)
        return cli_error("analyze", "%s", err.msg);
    if (session_set_position(s, setup, moves, &err)) {
        session_free(s);
        return cli_error("analyze", "%s", err.msg);
    }
    const void *st = session_state(s);
    int p = g->to_move(st);
    if (p == PLAYER_TERMINAL || p == PLAYER_CHANCE) {
        session_free(s);
        return cli_error("analyze", "%s", p == PLAYER_TERMINAL
                         ? "the game is over in this position"
                         : "chance is to move in this position; give the "
                           "outcome with --moves");
    }
    void *scratch = state_alloc(g);
    Watch w = {g, scratch};
    session_on_info(s, watch ? on_info : NULL, NULL, &w);
    printf("%s, %s to move, bot %s\n", g->info.title,
           g->info.player_names[p], spec);
    fflush(stdout);
    SearchInfo si;
    Move m = 0;
    if (session_go(s, NULL, 0, &err))
        fprintf(stderr, "ply analyze: %s\n", err.msg);
    else
        m = session_wait(s, &si);
    int rc = 0;
    if (!state_is_legal(g, st, m)) {
        rc = cli_error("analyze", "bot %s returned an illegal move", spec);
    } else {
        char mb[128];
        double nps = si.seconds > 0 ? (double)si.nodes / si.seconds : 0;
        printf("best: %s\n", cli_move_text(g, st, m, mb, sizeof mb));
        printf("value: ");
        print_value(stdout, &si);
        printf(" (%s's point of view)\n", g->info.player_names[p]);
        printf("pv:");
        print_pv(stdout, g, st, scratch, &si);
        printf("\ndepth: %d (seldepth %d)\n", si.depth, si.seldepth);
        printf("nodes: %llu\n", (unsigned long long)si.nodes);
        printf("time: %.3fs\n", si.seconds);
        printf("nodes/s: %.0f\n", nps);
    }
    free(scratch);
    session_free(s);
    return rc;
}
