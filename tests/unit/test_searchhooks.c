/* test_searchhooks.c — the optional search hooks (in_check, gen_noisy,
 * null_move_ok/make_null, gen_checks, see) agree with the games' own moves, on the
 * positions of seeded random games. */
#include "testlib.h"

#include "games/chess/board.h"

enum { GAMES = 6, PLIES = 200 };

/* Slow check test for the 8x8 games: any enemy piece's attack set (from
 * its own square) holds our king. */
static int slow_in_check(const CBoard *b)
{
    uint64_t occ = b->col[0] | b->col[1];
    uint64_t king = b->pcs[CB_KING] & b->col[b->side];
    int them = !b->side;
    for (uint64_t e = b->col[them]; e; e &= e - 1) {
        int sq = cb_lsb(e);
        if (cb_piece_attacks(b->sq[sq] & 15, them, sq, occ) & king)
            return 1;
    }
    return 0;
}

static void test_hooks(void **state)
{
    (void)state;
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->in_check && !g->gen_noisy && !g->make_null)
            continue;
        assert_true((g->null_move_ok == NULL) == (g->make_null == NULL));
        int is8x8 = !strcmp(g->info.name, "chess") ||
                    !strcmp(g->info.name, "makruk") ||
                    !strcmp(g->info.name, "shatranj");
        size_t ss = g->info.state_size;
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        Move *nz = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        unsigned char *tmp = malloc(ss);
        int checks = 0, noisy = 0;
        for (uint64_t seed = 1; seed <= GAMES; seed++) {
            void *st = tl_position(g->info.name, NULL, NULL, NULL);
            Rng r;
            rng_seed(&r, seed * 77);
            for (int k = 0; k < PLIES && g->to_move(st) >= 0; k++) {
                int n = g->gen_moves(st, mv);
                if (g->gen_noisy) {
                    int m = g->gen_noisy(st, nz), j = 0;
                    for (int i = 0; i < n; i++)
                        if (g->is_noisy(st, mv[i])) {
                            assert_true(j < m);
                            assert_true(nz[j] == mv[i]);
                            j++;
                        }
                    assert_int_equal(j, m);
                    noisy += m;
                }
                if (g->in_check) {
                    int c = g->in_check(st);
                    checks += c;
                    if (is8x8)
                        assert_int_equal(c, slow_in_check(st));
                }
                if (g->make_null && g->null_move_ok(st) &&
                    !(g->in_check && g->in_check(st))) {
                    memcpy(tmp, st, ss);
                    g->make_null(tmp);
                    assert_int_equal(g->to_move(tmp), 1 - g->to_move(st));
                    assert_true(g->hash(tmp) != g->hash(st));
                    if (g->check)
                        assert_int_equal(g->check(tmp), 0);
                    /* a pass leaves the board: no check appears */
                    if (is8x8)
                        assert_int_equal(g->in_check(tmp),
                                         slow_in_check((CBoard *)tmp));
                }
                g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(st);
        }
        if (g->in_check && checks == 0)
            fail_msg("%s: no check met in the random games", g->info.name);
        if (g->gen_noisy && noisy == 0)
            fail_msg("%s: no noisy move met", g->info.name);
        free(mv);
        free(nz);
        free(tmp);
        tested++;
    }
    assert_true(tested >= 6);
}

/* Calls fn on the positions of `games` seeded random games of g (at most
 * 300 plies each) and, every fourth ply, on children of the position:
 * every child in check and every eighth other (evasions filter captures
 * and promotions in their own way). Returns the positions visited. */
typedef void (*PosFn)(const GameVtbl *g, const void *pos, void *ctx);

static long walk_positions(const GameVtbl *g, int games, PosFn fn, void *ctx,
                           long *in_check)
{
    size_t ss = g->info.state_size;
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    unsigned char *tmp = malloc(ss);
    long positions = 0;
    for (uint64_t seed = 1; seed <= (uint64_t)games; seed++) {
        void *st = tl_position(g->info.name, NULL, NULL, NULL);
        Rng r;
        rng_seed(&r, seed * 1237 + 5);
        for (int k = 0; k < 300 && g->to_move(st) >= 0; k++) {
            int n = g->gen_moves(st, mv);
            int kids = k % 4 == 0 ? n : 0;
            for (int c = -1; c < kids; c++) {
                const void *pos = st;
                if (c >= 0) {
                    memcpy(tmp, st, ss);
                    g->make(tmp, mv[c]);
                    if (g->to_move(tmp) < 0)
                        continue;
                    pos = tmp;
                    if (!(g->in_check && g->in_check(tmp)) && c % 8)
                        continue;   /* all checks, some others */
                }
                fn(g, pos, ctx);
                positions++;
                *in_check += g->in_check && g->in_check(pos);
            }
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        free(st);
    }
    free(mv);
    free(tmp);
    return positions;
}

/* gen_noisy == gen_moves filtered by is_noisy, same order. */
static void noisy_agrees(const GameVtbl *g, const void *pos, void *ctx)
{
    (void)ctx;
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Move *nz = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    int n = g->gen_moves(pos, mv), m = g->gen_noisy(pos, nz), j = 0;
    for (int i = 0; i < n; i++)
        if (g->is_noisy(pos, mv[i])) {
            if (j >= m || nz[j] != mv[i])
                fail_msg("%s: gen_noisy differs at move %d", g->info.name, j);
            j++;
        }
    assert_int_equal(j, m);
    free(mv);
    free(nz);
}

/* gen_noisy on thousands of positions per game (walk_positions). */
static void test_gen_noisy_many(void **state)
{
    (void)state;
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->gen_noisy)
            continue;
        assert_non_null(g->is_noisy);
        long in_check = 0;
        long positions = walk_positions(g, 16, noisy_agrees, NULL, &in_check);
        print_message("%s: %ld positions, %ld in check\n", g->info.name,
                      positions, in_check);
        if (positions < 2000 || (g->in_check && in_check < 100))
            fail_msg("%s: only %ld positions (%ld in check)", g->info.name,
                     positions, in_check);
        tested++;
    }
    assert_true(tested >= 6);
}

/* gen_checks == gen_moves filtered by "not noisy, and the opponent is in
 * check after it", same order; a move that ends the game (a mate) may
 * be either way here, and the mates are checked below. ctx counts the
 * checks. */
static void checks_agree(const GameVtbl *g, const void *pos, void *ctx)
{
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Move *ck = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    unsigned char *kid = malloc(g->info.state_size);
    int n = g->gen_moves(pos, mv), m = g->gen_checks(pos, ck), j = 0;
    for (int i = 0; i < n; i++) {
        if (g->is_noisy(pos, mv[i]))
            continue;
        memcpy(kid, pos, g->info.state_size);
        g->make(kid, mv[i]);
        int listed = j < m && ck[j] == mv[i];
        if (g->to_move(kid) >= 0 && g->in_check(kid) != listed)
            fail_msg("%s: gen_checks %s a move (%d of %d)", g->info.name,
                     listed ? "adds" : "misses", i, n);
        j += listed;
    }
    assert_int_equal(j, m);
    *(long *)ctx += m;
    free(kid);
    free(mv);
    free(ck);
}

static void test_gen_checks_many(void **state)
{
    (void)state;
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->gen_checks)
            continue;
        assert_non_null(g->is_noisy);
        assert_non_null(g->in_check);
        long checks = 0, in_check = 0;
        long positions = walk_positions(g, 12, checks_agree, &checks,
                                        &in_check);
        print_message("%s: %ld positions, %ld quiet checks\n", g->info.name,
                      positions, checks);
        if (positions < 1000 || checks < 1000)
            fail_msg("%s: only %ld positions (%ld checks)", g->info.name,
                     positions, checks);
        tested++;
    }
    assert_true(tested >= 1);
}

/* A mate by a quiet move is among gen_checks: shogi's gold dropped in
 * front of a bare king, guarded by a pawn. */
static void test_gen_checks_mate(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shogi");
    void *st = tl_position("shogi", NULL, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
                           NULL);
    Move ck[700];
    int m = g->gen_checks(st, ck), found = 0;
    Move mate = 0;
    assert_int_equal(g->text_to_move(st, "G*5b", &mate, NULL), 0);
    for (int i = 0; i < m; i++)
        found += ck[i] == mate;
    assert_int_equal(found, 1);
    /* and the others: the gold on 4a, 6a, 4b or 6b, the pawn to 5b
     * unpromoted */
    assert_int_equal(m, 6);
    void *kid = malloc(g->info.state_size);
    memcpy(kid, st, g->info.state_size);
    g->make(kid, mate);
    assert_true(g->to_move(kid) < 0);      /* mated */
    free(kid);
    free(st);
}

/* The see hook on every legal move, quiet ones (drops) included: a
 * threshold is met by every lower one (so each move has one value); a
 * quiet move gains nothing (0 at most), and some quiet moves, not most,
 * lose their piece (ctx[0]: quiet moves, ctx[1]: losing ones). */
static void see_agrees(const GameVtbl *g, const void *pos, void *ctx)
{
    long *c = ctx;
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    int n = g->gen_moves(pos, mv);
    static const int th[] = {-3000, -1000, -300, -100, -1, 0, 1, 100, 300};
    enum { NT = sizeof th / sizeof th[0] };
    for (int i = 0; i < n; i++) {
        int last = 1;
        for (int t = 0; t < NT; t++) {
            int ok = g->see(pos, mv[i], th[t]);
            if (ok && !last)
                fail_msg("%s: see meets %d but not %d (move %d of %d)",
                         g->info.name, th[t], th[t - 1], i, n);
            last = ok;
        }
        if (g->is_noisy(pos, mv[i]))
            continue;
        if (g->see(pos, mv[i], 1))
            fail_msg("%s: a quiet move gains material by see (move %d)",
                     g->info.name, i);
        c[0]++;
        c[1] += !g->see(pos, mv[i], 0);
    }
    free(mv);
}

static void test_see_quiet(void **state)
{
    (void)state;
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->see)
            continue;
        assert_non_null(g->is_noisy);
        long c[2] = {0, 0}, in_check = 0;
        long positions = walk_positions(g, 4, see_agrees, c, &in_check);
        print_message("%s: %ld positions, %ld quiet moves, %ld of them "
                      "losing by see\n", g->info.name, positions, c[0],
                      c[1]);
        if (positions < 300 || c[1] < 100 || c[1] > c[0] / 2)
            fail_msg("%s: %ld positions, %ld quiet moves, %ld losing",
                     g->info.name, positions, c[0], c[1]);
        tested++;
    }
    assert_true(tested >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hooks),
        cmocka_unit_test(test_gen_noisy_many),
        cmocka_unit_test(test_gen_checks_many),
        cmocka_unit_test(test_gen_checks_mate),
        cmocka_unit_test(test_see_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
