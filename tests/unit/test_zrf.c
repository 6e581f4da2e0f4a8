/* test_zrf.c — the ZRF loader: reader and preprocessor errors and limits,
 * perft of the test files against known counts and the C games, text
 * round trips over random games. */
#include <unistd.h>

#include "testlib.h"

#include "core/rng.h"
#include "games/zrf/zrf.h"
#include "games/zrf/zrf_api.h"
#include "tools/perft.h"

static char *no_file(const char *path, size_t *len, PlyError *err)
{
    (void)len;
    ply_fail(err, "%s: no includes in this test", path);
    return NULL;
}

/* Reads text; 0 or -1 with the message in err. */
static int read_text(const char *text, ZReader *r, PlyError *err)
{
    zr_init(r, no_file, err);
    return zr_read(r, "t.zrf", text, strlen(text));
}

static void test_reader_errors(void **state)
{
    (void)state;
    ZReader r;
    PlyError err = {{0}};
    assert_int_equal(read_text("(game\n(title \"x\")\n", &r, &err), -1);
    assert_non_null(strstr(err.msg, "never closed"));
    zr_free(&r);
    assert_int_equal(read_text("(a)\n\n)", &r, &err), -1);
    assert_non_null(strstr(err.msg, "t.zrf:3"));
    zr_free(&r);
    assert_int_equal(read_text("(a \"open string)", &r, &err), -1);
    assert_non_null(strstr(err.msg, "string"));
    zr_free(&r);
    /* a macro that calls itself stops at the expansion bound */
    assert_int_equal(read_text("(define m (m))\n(game (m))", &r, &err), -1);
    assert_non_null(strstr(err.msg, "macro"));
    zr_free(&r);
    /* exponential expansion stops at the node bound */
    char big[4096] = "(define a0 x x)\n";
    for (int i = 1; i < 40; i++) {
        char line[64];
        snprintf(line, sizeof line, "(define a%d (a%d) (a%d))\n", i, i - 1,
                 i - 1);
        strcat(big, line);
    }
    strcat(big, "(game (a39))");
    assert_int_equal(read_text(big, &r, &err), -1);
    zr_free(&r);
    /* deep nesting */
    char deep[2000];
    memset(deep, '(', 1000);
    memset(deep + 1000, ')', 999);
    deep[1999] = 0;
    assert_int_equal(read_text(deep, &r, &err), -1);
    assert_non_null(strstr(err.msg, "nested"));
    zr_free(&r);
}

static void test_macros(void **state)
{
    (void)state;
    ZReader r;
    PlyError err = {{0}};
    assert_int_equal(read_text(
        "; comment\n(define step ($1 (verify not-friend?) add))\n"
        "(define paste to-$1$2)\n"
        "(define bare mark n back)\n"
        "(GAME (Moves (step N) (paste a b) (x bare y) \"s $1\"))",
        &r, &err), 0);
    const ZNode *g = r.top;
    assert_string_equal(zr_head(g), "game");
    const ZNode *moves = zr_nth(g, 1);
    assert_string_equal(zr_head(moves), "moves");
    const ZNode *t = zr_nth(moves, 1);
    assert_int_equal(t->type, ZN_LIST);
    assert_string_equal(zr_nth(t, 0)->text, "n");
    assert_string_equal(zr_nth(t, 0)->orig, "N");
    assert_string_equal(zr_head(zr_nth(t, 1)), "verify");
    assert_string_equal(zr_nth(t, 2)->text, "add");
    assert_string_equal(zr_nth(moves, 2)->text, "to-ab");
    const ZNode *x = zr_nth(moves, 3);
    assert_int_equal(zr_len(x), 5);
    assert_string_equal(zr_nth(x, 1)->text, "mark");
    assert_string_equal(zr_nth(x, 3)->text, "back");
    assert_int_equal(zr_nth(moves, 4)->type, ZN_STRING);
    zr_free(&r);
}

static void test_rules_check(void **state)
{
    (void)state;
    char path[] = "/tmp/ply-test-zrf-XXXXXX.zrf";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    const char *text =
        "(game (players A B)\n"
        " (board (grid (dimensions (\"a/b\" (1 0)) (\"1/2\" (0 1)))\n"
        "  (directions (n 0 -1))))\n"
        " (piece (name P)\n"
        "  (moves (n frobnicate add))))\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    PlyError err = {{0}};
    assert_int_equal(game_rules_check(path, 0, out, &err), 1);
    fclose(out);
    assert_non_null(strstr(buf, "frobnicate"));
    assert_non_null(strstr(buf, ":5)"));
    free(buf);
    assert_null(game_load(path, &err));
    assert_non_null(strstr(err.msg, "frobnicate"));
    unlink(path);
}

/* A variant's players form replaces the game's; two in one game are an
 * error (found by fuzz_zrf: five seats, then four more, overran the
 * eight-seat table). */
static void test_variant_players(void **state)
{
    (void)state;
    const char *rest =
        " (board (grid (dimensions (\"a/b/c\" (1 0)) (\"1/2/3\" (0 1)))\n"
        "  (directions (n 0 -1))))\n"
        " (piece (name P) (drops ((verify empty?) add))))\n";
    char text[1024];
    snprintf(text, sizeof text,
             "(game (title \"g\") (players A B C D E)\n%s"
             "(variant (title \"v\") (players W X Y Z))\n", rest);
    for (int v = 0; v < 2; v++) {
        ZReader r;
        PlyError err = {{0}};
        assert_int_equal(read_text(text, &r, &err), 0);
        char unsup[256];
        ZGame *g = zrf_compile(&r, v, &err, unsup, sizeof unsup);
        zr_free(&r);
        if (!g)
            fail_msg("variant %d: %s", v, err.msg);
        assert_int_equal(g->nplayers, v ? 4 : 5);
        assert_int_equal(g->nseats, v ? 4 : 5);
        for (int i = 0; i < g->nseats; i++)
            assert_int_equal(g->zplayer[i], i);
        zrf_game_free(g);
    }
    snprintf(text, sizeof text,
             "(game (title \"g\") (players A B C D E)\n"
             " (players W X Y Z)\n%s", rest);
    ZReader r;
    PlyError err = {{0}};
    assert_int_equal(read_text(text, &r, &err), 0);
    char unsup[256];
    ZGame *g = zrf_compile(&r, 0, &err, unsup, sizeof unsup);
    zr_free(&r);
    assert_null(g);
    assert_non_null(strstr(err.msg, "players given twice"));
    assert_non_null(strstr(err.msg, "t.zrf:2"));
}

static void test_tictactoe_perft(void **state)
{
    (void)state;
    static const uint64_t want[] = {9, 72, 504, 3024, 15120, 54720, 148176,
                                    200448, 127872};
    const GameVtbl *g = game_find("tests/zrf/tictactoe.zrf");
    assert_non_null(g);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    for (int d = 1; d <= 9; d++)
        assert_int_equal(perft(g, st, d, 0), want[d - 1]);
    free(st);
}

static void test_chess_perft(void **state)
{
    (void)state;
    const GameVtbl *z = game_find("tests/zrf/chess.zrf");
    const GameVtbl *c = game_find("chess");
    assert_non_null(z);
    assert_non_null(c);
    void *zs = tl_position(z->info.name, NULL, NULL, NULL);
    void *cs = tl_position("chess", NULL, NULL, NULL);
    int depth = tl_slow() ? 4 : 3;
    for (int d = 1; d <= depth; d++)
        assert_int_equal(perft(z, zs, d, 0), perft(c, cs, d, 0));
    free(zs);
    free(cs);
}

/* English checkers: whole turns (jump sequences composed) against the C
 * game's perft. */
static void test_checkers_perft(void **state)
{
    (void)state;
    const GameVtbl *z = game_find("tests/zrf/checkers.zrf");
    const GameVtbl *c = game_find("draughts-english");
    assert_non_null(z);
    assert_non_null(c);
    void *zs = tl_position(z->info.name, NULL, NULL, NULL);
    void *cs = tl_position("draughts-english", NULL, NULL, NULL);
    int depth = tl_slow() ? 9 : 6;
    for (int d = 1; d <= depth; d++) {
        uint64_t n = 0;
        assert_int_equal(game_turn_perft(z, zs, d, &n), 0);
        assert_int_equal(n, perft(c, cs, d, 0));
    }
    /* plies: a jump sequence counts each jump */
    assert_int_equal(perft(z, zs, 3, 0), 302);
    free(zs);
    free(cs);
}

/* The repetition goal: the player who makes a position appear the
 * third time loses (tests/zrf/shuffle.zrf). */
static void test_repetition(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/shuffle.zrf");
    assert_non_null(g);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    static const uint64_t want[] = {1, 1, 1, 2, 1, 1, 1, 2, 0};
    for (int d = 1; d <= 9; d++)
        assert_int_equal(perft(g, st, d, 0), want[d - 1]);
    static const char *const line[] = {"a1-b1", "d1-c1", "b1-a1", "c1-d1",
                                       "a1-b1", "d1-c1", "b1-a1", "c1-d1"};
    PlyError err = {{0}};
    for (int i = 0; i < 8; i++) {
        assert_true(g->to_move(st) == i % 2);
        Move m;
        assert_int_equal(g->text_to_move(st, line[i], &m, &err), 0);
        g->make(st, m);
    }
    /* the start position for the third time, made by Black */
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] > 0.5 && r[1] < -0.5);
    /* a position set up from text starts a new history */
    void *st2 = tl_position(g->info.name, NULL, NULL, NULL);
    for (int i = 0; i < 4; i++) {
        Move m;
        assert_int_equal(g->text_to_move(st2, line[i], &m, &err), 0);
        g->make(st2, m);
    }
    char text[512];
    assert_true(g->to_text(st2, text, sizeof text) > 0);
    assert_int_equal(state_setup(g, st2, NULL, text, 1, &err), 0);
    for (int i = 4; i < 8; i++) {
        Move m;
        assert_int_equal(g->text_to_move(st2, line[i], &m, &err), 0);
        g->make(st2, m);
    }
    assert_int_equal(g->to_move(st2), 0);
    free(st);
    free(st2);
}

/* The captured goal: taking the enemy king wins, although the side left
 * without a move would otherwise draw (tests/zrf/kingtake.zrf). */
/* Position names that differ only in case name different positions when a
 * board defines both (tests/zrf/twogrids.zrf: a1..c3 and A1..C3, the C
 * file killed); merged, the c file was killed with it and the setup
 * failed. Hand-counted: White has 5 steps north, Black 4 south, and each
 * White step but A1-A2 blocks one of them. */
static void test_position_case(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/twogrids.zrf");
    assert_non_null(g);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    assert_int_equal(perft(g, st, 1, 0), 5);
    assert_int_equal(perft(g, st, 2, 0), 16);
    PlyError err = {{0}};
    Move a, b, m;
    assert_int_equal(g->text_to_move(st, "a1-a2", &a, &err), 0);
    assert_int_equal(g->text_to_move(st, "A1-A2", &b, &err), 0);
    assert_true(a != b);
    assert_int_equal(g->text_to_move(st, "c1-c2", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "C1-C2", &m, &err), 0);
    char text[4096];
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_non_null(strstr(text, "a1=0.Man"));
    assert_non_null(strstr(text, "A1=0.Man"));
    assert_non_null(strstr(text, "c1=0.Man"));
    free(st);
}

/* tests/zrf/reversi.zrf (flips by mark, back and flip, "pass turn"
 * forced, count-condition) against the C reversi: perft from the start,
 * and at every position of random games, set up in both (the ZRF
 * setup text written from the C board), perft 2, who moves, the end and
 * its result. The C game ends on the pass after which the other side
 * cannot move either; the ZRF game must end there too (a forced pass
 * right after a forced pass has no move). */
static void test_reversi_zrf(void **state)
{
    (void)state;
    const GameVtbl *z = game_find("tests/zrf/reversi.zrf");
    const GameVtbl *c = game_find("reversi");
    assert_non_null(z);
    assert_non_null(c);
    void *zs = tl_position(z->info.name, NULL, NULL, NULL);
    void *cs = tl_position("reversi", NULL, NULL, NULL);
    for (int d = 1; d <= 6; d++)
        assert_int_equal(perft(z, zs, d, 0), perft(c, cs, d, 0));
    Rng r;
    rng_seed(&r, 77);
    int passes = 0, ends = 0;
    for (int game = 0; game < 12; game++) {
        free(cs);
        cs = tl_position("reversi", NULL, NULL, NULL);
        int passed = 0;
        for (int ply = 0; ply < 200; ply++) {
            char ct[128], zt[2048];
            assert_true(c->to_text(cs, ct, sizeof ct) > 0);
            int side = ct[65] == 'O';
            int n = snprintf(zt, sizeof zt, "%d -1 -1 -1 -1 %d 0 0 0%s |",
                             side, ply, passed ? " P" : "");
            for (int i = 0; i < 64; i++)
                if (ct[i] == 'X' || ct[i] == 'O')
                    n += snprintf(zt + n, sizeof zt - (size_t)n,
                                  " %c%d=%d.Disc", 'a' + i % 8, 1 + i / 8,
                                  ct[i] == 'O');
            snprintf(zt + n, sizeof zt - (size_t)n, " |");
            free(zs);
            zs = tl_position(z->info.name, NULL, zt, NULL);
            int cm = c->to_move(cs);
            if (ct[65] == '-') {
                /* over in C: the ZRF game ended at the same move */
                break;
            }
            assert_int_equal(z->to_move(zs), cm);
            assert_int_equal(perft(z, zs, 2, 0), perft(c, cs, 2, 0));
            Move mv[64];
            int nm = c->gen_moves(cs, mv);
            assert_true(nm > 0);
            Move m = mv[rng_below(&r, (uint32_t)nm)];
            char txt[16];
            assert_true(c->move_to_text(cs, m, txt, sizeof txt) > 0);
            passed = !strcmp(txt, "pass");
            passes += passed;
            char ztxt[24];
            snprintf(ztxt, sizeof ztxt, "%s%s", passed ? "" : "Disc@", txt);
            Move zm;
            PlyError err = {{0}};
            assert_int_equal(z->text_to_move(zs, ztxt, &zm, &err), 0);
            c->make(cs, m);
            z->make(zs, zm);
            assert_int_equal(z->to_move(zs) < 0, c->to_move(cs) < 0);
            if (c->to_move(cs) < 0) {
                double rz[2], rc[2];
                z->returns(zs, rz);
                c->returns(cs, rc);
                assert_true(rz[0] == rc[0] && rz[1] == rc[1]);
                ends++;
                break;
            }
        }
    }
    /* the games went through passes and to their ends */
    assert_true(passes > 0);
    assert_int_equal(ends, 12);
    free(zs);
    free(cs);
}

/* tests/zrf/three.zrf, three players, against a slow count written out
 * here: 16 cells, -1 empty or the player whose stone it is; a drop that
 * makes three of the mover's stones in a row ends the game. */
static int three_won(const int *b, int p)
{
    static const int dx[4] = {1, 0, 1, 1}, dy[4] = {0, 1, 1, -1};
    for (int c = 0; c < 16; c++)
        for (int d = 0; d < 4; d++) {
            int k = 0;
            for (int i = 0; i < 3; i++) {
                int x = c % 4 + i * dx[d], y = c / 4 + i * dy[d];
                k += x >= 0 && x < 4 && y >= 0 && y < 4 && b[y * 4 + x] == p;
            }
            if (k == 3)
                return 1;
        }
    return 0;
}

static uint64_t three_perft(int *b, int side, int depth)
{
    if (depth == 0)
        return 1;
    uint64_t n = 0;
    for (int c = 0; c < 16; c++) {
        if (b[c] >= 0)
            continue;
        b[c] = side;
        n += three_won(b, side) ? depth == 1
                                : three_perft(b, (side + 1) % 3, depth - 1);
        b[c] = -1;
    }
    return n;
}

static void test_three_players(void **state)
{
    (void)state;
    const GameVtbl *z = game_find("tests/zrf/three.zrf");
    assert_non_null(z);
    assert_int_equal(z->info.num_players, 3);
    Rng r;
    rng_seed(&r, 5);
    int wins[3] = {0};
    for (int game = 0; game < 30; game++) {
        void *zs = tl_position(z->info.name, NULL, NULL, NULL);
        int b[16];
        for (int i = 0; i < 16; i++)
            b[i] = -1;
        for (int ply = 0;; ply++) {
            int side = ply % 3, tm = z->to_move(zs);
            if (tm < 0)
                break;
            assert_int_equal(tm, side);
            assert_int_equal(perft(z, zs, 3, 0), three_perft(b, side, 3));
            Move mv[64];
            int nm = z->gen_moves(zs, mv);
            assert_true(nm > 0);
            Move m = mv[rng_below(&r, (uint32_t)nm)];
            char txt[32];
            assert_true(z->move_to_text(zs, m, txt, sizeof txt) > 0);
            /* "Stone@b3" */
            assert_true(!strncmp(txt, "Stone@", 6));
            int c = (txt[6] - 'a') + 4 * (txt[7] - '1');
            assert_true(c >= 0 && c < 16 && b[c] < 0);
            b[c] = side;
            z->make(zs, m);
            if (three_won(b, side)) {
                /* the mover won and the two others lost */
                assert_int_equal(z->to_move(zs), PLAYER_TERMINAL);
                double res[3];
                z->returns(zs, res);
                for (int p = 0; p < 3; p++)
                    assert_true(res[p] == (p == side ? 1 : -1));
                wins[side]++;
            } else if (ply == 15) {
                assert_int_equal(z->to_move(zs), PLAYER_TERMINAL);
                double res[3];
                z->returns(zs, res);
                assert_true(res[0] == 0 && res[1] == 0 && res[2] == 0);
            }
        }
        free(zs);
    }
    /* each player won some game */
    assert_true(wins[0] > 0 && wins[1] > 0 && wins[2] > 0);
}

static void test_captured(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/kingtake.zrf");
    assert_non_null(g);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    static const uint64_t want[] = {1, 1, 2, 2, 2, 1, 2, 2};
    for (int d = 1; d <= 8; d++)
        assert_int_equal(perft(g, st, d, 0), want[d - 1]);
    static const char *const line[] = {"a1-b1", "d1-c1", "b1-c1"};
    PlyError err = {{0}};
    for (int i = 0; i < 3; i++) {
        assert_true(g->to_move(st) == i % 2);
        Move m;
        assert_int_equal(g->text_to_move(st, line[i], &m, &err), 0);
        g->make(st, m);
    }
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] > 0.5 && r[1] < -0.5);
    free(st);
}

/* "recycle captures": a man taken goes back to its owner's hand and can
 * be dropped again (tests/zrf/recycle.zrf). */
static void test_recycle(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/recycle.zrf");
    assert_non_null(g);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    static const uint64_t want[] = {1, 1, 1, 1, 1, 1, 1, 0};
    for (int d = 1; d <= 8; d++)
        assert_int_equal(perft(g, st, d, 0), want[d - 1]);
    static const char *const line[] = {"Man@a1", "Man@d1", "a1-b1", "d1-c1",
                                       "b1-c1", "Man@d1"};
    PlyError err = {{0}};
    for (int i = 0; i < 6; i++) {
        Move m;
        assert_int_equal(g->text_to_move(st, line[i], &m, &err), 0);
        g->make(st, m);
        if (i == 4) {
            char text[512];
            assert_true(g->to_text(st, text, sizeof text) > 0);
            assert_non_null(strstr(text, "| 1.Man=1"));
        }
    }
    assert_int_equal(g->to_move(st), 0);
    free(st);
}

/* turn-order (Mover Owner): each player moves the other side's man
 * (tests/zrf/proxy.zrf). */
static void test_proxy_turns(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/proxy.zrf");
    assert_non_null(g);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    static const uint64_t want[] = {1, 1, 1, 0};
    for (int d = 1; d <= 4; d++)
        assert_int_equal(perft(g, st, d, 0), want[d - 1]);
    static const char *const line[] = {"e1-d1", "a1-b1", "d1-c1"};
    PlyError err = {{0}};
    for (int i = 0; i < 3; i++) {
        assert_true(g->to_move(st) == i % 2);
        Move m;
        assert_int_equal(g->text_to_move(st, line[i], &m, &err), 0);
        g->make(st, m);
    }
    /* Black would move White's man onto c1: taken, so Black loses */
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] > 0.5 && r[1] < -0.5);
    free(st);
}

/* count-condition: when the player to move is stalemated the game ends
 * and the player with more pieces wins; equal counts draw
 * (tests/zrf/count.zrf: five squares, then four in the variant). */
static void test_count_condition(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/count.zrf");
    assert_non_null(g);
    static const char *const line[] = {"Stone@a1", "Stone@b1", "Stone@c1",
                                       "Stone@d1", "Stone@e1"};
    PlyError err = {{0}};
    for (int v = 0; v <= 1; v++) {
        void *st = tl_position(g->info.name, v ? "variant=1" : NULL, NULL,
                               NULL);
        assert_int_equal(perft(g, st, 4, 0), v ? 24 : 120);
        int n = v ? 4 : 5;
        for (int i = 0; i < n; i++) {
            assert_int_equal(g->to_move(st), i % 2);
            Move m;
            assert_int_equal(g->text_to_move(st, line[i], &m, &err), 0);
            g->make(st, m);
        }
        /* Black, to move, is stalemated: counted, not a win for Black */
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        double r[2];
        g->returns(st, r);
        if (v) {
            assert_true(r[0] == 0 && r[1] == 0);
        } else {
            assert_true(r[0] > 0.5 && r[1] < -0.5);
        }
        free(st);
    }
}

/* "maximal captures": of c7's two jumps only the one that goes on to a
 * second capture is legal; the variant turns the option off
 * (tests/zrf/maximal.zrf). */
static void test_maximal_captures(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/maximal.zrf");
    assert_non_null(g);
    static const uint64_t want[2][4] = {{1, 1, 3, 7}, {2, 6, 13, 55}};
    PlyError err = {{0}};
    for (int v = 0; v <= 1; v++) {
        void *st = tl_position(g->info.name, v ? "variant=1" : NULL, NULL,
                               NULL);
        for (int d = 1; d <= 4; d++)
            assert_int_equal(perft(g, st, d, 0), want[v][d - 1]);
        Move m;
        assert_int_equal(g->text_to_move(st, "c7-a5", &m, &err),
                         v ? 0 : -1);
        assert_int_equal(g->text_to_move(st, "c7-e5", &m, &err), 0);
        g->make(st, m);
        /* the same man goes on: e5 takes d4 */
        assert_int_equal(g->to_move(st), 0);
        assert_int_equal(g->text_to_move(st, "e5-c3", &m, &err), 0);
        g->make(st, m);
        assert_int_equal(g->to_move(st), 1);
        free(st);
    }
}

/* A random player (?Dice): not a seat; its turns are chance nodes with
 * its legal moves equally likely (tests/zrf/dice.zrf). */
static void test_random_player(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("tests/zrf/dice.zrf");
    assert_non_null(g);
    assert_int_equal(g->info.num_players, 2);
    assert_string_equal(g->info.player_names[1], "Black");
    assert_true(g->info.flags & GAME_CHANCE);
    assert_non_null(g->chance_outcomes);
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    static const uint64_t want[] = {6, 30, 120, 360, 720, 720, 0};
    for (int d = 1; d <= 7; d++)
        assert_int_equal(perft(g, st, d, 0), want[d - 1]);
    static const int who[] = {0, PLAYER_CHANCE, 1, PLAYER_CHANCE, 0,
                              PLAYER_CHANCE};
    Move mv[16], co[16];
    double p[16];
    for (int i = 0; i < 6; i++) {
        assert_int_equal(g->to_move(st), who[i]);
        int n = g->gen_moves(st, mv);
        assert_int_equal(n, 6 - i);
        if (who[i] == PLAYER_CHANCE) {
            assert_int_equal(g->chance_outcomes(st, co, p), n);
            double sum = 0;
            for (int k = 0; k < n; k++) {
                assert_true(co[k] == mv[k]);
                assert_true(p[k] > 0.99 / n && p[k] < 1.01 / n);
                sum += p[k];
            }
            assert_true(sum > 0.999 && sum < 1.001);
        }
        g->make(st, mv[n - 1]);
    }
    /* Black to move with no empty square: Black loses */
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] > 0.5 && r[1] < -0.5);
    free(st);
}

/* Random games: setup strings and move texts round-trip, the
 * incremental hash and occupancy bits (pieces and royal pieces per
 * player) equal fresh ones, the game ends within its bound. */
static void roundtrip(const char *name, int games)
{
    const GameVtbl *g = game_find(name);
    assert_non_null(g);
    Rng rng;
    rng_seed(&rng, 7);
    Move *mv = malloc(sizeof *mv * (size_t)g->info.max_moves);
    void *st = state_alloc(g), *st2 = state_alloc(g);
    for (int k = 0; k < games; k++) {
        PlyError err = {{0}};
        assert_int_equal(state_setup(g, st, NULL, NULL, 1, &err), 0);
        for (int ply = 0; g->to_move(st) != PLAYER_TERMINAL; ply++) {
            assert_true(ply < g->info.max_game_length);
            char text[4096];
            assert_true(g->to_text(st, text, sizeof text) > 0);
            assert_int_equal(state_setup(g, st2, NULL, text, 1, &err), 0);
            assert_int_equal(g->hash(st2), g->hash(st));
            const ZState *zs = st;
            const ZGame *zg = zvm_game(zs->gid);
            assert_memory_equal(ZS_OCC(zs, zg, 0),
                                ZS_OCC((const ZState *)st2, zg, 0),
                                sizeof(uint64_t) * (size_t)zg->occ_words *
                                (size_t)zg->nplayers *
                                (zg->royal_checkmated >= 0 ? 2 : 1));
            int n = g->gen_moves(st, mv);
            assert_true(n > 0);
            Move m = mv[rng_below(&rng, (uint32_t)n)];
            char mt[128];
            Move back;
            assert_true(g->move_to_text(st, m, mt, sizeof mt) > 0);
            assert_int_equal(g->text_to_move(st, mt, &back, &err), 0);
            assert_true(back == m);
            g->make(st, m);
        }
    }
    free(st);
    free(st2);
    free(mv);
}

static void test_roundtrip(void **state)
{
    (void)state;
    roundtrip("tests/zrf/tictactoe.zrf", 20);
    roundtrip("tests/zrf/chess.zrf", 2);
    roundtrip("tests/zrf/shuffle.zrf", 20);
    roundtrip("tests/zrf/kingtake.zrf", 20);
    roundtrip("tests/zrf/recycle.zrf", 20);
    roundtrip("tests/zrf/proxy.zrf", 20);
    roundtrip("tests/zrf/checkers.zrf", 3);
    roundtrip("tests/zrf/count.zrf", 20);
    roundtrip("tests/zrf/maximal.zrf", 20);
    roundtrip("tests/zrf/dice.zrf", 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_errors),
        cmocka_unit_test(test_macros),
        cmocka_unit_test(test_rules_check),
        cmocka_unit_test(test_variant_players),
        cmocka_unit_test(test_tictactoe_perft),
        cmocka_unit_test(test_chess_perft),
        cmocka_unit_test(test_checkers_perft),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_captured),
        cmocka_unit_test(test_position_case),
        cmocka_unit_test(test_reversi_zrf),
        cmocka_unit_test(test_three_players),
        cmocka_unit_test(test_recycle),
        cmocka_unit_test(test_proxy_turns),
        cmocka_unit_test(test_count_condition),
        cmocka_unit_test(test_maximal_captures),
        cmocka_unit_test(test_random_player),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
