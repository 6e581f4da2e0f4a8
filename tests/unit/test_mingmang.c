/* test_mingmang.c — Ming-Mang against a second, slow implementation
 * written here from the rules text: the board read from the setup string,
 * every slide walked point by point, conversions found by trying every
 * straight line (and, with lcapture, every line with one right-angle turn)
 * from the landing point. Compared on every position of random games
 * under several option sets: the legal moves, the position after each
 * move, the end and the winner (areas counted by a labelling written
 * here). Plus the digest's perft facts and bad input. */
#include "testlib.h"

enum { SMAX = 19 };

typedef struct Slow {
    int size, lcap, territory, length;
    char p[SMAX][SMAX];     /* [row][col], row 0 at the bottom */
    int white, quiet, ply;
} Slow;

static void slow_read(Slow *s, const char *t)
{
    int r = s->size - 1, col = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') {
            r--;
            col = 0;
        } else {
            s->p[r][col++] = *t;
        }
    }
    s->white = t[1] == 'w';
    s->quiet = s->ply = 0;
    if (t[2] == ' ') {
        char *end;
        s->quiet = (int)strtol(t + 3, &end, 10);
        if (*end == ' ')
            s->ply = atoi(end + 1);
    }
}

static void slow_write(const Slow *s, char *out)
{
    for (int r = s->size - 1; r >= 0; r--) {
        for (int col = 0; col < s->size; col++)
            *out++ = s->p[r][col];
        if (r)
            *out++ = '/';
    }
    if (s->ply)
        sprintf(out, " %c %d %d", s->white ? 'w' : 'b', s->quiet, s->ply);
    else if (s->quiet)
        sprintf(out, " %c %d", s->white ? 'w' : 'b', s->quiet);
    else
        sprintf(out, " %c", s->white ? 'w' : 'b');
}

static int inside(const Slow *s, int r, int c)
{
    return r >= 0 && c >= 0 && r < s->size && c < s->size;
}

static int slow_moves(const Slow *s, char out[][24])
{
    static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
    char me = s->white ? 'W' : 'B';
    int n = 0;
    for (int r = 0; r < s->size; r++)
        for (int c = 0; c < s->size; c++) {
            if (s->p[r][c] != me)
                continue;
            for (int d = 0; d < 4; d++)
                for (int k = 1;; k++) {
                    int rr = r + k * dr[d], cc = c + k * dc[d];
                    if (!inside(s, rr, cc) || s->p[rr][cc] != '.')
                        break;
                    snprintf(out[n++], 24, "%c%d%c%d", 'a' + c, r + 1,
                             'a' + cc, rr + 1);
                }
        }
    return n;
}

/* Marks conv[][] with every stone converted by me arriving on (r, c). */
static void slow_convert(const Slow *s, int r, int c, char me,
                         int conv[SMAX][SMAX])
{
    static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
    char them = me == 'W' ? 'B' : 'W';
    for (int d = 0; d < 4; d++)
        for (int a = 1;; a++) {
            int ar = r + a * dr[d], ac = c + a * dc[d];
            if (!inside(s, ar, ac) || s->p[ar][ac] != them)
                break;
            int nr = ar + dr[d], nc = ac + dc[d];
            if (inside(s, nr, nc) && s->p[nr][nc] == me)
                for (int i = 1; i <= a; i++)
                    conv[r + i * dr[d]][c + i * dc[d]] = 1;
            if (!s->lcap || a < 2)
                continue;
            for (int e = 0; e < 4; e++) {
                if (dr[e] * dr[d] + dc[e] * dc[d] != 0)
                    continue;
                for (int b = 1;; b++) {
                    int br = ar + b * dr[e], bc = ac + b * dc[e];
                    if (!inside(s, br, bc) || s->p[br][bc] != them)
                        break;
                    int xr = br + dr[e], xc = bc + dc[e];
                    if (!inside(s, xr, xc) || s->p[xr][xc] != me)
                        continue;
                    for (int i = 1; i <= a; i++)
                        conv[r + i * dr[d]][c + i * dc[d]] = 1;
                    for (int i = 1; i <= b; i++)
                        conv[ar + i * dr[e]][ac + i * dc[e]] = 1;
                }
            }
        }
}

static void slow_make(Slow *s, const char *m)
{
    int c1 = m[0] - 'a', r1 = atoi(m + 1) - 1;
    const char *t = m + 1;
    while (*t >= '0' && *t <= '9')
        t++;
    int c2 = t[0] - 'a', r2 = atoi(t + 1) - 1;
    char me = s->p[r1][c1];
    s->p[r2][c2] = me;
    s->p[r1][c1] = '.';
    int conv[SMAX][SMAX] = {{0}}, k = 0;
    slow_convert(s, r2, c2, me, conv);
    for (int r = 0; r < s->size; r++)
        for (int c = 0; c < s->size; c++)
            if (conv[r][c]) {
                s->p[r][c] = me;
                k++;
            }
    s->quiet = k ? 0 : s->quiet + 1;
    s->ply++;
    s->white = !s->white;
}

/* Areas by labelling: an empty point belongs to a side when it can reach
 * that side's stones through empty points and not the other's. */
static void slow_areas(const Slow *s, int area[2])
{
    int reach[SMAX][SMAX] = {{0}}, changed = 1;   /* bit 1 B, bit 2 W */
    while (changed) {
        changed = 0;
        for (int r = 0; r < s->size; r++)
            for (int c = 0; c < s->size; c++) {
                if (s->p[r][c] != '.')
                    continue;
                int v = reach[r][c];
                static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
                for (int d = 0; d < 4; d++) {
                    int rr = r + dr[d], cc = c + dc[d];
                    if (!inside(s, rr, cc))
                        continue;
                    char q = s->p[rr][cc];
                    v |= q == 'B' ? 1 : q == 'W' ? 2 : reach[rr][cc];
                }
                if (v != reach[r][c]) {
                    reach[r][c] = v;
                    changed = 1;
                }
            }
    }
    area[0] = area[1] = 0;
    for (int r = 0; r < s->size; r++)
        for (int c = 0; c < s->size; c++) {
            char q = s->p[r][c];
            if (q == 'B' || (q == '.' && reach[r][c] == 1))
                area[0]++;
            if (q == 'W' || (q == '.' && reach[r][c] == 2))
                area[1]++;
        }
}

static void compare(const char *options, int size, int lcap, int territory,
                    int length, int games, uint64_t seed)
{
    const GameVtbl *g = game_find("ming-mang");
    Rng rng;
    rng_seed(&rng, seed);
    static Move mv[2048];
    static char slow[2048][24];
    char text[800], want[800];
    int positions = 0, conversions = 0, ends[3] = {0, 0, 0};
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("ming-mang", options, NULL, NULL);
        Slow s = {.size = size, .lcap = lcap, .territory = territory,
                  .length = length};
        for (int plies = 0;; plies++) {
            g->to_text(st, text, sizeof text);
            slow_read(&s, text);
            int k = slow_moves(&s, slow);
            if (g->to_move(st) == PLAYER_TERMINAL) {
                double ret[2];
                g->returns(st, ret);
                if (k == 0) {
                    assert_true(ret[s.white] == -1.0);
                    ends[0]++;
                } else {
                    /* the length rule (or the ply cap of long games) */
                    if (s.quiet < length && plies < 1500)
                        fail_msg("%s: ended early at %s", options, text);
                    int a[2];
                    slow_areas(&s, a);
                    double want0 = !territory || a[0] == a[1] ? 0
                                 : a[0] > a[1] ? 1 : -1;
                    assert_true(ret[0] == want0);
                    ends[1 + territory]++;
                }
                break;
            }
            if (k == 0)
                fail_msg("%s: not over without moves at %s", options, text);
            int n = g->gen_moves(st, mv);
            tl_same_moves(g, st, mv, n, &slow[0][0], k, sizeof slow[0],
                          options, text);
            positions++;
            /* prefer conversions now and then, so games see many */
            Move m = tl_lively_move(g, st, mv, n, &rng);
            char mt[12];
            g->move_to_text(st, m, mt, sizeof mt);
            slow_make(&s, mt);
            conversions += s.quiet == 0;
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
    assert_true(conversions > games);
    print_message("%s: %d games, %d positions, %d conversions, ends: %d "
                  "no move, %d length draw, %d territory\n",
                  options ? options : "default", games, positions,
                  conversions, ends[0], ends[1], ends[2]);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 100 : 6;
    compare(NULL, 8, 0, 0, 100, games, 1);
    compare("lcapture=1", 8, 1, 0, 100, games, 2);
    compare("size=5,goal=territory,length=20", 5, 0, 1, 20, games * 4, 3);
    compare("size=9,lcapture=1,goal=territory,length=30", 9, 1, 1, 30,
            games, 4);
}

static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
    static Move mv[8][2048];
    int n = g->gen_moves(st, mv[d]);
    if (d == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    unsigned char child[1024];
    assert_true(g->info.state_size <= sizeof child);
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[d][i]);
        sum += perft(g, child, d - 1);
    }
    return sum;
}

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("ming-mang");
    void *st = tl_position("ming-mang", NULL, NULL, NULL);
    assert_int_equal(perft(g, st, 1), 72);          /* more-games.md §9 */
    free(st);
    st = tl_position("ming-mang", "size=9", NULL, NULL);
    assert_int_equal(perft(g, st, 1), 98);          /* Dagaz 9x9 */
    assert_int_equal(perft(g, st, 2), 8827);
    free(st);
    st = tl_position("ming-mang", "size=17", NULL, NULL);
    assert_int_equal(perft(g, st, 1), 450);         /* Dagaz 17x17 */
    assert_int_equal(perft(g, st, 2), 195315);
    free(st);
}

static int converts(const char *options, const char *setup, const char *mv,
                    const char *after)
{
    const GameVtbl *g = game_find("ming-mang");
    void *st = tl_position("ming-mang", options, setup, mv);
    char text[800];
    g->to_text(st, text, sizeof text);
    free(st);
    return !strncmp(text, after, strlen(after));
}

static void test_rules(void **state)
{
    (void)state;
    /* a line of two converted */
    assert_true(converts("size=5", "B..../...../...../.WWB./..... b",
                         "a5a2", "...../...../...../BBBB./....."));
    /* a stone entering between two enemy stones is safe */
    assert_true(converts("size=5", "...../...../...../W.W../.B..B b",
                         "b1b2", "...../...../...../WBW../....B w"));
    /* three lines at once */
    assert_true(converts("size=5", "..B../..W../BW..B/..W../..B.. b",
                         "e3c3", "..B../..B../BBB../..B../..B.."));
    /* the L: only with lcapture, turning at the second stone */
    const char *l = "...../...../.WWB./.W.../B.... b";
    assert_true(converts("size=5", l, "a1b1",
                         "...../...../.WWB./.W.../.B... w"));
    assert_true(converts("size=5,lcapture=1", l, "a1b1",
                         "...../...../.BBB./.B.../.B..."));
    /* not at the first stone */
    assert_true(converts("size=5,lcapture=1",
                         "...../...../...../.WB../B.... b", "a1b1",
                         "...../...../...../.WB../.B... w"));
    /* a player without a move loses */
    const GameVtbl *g = game_find("ming-mang");
    void *st = tl_position("ming-mang", "size=5",
                           "B..../...../...../.WWB./..... b", "a5a2");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == 1.0 && ret[1] == -1.0);
    free(st);
    st = tl_position("ming-mang", "size=5",
                     "WB.../B..../...../...../....B w", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 1.0);
    free(st);
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("ming-mang");
    void *st = tl_position("ming-mang", NULL, NULL, NULL);
    PlyError err = {{0}};
    Move m;
    const char *bad_moves[] = {"", "b1", "b1b9", "i1i2", "b0b2", "b1c2",
                               "h1h2", "a2b2", "b1b8", "b1b2x", "b1b02",
                               "b1b22"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        err.msg[0] = 0;
        if (g->text_to_move(st, bad_moves[i], &m, &err) != -1)
            fail_msg("move '%s' accepted", bad_moves[i]);
        assert_true(err.msg[0] != 0);
    }
    const char *bad[] = {"", "WWWWWWWW b", "8/8/8/8/8/8/8/8 b",
                         "......../......../......../......../......../"
                         "......../......../........",
                         "......../......../......../......../......../"
                         "......../......../........ x",
                         "......../......../......../......../......../"
                         "......../......../.........  b",
                         "......../......../......../......../......../"
                         "......../......../....... b",
                         "......../......../......../......../......../"
                         "......../......../.......X b",
                         "......../......../......../......../......../"
                         "......../......../........ b 101",
                         "......../......../......../......../......../"
                         "......../......../........ b 5x"};
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
