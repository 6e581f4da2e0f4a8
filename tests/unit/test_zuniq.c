/* test_zuniq.c — Zuniq against a slow, obviously correct reference (walls
 * as arrays, zones by breadth-first search from scratch, a move legal iff
 * after drawing it all zone sizes differ), plus notation, rule cases, the
 * CodeCup sample game, real CodeCup games and the canonical hash. */
#include "testlib.h"
#include "core/timeman.h"

/* ---- the reference ------------------------------------------------------ */

/* h[r][c]: dot (r,c) to (r,c+1); v[r][c]: dot (r,c) to (r+1,c). Cell (r,c)
 * has walls h[r][c] above, h[r+1][c] below, v[r][c] left, v[r][c+1]
 * right. */
typedef struct Ref {
    int h[6][5];
    int v[5][6];
} Ref;

/* Steps from cell (r,c) in direction k (up, down, left, right): whether
 * the wall is undrawn, and the neighbour (off the board when out of
 * range). */
static int ref_step(const Ref *b, int r, int c, int k, int *nr, int *nc)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int wall = k == 0 ? b->h[r][c] : k == 1 ? b->h[r + 1][c]
             : k == 2 ? b->v[r][c] : b->v[r][c + 1];
    *nr = r + dr[k];
    *nc = c + dc[k];
    return !wall;
}

static int on_board(int r, int c)
{
    return r >= 0 && r < 5 && c >= 0 && c < 5;
}

/* zone[r][c] = size of the closed zone holding the cell, 0 when open. */
static void ref_zones(const Ref *b, int zone[5][5])
{
    int open[5][5] = {{0}}, qr[25], qc[25], n = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            for (int k = 0; k < 4; k++) {
                int nr, nc;
                if (ref_step(b, r, c, k, &nr, &nc) && !on_board(nr, nc) &&
                    !open[r][c]) {
                    open[r][c] = 1;
                    qr[n] = r;
                    qc[n++] = c;
                }
            }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            int nr, nc;
            if (ref_step(b, qr[i], qc[i], k, &nr, &nc) && on_board(nr, nc) &&
                !open[nr][nc]) {
                open[nr][nc] = 1;
                qr[n] = nr;
                qc[n++] = nc;
            }
        }
    int seen[5][5] = {{0}};
    memset(zone, 0, sizeof(int) * 25);
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++) {
            if (open[r][c] || seen[r][c])
                continue;
            int m = 0;
            seen[r][c] = 1;
            qr[m] = r;
            qc[m++] = c;
            for (int i = 0; i < m; i++)
                for (int k = 0; k < 4; k++) {
                    int nr, nc;
                    if (ref_step(b, qr[i], qc[i], k, &nr, &nc) &&
                        on_board(nr, nc) && !seen[nr][nc]) {
                        assert_false(open[nr][nc]);
                        seen[nr][nc] = 1;
                        qr[m] = nr;
                        qc[m++] = nc;
                    }
                }
            for (int i = 0; i < m; i++)
                zone[qr[i]][qc[i]] = m;
        }
}

/* Whether all closed zones have different sizes. */
static int ref_sizes_ok(const Ref *b)
{
    int zone[5][5], count[26] = {0}, cells[26] = {0};
    ref_zones(b, zone);
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            cells[zone[r][c]]++;
    for (int k = 1; k <= 25; k++) {
        count[k] = cells[k] / k;
        if (count[k] > 1)
            return 0;
    }
    return 1;
}

/* Segment k of the CodeCup order used below: h row by row, then v. */
static int *ref_seg(Ref *b, int k, int *adj_r, int *adj_c, int *nadj)
{
    *nadj = 0;
    if (k < 30) {
        int r = k / 5, c = k % 5;
        if (r > 0) {
            adj_r[*nadj] = r - 1;
            adj_c[(*nadj)++] = c;
        }
        if (r < 5) {
            adj_r[*nadj] = r;
            adj_c[(*nadj)++] = c;
        }
        return &b->h[r][c];
    }
    int r = (k - 30) / 6, c = (k - 30) % 6;
    if (c > 0) {
        adj_r[*nadj] = r;
        adj_c[(*nadj)++] = c - 1;
    }
    if (c < 5) {
        adj_r[*nadj] = r;
        adj_c[(*nadj)++] = c;
    }
    return &b->v[r][c];
}

static void ref_name(int k, char *buf)
{
    if (k < 30)
        sprintf(buf, "%c%dh", 'A' + k / 5, k % 5 + 1);
    else
        sprintf(buf, "%c%dv", 'A' + (k - 30) / 6, (k - 30) % 6 + 1);
}

/* zone[][] is ref_zones() of b, passed in to save time. */
static int ref_legal(Ref *b, int k, int zone[5][5])
{
    int ar[2], ac[2], na;
    int *w = ref_seg(b, k, ar, ac, &na);
    if (*w)
        return 0;
    for (int i = 0; i < na; i++)
        if (zone[ar[i]][ac[i]])
            return 0;   /* inside a closed zone */
    *w = 1;
    int ok = ref_sizes_ok(b);
    *w = 0;
    return ok;
}

/* Legal moves as names in the CodeCup order, joined by spaces. */
static int ref_moves(Ref *b, char *out)
{
    int n = 0, zone[5][5];
    ref_zones(b, zone);
    out[0] = 0;
    for (int k = 0; k < 60; k++)
        if (ref_legal(b, k, zone)) {
            char nm[8];
            ref_name(k, nm);
            if (n++)
                strcat(out, " ");
            strcat(out, nm);
        }
    return n;
}

static int ref_count(Ref *b)
{
    int n = 0;
    for (int k = 0; k < 60; k++) {
        int ar[2], ac[2], na;
        n += *ref_seg(b, k, ar, ac, &na);
    }
    return n;
}

/* Reads segment names (any order, optional "W:"/"B:" first). */
static void ref_from_text(Ref *b, const char *s)
{
    memset(b, 0, sizeof *b);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t;
         t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "W:") || !strcmp(t, "B:"))
            continue;
        int row = t[0] - 'A', col = t[1] - '1';
        int found = strlen(t) == 3 && row >= 0 && col >= 0;
        if (found && t[2] == 'h' && row < 6 && col < 5)
            b->h[row][col] = 1;
        else if (found && t[2] == 'v' && row < 5 && col < 6)
            b->v[row][col] = 1;
        else
            fail_msg("reference cannot read '%s'", t);
    }
}

/* ---- the fast implementation, seen through the vtable --------------------- */

static const GameVtbl *zq(void)
{
    const GameVtbl *g = game_find("zuniq");
    assert_non_null(g);
    return g;
}

static void fast_moves(const GameVtbl *g, const void *st, char *out)
{
    Move mv[60];
    int n = g->gen_moves(st, mv);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char nm[16];
        assert_true(g->move_to_text(st, mv[i], nm, sizeof nm) > 0);
        if (i)
            strcat(out, " ");
        strcat(out, nm);
    }
}

/* Zone sizes per cell, read from the rendered board. */
static void fast_zones(const GameVtbl *g, const void *st, int zone[5][5])
{
    char buf[4096];
    assert_true(g->render(st, buf, sizeof buf) > 0);
    char *line[16];
    int nl = 0;
    for (char *p = buf; *p && nl < 16;) {
        line[nl++] = p;
        char *e = strchr(p, '\n');
        if (!e)
            break;
        *e = 0;
        p = e + 1;
    }
    assert_true(nl >= 12);
    for (int r = 0; r < 5; r++) {
        const char *l = line[2 + 2 * r];
        assert_true(strlen(l) >= 4 + 4 * 5);
        for (int c = 0; c < 5; c++) {
            const char *cell = l + 4 + 4 * c + 1;
            zone[r][c] = cell[1] == ' ' ? 0 : atoi(cell);
        }
    }
}

/* Compares everything at one position; returns the number of moves. */
static int compare(const GameVtbl *g, const void *st, const char *where)
{
    char text[1024], a[1024], b[1024];
    Ref ref;
    assert_true(g->to_text(st, text, sizeof text) >= 0);
    ref_from_text(&ref, text);
    int nref = ref_moves(&ref, b);
    fast_moves(g, st, a);
    if (strcmp(a, b))
        fail_msg("%s: position '%s'\n fast: %s\n ref:  %s", where, text, a,
                 b);
    int zf[5][5], zr[5][5];
    fast_zones(g, st, zf);
    ref_zones(&ref, zr);
    if (memcmp(zf, zr, sizeof zf))
        fail_msg("%s: zones differ at '%s'", where, text);
    int side = ref_count(&ref) % 2;
    int p = g->to_move(st);
    if (nref == 0) {
        if (p != PLAYER_TERMINAL)
            fail_msg("%s: '%s' should be over", where, text);
        double ret[2];
        g->returns(st, ret);
        assert_true(ret[side] == -1.0 && ret[!side] == 1.0);
    } else if (p != side) {
        fail_msg("%s: '%s': to_move %d, expected %d", where, text, p, side);
    }
    assert_int_equal(g->check(st), 0);
    return nref;
}

static void test_random_games(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = state_alloc(g);
    Rng r;
    rng_seed(&r, 2021);
    int positions = 0, games = tl_slow() ? 3000 : 200;
    for (int gi = 0; gi < games; gi++) {
        PlyError err;
        assert_int_equal(g->init(st, NULL, 0, &err), 0);
        char where[64];
        for (int ply = 0;; ply++) {
            snprintf(where, sizeof where, "game %d ply %d", gi, ply);
            int n = compare(g, st, where);
            positions++;
            if (!n)
                break;
            Move mv[60];
            assert_int_equal(g->gen_moves(st, mv), n);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
    }
    assert_true(positions > games * 30);
    free(st);
}

/* plies_left counts the plies that cost thinking: down to the ply where
 * the exact solver usually settles the game (30 segments drawn), then at
 * least 2. So a clock gives a move near the decision more than a move of
 * the opening, even with a third of the time left. */
static void test_plies_left(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    assert_non_null(g->plies_left);
    void *st = state_alloc(g);
    PlyError err;
    assert_int_equal(g->init(st, NULL, 0, &err), 0);
    Rng r;
    rng_seed(&r, 7);
    int64_t first = 0;
    for (int ply = 0; g->to_move(st) != PLAYER_TERMINAL; ply++) {
        int want = 30 - ply > 2 ? 30 - ply : 2;
        assert_int_equal(g->plies_left(st), want);
        if (ply == 0) {
            Clock c = {.left_ms = 30000};
            first = time_budget(g, st, &c, 1);
        } else if (ply == 26) {
            Clock c = {.left_ms = 10000};
            assert_true(time_budget(g, st, &c, 1) > first);
        }
        Move mv[60];
        int n = g->gen_moves(st, mv);
        g->make(st, mv[rng_below(&r, (uint32_t)n)]);
    }
    assert_true(first > 0);
    free(st);
}

/* Random sets of segments, in random order: accepted iff the reference
 * sees distinct zone sizes; then a random game from there. */
static void test_random_setups(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = state_alloc(g);
    Rng r;
    rng_seed(&r, 56);
    int accepted = 0, rejected = 0, sets = tl_slow() ? 20000 : 600;
    for (int i = 0; i < sets; i++) {
        int order[60], n = 0;
        for (int k = 0; k < 60; k++)
            order[k] = k;
        for (int k = 59; k > 0; k--) {
            int j = (int)rng_below(&r, (uint32_t)k + 1), t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        int want = (int)rng_below(&r, 61);
        char setup[512] = "";
        Ref ref;
        memset(&ref, 0, sizeof ref);
        for (int k = 0; k < want; k++) {
            char nm[8];
            int ar[2], ac[2], na;
            ref_name(order[k], nm);
            *ref_seg(&ref, order[k], ar, ac, &na) = 1;
            if (n++)
                strcat(setup, " ");
            strcat(setup, nm);
        }
        PlyError err = {{0}};
        assert_int_equal(g->init(st, NULL, 0, &err), 0);
        int ok = g->from_text(st, setup, &err) == 0;
        if (ok != ref_sizes_ok(&ref))
            fail_msg("setup '%s': fast %s, reference %s (%s)", setup,
                     ok ? "accepts" : "rejects",
                     ok ? "rejects" : "accepts", err.msg);
        if (!ok) {
            assert_non_null(strstr(err.msg, "two closed zones of size"));
            rejected++;
            continue;
        }
        accepted++;
        char where[64];
        for (int ply = 0;; ply++) {
            snprintf(where, sizeof where, "setup %d ply %d", i, ply);
            int nm = compare(g, st, where);
            if (!nm)
                break;
            Move mv[60];
            g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)nm)]);
        }
    }
    assert_true(accepted > sets / 4 && rejected > sets / 20);
    free(st);
}

/* The playout hook ends in a consistent terminal state, and its results
 * match uniform random play (White wins about 40%). */
static void test_playout(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = state_alloc(g), *st2 = state_alloc(g);
    Rng r;
    rng_seed(&r, 7);
    int n = 20000;
    for (int i = 0; i < n; i++) {
        PlyError err;
        assert_int_equal(g->init(st, NULL, 0, &err), 0);
        int pre = (int)rng_below(&r, 30);
        for (int k = 0; k < pre && g->to_move(st) != PLAYER_TERMINAL; k++) {
            Move mv[60];
            int m = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)m)]);
        }
        g->playout(st, &r);
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        assert_int_equal(g->check(st), 0);
        char text[1024];
        assert_true(g->to_text(st, text, sizeof text) >= 0);
        assert_int_equal(g->init(st2, NULL, 0, &err), 0);
        assert_int_equal(g->from_text(st2, text, &err), 0);
        assert_true(g->hash(st) == g->hash(st2));
        assert_int_equal(g->to_move(st2), PLAYER_TERMINAL);
        if (i < 500)
            compare(g, st, "after playout");
    }
    int empty_start = 0;
    rng_seed(&r, 8);
    for (int i = 0; i < n; i++) {
        PlyError err;
        assert_int_equal(g->init(st, NULL, 0, &err), 0);
        g->playout(st, &r);
        double ret[2];
        g->returns(st, ret);
        empty_start += ret[0] > 0;
    }
    double p = (double)empty_start / n;
    if (p < 0.38 || p > 0.42)
        fail_msg("White won %.3f of random playouts, expected about 0.40", p);
    free(st);
    free(st2);
}

/* ---- notation and rules ------------------------------------------------- */

static void expect_move_error(const void *st, const char *text,
                              const char *pat)
{
    const GameVtbl *g = zq();
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, text, &m, &err) == 0)
        fail_msg("'%s' was accepted", text);
    if (!strstr(err.msg, pat))
        fail_msg("'%s': message '%s' lacks '%s'", text, err.msg, pat);
}

static void test_notation(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    Move mv[60];
    assert_int_equal(g->gen_moves(st, mv), 60);
    int h = 0, v = 0;
    for (int i = 0; i < 60; i++) {
        char nm[16];
        Move m;
        PlyError err;
        assert_int_equal(g->move_to_text(st, mv[i], nm, sizeof nm), 3);
        assert_true(nm[0] >= 'A' && nm[0] <= 'F' && nm[1] >= '1' &&
                    nm[1] <= '6');
        h += nm[2] == 'h';
        v += nm[2] == 'v';
        assert_int_equal(g->text_to_move(st, nm, &m, &err), 0);
        assert_true(m == mv[i]);
        nm[0] = (char)(nm[0] - 'A' + 'a');
        assert_int_equal(g->text_to_move(st, nm, &m, &err), 0);
        assert_true(m == mv[i]);
    }
    assert_int_equal(h, 30);
    assert_int_equal(v, 30);
    /* the generation order is CodeCup's reading order: h then v */
    char nm[16];
    g->move_to_text(st, mv[0], nm, sizeof nm);
    assert_string_equal(nm, "A1h");
    g->move_to_text(st, mv[29], nm, sizeof nm);
    assert_string_equal(nm, "F5h");
    g->move_to_text(st, mv[30], nm, sizeof nm);
    assert_string_equal(nm, "A1v");
    g->move_to_text(st, mv[59], nm, sizeof nm);
    assert_string_equal(nm, "E6v");
    expect_move_error(st, "A6h", "off the board");
    expect_move_error(st, "F1v", "off the board");
    expect_move_error(st, "G1h", "not a segment");
    expect_move_error(st, "A0h", "not a segment");
    expect_move_error(st, "A1x", "not a segment");
    Move m1, m2;
    PlyError e1;
    assert_int_equal(g->text_to_move(st, "e6V", &m1, &e1), 0);
    assert_int_equal(g->text_to_move(st, "E6v", &m2, &e1), 0);
    assert_true(m1 == m2);
    expect_move_error(st, "A1h!", "not a segment");
    expect_move_error(st, "A1", "not a segment");
    expect_move_error(st, "", "not a segment");
    expect_move_error(st, " A1h", "not a segment");
    free(st);
    st = tl_position("zuniq", NULL, NULL, "A2h");
    expect_move_error(st, "A2h", "already drawn");
    free(st);
}

static void test_repeated_size(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    /* A1 is a 1-cell zone; C3 has three walls after C4v */
    void *st = tl_position("zuniq", NULL, NULL,
                           "A1h A1v A2v B1h C3h C3v");
    Move m;
    PlyError err;
    assert_int_equal(g->text_to_move(st, "D3h", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "C4v", &m, &err), 0);
    g->make(st, m);
    expect_move_error(st, "D3h", "second zone of size 1");
    char moves[1024];
    fast_moves(g, st, moves);
    assert_null(strstr(moves, "D3h"));
    assert_non_null(strstr(moves, "D4h"));
    /* while a zone of a new size may be closed: C3-C4 has 2 cells */
    free(st);
    st = tl_position("zuniq", NULL, NULL,
                     "A1h A1v A2v B1h C3h C3v C4h D3h D4h");
    assert_int_equal(g->text_to_move(st, "C5v", &m, &err), 0);
    g->make(st, m);
    int zone[5][5];
    fast_zones(g, st, zone);
    assert_int_equal(zone[2][2], 2);
    assert_int_equal(zone[2][3], 2);
    assert_int_equal(zone[0][0], 1);
    free(st);
}

static void test_inside_closed_zone(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    /* a 2-cell zone A1-A2 with its middle wall A2v undrawn */
    void *st = tl_position("zuniq", NULL, NULL, "A1h A2h A1v A3v B1h B2h");
    expect_move_error(st, "A2v", "inside a closed zone");
    char moves[1024];
    fast_moves(g, st, moves);
    assert_null(strstr(moves, "A2v"));
    assert_int_equal(g->check(st), 0);
    free(st);
}

static void test_full_border(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    const char *border[20] = {
        "A1h", "A2h", "A3h", "A4h", "A5h", "F1h", "F2h", "F3h", "F4h", "F5h",
        "A1v", "B1v", "C1v", "D1v", "E1v", "A6v", "B6v", "C6v", "D6v", "E6v",
    };
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    for (int i = 0; i < 20; i++) {
        Move m;
        PlyError err;
        assert_int_equal(g->to_move(st), i % 2);
        assert_int_equal(g->text_to_move(st, border[i], &m, &err), 0);
        g->make(st, m);
    }
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    Move mv[60];
    assert_int_equal(g->gen_moves(st, mv), 0);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == -1.0 && ret[1] == 1.0);   /* Black drew last */
    int zone[5][5];
    fast_zones(g, st, zone);
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            assert_int_equal(zone[r][c], 25);
    expect_move_error(st, "C3h", "game is over");
    free(st);
}

/* Replays a game, checking the legal set after some moves. */
typedef struct Check {
    int after;              /* moves played */
    const char *legal;      /* the legal moves, in generation order */
} Check;

static void replay(const char *moves, const Check *checks, int nchecks,
                   int length, int winner)
{
    const GameVtbl *g = zq();
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    char buf[1024], legal[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    int ply = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t;
         t = strtok_r(NULL, " ", &save)) {
        Move m;
        PlyError err;
        if (g->text_to_move(st, t, &m, &err))
            fail_msg("move %d '%s' refused: %s", ply + 1, t, err.msg);
        g->make(st, m);
        ply++;
        compare(g, st, "replay");
        for (int i = 0; i < nchecks; i++)
            if (checks[i].after == ply) {
                fast_moves(g, st, legal);
                assert_string_equal(legal, checks[i].legal);
            }
    }
    assert_int_equal(ply, length);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[winner] == 1.0 && ret[!winner] == -1.0);
    free(st);
}

/* codecup.nl/zuniq/sample_game.php, as quoted in xboard/mcts_zuniq's
 * tests.cpp. */
static void test_sample_game(void **state)
{
    (void)state;
    static const Check checks[] = {
        {37, "A1h E2h F2h A1v E2v"},
        {38, "A1h A1v"},
    };
    replay("E5v A2h B3h C4v E5h C1v E3h F3h B5h A3h D5v D1v B5v C5h D4h "
           "C1h A4v F5h C4h A5h A5v B6v E3v D2h C2h A4h B2h C6v D2v C3v "
           "B4v D6v E4h E1v C3h B1v F1h F2h A1h A1v",
           checks, 2, 40, 1);
}

/* CodeCup games 158091 and 159658, from the same file ('!' claims
 * stripped). */
static void test_codecup_games(void **state)
{
    (void)state;
    static const Check c1[] = {
        {37, "E3h F3h F5h E6v"},
        {38, "E3h F3h"},
    };
    replay("A3h A1v B1h A1h A5v A2v B5h A2h C2v A3v B2v A4v D1h A4h D5h "
           "A5h E5v B1v D5v B3v C2h B4v D2v B5v E2v B6v C5v C3v D4h C4v "
           "E3v D1v D4v D3v D6v E1v E4v E6v F3h",
           c1, 2, 39, 0);
    replay("A3v F3h B5v D6v D5h E3v C5h D1h A5v C3v E5v F1h D5v F4h C5v "
           "E6v B2h D4v B1h F5h E1h C4v E2h D1v D2v B3v C2h B1v A4v E3h "
           "B4v C2v D4h C3h A6v A5h E1v A1h A1v",
           NULL, 0, 39, 0);
}

static void test_heuristic(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = tl_position("zuniq", NULL, NULL, "A1h A1v C3h");
    Move m;
    PlyError err;
    /* A2v lets the opponent close A1 with B1h */
    assert_int_equal(g->text_to_move(st, "A2v", &m, &err), 0);
    assert_int_equal(g->heuristic(st, m), -1);
    assert_int_equal(g->text_to_move(st, "E5h", &m, &err), 0);
    assert_int_equal(g->heuristic(st, m), 0);
    /* closing A1 oneself leaves no closing reply here */
    free(st);
    st = tl_position("zuniq", NULL, NULL, "A1h A1v A2v");
    assert_int_equal(g->text_to_move(st, "B1h", &m, &err), 0);
    assert_int_equal(g->heuristic(st, m), 0);
    /* unless the size is taken: C3 would repeat size 1, so no reply */
    free(st);
    st = tl_position("zuniq", NULL, NULL, "A1h A1v A2v B1h C3h C3v");
    assert_int_equal(g->text_to_move(st, "C4v", &m, &err), 0);
    assert_int_equal(g->heuristic(st, m), 0);
    free(st);
}

static uint64_t perft(const GameVtbl *g, const void *st, int depth)
{
    Move mv[60];
    int n = g->gen_moves(st, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    unsigned char child[512];
    assert_true(g->info.state_size <= sizeof child);
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[i]);
        sum += perft(g, child, depth - 1);
    }
    return sum;
}

/* No zone can close before the fourth segment and the first zone always
 * has a free size, so every order of distinct segments is legal up to
 * depth 4 (a second zone needs at least 7 segments in all). */
static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    int depth = tl_slow() ? 5 : 3;
    uint64_t want = 1;
    for (int d = 1; d <= depth; d++) {
        want *= (uint64_t)(61 - d);
        assert_true(perft(g, st, d) == want);
    }
    free(st);
}

/* ---- setup strings and the canonical hash -------------------------------- */

static void test_setup_strings(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    char text[1024];
    g->to_text(st, text, sizeof text);
    assert_string_equal(text, "W:");
    free(st);
    st = tl_position("zuniq", NULL, NULL, "E5v A2h B3h");
    g->to_text(st, text, sizeof text);
    assert_string_equal(text, "B: A2h B3h E5v");
    PlyError err = {{0}};
    void *st2 = state_alloc(g);
    assert_int_equal(g->init(st2, NULL, 0, &err), 0);
    assert_int_equal(g->from_text(st2, "  e5v  B3h a2h ", &err), 0);
    assert_true(g->hash(st) == g->hash(st2));
    assert_int_equal(g->from_text(st2, "B: A2h B3h E5v", &err), 0);
    assert_true(g->hash(st) == g->hash(st2));
    static const struct {
        const char *setup, *msg;
    } bad[] = {
        {"W: A2h B3h E5v", "it is Black's turn"},
        {"A2h A2h", "listed twice"},
        {"A2h, B3h", "not a segment"},
        {"X:", "not a segment"},
        {"A6h", "off the board"},
        {"A1h A1v A2v B1h A5h A5v A6v B5h", "two closed zones of size 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = 0;
        if (g->from_text(st2, bad[i].setup, &err) == 0)
            fail_msg("setup '%s' accepted", bad[i].setup);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("setup '%s': '%s' lacks '%s'", bad[i].setup, err.msg,
                     bad[i].msg);
    }
    free(st);
    free(st2);
}

static void test_canonical_hash(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    /* a 4-cell zone A1-B2 closed with one inner wall or another */
    const char *walls = "A1h A2h A1v B1v C1h C2h A3v B3v";
    char a[256], b[256], c[256];
    snprintf(a, sizeof a, "%s B1h D4v", walls);
    snprintf(b, sizeof b, "%s A2v D4v", walls);
    snprintf(c, sizeof c, "%s B1h D5v", walls);
    void *sa = tl_position("zuniq", NULL, a, NULL);
    void *sb = tl_position("zuniq", NULL, b, NULL);
    void *sc = tl_position("zuniq", NULL, c, NULL);
    int zone[5][5];
    fast_zones(g, sa, zone);
    assert_int_equal(zone[1][1], 4);
    char ta[256], tb[256];
    g->to_text(sa, ta, sizeof ta);
    g->to_text(sb, tb, sizeof tb);
    assert_string_not_equal(ta, tb);
    assert_true(g->hash(sa) == g->hash(sb));
    assert_true(g->hash(sa) != g->hash(sc));   /* D4v vs D5v is live */
    /* the same through moves, in different orders */
    void *ma = tl_position("zuniq", NULL, NULL,
                           "B1h A1h A2h A1v B1v C1h C2h A3v D4v B3v");
    void *mb = tl_position("zuniq", NULL, NULL,
                           "D4v A2v A1h A2h A1v B1v C1h C2h A3v B3v");
    assert_true(g->hash(ma) == g->hash(sa));
    assert_true(g->hash(mb) == g->hash(sa));
    /* the side to move counts */
    snprintf(c, sizeof c, "%s B1h", walls);
    void *sd = tl_position("zuniq", NULL, c, NULL);
    snprintf(c, sizeof c, "%s B1h A2v", walls);
    void *se = tl_position("zuniq", NULL, c, NULL);
    assert_true(g->hash(sd) != g->hash(se));
    free(sa);
    free(sb);
    free(sc);
    free(sd);
    free(se);
    free(ma);
    free(mb);
}

/* Plain negamax through gen_moves/make, no table: +1 when the side to
 * move wins. */
static int slow_solve(const GameVtbl *g, const void *st, long *nodes)
{
    (*nodes)++;
    Move mv[60];
    int n = g->gen_moves(st, mv);
    if (g->to_move(st) == PLAYER_TERMINAL || n == 0)
        return -1;
    unsigned char t[1024];
    assert_true(g->info.state_size <= sizeof t);
    for (int i = 0; i < n; i++) {
        memcpy(t, st, g->info.state_size);
        g->make(t, mv[i]);
        if (slow_solve(g, t, nodes) < 0)
            return 1;
    }
    return -1;
}

/* The exact hook against slow_solve on random positions with at most 9
 * legal moves (answered for at least a quarter of them: those with few
 * open segments) and wherever it answers on positions with up to 16;
 * nothing for the open board. */
static void test_exact(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    assert_non_null(g->exact);
    void *st = state_alloc(g);
    Rng r;
    rng_seed(&r, 19);
    int solved = 0, wins = 0, big = 0, tried = 0;
    PlyError err;
    assert_int_equal(g->init(st, NULL, 0, &err), 0);
    int res;
    assert_int_equal(g->exact(st, 0, &res), 0);
    for (int gi = 0; gi < (tl_slow() ? 400 : 60); gi++) {
        assert_int_equal(g->init(st, NULL, 0, &err), 0);
        for (int ply = 0;; ply++) {
            Move mv[60];
            int n = g->gen_moves(st, mv);
            int p = g->to_move(st);
            char text[512];
            g->to_text(st, text, sizeof text);
            if (p == PLAYER_TERMINAL) {
                /* the end: the side to move lost */
                assert_int_equal(g->exact(st, 0, &res), 1);
                break;
            }
            if (n <= 9) {
                long nodes = 0;
                int want = slow_solve(g, st, &nodes);
                int got0 = 9, got1 = 9;
                tried++;
                if (!g->exact(st, p, &got0)) {
                    g->make(st, mv[rng_below(&r, (uint32_t)n)]);
                    continue;
                }
                assert_int_equal(g->exact(st, !p, &got1), 1);
                if (got0 != want || got1 != -want)
                    fail_msg("at %s: %d/%d, slow solve %d", text, got0, got1,
                             want);
                solved++;
                wins += want > 0;
            } else if (n <= 16 && g->exact(st, p, &res)) {
                long nodes = 0;
                if (res != slow_solve(g, st, &nodes))
                    fail_msg("at %s: %d differs from the slow solve", text,
                             res);
                big++;
            }
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
    }
    /* the solver answers where few segments are open (a third of these
     * positions), both results occur */
    print_message("exact: %d of %d small positions, %d won, %d larger\n",
                  solved, tried, wins, big);
    assert_true(solved > 50 && solved >= tried / 4);
    assert_true(wins > 10 && wins < solved - 10);
    free(st);
}

/* The area solver (solver=areas, the default) against the whole-board
 * negamax (solver=board) on the positions of random games: wherever both
 * exact hooks answer they agree; the area solver answers more often (from
 * earlier in the game). exact_move with a larger budget agrees with the
 * board solver and with slow_solve where those finish, and its winning
 * move leaves a position the board solver (or slow_solve) finds lost. */
static void test_areas(void **state)
{
    (void)state;
    const GameVtbl *g = zq();
    assert_non_null(g->exact_move);
    void *sa = state_alloc(g), *sb = state_alloc(g), *t = state_alloc(g);
    /* odd games keep one table through the game, as ply codecup does */
    enum { WORK = 1 << 20 };
    void *work = malloc(WORK);
    assert_non_null(work);
    Rng r;
    rng_seed(&r, 2119);
    int both = 0, only_a = 0, only_b = 0, deep = 0, moves_checked = 0;
    int first_a = 0, first_b = 0, games = tl_slow() ? 600 : 120;
    PlyError err;
    const int oa[1] = {0}, ob[1] = {1};
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(g->init(sa, oa, 0, &err), 0);
        assert_int_equal(g->init(sb, ob, 0, &err), 0);
        memset(work, 0, WORK);
        int fa = -1, fb = -1, ply;
        for (ply = 0; g->to_move(sa) != PLAYER_TERMINAL; ply++) {
            char text[512];
            g->to_text(sa, text, sizeof text);
            int p = g->to_move(sa), ra = 9, rb = 9;
            int ka = g->exact(sa, p, &ra), kb = g->exact(sb, p, &rb);
            if (ka && fa < 0)
                fa = ply;
            if (kb && fb < 0)
                fb = ply;
            if (ka && kb) {
                both++;
                if (ra != rb)
                    fail_msg("at %s: areas %d, board %d", text, ra, rb);
            }
            only_a += ka && !kb;
            only_b += kb && !ka;
            Move mv[60];
            int n = g->gen_moves(sa, mv);
            /* the deeper hook, on some positions */
            if (rng_below(&r, 4) == 0) {
                int rd = 9;
                Move best = 0;
                if (g->exact_move(sa, p, 20000, gi & 1 ? work : NULL,
                                  gi & 1 ? WORK : 0, &rd, &best)) {
                    deep++;
                    if (kb && rd != rb)
                        fail_msg("at %s: exact_move %d, board %d", text,
                                 rd, rb);
                    if (n <= 9) {
                        long nodes = 0;
                        if (rd != slow_solve(g, sa, &nodes))
                            fail_msg("at %s: exact_move %d differs from "
                                     "the slow solve", text, rd);
                    }
                    if (rd > 0) {
                        /* the move is legal and wins */
                        assert_true(state_is_legal(g, sa, best));
                        memcpy(t, sb, g->info.state_size);
                        g->make(t, best);
                        int rt = 9;
                        Move m2[60];
                        long nodes = 0;
                        if (g->to_move(t) == PLAYER_TERMINAL) {
                            moves_checked++;
                        } else if (g->gen_moves(t, m2) <= 9) {
                            if (slow_solve(g, t, &nodes) != -1)
                                fail_msg("at %s: the move does not win",
                                         text);
                            moves_checked++;
                        } else if (g->exact(t, !p, &rt)) {
                            if (rt != -1)
                                fail_msg("at %s: the move does not win",
                                         text);
                            moves_checked++;
                        }
                    }
                }
            }
            Move m = mv[rng_below(&r, (uint32_t)n)];
            g->make(sa, m);
            g->make(sb, m);
        }
        /* never answered: the end of the game */
        first_a += fa < 0 ? ply : fa;
        first_b += fb < 0 ? ply : fb;
    }
    print_message("areas: %d agreed, %d areas only, %d board only, %d deep "
                  "(%d winning moves checked); mean first answer ply %.1f "
                  "(areas) %.1f (board)\n", both, only_a, only_b, deep,
                  moves_checked, (double)first_a / games,
                  (double)first_b / games);
    assert_true(both > 100);
    assert_true(only_a > only_b);
    assert_true(first_a < first_b);
    assert_true(moves_checked > 50);
    free(sa);
    free(sb);
    free(t);
    free(work);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_areas),
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_repeated_size),
        cmocka_unit_test(test_inside_closed_zone),
        cmocka_unit_test(test_full_border),
        cmocka_unit_test(test_sample_game),
        cmocka_unit_test(test_codecup_games),
        cmocka_unit_test(test_heuristic),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_setup_strings),
        cmocka_unit_test(test_canonical_hash),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_plies_left),
        cmocka_unit_test(test_random_setups),
        cmocka_unit_test(test_playout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
