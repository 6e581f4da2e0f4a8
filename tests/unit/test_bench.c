/* test_bench.c — `ply bench` workloads: the signature of every registered
 * game is the same on two runs, and it moves when the workload does. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signature_stable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
