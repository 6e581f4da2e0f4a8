/* format.h — looking up the formats games declare (GameFormat in
 * game.h): record formats for `ply record`, wire dialects for the
 * engine modes and the referee. */
#ifndef PLY_FORMAT_H
#define PLY_FORMAT_H

#include <stddef.h>

#include "game.h"

/* g's format of that name, or NULL when g does not speak it. */
const GameFormat *game_format(const GameVtbl *g, const char *name);
/* The registered games that speak format `name`, in registry order:
 * writes at most max of them to out (out may be NULL) and returns how
 * many there are. */
int games_with_format(const char *name, const GameVtbl **out, int max);
/* The registered game a dialect calls `variant` ("xiangqi" on UCI); the
 * format is returned in *f when f is not NULL. NULL when none. */
const GameVtbl *game_by_variant(const char *format, const char *variant,
                                const GameFormat **f);
/* The dialect's own game (FORMAT_NATIVE), or NULL. */
const GameVtbl *format_native_game(const char *format,
                                   const GameFormat **f);
/* The name the dialect gives g: NULL when g is its native game (no
 * variant need be named), else the format's variant or Ply's name. A g
 * that does not declare the format gets its own name. */
const char *format_variant(const GameVtbl *g, const char *format);
/* The name the dialect gives g, also when it is the dialect's own game
 * (UCI_Variant "chess"): the format's variant, else Ply's name. */
const char *format_variant_name(const GameVtbl *g, const char *format);
/* A space-separated list of moves from the dialect's notation to Ply's,
 * as a new string (free() it); NULL when out of memory. Moves the
 * format does not convert are copied as they are. */
char *format_moves_from_wire(const GameFormat *f, const char *moves);
/* A move or setup string between Ply's notation and the dialect's (f may
 * be NULL: unchanged). Returns the length, or -1 (buf then holds the text
 * unchanged, so that the receiver rejects it with its own message). */
int format_move_to_wire(const GameFormat *f, const char *own, char *buf,
                        size_t n);
int format_move_from_wire(const GameFormat *f, const char *wire, char *buf,
                          size_t n);
int format_setup_to_wire(const GameFormat *f, const char *own, char *buf,
                         size_t n);
int format_setup_from_wire(const GameFormat *f, const char *wire, char *buf,
                           size_t n);
/* The names of every format some registered game speaks, each once, in
 * first-seen order; returns the count (at most max). */
int format_names(const char **out, int max);

#endif
