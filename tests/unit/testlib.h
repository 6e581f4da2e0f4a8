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

#endif
