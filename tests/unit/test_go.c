/* test_go.c — Go and Atari Go: perft against go.md's tables, rule
 * positions (ko, superko cycles, suicide, seki, the end by passes, komi,
 * handicap), a slow reference written here (boards as strings, liberties
 * by flood fill from scratch on every move, repetitions by comparing
 * whole boards) compared with the engine on random games, the playout
 * hook, and SGF records both ways with malformed input. */
#include "testlib.h"

#include "core/format.h"
#include "core/record.h"

static const GameVtbl *go(void)
{
    const GameVtbl *g = game_find("go");
    assert_non_null(g);
    return g;
}

/* ------------------------------------------------------------ perft */

static uint64_t perft(const GameVtbl *g, const void *st, int depth,
                      int with_pass)
{
    if (depth == 0)
        return 1;
    if (g->to_move(st) < 0)
        return 0;
    Move ms[400];
    int n = g->gen_moves(st, ms);
    uint64_t sum = 0;
    void *t = state_alloc(g);
    for (int i = 0; i < n; i++) {
        char txt[16];
        g->move_to_text(st, ms[i], txt, sizeof txt);
        if (!with_pass && !strcmp(txt, "pass"))
            continue;
        memcpy(t, st, g->info.state_size);
        g->make(t, ms[i]);
        sum += perft(g, t, depth - 1, with_pass);
    }
    free(t);
    return sum;
}

static void check_perft(const char *opts, int with_pass, const uint64_t *want,
                        int depths)
{
    void *st = tl_position("go", opts, NULL, NULL);
    for (int d = 1; d <= depths; d++) {
        uint64_t got = perft(go(), st, d, with_pass);
        if (got != want[d - 1])
            fail_msg("perft %s %s depth %d: %llu, go.md says %llu", opts,
                     with_pass ? "with pass" : "without pass", d,
                     (unsigned long long)got,
                     (unsigned long long)want[d - 1]);
    }
    free(st);
}

/* go.md 6.1: positional superko, suicide forbidden, two passes end the
 * game; "pass counted" rows include the pass among the moves, the others
 * never pass. */
static void test_perft(void **state)
{
    (void)state;
    int slow = tl_slow();
    static const uint64_t p9[] = {82, 6643, 531522, 42002809};
    check_perft("size=9", 1, p9, slow ? 4 : 3);
    static const uint64_t n9[] = {81, 6480, 511920, 39929136};
    check_perft("size=9", 0, n9, slow ? 4 : 3);
    static const uint64_t p5[] = {26, 651, 15650, 361041, 7984104};
    check_perft("size=5", 1, p5, slow ? 5 : 4);
    static const uint64_t p19[] = {362, 130683, 47046242};
    check_perft("size=19", 1, p19, slow ? 3 : 2);
    static const uint64_t n3[] = {9, 72, 504, 2976};
    check_perft("size=3", 0, n3, 4);
    static const uint64_t p2[] = {5, 21, 68, 156, 316, 604};
    check_perft("size=2", 1, p2, 6);
    /* suicide allowed changes nothing that early on 9x9 */
    check_perft("size=9,suicide=true", 1, p9, 3);
}

/* ------------------------------------------------------------ rules */

static int legal(const char *opts, const char *setup, const char *moves,
                 const char *m)
{
    const GameVtbl *g = go();
    void *st = tl_position("go", opts, setup, moves);
    Move mv;
    PlyError err = {{0}};
    int ok = g->text_to_move(st, m, &mv, &err) == 0;
    /* gen_moves agrees with text_to_move */
    Move ms[400];
    int n = g->gen_moves(st, ms), in = 0;
    for (int i = 0; i < n; i++) {
        char t[16];
        g->move_to_text(st, ms[i], t, sizeof t);
        in |= !strcasecmp(t, m);
    }
    if (in != ok)
        fail_msg("%s after '%s': gen_moves and text_to_move disagree", m,
                 moves ? moves : "");
    free(st);
    return ok;
}

static void test_simple_ko(void **state)
{
    (void)state;
    /* a ko on 5x5: White takes at C3, Black may not retake at once */
    const char *setup = "...../.XO../X.XO./.XO../..... w";
    static const char *const rules[] = {"ko=psk", "ko=ssk", "ko=simple"};
    for (int i = 0; i < 3; i++) {
        char o[64];
        snprintf(o, sizeof o, "size=5,%s", rules[i]);
        assert_true(legal(o, setup, NULL, "B3"));
        assert_false(legal(o, setup, "B3", "C3"));
        /* after an exchange elsewhere the ko may be retaken */
        assert_true(legal(o, setup, "B3 E5 E1", "C3"));
    }
}

static void test_superko_cycle(void **state)
{
    (void)state;
    /* 2x2: after A2 B2 A1 B1 A2 A1 Black's A2 captures three stones and
     * recreates the board after the first move: not a simple ko */
    const char *seq = "A2 B2 A1 B1 A2 A1";
    assert_false(legal("size=2,ko=psk", NULL, seq, "A2"));
    assert_false(legal("size=2,ko=ssk", NULL, seq, "A2"));
    assert_true(legal("size=2,ko=simple", NULL, seq, "A2"));
    /* 2x2: the board B2 would recreate came with the other player to
     * move: only situational superko allows it */
    const char *seq2 = "B2 B1 A1 pass A2 B1";
    assert_false(legal("size=2,ko=psk", NULL, seq2, "B2"));
    assert_true(legal("size=2,ko=ssk", NULL, seq2, "B2"));
    assert_true(legal("size=2,ko=simple", NULL, seq2, "B2"));
    /* 3x3, a longer cycle */
    const char *seq3 = "B1 A2 C1 B3 B2 A1 A3";
    assert_false(legal("size=3,ko=psk", NULL, seq3, "A2"));
    assert_true(legal("size=3,ko=simple", NULL, seq3, "A2"));
}

static void test_suicide(void **state)
{
    (void)state;
    /* go.md 6.3.1: B a2, B b1, then W a1 is a one-stone suicide */
    const char *s1 = "........./........./........./........./........./"
                     "........./........./X......../.X....... w";
    assert_false(legal("size=9", s1, NULL, "A1"));
    assert_false(legal("size=9,suicide=true", s1, NULL, "A1"));
    /* two stones: W B1 joins A1 without liberties */
    const char *s2 = "...../...../...../XX.../O.X.. w";
    assert_false(legal("size=5", s2, NULL, "B1"));
    assert_true(legal("size=5,suicide=true", s2, NULL, "B1"));
    void *st = tl_position("go", "size=5,suicide=true", s2, "B1");
    char text[4096];
    go()->to_text(st, text, sizeof text);
    assert_true(!strncmp(text, "...../...../...../XX.../..X.. b", 31));
    free(st);
    /* a capture is never suicide: Black A1 takes A2 */
    const char *s3 = "...../...../X..../OX.../.O... b";
    assert_true(legal("size=5", s3, NULL, "A1"));
}

static void area_of(const char *opts, const char *setup, const char *moves,
                    int *b, int *w, double *r0)
{
    const GameVtbl *g = go();
    void *st = tl_position("go", opts, setup, moves);
    *b = g->score(st, 0);
    *w = g->score(st, 1);
    double r[2];
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    *r0 = r[0];
    free(st);
}

static void test_seki_and_komi(void **state)
{
    (void)state;
    /* 3x3 seki: Black A1 A2 A3 B2, White C1 C2 C3 share the liberties B3
     * and B1; a Black move there is self-atari. Both stay: 4 to 3 and
     * two neutral points. */
    const char *seki = "X.O/XXO/X.O b";
    int b, w;
    double r0;
    area_of("size=3,komi=0.5", seki, "pass pass", &b, &w, &r0);
    assert_int_equal(b, 4);
    assert_int_equal(w, 3);
    assert_true(r0 == 1);
    area_of("size=3,komi=1", seki, "pass pass", &b, &w, &r0);
    assert_true(r0 == 0);
    area_of("size=3,komi=1.5", seki, "pass pass", &b, &w, &r0);
    assert_true(r0 == -1);
    /* B3 is legal but self-atari: White then takes five stones */
    void *st = tl_position("go", "size=3", seki, "B3 B1");
    char text[4096];
    go()->to_text(st, text, sizeof text);
    assert_true(!strncmp(text, "..O/..O/.OO b", 13));
    free(st);
    /* territory: Black walls off a corner */
    area_of("size=5,komi=0", "..X../..X../XXX../...../..... b",
            "pass pass", &b, &w, &r0);
    assert_int_equal(b, 25);   /* no White stone: everything reaches Black */
    area_of("size=5,komi=0", "..X.O/..X.O/XXX.O/...OO/OOOO. b",
            "pass pass", &b, &w, &r0);
    assert_int_equal(b, 9);
    assert_int_equal(w, 10);
    assert_true(r0 == -1);
}

static void test_end_by_passes(void **state)
{
    (void)state;
    const GameVtbl *g = go();
    void *st = tl_position("go", "size=5", NULL, "C3 pass");
    assert_int_equal(g->to_move(st), 0);
    free(st);
    st = tl_position("go", "size=5", NULL, "pass C3 pass D4");
    assert_int_equal(g->to_move(st), 0);   /* a move resets the count */
    free(st);
    st = tl_position("go", "size=5", NULL, "C3 pass pass");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    Move ms[400];
    assert_int_equal(g->gen_moves(st, ms), 0);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] == 1);     /* 25 to 0, komi 7.5 */
    free(st);
    /* the ply cap: min(3*size*size, 600) */
    st = tl_position("go", "size=2", NULL, NULL);
    int plies = 0;
    while (g->to_move(st) >= 0 && plies < 100) {
        int n = g->gen_moves(st, ms);
        /* never pass twice in a row: the cap must end it */
        char t[16];
        g->move_to_text(st, ms[0], t, sizeof t);
        g->make(st, ms[n > 1 && plies % 3 ? 1 : 0]);
        plies++;
    }
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    assert_true(plies <= 12);
    free(st);
}

static void test_handicap(void **state)
{
    (void)state;
    const GameVtbl *g = go();
    char text[8192];
    void *st = tl_position("go", "size=9,handicap=2", NULL, NULL);
    assert_int_equal(g->to_move(st), 1);
    g->to_text(st, text, sizeof text);
    /* C3 and G7 */
    assert_true(!strncmp(text, "........./........./......X../........./"
                         "........./........./..X....../........./"
                         "......... w", 90));
    assert_false(legal("size=9,handicap=2", NULL, NULL, "C3"));
    free(st);
    st = tl_position("go", "size=9,handicap=5", NULL, NULL);
    assert_int_equal(g->score(st, 0), 81);
    g->to_text(st, text, sizeof text);
    assert_true(text[4 * 10 + 4] == 'X');    /* E5 */
    free(st);
    st = tl_position("go", "size=19,handicap=9", NULL, NULL);
    g->to_text(st, text, sizeof text);
    static const char *const pts[] = {"D4", "Q16", "D16", "Q4", "K10",
                                      "D10", "Q10", "K4", "K16"};
    for (int i = 0; i < 9; i++)
        assert_false(legal("size=19,handicap=9", NULL, NULL, pts[i]));
    free(st);
    /* compensation: 2 stones, komi 0.5 */
    int b, w;
    double r0;
    area_of("size=9,handicap=2,komi=0.5,compensation=n", NULL,
            "pass pass", &b, &w, &r0);
    assert_int_equal(b, 81);
    assert_true(r0 == 1);   /* 81 - 2 - 0.5 > 0 */
    /* bad handicaps */
    PlyError err = {{0}};
    void *s2 = state_alloc(g);
    assert_int_equal(state_setup(g, s2, "size=9,handicap=1", NULL, 1, &err),
                     -1);
    assert_int_equal(state_setup(g, s2, "size=7,handicap=2", NULL, 1, &err),
                     -1);
    assert_int_equal(state_setup(g, s2, "size=10,handicap=5", NULL, 1, &err),
                     -1);
    assert_int_equal(state_setup(g, s2, "size=10,handicap=4", NULL, 1, &err),
                     0);
    free(s2);
}

static void test_notation_and_setup_errors(void **state)
{
    (void)state;
    const GameVtbl *g = go();
    void *st = tl_position("go", "size=9", NULL, NULL);
    Move m;
    PlyError err = {{0}};
    static const char *const bad[] = {"I5", "J10", "A0", "Z1", "", "E", "5E",
                                      "E5x", "passs", NULL};
    for (int i = 0; bad[i]; i++)
        assert_int_equal(g->text_to_move(st, bad[i], &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "j9", &m, &err), 0);
    char t[16];
    g->move_to_text(st, m, t, sizeof t);
    assert_string_equal(t, "J9");
    static const char *const setups[] = {
        "", "........./", "....../...../...../...../..... b",
        "..... b", "........./........./........./........./........./"
        "........./........./........./......... x",
        "........./........./........./........./........./"
        "........./........./........./......... b ko=Z9",
        "........./........./........./........./........./"
        "........./........./........./......... b pass=3",
        "........./........./........./........./........./"
        "........./........./........./......... b hist=zz",
        "........./........./........./........./........./"
        "........./........./........./......... b hist=1",
        "........./........./........./........./........./"
        "........./........./........./......... b ply=5 ply=5",
        "........./........./........./........./........./"
        "........./........./........./......... b winner=b",
        "XO......./O......../........./........./........./"
        "........./........./........./......... b",
        NULL};
    for (int i = 0; setups[i]; i++)
        if (!g->from_text(st, setups[i], &err))
            fail_msg("setup '%s' was accepted", setups[i]);
    free(st);
}

static void test_atari_go(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("atari-go");
    assert_non_null(g);
    /* the first capture wins */
    void *st = tl_position("atari-go", "size=5", NULL, "B1 A1");
    assert_int_equal(g->to_move(st), 0);
    free(st);
    st = tl_position("atari-go", "size=5", NULL, "B1 A1 A2");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] == 1 && r[1] == -1);
    free(st);
    /* target 2: the game goes on after one capture */
    st = tl_position("atari-go", "size=5,target=2", NULL, "B1 A1 A2");
    assert_int_equal(g->to_move(st), 1);
    assert_int_equal(g->score(st, 0), 1);
    free(st);
    /* suicide: forbidden, or a loss */
    const char *s = "...../...../...../X..../.X... w";
    Move m;
    PlyError err = {{0}};
    st = tl_position("atari-go", "size=5", s, NULL);
    assert_int_equal(g->text_to_move(st, "A1", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "pass", &m, &err), -1);
    free(st);
    st = tl_position("atari-go", "size=5,suicide=lose", s, "A1");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 1);
    free(st);
    /* no placement: pass (default) or lose */
    st = tl_position("atari-go", "size=2", "X./.O b", NULL);
    Move ms[400];
    int n = g->gen_moves(st, ms);
    assert_int_equal(n, 2);     /* A1 and B2, no pass */
    free(st);
    st = tl_position("atari-go", "size=3", ".O./OOO/.O. b", NULL);
    n = g->gen_moves(st, ms);
    char t[16];
    g->move_to_text(st, ms[0], t, sizeof t);
    assert_string_equal(t, "pass");
    assert_int_equal(n, 1);
    free(st);
    st = tl_position("atari-go", "size=3,nomove=lose", ".O./OOO/... w",
                     "B1");
    /* White's move left Black without a placement: White wins */
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[1] == 1);
    free(st);
}

/* ------------------------------------------------------------ reference */

enum { RMAX = 19, RHIST = 700 };

typedef struct Ref {
    int n, side, passes, ply, over, ko_rule, suicide;
    char b[RMAX * RMAX + 1];        /* row 1 first, '.', 'X', 'O' */
    char hist[RHIST][RMAX * RMAX + 1];
    int hside[RHIST];
    int nh;
    char prev[RMAX * RMAX + 1];     /* board before the last move */
} Ref;

static int flood_libs(const char *b, int n, int start, char *mark)
{
    /* marks the group of start, returns whether it reaches an empty point */
    int stack[RMAX * RMAX], sp = 0, libs = 0;
    char c = b[start];
    memset(mark, 0, (size_t)(n * n));
    stack[sp++] = start;
    mark[start] = 1;
    while (sp) {
        int p = stack[--sp], x = p % n, y = p / n;
        int nb[4] = {x > 0 ? p - 1 : -1, x < n - 1 ? p + 1 : -1,
                     y > 0 ? p - n : -1, y < n - 1 ? p + n : -1};
        for (int d = 0; d < 4; d++) {
            int q = nb[d];
            if (q < 0)
                continue;
            if (b[q] == '.')
                libs = 1;
            else if (b[q] == c && !mark[q]) {
                mark[q] = 1;
                stack[sp++] = q;
            }
        }
    }
    return libs;
}

/* Plays colour c at p on a copy: out gets the board; returns the
 * captured count, -1 for a suicide of more than one stone, -2 for a lone
 * stone's. */
static int ref_place(const char *b, int n, int p, char c, char *out)
{
    char mark[RMAX * RMAX];
    char o = c == 'X' ? 'O' : 'X';
    memcpy(out, b, (size_t)(n * n) + 1);
    out[p] = c;
    int captured = 0, x = p % n, y = p / n;
    int nb[4] = {x > 0 ? p - 1 : -1, x < n - 1 ? p + 1 : -1,
                 y > 0 ? p - n : -1, y < n - 1 ? p + n : -1};
    for (int d = 0; d < 4; d++) {
        int q = nb[d];
        if (q < 0 || out[q] != o)
            continue;
        if (!flood_libs(out, n, q, mark))
            for (int i = 0; i < n * n; i++)
                if (mark[i]) {
                    out[i] = '.';
                    captured++;
                }
    }
    if (captured)
        return captured;
    if (flood_libs(out, n, p, mark))
        return 0;
    int k = 0;
    for (int i = 0; i < n * n; i++)
        if (mark[i]) {
            out[i] = '.';
            k++;
        }
    return k == 1 ? -2 : -1;
}

static int ref_legal(const Ref *r, int p, char *out)
{
    if (r->b[p] != '.')
        return 0;
    char c = r->side ? 'O' : 'X';
    int k = ref_place(r->b, r->n, p, c, out);
    if (k == -2 || (k == -1 && !r->suicide))
        return 0;
    if (r->ko_rule == 2)
        return strcmp(out, r->prev) != 0;
    for (int i = 0; i < r->nh; i++)
        if (!strcmp(out, r->hist[i]) &&
            (r->ko_rule == 0 || r->hside[i] == !r->side))
            return 0;
    return 1;
}

static void ref_push(Ref *r)
{
    assert_true(r->nh < RHIST);
    strcpy(r->hist[r->nh], r->b);
    r->hside[r->nh++] = r->side;
}

static void ref_play(Ref *r, int p)
{
    char out[RMAX * RMAX + 1];
    strcpy(r->prev, r->b);
    if (p < 0) {
        r->passes++;
    } else {
        assert_true(ref_legal(r, p, out));
        strcpy(r->b, out);
        r->passes = 0;
    }
    r->side ^= 1;
    r->ply++;
    ref_push(r);
    int cap = 3 * r->n * r->n < 600 ? 3 * r->n * r->n : 600;
    if (r->passes >= 2 || r->ply >= cap)
        r->over = 1;
}

static int ref_area(const Ref *r, char who)
{
    int n = r->n, a = 0;
    for (int p = 0; p < n * n; p++) {
        if (r->b[p] == who) {
            a++;
            continue;
        }
        if (r->b[p] != '.')
            continue;
        /* the empty region of p reaches only who? */
        char tmp[RMAX * RMAX + 1], mark[RMAX * RMAX];
        strcpy(tmp, r->b);
        (void)flood_libs;
        int stack[RMAX * RMAX], sp = 0, reach = 0;
        memset(mark, 0, sizeof mark);
        stack[sp++] = p;
        mark[p] = 1;
        while (sp) {
            int q = stack[--sp], x = q % n, y = q / n;
            int nb[4] = {x > 0 ? q - 1 : -1, x < n - 1 ? q + 1 : -1,
                         y > 0 ? q - n : -1, y < n - 1 ? q + n : -1};
            for (int d = 0; d < 4; d++) {
                int s = nb[d];
                if (s < 0)
                    continue;
                if (tmp[s] == '.' && !mark[s]) {
                    mark[s] = 1;
                    stack[sp++] = s;
                } else if (tmp[s] != '.') {
                    reach |= tmp[s] == 'X' ? 1 : 2;
                }
            }
        }
        a += reach == (who == 'X' ? 1 : 2);
    }
    return a;
}

static void point_text(int n, int p, char *t)
{
    int x = p % n, y = p / n;
    sprintf(t, "%c%d", 'A' + x + (x >= 8), y + 1);
}

/* The engine's board from its setup string, as the reference's. */
static void engine_board(const GameVtbl *g, const void *st, int n, char *out)
{
    static char text[70000];
    g->to_text(st, text, sizeof text);
    for (int y = 0; y < n; y++)
        memcpy(out + y * n, text + (n - 1 - y) * (n + 1), (size_t)n);
    out[n * n] = 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void compare_random_games(int n, const char *ko, int suicide,
                                 int games, uint64_t seed)
{
    const GameVtbl *g = go();
    char opts[96];
    static const char *const kos[] = {"psk", "ssk", "simple"};
    int kr = 0;
    while (strcmp(kos[kr], ko))
        kr++;
    snprintf(opts, sizeof opts, "size=%d,ko=%s,suicide=%d,komi=0.5", n, ko,
             suicide);
    Ref *r = malloc(sizeof *r);
    Rng rng;
    rng_seed(&rng, seed);
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("go", opts, NULL, NULL);
        memset(r, 0, sizeof *r);
        r->n = n;
        r->ko_rule = kr;
        r->suicide = suicide;
        memset(r->b, '.', (size_t)(n * n));
        strcpy(r->prev, r->b);
        ref_push(r);
        for (;;) {
            char eb[RMAX * RMAX + 1];
            engine_board(g, st, n, eb);
            assert_string_equal(eb, r->b);
            assert_int_equal(g->check(st), 0);
            /* the setup string round-trips, history and all */
            {
                static char t1[70000], t2[70000];
                PlyError e = {{0}};
                void *c = tl_position("go", opts, NULL, NULL);
                assert_true(g->to_text(st, t1, sizeof t1) > 0);
                if (g->from_text(c, t1, &e))
                    fail_msg("%s: %s", t1, e.msg);
                assert_true(g->to_text(c, t2, sizeof t2) > 0);
                assert_string_equal(t1, t2);
                assert_true(g->hash(c) == g->hash(st));
                free(c);
            }
            if (r->over) {
                assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
                assert_int_equal(g->score(st, 0), ref_area(r, 'X'));
                assert_int_equal(g->score(st, 1), ref_area(r, 'O'));
                break;
            }
            assert_int_equal(g->to_move(st), r->side);
            /* the legal moves, as sorted text */
            static char want[RMAX * RMAX + 1][8], got[RMAX * RMAX + 1][8];
            int nw = 0;
            char out[RMAX * RMAX + 1];
            for (int p = 0; p < n * n; p++)
                if (ref_legal(r, p, out))
                    point_text(n, p, want[nw++]);
            strcpy(want[nw++], "pass");
            Move ms[400];
            int ng = g->gen_moves(st, ms);
            for (int i = 0; i < ng; i++)
                g->move_to_text(st, ms[i], got[i], 8);
            qsort(want, (size_t)nw, 8, cmp_str);
            qsort(got, (size_t)ng, 8, cmp_str);
            if (nw != ng)
                fail_msg("%s game %d ply %d: reference %d moves, engine %d",
                         opts, gi, r->ply, nw, ng);
            for (int i = 0; i < nw; i++)
                assert_string_equal(want[i], got[i]);
            /* pass rarely, so that games reach captures and cycles */
            int k = (int)rng_below(&rng, (uint32_t)ng);
            if (!strcmp(got[k], "pass") && ng > 1 && rng_below(&rng, 4))
                k = (k + 1) % ng;
            Move m;
            PlyError err = {{0}};
            assert_int_equal(g->text_to_move(st, got[k], &m, &err), 0);
            g->make(st, m);
            int p = -1;
            if (strcmp(got[k], "pass")) {
                int x = got[k][0] - 'A', y = atoi(got[k] + 1) - 1;
                if (got[k][0] > 'I')
                    x--;
                p = y * n + x;
            }
            ref_play(r, p);
        }
        free(st);
    }
    free(r);
}

static void test_reference(void **state)
{
    (void)state;
    static const char *const kos[] = {"psk", "ssk", "simple"};
    int more = tl_slow() ? 5 : 1;
    for (int k = 0; k < 3; k++)
        for (int s = 0; s <= 1; s++) {
            compare_random_games(2, kos[k], s, 40 * more, 11 + (uint64_t)k);
            compare_random_games(3, kos[k], s, 20 * more, 21 + (uint64_t)k);
            compare_random_games(4, kos[k], s, 6 * more, 31 + (uint64_t)s);
            compare_random_games(5, kos[k], s, 2 * more, 41 + (uint64_t)s);
        }
    compare_random_games(7, "psk", 0, more, 51);
    compare_random_games(9, "psk", 1, more, 61);
}

/* ------------------------------------------------------------ playout */

static void test_playout(void **state)
{
    (void)state;
    const GameVtbl *g = go();
    Rng r;
    rng_seed(&r, 7);
    static const char *const opts[] = {"size=9", "size=19", "size=5,ko=ssk",
                                       "size=9,ko=simple,suicide=true"};
    for (int o = 0; o < 4; o++)
        for (int i = 0; i < 20; i++) {
            void *st = tl_position("go", opts[o], NULL,
                                   i % 2 ? "C3 D4" : NULL);
            g->playout(st, &r);
            assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
            assert_int_equal(g->check(st), 0);
            double ret[2];
            g->returns(st, ret);
            assert_true(ret[0] == -ret[1]);
            free(st);
        }
    const GameVtbl *a = game_find("atari-go");
    for (int i = 0; i < 50; i++) {
        void *st = tl_position("atari-go", "size=7", NULL, NULL);
        a->playout(st, &r);
        assert_int_equal(a->to_move(st), PLAYER_TERMINAL);
        assert_int_equal(a->check(st), 0);
        free(st);
    }
}

/* ------------------------------------------------------------ SGF */

typedef struct Got {
    int n;
    char game[32], options[128], setup[700], moves[4096], seats[2][64];
    int has_result;
    double r0;
    char reason[16];
} Got;

static int collect(const Record *r, void *ctx, PlyError *err)
{
    (void)err;
    Got *g = (Got *)ctx + ((Got *)ctx)->n++;
    if (((Got *)ctx)->n > 4)
        return -1;
    snprintf(g->game, sizeof g->game, "%s", r->game);
    snprintf(g->options, sizeof g->options, "%s",
             r->options ? r->options : "");
    snprintf(g->setup, sizeof g->setup, "%s", r->setup ? r->setup : "");
    g->moves[0] = 0;
    for (int i = 0; i < r->nmoves; i++) {
        strcat(g->moves, i ? " " : "");
        strcat(g->moves, r->moves[i]);
    }
    for (int i = 0; i < 2; i++)
        snprintf(g->seats[i], sizeof g->seats[i], "%s", r->seats[i]);
    g->has_result = r->has_result;
    g->r0 = r->result[0];
    snprintf(g->reason, sizeof g->reason, "%s", r->reason ? r->reason : "");
    return 0;
}

static int read_sgf(const char *text, Got *got, PlyError *err)
{
    const GameFormat *f = game_format(go(), "sgf");
    assert_non_null(f);
    memset(got, 0, sizeof *got * 5);
    return f->read_records(go(), text, strlen(text), collect, got, err);
}

static char *write_sgf(const GameVtbl *g, const Record *r)
{
    const GameFormat *f = game_format(g, "sgf");
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    PlyError err = {{0}};
    if (f->write_record(g, r, mem, &err))
        fail_msg("write: %s", err.msg);
    fclose(mem);
    return buf;
}

static void test_sgf_example(void **state)
{
    (void)state;
    Got got[5];
    PlyError err = {{0}};
    /* go.md 6.3.5 */
    assert_int_equal(read_sgf("(;FF[4]GM[1]SZ[9]KM[7]HA[2]AB[cg][gc];W[ee];"
                              "B[])", got, &err), 0);
    assert_int_equal(got[0].n, 1);
    assert_string_equal(got[0].game, "go");
    assert_string_equal(got[0].options, "size=9,komi=7,handicap=2");
    assert_string_equal(got[0].setup, "");
    assert_string_equal(got[0].moves, "E5 pass");
    /* tt is a pass too, and FF[3] lower-case property names are read */
    assert_int_equal(read_sgf("(;GaMe[1]SZ[5];B[cc];W[tt];B[])", got, &err),
                     0);
    assert_string_equal(got[0].moves, "C3 pass pass");
    /* AB/AW not a handicap: a setup string; variations: the main line */
    assert_int_equal(read_sgf("(;SZ[5]AB[aa]AW[ee]PL[W];W[cc](;B[dd];W[])"
                              "(;B[bb]))(;SZ[3];B[bb])", got, &err), 0);
    assert_int_equal(got[0].n, 2);
    assert_string_equal(got[0].setup, "X..../...../...../...../....O w");
    assert_string_equal(got[0].moves, "C3 D2 pass");
    assert_string_equal(got[1].moves, "B2");
    /* atari-go */
    assert_int_equal(read_sgf("(;PLYGAME[atari-go]SZ[5]RE[B+];B[ba];W[aa];"
                              "B[ab])", got, &err), 0);
    assert_string_equal(got[0].game, "atari-go");
    assert_true(got[0].has_result && got[0].r0 == 1);
    assert_string_equal(got[0].reason, "normal");
    /* the results Ply's writer gives a forfeit and a loss on time come
     * back with their reasons */
    assert_int_equal(read_sgf("(;SZ[5]RE[W+F];B[cc])(;SZ[5]RE[B+Time];"
                              "B[cc])(;SZ[5]RE[Draw])", got, &err), 0);
    assert_true(got[0].has_result && got[0].r0 == -1);
    assert_string_equal(got[0].reason, "illegal");
    assert_true(got[1].has_result && got[1].r0 == 1);
    assert_string_equal(got[1].reason, "time");
    assert_true(got[2].has_result && got[2].r0 == 0);
    /* setup during the game and a mover out of turn are refused */
    assert_int_equal(read_sgf("(;SZ[5];B[cc];AB[aa])", got, &err), -1);
    assert_non_null(strstr(err.msg, "after the first node"));
    assert_int_equal(read_sgf("(;SZ[5];B[cc];B[dd])", got, &err), -1);
    assert_non_null(strstr(err.msg, "B[] but White is to move"));
}

static void round_trip(const char *game, const char *opts, uint64_t seed,
                       int result)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, opts, NULL, NULL);
    Rng r;
    rng_seed(&r, seed);
    static char texts[700][8];
    const char *mv[700];
    int n = 0;
    while (g->to_move(st) >= 0 && n < 150) {
        Move ms[400];
        int k = g->gen_moves(st, ms);
        Move m = ms[rng_below(&r, (uint32_t)k)];
        g->move_to_text(st, m, texts[n], 8);
        mv[n] = texts[n];
        n++;
        g->make(st, m);
    }
    Record rec;
    record_init(&rec);
    rec.game = game;
    rec.options = opts;
    rec.nseats = 2;
    rec.seats[0] = "ply [mcts]";
    rec.seats[1] = "back\\slash]";
    rec.nmoves = n;
    rec.moves = mv;
    if (result) {
        rec.has_result = 1;
        rec.result[0] = g->to_move(st) < 0 ? 1 : -1;
        rec.result[1] = -rec.result[0];
        rec.reason = "normal";
    }
    char *text = write_sgf(g, &rec);
    Got got[5];
    PlyError err = {{0}};
    if (read_sgf(text, got, &err))
        fail_msg("reading back:\n%s\n%s", text, err.msg);
    assert_string_equal(got[0].game, game);
    assert_string_equal(got[0].options, opts);
    assert_string_equal(got[0].seats[0], "ply [mcts]");
    assert_string_equal(got[0].seats[1], "back\\slash]");
    char all[4096] = "";
    for (int i = 0; i < n; i++) {
        strcat(all, i ? " " : "");
        strcat(all, mv[i]);
    }
    assert_string_equal(got[0].moves, all);
    assert_int_equal(got[0].has_result, result);
    if (result)
        assert_true(got[0].r0 == rec.result[0]);
    free(text);
    free(st);
}

static void test_sgf_round_trip(void **state)
{
    (void)state;
    round_trip("go", "size=9,komi=7", 1, 1);
    round_trip("go", "size=9,handicap=3,komi=0.5", 2, 1);
    round_trip("go", "size=5,ko=ssk,suicide=true", 3, 0);
    round_trip("go", "size=19", 4, 1);
    round_trip("atari-go", "size=7", 5, 1);
    round_trip("atari-go", "size=5,target=3,suicide=lose", 6, 1);
    /* a finished game records the score */
    const GameVtbl *g = go();
    const char *mv[] = {"C3", "pass", "pass"};
    Record rec;
    record_init(&rec);
    rec.game = "go";
    rec.options = "size=5";
    rec.nseats = 2;
    rec.seats[0] = "a";
    rec.seats[1] = "b";
    rec.nmoves = 3;
    rec.moves = mv;
    rec.has_result = 1;
    rec.result[0] = 1;
    rec.result[1] = -1;
    char *text = write_sgf(g, &rec);
    assert_non_null(strstr(text, "RE[B+17.5]"));
    assert_non_null(strstr(text, "SZ[5]KM[7.5]"));
    assert_non_null(strstr(text, ";B[cc];W[];B[]"));
    free(text);
    /* an illegal move in a record is refused */
    const char *bad[] = {"C3", "C3"};
    rec.moves = bad;
    rec.nmoves = 2;
    const GameFormat *f = game_format(g, "sgf");
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    PlyError err = {{0}};
    assert_int_equal(f->write_record(g, &rec, mem, &err), -1);
    fclose(mem);
    free(buf);
}

static void test_sgf_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "(", "(;", ")", "x", "(;GM[2])", "(;SZ[99])", "(;SZ[9:7])",
        "(;SZ[9];B[zz])", "(;B[aa];B[bb])", "(;SZ[5];B[aa];W[aa])",
        "(;C[unclosed", "((;))", "(;FF[4]AB[aa:zz])", "(;AB[])",
        "(;SZ[5]AB[aa];AB[bb])", "(;KM[abc])", "(;KM[7.25])", "(;HA[20])",
        "(;PL[X])", "(;PLYGAME[chess])", "(;PLYOPTIONS[size=99])",
        "(;SZ[5];B[aa];W[]", "(;SZ[5];B[aa]", "(;B", "(;B[aa]C)",
        "(;SZ[5];W[aa])", "(;SZ[5]AB[aa][ab][ba][bb]AW[ee]PL[B];B[cc])x",
        /* the 2x2 superko cycle of test_superko_cycle */
        "(;SZ[2];B[aa];W[ba];B[ab];W[bb];B[aa];W[ab];B[aa])",
        "(;SZ[5];B[aa];W[];B[];W[bb])", NULL};
    Got got[5];
    for (int i = 0; bad[i]; i++) {
        PlyError err = {{0}};
        if (read_sgf(bad[i], got, &err) != -1)
            fail_msg("'%s' was read", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    /* deep nesting is refused, not a stack overflow */
    size_t n = 100000;
    char *deep = malloc(3 * n + 8);
    for (size_t i = 0; i < n; i++)
        memcpy(deep + 2 * i, "(;", 2);
    memset(deep + 2 * n, ')', n);
    deep[3 * n] = 0;
    PlyError err = {{0}};
    assert_int_equal(read_sgf(deep, got, &err), -1);
    free(deep);
    /* mutations of a good file never crash (the sanitizer build checks) */
    const char *good = "(;FF[4]GM[1]SZ[9]KM[7]HA[2]AB[cg][gc]PB[a\\]b]"
                       "C[x\\\ny];W[ee];B[](;W[dd];B[ff])(;W[aa]))";
    Rng r;
    rng_seed(&r, 3);
    size_t gl = strlen(good);
    char *buf = malloc(gl + 1);
    int ok = 0;
    for (int i = 0; i < 20000; i++) {
        memcpy(buf, good, gl + 1);
        int k = 1 + (int)rng_below(&r, 4);
        for (int j = 0; j < k; j++)
            buf[rng_below(&r, (uint32_t)gl)] = "()[];\\aBW:9t\n"[rng_below(&r,
                                                                        13)];
        size_t len = rng_below(&r, (uint32_t)gl + 1);
        const GameFormat *f = game_format(go(), "sgf");
        memset(got, 0, sizeof got);
        ok += f->read_records(go(), buf, len, collect, got, &err) == 0;
    }
    free(buf);
    assert_true(ok > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_simple_ko),
        cmocka_unit_test(test_superko_cycle),
        cmocka_unit_test(test_suicide),
        cmocka_unit_test(test_seki_and_komi),
        cmocka_unit_test(test_end_by_passes),
        cmocka_unit_test(test_handicap),
        cmocka_unit_test(test_notation_and_setup_errors),
        cmocka_unit_test(test_atari_go),
        cmocka_unit_test(test_reference),
        cmocka_unit_test(test_playout),
        cmocka_unit_test(test_sgf_example),
        cmocka_unit_test(test_sgf_round_trip),
        cmocka_unit_test(test_sgf_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
