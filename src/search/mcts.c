/* mcts.c — the generic Monte Carlo tree search bot.
 *
 * UCT over the node pool of mcts_tree.c, for 1..8 players (each node keeps
 * the value of the player who moved into it: max^n backups of vector
 * rewards), chance nodes sampled by probability, MCTS-Solver for one- and
 * two-player zero-sum games (exact values backed up; a player moving twice
 * in a row needs no sign change), RAVE as an option, several playouts per
 * leaf, tree reuse between moves and tree-parallel threads with virtual
 * loss. With one thread and an iteration limit a search is a pure function
 * of the seed, the position and the tree kept from earlier moves.
 *
 * An iteration: copy the root state, descend by UCB replaying moves,
 * expand a leaf once it has `expand` visits (all children at once, ordered
 * by the heuristic hook or shuffled), simulate `playouts` games from the
 * leaf (the game's playout hook, or moves from gen_moves: uniform or
 * epsilon-greedy over the heuristic), back the mean reward vector up.
 *
 * Options (bot spec "mcts:key=val,..."; time/iterations/seed are limits):
 *   c=F          exploration constant (rewards are in [-1,1]), default 1.0
 *   mem=N        pool memory: MiB, or with suffix k (KiB); default 256
 *   threads=N    search threads, default 1
 *   playouts=N   playouts per leaf, default 1
 *   expand=N     visits before a leaf is expanded, default 2
 *   reuse=0|1    keep the subtree of the position reached, default 1
 *   solver=0|1   MCTS-Solver (1-2 player zero-sum games), default 1
 *   rave=0|1     RAVE/AMAF blending, default 0
 *   bias=F       RAVE bias b in beta = m/(n+m+4b^2nm), default 0.1
 *   grave=R      GRAVE: AMAF values from the nearest ancestor with at
 *                least R visits and the same player to move (implies
 *                rave=1); 0 (default) is plain RAVE
 *   amaf_all=0|1 AMAF counts every player's moves (impartial games);
 *                default 1 for GAME_IMPARTIAL games
 *   policy=auto|game|random|heuristic   playout policy; auto = the game's
 *                playout hook when present, else heuristic (epsilon-greedy)
 *                when the game has that hook, else random. On kalah at
 *                50 ms/move heuristic beat random 22-8.
 *   eps=F        heuristic policy: probability of a random move, 0.1
 *   ept=N        early playout termination: after N playout plies score
 *                the position with the eval hook, tanh(eval/ept_scale)
 *                per player (ept_scale default 400); 0 (default) plays
 *                to the end. Uses the policy loop, not the playout hook.
 *   im=A         implicit minimax backups (Lanctot et al. 2014): children
 *                are scored by tanh(eval/ept_scale) at expansion, minimax
 *                values backed up the tree, and selection uses
 *                (1-A) mean + A minimax; untried children come in minimax
 *                order. One- and two-player zero-sum games with eval.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/util.h"
#include "mcts_tree.h"

enum { POL_AUTO, POL_GAME, POL_RANDOM, POL_HEURISTIC };
enum { MCTS_MAX_THREADS = 64, TRACK_MAX = 512, FIND_BUDGET = 20000,
       FIND_DEPTH = 4, INFO_PERIOD_MS = 250, DEFAULT_ITERS = 50000 };

typedef struct MctsOpts {
    double c;
    size_t mem;
    int threads, playouts, reuse, solver, rave, amaf_all, policy;
    uint32_t expand, grave;
    int ept;
    double bias, eps, ept_scale, im;
} MctsOpts;

struct Mcts;

typedef struct Worker {
    struct Mcts *m;
    int id;
    Rng rng;
    unsigned char *st, *tmp;
    Move *moves;
    double *probs;
    int *hval;
    uint32_t *order;
    uint32_t *path;          /* node indices from the root */
    int *path_seq;           /* seq length when leaving path[d] */
    int path_cap;
    /* AMAF: the (player, move) sequence of one iteration, and a set */
    Move *seq_move;
    int8_t *seq_player;
    int seq_len, seq_cap;
    uint64_t *set_key;
    uint32_t *set_stamp;
    uint32_t set_mask, stamp;
    /* GRAVE: the reference node's children by AMAF key */
    uint64_t *ref_key;
    uint32_t *ref_idx, *ref_stamp;
    uint32_t ref_mask, ref_gen;
    /* read by the reporting thread while searching */
    _Atomic uint64_t iters, playouts;
    _Atomic int seldepth;
    pthread_t th;
    int started;
} Worker;

typedef struct Mcts {
    const GameVtbl *g;
    MctsOpts o;
    size_t sz;
    int solver_ok;           /* exact values convert between players */
    int im_ok;               /* implicit minimax on (same condition) */
    uint64_t seed;
    Rng rng;
    MctsPool pool[2];
    int cur;
    uint32_t root;           /* in pool[cur]; MCTS_NONE: no tree */
    unsigned char *root_state;
    /* tree reuse: the moves informed since the last search */
    unsigned char *track_state, *find_state;
    Move track[TRACK_MAX];
    int ntrack, track_ok;
    Worker *w;
    /* the running search */
    _Atomic int stop;
    _Atomic uint64_t claimed;
    uint64_t max_iters;
    int64_t t0, deadline;
    const Limits *lim;
    SearchInfo *out;
    int64_t last_info;
} Mcts;

/* ---------------------------------------------------------------------- */
/* Options: the table bot_new() reads a spec with, and its struct */

typedef struct MctsSpec {
    double c, bias, eps, ept_scale, im;
    size_t mem;
    int threads, playouts, expand, reuse, solver, rave, grave, amaf_all;
    int policy, ept;
} MctsSpec;

static const char *const policy_choices[] = {"auto", "game", "random",
                                             "heuristic", NULL};
static const char *const amaf_choices[] = {"auto", "0", "1", NULL};

#define MCTS_OPT(k, t, d, lo, hi, field, h)                                 \
    {.key = k, .type = t, .def = d, .min = lo, .max = hi,                  \
     .offset = offsetof(MctsSpec, field), .help = h}

static const Option mcts_options[] = {
    MCTS_OPT("c", OPT_DOUBLE, 1.0, 0, 100, c,
             "exploration constant (rewards are in [-1,1])"),
    {.key = "mem", .type = OPT_SIZE, .def = 256.0 * 1024 * 1024, .min = 1,
     .max = 64.0 * 1024 * 1024 * 1024,
     .offset = offsetof(MctsSpec, mem), .engine = "Hash",
     .help = "node pool memory (half of it for each of the two pools "
             "with reuse=1)"},
    {.key = "threads", .type = OPT_INT, .def = 1, .min = 1,
     .max = MCTS_MAX_THREADS, .offset = offsetof(MctsSpec, threads),
     .engine = "Threads",
     .help = "search threads (tree parallel, virtual loss)"},
    MCTS_OPT("playouts", OPT_INT, 1, 1, 1000, playouts,
             "playouts per leaf"),
    MCTS_OPT("expand", OPT_INT, 2, 1, 1000000, expand,
             "visits before a leaf is expanded"),
    MCTS_OPT("reuse", OPT_BOOL, 1, 0, 1, reuse,
             "keep the subtree of the position reached"),
    MCTS_OPT("solver", OPT_BOOL, 1, 0, 1, solver,
             "MCTS-Solver (one- and two-player zero-sum games)"),
    MCTS_OPT("rave", OPT_BOOL, 0, 0, 1, rave, "RAVE/AMAF blending"),
    MCTS_OPT("grave", OPT_INT, 0, 0, 1000000000, grave,
             "GRAVE: AMAF values from the nearest ancestor with at least "
             "this many visits and the same player to move (implies "
             "rave=1); 0 is plain RAVE"),
    MCTS_OPT("bias", OPT_DOUBLE, 0.1, 0, 1e6, bias,
             "RAVE bias b in beta = m/(n+m+4b^2nm)"),
    {.key = "amaf_all", .type = OPT_CHOICE, .choices = amaf_choices,
     .offset = offsetof(MctsSpec, amaf_all),
     .help = "AMAF counts every player's moves; auto: 1 in impartial "
             "games"},
    {.key = "policy", .type = OPT_CHOICE, .def = POL_AUTO,
     .choices = policy_choices, .offset = offsetof(MctsSpec, policy),
     .help = "playout policy; auto: the game's playout hook when present, "
             "else heuristic (epsilon-greedy) when the game has that hook, "
             "else random"},
    MCTS_OPT("eps", OPT_DOUBLE, 0.1, 0, 1, eps,
             "heuristic policy: probability of a random move"),
    MCTS_OPT("ept", OPT_INT, 0, 0, 100000, ept,
             "early playout termination: after N playout plies score the "
             "position by eval, tanh(eval/ept_scale); 0 plays to the end"),
    {.key = "ept_scale", .type = OPT_DOUBLE, .def = 400, .min = 0,
     .max = 1e9, .flags = OPTF_MIN_EXCLUSIVE,
     .offset = offsetof(MctsSpec, ept_scale),
     .help = "eval units squashed by tanh (ept, im)"},
    MCTS_OPT("im", OPT_DOUBLE, 0, 0, 1, im,
             "implicit minimax weight: children scored by eval at "
             "expansion, minimax backups, selection on (1-A) mean + A "
             "minimax (zero-sum games with eval)"),
    {.key = NULL},
};

/* ---------------------------------------------------------------------- */
/* Workers */

static void worker_free(Worker *w)
{
    free(w->st);
    free(w->tmp);
    free(w->moves);
    free(w->probs);
    free(w->hval);
    free(w->order);
    free(w->path);
    free(w->path_seq);
    free(w->seq_move);
    free(w->seq_player);
    free(w->set_key);
    free(w->set_stamp);
    free(w->ref_key);
    free(w->ref_idx);
    free(w->ref_stamp);
}

static int worker_init(Worker *w, Mcts *m, int id)
{
    const GameInfo *in = &m->g->info;
    size_t mm = (size_t)in->max_moves;
    memset(w, 0, sizeof *w);
    w->m = m;
    w->id = id;
    w->st = malloc(m->sz);
    w->tmp = malloc(m->sz);
    w->moves = malloc(mm * sizeof(Move));
    w->probs = malloc(mm * sizeof(double));
    w->hval = malloc(mm * sizeof(int));
    w->order = malloc(mm * sizeof(uint32_t));
    /* a tree path is at most one node per ply, plus the root */
    w->path_cap = in->max_game_length + 2;
    w->path = malloc((size_t)w->path_cap * sizeof(uint32_t));
    w->path_seq = malloc((size_t)w->path_cap * sizeof(int));
    if (!w->st || !w->tmp || !w->moves || !w->probs || !w->hval ||
        !w->order || !w->path || !w->path_seq)
        return -1;
    if (m->o.rave) {
        w->seq_cap = 2 * in->max_game_length + 16;
        w->seq_move = malloc((size_t)w->seq_cap * sizeof(Move));
        w->seq_player = malloc((size_t)w->seq_cap);
        uint32_t sz = 64;
        while (sz < 2u * (uint32_t)w->seq_cap)
            sz *= 2;
        w->set_mask = sz - 1;
        w->set_key = malloc(sz * sizeof(uint64_t));
        w->set_stamp = calloc(sz, sizeof(uint32_t));
        if (!w->seq_move || !w->seq_player || !w->set_key || !w->set_stamp)
            return -1;
    }
    if (m->o.grave) {
        uint32_t sz = 16;
        while (sz < 2u * (uint32_t)in->max_moves)
            sz *= 2;
        w->ref_mask = sz - 1;
        w->ref_key = malloc(sz * sizeof(uint64_t));
        w->ref_idx = malloc(sz * sizeof(uint32_t));
        w->ref_stamp = calloc(sz, sizeof(uint32_t));
        if (!w->ref_key || !w->ref_idx || !w->ref_stamp)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Helpers */

static inline MctsNode *node_at(Mcts *m, uint32_t i)
{
    return &m->pool[m->cur].node[i];
}

static inline int is_proven(MctsNode *n)
{
    return atomic_load_explicit(&n->proven, memory_order_acquire) ==
           PROVEN_YES;
}

static inline int32_t exact_of(MctsNode *n)
{
    return atomic_load_explicit(&n->exact, memory_order_relaxed);
}

static inline int32_t to_fix(double r)
{
    return (int32_t)lrint(r * MCTS_FIX);
}

static void set_proven(MctsNode *n, int32_t v)
{
    atomic_store_explicit(&n->im, v, memory_order_relaxed);
    atomic_store_explicit(&n->exact, v, memory_order_relaxed);
    atomic_store_explicit(&n->proven, PROVEN_YES, memory_order_release);
}

/* An exact value for player `pov` as a reward vector (solver games only:
 * one player, or two with zero sum). */
static void exact_to_reward(const Mcts *m, int pov, int32_t v, double *r)
{
    double x = (double)v / MCTS_FIX;
    int np = m->g->info.num_players;
    for (int i = 0; i < np; i++)
        r[i] = i == pov ? x : -x;
}

/* A chance outcome index by probability. */
static int sample_prob(Rng *r, const double *p, int n)
{
    double u = rng_double(r), total = 0;
    for (int i = 0; i < n; i++)
        total += p[i];
    u *= total;
    for (int i = 0; i < n; i++) {
        u -= p[i];
        if (u < 0)
            return i;
    }
    return n - 1;
}

/* ---------------------------------------------------------------------- */
/* AMAF set: (player, move) keys of one iteration, cleared by a stamp. */

static inline uint64_t amaf_key(const Mcts *m, int player, Move mv)
{
    return ply_mix64(mv ^ ((uint64_t)(m->o.amaf_all ? 0 : player + 1) << 58));
}

static void set_clear(Worker *w)
{
    if (++w->stamp == 0) {
        memset(w->set_stamp, 0, (w->set_mask + 1) * sizeof(uint32_t));
        w->stamp = 1;
    }
}

static void set_add(Worker *w, uint64_t k)
{
    uint32_t i = (uint32_t)k & w->set_mask;
    while (w->set_stamp[i] == w->stamp) {
        if (w->set_key[i] == k)
            return;
        i = (i + 1) & w->set_mask;
    }
    w->set_stamp[i] = w->stamp;
    w->set_key[i] = k;
}

static int set_has(const Worker *w, uint64_t k)
{
    uint32_t i = (uint32_t)k & w->set_mask;
    while (w->set_stamp[i] == w->stamp) {
        if (w->set_key[i] == k)
            return 1;
        i = (i + 1) & w->set_mask;
    }
    return 0;
}

static inline void seq_push(Worker *w, int player, Move mv)
{
    if (w->seq_move && w->seq_len < w->seq_cap) {
        w->seq_move[w->seq_len] = mv;
        w->seq_player[w->seq_len] = (int8_t)player;
        w->seq_len++;
    }
}

/* ---------------------------------------------------------------------- */
/* Implicit minimax */

/* The heuristic value for pov of the position after move mv from w->st. */
static int32_t leaf_im(Worker *w, Move mv, int pov)
{
    Mcts *m = w->m;
    const GameVtbl *g = m->g;
    memcpy(w->tmp, w->st, m->sz);
    g->make(w->tmp, mv);
    int tm = g->to_move(w->tmp);
    double v;
    if (tm == PLAYER_TERMINAL) {
        double r[PLY_MAX_PLAYERS];
        g->returns(w->tmp, r);
        v = r[pov];
    } else {
        v = tanh((double)g->eval(w->tmp, pov) / m->o.ept_scale);
    }
    return to_fix(v);
}

/* n's minimax value from its children's: the best for the player to
 * move (converted to n's pov), or the expectation at a chance node. */
static void update_im(Mcts *m, MctsNode *n)
{
    if (atomic_load_explicit(&n->state, memory_order_acquire) !=
        NODE_EXPANDED)
        return;
    MctsPool *p = &m->pool[m->cur];
    uint32_t f = atomic_load_explicit(&n->first, memory_order_relaxed);
    uint32_t k = atomic_load_explicit(&n->nchild, memory_order_relaxed);
    MctsNode *ch = &p->node[f];
    int32_t v;
    if (ch[0].mover == PLAYER_CHANCE) {
        double s = 0, ps = 0;
        for (uint32_t i = 0; i < k; i++) {
            s += ch[i].prob * (double)atomic_load_explicit(
                                  &ch[i].im, memory_order_relaxed);
            ps += ch[i].prob;
        }
        v = (int32_t)lrint(ps > 0 ? s / ps : 0);
    } else {
        int32_t best = INT32_MIN;
        for (uint32_t i = 0; i < k; i++) {
            int32_t x = atomic_load_explicit(&ch[i].im, memory_order_relaxed);
            if (x > best)
                best = x;
        }
        v = ch[0].pov == n->pov ? best : -best;
    }
    atomic_store_explicit(&n->im, v, memory_order_relaxed);
}

/* ---------------------------------------------------------------------- */
/* Expansion */

static int cmp_hval_desc(const void *a, const void *b, void *ctx)
{
    const int *h = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (h[x] != h[y])
        return h[x] > h[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Sorts order[0..n) by descending hval, ties by index (deterministic). */
static void sort_by_hval(uint32_t *order, const int *h, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t x = order[i];
        int j = i - 1;
        while (j >= 0 && cmp_hval_desc(&order[j], &x, (void *)h) > 0) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
}

/* Expands node idx at state w->st whose player to move is tm. Returns 1
 * on success, 0 when another thread has it or the pool is full. */
static int expand(Worker *w, uint32_t idx, int tm)
{
    Mcts *m = w->m;
    const GameVtbl *g = m->g;
    MctsPool *p = &m->pool[m->cur];
    MctsNode *n = &p->node[idx];
    uint8_t expect = NODE_LEAF;
    if (!atomic_compare_exchange_strong_explicit(
            &n->state, &expect, NODE_EXPANDING, memory_order_acq_rel,
            memory_order_relaxed))
        return 0;
    int k;
    if (tm == PLAYER_CHANCE) {
        k = g->chance_outcomes(w->st, w->moves, w->probs);
    } else {
        k = g->gen_moves(w->st, w->moves);
    }
    if (k <= 0) {   /* should not happen at a non-terminal state */
        atomic_store_explicit(&n->state, NODE_LEAF, memory_order_release);
        return 0;
    }
    uint32_t f = mcts_pool_alloc(p, (uint32_t)k);
    if (f == MCTS_NONE) {
        atomic_store_explicit(&n->state, NODE_LEAF, memory_order_release);
        return 0;
    }
    for (int i = 0; i < k; i++)
        w->order[i] = (uint32_t)i;
    if (tm != PLAYER_CHANCE) {
        if (g->heuristic) {
            /* tried first in heuristic order (unvisited children are
             * selected in order) */
            for (int i = 0; i < k; i++)
                w->hval[i] = g->heuristic(w->st, w->moves[i]);
            sort_by_hval(w->order, w->hval, k);
        } else {
            for (int i = k - 1; i > 0; i--) {
                uint32_t j = rng_below(&w->rng, (uint32_t)i + 1);
                uint32_t t = w->order[i];
                w->order[i] = w->order[j];
                w->order[j] = t;
            }
        }
    }
    int pov = tm >= 0 ? tm : n->pov;
    for (int i = 0; i < k; i++) {
        uint32_t o = w->order[i];
        MctsNode *c = &p->node[f + (uint32_t)i];
        mcts_node_reset(c, w->moves[o], tm, pov,
                        tm == PLAYER_CHANCE ? (float)w->probs[o] : 0.0f);
        if (m->im_ok)
            atomic_store_explicit(&c->im, leaf_im(w, w->moves[o], pov),
                                  memory_order_relaxed);
    }
    if (m->im_ok)
        update_im(m, n);
    atomic_store_explicit(&n->nchild, (uint16_t)k, memory_order_relaxed);
    atomic_store_explicit(&n->first, f, memory_order_relaxed);
    /* publish the children last */
    atomic_store_explicit(&n->state, NODE_EXPANDED, memory_order_release);
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Selection */

/* GRAVE: the nearest node on the path, from n up, with enough visits and
 * the same player to move (any player with amaf_all); MCTS_NONE when n
 * itself serves. Fills the worker's map from AMAF key to child index. */
static uint32_t grave_ref(Worker *w, int depth, int player)
{
    Mcts *m = w->m;
    MctsPool *p = &m->pool[m->cur];
    uint32_t ref = MCTS_NONE;
    for (int d = depth - 1; d >= 0; d--) {
        MctsNode *a = &p->node[w->path[d]];
        if (atomic_load_explicit(&a->state, memory_order_acquire) !=
            NODE_EXPANDED)
            continue;
        uint32_t af = atomic_load_explicit(&a->first, memory_order_relaxed);
        int pl = p->node[af].mover;
        if (pl < 0 || (pl != player && !m->o.amaf_all))
            continue;
        ref = w->path[d];
        if (atomic_load_explicit(&a->visits, memory_order_relaxed) >=
            m->o.grave)
            break;
    }
    if (ref == MCTS_NONE || ref == w->path[depth - 1])
        return MCTS_NONE;
    MctsNode *a = &p->node[ref];
    uint32_t af = atomic_load_explicit(&a->first, memory_order_relaxed);
    uint32_t ak = atomic_load_explicit(&a->nchild, memory_order_relaxed);
    if (++w->ref_gen == 0) {
        memset(w->ref_stamp, 0, (w->ref_mask + 1) * sizeof(uint32_t));
        w->ref_gen = 1;
    }
    for (uint32_t j = 0; j < ak; j++) {
        uint64_t key = amaf_key(m, player, p->node[af + j].move);
        uint32_t i = (uint32_t)key & w->ref_mask;
        while (w->ref_stamp[i] == w->ref_gen)
            i = (i + 1) & w->ref_mask;
        w->ref_stamp[i] = w->ref_gen;
        w->ref_key[i] = key;
        w->ref_idx[i] = af + j;
    }
    return ref;
}

/* The AMAF record for child index ci (move mv of player) in the
 * reference node's map, or NULL. */
static MctsAmaf *grave_amaf(Worker *w, int player, Move mv)
{
    Mcts *m = w->m;
    uint64_t key = amaf_key(m, player, mv);
    uint32_t i = (uint32_t)key & w->ref_mask;
    while (w->ref_stamp[i] == w->ref_gen) {
        if (w->ref_key[i] == key)
            return &m->pool[m->cur].amaf[w->ref_idx[i]];
        i = (i + 1) & w->ref_mask;
    }
    return NULL;
}

static uint32_t select_child(Worker *w, MctsNode *n, int depth)
{
    Mcts *m = w->m;
    MctsPool *p = &m->pool[m->cur];
    uint32_t f = atomic_load_explicit(&n->first, memory_order_relaxed);
    uint32_t k = atomic_load_explicit(&n->nchild, memory_order_relaxed);
    MctsNode *ch = &p->node[f];
    if (ch[0].mover == PLAYER_CHANCE) {
        double u = rng_double(&w->rng), total = 0;
        for (uint32_t i = 0; i < k; i++)
            total += ch[i].prob;
        u *= total;
        for (uint32_t i = 0; i < k; i++) {
            u -= ch[i].prob;
            if (u < 0)
                return f + i;
        }
        return f + k - 1;
    }
    uint32_t pn = atomic_load_explicit(&n->visits, memory_order_relaxed) +
                  atomic_load_explicit(&n->vloss, memory_order_relaxed);
    double logn = log((double)(pn > 0 ? pn : 1));
    double c = m->o.c, best = -HUGE_VAL;
    double b4 = 4.0 * m->o.bias * m->o.bias;
    int solver = m->solver_ok, player = ch[0].mover;
    int rave = m->o.rave;
    uint32_t ref = MCTS_NONE;
    if (rave && m->o.grave &&
        atomic_load_explicit(&n->visits, memory_order_relaxed) < m->o.grave)
        ref = grave_ref(w, depth, player);
    uint32_t bi = UINT32_MAX, fallback = 0;
    for (uint32_t i = 0; i < k; i++) {
        MctsNode *c_ = &ch[i];
        double q, score;
        uint32_t v = atomic_load_explicit(&c_->visits, memory_order_relaxed);
        uint32_t vl = atomic_load_explicit(&c_->vloss, memory_order_relaxed);
        double nv = (double)v + (double)vl;
        /* AMAF value: the child's own, or the GRAVE reference's */
        uint32_t an = 0;
        double qa = 0;
        if (rave) {
            MctsAmaf *a = ref == MCTS_NONE ? &p->amaf[f + i]
                                           : grave_amaf(w, player, c_->move);
            if (a) {
                an = atomic_load_explicit(&a->n, memory_order_relaxed);
                if (an)
                    qa = (double)atomic_load_explicit(&a->w,
                                                      memory_order_relaxed) /
                         MCTS_FIX / an;
            }
        }
        if (solver && is_proven(c_)) {
            int32_t e = exact_of(c_);
            if (e >= (int32_t)MCTS_FIX)
                return f + i;                    /* a proven win */
            if (e <= -(int32_t)MCTS_FIX) {
                if (v > ch[fallback].visits)
                    fallback = i;
                continue;                        /* never a proven loss */
            }
            q = (double)e / MCTS_FIX;
            score = q + c * sqrt(logn / (nv > 0 ? nv : 1));
        } else if (nv == 0) {
            /* untried: optimistic, in expansion order; with RAVE the
             * AMAF value stands in for the mean, with implicit minimax
             * the best minimax value comes first */
            score = 1e9;
            if (rave)
                score = (an ? qa : 1.0) + c * sqrt(logn);
            else if (m->im_ok)
                score += (double)atomic_load_explicit(
                             &c_->im, memory_order_relaxed) / MCTS_FIX;
        } else {
            q = ((double)atomic_load_explicit(&c_->wsum,
                                              memory_order_relaxed) /
                     MCTS_FIX -
                 (double)vl) /
                nv;
            if (an) {
                double beta = an / (nv + an + b4 * nv * an);
                q = (1 - beta) * q + beta * qa;
            }
            if (m->im_ok)
                q = (1 - m->o.im) * q +
                    m->o.im * (double)atomic_load_explicit(
                                  &c_->im, memory_order_relaxed) /
                        MCTS_FIX;
            score = q + c * sqrt(logn / nv);
        }
        if (score > best) {
            best = score;
            bi = i;
        }
    }
    return f + (bi == UINT32_MAX ? fallback : bi);
}

/* ---------------------------------------------------------------------- */
/* Simulation */

static void playout(Worker *w, void *st, double *r)
{
    Mcts *m = w->m;
    const GameVtbl *g = m->g;
    int pol = m->o.policy;
    int ept = m->o.ept;
    if (pol == POL_AUTO)
        pol = g->playout && !ept ? POL_GAME
              : g->heuristic     ? POL_HEURISTIC
                                 : POL_RANDOM;
    if (pol == POL_GAME && g->playout) {
        g->playout(st, &w->rng);
    } else {
        int limit = 2 * g->info.max_game_length + 16;
        if (ept && ept < limit)
            limit = ept;
        int use_h = pol == POL_HEURISTIC && g->heuristic;
        double eps = m->o.eps;
        for (int ply = 0; ply < limit; ply++) {
            int tm = g->to_move(st);
            if (tm == PLAYER_TERMINAL)
                break;
            Move mv = 0;
            if (tm == PLAYER_CHANCE) {
                int k = g->chance_outcomes(st, w->moves, w->probs);
                mv = w->moves[sample_prob(&w->rng, w->probs, k)];
            } else {
                int k = g->gen_moves(st, w->moves);
                if (k <= 0)
                    break;
                if (use_h && k > 1 && rng_double(&w->rng) >= eps) {
                    /* greedy: the best heuristic, ties at random */
                    int bh = 0, nb = 0;
                    for (int i = 0; i < k; i++) {
                        int h = g->heuristic(st, w->moves[i]);
                        if (nb == 0 || h > bh) {
                            bh = h;
                            nb = 1;
                            mv = w->moves[i];
                        } else if (h == bh &&
                                   rng_below(&w->rng, (uint32_t)++nb) == 0) {
                            mv = w->moves[i];
                        }
                    }
                } else {
                    mv = w->moves[rng_below(&w->rng, (uint32_t)k)];
                }
                seq_push(w, tm, mv);
            }
            g->make(st, mv);
        }
    }
    int tm = g->to_move(st);
    if (tm == PLAYER_TERMINAL) {
        g->returns(st, r);
    } else if (ept && g->eval && tm != PLAYER_CHANCE) {
        /* cut short: the evaluation, squashed into (-1, 1) */
        for (int i = 0; i < g->info.num_players; i++)
            r[i] = tanh((double)g->eval(st, i) / m->o.ept_scale);
    } else {
        memset(r, 0, sizeof(double) * (size_t)g->info.num_players);
    }
    atomic_store_explicit(&w->playouts, w->playouts + 1, memory_order_relaxed);
}

/* ---------------------------------------------------------------------- */
/* Solver: node n's exact value from its children, if they decide it. */

static int try_prove(Mcts *m, MctsNode *n)
{
    MctsPool *p = &m->pool[m->cur];
    if (atomic_load_explicit(&n->state, memory_order_acquire) !=
            NODE_EXPANDED ||
        is_proven(n))
        return is_proven(n);
    uint32_t f = atomic_load_explicit(&n->first, memory_order_relaxed);
    uint32_t k = atomic_load_explicit(&n->nchild, memory_order_relaxed);
    MctsNode *ch = &p->node[f];
    int32_t fix1 = (int32_t)MCTS_FIX;
    if (ch[0].mover == PLAYER_CHANCE) {
        double s = 0, ps = 0;
        for (uint32_t i = 0; i < k; i++) {
            if (!is_proven(&ch[i]))
                return 0;
            s += ch[i].prob * (double)exact_of(&ch[i]);
            ps += ch[i].prob;
        }
        set_proven(n, (int32_t)lrint(ps > 0 ? s / ps : 0));
        return 1;
    }
    int32_t best = INT32_MIN;
    int all = 1;
    for (uint32_t i = 0; i < k; i++) {
        if (is_proven(&ch[i])) {
            int32_t e = exact_of(&ch[i]);
            if (e > best)
                best = e;
        } else {
            all = 0;
        }
    }
    if (!(best >= fix1 || (all && best != INT32_MIN)))
        return 0;
    /* best is the value for the player to move here (the children's pov);
     * n's pov is the same player (a second move in a row) or, in a
     * two-player zero-sum game, the opponent */
    set_proven(n, ch[0].pov == n->pov ? best : -best);
    return 1;
}

/* ---------------------------------------------------------------------- */
/* One iteration */

static void backup(Worker *w, int depth, const double *r)
{
    Mcts *m = w->m;
    MctsPool *p = &m->pool[m->cur];
    int vl = m->o.threads > 1;
    int proven_below = 0;
    if (m->o.rave)
        set_clear(w);
    int pos = w->seq_len;
    for (int d = depth - 1; d >= 0; d--) {
        MctsNode *n = &p->node[w->path[d]];
        int pov = n->pov;
        atomic_fetch_add_explicit(&n->visits, 1, memory_order_relaxed);
        if (pov >= 0)
            atomic_fetch_add_explicit(&n->wsum,
                                      (int64_t)lrint(r[pov] * MCTS_FIX),
                                      memory_order_relaxed);
        if (vl && d > 0)
            atomic_fetch_sub_explicit(&n->vloss, 1, memory_order_relaxed);
        if (m->solver_ok) {
            if (d == depth - 1)
                proven_below = is_proven(n);
            else if (proven_below)
                proven_below = try_prove(m, n);
        }
        if (m->im_ok && d < depth - 1)
            update_im(m, n);
        if (m->o.rave && d < depth - 1) {
            while (pos > w->path_seq[d]) {
                pos--;
                set_add(w, amaf_key(m, w->seq_player[pos],
                                    w->seq_move[pos]));
            }
            uint32_t f = atomic_load_explicit(&n->first,
                                              memory_order_relaxed);
            uint32_t k = atomic_load_explicit(&n->nchild,
                                              memory_order_relaxed);
            if (f == MCTS_NONE || p->node[f].mover < 0)
                continue;
            int pl = p->node[f].mover;
            int64_t rw = (int64_t)lrint(r[pl] * MCTS_FIX);
            for (uint32_t i = 0; i < k; i++) {
                if (set_has(w, amaf_key(m, pl, p->node[f + i].move))) {
                    MctsAmaf *a = &p->amaf[f + i];
                    atomic_fetch_add_explicit(&a->n, 1,
                                              memory_order_relaxed);
                    atomic_fetch_add_explicit(&a->w, rw,
                                              memory_order_relaxed);
                }
            }
        }
    }
}

static void iterate(Worker *w)
{
    Mcts *m = w->m;
    const GameVtbl *g = m->g;
    MctsPool *p = &m->pool[m->cur];
    int np = g->info.num_players;
    int vl = m->o.threads > 1;
    double r[PLY_MAX_PLAYERS], acc[PLY_MAX_PLAYERS];
    memcpy(w->st, m->root_state, m->sz);
    w->seq_len = 0;
    uint32_t idx = m->root;
    int depth = 0;
    w->path[depth++] = idx;
    int done = 0;
    for (;;) {
        MctsNode *n = &p->node[idx];
        if (depth > 1 && m->solver_ok && is_proven(n)) {
            exact_to_reward(m, n->pov, exact_of(n), r);
            done = 1;
            break;
        }
        uint8_t s = atomic_load_explicit(&n->state, memory_order_acquire);
        if (s == NODE_TERMINAL) {
            g->returns(w->st, r);
            done = 1;
            break;
        }
        if (s != NODE_EXPANDED) {
            int tm = g->to_move(w->st);
            if (tm == PLAYER_TERMINAL) {
                g->returns(w->st, r);
                if (m->solver_ok && n->pov >= 0)
                    set_proven(n, to_fix(r[n->pov]));
                atomic_store_explicit(&n->state, NODE_TERMINAL,
                                      memory_order_release);
                done = 1;
                break;
            }
            if (s != NODE_LEAF ||
                atomic_load_explicit(&n->visits, memory_order_relaxed) + 1 <
                    m->o.expand ||
                !expand(w, idx, tm))
                break;      /* simulate from this leaf */
        }
        if (depth >= w->path_cap)
            break;      /* cannot happen: a game has max_game_length plies */
        uint32_t c = select_child(w, n, depth);
        MctsNode *cn = &p->node[c];
        if (vl)
            atomic_fetch_add_explicit(&cn->vloss, 1, memory_order_relaxed);
        w->path_seq[depth - 1] = w->seq_len;
        if (cn->mover >= 0)
            seq_push(w, cn->mover, cn->move);
        g->make(w->st, cn->move);
        w->path[depth++] = c;
        idx = c;
    }
    w->path_seq[depth - 1] = w->seq_len;
    if (depth > w->seldepth)
        atomic_store_explicit(&w->seldepth, depth, memory_order_relaxed);
    if (!done) {
        int k = m->o.playouts;
        if (k == 1) {
            playout(w, w->st, r);
        } else {
            memset(acc, 0, sizeof acc);
            for (int j = 0; j < k; j++) {
                memcpy(w->tmp, w->st, m->sz);
                /* AMAF sees the first playout only; the sequences of the
                 * others would mix several games */
                if (j > 0 && w->seq_move) {
                    int keep = w->seq_len;
                    playout(w, w->tmp, r);
                    w->seq_len = keep;
                } else {
                    playout(w, w->tmp, r);
                }
                for (int i = 0; i < np; i++)
                    acc[i] += r[i];
            }
            for (int i = 0; i < np; i++)
                r[i] = acc[i] / k;
        }
    }
    backup(w, depth, r);
    atomic_store_explicit(&w->iters, w->iters + 1, memory_order_relaxed);
}

/* ---------------------------------------------------------------------- */
/* Reporting */

static double child_q(MctsNode *c)
{
    uint32_t v = atomic_load_explicit(&c->visits, memory_order_relaxed);
    return v ? (double)atomic_load_explicit(&c->wsum, memory_order_relaxed) /
                   MCTS_FIX / v
             : 0.0;
}

/* The move to play: a proven win, else the most visited child that is not
 * a proven loss (ties: higher mean value, then order). */
static uint32_t best_child(Mcts *m, uint32_t root)
{
    MctsNode *n = node_at(m, root);
    uint32_t f = atomic_load(&n->first), k = atomic_load(&n->nchild);
    uint32_t best = f;
    int bclass = -1;
    uint32_t bv = 0;
    double bq = 0;
    for (uint32_t i = 0; i < k; i++) {
        MctsNode *c = node_at(m, f + i);
        int cls = 1;
        if (m->solver_ok && is_proven(c)) {
            int32_t e = exact_of(c);
            cls = e >= (int32_t)MCTS_FIX ? 2 : e <= -(int32_t)MCTS_FIX ? 0 : 1;
        }
        uint32_t v = atomic_load(&c->visits);
        double q = child_q(c);
        if (cls > bclass || (cls == bclass && (v > bv ||
                                               (v == bv && q > bq)))) {
            best = f + i;
            bclass = cls;
            bv = v;
            bq = q;
        }
    }
    return best;
}

static void fill_info(Mcts *m, SearchInfo *out)
{
    uint32_t root = m->root;
    MctsNode *rn = node_at(m, root);
    uint64_t iters = 0, playouts = 0;
    int seld = 0;
    for (int t = 0; t < m->o.threads; t++) {
        iters += m->w[t].iters;
        playouts += m->w[t].playouts;
        if (m->w[t].seldepth > seld)
            seld = m->w[t].seldepth;
    }
    out->nodes = iters;
    out->playouts = playouts;
    out->seldepth = seld;
    out->depth = 0;
    out->seconds = (double)(now_ms() - m->t0) / 1000.0;
    if (atomic_load(&rn->state) != NODE_EXPANDED)
        return;
    uint32_t bc = best_child(m, root);
    MctsNode *b = node_at(m, bc);
    out->best = b->move;
    out->proven = 0;
    out->value = (int)lrint(child_q(b) * 1000.0);
    if (m->solver_ok && is_proven(b)) {
        int32_t e = exact_of(b);
        out->value = (int)lrint((double)e / MCTS_FIX * 1000.0);
        if (e >= (int32_t)MCTS_FIX) {
            out->proven = 1;
            out->value = EVAL_WIN;
        } else if (e <= -(int32_t)MCTS_FIX) {
            out->proven = -1;   /* the best move loses: all do */
            out->value = -EVAL_WIN;
        }
    }
    /* top moves by visits */
    uint32_t f = atomic_load(&rn->first), k = atomic_load(&rn->nchild);
    int tl = 0;
    uint32_t top[SEARCH_MAX_TOP];
    for (uint32_t i = 0; i < k; i++) {
        uint32_t v = atomic_load(&node_at(m, f + i)->visits);
        int j = tl < SEARCH_MAX_TOP ? tl++ : SEARCH_MAX_TOP;
        if (j == SEARCH_MAX_TOP) {
            if (v <= atomic_load(&node_at(m, top[SEARCH_MAX_TOP - 1])->visits))
                continue;
            j = SEARCH_MAX_TOP - 1;
        }
        while (j > 0 &&
               atomic_load(&node_at(m, top[j - 1])->visits) < v) {
            top[j] = top[j - 1];
            j--;
        }
        top[j] = f + i;
    }
    out->top_len = tl;
    for (int i = 0; i < tl; i++) {
        MctsNode *c = node_at(m, top[i]);
        out->top[i] = c->move;
        out->top_visits[i] = atomic_load(&c->visits);
        out->top_value[i] = child_q(c);
        if (m->solver_ok && is_proven(c))
            out->top_value[i] = (double)exact_of(c) / MCTS_FIX;
    }
    /* principal variation: most visited children while decisions */
    out->pv_len = 0;
    uint32_t cur = root;
    while (out->pv_len < SEARCH_MAX_PV) {
        MctsNode *n = node_at(m, cur);
        if (atomic_load(&n->state) != NODE_EXPANDED)
            break;
        uint32_t cf = atomic_load(&n->first);
        if (node_at(m, cf)->mover < 0)
            break;
        uint32_t nb = cur == root ? bc : best_child(m, cur);
        MctsNode *c = node_at(m, nb);
        if (atomic_load(&c->visits) == 0)
            break;
        out->pv[out->pv_len++] = c->move;
        cur = nb;
    }
}

/* ---------------------------------------------------------------------- */
/* The search loop */

static void search_loop(Worker *w)
{
    Mcts *m = w->m;
    MctsNode *root = node_at(m, m->root);
    uint64_t n = 0;
    while (!atomic_load_explicit(&m->stop, memory_order_relaxed)) {
        if (m->max_iters) {
            uint64_t i = atomic_fetch_add_explicit(&m->claimed, 1,
                                                   memory_order_relaxed);
            if (i >= m->max_iters)
                break;
        }
        iterate(w);
        n++;
        if (m->solver_ok && is_proven(root)) {
            atomic_store(&m->stop, 1);
            break;
        }
        if ((n & 7) == 0 && (m->deadline || (w->id == 0 && m->lim->on_info))) {
            int64_t t = now_ms();
            if (m->deadline && t >= m->deadline) {
                atomic_store(&m->stop, 1);
                break;
            }
            if (w->id == 0 && m->lim->on_info &&
                t - m->last_info >= INFO_PERIOD_MS) {
                SearchInfo si;
                memset(&si, 0, sizeof si);
                fill_info(m, &si);
                m->lim->on_info(&si, m->lim->user);
                m->last_info = t;
            }
        }
    }
}

static void *thread_main(void *arg)
{
    search_loop(arg);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Tree reuse */

/* Finds, below node idx at state s, a node whose state equals target,
 * within depth plies and a budget of replays. */
static uint32_t find_rec(Mcts *m, uint32_t idx, void *s, const void *target,
                         int depth, int *budget, unsigned char *scratch)
{
    if (memcmp(s, target, m->sz) == 0)
        return idx;
    MctsNode *n = node_at(m, idx);
    if (depth == 0 || atomic_load(&n->state) != NODE_EXPANDED)
        return MCTS_NONE;
    uint32_t f = atomic_load(&n->first), k = atomic_load(&n->nchild);
    unsigned char *child = scratch;
    for (uint32_t i = 0; i < k && *budget > 0; i++) {
        (*budget)--;
        memcpy(child, s, m->sz);
        m->g->make(child, node_at(m, f + i)->move);
        uint32_t r = find_rec(m, f + i, child, target, depth - 1, budget,
                              scratch + m->sz);
        if (r != MCTS_NONE)
            return r;
    }
    return MCTS_NONE;
}

/* Locates st in the kept tree and makes its node the root (compacted
 * into the other pool), or clears the tree. */
static void reuse_tree(Mcts *m, const void *st)
{
    uint32_t found = MCTS_NONE;
    if (m->o.reuse && m->root != MCTS_NONE) {
        if (m->track_ok && memcmp(m->track_state, st, m->sz) == 0) {
            uint32_t cur = m->root;
            for (int i = 0; i < m->ntrack && cur != MCTS_NONE; i++) {
                MctsNode *n = node_at(m, cur);
                uint32_t nxt = MCTS_NONE;
                if (atomic_load(&n->state) == NODE_EXPANDED) {
                    uint32_t f = atomic_load(&n->first);
                    uint32_t k = atomic_load(&n->nchild);
                    for (uint32_t j = 0; j < k; j++)
                        if (node_at(m, f + j)->move == m->track[i]) {
                            nxt = f + j;
                            break;
                        }
                }
                cur = nxt;
            }
            found = cur;
        } else {
            int budget = FIND_BUDGET;
            memcpy(m->find_state, m->root_state, m->sz);
            found = find_rec(m, m->root, m->find_state, st, FIND_DEPTH,
                             &budget, m->find_state + m->sz);
        }
    }
    if (found != MCTS_NONE && found != m->root) {
        int other = 1 - m->cur;
        m->root = mcts_pool_compact(&m->pool[m->cur], found,
                                    &m->pool[other]);
        m->cur = other;
    } else if (found == MCTS_NONE) {
        m->root = MCTS_NONE;
    }
    memcpy(m->root_state, st, m->sz);
    if (m->root == MCTS_NONE) {
        mcts_pool_clear(&m->pool[m->cur]);
        m->root = mcts_pool_alloc(&m->pool[m->cur], 1);
        mcts_node_reset(node_at(m, m->root), 0, PLAYER_TERMINAL, -1, 0);
    }
    /* The root keeps the view of the player to move: its exact value (if
     * any) is then theirs. */
    MctsNode *rn = node_at(m, m->root);
    int tm = m->g->to_move(st);
    if (rn->pov != tm && is_proven(rn) && m->solver_ok && rn->pov >= 0)
        atomic_store(&rn->exact, -atomic_load(&rn->exact));
    rn->pov = (int8_t)tm;
    m->track_ok = 1;
    m->ntrack = 0;
    memcpy(m->track_state, st, m->sz);
}

/* ---------------------------------------------------------------------- */
/* Bot interface */

static void mcts_destroy(void *p)
{
    Mcts *m = p;
    if (!m)
        return;
    if (m->w) {
        for (int t = 0; t < m->o.threads; t++)
            worker_free(&m->w[t]);
        free(m->w);
    }
    mcts_pool_free(&m->pool[0]);
    mcts_pool_free(&m->pool[1]);
    free(m->root_state);
    free(m->track_state);
    free(m->find_state);
    free(m);
}

static void *mcts_create(const GameVtbl *g, const void *opts, uint64_t seed,
                         PlyError *err)
{
    const MctsSpec *sp = opts;
    MctsOpts o = {
        .c = sp->c, .mem = sp->mem, .threads = sp->threads,
        .playouts = sp->playouts, .reuse = sp->reuse, .solver = sp->solver,
        .rave = sp->rave, .amaf_all = sp->amaf_all - 1,
        .policy = sp->policy, .expand = (uint32_t)sp->expand,
        .grave = (uint32_t)sp->grave, .ept = sp->ept, .bias = sp->bias,
        .eps = sp->eps, .ept_scale = sp->ept_scale, .im = sp->im,
    };
    if (o.grave)
        o.rave = 1;
    if (o.amaf_all < 0)
        o.amaf_all = (g->info.flags & GAME_IMPARTIAL) != 0;
    if (o.policy == POL_GAME && !g->playout) {
        ply_fail(err, "policy=game: %s has no playout hook", g->info.name);
        return NULL;
    }
    if ((o.ept || o.im > 0) && !g->eval) {
        ply_fail(err, "%s: %s has no eval hook", o.ept ? "ept" : "im",
                 g->info.name);
        return NULL;
    }
    if (o.policy == POL_HEURISTIC && !g->heuristic) {
        ply_fail(err, "policy=heuristic: %s has no heuristic hook",
                 g->info.name);
        return NULL;
    }
    Mcts *m = calloc(1, sizeof *m);
    if (!m) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    m->g = g;
    m->o = o;
    m->sz = g->info.state_size;
    m->seed = seed;
    rng_seed(&m->rng, seed);
    int np = g->info.num_players;
    int two_zs = np == 1 || (np == 2 && (g->info.flags & GAME_ZERO_SUM));
    m->solver_ok = o.solver && two_zs;
    m->im_ok = o.im > 0 && two_zs;
    /* The pool must hold at least a root and one expansion. */
    size_t per = mcts_pool_bytes_per_node(o.rave);
    size_t minb = per * ((size_t)g->info.max_moves + 2);
    size_t each = o.reuse ? o.mem / 2 : o.mem;
    if (each < minb)
        each = minb;
    m->root_state = malloc(m->sz);
    m->track_state = malloc(m->sz);
    m->find_state = malloc(m->sz * (FIND_DEPTH + 2));
    m->w = calloc((size_t)o.threads, sizeof(Worker));
    int bad = !m->root_state || !m->track_state || !m->find_state || !m->w ||
              mcts_pool_init(&m->pool[0], each, o.rave) ||
              (o.reuse && mcts_pool_init(&m->pool[1], each, o.rave));
    for (int t = 0; !bad && t < o.threads; t++)
        bad = worker_init(&m->w[t], m, t);
    if (bad) {
        mcts_destroy(m);
        ply_fail(err, "out of memory (mem=%zu bytes)", o.mem);
        return NULL;
    }
    m->root = MCTS_NONE;
    return m;
}

static void mcts_new_game(void *p)
{
    Mcts *m = p;
    rng_seed(&m->rng, m->seed);
    m->root = MCTS_NONE;
    m->cur = 0;
    mcts_pool_clear(&m->pool[0]);
    if (m->pool[1].node)
        mcts_pool_clear(&m->pool[1]);
    m->track_ok = 0;
    m->ntrack = 0;
}

static Move mcts_choose(void *p, const void *st, const Limits *lim,
                        SearchInfo *out)
{
    Mcts *m = p;
    const GameVtbl *g = m->g;
    m->t0 = now_ms();
    m->lim = lim;
    m->out = out;
    m->last_info = m->t0;
    atomic_store(&m->stop, 0);
    atomic_store(&m->claimed, 0);
    m->max_iters = lim->nodes;
    m->deadline = lim->time_ms > 0 ? m->t0 + lim->time_ms : 0;
    if (!m->max_iters && !m->deadline)
        m->max_iters = DEFAULT_ITERS;
    uint64_t base = rng_next(&m->rng);
    for (int t = 0; t < m->o.threads; t++) {
        Worker *w = &m->w[t];
        rng_seed(&w->rng, base + 0x9e3779b97f4a7c15ull * (uint64_t)t);
        w->iters = w->playouts = 0;
        w->seldepth = 0;
    }
    if (!m->o.reuse)
        m->root = MCTS_NONE;
    reuse_tree(m, st);
    Worker *w0 = &m->w[0];
    MctsNode *rn = node_at(m, m->root);
    if (atomic_load(&rn->state) != NODE_EXPANDED) {
        memcpy(w0->st, st, m->sz);
        if (!expand(w0, m->root, g->to_move(st))) {
            /* pool too full for the root: start over with an empty one */
            mcts_pool_clear(&m->pool[m->cur]);
            m->root = mcts_pool_alloc(&m->pool[m->cur], 1);
            rn = node_at(m, m->root);
            mcts_node_reset(rn, 0, PLAYER_TERMINAL, g->to_move(st), 0);
            expand(w0, m->root, g->to_move(st));
        }
    }
    if (atomic_load(&rn->state) != NODE_EXPANDED) {
        /* cannot happen with the minimum pool size; play something legal */
        int k = g->gen_moves(st, w0->moves);
        out->best = k > 0 ? w0->moves[0] : 0;
        return out->best;
    }
    if (atomic_load(&rn->nchild) > 1 || lim->nodes) {
        /* a single legal move needs no search unless a node count asks */
        for (int t = 1; t < m->o.threads; t++)
            m->w[t].started =
                !pthread_create(&m->w[t].th, NULL, thread_main, &m->w[t]);
        search_loop(w0);
        atomic_store(&m->stop, 1);
        for (int t = 1; t < m->o.threads; t++)
            if (m->w[t].started)
                pthread_join(m->w[t].th, NULL);
    }
    fill_info(m, out);
    if (lim->on_info)
        lim->on_info(out, lim->user);
    return out->best;
}

static void mcts_inform(void *p, const void *st, Move played)
{
    Mcts *m = p;
    if (!m->o.reuse || !m->track_ok)
        return;
    if (m->ntrack >= TRACK_MAX || memcmp(st, m->track_state, m->sz) != 0) {
        m->track_ok = 0;
        return;
    }
    m->g->make(m->track_state, played);
    m->track[m->ntrack++] = played;
}

static void mcts_stop(void *p)
{
    Mcts *m = p;
    atomic_store(&m->stop, 1);
}

const BotVtbl bot_mcts = {
    .name = "mcts",
    .help =
        "Monte Carlo tree search (UCT) for any game: N-player vector "
        "rewards, chance nodes, MCTS-Solver, RAVE, tree reuse, threads. "
        "Limits: time, iterations (nodes), seed (none given: 50000 "
        "iterations). Value: 1000 x mean reward; proven results are "
        "+-EVAL_WIN.",
    .options = mcts_options,
    .options_size = sizeof(MctsSpec),
    .create = mcts_create,
    .destroy = mcts_destroy,
    .new_game = mcts_new_game,
    .choose = mcts_choose,
    .inform = mcts_inform,
    .stop = mcts_stop,
};
