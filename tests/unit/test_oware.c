/* test_oware.c — Oware against a second, slow implementation written here
 * (two rows walked seed by seed, the rules spelled out one by one),
 * compared on positions from random games under both grand-slam rules:
 * legal moves, the position after each move, the end and the winner.
 * The endgame databases against a plain solver (value iteration over a
 * table of every board, full sweeps) for small seed counts, and the
 * Bellman equation on every board they hold up to 9 seeds. Known
 * positions, setup and notation errors. The `oware` bot: its evaluation
 * on hand-counted positions and from both sides, its databases beyond
 * the game's, its errors. */
#include "testlib.h"

#include "core/bot.h"
#include "games/oware.h"

typedef struct Slow {
    int row[2][6];      /* row[side][house 0..5], counter-clockwise */
    int store[2];
    int side;
    int slam_forbidden;
} Slow;

static void slow_from_text(Slow *s, const char *t, int forbidden)
{
    memset(s, 0, sizeof *s);
    s->slam_forbidden = forbidden;
    s->side = t[0] == 'N';
    const char *p = t + 2;
    for (int side = 0; side < 2; side++)
        for (int h = 0; h < 6; h++) {
            s->row[side][h] = (int)strtol(p, (char **)&p, 10);
            p++;    /* ',' or ':' */
        }
    s->store[0] = (int)strtol(p, (char **)&p, 10);
    p++;
    s->store[1] = (int)strtol(p, (char **)&p, 10);
}

static int slow_count(const Slow *s, int side)
{
    int n = 0;
    for (int h = 0; h < 6; h++)
        n += s->row[side][h];
    return n;
}

/* Plays house h of the side to move; returns the seeds captured and sets
 * *slam when the move took (or would have taken) all the opponent's. */
static int slow_play(Slow *s, int h, int nocapture_slam, int *slam)
{
    int me = s->side, r = me, pos = h;
    int seeds = s->row[me][h];
    s->row[me][h] = 0;
    while (seeds) {
        pos++;
        if (pos == 6) {
            pos = 0;
            r = !r;
        }
        if (r == me && pos == h)
            continue;       /* the emptied house gets nothing */
        s->row[r][pos]++;
        seeds--;
    }
    *slam = 0;
    if (r == me)
        return 0;
    int take = 0;
    for (int i = pos; i >= 0; i--) {
        if (s->row[r][i] != 2 && s->row[r][i] != 3)
            break;
        take += s->row[r][i];
    }
    if (!take)
        return 0;
    if (take == slow_count(s, r)) {
        *slam = 1;
        if (nocapture_slam)
            return 0;
    }
    for (int i = pos; i >= 0; i--) {
        if (s->row[r][i] != 2 && s->row[r][i] != 3)
            break;
        s->row[r][i] = 0;
    }
    return take;
}

static int slow_moves(const Slow *s, int *out)
{
    int n = 0, nslam = 0, slam[6], cand[6];
    for (int h = 0; h < 6; h++) {
        if (!s->row[s->side][h])
            continue;
        Slow c = *s;
        int sl;
        slow_play(&c, h, 0, &sl);
        if (slow_count(s, !s->side) == 0 && slow_count(&c, !s->side) == 0)
            continue;       /* does not feed the starving opponent */
        slam[n] = sl;
        nslam += sl;
        cand[n++] = h;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!(s->slam_forbidden && slam[i] && nslam < n))
            out[k++] = cand[i];
    return k;
}

static void slow_text(const Slow *s, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%c", s->side ? 'N' : 'S');
    for (int side = 0; side < 2; side++)
        for (int h = 0; h < 6; h++)
            len += (size_t)snprintf(buf + len, n - len, "%c%d",
                                    h ? ',' : ':', s->row[side][h]);
    snprintf(buf + len, n - len, ":%d,%d", s->store[0], s->store[1]);
}

static void compare_games(const char *options, int forbidden, int games)
{
    const GameVtbl *g = game_find("oware");
    Rng r;
    rng_seed(&r, 7);
    Move moves[8];
    int slow[8];
    char ft[256], stext[256];
    int positions = 0, ends = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("oware", options, NULL, NULL);
        int quiet = 0;
        for (;;) {
            assert_true(g->to_text(st, ft, sizeof ft) >= 0);
            Slow s;
            slow_from_text(&s, ft, forbidden);
            int k = slow_moves(&s, slow);
            int over = s.store[0] > 24 || s.store[1] > 24 ||
                       (s.store[0] == 24 && s.store[1] == 24) || k == 0 ||
                       quiet >= 100;
            assert_int_equal(g->to_move(st) == PLAYER_TERMINAL, over);
            if (over) {
                double ret[2];
                g->returns(st, ret);
                int a = s.store[0], b = s.store[1];
                if (k == 0 && !(a > 24 || b > 24)) {
                    /* the game moved every seed to its row's owner */
                    assert_int_equal(slow_count(&s, 0) + slow_count(&s, 1),
                                     0);
                }
                assert_true(ret[0] == (a > b ? 1.0 : a < b ? -1.0 : 0.0));
                ends++;
                break;
            }
            int n = g->gen_moves(st, moves);
            assert_int_equal(n, k);
            for (int i = 0; i < n; i++) {
                assert_int_equal((int)moves[i], slow[i]);
                void *child = state_alloc(g);
                memcpy(child, st, g->info.state_size);
                g->make(child, moves[i]);
                Slow c = s;
                int sl;
                c.store[c.side] += slow_play(&c, slow[i], !forbidden, &sl);
                c.side = !c.side;
                int scratch[6];
                if (c.store[0] < 25 && c.store[1] < 25 &&
                    !(c.store[0] == 24 && c.store[1] == 24) &&
                    slow_moves(&c, scratch) == 0) {
                    for (int side = 0; side < 2; side++)
                        for (int h = 0; h < 6; h++) {
                            c.store[side] += c.row[side][h];
                            c.row[side][h] = 0;
                        }
                }
                g->to_text(child, ft, sizeof ft);
                char *q = strstr(ft, ":q");
                if (q)
                    *q = 0;
                slow_text(&c, stext, sizeof stext);
                if (strcmp(ft, stext))
                    fail_msg("%s: house %d: fast %s, slow %s",
                             options ? options : "defaults", slow[i] + 1, ft,
                             stext);
                free(child);
                positions++;
            }
            Move m = moves[rng_below(&r, (uint32_t)n)];
            int before = g->score(st, 0) + g->score(st, 1);
            g->make(st, m);
            int after = g->score(st, 0) + g->score(st, 1);
            quiet = after > before ? 0 : quiet + 1;
        }
        free(st);
    }
    assert_true(positions > games * 20);
    assert_int_equal(ends, games);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 3000 : 300;
    compare_games("dbseeds=0", 0, games);
    compare_games("dbseeds=0,grandslam=forbidden", 1, games);
}

/* perft of the start position; the counts agree with the slow generator
 * (test_against_slow) and only change if the rules do. */
static uint64_t perft(const GameVtbl *g, const void *st, int d)
{
    if (d == 0)
        return 1;
    Move mv[8];
    if (g->to_move(st) == PLAYER_TERMINAL)
        return 0;
    int n = g->gen_moves(st, mv);
    uint64_t sum = 0;
    unsigned char child[256];
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
    int mv[6], n = slow_moves(s, mv);
    if (s->store[0] > 24 || s->store[1] > 24)
        return 0;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        Slow c = *s;
        int sl;
        c.store[c.side] += slow_play(&c, mv[i], 1, &sl);
        c.side = !c.side;
        sum += slow_perft(&c, d - 1);
    }
    return sum;
}

static void test_perft(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("oware");
    void *st = tl_position("oware", "dbseeds=0", NULL, NULL);
    Slow s;
    slow_from_text(&s, "S:4,4,4,4,4,4:4,4,4,4,4,4:0,0", 0);
    /* six moves, none captures (games.md §6) */
    assert_int_equal(perft(g, st, 1), 6);
    for (int d = 1; d <= 6; d++)
        assert_int_equal(perft(g, st, d), slow_perft(&s, d));
    free(st);
}

/* ---- databases against a plain solver ---- */

typedef struct Map {
    uint64_t *key;
    int *val;
    size_t cap;
} Map;

static uint64_t board_key(const int *b)
{
    uint64_t k = 0;
    for (int i = 0; i < 12; i++)
        k = k * 32 + (uint64_t)b[i];
    return k + 1;
}

static size_t map_slot(const Map *m, uint64_t k)
{
    size_t i = (size_t)(k * 0x9e3779b97f4a7c15ull) % m->cap;
    while (m->key[i] && m->key[i] != k)
        i = (i + 1) % m->cap;
    return i;
}

/* every board with n seeds, mover's row first */
static void boards_rec(int (*out)[12], int *count, int cap, int *b, int i,
                       int left)
{
    if (i == 11) {
        b[11] = left;
        assert_true(*count < cap);
        memcpy(out[(*count)++], b, 12 * sizeof(int));
        return;
    }
    for (int x = 0; x <= left; x++) {
        b[i] = x;
        boards_rec(out, count, cap, b, i + 1, left - x);
    }
}

static int all_boards(int n, int (*out)[12], int cap)
{
    int count = 0, b[12];
    boards_rec(out, &count, cap, b, 0, n);
    return count;
}

/* value of the board (South to move) through the slow rules */
static int slow_value(const Map *m, const Map *prev, const int *b,
                      int forbidden)
{
    Slow s;
    memset(&s, 0, sizeof s);
    s.slam_forbidden = forbidden;
    memcpy(s.row[0], b, 6 * sizeof(int));
    memcpy(s.row[1], b + 6, 6 * sizeof(int));
    int mv[6], n = slow_moves(&s, mv);
    if (n == 0)
        return slow_count(&s, 0) - slow_count(&s, 1);
    int best = -1000;
    for (int i = 0; i < n; i++) {
        Slow c = s;
        int sl, cap = slow_play(&c, mv[i], !forbidden, &sl);
        int f[12];
        memcpy(f, c.row[1], 6 * sizeof(int));
        memcpy(f + 6, c.row[0], 6 * sizeof(int));
        uint64_t k = board_key(f);
        const Map *mm = cap ? prev : m;
        size_t slot = map_slot(mm, k);
        assert_true(mm->key[slot] == k);
        int v = cap - mm->val[slot];
        if (v > best)
            best = v;
    }
    return best;
}

static void test_db_against_solver(void **state)
{
    (void)state;
    int top = tl_slow() ? 7 : 5;
    for (int forbidden = 0; forbidden < 2; forbidden++) {
        assert_int_equal(oware_db_build(forbidden, top), 0);
        Map all = {calloc(1 << 20, 8), calloc(1 << 20, sizeof(int)),
                   1 << 20};
        static int boards[60000][12];
        for (int n = 0; n <= top; n++) {
            int cnt = all_boards(n, boards, 60000);
            int *cur = calloc((size_t)cnt, sizeof(int));
            int *nxt = calloc((size_t)cnt, sizeof(int));
            for (int i = 0; i < cnt; i++) {
                size_t slot = map_slot(&all, board_key(boards[i]));
                all.key[slot] = board_key(boards[i]);
                all.val[slot] = 0;
            }
            /* full sweeps from 0 until nothing changes */
            for (int changed = 1; changed;) {
                changed = 0;
                for (int i = 0; i < cnt; i++)
                    nxt[i] = slow_value(&all, &all, boards[i], forbidden);
                for (int i = 0; i < cnt; i++) {
                    changed |= nxt[i] != cur[i];
                    cur[i] = nxt[i];
                    all.val[map_slot(&all, board_key(boards[i]))] = cur[i];
                }
            }
            for (int i = 0; i < cnt; i++) {
                uint8_t p[12];
                for (int j = 0; j < 12; j++)
                    p[j] = (uint8_t)boards[i][j];
                int net;
                assert_int_equal(oware_db_probe(p, 0, forbidden, top, &net),
                                 0);
                if (net != cur[i])
                    fail_msg("grandslam %d, %d seeds, board %d: db %d, "
                             "solver %d", forbidden, n, i, net, cur[i]);
                /* the same board with North to move */
                uint8_t q[12];
                memcpy(q, p + 6, 6);
                memcpy(q + 6, p, 6);
                assert_int_equal(oware_db_probe(q, 1, forbidden, top, &net),
                                 0);
                assert_int_equal(net, cur[i]);
            }
            free(cur);
            free(nxt);
        }
        free(all.key);
        free(all.val);
    }
}

/* The exact hook agrees with the game's own end on finished lines. */
static void test_exact_hook(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("oware");
    int r;
    /* South's only move would take North's last 2 seeds: a grand slam,
     * which captures nothing; North cannot feed and keeps them: 23-25 */
    void *st = tl_position("oware", NULL,
                           "S:0,0,0,0,0,1:1,0,0,0,0,0:23,23", NULL);
    assert_int_equal(g->exact(st, 0, &r), 1);
    assert_int_equal(r, -1);
    assert_int_equal(g->exact(st, 1, &r), 1);
    assert_int_equal(r, 1);
    free(st);
    st = tl_position("oware", "grandslam=forbidden",
                     "S:0,0,0,0,0,1:1,0,0,0,0,0:23,23", NULL);
    /* the only move: allowed and it captures both */
    assert_int_equal(g->exact(st, 0, &r), 1);
    assert_int_equal(r, 1);
    free(st);
    st = tl_position("oware", "end=own",
                     "S:0,0,0,0,0,1:1,0,0,0,0,0:23,23", NULL);
    assert_int_equal(g->exact(st, 0, &r), 0);
    free(st);
    st = tl_position("oware", "dbseeds=0",
                     "S:0,0,0,0,0,1:1,0,0,0,0,0:23,23", NULL);
    assert_int_equal(g->exact(st, 0, &r), 0);
    free(st);
}

static void test_rules(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("oware");
    char buf[256];
    /* 12 seeds skip the starting house */
    void *st = tl_position("oware", "dbseeds=0",
                           "S:12,0,0,0,0,0:4,4,4,4,4,4:6,6", "1");
    g->to_text(st, buf, sizeof buf);
    assert_string_equal(buf, "N:0,2,1,1,1,1:5,5,5,5,5,5:6,6:q1");
    free(st);
    /* a capture of 3 then 2 going back, stopping at a 5 */
    st = tl_position("oware", "dbseeds=0",
                     "S:0,0,0,0,2,3:4,1,2,0,0,0:19,17", "6");
    g->to_text(st, buf, sizeof buf);
    assert_string_equal(buf, "N:0,0,0,0,2,0:5,0,0,0,0,0:24,17");
    free(st);
    /* feeding: North has nothing, house 1 (one seed) does not reach */
    st = tl_position("oware", "dbseeds=0",
                     "S:1,0,0,0,0,1:0,0,0,0,0,0:20,26", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
    st = tl_position("oware", "dbseeds=0",
                     "S:1,0,0,0,0,1:0,0,0,0,0,0:23,23", NULL);
    Move mv[8];
    assert_int_equal(g->gen_moves(st, mv), 1);
    assert_int_equal((int)mv[0], 5);
    PlyError err = {{0}};
    Move m;
    assert_int_equal(g->text_to_move(st, "1", &m, &err), -1);
    assert_non_null(strstr(err.msg, "feed"));
    free(st);
    /* North to move has no seeds: South keeps his 2 and wins 25-23 */
    st = tl_position("oware", "dbseeds=0",
                     "N:2,0,0,0,0,0:0,0,0,0,0,0:23,23", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == 1.0);
    free(st);
    /* no move of South can feed: South takes his own seed, 24-24 */
    st = tl_position("oware", "dbseeds=0",
                     "S:1,0,0,0,0,0:0,0,0,0,0,0:23,24", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 0.0);
    assert_int_equal(g->score(st, 0), 24);
    free(st);
    /* grand slam forbidden while another move exists */
    st = tl_position("oware", "dbseeds=0,grandslam=forbidden",
                     "S:0,0,0,1,0,1:1,0,0,0,0,0:22,23", NULL);
    assert_int_equal(g->gen_moves(st, mv), 1);
    assert_int_equal((int)mv[0], 3);
    assert_int_equal(g->text_to_move(st, "6", &m, &err), -1);
    assert_non_null(strstr(err.msg, "grand slam"));
    free(st);
    /* the length rule: split or own */
    st = tl_position("oware", "dbseeds=0,length=10",
                     "S:0,0,0,0,0,3:0,0,0,0,0,1:22,22:q9", "6");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 0.0);
    free(st);
    st = tl_position("oware", "dbseeds=0,length=10,end=own",
                     "S:0,0,0,0,0,3:0,0,0,0,0,1:22,22:q9", "6");
    g->returns(st, ret);
    assert_true(ret[0] == -1.0);    /* South 22, North 22 + 4 */
    free(st);
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("oware");
    void *st = tl_position("oware", "dbseeds=0", NULL, NULL);
    PlyError err = {{0}};
    Move m;
    const char *bad_moves[] = {"0", "7", "x", "", "1a", "-1", "12"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        err.msg[0] = 0;
        assert_int_equal(g->text_to_move(st, bad_moves[i], &m, &err), -1);
        assert_true(err.msg[0] != 0);
    }
    const char *bad[] = {"", "X:4,4,4,4,4,4:4,4,4,4,4,4:0,0",
                         "S:4,4,4,4,4:4,4,4,4,4,4:0,0",
                         "S:4,4,4,4,4,4:4,4,4,4,4,4:0,1",
                         "S:4,4,4,4,4,4:4,4,4,4,4,4:0,0:q",
                         "S:4,4,4,4,4,4:4,4,4,4,4,4:0,0:q999",
                         "S:4,4,4,4,4,4:4,4,4,4,4,4:0,0x",
                         "S:99,4,4,4,4,4:4,4,4,4,4,4:0,0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) != -1)
            fail_msg("setup '%s' accepted", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    free(st);
}

/* The oware bot's evaluation for South written out from its description,
 * the threat by playing each legal move of the side not to move. */
static int slow_rich_terms(const void *st, int threat)
{
    const Oware *o = st;
    int v = 100 * (o->store[0] - o->store[1]);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 6; i++) {
            int x = o->pit[6 * s + i], t = 8 * x;
            t -= x == 1 || x == 2 ? 10 : 0;
            t += x ? 60 : 0;
            v += s ? -t : t;
        }
    int idle = !o->side, mv[6], n = oware_moves(o->pit, idle, o->grandslam,
                                                mv), best = 0;
    for (int i = 0; i < n; i++) {
        uint8_t t[12];
        int c;
        memcpy(t, o->pit, 12);
        oware_sow(t, idle, mv[i], o->grandslam, &c);
        best = c > best ? c : best;
    }
    return threat ? v + (idle ? -20 : 20) * best : v;
}

static int slow_rich_eval(const void *st)
{
    return slow_rich_terms(st, 1);
}

static int slow_rich_eval_nothreat(const void *st)
{
    return slow_rich_terms(st, 0);
}

/* The oware bot's evaluation, counted by hand (100 a seed; per row 8 a
 * seed, -10 a house of 1 or 2, 60 a house that can move; 20 a seed the
 * side not to move could capture), and the same from both sides. */
static void test_rich_eval(void **state)
{
    (void)state;
    void *st = tl_position("oware", "dbseeds=0", NULL, NULL);
    assert_int_equal(oware_rich_eval(st, 0), 0);
    free(st);
    /* South 56 - 10 + 120, North 24 + 60; North's 3 seeds reach South's
     * houses 1-3 (3, 1, 1): no capture */
    st = tl_position("oware", "dbseeds=0", "S:2,0,0,0,0,5:0,0,0,0,0,3:19,19",
                     NULL);
    assert_int_equal(oware_rich_eval(st, 0), 82);
    assert_int_equal(oware_rich_eval(st, 1), -82);
    /* not the game's evaluation (8 a seed, -25 a target: 31 - 24) */
    assert_int_equal(game_find("oware")->eval(st, 0), 7);
    free(st);
    /* North's single seed would take South's house 1 (2 + 1 = 3): South
     * 166, North 8 - 10 + 60, the threat 3 x 20 */
    st = tl_position("oware", "dbseeds=0", "S:2,0,0,0,0,5:0,0,0,0,0,1:20,20",
                     NULL);
    assert_int_equal(oware_rich_eval(st, 0), 166 - 58 - 60);
    free(st);
    /* North to move: the threat is South's (none: 5 seeds from house 6
     * reach North's 1-5, making 1) and North's capture is left to the
     * search */
    st = tl_position("oware", "dbseeds=0", "N:2,0,0,0,0,5:0,0,0,0,0,1:20,20",
                     NULL);
    assert_int_equal(oware_rich_eval(st, 0), 166 - 58);
    free(st);
    /* random positions under both grand-slam rules: the value the terms
     * give with the threat found by playing every move (the eval finds
     * it without), and one player's value is the other's negated */
    const GameVtbl *g = game_find("oware");
    Rng r;
    rng_seed(&r, 7);
    const char *opts[2] = {"dbseeds=0", "dbseeds=0,grandslam=forbidden"};
    int threats = 0;
    for (int game = 0; game < 400; game++) {
        st = tl_position("oware", opts[game & 1], NULL, NULL);
        Move mv[6];
        int n;
        while (g->to_move(st) >= 0 && (n = g->gen_moves(st, mv)) > 0) {
            assert_int_equal(oware_rich_eval(st, 0), slow_rich_eval(st));
            assert_int_equal(oware_rich_eval(st, 0),
                             -oware_rich_eval(st, 1));
            threats += slow_rich_eval(st) != slow_rich_eval_nothreat(st);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        free(st);
    }
    assert_true(threats > 1000);
}

/* The bot's databases beyond the game's: at 11 seeds with no capture
 * possible, a one-ply search is proven with db=11 (every child is in the
 * databases, and its result is the one they give the root) and not with
 * the game's 10 alone (the negative control). */
static void test_bot_databases(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("oware");
    const char *pos = "S:1,1,1,1,1,1:0,1,1,1,1,1:20,17";
    void *st = tl_position("oware", NULL, pos, NULL);
    const Oware *o = st;
    int net;
    assert_int_equal(oware_db_probe(o->pit, 0, OWARE_GS_NOCAPTURE, 11, &net),
                     0);
    int d = 20 - 17 + net, want = d > 0 ? 1 : d < 0 ? -1 : 0;
    assert_int_not_equal(want, 0);
    int proven[2];
    const char *spec[2] = {"oware:depth=1,db=11", "oware:depth=1,db=0"};
    for (int i = 0; i < 2; i++) {
        PlyError err = {{0}};
        Bot *b = bot_new(g, spec[i], 1, &err);
        if (!b)
            fail_msg("%s: %s", spec[i], err.msg);
        SearchInfo info;
        memset(&info, 0, sizeof info);
        Move m = bot_choose(b, st, NULL, &info);
        assert_true(m < 6 && o->pit[m] > 0);
        proven[i] = info.proven;
        bot_free(b);
    }
    assert_int_equal(proven[0], want);
    assert_int_equal(proven[1], 0);
    free(st);
}

static void test_bot_errors(void **state)
{
    (void)state;
    PlyError err = {{0}};
    assert_null(bot_new(game_find("kalah"), "oware", 1, &err));
    assert_non_null(strstr(err.msg, "only oware"));
    err.msg[0] = 0;
    assert_null(bot_new(game_find("oware"), "oware:db=0,inner=oware", 1,
                        &err));
    assert_non_null(strstr(err.msg, "cannot be oware"));
    err.msg[0] = 0;
    assert_null(bot_new(game_find("oware"), "oware:db=0,inner=nosuchbot", 1,
                        &err));
    assert_true(err.msg[0] != 0);
    /* a database file that is not one: the bot is not made */
    char dir[] = "/tmp/ply-test-owdb-XXXXXX", path[256], cmd[300];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/oware-nocapture-12.mdb", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("not a database\n", f);
    fclose(f);
    setenv("PLY_DB_DIR", dir, 1);
    err.msg[0] = 0;
    Bot *b = bot_new(game_find("oware"), "oware:db=12", 1, &err);
    unsetenv("PLY_DB_DIR");
    assert_null(b);
    assert_non_null(strstr(err.msg, "not a mancala database file"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_slow),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_db_against_solver),
        cmocka_unit_test(test_exact_hook),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_rich_eval),
        cmocka_unit_test(test_bot_databases),
        cmocka_unit_test(test_bot_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
