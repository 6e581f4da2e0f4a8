/* mcts_amaf.c — RAVE and GRAVE for the MCTS bot: the (player, move) set
 * of one iteration, the AMAF statistics of the backup and the GRAVE
 * reference node (see mcts_internal.h). */
#include "mcts_internal.h"

/* ---------------------------------------------------------------------- */
/* AMAF set: (player, move) keys of one iteration, cleared by a stamp. */

void mcts_amaf_clear(Worker *w)
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

void mcts_amaf_backup(Worker *w, MctsNode *n, int d, const double *r,
                      int *pos)
{
    Mcts *m = w->m;
    MctsPool *p = &m->pool[m->cur];
    while (*pos > w->path_seq[d]) {
        (*pos)--;
        set_add(w, amaf_key(m, w->seq_player[*pos], w->seq_move[*pos]));
    }
    uint32_t f = atomic_load_explicit(&n->first, memory_order_relaxed);
    uint32_t k = atomic_load_explicit(&n->nchild, memory_order_relaxed);
    if (f == MCTS_NONE || p->node[f].mover < 0)
        return;
    int pl = p->node[f].mover;
    int64_t rw = (int64_t)lrint(r[pl] * MCTS_FIX);
    for (uint32_t i = 0; i < k; i++) {
        if (set_has(w, amaf_key(m, pl, p->node[f + i].move))) {
            MctsAmaf *a = &p->amaf[f + i];
            atomic_fetch_add_explicit(&a->n, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&a->w, rw, memory_order_relaxed);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* GRAVE */

/* GRAVE: the nearest node on the path, from n up, with enough visits and
 * the same player to move (any player with amaf_all); MCTS_NONE when n
 * itself serves. Fills the worker's map from AMAF key to child index. */
uint32_t mcts_grave_ref(Worker *w, int depth, int player)
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
MctsAmaf *mcts_grave_amaf(Worker *w, int player, Move mv)
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

