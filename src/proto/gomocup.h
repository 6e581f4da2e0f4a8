/* gomocup.h — `ply gomocup`: Ply as a Gomocup brain (the Piskvork
 * protocol of Petr Lastovicka) for the games that declare a "gomocup"
 * format. */
#ifndef PLY_GOMOCUP_H
#define PLY_GOMOCUP_H

#include <stdint.h>
#include <stdio.h>

#include "../core/game.h"

/* Serves the protocol on in/out until END or end of input. spec NULL
 * means the game's default bot. 0, or -1 with err set when g does not
 * speak it or the options or the spec are bad. */
int gomocup_run(FILE *in, FILE *out, const GameVtbl *g, const char *options,
                const char *spec, uint64_t seed, PlyError *err);

#endif
