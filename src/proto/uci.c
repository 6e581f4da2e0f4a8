/* uci.c — the Universal Chess Interface over Ply's games and bots, and
 * its Chinese sibling UCCI for xiangqi (`ply ucci`).
 *
 * Supported: uci, isready, ucinewgame, setoption (the bot's engine
 * options from its option table, e.g. Hash and Threads as spin options;
 * any other key of the bot's table by its name; UCI_Variant: chess,
 * makruk, shatranj, xiangqi with Fairy-Stockfish's ranks 1-10; Bot: a Ply
 * bot spec), position startpos|fen ...
 * [moves ...], go (wtime btime winc binc movestogo movetime nodes depth
 * infinite ponder, and `go perft N` as Fairy-Stockfish has it), stop,
 * ponderhit, quit, and `d` to print the position. The search runs in a
 * thread on a copy of the position; its info lines and the bestmove are
 * written under a lock. Anything malformed is answered with an
 * `info string error: ...` line and otherwise ignored.
 *
 * UCCI (xiangqi only): ucci/ucciok, isready, setoption (bot <spec>,
 * usemillisec true|false; others ignored), position, go [ponder|draw]
 * [depth d | nodes n | time t [movestogo m | increment i] [opptime ...]]
 * (times in seconds unless usemillisec is on), stop, quit/bye,
 * nobestmove in a finished game. banmoves and probe are not supported. */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/bot.h"
#include "../core/format.h"
#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/util.h"
#include "../core/version.h"
#include "../tools/perft.h"
#include "engopt.h"
#include "uci.h"

typedef struct Uci {
    FILE *out;
    pthread_mutex_t out_lock;
    const GameVtbl *g;
    Session *s;
    char bot_spec[256];           /* "" = the game's default bot */
    uint64_t seed;
    int ucci, millisec;           /* UCCI mode; its times in ms */
} Uci;

static void say(Uci *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The game's format for this dialect: how its moves look on the wire
 * (xiangqi over UCI counts ranks 1-10, Ply and UCCI 0-9). */
static const GameFormat *wire(const Uci *u)
{
    return game_format(u->g, u->ucci ? "ucci" : "uci");
}

/* A move as the protocol writes it. */
static int wire_move(const Uci *u, const void *st, Move m, char *buf,
                     size_t n)
{
    char tmp[64];
    if (u->g->move_to_text(st, m, tmp, sizeof tmp) < 0)
        return -1;
    format_move_to_wire(wire(u), tmp, buf, n);
    return 0;
}

static void say(Uci *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out_lock);
    va_start(ap, fmt);
    vfprintf(u->out, fmt, ap);
    va_end(ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
}

static void say_line(void *user, const char *line)
{
    say(user, "%s", line);
}

/* ------------------------------------------------------------ search */

static void format_score(const SearchInfo *in, char *buf, size_t n)
{
    int v = in->value;
    if (v >= EVAL_WIN - 1000 || v <= -(EVAL_WIN - 1000)) {
        int plies = EVAL_WIN - (v < 0 ? -v : v);
        int moves = (plies + 1) / 2;
        snprintf(buf, n, "mate %d", v > 0 ? (moves ? moves : 1)
                                          : -(moves ? moves : 1));
    } else {
        snprintf(buf, n, "cp %d", v);
    }
}

/* The PV as text, played out on a copy and cut at the first move that is
 * not legal (a bot's PV may be stale). */
static void format_pv(const Uci *u, const void *st, const Move *pv, int n,
                      char *buf, size_t cap)
{
    const GameVtbl *g = u->g;
    void *c = malloc(g->info.state_size);
    size_t len = 0;
    buf[0] = 0;
    if (!c)
        return;
    memcpy(c, st, g->info.state_size);
    for (int i = 0; i < n && i < SEARCH_MAX_PV; i++) {
        char mv[64];
        if (g->to_move(c) < 0 || !state_is_legal(g, c, pv[i]) ||
            wire_move(u, c, pv[i], mv, sizeof mv) < 0)
            break;
        if (len + strlen(mv) + 2 >= cap)
            break;
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
                                mv);
        g->make(c, pv[i]);
    }
    free(c);
}

static void on_info(void *user, const void *root, const SearchInfo *in)
{
    Uci *u = user;
    char score[32], pv[2048];
    format_score(in, score, sizeof score);
    format_pv(u, root, in->pv, in->pv_len, pv, sizeof pv);
    int64_t ms = session_search_ms(u->s);
    say(u, "info depth %d seldepth %d score %s nodes %llu nps %llu time "
        "%lld%s%s", in->depth, in->seldepth, score,
        (unsigned long long)in->nodes,
        (unsigned long long)(ms > 0 ? in->nodes * 1000 / (uint64_t)ms : 0),
        (long long)ms, pv[0] ? " pv " : "", pv);
}

static void on_done(void *user, const void *root, Move m,
                    const SearchInfo *si)
{
    Uci *u = user;
    const GameVtbl *g = u->g;
    SearchInfo info = *si;
    if (!state_is_legal(g, root, m)) {
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        int n = mv ? g->gen_moves(root, mv) : 0;
        say(u, "info string error: the bot chose an illegal move; "
            "playing the first legal one");
        m = n > 0 ? mv[0] : 0;
        free(mv);
    }
    char mv[64];
    if (wire_move(u, root, m, mv, sizeof mv) < 0)
        snprintf(mv, sizeof mv, "0000");
    /* a closing info line with what the bot reported */
    if (info.pv_len < 1 || info.pv[0] != m) {
        info.pv[0] = m;
        info.pv_len = 1;
    }
    on_info(u, root, &info);
    say(u, "bestmove %s", mv);
}

/* Joins a search thread that has finished on its own. */
static void reap(Uci *u)
{
    if (session_searching(u->s) && session_search_done(u->s))
        session_wait(u->s, NULL);
}

/* Waits for a search with limits to end; an infinite one (or pondering)
 * ends only with stop: then -1. */
static int finish(Uci *u)
{
    if (session_search_endless(u->s))
        return -1;
    session_wait(u->s, NULL);
    return 0;
}

static void stop_search(Uci *u)
{
    if (!session_searching(u->s))
        return;
    session_stop(u->s);
    session_wait(u->s, NULL);
}

/* ---------------------------------------------------------- commands */

static int new_bot(Uci *u, const char *spec)
{
    PlyError err = {{0}};
    if (session_set_bot(u->s, spec, &err)) {
        say(u, "info string error: %s", err.msg);
        return -1;
    }
    snprintf(u->bot_spec, sizeof u->bot_spec, "%s", spec);
    return 0;
}

static int set_variant(Uci *u, const char *name)
{
    const GameVtbl *g = game_by_variant(u->ucci ? "ucci" : "uci", name,
                                        NULL);
    if (!g) {
        say(u, "info string error: unknown variant '%s' here (UCI: chess, "
            "makruk, shatranj, xiangqi; UCCI: xiangqi)", name);
        return -1;
    }
    PlyError err = {{0}};
    Session *s = session_new(g, NULL, u->bot_spec[0] ? u->bot_spec : NULL,
                             u->seed, &err);
    if (!s) {
        say(u, "info string error: %s", err.msg);
        return -1;
    }
    session_free(u->s);
    u->s = s;
    u->g = g;
    session_on_info(s, on_info, on_done, u);
    return 0;
}

static void cmd_setoption(Uci *u, char *args)
{
    if (u->ucci && strncmp(args, "name ", 5)) {
        /* UCCI: setoption <name> <value> */
        char *save = NULL, *name = strtok_r(args, " \t", &save);
        char *value = save;
        while (value && (*value == ' ' || *value == '\t'))
            value++;
        if (!name)
            say(u, "info string error: setoption needs a name");
        else if (!strcmp(name, "bot") && value && *value)
            new_bot(u, value);
        else if (!strcmp(name, "usemillisec") && value)
            u->millisec = !strcmp(value, "true") || !strcmp(value, "on");
        else
            say(u, "info string option '%.40s' ignored", name);
        return;
    }
    /* setoption name <id...> [value <x...>] */
    char *name = strstr(args, "name ");
    if (!name) {
        say(u, "info string error: setoption needs 'name'");
        return;
    }
    name += 5;
    char *value = strstr(name, " value ");
    if (value) {
        *value = 0;
        value += 7;
        while (*value == ' ')
            value++;
    }
    while (*name == ' ')
        name++;
    size_t nl = strlen(name);
    while (nl && name[nl - 1] == ' ')
        name[--nl] = 0;
    if (!strcasecmp(name, "UCI_Variant")) {
        if (!value || !*value)
            say(u, "info string error: UCI_Variant needs a value");
        else
            set_variant(u, value);
    } else if (!strcasecmp(name, "Bot")) {
        if (!value || !*value)
            say(u, "info string error: Bot needs a value");
        else
            new_bot(u, value);
    } else if (bot_option_engine(session_bot_vtbl(u->s), name)) {
        /* an engine option of the bot's table: Hash, Threads */
        PlyError err = {{0}};
        if (session_set_engine_option(u->s, name, value, &err))
            say(u, "info string error: %s", err.msg);
        else
            snprintf(u->bot_spec, sizeof u->bot_spec, "%s",
                     session_bot_spec(u->s));
    } else {
        /* any other name is an option of the bot: "depth", "hash", ... */
        PlyError err = {{0}};
        if (session_set_bot_option(u->s, name, value, &err))
            say(u, "info string error: unknown option '%s' (%s)", name,
                err.msg);
        else
            snprintf(u->bot_spec, sizeof u->bot_spec, "%s",
                     session_bot_spec(u->s));
    }
}

static void cmd_position(Uci *u, char *args)
{
    char *save = NULL;
    char *tok = strtok_r(args, " \t", &save);
    char fen[512] = "";
    if (!tok) {
        say(u, "info string error: position needs startpos or fen");
        return;
    }
    if (!strcmp(tok, "fen")) {
        size_t len = 0;
        while ((tok = strtok_r(NULL, " \t", &save)) && strcmp(tok, "moves")) {
            size_t tl = strlen(tok);
            if (len + tl + 2 > sizeof fen) {
                say(u, "info string error: FEN too long");
                return;
            }
            if (len)
                fen[len++] = ' ';
            memcpy(fen + len, tok, tl + 1);
            len += tl;
        }
        if (!len) {
            say(u, "info string error: position fen needs a FEN");
            return;
        }
    } else if (!strcmp(tok, "startpos")) {
        tok = strtok_r(NULL, " \t", &save);
    } else {
        say(u, "info string error: position needs startpos or fen, not "
            "'%.40s'", tok);
        return;
    }
    const char *moves = NULL;
    if (tok) {
        if (strcmp(tok, "moves")) {
            say(u, "info string error: expected 'moves', not '%.40s'", tok);
            return;
        }
        moves = save;   /* the rest of the line */
    }
    char *shifted = NULL;
    if (moves && wire(u) && wire(u)->move_from_wire) {
        shifted = format_moves_from_wire(wire(u), moves);
        if (!shifted) {
            say(u, "info string error: no memory");
            return;
        }
        moves = shifted;
    }
    PlyError err = {{0}};
    if (session_set_position(u->s, fen[0] ? fen : NULL, moves, &err))
        say(u, "info string error: %s (position unchanged%s)", err.msg,
            shifted ? "; xiangqi ranks are read as 1-10 and shown as 0-9"
                    : "");
    free(shifted);
}

static int parse_i64(const char *s, long long *v)
{
    char *end;
    if (!s)
        return -1;
    *v = strtoll(s, &end, 10);
    return end == s || *end ? -1 : 0;
}

static void cmd_perft(Uci *u, int depth)
{
    const GameVtbl *g = u->g;
    const void *pos = session_state(u->s);
    if (g->to_move(pos) < 0) {
        say(u, "Nodes searched: 0");
        return;
    }
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    void *c = malloc(g->info.state_size);
    if (!mv || !c) {
        free(mv);
        free(c);
        return;
    }
    int n = g->gen_moves(pos, mv);
    uint64_t total = 0;
    int64_t t0 = now_ms();
    for (int i = 0; i < n; i++) {
        char buf[64];
        memcpy(c, pos, g->info.state_size);
        g->make(c, mv[i]);
        uint64_t k = perft(g, c, depth - 1, 0);
        total += k;
        wire_move(u, pos, mv[i], buf, sizeof buf);
        say(u, "%s: %llu", buf, (unsigned long long)k);
    }
    int64_t ms = now_ms() - t0;
    say(u, "\nNodes searched: %llu", (unsigned long long)total);
    say(u, "info string perft %d time %lld ms nps %llu", depth,
        (long long)ms,
        (unsigned long long)(ms > 0 ? total * 1000 / (uint64_t)ms : 0));
    free(mv);
    free(c);
}

static void cmd_go(Uci *u, char *args)
{
    long long wtime = -1, btime = -1, winc = 0, binc = 0, togo = 0;
    long long movetime = -1, nodes = -1, depth = -1, perft_depth = -1;
    long long mytime_u = -1, myinc_u = 0, ignored = 0;   /* UCCI */
    int infinite = 0;
    char *save = NULL;
    for (char *tok = strtok_r(args, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        long long *dst = NULL;
        if (!strcmp(tok, "infinite") || !strcmp(tok, "ponder")) {
            infinite = 1;
            continue;
        }
        if (u->ucci && !strcmp(tok, "draw"))
            continue;   /* a draw offer: not taken */
        if (u->ucci && !strcmp(tok, "time")) dst = &mytime_u;
        else if (u->ucci && !strcmp(tok, "increment")) dst = &myinc_u;
        else if (u->ucci && (!strcmp(tok, "opptime") ||
                             !strcmp(tok, "oppincrement") ||
                             !strcmp(tok, "oppmovestogo"))) dst = &ignored;
        else if (!strcmp(tok, "wtime")) dst = &wtime;
        else if (!strcmp(tok, "btime")) dst = &btime;
        else if (!strcmp(tok, "winc")) dst = &winc;
        else if (!strcmp(tok, "binc")) dst = &binc;
        else if (!strcmp(tok, "movestogo")) dst = &togo;
        else if (!strcmp(tok, "movetime")) dst = &movetime;
        else if (!strcmp(tok, "nodes")) dst = &nodes;
        else if (!strcmp(tok, "depth")) dst = &depth;
        else if (!strcmp(tok, "perft")) dst = &perft_depth;
        else if (!strcmp(tok, "mate") || !strcmp(tok, "searchmoves")) {
            say(u, "info string error: go %s is not supported, ignored",
                tok);
            continue;
        } else {
            say(u, "info string error: go: unknown parameter '%.40s'", tok);
            return;
        }
        char *val = strtok_r(NULL, " \t", &save);
        if (parse_i64(val, dst) || *dst < 0 || *dst > 1000000000000ll) {
            say(u, "info string error: go %s needs a number >= 0", tok);
            return;
        }
    }
    if (perft_depth >= 0) {
        if (perft_depth < 1 || perft_depth > 20)
            say(u, "info string error: go perft needs a depth 1..20");
        else
            cmd_perft(u, (int)perft_depth);
        return;
    }
    const GameVtbl *g = u->g;
    const void *pos = session_state(u->s);
    if (g->to_move(pos) < 0) {
        say(u, "info string the game is over in this position");
        say(u, u->ucci ? "nobestmove" : "bestmove 0000");
        return;
    }
    Limits lim = session_bot_limits(u->s);
    int side = g->to_move(pos);
    long long mytime = side ? btime : wtime, myinc = side ? binc : winc;
    if (u->ucci) {
        int scale = u->millisec ? 1 : 1000;
        mytime = mytime_u >= 0 ? mytime_u * scale : -1;
        myinc = myinc_u * scale;
    }
    if (movetime >= 0 || mytime >= 0 || nodes >= 0 || depth >= 0 || infinite)
        lim.time_ms = 0, lim.nodes = 0, lim.depth = 0;
    else if (!lim.time_ms && !lim.nodes && !lim.depth)
        infinite = 1;   /* a bare go with a bot without limits: until stop */
    if (movetime >= 0) {
        lim.time_ms = movetime > 0 ? movetime : 1;
        lim.spend_all = 1;      /* "search exactly" that long */
    } else if (mytime >= 0) {
        Clock c = {.left_ms = mytime, .inc_ms = myinc,
                   .moves_to_go = (int)(togo < 1000 ? togo : 1000)};
        lim.time_ms = time_budget(g, pos, &c, u->seed);
    }
    if (nodes >= 0)
        lim.nodes = nodes > 0 ? (uint64_t)nodes : 1;
    if (depth >= 0)
        lim.depth = depth > 0 ? (depth > 200 ? 200 : (int)depth) : 1;
    PlyError err = {{0}};
    if (session_go(u->s, &lim, infinite, &err))
        say(u, "info string error: %s", err.msg);
}

static void cmd_uci(Uci *u)
{
    char vars[256] = "";
    const GameVtbl *gs[32];
    int n = games_with_format("uci", gs, 32);
    for (int i = 0; i < n && i < 32; i++) {
        strncat(vars, " var ", sizeof vars - strlen(vars) - 1);
        strncat(vars, format_variant_name(gs[i], "uci"),
                sizeof vars - strlen(vars) - 1);
    }
    const GameVtbl *first = format_native_game("uci", NULL);
    say(u, "id name Ply %s", ply_version());
    say(u, "id author the Ply authors");
    say(u, "option name UCI_Variant type combo default %s%s",
        first ? format_variant_name(first, "uci") : "", vars);
    say(u, "option name Bot type string default %s",
        session_bot_spec(u->s));
    engopt_advertise(u->s, NULL, say_line, u);
    say(u, "uciok");
}

static void cmd_ucci(Uci *u)
{
    say(u, "id name Ply %s", ply_version());
    say(u, "id author the Ply authors");
    say(u, "option usemillisec type check default false");
    say(u, "option bot type string default %s", session_bot_spec(u->s));
    say(u, "ucciok");
}

static void cmd_d(Uci *u)
{
    char buf[4096], fen[512];
    const void *pos = session_state(u->s);
    if (u->g->render(pos, buf, sizeof buf) < 0)
        buf[0] = 0;
    if (u->g->to_text(pos, fen, sizeof fen) < 0)
        fen[0] = 0;
    say(u, "%sFen: %s", buf, fen);
}

static int run(FILE *in, FILE *out, const char *bot_spec, uint64_t seed,
               int ucci)
{
    Uci u;
    memset(&u, 0, sizeof u);
    u.out = out;
    u.seed = seed;
    u.ucci = ucci;
    pthread_mutex_init(&u.out_lock, NULL);
    snprintf(u.bot_spec, sizeof u.bot_spec, "%s", bot_spec ? bot_spec : "");
    int rc = 0;
    const GameVtbl *start = format_native_game(ucci ? "ucci" : "uci", NULL);
    if (!start ||
        set_variant(&u, format_variant_name(start, ucci ? "ucci" : "uci"))) {
        rc = 2;
        goto done;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            continue;
        char *args = p;
        while (*args && *args != ' ' && *args != '\t')
            args++;
        if (*args)
            *args++ = 0;
        reap(&u);
        if (!strcmp(p, "quit")) {
            break;
        } else if (!strcmp(p, "uci") && !ucci) {
            cmd_uci(&u);
        } else if (!strcmp(p, "ucci") && ucci) {
            cmd_ucci(&u);
        } else if (!strcmp(p, "isready")) {
            say(&u, "readyok");
        } else if (!strcmp(p, "stop")) {
            stop_search(&u);
        } else if (!strcmp(p, "ponderhit")) {
            session_ponderhit(u.s);
        } else if (!strcmp(p, "debug") || !strcmp(p, "register")) {
            /* accepted and ignored */
        } else if (finish(&u)) {
            /* the position and the bot belong to the search thread */
            say(&u, "info string error: '%s' during an infinite search "
                "(send stop first)", p);
        } else if (!strcmp(p, "ucinewgame") && !ucci) {
            PlyError err = {{0}};
            if (session_new_game(u.s, &err))
                say(&u, "info string error: %s", err.msg);
        } else if (!strcmp(p, "setoption")) {
            cmd_setoption(&u, args);
        } else if (!strcmp(p, "position")) {
            cmd_position(&u, args);
        } else if (!strcmp(p, "go")) {
            cmd_go(&u, args);
        } else if (!strcmp(p, "d")) {
            cmd_d(&u);
        } else {
            say(&u, "info string error: unknown command '%.40s'", p);
        }
    }
    free(line);
    stop_search(&u);
    if (ucci)
        say(&u, "bye");
done:
    session_free(u.s);
    pthread_mutex_destroy(&u.out_lock);
    return rc;
}

int uci_run(FILE *in, FILE *out, const char *bot_spec, uint64_t seed)
{
    return run(in, out, bot_spec, seed, 0);
}

int ucci_run(FILE *in, FILE *out, const char *bot_spec, uint64_t seed)
{
    return run(in, out, bot_spec, seed, 1);
}
