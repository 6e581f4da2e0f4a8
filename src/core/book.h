/* book.h — opening books: positions, keyed by the game's hash, with the
 * move to play there. `ply book` computes one with long searches
 * (tools/book.c) and writes it as a C table that the game compiles in
 * (GameVtbl.book), so a single binary carries it (CodeCup). Bots play
 * its moves with the shared option book=1 (bot.c), before any search. */
#ifndef PLY_BOOK_H
#define PLY_BOOK_H

#include <stdint.h>

#include "game.h"

typedef struct BookEntry {
    uint64_t key;       /* g->hash() of the position */
    uint32_t move;      /* the move to play there */
} BookEntry;

typedef struct Book {
    const BookEntry *entries;   /* sorted by key, keys distinct */
    int n;
    const char *source;         /* how it was made (the command line) */
} Book;

/* 1 with the book's move at st in *m (a legal move), or 0 when st is not
 * in the book or its entry is not legal here (a hash collision). */
int book_lookup(const GameVtbl *g, const Book *b, const void *st, Move *m);

#endif
