/* zrf_api.h — what the rest of Ply sees of the ZRF loader: games loaded
 * at run time from Zillions rules files. */
#ifndef PLY_ZRF_API_H
#define PLY_ZRF_API_H

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

#endif
