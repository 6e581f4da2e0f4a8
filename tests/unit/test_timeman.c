/* test_timeman.c — the one clock-to-budget rule (src/core/timeman.c):
 * properties over a grid of clocks, for a game with the random-game
 * estimator (kalah), a long game (chess) and no position at all. */
#include "testlib.h"

#include "core/timeman.h"

static const int64_t LEFT[] = {0, 1, 5, 10, 30, 50, 100, 250, 500, 1000,
                               2000, 5000, 30000, 60000, 600000};
static const int64_t INC[] = {0, 10, 50, 100, 1000, 5000};
static const int64_t BYO[] = {0, 100, 1000, 10000};
static const int MTG[] = {0, 1, 2, 5, 40};
static const int64_t MARGIN[] = {0, 100};
#define N(a) (int)(sizeof a / sizeof a[0])

typedef struct Case {
    const GameVtbl *g;
    void *st;
} Case;

static void grid(const Case *k)
{
    for (int a = 0; a < N(INC); a++)
        for (int b = 0; b < N(BYO); b++)
            for (int m = 0; m < N(MTG); m++)
                for (int r = 0; r < N(MARGIN); r++) {
                    int64_t prev = 0;
                    for (int l = 0; l < N(LEFT); l++) {
                        Clock c = {LEFT[l], INC[a], BYO[b], MTG[m],
                                   MARGIN[r]};
                        int64_t t = time_budget(k->g, k->st, &c, 9);
                        int64_t margin = time_margin(k->g, &c);
                        int64_t cap = LEFT[l] + BYO[b] - margin;
                        /* with a byoyomi the margin takes at most a
                         * quarter */
                        if (BYO[b] > 0 &&
                            margin > (LEFT[l] + BYO[b]) / TIME_MARGIN_CAP)
                            fail_msg("margin %lld of %lld + byoyomi %lld",
                                     (long long)margin, (long long)LEFT[l],
                                     (long long)BYO[b]);
                        if (t < 1)
                            fail_msg("budget %lld < 1", (long long)t);
                        if (cap >= 1 && t > cap)
                            fail_msg("budget %lld over left %lld + byoyomi "
                                     "%lld - margin %lld", (long long)t,
                                     (long long)LEFT[l], (long long)BYO[b],
                                     (long long)margin);
                        if (t < prev)
                            fail_msg("not monotone in time left: %lld ms "
                                     "left gives %lld, less gave %lld",
                                     (long long)LEFT[l], (long long)t,
                                     (long long)prev);
                        prev = t;
                        /* the same clock gives the same budget */
                        assert_int_equal(t, time_budget(k->g, k->st, &c, 9));
                        /* a byoyomi is always there to spend */
                        if (BYO[b] > margin)
                            assert_true(t >= BYO[b] - margin);
                        /* an increment never lowers the budget */
                        if (a > 0) {
                            Clock c0 = c;
                            c0.inc_ms = INC[a - 1];
                            assert_true(t >= time_budget(k->g, k->st, &c0,
                                                         9));
                        }
                        /* more moves to go never raise it */
                        if (m > 1) {
                            Clock c1 = c;
                            c1.moves_to_go = MTG[m - 1];
                            assert_true(t <= time_budget(k->g, k->st, &c1,
                                                         9));
                        }
                    }
                }
}

static void test_grid_kalah(void **state)
{
    (void)state;
    Case k = {game_find("kalah"), tl_position("kalah", NULL, NULL, NULL)};
    grid(&k);
    free(k.st);
}

static void test_grid_chess(void **state)
{
    (void)state;
    Case k = {game_find("chess"), tl_position("chess", NULL, NULL, NULL)};
    grid(&k);
    free(k.st);
}

static void test_grid_no_position(void **state)
{
    (void)state;
    Case k = {game_find("chess"), NULL};
    grid(&k);
    Case none = {NULL, NULL};
    grid(&none);
}

static void test_moves_left(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    void *st = tl_position("kalah", NULL, NULL, NULL);
    Clock c = {.left_ms = 10000};
    int m = time_moves_left(g, st, &c, 1);
    assert_true(m >= TIME_MOVES_MIN && m <= TIME_MOVES_MAX);
    c.moves_to_go = 7;
    assert_int_equal(time_moves_left(g, st, &c, 1), 7);
    free(st);
    /* near the end of a game fewer moves are left than at the start */
    void *end = tl_position("kalah", NULL, "S:0,0,0,0,0,1,30:0,0,0,0,0,1,16",
                            NULL);
    Clock c2 = {.left_ms = 10000};
    assert_int_equal(time_moves_left(g, end, &c2, 1), TIME_MOVES_MIN);
    free(end);
    /* chess: random games are long, the bound decides */
    const GameVtbl *ch = game_find("chess");
    void *cs = tl_position("chess", NULL, NULL, NULL);
    assert_int_equal(time_moves_left(ch, cs, &c2, 1), TIME_MOVES_MAX);
    free(cs);
}

static void test_values(void **state)
{
    (void)state;
    const GameVtbl *ch = game_find("chess");
    void *st = tl_position("chess", NULL, NULL, NULL);
    /* 60 s + 1 s: (60000 - 10 - 937) / 20 + 750 */
    Clock c = {.left_ms = 60000, .inc_ms = 1000};
    assert_int_equal(time_margin(ch, &c), 10 + 60000 / 64);
    assert_int_equal(time_budget(ch, st, &c, 1),
                     (60000 - 10 - 937) / 20 + 750);
    /* the front end's margin */
    c.margin_ms = 100;
    assert_int_equal(time_margin(ch, &c), 100 + 60000 / 64);
    /* the game's margin */
    GameVtbl slow = *ch;
    slow.info.time_margin_ms = 400;
    Clock d = {.left_ms = 1000};
    assert_int_equal(time_margin(&slow, &d), 400 + 1000 / 64);
    assert_true(time_budget(&slow, st, &d, 1) <= 1000 - 400 - 15);
    /* movestogo 2: at most half of what is usable; movestogo 1 (the
     * last stone of a GTP byoyomi period): all of it */
    Clock e = {.left_ms = 10000, .moves_to_go = 2};
    assert_int_equal(time_budget(ch, st, &e, 1), (10000 - 10 - 156) / 2);
    e.inc_ms = 1000;
    assert_int_equal(time_budget(ch, st, &e, 1), (10000 - 10 - 156) / 2);
    e.inc_ms = 0;
    e.moves_to_go = 1;
    assert_int_equal(time_budget(ch, st, &e, 1), 10000 - 10 - 156);
    /* byoyomi only: all of it but the margin */
    Clock f = {.byoyomi_ms = 5000, .margin_ms = 100};
    assert_int_equal(time_budget(ch, st, &f, 1), 4900);
    /* a short byoyomi keeps three quarters of itself whatever the front
     * end's margin (100 ms byoyomi over USI with its margin of 100 gave
     * 1 ms); sudden death keeps its whole margin */
    Clock s = {.byoyomi_ms = 100, .margin_ms = 100};
    assert_int_equal(time_margin(ch, &s), 25);
    assert_int_equal(time_budget(ch, st, &s, 1), 75);
    Clock s2 = {.left_ms = 40, .margin_ms = 100};
    assert_int_equal(time_margin(ch, &s2), 100);
    assert_int_equal(time_budget(ch, st, &s2, 1), 1);
    /* an empty clock: 1 ms */
    Clock z = {0};
    assert_int_equal(time_budget(ch, st, &z, 1), 1);
    /* spent to the end only where the time cannot be banked: byoyomi
     * with the main time gone (within the margin), not while main time
     * or an increment remains, not without a byoyomi */
    assert_true(time_spend_all(ch, &f));
    Clock g = {.left_ms = 50, .byoyomi_ms = 5000, .margin_ms = 100};
    assert_true(time_spend_all(ch, &g));
    g.left_ms = 60000;
    assert_false(time_spend_all(ch, &g));
    g.left_ms = 0;
    g.inc_ms = 1000;
    assert_false(time_spend_all(ch, &g));
    assert_false(time_spend_all(ch, &c));
    assert_false(time_spend_all(ch, &z));
    free(st);
}

/* The mover's share of the plies left counts the players taking part:
 * splut players=2 shares its clock as the duel does, not as four seats. */
static void test_moves_left_seats(void **state)
{
    (void)state;
    Clock c = {.left_ms = 10000};
    /* 30 steps before the length limit (beyond TIME_MOVES_MAX earlier) */
    const char *pos2 = "R/T1D1S1/...../......./R.......R/......./...../"
                       "S0D0T0/R 0 3 400 - 1170 aa 398,399";
    void *two = tl_position("splut", "players=2", pos2, NULL);
    void *four = tl_position("splut", "players=4",
                             "R/T2D2S2/...../S1.....T3/RD1.....D3R/"
                             "T1.....S3/...../S0D0T0/R 0 3 400 - 1170 aaaa "
                             "396,397,398,399", NULL);
    void *duel = tl_position("splut-duel", NULL, pos2, NULL);
    const GameVtbl *g = game_find("splut"), *d = game_find("splut-duel");
    int m2 = time_moves_left(g, two, &c, 1), m4 = time_moves_left(g, four,
                                                                    &c, 1);
    assert_int_equal(m2, time_moves_left(d, duel, &c, 1));
    assert_true(m2 > m4);
    free(two);
    free(four);
    free(duel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_kalah),
        cmocka_unit_test(test_grid_chess),
        cmocka_unit_test(test_grid_no_position),
        cmocka_unit_test(test_moves_left),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_moves_left_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
