/* test_bench.c — `ply bench` workloads: the signature of every registered
 * game is the same on two runs, and it moves when the workload does; the
 * default workload runs both search bots on every game, by node and
 * iteration limits. */
#include "testlib.h"

#include "tools/bench.h"

static void test_signature_stable(void **state)
{
    (void)state;
    BenchConfig c;
    bench_default_config(&c);
    c.mcts_iterations = 300;
    c.ab_depth = 2;
    c.ab_nodes = 20000;
    c.playouts = 30;
    c.scale = 0;
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        BenchResult a[BENCH_MAX_RESULTS], b[BENCH_MAX_RESULTS];
        PlyError err = {{0}};
        int na = bench_game(g, &c, a, &err);
        int nb = bench_game(g, &c, b, &err);
        if (na < 0 || nb < 0)
            fail_msg("%s: %s", g->info.name, err.msg);
        assert_int_equal(na, nb);
        assert_true(na >= 1);
        for (int k = 0; k < na; k++) {
            assert_string_equal(a[k].what, b[k].what);
            assert_int_equal(a[k].count, b[k].count);
            if (a[k].signature != b[k].signature)
                fail_msg("%s %s: signature differs between runs",
                         g->info.name, a[k].what);
            if (!strcmp(a[k].what, "mcts"))
                assert_int_equal(a[k].count, BENCH_POSITIONS * 300);
        }
        /* more iterations: another search, another signature */
        c.mcts_iterations = 301;
        int nc = bench_game(g, &c, b, &err);
        assert_int_equal(nc, na);
        for (int k = 0; k < na; k++)
            if (!strcmp(a[k].what, "mcts"))
                assert_true(a[k].signature != b[k].signature);
        c.mcts_iterations = 300;
    }
}

static int find_result(const BenchResult *r, int n, const char *what)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(r[k].what, what))
            return k;
    return -1;
}

/* The default workload (the `Bench:` signature of commits): every game has
 * an mcts and an alphabeta result with work done, mcts ran exactly its
 * iteration budget (no clock cut it short), and a second pass over all
 * games, after every other game ran, reproduces each signature. */
static void test_default_covers_every_game(void **state)
{
    (void)state;
    BenchConfig c;
    bench_default_config(&c);
    assert_true(c.mcts_iterations > 0 && c.ab_nodes > 0 && c.ab_depth > 0);
    enum { MAX_GAMES = 64 };
    BenchResult first[MAX_GAMES][BENCH_MAX_RESULTS];
    int nfirst[MAX_GAMES], ngames = 0;
    uint64_t total[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; ply_games[i]; i++) {
            const GameVtbl *g = ply_games[i];
            assert_true(i < MAX_GAMES);
            BenchResult r[BENCH_MAX_RESULTS];
            PlyError err = {{0}};
            int n = bench_game(g, &c, r, &err);
            if (n < 0)
                fail_msg("%s: %s", g->info.name, err.msg);
            for (int k = 0; k < n; k++)
                total[pass] = bench_fold(total[pass], r[k].signature);
            if (pass == 0) {
                ngames = i + 1;
                nfirst[i] = n;
                memcpy(first[i], r, sizeof r);
                if (g->info.flags & GAME_HIDDEN)
                    continue;
                int m = find_result(r, n, "mcts");
                int a = find_result(r, n, "alphabeta");
                if (m < 0 || a < 0)
                    fail_msg("%s: the default bench lacks %s", g->info.name,
                             m < 0 ? "mcts" : "alphabeta");
                assert_true(r[a].count > 0);
                /* each position that is not over gets the same budget */
                if (r[m].count == 0 || r[m].count % BENCH_POSITIONS)
                    fail_msg("%s: mcts ran %llu iterations", g->info.name,
                             (unsigned long long)r[m].count);
                continue;
            }
            assert_int_equal(n, nfirst[i]);
            for (int k = 0; k < n; k++) {
                assert_string_equal(r[k].what, first[i][k].what);
                if (r[k].count != first[i][k].count ||
                    r[k].signature != first[i][k].signature)
                    fail_msg("%s %s: second run differs", g->info.name,
                             r[k].what);
            }
        }
    }
    assert_true(ngames >= 1);
    assert_true(total[0] == total[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signature_stable),
        cmocka_unit_test(test_default_covers_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
