/* evalfile.h — evaluation weights as C source: the weights_GAME.h headers
 * `ply tune` writes (one X("name", value) line per parameter of a game's
 * EvalTuning), read back for alphabeta's weights=FILE and `ply tune
 * --init`, and the linear evaluation under such weights. */
#ifndef PLY_EVALFILE_H
#define PLY_EVALFILE_H

#include <stdio.h>

#include "../core/game.h"

/* Reads the weights in path into w[0..t->nparams-1], matched by name:
 * every parameter exactly once, nothing else. -1 with a message naming
 * the file and line on error. */
int evalfile_read(const EvalTuning *t, const char *path, int *w,
                  PlyError *err);
/* Writes w as a header defining macro NAME_WEIGHTS(X) (NAME: the game's
 * name in capitals), with comment lines (may be NULL) at the top. */
void evalfile_write(FILE *f, const char *game, const EvalTuning *t,
                    const int *w, const char *comment);
/* base + sum(coef * w) at st, rounded: eval() from player 0's view with
 * weights w. terms holds EVAL_MAX_TERMS entries of scratch space. */
int evalfile_eval(const EvalTuning *t, const int *w, const void *st,
                  EvalTerm *terms);
/* The same from player's view, through the terms_of hook (which a game
 * of more than two players needs). */
int evalfile_eval_of(const EvalTuning *t, const int *w, const void *st,
                     int player, EvalTerm *terms);

#endif
