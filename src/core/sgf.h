/* sgf.h — the generic part of SGF (FF[4]) records, shared by the games
 * that speak it (go/sgf.c: GM[1]; gomoku/sgf.c: GM[4]): escaping values,
 * reading game trees into the properties of their main line. */
#ifndef PLY_SGF_H
#define PLY_SGF_H

#include <stddef.h>
#include <stdio.h>

#include "game.h"

typedef struct SgfProp {
    char id[16];
    const char *val;        /* raw, escapes still in */
    size_t len;
    int node;               /* index of the node on the main line */
    size_t at;              /* offset, for line numbers */
} SgfProp;

typedef struct SgfParser {
    const char *s;
    size_t len, pos;
    SgfProp *props;
    int nprops, cap;
    int nodes;
    PlyError *err;
} SgfParser;

/* Writes v with ']' and '\\' escaped. */
void sgf_put_value(FILE *out, const char *v);
/* The line of offset at in the text. */
int sgf_line_of(const SgfParser *ps, size_t at);
/* The next character after white space, or -1 at the end. */
int sgf_peek(SgfParser *ps);
/* "(" nodes, variations ")" at ps->pos: the main line's properties go to
 * ps->props when keep is set (the first variation continues it), the
 * others are only checked. 0, or -1 with ps->err set. */
int sgf_read_tree(SgfParser *ps, int keep, int depth);
/* A value without escapes and soft line breaks, cut to n-1 bytes. */
void sgf_unescape(const SgfProp *p, char *out, size_t n);
int sgf_prop_is(const SgfProp *p, const char *id);

/* Called for each game tree of a file with its main line in ps (number
 * counts from 1); 0 to go on, -1 to stop with ps->err set. */
typedef int (*SgfGameFn)(SgfParser *ps, int number, void *ctx);
/* Reads every game tree of text (len bytes) and hands each to each. */
int sgf_read_games(const char *text, size_t len, PlyError *err,
                   SgfGameFn each, void *ctx);

/* The game type GM[n] of the first game tree's root (1, Go, when it has
 * none): for a format's claims() hook. */
int sgf_game_type(const char *text, size_t len);

#endif
