/* test_kalah.c — Kalah against a second, slow and obviously correct
 * implementation written here: the board is a ring of named pits walked
 * one seed at a time, the rules spelled out step by step. Both are
 * compared on thousands of positions from random games (several board
 * sizes and both capture rules): legal moves, the position after each
 * move (through its setup string), who moves next, the end and the
 * winner. Plus notation and setup errors. */
#include <pthread.h>
#include <unistd.h>

#include "testlib.h"
#include "core/rng.h"
#include "games/kalah.h"

typedef struct Slow {
    int houses;
    int pits[2][17];    /* pits[side][0..houses-1] houses, [houses] store */
    int side;
    int over;
    int capture_empty;
} Slow;

/* The setup string fully describes a position: read it the slow way. */
static void slow_from_text(Slow *s, const char *text, int capture_empty)
{
    memset(s, 0, sizeof *s);
    s->capture_empty = capture_empty;
    s->side = text[0] == 'N';
    const char *p = text + 1;
    for (int side = 0; side < 2; side++) {
        assert_true(*p == ':');
        p++;
        int n = 0;
        for (;;) {
            s->pits[side][n++] = (int)strtol(p, (char **)&p, 10);
            if (*p != ',')
                break;
            p++;
        }
        s->houses = n - 1;     /* the last number is the store */
    }
    assert_true(*p == 0);
}

static int slow_side_empty(const Slow *s, int side)
{
    for (int i = 0; i < s->houses; i++)
        if (s->pits[side][i])
            return 0;
    return 1;
}

static int slow_moves(const Slow *s, int *out)
{
    int n = 0;
    if (slow_side_empty(s, 0) || slow_side_empty(s, 1))
        return 0;
    for (int i = 0; i < s->houses; i++)
        if (s->pits[s->side][i])
            out[n++] = i;
    return n;
}

/* One seed at a time around the ring: my houses, my store, the
 * opponent's houses (never the opponent's store), and round again. */
static void slow_make(Slow *s, int house)
{
    int me = s->side, h = s->houses;
    int seeds = s->pits[me][house];
    s->pits[me][house] = 0;
    int row = me, pos = house;
    while (seeds > 0) {
        pos++;
        if (row == me && pos == h) {          /* my store */
            s->pits[me][h]++;
            seeds--;
            continue;
        }
        if (row != me && pos == h) {          /* skip the opponent's store */
            row = me;
            pos = -1;
            continue;
        }
        if (pos > h) {                        /* past my store */
            row = !me;
            pos = -1;
            continue;
        }
        s->pits[row][pos]++;
        seeds--;
    }
    int last_in_store = row == me && pos == h;
    if (!last_in_store && row == me && s->pits[me][pos] == 1) {
        /* the house opposite house i of one side is house h-1-i */
        int opposite = h - 1 - pos;
        int taken = s->pits[!me][opposite];
        if (taken > 0 || s->capture_empty) {
            s->pits[me][h] += taken + 1;
            s->pits[!me][opposite] = 0;
            s->pits[me][pos] = 0;
        }
    }
    if (!last_in_store)
        s->side = !me;
    if (slow_side_empty(s, 0) || slow_side_empty(s, 1)) {
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < h; i++) {
                s->pits[side][h] += s->pits[side][i];
                s->pits[side][i] = 0;
            }
        s->over = 1;
    }
}

static void slow_to_text(const Slow *s, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%c", s->side ? 'N' : 'S');
    for (int side = 0; side < 2; side++)
        for (int i = 0; i <= s->houses; i++)
            len += (size_t)snprintf(buf + len, n - len, "%c%d",
                                    i ? ',' : ':', s->pits[side][i]);
}

static void compare_games(const char *options, int capture_empty, int games)
{
    const GameVtbl *g = game_find("kalah");
    Rng r;
    rng_seed(&r, 99);
    Move moves[32];
    int slow[32];
    char fast_text[512], slow_text[512];
    int positions = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("kalah", options, NULL, NULL);
        for (;;) {
            assert_true(g->to_text(st, fast_text, sizeof fast_text) >= 0);
            Slow s;
            slow_from_text(&s, fast_text, capture_empty);
            int n = g->to_move(st) == PLAYER_TERMINAL ? 0
                                                      : g->gen_moves(st, moves);
            int k = slow_moves(&s, slow);
            assert_int_equal(n, k);
            /* over when a side has no seeds left */
            s.over = slow_side_empty(&s, 0) || slow_side_empty(&s, 1);
            assert_int_equal(g->to_move(st) == PLAYER_TERMINAL, s.over);
            if (s.over) {
                double ret[2];
                g->returns(st, ret);
                int a = s.pits[0][s.houses], b = s.pits[1][s.houses];
                assert_true(ret[0] == (a > b ? 1.0 : a < b ? -1.0 : 0.0));
                assert_int_equal(g->score(st, 0), a);
                break;
            }
            assert_int_equal(g->to_move(st), s.side);
            for (int i = 0; i < n; i++) {
                assert_int_equal((int)moves[i], slow[i]);
                /* the position after each move, both ways */
                void *child = state_alloc(g);
                memcpy(child, st, g->info.state_size);
                g->make(child, moves[i]);
                Slow sc = s;
                slow_make(&sc, slow[i]);
                g->to_text(child, fast_text, sizeof fast_text);
                slow_to_text(&sc, slow_text, sizeof slow_text);
                if (strcmp(fast_text, slow_text))
                    fail_msg("%s: after house %d: fast %s, slow %s",
                             options ? options : "default options",
                             slow[i] + 1, fast_text, slow_text);
                free(child);
                positions++;
            }
            g->make(st, moves[rng_below(&r, (uint32_t)n)]);
        }
        free(st);
    }
    assert_true(positions >= games);
}

static void test_against_slow(void **state)
{
    (void)state;
    int games = tl_slow() ? 2000 : 200;
    compare_games(NULL, 1, games);
    compare_games("capture=nonempty", 0, games);
    compare_games("houses=3,seeds=2", 1, games);
    compare_games("houses=4,seeds=7,capture=nonempty", 0, games);
    compare_games("houses=1,seeds=1", 1, 10);
    compare_games("houses=8,seeds=12", 1, games / 4);
}

/* Known positions: an extra turn, both capture rules, the end. */
static void test_rules(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    char buf[256];
    /* house 3 has 4 seeds: the last lands in the store, South again */
    void *st = tl_position("kalah", NULL, NULL, "3");
    assert_int_equal(g->to_move(st), 0);
    free(st);
    /* last seed in an empty own house opposite an empty house */
    const char *setup = "S:1,0,0,0,0,1,0:1,0,0,0,0,1,0";
    st = tl_position("kalah", NULL, setup, "1");
    g->to_text(st, buf, sizeof buf);
    assert_string_equal(buf, "N:0,0,0,0,0,1,1:1,0,0,0,0,1,0");
    free(st);
    st = tl_position("kalah", "capture=nonempty", setup, "1");
    g->to_text(st, buf, sizeof buf);
    assert_string_equal(buf, "N:0,1,0,0,0,1,0:1,0,0,0,0,1,0");
    free(st);
    /* capture with seeds opposite: house 2 of South faces North's 5th */
    st = tl_position("kalah", NULL, "S:1,0,0,0,0,0,0:0,0,0,0,3,2,0", "1");
    g->to_text(st, buf, sizeof buf);
    /* South's side is empty after the capture: the game ends */
    assert_string_equal(buf, "N:0,0,0,0,0,0,4:0,0,0,0,0,0,2");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
}

/* The plain game value: the side to move's final store minus the other's,
 * by exhaustive negamax over the game's own moves (an extra turn keeps
 * the sign). */
static int slow_value(const GameVtbl *g, const void *st, int houses)
{
    size_t sz = g->info.state_size;
    if (g->to_move(st) == PLAYER_TERMINAL) {
        int a = g->score(st, 0), b = g->score(st, 1);
        (void)houses;
        return a - b;   /* from South; the caller orients it */
    }
    int me = g->to_move(st), best = -1000;
    Move mv[64];
    int n = g->gen_moves(st, mv);
    unsigned char *c = malloc(sz);
    assert_non_null(c);
    for (int i = 0; i < n; i++) {
        memcpy(c, st, sz);
        g->make(c, mv[i]);
        int v = slow_value(g, c, houses);   /* from South */
        int mine = me ? -v : v;
        if (mine > best)
            best = mine;
    }
    free(c);
    return me ? -best : best;
}

/* The endgame databases (the exact hook) against the slow value over
 * random boards: stores set one seed either side of the balance the slow
 * value gives pin the databases' value exactly. */
static void test_databases(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    Rng r;
    rng_seed(&r, 11);
    int checked = 0;
    for (int t = 0; t < 240; t++) {
        int houses = 2 + (int)rng_below(&r, 5);     /* 2..6 */
        int cap = (int)rng_below(&r, 2);
        int seeds = 1 + (int)rng_below(&r, houses <= 4 ? 10 : 7);
        int pit[2][8] = {{0}};
        for (int k = 0; k < seeds; k++)
            pit[rng_below(&r, 2)][rng_below(&r, (uint32_t)houses)]++;
        int side = (int)rng_below(&r, 2);
        for (int d = -1; d <= 1; d++) {
            char setup[256], opts[96];
            /* first without stores, for the slow value */
            int st0 = 30, st1 = 30;
            for (int pass = 0; pass < 2; pass++) {
                int len = snprintf(setup, sizeof setup, "%c", side ? 'N' : 'S');
                for (int s = 0; s < 2; s++) {
                    for (int i = 0; i < houses; i++)
                        len += snprintf(setup + len, sizeof setup - len,
                                        "%c%d", i ? ',' : ':', pit[s][i]);
                    len += snprintf(setup + len, sizeof setup - len, ",%d",
                                    s ? st1 : st0);
                }
                snprintf(opts, sizeof opts, "houses=%d,capture=%s,dbseeds=12",
                         houses, cap ? "nonempty" : "empty");
                void *st = state_alloc(g);
                PlyError err = {{0}};
                if (state_setup(g, st, opts, setup, 1, &err))
                    fail_msg("%s: %s", setup, err.msg);
                if (g->to_move(st) == PLAYER_TERMINAL) {
                    free(st);
                    break;      /* a side without seeds */
                }
                int v = slow_value(g, st, houses);   /* South's margin */
                int mover = side ? -v : v;
                if (pass == 0) {
                    /* stores for a final margin of d for the mover:
                     * mover store - other store = d - (mover's net) */
                    int net = mover;  /* the stores were equal */
                    int want = d - net;
                    if (side) {
                        st1 = 30 + (want > 0 ? want : 0);
                        st0 = 30 + (want < 0 ? -want : 0);
                    } else {
                        st0 = 30 + (want > 0 ? want : 0);
                        st1 = 30 + (want < 0 ? -want : 0);
                    }
                    free(st);
                    continue;
                }
                int res = 9;
                assert_int_equal(g->exact(st, side, &res), 1);
                if (res != d)
                    fail_msg("kalah %s (%s): the databases say %d, the "
                             "slow search %d", setup, opts, res, d);
                checked++;
                free(st);
            }
        }
    }
    assert_true(checked > 400);
}

/* The solver (kalah_solve.c, shallow databases so it searches) against
 * the slow value over random boards of both capture rules: its value,
 * the move it names keeps that value, its null-window test agrees; and
 * the kalah-perfect bot plays such a move. */
static void test_solver(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    Rng r;
    rng_seed(&r, 5);
    int checked = 0;
    KalahSolver *sv[2][5] = {{NULL}};
    for (int t = 0; t < 150; t++) {
        int houses = 2 + (int)rng_below(&r, 3);     /* 2..4 */
        int cap = (int)rng_below(&r, 2);
        int seeds = 4 + (int)rng_below(&r, houses <= 3 ? 9 : 6);
        int pit[2][8] = {{0}};
        for (int k = 0; k < seeds; k++)
            pit[rng_below(&r, 2)][rng_below(&r, (uint32_t)houses)]++;
        int side = (int)rng_below(&r, 2);
        char setup[256], opts[96];
        int len = snprintf(setup, sizeof setup, "%c", side ? 'N' : 'S');
        for (int s = 0; s < 2; s++) {
            for (int i = 0; i < houses; i++)
                len += snprintf(setup + len, sizeof setup - len, "%c%d",
                                i ? ',' : ':', pit[s][i]);
            len += snprintf(setup + len, sizeof setup - len, ",0");
        }
        snprintf(opts, sizeof opts, "houses=%d,capture=%s,dbseeds=3",
                 houses, cap ? "nonempty" : "empty");
        void *st = state_alloc(g);
        PlyError err = {{0}};
        if (state_setup(g, st, opts, setup, 1, &err))
            fail_msg("%s: %s", setup, err.msg);
        if (g->to_move(st) == PLAYER_TERMINAL) {
            free(st);
            continue;
        }
        int v = slow_value(g, st, houses);
        int mover = side ? -v : v;      /* stores are 0: the net value */
        if (!sv[cap][houses]) {
            sv[cap][houses] = kalah_solver_new(houses, cap, 3, 1 << 16);
            assert_non_null(sv[cap][houses]);
        }
        KalahSolver *s = sv[cap][houses];
        uint8_t b[16];
        int h, c, value = 99, best = -1;
        assert_int_equal(kalah_board(st, b, &h, &c), 0);
        assert_int_equal(h, houses);
        assert_int_equal(c, cap);
        assert_int_equal(kalah_solve(s, b, &value, &best), 0);
        if (value != mover)
            fail_msg("kalah %s (%s): the solver says %d, the slow search "
                     "%d", setup, opts, value, mover);
        assert_int_equal(kalah_solve_at_least(s, b, mover), 1);
        assert_int_equal(kalah_solve_at_least(s, b, mover + 1), 0);
        assert_true(best >= 0 && best < houses);
        unsigned char *ch = malloc(g->info.state_size);
        assert_non_null(ch);
        memcpy(ch, st, g->info.state_size);
        g->make(ch, (Move)best);
        int cv = slow_value(g, ch, houses);
        assert_int_equal(side ? -cv : cv, mover);
        /* the bot: the same value through the game's own moves */
        char spec[64];
        snprintf(spec, sizeof spec, "kalah-perfect:dbseeds=3,hash=1");
        Bot *bot = bot_new(g, spec, 1, &err);
        assert_non_null(bot);
        SearchInfo info;
        memset(&info, 0, sizeof info);
        Move m = bot_choose(bot, st, NULL, &info);
        memcpy(ch, st, g->info.state_size);
        g->make(ch, m);
        cv = slow_value(g, ch, houses);
        assert_int_equal(side ? -cv : cv, mover);
        assert_int_equal(info.value, 100 * mover);
        bot_free(bot);
        /* keep: a move proven to keep a margin of k; past the value,
         * the exact one */
        for (int k = mover - 2; k <= mover + 1; k++) {
            int kb = -1;
            int kept = kalah_solve_keep(s, b, k, &kb);
            assert_int_equal(kept, k <= mover);
            if (kept) {
                memcpy(ch, st, g->info.state_size);
                g->make(ch, (Move)kb);
                cv = slow_value(g, ch, houses);
                assert_true((side ? -cv : cv) >= k);
            }
            snprintf(spec, sizeof spec, "kalah-perfect:dbseeds=3,hash=1,"
                     "keep=%d", k);
            bot = bot_new(g, spec, 1, &err);
            assert_non_null(bot);
            m = bot_choose(bot, st, NULL, &info);
            memcpy(ch, st, g->info.state_size);
            g->make(ch, m);
            cv = slow_value(g, ch, houses);
            assert_true((side ? -cv : cv) >= (k <= mover ? k : mover));
            bot_free(bot);
        }
        free(ch);
        free(st);
        checked++;
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 5; j++)
            kalah_solver_free(sv[i][j]);
    assert_true(checked > 100);
    /* the bot refuses other games */
    PlyError err = {{0}};
    assert_null(bot_new(game_find("oware"), "kalah-perfect", 1, &err));
    assert_true(err.msg[0] != 0);
}

typedef struct Writer {
    MancalaDb db;
    const char *path;
    int rc;
} Writer;

static void *write_db(void *arg)
{
    Writer *w = arg;
    PlyError err = {{0}};
    w->rc = mancala_db_build_file(&w->db, 8, w->path, "k3e", &err);
    return NULL;
}

/* Database files: written by one database, read by another, equal to a
 * third built in memory; a corrupt, short or foreign file is an error. */
static void test_db_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/ply-test-mdb-XXXXXX", path[256], cmd[300];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/k.mdb", dir);
    const MancalaRules *R = kalah_db(3, 0)->rules;
    MancalaDb a = MANCALA_DB_INIT(R), b = MANCALA_DB_INIT(R),
              c = MANCALA_DB_INIT(R), d = MANCALA_DB_INIT(R);
    PlyError err = {{0}};
    assert_int_equal(mancala_db_build_file(&a, 9, path, "k3e", &err), 0);
    assert_int_equal(mancala_db_build_file(&b, 9, path, "k3e", &err), 0);
    assert_int_equal(mancala_db_build(&c, 9), 0);
    for (int n = 0; n <= 9; n++)
        assert_memory_equal(b.layer[n], c.layer[n], a.c[6][n]);
    /* another tag, more seeds than the file holds */
    assert_int_equal(mancala_db_build_file(&d, 9, path, "k3n", &err), -1);
    assert_non_null(strstr(err.msg, "k3e"));
    assert_int_equal(mancala_db_build_file(&d, 10, path, "k3e", &err), -1);
    /* one byte changed */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 200, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, 200, SEEK_SET);
    fputc(ch ^ 1, f);
    fclose(f);
    err.msg[0] = 0;
    assert_int_equal(mancala_db_build_file(&d, 9, path, "k3e", &err), -1);
    assert_non_null(strstr(err.msg, "corrupt"));
    /* cut short */
    assert_int_equal(truncate(path, 300), 0);
    assert_int_equal(mancala_db_build_file(&d, 9, path, "k3e", &err), -1);
    assert_int_equal(atomic_load(&d.built) <= 1, 1);
    mancala_db_free(&a);
    mancala_db_free(&b);
    mancala_db_free(&c);
    mancala_db_free(&d);
    /* four builders of one new file at once (as processes sharing
     * PLY_DB_DIR): the file reads back whole, no temporary file stays */
    snprintf(path, sizeof path, "%s/k4.mdb", dir);
    Writer w[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        w[i].db = (MancalaDb)MANCALA_DB_INIT(R);
        w[i].path = path;
        assert_int_equal(pthread_create(&t[i], NULL, write_db, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].rc, 0);
    }
    MancalaDb e = MANCALA_DB_INIT(R);
    assert_int_equal(mancala_db_build_file(&e, 8, path, "k3e", &err), 0);
    for (int n = 0; n <= 8; n++)
        assert_memory_equal(e.layer[n], w[0].db.layer[n], e.c[6][n]);
    for (int i = 0; i < 4; i++)
        mancala_db_free(&w[i].db);
    mancala_db_free(&e);
    snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 2", dir);
    assert_int_equal(system(cmd), 0);   /* k.mdb and k4.mdb */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    void *st = tl_position("kalah", NULL, NULL, NULL);
    PlyError err = {{0}};
    Move m;
    const char *bad_moves[] = {"0", "7", "x", "", "1a", "-1", "99999999999"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        err.msg[0] = 0;
        assert_int_equal(g->text_to_move(st, bad_moves[i], &m, &err), -1);
        assert_true(err.msg[0] != 0);
    }
    const char *bad_setups[] = {"", "X:1,0:1,0", "S:1,0", "S:1,0:1,0,0",
                                "S:4,4,4:4,4,4:", "S:a,0:1,0",
                                "S:1,0:1,0:over", "S:99999,0:1,0"};
    for (size_t i = 0; i < sizeof bad_setups / sizeof *bad_setups; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad_setups[i], &err) != -1)
            fail_msg("setup '%s' accepted", bad_setups[i]);
        assert_true(err.msg[0] != 0);
    }
    free(st);
}

/* Databases beyond 2^30 boards are refused by the game (with the largest
 * size that fits in the message) and cut to that size by the solver;
 * those that fit are accepted. The sizes are the compositions of up to
 * n seeds into 2h houses, C(n + 2h, 2h). */
static void test_db_limit(void **state)
{
    (void)state;
    assert_int_equal(kalah_db_fit(6, 20), 20);      /* 2.3e8 boards */
    assert_int_equal(kalah_db_fit(7, 20), 19);      /* 1.39e9; 8.2e8 */
    assert_int_equal(kalah_db_fit(8, 20), 16);      /* 17: 1.17e9 */
    assert_int_equal(kalah_db_fit(8, 16), 16);
    assert_int_equal(kalah_db_fit(8, 0), 0);
    const GameVtbl *g = game_find("kalah");
    void *st = state_alloc(g);
    PlyError err = {{0}};
    assert_int_equal(state_setup(g, st, "houses=8,dbseeds=20", NULL, 1,
                                 &err), -1);
    if (!strstr(err.msg, "at most dbseeds=16"))
        fail_msg("message: %s", err.msg);
    err.msg[0] = 0;
    assert_int_equal(state_setup(g, st, "houses=7,dbseeds=20", NULL, 1,
                                 &err), -1);
    if (!strstr(err.msg, "at most dbseeds=19"))
        fail_msg("message: %s", err.msg);
    /* accepted; 0: no database built now */
    assert_int_equal(state_setup(g, st, "houses=8,dbseeds=0", NULL, 1,
                                 &err), 0);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_slow),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_databases),
        cmocka_unit_test(test_solver),
        cmocka_unit_test(test_db_file),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_db_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
