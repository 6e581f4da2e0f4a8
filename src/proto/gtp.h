/* gtp.h — `ply gtp`: Ply as a GTP version 2 engine (Go Text Protocol)
 * for the games that declare a "gtp" format; and the referee's GTP client
 * (gtp_client.c, client.h). */
#ifndef PLY_GTP_H
#define PLY_GTP_H

#include <stdint.h>
#include <stdio.h>

#include "../core/game.h"

/* Serves GTP on in/out until "quit" or end of input. spec NULL means the
 * game's default bot. 0, or -1 with err set when g does not speak GTP or
 * the options or the spec are bad. */
int gtp_run(FILE *in, FILE *out, const GameVtbl *g, const char *options,
            const char *spec, uint64_t seed, PlyError *err);

/* The result of the terminal position st as GTP's final_score writes it
 * ("B+3.5", "W+12", "0"): the format's score_text, else the winner by
 * returns() and the difference of score(). Returns the length, or -1 when
 * st is not over or the game cannot say. Shared by `ply gtp` and the
 * referee's GTP client, which checks an engine's own count with it. */
int gtp_score_text(const GameVtbl *g, const GameFormat *f, const void *st,
                   char *buf, size_t n);

#endif
