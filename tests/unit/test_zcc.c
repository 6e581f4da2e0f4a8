/* test_zcc.c — ZRF templates compiled to native code (zcc.c): the
 * compiled and interpreted machines agree on perft of the test files; the
 * generated source carries no text of the rules file; the cache is
 * private and refused when it is not; every failure falls back to the
 * interpreter. */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#include "games/zrf/zcc.h"
#include "games/zrf/zrf.h"
#include "tools/perft.h"

static char cache[64];

static int setup_cache(void **state)
{
    (void)state;
    snprintf(cache, sizeof cache, "/tmp/ply-zcc-XXXXXX");
    if (!mkdtemp(cache))
        return -1;
    setenv("XDG_CACHE_HOME", cache, 1);
    unsetenv("PLY_ZRF_CC");
    return 0;
}

static int remove_cache(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    return system(cmd) == 0 ? 0 : -1;
}

static char *no_file(const char *path, size_t *len, PlyError *err)
{
    (void)len;
    ply_fail(err, "%s: no includes in this test", path);
    return NULL;
}

static ZGame *compile_text(const char *text)
{
    ZReader r;
    PlyError err = {{0}};
    zr_init(&r, no_file, &err);
    assert_int_equal(zr_read(&r, "t.zrf", text, strlen(text)), 0);
    char u[512];
    ZGame *g = zrf_compile(&r, 0, &err, u, sizeof u);
    zr_free(&r);
    assert_non_null(g);
    return g;
}

/* perft with the compiled templates, then with the interpreter (the same
 * loaded game with its native functions taken away for the run). */
static void agree(const char *path, int depth)
{
    const GameVtbl *v = game_find(path);
    assert_non_null(v);
    void *st = tl_position(v->info.name, NULL, NULL, NULL);
    ZGame *g = (ZGame *)zvm_game(((ZState *)st)->gid);
    assert_non_null(g);
    if (!g->zc_gen)
        fail_msg("%s: not compiled: %s", path, g->zc_status);
    assert_non_null(strstr(g->zc_status, "compiled to native code"));
    for (int d = 1; d <= depth; d++) {
        uint64_t native = perft(v, st, d, 0);
        ZcGen gen = g->zc_gen;
        g->zc_gen = NULL;
        uint64_t vm = perft(v, st, d, 0);
        g->zc_gen = gen;
        assert_int_equal(native, vm);
        assert_true(vm > 0 || d > 1);
    }
    free(st);
}

static void test_agree(void **state)
{
    (void)state;
    int slow = tl_slow();
    agree("tests/zrf/chess.zrf", slow ? 4 : 3);
    agree("tests/zrf/checkers.zrf", slow ? 8 : 6);
    agree("tests/zrf/tictactoe.zrf", 5);
    agree("tests/zrf/kingtake.zrf", 4);
    agree("tests/zrf/proxy.zrf", 4);
    agree("tests/zrf/recycle.zrf", 4);
    agree("tests/zrf/shuffle.zrf", 4);
    agree("tests/zrf/count.zrf", 5);
    agree("tests/zrf/maximal.zrf", 6);
    agree("tests/zrf/twogrids.zrf", 4);
    agree("tests/zrf/reversi.zrf", slow ? 6 : 4);
    agree("tests/zrf/three.zrf", 4);
    agree("tests/zrf/dice.zrf", 6);
    /* the cache directory was made private */
    char dir[128];
    snprintf(dir, sizeof dir, "%s/ply/zrf", cache);
    struct stat st;
    assert_int_equal(lstat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
}

/* A template whose loop runs into the machine's step limit: the native
 * code gives the run up to the interpreter (when collecting and when
 * making a move), and both machines list the same moves: the walker
 * goes round a ring of ten squares, adding a move at c1 each lap (as
 * itself: not a plain move, so making one runs the template again),
 * until the limit stops it (some 2000 moves, the list not full); the
 * other side has one step. */
static void test_step_limit(void **state)
{
    (void)state;
    static const char text[] =
        "(game (title \"ring\") (players A B) (turn-order A B)\n"
        " (board (grid (dimensions (\"a/b/c/d/e/f/g/h/i/j\" (10 0)) "
        "(\"2/1\" (0 10)))\n"
        "  (directions (e 1 0)))\n"
        "  (links e (j1 a1)))\n"
        " (piece (name W) (moves ((while true e (if (position? c1) "
        "(add W))))))\n"
        " (piece (name S) (moves (e (verify empty?) add)))\n"
        " (board-setup (A (W a1)) (B (S a2))))\n";
    char path[128];
    snprintf(path, sizeof path, "%s/ring.zrf", cache);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    agree(path, 2);
    const GameVtbl *v = game_find(path);
    assert_non_null(v);
    void *st = tl_position(v->info.name, NULL, NULL, NULL);
    uint64_t n = perft(v, st, 1, 0);
    if (n < 1000 || n >= ZMAX_MOVES)
        fail_msg("ring: %llu moves", (unsigned long long)n);
    free(st);
}

/* Prefilters of two steps (zcc.c prefilter_slot) and "has a move" by
 * the prefilters (zc_any): jumps over an enemy (a capture between the
 * steps), a double step to a square not a friend's, a step back onto
 * the start (not prefiltered past its first step: the second square is
 * the start), B whose turns allow one move type only, and a
 * player without a move losing (stalemated asks zc_any after every
 * make). The generated source has both; both machines agree. */
static void test_two_steps(void **state)
{
    (void)state;
    static const char text[] =
        "(game (title \"steps\") (players A B) (turn-order A (B walk))\n"
        " (board (grid (dimensions (\"a/b/c/d/e\" (10 0)) "
        "(\"5/4/3/2/1\" (0 10)))\n"
        "  (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1)"
        " (nw -1 -1))))\n"
        " (piece (name J) (moves (move-type hop)"
        " (ne (verify enemy?) capture ne (verify empty?) add)"
        " (nw (verify enemy?) capture nw (verify empty?) add)"
        " (move-type walk) (n (verify empty?) n (verify not-friend?) add)"
        " (e (verify empty?) w (verify friend?) add)"
        " (w (verify empty?) add)))\n"
        " (piece (name K) (moves (move-type hop)"
        " (s (verify enemy?) capture s (verify empty?) add)))\n"
        " (board-setup (A (J a1 c1 e2 b3) (K d5)) (B (J b2 d2 c4 a5)"
        " (K e4)))\n"
        " (loss-condition (A B) stalemated))\n";
    char path[128];
    snprintf(path, sizeof path, "%s/steps.zrf", cache);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    agree(path, 6);
    const GameVtbl *v = game_find(path);
    assert_non_null(v);
    void *st = tl_position(v->info.name, NULL, NULL, NULL);
    ZGame *g = (ZGame *)zvm_game(((ZState *)st)->gid);
    size_t len;
    char *src = zcc_source(g, &len);
    if (!src)
        fail_msg("not translated: %s", g->zc_status);
    /* a second step's set, and zc_any answering from it */
    assert_non_null(strstr(src, " & (S_["));
    assert_non_null(strstr(src, "int zc_any("));
    assert_non_null(strstr(strstr(src, "int zc_any("), "return 1;"));
    free(src);
    /* B's man in the corner, walking only: A's double step b3-b5 leaves
     * him no move (his step back onto a5 needs b5 empty), and he loses;
     * a1-a3 leaves him one. Both machines. */
    for (int native = 1; native >= 0; native--) {
        ZcGen gen = g->zc_gen;
        if (!native)
            g->zc_gen = NULL;
        PlyError err = {{0}};
        static const char *const mv[2] = {"b3-b5", "a1-a3"};
        for (int i = 0; i < 2; i++) {
            assert_int_equal(v->from_text(st, "0 -1 -1 -1 -1 0 0 0 0 | "
                                          "b3=0.J a1=0.J a5=1.J |", &err),
                             0);
            Move m;
            assert_int_equal(v->text_to_move(st, mv[i], &m, &err), 0);
            v->make(st, m);
            double ret[2];
            v->returns(st, ret);
            if (i == 0) {
                assert_int_equal(v->to_move(st), PLAYER_TERMINAL);
                assert_true(ret[0] > 0 && ret[1] < 0);
            } else {
                assert_int_equal(v->to_move(st), 1);
            }
        }
        g->zc_gen = gen;
    }
    free(st);
}

/* Names, strings and directions of a hostile file never reach the C
 * source: it holds numbers and fixed identifiers only. */
static void test_no_text_copied(void **state)
{
    (void)state;
    const char *text =
        "(game (title \"*/ system(\\\"rm\\\"); /*\")\n"
        " (players Evil_INJ B)\n"
        " (board (grid (dimensions (\"x_injected/b\" (1 0)) "
        "(\"1/2\" (0 1)))\n"
        "  (directions (north_INJ 0 -1) (sIouth 0 1)))\n"
        "  (zone (name zone_INJ) (players B Evil_INJ) (positions b2)))\n"
        " (piece (name Pwn_INJECTED) (attribute attr_INJ true)\n"
        "  (moves (north_INJ (verify empty?) (set-attribute attr_INJ false)"
        " add)\n"
        "         (sIouth (if (in-zone? zone_INJ) add else (add "
        "Pwn_INJECTED))))\n"
        "  )\n"
        " (board-setup (Evil_INJ (Pwn_INJECTED x_injected2)) (B "
        "(Pwn_INJECTED b1))))\n";
    ZGame *g = compile_text(text);
    size_t len = 0;
    char *src = zcc_source(g, &len);
    if (!src)
        fail_msg("not translated: %s", g->zc_status);
    {
        assert_int_equal(strlen(src), len);
        static const char *const bad[] = {"INJ", "inj", "system", "/*\\\"",
                                          "Evil", "x_", "sIouth"};
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
            if (strstr(src, bad[i]))
                fail_msg("generated source holds '%s'", bad[i]);
        /* only the characters of C code made of numbers and words */
        for (size_t i = 0; i < len; i++)
            assert_true(src[i] == '\n' || (src[i] >= ' ' && src[i] < 127));
        free(src);
    }
    zrf_game_free(g);
}

/* Each failure leaves the interpreter, with the reason. */
static void test_fallbacks(void **state)
{
    (void)state;
    const char *text =
        "(game (title \"t\") (players A B) (turn-order A B)\n"
        " (board (grid (dimensions (\"a/b/c\" (1 0)) (\"1/2/3\" (0 1)))\n"
        "  (directions (n 0 -1) (e 1 0))))\n"
        " (piece (name P) (moves (n (verify empty?) add) (e (verify "
        "empty?) add)))\n"
        " (board-setup (A (P a3)) (B (P c3))))\n";
    ZGame *g = compile_text(text);
    setenv("PLY_ZRF_CC", "off", 1);
    zcc_attach(g);
    assert_null(g->zc_gen);
    assert_non_null(strstr(g->zc_status, "PLY_ZRF_CC=off"));
    zrf_game_free(g);

    g = compile_text(text);
    setenv("PLY_ZRF_CC", "/nonexistent/cc", 1);
    zcc_attach(g);
    assert_null(g->zc_gen);
    assert_non_null(strstr(g->zc_status, "no C compiler"));
    zrf_game_free(g);

    g = compile_text(text);
    setenv("PLY_ZRF_CC", "/bin/false", 1);
    zcc_attach(g);
    assert_null(g->zc_gen);
    assert_non_null(strstr(g->zc_status, "compiler failed"));
    zrf_game_free(g);

    /* a cache directory others may write is refused */
    unsetenv("PLY_ZRF_CC");
    char open_dir[128], sub[160];
    snprintf(open_dir, sizeof open_dir, "%s/open", cache);
    assert_int_equal(mkdir(open_dir, 0700), 0);
    snprintf(sub, sizeof sub, "%s/ply", open_dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(chmod(sub, 0777), 0);
    setenv("XDG_CACHE_HOME", open_dir, 1);
    g = compile_text(text);
    zcc_attach(g);
    assert_null(g->zc_gen);
    assert_non_null(strstr(g->zc_status, "not private"));
    zrf_game_free(g);

    /* a private one works; an object others may write is not loaded but
     * compiled again in its place */
    assert_int_equal(chmod(sub, 0700), 0);
    /* a temporary file a killed process left two hours ago goes */
    char stale[256];
    snprintf(stale, sizeof stale, "%s/zrf", sub);
    assert_int_equal(mkdir(stale, 0700), 0);
    snprintf(stale, sizeof stale, "%s/zrf/tmp-stale.c", sub);
    FILE *f = fopen(stale, "w");
    assert_non_null(f);
    fclose(f);
    struct timespec old[2] = {{time(NULL) - 7200, 0},
                              {time(NULL) - 7200, 0}};
    assert_int_equal(utimensat(AT_FDCWD, stale, old, 0), 0);
    g = compile_text(text);
    zcc_attach(g);
    if (!g->zc_gen)
        fail_msg("not compiled: %s", g->zc_status);
    assert_int_equal(access(stale, F_OK), -1);
    const char *so = strstr(g->zc_status, "(");
    assert_non_null(so);
    char path[512];
    snprintf(path, sizeof path, "%s", so + 1);
    path[strcspn(path, ")")] = 0;
    zrf_game_free(g);
    assert_int_equal(chmod(path, 0777), 0);
    g = compile_text(text);
    zcc_attach(g);
    assert_non_null(g->zc_gen);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    zrf_game_free(g);
    setenv("XDG_CACHE_HOME", cache, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree),
        cmocka_unit_test(test_step_limit),
        cmocka_unit_test(test_two_steps),
        cmocka_unit_test(test_no_text_copied),
        cmocka_unit_test(test_fallbacks),
    };
    return cmocka_run_group_tests(tests, setup_cache, remove_cache);
}
