/* test_xiangqi.c — perft against the Fairy-Stockfish oracle, the move
 * generator against a slow one written from the rules (on a plain 10 x 9
 * array read back from the FEN) on random games, game ends (stalemate
 * loses, perpetual check loses, repetition, material) and setup errors. */
#include <ctype.h>

#include "testlib.h"

#include "tools/perft.h"

/* ------------------------------------------------------------- perft */

static void test_perft_oracle(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/chesslike-perft.tsv", "r");
    if (!f)
        fail_msg("cannot open tests/data/chesslike-perft.tsv");
    char line[1024];
    int checked = 0;
    unsigned long long limit = tl_slow() ? 200000000ull : 5000000ull;
    const GameVtbl *g = game_find("xiangqi");
    while (fgets(line, sizeof line, f)) {
        char *save = NULL;
        char *variant = strtok_r(line, "\t", &save);
        char *pos = strtok_r(NULL, "\t", &save);
        char *depth = strtok_r(NULL, "\t", &save);
        char *nodes = strtok_r(NULL, "\t", &save);
        if (!variant || !pos || !depth || !nodes ||
            strcmp(variant, "xiangqi"))
            continue;
        unsigned long long want = strtoull(nodes, NULL, 10);
        if (want > limit)
            continue;
        const char *fen = strchr(pos, ' ') + 1;
        void *st = tl_position("xiangqi", NULL, fen, NULL);
        uint64_t got = perft(g, st, atoi(depth), 0);
        if (got != want)
            fail_msg("xiangqi '%s' depth %s: %llu, oracle %llu", fen, depth,
                     (unsigned long long)got, want);
        free(st);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 6);
}

/* ------------------------------------------------ slow reference */

typedef struct Slow {
    char b[10][9];   /* [rank][file], '.' empty; upper case Red */
    int side;        /* 0 Red, 1 Black */
} Slow;

static void slow_read(Slow *s, const char *fen)
{
    int r = 9, f = 0;
    memset(s->b, '.', sizeof s->b);
    for (; *fen != ' '; fen++) {
        if (*fen == '/') {
            r--;
            f = 0;
        } else if (isdigit((unsigned char)*fen)) {
            f += *fen - '0';
        } else {
            s->b[r][f++] = *fen;
        }
    }
    s->side = fen[1] == 'b';
}

static int col_of(char p) { return p == '.' ? -1 : islower((unsigned char)p) ? 1 : 0; }
static int inb(int r, int f) { return r >= 0 && r < 10 && f >= 0 && f < 9; }
static int palace(int r, int f, int c)
{
    return f >= 3 && f <= 5 && (c ? r >= 7 : r <= 2);
}

/* Pseudo moves of colour c as (r1, f1, r2, f2), written from the rules. */
static int slow_pseudo(const Slow *s, int c, int (*mv)[4])
{
    int n = 0;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            char p = s->b[r][f];
            if (col_of(p) != c)
                continue;
            char t = (char)toupper((unsigned char)p);
#define ADD(R, F)                                                         \
    do {                                                                  \
        if (inb(R, F) && col_of(s->b[R][F]) != c) {                       \
            mv[n][0] = r; mv[n][1] = f; mv[n][2] = R; mv[n][3] = F; n++;  \
        }                                                                 \
    } while (0)
            if (t == 'K' || t == 'A') {
                for (int dr = -1; dr <= 1; dr++)
                    for (int df = -1; df <= 1; df++) {
                        int diag = dr && df, orth = !dr != !df;
                        if ((t == 'K' ? orth : diag) &&
                            palace(r + dr, f + df, c))
                            ADD(r + dr, f + df);
                    }
            } else if (t == 'B') {
                for (int dr = -1; dr <= 1; dr += 2)
                    for (int df = -1; df <= 1; df += 2) {
                        int R = r + 2 * dr, F = f + 2 * df;
                        if (inb(R, F) && s->b[r + dr][f + df] == '.' &&
                            (c ? R >= 5 : R <= 4))
                            ADD(R, F);
                    }
            } else if (t == 'N') {
                static const int j[8][4] = {
                    {2, 1, 1, 0}, {2, -1, 1, 0}, {-2, 1, -1, 0},
                    {-2, -1, -1, 0}, {1, 2, 0, 1}, {-1, 2, 0, 1},
                    {1, -2, 0, -1}, {-1, -2, 0, -1}};
                for (int i = 0; i < 8; i++) {
                    int R = r + j[i][0], F = f + j[i][1];
                    if (inb(R, F) && s->b[r + j[i][2]][f + j[i][3]] == '.')
                        ADD(R, F);
                }
            } else if (t == 'R' || t == 'C') {
                static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                for (int i = 0; i < 4; i++) {
                    int R = r + d[i][0], F = f + d[i][1], screens = 0;
                    while (inb(R, F)) {
                        char q = s->b[R][F];
                        if (t == 'R') {
                            ADD(R, F);
                            if (q != '.')
                                break;
                        } else if (screens == 0) {
                            if (q == '.')
                                ADD(R, F);
                            else
                                screens = 1;
                        } else if (q != '.') {
                            ADD(R, F);
                            break;
                        }
                        R += d[i][0];
                        F += d[i][1];
                    }
                }
            } else if (t == 'P') {
                int fw = c ? -1 : 1;
                ADD(r + fw, f);
                if (c ? r <= 4 : r >= 5) {
                    ADD(r, f - 1);
                    ADD(r, f + 1);
                }
            }
#undef ADD
        }
    return n;
}

/* Whether colour c's general can be taken by the other side, or faces
 * the other general. */
static int slow_exposed(const Slow *s, int c)
{
    int kr = -1, kf = -1, or_ = -1, of = -1;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            if (s->b[r][f] == (c ? 'k' : 'K')) { kr = r; kf = f; }
            if (s->b[r][f] == (c ? 'K' : 'k')) { or_ = r; of = f; }
        }
    if (kf == of) {
        int lo = kr < or_ ? kr : or_, hi = kr < or_ ? or_ : kr, clear = 1;
        for (int r = lo + 1; r < hi; r++)
            if (s->b[r][kf] != '.')
                clear = 0;
        if (clear)
            return 1;
    }
    int mv[200][4];
    int n = slow_pseudo(s, !c, mv);
    for (int i = 0; i < n; i++)
        if (mv[i][2] == kr && mv[i][3] == kf)
            return 1;
    return 0;
}

static int slow_legal(const Slow *s, char (*out)[8])
{
    int mv[200][4], k = 0;
    int n = slow_pseudo(s, s->side, mv);
    for (int i = 0; i < n; i++) {
        Slow c = *s;
        c.b[mv[i][2]][mv[i][3]] = c.b[mv[i][0]][mv[i][1]];
        c.b[mv[i][0]][mv[i][1]] = '.';
        if (!slow_exposed(&c, s->side))
            snprintf(out[k++], 8, "%c%d%c%d", 'a' + mv[i][1], mv[i][0],
                     'a' + mv[i][3], mv[i][2]);
    }
    return k;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_slow_generator(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("xiangqi");
    Move mv[256];
    char fast[256][8], slow[256][8], fen[256];
    int games = tl_slow() ? 1000 : 40;
    long positions = 0;
    for (int gi = 0; gi < games; gi++) {
        Rng r;
        rng_seed(&r, 900 + (uint64_t)gi);
        void *st = tl_position("xiangqi", NULL, NULL, NULL);
        while (g->to_move(st) != PLAYER_TERMINAL) {
            int n = g->gen_moves(st, mv);
            for (int i = 0; i < n; i++)
                g->move_to_text(st, mv[i], fast[i], 8);
            g->to_text(st, fen, sizeof fen);
            Slow s;
            slow_read(&s, fen);
            int k = slow_legal(&s, slow);
            qsort(fast, (size_t)n, 8, cmp_str);
            qsort(slow, (size_t)k, 8, cmp_str);
            if (n != k || memcmp(fast, slow, (size_t)n * 8))
                fail_msg("%d moves, slow generator %d at %s", n, k, fen);
            positions++;
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        free(st);
    }
    assert_true(positions > 2000);
}

/* ------------------------------------------------------------- ends */

static void expect_result(const char *fen, const char *moves, int terminal,
                          double ret0)
{
    const GameVtbl *g = game_find("xiangqi");
    void *st = tl_position("xiangqi", NULL, fen, moves);
    int t = g->to_move(st) == PLAYER_TERMINAL;
    if (t != terminal)
        fail_msg("%s + '%s': terminal %d, expected %d", fen, moves, t,
                 terminal);
    if (terminal) {
        double r[2];
        g->returns(st, r);
        if (r[0] != ret0)
            fail_msg("%s + '%s': Red gets %g, expected %g", fen, moves, r[0],
                     ret0);
        /* the setup string keeps the result */
        char buf[256];
        g->to_text(st, buf, sizeof buf);
        void *c = tl_position("xiangqi", NULL, buf, NULL);
        double r2[2];
        assert_int_equal(g->to_move(c), PLAYER_TERMINAL);
        g->returns(c, r2);
        assert_true(r2[0] == ret0);
        free(c);
    }
    free(st);
}

static void test_ends(void **state)
{
    (void)state;
    /* stalemate loses */
    expect_result("4k4/9/4P4/9/9/9/9/9/3R1R3/4K4 b - - 0 1", NULL, 1, 1);
    /* perpetual check by the red chariot: Red loses at the third time */
    const char *pc = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    expect_result(pc, "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9", 0, 0);
    expect_result(pc, "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9", 1,
                  -1);
    /* quiet shuffling: a draw */
    expect_result(pc, "a1a2 e9e8 a2a1 e8e9 a1a2 e9e8 a2a1", 0, 0);
    expect_result(pc, "a1a2 e9e8 a2a1 e8e9 a1a2 e9e8 a2a1 e8e9", 1, 0);
    /* no attacking pieces: a draw */
    expect_result("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", NULL, 1, 0);
    expect_result("3ak4/9/9/9/9/9/9/9/9/3K1A3 w - - 7 1", NULL, 1, 0);
    /* 60 moves without a capture */
    expect_result("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80", "a1a2", 1, 0);
    expect_result("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 118 80", "a1a2", 0, 0);
    /* checkmate: chariot on the back rank, the other closing the file */
    expect_result("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1", "a8a9", 0, 0);
    expect_result("3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 0 1", "a1a9", 1, 1);
}

static void expect_bad(const char *fen, const char *msg)
{
    const GameVtbl *g = game_find("xiangqi");
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (!state_setup(g, st, NULL, fen, 1, &err))
        fail_msg("'%s' accepted", fen);
    if (!strstr(err.msg, msg))
        fail_msg("'%s': message '%s' lacks '%s'", fen, err.msg, msg);
    free(st);
}

static void test_setup_and_moves(void **state)
{
    (void)state;
    expect_bad("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "face each other");
    expect_bad("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", "outside its palace");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K5 w KQ - 0 1", "must be '-'");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K5 x - - 0 1", "w or b");
    expect_bad("4k4/9/9/9/9/9/9/9/3K5 w - - 0 1", "10 ranks");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K6 w - - 0 1", "more than 9");
    expect_bad("4k4/9/9/9/B8/9/9/9/9/3K5 w - - 0 1", "crossed the river");
    expect_bad("4k4/9/9/9/9/9/9/9/P8/3K5 w - - 0 1", "behind its start");
    expect_bad("4k4/9/9/9/9/9/9/9/RRR6/3K5 w - - 0 1", "too many");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K4Q w - - 0 1", "not a xiangqi piece");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 bogus", "bogus");
    const GameVtbl *g = game_find("xiangqi");
    void *st = tl_position("xiangqi", NULL, NULL, NULL);
    Move m;
    PlyError err = {{0}};
    assert_int_equal(g->text_to_move(st, "h2e2", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "h2e3", &m, &err), 0);
    assert_non_null(strstr(err.msg, "not a legal move"));
    assert_int_not_equal(g->text_to_move(st, "h2e10", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "", &m, &err), 0);
    /* a horse with a free leg */
    assert_int_equal(g->text_to_move(st, "b0c2", &m, &err), 0);
    free(st);
    /* the general keeps to the palace */
    st = tl_position("xiangqi", NULL, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
                     NULL);
    assert_int_not_equal(g->text_to_move(st, "d0c0", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "d0d1", &m, &err), 0);
    /* the general may not step onto the open file facing the other */
    assert_int_not_equal(g->text_to_move(st, "d0e0", &m, &err), 0);
    free(st);
}

static void test_eval(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("xiangqi");
    void *st = tl_position("xiangqi", NULL,
                           "4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1", NULL);
    Move mv[256], best = 0;
    int n = g->gen_moves(st, mv), bestv = -EVAL_WIN;
    void *c = malloc(g->info.state_size);
    for (int i = 0; i < n; i++) {
        memcpy(c, st, g->info.state_size);
        g->make(c, mv[i]);
        int v = g->eval(c, 0);
        assert_int_equal(v, -g->eval(c, 1));
        if (v > bestv) {
            bestv = v;
            best = mv[i];
        }
        assert_int_equal(g->is_noisy(st, mv[i]),
                         g->heuristic(st, mv[i]) >= 1000);
    }
    char buf[16];
    g->move_to_text(st, best, buf, sizeof buf);
    assert_string_equal(buf, "e1e5");
    assert_true(g->eval(st, 0) > -200 && g->eval(st, 0) < 200);
    free(c);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_oracle),
        cmocka_unit_test(test_slow_generator),
        cmocka_unit_test(test_ends),
        cmocka_unit_test(test_setup_and_moves),
        cmocka_unit_test(test_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
