/* test_go_policy.c — Go's playout policy and tree priors: the 3x3
 * pattern table against the slow matcher of pat3.h and its symmetry
 * (rotations, reflections, colour swap), the capture and atari-escape
 * heuristics on hand positions, the last move read back from the
 * superko history, no own eye ever filled by a playout (random
 * positions), the priors on a capture, and the constant-time liberty
 * tests against a flood fill. */
#include "testlib.h"

#include "games/go/go.h"
#include "games/go/pat3.h"

/* code with the neighbours permuted by symmetry t, colours swapped when
 * sw */
static unsigned transform(unsigned code, int t, int sw)
{
    unsigned out = 0;
    for (int i = 0; i < 8; i++) {
        int dx = go_pat3_dx[i], dy = go_pat3_dy[i];
        go_pat3_sym(t, &dx, &dy);
        int v = go_pat3_cell(code, i);
        if (sw && (v == 1 || v == 2))
            v = 3 - v;
        out |= (unsigned)v << (2 * go_pat3_index(dx, dy));
    }
    return out;
}

static void test_pattern_table(void **state)
{
    (void)state;
    int n = 0;
    for (unsigned code = 0; code < 65536; code++) {
        int m = go_pat3_match(code);
        if (m != go_pat3_match_slow(code))
            fail_msg("code %04x: table %d, matcher %d", code, m,
                     go_pat3_match_slow(code));
        n += m;
        for (int t = 0; t < 8; t++)
            for (int sw = 0; sw < 2; sw++)
                if (go_pat3_match(transform(code, t, sw)) != m)
                    fail_msg("code %04x: symmetry %d swap %d differs", code,
                             t, sw);
    }
    assert_true(n > 100);
    assert_true(n < 65536 / 2);
    assert_int_equal(go_pat3_match(0), 0);   /* all empty */
    /* a hane: X O X above, the rest empty (top row: cells 0, 1, 2) */
    unsigned hane = 1u | 2u << 2 | 1u << 4;
    assert_int_equal(go_pat3_match(hane), 1);
    assert_int_equal(go_pat3_match(transform(hane, 5, 1)), 1);
}

static int point(const char *t)
{
    int x = t[0] - 'A' - (t[0] > 'I');
    return go_point(x, atoi(t + 1) - 1);
}

/* The policy's move over 200 seeds: how often it is `want`. */
static int policy_hits(const GoState *s, int want)
{
    int hits = 0, last = go_last_move(s);
    for (uint64_t seed = 1; seed <= 200; seed++) {
        Rng r;
        rng_seed(&r, seed);
        hits += go_policy_move(s, last, &r) == want;
    }
    return hits;
}

static void test_capture_and_escape(void **state)
{
    (void)state;
    /* the last placement comes back from the superko history */
    GoState *s = tl_position("go", "size=9,komi=7", NULL, "E4 E5 D5 E7");
    assert_int_equal(go_last_move(s), point("E7"));
    free(s);
    s = tl_position("go", "size=9,komi=7", NULL, "E4 pass");
    assert_int_equal(go_last_move(s), 0);
    free(s);
    /* White's last move E5 itself is in atari: Black captures at E6 */
    s = tl_position("go", "size=9,komi=7", NULL, "E4 A1 D5 A2 F5 E5");
    assert_int_equal(go_last_move(s), point("E5"));
    int h = policy_hits(s, point("E6"));
    if (h < 150)
        fail_msg("capture at E6 chosen %d of 200 times", h);
    free(s);
    /* escape: Black E5 in atari (White D5 F5 E6), White just played E6;
     * extending to E4 gives Black three liberties */
    s = tl_position("go", "size=9,komi=7", NULL, "E5 D5 A1 F5 A2 E6");
    h = policy_hits(s, point("E4"));
    if (h < 150)
        fail_msg("escape at E4 chosen %d of 200 times", h);
    free(s);
    /* no escape: extending Black E5 to E4 would leave two stones with
     * the one liberty E3 (White D4 F4 D5 F5 E6), so the policy does not */
    s = tl_position("go", "size=9,komi=7", NULL,
                    "E5 D4 A1 F4 A2 D5 A3 F5 A4 E6");
    h = policy_hits(s, point("E4"));
    if (h != 0)
        fail_msg("a self-atari escape at E4 chosen %d of 200 times", h);
    free(s);
}

static void test_no_own_eye(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("go");
    assert_non_null(g);
    assert_non_null(g->playout_log);
    void *st = tl_position("go", "size=9,komi=7", NULL, NULL);
    void *cp = state_alloc(g);
    Move log[700];
    int8_t pl[700];
    Rng r;
    rng_seed(&r, 7);
    int checked = 0;
    for (int game = 0; game < 60; game++) {
        /* a random start: some uniform moves from the empty board */
        memcpy(cp, st, g->info.state_size);
        Move ms[400];
        int pre = (int)rng_below(&r, 40);
        for (int i = 0; i < pre && g->to_move(cp) >= 0; i++) {
            int k = g->gen_moves(cp, ms);
            g->make(cp, ms[rng_below(&r, (uint32_t)k)]);
        }
        if (g->to_move(cp) < 0)
            continue;
        unsigned char start[sizeof(GoState)];
        memcpy(start, cp, sizeof start);
        int n = g->playout_log(cp, &r, log, pl, 700);
        assert_true(g->to_move(cp) < 0);
        /* replay the logged moves: none fills the mover's own eye */
        GoState *s = (GoState *)start;
        for (int i = 0; i < n; i++) {
            assert_int_equal(pl[i], s->side);
            if (log[i] != GO_PASS) {
                if (go_is_eye(s, (int)log[i], s->side + 1))
                    fail_msg("game %d move %d fills an own eye", game, i);
                assert_int_equal(s->color[log[i]], GO_EMPTY);
                checked++;
            }
            g->make(s, log[i]);
        }
    }
    assert_true(checked > 1000);
    free(cp);
    free(st);
}

/* Flood fill from stone p over color[] (marks in seen[]): the group's
 * stones and distinct liberties. */
static void flood(const uint8_t *color, int p, int *stones, int *libs)
{
    uint8_t seen[GO_PTS];
    int stack[GO_PTS], sp = 0, c = color[p];
    memset(seen, 0, sizeof seen);
    *stones = 0;
    *libs = 0;
    seen[p] = 1;
    stack[sp++] = p;
    static const int dir[4] = {1, -1, GO_STRIDE, -GO_STRIDE};
    while (sp) {
        int q = stack[--sp];
        (*stones)++;
        for (int d = 0; d < 4; d++) {
            int t = q + dir[d];
            if (seen[t])
                continue;
            if (color[t] == GO_EMPTY) {
                seen[t] = 1;
                (*libs)++;
            } else if (color[t] == c) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    }
}

/* go_in_atari and go_libs_after against a flood fill at every point of
 * positions from random games on 9x9 and 19x19 (with the incremental
 * liberty sums after captures and merges). */
static void test_liberties_vs_flood(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("go");
    static const char *const opts[] = {"size=9", "size=19", "size=5"};
    Rng r;
    rng_seed(&r, 11);
    long atari = 0, after = 0;
    for (int o = 0; o < 3; o++) {
        void *st = tl_position("go", opts[o], NULL, NULL);
        void *cp = state_alloc(g);
        for (int game = 0; game < 12; game++) {
            memcpy(cp, st, g->info.state_size);
            Move ms[400];
            for (int ply = 0; ply < 300 && g->to_move(cp) >= 0; ply++) {
                GoState *s = cp;
                for (int p = 0; p < GO_PTS; p++) {
                    int c = s->color[p];
                    if (c == GO_BLACK || c == GO_WHITE) {
                        int stones, libs, lib = -1;
                        flood(s->color, p, &stones, &libs);
                        int a = go_in_atari(s, p, &lib);
                        if (a != (libs == 1))
                            fail_msg("%s ply %d: atari at %d is %d, "
                                     "flood %d liberties", opts[o], ply, p,
                                     a, libs);
                        if (a) {
                            assert_int_equal(s->color[lib], GO_EMPTY);
                            int adj = 0;
                            for (int q = 0; q < GO_PTS; q++)
                                if (s->color[q] == c && s->root[q] ==
                                    s->root[p])
                                    adj |= q + 1 == lib || q - 1 == lib ||
                                           q + GO_STRIDE == lib ||
                                           q - GO_STRIDE == lib;
                            assert_true(adj);
                            atari++;
                        }
                    } else if (c == GO_EMPTY) {
                        for (int col = GO_BLACK; col <= GO_WHITE; col++) {
                            uint8_t color[GO_PTS];
                            memcpy(color, s->color, sizeof color);
                            color[p] = (uint8_t)col;
                            int stones, libs, size = -1;
                            flood(color, p, &stones, &libs);
                            int n = go_libs_after(s, p, col, &size);
                            int want = libs < 2 ? libs : 2;
                            if (n != want || (n < 2 && size != stones))
                                fail_msg("%s ply %d: libs_after at %d "
                                         "colour %d is %d size %d, flood %d "
                                         "size %d", opts[o], ply, p, col, n,
                                         size, libs, stones);
                            after++;
                        }
                    }
                }
                int k = g->gen_moves(cp, ms);
                g->make(cp, ms[rng_below(&r, (uint32_t)k)]);
            }
        }
        free(cp);
        free(st);
    }
    assert_true(atari > 1000);
    assert_true(after > 100000);
}

static void test_priors(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("go");
    assert_non_null(g->priors);
    GoState *s = tl_position("go", "size=9,komi=7", NULL, "E4 A1 D5 A2 F5 E5");
    Move ms[100];
    int visits[100], wins[100];
    int n = g->gen_moves(s, ms);
    g->priors(s, ms, n, visits, wins);
    int cap = -1, first = -1;
    for (int i = 0; i < n; i++) {
        assert_true(visits[i] > 0);
        assert_true(wins[i] >= 0 && wins[i] <= visits[i]);
        if ((int)ms[i] == point("E6"))
            cap = i;
        if ((int)ms[i] == point("J9"))
            first = i;
    }
    assert_true(cap >= 0 && first >= 0);
    /* the capture is rated above an even move, the corner below */
    assert_true(2 * wins[cap] > visits[cap]);
    assert_true(2 * wins[first] < visits[first]);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_table),
        cmocka_unit_test(test_capture_and_escape),
        cmocka_unit_test(test_no_own_eye),
        cmocka_unit_test(test_priors),
        cmocka_unit_test(test_liberties_vs_flood),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
