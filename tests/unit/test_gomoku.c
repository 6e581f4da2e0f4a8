/* test_gomoku.c — gomoku and renju: perft against the digest's counts (the
 * old professional opening: 1, 8, 184), a slow second generator written
 * from the RIF definitions over windows of a line (fives, overlines, fours
 * as sets of four stones, threes by straight fours, recursively) compared
 * move for move with gen_moves on dense random boards and by perft on
 * random renju positions, the winner after every move, hand-made
 * forbidden-point positions (double-three, double-four, two fours in one
 * line, overline, a five that takes precedence over an overline and over a
 * double-three, a false three whose straight-four points are themselves
 * forbidden), notation, setup errors and the bot's forced answers. */
#include "testlib.h"

#include "core/bot.h"
#include "core/format.h"
#include "core/record.h"
#include "core/rng.h"
#include "games/gomoku/gomoku.h"

/* ---------------- the slow reference ---------------- */

enum { E = 0, B = 1, W = 2 };
enum { SLOW_DEPTH = 8 };

typedef struct Slow {
    int n;              /* board size */
    int rule;           /* GK_FREESTYLE, GK_STANDARD, GK_RENJU */
    int b[GK_MAX_SIZE][GK_MAX_SIZE];
} Slow;

static const int DX[4] = {1, 0, 1, 1}, DY[4] = {0, 1, 1, -1};

static int at(const Slow *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->n || y >= s->n)
        return -1;      /* off the board */
    return s->b[y][x];
}

/* The line through (x, y) along direction i: up to 7 points each side,
 * -1 off the board; *mid is the index of (x, y). */
static int line_of(const Slow *s, int x, int y, int i, int *line, int *mid)
{
    int len = 0;
    for (int k = -7; k <= 7; k++)
        line[len++] = at(s, x + k * DX[i], y + k * DY[i]);
    *mid = 7;
    return len;
}

static int is_c(const int *line, int len, int i, int c)
{
    return i >= 0 && i < len && line[i] == c;
}

/* A winning line of c through mid: five or more (freestyle, White in
 * renju) or exactly five (standard, Black in renju), by windows. */
static int wins_through(const int *line, int len, int mid, int c, int exact)
{
    for (int a = mid - 4; a <= mid; a++) {
        int all = 1;
        for (int k = a; k < a + 5; k++)
            all &= is_c(line, len, k, c);
        if (!all)
            continue;
        if (!exact || (!is_c(line, len, a - 1, c) &&
                       !is_c(line, len, a + 5, c)))
            return 1;
    }
    return 0;
}

static int slow_exact(const Slow *s, int c)
{
    return s->rule == GK_STANDARD || (s->rule == GK_RENJU && c == B);
}

static int slow_wins_at(const Slow *s, int x, int y, int c)
{
    int line[15], mid;
    for (int i = 0; i < 4; i++) {
        int len = line_of(s, x, y, i, line, &mid);
        if (wins_through(line, len, mid, c, slow_exact(s, c)))
            return 1;
    }
    return 0;
}

static int slow_forbidden(Slow *s, int x, int y, int depth);

/* (x, y) holds Black in the helpers below. */
static int slow_overline(const int *line, int len, int mid)
{
    for (int a = mid - 5; a <= mid; a++) {
        int all = 1;
        for (int k = a; k < a + 6; k++)
            all &= is_c(line, len, k, B);
        if (all)
            return 1;
    }
    return 0;
}

/* Fours through mid: the distinct sets of four black stones that one more
 * stone turns into exactly five. */
static int slow_fours(const int *line, int len, int mid)
{
    unsigned sets[8];
    int n = 0;
    for (int a = mid - 4; a <= mid; a++) {
        int blacks = 0, empties = 0;
        unsigned mask = 0;
        for (int k = a; k < a + 5; k++) {
            if (is_c(line, len, k, B)) {
                blacks++;
                mask |= 1u << k;
            } else if (k >= 0 && k < len && line[k] == E) {
                empties++;
            }
        }
        if (blacks != 4 || empties != 1 || is_c(line, len, a - 1, B) ||
            is_c(line, len, a + 5, B))
            continue;
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= sets[j] == mask;
        if (!dup)
            sets[n++] = mask;
    }
    return n;
}

/* A straight four through mid and q: .XXXX. with exact fives at both
 * ends (q, the stone just added, is one of the four). */
static int slow_straight(const int *line, int len, int mid, int q)
{
    for (int a = mid - 4; a <= mid - 1; a++) {
        if (a < 0 || a + 5 >= len || line[a] != E || line[a + 5] != E ||
            q < a + 1 || q > a + 4)
            continue;
        int all = 1;
        for (int k = a + 1; k <= a + 4; k++)
            all &= line[k] == B;
        if (all && !is_c(line, len, a - 1, B) && !is_c(line, len, a + 6, B))
            return 1;
    }
    return 0;
}

static int slow_three(Slow *s, int x, int y, int i, int depth)
{
    for (int k = -5; k <= 5; k++) {
        int qx = x + k * DX[i], qy = y + k * DY[i];
        if (k == 0 || at(s, qx, qy) != E)
            continue;
        s->b[qy][qx] = B;
        int line[15], mid;
        int len = line_of(s, x, y, i, line, &mid);
        int st = slow_straight(line, len, mid, mid + k);
        s->b[qy][qx] = E;
        if (st && (depth >= SLOW_DEPTH ||
                   slow_forbidden(s, qx, qy, depth + 1) == GK_OK))
            return 1;
    }
    return 0;
}

static int slow_forbidden(Slow *s, int x, int y, int depth)
{
    s->b[y][x] = B;
    int five = 0, over = 0, fours = 0, threes = 0;
    int line[15], mid;
    for (int i = 0; i < 4; i++) {
        int len = line_of(s, x, y, i, line, &mid);
        five |= wins_through(line, len, mid, B, 1);
        over |= slow_overline(line, len, mid);
        fours += slow_fours(line, len, mid);
    }
    int res = GK_OK;
    if (five)
        res = GK_OK;
    else if (over)
        res = GK_OVERLINE;
    else if (fours >= 2)
        res = GK_DOUBLE_FOUR;
    else {
        for (int i = 0; i < 4; i++)
            threes += slow_three(s, x, y, i, depth);
        if (threes >= 2)
            res = GK_DOUBLE_THREE;
    }
    s->b[y][x] = E;
    return res;
}

static void slow_from_state(Slow *s, const GkState *g)
{
    memset(s, 0, sizeof *s);
    s->n = g->size;
    s->rule = g->rule;
    for (int y = 0; y < s->n; y++)
        for (int x = 0; x < s->n; x++) {
            int v = g->cell[(y + 1) * GK_STRIDE + x + 1];
            s->b[y][x] = v == GK_BLACK ? B : v == GK_WHITE ? W : E;
        }
}

/* Legal points of the side to move, as cell indices in gen_moves order
 * (no opening rule). */
static int slow_moves(Slow *s, int black, Move *out)
{
    int n = 0;
    for (int y = 0; y < s->n; y++)
        for (int x = 0; x < s->n; x++) {
            if (s->b[y][x] != E)
                continue;
            if (s->rule == GK_RENJU && black &&
                slow_forbidden(s, x, y, 0) != GK_OK)
                continue;
            out[n++] = (Move)((y + 1) * GK_STRIDE + x + 1);
        }
    return n;
}

/* perft with the slow generator and its own win test */
static uint64_t slow_perft(Slow *s, int black, int depth)
{
    Move mv[GK_MAX_SIZE * GK_MAX_SIZE];
    int n = slow_moves(s, black, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        int x = (int)mv[i] % GK_STRIDE - 1, y = (int)mv[i] / GK_STRIDE - 1;
        int c = black ? B : W;
        s->b[y][x] = c;
        if (!slow_wins_at(s, x, y, c))
            sum += slow_perft(s, !black, depth - 1);
        s->b[y][x] = E;
    }
    return sum;
}

static uint64_t fast_perft(const GameVtbl *g, const void *st, int depth)
{
    if (g->to_move(st) == PLAYER_TERMINAL)
        return 0;
    Move mv[GK_MAX_SIZE * GK_MAX_SIZE];
    int n = g->gen_moves(st, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    GkState c;
    for (int i = 0; i < n; i++) {
        memcpy(&c, st, sizeof c);
        g->make(&c, mv[i]);
        sum += fast_perft(g, &c, depth - 1);
    }
    return sum;
}

/* A random board as a setup string: each point Black, White or empty. */
static void random_setup(Rng *r, int n, int pb, int pw, int black_to_move,
                         char *buf)
{
    size_t k = 0;
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            int v = (int)rng_below(r, 100);
            buf[k++] = v < pb ? 'x' : v < pb + pw ? 'o' : '.';
        }
        buf[k++] = y + 1 < n ? '/' : ' ';
    }
    buf[k++] = black_to_move ? 'b' : 'w';
    buf[k] = 0;
}

/* ---------------- tests ---------------- */

static void test_perft_digest(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("renju");
    assert_non_null(g);
    void *st = tl_position("renju", NULL, NULL, NULL);
    /* old professional rule: 1, 8 and 23 choices (games.md test facts) */
    static const uint64_t want[] = {1, 8, 184, 184 * 222};
    for (int d = 1; d <= 4; d++)
        assert_int_equal(fast_perft(g, st, d), want[d - 1]);
    free(st);
    const GameVtbl *go = game_find("gomoku");
    st = tl_position("gomoku", NULL, NULL, NULL);
    assert_int_equal(fast_perft(go, st, 2), 225 * 224);
    free(st);
    st = tl_position("gomoku", "size=19,opening=pro", NULL, NULL);
    assert_int_equal(fast_perft(go, st, 3), 1 * 8 * 23);
    free(st);
}

/* gen_moves against the slow generator on dense random renju boards,
 * where forbidden points are common */
static void test_forbidden_random(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("renju");
    Rng r;
    rng_seed(&r, 15);
    char setup[1024];
    Move fast[400], slow[400];
    int positions = 0, forbidden = 0, kinds[4] = {0};
    PlyError err = {{0}};
    for (int it = 0; positions < 600 && it < 20000; it++) {
        int n = 9 + (int)rng_below(&r, 7);
        int pb = 20 + (int)rng_below(&r, 25), pw = (int)rng_below(&r, 25);
        random_setup(&r, n, pb, pw, 1, setup);
        char opts[64];
        snprintf(opts, sizeof opts, "size=%d,opening=free", n);
        GkState st;
        int o[PLY_MAX_OPTIONS];
        if (options_parse(g, opts, o, &err) || g->init(&st, o, 1, &err))
            fail_msg("%s", err.msg);
        if (g->from_text(&st, setup, &err))
            continue;       /* both sides have five */
        if (st.result)
            continue;
        Slow s;
        slow_from_state(&s, &st);
        int nf = g->gen_moves(&st, fast);
        int ns = slow_moves(&s, 1, slow);
        if (nf != ns || memcmp(fast, slow, sizeof(Move) * (size_t)nf)) {
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    if (s.b[y][x] != E)
                        continue;
                    uint8_t cell[GK_CELLS];
                    memcpy(cell, st.cell, sizeof cell);
                    int a = gk_forbidden(cell, (y + 1) * GK_STRIDE + x + 1);
                    int b = slow_forbidden(&s, x, y, 0);
                    if (a != b)
                        fail_msg("%s: %d,%d fast %s, slow %s", setup, x, y,
                                 gk_reason_name(a), gk_reason_name(b));
                }
            fail_msg("%s: move lists differ", setup);
        }
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                if (s.b[y][x] == E) {
                    int why = slow_forbidden(&s, x, y, 0);
                    kinds[why]++;
                    forbidden += why != GK_OK;
                }
        positions++;
    }
    assert_int_equal(positions, 600);
    /* the boards exercise every kind */
    assert_true(kinds[GK_OVERLINE] > 50);
    assert_true(kinds[GK_DOUBLE_FOUR] > 50);
    assert_true(kinds[GK_DOUBLE_THREE] > 50);
    assert_true(forbidden > 500);
}

/* perft on random renju games (and standard gomoku), fast and slow */
static void test_perft_slow(void **state)
{
    (void)state;
    static const char *const games[] = {"renju", "gomoku", "gomoku"};
    static const char *const opts[] = {"size=9,opening=free",
                                       "size=7,rule=standard",
                                       "size=7,rule=freestyle"};
    Rng r;
    rng_seed(&r, 42);
    for (int gi = 0; gi < 3; gi++) {
        const GameVtbl *g = game_find(games[gi]);
        for (int k = 0; k < 6; k++) {
            GkState st;
            int o[PLY_MAX_OPTIONS];
            PlyError err = {{0}};
            if (options_parse(g, opts[gi], o, &err) ||
                g->init(&st, o, 1, &err))
                fail_msg("%s", err.msg);
            /* a random game of 16..30 plies, stopped before its end */
            int plies = 16 + (int)rng_below(&r, 15);
            Move mv[400];
            for (int p = 0; p < plies && !st.result; p++) {
                int n = g->gen_moves(&st, mv);
                GkState c = st;
                g->make(&c, mv[rng_below(&r, (uint32_t)n)]);
                if (c.result)
                    break;
                st = c;
            }
            Slow s;
            slow_from_state(&s, &st);
            for (int d = 1; d <= 2; d++)
                assert_int_equal(fast_perft(g, &st, d),
                                 slow_perft(&s, st.side == 0, d));
        }
    }
}

/* the winner after every move of random games, against the slow test */
static void test_winner(void **state)
{
    (void)state;
    static const char *const games[] = {"gomoku", "gomoku", "renju"};
    static const char *const opts[] = {"size=7,rule=freestyle",
                                       "size=7,rule=standard",
                                       "size=7,opening=free"};
    Rng r;
    rng_seed(&r, 7);
    int wins[3] = {0};
    for (int gi = 0; gi < 3; gi++) {
        const GameVtbl *g = game_find(games[gi]);
        for (int k = 0; k < 300; k++) {
            GkState st;
            int o[PLY_MAX_OPTIONS];
            PlyError err = {{0}};
            if (options_parse(g, opts[gi], o, &err) ||
                g->init(&st, o, 1, &err))
                fail_msg("%s", err.msg);
            Move mv[400];
            while (!st.result) {
                int n = g->gen_moves(&st, mv);
                assert_true(n > 0);
                Move m = mv[rng_below(&r, (uint32_t)n)];
                Slow s;
                slow_from_state(&s, &st);
                int x = (int)m % GK_STRIDE - 1, y = (int)m / GK_STRIDE - 1;
                int c = st.side ? W : B;
                s.b[y][x] = c;
                int won = slow_wins_at(&s, x, y, c);
                g->make(&st, m);
                assert_int_equal(st.result == GK_WIN_BLACK ||
                                 st.result == GK_WIN_WHITE, won);
                wins[gi] += won;
            }
        }
        assert_true(wins[gi] > 100);
    }
}

/* Hand-made positions on 15x15: rows from the top (row 15) down. */
static GkState *board(const char *rule_game, const char *const rows[15])
{
    char setup[512];
    size_t k = 0;
    for (int y = 0; y < 15; y++) {
        memcpy(setup + k, rows[y], 15);
        k += 15;
        setup[k++] = y < 14 ? '/' : ' ';
    }
    setup[k++] = 'b';
    setup[k] = 0;
    return tl_position(rule_game, "opening=free", setup, NULL);
}

static int why_at(const char *game, const char *const rows[15],
                  const char *pt)
{
    GkState *st = board(game, rows);
    const GameVtbl *g = game_find(game);
    Move m;
    PlyError err = {{0}};
    int legal = g->text_to_move(st, pt, &m, &err) == 0;
    int why = gk_illegal(st, (int)(legal ? m : 0));
    if (!legal) {
        /* the point by hand: column letter, row number */
        int x = pt[0] - 'a' + 1, y = 16 - atoi(pt + 1);
        why = gk_illegal(st, y * GK_STRIDE + x);
        if (!strstr(err.msg, gk_reason_name(why)))
            fail_msg("%s: message '%s' does not name %s", pt, err.msg,
                     gk_reason_name(why));
    }
    /* and the slow reference agrees */
    Slow s;
    slow_from_state(&s, st);
    int x = pt[0] - 'a', y = 15 - atoi(pt + 1);
    assert_int_equal(st->rule == GK_RENJU ? slow_forbidden(&s, x, y, 0)
                                          : GK_OK, why);
    free(st);
    return why;
}

static void test_forbidden_positions(void **state)
{
    (void)state;
    /* h8 with g8, i8 and h9: one three and a two */
    static const char *const d3[15] = {
        "...............", "...............", "...............",
        "...............", "...............", "...............",
        ".......x.......", "......x.x......", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", d3, "h8"), GK_OK);
    static const char *const d3b[15] = {
        "...............", "...............", "...............",
        "...............", "...............", ".......x.......",
        ".......x.......", "......x.x......", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", d3b, "h8"), GK_DOUBLE_THREE);
    assert_int_equal(why_at("gomoku", d3b, "h8"), GK_OK);
    /* the same with one three blocked by White: a four-three is allowed,
     * a blocked three is no three */
    static const char *const d3c[15] = {
        "...............", "...............", ".......o.......",
        "...............", "...............", ".......x.......",
        ".......x.......", "......x.x......", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    /* h13 white: h8-h9-h10 can still become h8..h11 straight four
     * (h7 and h12 empty) */
    assert_int_equal(why_at("renju", d3c, "h8"), GK_DOUBLE_THREE);
    static const char *const d3d[15] = {
        "...............", "...............", "...............",
        "...............", ".......o.......", ".......x.......",
        ".......x.......", "......x.x......", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    /* h11 white: h8-h10 can only grow to h7..h10 with h11 blocked: no
     * straight four, no three */
    assert_int_equal(why_at("renju", d3d, "h8"), GK_OK);
    /* a double-four: h8 makes e8-h8 and h8-h11 */
    static const char *const d4[15] = {
        "...............", "...............", "...............",
        "...............", ".......x.......", ".......x.......",
        ".......x.......", "....xxx........", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", d4, "h8"), GK_DOUBLE_FOUR);
    /* two fours in one line: x.xxx.x with the stone in the middle */
    static const char *const d4line[15] = {
        "...............", "...............", "...............",
        "...............", "...............", "...............",
        "...............", "...x.x.x.x.....", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", d4line, "g8"), GK_DOUBLE_FOUR);
    /* an overline: xxx.xx filled */
    static const char *const over[15] = {
        "...............", "...............", "...............",
        "...............", "...............", "...............",
        "...............", "..xxx.xx.......", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", over, "f8"), GK_OVERLINE);
    assert_int_equal(why_at("gomoku", over, "f8"), GK_OK);
    /* an overline and a five at once: the five wins (column f) */
    static const char *const overfive[15] = {
        "...............", "...............", "...............",
        "...............", ".....x.........", ".....x.........",
        ".....x.........", "..xxx.xx.......", ".....x.........",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", overfive, "f8"), GK_OK);
    {
        GkState *st = board("renju", overfive);
        const GameVtbl *g = game_find("renju");
        Move m;
        PlyError err = {{0}};
        assert_int_equal(g->text_to_move(st, "f8", &m, &err), 0);
        g->make(st, m);
        assert_int_equal(st->result, GK_WIN_BLACK);
        free(st);
    }
    /* a five and a double-three at once: allowed */
    static const char *const fived3[15] = {
        "...............", "...............", "...............",
        "...............", ".......x.......", ".......x.......",
        "...............", "...xxxx........", "......x........",
        ".....x.........", "...............", "...............",
        "...............", "...............", "...............",
    };
    assert_int_equal(why_at("renju", fived3, "h8"), GK_OK);
    /* White has no restrictions: the same points for White */
    {
        GkState *st = board("renju", d3b);
        st->side = 1;
        assert_int_equal(gk_illegal(st, 8 * GK_STRIDE + 8), GK_OK);
        free(st);
    }
}

/* A false three: h8 makes a vertical three (h9, h10) and a horizontal
 * three (f8, g8); the horizontal one can become a straight four only at
 * e8 or i8, and both are double-fours for Black once h8 is placed (e8 with
 * e9-e11, i8 with i9-i11 ... each a four on its column besides the four in
 * row 8), so it is no three and h8 is allowed. */
static void test_false_three(void **state)
{
    (void)state;
    static const char *const f3[15] = {
        "...............", "...............", "...............",
        "...............", "....x...x......", "....x..xx......",
        "....x..xx......", ".....xx........", "...............",
        "...............", "...............", "...............",
        "...............", "...............", "...............",
    };
    /* e8: e9-e11 with e8 makes e8-e11, a four (open at e7 and e12), and
     * row 8 e8-h8 a four: double-four, forbidden */
    GkState *st = board("renju", f3);
    uint8_t cell[GK_CELLS];
    memcpy(cell, st->cell, sizeof cell);
    int h8 = 8 * GK_STRIDE + 8, e8 = 8 * GK_STRIDE + 5, i8 = 8 * GK_STRIDE + 9;
    cell[h8] = GK_BLACK;
    assert_int_equal(gk_forbidden(cell, e8), GK_DOUBLE_FOUR);
    assert_int_equal(gk_forbidden(cell, i8), GK_DOUBLE_FOUR);
    cell[h8] = GK_EMPTY;
    free(st);
    /* so h8 makes only one true three (the column: h8-h10 with h11 and
     * h7 open... ) and is allowed */
    assert_int_equal(why_at("renju", f3, "h8"), GK_OK);
}

static void test_notation_and_setup(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("gomoku");
    GkState *st = tl_position("gomoku", NULL, NULL, "h8 7,6");
    char buf[64];
    /* 7,6 is h9 on 15x15 (y = 0 at the top row 15) */
    assert_int_equal(st->cell[7 * GK_STRIDE + 8], GK_WHITE);
    assert_int_equal(st->cell[8 * GK_STRIDE + 8], GK_BLACK);
    assert_true(g->move_to_text(st, 7 * GK_STRIDE + 8, buf, sizeof buf) > 0);
    assert_string_equal(buf, "h9");
    Move m;
    PlyError err = {{0}};
    assert_int_equal(g->text_to_move(st, "h8", &m, &err), -1);
    assert_non_null(strstr(err.msg, "not empty"));
    assert_int_equal(g->text_to_move(st, "p1", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "15,0", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "0,0", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "a15", &m, &err), 0);
    assert_int_equal((int)m, 1 * GK_STRIDE + 1);
    free(st);
    /* the opening rule names its zone */
    st = tl_position("renju", NULL, NULL, NULL);
    g = game_find("renju");
    assert_int_equal(g->text_to_move(st, "a1", &m, &err), -1);
    assert_non_null(strstr(err.msg, "opening"));
    free(st);
    /* setup errors */
    int o[PLY_MAX_OPTIONS];
    GkState s;
    g = game_find("gomoku");
    assert_int_equal(options_parse(g, "size=5", o, &err), 0);
    assert_int_equal(g->init(&s, o, 1, &err), 0);
    assert_int_equal(g->from_text(&s, "...../...../...../...../..... b", &err),
                     0);
    assert_int_equal(g->from_text(&s, "...../...../...../...../.... b", &err),
                     -1);
    assert_int_equal(g->from_text(&s, "...../...../...../...../..... x", &err),
                     -1);
    assert_int_equal(g->from_text(&s, "xxxxx/ooooo/...../...../..... b", &err),
                     -1);
    assert_non_null(strstr(err.msg, "both"));
    assert_int_equal(g->from_text(&s, "xxxxx/oooo./...../...../..... w", &err),
                     0);
    assert_int_equal(g->to_move(&s), PLAYER_TERMINAL);
    double ret[2];
    g->returns(&s, ret);
    assert_true(ret[0] == 1 && ret[1] == -1);
    /* standard: an overline does not win */
    assert_int_equal(options_parse(g, "size=7,rule=standard", o, &err), 0);
    assert_int_equal(g->init(&s, o, 1, &err), 0);
    assert_int_equal(g->from_text(&s, "xxx.xx./oooooo./......./......./"
                                      "......./......./....... b", &err), 0);
    assert_int_equal(g->to_move(&s), 0);
    assert_int_equal(g->text_to_move(&s, "d7", &m, &err), 0);
    g->make(&s, m);
    assert_int_equal(s.result, GK_NONE);
}

/* The bot: wins at once, blocks a four, finds a VCF. */
static void test_bot(void **state)
{
    (void)state;
    static const struct {
        const char *game, *setup, *want;
    } cases[] = {
        /* a five now (Black: d8-g8, h8 wins; c8 is White) */
        {"gomoku", "...............,...............,...............,"
                   "...............,...............,...............,"
                   "...............,..oxxxx........,.ooo...........,"
                   "..............o,...............,...............,"
                   "...............,...............,............... b", "h8"},
        /* White must block Black's four at h8 */
        {"gomoku", "...............,...............,...............,"
                   "...............,...............,...............,"
                   "...............,...oxxxx.......,.oo............,"
                   "...............,...............,...............,"
                   "...............,...............,............... w", "i8"},
        /* Black: a VCF (g10 forcing h10, then g9 a double four; or g9
         * first), no five and no double four at once */
        {"gomoku", "...............,...............,...............,"
                   "...............,...............,..oxxx.........,"
                   "..oxxx.........,......x........,......x........,"
                   "......o........,...............,...............,"
                   "...............,...............,............... b", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char setup[512];
        snprintf(setup, sizeof setup, "%s", cases[i].setup);
        for (char *p = setup; *p; p++)
            if (*p == ',')
                *p = '/';
        void *st = tl_position(cases[i].game, NULL, setup, NULL);
        const GameVtbl *g = game_find(cases[i].game);
        PlyError err = {{0}};
        Bot *b = bot_new(g, "gomoku:depth=2", 1, &err);
        assert_non_null(b);
        SearchInfo si;
        memset(&si, 0, sizeof si);
        Move m = bot_choose(b, st, NULL, &si);
        char buf[16];
        g->move_to_text(st, m, buf, sizeof buf);
        if (cases[i].want[0])
            assert_string_equal(buf, cases[i].want);
        else
            assert_int_equal(si.proven, 1);
        bot_free(b);
        free(st);
    }
}

/* ---- SGF GM[4] ---- */

typedef struct Got {
    int n;
    char game[32], setup[600], moves[4096];
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

static int read_sgf(const char *game, const char *text, Got *got,
                    PlyError *err)
{
    const GameVtbl *g = game_find(game);
    const GameFormat *f = game_format(g, "sgf");
    memset(got, 0, sizeof *got);
    return f->read_records(g, text, strlen(text), keep, got, err);
}

static void test_sgf(void **state)
{
    (void)state;
    /* round trips: a renju game won by Black, a gomoku game from a setup */
    static const struct {
        const char *game, *options, *setup, *moves;
        int winner;
    } cases[] = {
        {"renju", "", "", "h8 h9 i9 g7 j10 k11 i10 i11 j9 k8 h10 g10 j11 "
                          "k12 j8", 0},
        {"gomoku", "size=9,rule=standard",
         "........./........./...x...../...o...../........./........./"
         "........./........./......... w", "e5 e6 d5 c5 f5 g5", -2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const GameVtbl *g = game_find(cases[i].game);
        const char *mv[64];
        char buf[512];
        snprintf(buf, sizeof buf, "%s", cases[i].moves);
        int n = 0;
        for (char *sv = NULL, *t = strtok_r(buf, " ", &sv); t;
             t = strtok_r(NULL, " ", &sv))
            mv[n++] = t;
        Record r;
        record_init(&r);
        r.game = g->info.name;
        r.options = cases[i].options;
        r.setup = cases[i].setup;
        r.nseats = 2;
        r.seats[0] = "Kuro]x";
        r.seats[1] = "Shiro";
        r.nmoves = n;
        r.moves = mv;
        record_set_winner(&r, cases[i].winner, "normal");
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        PlyError err = {{0}};
        assert_int_equal(game_format(g, "sgf")->write_record(g, &r, mem,
                                                             &err), 0);
        fclose(mem);
        assert_non_null(strstr(text, "GM[4]"));
        assert_non_null(strstr(text, "PB[Kuro\\]x]"));
        assert_true(game_format(g, "sgf")->claims(text, len));
        assert_false(game_format(game_find("go"), "sgf")->claims(text, len));
        Got got;
        /* read by the other game's reader: PLYGAME names the game */
        const char *other = i == 0 ? "gomoku" : "renju";
        if (read_sgf(other, text, &got, &err))
            fail_msg("%s: %s\n%s", cases[i].game, err.msg, text);
        assert_int_equal(got.n, 1);
        assert_string_equal(got.game, cases[i].game);
        assert_string_equal(got.moves, cases[i].moves);
        assert_string_equal(got.setup, cases[i].setup);
        assert_int_equal(got.winner, cases[i].winner);
        free(text);
    }
    /* errors name the line and the cause */
    Got got;
    PlyError err = {{0}};
    assert_int_equal(read_sgf("gomoku", "(;GM[1]SZ[15];B[hh])", &got, &err),
                     -1);
    assert_non_null(strstr(err.msg, "GM[4]"));
    assert_int_equal(read_sgf("gomoku", "(;GM[4]SZ[15];B[hh];W[hh])", &got,
                              &err), -1);
    assert_non_null(strstr(err.msg, "not empty"));
    assert_int_equal(read_sgf("gomoku", "(;GM[4]SZ[15];B[hh];B[hi])", &got,
                              &err), -1);
    assert_non_null(strstr(err.msg, "White is to move"));
    assert_int_equal(read_sgf("gomoku", "(;GM[4]SZ[15];B[zz])", &got, &err),
                     -1);
    assert_int_equal(read_sgf("gomoku", "(;GM[4]SZ[25];B[aa])", &got, &err),
                     -1);
    assert_int_equal(read_sgf("gomoku", "(;GM[4]SZ[15];B[hh]", &got, &err),
                     -1);
    /* a renju record with Black's double-three */
    assert_int_equal(read_sgf("renju", "(;GM[4]SZ[15]PLYGAME[renju]"
                              "PLYOPTIONS[opening=free]"
                              "AB[gh][ih][hg][hf]AW[aa][ab][ac][ad]PL[B]"
                              ";B[hh])", &got, &err), -1);
    assert_non_null(strstr(err.msg, "double-three"));
    /* a five ends the game: nothing after it */
    assert_int_equal(read_sgf("gomoku", "(;GM[4]SZ[15];B[aa];W[ao];B[ba];"
                              "W[bo];B[ca];W[co];B[da];W[do];B[ea];W[eo])",
                              &got, &err), -1);
    assert_non_null(strstr(err.msg, "after the end"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_digest),
        cmocka_unit_test(test_forbidden_random),
        cmocka_unit_test(test_perft_slow),
        cmocka_unit_test(test_winner),
        cmocka_unit_test(test_forbidden_positions),
        cmocka_unit_test(test_false_three),
        cmocka_unit_test(test_notation_and_setup),
        cmocka_unit_test(test_bot),
        cmocka_unit_test(test_sgf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
