/* ismcts.c — single-observer Information Set MCTS (Cowling, Powley and
 * Whitehouse 2012), an honest bot for games with hidden information.
 *
 * choose() gets what the player to move observes (bot.h). Each iteration
 * samples one world consistent with it (from its belief, belief.h: worlds
 * that also explain what its seat saw at its earlier turns; with belief=0
 * determinize() of the observation alone) and walks one tree
 * whose nodes are move sequences from the observer's information set:
 * at a node only the children whose move is legal in this world are
 * candidates, each counts how often it was available, and UCB uses that
 * count in place of the parent's visits. Moves not yet in the tree are
 * expanded one per iteration; a playout of at most `playout` plies
 * follows (chance by its odds, else the move the game's heuristic likes
 * best, or a random one with probability eps), scored by the result or by
 * tanh(eval/scale). Chance
 * nodes are sampled by probability. In games without hidden information it
 * is plain UCT with availability counts equal to visits.
 *
 * No global state; a fixed seed reproduces every search. The tree lives in
 * one block of `tree` nodes allocated at create; when it is full the
 * search goes on without expanding. */
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "belief.h"

enum { NONE = 0xffffffffu, DEFAULT_ITERS = 20000 };

typedef struct INode {
    Move move;              /* the move that leads here */
    uint32_t child, sibling;
    uint32_t visits, avail;
    double reward;          /* sum of rewards of `mover` */
    int mover;              /* who played move (PLAYER_CHANCE: chance) */
} INode;

typedef struct IsOpts {
    double c, eps;
    int playout;
    double scale;
    int tree;
    int belief, model;
} IsOpts;

typedef struct Ismcts {
    const GameVtbl *g;
    IsOpts o;
    uint64_t seed;
    Rng rng;
    INode *n;
    uint32_t nn;
    Move *moves;
    double *probs;
    unsigned char *flag;
    uint32_t *path;
    int path_cap;
    unsigned char *st;
    Belief bel;
    atomic_int stop;
} Ismcts;

#define ISO(k, t, d, lo, hi, field, h)                                      \
    {.key = k, .type = t, .def = d, .min = lo, .max = hi,                  \
     .offset = offsetof(IsOpts, field), .help = h}

static const Option is_options[] = {
    ISO("c", OPT_DOUBLE, 0.7, 0, 100, c,
        "exploration constant (rewards in [-1,1])"),
    ISO("playout", OPT_INT, 24, 0, 100000, playout,
        "playout plies before the position is scored by eval (0: eval at "
        "once; games without eval play to the end)"),
    ISO("eps", OPT_DOUBLE, 0.5, 0, 1, eps,
        "playouts: probability of a uniformly random move; otherwise the "
        "move the game's heuristic likes best"),
    ISO("scale", OPT_DOUBLE, 400, 1, 1e9, scale,
        "eval to reward: tanh(eval/scale)"),
    ISO("tree", OPT_INT, 400000, 16, 100000000, tree,
        "tree nodes (about 40 bytes each)"),
    ISO("belief", OPT_INT, 4096, 0, 65536, belief,
        "hidden information: worlds remembered from the seat's earlier "
        "observations and moves (a particle filter; 0: none, each world "
        "sampled from the current observation alone)"),
    ISO("model", OPT_INT, 1, 0, 1, model,
        "the opponent model of the belief: 0 every move alike, 1 captures "
        "four times as likely"),
    {.key = NULL},
};

static void *is_create(const GameVtbl *g, const void *opts, uint64_t seed,
                       PlyError *err)
{
    Ismcts *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    b->o = *(const IsOpts *)opts;
    b->seed = seed;
    rng_seed(&b->rng, seed);
    size_t mm = (size_t)g->info.max_moves;
    b->path_cap = g->info.max_game_length + 2;
    b->n = malloc(sizeof(INode) * (size_t)b->o.tree);
    b->moves = malloc(sizeof(Move) * mm);
    b->probs = malloc(sizeof(double) * mm);
    b->flag = malloc(mm);
    b->path = malloc(sizeof(uint32_t) * (size_t)b->path_cap);
    b->st = malloc(g->info.state_size);
    if (!b->n || !b->moves || !b->probs || !b->flag || !b->path || !b->st ||
        belief_init(&b->bel, g, b->o.belief, b->o.model, err)) {
        free(b->n), free(b->moves), free(b->probs), free(b->flag);
        free(b->path), free(b->st), free(b);
        if (!err || !err->msg[0])
            ply_fail(err, "out of memory");
        return NULL;
    }
    return b;
}

static void is_destroy(void *p)
{
    Ismcts *b = p;
    if (!b)
        return;
    belief_free(&b->bel);
    free(b->n), free(b->moves), free(b->probs), free(b->flag);
    free(b->path), free(b->st), free(b);
}

static void is_new_game(void *p)
{
    Ismcts *b = p;
    rng_seed(&b->rng, b->seed);
    belief_reset(&b->bel);
}

static void is_stop(void *p)
{
    Ismcts *b = p;
    atomic_store(&b->stop, 1);
}

static uint32_t new_node(Ismcts *b, uint32_t parent, Move m, int mover)
{
    if (b->nn >= (uint32_t)b->o.tree)
        return NONE;
    uint32_t i = b->nn++;
    INode *x = &b->n[i];
    x->move = m;
    x->child = NONE;
    x->visits = 0;
    x->avail = 1;
    x->reward = 0;
    x->mover = mover;
    x->sibling = b->n[parent].child;
    b->n[parent].child = i;
    return i;
}

/* A chance outcome's index by probability. */
static int pick_chance(Ismcts *b, int k)
{
    double x = rng_double(&b->rng), acc = 0;
    for (int i = 0; i < k; i++) {
        acc += b->probs[i];
        if (x < acc)
            return i;
    }
    return k - 1;
}

/* Rewards of the position reached: the result, or tanh(eval/scale). */
static void score(Ismcts *b, const void *st, double *r)
{
    const GameVtbl *g = b->g;
    int np = g->info.num_players;
    if (g->to_move(st) == PLAYER_TERMINAL) {
        g->returns(st, r);
        return;
    }
    for (int q = 0; q < np; q++)
        r[q] = g->eval ? tanh((double)g->eval(st, q) / b->o.scale) : 0;
}

static void playout(Ismcts *b, void *st, double *r)
{
    const GameVtbl *g = b->g;
    int cap = g->eval ? b->o.playout : g->info.max_game_length;
    for (int ply = 0; ply < cap; ply++) {
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL)
            break;
        int k;
        Move m;
        if (p == PLAYER_CHANCE) {
            k = g->chance_outcomes(st, b->moves, b->probs);
            m = b->moves[pick_chance(b, k)];
        } else {
            k = g->gen_moves(st, b->moves);
            if (k < 1)
                break;
            m = b->moves[rng_below(&b->rng, (uint32_t)k)];
            if (g->heuristic && rng_double(&b->rng) >= b->o.eps) {
                /* the game's favourite move (a king capture, a big take) */
                int best = g->heuristic(st, m);
                for (int i = 0; i < k; i++) {
                    int h = g->heuristic(st, b->moves[i]);
                    if (h > best) {
                        best = h;
                        m = b->moves[i];
                    }
                }
            }
        }
        g->make(st, m);
    }
    score(b, st, r);
}

/* One iteration from the observation obs. */
static void iterate(Ismcts *b, const void *obs)
{
    const GameVtbl *g = b->g;
    void *st = b->st;
    double r[PLY_MAX_PLAYERS];
    const void *w = belief_world(&b->bel, obs, &b->rng, st);
    if (w != st)
        memcpy(st, w, g->info.state_size);
    uint32_t cur = 0;
    int np = 0;
    b->path[np++] = 0;
    for (;;) {
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL || np >= b->path_cap)
            break;
        if (p == PLAYER_CHANCE) {
            int k = g->chance_outcomes(st, b->moves, b->probs);
            Move m = b->moves[pick_chance(b, k)];
            uint32_t c = b->n[cur].child;
            while (c != NONE && b->n[c].move != m)
                c = b->n[c].sibling;
            int fresh = c == NONE;
            if (fresh)
                c = new_node(b, cur, m, PLAYER_CHANCE);
            g->make(st, m);
            if (c == NONE)
                break;
            b->path[np++] = cur = c;
            if (fresh)
                break;
            continue;
        }
        int k = g->gen_moves(st, b->moves);
        if (k < 1)
            break;
        memset(b->flag, 0, (size_t)k);
        /* the children available in this world, and the best by UCB */
        uint32_t best = NONE;
        double bestv = -1e300;
        for (uint32_t c = b->n[cur].child; c != NONE; c = b->n[c].sibling) {
            int j = 0;
            while (j < k && b->moves[j] != b->n[c].move)
                j++;
            if (j == k)
                continue;
            b->flag[j] = 1;
            INode *x = &b->n[c];
            x->avail++;
            double v = x->visits
                ? x->reward / x->visits +
                  b->o.c * sqrt(log((double)x->avail) / x->visits)
                : 1e9;
            if (v > bestv) {
                bestv = v;
                best = c;
            }
        }
        int untried = 0;
        for (int j = 0; j < k; j++)
            untried += !b->flag[j];
        if (untried && b->nn < (uint32_t)b->o.tree) {
            int pick = (int)rng_below(&b->rng, (uint32_t)untried);
            int j = 0;
            for (;; j++)
                if (!b->flag[j] && pick-- == 0)
                    break;
            uint32_t c = new_node(b, cur, b->moves[j], p);
            g->make(st, b->moves[j]);
            b->path[np++] = c;
            break;
        }
        if (best == NONE)
            break;   /* tree full and nothing known here: play it out */
        g->make(st, b->n[best].move);
        b->path[np++] = cur = best;
    }
    playout(b, st, r);
    for (int i = 0; i < np; i++) {
        INode *x = &b->n[b->path[i]];
        x->visits++;
        if (i > 0 && x->mover >= 0)
            x->reward += r[x->mover];
    }
}

static Move is_choose(void *p, const void *st, const Limits *lim,
                      SearchInfo *out)
{
    Ismcts *b = p;
    const GameVtbl *g = b->g;
    int me = g->to_move(st);
    if (me < 0)
        return 0;
    atomic_store(&b->stop, 0);
    BotClock clk;
    BotTick tick = {0, 0, 1};
    botclock_start(&clk, lim, lim->time_ms > 0 ? lim->time_ms : 0);
    uint64_t max = lim->nodes;
    if (!max && !clk.stop)
        max = DEFAULT_ITERS;
    /* the belief's update gets a quarter of a timed move */
    belief_observe(&b->bel, st, &b->rng, &clk,
                   clk.stop ? clk.t0 + lim->time_ms * 250 : 0);
    b->nn = 1;
    b->n[0] = (INode){.child = NONE, .sibling = NONE, .mover = -1};
    uint64_t it = 0;
    while (!max || it < max) {
        iterate(b, st);
        it++;
        if (atomic_load(&b->stop) || botclock_check(&clk, &tick))
            break;
    }
    /* the most visited root move that is legal (the same in every world) */
    const void *w = bot_world(g, st, &b->rng, b->st);
    int k = g->gen_moves(w, b->moves);
    uint32_t best = NONE;
    int tl = 0;
    for (uint32_t c = b->n[0].child; c != NONE; c = b->n[c].sibling) {
        int j = 0;
        while (j < k && b->moves[j] != b->n[c].move)
            j++;
        if (j == k)
            continue;
        INode *x = &b->n[c];
        if (best == NONE || x->visits > b->n[best].visits ||
            (x->visits == b->n[best].visits && x->reward > b->n[best].reward))
            best = c;
    }
    /* top moves by visits: SEARCH_MAX_TOP passes over the root's children */
    uint32_t last = UINT32_MAX;
    while (tl < SEARCH_MAX_TOP) {
        uint32_t pick = NONE;
        for (uint32_t c = b->n[0].child; c != NONE; c = b->n[c].sibling) {
            uint32_t v = b->n[c].visits;
            if (v < last && (pick == NONE || v > b->n[pick].visits))
                pick = c;
        }
        if (pick == NONE || !b->n[pick].visits)
            break;
        /* every child with this count, in tree order */
        last = b->n[pick].visits;
        for (uint32_t c = b->n[0].child; c != NONE && tl < SEARCH_MAX_TOP;
             c = b->n[c].sibling)
            if (b->n[c].visits == last) {
                out->top[tl] = b->n[c].move;
                out->top_visits[tl] = last;
                out->top_value[tl] = b->n[c].reward / last;
                tl++;
            }
    }
    out->top_len = tl;
    Move m = best != NONE ? b->n[best].move : k > 0 ? b->moves[0] : 0;
    out->best = m;
    out->nodes = it;
    out->playouts = it;
    out->seconds = (double)botclock_elapsed_us(&clk) / 1e6;
    if (best != NONE && b->n[best].visits)
        out->value = (int)lrint(b->n[best].reward / b->n[best].visits * 1000);
    out->pv_len = 1;
    out->pv[0] = m;
    belief_chose(&b->bel, m);
    return m;
}

const BotVtbl bot_ismcts = {
    .name = "ismcts",
    .help =
        "Single-observer Information Set MCTS: each iteration samples a "
        "world consistent with what the player to move sees and walks one "
        "tree of his information sets, counting how often each move was "
        "available (UCB with availability); short playouts (epsilon-greedy "
        "by the game's heuristic) scored by eval. The worlds come from "
        "its belief (belief=N): worlds consistent with everything its seat "
        "saw at its earlier turns and the moves it chose (a particle "
        "filter). Honest by construction: it only ever gets the "
        "observation. Limits: time, iterations.",
    .options = is_options,
    .options_size = sizeof(IsOpts),
    .create = is_create,
    .destroy = is_destroy,
    .new_game = is_new_game,
    .choose = is_choose,
    .stop = is_stop,
};
