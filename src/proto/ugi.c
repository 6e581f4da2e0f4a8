/* ugi.c — `ply ugi`: the UGI engine protocol (UCI generalised to any
 * two-player game) over stdin/stdout. The search runs in its own thread so
 * that "stop", "isready" and "quit" are answered while it thinks. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/util.h"
#include "../core/version.h"
#include "engopt.h"
#include "ugi.h"

enum { UGI_LINE_MAX = 1 << 16 };

typedef struct Ugi {
    FILE *in, *out;
    pthread_mutex_t out_mu;
    const GameVtbl *g;
    char options[256];
    char spec[256];         /* "" = the game's default bot */
    uint64_t seed;
    Session *s;             /* NULL: no game yet */
} Ugi;

static void say(Ugi *u, const char *fmt, ...) __attribute__((format(printf,
                                                                    2, 3)));
static void say(Ugi *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out_mu);
    va_start(ap, fmt);
    vfprintf(u->out, fmt, ap);
    va_end(ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_mu);
}

/* Waits for a running search; stops it first when asked to. */
static void wait_search(Ugi *u, int stop)
{
    if (!u->s || !session_searching(u->s))
        return;
    if (stop)
        session_stop(u->s);
    session_wait(u->s, NULL);
}

static void drop_game(Ugi *u)
{
    session_free(u->s);
    u->s = NULL;
}

static void on_info(void *user, const void *root, const SearchInfo *si);
static void on_done(void *user, const void *root, Move m,
                    const SearchInfo *si);

/* The start position and a fresh bot for the current game settings. */
static int load_game(Ugi *u)
{
    drop_game(u);
    if (!u->g)
        return 0;
    PlyError err = {{0}};
    u->s = session_new(u->g, u->options, u->spec[0] ? u->spec : NULL,
                       u->seed, &err);
    if (!u->s) {
        say(u, "info string error %s", err.msg);
        return -1;
    }
    session_on_info(u->s, on_info, on_done, u);
    return 0;
}

static void print_info(Ugi *u, const void *st, const SearchInfo *si)
{
    const GameVtbl *g = u->g;
    char line[4096];
    int len = snprintf(line, sizeof line, "info depth %d seldepth %d "
                       "nodes %llu time %lld", si->depth, si->seldepth,
                       (unsigned long long)si->nodes,
                       (long long)session_search_ms(u->s));
    if (si->proven)
        len += snprintf(line + len, sizeof line - (size_t)len,
                        " score %s", si->proven > 0 ? "win" : "loss");
    else
        len += snprintf(line + len, sizeof line - (size_t)len,
                        " score cp %d", si->value);
    if (si->pv_len > 0) {
        /* walk the pv on a copy: write only moves that are legal */
        void *tmp = malloc(g->info.state_size);
        if (tmp) {
            memcpy(tmp, st, g->info.state_size);
            len += snprintf(line + len, sizeof line - (size_t)len, " pv");
            for (int i = 0; i < si->pv_len && i < SEARCH_MAX_PV; i++) {
                char mb[256];
                if (g->to_move(tmp) < 0 ||
                    !state_is_legal(g, tmp, si->pv[i]) ||
                    g->move_to_text(tmp, si->pv[i], mb, sizeof mb) < 0 ||
                    (size_t)len + strlen(mb) + 2 >= sizeof line)
                    break;
                len += snprintf(line + len, sizeof line - (size_t)len, " %s",
                                mb);
                g->make(tmp, si->pv[i]);
            }
            free(tmp);
        }
    }
    say(u, "%s", line);
}

static void on_info(void *user, const void *root, const SearchInfo *si)
{
    print_info(user, root, si);
}

static void on_done(void *user, const void *root, Move m,
                    const SearchInfo *si)
{
    Ugi *u = user;
    print_info(u, root, si);
    char mb[256];
    if (!state_is_legal(u->g, root, m) ||
        u->g->move_to_text(root, m, mb, sizeof mb) < 0)
        say(u, "info string error the bot gave no legal move");
    else
        say(u, "bestmove %s", mb);
}

static int parse_num(const char *s, long long *out)
{
    char *end;
    if (!s)
        return -1;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || x < 0)
        return -1;
    *out = x;
    return 0;
}

static void cmd_go(Ugi *u, char *args)
{
    if (!u->s && load_game(u))
        return;
    if (!u->s) {
        say(u, "info string error no game: setoption name game value GAME");
        return;
    }
    const GameVtbl *g = u->g;
    const void *st = session_state(u->s);
    int p = g->to_move(st);
    if (p < 0) {
        say(u, "info string error %s", p == PLAYER_TERMINAL
            ? "the game is over" : "a chance move is due, not a player's");
        say(u, "bestmove (none)");
        return;
    }
    long long ptime[PLY_MAX_PLAYERS], pinc[PLY_MAX_PLAYERS];
    for (int i = 0; i < PLY_MAX_PLAYERS; i++)
        ptime[i] = -1, pinc[i] = 0;
    long long movetime = -1, nodes = -1, depth = -1;
    int infinite = 0, given = 0;
    char *save = NULL;
    for (char *w = strtok_r(args, " \t", &save); w;
         w = strtok_r(NULL, " \t", &save)) {
        int k;
        char tail[16];
        if (!strcmp(w, "infinite")) {
            infinite = 1;
            continue;
        }
        long long *dst = NULL;
        if (!strcmp(w, "movetime"))
            dst = &movetime;
        else if (!strcmp(w, "nodes"))
            dst = &nodes;
        else if (!strcmp(w, "depth"))
            dst = &depth;
        else if (sscanf(w, "p%d%15s", &k, tail) == 2 && k >= 1 &&
                 k <= PLY_MAX_PLAYERS && !strcmp(tail, "time"))
            dst = &ptime[k - 1];
        else if (sscanf(w, "p%d%15s", &k, tail) == 2 && k >= 1 &&
                 k <= PLY_MAX_PLAYERS && !strcmp(tail, "inc"))
            dst = &pinc[k - 1];
        if (!dst) {
            say(u, "info string error go: unknown word '%.40s'", w);
            continue;
        }
        if (parse_num(strtok_r(NULL, " \t", &save), dst)) {
            say(u, "info string error go: %s needs a number", w);
            *dst = -1;
            continue;
        }
        given = 1;
    }
    Limits lim;
    if (given || infinite) {
        memset(&lim, 0, sizeof lim);
        if (movetime >= 0) {
            lim.time_ms = movetime > 0 ? movetime : 1;
            lim.spend_all = 1;  /* the move's own time */
        }
        if (ptime[p] >= 0) {
            Clock c = {.left_ms = ptime[p], .inc_ms = pinc[p]};
            int64_t budget = time_budget(g, st, &c, u->seed);
            if (!lim.time_ms || lim.time_ms > budget) {
                lim.time_ms = budget;
                lim.spend_all = 0;
            }
        }
        if (nodes > 0)
            lim.nodes = (uint64_t)nodes;
        if (depth > 0)
            lim.depth = depth > 200 ? 200 : (int)depth;
        if (!infinite && !lim.time_ms && !lim.nodes && !lim.depth)
            lim.time_ms = 1000;     /* say, only the opponent's clock */
    } else {
        lim = session_bot_limits(u->s);
        if (!lim.time_ms && !lim.nodes && !lim.depth)
            lim.time_ms = 1000;
    }
    PlyError err = {{0}};
    if (session_go(u->s, &lim, infinite, &err))
        say(u, "info string error %s", err.msg);
}

static void cmd_position(Ugi *u, char *args)
{
    if (!u->s && load_game(u))
        return;
    if (!u->s) {
        say(u, "info string error no game: setoption name game value GAME");
        return;
    }
    char *setup = NULL, *moves = NULL;
    while (*args == ' ')
        args++;
    /* the word "moves" splits the setup string (which may hold spaces)
     * from the moves */
    for (char *q = args; (q = strstr(q, "moves")); q++)
        if ((q == args || q[-1] == ' ') && (!q[5] || q[5] == ' ')) {
            moves = q + 5;
            *q = 0;
            break;
        }
    size_t al = strlen(args);
    while (al && args[al - 1] == ' ')
        args[--al] = 0;
    if (!strcmp(args, "startpos")) {
        setup = NULL;
    } else if (!strncmp(args, "fen ", 4)) {
        setup = args + 4;
        while (*setup == ' ')
            setup++;
    } else {
        say(u, "info string error position needs startpos or fen");
        return;
    }
    PlyError err = {{0}};
    const GameVtbl *g = session_game(u->s);
    if (!session_set_position(u->s, setup, moves, &err))
        return;
    /* a game with hidden information: an engine is told its seat's view
     * (the observation's setup string), which the true-state reader
     * refuses; no moves follow a view */
    PlyError e2 = {{0}};
    if (!setup || !g->from_view || (moves && strspn(moves, " ") != strlen(moves)))
        say(u, "info string error position: %s", err.msg);
    else if (session_set_view(u->s, setup, &e2))
        say(u, "info string error position: %s; as a view: %s", err.msg,
            e2.msg);
}

static void cmd_setoption(Ugi *u, char *args)
{
    char *name = strstr(args, "name ");
    if (!name) {
        say(u, "info string error setoption needs 'name X value Y'");
        return;
    }
    name += 5;
    char *value = strstr(name, " value ");
    char *val = "";
    if (value) {
        *value = 0;
        val = value + 7;
    }
    while (*name == ' ')
        name++;
    PlyError err = {{0}};
    if (!strcasecmp(name, "game")) {
        const GameVtbl *g = game_find(val);
        if (!g) {
            say(u, "info string error unknown game '%.60s'", val);
            return;
        }
        u->g = g;
        u->options[0] = 0;
        load_game(u);
    } else if (!strcasecmp(name, "gameoptions")) {
        int opt[PLY_MAX_OPTIONS];
        if (!u->g) {
            say(u, "info string error set the game first");
            return;
        }
        if (options_parse(u->g, val, opt, &err)) {
            say(u, "info string error %s", err.msg);
            return;
        }
        snprintf(u->options, sizeof u->options, "%s", val);
        load_game(u);
    } else if (!strcasecmp(name, "bot")) {
        if (u->s && session_set_bot(u->s, val, &err)) {
            say(u, "info string error %s", err.msg);
            return;
        }
        snprintf(u->spec, sizeof u->spec, "%s", val);
        load_game(u);
    } else if (!strcasecmp(name, "seed")) {
        long long x;
        if (parse_num(val, &x)) {
            say(u, "info string error seed must be a number");
            return;
        }
        u->seed = (uint64_t)x;
        load_game(u);
    } else {
        /* one game option by its key: "setoption name houses value 4" */
        const GameOption *o = u->g ? u->g->info.options : NULL;
        for (; o && o->key; o++)
            if (!strcasecmp(o->key, name))
                break;
        if (!o || !o->key) {
            /* else a bot option by its key: "setoption name depth value 6" */
            if (!u->s)
                say(u, "info string error unknown option '%.60s'", name);
            else if (bot_option_engine(session_bot_vtbl(u->s), name) &&
                     session_set_engine_option(u->s, name, val, &err))
                say(u, "info string error %s", err.msg);
            else if (bot_option_engine(session_bot_vtbl(u->s), name))
                snprintf(u->spec, sizeof u->spec, "%s",
                         session_bot_spec(u->s));
            else if (session_set_bot_option(u->s, name, val, &err))
                say(u, "info string error %s", err.msg);
            else
                snprintf(u->spec, sizeof u->spec, "%s",
                         session_bot_spec(u->s));
            return;
        }
        char one[300], opts[256];
        int opt[PLY_MAX_OPTIONS], tmp[PLY_MAX_OPTIONS];
        int idx = (int)(o - u->g->info.options);
        snprintf(one, sizeof one, "%s=%.200s", o->key, val);
        if (options_parse(u->g, u->options, opt, &err) ||
            options_parse(u->g, one, tmp, &err)) {
            say(u, "info string error %s", err.msg);
            return;
        }
        opt[idx] = tmp[idx];
        if (options_to_text(u->g, opt, opts, sizeof opts) < 0) {
            say(u, "info string error options too long");
            return;
        }
        snprintf(u->options, sizeof u->options, "%s", opts);
        load_game(u);
    }
}

static void cmd_query(Ugi *u, const char *what)
{
    if (!u->s) {
        say(u, "info string error no game");
        return;
    }
    const void *st = session_state(u->s);
    int p = u->g->to_move(st);
    if (!strcmp(what, "gameover")) {
        say(u, "response %s", p == PLAYER_TERMINAL ? "true" : "false");
    } else if (!strcmp(what, "p1turn")) {
        say(u, "response %s", p == 0 ? "true" : "false");
    } else if (!strcmp(what, "result")) {
        if (p != PLAYER_TERMINAL) {
            say(u, "response none");
            return;
        }
        double r[PLY_MAX_PLAYERS];
        u->g->returns(st, r);
        int np = state_seats(u->g, st, NULL), best = 0, tie = 0;
        for (int i = 1; i < np; i++) {
            if (r[i] > r[best]) {
                best = i;
                tie = 0;
            } else if (r[i] == r[best]) {
                tie = 1;
            }
        }
        if (tie)
            say(u, "response draw");
        else
            say(u, "response p%dwin", best + 1);
    } else {
        say(u, "info string error unknown query '%.40s'", what);
    }
}

static void say_line(void *user, const char *line)
{
    say(user, "%s", line);
}

static void cmd_ugi(Ugi *u)
{
    say(u, "id name Ply %s", ply_version());
    say(u, "id author the Ply authors");
    char line[4096];
    int len = snprintf(line, sizeof line, "option name game type combo "
                       "default %s", u->g ? u->g->info.name : "none");
    for (int i = 0; ply_games[i]; i++)
        if (ply_games[i]->info.num_players == 2 &&
            (size_t)len + 64 < sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " var %s",
                            ply_games[i]->info.name);
    say(u, "%s", line);
    say(u, "option name gameoptions type string default %s",
        u->options[0] ? u->options : "<empty>");
    say(u, "option name bot type string default %s",
        u->spec[0] ? u->spec : u->s ? session_bot_spec(u->s) : "default");
    say(u, "option name seed type spin default %llu min 0 max 2147483647",
        (unsigned long long)u->seed);
    if (u->s)
        engopt_advertise(u->s, NULL, say_line, u);
    say(u, "ugiok");
}

int ugi_run(FILE *in, FILE *out, const char *game, const char *options,
            const char *spec, uint64_t seed)
{
    Ugi *u = calloc(1, sizeof *u);
    if (!u)
        return 1;
    u->in = in;
    u->out = out;
    u->seed = seed;
    snprintf(u->spec, sizeof u->spec, "%s", spec ? spec : "");
    pthread_mutex_init(&u->out_mu, NULL);
    int rc = 0;
    if (game) {
        u->g = game_find(game);
        if (!u->g) {
            fprintf(stderr, "ply ugi: unknown game '%s'\n", game);
            rc = 2;
            goto out;
        }
        PlyError err = {{0}};
        snprintf(u->options, sizeof u->options, "%s", options ? options : "");
        u->s = session_new(u->g, u->options, spec, seed, &err);
        if (!u->s) {
            fprintf(stderr, "ply ugi: %s\n", err.msg);
            rc = 2;
            goto out;
        }
        session_on_info(u->s, on_info, on_done, u);
    }
    char *line = malloc(UGI_LINE_MAX);
    if (!line) {
        rc = 1;
        goto out;
    }
    while (fgets(line, UGI_LINE_MAX, in)) {
        size_t n = strlen(line);
        if (n == UGI_LINE_MAX - 1 && line[n - 1] != '\n') {
            int ch;
            while ((ch = fgetc(in)) != EOF && ch != '\n')
                ;
            say(u, "info string error line too long");
            continue;
        }
        line[strcspn(line, "\r\n")] = 0;
        char *cmd = line;
        while (*cmd == ' ' || *cmd == '\t')
            cmd++;
        char *args = cmd + strcspn(cmd, " \t");
        if (*args)
            *args++ = 0;
        if (!*cmd)
            continue;
        if (!strcmp(cmd, "quit"))
            break;
        if (!strcmp(cmd, "isready")) {
            say(u, "readyok");
            continue;
        }
        if (!strcmp(cmd, "stop")) {
            wait_search(u, 1);
            continue;
        }
        if (!strcmp(cmd, "query")) {
            cmd_query(u, args);
            continue;
        }
        /* everything else waits for a running search to end (UGI does
         * not allow changing the position under it); an infinite search
         * would never end, so it is stopped */
        wait_search(u, u->s && session_search_endless(u->s));
        if (!strcmp(cmd, "ugi"))
            cmd_ugi(u);
        else if (!strcmp(cmd, "uginewgame")) {
            if (u->g)
                load_game(u);
        } else if (!strcmp(cmd, "setoption"))
            cmd_setoption(u, args);
        else if (!strcmp(cmd, "position"))
            cmd_position(u, args);
        else if (!strcmp(cmd, "go"))
            cmd_go(u, args);
        else
            say(u, "info string error unknown command '%.60s'", cmd);
    }
    free(line);
    wait_search(u, 1);
out:
    drop_game(u);
    pthread_mutex_destroy(&u->out_mu);
    free(u);
    return rc;
}
