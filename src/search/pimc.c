/* pimc.c — determinized search (Perfect Information Monte Carlo): the
 * baseline honest bot for games with hidden information.
 *
 * choose() gets what the player to move observes (bot.h). It samples
 * `samples` worlds consistent with it from its belief (belief.h: worlds
 * that also explain what its seat saw at its earlier turns; with belief=0
 * determinize() of the observation alone), asks a perfect-information bot
 * (`inner`, any registered bot spec) for its move in each, and plays the
 * move most worlds chose, ties broken by the sum of the inner values. A
 * belief holding no more distinct worlds than `samples` is searched world
 * by world, votes weighted by each world's copies. With safety=1 (hidden
 * games), among the voted moves the one that loses at once in the fewest
 * searched worlds wins first: strategy fusion otherwise picks a move that
 * most worlds like though it hangs the king in the worlds that hold an
 * unseen attacker. The budget (time or nodes) is shared evenly among the
 * worlds (after the belief's update); without one each inner search uses
 * the inner spec's own limits. Known flaws (strategy fusion,
 * non-locality) are in shared/rules/hidden.md §5.1. In games without
 * hidden information every world is the position itself. */
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
    int belief, model, safety;
} PimcOpts;

typedef struct Pimc {
    const GameVtbl *g;
    int samples;
    uint64_t seed;
    Rng rng;
    Bot *inner;
    unsigned char *world;
    unsigned char *worlds;      /* hidden games: the worlds searched */
    unsigned char *child, *grand;
    Move *replies;
    int *hangs;
    uint32_t *weight;           /* each searched world's copies */
    int safety;
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
             "each world sampled from the current observation alone)",
     .flags = OPTF_COSTLY},
    {.key = "model", .type = OPT_INT, .def = 1, .min = 0, .max = 1,
     .offset = offsetof(PimcOpts, model),
     .help = "the opponent model of the belief: 0 every move alike, 1 "
             "captures four times as likely"},
    {.key = "safety", .type = OPT_INT, .def = 1, .min = 0, .max = 1,
     .offset = offsetof(PimcOpts, safety),
     .help = "hidden information: among the moves the worlds voted for, "
             "prefer the one that loses at once (the opponent has a winning "
             "reply) in the fewest of the searched worlds (0: votes only)"},
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
    free(b->worlds), free(b->child), free(b->grand), free(b->replies);
    free(b->hangs), free(b->weight);
    free(b);
}

static void *pimc_create(const GameVtbl *g, const void *opts, uint64_t seed,
                         PlyError *err)
{
    const PimcOpts *o = opts;
    Pimc *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    b->samples = o->samples;
    b->seed = seed;
    rng_seed(&b->rng, seed);
    b->inner = bot_new_inner(g, "inner", o->inner, "pimc",
                             ply_mix64(seed ^ 0x91dcull), err);
    if (!b->inner) {
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
    b->weight = malloc(sizeof(uint32_t) * (size_t)b->samples);
    b->safety = o->safety && (g->info.flags & GAME_HIDDEN);
    if (b->safety) {
        b->worlds = malloc(g->info.state_size * (size_t)b->samples);
        b->child = malloc(g->info.state_size);
        b->grand = malloc(g->info.state_size);
        b->replies = malloc(sizeof(Move) * mm);
        b->hangs = malloc(sizeof(int) * mm);
        if (!b->worlds || !b->child || !b->grand || !b->replies ||
            !b->hangs) {
            pimc_destroy(b);
            ply_fail(err, "out of memory");
            return NULL;
        }
    }
    if (!b->world || !b->moves || !b->votes || !b->sum || !b->weight) {
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
    bot_stop(b->inner);
}

/* For each move some world voted for: in how many of the `done` worlds
 * searched it loses at once (it ends the game lost for `me`, or the
 * opponent then has a reply that does). Strategy fusion's worst case:
 * the move most worlds like may hang the king in the worlds that hold an
 * unseen attacker. */
static void count_hangs(Pimc *b, int k, int done, int me)
{
    const GameVtbl *g = b->g;
    size_t sz = g->info.state_size;
    double ret[PLY_MAX_PLAYERS];
    for (int i = 0; i < k; i++) {
        b->hangs[i] = 0;
        if (!b->votes[i])
            continue;
        for (int w = 0; w < done; w++) {
            memcpy(b->child, b->worlds + sz * (size_t)w, sz);
            g->make(b->child, b->moves[i]);
            int p = g->to_move(b->child);
            if (p == PLAYER_TERMINAL) {
                g->returns(b->child, ret);
                if (ret[me] < 0)
                    b->hangs[i] += (int)b->weight[w];
                continue;
            }
            if (p < 0 || p == me)
                continue;
            int n = g->gen_moves(b->child, b->replies);
            for (int j = 0; j < n; j++) {
                memcpy(b->grand, b->child, sz);
                g->make(b->grand, b->replies[j]);
                if (g->to_move(b->grand) != PLAYER_TERMINAL)
                    continue;
                g->returns(b->grand, ret);
                if (ret[me] < 0) {
                    b->hangs[i] += (int)b->weight[w];
                    break;
                }
            }
        }
    }
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
    /* the belief's update gets a quarter of a timed move */
    belief_observe(&b->bel, st, &b->rng, &clk,
                   clk.stop ? clk.t0 + lim->time_ms * 250 : 0);
    /* the mover's moves are the same in every world */
    const void *w = bot_world(g, st, &b->rng, b->world);
    int k = g->gen_moves(w, b->moves);
    if (k < 1)
        return 0;
    memset(b->votes, 0, sizeof(int) * (size_t)k);
    memset(b->sum, 0, sizeof(double) * (size_t)k);
    /* a belief of no more worlds than samples: each searched once, its
     * vote weighted by its copies */
    int nd = belief_distinct(&b->bel, st);
    int exact = nd > 0 && nd <= b->samples;
    int eff = exact ? nd : b->samples;
    Limits sub = *lim;
    sub.on_info = NULL;
    const Limits *use = NULL;
    if (lim->time_ms > 0 || lim->nodes) {
        /* what the belief's update left of the budget, shared */
        int64_t left = lim->time_ms -
                       (b->bel.cap ? botclock_elapsed_us(&clk) / 1000 : 0);
        sub.time_ms = lim->time_ms > 0 ? left / eff : 0;
        if (lim->time_ms > 0 && sub.time_ms < 1)
            sub.time_ms = 1;
        sub.nodes = lim->nodes ? (lim->nodes + (uint64_t)eff - 1) /
                                     (uint64_t)eff : 0;
        use = &sub;
    }
    uint64_t nodes = 0;
    int depth = 0, done = 0;
    for (int s = 0; s < eff; s++) {
        if (s > 0 && (atomic_load(&b->stop) ||
                      (clk.stop && limits_now_us(lim) >= clk.stop)))
            break;
        uint32_t wt = 1;
        w = exact ? belief_world_at(&b->bel, s, &wt)
                  : belief_world(&b->bel, st, &b->rng, b->world);
        b->weight[s] = wt;
        if (b->safety)
            memcpy(b->worlds + g->info.state_size * (size_t)s, w,
                   g->info.state_size);
        SearchInfo si;
        Move m = bot_choose(b->inner, w, use, &si);
        nodes += si.nodes;
        if (!s || si.depth < depth)
            depth = si.depth;
        done++;
        for (int i = 0; i < k; i++)
            if (b->moves[i] == m) {
                b->votes[i] += (int)wt;
                b->sum[i] += (double)si.value * wt;
                break;
            }
    }
    if (b->safety)
        count_hangs(b, k, done, g->to_move(st));
    int best = 0;
    for (int i = 1; i < k; i++) {
        if (b->safety && b->votes[i] && b->votes[best] &&
            b->hangs[i] != b->hangs[best]) {
            if (b->hangs[i] < b->hangs[best])
                best = i;
            continue;
        }
        if (b->votes[i] > b->votes[best] ||
            (b->votes[i] == b->votes[best] && b->sum[i] > b->sum[best]))
            best = i;
    }
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
        "them chose (safety=1: of those, the one that loses at once in the "
        "fewest worlds). The worlds come from its belief (belief=N): "
        "worlds consistent with everything its seat saw at its earlier "
        "turns and the moves it chose (a particle filter); a belief of "
        "fewer worlds than samples is searched world by world. Honest: it "
        "only ever gets the observation. Limits: time and nodes are shared "
        "among the worlds.",
    .options = pimc_options,
    .options_size = sizeof(PimcOpts),
    .create = pimc_create,
    .destroy = pimc_destroy,
    .new_game = pimc_new_game,
    .choose = pimc_choose,
    .stop = pimc_stop,
};
