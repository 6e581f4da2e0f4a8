/* setup.h — building a position from the user's words: game options
 * ("houses=6,seeds=4"), a setup string and a list of moves in notation.
 * Every function fails with a message that names the bad input. */
#ifndef PLY_SETUP_H
#define PLY_SETUP_H

#include <stddef.h>

#include "game.h"

/* Parses "key=value,..." against g's option table into opt[] (defaults
 * for keys not given). NULL or "" means all defaults. */
int options_parse(const GameVtbl *g, const char *s, int *opt, PlyError *err);
/* For a front end serving untrusted clients: refuses parsed game options
 * whose OPTF_COSTLY rows are above their defaults (endgame databases
 * built at setup), with a message naming the row and its bound. */
int options_guard(const GameVtbl *g, const int *opt, PlyError *err);
/* The options in opt[] as "key=value,..." (only those not at default). */
int options_to_text(const GameVtbl *g, const int *opt, char *buf, size_t n);

/* A zeroed state of the game's size (free() it). */
void *state_alloc(const GameVtbl *g);
/* init() with parsed options, then from_text(setup) when setup is not
 * NULL or empty. */
int state_setup(const GameVtbl *g, void *st, const char *options,
                const char *setup, uint64_t seed, PlyError *err);
/* The seats playing at st (the game's seats hook, else
 * info.num_players) and, when names is not NULL, their names into
 * names[0..n-1]. */
int state_seats(const GameVtbl *g, const void *st, const char **names);
/* The name of seat p at st (the seats hook's, else info.player_names). */
const char *state_seat_name(const GameVtbl *g, const void *st, int p);
/* The seats playing under options (NULL or "": the defaults): a state set
 * up and asked; -1 with err when the options are bad. */
int options_seats(const GameVtbl *g, const char *options, const char **names,
                  PlyError *err);
/* Plays whitespace-separated moves in notation. On error, st holds the
 * position before the bad move and err names it and its number. */
int state_play_moves(const GameVtbl *g, void *st, const char *moves,
                     PlyError *err);
/* One board row of a FEN-style setup string: appends the characters of
 * cells[0..n) at out + *len, each run of empty cells (0) as its length in
 * decimal, and advances *len; out needs room for n more characters (no
 * terminator is written). */
void setup_row(char *out, size_t *len, const char *cells, int n);
/* An optional count in a setup string: " N" at *s, N a decimal number of
 * at most max. Absent (*s is not a space), *out is 0; present, *out is N
 * and *s moves past it. Fails with a message naming what ("plies since a
 * capture") when the digits are missing, and why (the rule or option
 * that sets max; may be NULL) when N is over max. */
int setup_count(const char **s, long max, const char *what, const char *why,
                long *out, PlyError *err);
/* Whether m is among the legal moves at st. */
int state_is_legal(const GameVtbl *g, const void *st, Move m);

#endif
