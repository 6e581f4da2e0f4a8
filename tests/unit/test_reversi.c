/* test_reversi.c — Reversi: perft against Bik's published numbers, the
 * bitboard move generator against a slow array-board one on random
 * positions, setup and move parsing, passes and the end of the game, and
 * the bot hooks (eval, heuristic, playout). */
#include "core/format.h"
#include "core/record.h"
#include "core/timeman.h"
#include "games/reversi/reversi.h"
#include "testlib.h"
#include "tools/perft.h"

static const GameVtbl *G(void)
{
    const GameVtbl *g = game_find("reversi");
    if (!g)
        fail_msg("reversi is not registered");
    return g;
}

/* A state from a setup string (NULL: the start), failing on errors. */
static void *pos(const char *setup)
{
    return tl_position("reversi", NULL, setup, NULL);
}

/* ---- perft ---- */

/* Aart Bik, "Perft for Reversi" (/work/shared/oracles/reversi.md). */
static const uint64_t bik[] = {
    1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284,
};

static void test_perft_shallow(void **state)
{
    (void)state;
    void *st = pos(NULL);
    for (int d = 1; d <= 9; d++) {
        assert_int_equal(perft(G(), st, d, 0), bik[d]);
        /* no game ends within 9 plies: both conventions agree */
        assert_int_equal(perft(G(), st, d, 1), bik[d]);
    }
    free(st);
}

static void test_perft_deep(void **state)
{
    (void)state;
    if (!tl_slow())
        return;   /* about 5 s in release: make test-slow */
    void *st = pos(NULL);
    assert_int_equal(perft(G(), st, 10, 0), bik[10]);
    assert_int_equal(perft(G(), st, 10, 1), bik[10]);
    /* full-depth leaves, and with Bik's 228 higher leaves (game over) */
    assert_int_equal(perft(G(), st, 11, 0), 212258572ull);
    assert_int_equal(perft(G(), st, 11, 1), 212258800ull);
    free(st);
}

/* ---- a slow, obviously correct reference ---- */

/* Board as 64 chars 'X', 'O', '-' in setup order (a1..h1, a2..h2, ...),
 * square = 8 * row + col. */
typedef struct Ref {
    char sq[64];
    char side;     /* 'X', 'O', or '-' when the game is over */
} Ref;

static const int dirs[8][2] = {
    {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1},
};

/* Discs flipped by `me` at (row, col), walking each direction: a run of
 * at least one opposing disc closed by one of mine. */
static int ref_flips(const Ref *r, char me, int row, int col, int *out)
{
    char opp = me == 'X' ? 'O' : 'X';
    int n = 0;
    if (r->sq[row * 8 + col] != '-')
        return 0;
    for (int d = 0; d < 8; d++) {
        int run[8], k = 0;
        int y = row + dirs[d][0], x = col + dirs[d][1];
        while (y >= 0 && y < 8 && x >= 0 && x < 8 &&
               r->sq[y * 8 + x] == opp) {
            run[k++] = y * 8 + x;
            y += dirs[d][0];
            x += dirs[d][1];
        }
        if (k > 0 && y >= 0 && y < 8 && x >= 0 && x < 8 &&
            r->sq[y * 8 + x] == me)
            for (int i = 0; i < k; i++)
                out[n++] = run[i];
    }
    return n;
}

static int ref_moves(const Ref *r, char me, int *out)
{
    int n = 0, tmp[64];
    for (int s = 0; s < 64; s++)
        if (ref_flips(r, me, s / 8, s % 8, tmp) > 0)
            out[n++] = s;
    return n;
}

/* Plays square s (or -1 for a pass) for the side to move. */
static void ref_play(Ref *r, int s)
{
    char me = r->side, opp = me == 'X' ? 'O' : 'X';
    if (s >= 0) {
        int f[64];
        int n = ref_flips(r, me, s / 8, s % 8, f);
        assert_true(n > 0);
        for (int i = 0; i < n; i++)
            r->sq[f[i]] = me;
        r->sq[s] = me;
    }
    r->side = opp;
    int mv[64];
    if (s < 0 && ref_moves(r, opp, mv) == 0)
        r->side = '-';
}

static void ref_text(const Ref *r, char *buf)
{
    memcpy(buf, r->sq, 64);
    buf[64] = ' ';
    buf[65] = r->side;
    buf[66] = 0;
}

static void ref_from_text(Ref *r, const char *s)
{
    assert_int_equal(strlen(s), 66);
    memcpy(r->sq, s, 64);
    r->side = s[65];
}

/* Compares the game at st with the reference at every move: the move
 * list (as text, in ascending square order), and the position after each
 * move. Returns the number of moves. */
static int compare_position(const void *st, const char *where)
{
    const GameVtbl *g = G();
    char text[128], want[128], mtext[16];
    Ref r;
    assert_true(g->to_text(st, text, sizeof text) == 66);
    ref_from_text(&r, text);
    if (g->check(st))
        fail_msg("%s: check() fails on %s", where, text);
    if (r.side == '-') {
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        return 0;
    }
    assert_int_equal(g->to_move(st), r.side == 'X' ? 0 : 1);
    int ref[64], rn = ref_moves(&r, r.side, ref);
    Move mv[64];
    int n = g->gen_moves(st, mv);
    if (rn == 0) {
        if (n != 1 || g->move_to_text(st, mv[0], mtext, sizeof mtext) < 0 ||
            strcmp(mtext, "pass"))
            fail_msg("%s: %s: expected only a pass", where, text);
    } else if (n != rn) {
        fail_msg("%s: %s: %d moves, reference %d", where, text, n, rn);
    }
    unsigned char *child = malloc(g->info.state_size);
    for (int i = 0; i < n; i++) {
        Ref rc = r;
        if (rn) {
            char sq[3] = {(char)('a' + ref[i] % 8), (char)('1' + ref[i] / 8),
                          0};
            if (g->move_to_text(st, mv[i], mtext, sizeof mtext) < 0 ||
                strcmp(mtext, sq))
                fail_msg("%s: %s: move %d is '%s', reference '%s'", where,
                         text, i, mtext, sq);
            ref_play(&rc, ref[i]);
        } else {
            ref_play(&rc, -1);
        }
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[i]);
        ref_text(&rc, want);
        assert_true(g->to_text(child, text, sizeof text) == 66);
        if (strcmp(text, want))
            fail_msg("%s: after %s:\n  got  %s\n  want %s", where, mtext,
                     text, want);
        if (g->check(child))
            fail_msg("%s: check() fails after %s", where, mtext);
    }
    free(child);
    return n;
}

static void test_against_reference_random_games(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    Rng rng;
    rng_seed(&rng, 42);
    unsigned char *st = malloc(g->info.state_size);
    Move mv[64];
    int positions = 0, passes = 0, ends = 0;
    for (int game = 0; game < 300; game++) {
        PlyError err = {{0}};
        assert_int_equal(g->init(st, NULL, 1, &err), 0);
        char where[64];
        for (int ply = 0;; ply++) {
            snprintf(where, sizeof where, "game %d ply %d", game, ply);
            int n = compare_position(st, where);
            positions++;
            if (n == 0) {
                ends++;
                break;
            }
            n = g->gen_moves(st, mv);
            char t[16];
            g->move_to_text(st, mv[0], t, sizeof t);
            passes += !strcmp(t, "pass");
            g->make(st, mv[rng_below(&rng, (uint32_t)n)]);
        }
    }
    assert_true(positions > 10000);
    assert_int_equal(ends, 300);
    assert_true(passes > 0);
    free(st);
}

static void test_against_reference_random_boards(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    Rng rng;
    rng_seed(&rng, 7);
    int total_moves = 0, pass_positions = 0;
    for (int i = 0; i < 4000; i++) {
        char s[67];
        /* densities from sparse to nearly full, with lopsided colours */
        uint32_t fill = 10 + rng_below(&rng, 90);
        uint32_t black = 5 + rng_below(&rng, 90);
        for (int k = 0; k < 64; k++) {
            if (rng_below(&rng, 100) >= fill)
                s[k] = '-';
            else
                s[k] = rng_below(&rng, 100) < black ? 'X' : 'O';
        }
        s[64] = ' ';
        s[65] = rng_below(&rng, 2) ? 'X' : 'O';
        s[66] = 0;
        void *st = pos(s);
        char where[32];
        snprintf(where, sizeof where, "board %d", i);
        int n = compare_position(st, where);
        Move mv[64];
        char t[16];
        if (g->gen_moves(st, mv) == 1 &&
            g->move_to_text(st, mv[0], t, sizeof t) > 0 && !strcmp(t, "pass"))
            pass_positions++;
        total_moves += n;
        free(st);
    }
    assert_true(total_moves > 20000);
    assert_true(pass_positions > 50);
}

/* ---- text ---- */

#define START "---------------------------OX------XO--------------------------- X"

static void expect_setup_error(const char *s, const char *pat)
{
    const GameVtbl *g = G();
    void *st = state_alloc(g);
    PlyError err = {{0}};
    assert_int_equal(g->init(st, NULL, 1, &err), 0);
    if (g->from_text(st, s, &err) == 0)
        fail_msg("setup '%s' accepted", s);
    if (!strstr(err.msg, pat))
        fail_msg("setup '%s': message '%s' lacks '%s'", s, err.msg, pat);
    free(st);
}

static void test_setup_text(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    void *a = pos(NULL), *b = pos(START);
    char t[128];
    assert_int_equal(g->to_text(a, t, sizeof t), 66);
    assert_string_equal(t, START);
    assert_true(g->hash(a) == g->hash(b));
    assert_int_equal(g->score(a, 0), 2);
    assert_int_equal(g->score(a, 1), 2);
    /* d4 is white: the square named d4 is the 4th of the 4th row */
    assert_int_equal(t[3 * 8 + 3], 'O');
    assert_int_equal(t[3 * 8 + 4], 'X');
    /* a too-short buffer fails */
    assert_true(g->to_text(a, t, 66) < 0);
    free(a);
    free(b);

    expect_setup_error("", "has 0 squares");
    expect_setup_error("---------------------------OX------XO", "has 37 squares");
    expect_setup_error("---------------------------OX------XO--------------------------",
                       "has 63 squares");
    expect_setup_error("---------------------------OX------XO---------------------------",
                       "after the 64 squares");
    expect_setup_error("---------------------------OX------XO---------------------------X",
                       "after the 64 squares");
    expect_setup_error("---------------------------OX------XO--------------------------- ",
                       "not '(nothing)'");
    expect_setup_error("---------------------------OX------XO--------------------------- B",
                       "not 'B'");
    expect_setup_error("---------------------------OX------XO--------------------------- x",
                       "not 'x'");
    expect_setup_error("---------------------------OX------XO--------------------------- X ",
                       "unexpected text");
    expect_setup_error("---------------------------OX------XO--------------------------- XO",
                       "unexpected text");
    expect_setup_error("------------------Z--------OX------XO--------------------------- X",
                       "square c3 holds 'Z'");
    expect_setup_error("---------------------------Ox------XO--------------------------- X",
                       "square e4 holds 'x'");
    expect_setup_error("---------------------------OX------XO-----------------------\t--- X",
                       "holds byte 0x09");
    expect_setup_error(START "\n", "unexpected text");
    expect_setup_error("---------------------------OX------XO--------------------------- -",
                       "a side can still move");
}

static void expect_move(const void *st, const char *s, const char *back)
{
    const GameVtbl *g = G();
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, s, &m, &err))
        fail_msg("move '%s' rejected: %s", s, err.msg);
    char t[16];
    assert_true(g->move_to_text(st, m, t, sizeof t) > 0);
    assert_string_equal(t, back);
    assert_true(state_is_legal(g, st, m));
}

static void expect_move_error(const void *st, const char *s, const char *pat)
{
    Move m;
    PlyError err = {{0}};
    if (G()->text_to_move(st, s, &m, &err) == 0)
        fail_msg("move '%s' accepted", s);
    if (!strstr(err.msg, pat))
        fail_msg("move '%s': message '%s' lacks '%s'", s, err.msg, pat);
}

static void test_move_text(void **state)
{
    (void)state;
    void *st = pos(NULL);
    expect_move(st, "d3", "d3");
    expect_move(st, "D3", "d3");
    expect_move(st, "c4", "c4");
    expect_move(st, "F5", "f5");
    expect_move(st, "e6", "e6");
    expect_move_error(st, "d6", "flips no disc");
    expect_move_error(st, "a1", "flips no disc");
    expect_move_error(st, "d4", "not empty");
    expect_move_error(st, "pass", "cannot pass");
    expect_move_error(st, "i1", "a square a1..h8");
    expect_move_error(st, "a9", "a square a1..h8");
    expect_move_error(st, "a0", "a square a1..h8");
    expect_move_error(st, "d33", "a square a1..h8");
    expect_move_error(st, "d", "a square a1..h8");
    expect_move_error(st, "", "a square a1..h8");
    expect_move_error(st, "3d", "a square a1..h8");
    expect_move_error(st, "passs", "a square a1..h8");
    expect_move_error(st, " d3", "a square a1..h8");
    free(st);
}

/* ---- passes and the end ---- */

static Move one_move(const void *st, const char *s)
{
    Move m;
    PlyError err = {{0}};
    if (G()->text_to_move(st, s, &m, &err))
        fail_msg("move '%s' rejected: %s", s, err.msg);
    return m;
}

static void test_pass_and_end(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    /* Black (X) at c1 can flip nothing; White can play d1. */
    void *st = pos("OOX------------------------------------------------------------- X");
    Move mv[64];
    char t[128];
    assert_int_equal(g->to_move(st), 0);
    assert_int_equal(g->gen_moves(st, mv), 1);
    assert_true(g->move_to_text(st, mv[0], t, sizeof t) > 0);
    assert_string_equal(t, "pass");
    expect_move_error(st, "d1", "must pass");
    expect_move(st, "pass", "pass");
    expect_move(st, "PASS", "pass");
    g->make(st, one_move(st, "pass"));
    assert_int_equal(g->to_move(st), 1);
    assert_int_equal(g->gen_moves(st, mv), 1);
    assert_true(g->move_to_text(st, mv[0], t, sizeof t) > 0);
    assert_string_equal(t, "d1");
    g->make(st, mv[0]);
    /* Black has no disc left: neither side can place, Black still passes
     * once (Bik's convention), then the game is over. */
    g->to_text(st, t, sizeof t);
    assert_string_equal(t, "OOOO------------------------------------------------------------ X");
    assert_int_equal(g->to_move(st), 0);
    assert_int_equal(g->gen_moves(st, mv), 1);
    g->make(st, one_move(st, "pass"));
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    assert_int_equal(g->gen_moves(st, mv), 0);
    g->to_text(st, t, sizeof t);
    assert_string_equal(t, "OOOO------------------------------------------------------------ -");
    double r[2];
    g->returns(st, r);
    assert_true(r[0] == -1 && r[1] == 1);
    assert_int_equal(g->score(st, 1), 4);
    expect_move_error(st, "pass", "game is over");
    expect_move_error(st, "e1", "game is over");
    assert_int_equal(g->check(st), 0);
    /* the finished game read back */
    void *b = pos("OOOO------------------------------------------------------------ -");
    assert_true(g->hash(b) == g->hash(st));
    assert_int_equal(g->to_move(b), PLAYER_TERMINAL);
    free(b);
    free(st);
}

static void test_full_board(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    char s[67];
    /* 32-32 draw on a full board */
    for (int i = 0; i < 64; i++)
        s[i] = i < 32 ? 'X' : 'O';
    strcpy(s + 64, " -");
    void *st = pos(s);
    double r[2];
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 0 && r[1] == 0);
    free(st);
    /* 33-31 with White to move: White passes, then it is over */
    s[32] = 'X';
    strcpy(s + 64, " O");
    st = pos(s);
    assert_int_equal(g->to_move(st), 1);
    g->make(st, one_move(st, "pass"));
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 1 && r[1] == -1);
    assert_int_equal(g->score(st, 0), 33);
    free(st);
}

/* Positions after `depth` plies where the side to move has only a pass
 * and that pass ends the game. */
static long count_dead(const GameVtbl *g, const unsigned char *st,
                       int depth, unsigned char *buf)
{
    Move mv[64];
    size_t sz = g->info.state_size;
    if (g->to_move(st) == PLAYER_TERMINAL)
        return 0;
    int n = g->gen_moves(st, mv);
    if (depth == 0) {
        if (n != 1)
            return 0;
        memcpy(buf, st, sz);
        g->make(buf, mv[0]);
        return g->to_move(buf) == PLAYER_TERMINAL;
    }
    long k = 0;
    for (int i = 0; i < n; i++) {
        memcpy(buf, st, sz);
        g->make(buf, mv[i]);
        k += count_dead(g, buf, depth - 1, buf + sz);
    }
    return k;
}

/* Bik's split at depth 11 has 228 "higher leaves": games over at ply 10,
 * i.e. boards blocked for both sides after 9 placements, closed by a pass
 * at ply 10 (that pass is why perft 10 is 24571284). */
static void test_games_over_at_ply_10(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    unsigned char *buf = malloc(g->info.state_size * 12);
    void *st = pos(NULL);
    assert_int_equal(count_dead(g, st, 9, buf), 228);
    assert_int_equal(count_dead(g, st, 8, buf), 0);
    free(buf);
    free(st);
}

/* ---- bot hooks ---- */

static void test_eval_and_heuristic(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    Rng rng;
    rng_seed(&rng, 5);
    unsigned char *st = malloc(g->info.state_size);
    Move mv[64];
    for (int game = 0; game < 100; game++) {
        PlyError err = {{0}};
        g->init(st, NULL, 1, &err);
        while (g->to_move(st) != PLAYER_TERMINAL) {
            int e0 = g->eval(st, 0), e1 = g->eval(st, 1);
            assert_int_equal(e0, -e1);
            assert_true(e0 > -EVAL_MAX && e0 < EVAL_MAX);
            int n = g->gen_moves(st, mv);
            for (int i = 0; i < n; i++) {
                char t[8];
                g->move_to_text(st, mv[i], t, sizeof t);
                int h = g->heuristic(st, mv[i]);
                int corner = !strcmp(t, "a1") || !strcmp(t, "h1") ||
                             !strcmp(t, "a8") || !strcmp(t, "h8");
                assert_int_equal(g->is_noisy(st, mv[i]), corner);
                if (corner)
                    assert_int_equal(h, 1000);
                else
                    assert_true(h < 1000);
            }
            g->make(st, mv[rng_below(&rng, (uint32_t)n)]);
        }
        int e0 = g->eval(st, 0);
        assert_int_equal(e0, -g->eval(st, 1));
        double r[2];
        g->returns(st, r);
        assert_true((r[0] > 0) == (e0 > 0) && (r[0] < 0) == (e0 < 0));
    }
    free(st);

    /* X square next to an empty corner is avoided; next to a taken corner
     * it is not. Black to move; b2 flips c3 against d4. */
    void *a = pos("------------------O--------XX------XO--------------------------- X");
    assert_true(g->heuristic(a, one_move(a, "b2")) < 0);
    free(a);
    a = pos("X-----------------O--------XX------XO--------------------------- X");
    assert_true(g->heuristic(a, one_move(a, "b2")) >= 0);
    free(a);

    /* a corner owned is worth more than one owned by the opponent */
    void *c1 = pos("X-------------------------OOX------XO--------------------------- O");
    void *c2 = pos("O-------------------------OOX------XO--------------------------- O");
    assert_true(g->eval(c1, 0) > g->eval(c2, 0));
    free(c1);
    free(c2);
}

static void test_playout(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    size_t sz = g->info.state_size;
    unsigned char *a = malloc(sz), *b = malloc(sz), *c = malloc(sz);
    int wins[3] = {0, 0, 0};
    for (int i = 0; i < 500; i++) {
        PlyError err = {{0}};
        g->init(a, NULL, 1, &err);
        Rng r1, r2;
        rng_seed(&r1, (uint64_t)i);
        /* from the start and from a few plies in */
        Move mv[64];
        for (int k = 0; k < i % 20; k++) {
            int n = g->gen_moves(a, mv);
            g->make(a, mv[rng_below(&r1, (uint32_t)n)]);
        }
        memcpy(b, a, sz);
        rng_seed(&r1, 99 + (uint64_t)i);
        r2 = r1;
        g->playout(a, &r1);
        g->playout(b, &r2);
        assert_memory_equal(a, b, sz);   /* same seed, same game */
        assert_int_equal(g->to_move(a), PLAYER_TERMINAL);
        assert_int_equal(g->check(a), 0);
        char t[128];
        g->to_text(a, t, sizeof t);
        g->init(c, NULL, 1, &err);
        assert_int_equal(g->from_text(c, t, &err), 0);
        assert_true(g->hash(c) == g->hash(a));
        double r[2];
        g->returns(a, r);
        wins[r[0] > 0 ? 0 : r[0] < 0 ? 1 : 2]++;
    }
    /* both colours win some playouts */
    assert_true(wins[0] > 50 && wins[1] > 50);
    free(a);
    free(b);
    free(c);
}

static void test_render(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    void *st = pos(NULL);
    char buf[2048];
    assert_true(g->render(st, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "a b c d e f g h"));
    assert_non_null(strstr(buf, " 4 . . + O X . . . 4"));
    assert_non_null(strstr(buf, " 3 . . . + . . . . 3"));
    assert_non_null(strstr(buf, "Black (X) 2, White (O) 2"));
    assert_true(g->render(st, buf, 20) < 0);
    free(st);
}

/* GTP as grhino writes it: Ply's squares in upper case, and pass. */
static void test_gtp_format(void **state)
{
    (void)state;
    const GameFormat *f = game_format(game_find("reversi"), "gtp");
    assert_non_null(f);
    assert_int_equal(f->board_size, 8);
    char buf[16];
    assert_int_equal(format_move_to_wire(f, "c4", buf, sizeof buf), 2);
    assert_string_equal(buf, "C4");
    assert_int_equal(format_move_to_wire(f, "pass", buf, sizeof buf), 4);
    assert_string_equal(buf, "pass");
    assert_int_equal(format_move_from_wire(f, "H8", buf, sizeof buf), 2);
    assert_string_equal(buf, "h8");
    assert_int_equal(format_move_from_wire(f, "PASS", buf, sizeof buf), 4);
    assert_string_equal(buf, "pass");
    assert_int_equal(format_move_to_wire(f, "c4", buf, 2), -1);
    /* every legal move of a game goes there and back */
    const GameVtbl *g = game_find("reversi");
    void *st = tl_position("reversi", NULL, NULL, NULL);
    Move moves[64];
    for (int ply = 0; ply < 200 && g->to_move(st) >= 0; ply++) {
        int n = g->gen_moves(st, moves);
        for (int i = 0; i < n; i++) {
            char own[16], wire[16], back[16];
            g->move_to_text(st, moves[i], own, sizeof own);
            assert_true(format_move_to_wire(f, own, wire, sizeof wire) > 0);
            assert_true(format_move_from_wire(f, wire, back, sizeof back) > 0);
            assert_string_equal(own, back);
        }
        g->make(st, moves[(unsigned)ply * 7u % (unsigned)n]);
    }
    free(st);
}

/* ---- SGF (GM[2]) ---- */

typedef struct Got {
    int n;
    char game[32], setup[80], moves[1024];
    int winner;
} Got;

static int keep(const Record *r, void *ctx, PlyError *err)
{
    (void)err;
    Got *g = ctx;
    g->n++;
    snprintf(g->game, sizeof g->game, "%s", r->game);
    snprintf(g->setup, sizeof g->setup, "%s", r->setup ? r->setup : "");
    size_t k = 0;
    g->moves[0] = 0;
    for (int i = 0; i < r->nmoves && k < sizeof g->moves; i++)
        k += (size_t)snprintf(g->moves + k, sizeof g->moves - k, "%s%s",
                              i ? " " : "", r->moves[i]);
    g->winner = record_winner(r);
    return 0;
}

static int read_sgf(const char *text, Got *got, PlyError *err)
{
    const GameFormat *f = game_format(G(), "sgf");
    memset(got, 0, sizeof *got);
    return f->read_records(G(), text, strlen(text), keep, got, err);
}

/* Removes every pass "B[]" / "W[]" node from an SGF text in place. */
static void drop_passes(char *t)
{
    char *w = t;
    for (const char *r = t; *r;) {
        if (r[0] == ';' && (r[1] == 'B' || r[1] == 'W') && r[2] == '[' &&
            r[3] == ']') {
            r += 4;
            continue;
        }
        *w++ = *r++;
    }
    *w = 0;
}

static void test_sgf(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    const GameFormat *f = game_format(g, "sgf");
    assert_non_null(f);
    const char *setups[] = {
        "", "---------------------------OX------XO--------------------------- X",
        "X-------------------------OOX------XOX-------------------------O O",
    };
    int passes_seen = 0;
    for (int game = 0; game < 24; game++) {
        const char *setup = setups[game % 3];
        PlyError err = {{0}};
        void *st = state_alloc(g);
        assert_int_equal(state_setup(g, st, NULL, setup, 1, &err), 0);
        char mvbuf[130][8], want[1024] = "";
        const char *mv[130];
        int n = 0;
        size_t k = 0;
        Move ms[64];
        /* a varied but fixed game: the move picked by a small LCG */
        uint32_t x = 12345u + 977u * (uint32_t)game;
        while (g->to_move(st) >= 0 && n < 130) {
            int nm = g->gen_moves(st, ms);
            x = x * 1103515245u + 12345u;
            Move m = ms[(x >> 16) % (uint32_t)nm];
            g->move_to_text(st, m, mvbuf[n], sizeof mvbuf[n]);
            passes_seen += !strcmp(mvbuf[n], "pass");
            mv[n] = mvbuf[n];
            k += (size_t)snprintf(want + k, sizeof want - k, "%s%s",
                                  n ? " " : "", mvbuf[n]);
            n++;
            g->make(st, m);
        }
        double ret[2];
        g->returns(st, ret);
        int winner = ret[0] > ret[1] ? 0 : ret[1] > ret[0] ? 1 : -1;
        Record r;
        record_init(&r);
        r.game = g->info.name;
        r.setup = setup;
        r.nseats = 2;
        r.seats[0] = "Kuro]x";
        r.seats[1] = "Shiro";
        r.nmoves = n;
        r.moves = mv;
        record_set_winner(&r, winner, "normal");
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        assert_int_equal(f->write_record(g, &r, mem, &err), 0);
        fclose(mem);
        assert_non_null(strstr(text, "GM[2]"));
        assert_non_null(strstr(text, "SZ[8]"));
        assert_non_null(strstr(text, "PB[Kuro\\]x]"));
        assert_int_equal(strstr(text, "AB[") != NULL, game % 3 == 2);
        if (winner >= 0) {
            char re[16];
            snprintf(re, sizeof re, "RE[%c+%d]", winner ? 'W' : 'B',
                     g->score(st, winner) - g->score(st, !winner));
            assert_non_null(strstr(text, re));
        }
        assert_true(f->claims(text, len));
        assert_false(game_format(game_find("go"), "sgf")->claims(text, len));
        assert_false(game_format(game_find("gomoku"), "sgf")->claims(text,
                                                                      len));
        Got got;
        if (read_sgf(text, &got, &err))
            fail_msg("%s\n%s", err.msg, text);
        assert_int_equal(got.n, 1);
        assert_string_equal(got.game, "reversi");
        assert_string_equal(got.moves, want);
        assert_int_equal(got.winner, winner);
        if (game % 3 == 2)
            assert_string_equal(got.setup, setup);
        else
            assert_string_equal(got.setup, "");
        /* passes left out (as many Othello files do) are filled in */
        drop_passes(text);
        if (read_sgf(text, &got, &err))
            fail_msg("%s\n%s", err.msg, text);
        assert_string_equal(got.moves, want);
        free(text);
        free(st);
    }
    assert_true(passes_seen > 0);
    /* errors name the line and the cause */
    Got got;
    PlyError err = {{0}};
    assert_int_equal(read_sgf("(;GM[1]SZ[8];B[dc])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "GM[1] is not Othello"));
    assert_int_equal(read_sgf("(;GM[2]SZ[9];B[dc])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "SZ[9]"));
    assert_int_equal(read_sgf("(;GM[2]\n;B[dc]\n;W[dc])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "line 3: move 2 W[dc] (d3) is illegal"));
    assert_int_equal(read_sgf("(;GM[2];B[i9])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "not a square"));
    assert_int_equal(read_sgf("(;GM[2];W[dc])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "W[dc] (d3) is illegal"));
    assert_int_equal(read_sgf("(;GM[2];B[dc];AB[aa])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "not supported"));
    assert_int_equal(read_sgf("(;GM[2];B[dc]", &got, &err), -1);
}

/* The plies_left hook: the empty squares less the last 14 the solver
 * settles, at least 2; what a shared clock makes of it. */
static void test_plies_left(void **state)
{
    (void)state;
    const GameVtbl *g = G();
    assert_non_null(g->plies_left);
    Reversi *st = pos(NULL);
    assert_int_equal(g->plies_left(st), 46);
    Clock c = {.left_ms = 60000};
    assert_int_equal(time_moves_left(g, st, &c, 1), TIME_MOVES_MAX);
    Move mv[REVERSI_MAX_MOVES];
    int checked = 0;
    for (int ply = 0; !st->over; ply++) {
        int e = 64 - rv_popcount(st->disc[0] | st->disc[1]);
        int want = e - 14 > 2 ? e - 14 : 2;
        assert_int_equal(g->plies_left(st), want);
        if (e == 30) {
            /* 16 plies: the mover's 9 moves */
            assert_int_equal(time_moves_left(g, st, &c, 1), 9);
            checked++;
        }
        int n = g->gen_moves(st, mv);
        g->make(st, mv[(unsigned)ply * 5u % (unsigned)n]);
    }
    assert_true(checked >= 1);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtp_format),
        cmocka_unit_test(test_perft_shallow),
        cmocka_unit_test(test_perft_deep),
        cmocka_unit_test(test_against_reference_random_games),
        cmocka_unit_test(test_against_reference_random_boards),
        cmocka_unit_test(test_setup_text),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_pass_and_end),
        cmocka_unit_test(test_full_board),
        cmocka_unit_test(test_games_over_at_ply_10),
        cmocka_unit_test(test_eval_and_heuristic),
        cmocka_unit_test(test_playout),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_sgf),
        cmocka_unit_test(test_plies_left),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
