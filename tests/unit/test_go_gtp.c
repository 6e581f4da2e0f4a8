/* test_go_gtp.c — go's GTP hooks (go/status.c): stone status from
 * playouts and the static seki rule, kgs-genmove_cleanup's moves, the free
 * handicap setup. */
#include "testlib.h"

#include "core/format.h"

static const GameFormat *gtp(void)
{
    const GameFormat *f = game_format(game_find("go"), "gtp");
    assert_non_null(f);
    assert_non_null(f->stones);
    return f;
}

/* The vertices of moves, space-separated. */
static void names(const void *st, const Move *m, int n, char *buf, size_t len)
{
    const GameVtbl *g = game_find("go");
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        char t[16];
        g->move_to_text(st, m[i], t, sizeof t);
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", t);
    }
}

/* Black's wall on E, White's on F; a white stone at B5 in Black's area
 * and a black one at H6 in White's are dead. */
static const char *dead_setup =
    "X...XO..O/X...XO.../....XO.../....XO.X./.O..XO.../....XO.../"
    "....XO.../....XO.../....XO... ";

static void test_status(void **state)
{
    (void)state;
    const GameFormat *f = gtp();
    char setup[128], buf[1024];
    snprintf(setup, sizeof setup, "%sb", dead_setup);
    void *st = tl_position("go", "size=9", setup, NULL);
    Move m[100];
    int n = f->stones(st, -1, GTP_DEAD, 7, m, 100);
    names(st, m, n, buf, sizeof buf);
    assert_string_equal(buf, "H6 B5");
    assert_int_equal(f->stones(st, -1, GTP_ALIVE, 7, m, 100), 21);
    assert_int_equal(f->stones(st, -1, GTP_SEKI, 7, m, 100), 0);
    assert_int_equal(f->stones(st, 0, -1, 7, m, 100), 12);
    assert_int_equal(f->stones(st, 1, -1, 7, m, 100), 11);
    assert_int_equal(f->stones(st, -1, -1, 7, m, 5), -1);     /* no room */
    free(st);
    /* seki in the corner of a 3x3 board: nothing dead, all in seki */
    st = tl_position("go", "size=3", "X.O/XXO/X.O b", NULL);
    n = f->stones(st, -1, GTP_SEKI, 1, m, 100);
    names(st, m, n, buf, sizeof buf);
    assert_string_equal(buf, "A3 C3 A2 B2 C2 A1 C1");
    assert_int_equal(f->stones(st, -1, GTP_DEAD, 1, m, 100), 0);
    free(st);
    /* atari-go: every stone alive */
    st = tl_position("atari-go", "size=5", NULL, "C3 D3");
    const GameFormat *fa = game_format(game_find("atari-go"), "gtp");
    assert_int_equal(fa->stones(st, -1, GTP_ALIVE, 1, m, 100), 2);
    assert_int_equal(fa->stones(st, -1, GTP_DEAD, 1, m, 100), 0);
    free(st);
}

static void test_cleanup(void **state)
{
    (void)state;
    const GameFormat *f = gtp();
    char setup[128], buf[1024];
    Move m[100];
    for (int side = 0; side < 2; side++) {
        snprintf(setup, sizeof setup, "%s%c", dead_setup, side ? 'w' : 'b');
        void *st = tl_position("go", "size=9", setup, NULL);
        int n = f->cleanup_moves(st, 3, m, 100);
        names(st, m, n, buf, sizeof buf);
        /* the liberties of the dead stone, each once */
        const char *libs = side ? "H7 G6 J6 H5" : "B6 A5 C5 B4";
        assert_int_equal(n, 4);
        for (int i = 0; i < 4; i++) {
            char t[8];
            snprintf(t, sizeof t, "%.2s", libs + 3 * i);
            assert_non_null(strstr(buf, t));
        }
        assert_int_equal(f->cleanup_moves(st, 3, m, 2), 2);
        free(st);
    }
    /* a capture first: B5 in atari */
    void *st = tl_position("go", "size=9",
                           "X...XO..O/X...XO.../....XO.../.X..XO.X./XO..XO.../"
                           ".X..XO.../....XO.../....XO.../....XO... b", NULL);
    int n = f->cleanup_moves(st, 3, m, 100);
    names(st, m, n, buf, sizeof buf);
    assert_string_equal(buf, "C5");
    free(st);
    /* nothing dead: no cleanup */
    st = tl_position("go", "size=9", NULL, "E5 D4");
    assert_int_equal(f->cleanup_moves(st, 3, m, 100), 0);
    free(st);
}

static void test_handicap_setup(void **state)
{
    (void)state;
    const GameFormat *f = gtp();
    const GameVtbl *g = game_find("go");
    void *st = tl_position("go", "size=5", NULL, NULL);
    Move pts[3];
    PlyError err = {{0}};
    const char *v[3] = {"A1", "C3", "E5"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(g->text_to_move(st, v[i], &pts[i], &err), 0);
    char buf[256];
    assert_true(f->handicap_setup(st, pts, 3, buf, sizeof buf) > 0);
    assert_string_equal(buf, "....X/...../..X../...../X.... w");
    pts[1] = pts[0];
    assert_int_equal(f->handicap_setup(st, pts, 3, buf, sizeof buf), -1);
    assert_int_equal(f->handicap_setup(st, pts, 1, buf, 10), -1);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_cleanup),
        cmocka_unit_test(test_handicap_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
