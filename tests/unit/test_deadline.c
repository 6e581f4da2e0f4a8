/* test_deadline.c — time discipline (issue 21): a move never takes more
 * than its time_ms.
 *
 * Why these tests cannot flake on a loaded machine: the main ones run the
 * bots on a fake clock (Limits.clock_us) that advances a fixed step on
 * every read, plus rare big jumps standing for a slow iteration or a
 * preempted thread. Time then passes only when the bot looks at the
 * clock, so how busy the machine is changes nothing: the same reads give
 * the same answer, and the assertion "the clock read after choose()
 * returns is within the budget" checks the deadline arithmetic (margin,
 * gap estimate, check frequency, reads after the stop decision) exactly.
 * The real-clock sample asserts only what the deadline logic guarantees
 * whatever the scheduler does: the bot never keeps searching after a
 * clock read past its internal deadline (at most a few reads, each a stop
 * decision or the final report, fall after it), and it does not give up
 * before the deadline less its gap cap. How far the real elapsed time
 * lands over the budget depends on preemption and is measured by
 * bench/overrun.sh, not asserted here. */
#include "testlib.h"

#include <stdatomic.h>

#include "core/bot.h"
#include "core/util.h"

typedef struct FakeClock {
    _Atomic int64_t t;          /* microseconds */
    _Atomic uint64_t reads;
    int64_t step;               /* added by every read */
    uint64_t jump_every;        /* every Nth read also adds jump (0: never) */
    int64_t jump;
} FakeClock;

static int64_t fake_clock(void *ctx)
{
    FakeClock *c = ctx;
    uint64_t n = atomic_fetch_add(&c->reads, 1) + 1;
    int64_t add = c->step;
    if (c->jump_every && n % c->jump_every == 0)
        add += c->jump;
    return atomic_fetch_add(&c->t, add) + add;
}

/* One move of spec at st under a fake clock; returns elapsed fake us
 * from a read before choose() to a read after it. */
static int64_t fake_move(const char *game, const char *moves,
                         const char *spec, int64_t budget_ms, FakeClock *fc,
                         SearchInfo *info)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, NULL, moves);
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 5, &err);
    if (!b)
        fail_msg("%s: %s", spec, err.msg);
    Limits lim = {.time_ms = budget_ms, .clock_us = fake_clock,
                  .clock_ctx = fc};
    if (strstr(spec, "reuse=1")) {
        /* a tree kept from an earlier search of 30000 iterations, two
         * moves up: the timed move starts by finding and compacting it */
        Limits warm = {.nodes = 30000};
        void *root = tl_position(game, NULL, NULL, NULL);
        for (int i = 0; i < 2; i++) {
            Move m = bot_choose(b, root, &warm, NULL);
            bot_inform(b, root, m);
            g->make(root, m);
        }
        memcpy(st, root, g->info.state_size);
        free(root);
    }
    int64_t start = fake_clock(fc);
    Move m = bot_choose(b, st, &lim, info);
    int64_t elapsed = fake_clock(fc) - start;
    assert_true(state_is_legal(g, st, m));
    bot_free(b);
    free(st);
    return elapsed;
}

enum { FLOOR_NONE, FLOOR_TIGHT, FLOOR_CAP };

/* floor: FLOOR_TIGHT (one thread) asserts that the bot searched until
 * its internal deadline less the largest gap between its reads, which
 * with one thread is a step plus a jump; FLOOR_CAP (threads: the other
 * thread's reads widen a thread's gaps) until the deadline less the gap
 * cap; FLOOR_NONE for bots that may stop early by design. */
static void check_fake(const char *game, const char *moves, const char *spec,
                       int64_t budget_ms, int64_t step, uint64_t jump_every,
                       int64_t jump, int floor_kind)
{
    FakeClock fc = {.step = step, .jump_every = jump_every, .jump = jump};
    atomic_init(&fc.t, 1000000);
    atomic_init(&fc.reads, 0);
    SearchInfo info;
    int64_t el = fake_move(game, moves, spec, budget_ms, &fc, &info);
    int64_t budget = budget_ms * 1000;
    if (el > budget)
        fail_msg("%s on %s, step %lld us: %lld us for a %lld us budget",
                 spec, game, (long long)step, (long long)el,
                 (long long)budget);
    /* and it used its time: no earlier than the internal deadline less
     * the largest gap the clock showed it */
    int64_t floor = budget - bot_time_margin_us(budget_ms) - 3 * step -
                    (jump_every ? jump : 0);
    if (floor_kind == FLOOR_CAP)
        floor = budget - bot_time_margin_us(budget_ms) - budget / 8 -
                3 * step;
    if (floor_kind != FLOOR_NONE && el < floor)
        fail_msg("%s on %s: stopped after %lld us, before %lld us", spec,
                 game, (long long)el, (long long)floor);
    assert_true(info.nodes > 0);
}

/* The check interval: doubled while reads come less than 32 us apart,
 * halved above 128 us; the gap term is the longest gap, capped at an
 * eighth of the budget; the deadline is the budget less the margin. */
static void test_check_interval(void **state)
{
    (void)state;
    FakeClock fc = {.step = 5};
    atomic_init(&fc.t, 1000);
    atomic_init(&fc.reads, 0);
    Limits lim = {.time_ms = 100, .clock_us = fake_clock, .clock_ctx = &fc};
    BotClock c;
    botclock_start(&c, &lim, 100);
    assert_int_equal(c.stop, c.t0 + 100000 - bot_time_margin_us(100));
    assert_true(bot_time_margin_us(100) >= 1000 &&
                bot_time_margin_us(100) <= 10000);
    BotTick t = {0, 0, 0};
    assert_int_equal(botclock_check(&c, &t), 0);
    assert_int_equal(t.every, 1);
    for (int i = 0; i < 10; i++)
        assert_int_equal(botclock_check(&c, &t), 0);
    assert_int_equal(t.every, 1 << 10);
    assert_int_equal(t.gap, 5);
    fc.step = 1000;
    for (int i = 0; i < 3; i++)
        assert_int_equal(botclock_check(&c, &t), 0);
    assert_int_equal(t.every, 1 << 7);
    assert_int_equal(t.gap, 1000);
    fc.step = 50000;    /* a huge gap counts as the cap, 12.5 ms */
    assert_int_equal(botclock_check(&c, &t), 0);
    assert_int_equal(t.gap, 12500);
    /* 53 ms + 12.5 ms of gap is early yet; the next read, 103 ms, not */
    assert_int_equal(botclock_check(&c, &t), 1);
    /* no time limit: never expired, no read */
    Limits none = {.clock_us = fake_clock, .clock_ctx = &fc};
    botclock_start(&c, &none, 0);
    uint64_t reads = atomic_load(&fc.reads);
    assert_int_equal(botclock_check(&c, &t), 0);
    assert_int_equal(atomic_load(&fc.reads), reads);
}

static void test_mcts_fake_clock(void **state)
{
    (void)state;
    /* Steps of 40-300 us keep the check interval at one iteration or
     * node (botclock_check doubles it below 32 us between reads), so
     * the fake 100 ms are a few thousand iterations. */
    check_fake("kalah", NULL, "mcts", 100, 40, 0, 0, FLOOR_TIGHT);
    check_fake("zuniq", NULL, "mcts", 100, 40, 0, 0, FLOOR_TIGHT);
    /* a slow read now and then (a long playout, a preemption) */
    check_fake("kalah", NULL, "mcts", 100, 40, 97, 2000, FLOOR_TIGHT);
    check_fake("chess", NULL, "mcts", 50, 40, 13, 1500, FLOOR_TIGHT);
    /* tiny budgets */
    check_fake("kalah", NULL, "mcts", 5, 40, 0, 0, FLOOR_TIGHT);
    check_fake("kalah", NULL, "mcts", 1, 40, 0, 0, FLOOR_TIGHT);
    /* tree reuse: a third move of the same bot after inform() */
    check_fake("kalah", NULL, "mcts:reuse=1", 50, 40, 0, 0, FLOOR_TIGHT);
}

static void test_mcts_threads_fake_clock(void **state)
{
    (void)state;
    /* two threads read one clock: the stop decision of one and the join
     * of the other stay inside the budget */
    check_fake("kalah", NULL, "mcts:threads=2", 100, 40, 0, 0, FLOOR_CAP);
    check_fake("reversi", NULL, "mcts:threads=2", 50, 40, 31, 1000,
               FLOOR_CAP);
}

static void test_alphabeta_fake_clock(void **state)
{
    (void)state;
    /* 100-300 us a read: the check interval falls to one node */
    check_fake("kalah", NULL, "alphabeta:soft=100", 100, 200, 0, 0,
               FLOOR_TIGHT);
    check_fake("chess", NULL, "alphabeta:soft=100", 100, 300, 0, 0,
               FLOOR_TIGHT);
    check_fake("chess", NULL, "alphabeta:soft=100", 100, 100, 17, 2000,
               FLOOR_TIGHT);
    check_fake("reversi", NULL, "alphabeta", 30, 100, 0, 0, FLOOR_NONE);
}


/* One move of spec from the setup string fen (chess) under a fake clock
 * of 100 us a read; the elapsed fake us, *depth the depth reached. */
static int64_t fake_setup_move(const char *fen, const char *spec,
                               int64_t budget_ms, int spend_all, int *depth,
                               Move *m)
{
    FakeClock fc = {.step = 100};
    atomic_init(&fc.t, 1000000);
    atomic_init(&fc.reads, 0);
    const GameVtbl *g = game_find("chess");
    void *st = tl_position("chess", NULL, fen, NULL);
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 5, &err);
    if (!b)
        fail_msg("%s: %s", spec, err.msg);
    Limits lim = {.time_ms = budget_ms, .spend_all = spend_all,
                  .clock_us = fake_clock, .clock_ctx = &fc};
    SearchInfo info;
    int64_t start = fake_clock(&fc);
    *m = bot_choose(b, st, &lim, &info);
    int64_t el = fake_clock(&fc) - start;
    assert_true(state_is_legal(g, st, *m));
    *depth = info.depth;
    bot_free(b);
    free(st);
    return el;
}

/* tmstab: where one move is best at every depth (a knight takes a loose
 * queen), the scaled soft limit stops the search earlier than the plain
 * one, with the same move; every scaling stays within the budget. */
static void test_alphabeta_stability(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1";
    int d0, d1;
    Move m0, m1;
    int64_t plain = fake_setup_move(fen, "alphabeta", 400, 0, &d0, &m0);
    int64_t stab = fake_setup_move(fen, "alphabeta:tmstab=50", 400, 0,
                                   &d1, &m1);
    if (!(stab < plain && d1 <= d0 && d0 >= 5))
        fail_msg("stable move: %lld us to depth %d with tmstab=50, %lld us "
                 "to depth %d without", (long long)stab, d1,
                 (long long)plain, d0);
    assert_true(m0 == m1);
    check_fake("chess", NULL, "alphabeta:tmstab=90", 100, 150, 0, 0,
               FLOOR_NONE);
    check_fake("chess", NULL, "alphabeta:tmstab=90,soft=100", 100, 100, 17,
               2000, FLOOR_NONE);
}

/* spend_all: a time that is the move's own (a time per move) is spent
 * to the deadline, past the soft limit where the same search would stop
 * to bank the rest of a clock; a deeper search, within the budget. The
 * plain search is the negative control: it stops at its soft limit. */
static void test_alphabeta_spend_all(void **state)
{
    (void)state;
    const char *fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/"
                      "RNBQK2R w KQkq - 4 4";
    int d0, d1;
    Move m0, m1;
    int64_t budget = 200 * 1000;
    int64_t floor = budget - bot_time_margin_us(200) - 3 * 100;
    int64_t plain = fake_setup_move(fen, "alphabeta", 200, 0, &d0, &m0);
    int64_t all = fake_setup_move(fen, "alphabeta", 200, 1, &d1, &m1);
    if (!(all >= floor && all <= budget && plain < floor && d1 >= d0))
        fail_msg("spend_all: %lld us to depth %d; plain: %lld us to depth "
                 "%d (floor %lld us, budget %lld us)", (long long)all, d1,
                 (long long)plain, d0, (long long)floor,
                 (long long)budget);
}

/* Four players, a turn of several steps under way (North's second of
 * three): every N-player search within its budget. */
static void test_nplayer_fake_clock(void **state)
{
    (void)state;
    const char *mid = "Tf2-f3 Tb4-c4 Tc4-d4 Td8-d7 De8-e7";
    check_fake("splut", mid, "alphabeta:mode=paranoid,soft=100", 100, 150,
               0, 0, FLOOR_TIGHT);
    check_fake("splut", mid, "alphabeta:mode=brs,soft=100", 100, 150, 0, 0,
               FLOOR_TIGHT);
    check_fake("splut", mid, "alphabeta:mode=brs,brturn=0,soft=100", 100,
               150, 0, 0, FLOOR_TIGHT);
    check_fake("splut", mid, "alphabeta:mode=maxn,soft=100", 100, 150, 0, 0,
               FLOOR_TIGHT);
    check_fake("splut", mid, "alphabeta:mode=maxn,soft=100", 100, 100, 13,
               2000, FLOOR_TIGHT);
    check_fake("splut", mid, "mcts", 100, 40, 0, 0, FLOOR_TIGHT);
    check_fake("splut", mid, "alphabeta:mode=brs+,soft=100", 100, 150, 0,
               0, FLOOR_TIGHT);
    /* Yonin shogi: a middle game with pieces in hand (the golden game) */
    const char *yo = "e3e4 a7b8 c9c8 h6g6 f1g2 a3b3 d8d7 h4g4 c1b2 b3c2 "
                     "d7d6 h5h1 b2c1 b8c9 g9h8 i4h5 e1f1 c9b8 d9d8 h1h3 "
                     "e2e1 b8c8 d8c8 i7h7 f2f3 S*b2 S*f5";
    check_fake("yonin-shogi", yo, "alphabeta:mode=brs,soft=100", 100, 150,
               0, 0, FLOOR_TIGHT);
    check_fake("yonin-shogi", yo, "alphabeta:mode=paranoid,soft=100", 100,
               100, 13, 2000, FLOOR_TIGHT);
    check_fake("yonin-shogi", yo, "mcts", 100, 40, 0, 0, FLOOR_TIGHT);
    check_fake("splut-duel", "Tf2-f3", "alphabeta", 50, 150, 0, 0,
               FLOOR_NONE);
}

/* Real clock: a recording wrapper of the monotonic clock. */
typedef struct RecClock {
    _Atomic int n;
    int64_t t[1 << 16];
} RecClock;

static int64_t rec_clock(void *ctx)
{
    RecClock *c = ctx;
    int64_t now = now_us();
    int i = atomic_fetch_add(&c->n, 1);
    if (i < (int)(sizeof c->t / sizeof *c->t))
        c->t[i] = now;
    return now;
}

static void real_sample(const char *game, const char *spec, int64_t ms,
                        int check_floor)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, NULL, NULL);
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 3, &err);
    assert_non_null(b);
    RecClock *rc = calloc(1, sizeof *rc);
    assert_non_null(rc);
    Limits lim = {.time_ms = ms, .clock_us = rec_clock, .clock_ctx = rc};
    int64_t before = now_us();
    Move m = bot_choose(b, st, &lim, NULL);
    int64_t after = now_us();
    assert_true(state_is_legal(g, st, m));
    int n = atomic_load(&rc->n);
    assert_true(n >= 2 && n <= (int)(sizeof rc->t / sizeof *rc->t));
    int64_t t0 = rc->t[0];
    int64_t stop = t0 + ms * 1000 - bot_time_margin_us(ms);
    /* reads at or past the internal deadline: each is a stop decision
     * (one per thread) or the report at the end; searching on after one
     * would show up as more */
    int late = 0;
    for (int i = 0; i < n; i++)
        late += rc->t[i] >= stop;
    if (late > 4)
        fail_msg("%s: %d of %d clock reads after the internal deadline",
                 spec, late, n);
    if (check_floor && after - before < ms * 1000 -
                                            bot_time_margin_us(ms) -
                                            ms * 1000 / 8)
        fail_msg("%s: gave up after %lld us of %lld ms", spec,
                 (long long)(after - before), (long long)ms);
    free(rc);
    bot_free(b);
    free(st);
}

static void test_real_clock_sample(void **state)
{
    (void)state;
    real_sample("kalah", "mcts", 30, 1);
    real_sample("chess", "mcts:threads=2", 30, 1);
    /* alphabeta may stop early by design (soft=50, solved positions) */
    real_sample("chess", "alphabeta", 30, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_interval),
        cmocka_unit_test(test_mcts_fake_clock),
        cmocka_unit_test(test_mcts_threads_fake_clock),
        cmocka_unit_test(test_alphabeta_fake_clock),
        cmocka_unit_test(test_alphabeta_stability),
        cmocka_unit_test(test_alphabeta_spend_all),
        cmocka_unit_test(test_nplayer_fake_clock),
        cmocka_unit_test(test_real_clock_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
