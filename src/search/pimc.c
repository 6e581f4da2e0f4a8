/* pimc.c — determinized search (Perfect Information Monte Carlo): the
 * baseline honest bot for games with hidden information.
 *
 * choose() gets what the player to move observes (bot.h). It samples
 * `samples` worlds consistent with it (determinize), asks a
 * perfect-information bot (`inner`, any registered bot spec) for its move
 * in each, and plays the move most worlds chose, ties broken by the sum of
 * the inner values. The budget (time or nodes) is shared evenly among the
 * worlds; without one each inner search uses the inner spec's own limits.
 * Known flaws (strategy fusion, non-locality) are in
 * shared/rules/hidden.md §5.1. In games without hidden information every
 * world is the position itself. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "belief.h"

enum { PIMC_MAX_SAMPLES = 1024 };

typedef struct PimcOpts {
    int samples;
    char inner[OPT_TEXT_MAX];
    int belief, model;
} PimcOpts;

typedef struct Pimc {
    const GameVtbl *g;
    int samples;
    uint64_t seed;
    Rng rng;
    Bot *inner;
    unsigned char *world;
    Move *moves;
    int *votes;
    double *sum;
    Belief bel;
    atomic_int stop;
} Pimc;

static const Option pimc_options[] = {
    {.key = "samples", .type = OPT_INT, .def = 12, .min = 1,
     .max = PIMC_MAX_SAMPLES, .offset = offsetof(PimcOpts, samples),
     .help = "worlds sampled per move"},
    {.key = "inner", .type = OPT_STRING, .def_text = "alphabeta:depth=3",
     .offset = offsetof(PimcOpts, inner),
     .help = "the perfect-information bot run in each world; write ';' "
             "for ',' inside it, as in inner=mcts:iterations=500;ept=8"},
    {.key = "belief", .type = OPT_INT, .def = 4096, .min = 0, .max = 65536,
     .offset = offsetof(PimcOpts, belief),
     .help = "hidden information: worlds remembered from the seat's "
             "earlier observations and moves (a particle filter; 0: none, "
             "each world sampled from the current observation alone)"},
    {.key = "model", .type = OPT_INT, .def = 1, .min = 0, .max = 1,
     .offset = offsetof(PimcOpts, model),
     .help = "the opponent model of the belief: 0 every move alike, 1 "
             "captures four times as likely"},
    {.key = NULL},
};

static void pimc_destroy(void *p)
{
    Pimc *b = p;
    if (!b)
        return;
    bot_free(b->inner);
    belief_free(&b->bel);
    free(b->world), free(b->moves), free(b->votes), free(b->sum);
    free(b);
}

static void *pimc_create(const GameVtbl *g, const void *opts, uint64_t seed,
                         PlyError *err)
{
    const PimcOpts *o = opts;
    char spec[OPT_TEXT_MAX];
    snprintf(spec, sizeof spec, "%s", o->inner);
    for (char *c = spec; *c; c++)
        if (*c == ';')
            *c = ',';
    if (!strncmp(spec, "pimc", 4) && (!spec[4] || spec[4] == ':'))
        return ply_fail(err, "pimc: the inner bot cannot be pimc"), NULL;
    Pimc *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    b->samples = o->samples;
    b->seed = seed;
    rng_seed(&b->rng, seed);
    PlyError e2 = {{0}};
    b->inner = bot_new(g, spec, ply_mix64(seed ^ 0x91dcull), &e2);
    if (!b->inner) {
        ply_fail(err, "inner: %s", e2.msg);
        pimc_destroy(b);
        return NULL;
    }
    if (belief_init(&b->bel, g, o->belief, o->model, err)) {
        pimc_destroy(b);
        return NULL;
    }
    size_t mm = (size_t)g->info.max_moves;
    b->world = malloc(g->info.state_size);
    b->moves = malloc(sizeof(Move) * mm);
    b->votes = malloc(sizeof(int) * mm);
    b->sum = malloc(sizeof(double) * mm);
    if (!b->world || !b->moves || !b->votes || !b->sum) {
        pimc_destroy(b);
        ply_fail(err, "out of memory");
        return NULL;
    }
    return b;
}

static void pimc_new_game(void *p)
{
    Pimc *b = p;
    rng_seed(&b->rng, b->seed);
    bot_new_game(b->inner);
    belief_reset(&b->bel);
}

static void pimc_stop(void *p)
{
    Pimc *b = p;
    atomic_store(&b->stop, 1);
    if (b->inner->v->stop)
        b->inner->v->stop(b->inner->impl);
}

static Move pimc_choose(void *p, const void *st, const Limits *lim,
                        SearchInfo *out)
{
    Pimc *b = p;
    const GameVtbl *g = b->g;
    if (g->to_move(st) < 0)
        return 0;
    atomic_store(&b->stop, 0);
    BotClock clk;
    botclock_start(&clk, lim, lim->time_ms > 0 ? lim->time_ms : 0);
    belief_observe(&b->bel, st, &b->rng);
    /* the mover's moves are the same in every world */
    const void *w = bot_world(g, st, &b->rng, b->world);
    int k = g->gen_moves(w, b->moves);
    if (k < 1)
        return 0;
    memset(b->votes, 0, sizeof(int) * (size_t)k);
    memset(b->sum, 0, sizeof(double) * (size_t)k);
    Limits sub = *lim;
    sub.on_info = NULL;
    const Limits *use = NULL;
    if (lim->time_ms > 0 || lim->nodes) {
        /* what the belief's update left of the budget, shared */
        int64_t left = lim->time_ms -
                       (b->bel.cap ? botclock_elapsed_us(&clk) / 1000 : 0);
        sub.time_ms = lim->time_ms > 0 ? left / b->samples : 0;
        if (lim->time_ms > 0 && sub.time_ms < 1)
            sub.time_ms = 1;
        sub.nodes = lim->nodes ? (lim->nodes + (uint64_t)b->samples - 1) /
                                     (uint64_t)b->samples : 0;
        use = &sub;
    }
    uint64_t nodes = 0;
    int depth = 0, done = 0;
    for (int s = 0; s < b->samples; s++) {
        if (s > 0 && (atomic_load(&b->stop) ||
                      (clk.stop && limits_now_us(lim) >= clk.stop)))
            break;
        w = belief_world(&b->bel, st, &b->rng, b->world);
        SearchInfo si;
        Move m = bot_choose(b->inner, w, use, &si);
        nodes += si.nodes;
        if (!s || si.depth < depth)
            depth = si.depth;
        done++;
        for (int i = 0; i < k; i++)
            if (b->moves[i] == m) {
                b->votes[i]++;
                b->sum[i] += si.value;
                break;
            }
    }
    int best = 0;
    for (int i = 1; i < k; i++)
        if (b->votes[i] > b->votes[best] ||
            (b->votes[i] == b->votes[best] && b->sum[i] > b->sum[best]))
            best = i;
    Move m = b->moves[best];
    out->best = m;
    out->value = b->votes[best] ? (int)(b->sum[best] / b->votes[best]) : 0;
    out->depth = depth;
    out->nodes = nodes;
    out->playouts = (uint64_t)done;
    out->seconds = (double)botclock_elapsed_us(&clk) / 1e6;
    out->pv_len = 1;
    out->pv[0] = m;
    int tl = 0;
    for (int i = 0; i < k && tl < SEARCH_MAX_TOP; i++)
        if (b->votes[i]) {
            out->top[tl] = b->moves[i];
            out->top_visits[tl] = (uint64_t)b->votes[i];
            out->top_value[tl] = b->sum[i] / b->votes[i];
            tl++;
        }
    out->top_len = tl;
    belief_chose(&b->bel, m);
    return m;
}

const BotVtbl bot_pimc = {
    .name = "pimc",
    .help =
        "Determinized search (Perfect Information Monte Carlo): samples "
        "worlds consistent with what the player to move sees, runs the "
        "inner perfect-information bot in each and plays the move most of "
        "them chose. Honest: it only ever gets the observation. Limits: "
        "time and nodes are shared among the worlds.",
    .options = pimc_options,
    .options_size = sizeof(PimcOpts),
    .create = pimc_create,
    .destroy = pimc_destroy,
    .new_game = pimc_new_game,
    .choose = pimc_choose,
    .stop = pimc_stop,
};
