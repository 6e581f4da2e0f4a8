/* test_evalterms.c — every game with an EvalTuning (the linear form of its
 * evaluation that `ply tune` fits) must agree with its eval(): on positions
 * from seeded random games, eval(st, 0) equals base + sum(coef * weight)
 * up to integer rounding (for every player through terms_of, where the
 * game has it), and the parameter table is well formed. */
#include <math.h>

#include "testlib.h"

/* eval() rounds its intermediate sums (tapering, divisions): allow that
 * much, far below what one wrong or missing term costs. */
enum { TOLERANCE = 8, GAMES = 40, MAX_PLIES = 300 };

static void check_table(const GameVtbl *g)
{
    const EvalTuning *t = g->tuning;
    assert_non_null(t->terms);
    assert_non_null(t->names);
    assert_non_null(t->weights);
    assert_true(t->nparams > 0);
    for (int i = 0; i < t->nparams; i++) {
        if (!t->names[i] || !t->names[i][0])
            fail_msg("%s: parameter %d has no name", g->info.name, i);
        for (int j = 0; j < i; j++)
            if (!strcmp(t->names[i], t->names[j]))
                fail_msg("%s: parameter name %s twice", g->info.name,
                         t->names[i]);
    }
}

static int check_position(const GameVtbl *g, const void *st, EvalTerm *terms)
{
    const EvalTuning *t = g->tuning;
    int e = g->eval(st, 0);
    if (abs(e) >= EVAL_MAX - 1)
        return 0;               /* clamped: the linear form does not apply */
    double base = 0;
    int n = t->terms(st, terms, &base);
    if (n < 0 || n > EVAL_MAX_TERMS)
        fail_msg("%s: %d terms", g->info.name, n);
    double sum = base;
    for (int i = 0; i < n; i++) {
        if (terms[i].index < 0 || terms[i].index >= t->nparams)
            fail_msg("%s: term index %d out of range", g->info.name,
                     terms[i].index);
        if (!isfinite(terms[i].coef))
            fail_msg("%s: term %d is not finite", g->info.name, i);
        sum += (double)terms[i].coef * t->weights[terms[i].index];
    }
    if (fabs(sum - e) > TOLERANCE) {
        char buf[512];
        g->to_text(st, buf, sizeof buf);
        fail_msg("%s: eval %d but the terms sum to %.2f at %s",
                 g->info.name, e, sum, buf);
    }
    if ((g->info.flags & GAME_ZERO_SUM) && g->info.num_players == 2 &&
        g->eval(st, 1) != -e)
        fail_msg("%s: eval for player 1 is not the negation",
                 g->info.name);
    /* more players: the same from every player's view (terms_of) */
    for (int p = 0; t->terms_of && p < g->info.num_players; p++) {
        int ep = g->eval(st, p);
        if (abs(ep) >= EVAL_MAX - 1)
            continue;
        double bp = 0;
        int np = t->terms_of(st, p, terms, &bp);
        assert_true(np >= 0 && np <= EVAL_MAX_TERMS);
        for (int i = 0; i < np; i++)
            bp += (double)terms[i].coef * t->weights[terms[i].index];
        if (fabs(bp - ep) > TOLERANCE)
            fail_msg("%s: eval %d for player %d but its terms sum to %.2f",
                     g->info.name, ep, p, bp);
    }
    return 1;
}

static void test_terms_match_eval(void **unused)
{
    (void)unused;
    int games = 0;
    EvalTerm *terms = malloc(sizeof *terms * EVAL_MAX_TERMS);
    Move *moves = NULL;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->tuning)
            continue;
        games++;
        assert_non_null(g->eval);
        check_table(g);
        moves = realloc(moves, sizeof *moves * (size_t)g->info.max_moves);
        void *st = state_alloc(g);
        int checked = 0;
        for (int k = 0; k < GAMES; k++) {
            PlyError err = {{0}};
            assert_int_equal(state_setup(g, st, NULL, NULL, 1000 + k, &err),
                             0);
            Rng r;
            rng_seed(&r, 77 + (uint64_t)k);
            for (int ply = 0; ply < MAX_PLIES; ply++) {
                int who = g->to_move(st);
                if (who == PLAYER_TERMINAL)
                    break;
                if (who >= 0)
                    checked += check_position(g, st, terms);
                int n = g->gen_moves(st, moves);
                assert_true(n > 0);
                g->make(st, moves[rng_below(&r, (uint32_t)n)]);
            }
        }
        if (checked < GAMES * 10)
            fail_msg("%s: only %d positions checked", g->info.name, checked);
        free(st);
    }
    free(moves);
    free(terms);
    print_message("%d games with a tunable evaluation\n", games);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms_match_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
