/* test_layout.c — the layout hook (game.h, core/layout.h) of every
 * registered game, over seeded random games: cells inside the drawing,
 * names unique, every legal move located on valid cells, moves told apart
 * by their cells and choice (or by their text when they touch no cell),
 * and the notation of each move read back to the same move; at the end
 * of each game, end_reason() (when the game has it) says why. A game
 * without the hook gets the page's text view and is only counted. Also
 * the notation matcher on hand-made layouts. */
#include "testlib.h"

#include "core/layout.h"

enum { GAMES = 6, MAX_PLIES = 200 };

static void check_layout(const GameVtbl *g, const void *st, Layout *l,
                         const char *where)
{
    memset(l, 0, sizeof *l);
    if (g->layout(st, l))
        fail_msg("%s: layout() failed", where);
    if (l->ncells < 1 || l->ncells > LAYOUT_MAX_CELLS)
        fail_msg("%s: %d cells", where, l->ncells);
    if (!(l->width > 0 && l->height > 0))
        fail_msg("%s: empty drawing %gx%g", where, l->width, l->height);
    for (int i = 0; i < l->ncells; i++) {
        const LayoutCell *c = &l->cells[i];
        if (!(c->x >= 0 && c->x <= l->width && c->y >= 0 &&
              c->y <= l->height))
            fail_msg("%s: cell %d (%s) at %g,%g outside %gx%g", where, i,
                     c->name, c->x, c->y, l->width, l->height);
        if (c->shape > CELL_TILE || c->shade > SHADE_TAVERN)
            fail_msg("%s: cell %d has shape %d shade %d", where, i,
                     c->shape, c->shade);
        if ((c->glyph[0] || c->count) && (c->owner < -1 ||
                                         c->owner >= g->info.num_players))
            fail_msg("%s: cell %d owner %d", where, i, c->owner);
        if (!memchr(c->name, 0, sizeof c->name) ||
            !memchr(c->glyph, 0, sizeof c->glyph) ||
            !memchr(c->stack, 0, sizeof c->stack) ||
            !memchr(c->label, 0, sizeof c->label))
            fail_msg("%s: cell %d has an unterminated string", where, i);
        if (c->name[0] && layout_find(l, c->name) != i)
            fail_msg("%s: two cells are named '%s'", where, c->name);
    }
    for (int i = 0; i < l->nlines; i++)
        for (int k = 0; k < 4; k++)
            if (!(l->lines[i][k] >= 0 &&
                  l->lines[i][k] <= (k % 2 ? l->height : l->width)))
                fail_msg("%s: line %d leaves the drawing", where, i);
}

typedef struct Key {
    MoveCells mc;
    char text[128];
} Key;

static int same_place(const Key *a, const Key *b)
{
    if (a->mc.n == 0 || b->mc.n == 0)
        return a->mc.n == 0 && b->mc.n == 0 && !strcmp(a->text, b->text);
    return a->mc.n == b->mc.n &&
           !memcmp(a->mc.cells, b->mc.cells, sizeof(int) * (size_t)a->mc.n) &&
           !strcmp(a->mc.choice, b->mc.choice) &&
           !strcmp(a->mc.drop, b->mc.drop);
}

static void check_moves(const GameVtbl *g, const void *st, const Layout *l,
                        Move *mv, Key *keys, const char *where,
                        int *located)
{
    int n = g->gen_moves(st, mv);
    for (int i = 0; i < n; i++) {
        Key *k = &keys[i];
        if (g->move_to_text(st, mv[i], k->text, sizeof k->text) < 0)
            fail_msg("%s: move %d has no text", where, i);
        Move back;
        PlyError err = {{0}};
        if (g->text_to_move(st, k->text, &back, &err) || back != mv[i])
            fail_msg("%s: '%s' does not read back (%s)", where, k->text,
                     err.msg);
        if (layout_move_cells(g, st, l, mv[i], &k->mc))
            fail_msg("%s: '%s' cannot be located", where, k->text);
        if (k->mc.n < 0 || k->mc.n > MOVE_MAX_CELLS)
            fail_msg("%s: '%s' has %d cells", where, k->text, k->mc.n);
        for (int c = 0; c < k->mc.n; c++)
            if (k->mc.cells[c] < 0 || k->mc.cells[c] >= l->ncells)
                fail_msg("%s: '%s' cell %d is %d of %d", where, k->text, c,
                         k->mc.cells[c], l->ncells);
        if (k->mc.n)
            (*located)++;
        for (int j = 0; j < i; j++)
            if (same_place(&keys[j], k))
                fail_msg("%s: '%s' and '%s' look the same on the board",
                         where, keys[j].text, k->text);
    }
}

static void test_game(void **state)
{
    const GameVtbl *g = *state;
    if (!g->layout) {
        print_message("%s: no layout hook (the page shows text)\n",
                      g->info.name);
        return;
    }
    Move *mv = malloc(sizeof *mv * (size_t)g->info.max_moves);
    Key *keys = malloc(sizeof *keys * (size_t)g->info.max_moves);
    Layout *l = malloc(sizeof *l);
    void *st = state_alloc(g);
    assert_non_null(mv);
    assert_non_null(keys);
    assert_non_null(l);
    int located = 0, positions = 0;
    for (uint64_t seed = 1; seed <= GAMES; seed++) {
        PlyError err = {{0}};
        if (state_setup(g, st, NULL, NULL, seed, &err))
            fail_msg("%s: %s", g->info.name, err.msg);
        Rng r;
        rng_seed(&r, seed * 7919);
        for (int ply = 0; ply <= MAX_PLIES; ply++) {
            char where[128];
            snprintf(where, sizeof where, "%s seed %llu ply %d",
                     g->info.name, (unsigned long long)seed, ply);
            check_layout(g, st, l, where);
            positions++;
            int who = g->to_move(st);
            if (who == PLAYER_TERMINAL) {
                /* a game that says why its games end says it for each */
                if (g->end_reason && !g->end_reason(st))
                    fail_msg("%s: over, and end_reason() says nothing",
                             where);
                break;
            }
            int n;
            if (who == PLAYER_CHANCE) {
                double p[4096];
                if (g->info.max_moves > 4096)
                    fail_msg("%s: too many outcomes", where);
                n = g->chance_outcomes(st, mv, p);
            } else {
                check_moves(g, st, l, mv, keys, where, &located);
                n = g->gen_moves(st, mv);
            }
            assert_true(n > 0);
            g->make(st, mv[rng_below(&r, (uint64_t)n)]);
        }
    }
    print_message("%s: %d positions, %d moves located\n", g->info.name,
                  positions, located);
    free(st);
    free(l);
    free(keys);
    free(mv);
}

/* The matcher on a made-up layout: longest names, separators, drops and
 * choices, moves without cells. */
static int fake_text(const void *st, Move m, char *buf, size_t n)
{
    static const char *const t[] = {"a1-a10", "P*b2", "a1a10q", "pass",
                                    "a1:b2:a10"};
    (void)st;
    return snprintf(buf, n, "%s", t[m]);
}

static void test_matcher(void **state)
{
    (void)state;
    static Layout l;
    memset(&l, 0, sizeof l);
    l.width = l.height = 10;
    layout_cell(&l, 0.5f, 0.5f, CELL_SQUARE, SHADE_LIGHT, "a1");
    layout_cell(&l, 0.5f, 9.5f, CELL_SQUARE, SHADE_LIGHT, "a10");
    layout_cell(&l, 1.5f, 1.5f, CELL_SQUARE, SHADE_LIGHT, "b2");
    layout_cell(&l, 5, 5, CELL_HAND, SHADE_DARK, "P*");
    assert_int_equal(layout_find(&l, "a10"), 1);
    assert_int_equal(layout_find(&l, "a"), -1);
    GameVtbl g;
    memset(&g, 0, sizeof g);
    g.move_to_text = fake_text;
    MoveCells mc;
    assert_int_equal(layout_move_cells(&g, NULL, &l, 0, &mc), 0);
    assert_int_equal(mc.n, 2);
    assert_int_equal(mc.cells[0], 0);
    assert_int_equal(mc.cells[1], 1);
    assert_string_equal(mc.choice, "");
    assert_int_equal(layout_move_cells(&g, NULL, &l, 1, &mc), 0);
    assert_int_equal(mc.n, 2);
    assert_int_equal(mc.cells[0], 3);
    assert_int_equal(mc.cells[1], 2);
    assert_int_equal(layout_move_cells(&g, NULL, &l, 2, &mc), 0);
    assert_int_equal(mc.n, 2);
    assert_string_equal(mc.choice, "q");
    assert_int_equal(layout_move_cells(&g, NULL, &l, 3, &mc), 0);
    assert_int_equal(mc.n, 0);
    assert_string_equal(mc.drop, "");
    assert_int_equal(layout_move_cells(&g, NULL, &l, 4, &mc), 0);
    assert_int_equal(mc.n, 3);
    assert_int_equal(mc.cells[2], 1);
    /* a full layout refuses more cells */
    for (int i = l.ncells; i < LAYOUT_MAX_CELLS; i++)
        assert_non_null(layout_cell(&l, 1, 1, CELL_SQUARE, SHADE_NONE, NULL));
    assert_null(layout_cell(&l, 1, 1, CELL_SQUARE, SHADE_NONE, NULL));
}

int main(void)
{
    int n = 0;
    while (ply_games[n])
        n++;
    struct CMUnitTest *tests = calloc((size_t)n + 1, sizeof *tests);
    char (*names)[96] = calloc((size_t)n + 1, sizeof *names);
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_matcher);
    for (int i = 0; i < n; i++) {
        snprintf(names[i + 1], sizeof names[i + 1], "layout %s",
                 ply_games[i]->info.name);
        tests[i + 1].name = names[i + 1];
        tests[i + 1].test_func = test_game;
        tests[i + 1].initial_state = (void *)ply_games[i];
    }
    int r = _cmocka_run_group_tests("layout", tests, (size_t)n + 1, NULL,
                                    NULL);
    free(tests);
    free(names);
    return r;
}
