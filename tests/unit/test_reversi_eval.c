/* test_reversi_eval.c — reversi's pattern evaluation (eval.c): the
 * configuration indices against a digit-by-digit reading of each
 * occurrence's squares, the counts against square-by-square ones, the
 * mirror map, and the evaluation's symmetry:
 * weights tied by rv_config_canonical() give the same sum on the 8
 * symmetric images of a board, the compiled weights too; untied weights
 * do not (the negative control: the check can fail). */
#include "core/rng.h"
#include "games/reversi/reversi.h"
#include "testlib.h"

/* Random positions of random games (not over). */
static int random_boards(Rng *r, int n, uint64_t *P, uint64_t *O)
{
    const GameVtbl *g = game_find("reversi");
    PlyError err;
    int k = 0;
    while (k < n) {
        Reversi st;
        if (state_setup(g, &st, NULL, NULL, 1, &err))
            fail_msg("%s", err.msg);
        int stop = 1 + (int)rng_below(r, 58);
        for (int ply = 0; ply < stop && !st.over; ply++) {
            Move mv[REVERSI_MAX_MOVES];
            int nm = g->gen_moves(&st, mv);
            g->make(&st, mv[rng_below(r, (uint32_t)nm)]);
        }
        if (st.over)
            continue;
        P[k] = st.disc[st.side];
        O[k] = st.disc[!st.side];
        k++;
    }
    return k;
}

/* The board under symmetry s (0..7) of the square. */
static uint64_t transform(uint64_t b, int s)
{
    uint64_t t = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b >> sq & 1) {
            int x = sq % 8, y = sq / 8;
            int tx[8] = {x, 7 - x, x, 7 - x, y, 7 - y, y, 7 - y};
            int ty[8] = {y, y, 7 - y, 7 - y, x, x, 7 - x, 7 - x};
            t |= 1ull << (8 * ty[s] + tx[s]);
        }
    return t;
}

enum { NB = 300 };

static void test_indices(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 11);
    uint64_t P[NB], O[NB];
    random_boards(&r, NB, P, O);
    /* each occurrence's configuration read digit by digit: the offsets
     * of the types are found as the smallest index a type's empty
     * configuration gets */
    for (int i = 0; i < NB; i++) {
        int32_t idx[RV_FEATURES], base[RV_FEATURES];
        rv_features(P[i], O[i], idx);
        rv_features(0, 0, base);
        for (int o = 0; o < RV_OCCURRENCES; o++) {
            int sq[16], len = rv_occurrence_squares(o, sq), v = 0;
            assert_true(len >= 4 && len <= 10);
            for (int k = len - 1; k >= 0; k--)
                v = 3 * v + (int)(P[i] >> sq[k] & 1) +
                    2 * (int)(O[i] >> sq[k] & 1);
            assert_int_equal(idx[o], base[o] + v);
            assert_true(idx[o] >= 0 && idx[o] < RV_CONFIGS);
        }
        /* the counts, square by square */
        int cnt[4] = {0, 0, 0, 0};
        for (int sq = 0; sq < 64; sq++) {
            if ((P[i] | O[i]) >> sq & 1)
                continue;
            int x = sq % 8, y = sq / 8, nextP = 0, nextO = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int u = x + dx, v = y + dy;
                    if ((dx || dy) && u >= 0 && u < 8 && v >= 0 && v < 8) {
                        nextP |= (int)(P[i] >> (8 * v + u) & 1);
                        nextO |= (int)(O[i] >> (8 * v + u) & 1);
                    }
                }
            cnt[0] += rv_flips(P[i], O[i], sq) != 0;
            cnt[1] += rv_flips(O[i], P[i], sq) != 0;
            cnt[2] += nextO;
            cnt[3] += nextP;
        }
        for (int k = 0; k < 4; k++)
            assert_int_equal(idx[RV_OCCURRENCES + k],
                             RV_CONFIGS + 64 * k + cnt[k]);
    }
    /* every square is in some occurrence */
    uint64_t covered = 0;
    for (int o = 0; o < RV_OCCURRENCES; o++) {
        int sq[16], len = rv_occurrence_squares(o, sq);
        for (int k = 0; k < len; k++)
            covered |= 1ull << sq[k];
    }
    assert_true(covered == ~0ull);
}

static void test_canonical(void **state)
{
    (void)state;
    int mirrored = 0;
    for (int c = 0; c < RV_CONFIGS; c++) {
        int m = rv_config_canonical(c);
        assert_true(m >= 0 && m <= c);
        assert_int_equal(rv_config_canonical(m), m);
        mirrored += m != c;
    }
    /* most types have a mirror image: many configurations are tied */
    assert_true(mirrored > 40000);
    assert_int_equal(rv_config_canonical(-1), -1);
    for (int c = RV_CONFIGS; c < RV_WEIGHTS; c++)
        assert_int_equal(rv_config_canonical(c), c);
    assert_int_equal(rv_config_canonical(RV_WEIGHTS), -1);
}

/* The sum of table w over P's configurations, tied or not. */
static double score(const double *w, uint64_t P, uint64_t O, int tied)
{
    int32_t idx[RV_FEATURES];
    rv_features(P, O, idx);
    double v = 0;
    for (int o = 0; o < RV_FEATURES; o++)
        v += w[tied ? rv_config_canonical(idx[o]) : idx[o]];
    return v;
}

static void test_symmetry(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 12);
    uint64_t P[NB], O[NB];
    random_boards(&r, NB, P, O);
    double *w = malloc(RV_WEIGHTS * sizeof *w);
    for (int c = 0; c < RV_WEIGHTS; c++)
        w[c] = (double)rng_below(&r, 1000);
    int untied_differs = 0, nonzero = 0;
    for (int i = 0; i < NB; i++) {
        double t0 = score(w, P[i], O[i], 1), u0 = score(w, P[i], O[i], 0);
        int e0 = rv_pattern_score(P[i], O[i]);
        nonzero += e0 != 0;
        for (int s = 1; s < 8; s++) {
            uint64_t p = transform(P[i], s), o = transform(O[i], s);
            assert_true(score(w, p, o, 1) == t0);
            untied_differs += score(w, p, o, 0) != u0;
            assert_int_equal(rv_pattern_score(p, o), e0);
        }
    }
    assert_true(untied_differs > NB);
    /* the compiled weights are fitted ones, not a placeholder */
    assert_true(nonzero > NB / 2);
    free(w);
}

static void test_eval_hook(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("reversi");
    Reversi *st = tl_position("reversi", NULL, NULL, "f5 d6 c3");
    int v0 = g->eval(st, 0), v1 = g->eval(st, 1);
    assert_int_equal(v0, -v1);
    assert_int_equal(v1, rv_pattern_score(st->disc[1], st->disc[0]) * 100 /
                         RV_WSCALE);
    free(st);
    /* a finished game: the disc difference */
    st = tl_position("reversi", NULL,
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOO -",
        NULL);
    assert_int_equal(g->eval(st, 0), 100 * 48);
    assert_int_equal(g->eval(st, 1), -100 * 48);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_indices),
        cmocka_unit_test(test_canonical),
        cmocka_unit_test(test_symmetry),
        cmocka_unit_test(test_eval_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
