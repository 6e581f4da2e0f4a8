/* test_tune.c — the evaluation tuner (src/tools/tune.c): on synthetic
 * data drawn from a known weight vector it recovers K and moves the
 * weights towards the known ones, lowering the error; records are read
 * and labelled right, bad records fail naming the line; weights headers
 * (src/search/evalfile.c) round-trip and reject bad files. */
#include <math.h>

#include "testlib.h"
#include "search/evalfile.h"
#include "tools/tune.h"

enum { NP = 6, NPOS = 20000 };
static const double TRUE_W[NP] = {100, -60, 40, 0, 150, -30};
static const double TRUE_K = 0.01;

static double sigm(double x) { return 1 / (1 + exp(-x)); }

/* Positions with 2-4 random terms (coef -2..2, not 0) and a small base;
 * labels from sigmoid(TRUE_K * eval): drawn as 0/1 (noisy) or the
 * probability itself. */
static void synthetic(TuneData *d, int drawn)
{
    Rng r;
    rng_seed(&r, 12345);
    tune_data_init(d, NP);
    for (int i = 0; i < NPOS; i++) {
        EvalTerm t[4];
        int n = 2 + (int)rng_below(&r, 3);
        double e = (double)rng_below(&r, 21) - 10;
        double base = e;
        for (int j = 0; j < n; j++) {
            int c = (int)rng_below(&r, 4) - 2;
            t[j].index = (j * 2 + (int)rng_below(&r, 2)) % NP;
            t[j].coef = (float)(c >= 0 ? c + 1 : c);
            e += t[j].coef * TRUE_W[t[j].index];
        }
        double p = sigm(TRUE_K * e);
        double label = drawn ? (rng_double(&r) < p ? 1.0 : 0.0) : p;
        assert_int_equal(tune_data_add(d, t, n, base, label, i % 10 == 0),
                         0);
    }
    assert_int_equal(d->npos, NPOS);
    assert_int_equal(d->nvalid, NPOS / 10);
}

static void test_fit_k(void **unused)
{
    (void)unused;
    TuneData d;
    synthetic(&d, 0);
    double k = tune_fit_k(&d, TRUE_W);
    assert_true(fabs(k - TRUE_K) < TRUE_K * 0.01);
    assert_true(tune_error(&d, TRUE_W, k, 0) < 1e-8);
    tune_data_free(&d);
}

static void test_fit_recovers_weights(void **unused)
{
    (void)unused;
    TuneData d;
    synthetic(&d, 1);
    double w0[NP] = {0}, w[NP];
    double e0 = tune_error(&d, w0, TRUE_K, 0);
    double v0 = tune_error(&d, w0, TRUE_K, 1);
    TuneFitOpts o = {.epochs = 400, .rate = 2.0, .l2 = 0};
    tune_fit(&d, TRUE_K, w0, w, &o);
    for (int i = 0; i < NP; i++) {
        /* closer than at the start, and near the truth */
        assert_true(fabs(w[i] - TRUE_W[i]) < 12);
        if (TRUE_W[i] != 0)
            assert_true(fabs(w[i] - TRUE_W[i]) < fabs(w0[i] - TRUE_W[i]));
    }
    assert_true(tune_error(&d, w, TRUE_K, 0) < e0 - 0.01);
    assert_true(tune_error(&d, w, TRUE_K, 1) < v0 - 0.01);

    /* a strong pull towards the start keeps the weights near it */
    double wl[NP];
    o.l2 = 1.0;
    tune_fit(&d, TRUE_K, w0, wl, &o);
    for (int i = 0; i < NP; i++)
        assert_true(fabs(wl[i]) < fabs(w[i]) / 2 + 1);
    tune_data_free(&d);
}

static int read_text(const char *game, const char *text, TuneData *d,
                     TuneReadStats *rs, PlyError *err)
{
    const GameVtbl *g = game_find(game);
    assert_non_null(g);
    tune_data_init(d, g->tuning ? g->tuning->nparams : 1);
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    TuneReadOpts o = {.skip_plies = 0, .valid_percent = 0, .seed = 1};
    memset(rs, 0, sizeof *rs);
    int rc = tune_read_records(d, g, f, "recs", &o, rs, err);
    fclose(f);
    return rc;
}

static const char *const WHITE_WINS =
    "{\"game\":\"chess\",\"setup\":\"\",\"options\":\"\","
    "\"moves\":[\"f2f3\",\"e7e5\",\"g2g4\",\"d8h4\"],"
    "\"result\":[-1,1],\"reason\":\"normal\"}\n"
    "{\"game\":\"kalah\",\"moves\":[],\"result\":[1,-1]}\n"
    "\n"
    "{\"game\":\"chess\",\"moves\":[\"e2e4\",\"e7e5\"],"
    "\"result\":[0,0],\"reason\":\"time\"}\n"
    "{\"game\":\"chess\",\"moves\":[\"e2e4\",\"e7e5\",\"g1f3\"],"
    "\"result\":[0,0]}\n";

static void test_read_records(void **unused)
{
    (void)unused;
    TuneData d;
    TuneReadStats rs;
    PlyError err = {{0}};
    assert_int_equal(read_text("chess", WHITE_WINS, &d, &rs, &err), 0);
    assert_int_equal(rs.records, 4);
    assert_int_equal(rs.games, 2);
    assert_int_equal(rs.other_game, 1);
    assert_int_equal(rs.forfeits, 1);
    /* fool's mate: 4 positions before the mate (none in check), then the
     * draw: 4 positions, the last one the end of the game */
    assert_int_equal(d.npos, 4 + 4);
    for (size_t i = 0; i < 4; i++)
        assert_true(d.label[i] == 0.0);
    for (size_t i = 4; i < 8; i++)
        assert_true(d.label[i] == 0.5);
    /* the terms give the evaluation of the start position */
    const GameVtbl *g = game_find("chess");
    void *st = tl_position("chess", NULL, NULL, NULL);
    double e = d.base[0];
    for (size_t j = d.start[0]; j < d.start[1]; j++)
        e += d.terms[j].coef * g->tuning->weights[d.terms[j].index];
    assert_true(fabs(e - g->eval(st, 0)) < 1);
    free(st);
    tune_data_free(&d);
}

/* Every game with a tunable evaluation: a seeded random game written as a
 * match record is read (no plies skipped), and at least one position is
 * used (the tuner's quiescence runs on each; virus-wars, which has no
 * noisy moves, once crashed it). */
static void test_every_tunable_game(void **unused)
{
    (void)unused;
    int games = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!g->tuning)
            continue;
        games++;
        void *st = tl_position(g->info.name, NULL, NULL, NULL);
        Move *mv = malloc(sizeof *mv * (size_t)g->info.max_moves);
        size_t cap = 1 << 16, len = 0;
        char *rec = malloc(cap);
        len += (size_t)snprintf(rec, cap, "{\"game\":\"%s\",\"moves\":[",
                                g->info.name);
        Rng r;
        rng_seed(&r, 99 + (uint64_t)gi);
        int plies = 0;
        for (; plies < 40 && g->to_move(st) >= 0; plies++) {
            int n = g->gen_moves(st, mv);
            assert_true(n > 0);
            Move m = mv[rng_below(&r, (uint32_t)n)];
            char buf[128];
            assert_true(g->move_to_text(st, m, buf, sizeof buf) > 0);
            len += (size_t)snprintf(rec + len, cap - len, "%s\"%s\"",
                                    plies ? "," : "", buf);
            g->make(st, m);
        }
        len += (size_t)snprintf(rec + len, cap - len, "],\"result\":[1");
        for (int p = 1; p < g->info.num_players; p++)
            len += (size_t)snprintf(rec + len, cap - len, ",-1");
        snprintf(rec + len, cap - len, "]}\n");
        assert_true(len < cap - 8);
        TuneData d;
        TuneReadStats rs;
        PlyError err = {{0}};
        if (read_text(g->info.name, rec, &d, &rs, &err) != 0)
            fail_msg("%s: %s", g->info.name, err.msg);
        assert_int_equal(rs.games, 1);
        if (d.npos < 1)
            fail_msg("%s: no position read from %d plies", g->info.name,
                     plies);
        tune_data_free(&d);
        free(rec);
        free(mv);
        free(st);
    }
    assert_true(games >= 15);
    print_message("%d games with a tunable evaluation\n", games);
}

static void expect_error(const char *game, const char *text,
                         const char *part)
{
    TuneData d;
    TuneReadStats rs;
    PlyError err = {{0}};
    assert_int_equal(read_text(game, text, &d, &rs, &err), -1);
    if (!strstr(err.msg, part))
        fail_msg("error '%s' does not name '%s'", err.msg, part);
    tune_data_free(&d);
}

static void test_bad_records(void **unused)
{
    (void)unused;
    expect_error("chess", "{\"game\":\"chess\",\"moves\":[],\"result\":[0,0]}"
                 "\n{\"game\": \"chess\", \"moves\": [\n", "recs:2:");
    expect_error("chess", "[1, 2]\n", "recs:1: not a JSON object");
    expect_error("chess", "{\"game\":\"chess\",\"moves\":[\"e2e5\"],"
                 "\"result\":[1,-1]}\n", "move 1 'e2e5'");
    expect_error("chess", "{\"game\":\"chess\",\"moves\":[\"e2e4\"]}\n",
                 "recs:1: not a match record");
    expect_error("chess", "{\"game\":\"chess\",\"setup\":\"xyz\","
                 "\"moves\":[],\"result\":[1,-1]}\n", "recs:1: bad setup");
    expect_error("kalah", "{\"game\":\"kalah\",\"moves\":[],"
                 "\"result\":[1,-1]}\n", "no tunable evaluation");
}

static void test_weights_file(void **unused)
{
    (void)unused;
    const GameVtbl *g = game_find("shatranj");
    const EvalTuning *t = g->tuning;
    char path[] = "/tmp/ply-test-weights-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    int *w = malloc(sizeof *w * (size_t)t->nparams);
    for (int i = 0; i < t->nparams; i++)
        w[i] = t->weights[i] + (i % 7) - 3;
    evalfile_write(f, g->info.name, t, w, "a note\non two lines");
    fclose(f);
    int *r = calloc((size_t)t->nparams, sizeof *r);
    PlyError err = {{0}};
    assert_int_equal(evalfile_read(t, path, r, &err), 0);
    assert_memory_equal(r, w, sizeof *w * (size_t)t->nparams);
    /* the evaluation under the file's weights is the linear form */
    void *st = tl_position("shatranj", NULL, NULL, "e2e3 d7d6 g1f3");
    EvalTerm *terms = malloc(sizeof *terms * EVAL_MAX_TERMS);
    assert_int_equal(evalfile_eval(t, t->weights, st, terms),
                     g->eval(st, 0));
    free(terms);
    free(st);
    /* the chess file is not a shatranj file */
    assert_int_equal(evalfile_read(game_find("chess")->tuning, path, r,
                                   &err), -1);
    assert_non_null(strstr(err.msg, "unknown parameter"));
    f = fopen(path, "w");
    fprintf(f, "X(\"%s\", 12)\n", t->names[0]);
    fclose(f);
    assert_int_equal(evalfile_read(t, path, r, &err), -1);
    assert_non_null(strstr(err.msg, "missing"));
    f = fopen(path, "w");
    fprintf(f, "X(\"%s\", 12x)\n", t->names[0]);
    fclose(f);
    assert_int_equal(evalfile_read(t, path, r, &err), -1);
    assert_non_null(strstr(err.msg, ":1: expected"));
    remove(path);
    assert_int_equal(evalfile_read(t, path, r, &err), -1);
    assert_non_null(strstr(err.msg, "cannot open"));
    free(r);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_k),
        cmocka_unit_test(test_fit_recovers_weights),
        cmocka_unit_test(test_read_records),
        cmocka_unit_test(test_bad_records),
        cmocka_unit_test(test_every_tunable_game),
        cmocka_unit_test(test_weights_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
