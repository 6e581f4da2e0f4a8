/* tt.h — the alpha-beta transposition table.
 *
 * Buckets of 4 entries of 16 bytes, one 64-byte cache line per bucket.
 * A bucket is chosen by the high half of the 64x64-bit product of the
 * position hash and the bucket count, so any table size works; a 24-bit
 * check key from the low bits of the hash guards each entry. Replacement
 * prefers shallow entries from old searches (depth minus 8 per age step),
 * and an entry for the same position is overwritten unless it is much
 * deeper. Values are stored as the search hands them in; mate-distance
 * adjustment is the caller's job.
 *
 * Threads (alpha-beta's Lazy SMP) share one table without locks: each
 * entry is two 64-bit atomic words read and written with relaxed order
 * (plain loads and stores on x86-64 and arm64). The meta word carries the
 * check key, depth, bound and value together, so a probe never sees half
 * of one; two threads storing to one slot at once can leave the move word
 * of one with the meta word of the other, so the move of a hit is only a
 * hint: every caller compares it with the moves it generated before using
 * it. tt_init, tt_free, tt_clear and tt_new_search run while no search
 * does.
 */
#ifndef PLY_TT_H
#define PLY_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };
enum { TT_MAX_DEPTH = 255, TT_WAYS = 4 };

typedef struct TTEntry {
    _Atomic uint64_t move;      /* a Move */
    /* key:24 | depth:8 | bound:2 | age:6 | value:24 (two's complement) */
    _Atomic uint64_t meta;
} TTEntry;

typedef struct TTable {
    TTEntry *e;         /* nbuckets * TT_WAYS entries, 64-byte aligned */
    uint64_t nbuckets;
    unsigned age;       /* 0..63, bumped per search */
} TTable;

typedef struct TTHit {
    Move move;
    int value, depth, bound;
} TTHit;

/* Allocates mib MiB (0: no table; probes miss, stores do nothing).
 * Returns 0, or -1 when out of memory. */
int tt_init(TTable *t, size_t mib);
void tt_free(TTable *t);
void tt_clear(TTable *t);
void tt_new_search(TTable *t);
/* 1 and *h filled when the position is stored, else 0. */
int tt_probe(const TTable *t, uint64_t hash, TTHit *h);
void tt_store(TTable *t, uint64_t hash, Move m, int value, int depth,
              int bound);

#endif
