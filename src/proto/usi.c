/* usi.c — `ply usi`: the USI engine protocol (shogi GUIs) over stdin and
 * stdout for shogi and minishogi, playing with any Ply bot.
 *
 * The search runs in its own thread so that `stop`, `isready` and `quit`
 * are read while it thinks; it works on a copy of the position. Every
 * line to stdout goes through one mutex. Malformed input is answered
 * with `info string error ...` and otherwise ignored. */
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"

typedef struct Usi {
    const GameVtbl *g;
    void *st;               /* the position of the last `position` */
    Bot *bot;
    char spec[256];         /* bot spec; "" = the default bot */
    pthread_mutex_t out_mu;
    pthread_mutex_t mu;     /* guards the fields below */
    pthread_cond_t cv;
    pthread_t thread;
    int searching;          /* a thread is running (join it) */
    int stop;               /* stop asked */
    int infinite;           /* hold bestmove until stop */
    int done;               /* the search thread has returned its move */
    void *search_st;        /* the searched position (owned) */
    Limits lim;
    int64_t t0;
} Usi;

static void say(Usi *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(Usi *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out_mu);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&u->out_mu);
}

static const char *default_bot(void)
{
    if (bot_find("alphabeta"))
        return "alphabeta";
    if (bot_find("mcts"))
        return "mcts";
    return "random";
}

/* (Re)creates the bot for the current game; reports errors. */
static int ensure_bot(Usi *u)
{
    if (u->bot && u->bot->game == u->g)
        return 0;
    bot_free(u->bot);
    u->bot = NULL;
    PlyError err = {{0}};
    u->bot = bot_new(u->g, u->spec[0] ? u->spec : default_bot(), 1, &err);
    if (!u->bot) {
        say(u, "info string error %s", err.msg);
        return -1;
    }
    return 0;
}

static void set_game(Usi *u, const GameVtbl *g)
{
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (!st || state_setup(g, st, NULL, NULL, 1, &err)) {
        free(st);
        say(u, "info string error %s", err.msg);
        return;
    }
    free(u->st);
    u->st = st;
    u->g = g;
}

/* Text of a move at st, into buf. */
static const char *mtext(Usi *u, const void *st, Move m, char *buf, size_t n)
{
    if (u->g->move_to_text(st, m, buf, n) < 0)
        snprintf(buf, n, "?");
    return buf;
}

static void on_info(const SearchInfo *in, void *user)
{
    Usi *u = user;
    char line[4096], mb[32];
    int k = 0;
    int64_t ms = now_ms() - u->t0;
    k += snprintf(line + k, sizeof line - (size_t)k,
                  "info depth %d seldepth %d", in->depth,
                  in->seldepth > in->depth ? in->seldepth : in->depth);
    if (in->proven)
        k += snprintf(line + k, sizeof line - (size_t)k, " score mate %c",
                      in->proven > 0 ? '+' : '-');
    else
        k += snprintf(line + k, sizeof line - (size_t)k, " score cp %d",
                      in->value);
    k += snprintf(line + k, sizeof line - (size_t)k,
                  " nodes %llu nps %llu time %lld",
                  (unsigned long long)in->nodes,
                  (unsigned long long)(ms > 0 ? in->nodes * 1000 /
                                                    (uint64_t)ms : 0),
                  (long long)ms);
    if (in->pv_len > 0) {
        /* the pv is replayed on a copy, stopping at anything illegal */
        void *st = malloc(u->g->info.state_size);
        memcpy(st, u->search_st, u->g->info.state_size);
        k += snprintf(line + k, sizeof line - (size_t)k, " pv");
        for (int i = 0; i < in->pv_len && k < (int)sizeof line - 40; i++) {
            if (!state_is_legal(u->g, st, in->pv[i]))
                break;
            k += snprintf(line + k, sizeof line - (size_t)k, " %s",
                          mtext(u, st, in->pv[i], mb, sizeof mb));
            u->g->make(st, in->pv[i]);
        }
        free(st);
    }
    say(u, "%s", line);
}

static void *search_main(void *arg)
{
    Usi *u = arg;
    SearchInfo info;
    Move m = bot_choose(u->bot, u->search_st, &u->lim, &info);
    on_info(&info, u);     /* the final word, also for bots that are silent */
    pthread_mutex_lock(&u->mu);
    while (u->infinite && !u->stop)
        pthread_cond_wait(&u->cv, &u->mu);
    pthread_mutex_unlock(&u->mu);
    char mb[32];
    if (state_is_legal(u->g, u->search_st, m))
        say(u, "bestmove %s", mtext(u, u->search_st, m, mb, sizeof mb));
    else
        say(u, "bestmove resign");
    pthread_mutex_lock(&u->mu);
    u->done = 1;
    pthread_mutex_unlock(&u->mu);
    return NULL;
}

static void stop_search(Usi *u)
{
    pthread_mutex_lock(&u->mu);
    int running = u->searching, done = u->done;
    u->stop = 1;
    pthread_cond_broadcast(&u->cv);
    pthread_mutex_unlock(&u->mu);
    if (!running)
        return;
    if (!done && u->bot->v->stop)
        u->bot->v->stop(u->bot->impl);
    pthread_join(u->thread, NULL);
    u->searching = 0;
    free(u->search_st);
    u->search_st = NULL;
}

/* Parses a non-negative integer token for `go`. */
static int go_number(Usi *u, const char *key, const char *v, long long *out)
{
    char *end;
    if (!v) {
        say(u, "info string error go %s needs a value", key);
        return -1;
    }
    long long x = strtoll(v, &end, 10);
    if (*end || end == v || x < 0 || x > 1000000000000ll) {
        say(u, "info string error go %s: bad value '%s'", key, v);
        return -1;
    }
    *out = x;
    return 0;
}

static void cmd_go(Usi *u, char *save)
{
    if (u->searching) {
        /* a finished search thread still needs joining; a running one
         * means the GUI forgot to stop */
        stop_search(u);
    }
    if (ensure_bot(u))
        return;
    long long btime = -1, wtime = -1, binc = 0, winc = 0, byoyomi = 0,
              movetime = 0, nodes = 0, depth = 0;
    int infinite = 0, any_time = 0, ponder = 0;
    for (char *t = strtok_r(NULL, " \t", &save); t;
         t = strtok_r(NULL, " \t", &save)) {
        long long *dst = NULL;
        if (!strcmp(t, "infinite")) {
            infinite = 1;
            continue;
        }
        if (!strcmp(t, "ponder")) {
            /* searched as a normal move; bestmove waits for ponderhit
             * or stop, as the protocol wants */
            ponder = 1;
            continue;
        }
        if (!strcmp(t, "btime"))
            dst = &btime;
        else if (!strcmp(t, "wtime"))
            dst = &wtime;
        else if (!strcmp(t, "binc"))
            dst = &binc;
        else if (!strcmp(t, "winc"))
            dst = &winc;
        else if (!strcmp(t, "byoyomi"))
            dst = &byoyomi;
        else if (!strcmp(t, "movetime"))
            dst = &movetime;
        else if (!strcmp(t, "nodes"))
            dst = &nodes;
        else if (!strcmp(t, "depth"))
            dst = &depth;
        else {
            say(u, "info string error go: unknown parameter '%s'", t);
            return;
        }
        if (go_number(u, t, strtok_r(NULL, " \t", &save), dst))
            return;
        if (dst == &btime || dst == &wtime || dst == &byoyomi ||
            dst == &binc || dst == &winc)
            any_time = 1;
    }
    const GameVtbl *g = u->g;
    int side = g->to_move(u->st);
    if (side == PLAYER_TERMINAL) {
        /* the game is over: the side to move (read from the SFEN) has
         * either won by the impasse declaration or lost */
        double r[PLY_MAX_PLAYERS];
        char text[512];
        g->returns(u->st, r);
        int mover = 0;
        if (g->to_text(u->st, text, sizeof text) > 0) {
            const char *sp = strchr(text, ' ');
            mover = sp && sp[1] == 'w';
        }
        say(u, "bestmove %s", r[mover] > 0 ? "win" : "resign");
        return;
    }
    Limits lim = u->bot->limits;
    if (movetime || nodes || depth || any_time || infinite) {
        memset(&lim, 0, sizeof lim);
        if (movetime)
            lim.time_ms = movetime;
        if (any_time) {
            long long left = side == 0 ? btime : wtime;
            long long inc = side == 0 ? binc : winc;
            if (left < 0)
                left = 0;
            long long t = left / 40 + inc + (byoyomi > 0 ? byoyomi : 0);
            long long cap = left + byoyomi - 100;
            if (t > cap)
                t = cap;
            if (t < 10)
                t = 10;
            if (!movetime || t < lim.time_ms)
                lim.time_ms = t;
        }
        lim.nodes = (uint64_t)nodes;
        lim.depth = depth > 200 ? 200 : (int)depth;
        /* a bot that cannot be stopped gets its own limits in infinite
         * mode, so that it finishes; bestmove still waits for stop */
        if (infinite && !lim.time_ms && !lim.nodes && !lim.depth &&
            !u->bot->v->stop)
            lim = u->bot->limits;
    }
    if (!lim.time_ms && !lim.nodes && !lim.depth && !infinite)
        lim.time_ms = 1000;    /* plain `go` with a bot without limits */
    lim.on_info = on_info;
    lim.user = u;
    u->lim = lim;
    u->search_st = malloc(g->info.state_size);
    memcpy(u->search_st, u->st, g->info.state_size);
    u->stop = 0;
    u->done = 0;
    u->infinite = infinite || ponder;
    u->t0 = now_ms();
    if (pthread_create(&u->thread, NULL, search_main, u)) {
        say(u, "info string error cannot start the search thread");
        free(u->search_st);
        u->search_st = NULL;
        return;
    }
    u->searching = 1;
}

static void cmd_position(Usi *u, char *save)
{
    const GameVtbl *g = u->g;
    char *kind = strtok_r(NULL, " \t", &save);
    char sfen[512] = "";
    if (!kind) {
        say(u, "info string error position needs startpos or sfen");
        return;
    }
    char *t = NULL;
    if (!strcmp(kind, "startpos")) {
        t = strtok_r(NULL, " \t", &save);
    } else if (!strcmp(kind, "sfen")) {
        /* board side hands [movenumber]; the move number is dropped, so
         * that Ply's 512-ply limit counts from this position */
        int n = 0;
        for (t = strtok_r(NULL, " \t", &save); t && strcmp(t, "moves");
             t = strtok_r(NULL, " \t", &save), n++) {
            if (n >= 4) {
                say(u, "info string error position sfen: too many fields "
                    "at '%s'", t);
                return;
            }
            if (n == 3)
                continue;
            size_t l = strlen(sfen);
            if (l + strlen(t) + 2 >= sizeof sfen) {
                say(u, "info string error position sfen: too long");
                return;
            }
            snprintf(sfen + l, sizeof sfen - l, "%s%s", l ? " " : "", t);
        }
    } else {
        say(u, "info string error position: expected startpos or sfen, "
            "got '%s'", kind);
        return;
    }
    if (t && strcmp(t, "moves")) {
        say(u, "info string error position: expected 'moves', got '%s'", t);
        return;
    }
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (state_setup(g, st, NULL, sfen, 1, &err)) {
        say(u, "info string error %s", err.msg);
        free(st);
        return;
    }
    int number = 0;
    if (t)
        for (t = strtok_r(NULL, " \t", &save); t;
             t = strtok_r(NULL, " \t", &save)) {
            number++;
            Move m;
            if (g->to_move(st) == PLAYER_TERMINAL) {
                say(u, "info string error move %d '%s': the game is over",
                    number, t);
                free(st);
                return;
            }
            if (g->text_to_move(st, t, &m, &err)) {
                say(u, "info string error move %d: %s", number, err.msg);
                free(st);
                return;
            }
            g->make(st, m);
        }
    free(u->st);
    u->st = st;
}

static void cmd_setoption(Usi *u, char *save)
{
    char *t = strtok_r(NULL, " \t", &save);
    if (!t || strcmp(t, "name")) {
        say(u, "info string error setoption: expected 'name'");
        return;
    }
    char *name = strtok_r(NULL, " \t", &save);
    if (!name) {
        say(u, "info string error setoption: missing option name");
        return;
    }
    char *value = NULL;
    t = strtok_r(NULL, " \t", &save);
    if (t) {
        if (strcmp(t, "value")) {
            say(u, "info string error setoption: expected 'value', got "
                "'%s'", t);
            return;
        }
        value = strtok_r(NULL, "", &save);
        if (value) {
            size_t l = strlen(value);
            while (l > 0 && (value[l - 1] == ' ' || value[l - 1] == '\t'))
                value[--l] = 0;
            while (*value == ' ' || *value == '\t')
                value++;
        }
    }
    if (!strcmp(name, "UCI_Variant") || !strcmp(name, "USI_Variant")) {
        if (!value || (strcmp(value, "shogi") && strcmp(value, "minishogi"))) {
            say(u, "info string error %s: variant must be shogi or "
                "minishogi", name);
            return;
        }
        if (u->searching)
            stop_search(u);
        set_game(u, game_find(value));
    } else if (!strcmp(name, "PlyBot")) {
        if (!value || strlen(value) >= sizeof u->spec) {
            say(u, "info string error PlyBot needs a bot spec");
            return;
        }
        PlyError err = {{0}};
        Bot *b = bot_new(u->g, value, 1, &err);
        if (!b) {
            say(u, "info string error %s", err.msg);
            return;
        }
        if (u->searching)
            stop_search(u);
        bot_free(u->bot);
        u->bot = b;
        snprintf(u->spec, sizeof u->spec, "%s", value);
    } else if (!strcmp(name, "USI_Hash") || !strcmp(name, "USI_Ponder")) {
        /* sent by every GUI; Ply's bots size their own tables */
    } else {
        say(u, "info string error unknown option '%s'", name);
    }
}

static int usi_loop(Usi *u)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (memchr(line, 0, (size_t)len)) {
            say(u, "info string error NUL byte in the command");
            continue;
        }
        char *save = NULL, *cmd = strtok_r(line, " \t", &save);
        if (!cmd)
            continue;
        if (!strcmp(cmd, "usi")) {
            say(u, "id name Ply (%s)", u->spec[0] ? u->spec : default_bot());
            say(u, "id author the Ply authors");
            say(u, "option name UCI_Variant type combo default %s "
                "var shogi var minishogi", u->g->info.name);
            say(u, "option name PlyBot type string default %s",
                u->spec[0] ? u->spec : default_bot());
            say(u, "usiok");
        } else if (!strcmp(cmd, "isready")) {
            ensure_bot(u);
            say(u, "readyok");
        } else if (!strcmp(cmd, "setoption")) {
            cmd_setoption(u, save);
        } else if (!strcmp(cmd, "usinewgame")) {
            if (u->searching)
                stop_search(u);
            if (!ensure_bot(u))
                bot_new_game(u->bot);
        } else if (!strcmp(cmd, "position")) {
            cmd_position(u, save);
        } else if (!strcmp(cmd, "go")) {
            cmd_go(u, save);
        } else if (!strcmp(cmd, "stop")) {
            if (u->searching)
                stop_search(u);
        } else if (!strcmp(cmd, "ponderhit")) {
            /* the pondered move was played: bestmove may now be sent */
            pthread_mutex_lock(&u->mu);
            u->infinite = 0;
            pthread_cond_broadcast(&u->cv);
            pthread_mutex_unlock(&u->mu);
        } else if (!strcmp(cmd, "gameover")) {
            if (u->searching)
                stop_search(u);
        } else if (!strcmp(cmd, "quit")) {
            break;
        } else {
            char shown[64];
            snprintf(shown, sizeof shown, "%s", cmd);
            say(u, "info string error unknown command '%s'", shown);
        }
    }
    free(line);
    if (u->searching)
        stop_search(u);
    return 0;
}

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
        return cli_error("usi", "usage: ply usi [shogi|minishogi] "
                         "[--bot SPEC]");
    const char *gname = argc - optind == 1 ? argv[optind] : "shogi";
    if (strcmp(gname, "shogi") && strcmp(gname, "minishogi"))
        return cli_error("usi", "USI plays shogi or minishogi, not '%s'",
                         gname);
    Usi u;
    memset(&u, 0, sizeof u);
    pthread_mutex_init(&u.out_mu, NULL);
    pthread_mutex_init(&u.mu, NULL);
    pthread_cond_init(&u.cv, NULL);
    if (spec) {
        if (strlen(spec) >= sizeof u.spec)
            return cli_error("usi", "bot spec too long");
        snprintf(u.spec, sizeof u.spec, "%s", spec);
    }
    set_game(&u, game_find(gname));
    if (!u.st)
        return 2;
    PlyError err = {{0}};
    u.bot = bot_new(u.g, u.spec[0] ? u.spec : default_bot(), 1, &err);
    if (!u.bot) {
        free(u.st);
        return cli_error("usi", "%s", err.msg);
    }
    usi_loop(&u);
    bot_free(u.bot);
    free(u.st);
    pthread_mutex_destroy(&u.out_mu);
    pthread_mutex_destroy(&u.mu);
    pthread_cond_destroy(&u.cv);
    return 0;
}
