/* testlib.h — what every unit test includes: cmocka plus small helpers to
 * build positions of registered games. */
#ifndef PLY_TESTLIB_H
#define PLY_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/game.h"
#include "core/registry.h"
#include "core/rng.h"
#include "core/setup.h"

/* PLY_SANITIZED: built with ASan or TSan, where code runs several times
 * slower; a test may then do the same checks on fewer cases (the release
 * suite runs them all). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PLY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PLY_SANITIZED 1
#endif
#endif

/* A position of game `name` with options, a setup string and moves (each
 * may be NULL). Fails the test with the error message when rejected. */
static inline void *tl_position(const char *name, const char *options,
                                const char *setup, const char *moves)
{
    const GameVtbl *g = game_find(name);
    if (!g)
        fail_msg("game %s is not registered", name);
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (state_setup(g, st, options, setup, 1, &err) ||
        state_play_moves(g, st, moves, &err))
        fail_msg("%s: %s", name, err.msg);
    return st;
}

/* The coefficient of the evaluation weight `name` of game `name` at
 * setup (player 0's view; its count in the linear form that ply tune
 * fits), 0 when the position does not use it. Fails the test when the
 * game has no weight of that name. */
static inline double tl_eval_coef(const char *game, const char *setup,
                                  const char *name)
{
    const GameVtbl *g = game_find(game);
    assert_non_null(g);
    assert_non_null(g->tuning);
    const EvalTuning *t = g->tuning;
    int found = 0;
    for (int i = 0; i < t->nparams; i++)
        if (!strcmp(t->names[i], name))
            found = 1;
    if (!found)
        fail_msg("%s: no weight named %s", game, name);
    void *st = tl_position(game, NULL, setup, NULL);
    EvalTerm *terms = malloc(sizeof *terms * EVAL_MAX_TERMS);
    assert_non_null(terms);
    double base, c = 0;
    int n = t->terms(st, terms, &base);
    for (int i = 0; i < n; i++)
        if (!strcmp(t->names[terms[i].index], name))
            c += terms[i].coef;
    free(terms);
    free(st);
    return c;
}

static inline int tl_cmp_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* A game's n moves mv at st, in its notation, against the k texts
 * slow[0..k-1] (each w bytes) of a second, slow generator written for
 * the test: the same set, or the test fails naming the first difference,
 * label (the options) and where (the position). Sorts slow in place. */
static inline void tl_same_moves(const GameVtbl *g, const void *st,
                                 const Move *mv, int n, char *slow, int k,
                                 size_t w, const char *label,
                                 const char *where)
{
    char *fast = malloc(w * (size_t)(n > 0 ? n : 1));
    assert_non_null(fast);
    for (int i = 0; i < n; i++)
        assert_true(g->move_to_text(st, mv[i], fast + w * (size_t)i, w) > 0);
    qsort(fast, (size_t)n, w, tl_cmp_text);
    qsort(slow, (size_t)k, w, tl_cmp_text);
    if (n != k)
        fail_msg("%s: %d moves, slow %d on %s", label, n, k, where);
    for (int i = 0; i < n; i++)
        if (strcmp(fast + w * (size_t)i, slow + w * (size_t)i))
            fail_msg("%s: move %s vs slow %s on %s", label,
                     fast + w * (size_t)i, slow + w * (size_t)i, where);
    free(fast);
}

/* One of the n moves mv at st for a random game: uniform, but half the
 * time the first that the game's heuristic rates 1000 or more (its
 * captures, conversions), so that random games see many of them. */
static inline Move tl_lively_move(const GameVtbl *g, const void *st,
                                  const Move *mv, int n, Rng *r)
{
    Move m = mv[rng_below(r, (uint32_t)n)];
    if (rng_below(r, 2))
        for (int i = 0; i < n; i++)
            if (g->heuristic(st, mv[i]) >= 1000)
                return mv[i];
    return m;
}

/* Whether the slow environment variable asks for the deep tests. */
static inline int tl_slow(void)
{
    const char *s = getenv("PLY_SLOW");
    return s && *s && strcmp(s, "0");
}

/* Per-test times: a test registered as tl_timed_test(f) prints
 * "time f: C s CPU, W s wall" to stderr when it ends (the state it gets
 * is the timer: for tests that ignore their state). */
typedef struct TlTimer {
    const char *name;
    struct timespec cpu, wall;
} TlTimer;

#define tl_timed_test(f)                                                \
    cmocka_unit_test_prestate_setup_teardown(f, tl_time_start,         \
                                             tl_time_end, (void *)#f)

static inline int tl_time_start(void **state)
{
    TlTimer *t = malloc(sizeof *t);
    if (!t)
        return -1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t->cpu);
    clock_gettime(CLOCK_MONOTONIC, &t->wall);
    t->name = *state;
    *state = t;
    return 0;
}

static inline double tl_since(clockid_t c, const struct timespec *a)
{
    struct timespec b;
    clock_gettime(c, &b);
    return (double)(b.tv_sec - a->tv_sec) + (b.tv_nsec - a->tv_nsec) * 1e-9;
}

static inline int tl_time_end(void **state)
{
    TlTimer *t = *state;
    fprintf(stderr, "time %s: %.2f s CPU, %.2f s wall\n", t->name,
            tl_since(CLOCK_PROCESS_CPUTIME_ID, &t->cpu),
            tl_since(CLOCK_MONOTONIC, &t->wall));
    free(t);
    return 0;
}

/* PLY_TEST_FILTER=PATTERN runs only the tests whose names match, and
 * PLY_TEST_SKIP=PATTERN leaves out those that match (cmocka's patterns:
 * * and ?); call before cmocka_run_group_tests. */
static inline void tl_filter(void)
{
    const char *f = getenv("PLY_TEST_FILTER");
    if (f && *f)
        cmocka_set_test_filter(f);
    const char *k = getenv("PLY_TEST_SKIP");
    if (k && *k)
        cmocka_set_skip_filter(k);
}

#endif
