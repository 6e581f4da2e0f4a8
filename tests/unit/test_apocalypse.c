/* test_apocalypse.c — Apocalypse against a second, slow referee written
 * here from the rules text: the board read from the setup string as
 * letters, declarations found by trying every pair of squares against the
 * movement rules, the two declarations resolved on a copy of the letters.
 * Compared on every position of random games under every option set: the
 * declarations and redeployments, the position after each move, the end
 * and the winner. Plus hand-counted perft, rule positions, the hidden
 * view and setup errors. */
#include "testlib.h"

typedef struct Slow {
    char c[5][5];           /* [rank][file], rank 0 = rank 1 */
    char phase[16];
    int pen[2], turn;
    int forbid, horsegoal, loses;
} Slow;

static void slow_read(Slow *s, const char *t, const char *opts)
{
    memset(s, 0, sizeof *s);
    s->forbid = opts && strstr(opts, "illegal=forbid") != NULL;
    s->horsegoal = opts && strstr(opts, "goal=horsemen") != NULL;
    s->loses = opts && strstr(opts, "lastpawn=loses") != NULL;
    int r = 4, f = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') {
            r--;
            f = 0;
        } else if (*t >= '1' && *t <= '5') {
            for (int k = 0; k < *t - '0'; k++)
                s->c[r][f++] = '.';
        } else {
            s->c[r][f++] = *t;
        }
    }
    assert_int_equal(sscanf(t, " %15s %d-%d %d", s->phase, &s->pen[0],
                            &s->pen[1], &s->turn), 4);
}

static void slow_write(const Slow *s, char *out)
{
    for (int r = 4; r >= 0; r--) {
        int e = 0;
        for (int f = 0; f < 5; f++) {
            if (s->c[r][f] == '.') {
                e++;
                continue;
            }
            if (e)
                *out++ = (char)('0' + e);
            e = 0;
            *out++ = s->c[r][f];
        }
        if (e)
            *out++ = (char)('0' + e);
        if (r)
            *out++ = '/';
    }
    sprintf(out, " %s %d-%d %d", s->phase, s->pen[0], s->pen[1], s->turn);
}

static int mine(char c, int side)
{
    return side ? (c == 'p' || c == 'n') : (c == 'P' || c == 'N');
}

static int cnt(const Slow *s, char what)
{
    int n = 0;
    for (int r = 0; r < 5; r++)
        for (int f = 0; f < 5; f++)
            n += s->c[r][f] == what;
    return n;
}

/* A move legal on the board: (r1,f1) to (r2,f2) by side. */
static int slow_legal(const Slow *s, int side, int r1, int f1, int r2, int f2)
{
    char p = s->c[r1][f1], t = s->c[r2][f2];
    if (!mine(p, side) || mine(t, side))
        return 0;
    int dr = r2 - r1, df = f2 - f1;
    if (p == 'N' || p == 'n')
        return (abs(dr) == 1 && abs(df) == 2) ||
               (abs(dr) == 2 && abs(df) == 1);
    if (dr != (side ? -1 : 1) || abs(df) > 1)
        return 0;
    if (!s->loses && r2 == (side ? 0 : 4) &&
        cnt(s, side ? 'p' : 'P') == 1 && cnt(s, side ? 'n' : 'N') < 2)
        return 0;
    return df == 0 ? t == '.' : t != '.';
}

/* A footman's diagonal onto an empty square some enemy move reaches. */
static int slow_spec(const Slow *s, int side, int r1, int f1, int r2, int f2)
{
    char p = s->c[r1][f1];
    if (s->forbid || p != (side ? 'p' : 'P') || s->c[r2][f2] != '.' ||
        r2 - r1 != (side ? -1 : 1) || abs(f2 - f1) != 1)
        return 0;
    if (!s->loses && r2 == (side ? 0 : 4) &&
        cnt(s, side ? 'p' : 'P') == 1 && cnt(s, side ? 'n' : 'N') < 2)
        return 0;
    for (int r = 0; r < 5; r++)
        for (int f = 0; f < 5; f++)
            if (slow_legal(s, !side, r, f, r2, f2))
                return 1;
    return 0;
}

static int slow_moves(const Slow *s, char out[][8])
{
    int n = 0;
    if (s->phase[1] == '@') {
        int side = s->phase[0] == 'B';
        for (int r = 0; r < 5; r++)
            for (int f = 0; f < 5; f++)
                if (s->c[r][f] == '.' && r != (side ? 0 : 4))
                    snprintf(out[n++], 8, "@%c%c", 'a' + f, '1' + r);
        return n;
    }
    int side = s->phase[0] == 'b';
    for (int a = 0; a < 25; a++)
        for (int b = 0; b < 25; b++)
            if (slow_legal(s, side, a / 5, a % 5, b / 5, b % 5) ||
                slow_spec(s, side, a / 5, a % 5, b / 5, b % 5))
                snprintf(out[n++], 8, "%c%c%c%c", 'a' + a % 5, '1' + a / 5,
                         'a' + b % 5, '1' + b / 5);
    return n;
}

/* 1 White won, -1 Black won, 0 draw, 2 not over (at a new turn). */
static int slow_over(const Slow *s)
{
    if (s->pen[0] >= 2 || s->pen[1] >= 2)
        return s->pen[0] >= 2 && s->pen[1] >= 2 ? 0 : s->pen[0] >= 2 ? -1
                                                                     : 1;
    int w = cnt(s, s->horsegoal ? 'N' : 'P');
    int b = cnt(s, s->horsegoal ? 'n' : 'p');
    if (!w || !b)
        return !w && !b ? 0 : !w ? -1 : 1;
    if (s->turn >= 100)
        return 0;
    for (int side = 0; side < 2; side++) {
        int any = 0;
        for (int a = 0; a < 25; a++)
            for (int b2 = 0; b2 < 25; b2++)
                any |= slow_legal(s, side, a / 5, a % 5, b2 / 5, b2 % 5);
        if (!any)
            return 0;
    }
    return 2;
}

static void slow_next_phase(Slow *s)
{
    strcpy(s->phase, "w");
    for (int f = 0; f < 5; f++)
        if (s->c[0][f] == 'p')
            strcpy(s->phase, "B@");
    for (int f = 0; f < 5; f++)
        if (s->c[4][f] == 'P')
            strcpy(s->phase, "W@");
}

/* Plays move m (text) for the side whose phase it is. */
static void slow_make(Slow *s, const char *m)
{
    if (m[0] == '@') {
        char me = s->phase[0] == 'B' ? 'p' : 'P';
        int last = me == 'p' ? 0 : 4;
        for (int f = 0; f < 5; f++)
            if (s->c[last][f] == me)
                s->c[last][f] = '.';
        s->c[m[2] - '1'][m[1] - 'a'] = me;
        slow_next_phase(s);
        return;
    }
    if (s->phase[0] == 'w') {
        snprintf(s->phase, sizeof s->phase, "b:%s", m);
        return;
    }
    const char *d[2] = {s->phase + 2, m};
    int r1[2], f1[2], r2[2], f2[2], ok[2];
    char who[2];
    for (int k = 0; k < 2; k++) {
        f1[k] = d[k][0] - 'a';
        r1[k] = d[k][1] - '1';
        f2[k] = d[k][2] - 'a';
        r2[k] = d[k][3] - '1';
        who[k] = s->c[r1[k]][f1[k]];
    }
    /* a speculative diagonal is legal when the other's board-legal move
     * lands on its square */
    for (int k = 0; k < 2; k++) {
        int legal = slow_legal(s, k, r1[k], f1[k], r2[k], f2[k]);
        int other = slow_legal(s, !k, r1[!k], f1[!k], r2[!k], f2[!k]);
        ok[k] = legal || (other && r2[!k] == r2[k] && f2[!k] == f2[k]);
    }
    Slow n = *s;
    for (int k = 0; k < 2; k++) {
        if (!ok[k])
            n.pen[k]++;
        else
            n.c[r1[k]][f1[k]] = '.';
    }
    if (ok[0] && ok[1] && r2[0] == r2[1] && f2[0] == f2[1]) {
        int h0 = who[0] == 'N', h1 = who[1] == 'n';
        n.c[r2[0]][f2[0]] = h0 == h1 ? '.' : h0 ? 'N' : 'n';
    } else {
        for (int k = 0; k < 2; k++)
            if (ok[k])
                n.c[r2[k]][f2[k]] = who[k];
    }
    for (int k = 0; k < 2; k++) {
        char fm = k ? 'p' : 'P', kn = k ? 'n' : 'N';
        if (ok[k] && who[k] == fm && r2[k] == (k ? 0 : 4) &&
            n.c[r2[k]][f2[k]] == fm && cnt(&n, kn) < 2)
            n.c[r2[k]][f2[k]] = kn;
    }
    n.turn++;
    *s = n;
    slow_next_phase(s);
}

static void compare(const char *opts, int games, uint64_t seed)
{
    const GameVtbl *g = game_find("apocalypse");
    Rng rng;
    rng_seed(&rng, seed);
    Move mv[256];
    char slow[256][8], text[200], want[200];
    int positions = 0, results[3] = {0, 0, 0};
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("apocalypse", opts, NULL, NULL);
        for (;;) {
            g->to_text(st, text, sizeof text);
            Slow s;
            slow_read(&s, text, opts);
            int over = s.phase[0] == 'w' ? slow_over(&s) : 2;
            if (g->to_move(st) == PLAYER_TERMINAL) {
                if (over == 2)
                    fail_msg("%s: ended early at %s", opts, text);
                double ret[2];
                g->returns(st, ret);
                assert_true(ret[0] == over && ret[1] == -over);
                results[over + 1]++;
                break;
            }
            if (over != 2)
                fail_msg("%s: not over at %s", opts, text);
            int k = slow_moves(&s, slow);
            assert_int_equal(g->to_move(st),
                             s.phase[0] == 'b' || s.phase[0] == 'B');
            int n = g->gen_moves(st, mv);
            tl_same_moves(g, st, mv, n, &slow[0][0], k, sizeof slow[0], opts,
                          text);
            positions++;
            Move m = mv[rng_below(&rng, (uint32_t)n)];
            char mt[8];
            g->move_to_text(st, m, mt, sizeof mt);
            slow_make(&s, mt);
            slow_write(&s, want);
            g->make(st, m);
            assert_int_equal(g->check(st), 0);
            g->to_text(st, text, sizeof text);
            if (strcmp(text, want))
                fail_msg("%s: after %s: %s, slow %s", opts, mt, text, want);
        }
        free(st);
    }
    assert_true(positions > games * 10);
    /* random games end every way */
    assert_true(results[0] > 0 && results[2] > 0);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 2000 : 150;
    compare(NULL, games, 1);
    compare("illegal=forbid", games, 2);
    compare("goal=horsemen,lastpawn=loses", games, 3);
    compare("illegal=forbid,goal=horsemen", games, 4);
}

static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
    if (d == 0)
        return 1;
    Move mv[256];
    int n = g->gen_moves(st, mv);
    if (d == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    unsigned char child[256];
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
    if (d == 0)
        return 1;
    if (s->phase[0] == 'w' && slow_over(s) != 2)
        return 0;
    char mv[256][8];
    int n = slow_moves(s, mv);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        Slow c = *s;
        slow_make(&c, mv[i]);
        sum += slow_perft(&c, d - 1);
    }
    return sum;
}

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("apocalypse");
    /* hand counts: 5 footman steps + 4 horseman moves; penalty adds the
     * speculative a2-b3 and e2-d3 (Black's horsemen reach b3 and d3), the
     * same for Black; Black's declarations do not depend on White's */
    void *st = tl_position("apocalypse", NULL, NULL, NULL);
    assert_int_equal(perft(g, st, 1), 11);
    assert_int_equal(perft(g, st, 2), 121);
    char text[200];
    Slow s;
    g->to_text(st, text, sizeof text);
    slow_read(&s, text, NULL);
    for (int d = 1; d <= 4; d++)
        assert_int_equal(perft(g, st, d), slow_perft(&s, d));
    free(st);
    /* the digest's joint first turn: 9 x 9 */
    st = tl_position("apocalypse", "illegal=forbid", NULL, NULL);
    assert_int_equal(perft(g, st, 1), 9);
    assert_int_equal(perft(g, st, 2), 81);
    g->to_text(st, text, sizeof text);
    slow_read(&s, text, "illegal=forbid");
    for (int d = 1; d <= 4; d++)
        assert_int_equal(perft(g, st, d), slow_perft(&s, d));
    free(st);
}

static void after(const char *opts, const char *setup, const char *moves,
                  const char *want)
{
    const GameVtbl *g = game_find("apocalypse");
    void *st = tl_position("apocalypse", opts, setup, moves);
    char text[200];
    g->to_text(st, text, sizeof text);
    if (strcmp(text, want))
        fail_msg("%s then %s: %s, want %s", setup, moves, text, want);
    free(st);
}

static void test_rules(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("apocalypse");
    /* same square: horseman beats footman; two footmen both die */
    after(NULL, "n3n/1p2p/5/P4/N3N w 0-0 0", "a1b3 b4b3",
          "n3n/4p/1N3/P4/4N w 0-0 1");
    after(NULL, "n3n/p3p/2p2/4P/N1P1N w 0-0 0", "c1c2 c3c2",
          "n3n/p3p/5/4P/N3N w 0-0 1");
    /* a capture whose target moved away still steps diagonally; the
     * piece escapes */
    after(NULL, "n3n/p3p/2p2/1P3/N3N w 0-0 0", "b2c3 c3c2",
          "n3n/p3p/2P2/2p2/N3N w 0-0 1");
    /* two pieces swap squares by capturing each other */
    after(NULL, "n4/p3p/1n3/4P/N3N w 0-0 0", "a1b3 b3a1",
          "n4/p3p/1N3/4P/n3N w 0-0 1");
    /* a speculative diagonal no enemy lands on: not played, a penalty;
     * the second penalty loses */
    after(NULL, "n3n/p3p/5/P3P/NPPPN w 0-0 0", "a2b3 a4a3",
          "n3n/4p/p4/P3P/NPPPN w 1-0 1");
    void *st = tl_position("apocalypse", NULL,
                           "n3n/p3p/5/P3P/NPPPN w 1-0 0", "a2b3 a4a3");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == -1.0);
    assert_string_equal(g->end_reason(st), "two penalty points");
    free(st);
    /* ... and when the enemy lands there: a collision, knight wins */
    after(NULL, "n3n/p3p/5/P3P/NPPPN w 0-0 0", "a2b3 a5b3",
          "4n/p3p/1n3/4P/NPPPN w 0-0 1");
    /* promotion: a horseman while fewer than two, else a redeployment */
    after(NULL, "n3n/p1P1p/5/P4/N4 w 0-0 0", "c4c5 e5d3",
          "n1N2/p3p/3n1/P4/N4 w 0-0 1");
    after(NULL, "n3n/p1P1p/5/5/N3N w 0-0 0", "c4c5 a4a3",
          "n1P1n/4p/p4/5/N3N W@ 0-0 1");
    after(NULL, "n3n/p1P1p/5/5/N3N w 0-0 0", "c4c5 a4a3 @c3",
          "n3n/4p/p1P2/5/N3N w 0-0 1");
    st = tl_position("apocalypse", NULL, "n3n/p1P1p/5/5/N3N w 0-0 0",
                     "c4c5 a4a3");
    Move m;
    PlyError err = {{0}};
    assert_int_equal(g->text_to_move(st, "@c5", &m, &err), -1);   /* rank */
    assert_int_equal(g->text_to_move(st, "@a5", &m, &err), -1);   /* taken */
    free(st);
    /* lastpawn: the only footman may not reach the last rank with fewer
     * than two horsemen, unless lastpawn=loses (and then it loses) */
    st = tl_position("apocalypse", NULL, "n3n/2P1p/5/5/4N w 0-0 0", NULL);
    assert_int_equal(g->text_to_move(st, "c4c5", &m, &err), -1);
    free(st);
    st = tl_position("apocalypse", "lastpawn=loses",
                     "n3n/2P1p/5/5/4N w 0-0 0", "c4c5 e4e3");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == -1.0);
    free(st);
    /* goal=horsemen: Dagaz counts horsemen */
    st = tl_position("apocalypse", "goal=horsemen",
                     "n4/p3p/5/1P3/N4 w 0-0 0", "a1b3 a5b3");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 0.0);
    free(st);
}

static void test_hidden(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("apocalypse");
    void *st = tl_position("apocalypse", NULL, NULL, "a1b3");
    unsigned char obs[256], world[256];
    char text[200];
    g->observe(st, 1, obs);
    g->to_text(obs, text, sizeof text);
    assert_string_equal(text, "npppn/p3p/5/P3P/NPPPN b:? 0-0 0");
    g->observe(st, 0, obs);
    g->to_text(obs, text, sizeof text);
    assert_string_equal(text, "npppn/p3p/5/P3P/NPPPN b:a1b3 0-0 0");
    /* Black's sampled worlds cover White's choices */
    g->observe(st, 1, obs);
    int seen[11] = {0}, kinds = 0;
    Move mv[256];
    void *w0 = tl_position("apocalypse", NULL, NULL, NULL);
    int n = g->gen_moves(w0, mv);
    Rng r;
    rng_seed(&r, 5);
    for (int k = 0; k < 400; k++) {
        g->determinize(obs, 1, &r, world);
        g->to_text(world, text, sizeof text);
        for (int i = 0; i < n; i++) {
            char mt[8], want[40];
            g->move_to_text(w0, mv[i], mt, sizeof mt);
            snprintf(want, sizeof want, "b:%s ", mt);
            if (strstr(text, want) && !seen[i]++)
                kinds++;
        }
    }
    assert_int_equal(n, 11);
    assert_int_equal(kinds, 11);
    free(w0);
    free(st);
}

static void test_setup_errors(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("apocalypse");
    void *st = tl_position("apocalypse", NULL, NULL, NULL);
    PlyError err = {{0}};
    const char *bad[] = {
        "npppn/p3p/5/P3P/NPPPN b:? 0-0 0",     /* a view */
        "npppn/p3p/5/P3P/NPPPN b:a1a2 0-0 0",  /* own square */
        "npppn/p3p/5/P3P/NPPP w 0-0 0",        /* short rank */
        "npppn/p3p/5/P3P/NPPPNN w 0-0 0",      /* long rank */
        "npppn/p3p/5/P3P w 0-0 0",             /* four ranks */
        "npppk/p3p/5/P3P/NPPPN w 0-0 0",       /* no such piece */
        "npppn/p3p/5/P3P/NPPPN x 0-0 0",       /* phase */
        "npppn/p3p/5/P3P/NPPPN w 3-0 0",       /* penalties */
        "npppn/p3p/5/P3P/NPPPN w 0-0 101",     /* turns */
        "npppn/p3p/5/P3P/NPPPN w 0-0",         /* missing field */
        "npppn/p3p/5/P3P/NPPPN w 0-0 0 x",     /* trailing */
        "nPppn/p3p/5/P3P/NPPP1 w 0-0 0",       /* footman waits: W@ */
        "npppn/p3p/5/P3P/NPPPN W@ 0-0 0",      /* nobody to redeploy */
        "n3n/p3p/5/5/N3N b:a1b3 0-0 0",        /* over: White has none */
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) == 0)
            fail_msg("accepted bad setup '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    Move m;
    assert_int_equal(g->text_to_move(st, "a2a4", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "zz", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "", &m, &err), -1);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_slow),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_hidden),
        cmocka_unit_test(test_setup_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
