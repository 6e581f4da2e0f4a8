/* bot.c — bot specs ("mcts:time=2s,threads=2"), the options every bot
 * shares, time discipline and the Bot wrapper. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "options.h"
#include "registry.h"
#include "util.h"

int parse_duration_ms(const char *s, int64_t *ms)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno || !(x >= 0))     /* NaN too */
        return -1;
    double scale;
    if (!*end || !strcmp(end, "ms"))
        scale = 1;
    else if (!strcmp(end, "s"))
        scale = 1000;
    else if (!strcmp(end, "m") || !strcmp(end, "min"))
        scale = 60000;
    else
        return -1;
    if (!(x * scale <= 1e12))               /* inf, NaN */
        return -1;
    *ms = (int64_t)(x * scale + 0.5);
    return 0;
}

/* ---- the rows every bot shares ---- */

typedef struct LimitOpts {
    int64_t time_ms;
    uint64_t nodes;
    int depth;
    uint64_t seed;
    int book;
} LimitOpts;

enum { LIMIT_ROW_SEED = 5 };

static const Option limit_options[] = {
    {.key = "time", .type = OPT_DURATION, .max = 1e12,
     .offset = offsetof(LimitOpts, time_ms),
     .help = "time per move; the move comes back within it"},
    {.key = "nodes", .type = OPT_COUNT,
     .offset = offsetof(LimitOpts, nodes),
     .help = "nodes (alphabeta) or iterations (mcts) per move"},
    {.key = "iterations", .type = OPT_COUNT, .flags = OPTF_ALIAS,
     .offset = offsetof(LimitOpts, nodes), .help = "the same as nodes"},
    {.key = "iters", .type = OPT_COUNT, .flags = OPTF_ALIAS,
     .offset = offsetof(LimitOpts, nodes), .help = "the same as nodes"},
    {.key = "depth", .type = OPT_INT, .min = 1, .max = 200,
     .offset = offsetof(LimitOpts, depth),
     .help = "search depth per move (0: none)"},
    {.key = "seed", .type = OPT_COUNT,
     .offset = offsetof(LimitOpts, seed),
     .help = "the bot's random seed (default: the one the caller gives)"},
    {.key = "book", .type = OPT_BOOL, .offset = offsetof(LimitOpts, book),
     .help = "play the game's opening book move where it has one (`ply "
             "info GAME` says whether it does), before any search"},
    {.key = NULL},
};

const Option *bot_limit_options(void)
{
    return limit_options;
}

int bot_option_count(const BotVtbl *v)
{
    return option_count(limit_options) + option_count(v->options);
}

const Option *bot_option_at(const BotVtbl *v, int i)
{
    int k = option_count(limit_options);
    if (i < 0 || i >= bot_option_count(v))
        return NULL;
    return i < k ? &limit_options[i] : &v->options[i - k];
}

const Option *bot_option_engine(const BotVtbl *v, const char *engine)
{
    const Option *o = option_find_engine(limit_options, engine);
    return o ? o : option_find_engine(v->options, engine);
}

/* ---- time discipline ---- */

enum { CHECK_MIN_US = 32, CHECK_MAX_US = 128, CHECK_MAX_EVERY = 1 << 16 };

int64_t limits_now_us(const Limits *lim)
{
    if (lim && lim->clock_us)
        return lim->clock_us(lim->clock_ctx);
    return now_us();
}

int64_t bot_time_margin_us(int64_t ms)
{
    /* 1 ms plus 2.5%, never more than a tenth of the budget: at 100 ms
     * the search stops 3.5 ms early, less the longest check gap */
    int64_t us = ms * 1000, m = 1000 + us / 40;
    return m < us / 10 ? m : us / 10;
}

void botclock_start(BotClock *c, const Limits *lim, int64_t ms)
{
    c->lim = lim;
    c->t0 = limits_now_us(lim);
    c->stop = 0;
    c->gap_cap = 0;
    if (ms > 0) {
        c->stop = c->t0 + ms * 1000 - bot_time_margin_us(ms);
        if (c->stop <= c->t0)
            c->stop = c->t0 + 1;
        c->gap_cap = ms * 1000 / 8;
    }
}

int botclock_check(const BotClock *c, BotTick *t)
{
    if (!c->stop)
        return 0;
    int64_t now = limits_now_us(c->lim);
    if (t->every == 0)
        t->every = 1;
    if (t->last) {
        int64_t d = now - t->last;
        if (d > t->gap)
            t->gap = d < c->gap_cap ? d : c->gap_cap;
        if (d < CHECK_MIN_US && t->every < CHECK_MAX_EVERY)
            t->every *= 2;
        else if (d > CHECK_MAX_US && t->every > 1)
            t->every /= 2;
    }
    t->last = now;
    return now + t->gap >= c->stop;
}

int64_t botclock_elapsed_us(const BotClock *c)
{
    return limits_now_us(c->lim) - c->t0;
}

/* ---- specs ---- */

static Bot *make_bot(const GameVtbl *g, const char *spec, uint64_t seed,
                     int guarded, PlyError *err)
{
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t nl = colon ? (size_t)(colon - spec) : strlen(spec);
    if (nl == 0 || nl >= sizeof name) {
        ply_fail(err, "bad bot spec '%.60s'", spec);
        return NULL;
    }
    if (strlen(spec) >= sizeof ((Bot *)0)->spec) {
        ply_fail(err, "bot spec too long");
        return NULL;
    }
    memcpy(name, spec, nl);
    name[nl] = 0;
    const BotVtbl *v = bot_find(name);
    if (!v) {
        char list[256] = "";
        for (int i = 0; ply_bots[i]; i++) {
            if (i)
                strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, ply_bots[i]->name, sizeof list - strlen(list) - 1);
        }
        ply_fail(err, "unknown bot '%s' (bots: %s)", name, list);
        return NULL;
    }
    LimitOpts lo;
    option_defaults(limit_options, &lo);
    void *opts = NULL;
    if (v->options_size) {
        opts = calloc(1, v->options_size);
        if (!opts) {
            ply_fail(err, "out of memory");
            return NULL;
        }
        option_defaults(v->options, opts);
    }
    OptionSet sets[2] = {{limit_options, &lo, 0}, {v->options, opts, 0}};
    PlyError e2 = {{0}};
    if (option_parse(sets, 2, colon ? colon + 1 : NULL, &e2) ||
        (guarded && option_guard(sets, 2, &e2))) {
        ply_fail(err, "bot %s: %s", name, e2.msg);
        free(opts);
        return NULL;
    }
    if (sets[0].given & (1ull << LIMIT_ROW_SEED))
        seed = lo.seed;
    void *impl = v->create(g, opts, seed, &e2);
    free(opts);
    if (!impl) {
        ply_fail(err, "bot %s: %s", name, e2.msg[0] ? e2.msg : "failed");
        return NULL;
    }
    Bot *b = calloc(1, sizeof *b);
    if (!b) {
        v->destroy(impl);
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->v = v;
    b->game = g;
    b->impl = impl;
    b->limits = (Limits){.time_ms = lo.time_ms, .nodes = lo.nodes,
                         .depth = lo.depth};
    b->book = lo.book && g->book ? g->book : NULL;
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    return b;
}

Bot *bot_new(const GameVtbl *g, const char *spec, uint64_t seed,
             PlyError *err)
{
    return make_bot(g, spec, seed, 0, err);
}

Bot *bot_new_guarded(const GameVtbl *g, const char *spec, uint64_t seed,
                     PlyError *err)
{
    return make_bot(g, spec, seed, 1, err);
}

void bot_free(Bot *b)
{
    if (!b)
        return;
    b->v->destroy(b->impl);
    free(b);
}

const void *bot_world(const GameVtbl *g, const void *st, Rng *r, void *buf)
{
    if (!(g->info.flags & GAME_HIDDEN) || !g->determinize)
        return st;
    g->determinize(st, g->to_move(st), r, buf);
    return buf;
}

Move bot_choose(Bot *b, const void *st, const Limits *lim, SearchInfo *out)
{
    SearchInfo tmp;
    if (!out)
        out = &tmp;
    memset(out, 0, sizeof *out);
    Move m;
    if (b->book && book_lookup(b->game, b->book, st, &m)) {
        out->best = m;
        out->pv[0] = m;
        out->pv_len = 1;
        out->book = 1;
        return m;
    }
    return b->v->choose(b->impl, st, lim ? lim : &b->limits, out);
}

void bot_inform(Bot *b, const void *st, Move played)
{
    if (b->v->inform)
        b->v->inform(b->impl, st, played);
}

void bot_new_game(Bot *b)
{
    b->v->new_game(b->impl);
}

void bot_stop(Bot *b)
{
    if (b && b->v->stop)
        b->v->stop(b->impl);
}

Bot *bot_new_inner(const GameVtbl *g, const char *what, const char *text,
                   const char *self, uint64_t seed, PlyError *err)
{
    char spec[OPT_TEXT_MAX];
    snprintf(spec, sizeof spec, "%s", text);
    for (char *c = spec; *c; c++)
        if (*c == ';')
            *c = ',';
    size_t n = self ? strlen(self) : 0;
    if (self && !strncmp(spec, self, n) && (!spec[n] || spec[n] == ':')) {
        ply_fail(err, "%s: the %s bot cannot be %s", self, what, self);
        return NULL;
    }
    PlyError e2 = {{0}};
    Bot *b = bot_new(g, spec, seed, &e2);
    if (!b)
        ply_fail(err, "%s: %s", what, e2.msg);
    return b;
}

Move bot_choose_inner(Bot *b, const void *st, const Limits *lim,
                      SearchInfo *out)
{
    int limited = lim && (lim->time_ms > 0 || lim->nodes || lim->depth);
    return bot_choose(b, st, limited ? lim : NULL, out);
}
