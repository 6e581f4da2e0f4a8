/* mancala_db.c — endgame databases for sowing games (mancala_db.h). */
#include <stdlib.h>
#include <string.h>

#include "mancala_db.h"

enum { NONE = -128 };
#define AGAIN_BIT 0x80000000u

/* compositions of m seeds into k houses, C(m+k-1, k-1) */
static uint32_t comp(int k, int m)
{
    if (m < 0)
        return 0;
    if (k == 0)
        return m == 0;
    uint64_t c = 1;
    for (int i = 1; i < k; i++)
        c = c * (uint64_t)(m + i) / (uint64_t)i;
    return (uint32_t)c;
}

uint64_t mancala_db_positions(int houses, int maxseeds)
{
    return comp(houses + 1, maxseeds);  /* one more "house": the rest */
}

/* Boards of m seeds in k houses whose first house holds fewer than a. */
static uint32_t fewer(const MancalaDb *db, int k, int m, int a)
{
    return db->c[k][m] - (m - a >= 0 ? db->c[k][m - a] : 0);
}

static uint32_t rank_of(const MancalaDb *db, const uint8_t *b, int n)
{
    int K = db->rules->houses;
    uint32_t idx = 0;
    int m = n;
    for (int i = 0; i < K - 1; i++) {
        idx += fewer(db, K - i, m, b[i]);
        m -= b[i];
    }
    return idx;
}

static void unrank(const MancalaDb *db, uint32_t idx, int n, uint8_t *b)
{
    int K = db->rules->houses;
    int m = n;
    for (int i = 0; i < K - 1; i++) {
        int k = K - i, a = 0;
        while (a < m && fewer(db, k, m, a + 1) <= idx)
            a++;
        idx -= fewer(db, k, m, a);
        b[i] = (uint8_t)a;
        m -= a;
    }
    b[K - 1] = (uint8_t)m;
}

/* The board seen from the other side: rows swapped. */
static void flip(int K, const uint8_t *b, uint8_t *out)
{
    int h = K / 2;
    memcpy(out, b + h, (size_t)h);
    memcpy(out + h, b, (size_t)h);
}

static int seeds(int K, const uint8_t *b)
{
    int s = 0;
    for (int i = 0; i < K; i++)
        s += b[i];
    return s;
}

static int build_layer(MancalaDb *db, int n)
{
    const MancalaRules *R = db->rules;
    int K = R->houses, W = K / 2;  /* moves of one side at most */
    uint32_t size = db->c[K][n];
    int8_t *cur = malloc(size), *nxt = malloc(size), *exitv = malloc(size);
    uint32_t *kids = malloc((size_t)size * W * sizeof *kids);
    uint8_t *nkids = malloc(size);
    if (!cur || !nxt || !exitv || !kids || !nkids) {
        free(cur), free(nxt), free(exitv), free(kids), free(nkids);
        return -1;
    }
    /* each board's moves: those leaving the layer have their exact value
     * now (exitv, their best); those staying are edges (kids) */
    for (uint32_t p = 0; p < size; p++) {
        uint8_t b[MDB_MAX_HOUSES], c[MDB_MAX_HOUSES], f[MDB_MAX_HOUSES];
        unrank(db, p, n, b);
        int mv[MDB_MAX_MOVES], nm = R->moves(R, b, mv), best = NONE, k = 0;
        if (nm == 0)
            best = R->stuck(R, b);
        for (int i = 0; i < nm; i++) {
            memcpy(c, b, (size_t)K);
            int gain = 0, what = R->play(R, c, mv[i], &gain);
            int v;
            const uint8_t *child = c;
            if (what == MDB_PASS) {
                flip(K, c, f);
                child = f;
            }
            int left = seeds(K, child);
            if (what == MDB_END) {
                v = gain;
            } else if (left < n) {
                int cv = db->layer[left][rank_of(db, child, left)];
                v = what == MDB_AGAIN ? gain + cv : gain - cv;
            } else {
                /* in the layer: nothing left play (gain 0) */
                kids[(size_t)p * W + (size_t)k++] =
                    rank_of(db, child, n) | (what == MDB_AGAIN ? AGAIN_BIT
                                                               : 0);
                continue;
            }
            if (v > best)
                best = v;
        }
        exitv[p] = (int8_t)best;
        nkids[p] = (uint8_t)k;
        cur[p] = 0;
    }
    /* The iteration, recomputing only the boards one of whose children
     * changed in the last step (the others would not change). */
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
            off[(kids[(size_t)p * W + (size_t)i] & ~AGAIN_BIT) +
                1]++;
    for (uint32_t p = 0; p < size; p++)
        off[p + 1] += off[p];
    for (uint32_t p = 0; p < size; p++)
        mark[p] = off[p];   /* fill cursors */
    for (uint32_t p = 0; p < size; p++)
        for (int i = 0; i < nkids[p]; i++)
            pred[mark[kids[(size_t)p * W + (size_t)i] &
                      ~AGAIN_BIT]++] = p;
    memset(mark, 0, (size_t)size * sizeof *mark);
    uint32_t ntodo = size, stamp = 0;
    for (uint32_t p = 0; p < size; p++)
        todo[p] = p;
    while (ntodo) {
        uint32_t nchg = 0;
        for (uint32_t j = 0; j < ntodo; j++) {
            uint32_t p = todo[j];
            int best = exitv[p];
            const uint32_t *kp = kids + (size_t)p * W;
            for (int i = 0; i < nkids[p]; i++) {
                int cv = cur[kp[i] & ~AGAIN_BIT];
                int v = kp[i] & AGAIN_BIT ? cv : -cv;
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

int mancala_db_build(MancalaDb *db, int maxseeds)
{
    int K = db->rules->houses;
    if (maxseeds > MDB_MAX_SEEDS || K < 2 || K > MDB_MAX_HOUSES || K % 2)
        return -1;
    if (atomic_load_explicit(&db->built, memory_order_acquire) > maxseeds)
        return 0;
    pthread_mutex_lock(&db->lock);
    if (atomic_load(&db->built) == 0)
        for (int k = 0; k <= K; k++)
            for (int m = 0; m <= MDB_MAX_SEEDS; m++)
                db->c[k][m] = comp(k, m);
    int rc = 0;
    for (int n = atomic_load(&db->built); n <= maxseeds; n++) {
        /* a layer must fit the indices and the edges' flag bit */
        if (db->c[K][n] >= AGAIN_BIT / 2 ||
            build_layer(db, n)) {
            rc = -1;
            break;
        }
        atomic_store_explicit(&db->built, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&db->lock);
    return rc;
}

int mancala_db_probe(MancalaDb *db, const uint8_t *b, int maxseeds, int *net)
{
    int K = db->rules->houses;
    int n = seeds(K, b);
    if (n > maxseeds || n > MDB_MAX_SEEDS)
        return -1;
    if (atomic_load_explicit(&db->built, memory_order_acquire) <= n &&
        mancala_db_build(db, maxseeds))
        return -1;
    *net = db->layer[n][rank_of(db, b, n)];
    return 0;
}
