/* test_puzzles.c — the one-player hidden-information puzzles, minesweeper
 * and foxhunt, against slow models written here: minesweeper's open cells
 * and numbers recomputed from the mines by a fixed point (no flood fill),
 * foxhunt's counts by walking the eight rays. Plus the first-click rules,
 * the test facts of hidden.md §6, perft, setup and view errors, and the
 * solver bots on positions with a forced answer and over seeded games. */
#include <math.h>
#include <stdlib.h>

#include "testlib.h"

#include "core/bot.h"
#include "games/minesweeper.h"
#include "tools/perft.h"

static void random_game(const GameVtbl *g, void *st, const char *options,
                        uint64_t seed, int plies, char *moves, size_t n)
{
    PlyError err = {{0}};
    if (state_setup(g, st, options, NULL, seed, &err))
        fail_msg("%s", err.msg);
    Rng r;
    rng_seed(&r, seed * 7 + 1);
    Move mv[1024];
    size_t len = 0;
    moves[0] = 0;
    for (int i = 0; i < plies && g->to_move(st) >= 0; i++) {
        int k = g->gen_moves(st, mv);
        Move m = mv[rng_below(&r, (uint32_t)k)];
        char t[16];
        assert_true(g->move_to_text(st, m, t, sizeof t) > 0);
        len += (size_t)snprintf(moves + len, n - len, "%s%s", len ? " " : "",
                                t);
        g->make(st, m);
    }
}

/* ---------------------------------------------------------- minesweeper */

/* The true setup string's grid: rows of '.', '*', 'X', digits. */
static int ms_grid(const GameVtbl *g, const void *st, char grid[24][31],
                   int *w, int *h)
{
    char text[2048];
    assert_true(g->to_text(st, text, sizeof text) > 0);
    int y = 0, x = 0;
    for (const char *p = text; *p && *p != ' '; p++) {
        if (*p == '/') {
            grid[y][x] = 0;
            *w = x;
            y++, x = 0;
        } else {
            grid[y][x++] = *p;
        }
    }
    grid[y][x] = 0;
    *w = x;
    *h = y + 1;
    return 0;
}

static int slow_mines_around(char grid[24][31], int w, int h, int x, int y)
{
    int s = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int X = x + dx, Y = y + dy;
            if ((dx || dy) && X >= 0 && Y >= 0 && X < w && Y < h)
                s += grid[Y][X] == '*' || grid[Y][X] == 'X';
        }
    return s;
}

/* Over seeded random games: each clicked cell open, every open cell's
 * number right, the open set closed under zeros and nothing more, one
 * exact mine count, the end right. */
static void test_mines_slow(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("minesweeper");
    assert_non_null(g);
    const char *opts[] = {"", "level=intermediate", "level=expert,first=any",
                          "width=8,height=5,mines=12,first=opening"};
    void *st = state_alloc(g);
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++)
        for (uint64_t seed = 1; seed <= 60; seed++) {
            char moves[8192];
            random_game(g, st, opts[o], seed, 1 + (int)(seed % 9), moves,
                        sizeof moves);
            char grid[24][31];
            int w, h;
            ms_grid(g, st, grid, &w, &h);
            int mines = 0, open = 0, boom = 0;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    char c = grid[y][x];
                    mines += c == '*' || c == 'X';
                    boom += c == 'X';
                    if (c >= '0' && c <= '8') {
                        open++;
                        assert_int_equal(c - '0',
                                         slow_mines_around(grid, w, h, x, y));
                    }
                }
            double ret[1];
            if (g->to_move(st) < 0)
                g->returns(st, ret);
            /* every clicked cell is open or the explosion; the open set
             * is the zero-closure of the clicks */
            char want[24][31];
            memset(want, 0, sizeof want);
            const char *p = moves;
            int exploded = 0;
            while (*p) {
                int x, y, k;
                assert_int_equal(sscanf(p, "%d,%d%n", &x, &y, &k), 2);
                p += k;
                while (*p == ' ')
                    p++;
                if (grid[y - 1][x - 1] == 'X')
                    exploded = 1;
                else
                    want[y - 1][x - 1] = 1;
            }
            for (int changed = 1; changed;) {
                changed = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        if (!want[y][x] ||
                            slow_mines_around(grid, w, h, x, y))
                            continue;
                        for (int dy = -1; dy <= 1; dy++)
                            for (int dx = -1; dx <= 1; dx++) {
                                int X = x + dx, Y = y + dy;
                                if (X >= 0 && Y >= 0 && X < w && Y < h &&
                                    !want[Y][X]) {
                                    want[Y][X] = 1;
                                    changed = 1;
                                }
                            }
                    }
            }
            int want_open = 0;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    want_open += want[y][x];
                    assert_int_equal(want[y][x],
                                     grid[y][x] >= '0' && grid[y][x] <= '8');
                }
            assert_int_equal(open, want_open);
            assert_int_equal(boom, exploded);
            int expect = !strcmp(opts[o], "") ? 10
                       : strstr(opts[o], "intermediate") ? 40
                       : strstr(opts[o], "expert") ? 99 : 12;
            assert_int_equal(mines, expect);
            if (exploded)
                assert_true(g->to_move(st) < 0 && ret[0] == -1);
            else if (open == w * h - mines)
                assert_true(g->to_move(st) < 0 && ret[0] == 1);
            else
                assert_int_equal(g->to_move(st), 0);
        }
    free(st);
}

/* The first-click rules: safe never loses on the first click, opening
 * always opens a 0; any may lose. A fixed seed gives the same mines. */
static void test_mines_first(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("minesweeper");
    void *st = state_alloc(g), *st2 = state_alloc(g);
    PlyError err = {{0}};
    int lost_any = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        static const char *const first[] = {"first=safe", "first=opening",
                                            "first=any"};
        for (int f = 0; f < 3; f++) {
            char o[64];
            snprintf(o, sizeof o, "%s,width=5,height=5,mines=16", first[f]);
            assert_int_equal(state_setup(g, st, o, NULL, seed, &err), 0);
            char mv[8];
            snprintf(mv, sizeof mv, "%d,%d", 1 + (int)(seed % 5),
                     1 + (int)(seed / 5 % 5));
            assert_int_equal(state_play_moves(g, st, mv, &err), 0);
            char t[256];
            g->to_text(st, t, sizeof t);
            if (f < 2)
                assert_null(strchr(t, 'X'));
            if (f == 1) {
                int x = (int)(seed % 5), y = (int)(seed / 5 % 5);
                assert_int_equal(t[y * 6 + x], '0');
            }
            lost_any |= f == 2 && strchr(t, 'X') != NULL;
            assert_int_equal(state_setup(g, st2, o, NULL, seed, &err), 0);
            assert_int_equal(state_play_moves(g, st2, mv, &err), 0);
            assert_memory_equal(st, st2, g->info.state_size);
        }
    }
    assert_true(lost_any);   /* 16 mines of 25: any does lose */
    free(st), free(st2);
}

static void test_mines_text(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("minesweeper");
    void *st = tl_position("minesweeper", NULL, NULL, NULL);
    PlyError err = {{0}};
    /* perft from the start: any first cell, then any other closed cell
     * (the first click opens one cell or an area) */
    uint64_t p1 = perft(g, st, 1, 0);
    assert_int_equal(p1, 81);
    /* a view is not a true position */
    void *v = state_alloc(g);
    g->observe(st, 0, v);
    char t[512];
    assert_true(g->to_text(v, t, sizeof t) > 0);
    assert_non_null(strstr(t, "view"));
    assert_int_equal(g->from_text(st, t, &err), -1);
    assert_non_null(strstr(err.msg, "view"));
    static const char *const bad[] = {
        "01*./0111/0000/0000 mines=2",           /* count mismatch */
        "02*./0111/0000/0000 mines=1",           /* wrong number */
        "01*./0111/0000/000. mines=1",           /* a closed cell by a 0 */
        "01*./011/0000/0000 mines=1",            /* ragged */
        "..../..../..../.... mines=3",           /* no seed before start */
        "01*./0111/0000/0000",                   /* no count */
        "01*./0111/0000/0000 mines=1 seed=5",    /* seed after the start */
        "01*Z/0111/0000/0000 mines=1",           /* bad cell */
        "01*./0111/0000/0000 mines=1 colour=red",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) != -1)
            fail_msg("setup '%s' accepted", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    const char *good = "01*./0111/0000/0000 mines=1 first=safe";
    assert_int_equal(g->from_text(st, good, &err), 0);
    assert_true(g->to_text(st, t, sizeof t) > 0);
    assert_string_equal(t, good);
    Move m;
    assert_int_equal(g->text_to_move(st, "1,1", &m, &err), -1);  /* open */
    assert_int_equal(g->text_to_move(st, "5,1", &m, &err), -1);  /* off */
    assert_int_equal(g->text_to_move(st, "4,1", &m, &err), 0);
    free(v), free(st);
}

/* The solver from the view: 1,2 forces the mine at 3,1, so 4,1 is safe;
 * and it wins most beginner games. */
static void test_mines_solver(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("minesweeper");
    void *st = tl_position("minesweeper", "width=4,height=4,mines=1",
                           "01*./0111/0000/0000 mines=1", NULL);
    void *v = state_alloc(g);
    g->observe(st, 0, v);
    PlyError err = {{0}};
    Bot *b = bot_new(g, "minesweeper", 1, &err);
    assert_non_null(b);
    SearchInfo si;
    Move m = bot_choose(b, v, NULL, &si);
    char t[16];
    g->move_to_text(v, m, t, sizeof t);
    assert_string_equal(t, "4,1");
    /* a position only the mine count decides: 2 mines left, the two
     * closed cells of the 1 on the right and a far corner */
    free(st);
    int won = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        st = state_alloc(g);
        assert_int_equal(state_setup(g, st, NULL, NULL, seed, &err), 0);
        while (g->to_move(st) == 0) {
            g->observe(st, 0, v);
            m = bot_choose(b, v, NULL, &si);
            g->make(st, m);
        }
        double r[1];
        g->returns(st, r);
        won += r[0] > 0;
        free(st);
    }
    /* about 92% over 10,000 games; 60 games below 75% would be odd */
    assert_true(won >= 45);
    bot_free(b);
    free(v);
}

/* Brute force: every set of exactly `mines` closed cells that agrees with
 * the open numbers; counts of each cell holding a mine. */
static void slow_prob_rec(char grid[24][31], int w, int h, const int *cl,
                          int ncl, int i, int left, double *hits,
                          double *total)
{
    if (left > ncl - i)
        return;
    if (i == ncl) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (grid[y][x] >= '0' && grid[y][x] <= '8' &&
                    slow_mines_around(grid, w, h, x, y) != grid[y][x] - '0')
                    return;
        *total += 1;
        for (int j = 0; j < ncl; j++)
            if (grid[cl[j] / w][cl[j] % w] == '*')
                hits[cl[j]] += 1;
        return;
    }
    char *c = &grid[cl[i] / w][cl[i] % w];
    slow_prob_rec(grid, w, h, cl, ncl, i + 1, left, hits, total);
    if (left) {
        *c = '*';
        slow_prob_rec(grid, w, h, cl, ncl, i + 1, left - 1, hits, total);
        *c = '?';
    }
}

/* The solver's exact probabilities against the brute force, on small
 * boards after a few safe clicks (several components, interior cells,
 * the global count binding). */
static void test_mines_probabilities(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("minesweeper");
    const char *opts[] = {"width=5,height=5,mines=5",
                          "width=6,height=4,mines=7",
                          "width=4,height=6,mines=3",
                          "width=6,height=6,mines=12"};
    void *st = state_alloc(g), *v = state_alloc(g);
    int checked = 0;
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++)
        for (uint64_t seed = 1; seed <= 150; seed++) {
            PlyError err = {{0}};
            assert_int_equal(state_setup(g, st, opts[o], NULL, seed, &err), 0);
            Rng r;
            rng_seed(&r, seed);
            int clicks = 1 + (int)(seed % 4);
            for (int k = 0; k < clicks && g->to_move(st) == 0; k++) {
                char grid[24][31];
                int w, h, safe[64], ns = 0;
                Move mv[64];
                int n = g->gen_moves(st, mv);
                ms_grid(g, st, grid, &w, &h);
                for (int i = 0; i < n; i++) {
                    int c = (int)mv[i];
                    /* before the first click every cell is '.' */
                    if (grid[c / w][c % w] == '.')
                        safe[ns++] = c;
                }
                if (!ns)
                    break;
                g->make(st, (Move)safe[rng_below(&r, (uint32_t)ns)]);
            }
            if (g->to_move(st) != 0)
                continue;
            g->observe(st, 0, v);
            char grid[24][31];
            int w, h, cl[64], ncl = 0, mines = 0;
            ms_grid(g, st, grid, &w, &h);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    mines += grid[y][x] == '*';
                    if (grid[y][x] == '*' || grid[y][x] == '.') {
                        grid[y][x] = '?';
                        cl[ncl++] = y * w + x;
                    }
                }
            double ways = 1;   /* C(ncl, mines): the brute force's leaves */
            for (int i = 0; i < mines; i++)
                ways = ways * (ncl - i) / (i + 1);
            if (ways > 200000)
                continue;
            double hits[64] = {0}, total = 0, p[MINESWEEPER_MAX_CELLS];
            slow_prob_rec(grid, w, h, cl, ncl, 0, mines, hits, &total);
            assert_true(total >= 1);
            assert_int_equal(minesweeper_probabilities(v, p), 0);
            for (int i = 0; i < ncl; i++) {
                double want = hits[cl[i]] / total;
                if (fabs(p[cl[i]] - want) > 1e-9)
                    fail_msg("%s seed %llu: cell %d,%d has %.12f, brute "
                             "force %.12f", opts[o], (unsigned long long)seed,
                             cl[i] % w + 1, cl[i] / w + 1, p[cl[i]], want);
            }
            checked++;
        }
    assert_true(checked > 250);
    free(st);
    free(v);
}

/* The chance to win from a set of layouts (masks over the closed cells
 * cl) with `opened` of them opened since, by plain expectimax: the best
 * cell, each number it may show weighted by its layouts. */
static double slow_win(const uint32_t *lay, int n, uint32_t opened,
                       const int *cl, int ncl, int w, int h)
{
    uint32_t all = ~0u;
    for (int i = 0; i < n; i++)
        all &= lay[i];
    uint32_t full = (1u << ncl) - 1;
    if (!(full & ~opened & ~all))
        return 1;
    double best = 0;
    for (int c = 0; c < ncl; c++) {
        if (opened >> c & 1 || all >> c & 1)
            continue;
        uint32_t sub[9][256];
        int cnt[9] = {0};
        for (int i = 0; i < n; i++) {
            if (lay[i] >> c & 1)
                continue;
            int v = 0, x = cl[c] % w, y = cl[c] / w;
            for (int j = 0; j < ncl; j++) {
                int X = cl[j] % w, Y = cl[j] / w;
                v += j != c && lay[i] >> j & 1 && abs(X - x) <= 1 &&
                     abs(Y - y) <= 1;
            }
            sub[v][cnt[v]++] = lay[i];
        }
        double s = 0;
        for (int v = 0; v < 9; v++)
            if (cnt[v])
                s += cnt[v] * slow_win(sub[v], cnt[v], opened | 1u << c, cl,
                                       ncl, w, h);
        if (s / n > best)
            best = s / n;
    }
    (void)h;
    return best;
}

/* With few layouts left the bot's cell (endgame search) has the best
 * chance to win, by the expectimax above over every layout. */
static void test_mines_endgame(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("minesweeper");
    PlyError err = {{0}};
    Bot *b = bot_new(g, "minesweeper:look=0", 1, &err);
    assert_non_null(b);
    void *st = state_alloc(g), *v = state_alloc(g);
    int checked = 0, guesses = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        assert_int_equal(state_setup(g, st, "width=4,height=4,mines=4", NULL,
                                     seed, &err), 0);
        Rng r;
        rng_seed(&r, seed);
        char grid[24][31];
        int w, h, cl[16], ncl;
        for (;;) {
            /* safe clicks until at most 8 cells are closed */
            ms_grid(g, st, grid, &w, &h);
            int safe[16], ns = 0;
            ncl = 0;
            for (int c = 0; c < w * h; c++) {
                char ch = grid[c / w][c % w];
                if (ch == '.' || ch == '*')
                    cl[ncl++] = c;
                if (ch == '.')
                    safe[ns++] = c;
            }
            if (g->to_move(st) != 0 || ncl <= 8 || !ns)
                break;
            g->make(st, (Move)safe[rng_below(&r, (uint32_t)ns)]);
        }
        while (g->to_move(st) == 0) {
            /* the closed cells now */
            ms_grid(g, st, grid, &w, &h);
            ncl = 0;
            for (int c = 0; c < w * h; c++)
                if (grid[c / w][c % w] == '.' || grid[c / w][c % w] == '*')
                    cl[ncl++] = c;
            /* every layout of the closed cells that fits the numbers */
            uint32_t lay[256];
            int n = 0;
            for (uint32_t s = 0; s < 1u << ncl; s++) {
                if (__builtin_popcount(s) != 4)
                    continue;
                for (int j = 0; j < ncl; j++)
                    grid[cl[j] / w][cl[j] % w] = s >> j & 1 ? '*' : '?';
                int ok = 1;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        if (grid[y][x] >= '0' && grid[y][x] <= '8' &&
                            slow_mines_around(grid, w, h, x, y) !=
                                grid[y][x] - '0')
                            ok = 0;
                if (ok)
                    lay[n++] = s;
            }
            assert_true(n >= 1);
            g->observe(st, 0, v);
            SearchInfo si;
            Move m = bot_choose(b, v, NULL, &si);
            int mc = -1;
            double best = 0, got = -1;
            for (int c = 0; c < ncl; c++) {
                uint32_t sub[9][256];
                int cnt[9] = {0}, safe = 0;
                for (int i = 0; i < n; i++) {
                    if (lay[i] >> c & 1)
                        continue;
                    int val = 0, x = cl[c] % w, y = cl[c] / w;
                    for (int j = 0; j < ncl; j++)
                        val += j != c && lay[i] >> j & 1 &&
                               abs(cl[j] % w - x) <= 1 && abs(cl[j] / w - y) <= 1;
                    sub[val][cnt[val]++] = lay[i];
                    safe++;
                }
                double s = 0;
                for (int val = 0; val < 9; val++)
                    if (cnt[val])
                        s += cnt[val] * slow_win(sub[val], cnt[val], 1u << c, cl,
                                                 ncl, w, h);
                s /= n;
                if (s > best)
                    best = s;
                if (cl[c] == (int)m)
                    got = s, mc = c;
                guesses += (int)m == cl[c] && safe < n;
            }
            assert_true(mc >= 0);
            if (got < best - 1e-9)
                fail_msg("seed %llu: the bot's cell wins %.6f, the best %.6f",
                         (unsigned long long)seed, got, best);
            checked++;
            g->make(st, m);
        }
    }
    assert_true(checked > 100);
    assert_true(guesses > 20);
    bot_free(b);
    free(st);
    free(v);
}

/* -------------------------------------------------------------- foxhunt */

static int slow_rays(const char *rows[], int n, int x, int y, int *seen)
{
    static const int d[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int foxes = 0;
    *seen = 0;
    for (int i = 0; i < 8; i++)
        for (int X = x + d[i][0], Y = y + d[i][1];
             X >= 0 && Y >= 0 && X < n && Y < n;
             X += d[i][0], Y += d[i][1]) {
            (*seen)++;
            char c = rows ? rows[n - 1 - Y][X] : '.';
            foxes += c == 'f' || c == 'F';
        }
    return foxes;
}

static void test_fox_slow(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("foxhunt");
    assert_non_null(g);
    int seen;
    /* hidden.md §6: a corner sees 27 other cells, e5 sees 35 */
    slow_rays(NULL, 10, 0, 0, &seen);
    assert_int_equal(seen, 27);
    slow_rays(NULL, 10, 4, 4, &seen);
    assert_int_equal(seen, 35);
    void *st = state_alloc(g);
    const char *opts[] = {"", "size=6,foxes=3", "size=16,foxes=9"};
    for (size_t o = 0; o < 3; o++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            char moves[8192];
            random_game(g, st, opts[o], seed, (int)(seed * 3 % 120), moves,
                        sizeof moves);
            char text[512], copy[512];
            assert_true(g->to_text(st, text, sizeof text) > 0);
            strcpy(copy, text);
            const char *rows[16];
            int n = 0;
            char *sp = strchr(copy, ' ');
            *sp = 0;
            for (char *tok = strtok(copy, "/"); tok; tok = strtok(NULL, "/"))
                rows[n++] = tok;
            int foxes = 0, found = 0, probes = 0;
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    char c = rows[n - 1 - y][x];
                    foxes += c == 'f' || c == 'F';
                    found += c == 'F';
                    if (c >= '0' && c <= '9') {
                        probes++;
                        assert_int_equal(c - '0',
                                         slow_rays(rows, n, x, y, &seen));
                    }
                }
            int want = o == 0 ? 8 : o == 1 ? 3 : 9;
            assert_int_equal(foxes, want);
            assert_int_equal(probes + found, g->score(st, 0));
            assert_int_equal(g->to_move(st) < 0, found == want);
        }
    /* perft: no game ends within two probes of eight foxes */
    void *s0 = tl_position("foxhunt", NULL, NULL, NULL);
    assert_int_equal(perft(g, s0, 2, 0), 100 * 99);
    free(s0);
    free(st);
}

static void test_fox_text(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("foxhunt");
    void *st = tl_position("foxhunt", NULL, NULL, NULL);
    void *v = state_alloc(g);
    PlyError err = {{0}};
    g->observe(st, 0, v);
    char t[512];
    assert_true(g->to_text(v, t, sizeof t) > 0);
    assert_non_null(strstr(t, "view"));
    assert_true(strchr(t, 'f') > strchr(t, ' '));   /* only foxes=N */
    assert_int_equal(g->from_text(st, t, &err), -1);
    static const char *const bad[] = {
        "f.../..../..../.... foxes=2",   /* one fox on the board */
        "f.../.../..../.... foxes=1",
        "f.../..../..../.... foxes=12",
        "fz../..../..../.... foxes=1",
        "f.../..../..../....",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) != -1)
            fail_msg("setup '%s' accepted", bad[i]);
    }
    /* b4 and a2 see the fox on a4: a good one, round trip */
    const char *good = "f1../..../1.../.... foxes=1";
    assert_int_equal(g->from_text(st, good, &err), 0);
    assert_true(g->to_text(st, t, sizeof t) > 0);
    assert_string_equal(t, good);
    err.msg[0] = 0;
    assert_int_equal(g->from_text(st, "f0../..../..../.... foxes=1", &err),
                     -1);
    assert_true(err.msg[0] != 0);
    Move m;
    assert_int_equal(g->text_to_move(st, "b4", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "e1", &m, &err), -1);
    assert_int_equal(g->text_to_move(st, "a4", &m, &err), 0);
    free(v), free(st);
}

/* The solver: a found fox's line cells and a 0's cells are ruled out; it
 * finds the last fox when one cell is left for it; and it needs far fewer
 * probes than random. */
static void test_fox_solver(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("foxhunt");
    PlyError err = {{0}};
    Bot *b = bot_new(g, "foxhunt", 1, &err);
    assert_non_null(b);
    /* 4x4, one fox at c1; the 0s on a4, d4 and b3 leave only c1 */
    void *st = tl_position("foxhunt", "size=4,foxes=1",
                           "0..0/.0../..../..f. foxes=1", NULL);
    void *v = state_alloc(g);
    g->observe(st, 0, v);
    SearchInfo si;
    Move m = bot_choose(b, v, NULL, &si);
    g->make(st, m);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
    int shots = 0, games = 30;
    for (uint64_t seed = 1; seed <= (uint64_t)games; seed++) {
        st = state_alloc(g);
        assert_int_equal(state_setup(g, st, NULL, NULL, seed, &err), 0);
        while (g->to_move(st) == 0) {
            g->observe(st, 0, v);
            g->make(st, bot_choose(b, v, NULL, &si));
        }
        shots += g->score(st, 0);
        free(st);
    }
    /* about 21 on average; random needs about 89 */
    assert_true(shots < 30 * games);
    bot_free(b);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mines_slow),
        cmocka_unit_test(test_mines_first),
        cmocka_unit_test(test_mines_text),
        cmocka_unit_test(test_mines_solver),
        cmocka_unit_test(test_mines_probabilities),
        cmocka_unit_test(test_mines_endgame),
        cmocka_unit_test(test_fox_slow),
        cmocka_unit_test(test_fox_text),
        cmocka_unit_test(test_fox_solver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
