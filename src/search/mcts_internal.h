/* mcts_internal.h — what the parts of the MCTS bot share: its options,
 * the per-thread Worker, the Mcts bot itself and small node helpers.
 *
 *   mcts.c        bot life cycle, options, threads, reporting, tree reuse
 *   mcts_walk.c   one iteration: select (a policy per option set), expand,
 *                 playout, backup; the solver and implicit minimax
 *   mcts_amaf.c   RAVE/GRAVE: the AMAF set of an iteration, the GRAVE
 *                 reference node, the AMAF part of the backup
 *   mcts_tree.c   the node pool
 */
#ifndef PLY_MCTS_INTERNAL_H
#define PLY_MCTS_INTERNAL_H

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "../core/bot.h"
#include "mcts_tree.h"

enum { POL_AUTO, POL_GAME, POL_RANDOM, POL_HEURISTIC };
enum { MCTS_MAX_THREADS = 64, TRACK_MAX = 512, FIND_BUDGET = 20000,
       FIND_DEPTH = 4, INFO_PERIOD_MS = 250, DEFAULT_ITERS = 50000 };

typedef struct MctsOpts {
    double c;
    size_t mem;
    int threads, playouts, reuse, solver, rave, amaf_all, policy, priors;
    uint32_t expand, grave;
    int ept;
    int exact;      /* ask the game's exact hook at leaf expansion */
    double bias, eps, ept_scale, im;
    double oppeps;  /* opponents' selection: a random child this often */
    int oppseat;    /* oppeps only when the root player is this seat + 1 */
} MctsOpts;

struct Mcts;
struct Worker;

/* A selection policy: the child of decision node n (children f..f+k-1)
 * to descend to. Chosen once at create (mcts_select_policy). */
typedef uint32_t (*MctsSelect)(struct Worker *w, MctsNode *n, uint32_t f,
                               uint32_t k, int depth);

typedef struct Worker {
    struct Mcts *m;
    int id;
    Rng rng;
    unsigned char *st, *tmp;
    Move *moves;
    double *probs;
    int *hval;
    int *pwins;              /* priors: wins (hval holds the visits) */
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
    BotTick tick;            /* this thread's clock readings */
    pthread_t th;
    int started;
} Worker;

typedef struct Mcts {
    const GameVtbl *g;
    MctsOpts o;
    size_t sz;
    int solver_ok;           /* exact values convert between players */
    int im_ok;               /* implicit minimax on (same condition) */
    MctsSelect select;
    uint64_t seed;
    Rng rng;
    MctsPool pool[2];
    int cur;
    uint32_t root;           /* in pool[cur]; MCTS_NONE: no tree */
    unsigned char *root_state;
    /* tree reuse: the moves informed since the last search */
    unsigned char *track_state, *find_state;
    unsigned char *world;       /* hidden information: the sampled root */
    Move track[TRACK_MAX];
    int ntrack, track_ok;
    Worker *w;
    /* the running search */
    _Atomic int stop;
    _Atomic uint64_t claimed;
    uint64_t max_iters;
    int root_player;         /* to move at the root of the running search */
    double oppeps_now;       /* o.oppeps, or 0 where oppseat excludes this seat */
    BotClock clk;            /* time_ms: start and internal deadline */
    const Limits *lim;
    SearchInfo *out;
    int64_t last_info;
} Mcts;

/* ---- node helpers ---- */

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

static inline void set_proven(MctsNode *n, int32_t v)
{
    atomic_store_explicit(&n->im, v, memory_order_relaxed);
    atomic_store_explicit(&n->exact, v, memory_order_relaxed);
    atomic_store_explicit(&n->proven, PROVEN_YES, memory_order_release);
}

static inline uint64_t amaf_key(const Mcts *m, int player, Move mv)
{
    return ply_mix64(mv ^ ((uint64_t)(m->o.amaf_all ? 0 : player + 1) << 58));
}

static inline void seq_push(Worker *w, int player, Move mv)
{
    if (w->seq_move && w->seq_len < w->seq_cap) {
        w->seq_move[w->seq_len] = mv;
        w->seq_player[w->seq_len] = (int8_t)player;
        w->seq_len++;
    }
}

/* ---- mcts_walk.c ---- */

/* One iteration from the root (m->root, m->root_state). */
void mcts_iterate(Worker *w);
/* Expands node idx at state w->st whose player to move is tm. Returns 1
 * on success, 0 when another thread has it or the pool is full. */
int mcts_expand(Worker *w, uint32_t idx, int tm);
/* The selection policy the options ask for (m->o, m->im_ok set). */
MctsSelect mcts_select_policy(const Mcts *m);

/* ---- mcts_amaf.c ---- */

void mcts_amaf_clear(Worker *w);
/* Backup at decision node n (path depth d) of an iteration with reward r:
 * adds the moves played below d to the AMAF set (*pos walks the sequence
 * down) and credits n's children found in it. */
void mcts_amaf_backup(Worker *w, MctsNode *n, int d, const double *r,
                      int *pos);
/* GRAVE: the reference node for a node at path depth `depth` whose
 * children `player` chooses among (MCTS_NONE: the node itself), filling
 * the worker's map; then the AMAF record of a move there, or NULL. */
uint32_t mcts_grave_ref(Worker *w, int depth, int player);
MctsAmaf *mcts_grave_amaf(Worker *w, int player, Move mv);

#endif
