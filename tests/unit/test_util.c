/* test_util.c — core/util.h: ply_append and the PLY_OUT idiom the text
 * writers of games and core use (fits, exact fit, one byte short, an
 * already full buffer, a zero-size buffer, an encoding error), and every
 * registered game's render and to_text refusing a buffer one byte short
 * of what they write; core/setup.h's setup_row (FEN-style board rows)
 * and setup_count (the optional counts at the end of setup strings, as
 * four games read them). */
#include <wchar.h>

#include "testlib.h"

#include "core/util.h"

/* The writers' shape: a fixed text in pieces, -1 when it does not fit. */
static int write_board(char *buf, size_t n, int rows)
{
    size_t len = 0;
    if (n)
        buf[0] = 0;
    for (int r = rows; r >= 1; r--)
        PLY_OUT("%d |%s|\n", r, ". . .");
    PLY_OUT("   a b c\n");
    return (int)len;
}

static void test_append(void **state)
{
    (void)state;
    char buf[32];
    size_t len = 0;
    assert_int_equal(ply_append(buf, sizeof buf, &len, "%s-%d", "ab", 12),
                     0);
    assert_int_equal(len, 5);
    assert_string_equal(buf, "ab-12");
    assert_int_equal(ply_append(buf, sizeof buf, &len, "%c", 'x'), 0);
    assert_string_equal(buf, "ab-12x");
    assert_int_equal(len, 6);
    /* an empty text fits while there is room for the zero */
    assert_int_equal(ply_append(buf, sizeof buf, &len, "%s", ""), 0);
    assert_int_equal(len, 6);

    /* exact fit: 7 bytes of text and the zero in 8 */
    char small[8];
    len = 0;
    assert_int_equal(ply_append(small, sizeof small, &len, "abcdefg"), 0);
    assert_int_equal(len, 7);
    assert_string_equal(small, "abcdefg");
    /* full: no character more fits; an empty text still does */
    assert_int_equal(ply_append(small, sizeof small, &len, "h"), -1);
    assert_int_equal(len, 7);
    assert_int_equal(ply_append(small, sizeof small, &len, "%s", ""), 0);
    assert_int_equal(len, 7);
    assert_string_equal(small, "abcdefg");

    /* one byte short: -1, len unchanged, the buffer terminated */
    len = 0;
    assert_int_equal(ply_append(small, sizeof small, &len, "abc"), 0);
    assert_int_equal(ply_append(small, sizeof small, &len, "defgh"), -1);
    assert_int_equal(len, 3);
    assert_non_null(memchr(small, 0, sizeof small));
    assert_int_equal(strncmp(small, "abc", 3), 0);

    /* a length past the end (a caller's bug) writes nothing */
    len = sizeof small + 5;
    assert_int_equal(ply_append(small, sizeof small, &len, "x"), -1);
    assert_int_equal(len, sizeof small + 5);

    /* a zero-size buffer takes nothing */
    len = 0;
    assert_int_equal(ply_append(NULL, 0, &len, "x"), -1);
    assert_int_equal(len, 0);

    /* an encoding error from vsnprintf is a failure, not a length */
    wchar_t bad[2] = {(wchar_t)0x7fffffff, 0};
    len = 0;
    assert_int_equal(ply_append(buf, sizeof buf, &len, "%ls", bad), -1);
    assert_int_equal(len, 0);
}

static void test_out_macro(void **state)
{
    (void)state;
    char want[256];
    int full = write_board(want, sizeof want, 5);
    assert_int_equal(full, (int)strlen(want));
    assert_string_equal(want, "5 |. . .|\n4 |. . .|\n3 |. . .|\n"
                              "2 |. . .|\n1 |. . .|\n   a b c\n");
    /* every buffer shorter than text and zero is refused, the exact one
     * gives the same text */
    for (size_t n = 0; n <= (size_t)full; n++) {
        char buf[256];
        memset(buf, 'Z', sizeof buf);
        assert_int_equal(write_board(buf, n, 5), -1);
        for (size_t i = n; i < sizeof buf; i++)
            assert_int_equal(buf[i], 'Z');   /* nothing past n written */
    }
    char exact[256];
    assert_int_equal(write_board(exact, (size_t)full + 1, 5), full);
    assert_string_equal(exact, want);
}

/* setup_row: FEN-style runs, no terminator, counts past 9 in decimal. */
static void test_setup_row(void **state)
{
    (void)state;
    char out[64];
    size_t len = 0;
    memset(out, 'Z', sizeof out);
    const char a[8] = {'r', 0, 0, 'q', 'k', 0, 0, 0};
    setup_row(out, &len, a, 8);
    assert_int_equal(len, 5);
    assert_memory_equal(out, "r2qk3Z", 5 + 1);     /* nothing past len */
    out[len++] = '/';
    const char e[8] = {0};
    setup_row(out, &len, e, 8);
    out[len] = 0;
    assert_string_equal(out, "r2qk3/8");
    const char full[3] = {'a', 'b', 'c'};
    len = 0;
    setup_row(out, &len, full, 3);
    assert_int_equal(len, 3);
    assert_memory_equal(out, "abc", 3);
    char wide[25] = {0};
    wide[12] = 'x';
    len = 0;
    setup_row(out, &len, wide, 25);
    out[len] = 0;
    assert_string_equal(out, "12x12");
    len = 5;
    setup_row(out, &len, wide, 0);                  /* an empty row */
    assert_int_equal(len, 5);
    /* room for n characters suffices: a lone empty cell is one digit */
    char one[1];
    len = 0;
    setup_row(one, &len, e, 1);
    assert_int_equal(len, 1);
    assert_int_equal(one[0], '1');
}

/* setup_count: absent, present, at the limit, over it (also past LONG_MAX),
 * no digits; *s moves only past a count read. */
static void test_setup_count(void **state)
{
    (void)state;
    PlyError err = {{0}};
    long v = -1;
    const char *s = "";
    assert_int_equal(setup_count(&s, 10, "plies", NULL, &v, &err), 0);
    assert_int_equal(v, 0);
    assert_string_equal(s, "");
    s = "x";        /* not a space: no count, the caller sees the rest */
    v = -1;
    assert_int_equal(setup_count(&s, 10, "plies", NULL, &v, &err), 0);
    assert_int_equal(v, 0);
    assert_string_equal(s, "x");
    s = " 7 3";
    assert_int_equal(setup_count(&s, 10, "plies", NULL, &v, &err), 0);
    assert_int_equal(v, 7);
    assert_string_equal(s, " 3");
    assert_int_equal(setup_count(&s, 3, "moves", NULL, &v, &err), 0);
    assert_int_equal(v, 3);                         /* max is allowed */
    assert_string_equal(s, "");
    s = " 11";
    assert_int_equal(setup_count(&s, 10, "plies since a capture",
                                 "option length", &v, &err), -1);
    assert_string_equal(err.msg, "11 plies since a capture: at most 10 "
                        "(option length)");
    assert_string_equal(s, " 11");
    s = " 123456789012345678901234567890";
    assert_int_equal(setup_count(&s, 10, "plies", NULL, &v, &err), -1);
    assert_string_equal(err.msg, "12345678901234567890... plies: at most 10");
    s = " -1";
    assert_int_equal(setup_count(&s, 10, "plies played", NULL, &v, &err), -1);
    assert_string_equal(err.msg, "expected the plies played");
    s = " ";
    assert_int_equal(setup_count(&s, 10, "plies", NULL, &v, &err), -1);
    assert_string_equal(err.msg, "expected the plies");
}

/* Render and to_text of every game (their writers use PLY_OUT): the
 * start position's text in a buffer of its length + 1 equals the text in
 * a large one, or is refused (a writer may ask for its worst case up
 * front, as vindinium's to_text does); one byte less is refused with -1
 * (never a cut text taken for whole). */
static void check_writer(const GameVtbl *g, const void *st,
                         int (*w)(const void *, char *, size_t),
                         const char *what)
{
    enum { BIG = 1 << 16 };
    char *big = malloc(BIG), *buf = malloc(BIG);
    int full = w(st, big, BIG);
    if (full < 0)
        fail_msg("%s: %s does not fit in %d bytes", g->info.name, what, BIG);
    assert_int_equal(full, (int)strlen(big));
    memset(buf, 'Z', BIG);
    int got = w(st, buf, (size_t)full + 1);
    if (got != -1 && (got != full || strcmp(buf, big)))
        fail_msg("%s: %s in %d bytes differs", g->info.name, what,
                 full + 1);
    if (full > 0 && w(st, buf, (size_t)full) >= 0)
        fail_msg("%s: %s took a buffer one byte short", g->info.name,
                 what);
    free(big);
    free(buf);
}

static void test_game_writers(void **state)
{
    (void)state;
    int checked = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        void *st = tl_position(g->info.name, NULL, NULL, NULL);
        if (g->render)
            check_writer(g, st, g->render, "render");
        if (g->to_text)
            check_writer(g, st, g->to_text, "to_text");
        free(st);
        checked++;
    }
    assert_true(checked > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append),
        cmocka_unit_test(test_out_macro),
        cmocka_unit_test(test_setup_row),
        cmocka_unit_test(test_setup_count),
        cmocka_unit_test(test_game_writers),
    };
    tl_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
