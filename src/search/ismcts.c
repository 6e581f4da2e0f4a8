/* ismcts.c — Information Set MCTS (Cowling, Powley and Whitehouse 2012),
 * an honest bot for games with hidden information: single-observer (one
 * tree, the default) and multiple-observer (`mo=1`: a tree per player).
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
 * Multiple observers (mo=1): one tree per player, walked together. A
 * tree's edges are moves as its owner sees them: his own moves whole,
 * anyone else's (and chance outcomes) by what they change in his
 * observation (a hash of the bytes of observe() that the move changed,
 * and their new values), so that moves he cannot tell apart share a
 * node. The player to move selects in his own tree (UCB with
 * availability); every other tree follows the edge of what its owner saw.
 * Each tree adds at most one node an iteration; a player whose tree has
 * run out moves by the playout policy. The opponents thus choose as
 * someone who does not see what they cannot see, and the root player's
 * later choices cannot depend on the opponents' unseen moves (strategy
 * fusion).
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
    int mo;
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
    /* mo=1: each player's tree root, path and observation */
    uint32_t root[PLY_MAX_PLAYERS];
    uint32_t *mpath;            /* num_players x path_cap */
    int mlen[PLY_MAX_PLAYERS];
    unsigned char *obs;         /* num_players x state_size, and one more */
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
    ISO("mo", OPT_BOOL, 0, 0, 1, mo,
        "multiple observers: a tree for each player, whose edges are moves "
        "as that player sees them (0: one tree, the player to move's)"),
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
    size_t np = (size_t)g->info.num_players;
    if (b->o.mo) {
        b->mpath = malloc(sizeof(uint32_t) * np * (size_t)b->path_cap);
        b->obs = malloc(g->info.state_size * (np + 1));
    }
    if (!b->n || !b->moves || !b->probs || !b->flag || !b->path || !b->st ||
        (b->o.mo && (!b->mpath || !b->obs)) ||
        belief_init(&b->bel, g, b->o.belief, b->o.model, err)) {
        free(b->n), free(b->moves), free(b->probs), free(b->flag);
        free(b->path), free(b->st), free(b->mpath), free(b->obs), free(b);
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
    free(b->path), free(b->st), free(b->mpath), free(b->obs), free(b);
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

/* The playout policy's move for p at st (chance by its odds; else the
 * game's favourite, or with probability eps a random one); 0 when p has
 * no move. */
static int policy_move(Ismcts *b, const void *st, int p, Move *out)
{
    const GameVtbl *g = b->g;
    int k;
    Move m;
    if (p == PLAYER_CHANCE) {
        k = g->chance_outcomes(st, b->moves, b->probs);
        m = b->moves[pick_chance(b, k)];
    } else {
        k = g->gen_moves(st, b->moves);
        if (k < 1)
            return 0;
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
    *out = m;
    return 1;
}

static void playout(Ismcts *b, void *st, double *r)
{
    const GameVtbl *g = b->g;
    int cap = g->eval ? b->o.playout : g->info.max_game_length;
    for (int ply = 0; ply < cap; ply++) {
        int p = g->to_move(st);
        Move m;
        if (p == PLAYER_TERMINAL || !policy_move(b, st, p, &m))
            break;
        g->make(st, m);
    }
    score(b, st, r);
}

/* The child of node `at` reached by `key`, made when missing (mover: who
 * played it); NONE when it is missing and the tree is full. */
static uint32_t child_by_key(Ismcts *b, uint32_t at, Move key, int mover,
                             int *fresh)
{
    uint32_t c = b->n[at].child;
    while (c != NONE && b->n[c].move != key)
        c = b->n[c].sibling;
    *fresh = c == NONE;
    return c != NONE ? c : new_node(b, at, key, mover);
}

/* Selection in node `at` among the k moves of this world (b->moves):
 * the best known child by UCB with availability, or an untried move to
 * add. Returns the index into b->moves, with *child the known child or
 * NONE for an untried move; -1 when nothing is known here and the tree
 * is full. */
static int select_move(Ismcts *b, uint32_t at, int k, uint32_t *child)
{
    memset(b->flag, 0, (size_t)k);
    int bestj = -1;
    uint32_t best = NONE;
    double bestv = -1e300;
    for (uint32_t c = b->n[at].child; c != NONE; c = b->n[c].sibling) {
        int j = 0;
        while (j < k && b->moves[j] != b->n[c].move)
            j++;
        if (j == k)
            continue;
        b->flag[j] = 1;
        INode *x = &b->n[c];
        x->avail++;
        double v = x->visits ? x->reward / x->visits +
                                   b->o.c * sqrt(log((double)x->avail) /
                                                 x->visits)
                             : 1e9;
        if (v > bestv) {
            bestv = v;
            bestj = j;
            best = c;
        }
    }
    int untried = 0;
    for (int j = 0; j < k; j++)
        untried += !b->flag[j];
    if (untried && b->nn < (uint32_t)b->o.tree) {
        int pick = (int)rng_below(&b->rng, (uint32_t)untried);
        for (int j = 0;; j++)
            if (!b->flag[j] && pick-- == 0) {
                *child = NONE;
                return j;
            }
    }
    *child = best;
    return bestj;
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
            int fresh;
            uint32_t c = child_by_key(b, cur, m, PLAYER_CHANCE, &fresh);
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
        uint32_t best;
        int j = select_move(b, cur, k, &best);
        if (j < 0)
            break;   /* tree full and nothing known here: play it out */
        if (best == NONE) {
            uint32_t c = new_node(b, cur, b->moves[j], p);
            g->make(st, b->moves[j]);
            b->path[np++] = c;
            break;
        }
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

/* ---- multiple observers (mo=1) ---- */

/* What `before` -> `after` (two observations of one player) shows of a
 * move: the offsets of the bytes that changed and their new values. */
static Move seen_key(const unsigned char *before, const unsigned char *after,
                     size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++)
        if (before[i] != after[i])
            h = ply_mix64(h ^ ((uint64_t)i << 8 | after[i]));
    return h;
}

static void mo_iterate(Ismcts *b, const void *obs)
{
    const GameVtbl *g = b->g;
    void *st = b->st;
    size_t sz = g->info.state_size;
    int np = g->info.num_players, left = np;
    int in[PLY_MAX_PLAYERS];
    uint32_t cur[PLY_MAX_PLAYERS];
    double r[PLY_MAX_PLAYERS];
    const void *w = belief_world(&b->bel, obs, &b->rng, st);
    if (w != st)
        memcpy(st, w, sz);
    unsigned char *after = b->obs + sz * (size_t)np;
    for (int q = 0; q < np; q++) {
        in[q] = 1;
        cur[q] = b->root[q];
        b->mpath[q * b->path_cap] = cur[q];
        b->mlen[q] = 1;
        g->observe(st, q, b->obs + sz * (size_t)q);
    }
    while (left) {
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL)
            break;
        Move m;
        if (p >= 0 && in[p]) {
            int k = g->gen_moves(st, b->moves);
            uint32_t known;
            int j = k > 0 ? select_move(b, cur[p], k, &known) : -1;
            if (j < 0) {
                in[p] = 0;
                left--;
                if (!policy_move(b, st, p, &m))
                    break;
            } else {
                m = b->moves[j];
            }
        } else if (!policy_move(b, st, p, &m)) {
            break;
        }
        g->make(st, m);
        for (int q = 0; q < np; q++) {
            if (!in[q])
                continue;
            unsigned char *mine = b->obs + sz * (size_t)q;
            Move key = m;
            if (q != p) {
                g->observe(st, q, after);
                key = seen_key(mine, after, sz);
                memcpy(mine, after, sz);
            }
            int fresh, *len = &b->mlen[q];
            uint32_t c = *len < b->path_cap
                             ? child_by_key(b, cur[q], key, p, &fresh)
                             : NONE;
            if (c != NONE)
                b->mpath[q * b->path_cap + (*len)++] = cur[q] = c;
            if (c == NONE || fresh) {
                in[q] = 0;      /* one new node a tree an iteration */
                left--;
            } else if (q == p) {
                /* the mover's own observation, for what others do next */
                g->observe(st, q, mine);
            }
        }
    }
    playout(b, st, r);
    for (int q = 0; q < np; q++)
        for (int i = 0; i < b->mlen[q]; i++) {
            INode *x = &b->n[b->mpath[q * b->path_cap + i]];
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
    int mo = b->o.mo && g->observe;
    int np = g->info.num_players;
    b->nn = mo ? (uint32_t)np : 1;
    for (uint32_t q = 0; q < b->nn; q++) {
        b->n[q] = (INode){.child = NONE, .sibling = NONE, .mover = -1};
        b->root[q] = q;
    }
    /* the root player's tree: node 0 in either mode */
    if (mo) {
        b->root[0] = (uint32_t)me;
        b->root[me] = 0;
    }
    uint64_t it = 0;
    while (!max || it < max) {
        if (mo)
            mo_iterate(b, st);
        else
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
