/* evalform.h — the two-sided linear evaluations of games with an
 * EvalTuning (game.h): each side has a count per weight, f[side][i], and
 * the evaluation is the weighted difference. What agon, jungle, shatra
 * and the others share: the value and the tuner's terms of one such form.
 */
#ifndef PLY_EVALFORM_H
#define PLY_EVALFORM_H

#include "game.h"

/* sum of w[i] * (mine[i] - theirs[i]) over the n weights */
static inline int evalform_value(const int *w, const int *mine,
                                 const int *theirs, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++)
        v += w[i] * (mine[i] - theirs[i]);
    return v;
}

/* The terms of the same form for EvalTuning.terms (player 0's view:
 * mine = player 0's counts): one per weight whose counts differ; their
 * number. */
static inline int evalform_terms(const int *mine, const int *theirs, int n,
                                 EvalTerm *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (mine[i] != theirs[i])
            out[k++] = (EvalTerm){.index = i,
                                  .coef = (float)(mine[i] - theirs[i])};
    return k;
}

#endif
