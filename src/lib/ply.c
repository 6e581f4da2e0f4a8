/* ply.c — the public C API (include/ply.h) over core, games, search and
 * tools. A layer of its own: it includes core, search's bots through the
 * registry, and tools (the referee and matches); nothing includes it but
 * the library's users. No global mutable state: every handle owns what it
 * uses.
 *
 * ply.h and the internal headers both name an error struct PlyError; the
 * public one is read here as PlyApiError. */
#define PlyError PlyApiError
#include "../../include/ply.h"
#undef PlyError

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/format.h"
#include "../core/game.h"
#include "../core/options.h"
#include "../core/record.h"
#include "../core/registry.h"
#include "../core/rng.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/version.h"
#include "../tools/match.h"
#include "../tools/referee.h"

_Static_assert((int)PLY_PLAYER_TERMINAL == (int)PLAYER_TERMINAL &&
               (int)PLY_PLAYER_CHANCE == (int)PLAYER_CHANCE &&
               (int)PLY_PLAYERS_MAX == (int)PLY_MAX_PLAYERS, "players");
_Static_assert((int)PLY_GAME_ZERO_SUM == (int)GAME_ZERO_SUM &&
               (int)PLY_GAME_CHANCE == (int)GAME_CHANCE &&
               (int)PLY_GAME_HIDDEN == (int)GAME_HIDDEN &&
               (int)PLY_GAME_IMPARTIAL == (int)GAME_IMPARTIAL, "game flags");
_Static_assert((int)PLY_MAX_PV == (int)SEARCH_MAX_PV, "pv length");
_Static_assert(sizeof(PlyMove) == sizeof(Move), "moves");

/* ------------------------------------------------------------ errors */

static int fail(PlyApiError *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(PlyApiError *err, int code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* An internal error's message under a public code. */
static int fail_from(PlyApiError *err, int code, const PlyError *ie,
                     const char *fallback)
{
    return fail(err, code, "%s", ie->msg[0] ? ie->msg : fallback);
}

static void ok(PlyApiError *err)
{
    if (err) {
        err->code = PLY_OK;
        err->message[0] = 0;
    }
}

const char *ply_error_name(int code)
{
    static const char *const names[] = {
        "PLY_OK", "PLY_E_ARGUMENT", "PLY_E_NOT_FOUND", "PLY_E_PARSE",
        "PLY_E_ILLEGAL", "PLY_E_STATE", "PLY_E_MEMORY", "PLY_E_RANGE",
        "PLY_E_FAILED",
    };
    if (code < 0 || code >= (int)(sizeof names / sizeof names[0]))
        return "PLY_E_UNKNOWN";
    return names[code];
}

int ply_api_version(void)
{
    return PLY_API_VERSION;
}

void ply_free(void *p)
{
    free(p);
}

/* Text from a hook writing into (buf, n) that returns a length or -1. */
static int text_result(int len, size_t n, PlyApiError *err, const char *what)
{
    if (len < 0 || (size_t)len >= n)
        return fail(err, PLY_E_RANGE, "%s does not fit in %zu bytes", what,
                    n);
    ok(err);
    return len;
}

/* ------------------------------------------------------------ games */

/* Cuts a ", "-separated list to fit an error message, ending in "...". */
static void shorten_list(char *list)
{
    enum { KEEP = 160 };
    if (strlen(list) <= KEEP)
        return;
    list[KEEP] = 0;
    char *comma = strrchr(list, ',');
    if (comma)
        strcpy(comma, ", ...");
}

static const GameVtbl *G(const PlyGame *g)
{
    return (const GameVtbl *)g;
}

int ply_game_count(void)
{
    int n = 0;
    while (ply_games[n])
        n++;
    return n;
}

const PlyGame *ply_game_at(int i)
{
    if (i < 0 || i >= ply_game_count())
        return NULL;
    return (const PlyGame *)ply_games[i];
}

const PlyGame *ply_game_find(const char *name, PlyApiError *err)
{
    const GameVtbl *g = name ? game_find(name) : NULL;
    if (!g) {
        char list[1024] = "";
        for (int i = 0; ply_games[i]; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "",
                     ply_games[i]->info.name);
        }
        shorten_list(list);
        fail(err, PLY_E_NOT_FOUND, "unknown game '%.60s' (games: %s)",
             name ? name : "(null)", list);
        return NULL;
    }
    ok(err);
    return (const PlyGame *)g;
}

const char *ply_game_name(const PlyGame *g)
{
    return g ? G(g)->info.name : NULL;
}

const char *ply_game_title(const PlyGame *g)
{
    return g ? G(g)->info.title : NULL;
}

int ply_game_num_players(const PlyGame *g)
{
    return g ? G(g)->info.num_players : 0;
}

const char *ply_game_player_name(const PlyGame *g, int player)
{
    if (!g || player < 0 || player >= G(g)->info.num_players ||
        !G(g)->info.player_names)
        return NULL;
    return G(g)->info.player_names[player];
}

unsigned ply_game_flags(const PlyGame *g)
{
    return g ? G(g)->info.flags : 0;
}

int ply_game_max_moves(const PlyGame *g)
{
    return g ? G(g)->info.max_moves : 0;
}

int ply_game_max_length(const PlyGame *g)
{
    return g ? G(g)->info.max_game_length : 0;
}

const char *ply_game_notation(const PlyGame *g)
{
    return g && G(g)->info.notation ? G(g)->info.notation : "";
}

const char *ply_game_rules(const PlyGame *g)
{
    return g && G(g)->info.rules ? G(g)->info.rules : "";
}

const char *ply_game_default_bot(const PlyGame *g)
{
    return g ? game_default_bot(G(g)) : NULL;
}

int ply_game_option_count(const PlyGame *g)
{
    return g && G(g)->info.options ? option_count(G(g)->info.options) : 0;
}

const char *ply_game_option_key(const PlyGame *g, int i)
{
    if (i < 0 || i >= ply_game_option_count(g))
        return NULL;
    return G(g)->info.options[i].key;
}

static int describe(const Option *o, char *buf, size_t n, PlyApiError *err)
{
    if (!buf || n == 0)
        return fail(err, PLY_E_ARGUMENT, "no buffer");
    return text_result(option_describe(o, buf, n), n, err, "the option");
}

int ply_game_option_describe(const PlyGame *g, int i, char *buf, size_t n,
                             PlyApiError *err)
{
    if (i < 0 || i >= ply_game_option_count(g))
        return fail(err, PLY_E_ARGUMENT, "no option %d", i);
    return describe(&G(g)->info.options[i], buf, n, err);
}

int ply_game_format_count(const PlyGame *g)
{
    int n = 0;
    if (g && G(g)->formats)
        while (G(g)->formats[n])
            n++;
    return n;
}

const char *ply_game_format_name(const PlyGame *g, int i)
{
    if (i < 0 || i >= ply_game_format_count(g))
        return NULL;
    return G(g)->formats[i]->name;
}

/* ------------------------------------------------------------ bot types */

static const BotVtbl *BT(const PlyBotType *t)
{
    return (const BotVtbl *)t;
}

int ply_bot_type_count(void)
{
    int n = 0;
    while (ply_bots[n])
        n++;
    return n;
}

const PlyBotType *ply_bot_type_at(int i)
{
    if (i < 0 || i >= ply_bot_type_count())
        return NULL;
    return (const PlyBotType *)ply_bots[i];
}

const PlyBotType *ply_bot_type_find(const char *name, PlyApiError *err)
{
    const BotVtbl *v = name ? bot_find(name) : NULL;
    if (!v) {
        char list[512] = "";
        for (int i = 0; ply_bots[i]; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "",
                     ply_bots[i]->name);
        }
        shorten_list(list);
        fail(err, PLY_E_NOT_FOUND, "unknown bot '%.60s' (bots: %s)",
             name ? name : "(null)", list);
        return NULL;
    }
    ok(err);
    return (const PlyBotType *)v;
}

const char *ply_bot_type_name(const PlyBotType *t)
{
    return t ? BT(t)->name : NULL;
}

const char *ply_bot_type_help(const PlyBotType *t)
{
    return t && BT(t)->help ? BT(t)->help : "";
}

int ply_bot_type_option_count(const PlyBotType *t)
{
    return t ? bot_option_count(BT(t)) : 0;
}

const char *ply_bot_type_option_key(const PlyBotType *t, int i)
{
    if (i < 0 || i >= ply_bot_type_option_count(t))
        return NULL;
    return bot_option_at(BT(t), i)->key;
}

int ply_bot_type_option_describe(const PlyBotType *t, int i, char *buf,
                                 size_t n, PlyApiError *err)
{
    if (i < 0 || i >= ply_bot_type_option_count(t))
        return fail(err, PLY_E_ARGUMENT, "no option %d", i);
    return describe(bot_option_at(BT(t), i), buf, n, err);
}

/* ------------------------------------------------------------ states */

struct PlyState {
    const GameVtbl *g;
    size_t sz;
    unsigned char *cur;         /* the position */
    unsigned char *hist;        /* n positions: the one before moves[i] */
    Move *moves;
    int n, cap;
    int view;                   /* a search's root lent to a callback:
                                 * read only, owns nothing */
};

static PlyState *state_make(const GameVtbl *g, PlyApiError *err)
{
    PlyState *s = calloc(1, sizeof *s);
    if (s) {
        s->g = g;
        s->sz = g->info.state_size;
        s->cur = calloc(1, s->sz);
    }
    if (!s || !s->cur) {
        free(s);
        fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    return s;
}

/* A read-only view of a state blob (callbacks). */
static PlyState state_view(const GameVtbl *g, const void *st)
{
    PlyState v = {.g = g, .sz = g->info.state_size,
                  .cur = (unsigned char *)st, .view = 1};
    return v;
}

PlyState *ply_state_new(const PlyGame *g, const char *options,
                        const char *setup, uint64_t seed, PlyApiError *err)
{
    if (!g) {
        fail(err, PLY_E_ARGUMENT, "no game");
        return NULL;
    }
    PlyState *s = state_make(G(g), err);
    if (!s)
        return NULL;
    PlyError ie = {{0}};
    if (state_setup(G(g), s->cur, options, setup, seed, &ie)) {
        fail_from(err, PLY_E_PARSE, &ie, "bad options or setup");
        ply_state_free(s);
        return NULL;
    }
    ok(err);
    return s;
}

PlyState *ply_state_clone(const PlyState *s, PlyApiError *err)
{
    if (!s) {
        fail(err, PLY_E_ARGUMENT, "no state");
        return NULL;
    }
    PlyState *c = state_make(s->g, err);
    if (!c)
        return NULL;
    memcpy(c->cur, s->cur, s->sz);
    if (!s->view && s->n) {
        c->hist = malloc(s->sz * (size_t)s->n);
        c->moves = malloc(sizeof(Move) * (size_t)s->n);
        if (!c->hist || !c->moves) {
            ply_state_free(c);
            fail(err, PLY_E_MEMORY, "out of memory");
            return NULL;
        }
        memcpy(c->hist, s->hist, s->sz * (size_t)s->n);
        memcpy(c->moves, s->moves, sizeof(Move) * (size_t)s->n);
        c->n = c->cap = s->n;
    }
    ok(err);
    return c;
}

void ply_state_free(PlyState *s)
{
    if (!s || s->view)
        return;
    free(s->cur);
    free(s->hist);
    free(s->moves);
    free(s);
}

const PlyGame *ply_state_game(const PlyState *s)
{
    return s ? (const PlyGame *)s->g : NULL;
}

int ply_state_current_player(const PlyState *s)
{
    return s ? s->g->to_move(s->cur) : PLAYER_TERMINAL;
}

int ply_state_num_players(const PlyState *s)
{
    return s ? state_seats(s->g, s->cur, NULL) : 0;
}

const char *ply_state_player_name(const PlyState *s, int player)
{
    if (!s || player < 0 || player >= state_seats(s->g, s->cur, NULL) ||
        !s->g->info.player_names)
        return NULL;
    return state_seat_name(s->g, s->cur, player);
}

int ply_state_is_terminal(const PlyState *s)
{
    return !s || s->g->to_move(s->cur) == PLAYER_TERMINAL;
}

enum { STACK_MOVES = 1024 };

int ply_state_legal_moves(const PlyState *s, PlyMove *out, int max)
{
    if (!s || s->g->to_move(s->cur) == PLAYER_TERMINAL)
        return 0;
    Move local[STACK_MOVES];
    Move *mv = local;
    if (s->g->info.max_moves > STACK_MOVES &&
        !(mv = malloc(sizeof(Move) * (size_t)s->g->info.max_moves)))
        return -1;
    int n = s->g->gen_moves(s->cur, mv);
    if (out)
        for (int i = 0; i < n && i < max; i++)
            out[i] = mv[i];
    if (mv != local)
        free(mv);
    return n;
}

int ply_state_chance_outcomes(const PlyState *s, PlyMove *out, double *p,
                              int max)
{
    if (!s || s->g->to_move(s->cur) != PLAYER_CHANCE ||
        !s->g->chance_outcomes)
        return 0;
    int cap = s->g->info.max_moves;
    Move *mv = malloc(sizeof(Move) * (size_t)cap);
    double *pr = malloc(sizeof(double) * (size_t)cap);
    int n = -1;
    if (mv && pr) {
        n = s->g->chance_outcomes(s->cur, mv, pr);
        for (int i = 0; i < n && i < max; i++) {
            if (out)
                out[i] = mv[i];
            if (p)
                p[i] = pr[i];
        }
    }
    free(mv);
    free(pr);
    return n;
}

int ply_state_move_to_text(const PlyState *s, PlyMove m, char *buf,
                           size_t n, PlyApiError *err)
{
    if (!s || !buf || n == 0)
        return fail(err, PLY_E_ARGUMENT, "no state or buffer");
    if (!state_is_legal(s->g, s->cur, m))
        return fail(err, PLY_E_ILLEGAL, "move %llu is not legal here",
                    (unsigned long long)m);
    return text_result(s->g->move_to_text(s->cur, m, buf, n), n, err,
                       "the move");
}

int ply_state_parse_move(const PlyState *s, const char *text, PlyMove *m,
                         PlyApiError *err)
{
    if (!s || !text || !m)
        return fail(err, PLY_E_ARGUMENT, "no state, text or move");
    if (s->g->to_move(s->cur) == PLAYER_TERMINAL)
        return fail(err, PLY_E_STATE, "the game is over");
    PlyError ie = {{0}};
    Move mv = 0;
    if (s->g->text_to_move(s->cur, text, &mv, &ie))
        return ie.msg[0] ? fail_from(err, PLY_E_ILLEGAL, &ie, "")
                         : fail(err, PLY_E_ILLEGAL,
                                "'%.60s' is not a legal move", text);
    if (!state_is_legal(s->g, s->cur, mv))
        return fail(err, PLY_E_ILLEGAL, "'%.60s' is not a legal move", text);
    *m = mv;
    ok(err);
    return 0;
}

int ply_state_apply(PlyState *s, PlyMove m, PlyApiError *err)
{
    if (!s)
        return fail(err, PLY_E_ARGUMENT, "no state");
    if (s->view)
        return fail(err, PLY_E_STATE, "a search's root is read only");
    if (s->g->to_move(s->cur) == PLAYER_TERMINAL)
        return fail(err, PLY_E_STATE, "the game is over");
    if (!state_is_legal(s->g, s->cur, m))
        return fail(err, PLY_E_ILLEGAL, "move %llu is not legal here",
                    (unsigned long long)m);
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        unsigned char *h = realloc(s->hist, s->sz * (size_t)cap);
        if (!h)
            return fail(err, PLY_E_MEMORY, "out of memory");
        s->hist = h;
        Move *mv = realloc(s->moves, sizeof(Move) * (size_t)cap);
        if (!mv)
            return fail(err, PLY_E_MEMORY, "out of memory");
        s->moves = mv;
        s->cap = cap;
    }
    memcpy(s->hist + s->sz * (size_t)s->n, s->cur, s->sz);
    s->moves[s->n++] = m;
    s->g->make(s->cur, m);
    ok(err);
    return 0;
}

int ply_state_apply_text(PlyState *s, const char *text, PlyApiError *err)
{
    PlyMove m;
    if (ply_state_parse_move(s, text, &m, err))
        return -1;
    return ply_state_apply(s, m, err);
}

int ply_state_undo(PlyState *s, PlyApiError *err)
{
    if (!s)
        return fail(err, PLY_E_ARGUMENT, "no state");
    if (s->view)
        return fail(err, PLY_E_STATE, "a search's root is read only");
    if (s->n == 0)
        return fail(err, PLY_E_STATE, "no move to take back");
    s->n--;
    memcpy(s->cur, s->hist + s->sz * (size_t)s->n, s->sz);
    ok(err);
    return 0;
}

int ply_state_history_length(const PlyState *s)
{
    return s ? s->n : 0;
}

PlyMove ply_state_history_move(const PlyState *s, int i)
{
    if (!s || i < 0 || i >= s->n)
        return 0;
    return s->moves[i];
}

int ply_state_returns(const PlyState *s, double *out, int max)
{
    if (!s)
        return 0;
    int np = state_seats(s->g, s->cur, NULL);
    double r[PLY_MAX_PLAYERS] = {0};
    if (s->g->to_move(s->cur) == PLAYER_TERMINAL)
        s->g->returns(s->cur, r);
    for (int i = 0; out && i < np && i < max; i++)
        out[i] = r[i];
    return np;
}

int ply_state_to_text(const PlyState *s, char *buf, size_t n,
                      PlyApiError *err)
{
    if (!s || !buf || n == 0)
        return fail(err, PLY_E_ARGUMENT, "no state or buffer");
    return text_result(s->g->to_text(s->cur, buf, n), n, err,
                       "the setup string");
}

int ply_state_render(const PlyState *s, char *buf, size_t n,
                     PlyApiError *err)
{
    if (!s || !buf || n == 0)
        return fail(err, PLY_E_ARGUMENT, "no state or buffer");
    return text_result(s->g->render(s->cur, buf, n), n, err, "the picture");
}

uint64_t ply_state_hash(const PlyState *s)
{
    return s ? s->g->hash(s->cur) : 0;
}

static int hidden(const GameVtbl *g)
{
    return (g->info.flags & GAME_HIDDEN) && g->observe && g->determinize;
}

PlyState *ply_state_observation(const PlyState *s, int player,
                                PlyApiError *err)
{
    if (!s) {
        fail(err, PLY_E_ARGUMENT, "no state");
        return NULL;
    }
    if (player < 0 || player >= s->g->info.num_players) {
        fail(err, PLY_E_ARGUMENT, "no player %d in %s", player,
             s->g->info.name);
        return NULL;
    }
    PlyState *o = state_make(s->g, err);
    if (!o)
        return NULL;
    if (hidden(s->g))
        s->g->observe(s->cur, player, o->cur);
    else
        memcpy(o->cur, s->cur, s->sz);
    ok(err);
    return o;
}

PlyState *ply_state_determinize(const PlyState *obs, int player,
                                uint64_t seed, PlyApiError *err)
{
    if (!obs) {
        fail(err, PLY_E_ARGUMENT, "no state");
        return NULL;
    }
    if (player < 0 || player >= obs->g->info.num_players) {
        fail(err, PLY_E_ARGUMENT, "no player %d in %s", player,
             obs->g->info.name);
        return NULL;
    }
    PlyState *d = state_make(obs->g, err);
    if (!d)
        return NULL;
    if (hidden(obs->g)) {
        Rng r;
        rng_seed(&r, seed);
        obs->g->determinize(obs->cur, player, &r, d->cur);
    } else {
        memcpy(d->cur, obs->cur, obs->sz);
    }
    ok(err);
    return d;
}

/* ------------------------------------------------------------ bots */

static void info_out(const SearchInfo *si, PlySearchInfo *o)
{
    memset(o, 0, sizeof *o);
    o->best = si->best;
    o->value = si->value;
    o->proven = si->proven;
    o->depth = si->depth;
    o->seldepth = si->seldepth;
    o->nodes = si->nodes;
    o->playouts = si->playouts;
    o->seconds = si->seconds;
    o->pv_len = si->pv_len < 0 ? 0 : si->pv_len > PLY_MAX_PV ? PLY_MAX_PV
                                                             : si->pv_len;
    for (int i = 0; i < o->pv_len; i++)
        o->pv[i] = si->pv[i];
}

/* lim's limits over the spec's: a zero field keeps the spec's. */
static void merge_limits(Limits *l, const PlyLimits *lim)
{
    if (lim->time_ms > 0)
        l->time_ms = lim->time_ms;
    if (lim->nodes > 0)
        l->nodes = lim->nodes;
    if (lim->depth > 0)
        l->depth = lim->depth;
}

struct PlyBot {
    Bot *bot;
    const GameVtbl *g;
    _Atomic int choosing;       /* a choose() runs (ply_bot_stop) */
};

PlyBot *ply_bot_new(const PlyGame *g, const char *spec, uint64_t seed,
                    PlyApiError *err)
{
    if (!g) {
        fail(err, PLY_E_ARGUMENT, "no game");
        return NULL;
    }
    if (!spec || !*spec)
        spec = game_default_bot(G(g));
    PlyBot *b = calloc(1, sizeof *b);
    if (!b) {
        fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    PlyError ie = {{0}};
    if (!(b->bot = bot_new(G(g), spec, seed, &ie))) {
        free(b);
        fail_from(err, PLY_E_PARSE, &ie, "bad bot spec");
        return NULL;
    }
    b->g = G(g);
    ok(err);
    return b;
}

void ply_bot_free(PlyBot *b)
{
    if (!b)
        return;
    bot_free(b->bot);
    free(b);
}

const char *ply_bot_spec(const PlyBot *b)
{
    return b ? b->bot->spec : NULL;
}

typedef struct InfoCtx {
    PlyInfoFn fn;
    void *user;
    PlyState root;
} InfoCtx;

static void bot_trampoline(const SearchInfo *si, void *user)
{
    InfoCtx *c = user;
    PlySearchInfo o;
    info_out(si, &o);
    c->fn(c->user, &c->root, &o);
}

/* ------------------------------------------------------------ clocks */

static int clock_in(const PlyClock *c, Clock *out, PlyApiError *err)
{
    if (!c)
        return fail(err, PLY_E_ARGUMENT, "no clock");
    const int64_t f[4] = {c->left_ms, c->inc_ms, c->byoyomi_ms, c->margin_ms};
    const char *name[4] = {"left_ms", "inc_ms", "byoyomi_ms", "margin_ms"};
    for (int i = 0; i < 4; i++)
        if (f[i] < 0 || f[i] > PLY_CLOCK_MAX_MS)
            return fail(err, PLY_E_ARGUMENT,
                        "clock %s %lld is out of range (0 to %lld ms)",
                        name[i], (long long)f[i],
                        (long long)PLY_CLOCK_MAX_MS);
    if (c->moves_to_go < 0)
        return fail(err, PLY_E_ARGUMENT, "clock moves_to_go %d is negative",
                    c->moves_to_go);
    *out = (Clock){.left_ms = c->left_ms, .inc_ms = c->inc_ms,
                   .byoyomi_ms = c->byoyomi_ms,
                   .moves_to_go = c->moves_to_go < 1000 ? c->moves_to_go
                                                        : 1000,
                   .margin_ms = c->margin_ms};
    return 0;
}

/* The budget for the mover at st (the true position: the mover's
 * observation is taken here in games with hidden information). */
static int64_t budget_at(const GameVtbl *g, const void *st, const Clock *c,
                         uint64_t seed, int *spend_all, PlyApiError *err)
{
    int p = g->to_move(st);
    if (p < 0)
        return fail(err, PLY_E_STATE, p == PLAYER_TERMINAL
                                          ? "the game is over"
                                          : "a chance node: no player to move");
    unsigned char *obs = NULL;
    if (hidden(g)) {
        if (!(obs = malloc(g->info.state_size)))
            return fail(err, PLY_E_MEMORY, "out of memory");
        g->observe(st, p, obs);
        st = obs;
    }
    int64_t t = time_budget(g, st, c, seed);
    free(obs);
    if (spend_all)
        *spend_all = time_spend_all(g, c);
    ok(err);
    return t;
}

int64_t ply_time_budget(const PlyState *s, const PlyClock *c, int *spend_all,
                        PlyApiError *err)
{
    if (!s)
        return fail(err, PLY_E_ARGUMENT, "no state");
    Clock k;
    if (clock_in(c, &k, err))
        return -1;
    return budget_at(s->g, s->cur, &k, s->g->hash(s->cur), spend_all, err);
}

/* The clock's time into l: it replaces l's time unless that is smaller
 * (a cap). -1 on a bad clock or position. */
static int clock_limits(const GameVtbl *g, const void *st, const PlyClock *c,
                        uint64_t seed, Limits *l, PlyApiError *err)
{
    Clock k;
    if (clock_in(c, &k, err))
        return -1;
    int spend = 0;
    int64_t t = budget_at(g, st, &k, seed, &spend, err);
    if (t < 0)
        return -1;
    if (!l->time_ms || l->time_ms > t) {
        l->time_ms = t;
        l->spend_all = spend;
    }
    return 0;
}

static int bot_choose_with(PlyBot *b, const PlyState *s, const PlyClock *c,
                           const PlyLimits *lim, PlyMove *move,
                           PlySearchInfo *info, PlyApiError *err)
{
    if (!b || !s || !move)
        return fail(err, PLY_E_ARGUMENT, "no bot, state or move");
    if (s->g != b->g)
        return fail(err, PLY_E_ARGUMENT, "the bot plays %s, not %s",
                    b->g->info.name, s->g->info.name);
    int p = s->g->to_move(s->cur);
    if (p == PLAYER_TERMINAL)
        return fail(err, PLY_E_STATE, "the game is over");
    if (p == PLAYER_CHANCE)
        return fail(err, PLY_E_STATE, "a chance node: no player to move");
    InfoCtx ctx = {0};
    Limits l, *lp = NULL;
    if (lim || c) {
        l = b->bot->limits;
        if (lim)
            merge_limits(&l, lim);
        if (c && clock_limits(s->g, s->cur, c, s->g->hash(s->cur), &l, err))
            return -1;
        l.on_info = NULL;
        l.user = NULL;
        lp = &l;
    }
    /* The bot sees what the mover sees. */
    unsigned char *obs = NULL;
    const void *root = s->cur;
    if (hidden(s->g)) {
        if (!(obs = malloc(s->sz)))
            return fail(err, PLY_E_MEMORY, "out of memory");
        s->g->observe(s->cur, p, obs);
        root = obs;
    }
    if (lim && lim->on_info) {
        ctx.fn = lim->on_info;
        ctx.user = lim->user;
        ctx.root = state_view(s->g, root);
        l.on_info = bot_trampoline;
        l.user = &ctx;
    }
    SearchInfo si;
    memset(&si, 0, sizeof si);
    atomic_store(&b->choosing, 1);
    Move m = bot_choose(b->bot, root, lp, &si);
    atomic_store(&b->choosing, 0);
    free(obs);
    if (!state_is_legal(s->g, s->cur, m))
        return fail(err, PLY_E_FAILED, "%s chose an illegal move",
                    b->bot->spec);
    *move = m;
    if (info)
        info_out(&si, info);
    ok(err);
    return 0;
}

int ply_bot_choose(PlyBot *b, const PlyState *s, const PlyLimits *lim,
                   PlyMove *move, PlySearchInfo *info, PlyApiError *err)
{
    return bot_choose_with(b, s, NULL, lim, move, info, err);
}

int ply_bot_choose_clock(PlyBot *b, const PlyState *s, const PlyClock *c,
                         const PlyLimits *lim, PlyMove *move,
                         PlySearchInfo *info, PlyApiError *err)
{
    if (!c)
        return fail(err, PLY_E_ARGUMENT, "no clock");
    return bot_choose_with(b, s, c, lim, move, info, err);
}

int ply_bot_inform(PlyBot *b, const PlyState *s, PlyMove played,
                   PlyApiError *err)
{
    if (!b || !s)
        return fail(err, PLY_E_ARGUMENT, "no bot or state");
    if (s->g != b->g)
        return fail(err, PLY_E_ARGUMENT, "the bot plays %s, not %s",
                    b->g->info.name, s->g->info.name);
    if (!state_is_legal(s->g, s->cur, played))
        return fail(err, PLY_E_ILLEGAL, "move %llu is not legal here",
                    (unsigned long long)played);
    /* Trees of games with hidden information are not reused: the bot
     * searched an observation, not this state. */
    if (!hidden(s->g))
        bot_inform(b->bot, s->cur, played);
    ok(err);
    return 0;
}

void ply_bot_new_game(PlyBot *b)
{
    if (b)
        bot_new_game(b->bot);
}

void ply_bot_stop(PlyBot *b)
{
    if (b && atomic_load(&b->choosing))
        bot_stop(b->bot);
}

/* ------------------------------------------------------------ sessions */

struct PlySession {
    Session *s;
    PlyInfoFn info;
    PlyDoneFn done;
    void *user;
};

PlySession *ply_session_new(const PlyGame *g, const char *options,
                            const char *bot_spec, uint64_t seed,
                            PlyApiError *err)
{
    if (!g) {
        fail(err, PLY_E_ARGUMENT, "no game");
        return NULL;
    }
    PlySession *ps = calloc(1, sizeof *ps);
    if (!ps) {
        fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    PlyError ie = {{0}};
    if (!(ps->s = session_new(G(g), options,
                              bot_spec && *bot_spec ? bot_spec : NULL, seed,
                              &ie))) {
        free(ps);
        fail_from(err, PLY_E_PARSE, &ie, "bad options or bot spec");
        return NULL;
    }
    ok(err);
    return ps;
}

void ply_session_free(PlySession *ps)
{
    if (!ps)
        return;
    session_free(ps->s);
    free(ps);
}

int ply_session_set_position(PlySession *ps, const char *setup,
                             const char *moves, PlyApiError *err)
{
    if (!ps)
        return fail(err, PLY_E_ARGUMENT, "no session");
    PlyError ie = {{0}};
    if (session_set_position(ps->s, setup, moves, &ie))
        return fail_from(err, PLY_E_PARSE, &ie, "bad position");
    ok(err);
    return 0;
}

int ply_session_play(PlySession *ps, const char *move, PlyApiError *err)
{
    if (!ps || !move)
        return fail(err, PLY_E_ARGUMENT, "no session or move");
    PlyError ie = {{0}};
    if (session_play_text(ps->s, move, &ie))
        return fail_from(err, PLY_E_ILLEGAL, &ie, "illegal move");
    ok(err);
    return 0;
}

int ply_session_undo(PlySession *ps, int n)
{
    return ps && n > 0 ? session_undo(ps->s, n) : 0;
}

PlyState *ply_session_state(const PlySession *ps, PlyApiError *err)
{
    if (!ps) {
        fail(err, PLY_E_ARGUMENT, "no session");
        return NULL;
    }
    const GameVtbl *g = session_game(ps->s);
    PlyState *s = state_make(g, err);
    if (!s)
        return NULL;
    memcpy(s->cur, session_state(ps->s), s->sz);
    ok(err);
    return s;
}

int ply_session_set_bot(PlySession *ps, const char *spec, PlyApiError *err)
{
    if (!ps)
        return fail(err, PLY_E_ARGUMENT, "no session");
    if (!spec || !*spec)
        spec = game_default_bot(session_game(ps->s));
    PlyError ie = {{0}};
    if (session_set_bot(ps->s, spec, &ie))
        return fail_from(err, PLY_E_PARSE, &ie, "bad bot spec");
    ok(err);
    return 0;
}

int ply_session_set_bot_option(PlySession *ps, const char *key,
                               const char *value, PlyApiError *err)
{
    if (!ps || !key)
        return fail(err, PLY_E_ARGUMENT, "no session or key");
    PlyError ie = {{0}};
    if (session_set_bot_option(ps->s, key, value, &ie))
        return fail_from(err, PLY_E_PARSE, &ie, "bad bot option");
    ok(err);
    return 0;
}

static void session_info_tramp(void *user, const void *root,
                               const SearchInfo *si)
{
    PlySession *ps = user;
    if (!ps->info)
        return;
    PlyState v = state_view(session_game(ps->s), root);
    PlySearchInfo o;
    info_out(si, &o);
    ps->info(ps->user, &v, &o);
}

static void session_done_tramp(void *user, const void *root, Move best,
                               const SearchInfo *si)
{
    PlySession *ps = user;
    if (!ps->done)
        return;
    PlyState v = state_view(session_game(ps->s), root);
    PlySearchInfo o;
    info_out(si, &o);
    ps->done(ps->user, &v, best, &o);
}

int ply_session_on_info(PlySession *ps, PlyInfoFn info, PlyDoneFn done,
                        void *user, PlyApiError *err)
{
    if (!ps)
        return fail(err, PLY_E_ARGUMENT, "no session");
    if (session_searching(ps->s))
        return fail(err, PLY_E_STATE, "a search is running");
    ps->info = info;
    ps->done = done;
    ps->user = user;
    session_on_info(ps->s, session_info_tramp, session_done_tramp, ps);
    ok(err);
    return 0;
}

static int session_go_with(PlySession *ps, const PlyClock *c,
                           const PlyLimits *lim, PlyApiError *err)
{
    if (!ps)
        return fail(err, PLY_E_ARGUMENT, "no session");
    Limits l, *lp = NULL;
    if (lim || c) {
        l = session_bot_limits(ps->s);
        if (lim)
            merge_limits(&l, lim);
        if (c && clock_limits(session_game(ps->s), session_state(ps->s), c,
                              session_seed(ps->s), &l, err))
            return -1;
        lp = &l;
    }
    PlyError ie = {{0}};
    if (session_go(ps->s, lp, 0, &ie))
        return fail_from(err, PLY_E_STATE, &ie, "cannot search now");
    ok(err);
    return 0;
}

int ply_session_go(PlySession *ps, const PlyLimits *lim, PlyApiError *err)
{
    return session_go_with(ps, NULL, lim, err);
}

int ply_session_go_clock(PlySession *ps, const PlyClock *c,
                         const PlyLimits *lim, PlyApiError *err)
{
    if (!c)
        return fail(err, PLY_E_ARGUMENT, "no clock");
    return session_go_with(ps, c, lim, err);
}

void ply_session_stop(PlySession *ps)
{
    if (ps)
        session_stop(ps->s);
}

int ply_session_wait(PlySession *ps, PlyMove *move, PlySearchInfo *info,
                     PlyApiError *err)
{
    if (!ps)
        return fail(err, PLY_E_ARGUMENT, "no session");
    if (!session_searching(ps->s))
        return fail(err, PLY_E_STATE, "no search was started");
    SearchInfo si;
    Move m = session_wait(ps->s, &si);
    if (move)
        *move = m;
    if (info)
        info_out(&si, info);
    ok(err);
    return 0;
}

/* ------------------------------------------------------------ matches */

struct PlyMatch {
    MatchConfig c;
    _Atomic int refs;           /* the match and its live records */
    /* the tally: games of one match may be counted on several threads */
    _Atomic uint64_t wins[MATCH_MAX_PARTS], draws[MATCH_MAX_PARTS],
        losses[MATCH_MAX_PARTS];
};

struct PlyRecord {
    PlyMatch *m;
    GameRecord r;
};

static void match_unref(PlyMatch *m)
{
    if (atomic_fetch_sub(&m->refs, 1) == 1)
        free(m);
}

PlyMatch *ply_match_new(const PlyGame *g, const char *options,
                        const char *const *bots, int nbots, uint64_t games,
                        uint64_t seed, PlyApiError *err)
{
    if (!g || !bots) {
        fail(err, PLY_E_ARGUMENT, "no game or bots");
        return NULL;
    }
    if (nbots < 1 || nbots > MATCH_MAX_PARTS) {
        fail(err, PLY_E_ARGUMENT, "give 1 to %d bots", MATCH_MAX_PARTS);
        return NULL;
    }
    PlyMatch *m = calloc(1, sizeof *m);
    if (!m) {
        fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    atomic_init(&m->refs, 1);
    MatchConfig *c = &m->c;
    c->g = G(g);
    if (options && strlen(options) >= sizeof c->options) {
        free(m);
        fail(err, PLY_E_PARSE, "game options too long");
        return NULL;
    }
    snprintf(c->options, sizeof c->options, "%s", options ? options : "");
    c->nparts = nbots;
    for (int i = 0; i < nbots; i++) {
        const char *spec = bots[i] && *bots[i] ? bots[i]
                                               : game_default_bot(G(g));
        if (strlen(spec) >= sizeof c->parts[i].name) {
            free(m);
            fail(err, PLY_E_PARSE, "bot spec %d too long", i);
            return NULL;
        }
        c->parts[i].kind = PART_BOT;
        snprintf(c->parts[i].name, sizeof c->parts[i].name, "%s", spec);
    }
    c->games = games;
    c->jobs = 1;
    c->seed = seed;
    c->alpha = c->beta = 0.05;
    PlyError ie = {{0}};
    if (match_prepare(c, &ie)) {
        free(m);
        fail_from(err, PLY_E_PARSE, &ie, "bad match");
        return NULL;
    }
    ok(err);
    return m;
}

void ply_match_free(PlyMatch *m)
{
    if (m)
        match_unref(m);
}

int ply_match_set_time(PlyMatch *m, const char *tc, PlyApiError *err)
{
    if (!m || !tc)
        return fail(err, PLY_E_ARGUMENT, "no match or time control");
    PlyError ie = {{0}};
    MatchConfig c = m->c;   /* m unchanged on error */
    if (match_parse_tc(tc, &c, &ie))
        return fail_from(err, PLY_E_PARSE, &ie, "bad time control");
    m->c.tc = c.tc;
    m->c.tc_ms = c.tc_ms;
    m->c.inc_ms = c.inc_ms;
    ok(err);
    return 0;
}

int ply_match_set_openings(PlyMatch *m, int plies, PlyApiError *err)
{
    if (!m)
        return fail(err, PLY_E_ARGUMENT, "no match");
    if (plies < 0 || plies > MATCH_MAX_OPEN_PLIES)
        return fail(err, PLY_E_ARGUMENT, "openings of 0 to %d plies",
                    MATCH_MAX_OPEN_PLIES);
    m->c.open_plies = plies;
    ok(err);
    return 0;
}

uint64_t ply_match_total(const PlyMatch *m)
{
    return m ? m->c.total : 0;
}

PlyRecord *ply_match_play(const PlyMatch *m, uint64_t index,
                          PlyApiError *err)
{
    if (!m || index >= m->c.total) {
        fail(err, PLY_E_ARGUMENT, "no game %llu in the match",
             (unsigned long long)index);
        return NULL;
    }
    PlyRecord *r = calloc(1, sizeof *r);
    if (!r) {
        fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    PlyError ie = {{0}};
    if (match_play_game(&m->c, index, &r->r, &ie)) {
        match_record_free(&r->r);
        free(r);
        fail_from(err, PLY_E_FAILED, &ie, "the game could not be set up");
        return NULL;
    }
    r->m = (PlyMatch *)m;
    atomic_fetch_add(&r->m->refs, 1);
    ok(err);
    return r;
}

int ply_match_count(PlyMatch *m, const PlyRecord *r,
                    PlyApiError *err)
{
    if (!m || !r || r->m != m)
        return fail(err, PLY_E_ARGUMENT, "not a record of this match");
    int np = match_players(&m->c);
    double best = r->r.result[0];
    int nbest = 0;
    for (int s = 1; s < np; s++)
        if (r->r.result[s] > best)
            best = r->r.result[s];
    for (int s = 0; s < np; s++)
        nbest += r->r.result[s] == best;
    for (int s = 0; s < np; s++) {
        int p = r->r.seats[s];
        if (r->r.result[s] < best)
            atomic_fetch_add(&m->losses[p], 1);
        else if (nbest > 1)
            atomic_fetch_add(&m->draws[p], 1);
        else
            atomic_fetch_add(&m->wins[p], 1);
    }
    ok(err);
    return 0;
}

int ply_match_score(const PlyMatch *m, int bot, uint64_t *wins,
                    uint64_t *draws, uint64_t *losses, PlyApiError *err)
{
    if (!m || bot < 0 || bot >= m->c.nparts)
        return fail(err, PLY_E_ARGUMENT, "no bot %d in the match", bot);
    if (wins)
        *wins = atomic_load(&m->wins[bot]);
    if (draws)
        *draws = atomic_load(&m->draws[bot]);
    if (losses)
        *losses = atomic_load(&m->losses[bot]);
    ok(err);
    return 0;
}

void ply_record_free(PlyRecord *r)
{
    if (!r)
        return;
    match_record_free(&r->r);
    match_unref(r->m);
    free(r);
}

uint64_t ply_record_index(const PlyRecord *r)
{
    return r ? r->r.index : 0;
}

const char *ply_record_setup(const PlyRecord *r)
{
    return r ? r->r.setup : NULL;
}

int ply_record_num_moves(const PlyRecord *r)
{
    return r ? r->r.nmoves : 0;
}

const char *ply_record_move(const PlyRecord *r, int i)
{
    if (!r || i < 0 || i >= r->r.nmoves)
        return NULL;
    return r->r.moves[i];
}

static int seat_ok(const PlyRecord *r, int seat)
{
    return r && seat >= 0 && seat < match_players(&r->m->c);
}

int ply_record_num_seats(const PlyRecord *r)
{
    return r ? match_players(&r->m->c) : 0;
}

int ply_record_bot(const PlyRecord *r, int seat)
{
    return seat_ok(r, seat) ? r->r.seats[seat] : -1;
}

double ply_record_result(const PlyRecord *r, int seat)
{
    return seat_ok(r, seat) ? r->r.result[seat] : 0.0;
}

const char *ply_record_reason(const PlyRecord *r)
{
    if (!r || (int)r->r.reason < 0 || r->r.reason >= REASON_COUNT)
        return NULL;
    return match_reason_names[r->r.reason];
}

/* The record as core's Record (strings borrowed from r). */
static void to_record(const PlyRecord *r, Record *out)
{
    const MatchConfig *c = &r->m->c;
    record_init(out);
    out->game = c->g->info.name;
    out->options = c->options;
    out->setup = r->r.setup;
    out->nseats = match_players(c);
    for (int s = 0; s < out->nseats; s++)
        out->seats[s] = c->parts[r->r.seats[s]].name;
    out->nmoves = r->r.nmoves;
    out->moves = (const char *const *)r->r.moves;
    out->has_result = 1;
    for (int s = 0; s < out->nseats; s++)
        out->result[s] = r->r.result[s];
    out->reason = match_reason_names[r->r.reason];
    out->error = r->r.error[0] ? r->r.error : NULL;
    out->index = (long)r->r.index;
    out->opening_plies = r->r.opening_plies;
    out->has_seed = 1;
    out->seed = r->r.seed;
}

int ply_record_winner(const PlyRecord *r)
{
    if (!r)
        return -1;
    Record rec;
    to_record(r, &rec);
    return record_winner(&rec);
}

char *ply_record_write(const PlyRecord *r, const char *format,
                       PlyApiError *err)
{
    if (!r || !format) {
        fail(err, PLY_E_ARGUMENT, "no record or format");
        return NULL;
    }
    if (!strcmp(format, "json")) {
        char *s = match_record_json(&r->m->c, &r->r);
        if (!s)
            fail(err, PLY_E_MEMORY, "out of memory");
        else
            ok(err);
        return s;
    }
    const GameVtbl *g = r->m->c.g;
    const GameFormat *f = game_format(g, format);
    if (!f || !f->write_record) {
        char list[256] = "json";
        for (int i = 0; g->formats && g->formats[i]; i++)
            if (g->formats[i]->write_record) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, ", %s",
                         g->formats[i]->name);
            }
        fail(err, PLY_E_NOT_FOUND, "%s has no record format '%.40s' "
             "(formats: %s)", g->info.name, format, list);
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) {
        fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    Record rec;
    to_record(r, &rec);
    PlyError ie = {{0}};
    int rc = f->write_record(g, &rec, out, &ie);
    if (fclose(out) || rc) {
        free(buf);
        if (rc)
            fail_from(err, PLY_E_FAILED, &ie, "the record cannot be written");
        else
            fail(err, PLY_E_MEMORY, "out of memory");
        return NULL;
    }
    ok(err);
    return buf;
}
