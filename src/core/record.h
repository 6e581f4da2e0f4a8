/* record.h — a game record as plain C: what `ply match --out` keeps of a
 * game (its JSON line is read into this by src/cli/records.c), and what
 * a format's reader gives back. Game folders write and read records
 * through it and never see JSON. Strings are borrowed: the filler owns
 * them for as long as the record is used. */
#ifndef PLY_RECORD_H
#define PLY_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "game.h"

struct Record {
    const char *game;       /* registry name */
    const char *options;    /* "key=value,..."; NULL or "": defaults */
    const char *setup;      /* setup string; NULL or "": the start */
    int nseats;             /* names of the players, in seat order */
    const char *seats[PLY_MAX_PLAYERS];
    int nmoves;             /* the moves in Ply's notation */
    const char *const *moves;
    int has_result;         /* result[] holds one value per seat */
    double result[PLY_MAX_PLAYERS];
    /* How it ended: "normal" (the rules), "time", "illegal" (the last
     * move is the illegal one that lost), "crash", "adjudicated"; NULL
     * when unknown. */
    const char *reason;
    const char *error;      /* an engine's message, or NULL */
    long index;             /* game number in the match from 0; -1: none */
    int number;             /* its place in the file being converted, from 1 */
    int opening_plies;      /* moves played from an opening book */
    int has_seed;
    uint64_t seed;
};

/* An empty record: no seats, no moves, index -1, number 1. */
void record_init(Record *r);
/* The winner by result: its seat, -1 for a draw (or no single best),
 * -2 when the record has no result. */
int record_winner(const Record *r);
/* Sets the result of a record of r->nseats seats from its winner: 1 to the
 * winner's seat and -1 to the others, 0 to all for a draw (winner -1);
 * winner -2 leaves the record without a result. */
void record_set_winner(Record *r, int winner, const char *reason);
/* Move i of r at st (the position before it), for a writer replaying the
 * record: 0 with *m set when it is legal; 1 when it is the illegal move
 * that lost the game (the record's last, reason "illegal": the writer
 * notes it and stops); -1 with err "move N 'text': why" otherwise. */
int record_move(const struct GameVtbl *g, const void *st, const Record *r,
                int i, Move *m, PlyError *err);

/* Tag-pair text, as PGN and PDN write it: `[Tag "value"]` with quotes and
 * backslashes escaped (PGN 8.1.1). */
void record_put_tag(FILE *out, const char *tag, const char *val);
/* Movetext words on lines under 80 characters (PGN export format). */
typedef struct RecordWrap {
    FILE *out;
    int col;
} RecordWrap;
void record_put_word(RecordWrap *w, const char *s);

#endif
