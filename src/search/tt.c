/* tt.c — the transposition table (see tt.h for the layout). */
#include <stdlib.h>
#include <string.h>

#include "tt.h"

enum { BUCKET_BYTES = 64 };

/* Relaxed atomics: no ordering between the two words is needed (tt.h). */
static uint64_t load(const _Atomic uint64_t *w)
{
    return atomic_load_explicit(w, memory_order_relaxed);
}

static void store(_Atomic uint64_t *w, uint64_t v)
{
    atomic_store_explicit(w, v, memory_order_relaxed);
}

static uint64_t bucket_of(const TTable *t, uint64_t hash)
{
    return (uint64_t)(((unsigned __int128)hash * t->nbuckets) >> 64);
}

static uint32_t key_of(uint64_t hash)
{
    return (uint32_t)(hash & 0xffffffu);
}

static uint64_t pack(uint32_t key, int depth, int bound, unsigned age,
                     int value)
{
    return (uint64_t)key << 40 | (uint64_t)(depth & 0xff) << 32 |
           (uint64_t)(bound & 3) << 30 | (uint64_t)(age & 63) << 24 |
           ((uint64_t)(uint32_t)value & 0xffffffu);
}

static uint32_t meta_key(uint64_t m) { return (uint32_t)(m >> 40); }
static int meta_depth(uint64_t m) { return (int)((m >> 32) & 0xff); }
static int meta_bound(uint64_t m) { return (int)((m >> 30) & 3); }
static unsigned meta_age(uint64_t m) { return (unsigned)((m >> 24) & 63); }

static int meta_value(uint64_t m)
{
    int32_t v = (int32_t)(m & 0xffffffu);
    return v >= 0x800000 ? v - 0x1000000 : v;   /* sign-extend 24 bits */
}

int tt_init(TTable *t, size_t mib)
{
    memset(t, 0, sizeof *t);
    if (mib == 0)
        return 0;
    uint64_t n = (uint64_t)mib * (1u << 20) / BUCKET_BYTES;
    t->e = aligned_alloc(BUCKET_BYTES, n * BUCKET_BYTES);
    if (!t->e)
        return -1;
    t->nbuckets = n;
    tt_clear(t);
    return 0;
}

void tt_free(TTable *t)
{
    free(t->e);
    memset(t, 0, sizeof *t);
}

void tt_clear(TTable *t)
{
    if (t->e)
        memset(t->e, 0, t->nbuckets * BUCKET_BYTES);
    t->age = 0;
}

void tt_new_search(TTable *t)
{
    t->age = (t->age + 1) & 63;
}

int tt_probe(const TTable *t, uint64_t hash, TTHit *h)
{
    if (!t->e)
        return 0;
    const TTEntry *b = t->e + bucket_of(t, hash) * TT_WAYS;
    uint32_t key = key_of(hash);
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t m = load(&b[i].meta);
        if (meta_bound(m) != TT_NONE && meta_key(m) == key) {
            h->move = load(&b[i].move);
            h->value = meta_value(m);
            h->depth = meta_depth(m);
            h->bound = meta_bound(m);
            return 1;
        }
    }
    return 0;
}

void tt_store(TTable *t, uint64_t hash, Move mv, int value, int depth,
              int bound)
{
    if (!t->e)
        return;
    if (depth < 0)
        depth = 0;
    if (depth > TT_MAX_DEPTH)
        depth = TT_MAX_DEPTH;
    TTEntry *b = t->e + bucket_of(t, hash) * TT_WAYS;
    uint32_t key = key_of(hash);
    TTEntry *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t m = load(&b[i].meta);
        if (meta_bound(m) == TT_NONE) {
            if (worst > -1000) {
                victim = &b[i];
                worst = -1000;  /* an empty slot beats any used one */
            }
            continue;
        }
        if (meta_key(m) == key) {
            /* Same position: keep a much deeper entry from this search
             * unless the new one is exact. */
            if (bound != TT_EXACT && meta_age(m) == t->age &&
                meta_depth(m) > depth + 2)
                return;
            victim = &b[i];
            break;
        }
        int age_diff = (int)((t->age - meta_age(m)) & 63);
        int worth = meta_depth(m) - 8 * age_diff;
        if (worth < worst) {
            worst = worth;
            victim = &b[i];
        }
    }
    store(&victim->move, mv);
    store(&victim->meta, pack(key, depth, bound, t->age, value));
}
