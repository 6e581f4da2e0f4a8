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

/* What every game's SGF reader takes the same way: the players' names,
 * PL, RE, and the main line's B/W properties. */
typedef struct SgfCommon {
    char pb[128], pw[128];  /* PB, PW ("" when absent) */
    int pl;                 /* PL: 0 Black, 1 White, -1 absent */
    int res;                /* RE: 0 "B+", 1 "W+", -1 a draw, -2 other */
    const char *reason;     /* "time" (B+T), "illegal" (B+F), or NULL */
    int first_mover;        /* the first B/W property's colour, or -1 */
    int nmoves;             /* how many B/W properties */
} SgfCommon;

/* Fills c from ps's main line; AB/AW/AE after the first node are refused
 * (setup during a game is not read). 0, or -1 with ps->err set. */
int sgf_common(const SgfParser *ps, SgfCommon *c);
/* Checks that the side to move tm (-1: the game is over) may play the
 * B/W property p. 0, or -1 with ps->err set. */
int sgf_check_turn(const SgfParser *ps, const SgfProp *p, int tm);
/* The record read: game g with options opts and setup (NULL: none), the
 * seats and result from c, the first n of moves; handed to sink. */
int sgf_emit_record(const struct GameVtbl *g, const SgfCommon *c,
                    const char *opts, const char *setup,
                    const char **moves, int n, int number, RecordSink sink,
                    void *ctx, PlyError *err);

/* Called for each game tree of a file with its main line in ps (number
 * counts from 1); 0 to go on, -1 to stop with ps->err set. */
typedef int (*SgfGameFn)(SgfParser *ps, int number, void *ctx);
/* Reads every game tree of text (len bytes) and hands each to each. */
int sgf_read_games(const char *text, size_t len, PlyError *err,
                   SgfGameFn each, void *ctx);

/* The game-specific part of writing a record (sgf_write_record). The
 * states are the game's; start is the position the options give, st the
 * record's first position (its setup), later the position after the
 * moves. */
typedef struct SgfWriter {
    int gm;                 /* GM[n] */
    /* Root properties after AP[Ply]: SZ[...] and the rules (KM, RU,
     * PLYGAME) of start. */
    void (*root)(const struct GameVtbl *g, const void *start, FILE *out);
    /* Setup properties: AB/AW/PL when st differs from start (HA and the
     * handicap stones when it does not). */
    void (*setup)(const void *st, const void *start, FILE *out);
    /* The value of B[]/W[] for move m at st ("" for a pass). */
    void (*point)(const void *st, Move m, FILE *out);
    /* RE's text for a game that ended by the rules at terminal st, won by
     * winner (0, 1); NULL or -1: "B+" or "W+". */
    int (*score)(const void *st, int winner, char *buf, size_t n);
} SgfWriter;

/* Writes record r of game g as one SGF game tree: FF, GM, CA, AP, w's
 * root properties, PLYOPTIONS, PB, PW, w's setup, RE (B+T time, B+F
 * illegal or crash, 0 a draw), then the moves, replayed and checked (an
 * illegal last move and the record's error become comments). 0, or -1
 * with err set. */
int sgf_write_record(const struct GameVtbl *g, const Record *r,
                     const SgfWriter *w, FILE *out, PlyError *err);

/* The game type GM[n] of the first game tree's root (1, Go, when it has
 * none): for a format's claims() hook. */
int sgf_game_type(const char *text, size_t len);

#endif
