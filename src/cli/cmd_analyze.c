/* cmd_analyze.c — `ply analyze GAME`: what a bot thinks of a position
 * (best move, value, principal variation, depth, nodes, speed), once or,
 * with --interactive, as a session: the bot analyses in the background
 * while the user plays moves, takes them back and stops it. */
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "cli.h"
#include "lineedit.h"

enum { PENDING_MAX = 16384 };

typedef struct Watch {
    const GameVtbl *g;
    void *scratch;          /* search thread only */
    /* interactive: lines from the search thread wait here for the main
     * thread, which alone prints (readline is not thread-safe) */
    int interactive;
    int wake[2];
    pthread_mutex_t mu;
    char pending[PENDING_MAX];
    size_t plen;
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

static void info_line(FILE *f, Watch *w, const void *root,
                      const SearchInfo *si)
{
    double nps = si->seconds > 0 ? (double)si->nodes / si->seconds : 0;
    fprintf(f, "depth %d seldepth %d value ", si->depth, si->seldepth);
    print_value(f, si);
    fprintf(f, " nodes %llu time %.3fs nps %.0f pv",
            (unsigned long long)si->nodes, si->seconds, nps);
    print_pv(f, w->g, root, w->scratch, si);
    fprintf(f, "\n");
}

/* Hands text to the main thread (interactive mode). */
static void post(Watch *w, const char *text, size_t n)
{
    pthread_mutex_lock(&w->mu);
    if (w->plen + n < sizeof w->pending) {
        memcpy(w->pending + w->plen, text, n);
        w->plen += n;
    }
    pthread_mutex_unlock(&w->mu);
    char c = 1;
    if (write(w->wake[1], &c, 1) < 0) {
        /* full: the main thread is already due to wake */
    }
}

static void on_info(void *user, const void *root, const SearchInfo *si)
{
    Watch *w = user;
    if (!w->interactive) {
        info_line(stdout, w, root, si);
        fflush(stdout);
        return;
    }
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return;
    info_line(f, w, root, si);
    fclose(f);
    post(w, buf, n);
    free(buf);
}

static void on_done(void *user, const void *root, Move best,
                    const SearchInfo *si)
{
    Watch *w = user;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return;
    char mb[128];
    if (state_is_legal(w->g, root, best))
        fprintf(f, "best: %s  value ",
                cli_move_text(w->g, root, best, mb, sizeof mb));
    else
        fprintf(f, "best: none  value ");
    print_value(f, si);
    fprintf(f, "  depth %d  nodes %llu\n", si->depth,
            (unsigned long long)si->nodes);
    fclose(f);
    post(w, buf, n);
    free(buf);
}

/* Prints what the search thread left (main thread). */
static void flush_pending(Watch *w, LineEdit *le)
{
    char buf[64];
    while (read(w->wake[0], buf, sizeof buf) > 0)
        ;
    pthread_mutex_lock(&w->mu);
    if (w->plen)
        lineedit_say(le, "%.*s", (int)w->plen, w->pending);
    w->plen = 0;
    pthread_mutex_unlock(&w->mu);
}

static const char IHELP[] =
    "the bot analyses the position in the background; type:\n"
    "  a move    play it and analyse the new position\n"
    "  undo [N]  take back N moves (1); redo [N] replays them\n"
    "  stop      stop the analysis (prints the best move); go restarts it\n"
    "  board     show the position; setup prints its setup string\n"
    "  quit      leave\n";

/* Starts the background analysis of the current position, if any. */
static void analyse(Session *s, LineEdit *le)
{
    int p = session_game(s)->to_move(session_state(s));
    if (p < 0) {
        lineedit_say(le, "%s\n", p == PLAYER_TERMINAL ? "the game is over"
                     : "chance is to move: type the outcome");
        return;
    }
    Limits none = {0};
    PlyError err = {{0}};
    if (session_go(s, &none, 1, &err))
        lineedit_say(le, "%s\n", err.msg);
}

static int interactive(Session *s, Watch *w)
{
    const GameVtbl *g = session_game(s);
    LineEdit *le = lineedit_open();
    if (!le)
        return cli_error("analyze", "out of memory");
    printf("type help for the commands\n\n");
    cli_print_position(stdout, g, session_state(s));
    analyse(s, le);
    for (;;) {
        char *line = NULL;
        int r = lineedit_read(le, "analyze> ", w->wake[0], &line);
        if (r == 0) {
            flush_pending(w, le);
            continue;
        }
        if (r < 0)
            break;
        char *cmd = line;
        while (*cmd == ' ' || *cmd == '\t')
            cmd++;
        char *arg = cmd + strcspn(cmd, " \t");
        if (*arg)
            *arg++ = 0;
        int n = atoi(arg) > 0 ? atoi(arg) : 1, moved = 0;
        if (!*cmd) {
            /* nothing */
        } else if (!strcmp(cmd, "quit") || !strcmp(cmd, "q")) {
            free(line);
            break;
        } else if (!strcmp(cmd, "help") || !strcmp(cmd, "?")) {
            lineedit_say(le, "%s", IHELP);
        } else if (!strcmp(cmd, "stop")) {
            session_stop(s);
            session_wait(s, NULL);
        } else if (!strcmp(cmd, "go")) {
            session_cancel(s);
            flush_pending(w, le);
            analyse(s, le);
        } else if (!strcmp(cmd, "board")) {
            lineedit_pause(le);
            cli_print_position(stdout, g, session_state(s));
        } else if (!strcmp(cmd, "setup")) {
            char buf[8192];
            if (g->to_text(session_state(s), buf, sizeof buf) >= 0)
                lineedit_say(le, "%s\n", buf);
        } else if (!strcmp(cmd, "undo") || !strcmp(cmd, "redo")) {
            session_cancel(s);
            int k = cmd[0] == 'u' ? session_undo(s, n) : session_redo(s, n);
            if (!k)
                lineedit_say(le, "nothing to %s\n", cmd);
            moved = k > 0;
        } else {
            PlyError err = {{0}};
            if (session_play_text(s, cmd, &err))
                lineedit_say(le, "illegal move '%s': %s (help lists the "
                             "commands)\n", cmd, err.msg);
            else
                moved = 1;
        }
        free(line);
        if (moved) {
            flush_pending(w, le);
            lineedit_pause(le);
            printf("\n");
            cli_print_position(stdout, g, session_state(s));
            analyse(s, le);
        }
    }
    session_cancel(s);
    flush_pending(w, le);
    lineedit_close(le);
    return 0;
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
        {"interactive", no_argument, 0, 'i'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL, *spec = NULL;
    unsigned long long seed = 1;
    int watch = 0, inter = 0, c;
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
        case 'i': inter = 1; break;
        case ':': return cli_error("analyze", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("analyze", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("analyze", "usage: ply analyze GAME [--setup S] "
                         "[--moves \"...\"] [--options K=V,...] --bot SPEC "
                         "[--watch] [--interactive]");
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
    void *scratch = state_alloc(g);
    Watch w = {.g = g, .scratch = scratch, .wake = {-1, -1}};
    if (inter) {
        int rc = 2;
        pthread_mutex_init(&w.mu, NULL);
        w.interactive = 1;
        session_on_info(s, on_info, on_done, &w);
        if (!scratch || pipe(w.wake) ||
            fcntl(w.wake[0], F_SETFL, O_NONBLOCK) ||
            fcntl(w.wake[1], F_SETFL, O_NONBLOCK))
            cli_error("analyze", "out of memory");
        else
            rc = interactive(s, &w);
        session_free(s);    /* no callback runs after this */
        if (w.wake[0] >= 0) {
            close(w.wake[0]);
            close(w.wake[1]);
        }
        pthread_mutex_destroy(&w.mu);
        free(scratch);
        return rc;
    }
    if (p == PLAYER_TERMINAL || p == PLAYER_CHANCE) {
        free(scratch);
        session_free(s);
        return cli_error("analyze", "%s", p == PLAYER_TERMINAL
                         ? "the game is over in this position"
                         : "chance is to move in this position; give the "
                           "outcome with --moves");
    }
    session_on_info(s, watch ? on_info : NULL, NULL, &w);
    printf("%s, %s to move, bot %s\n", g->info.title,
           state_seat_name(g, st, p), spec);
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
        printf(" (%s's point of view)\n", state_seat_name(g, st, p));
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
