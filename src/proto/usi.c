/* usi.c — `ply usi`: the USI engine protocol (shogi GUIs) over stdin and
 * stdout for shogi and minishogi, playing with any Ply bot.
 *
 * The search runs in its own thread so that `stop`, `isready` and `quit`
 * are read while it thinks; it works on a copy of the position. Every
 * line to stdout goes through one mutex. Malformed input is answered
 * with `info string error ...` and otherwise ignored. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/version.h"
#include "engopt.h"
#include "usi.h"

typedef struct Usi {
    FILE *out;
    const GameVtbl *g;
    Session *s;
    char spec[256];         /* bot spec; "" = the game's default bot */
    pthread_mutex_t out_mu;
} Usi;

static void say(Usi *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(Usi *u, const char *fmt, ...)
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

static void on_info(void *user, const void *root, const SearchInfo *in);
static void on_done(void *user, const void *root, Move m,
                    const SearchInfo *si);

/* A session for game g with the current bot spec; reports errors. */
static int set_game(Usi *u, const GameVtbl *g)
{
    PlyError err = {{0}};
    Session *s = session_new(g, NULL, u->spec[0] ? u->spec : NULL, 1, &err);
    if (!s) {
        say(u, "info string error %s", err.msg);
        return -1;
    }
    session_free(u->s);
    u->s = s;
    u->g = g;
    session_on_info(s, on_info, on_done, u);
    return 0;
}

/* Text of a move at st, into buf. */
static const char *mtext(Usi *u, const void *st, Move m, char *buf, size_t n)
{
    if (u->g->move_to_text(st, m, buf, n) < 0)
        snprintf(buf, n, "?");
    return buf;
}

static void on_info(void *user, const void *root, const SearchInfo *in)
{
    Usi *u = user;
    char line[4096], mb[32];
    int k = 0;
    int64_t ms = session_search_ms(u->s);
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
        if (st) {
            memcpy(st, root, u->g->info.state_size);
            k += snprintf(line + k, sizeof line - (size_t)k, " pv");
            for (int i = 0; i < in->pv_len && k < (int)sizeof line - 40;
                 i++) {
                if (!state_is_legal(u->g, st, in->pv[i]))
                    break;
                k += snprintf(line + k, sizeof line - (size_t)k, " %s",
                              mtext(u, st, in->pv[i], mb, sizeof mb));
                u->g->make(st, in->pv[i]);
            }
            free(st);
        }
    }
    say(u, "%s", line);
}

static void on_done(void *user, const void *root, Move m,
                    const SearchInfo *si)
{
    Usi *u = user;
    on_info(u, root, si);  /* the final word, also for bots that are silent */
    char mb[32];
    if (state_is_legal(u->g, root, m))
        say(u, "bestmove %s", mtext(u, root, m, mb, sizeof mb));
    else
        say(u, "bestmove resign");
}

static void stop_search(Usi *u)
{
    if (!session_searching(u->s))
        return;
    session_stop(u->s);
    session_wait(u->s, NULL);
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
    /* a finished search thread still needs joining; a running one means
     * the GUI forgot to stop */
    stop_search(u);
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
    const void *pos = session_state(u->s);
    int side = g->to_move(pos);
    if (side == PLAYER_TERMINAL) {
        /* the game is over: the side to move (read from the SFEN) has
         * either won by the impasse declaration or lost */
        double r[PLY_MAX_PLAYERS];
        char text[512];
        g->returns(pos, r);
        int mover = 0;
        if (g->to_text(pos, text, sizeof text) > 0) {
            const char *sp = strchr(text, ' ');
            mover = sp && sp[1] == 'w';
        }
        say(u, "bestmove %s", r[mover] > 0 ? "win" : "resign");
        return;
    }
    Limits lim = session_bot_limits(u->s);
    if (movetime || nodes || depth || any_time || infinite) {
        memset(&lim, 0, sizeof lim);
        if (movetime) {
            lim.time_ms = movetime;
            lim.spend_all = 1;  /* "search exactly" that long */
        }
        if (any_time) {
            /* GUIs and servers over the net: a 100 ms margin */
            Clock c = {.left_ms = side == 0 ? btime : wtime,
                       .inc_ms = side == 0 ? binc : winc,
                       .byoyomi_ms = byoyomi, .margin_ms = 100};
            int64_t t = time_budget(g, pos, &c, 1);
            if (!movetime || t < lim.time_ms) {
                lim.time_ms = t;
                lim.spend_all = time_spend_all(g, &c);
            }
        }
        lim.nodes = (uint64_t)nodes;
        lim.depth = depth > 200 ? 200 : (int)depth;
        /* a bot that cannot be stopped gets its own limits in infinite
         * mode, so that it finishes; bestmove still waits for stop */
        if (infinite && !lim.time_ms && !lim.nodes && !lim.depth &&
            !session_bot_can_stop(u->s))
            lim = session_bot_limits(u->s);
    }
    if (!lim.time_ms && !lim.nodes && !lim.depth && !infinite)
        lim.time_ms = 1000;    /* plain `go` with a bot without limits */
    PlyError err = {{0}};
    if (session_go(u->s, &lim, infinite || ponder, &err))
        say(u, "info string error %s", err.msg);
}

static void cmd_position(Usi *u, char *save)
{
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
    /* the rest of the line is the moves */
    PlyError err = {{0}};
    if (session_set_position(u->s, sfen, t ? save : NULL, &err))
        say(u, "info string error %s", err.msg);
}

/* The games that speak USI, by their USI names, joined by sep. */
static void usi_variants(char *buf, size_t n, const char *sep)
{
    const GameVtbl *gs[32];
    int k = games_with_format("usi", gs, 32);
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < k && i < 32 && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? sep : "",
                                format_variant_name(gs[i], "usi"));
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
        const GameVtbl *g = value ? game_by_variant("usi", value, NULL)
                                  : NULL;
        if (!g) {
            char vars[256];
            usi_variants(vars, sizeof vars, " or ");
            say(u, "info string error %s: variant must be %s", name, vars);
            return;
        }
        stop_search(u);
        set_game(u, g);
    } else if (!strcmp(name, "PlyBot")) {
        if (!value || strlen(value) >= sizeof u->spec) {
            say(u, "info string error PlyBot needs a bot spec");
            return;
        }
        PlyError err = {{0}};
        if (session_set_bot(u->s, value, &err)) {
            say(u, "info string error %s", err.msg);
            return;
        }
        snprintf(u->spec, sizeof u->spec, "%s", value);
    } else if (!strcmp(name, "USI_Ponder")) {
        /* sent by every GUI; pondering is the GUI's go ponder */
    } else if (bot_option_engine(session_bot_vtbl(u->s),
                                 !strcmp(name, "USI_Hash") ? "Hash" : name)) {
        /* an engine option of the bot's table: USI_Hash, Threads */
        PlyError err = {{0}};
        if (session_set_engine_option(
                u->s, !strcmp(name, "USI_Hash") ? "Hash" : name, value, &err))
            say(u, "info string error %s", err.msg);
        else
            snprintf(u->spec, sizeof u->spec, "%s", session_bot_spec(u->s));
    } else if (!strcmp(name, "USI_Hash")) {
        /* sent by every GUI; this bot has no table to size */
    } else {
        /* any other name is an option of the bot: "depth", "hash", ... */
        PlyError err = {{0}};
        if (session_set_bot_option(u->s, name, value, &err))
            say(u, "info string error unknown option '%s' (%s)", name,
                err.msg);
        else
            snprintf(u->spec, sizeof u->spec, "%s", session_bot_spec(u->s));
    }
}

static void say_line(void *user, const char *line)
{
    say(user, "%s", line);
}

/* USI names the hash option USI_Hash; the others keep their names. */
static const char *usi_name(const char *engine)
{
    return !strcmp(engine, "Hash") ? "USI_Hash" : engine;
}

static int usi_loop(Usi *u, FILE *in)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
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
            say(u, "id name Ply %s (%s)", ply_version(),
                session_bot_spec(u->s));
            say(u, "id author the Ply authors");
            char vars[256];
            usi_variants(vars, sizeof vars, " var ");
            say(u, "option name UCI_Variant type combo default %s var %s",
                format_variant_name(u->g, "usi"), vars);
            say(u, "option name PlyBot type string default %s",
                session_bot_spec(u->s));
            engopt_advertise(u->s, usi_name, say_line, u);
            say(u, "usiok");
        } else if (!strcmp(cmd, "isready")) {
            say(u, "readyok");
        } else if (!strcmp(cmd, "setoption")) {
            cmd_setoption(u, save);
        } else if (!strcmp(cmd, "usinewgame")) {
            PlyError err = {{0}};
            if (session_new_game(u->s, &err))
                say(u, "info string error %s", err.msg);
        } else if (!strcmp(cmd, "position")) {
            cmd_position(u, save);
        } else if (!strcmp(cmd, "go")) {
            cmd_go(u, save);
        } else if (!strcmp(cmd, "stop")) {
            stop_search(u);
        } else if (!strcmp(cmd, "ponderhit")) {
            /* the pondered move was played: bestmove may now be sent */
            session_ponderhit(u->s);
        } else if (!strcmp(cmd, "gameover")) {
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
    stop_search(u);
    return 0;
}

int usi_run(FILE *in, FILE *out, const char *game, const char *spec)
{
    const GameVtbl *g = game ? game_find(game)
                             : format_native_game("usi", NULL);
    if (!g || !game_format(g, "usi")) {
        /* the games that declare USI, by Ply's names */
        const GameVtbl *gs[32];
        int k = games_with_format("usi", gs, 32);
        fprintf(stderr, "ply usi: USI plays ");
        for (int i = 0; i < k && i < 32; i++)
            fprintf(stderr, "%s%s", i ? " or " : "", gs[i]->info.name);
        fprintf(stderr, ", not '%s'\n", game ? game : "");
        return 2;
    }
    Usi u;
    memset(&u, 0, sizeof u);
    u.out = out;
    pthread_mutex_init(&u.out_mu, NULL);
    if (spec)
        snprintf(u.spec, sizeof u.spec, "%s", spec);
    int rc = 0;
    PlyError err = {{0}};
    if (spec && strlen(spec) >= sizeof u.spec) {
        fprintf(stderr, "ply usi: bot spec too long\n");
        rc = 2;
    } else if (!(u.s = session_new(g, NULL, spec, 1, &err))) {
        fprintf(stderr, "ply usi: %s\n", err.msg);
        rc = 2;
    } else {
        u.g = g;
        session_on_info(u.s, on_info, on_done, &u);
        usi_loop(&u, in);
    }
    session_free(u.s);
    pthread_mutex_destroy(&u.out_mu);
    return rc;
}
