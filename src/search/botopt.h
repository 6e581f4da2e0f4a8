/* botopt.h — reading a bot's own options ("hash=64,mode=brs"), the part of
 * a bot spec that bot_new() leaves after taking out the limits. */
#ifndef PLY_BOTOPT_H
#define PLY_BOTOPT_H

#include <stddef.h>

#include "../core/game.h"

/* Takes the next "key=value" from *p (advancing it). Returns 1 with key
 * and val filled, 0 at the end, -1 with a message naming the bad text. */
int botopt_next(const char **p, char *key, size_t kn,
                char *val, size_t vn, PlyError *err);
/* A whole number in [lo, hi], or -1 with a message naming the key.
 * (bot_new() puts the bot's name in front of these messages.) */
int botopt_int(const char *key, const char *val, long lo,
               long hi, long *out, PlyError *err);

#endif
