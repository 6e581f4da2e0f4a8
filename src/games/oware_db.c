/* oware_db.c — Oware endgame databases by retrograde analysis.
 *
 * A board is seen from the side to move (its row first). Boards with n
 * seeds form layer n, indexed by the rank of the composition of n into 12
 * houses. A capture leads to a lower layer, already solved; a quiet move
 * stays in the layer. Each layer is solved by value iteration from 0:
 * v_{k+1}(p) = max over moves of (captured - v(child)), with v_k the value
 * of the game cut after k quiet plies with nothing more for either side.
 * The first k with v_{k+1} = v_k gives the exact values of the game in
 * which endless play splits the seeds left (each threshold's attractor is
 * reached within k plies, and a fixed point of the update stays one).
 * Values are net seeds, -n..n, one byte per board.
 *
 * The tables are a process-wide cache, immutable once a layer is
 * published: built under a lock on first use, read without one. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "oware.h"

enum { NONE = -128 };

typedef struct Tables {
    uint32_t c[13][OWARE_DB_MAX + 1];
} Tables;

typedef struct Db {
    pthread_mutex_t lock;
    Tables t;               /* set before the first layer is published */
    atomic_int built;       /* layers 0..built-1 are complete */
    int8_t *layer[OWARE_DB_MAX + 1];
} Db;

static Db dbs[2] = {
    {.lock = PTHREAD_MUTEX_INITIALIZER},
    {.lock = PTHREAD_MUTEX_INITIALIZER},
};

/* comp[k][m]: compositions of m seeds into k houses, C(m+k-1, k-1). */
static uint32_t comp(int k, int m)
{
    if (m < 0)
        return 0;
    if (k == 0)
        return m == 0;
    uint64_t c = 1;     /* C(m+k-1, k-1) */
    for (int i = 1; i < k; i++)
        c = c * (uint64_t)(m + i) / (uint64_t)i;
    return (uint32_t)c;
}

static void tables_init(Tables *t)
{
    for (int k = 0; k <= 12; k++)
        for (int m = 0; m <= OWARE_DB_MAX; m++)
            t->c[k][m] = comp(k, m);
}

/* Boards of m seeds in k houses whose first house holds fewer than a. */
static uint32_t fewer(const Tables *t, int k, int m, int a)
{
    return t->c[k][m] - (m - a >= 0 ? t->c[k][m - a] : 0);
}

static uint32_t rank_of(const Tables *t, const uint8_t *b, int n)
{
    uint32_t idx = 0;
    int m = n;
    for (int i = 0; i < 11; i++) {
        idx += fewer(t, 12 - i, m, b[i]);
        m -= b[i];
    }
    return idx;
}

static void unrank(const Tables *t, uint32_t idx, int n, uint8_t *b)
{
    int m = n;
    for (int i = 0; i < 11; i++) {
        int k = 12 - i, a = 0;
        while (a < m && fewer(t, k, m, a + 1) <= idx)
            a++;
        idx -= fewer(t, k, m, a);
        b[i] = (uint8_t)a;
        m -= a;
    }
    b[11] = (uint8_t)m;
}

/* The board after a move, seen from the new side to move. */
static void flip(const uint8_t *b, uint8_t *out)
{
    memcpy(out, b + 6, 6);
    memcpy(out + 6, b, 6);
}

static int row(const uint8_t *b, int side)
{
    int s = 0;
    for (int i = 0; i < 6; i++)
        s += b[6 * side + i];
    return s;
}

static int build_layer(Db *db, int gs, int n)
{
    const Tables *t = &db->t;
    uint32_t size = t->c[12][n];
    int8_t *cur = malloc(size), *nxt = malloc(size), *exitv = malloc(size);
    uint32_t *kids = malloc((size_t)size * 6 * sizeof *kids);
    uint8_t *nkids = malloc(size);
    if (!cur || !nxt || !exitv || !kids || !nkids) {
        free(cur), free(nxt), free(exitv), free(kids), free(nkids);
        return -1;
    }
    for (uint32_t p = 0; p < size; p++) {
        uint8_t b[12], c[12], f[12];
        unrank(t, p, n, b);
        int mv[6], nm = oware_moves(b, 0, gs, mv), best = NONE, k = 0;
        if (nm == 0)
            best = row(b, 0) - row(b, 1);
        for (int i = 0; i < nm; i++) {
            memcpy(c, b, 12);
            int cap;
            oware_sow(c, 0, mv[i], gs, &cap);
            flip(c, f);
            if (cap) {
                int v = cap - db->layer[n - cap][rank_of(t, f, n - cap)];
                if (v > best)
                    best = v;
            } else {
                kids[(size_t)p * 6 + (size_t)k++] = rank_of(t, f, n);
            }
        }
        exitv[p] = (int8_t)best;
        nkids[p] = (uint8_t)k;
        cur[p] = 0;
    }
    /* The same iteration, recomputing only the boards one of whose
     * children changed in the last step (the others would not change). */
    uint32_t *off = calloc((size_t)size + 1, sizeof *off);
    uint32_t *todo = malloc((size_t)size * sizeof *todo);
    uint32_t *chg = malloc((size_t)size * sizeof *chg);
    uint32_t *mark = calloc(size, sizeof *mark);
    uint64_t edges = 0;
    for (uint32_t p = 0; p < size; p++)
        edges += nkids[p];
    uint32_t *pred = malloc((size_t)(edges ? edges : 1) * sizeof *pred);
    if (!off || !todo || !chg || !mark || !pred) {
        free(off), free(todo), free(chg), free(mark), free(pred);
        free(cur), free(nxt), free(exitv), free(kids), free(nkids);
        return -1;
    }
    for (uint32_t p = 0; p < size; p++)
        for (int i = 0; i < nkids[p]; i++)
            off[kids[(size_t)p * 6 + (size_t)i] + 1]++;
    for (uint32_t p = 0; p < size; p++)
        off[p + 1] += off[p];
    for (uint32_t p = 0; p < size; p++)
        mark[p] = off[p];   /* fill cursors */
    for (uint32_t p = 0; p < size; p++)
        for (int i = 0; i < nkids[p]; i++)
            pred[mark[kids[(size_t)p * 6 + (size_t)i]]++] = p;
    memset(mark, 0, (size_t)size * sizeof *mark);
    uint32_t ntodo = size, stamp = 0;
    for (uint32_t p = 0; p < size; p++)
        todo[p] = p;
    while (ntodo) {
        uint32_t nchg = 0;
        for (uint32_t j = 0; j < ntodo; j++) {
            uint32_t p = todo[j];
            int best = exitv[p];
            const uint32_t *kp = kids + (size_t)p * 6;
            for (int i = 0; i < nkids[p]; i++) {
                int v = -cur[kp[i]];
                if (v > best)
                    best = v;
            }
            if (best != cur[p]) {
                nxt[p] = (int8_t)best;
                chg[nchg++] = p;
            }
        }
        stamp++;
        ntodo = 0;
        for (uint32_t j = 0; j < nchg; j++)
            cur[chg[j]] = nxt[chg[j]];
        for (uint32_t j = 0; j < nchg; j++)
            for (uint32_t e = off[chg[j]]; e < off[chg[j] + 1]; e++)
                if (mark[pred[e]] != stamp) {
                    mark[pred[e]] = stamp;
                    todo[ntodo++] = pred[e];
                }
    }
    free(off), free(todo), free(chg), free(mark), free(pred);
    free(nxt), free(exitv), free(kids), free(nkids);
    db->layer[n] = cur;
    return 0;
}

int oware_db_build(int gs, int maxseeds)
{
    if (gs < 0 || gs > 1 || maxseeds > OWARE_DB_MAX)
        return -1;
    Db *db = &dbs[gs];
    if (atomic_load_explicit(&db->built, memory_order_acquire) > maxseeds)
        return 0;
    pthread_mutex_lock(&db->lock);
    if (atomic_load(&db->built) == 0)
        tables_init(&db->t);
    int rc = 0;
    for (int n = atomic_load(&db->built); n <= maxseeds; n++) {
        if (build_layer(db, gs, n)) {
            rc = -1;
            break;
        }
        atomic_store_explicit(&db->built, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&db->lock);
    return rc;
}

uint64_t oware_db_positions(int maxseeds)
{
    return comp(13, maxseeds);  /* every board with at most maxseeds */
}

int oware_db_probe(const uint8_t *pit, int side, int gs, int maxseeds,
                   int *net)
{
    uint8_t b[12];
    if (side)
        flip(pit, b);
    else
        memcpy(b, pit, 12);
    int n = row(b, 0) + row(b, 1);
    if (n > maxseeds || gs < 0 || gs > 1)
        return -1;
    Db *db = &dbs[gs];
    if (atomic_load_explicit(&db->built, memory_order_acquire) <= n &&
        oware_db_build(gs, maxseeds))
        return -1;
    *net = db->layer[n][rank_of(&db->t, b, n)];
    return 0;
}
