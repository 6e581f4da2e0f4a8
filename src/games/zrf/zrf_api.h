/* zrf_api.h — what the rest of Ply sees of the ZRF loader: games loaded
 * at run time from Zillions rules files. */
#ifndef PLY_ZRF_API_H
#define PLY_ZRF_API_H

#include <stdint.h>
#include <stdio.h>

#include "../../core/game.h"

/* A name that is a rules file path (ends in ".zrf"). */
int zrf_is_path(const char *name);
/* The game in the file at path, loaded once and kept for the life of the
 * process; NULL with err naming file, line and form. */
const GameVtbl *zrf_open(const char *path, PlyError *err);
/* `ply rules check`: reads and compiles one variant, prints what it does
 * not support (word and line) or a summary to out; 0 when it loads. */
int zrf_check(const char *path, int variant, FILE *out, PlyError *err);

/* `ply list FILE.zrf`: reads and compiles the game form (no native code,
 * nothing kept loaded) and writes "Title (N players...)" to line; 0 when
 * it loads, -1 with err. */
int zrf_describe(const char *path, char *line, size_t n, PlyError *err);

/* Perft over whole turns (a turn's partial moves composed into one move,
 * as Dagaz counts): 0 with *out, -1 when g is not a loaded rules file. */
int zrf_turn_perft(const GameVtbl *g, const void *st, int depth,
                   uint64_t *out);

#endif
