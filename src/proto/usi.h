/* usi.h — `ply usi`: the USI engine protocol (shogi GUIs) for shogi and
 * minishogi. */
#ifndef PLY_USI_H
#define PLY_USI_H

#include <stdio.h>

/* Runs the protocol on in/out until `quit` or end of input. game is
 * "shogi" or "minishogi"; spec NULL means the game's default bot. Returns
 * 0, or 2 (with a message on stderr) for a bad game or bot spec. */
int usi_run(FILE *in, FILE *out, const char *game, const char *spec);

#endif
