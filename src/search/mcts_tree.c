/* mcts_tree.c — node pool allocation and subtree compaction. */
#include <stdlib.h>
#include <string.h>

#include "mcts_tree.h"

size_t mcts_pool_bytes_per_node(int amaf)
{
    return sizeof(MctsNode) + (amaf ? sizeof(MctsAmaf) : 0);
}

int mcts_pool_init(MctsPool *p, size_t bytes, int amaf)
{
    memset(p, 0, sizeof *p);
    size_t n = bytes / mcts_pool_bytes_per_node(amaf);
    if (n > UINT32_MAX - 1)
        n = UINT32_MAX - 1;
    if (n < 2)
        n = 2;
    /* malloc, not calloc: nodes are initialised when allocated, and the
     * pages of an unused pool are never touched. */
    p->node = malloc(n * sizeof(MctsNode));
    if (!p->node)
        return -1;
    if (amaf) {
        p->amaf = malloc(n * sizeof(MctsAmaf));
        if (!p->amaf) {
            free(p->node);
            p->node = NULL;
            return -1;
        }
    }
    p->cap = (uint32_t)n;
    atomic_init(&p->used, 1);
    return 0;
}

void mcts_pool_free(MctsPool *p)
{
    free(p->node);
    free(p->amaf);
    memset(p, 0, sizeof *p);
}

void mcts_pool_clear(MctsPool *p)
{
    atomic_store(&p->used, 1);
}

uint32_t mcts_pool_alloc(MctsPool *p, uint32_t n)
{
    uint32_t cur = atomic_load_explicit(&p->used, memory_order_relaxed);
    do {
        if (n > p->cap - cur)
            return MCTS_NONE;
    } while (!atomic_compare_exchange_weak_explicit(
        &p->used, &cur, cur + n, memory_order_relaxed,
        memory_order_relaxed));
    if (p->amaf)
        memset(p->amaf + cur, 0, n * sizeof(MctsAmaf));
    return cur;
}

uint32_t mcts_pool_compact(const MctsPool *src, uint32_t root, MctsPool *dst)
{
    mcts_pool_clear(dst);
    uint32_t r = mcts_pool_alloc(dst, 1);
    memcpy(&dst->node[r], &src->node[root], sizeof(MctsNode));
    if (dst->amaf && src->amaf)
        memcpy(&dst->amaf[r], &src->amaf[root], sizeof(MctsAmaf));
    /* Breadth first through dst itself: a copied node still holds its old
     * first-child index until its turn comes. */
    uint32_t head = r, tail = r + 1;
    while (head < tail) {
        MctsNode *d = &dst->node[head];
        uint32_t nc = atomic_load(&d->nchild);
        uint32_t of = atomic_load(&d->first);
        if (atomic_load(&d->state) != NODE_EXPANDED || nc == 0 ||
            of == MCTS_NONE) {
            if (atomic_load(&d->state) == NODE_EXPANDING)
                atomic_store(&d->state, NODE_LEAF);
            atomic_store(&d->first, MCTS_NONE);
            atomic_store(&d->nchild, 0);
            head++;
            continue;
        }
        uint32_t nf = mcts_pool_alloc(dst, nc);
        if (nf == MCTS_NONE) {      /* cannot happen: dst is as big as src */
            atomic_store(&d->state, NODE_LEAF);
            atomic_store(&d->first, MCTS_NONE);
            atomic_store(&d->nchild, 0);
            head++;
            continue;
        }
        memcpy(&dst->node[nf], &src->node[of], nc * sizeof(MctsNode));
        if (dst->amaf && src->amaf)
            memcpy(&dst->amaf[nf], &src->amaf[of], nc * sizeof(MctsAmaf));
        atomic_store(&d->first, nf);
        tail = nf + nc;
        head++;
    }
    return r;
}
