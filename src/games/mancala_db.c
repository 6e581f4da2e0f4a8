/* mancala_db.c — endgame databases for sowing games (mancala_db.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mancala_db.h"

enum { NONE = -128 };

/* compositions of m seeds into k houses, C(m+k-1, k-1) */
static uint64_t comp64(int k, int m)
{
    if (m < 0)
        return 0;
    if (k == 0)
        return m == 0;
    uint64_t c = 1;
    for (int i = 1; i < k; i++)
        c = c * (uint64_t)(m + i) / (uint64_t)i;
    return c;
}

static uint32_t comp(int k, int m)
{
    uint64_t c = comp64(k, m);
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

uint64_t mancala_db_positions(int houses, int maxseeds)
{
    return comp64(houses + 1, maxseeds);  /* one more "house": the rest */
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
        /* c[k][m - a] boards of this suffix have a first house >= a:
         * with r = c[k][m] - idx, the first house is the largest a with
         * c[k][m - a] >= r */
        const uint32_t *ck = db->c[K - i];
        uint32_t r = ck[m] - idx;
        int a = 0;
        while (a < m && ck[m - a - 1] >= r)
            a++;
        idx -= ck[m] - ck[m - a];
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

/* The boards of the layer whose moves lead to board q (rank in layer n,
 * from its mover's view) in one in-layer move get their bit in todo.
 * Candidates come from taking back a sowing on the houses (a cycle that
 * skips the origin); each is checked by playing it forward, so a game
 * whose sowing differs (a store on the way) only loses candidates that
 * are not in-layer moves anyway. In-layer moves pass the turn
 * (build_layer checks it). */
static void mark_preds(const MancalaDb *db, int n, uint32_t q,
                       uint64_t *todo)
{
    const MancalaRules *R = db->rules;
    int K = R->houses, h = K / 2;
    uint8_t qb[MDB_MAX_HOUSES] = {0}, f[MDB_MAX_HOUSES] = {0},
        b[MDB_MAX_HOUSES], c[MDB_MAX_HOUSES];
    unrank(db, q, n, qb);
    flip(K, qb, f);     /* the board after the move, the mover's view */
    for (int i = 0; i < h; i++) {
        if (f[i])
            continue;
        memcpy(b, f, sizeof b);
        int pos = i;
        for (int s = 1; s <= n; s++) {
            pos = pos + 1 == K ? 0 : pos + 1;
            if (pos == i)
                pos = pos + 1 == K ? 0 : pos + 1;
            if (!b[pos])
                break;
            b[pos]--;
            b[i] = (uint8_t)s;
            memcpy(c, b, sizeof c);
            int gain = 0;
            if (R->play(R, c, i, &gain) == MDB_PASS && gain == 0 &&
                !memcmp(c, f, sizeof c)) {
                int mv[MDB_MAX_MOVES], nm = R->moves(R, b, mv), legal = 0;
                for (int j = 0; j < nm; j++)
                    legal |= mv[j] == i;
                if (legal) {
                    uint32_t p = rank_of(db, b, n);
                    todo[p >> 6] |= 1ull << (p & 63);
                }
            }
            b[i] = 0;
        }
    }
}

/* The next board in rank order (lexicographic on houses 0..K-2). */
static void next_board(int K, uint8_t *b)
{
    int rest = b[K - 1], j = K - 2;
    while (j >= 0) {
        if (rest > 0) {
            b[j]++;
            b[K - 1] = (uint8_t)(rest - 1);
            return;
        }
        rest += b[j];
        b[j] = 0;
        j--;
    }
}

/* Solves layer n by value iteration (mancala_db.h) in about three bytes
 * a board: the values of step k and k+1, each board's best move leaving
 * the layer, and two bitmaps (boards changed in the last step, boards to
 * recompute). A step recomputes only the predecessors of boards that
 * changed, found by taking moves back (mark_preds), so no edges are
 * stored. */
static int build_layer(MancalaDb *db, int n)
{
    const MancalaRules *R = db->rules;
    int K = R->houses;
    uint32_t size = db->c[K][n];
    size_t words = ((size_t)size + 63) / 64;
    int8_t *cur = malloc(size), *nxt = malloc(size), *exitv = malloc(size);
    uint64_t *chg = calloc(words, sizeof *chg),
             *todo = calloc(words, sizeof *todo);
    int rc = -1;
    if (!cur || !nxt || !exitv || !chg || !todo)
        goto done;
    /* step 1 (from v_0 = 0 everywhere): each board's best move leaving
     * the layer, exact now (exitv); a move staying in it is worth 0 */
    uint8_t b[MDB_MAX_HOUSES];
    memset(b, 0, sizeof b);
    b[K - 1] = (uint8_t)n;
    for (uint32_t p = 0; p < size; p++, next_board(K, b)) {
        uint8_t c[MDB_MAX_HOUSES], f[MDB_MAX_HOUSES] = {0};
        int mv[MDB_MAX_MOVES], nm = R->moves(R, b, mv), best = NONE;
        int stay = 0;
        if (nm == 0)
            best = R->stuck(R, b);
        for (int i = 0; i < nm; i++) {
            memcpy(c, b, sizeof c);
            int gain = 0, what = R->play(R, c, mv[i], &gain), v;
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
                if (what != MDB_PASS || gain)
                    goto done;  /* not a sowing game mark_preds knows */
                stay = 1;
                continue;
            }
            if (v > best)
                best = v;
        }
        exitv[p] = (int8_t)best;
        int v1 = stay && best < 0 ? 0 : best;
        cur[p] = (int8_t)v1;
        if (v1)
            chg[p >> 6] |= 1ull << (p & 63);
    }
    for (;;) {
        int any = 0;
        for (size_t w = 0; w < words; w++)
            for (uint64_t x = chg[w]; x; x &= x - 1) {
                mark_preds(db, n, (uint32_t)(w * 64 + (size_t)
                                             __builtin_ctzll(x)), todo);
                any = 1;
            }
        if (!any)
            break;
        memset(chg, 0, words * sizeof *chg);
        for (size_t w = 0; w < words; w++) {
            for (uint64_t x = todo[w]; x; x &= x - 1) {
                uint32_t p = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
                uint8_t c[MDB_MAX_HOUSES], f[MDB_MAX_HOUSES] = {0};
                unrank(db, p, n, b);
                int mv[MDB_MAX_MOVES], nm = R->moves(R, b, mv);
                int best = exitv[p];
                for (int i = 0; i < nm; i++) {
                    memcpy(c, b, sizeof c);
                    int gain = 0;
                    if (R->play(R, c, mv[i], &gain) != MDB_PASS || gain)
                        continue;
                    flip(K, c, f);
                    if (seeds(K, f) != n)
                        continue;
                    int v = -cur[rank_of(db, f, n)];
                    if (v > best)
                        best = v;
                }
                if (best != cur[p]) {
                    nxt[p] = (int8_t)best;
                    chg[w] |= 1ull << (p & 63);
                }
            }
            todo[w] = 0;
        }
        for (size_t w = 0; w < words; w++)
            for (uint64_t x = chg[w]; x; x &= x - 1) {
                uint32_t p = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
                cur[p] = nxt[p];
            }
    }
    db->layer[n] = cur;
    cur = NULL;
    rc = 0;
done:
    free(cur), free(nxt), free(exitv), free(chg), free(todo);
    return rc;
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
        /* a layer's ranks must fit 32 bits */
        if (comp64(K, n) >= UINT32_MAX ||
            build_layer(db, n)) {
            rc = -1;
            break;
        }
        atomic_store_explicit(&db->built, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&db->lock);
    return rc;
}

/* ---- files: "PLYMDB1\n", the tag (56 bytes, NUL-padded), houses and
 * the highest layer (4 bytes each, little-endian), the FNV-1a hash of
 * the layers (8 bytes), then layers 0..maxseeds, a byte a board ---- */

enum { TAG_LEN = 56, HEADER = 8 + TAG_LEN + 4 + 4 + 8 };

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t fnv(uint64_t h, const int8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
    return h;
}

static void header(const MancalaDb *db, int maxseeds, const char *tag,
                   uint64_t sum, uint8_t *h)
{
    memset(h, 0, HEADER);
    memcpy(h, "PLYMDB1\n", 8);
    strncpy((char *)h + 8, tag, TAG_LEN - 1);
    put_le(h + 8 + TAG_LEN, (uint64_t)db->rules->houses, 4);
    put_le(h + 12 + TAG_LEN, (uint64_t)maxseeds, 4);
    put_le(h + 16 + TAG_LEN, sum, 8);
}

static int load(MancalaDb *db, int maxseeds, FILE *f, const char *path,
                const char *tag, PlyError *err)
{
    uint8_t h[HEADER], want[HEADER];
    if (fread(h, 1, HEADER, f) != HEADER || memcmp(h, "PLYMDB1\n", 8))
        return ply_fail(err, "%s is not a mancala database file", path);
    int seeds = (int)get_le(h + 12 + TAG_LEN, 4);
    header(db, seeds, tag, get_le(h + 16 + TAG_LEN, 8), want);
    if (memcmp(h, want, 12 + TAG_LEN))
        return ply_fail(err, "%s holds the databases of '%.*s' (%d houses),"
                        " not of '%s' (%d houses)", path, TAG_LEN,
                        (const char *)h + 8,
                        (int)get_le(h + 8 + TAG_LEN, 4), tag,
                        db->rules->houses);
    if (seeds < maxseeds || seeds > MDB_MAX_SEEDS)
        return ply_fail(err, "%s holds boards up to %d seeds, not %d", path,
                        seeds, maxseeds);
    int K = db->rules->houses;
    uint64_t sum = 0xcbf29ce484222325ull;
    int8_t *layer[MDB_MAX_SEEDS + 1] = {NULL};
    for (int n = 0; n <= seeds; n++) {
        size_t size = db->c[K][n];
        layer[n] = malloc(size);
        if (!layer[n] || fread(layer[n], 1, size, f) != size) {
            for (int i = 0; i <= n; i++)
                free(layer[i]);
            return ply_fail(err, layer[n] ? "%s is cut short" :
                            "%s: out of memory", path);
        }
        sum = fnv(sum, layer[n], size);
    }
    if (fgetc(f) != EOF || sum != get_le(h + 16 + TAG_LEN, 8)) {
        for (int n = 0; n <= seeds; n++)
            free(layer[n]);
        return ply_fail(err, "%s is corrupt (its checksum or length is "
                        "wrong): delete it to build it again", path);
    }
    /* layers already built are the same values: keep those */
    int built = atomic_load(&db->built);
    for (int n = 0; n <= seeds; n++) {
        if (n < built)
            free(layer[n]);
        else
            db->layer[n] = layer[n];
    }
    if (seeds + 1 > built)
        atomic_store_explicit(&db->built, seeds + 1, memory_order_release);
    return 0;
}

static int save(MancalaDb *db, int maxseeds, const char *path,
                const char *tag, PlyError *err)
{
    int K = db->rules->houses;
    uint64_t sum = 0xcbf29ce484222325ull;
    for (int n = 0; n <= maxseeds; n++)
        sum = fnv(sum, db->layer[n], db->c[K][n]);
    uint8_t h[HEADER];
    header(db, maxseeds, tag, sum, h);
    /* a name of its own for the file being written: processes that
     * build the same database at once each write a whole file, and the
     * last rename wins (with one shared name their writes interleaved) */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp)
        return ply_fail(err, "database path too long");
    int fd = mkstemp(tmp);
    if (fd >= 0)
        fchmod(fd, 0644);   /* mkstemp's 0600 would hide it from others */
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        if (fd >= 0) {
            close(fd);
            remove(tmp);
        }
        return ply_fail(err, "cannot write %s", tmp);
    }
    int ok = fwrite(h, 1, HEADER, f) == HEADER;
    for (int n = 0; ok && n <= maxseeds; n++)
        ok = fwrite(db->layer[n], 1, db->c[K][n], f) == db->c[K][n];
    if (fclose(f) || !ok || rename(tmp, path)) {
        remove(tmp);
        return ply_fail(err, "cannot write %s", path);
    }
    return 0;
}

int mancala_db_build_file(MancalaDb *db, int maxseeds, const char *path,
                          const char *tag, PlyError *err)
{
    if (!path)
        return mancala_db_build(db, maxseeds) ?
            ply_fail(err, "endgame databases: out of memory") : 0;
    if (atomic_load_explicit(&db->built, memory_order_acquire) > maxseeds)
        return 0;
    if (mancala_db_build(db, 0))    /* the tables; layer 0 */
        return ply_fail(err, "endgame databases: out of memory");
    pthread_mutex_lock(&db->lock);
    int rc;
    FILE *f = fopen(path, "rb");
    if (f) {
        rc = load(db, maxseeds, f, path, tag, err);
        fclose(f);
        pthread_mutex_unlock(&db->lock);
        return rc;
    }
    pthread_mutex_unlock(&db->lock);
    if (mancala_db_build(db, maxseeds))
        return ply_fail(err, "endgame databases: out of memory");
    pthread_mutex_lock(&db->lock);
    rc = save(db, maxseeds, path, tag, err);
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

void mancala_db_free(MancalaDb *db)
{
    for (int n = 0; n <= MDB_MAX_SEEDS; n++) {
        free(db->layer[n]);
        db->layer[n] = NULL;
    }
    atomic_store(&db->built, 0);
}
