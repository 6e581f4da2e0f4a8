/* test_endgame.c — the shatranj endgame terms (games/chess/endgame.c).
 *
 * In a won ending (rukh and ferz against a ferz) the stronger side must
 * score better with the lone king in a corner than in the centre, with
 * its own king near rather than far, with the weaker side's ferz away
 * from its king, and with the weaker side left with fewer men; colours
 * swapped give the value negated; equal material, crowded boards and
 * other variants give 0; and the whole eval keeps the preference and
 * makes promoting a passed baidaq pay. */
#include "testlib.h"

#include "games/chess/board.h"

static int eg(const char *game, const char *fen)
{
    CBoard *b = tl_position(game, NULL, fen, NULL);
    int v = cb_endgame(b);
    free(b);
    return v;
}

/* The game's eval for White. */
static int ev(const char *fen)
{
    const GameVtbl *g = game_find("shatranj");
    void *st = tl_position("shatranj", NULL, fen, NULL);
    int v = g->eval(st, 0);
    free(st);
    return v;
}

static void expect_better(const char *better, const char *worse)
{
    int a = eg("shatranj", better), b = eg("shatranj", worse);
    if (a <= b)
        fail_msg("endgame %d for %s, not above %d for %s", a, better, b,
                 worse);
}

static void test_white_strong(void **state)
{
    (void)state;
    /* the lone king: corner (a8) better than centre (d5) */
    expect_better("k7/8/2q5/8/8/8/4Q2R/4K3 w - - 0 1",
                  "8/8/2q5/3k4/8/8/4Q2R/4K3 w - - 0 1");
    /* edge (d8) better than centre too */
    expect_better("3k4/8/2q5/8/8/8/4Q2R/4K3 w - - 0 1",
                  "8/8/2q5/3k4/8/8/4Q2R/4K3 w - - 0 1");
    /* the stronger king near (c6) better than far (h1) */
    expect_better("k7/8/2K5/8/8/8/3RQ2q/8 w - - 0 1",
                  "k7/8/8/8/8/8/3RQ2q/7K w - - 0 1");
    /* the weak ferz far from its king better than beside it */
    expect_better("k7/8/8/8/8/8/3RQ2q/4K3 w - - 0 1",
                  "k7/1q6/8/8/8/8/4Q2R/4K3 w - - 0 1");
    /* fewer men for the weaker side: rukh against ferz beats two
     * rukhs against ferz and pawn (same edge of material, roughly) */
    expect_better("k7/8/2q5/8/8/8/3R4/4K3 w - - 0 1",
                  "k7/p7/2q5/8/8/8/3R1R2/4K3 w - - 0 1");
    /* promoting a passed baidaq pays in the whole eval, for either side,
     * and so does pushing it */
    assert_true(ev("Q3k3/8/8/8/8/2q5/8/R3K3 w - - 0 1") >
                ev("4k3/P7/8/8/8/2q5/8/R3K3 w - - 0 1"));
    assert_true(ev("4k3/P7/8/8/8/2q5/8/R3K3 w - - 0 1") >
                ev("4k3/8/P7/8/8/2q5/8/R3K3 w - - 0 1"));
    assert_true(ev("4k3/8/8/8/8/2q5/8/q3K2R w - - 0 1") <
                ev("4k3/8/8/8/8/2q5/p7/4K2R w - - 0 1"));
    /* and the whole eval agrees on the corner */
    assert_true(ev("k7/8/2q5/8/8/8/4Q2R/4K3 w - - 0 1") >
                ev("8/8/2q5/3k4/8/8/4Q2R/4K3 w - - 0 1"));
}

static void test_symmetry_and_scope(void **state)
{
    (void)state;
    /* colours swapped (ranks mirrored): the value negated */
    static const char *const pairs[][2] = {
        {"k7/8/2q5/8/8/8/4Q2R/4K3 w - - 0 1",
         "4k3/4q2r/8/8/8/2Q5/8/K7 b - - 0 1"},
        {"8/8/2q5/3k4/8/8/4Q2R/4K3 w - - 0 1",
         "4k3/4q2r/8/8/3K4/2Q5/8/8 b - - 0 1"},
        {"k7/8/2K5/8/8/8/3RQ2q/8 w - - 0 1",
         "8/3rq2Q/8/8/8/2k5/8/K7 b - - 0 1"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int a = eg("shatranj", pairs[i][0]), b = eg("shatranj", pairs[i][1]);
        assert_true(a > 0);
        assert_int_equal(a, -b);
    }
    /* equal material: nothing */
    assert_int_equal(eg("shatranj", "k7/8/2q5/8/8/8/4Q3/4K3 w - - 0 1"), 0);
    assert_int_equal(eg("shatranj", "k7/8/2r5/8/8/8/3R4/4K3 w - - 0 1"), 0);
    /* the start position and a busy middlegame: nothing */
    assert_int_equal(eg("shatranj", NULL), 0);
    assert_int_equal(
        eg("shatranj", "rn1kqbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"),
        0);
    /* other variants: nothing */
    assert_int_equal(eg("chess", "k7/8/2q5/8/8/8/4Q2R/4K3 w - - 0 1"), 0);
    assert_int_equal(eg("makruk", "k7/8/8/8/8/8/3R4/4K3 w - - 0 1"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_white_strong),
        cmocka_unit_test(test_symmetry_and_scope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
