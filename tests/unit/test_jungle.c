/* test_jungle.c — Jungle against a second, slow generator written here
 * from the rules text (coordinates, named squares, the capture rules one
 * by one), compared on positions from random games under every option
 * set: the legal moves as text, each side's piece count after every move,
 * the end. Plus the digest's facts (12 water squares, 6 traps, 2 dens; a
 * lion jumps c3-c7 unless a rat is in the river), perft of the start
 * against the slow generator, and setup and notation errors. */
#include "testlib.h"

typedef struct SlowJ {
    char sq[9][7];      /* [rank][file]: '.' or a piece letter */
    int black_to_move;
    int tiger7, leopard;
} SlowJ;

static int water(int f, int r)
{
    return (r >= 3 && r <= 5) && (f == 1 || f == 2 || f == 4 || f == 5);
}

static int is_den(int f, int r, int black)
{
    return f == 3 && r == (black ? 8 : 0);
}

static int in_trap_of(int f, int r, int black)
{
    int base = black ? 8 : 0, next = black ? 7 : 1;
    return (r == base && (f == 2 || f == 4)) || (r == next && f == 3);
}

static int rank_of_letter(char c, int tiger7)
{
    switch (c >= 'a' ? c - 'a' + 'A' : c) {
    case 'R': return 1;
    case 'C': return 2;
    case 'W': return 3;
    case 'D': return 4;
    case 'P': return 5;
    case 'T': return tiger7 ? 7 : 6;
    case 'L': return 7;
    case 'E': return 8;
    }
    return -1;
}

static int black_piece(char c) { return c >= 'a' && c <= 'z'; }

static void slow_read(SlowJ *s, const char *t, int tiger7, int leopard)
{
    memset(s, 0, sizeof *s);
    s->tiger7 = tiger7;
    s->leopard = leopard;
    int r = 8, f = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') {
            r--;
            f = 0;
        } else if (*t >= '1' && *t <= '9') {
            for (int k = 0; k < *t - '0'; k++)
                s->sq[r][f++] = '.';
        } else {
            s->sq[r][f++] = *t;
        }
    }
    s->black_to_move = t[1] == 'b';
}

static int slow_takes(const SlowJ *s, int f1, int r1, int f2, int r2)
{
    char a = s->sq[r1][f1], b = s->sq[r2][f2];
    int ba = black_piece(a);
    if (water(f1, r1) != water(f2, r2))
        return 0;
    if (in_trap_of(f2, r2, ba))
        return 1;
    int ra = rank_of_letter(a, s->tiger7), rb = rank_of_letter(b, s->tiger7);
    char ua = (char)(ba ? a - 32 : a), ub = (char)(black_piece(b) ? b - 32
                                                                  : b);
    if (ua == 'R' && ub == 'E')
        return 1;
    if (ua == 'E' && ub == 'R')
        return 0;
    return ra >= rb;
}

/* legal moves as sorted text */
static int slow_moves(const SlowJ *s, char out[][6])
{
    int n = 0;
    static const int df[4] = {0, 0, 1, -1}, dr[4] = {1, -1, 0, 0};
    for (int r = 0; r < 9; r++)
        for (int f = 0; f < 7; f++) {
            char p = s->sq[r][f];
            if (p == '.' || black_piece(p) != s->black_to_move)
                continue;
            char u = (char)(black_piece(p) ? p - 32 : p);
            for (int d = 0; d < 4; d++) {
                int tf = f + df[d], tr = r + dr[d];
                if (tf < 0 || tf > 6 || tr < 0 || tr > 8)
                    continue;
                if (water(tf, tr) && u != 'R') {
                    int jumps = u == 'L' || u == 'T' ||
                                (u == 'P' && s->leopard && dr[d] == 0);
                    if (!jumps)
                        continue;
                    int blocked = 0;
                    while (water(tf, tr)) {
                        if (s->sq[tr][tf] != '.')
                            blocked = 1;
                        tf += df[d];
                        tr += dr[d];
                    }
                    if (blocked)
                        continue;
                }
                if (is_den(tf, tr, s->black_to_move))
                    continue;
                char q = s->sq[tr][tf];
                if (q != '.' && (black_piece(q) == s->black_to_move ||
                                 !slow_takes(s, f, r, tf, tr)))
                    continue;
                snprintf(out[n++], 6, "%c%c%c%c", 'a' + f, '1' + r,
                         'a' + tf, '1' + tr);
            }
        }
    return n;
}

static void compare(const char *options, int tiger7, int leopard, int games)
{
    const GameVtbl *g = game_find("jungle");
    Rng r;
    rng_seed(&r, 12345);
    Move mv[128];
    char slow[128][6], text[256];
    int positions = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("jungle", options, NULL, NULL);
        for (int ply = 0; g->to_move(st) != PLAYER_TERMINAL; ply++) {
            g->to_text(st, text, sizeof text);
            SlowJ s;
            slow_read(&s, text, tiger7, leopard);
            int n = g->gen_moves(st, mv), k = slow_moves(&s, slow);
            assert_true(n > 0);
            tl_same_moves(g, st, mv, n, &slow[0][0], k, sizeof slow[0],
                          options, text);
            positions++;
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        /* the end: a den entered, a side wiped out, no move, or a draw */
        double ret[2];
        g->returns(st, ret);
        g->to_text(st, text, sizeof text);
        SlowJ s;
        slow_read(&s, text, tiger7, leopard);
        int inden = 0, count[2] = {0, 0};
        for (int rr = 0; rr < 9; rr++)
            for (int f = 0; f < 7; f++) {
                char p = s.sq[rr][f];
                if (p == '.')
                    continue;
                count[black_piece(p)]++;
                if (is_den(f, rr, !black_piece(p)))
                    inden = black_piece(p) ? -1 : 1;
            }
        char moves[128][6];
        if (inden)
            assert_true(ret[0] == inden);
        else if (!count[0] || !count[1])
            assert_true(ret[0] == (count[0] ? 1 : -1));
        else if (slow_moves(&s, moves) == 0)
            assert_true(ret[s.black_to_move] == -1);
        else
            assert_true(ret[0] == 0);
        free(st);
    }
    assert_true(positions > games * 10);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 1000 : 100;
    compare(NULL, 0, 0, games);
    compare("tiger7=1,leopardjump=1", 1, 1, games);
    compare("first=black,length=30", 0, 0, games);
}

static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
    if (d == 0)
        return 1;
    if (g->to_move(st) == PLAYER_TERMINAL)
        return 0;
    Move mv[128];
    int n = g->gen_moves(st, mv);
    uint64_t sum = 0;
    unsigned char child[256];
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[i]);
        sum += perft(g, child, d - 1);
    }
    return sum;
}

static uint64_t slow_perft(const SlowJ *s, int d)
{
    if (d == 0)
        return 1;
    char mv[128][6];
    int n = slow_moves(s, mv);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        SlowJ c = *s;
        int f1 = mv[i][0] - 'a', r1 = mv[i][1] - '1';
        int f2 = mv[i][2] - 'a', r2 = mv[i][3] - '1';
        char p = c.sq[r1][f1];
        c.sq[r2][f2] = p;
        c.sq[r1][f1] = '.';
        c.black_to_move = !c.black_to_move;
        /* a den entered ends the game (no capture-all at this depth) */
        if (is_den(f2, r2, !black_piece(p)))
            continue;
        sum += slow_perft(&c, d - 1);
    }
    return sum;
}

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("jungle");
    void *st = tl_position("jungle", NULL, NULL, NULL);
    char text[256];
    g->to_text(st, text, sizeof text);
    SlowJ s;
    slow_read(&s, text, 0, 0);
    for (int d = 1; d <= 4; d++)
        assert_int_equal(perft(g, st, d), slow_perft(&s, d));
    assert_int_equal(perft(g, st, 1), 24);
    free(st);
}

static int has_move(const GameVtbl *g, const void *st, const char *m)
{
    Move mv;
    PlyError err = {{0}};
    return g->text_to_move(st, m, &mv, &err) == 0;
}

static void test_facts(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("jungle");
    char buf[2048];
    /* an almost empty board shows every water, trap and den square */
    void *st = tl_position("jungle", NULL, "6d/7/7/7/7/7/7/7/R6 w", NULL);
    assert_true(g->render(st, buf, sizeof buf) > 0);
    int w = 0, t = 0, d = 0;
    for (char *p = buf; *p; p++) {
        w += *p == '~';
        t += *p == '#';
        d += *p == '@';
    }
    assert_int_equal(w, 12);
    assert_int_equal(t, 6);
    assert_int_equal(d, 2);
    free(st);
    /* a lion on c3 jumps to c7 over an empty river, not over a rat */
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/2L4/7/7 w", NULL);
    assert_true(has_move(g, st, "c3c7"));
    free(st);
    st = tl_position("jungle", NULL, "6d/7/7/7/2r4/7/2L4/7/7 w", NULL);
    assert_false(has_move(g, st, "c3c7"));
    free(st);
    /* the rat takes the elephant on land, not from the water */
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/Re5/7/7 w", NULL);
    assert_true(has_move(g, st, "a3b3"));
    free(st);
    st = tl_position("jungle", NULL, "6d/7/7/7/7/1R5/1e5/7/7 w", NULL);
    assert_false(has_move(g, st, "b4b3"));
    free(st);
    /* the elephant never takes the rat, except in its trap */
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/Er5/7/7 w", NULL);
    assert_false(has_move(g, st, "a3b3"));
    free(st);
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/7/3E3/7 w", NULL);
    assert_false(has_move(g, st, "d2d1"));    /* never into its own den */
    free(st);
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/7/2Er3/7 w", NULL);
    assert_true(has_move(g, st, "c2d2"));   /* d2 is White's trap */
    free(st);
    /* a cat takes a lion standing in the cat's trap */
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/7/7/1Cl4 w", NULL);
    assert_true(has_move(g, st, "b1c1"));
    free(st);
    /* the tiger takes the lion only under tiger7 */
    st = tl_position("jungle", NULL, "6d/7/7/7/7/7/Tl5/7/7 w", NULL);
    assert_false(has_move(g, st, "a3b3"));
    free(st);
    st = tl_position("jungle", "tiger7=1", "6d/7/7/7/7/7/Tl5/7/7 w", NULL);
    assert_true(has_move(g, st, "a3b3"));
    free(st);
    /* the leopard jumps sideways only under leopardjump */
    st = tl_position("jungle", NULL, "6d/7/7/7/3P3/7/7/7/7 w", NULL);
    assert_false(has_move(g, st, "d5g5"));
    free(st);
    st = tl_position("jungle", "leopardjump=1", "6d/7/7/7/3P3/7/7/7/7 w",
                     NULL);
    assert_true(has_move(g, st, "d5g5"));
    assert_true(has_move(g, st, "d5d6"));
    free(st);
    st = tl_position("jungle", "leopardjump=1", "6d/7/7/7/7/7/1P5/7/7 w",
                     NULL);
    assert_false(has_move(g, st, "b3b7"));    /* not north-south */
    free(st);
}

static void test_den_win(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("jungle");
    void *st = tl_position("jungle", NULL, "l1R4/7/7/7/7/7/7/7/7 w", "c9d9");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == 1.0);
    free(st);
    /* taking the last piece wins */
    st = tl_position("jungle", NULL, "7/7/7/7/7/7/7/lL5/7 w", "b2a2");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 1.0);
    free(st);
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("jungle");
    void *st = tl_position("jungle", NULL, NULL, NULL);
    PlyError err = {{0}};
    Move m;
    const char *bad_moves[] = {"", "a1", "a1a9", "z1a1", "a0a1", "g3g4x",
                               "a7a6", "d1d2", "c3c4"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        err.msg[0] = 0;
        if (g->text_to_move(st, bad_moves[i], &m, &err) != -1)
            fail_msg("move '%s' accepted", bad_moves[i]);
        assert_true(err.msg[0] != 0);
    }
    const char *bad[] = {"", "7/7/7/7/7/7/7/7/7", "7/7/7/7/7/7/7/7 w",
                         "8/7/7/7/7/7/7/7/7 w", "7/7/7/7/7/7/7/7/7 x",
                         "7/7/7/7/7/1E5/7/7/7 w", "3l3/7/7/7/7/7/7/7/7 w",
                         "7/7/7/7/7/7/7/7/3L3 w", "LL5/7/7/7/7/7/7/7/7 w",
                         "Z6/7/7/7/7/7/7/7/7 w", "7/7/7/7/7/7/7/7/7 w 999",
                         "7/7/7/7/7/7/7/7/7 w 5x", "7/7/7/7/7/7/7/7/7/7 w"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) != -1)
            fail_msg("setup '%s' accepted", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_slow),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_den_win),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
