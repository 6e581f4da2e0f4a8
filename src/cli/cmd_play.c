/* cmd_play.c — `ply play GAME`: a game in the terminal against a bot, on
 * an engine session (src/core/session.h). In a terminal the line is
 * edited with readline (arrows, history) and the bot thinks in the
 * background: `stop` makes it move now, `undo` takes moves back while it
 * thinks. Through pipes the game runs one step at a time, as a script
 * expects. */
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "cli.h"
#include "lineedit.h"

static const char HELP[] =
    "type a move (as listed under the board), or:\n"
    "  undo [N]  take back your last N moves (1) with the replies\n"
    "  redo      replay what undo took back\n"
    "  stop      make the bot move now (while it thinks)\n"
    "  board     show the position and the legal moves again\n"
    "  setup     print the setup string of the position\n"
    "  quit      end the game\n";

/* The default bot with a time that keeps play lively. */
static const char *default_spec(const GameVtbl *g, int demo, char *buf,
                                size_t n)
{
    const char *d = game_default_bot(g);
    if (!strcmp(d, "random"))
        return d;
    snprintf(buf, n, "%s%ctime=%s", d, strchr(d, ':') ? ',' : ':',
             demo ? "200ms" : "2s");
    return buf;
}

typedef struct Play {
    const GameVtbl *g;
    Session *s;
    LineEdit *le;
    int seat, demo;
    int wake[2];            /* the search thread writes here when done */
    int show;               /* print the position before the next prompt */
} Play;

static void on_done(void *user, const void *root, Move best,
                    const SearchInfo *si)
{
    Play *P = user;
    char c = 1;
    if (P->wake[1] >= 0 && write(P->wake[1], &c, 1) < 0) {
        /* the main loop also polls session_search_done() */
    }
}

static void drain(int fd)
{
    char buf[64];
    while (read(fd, buf, sizeof buf) > 0)
        ;
}

/* Moves to take back so that it is the person's turn again, undoing n of
 * their moves; 0 when there is none. */
static int undo_span(const Play *P, int n)
{
    const GameVtbl *g = P->g;
    int k = session_ply(P->s), found = 0;
    while (k > 0 && found < n) {
        k--;
        if (g->to_move(session_state_at(P->s, k)) == P->seat)
            found++;
    }
    return found ? session_ply(P->s) - k : 0;
}

static void do_undo(Play *P, const char *arg)
{
    int n = arg && *arg ? atoi(arg) : 1;
    if (n < 1)
        n = 1;
    int k = undo_span(P, n);
    if (!k) {
        lineedit_say(P->le, "nothing to undo\n");
        return;
    }
    session_undo(P->s, k);
    lineedit_say(P->le, "took back %d move%s\n", k, k == 1 ? "" : "s");
    P->show = 1;
}

static void do_redo(Play *P)
{
    const GameVtbl *g = P->g;
    int k = 0;
    /* replay up to the person's next turn */
    while (session_redo_count(P->s) > 0) {
        session_redo(P->s, 1);
        k++;
        int p = g->to_move(session_state(P->s));
        if (p == P->seat || p == PLAYER_TERMINAL)
            break;
    }
    if (!k)
        lineedit_say(P->le, "nothing to redo\n");
    else
        lineedit_say(P->le, "replayed %d move%s\n", k, k == 1 ? "" : "s");
    P->show = 1;
}

/* A command typed at any time; returns 1 when handled, -1 to quit. */
static int command(Play *P, char *w)
{
    char *arg = w + strcspn(w, " \t");
    if (*arg)
        *arg++ = 0;
    while (*arg == ' ' || *arg == '\t')
        arg++;
    if (!strcmp(w, "quit") || !strcmp(w, "q"))
        return -1;
    if (!strcmp(w, "help") || !strcmp(w, "?")) {
        lineedit_say(P->le, "%s", HELP);
    } else if (!strcmp(w, "undo")) {
        do_undo(P, arg);
    } else if (!strcmp(w, "redo")) {
        do_redo(P);
    } else if (!strcmp(w, "board") || !strcmp(w, "moves")) {
        P->show = 1;
    } else if (!strcmp(w, "setup")) {
        char buf[8192];
        if (P->g->to_text(session_state(P->s), buf, sizeof buf) >= 0)
            lineedit_say(P->le, "%s\n", buf);
    } else if (!strcmp(w, "stop")) {
        if (session_searching(P->s))
            session_stop(P->s);
        else
            lineedit_say(P->le, "the bot is not thinking\n");
    } else {
        return 0;
    }
    return 1;
}

/* The bot's turn: search (in the background in a terminal) and play its
 * move. Returns -1 to end the game. */
static int bot_turn(Play *P, const char *spec)
{
    const GameVtbl *g = P->g;
    PlyError err = {{0}};
    if (session_go(P->s, NULL, 0, &err)) {
        fprintf(stderr, "ply play: %s\n", err.msg);
        return -1;
    }
    int ply = session_ply(P->s);
    if (lineedit_is_tty(P->le) && !P->demo) {
        while (!session_search_done(P->s)) {
            char *line = NULL;
            int r = lineedit_read(P->le, "(the bot is thinking)> ",
                                  P->wake[0], &line);
            if (r == 0) {
                drain(P->wake[0]);
                continue;
            }
            if (r < 0) {
                session_cancel(P->s);
                return -1;
            }
            char *w = line;
            while (*w == ' ' || *w == '\t')
                w++;
            int stop = !strcmp(w, "stop");
            int c = *w ? command(P, w) : 1;
            if (!c)
                lineedit_say(P->le, "'%s': the bot is thinking (type stop "
                             "to make it move now, or help)\n", w);
            free(line);
            if (c < 0) {
                session_cancel(P->s);
                return -1;
            }
            if (!session_searching(P->s) || session_ply(P->s) != ply)
                return 0;   /* undo or redo: the position changed */
            if (c > 0 && stop)
                break;      /* session_wait() makes sure it stops */
        }
    }
    lineedit_pause(P->le);
    SearchInfo si;
    const void *st = session_state(P->s);
    Move m = session_wait(P->s, &si);
    if (!state_is_legal(g, st, m)) {
        fprintf(stderr, "ply play: bot %s chose an illegal move\n", spec);
        return -1;
    }
    char mb[128];
    if (g->info.flags & GAME_HIDDEN)   /* the person sees only his view */
        lineedit_say(P->le, "%s has moved\n",
                     state_seat_name(g, st, g->to_move(st)));
    else
        lineedit_say(P->le, "%s plays %s\n",
                     state_seat_name(g, st, g->to_move(st)),
                     cli_move_text(g, st, m, mb, sizeof mb));
    session_play(P->s, m, NULL);
    P->show = 1;
    return 0;
}

/* The person's turn: a move or a command. Returns -1 to end the game. */
static int human_turn(Play *P)
{
    const GameVtbl *g = P->g;
    const void *st = session_state(P->s);
    if (P->show) {
        lineedit_pause(P->le);
        printf("\n");
        if (g->info.flags & GAME_HIDDEN)
            cli_print_view(stdout, g, st, g->to_move(st));
        else
            cli_print_position(stdout, g, st);
        P->show = 0;
    }
    char prompt[64], *line = NULL;
    snprintf(prompt, sizeof prompt, "%s> ",
             state_seat_name(g, st, g->to_move(st)));
    int r = lineedit_read(P->le, prompt, -1, &line);
    if (r < 0)
        return -1;
    char *w = line;
    while (*w == ' ' || *w == '\t')
        w++;
    size_t n = strlen(w);
    while (n && (w[n - 1] == ' ' || w[n - 1] == '\t'))
        w[--n] = 0;
    int rc = 0;
    if (*w) {
        char word[512];
        snprintf(word, sizeof word, "%s", w);
        int c = command(P, w);
        if (c < 0) {
            rc = -1;
        } else if (!c) {
            PlyError e = {{0}};
            if (session_play_text(P->s, word, &e))
                lineedit_say(P->le, "illegal move '%s': %s (help lists the "
                             "commands)\n", word, e.msg);
            else
                P->show = 1;
        }
    }
    free(line);
    return rc;
}

static void print_record(const GameVtbl *g, const Session *s)
{
    printf("record:");
    for (int i = 0; i < session_ply(s); i++) {
        char mb[128];
        printf(" %s", cli_move_text(g, session_state_at(s, i),
                                    session_move_at(s, i), mb, sizeof mb));
    }
    printf("\n");
}

int cmd_play(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "play"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"bot", required_argument, 0, 'b'},
        {"seat", required_argument, 0, 'p'},
        {"seed", required_argument, 0, 'r'},
        {"demo", no_argument, 0, 'd'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *spec = NULL;
    char spec_buf[300];
    unsigned long long seat = 0, seed = 1;
    int demo = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'b': spec = optarg; break;
        case 'p':
            if (cli_parse_uint("play", "--seat", optarg, &seat))
                return 2;
            break;
        case 'r':
            if (cli_parse_uint("play", "--seed", optarg, &seed))
                return 2;
            break;
        case 'd': demo = 1; break;
        case ':': return cli_error("play", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("play", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("play", "usage: ply play GAME [options]");
    const GameVtbl *g = cli_game("play", argv[optind]);
    if (!g)
        return 2;
    if (!spec)
        spec = default_spec(g, demo, spec_buf, sizeof spec_buf);
    PlyError err = {{0}};
    Play P = {.g = g, .seat = (int)seat, .demo = demo, .wake = {-1, -1},
              .show = 1};
    P.s = session_new(g, options, spec, seed, &err);
    if (!P.s)
        return cli_error("play", "%s", err.msg);
    if (setup && session_set_position(P.s, setup, NULL, &err)) {
        session_free(P.s);
        return cli_error("play", "%s", err.msg);
    }
    int nseats = state_seats(g, session_state(P.s), NULL);
    if (seat >= (unsigned long long)nseats) {
        session_free(P.s);
        return cli_error("play", "--seat must be 0..%d for %s%s%s",
                         nseats - 1, g->info.name, options ? " with " : "",
                         options ? options : "");
    }
    P.le = lineedit_open();
    if (!P.le || pipe(P.wake) ||
        fcntl(P.wake[0], F_SETFL, O_NONBLOCK) ||
        fcntl(P.wake[1], F_SETFL, O_NONBLOCK)) {
        lineedit_close(P.le);
        session_free(P.s);
        return cli_error("play", "out of memory");
    }
    session_on_info(P.s, NULL, on_done, &P);
    Rng chance;
    rng_seed(&chance, seed ^ 0x5eedull);
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *probs = malloc(sizeof(double) * (size_t)g->info.max_moves);
    printf("%s: you are %s, the bot is %s%s\n", g->info.title,
           demo ? "watching" : state_seat_name(g, session_state(P.s),
                                               (int)seat), spec,
           demo ? " on every seat" : "");
    if (!demo && lineedit_is_tty(P.le))
        printf("type help for the commands; arrows edit and recall lines\n");
    for (;;) {
        const void *st = session_state(P.s);
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL)
            break;
        if (p == PLAYER_CHANCE) {
            int n = g->chance_outcomes(st, moves, probs);
            double x = rng_double(&chance), acc = 0;
            Move m = moves[n - 1];
            for (int i = 0; i < n; i++) {
                acc += probs[i];
                if (x < acc) {
                    m = moves[i];
                    break;
                }
            }
            char mb[128];
            lineedit_say(P.le, "chance: %s\n",
                         cli_move_text(g, st, m, mb, sizeof mb));
            session_play(P.s, m, NULL);
            continue;
        }
        int rc = demo || p != P.seat ? bot_turn(&P, spec) : human_turn(&P);
        if (rc < 0)
            break;
    }
    lineedit_close(P.le);
    printf("\n");
    cli_print_position(stdout, g, session_state(P.s));
    print_record(g, P.s);
    session_free(P.s);
    close(P.wake[0]);
    close(P.wake[1]);
    free(moves);
    free(probs);
    return 0;
}
