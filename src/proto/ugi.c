/* ugi.c — `ply ugi`: the UGI engine protocol (UCI generalised to any
 * two-player game) over stdin/stdout. The search runs in its own thread so
 * that "stop", "isready" and "quit" are answered while it thinks. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "ugi.h"

enum { UGI_LINE_MAX = 1 << 16 };

const char *proto_default_bot(void)
{
    if (bot_find("mcts"))
        return "mcts";
    if (bot_find("alphabeta"))
        return "alphabeta";
    return "random";
}

typedef struct Ugi {
    FILE *in, *out;
    pthread_mutex_t out_mu;
    const GameVtbl *g;
    char options[256];
    char spec[256];
    uint64_t seed;
    Bot *bot;
    void *st;               /* the current position (NULL: no game yet) */
    /* search */
    pthread_t th;
    int searching;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop_req, infinite;
    Limits lim;
    void *search_st;
    int64_t t0;
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

static void wait_search(Ugi *u, int stop)
{
    if (!u->searching)
        return;
    pthread_mutex_lock(&u->mu);
    if (stop)
        u->stop_req = 1;
    pthread_cond_broadcast(&u->cv);
    pthread_mutex_unlock(&u->mu);
    if (stop && u->bot && u->bot->v->stop)
        u->bot->v->stop(u->bot->impl);
    pthread_join(u->th, NULL);
    u->searching = 0;
}

static void drop_game(Ugi *u)
{
    bot_free(u->bot);
    u->bot = NULL;
    free(u->st);
    free(u->search_st);
    u->st = u->search_st = NULL;
}

/* The start position and a fresh bot for the current game settings. */
static int load_game(Ugi *u)
{
    drop_game(u);
    if (!u->g)
        return 0;
    PlyError err = {{0}};
    u->st = state_alloc(u->g);
    u->search_st = state_alloc(u->g);
    if (!u->st || !u->search_st ||
        state_setup(u->g, u->st, u->options, NULL, 0, &err)) {
        say(u, "info string error %s", err.msg[0] ? err.msg : "no memory");
        drop_game(u);
        return -1;
    }
    u->bot = bot_new(u->g, u->spec, u->seed, &err);
    if (!u->bot) {
        say(u, "info string error %s", err.msg);
        drop_game(u);
        return -1;
    }
    return 0;
}

static void print_info(Ugi *u, const void *st, const SearchInfo *si)
{
    const GameVtbl *g = u->g;
    char line[4096];
    int len = snprintf(line, sizeof line, "info depth %d seldepth %d "
                       "nodes %llu time %lld", si->depth, si->seldepth,
                       (unsigned long long)si->nodes,
                       (long long)(now_ms() - u->t0));
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

static void on_info(const SearchInfo *si, void *user)
{
    Ugi *u = user;
    print_info(u, u->search_st, si);
}

static void *search_main(void *arg)
{
    Ugi *u = arg;
    SearchInfo si;
    Move m = bot_choose(u->bot, u->search_st, &u->lim, &si);
    print_info(u, u->search_st, &si);
    pthread_mutex_lock(&u->mu);
    while (u->infinite && !u->stop_req)   /* "go infinite" waits for stop */
        pthread_cond_wait(&u->cv, &u->mu);
    pthread_mutex_unlock(&u->mu);
    char mb[256];
    if (!state_is_legal(u->g, u->search_st, m) ||
        u->g->move_to_text(u->search_st, m, mb, sizeof mb) < 0)
        say(u, "info string error the bot gave no legal move");
    else
        say(u, "bestmove %s", mb);
    return NULL;
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
    if (!u->st && load_game(u))
        return;
    if (!u->st) {
        say(u, "info string error no game: setoption name game value GAME");
        return;
    }
    const GameVtbl *g = u->g;
    int p = g->to_move(u->st);
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
        if (movetime >= 0)
            lim.time_ms = movetime > 0 ? movetime : 1;
        if (ptime[p] >= 0) {
            /* a share of the clock, with a margin for the pipe */
            long long t = ptime[p], budget = t / 20 + pinc[p] * 3 / 4;
            if (budget > t / 2)
                budget = t / 2;
            if (budget > t - 30)
                budget = t - 30;
            if (budget < 1)
                budget = 1;
            if (!lim.time_ms || lim.time_ms > budget)
                lim.time_ms = budget;
        }
        if (nodes > 0)
            lim.nodes = (uint64_t)nodes;
        if (depth > 0)
            lim.depth = depth > 200 ? 200 : (int)depth;
        if (!infinite && !lim.time_ms && !lim.nodes && !lim.depth)
            lim.time_ms = 1000;     /* say, only the opponent's clock */
    } else {
        lim = u->bot->limits;
        if (!lim.time_ms && !lim.nodes && !lim.depth)
            lim.time_ms = 1000;
    }
    lim.on_info = on_info;
    lim.user = u;
    u->lim = lim;
    u->infinite = infinite;
    u->stop_req = 0;
    u->t0 = now_ms();
    memcpy(u->search_st, u->st, g->info.state_size);
    if (pthread_create(&u->th, NULL, search_main, u)) {
        say(u, "info string error cannot start the search thread");
        return;
    }
    u->searching = 1;
}

static void cmd_position(Ugi *u, char *args)
{
    if (!u->st && load_game(u))
        return;
    if (!u->st) {
        say(u, "info string error no game: setoption name game value GAME");
        return;
    }
    const GameVtbl *g = u->g;
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
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (!st || state_setup(g, st, u->options, setup, 0, &err) ||
        state_play_moves(g, st, moves, &err)) {
        say(u, "info string error position: %s", err.msg[0] ? err.msg
                                                           : "no memory");
        free(st);
        return;
    }
    memcpy(u->st, st, g->info.state_size);
    free(st);
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
        if (u->g) {
            Bot *b = bot_new(u->g, val, u->seed, &err);
            if (!b) {
                say(u, "info string error %s", err.msg);
                return;
            }
            bot_free(b);
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
            say(u, "info string error unknown option '%.60s'", name);
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
    if (!u->st) {
        say(u, "info string error no game");
        return;
    }
    int p = u->g->to_move(u->st);
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
        u->g->returns(u->st, r);
        int np = u->g->info.num_players, best = 0, tie = 0;
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

static void cmd_ugi(Ugi *u)
{
    say(u, "id name Ply");
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
    say(u, "option name bot type string default %s", u->spec);
    say(u, "option name seed type spin default %llu min 0 max 2147483647",
        (unsigned long long)u->seed);
    say(u, "ugiok");
}

int ugi_run(FILE *in, FILE *out, const char *game, const char *options,
            const char *spec, uint64_t seed)
{
    static Ugi zero;
    Ugi *u = calloc(1, sizeof *u);
    if (!u)
        return 1;
    *u = zero;
    u->in = in;
    u->out = out;
    u->seed = seed;
    snprintf(u->spec, sizeof u->spec, "%s", spec ? spec : proto_default_bot());
    pthread_mutex_init(&u->out_mu, NULL);
    pthread_mutex_init(&u->mu, NULL);
    pthread_cond_init(&u->cv, NULL);
    int rc = 0;
    if (game) {
        u->g = game_find(game);
        if (!u->g) {
            fprintf(stderr, "ply ugi: unknown game '%s'\n", game);
            rc = 2;
            goto out;
        }
        PlyError err = {{0}};
        int opt[PLY_MAX_OPTIONS];
        if (options && options_parse(u->g, options, opt, &err)) {
            fprintf(stderr, "ply ugi: %s\n", err.msg);
            rc = 2;
            goto out;
        }
        snprintf(u->options, sizeof u->options, "%s", options ? options : "");
        Bot *b = bot_new(u->g, u->spec, seed, &err);
        if (!b) {
            fprintf(stderr, "ply ugi: %s\n", err.msg);
            rc = 2;
            goto out;
        }
        bot_free(b);
        if (load_game(u)) {
            rc = 2;
            goto out;
        }
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
        wait_search(u, u->infinite);
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
    pthread_cond_destroy(&u->cv);
    pthread_mutex_destroy(&u->mu);
    pthread_mutex_destroy(&u->out_mu);
    free(u);
    return rc;
}
