/* test_shatra.c — Shatra against a second, slow generator written here
 * from the rules text: the board as letters on a 14 x 7 grid with '#'
 * for the holes, captures found by jumping on a copy of the letters
 * (jumped pieces marked until the end), every move applied to the
 * letters. Compared on every position of random games under each option
 * set: the positions after all the legal moves (so moves and make are
 * checked together), the end and the winner. Plus perft against the slow
 * generator and by hand, rule positions and setup errors. */
#include "testlib.h"

enum { H = 14, W = 7, MAXR = 2048 };

typedef struct Slow {
    char c[H][W];           /* [rank][file], rank 0 = rank 1; '#' hole */
    int black;              /* Black to move */
    int tem[2];
    int quiet, ply;
    int closed_road, batyr_only;
} Slow;

static int hole(int r, int f)
{
    if (r < 0 || r >= H || f < 0 || f >= W)
        return 1;
    if (r >= 4 && r <= 9)
        return 0;
    if (r == 3 || r == 10)
        return f != 3;
    return f < 2 || f > 4;
}

static int fortress_of(int r)    /* 0 White's, 1 Black's, -1 none */
{
    return r <= 2 ? 0 : r >= 11 ? 1 : -1;
}

static int black_pc(char c) { return c >= 'a' && c <= 'z'; }
static int ours(const Slow *s, char c)
{
    return c != '.' && c != '#' && c != '*' && black_pc(c) == s->black;
}
static int theirs(const Slow *s, char c)
{
    return c != '.' && c != '#' && c != '*' && black_pc(c) != s->black;
}
static char up(char c) { return black_pc(c) ? (char)(c - 'a' + 'A') : c; }

static void slow_read(Slow *s, const char *t, const char *opts)
{
    memset(s, 0, sizeof *s);
    s->closed_road = opts && strstr(opts, "road=closed");
    s->batyr_only = opts && strstr(opts, "promote=batyr");
    for (int r = 0; r < H; r++)
        for (int f = 0; f < W; f++)
            s->c[r][f] = hole(r, f) ? '#' : '.';
    int r = H - 1, f = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') {
            r--;
            f = 0;
            continue;
        }
        int n = *t >= '1' && *t <= '7' ? *t - '0' : 1;
        for (int k = 0; k < n; k++) {
            while (hole(r, f))
                f++;
            if (n == 1 && !(*t >= '1' && *t <= '7'))
                s->c[r][f] = *t;
            f++;
        }
    }
    char tem[8];
    char side;
    assert_int_equal(sscanf(t, " %c %7s %d %d", &side, tem, &s->quiet,
                            &s->ply), 4);
    s->black = side == 'b';
    s->tem[0] = strchr(tem, 'T') != NULL;
    s->tem[1] = strchr(tem, 't') != NULL;
}

static void slow_write(const Slow *s, char *out)
{
    for (int r = H - 1; r >= 0; r--) {
        int e = 0;
        for (int f = 0; f < W; f++) {
            char c = s->c[r][f];
            if (c == '#')
                continue;
            if (c == '.') {
                e++;
                continue;
            }
            if (e)
                *out++ = (char)('0' + e);
            e = 0;
            *out++ = c;
        }
        if (e)
            *out++ = (char)('0' + e);
        if (r)
            *out++ = '/';
    }
    const char *tem = s->tem[0] && s->tem[1] ? "Tt" : s->tem[0] ? "T"
                      : s->tem[1] ? "t" : "-";
    sprintf(out, " %c %s %d %d", s->black ? 'b' : 'w', tem, s->quiet,
            s->ply);
}

static int reserve(const Slow *s, int r, int f)
{
    char c = s->c[r][f];
    if (c == '.' || c == '#')
        return 0;
    int side = black_pc(c);
    return fortress_of(r) == side && s->tem[side];
}

/* May piece c (upper case type) stop on (r, f)? */
static int may_stand(const Slow *s, char type, int r, int f)
{
    if (hole(r, f))
        return 0;
    int fo = fortress_of(r);
    if (type == 'P')
        return r >= 4 && r <= 9;
    return fo < 0 || !s->tem[fo];
}

typedef struct Out {
    char res[MAXR][200];
    int n;
} Out;

static void out_add(Out *o, const char *t)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->res[i], t))
            return;
    assert_true(o->n < MAXR);
    strcpy(o->res[o->n++], t);
}

/* Finishes a move on board b (mover already placed as `piece` at (r,f),
 * jumped pieces marked '*'), with promotion choices. */
static void finish(const Slow *s, Slow b, char piece, int r, int f,
                   int progress, Out *o)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (b.c[y][x] == '*') {
                b.c[y][x] = '.';
                progress = 1;
            }
    char opts[3];
    int no = 0;
    if (up(piece) == 'P' && r == (s->black ? 4 : 9)) {
        if (s->batyr_only) {
            opts[no++] = 'Q';
        } else {
            const char *types = "BRQ";
            int start[3] = {2, 2, 1};
            for (int k = 0; k < 3; k++) {
                int have = 0;
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++)
                        have += up(b.c[y][x]) == types[k] &&
                                black_pc(b.c[y][x]) == s->black &&
                                b.c[y][x] != '#' && b.c[y][x] != '.';
                if (have < start[k])
                    opts[no++] = types[k];
            }
        }
    }
    if (up(piece) == 'P')
        progress = 1;
    for (int k = 0; k < (no ? no : 1); k++) {
        Slow n = b;
        char pc = no ? opts[k] : up(piece);
        n.c[r][f] = s->black ? (char)(pc - 'A' + 'a') : pc;
        for (int side = 0; side < 2; side++) {
            int any = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    any |= fortress_of(y) == side && n.c[y][x] != '.' &&
                           n.c[y][x] != '#' && black_pc(n.c[y][x]) == side;
            if (!any)
                n.tem[side] = 0;
        }
        n.quiet = progress ? 0 : s->quiet + 1;
        n.ply = s->ply + 1;
        n.black = !s->black;
        char t[200];
        slow_write(&n, t);
        out_add(o, t);
    }
}

static const int DR[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int DF[8] = {0, 1, 1, 1, 0, -1, -1, -1};

static int dir_ok(char type, int d)
{
    if (type == 'R')
        return d % 2 == 0;
    if (type == 'B')
        return d % 2 == 1;
    return 1;
}

static int jumps(const Slow *s, const Slow *b, char piece, int r, int f,
                 Out *o);

/* All jump continuations from (r, f); returns how many jumps exist. */
static int jumps(const Slow *s, const Slow *b, char piece, int r, int f,
                 Out *o)
{
    char type = up(piece);
    int far = type == 'Q' || type == 'R' || type == 'B', found = 0;
    for (int d = 0; d < 8; d++) {
        if (!dir_ok(type, d))
            continue;
        int y = r + DR[d], x = f + DF[d];
        while (far && !hole(y, x) && b->c[y][x] == '.') {
            y += DR[d];
            x += DF[d];
        }
        if (hole(y, x) || !theirs(s, b->c[y][x]))
            continue;
        for (int k = 1;; k++) {
            int ly = y + k * DR[d], lx = x + k * DF[d];
            if (hole(ly, lx) || b->c[ly][lx] != '.')
                break;
            if (may_stand(s, type, ly, lx)) {
                found++;
                Slow n = *b;
                n.c[y][x] = '*';
                if (type == 'K') {
                    Slow done = n;
                    finish(s, done, piece, ly, lx, 1, o);
                }
                if (!jumps(s, &n, piece, ly, lx, o) && type != 'K')
                    finish(s, n, piece, ly, lx, 1, o);
            }
            if (!far)
                break;
        }
    }
    return found;
}

/* Every position one legal move away (deduplicated). */
static void slow_moves(const Slow *s, Out *o)
{
    o->n = 0;
    int forced = 0;
    for (int r = 0; r < H; r++)
        for (int f = 0; f < W; f++) {
            char c = s->c[r][f];
            if (!ours(s, c) || reserve(s, r, f))
                continue;
            Slow b = *s;
            b.c[r][f] = '.';
            int before = o->n;
            jumps(s, &b, c, r, f, o);
            if (o->n > before && up(c) != 'K')
                forced = 1;
        }
    for (int r = 0; r < H; r++)
        for (int f = 0; f < W; f++) {
            char c = s->c[r][f];
            if (!ours(s, c) || reserve(s, r, f))
                continue;
            char type = up(c);
            if (forced && type != 'K')
                continue;
            for (int d = 0; d < 8; d++) {
                if (!dir_ok(type, d))
                    continue;
                if (type == 'P') {
                    int fwd = s->black ? -1 : 1;
                    int over = s->black ? r <= 6 : r >= 7;
                    if (DR[d] == -fwd)
                        continue;
                    if (!over && !(DR[d] == fwd && DF[d] == 0))
                        continue;
                }
                int slide = type == 'Q' || type == 'R' || type == 'B';
                for (int k = 1;; k++) {
                    int y = r + k * DR[d], x = f + k * DF[d];
                    if (hole(y, x) || s->c[y][x] != '.')
                        break;
                    if (may_stand(s, type, y, x)) {
                        Slow b = *s;
                        b.c[r][f] = '.';
                        finish(s, b, c, y, x, 0, o);
                    }
                    if (!slide)
                        break;
                }
            }
        }
    if (forced)
        return;
    const char *types = "PBRQK";
    for (int t = 0; t < 5; t++)
        for (int r = 0; r < H; r++)
            for (int f = 0; f < W; f++) {
                char c = s->c[r][f];
                if (!ours(s, c) || !reserve(s, r, f) || up(c) != types[t])
                    continue;
                /* the first reserve of the type, from a1 on */
                int first = 1;
                for (int y = 0; y <= r; y++)
                    for (int x = 0; x < W; x++)
                        if ((y < r || x < f) && s->c[y][x] == c &&
                            reserve(s, y, x))
                            first = 0;
                if (!first)
                    continue;
                int lo = s->black ? 7 : 4;
                for (int y = lo; y < lo + 3; y++)
                    for (int x = 0; x < W; x++) {
                        if (s->c[y][x] != '.' || (s->closed_road && x == 3))
                            continue;
                        Slow b = *s;
                        b.c[r][f] = '.';
                        finish(s, b, c, y, x, 1, o);
                    }
            }
}

/* 1 White won, -1 Black won, 0 draw, 2 not over. */
static int slow_result(const Slow *s, int nmoves)
{
    int kw = 0, kb = 0;
    for (int r = 0; r < H; r++)
        for (int f = 0; f < W; f++) {
            kw += s->c[r][f] == 'K';
            kb += s->c[r][f] == 'k';
        }
    if (!kw || !kb)
        return kw ? 1 : -1;
    if (!nmoves)
        return s->black ? 1 : -1;
    if (s->quiet >= 100 || s->ply >= 600)
        return 0;
    return 2;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

static Out slow_out, fast_out;

static void compare(const char *opts, int games, uint64_t seed)
{
    const GameVtbl *g = game_find("shatra");
    Rng rng;
    rng_seed(&rng, seed);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    unsigned char child[512];
    assert_true(g->info.state_size <= sizeof child);
    char text[200];
    int positions = 0, ends[3] = {0, 0, 0}, captures = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("shatra", opts, NULL, NULL);
        for (;;) {
            g->to_text(st, text, sizeof text);
            Slow s;
            slow_read(&s, text, opts);
            slow_moves(&s, &slow_out);
            int res = slow_result(&s, slow_out.n);
            if (g->to_move(st) == PLAYER_TERMINAL) {
                if (res == 2)
                    fail_msg("%s: ended early at %s", opts, text);
                double ret[2];
                g->returns(st, ret);
                assert_true(ret[0] == res && ret[1] == -res);
                ends[res + 1]++;
                break;
            }
            if (res != 2)
                fail_msg("%s: not over at %s", opts, text);
            int n = g->gen_moves(st, mv);
            fast_out.n = 0;
            for (int i = 0; i < n; i++) {
                memcpy(child, st, g->info.state_size);
                g->make(child, mv[i]);
                g->to_text(child, fast_out.res[fast_out.n++], 200);
                captures += (mv[i] >> 14 & 3) == 1;
            }
            qsort(fast_out.res, (size_t)n, 200, cmp_text);
            qsort(slow_out.res, (size_t)slow_out.n, 200, cmp_text);
            if (n != slow_out.n)
                fail_msg("%s: %d moves, slow %d at %s", opts, n, slow_out.n,
                         text);
            for (int i = 0; i < n; i++)
                if (strcmp(fast_out.res[i], slow_out.res[i]))
                    fail_msg("%s: at %s: after a move %s, slow %s", opts,
                             text, fast_out.res[i], slow_out.res[i]);
            positions++;
            g->make(st, mv[rng_below(&rng, (uint32_t)n)]);
        }
        free(st);
    }
    free(mv);
    assert_true(positions > games * 20);
    assert_true(captures > positions / 20);
    assert_true(ends[0] + ends[2] > 0);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 300 : 12;
    compare(NULL, games, 1);
    compare("road=closed", games, 2);
    compare("promote=batyr", games, 3);
}

static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
    if (d == 0)
        return 1;
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    int n = g->gen_moves(st, mv);
    uint64_t sum = 0;
    if (d == 1) {
        free(mv);
        return (uint64_t)n;
    }
    unsigned char child[512];
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[i]);
        sum += perft(g, child, d - 1);
    }
    free(mv);
    return sum;
}

static uint64_t slow_perft(const char *text, const char *opts, int d)
{
    if (d == 0)
        return 1;
    Slow s;
    slow_read(&s, text, opts);
    Out *o = malloc(sizeof *o);
    slow_moves(&s, o);
    uint64_t sum = 0;
    if (slow_result(&s, o->n) != 2)
        sum = 0;
    else if (d == 1)
        sum = (uint64_t)o->n;
    else
        for (int i = 0; i < o->n; i++)
            sum += slow_perft(o->res[i], opts, d - 1);
    free(o);
    return sum;
}

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shatra");
    /* by hand: 7 shatra steps + 4 reserve types (P B R Q) x 14 empty
     * squares of ranks 6-7; the biy on its gate is boxed in; Black's
     * first moves are the same, so depth 2 is the square */
    void *st = tl_position("shatra", NULL, NULL, NULL);
    assert_int_equal(perft(g, st, 1), 63);
    assert_int_equal(perft(g, st, 2), 63 * 63);
    char text[200];
    g->to_text(st, text, sizeof text);
    int deep = tl_slow() ? 3 : 2;
    for (int d = 1; d <= deep; d++)
        assert_int_equal(perft(g, st, d), slow_perft(text, NULL, d));
    free(st);
    /* road=closed: 7 + 4 x 12 */
    st = tl_position("shatra", "road=closed", NULL, NULL);
    assert_int_equal(perft(g, st, 1), 55);
    assert_int_equal(perft(g, st, 2), 55 * 55);
    free(st);
    /* a middle game position from a seeded random game, both ways */
    st = tl_position("shatra", NULL, NULL, NULL);
    Rng r;
    rng_seed(&r, 99);
    Move mv[1024];
    for (int i = 0; i < 40 && g->to_move(st) >= 0; i++)
        g->make(st, mv[rng_below(&r, (uint32_t)g->gen_moves(st, mv))]);
    g->to_text(st, text, sizeof text);
    for (int d = 1; d <= deep; d++)
        assert_int_equal(perft(g, st, d), slow_perft(text, NULL, d));
    free(st);
}

static int legal(const void *st, const char *m)
{
    Move mv;
    PlyError err = {{0}};
    return game_find("shatra")->text_to_move(st, m, &mv, &err) == 0;
}

static int nmoves(const void *st)
{
    Move mv[1024];
    return game_find("shatra")->gen_moves(st, mv);
}

/* the empty board with the two biys on their gates */
#define FORTS_EMPTY "3/3/3/"
#define EMPTY_BF "7/7/7/7/7/7/"

static void test_rules(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shatra");
    /* a tura's flying jump over d8 lands on any square beyond (Black's
     * fortress is open); from d10 it must go on over e10 */
    void *st = tl_position("shatra", NULL,
        "3/3/3/1/k3p2/7/3p3/7/3R3/P6/K/3/3/3 w - 0 0", NULL);
    assert_true(legal(st, "d6xd10xg10"));
    assert_true(legal(st, "d6xd10xf10"));
    assert_false(legal(st, "d6xd10"));
    assert_true(legal(st, "d6xd9"));
    assert_true(legal(st, "d6xd14"));
    assert_true(legal(st, "d6xg10"));       /* by its ends */
    assert_int_equal(nmoves(st), 7 + 6);    /* and the biy's 6 steps */
    assert_false(legal(st, "a5-a6"));       /* the capture is compulsory */
    assert_true(legal(st, "d4-c5"));        /* except for the biy */
    free(st);
    /* the biy need not capture, and may stop after a jump */
    st = tl_position("shatra", NULL,
        FORTS_EMPTY "k/7/7/7/7/7/3p3/K/" "3/3/3 w - 0 0", NULL);
    assert_true(legal(st, "d4xd6"));
    assert_true(legal(st, "d4-c5"));
    free(st);
    /* shatras: straight ahead before the ditch; after it also diagonally
     * ahead and sideways, never back */
    st = tl_position("shatra", NULL,
        FORTS_EMPTY "k/7/7/3P3/7/3P3/7/K/" "3/3/3 w - 0 0", NULL);
    assert_true(legal(st, "d6-d7"));
    assert_false(legal(st, "d6-c7"));
    assert_false(legal(st, "d6-e6"));
    assert_true(legal(st, "d8-c9"));
    assert_true(legal(st, "d8-e8"));
    assert_false(legal(st, "d8-d7"));
    assert_false(legal(st, "d8-c7"));
    free(st);
    /* promotion: to a lost type only; none lost: it stays a shatra */
    st = tl_position("shatra", NULL,
        FORTS_EMPTY "k/7/3P3/7/7/7/7/K/" "3/3/3 w - 0 0", NULL);
    assert_true(legal(st, "d9-d10=Q"));
    assert_true(legal(st, "d9-d10=R"));
    assert_true(legal(st, "d9-d10=B"));
    assert_false(legal(st, "d9-d10"));
    free(st);
    st = tl_position("shatra", NULL,
        "3/3/3/k/7/3P3/7/7/7/7/K/BQB/R1R/3 w - 0 0", NULL);
    assert_true(legal(st, "d9-d10"));
    assert_false(legal(st, "d9-d10=Q"));
    free(st);
    st = tl_position("shatra", "promote=batyr",
        "3/3/3/k/7/3P3/7/7/7/7/K/BQB/R1R/3 w - 0 0", NULL);
    assert_true(legal(st, "d9-d10=Q"));
    assert_false(legal(st, "d9-d10"));
    free(st);
    /* reserves: they do not move; one comes out onto the own half; no
     * piece enters a fortress while its temdek stands; the temdek falls
     * with the last reserve */
    st = tl_position("shatra", NULL,
        "3/3/3/k/7/7/7/7/7/7/K/3/1R1/3 w T 0 0", NULL);
    assert_true(legal(st, "R*a5"));
    assert_true(legal(st, "R*d7"));
    assert_false(legal(st, "R*a8"));
    assert_false(legal(st, "d2-d3"));
    assert_false(legal(st, "d4-d3"));
    assert_int_equal(nmoves(st), 21 + 3);   /* drops + biy steps */
    free(st);
    st = tl_position("shatra", "road=closed",
        "3/3/3/k/7/7/7/7/7/7/K/3/1R1/3 w T 0 0", "R*a5");
    assert_false(legal(st, "R*d7"));
    free(st);
    st = tl_position("shatra", NULL,
        "3/3/3/k/7/7/7/7/7/7/K/3/1R1/3 w T 0 0", "R*a5");
    char text[200];
    g->to_text(st, text, sizeof text);
    assert_string_equal(text,
        "3/3/3/k/7/7/7/7/7/R6/K/3/3/3 b - 0 1");
    free(st);
    /* capturing the biy wins; a side without a move loses */
    st = tl_position("shatra", NULL,
        FORTS_EMPTY "k/3K3/7/7/7/7/7/1/" "3/3/3 b - 0 0", "d11xd9");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[1] == 1.0);
    free(st);
    st = tl_position("shatra", NULL,
        "3/1R1/BQB/k/2PPP2/1P1P1P1/7/7/7/7/K/3/3/3 b - 0 0", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 1.0);
    assert_string_equal(g->end_reason(st),
                        "no legal move (the biy is stalemated)");
    free(st);
}

static void test_setup_errors(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shatra");
    void *st = tl_position("shatra", NULL, NULL, NULL);
    PlyError err = {{0}};
    const char *bad[] = {
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP w Tt 0 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQPP w Tt 0 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQX w Tt 0 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP x Tt 0 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP w Q 0 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP w Tt 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP w Tt 0 0 z",
        "pqp/prp/brb/K/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP w Tt 0 0",
        "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP w Tt 999 0",
        "3/3/3/k/7/7/7/7/7/7/K/3/3/3 w T 0 0",      /* empty fortress */
        "3/3/P2/k/7/7/7/7/7/7/K/3/3/3 w t 0 0",     /* in the enemy's */
        "3/3/3/P/7/7/7/7/7/7/K/3/3/3 w - 0 0",      /* shatra on a gate */
        "3/3/3/k/7/7/7/7/7/7/1/3/3/3 b - 0 0",      /* White's biy gone, */
        "",                                          /* Black to move */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) == 0)
            fail_msg("accepted bad setup '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    assert_false(legal(st, "d5-d7"));
    assert_false(legal(st, "z9-a1"));
    assert_false(legal(st, "K*c6"));
    assert_false(legal(st, ""));
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_slow),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_setup_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
