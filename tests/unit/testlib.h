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
#include "core/setup.h"

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

/* PLY_TEST_FILTER=PATTERN runs only the tests whose names match (cmocka's
 * pattern: * and ?); call before cmocka_run_group_tests. */
static inline void tl_filter(void)
{
    const char *f = getenv("PLY_TEST_FILTER");
    if (f && *f)
        cmocka_set_test_filter(f);
}

#endif
