/* eval.c — reversi's pattern evaluation.
 *
 * The position, seen from the side to move, is cut into 46 overlapping
 * pattern occurrences (patterns.h: the edges with their X squares, the
 * corners' 3x3 and 2x5 blocks, the lines 2-4 and the diagonals of 4-8
 * squares, each in all its board symmetries); each occurrence's ternary
 * configuration indexes its type's table of weights, shared by the
 * type's occurrences, one table per game stage (empty squares by fives).
 * Four counts add a weight each: the placements of either side and their
 * potential mobility (the empty squares next to the other side's discs).
 * A bias per number of empty squares completes it. The sum predicts the final
 * disc difference in 1/RV_WSCALE discs. The weights (weights.c) are
 * fitted by scripts/reversi_train.c to Ply's own self-play games
 * (docs/reversi.md). */
#include "patterns.h"
#include "reversi.h"

#ifdef __BMI2__
#include <immintrin.h>
#endif

_Static_assert((int)RV_NOCC == (int)RV_OCCURRENCES, "patterns.h and reversi.h differ");
_Static_assert((int)RV_NCONFIG == (int)RV_CONFIGS, "patterns.h and reversi.h differ");

int rv_stage(int empties)
{
    int s = empties / 5;
    return s < RV_NSTAGES ? s : RV_NSTAGES - 1;
}

/* The configuration of occurrence o: its table index in its type's
 * digit order. */
static inline int occ_config(const RvOcc *o, uint64_t P, uint64_t O)
{
#ifdef __BMI2__
    const uint16_t *t = rv_ternary + o->ternary;
    return t[_pext_u64(P, o->mask)] + 2 * t[_pext_u64(O, o->mask)];
#else
    int v = 0;
    for (int k = o->len - 1; k >= 0; k--)
        v = 3 * v + (int)(P >> o->sq[k] & 1) + 2 * (int)(O >> o->sq[k] & 1);
    return v;
#endif
}

/* The count features' indices: the placements of each side and the
 * empty squares next to the other side's discs (potential mobility),
 * each count (at most 63) a weight of its own. */
static inline void count_features(uint64_t P, uint64_t O, int32_t *idx)
{
    uint64_t E = ~(P | O);
    idx[0] = RV_CONFIGS + rv_popcount(rv_mobility(P, O));
    idx[1] = RV_CONFIGS + 64 + rv_popcount(rv_mobility(O, P));
    idx[2] = RV_CONFIGS + 128 + rv_popcount(E & rv_adjacent(O));
    idx[3] = RV_CONFIGS + 192 + rv_popcount(E & rv_adjacent(P));
}

void rv_features(uint64_t P, uint64_t O, int32_t *idx)
{
    for (int i = 0; i < RV_NOCC; i++)
        idx[i] = rv_types[rv_occ[i].type].offset +
                 occ_config(&rv_occ[i], P, O);
    count_features(P, O, idx + RV_NOCC);
}

int rv_pattern_score(uint64_t P, uint64_t O)
{
    int e = 64 - rv_popcount(P | O);
    const int16_t *w = rv_weights[rv_stage(e)];
    int v = rv_bias[e];
    for (int i = 0; i < RV_NOCC; i++)
        v += w[rv_types[rv_occ[i].type].offset + occ_config(&rv_occ[i], P, O)];
    int32_t c[RV_FEATURES - RV_OCCURRENCES];
    count_features(P, O, c);
    for (int i = 0; i < RV_FEATURES - RV_OCCURRENCES; i++)
        v += w[c[i]];
    return v;
}

int rv_config_canonical(int32_t index)
{
    if (index >= RV_CONFIGS)
        return index < RV_WEIGHTS ? index : -1;
    for (int t = RV_NTYPES - 1; t >= 0; t--) {
        const RvPatternType *ty = &rv_types[t];
        if (index < ty->offset)
            continue;
        if (ty->mirror[0] < 0)
            return index;
        int c = index - ty->offset, digit[RV_MAXLEN], m = 0, p3 = 1;
        for (int k = 0; k < ty->len; k++, c /= 3)
            digit[k] = c % 3;
        /* the mirror image: digit mirror[k] of it is digit k here */
        int mdig[RV_MAXLEN];
        for (int k = 0; k < ty->len; k++)
            mdig[ty->mirror[k]] = digit[k];
        for (int k = 0; k < ty->len; k++, p3 *= 3)
            m += mdig[k] * p3;
        m += ty->offset;
        return m < index ? m : index;
    }
    return -1;
}

int rv_occurrence_squares(int occ, int *sq)
{
    if (occ < 0 || occ >= RV_NOCC)
        return 0;
    for (int k = 0; k < rv_occ[occ].len; k++)
        sq[k] = rv_occ[occ].sq[k];
    return rv_occ[occ].len;
}
