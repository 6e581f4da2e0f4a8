/* test_xq_see.c — xiangqi's see hook (static exchange): hand-made
 * exchanges with every kind of attacker (screens that appear and vanish,
 * blocked horse legs and elephant eyes, soldiers before and after the
 * river, the general in and out of its palace), the bounds on every
 * capture of seeded random games, and the least attacker against the
 * move generator's captures on the same points. */
#include "testlib.h"

#include "games/xiangqi/xiangqi.h"

typedef struct SeeCase {
    const char *fen, *move;
    int want;
} SeeCase;

static const SeeCase CASES[] = {
    /* chariot takes an undefended soldier */
    {"5k3/9/9/p8/9/R8/9/9/9/3K5 w - - 0 1", "a4a6", 100},
    /* ... one a horse defends */
    {"5k3/1n7/9/p8/9/R8/9/9/9/3K5 w - - 0 1", "a4a6", -800},
    /* ... the horse's leg blocked */
    {"5k3/1n7/1P7/p8/9/R8/9/9/9/3K5 w - - 0 1", "a4a6", 100},
    /* cannon takes a horse a chariot defends */
    {"5k3/9/9/4n3r/9/9/4P4/4C4/9/3K5 w - - 0 1", "e2e6", -50},
    /* the chariot behind the chariot takes back */
    {"r3k4/9/9/p8/9/9/9/9/R8/R2K5 w - - 0 1", "a1a6", 100},
    /* ... without it */
    {"r3k4/9/9/p8/9/9/9/9/R8/3K5 w - - 0 1", "a1a6", -800},
    /* a cannon gets its screen when the chariot leaves */
    {"3k5/4r4/9/4p4/4R4/9/4P4/9/4C4/5K3 w - - 0 1", "e5e6", 100},
    /* ... no screen, no cannon */
    {"3k5/4r4/9/4p4/4R4/9/9/9/4C4/5K3 w - - 0 1", "e5e6", -800},
    /* an elephant defends across its eye */
    {"5k3/9/4b4/9/2p6/9/9/9/9/2RK5 w - - 0 1", "c0c5", -800},
    /* ... the eye blocked */
    {"5k3/9/4b4/3N5/2p6/9/9/9/9/2RK5 w - - 0 1", "c0c5", 100},
    /* a crossed soldier takes sideways */
    {"2r2k3/9/9/2nP5/9/9/9/9/9/3K5 w - - 0 1", "d6c6", 300},
    /* soldiers at home do not defend sideways */
    {"5k3/9/9/1pnp5/9/9/9/9/9/2RK5 w - - 0 1", "c0c6", 400},
    /* ... one behind the target does */
    {"5k3/9/9/2p6/2n6/9/9/9/9/2RK5 w - - 0 1", "c0c5", -500},
    /* the general takes back in its palace */
    {"9/3k5/3a5/9/9/9/9/9/3R5/5K3 w - - 0 1", "d1d7", -700},
    /* ... not outside it */
    {"9/9/3k5/3n5/9/9/9/9/3R5/5K3 w - - 0 1", "d1d6", 400},
    /* black: chariot takes a soldier a horse defends */
    {"r4k3/9/9/9/9/9/P8/9/1N7/3K5 b - - 0 1", "a9a3", -800},
    /* an advisor takes back before the general */
    {"4ka3/4a4/9/9/9/9/9/9/9/3KR4 w - - 0 1", "e0e8", -700},
};

static Move parse(const GameVtbl *g, const void *st, const char *text)
{
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, text, &m, &err))
        fail_msg("%s: %s", text, err.msg);
    return m;
}

static void test_xq_see_cases(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("xiangqi");
    assert_non_null(g->see);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const SeeCase *c = &CASES[i];
        void *st = tl_position("xiangqi", NULL, c->fen, NULL);
        Move m = parse(g, st, c->move);
        int got = xq_see_exchange(st, m);
        if (got != c->want)
            fail_msg("%s %s: see %d, want %d", c->fen, c->move, got,
                     c->want);
        if (!g->see(st, m, c->want) || g->see(st, m, c->want + 1))
            fail_msg("%s %s: see hook disagrees with %d at its threshold",
                     c->fen, c->move, c->want);
        free(st);
    }
}

/* Whether two moves end on the same point (UCCI text: the last two
 * characters). */
static int same_target(const GameVtbl *g, const void *st, Move a, Move b)
{
    char ta[16], tb[16];
    assert_true(g->move_to_text(st, a, ta, sizeof ta) == 4);
    assert_true(g->move_to_text(st, b, tb, sizeof tb) == 4);
    return !strcmp(ta + 2, tb + 2);
}

/* Seeded random games, captures preferred: on every capture the hook
 * agrees with the exchange's value at and above it, the value lies
 * between what the move takes less the mover and what it takes, and the
 * least attacker of the target is never dearer than the cheapest legal
 * capture there (it may be cheaper: pins are not looked at, so mostly
 * they are the same). */
static void test_xq_see_random(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("xiangqi");
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    int seen = 0, negative = 0, even = 0, points = 0, same = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        void *st = tl_position("xiangqi", NULL, NULL, NULL);
        Rng r;
        rng_seed(&r, seed * 7919);
        for (int k = 0; k < 200 && g->to_move(st) >= 0; k++) {
            int n = g->gen_moves(st, mv);
            for (int i = 0; i < n; i++) {
                if (!g->is_noisy(st, mv[i]))
                    continue;
                int s = xq_see_exchange(st, mv[i]);
                if (!g->see(st, mv[i], s) || g->see(st, mv[i], s + 1) ||
                    g->see(st, mv[i], 0) != (s >= 0))
                    fail_msg("seed %d ply %d: see hook disagrees with %d",
                             (int)seed, k, s);
                int gain = xq_piece_value(st, mv[i], 1);
                int on = xq_piece_value(st, mv[i], 0);
                if (gain <= 0 || s > gain || s < gain - on)
                    fail_msg("seed %d ply %d: see %d outside [%d, %d]",
                             (int)seed, k, s, gain - on, gain);
                seen++;
                negative += s < 0;
                even += s == 0;
                /* the cheapest legal capture on this target, once per
                 * target: the first capture there in the list */
                int first = 1;
                for (int j = 0; j < i; j++)
                    if (g->is_noisy(st, mv[j]) &&
                        same_target(g, st, mv[j], mv[i]))
                        first = 0;
                if (!first)
                    continue;
                int cheapest = xq_piece_value(st, mv[i], 0);
                for (int j = i + 1; j < n; j++)
                    if (g->is_noisy(st, mv[j]) &&
                        same_target(g, st, mv[j], mv[i]) &&
                        xq_piece_value(st, mv[j], 0) < cheapest)
                        cheapest = xq_piece_value(st, mv[j], 0);
                int least = xq_least_attacker_value(st, mv[i]);
                if (least == 0 || least > cheapest)
                    fail_msg("seed %d ply %d: least attacker %d, a legal "
                             "capture with %d", (int)seed, k, least,
                             cheapest);
                points++;
                same += least == cheapest;
            }
            g->make(st, tl_lively_move(g, st, mv, n, &r));
        }
        free(st);
    }
    free(mv);
    /* exchanges of every kind were seen, and a least attacker that the
     * generator would not confirm (a false attack) is rare */
    if (seen < 500 || !negative || !even || same < points * 19 / 20)
        fail_msg("%d captures, %d losing, %d even; least attacker equal "
                 "to the cheapest capture on %d of %d points", seen,
                 negative, even, same, points);
    print_message("%d captures (%d losing, %d even); least attacker = "
                  "cheapest legal capture on %d of %d points\n", seen,
                  negative, even, same, points);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xq_see_cases),
        cmocka_unit_test(test_xq_see_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
