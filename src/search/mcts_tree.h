/* mcts_tree.h — the MCTS node pool: one block allocated up front, 32-bit
 * indices, children of a node contiguous (first index + count), atomic
 * allocation that fails soft when the pool is full, and compaction of a
 * subtree into a second pool for tree reuse between moves.
 *
 * Statistics are stored from the point of view of one player per node
 * (pov): the player who made the move into the node, or for an outcome of
 * a chance node the pov of that chance node. Rewards are fixed point
 * (MCTS_FIX per unit) so that threads can add them with relaxed atomics. */
#ifndef PLY_MCTS_TREE_H
#define PLY_MCTS_TREE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"

#define MCTS_FIX ((double)(1 << 24))
enum { MCTS_NONE = 0 };     /* index 0 is never a node */

/* MctsNode.state */
enum { NODE_LEAF = 0, NODE_EXPANDING, NODE_EXPANDED, NODE_TERMINAL };
/* MctsNode.proven: exact value known (solver) */
enum { PROVEN_NO = 0, PROVEN_YES = 1 };

typedef struct MctsNode {
    /* hot: read at every selection step */
    _Atomic uint32_t visits;
    _Atomic uint32_t vloss;        /* threads descending through it */
    _Atomic int64_t wsum;          /* reward sum for pov, fixed point */
    _Atomic uint32_t first;        /* first child, MCTS_NONE before expansion */
    _Atomic uint16_t nchild;
    _Atomic uint8_t state;         /* NODE_* */
    _Atomic uint8_t proven;        /* PROVEN_*: exact holds the value */
    _Atomic int32_t exact;         /* exact value for pov, fixed point */
    int8_t pov;                    /* player whose value wsum holds */
    int8_t mover;                  /* to_move before the move into it */
    uint16_t prior;                /* of visits: the game's prior ones */
    float prob;                    /* chance outcome probability */
    _Atomic int32_t im;            /* implicit minimax value for pov */
    Move move;                     /* the move into this node */
} MctsNode;

/* AMAF statistics of the move into a node, in a parallel array (only when
 * RAVE is on, so plain UCT stays compact). */
typedef struct MctsAmaf {
    _Atomic uint32_t n;
    _Atomic int64_t w;
} MctsAmaf;

typedef struct MctsPool {
    MctsNode *node;
    MctsAmaf *amaf;                /* NULL without RAVE */
    uint32_t cap;                  /* nodes, index 0 included */
    _Atomic uint32_t used;         /* next free index */
} MctsPool;

/* Allocates room for `bytes` of nodes (and AMAF records when amaf). */
int mcts_pool_init(MctsPool *p, size_t bytes, int amaf);
void mcts_pool_free(MctsPool *p);
void mcts_pool_clear(MctsPool *p);
size_t mcts_pool_bytes_per_node(int amaf);
/* n consecutive fresh nodes, or MCTS_NONE when the pool is full. */
uint32_t mcts_pool_alloc(MctsPool *p, uint32_t n);
/* Copies the subtree under src node `root` into dst (cleared first),
 * breadth first, keeping children contiguous. Returns the new root index. */
uint32_t mcts_pool_compact(const MctsPool *src, uint32_t root, MctsPool *dst);

static inline void mcts_node_reset(MctsNode *n, Move m, int mover, int pov,
                                   float prob)
{
    atomic_store_explicit(&n->visits, 0, memory_order_relaxed);
    atomic_store_explicit(&n->vloss, 0, memory_order_relaxed);
    atomic_store_explicit(&n->wsum, 0, memory_order_relaxed);
    atomic_store_explicit(&n->first, MCTS_NONE, memory_order_relaxed);
    atomic_store_explicit(&n->nchild, 0, memory_order_relaxed);
    atomic_store_explicit(&n->state, NODE_LEAF, memory_order_relaxed);
    atomic_store_explicit(&n->proven, PROVEN_NO, memory_order_relaxed);
    atomic_store_explicit(&n->exact, 0, memory_order_relaxed);
    n->pov = (int8_t)pov;
    n->mover = (int8_t)mover;
    n->prior = 0;
    n->prob = prob;
    atomic_store_explicit(&n->im, 0, memory_order_relaxed);
    n->move = m;
}

#endif
