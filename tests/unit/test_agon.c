/* test_agon.c — Agon against a second, slow implementation written here
 * from the rules text on axial hex coordinates (q, r), |q|, |r|, |q+r| <=
 * 5, a different geometry from the game's columns of half-heights: the
 * board read from the setup string, moves, captures (same ring or any
 * line), entering between two enemies (suicide, illegal, safe),
 * relocation (Queen first; Guards to the outer ring), the throne, the
 * six-Guard loss and the length rule. Compared on every position of
 * random games under several option sets. Plus the digest's perft (26,
 * 662, 16607) and bad input. */
#include "testlib.h"

typedef struct Slow {
    char b[11][11];     /* [q + 5][r + 5]; '.', G Q g q, X Y x y */
    int black, quiet, length, ply;
    int anyline, enter, qouter, gloss;     /* enter: 0 suicide 1 illegal 2 safe */
    int same;                              /* Dagaz: captor of the mover's type */
} Slow;

static int on(int q, int r)
{
    return abs(q) <= 5 && abs(r) <= 5 && abs(q + r) <= 5;
}

static int dist(int q, int r)
{
    return (abs(q) + abs(r) + abs(q + r)) / 2;
}

static const int NQ[6] = {1, -1, 0, 0, 1, -1}, NR[6] = {0, 0, 1, -1, -1, 1};

/* column X (0..10) and half-height y of the game's names */
static void to_axial(int x, int y, int *q, int *r)
{
    *q = x - 5;
    *r = (y - x - 6) / 2;
}

static void name_of(int q, int r, char *out)
{
    int x = q + 5, y = 2 * r + x + 6;
    sprintf(out, "%c%d", 'a' + x / 2, y);
}

static void slow_read(Slow *s, const char *t)
{
    memset(s->b, ' ', sizeof s->b);
    int x = 0, k = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') {
            x++;
            k = 0;
            continue;
        }
        int q, r;
        to_axial(x, 1 + abs(x - 5) + 2 * k, &q, &r);
        s->b[q + 5][r + 5] = *t;
        k++;
    }
    s->black = t[1] == 'b';
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
    for (int x = 0; x < 11; x++) {
        for (int y = 1; y <= 21; y++) {
            int q, r;
            if ((x + y) & 1)
                continue;
            to_axial(x, y, &q, &r);
            if (on(q, r))
                *out++ = s->b[q + 5][r + 5];
        }
        if (x < 10)
            *out++ = '/';
    }
    if (s->ply)
        sprintf(out, " %c %d %d", s->black ? 'b' : 'w', s->quiet, s->ply);
    else if (s->quiet)
        sprintf(out, " %c %d", s->black ? 'b' : 'w', s->quiet);
    else
        sprintf(out, " %c", s->black ? 'b' : 'w');
}

static char at(const Slow *s, int q, int r)
{
    return on(q, r) ? s->b[q + 5][r + 5] : '#';
}

static int black_piece(char c) { return c == 'g' || c == 'q'; }
static int white_piece(char c) { return c == 'G' || c == 'Q'; }
static int side_piece(char c, int black)
{
    return black ? black_piece(c) : white_piece(c);
}

/* the piece of `black` on (q, r) between two active enemies in a line */
static int slow_flanked(const Slow *s, int q, int r, int black)
{
    for (int d = 0; d < 6; d += 2) {
        int q1 = q + NQ[d], r1 = r + NR[d], q2 = q - NQ[d], r2 = r - NR[d];
        if (!on(q1, r1) || !on(q2, r2))
            continue;
        if (!side_piece(at(s, q1, r1), !black) ||
            !side_piece(at(s, q2, r2), !black))
            continue;
        if (!s->anyline && (dist(q1, r1) != dist(q, r) ||
                            dist(q2, r2) != dist(q, r)))
            continue;
        return 1;
    }
    return 0;
}

static char captured_form(char c)
{
    switch (c) {
    case 'G': return 'X';
    case 'Q': return 'Y';
    case 'g': return 'x';
    case 'q': return 'y';
    }
    return '?';
}

/* an ordinary step; returns the number of captures */
static int slow_step(Slow *s, int q1, int r1, int q2, int r2)
{
    int me = s->black, n = 0;
    s->b[q2 + 5][r2 + 5] = s->b[q1 + 5][r1 + 5];
    s->b[q1 + 5][r1 + 5] = '.';
    for (int d = 0; d < 6; d++) {
        int vq = q2 + NQ[d], vr = r2 + NR[d];
        int wq = vq + NQ[d], wr = vr + NR[d];
        if (!on(wq, wr) || !side_piece(at(s, vq, vr), !me) ||
            !side_piece(at(s, wq, wr), me))
            continue;
        char mover = at(s, q2, r2), far = at(s, wq, wr);
        if (s->same && (mover == 'Q' || mover == 'q') != (far == 'Q' ||
                                                          far == 'q'))
            continue;
        if (!s->anyline && (dist(vq, vr) != dist(q2, r2) ||
                            dist(wq, wr) != dist(q2, r2)))
            continue;
        s->b[vq + 5][vr + 5] = captured_form(at(s, vq, vr));
        n++;
    }
    if (s->enter == 0 && slow_flanked(s, q2, r2, me)) {
        s->b[q2 + 5][r2 + 5] = captured_form(at(s, q2, r2));
        n++;
    }
    return n;
}

static int slow_moves(const Slow *s, char out[][24])
{
    int n = 0;
    char gq = s->black ? 'y' : 'Y', gg = s->black ? 'x' : 'X';
    int have_q = 0, have_g = 0;
    for (int q = -5; q <= 5; q++)
        for (int r = -5; r <= 5; r++) {
            have_q |= on(q, r) && at(s, q, r) == gq;
            have_g |= on(q, r) && at(s, q, r) == gg;
        }
    if (have_q || have_g) {
        char want = have_q ? gq : gg;
        for (int q = -5; q <= 5; q++)
            for (int r = -5; r <= 5; r++) {
                if (!on(q, r) || at(s, q, r) != want)
                    continue;
                for (int q2 = -5; q2 <= 5; q2++)
                    for (int r2 = -5; r2 <= 5; r2++) {
                        if (!on(q2, r2) || at(s, q2, r2) != '.' ||
                            dist(q2, r2) == 0)
                            continue;
                        if ((want == gg || s->qouter) && dist(q2, r2) != 5)
                            continue;
                        char a[8], b[8];
                        name_of(q, r, a);
                        name_of(q2, r2, b);
                        snprintf(out[n++], 24, "%s%s", a, b);
                    }
            }
        return n;
    }
    for (int q = -5; q <= 5; q++)
        for (int r = -5; r <= 5; r++) {
            char p = at(s, q, r);
            if (!on(q, r) || !side_piece(p, s->black))
                continue;
            for (int d = 0; d < 6; d++) {
                int q2 = q + NQ[d], r2 = r + NR[d];
                if (!on(q2, r2) || at(s, q2, r2) != '.' ||
                    dist(q2, r2) > dist(q, r))
                    continue;
                if (dist(q2, r2) == 0 && p != 'Q' && p != 'q')
                    continue;
                if (s->enter == 1) {
                    Slow t = *s;
                    slow_step(&t, q, r, q2, r2);
                    if (slow_flanked(&t, q2, r2, s->black))
                        continue;
                }
                char a[8], b[8];
                name_of(q, r, a);
                name_of(q2, r2, b);
                snprintf(out[n++], 24, "%s%s", a, b);
            }
        }
    if (!n)
        snprintf(out[n++], 24, "pass");
    return n;
}

static void slow_make(Slow *s, const char *m)
{
    int took = 0;
    if (strcmp(m, "pass")) {
        int l1 = m[2] >= '0' && m[2] <= '9' ? 3 : 2;
        int x1 = 2 * (m[0] - 'a') + (atoi(m + 1) & 1), y1 = atoi(m + 1);
        int x2 = 2 * (m[l1] - 'a') + (atoi(m + l1 + 1) & 1);
        int y2 = atoi(m + l1 + 1);
        int q1, r1, q2, r2;
        to_axial(x1, y1, &q1, &r1);
        to_axial(x2, y2, &q2, &r2);
        char p = at(s, q1, r1);
        if (strchr("XYxy", p)) {
            s->b[q2 + 5][r2 + 5] = p == 'X' ? 'G' : p == 'Y' ? 'Q'
                                 : p == 'x' ? 'g' : 'q';
            s->b[q1 + 5][r1 + 5] = '.';
        } else {
            took = slow_step(s, q1, r1, q2, r2);
        }
    }
    s->quiet = took ? 0 : s->quiet + 1;
    s->ply++;
    s->black = !s->black;
}

/* the result for White: 1, -1, 0 a draw, 2 not over */
static int slow_result(const Slow *s)
{
    for (int black = 0; black < 2; black++) {
        int guards = 0;
        for (int d = 0; d < 6; d++)
            guards += at(s, NQ[d], NR[d]) == (black ? 'g' : 'G');
        if (guards < 6)
            continue;
        if (at(s, 0, 0) == (black ? 'q' : 'Q'))
            return black ? -1 : 1;
        if (s->gloss)
            return black ? 1 : -1;
    }
    return s->quiet >= s->length || s->ply >= 2000 ? 0 : 2;
}

static void compare(const char *options, int anyline, int enter, int qouter,
                    int gloss, int same, int length, int games,
                    uint64_t seed)
{
    const GameVtbl *g = game_find("agon");
    Rng rng;
    rng_seed(&rng, seed);
    Move mv[256];
    static char slow[256][24];
    char text[256], want[256];
    int positions = 0, captures = 0, relocations = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("agon", options, NULL, NULL);
        Slow s = {.anyline = anyline, .enter = enter, .qouter = qouter,
                  .gloss = gloss, .same = same, .length = length};
        for (int ply = 0;; ply++) {
            g->to_text(st, text, sizeof text);
            slow_read(&s, text);
            int res = slow_result(&s);
            if (g->to_move(st) == PLAYER_TERMINAL) {
                double ret[2];
                g->returns(st, ret);
                if (res == 2 && ply < 2000)
                    fail_msg("%s: ended early at %s", options, text);
                if (res != 2)
                    assert_true(ret[0] == res);
                break;
            }
            if (res != 2)
                fail_msg("%s: not over at %s", options, text);
            int k = slow_moves(&s, slow);
            int n = g->gen_moves(st, mv);
            tl_same_moves(g, st, mv, n, &slow[0][0], k, sizeof slow[0],
                          options, text);
            positions++;
            /* half the time prefer a capture, so games see many */
            Move m = tl_lively_move(g, st, mv, n, &rng);
            char mt[12];
            g->move_to_text(st, m, mt, sizeof mt);
            relocations += strchr("XYxy", text[0]) != NULL;
            slow_make(&s, mt);
            captures += s.quiet == 0;
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
    print_message("%s: %d games, %d positions, %d captures\n",
                  options ? options : "default", games, positions, captures);
    assert_true(positions > games * 20);
    assert_true(captures > games);
    (void)relocations;
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 100 : 8;
    compare(NULL, 1, 0, 0, 1, 0, 100, games, 1);
    compare("ring=same-ring", 0, 0, 0, 1, 0, 100, games, 5);
    compare("ring=any-line,enter=safe,queenzone=outer-ring,guardloss=0",
            1, 2, 1, 0, 0, 100, games, 2);
    compare("ring=any-line,enter=illegal,length=30", 1, 1, 0, 1, 0, 30,
            games, 3);
    compare("ring=same-ring,enter=illegal,guardloss=0,length=40", 0, 1, 0, 0,
            0, 40, games, 4);
    compare("enter=safe,queenzone=outer-ring,guardloss=0,sametype=1", 1, 2,
            1, 0, 1, 100, games, 6);
}

static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
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
    char mv[256][24];
    int n = slow_moves(s, mv);
    if (d == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        Slow c = *s;
        slow_make(&c, mv[i]);
        if (slow_result(&c) == 2)
            sum += slow_perft(&c, d - 1);
    }
    return sum;
}

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("agon");
    void *st = tl_position("agon", NULL, NULL, NULL);
    /* Dagaz's agon-board (more-games.md §9) */
    assert_int_equal(perft(g, st, 1), 26);
    assert_int_equal(perft(g, st, 2), 662);
    assert_int_equal(perft(g, st, 3), 16607);
    char text[256];
    g->to_text(st, text, sizeof text);
    Slow s = {.anyline = 1, .gloss = 1, .length = 100};
    slow_read(&s, text);
    assert_int_equal(slow_perft(&s, 3), 16607);
    assert_int_equal(perft(g, st, 4), slow_perft(&s, 4));
    /* the start: 91 cells, 7 pieces a side on the outer ring */
    int cells = 0, pieces = 0;
    for (const char *p = text; *p != ' '; p++) {
        cells += *p != '/';
        pieces += *p != '.' && *p != '/';
    }
    assert_int_equal(cells, 91);
    assert_int_equal(pieces, 14);
    free(st);
}

/* The longest move list: six captured Guards, each to any of the 30
 * empty outer-ring cells, 180 relocations (the list once had room for
 * 128 and random games overran it). The slow generator agrees. */
static void test_most_moves(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("agon");
    const char *t = "....../.XXX.../.XXX..../.Qggg..../.gggq...../"
                    ".........../........../........./......../......./"
                    "...... w";
    void *st = tl_position("agon", NULL, t, NULL);
    Move mv[512];
    static char slow[512][24];
    int n = g->gen_moves(st, mv);
    assert_int_equal(n, 180);
    assert_true(n <= g->info.max_moves);
    Slow s = {.anyline = 1, .gloss = 1, .length = 100};
    slow_read(&s, t);
    int k = slow_moves(&s, slow);
    tl_same_moves(g, st, mv, n, &slow[0][0], k, sizeof slow[0], "", t);
    free(st);
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("agon");
    void *st = tl_position("agon", NULL, NULL, NULL);
    PlyError err = {{0}};
    Move m;
    const char *bad_moves[] = {"", "c1", "c1c4", "c1c11", "a5a4", "g1g3",
                               "c0c2", "c3c5", "pass", "c1c3x", "c1c2c3",
                               "a1a3"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        err.msg[0] = 0;
        if (g->text_to_move(st, bad_moves[i], &m, &err) != -1)
            fail_msg("move '%s' accepted", bad_moves[i]);
        assert_true(err.msg[0] != 0);
    }
    const char *bad[] = {
        "", "w", ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G.",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G. x",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G.. w",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G./. w",
        ".g.G.g/G....../......../g.......G/........../..........q/"
        "........../g.......G/......../......g/G.g.G. w",
        ".g.G.g/G....../......../g.......G/........../Q....G....q/"
        "........../g.......G/......../......g/G.g.G. w",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.Z. w",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G. w 101",
        ".g.G.g/G....../......../g.......G/........../Q.........q/"
        "........../g.......G/......../......g/G.g.G. w 3x"};
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
        cmocka_unit_test(test_most_moves),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
