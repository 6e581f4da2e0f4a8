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

/* The Gomocup rule numbers (INFO rule) a game plays, from its gomocup
 * format's variant "0,1,4": one per choice of its "rule" option, in
 * order, or the one rule of a game without that option. Returns the
 * count (at most max). */
int gomocup_rules(const GameVtbl *g, int *nums, int max);
/* The rule number of the (bitmask) INFO rule value v among those. */
int gomocup_rule_of(long long v);

#endif
