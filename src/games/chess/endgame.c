/* endgame.c — shatranj endgame knowledge for the evaluation (eval.c adds
 * cb_endgame() to its score).
 *
 * In shatranj a side left with its king alone loses (bare king), and
 * stalemate loses too, so an ending where one side has a clear material
 * edge and the other only a few men is won by hunting those men down or
 * by cornering the king. The plain eval sees material and mobility but
 * not the plan, and with the slow pieces (ferz, alfil) the decisive
 * capture lies beyond the horizon: the search shuffles and the game ends
 * in a repetition or the 70-move rule. These terms give it a gradient:
 * - the weaker king pushed to the rim and into a corner,
 * - the stronger king near it,
 * - the weaker side's men far from their king (no longer guarded),
 * - fewer men left to the weaker side (each capture a step to baring),
 * scaled by the material edge. Nothing applies with equal material or a
 * middlegame's worth of men, and other variants get 0. (Passed pawns are
 * eval.c's tuned per-rank weights: in shatranj they stay below the ferz a
 * baidaq becomes, so promoting pays; test_endgame checks it.) */
#include <stdlib.h>

#include "board.h"

/* Shatranj men in centipawns by type (as eval.c), for who is ahead. */
static const int VAL[CB_NTYPES] = {0, 100, 300, 0, 500, 0, 0, 160, 0, 120};

enum {
    EG_MAX_MEN = 3,     /* the weaker side has at most this many men */
    EG_MIN_EDGE = 80,   /* and the stronger is at least this much ahead */
    EG_FULL_EDGE = 250, /* the terms reach full weight at this edge */
};

static int dist(int a, int b)
{
    int df = abs((a & 7) - (b & 7)), dr = abs((a >> 3) - (b >> 3));
    return df > dr ? df : dr;
}

/* 0 on the four centre squares .. 3 on the rim */
static int rim(int s)
{
    int f = s & 7, r = s >> 3;
    int df = f < 4 ? 3 - f : f - 4, dr = r < 4 ? 3 - r : r - 4;
    return df > dr ? df : dr;
}

/* 0 in a corner .. 6 far from every corner (by files plus ranks) */
static int corner_dist(int s)
{
    int f = s & 7, r = s >> 3;
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df + dr;
}

int cb_endgame(const CBoard *b)
{
    if (b->variant != CB_SHATRANJ)
        return 0;
    int mat[2] = {0, 0}, men[2];
    for (int c = 0; c < 2; c++) {
        for (int t = CB_PAWN; t < CB_NTYPES; t++)
            mat[c] += VAL[t] * cb_popcount(b->pcs[t] & b->col[c]);
        men[c] = cb_popcount(b->col[c] & ~b->pcs[CB_KING]);
    }
    int strong = mat[0] >= mat[1] ? 0 : 1, weak = !strong;
    int edge = mat[strong] - mat[weak];
    if (edge < EG_MIN_EDGE || men[weak] > EG_MAX_MEN || men[strong] == 0)
        return 0;
    int sk = cb_lsb(b->pcs[CB_KING] & b->col[strong]);
    int wk = cb_lsb(b->pcs[CB_KING] & b->col[weak]);
    int sc = 0;
    sc += 12 * rim(wk) + 6 * (6 - corner_dist(wk));
    sc += 6 * (7 - dist(sk, wk));
    for (uint64_t p = b->col[weak] & ~b->pcs[CB_KING]; p; p &= p - 1)
        sc += 4 * dist(cb_lsb(p), wk);
    sc += 40 * (EG_MAX_MEN - men[weak]);
    if (edge < EG_FULL_EDGE)
        sc = sc * edge / EG_FULL_EDGE;
    return strong == 0 ? sc : -sc;
}
