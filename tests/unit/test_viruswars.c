/* test_viruswars.c — Virus Wars against a second, slow implementation
 * written here from the rules text: the board read from the setup string,
 * reach found by growing the set of a player's zombies joined to his live
 * viruses until nothing changes, steps and turns counted by hand. Compared
 * on every position of random games under several option sets: the legal
 * steps, the position after each step (board, side, steps left), the end
 * and the winner. Plus the digest's Dagaz perft (3, 15, 45), rule
 * positions, and setup and notation errors. */
#include "testlib.h"

enum { SMAX = 16 };

typedef struct Slow {
    int size, steps, dagaz;
    char c[SMAX][SMAX];     /* [row][col], row 0 at the bottom */
    int red;                /* Red to move */
    int left;
} Slow;

static void slow_read(Slow *s, const char *t, int size, int steps, int dagaz)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->steps = steps;
    s->dagaz = dagaz;
    int r = size - 1, col = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') {
            r--;
            col = 0;
        } else {
            s->c[r][col++] = *t;
        }
    }
    s->red = t[1] == 'r';
    s->left = t[3] - '0';
}

static void slow_write(const Slow *s, char *out)
{
    for (int r = s->size - 1; r >= 0; r--) {
        for (int col = 0; col < s->size; col++)
            *out++ = s->c[r][col];
        if (r)
            *out++ = '/';
    }
    sprintf(out, " %c %d", s->red ? 'r' : 'b', s->left);
}

static int near(int r1, int c1, int r2, int c2)
{
    return abs(r1 - r2) <= 1 && abs(c1 - c2) <= 1 && (r1 != r2 || c1 != c2);
}

/* May the player (red or not) step on (r, col)? */
static int slow_may(const Slow *s, int red, int r, int col)
{
    char live = red ? 'R' : 'B', zomb = red ? 'r' : 'b';
    char enemy = red ? 'B' : 'R';
    if (s->c[r][col] != '.' && s->c[r][col] != enemy)
        return 0;
    /* joined[][]: the player's zombies joined to a live virus */
    int joined[SMAX][SMAX] = {{0}}, changed = 1;
    while (changed) {
        changed = 0;
        for (int a = 0; a < s->size; a++)
            for (int b = 0; b < s->size; b++) {
                if (s->c[a][b] != zomb || joined[a][b])
                    continue;
                for (int x = 0; x < s->size; x++)
                    for (int y = 0; y < s->size; y++)
                        if (near(a, b, x, y) &&
                            (s->c[x][y] == live || joined[x][y]) &&
                            !joined[a][b]) {
                            joined[a][b] = 1;
                            changed = 1;
                        }
            }
    }
    for (int x = 0; x < s->size; x++)
        for (int y = 0; y < s->size; y++) {
            if (!near(r, col, x, y))
                continue;
            if (s->c[x][y] == live)
                return 1;
            if (s->c[x][y] == zomb && (s->dagaz || joined[x][y]))
                return 1;
        }
    return 0;
}

static int slow_moves(const Slow *s, char out[][24])
{
    int n = 0;
    for (int r = 0; r < s->size; r++)
        for (int col = 0; col < s->size; col++)
            if (slow_may(s, s->red, r, col))
                snprintf(out[n++], 24, "%c%d", 'a' + col, r + 1);
    return n;
}

static int count(const Slow *s, char what)
{
    int n = 0;
    for (int r = 0; r < s->size; r++)
        for (int col = 0; col < s->size; col++)
            n += s->c[r][col] == what;
    return n;
}

static void slow_make(Slow *s, const char *m)
{
    int col = m[0] - 'a', r = atoi(m + 1) - 1;
    if (s->c[r][col] == '.')
        s->c[r][col] = s->red ? 'R' : 'B';
    else
        s->c[r][col] = s->red ? 'r' : 'b';
    if (--s->left == 0) {
        s->red = !s->red;
        s->left = s->steps;
    }
}

static void compare(const char *options, int size, int steps, int dagaz,
                    int games, uint64_t seed)
{
    const GameVtbl *g = game_find("virus-wars");
    Rng rng;
    rng_seed(&rng, seed);
    Move mv[256];
    char slow[256][24], text[400], want[400];
    int positions = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("virus-wars", options, NULL, NULL);
        for (;;) {
            g->to_text(st, text, sizeof text);
            Slow s;
            slow_read(&s, text, size, steps, dagaz);
            int k = slow_moves(&s, slow);
            int over = !count(&s, 'B') || !count(&s, 'R') || k == 0;
            if (g->to_move(st) == PLAYER_TERMINAL) {
                if (!over)
                    fail_msg("%s: ended early at %s", options, text);
                double ret[2];
                g->returns(st, ret);
                int winner = !count(&s, 'B') ? 1 : !count(&s, 'R') ? 0
                                                 : !s.red;
                assert_true(ret[winner] == 1.0 && ret[!winner] == -1.0);
                break;
            }
            if (over)
                fail_msg("%s: not over at %s", options, text);
            assert_int_equal(g->to_move(st), s.red);
            int n = g->gen_moves(st, mv);
            tl_same_moves(g, st, mv, n, &slow[0][0], k, sizeof slow[0],
                          options, text);
            positions++;
            Move m = mv[rng_below(&rng, (uint32_t)n)];
            char mt[8];
            g->move_to_text(st, m, mt, sizeof mt);
            slow_make(&s, mt);
            slow_write(&s, want);
            g->make(st, m);
            assert_int_equal(g->check(st), 0);
            g->to_text(st, text, sizeof text);
            if (strcmp(text, want))
                fail_msg("%s: after %s: %s, slow %s", options, mt, text,
                         want);
        }
        free(st);
    }
    assert_true(positions > games * 20);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 200 : 12;
    compare(NULL, 10, 3, 0, games, 1);
    compare("chain=dagaz,first=full", 10, 3, 1, games, 2);
    compare("size=6,steps=5", 6, 5, 0, games * 2, 3);
    compare("size=8,steps=1,chain=dagaz", 8, 1, 1, games, 4);
}

static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
    if (d == 0)
        return 1;
    Move mv[256];
    int n = g->gen_moves(st, mv);
    if (d == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    unsigned char child[512];
    assert_true(g->info.state_size <= sizeof child);
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[i]);
        sum += perft(g, child, d - 1);
    }
    return sum;
}

static uint64_t slow_perft(const Slow *s, int d)
{
    if (d == 0)
        return 1;
    if (!count(s, 'B') || !count(s, 'R'))
        return 0;
    char mv[256][24];
    int n = slow_moves(s, mv);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        Slow c = *s;
        slow_make(&c, mv[i]);
        sum += slow_perft(&c, d - 1);
    }
    return sum;
}

#define EMPTY8 "........../........../........../........../" \
               "........../........../........../........../"

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("virus-wars");
    /* Dagaz's page (more-games.md §9): 3, 15, 45, counted from Blue's
     * first turn with two steps left (its harness starts there) */
    void *st = tl_position("virus-wars", "first=full,chain=dagaz",
                           "R........./" EMPTY8 ".........B b 2", NULL);
    assert_int_equal(perft(g, st, 1), 3);
    assert_int_equal(perft(g, st, 2), 15);
    assert_int_equal(perft(g, st, 3), 45);
    free(st);
    /* the default start against the slow generator */
    const char *opts[] = {NULL, "first=full", "steps=5,size=7"};
    int sizes[] = {10, 10, 7}, steps[] = {3, 3, 5};
    for (int k = 0; k < 3; k++) {
        st = tl_position("virus-wars", opts[k], NULL, NULL);
        char text[400];
        g->to_text(st, text, sizeof text);
        Slow s;
        slow_read(&s, text, sizes[k], steps[k], 0);
        for (int d = 1; d <= 4; d++)
            assert_int_equal(perft(g, st, d), slow_perft(&s, d));
        free(st);
    }
    st = tl_position("virus-wars", NULL, NULL, NULL);
    assert_int_equal(perft(g, st, 1), 3);      /* i1 i2 j2 */
    assert_int_equal(perft(g, st, 2), 9);      /* then Red's first step */
    free(st);
}

static int has_move(const GameVtbl *g, const void *st, const char *m)
{
    Move mv;
    PlyError err = {{0}};
    return g->text_to_move(st, m, &mv, &err) == 0;
}

static void test_rules(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("virus-wars");
    /* a Blue zombie on c3 joined by b2 (zombie) to the live a1 reaches
     * d4; a lone zombie on h8 reaches nothing unless chain=dagaz */
    const char *p1 = "R...../....../....../..b.../.b..../B..... b 3";
    void *st = tl_position("virus-wars", "size=6", p1, NULL);
    assert_true(has_move(g, st, "d4"));
    assert_true(has_move(g, st, "a2"));
    assert_false(has_move(g, st, "e5"));
    free(st);
    const char *p2 = "R...../....b./....../....../....../B..... b 3";
    st = tl_position("virus-wars", "size=6", p2, NULL);
    assert_false(has_move(g, st, "f6"));
    assert_false(has_move(g, st, "d5"));
    free(st);
    st = tl_position("virus-wars", "size=6,chain=dagaz", p2, NULL);
    assert_true(has_move(g, st, "f6"));
    assert_true(has_move(g, st, "d5"));
    free(st);
    /* absorbing: an enemy live virus becomes a zombie, a zombie is never
     * taken, and the last live virus taken ends the game */
    const char *p3 = "....../....../....../....../.rR.../B..... b 3";
    st = tl_position("virus-wars", "size=6", p3, NULL);
    assert_false(has_move(g, st, "b2"));
    assert_false(has_move(g, st, "c2"));   /* out of reach */
    free(st);
    const char *p4 = "....../....../....../....../.R..../B.r... b 2";
    st = tl_position("virus-wars", "size=6", p4, "b2");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == 1.0);
    free(st);
    /* steps: the same player moves until the turn is done */
    st = tl_position("virus-wars", "size=6", "R...../....../....../"
                     "....../....../.....B b 3", "e1");
    assert_int_equal(g->to_move(st), 0);
    g->make(st, 0 + 5 + 6);     /* f2 */
    assert_int_equal(g->to_move(st), 0);
    g->make(st, 3);             /* d1 */
    assert_int_equal(g->to_move(st), 1);
    free(st);
    /* a player without a step loses: Blue's a1 walled in by zombies */
    st = tl_position("virus-wars", "size=6", "R...../....../....../"
                     "....../rr..../Br.... b 1", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[1] == 1.0);
    free(st);
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("virus-wars");
    void *st = tl_position("virus-wars", NULL, NULL, NULL);
    PlyError err = {{0}};
    Move m;
    const char *bad_moves[] = {"", "a", "k1", "a0", "a11", "a01", "j1",
                               "a10", "e5", "i1x", "I1", "j-1"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        err.msg[0] = 0;
        if (g->text_to_move(st, bad_moves[i], &m, &err) != -1)
            fail_msg("move '%s' accepted", bad_moves[i]);
        assert_true(err.msg[0] != 0);
    }
    const char *bad[] = {"", "R b", "R........./" EMPTY8 ".........B",
                         "R........./" EMPTY8 ".........B x",
                         "R........./" EMPTY8 ".........B b 4",
                         "R........./" EMPTY8 ".........B b 0",
                         "R........./" EMPTY8 ".........B b 1x",
                         "R........./" EMPTY8 "..........B b",
                         "R........./" EMPTY8 "........B b",
                         "R........./" EMPTY8 ".........X b",
                         "R........./" EMPTY8 "........../.........B b"};
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
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
