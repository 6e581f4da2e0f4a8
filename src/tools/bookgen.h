/* bookgen.h — computing an opening book (core/book.h) with a bot's long
 * searches: for each side, every position of fewer than `plies` plies
 * that play can reach when that side follows the book and the others
 * play anything, one position of each symmetry class searched (the
 * game's sym_move), the result stored for every image of it. */
#ifndef PLY_BOOKGEN_H
#define PLY_BOOKGEN_H

#include <stdint.h>

#include "../core/book.h"
#include "../core/game.h"

enum { BOOKGEN_PLIES_MAX = 12, BOOKGEN_JOBS_MAX = 64 };

typedef struct BookGenStats {
    int searched;       /* positions searched (one per class) */
    int entries;        /* table entries: every image of each */
    int per_ply[BOOKGEN_PLIES_MAX];     /* searched, by ply */
} BookGenStats;

/* One line of progress for each position searched (may be NULL). */
typedef void (*BookGenProgress)(void *user, int ply, int side,
                                const char *setup, const char *move,
                                int value, int done, int todo);

/* Searches the book of g under options with bots from spec (which must
 * not name book=), seed xor'ed with each position's class key (so the
 * result does not depend on jobs when spec limits nodes or depth), jobs
 * searches at a time, at most max_positions. On success *out (malloc'ed,
 * sorted by key, keys distinct) holds *n entries. -1 with err: bad
 * arguments, a chance node or hidden information on the way, a search
 * that failed, too many positions. */
int bookgen_run(const GameVtbl *g, const char *options, const char *spec,
                uint64_t seed, int plies, int jobs, int max_positions,
                BookGenProgress progress, void *user, BookEntry **out,
                int *n, BookGenStats *stats, PlyError *err);

#endif
