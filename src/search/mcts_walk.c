/* mcts_walk.c — one MCTS iteration: descend by the selection policy,
 * expand, simulate, back up; with the solver's proofs and implicit
 * minimax values (see mcts_internal.h). */
#include "mcts_internal.h"

#include <limits.h>

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

int mcts_expand(Worker *w, uint32_t idx, int tm)
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
    int pri = m->o.priors && tm >= 0;
    if (pri) {
        /* the game's priors (hval is free again after the sort) */
        g->priors(w->st, w->moves, k, w->hval, w->pwins);
    }
    for (int i = 0; i < k; i++) {
        uint32_t o = w->order[i];
        MctsNode *c = &p->node[f + (uint32_t)i];
        mcts_node_reset(c, w->moves[o], tm, pov,
                        tm == PLAYER_CHANCE ? (float)w->probs[o] : 0.0f);
        if (pri && w->hval[o] > 0) {
            int pv = w->hval[o] > 1000 ? 1000 : w->hval[o];
            int pw = w->pwins[o];
            pw = pw < 0 ? 0 : pw > pv ? pv : pw;
            c->prior = (uint16_t)pv;
            atomic_store_explicit(&c->visits, (uint32_t)pv,
                                  memory_order_relaxed);
            atomic_store_explicit(&c->wsum,
                                  (int64_t)(2 * pw - pv) * (int64_t)MCTS_FIX,
                                  memory_order_relaxed);
        }
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

/* Each policy scores the children of a decision node and returns the
 * best (index into the pool). Common to all: with the solver, a proven
 * win is taken at once and a proven loss never chosen (the most visited
 * of them when all lose), a proven draw or value scores its exact value;
 * an unvisited child is tried first, in expansion order. Virtual loss
 * (threads) counts as visits with reward -1. */

/* UCT: mean + c sqrt(ln N / n). */
static uint32_t select_uct(Worker *w, MctsNode *n, uint32_t f, uint32_t k,
                           int depth)
{
    (void)depth;
    Mcts *m = w->m;
    MctsNode *ch = &m->pool[m->cur].node[f];
    uint32_t pn = atomic_load_explicit(&n->visits, memory_order_relaxed) +
                  atomic_load_explicit(&n->vloss, memory_order_relaxed);
    double logn = log((double)(pn > 0 ? pn : 1));
    double c = m->o.c, best = -HUGE_VAL;
    int solver = m->solver_ok;
    uint32_t bi = UINT32_MAX, fallback = 0;
    for (uint32_t i = 0; i < k; i++) {
        MctsNode *c_ = &ch[i];
        double q, score;
        uint32_t v = atomic_load_explicit(&c_->visits, memory_order_relaxed);
        uint32_t vl = atomic_load_explicit(&c_->vloss, memory_order_relaxed);
        double nv = (double)v + (double)vl;
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
            score = 1e9;                         /* untried: in order */
        } else {
            q = ((double)atomic_load_explicit(&c_->wsum,
                                              memory_order_relaxed) /
                     MCTS_FIX -
                 (double)vl) /
                nv;
            score = q + c * sqrt(logn / nv);
        }
        if (score > best) {
            best = score;
            bi = i;
        }
    }
    return f + (bi == UINT32_MAX ? fallback : bi);
}

/* UCT on the implicit-minimax blend (1-A) mean + A minimax; untried
 * children come in the order of their minimax values. */
static uint32_t select_im(Worker *w, MctsNode *n, uint32_t f, uint32_t k,
                          int depth)
{
    (void)depth;
    Mcts *m = w->m;
    MctsNode *ch = &m->pool[m->cur].node[f];
    uint32_t pn = atomic_load_explicit(&n->visits, memory_order_relaxed) +
                  atomic_load_explicit(&n->vloss, memory_order_relaxed);
    double logn = log((double)(pn > 0 ? pn : 1));
    double c = m->o.c, best = -HUGE_VAL;
    int solver = m->solver_ok;
    uint32_t bi = UINT32_MAX, fallback = 0;
    for (uint32_t i = 0; i < k; i++) {
        MctsNode *c_ = &ch[i];
        double q, score;
        uint32_t v = atomic_load_explicit(&c_->visits, memory_order_relaxed);
        uint32_t vl = atomic_load_explicit(&c_->vloss, memory_order_relaxed);
        double nv = (double)v + (double)vl;
        if (solver && is_proven(c_)) {
            int32_t e = exact_of(c_);
            if (e >= (int32_t)MCTS_FIX)
                return f + i;
            if (e <= -(int32_t)MCTS_FIX) {
                if (v > ch[fallback].visits)
                    fallback = i;
                continue;
            }
            q = (double)e / MCTS_FIX;
            score = q + c * sqrt(logn / (nv > 0 ? nv : 1));
        } else if (nv == 0) {
            score = 1e9;
            score += (double)atomic_load_explicit(&c_->im,
                                                  memory_order_relaxed) /
                     MCTS_FIX;
        } else {
            q = ((double)atomic_load_explicit(&c_->wsum,
                                              memory_order_relaxed) /
                     MCTS_FIX -
                 (double)vl) /
                nv;
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

/* UCT+RAVE: the mean blended with the AMAF value (the child's own, or
 * with GRAVE the reference node's) by beta = m/(n+m+4b^2nm); an untried
 * child scores its AMAF value (1 without one) plus c sqrt(ln N). With
 * implicit minimax on too, the blend then mixes in the minimax value. */
static uint32_t select_rave(Worker *w, MctsNode *n, uint32_t f, uint32_t k,
                            int depth)
{
    Mcts *m = w->m;
    MctsPool *p = &m->pool[m->cur];
    MctsNode *ch = &p->node[f];
    uint32_t pn = atomic_load_explicit(&n->visits, memory_order_relaxed) +
                  atomic_load_explicit(&n->vloss, memory_order_relaxed);
    double logn = log((double)(pn > 0 ? pn : 1));
    double c = m->o.c, best = -HUGE_VAL;
    double b4 = 4.0 * m->o.bias * m->o.bias;
    int solver = m->solver_ok, player = ch[0].mover;
    uint32_t ref = MCTS_NONE;
    if (m->o.grave &&
        atomic_load_explicit(&n->visits, memory_order_relaxed) < m->o.grave)
        ref = mcts_grave_ref(w, depth, player);
    uint32_t bi = UINT32_MAX, fallback = 0;
    for (uint32_t i = 0; i < k; i++) {
        MctsNode *c_ = &ch[i];
        double q, score;
        uint32_t v = atomic_load_explicit(&c_->visits, memory_order_relaxed);
        uint32_t vl = atomic_load_explicit(&c_->vloss, memory_order_relaxed);
        double nv = (double)v + (double)vl;
        uint32_t an = 0;
        double qa = 0;
        MctsAmaf *a = ref == MCTS_NONE ? &p->amaf[f + i]
                                       : mcts_grave_amaf(w, player, c_->move);
        if (a) {
            an = atomic_load_explicit(&a->n, memory_order_relaxed);
            if (an)
                qa = (double)atomic_load_explicit(&a->w,
                                                  memory_order_relaxed) /
                     MCTS_FIX / an;
        }
        if (solver && is_proven(c_)) {
            int32_t e = exact_of(c_);
            if (e >= (int32_t)MCTS_FIX)
                return f + i;
            if (e <= -(int32_t)MCTS_FIX) {
                if (v > ch[fallback].visits)
                    fallback = i;
                continue;
            }
            q = (double)e / MCTS_FIX;
            score = q + c * sqrt(logn / (nv > 0 ? nv : 1));
        } else if (nv == 0) {
            score = (an ? qa : 1.0) + c * sqrt(logn);
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

MctsSelect mcts_select_policy(const Mcts *m)
{
    if (m->o.rave)
        return select_rave;
    return m->im_ok ? select_im : select_uct;
}

/* A chance node's outcome by probability; a decision node's child by the
 * policy. */
static inline uint32_t select_child(Worker *w, MctsNode *n, int depth)
{
    Mcts *m = w->m;
    uint32_t f = atomic_load_explicit(&n->first, memory_order_relaxed);
    uint32_t k = atomic_load_explicit(&n->nchild, memory_order_relaxed);
    MctsNode *ch = &m->pool[m->cur].node[f];
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
    if (m->oppeps_now > 0 && ch[0].mover != m->root_player && k > 1 &&
        rng_double(&w->rng) < m->oppeps_now)
        return f + rng_below(&w->rng, k);
    return m->select(w, n, f, k, depth);
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
    if (pol == POL_GAME && g->playout_log && w->seq_move) {
        /* the game's playout, its moves recorded for AMAF */
        w->seq_len += g->playout_log(st, &w->rng, w->seq_move + w->seq_len,
                                     w->seq_player + w->seq_len,
                                     w->seq_cap - w->seq_len);
    } else if (pol == POL_GAME && g->playout) {
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
        /* cut short: the evaluation, squashed into (-1, 1); every seat
         * playing from one eval_all() pass where the game has it */
        int all[PLY_MAX_PLAYERS];
        for (int i = 0; i < g->info.num_players; i++)
            all[i] = INT_MIN;
        if (g->eval_all)
            g->eval_all(st, all);
        for (int i = 0; i < g->info.num_players; i++)
            r[i] = tanh((double)(all[i] != INT_MIN ? all[i]
                                                   : g->eval(st, i)) /
                        m->o.ept_scale);
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
        mcts_amaf_clear(w);
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
        if (m->o.rave && d < depth - 1)
            mcts_amaf_backup(w, n, d, r, &pos);
    }
}

void mcts_iterate(Worker *w)
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
                atomic_load_explicit(&n->visits, memory_order_relaxed) -
                        n->prior + 1 <
                    m->o.expand)
                break;      /* simulate from this leaf */
            int known;
            if (m->o.exact && depth > 1 && m->solver_ok && n->pov >= 0 &&
                g->exact && g->exact(w->st, n->pov, &known)) {
                /* solved before expanding: a proven leaf */
                set_proven(n, known > 0   ? (int32_t)MCTS_FIX
                              : known < 0 ? -(int32_t)MCTS_FIX
                                          : 0);
                exact_to_reward(m, n->pov, exact_of(n), r);
                done = 1;
                break;
            }
            if (!mcts_expand(w, idx, tm))
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

