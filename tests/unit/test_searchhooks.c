/* test_searchhooks.c — the optional search hooks (in_check, gen_noisy,
 * null_move_ok/make_null) agree with the games' own moves, on the
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

/* gen_noisy == gen_moves filtered by is_noisy, same order, on thousands
 * of positions per game: random games, and from every position also the
 * positions after each check-giving move (evasions filter captures and
 * promotions in their own way). */
static void test_gen_noisy_many(void **state)
{
    (void)state;
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->gen_noisy)
            continue;
        assert_non_null(g->is_noisy);
        size_t ss = g->info.state_size;
        int maxm = g->info.max_moves;
        Move *mv = malloc(sizeof(Move) * (size_t)maxm);
        Move *mv2 = malloc(sizeof(Move) * (size_t)maxm);
        Move *nz = malloc(sizeof(Move) * (size_t)maxm);
        unsigned char *tmp = malloc(ss);
        long positions = 0, in_check = 0;
        for (uint64_t seed = 1; seed <= 16; seed++) {
            void *st = tl_position(g->info.name, NULL, NULL, NULL);
            Rng r;
            rng_seed(&r, seed * 1237 + 5);
            for (int k = 0; k < 300 && g->to_move(st) >= 0; k++) {
                int n = g->gen_moves(st, mv);
                /* the position itself and, every few plies, its children */
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
                    int n2 = g->gen_moves(pos, mv2);
                    int m = g->gen_noisy(pos, nz), j = 0;
                    for (int i = 0; i < n2; i++)
                        if (g->is_noisy(pos, mv2[i])) {
                            if (j >= m || nz[j] != mv2[i])
                                fail_msg("%s: gen_noisy differs at move %d",
                                         g->info.name, j);
                            j++;
                        }
                    assert_int_equal(j, m);
                    positions++;
                    in_check += g->in_check && g->in_check(pos);
                }
                g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(st);
        }
        print_message("%s: %ld positions, %ld in check\n", g->info.name,
                      positions, in_check);
        if (positions < 2000 || (g->in_check && in_check < 100))
            fail_msg("%s: only %ld positions (%ld in check)", g->info.name,
                     positions, in_check);
        free(mv);
        free(mv2);
        free(nz);
        free(tmp);
        tested++;
    }
    assert_true(tested >= 6);
}

/* gen_checks == gen_moves filtered by "not noisy, and the opponent is in
 * check after it", same order, on the positions of random games and
 * their children; a move that ends the game (a mate) may be either way
 * here, and the mates are checked below. */
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
        size_t ss = g->info.state_size;
        int maxm = g->info.max_moves;
        Move *mv = malloc(sizeof(Move) * (size_t)maxm);
        Move *mv2 = malloc(sizeof(Move) * (size_t)maxm);
        Move *ck = malloc(sizeof(Move) * (size_t)maxm);
        unsigned char *tmp = malloc(ss), *kid = malloc(ss);
        long positions = 0, checks = 0;
        for (uint64_t seed = 1; seed <= 12; seed++) {
            void *st = tl_position(g->info.name, NULL, NULL, NULL);
            Rng r;
            rng_seed(&r, seed * 7919 + 3);
            for (int k = 0; k < 300 && g->to_move(st) >= 0; k++) {
                int n = g->gen_moves(st, mv);
                int kids = k % 5 == 0 ? n : 0;
                for (int c = -1; c < kids; c += c < 0 ? 1 : 7) {
                    const void *pos = st;
                    if (c >= 0) {
                        memcpy(tmp, st, ss);
                        g->make(tmp, mv[c]);
                        if (g->to_move(tmp) < 0)
                            continue;
                        pos = tmp;
                    }
                    int n2 = g->gen_moves(pos, mv2);
                    int m = g->gen_checks(pos, ck), j = 0;
                    for (int i = 0; i < n2; i++) {
                        if (g->is_noisy(pos, mv2[i]))
                            continue;
                        memcpy(kid, pos, ss);
                        g->make(kid, mv2[i]);
                        int listed = j < m && ck[j] == mv2[i];
                        if (g->to_move(kid) < 0) {
                            j += listed;
                            continue;
                        }
                        int chk = g->in_check(kid);
                        if (chk != listed)
                            fail_msg("%s: gen_checks %s a move (%d of %d)",
                                     g->info.name,
                                     chk ? "misses" : "adds", i, n2);
                        j += listed;
                    }
                    assert_int_equal(j, m);
                    positions++;
                    checks += m;
                }
                g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(st);
        }
        print_message("%s: %ld positions, %ld quiet checks\n", g->info.name,
                      positions, checks);
        if (positions < 1000 || checks < 1000)
            fail_msg("%s: only %ld positions (%ld checks)", g->info.name,
                     positions, checks);
        free(mv);
        free(mv2);
        free(ck);
        free(tmp);
        free(kid);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hooks),
        cmocka_unit_test(test_gen_noisy_many),
        cmocka_unit_test(test_gen_checks_many),
        cmocka_unit_test(test_gen_checks_mate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
