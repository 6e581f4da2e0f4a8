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
 * The parts (mcts_internal.h): this file is the bot (options, threads,
 * reporting, tree reuse), mcts_walk.c the iteration, mcts_amaf.c RAVE and
 * GRAVE, mcts_tree.c the node pool.
 *
 * An iteration: copy the root state, descend by UCB replaying moves,
 * expand a leaf once it has `expand` visits (all children at once, ordered
 * by the heuristic hook or shuffled), simulate `playouts` games from the
 * leaf (the game's playout hook, or moves from gen_moves: uniform or
 * epsilon-greedy over the heuristic), back the mean reward vector up.
 *
 * Time: the clock starts before tree reuse; every thread reads it before
 * its first iteration and then every few (bot.h's botclock_check adapts
 * the count to a read every 32-128 us) and stops at bot.h's internal
 * deadline (the budget less a margin and the longest gap between reads),
 * so joining the threads and the report fit in time_ms.
 *
 * Options (the table mcts_options below is what `ply info mcts` prints;
 * bot spec "mcts:key=val,..."; time/iterations/seed are limits):
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
 *   exact=0|1    at each leaf expansion below the root ask the game's
 *                exact hook; a known result proves the node at once
 *                (MCTS-Solver games; default 0)
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

#include "../core/util.h"
#include "mcts_internal.h"

/* ---------------------------------------------------------------------- */
/* Options: the table bot_new() reads a spec with, and its struct */

typedef struct MctsSpec {
    double c, bias, eps, ept_scale, im, oppeps;
    size_t mem;
    int threads, playouts, expand, reuse, solver, rave, grave, amaf_all;
    int policy, ept, exact, priors, oppseat;
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
             "with reuse=1)",
     .flags = OPTF_COSTLY},
    {.key = "threads", .type = OPT_INT, .def = 1, .min = 1,
     .max = MCTS_MAX_THREADS, .offset = offsetof(MctsSpec, threads),
     .engine = "Threads",
     .help = "search threads (tree parallel, virtual loss)",
     .flags = OPTF_COSTLY},
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
    MCTS_OPT("exact", OPT_BOOL, 0, 0, 1, exact,
             "ask the game's exact hook (a solver or database) when a leaf "
             "is expanded: a known result proves the node (solver games)"),
    MCTS_OPT("priors", OPT_BOOL, 1, 0, 1, priors,
             "new children start with the game's prior visits and wins "
             "(games with a priors hook)"),
    MCTS_OPT("im", OPT_DOUBLE, 0, 0, 1, im,
             "implicit minimax weight: children scored by eval at "
             "expansion, minimax backups, selection on (1-A) mean + A "
             "minimax (zero-sum games with eval)"),
    MCTS_OPT("oppeps", OPT_DOUBLE, 0, 0, 1, oppeps,
             "opponent modelling: at a node where another player than the "
             "root's chooses, descend to a random child this often "
             "(epsilon-greedy; values then expect the opponents to err, "
             "which sets traps)"),
    MCTS_OPT("oppseat", OPT_INT, 0, 0, 8, oppseat,
             "oppeps only when the bot plays this seat (1 = the first "
             "player); 0: in every seat"),
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
    free(w->pwins);
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
    w->pwins = malloc(mm * sizeof(int));
    w->order = malloc(mm * sizeof(uint32_t));
    /* a tree path is at most one node per ply, plus the root */
    w->path_cap = in->max_game_length + 2;
    w->path = malloc((size_t)w->path_cap * sizeof(uint32_t));
    w->path_seq = malloc((size_t)w->path_cap * sizeof(int));
    if (!w->st || !w->tmp || !w->moves || !w->probs || !w->hval ||
        !w->pwins || !w->order || !w->path || !w->path_seq)
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
    out->seconds = (double)botclock_elapsed_us(&m->clk) / 1e6;
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
    uint32_t since = UINT32_MAX;    /* iterations since the clock check */
    while (!atomic_load_explicit(&m->stop, memory_order_relaxed)) {
        /* the clock before the first iteration, then every tick.every
         * iterations (adapted to a read every 32-128 us) */
        if (m->clk.stop && ++since >= w->tick.every) {
            since = 0;
            if (botclock_check(&m->clk, &w->tick)) {
                atomic_store(&m->stop, 1);
                break;
            }
        }
        if (m->max_iters) {
            uint64_t i = atomic_fetch_add_explicit(&m->claimed, 1,
                                                   memory_order_relaxed);
            if (i >= m->max_iters)
                break;
        }
        mcts_iterate(w);
        n++;
        if (m->solver_ok && is_proven(root)) {
            atomic_store(&m->stop, 1);
            break;
        }
        if ((n & 7) == 0 && w->id == 0 && m->lim->on_info) {
            int64_t t = limits_now_us(m->lim);
            if (t - m->last_info >= INFO_PERIOD_MS * 1000) {
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
    m->root_player = tm;
    m->oppeps_now = m->o.oppseat == 0 || m->o.oppseat == tm + 1
                        ? m->o.oppeps : 0;
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
    free(m->world);
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
        .exact = sp->exact, .oppeps = sp->oppeps, .oppseat = sp->oppseat,
        .priors = sp->priors && g->priors,
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
    m->select = mcts_select_policy(m);
    /* The pool must hold at least a root and one expansion. */
    size_t per = mcts_pool_bytes_per_node(o.rave);
    size_t minb = per * ((size_t)g->info.max_moves + 2);
    size_t each = o.reuse ? o.mem / 2 : o.mem;
    if (each < minb)
        each = minb;
    m->root_state = malloc(m->sz);
    m->track_state = malloc(m->sz);
    m->find_state = malloc(m->sz * (FIND_DEPTH + 2));
    m->world = malloc(m->sz);
    m->w = calloc((size_t)o.threads, sizeof(Worker));
    int bad = !m->root_state || !m->track_state || !m->find_state ||
              !m->world || !m->w ||
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
    /* the clock starts first: tree reuse (compaction) and thread start-up
     * are inside the budget */
    botclock_start(&m->clk, lim, lim->time_ms > 0 ? lim->time_ms : 0);
    m->lim = lim;
    m->out = out;
    m->last_info = m->clk.t0;
    atomic_store(&m->stop, 0);
    atomic_store(&m->claimed, 0);
    m->max_iters = lim->nodes;
    if (!m->max_iters && !m->clk.stop)
        m->max_iters = DEFAULT_ITERS;
    uint64_t base = rng_next(&m->rng);
    for (int t = 0; t < m->o.threads; t++) {
        Worker *w = &m->w[t];
        rng_seed(&w->rng, base + 0x9e3779b97f4a7c15ull * (uint64_t)t);
        w->iters = w->playouts = 0;
        w->seldepth = 0;
        w->tick = (BotTick){0, 0, 1};
    }
    /* hidden information: one world sampled from the observation, and no
     * tree carried over from another world */
    int hidden = (g->info.flags & GAME_HIDDEN) != 0;
    st = bot_world(g, st, &m->rng, m->world);
    if (!m->o.reuse || hidden)
        m->root = MCTS_NONE;
    reuse_tree(m, st);
    Worker *w0 = &m->w[0];
    MctsNode *rn = node_at(m, m->root);
    if (atomic_load(&rn->state) != NODE_EXPANDED) {
        memcpy(w0->st, st, m->sz);
        if (!mcts_expand(w0, m->root, g->to_move(st))) {
            /* pool too full for the root: start over with an empty one */
            mcts_pool_clear(&m->pool[m->cur]);
            m->root = mcts_pool_alloc(&m->pool[m->cur], 1);
            rn = node_at(m, m->root);
            mcts_node_reset(rn, 0, PLAYER_TERMINAL, g->to_move(st), 0);
            mcts_expand(w0, m->root, g->to_move(st));
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
