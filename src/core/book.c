/* book.c — looking a position up in an opening book (book.h). */
#include "book.h"

#include "setup.h"

int book_lookup(const GameVtbl *g, const Book *b, const void *st, Move *m)
{
    if (!b || b->n <= 0)
        return 0;
    uint64_t key = g->hash(st);
    int lo = 0, hi = b->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        uint64_t k = b->entries[mid].key;
        if (k == key) {
            Move e = b->entries[mid].move;
            if (!state_is_legal(g, st, e))
                return 0;
            *m = e;
            return 1;
        }
        if (k < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}
