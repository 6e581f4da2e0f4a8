/* test_generals.c — Game of the Generals against a slow model.
 *
 * - perft on the true state (setup=random from fixed seeds, positions
 *   after random play, hand-made flag positions under every flag rule)
 *   against a second generator written here on a character board;
 * - the setup phase: placement counts, placement rules, the screen;
 * - every challenge outcome, what each side learns, the flag rules;
 * - views: no enemy rank in them; hostile setup strings and views are
 *   refused with a message that repeats nothing hidden. */
#include <ctype.h>

#include "testlib.h"

/* ------------------------------------------------- the slow model */

typedef struct SG {
    char b[8][9];       /* [row][file], '.' empty; upper White, lower Black */
    int side, ply, over, limit, rule;   /* rule 0 adjacent 1 survive 2 imm */
} SG;

static void sg_parse(SG *s, const char *text, int rule, int limit)
{
    memset(s, 0, sizeof *s);
    memset(s->b, '.', sizeof s->b);
    int r = 7, f = 0;
    const char *c = text;
    for (; *c != ' '; c++) {
        if (*c == '/')
            r--, f = 0;
        else if (*c >= '1' && *c <= '9')
            f += *c - '0';
        else
            s->b[r][f++] = *c;
    }
    s->side = c[1] == 'b';
    s->ply = atoi(c + 3);
    s->over = strstr(text, "result") != NULL;
    s->rule = rule;
    s->limit = limit;
}

static int sg_owner(char ch) { return ch >= 'a' && ch <= 'z'; }

/* 1: the attacker stays, -1: the defender stays, 0: both go. */
static int sg_fight(char a, char d)
{
    static const char ladder[] = "PRQONMLKEDCBA";
    a = (char)toupper(a), d = (char)toupper(d);
    if (a == d)
        return a == 'F' ? 1 : 0;
    if (d == 'F')
        return 1;
    if (a == 'F')
        return -1;
    if (a == 'S')
        return d == 'P' ? -1 : 1;
    if (d == 'S')
        return a == 'P' ? 1 : -1;
    return strchr(ladder, a) > strchr(ladder, d) ? 1 : -1;
}

static int sg_moves(const SG *s, int c, int out[][4])
{
    static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int n = 0;
    for (int r = 0; r < 8; r++)
        for (int f = 0; f < 9; f++) {
            if (s->b[r][f] == '.' || sg_owner(s->b[r][f]) != c)
                continue;
            for (int k = 0; k < 4; k++) {
                int r2 = r + d[k][0], f2 = f + d[k][1];
                if (r2 < 0 || r2 > 7 || f2 < 0 || f2 > 8)
                    continue;
                char t = s->b[r2][f2];
                if (t != '.' && sg_owner(t) == c)
                    continue;
                out[n][0] = r, out[n][1] = f, out[n][2] = r2, out[n][3] = f2;
                n++;
            }
        }
    return n;
}

static int sg_has_flag(const SG *s, int c, int *row, int *file)
{
    for (int r = 0; r < 8; r++)
        for (int f = 0; f < 9; f++)
            if (s->b[r][f] == (c ? 'f' : 'F')) {
                *row = r, *file = f;
                return 1;
            }
    return 0;
}

static void sg_make(SG *s, const int *m)
{
    int q = s->side;
    char a = s->b[m[0]][m[1]], d = s->b[m[2]][m[3]];
    s->b[m[0]][m[1]] = '.';
    int stays = d == '.' ? 1 : sg_fight(a, d);
    if (stays == 1)
        s->b[m[2]][m[3]] = a;
    else if (stays == 0)
        s->b[m[2]][m[3]] = '.';
    s->ply++;
    s->side = !q;
    int fr, ff;
    if (!sg_has_flag(s, !q, &fr, &ff) || !sg_has_flag(s, q, &fr, &ff)) {
        s->over = 1;
        return;
    }
    if (sg_has_flag(s, !q, &fr, &ff) && fr == (q ? 7 : 0)) {
        s->over = 1;   /* it survived this turn on its far row */
        return;
    }
    if (stays == 1 && a == (q ? 'f' : 'F') && m[2] == (q ? 0 : 7)) {
        int adj = 0;
        for (int k = -1; k <= 1; k += 2) {
            int f2 = m[3] + k;
            if (f2 >= 0 && f2 <= 8 && s->b[m[2]][f2] != '.' &&
                sg_owner(s->b[m[2]][f2]) != q)
                adj = 1;
        }
        int r2 = m[2] + (q ? 1 : -1);
        if (s->b[r2][m[3]] != '.' && sg_owner(s->b[r2][m[3]]) != q)
            adj = 1;
        if (s->rule == 2 || (s->rule == 0 && !adj)) {
            s->over = 1;
            return;
        }
    }
    if (s->ply >= s->limit) {
        s->over = 1;
        return;
    }
    int mv[100][4];
    if (!sg_moves(s, !q, mv))
        s->over = 1;
}

static uint64_t sg_perft(const SG *s, int depth)
{
    if (depth == 0)
        return 1;
    if (s->over)
        return 0;
    int mv[100][4];
    int n = sg_moves(s, s->side, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        SG t = *s;
        sg_make(&t, mv[i]);
        sum += sg_perft(&t, depth - 1);
    }
    return sum;
}

static uint64_t perft(const GameVtbl *g, const void *st, int depth)
{
    if (depth == 0)
        return 1;
    Move mv[512];
    int n = g->gen_moves(st, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    void *c = malloc(g->info.state_size);
    for (int i = 0; i < n; i++) {
        memcpy(c, st, g->info.state_size);
        g->make(c, mv[i]);
        sum += perft(g, c, depth - 1);
    }
    free(c);
    return sum;
}

static const char *const RULES[3] = {"flag=adjacent", "flag=survive",
                                     "flag=immediate"};

static void compare(const char *opts, int rule, const char *setup, int depth)
{
    const GameVtbl *g = game_find("generals");
    void *st = tl_position("generals", opts, setup, NULL);
    char text[1024];
    assert_true(g->to_text(st, text, sizeof text) > 0);
    SG s;
    sg_parse(&s, text, rule, 400);
    uint64_t a = perft(g, st, depth), b = sg_perft(&s, depth);
    if (a != b)
        fail_msg("perft %d of '%s' (%s): %llu, the slow model %llu", depth,
                 text, opts ? opts : "", (unsigned long long)a,
                 (unsigned long long)b);
    free(st);
}

/* A flag one step from the far row, a black private able to reach the
 * square beside it, and enough pieces removed to make 21 a side. */
#define FLAG_RUN                                                            \
    "a2p4f/4F4/2s6/9/9/9/9/AP7 w 10 xP xP xP xP xP xS xS xR xQ xO xN xM "  \
    "xL xK xE xD xC xB xp xp xp xp xp xs xr xq xo xn xm xl xk xe xd xc xb"
#define FLAG_NEXT                                                           \
    "a7f/1P2F4/p1s6/9/9/9/9/A8 w 10 xP xP xP xP xP xS xS xR xQ xO xN xM "   \
    "xL xK xE xD xC xB xp xp xp xp xp xs xr xq xo xn xm xl xk xe xd xc xb"
#define FLAG_FREE                                                           \
    "a7f/4F4/p1s6/9/9/9/9/AP7 w 10 xP xP xP xP xP xS xS xR xQ xO xN xM "    \
    "xL xK xE xD xC xB xp xp xp xp xp xs xr xq xo xn xm xl xk xe xd xc xb"

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("generals");
    assert_non_null(g);
    /* dealt setups, and positions after random play from them */
    for (int seed = 1; seed <= 6; seed++) {
        char opts[64];
        snprintf(opts, sizeof opts, "setup=random,%s", RULES[seed % 3]);
        void *st = state_alloc(g);
        PlyError err = {{0}};
        assert_int_equal(state_setup(g, st, opts, NULL, (uint64_t)seed,
                                     &err), 0);
        char text[1024];
        assert_true(g->to_text(st, text, sizeof text) > 0);
        compare(opts, seed % 3, text, seed == 1 ? 4 : 3);
        Rng r;
        rng_seed(&r, (uint64_t)seed);
        Move mv[512];
        for (int ply = 0; ply < 200 && g->to_move(st) >= 0; ply++) {
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            if (ply % 25 == 24 && g->to_move(st) >= 0) {
                assert_true(g->to_text(st, text, sizeof text) > 0);
                compare(opts, seed % 3, text, 3);
            }
        }
        free(st);
    }
    for (int rule = 0; rule < 3; rule++) {
        compare(RULES[rule], rule, FLAG_RUN, 4);
        compare(RULES[rule], rule, FLAG_FREE, 4);
    }
    /* the setup phase: 27 squares x 15 ranks, then one rank fewer or one
     * private fewer (13 single ranks, privates, spies) */
    void *st = tl_position("generals", NULL, NULL, NULL);
    assert_int_equal(perft(g, st, 1), 27 * 15);
    assert_int_equal(perft(g, st, 2), 27 * (13 * 26 * 14 + 2 * 26 * 15));
    free(st);
}

/* ----------------------------------------------------------- setup */

static void test_setup_phase(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("generals");
    void *st = tl_position("generals", NULL, NULL, NULL);
    Move m;
    PlyError err = {{0}};
    assert_int_equal(g->to_move(st), 0);
    assert_int_not_equal(g->text_to_move(st, "F@e4", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "F@e8", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "Z@e1", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "F@e1", &m, &err), 0);
    g->make(st, m);
    assert_int_not_equal(g->text_to_move(st, "F@e2", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "P@e1", &m, &err), 0);
    /* White's whole setup, then Black sees only a screen */
    static const char *const w[] = {"A@a3", "B@b3", "C@c3", "D@d3", "E@e3",
        "K@f3", "L@g3", "M@h3", "N@i3", "O@a2", "Q@b2", "R@c2", "P@d2",
        "P@e2", "P@f2", "P@g2", "P@h2", "P@i2", "S@a1", "S@b1"};
    for (int i = 0; i < 20; i++) {
        assert_int_equal(g->to_move(st), 0);
        assert_int_equal(g->text_to_move(st, w[i], &m, &err), 0);
        g->make(st, m);
    }
    assert_int_equal(g->to_move(st), 1);
    assert_int_not_equal(g->text_to_move(st, "F@e1", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "F@e5", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "F@e8", &m, &err), 0);
    void *obs = state_alloc(g);
    char text[1024];
    g->observe(st, 1, obs);
    assert_true(g->to_text(obs, text, sizeof text) > 0);
    assert_string_equal(text, "9/9/9/9/9/9/9/9 b 0 view b screen 21");
    g->observe(st, 0, obs);
    assert_true(g->to_text(obs, text, sizeof text) > 0);
    assert_non_null(strstr(text, "ABCDEKLMN/OQRPPPPPP/SS2F4 b 0 view w"));
    /* the screen holds while Black places, and falls when he is done */
    static const char *const b[] = {"F@e8", "A@a6", "B@b6", "C@c6", "D@d6",
        "E@e6", "K@f6", "L@g6", "M@h6", "N@i6", "O@a7", "Q@b7", "R@c7",
        "P@d7", "P@e7", "P@f7", "P@g7", "P@h7", "P@i7", "S@a8"};
    for (int i = 0; i < 20; i++) {
        assert_int_equal(g->text_to_move(st, b[i], &m, &err), 0);
        g->make(st, m);
    }
    g->observe(st, 0, obs);
    assert_true(g->to_text(obs, text, sizeof text) > 0);
    assert_non_null(strstr(text, "screen 20"));
    assert_int_equal(g->text_to_move(st, "S@b8", &m, &err), 0);
    g->make(st, m);
    assert_int_equal(g->to_move(st), 0);
    g->observe(st, 0, obs);
    assert_true(g->to_text(obs, text, sizeof text) > 0);
    assert_string_equal(text, "?\?2?4/?\?\?\?\?\?\?\?\?/?\?\?\?\?\?\?\?\?/"
                        "9/9/ABCDEKLMN/OQRPPPPPP/SS2F4 w 0 view w");
    free(st);
    free(obs);
}

/* ------------------------------------------------------ challenges */

#define DUEL                                                              \
    "9/9/9/noaspfF2/MOSPSR3/9/9/9 w 20 xP xP xP xP xP xQ xN xL xK xE xD " \
    "xC xB xA xp xp xp xp xp xs xr xq xm xl xk xe xd xc xb"

static void after(const char *opts, const char *setup, const char *moves,
                  const char *want)
{
    const GameVtbl *g = game_find("generals");
    void *st = tl_position("generals", opts, setup, moves);
    char text[1024];
    assert_true(g->to_text(st, text, sizeof text) > 0);
    if (strcmp(text, want))
        fail_msg("after %s:\n  got  %s\n  want %s", moves, text, want);
    free(st);
}

#define DUEL_OUT                                                          \
    " xP xP xP xP xP xQ xN xL xK xE xD xC xB xA xp xp xp xp xp xs xr xq " \
    "xm xl xk xe xd xc xb"

static void test_challenges(void **state)
{
    (void)state;
    /* higher beats lower: Black learns the major is above a captain or a
     * spy; White learns the captain is below a major (not the flag) */
    after(NULL, DUEL, "a4a5",
          "9/9/9/MoaspfF2/1OSPSR3/9/9/9 b 21 a5:SABCDEKLM" DUEL_OUT
          " xn:NOQRP");
    /* equal ranks both go */
    after(NULL, DUEL, "b4b5",
          "9/9/9/n1aspfF2/M1SPSR3/9/9/9 b 21 xP xP xP xP xP xQ xN xL xK xE "
          "xD xC xB xA xO:O xp xp xp xp xp xs xr xq xm xl xk xe xd xc xb "
          "xo:O");
    /* the spy takes the 5-star general */
    after(NULL, DUEL, "c4c5",
          "9/9/9/noSspfF2/MO1PSR3/9/9/9 b 21 c5:S" DUEL_OUT
          " xa:ABCDEKLMNOQR");
    /* the private takes the spy; the spy loses to the private */
    after(NULL, DUEL, "d4d5",
          "9/9/9/noaPpfF2/MOS1SR3/9/9/9 b 21 d5:P" DUEL_OUT " xs:S");
}

static void test_flags(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("generals");
    double r[2];
    /* the spy loses to the private that it attacks */
    void *st = tl_position("generals", NULL, DUEL, "e4e5");
    char text[1024];
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_non_null(strstr(text, "9/9/9/noaspfF2/MOSP1R3/9/9/9 b 21"));
    assert_non_null(strstr(text, " e5:P"));
    assert_non_null(strstr(text, " xS:S"));
    free(st);
    /* taking the flag wins, and a flag taking the flag wins */
    st = tl_position("generals", NULL, DUEL, "f4f5");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 1);
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_non_null(strstr(text, " xf result 1-0"));
    free(st);
    st = tl_position("generals", NULL, DUEL, "g5f5");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 1);
    free(st);
    /* the far row: no enemy beside it wins at once (adjacent, immediate);
     * survive needs the opponent's turn */
    st = tl_position("generals", NULL, FLAG_FREE, "e7e8");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
    st = tl_position("generals", "flag=immediate", FLAG_RUN, "e7e8");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
    st = tl_position("generals", "flag=survive", FLAG_FREE, "e7e8");
    assert_int_equal(g->to_move(st), 1);
    free(st);
    st = tl_position("generals", "flag=survive", FLAG_FREE, "e7e8 a6a5");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 1);
    free(st);
    /* an enemy beside it: the flag must survive a turn; taken, it loses */
    st = tl_position("generals", NULL, FLAG_RUN, "e7e8");
    assert_int_equal(g->to_move(st), 1);
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_null(strstr(text, "e8:"));   /* still maybe the flag to Black */
    free(st);
    st = tl_position("generals", NULL, FLAG_RUN, "e7e8 d8e8");
    g->returns(st, r);
    assert_true(g->to_move(st) == PLAYER_TERMINAL && r[1] == 1);
    free(st);
    st = tl_position("generals", NULL, FLAG_RUN, "e7e8 a8b8");
    g->returns(st, r);
    assert_true(g->to_move(st) == PLAYER_TERMINAL && r[0] == 1);
    free(st);
    /* a piece that reaches the far row and stays is not the flag */
    st = tl_position("generals", NULL, FLAG_RUN, "a1a2 a8b8 a2a3 b8c8");
    assert_int_equal(g->to_move(st), 0);
    free(st);
    st = tl_position("generals", NULL, FLAG_NEXT, "b7b8");
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_null(strstr(text, "b8:"));   /* an enemy beside: maybe the flag */
    free(st);
    st = tl_position("generals", NULL, FLAG_NEXT, "b7b8 a6a5");
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_non_null(strstr(text, " b8:SABCDEKLMNOQRP"));
    free(st);
    st = tl_position("generals", NULL, FLAG_NEXT, "b7c7 a6a5 c7c8");
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_non_null(strstr(text, " c8:SABCDEKLMNOQRP"));   /* alone: at once */
    free(st);
    /* the move limit draws */
    st = tl_position("generals", "limit=20", FLAG_RUN, "a1a2 a8b8 a2a1 b8a8"
                     " a1a2 a8b8 a2a1 b8a8 a1a2 a8b8");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == 0 && r[1] == 0);
    free(st);
}

/* ----------------------------------------------------------- views */

static void test_views(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("generals");
    void *st = tl_position("generals", NULL, DUEL, "a4a5");
    void *obs = state_alloc(g), *back = state_alloc(g);
    char text[1024];
    g->observe(st, 1, obs);
    assert_true(g->to_text(obs, text, sizeof text) > 0);
    /* Black sees White's pieces as '?', the set he learnt, nothing else */
    assert_string_equal(text,
        "9/9/9/?oaspf?2/1?\?\?\?\?3/9/9/9 b 21 a5:SABCDEKLM x? x? x? x? x? x? "
        "x? x? x? x? x? x? x? x? xp xp xp xp xp xs xr xq xm xl xk xe xd xc xb xn"
        " view b");
    PlyError err = {{0}};
    assert_int_equal(g->init(back, NULL, 1, &err), 0);
    assert_int_equal(g->from_view(back, text, &err), 1);
    assert_memory_equal(back, obs, g->info.state_size);
    /* a view where the true state is wanted: refused, nothing echoed */
    assert_int_not_equal(g->from_text(back, text, &err), 0);
    assert_null(strstr(err.msg, "?"));
    g->observe(st, 0, obs);
    assert_true(g->to_text(obs, text, sizeof text) > 0);
    assert_non_null(strstr(text, " x?:NOQRP view w"));
    assert_null(strstr(text, "a5:"));   /* what Black learnt is his */
    free(st);

    static const char *const bad_true[] = {
        "", "9/9/9 w 0", "9/9/9/9/9/9/9/9 x 0", "9/9/9/9/9/9/9/9 w -1",
        "9/9/9/9/9/9/9/9/9 w 0", "99/9/9/9/9/9/9/9 w 0",
        "Z8/9/9/9/9/9/9/9 w 0", "FF7/9/9/9/9/9/9/9 w 0",
        "9/9/9/9/9/9/9/F8 w 0 a1:P",   /* the set excludes the flag */
        "9/9/9/9/9/9/9/F8 w 0 b1:F",   /* no piece there */
        "9/9/9/9/9/9/9/F8 w 0 a1:",    /* empty set */
        "9/9/9/9/9/9/9/F8 w 0 xZ",
        "f8/9/9/9/9/9/9/F8 w 0",       /* Black before White is done */
        "9/9/9/9/F8/9/9/9 w 0",        /* outside the first three rows */
        "9/9/9/9/9/9/9/F8 b 0",        /* White is setting up */
        "9/9/9/9/9/9/9/F8 w 0 view w", /* a view */
        "?8/9/9/9/9/9/9/F8 w 0",
        FLAG_RUN " xP",                 /* 22 pieces */
        FLAG_RUN " result 1-0",         /* no reason for it */
        DUEL " bogus",
    };
    for (size_t i = 0; i < sizeof bad_true / sizeof *bad_true; i++) {
        PlyError e = {{0}};
        assert_int_equal(g->init(back, NULL, 1, &e), 0);
        if (g->from_text(back, bad_true[i], &e) == 0)
            fail_msg("accepted '%s'", bad_true[i]);
        assert_true(e.msg[0] != 0);
    }
    static const char *const bad_view[] = {
        DUEL,                               /* the true state */
        "9/9/9/?oaspf?2/1?\?\?\?\?3/9/9/9 b 21 view g",
        "9/9/9/?oaspf?2/1?\?\?\?\?3/9/9/9 b 21 view",
        "9/9/9/Moaspf?2/1?\?\?\?\?3/9/9/9 b 21 a5:SABCDEKLM view b",
        /* two enemy pieces can both only be the 5-star general */
        "9/9/9/?oaspf?2/1?\?\?\?\?3/9/9/9 b 21 a5:A g5:A x? x? x? x? x? x? x? "
        "x? x? x? x? x? x? x? xp xp xp xp xp xs xr xq xm xl xk xe xd xc xb "
        "xn view b",
        /* a set on one's own piece */
        "9/9/9/?oaspf?2/1?\?\?\?\?3/9/9/9 b 21 b5:O x? x? x? x? x? x? x? x? x? "
        "x? x? x? x? x? xp xp xp xp xp xs xr xq xm xl xk xe xd xc xb xn "
        "view b",
        "9/9/9/9/9/9/9/9 b 0 view b screen 22",
        "9/9/9/9/9/9/9/?8 w 0 view b screen 3",
    };
    for (size_t i = 0; i < sizeof bad_view / sizeof *bad_view; i++) {
        PlyError e = {{0}};
        assert_int_equal(g->init(back, NULL, 1, &e), 0);
        if (g->from_view(back, bad_view[i], &e) >= 0)
            fail_msg("accepted view '%s'", bad_view[i]);
        assert_true(e.msg[0] != 0);
    }
    free(obs);
    free(back);
}

/* A move the seat cannot know to be legal (onto its own piece, or as the
 * other side): refused with a message naming only the input. */
static void test_moves(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("generals");
    void *st = tl_position("generals", NULL, DUEL, NULL);
    Move m;
    PlyError err = {{0}};
    static const char *const bad[] = {"a4b4", "a5a4", "a4a6", "a4", "a4a5x",
                                      "j4j5", "P@a1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_not_equal(g->text_to_move(st, bad[i], &m, &err), 0);
        assert_null(strstr(err.msg, "noasp"));
    }
    assert_int_equal(g->text_to_move(st, "a4a5", &m, &err), 0);
    char t[16];
    assert_true(g->move_to_text(st, m, t, sizeof t) > 0);
    assert_string_equal(t, "a4a5");
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_setup_phase),
        cmocka_unit_test(test_challenges),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
