/* test_draughts_repetition.c — threefold repetition in every draughts
 * game: kings shuffling draw on the third occurrence and not the second,
 * a progress move starts the count again, the drawn state survives its
 * setup string; and on many seeded random games with kings (biased to
 * undo their own last move, so positions come back often) the engine's
 * verdict is compared with a slow count that replays the game and
 * compares whole positions since the start. */
#include "testlib.h"

#include "core/rng.h"

typedef struct RepCase {
    const char *game;
    const char *setup;      /* kings that can shuffle without contact */
    const char *cycle;      /* four plies back to the setup position */
    int n;                  /* board side, for random setups */
    int all_squares;        /* Turkish: every square is playable */
} RepCase;

static const RepCase CASES[] = {
    {"draughts-russian", "W:WKa1:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2", 8, 0},
    {"draughts-brazilian", "W:WKa1:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2", 8, 0},
    {"draughts-pool", "W:WKa1:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2", 8, 0},
    {"draughts-czech", "W:WKa1:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2", 8, 0},
    {"draughts-thai", "W:WKa1:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2", 8, 0},
    {"draughts-english", "B:WKa1:BKh2", "h2-g1 a1-b2 g1-h2 b2-a1", 8, 0},
    {"draughts-international", "W:WKa1,Kj10:BKj2,Ka9",
     "a1-b2 j2-i1 b2-a1 i1-j2", 10, 0},
    {"draughts-frisian", "W:WKa1,Kj10:BKj2,Ka9", "a1-b2 j2-i1 b2-a1 i1-j2",
     10, 0},
    {"draughts-turkish", "W:WKa1,b2:BKh8,g7", "a1-b1 h8-g8 b1-a1 g8-h8", 8,
     1},
    {"draughts-bashni", "W:WKa1bb:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2", 8, 0},
    {"draughts-laska", "W:WKa1bb:BKg1", "a1-b2 g1-f2 b2-a1 f2-g1", 7, 0},
};
enum { NCASES = sizeof CASES / sizeof CASES[0] };

static void play(const GameVtbl *g, void *st, const char *moves)
{
    PlyError err = {{0}};
    if (state_play_moves(g, st, moves, &err))
        fail_msg("%s: %s", g->info.name, err.msg);
}

static int drawn_by_repetition(const GameVtbl *g, const void *st)
{
    char t[4096];
    assert_true(g->to_text(st, t, sizeof t) > 0);
    return strstr(t, ":3fold") != NULL;
}

static void expect_draw(const GameVtbl *g, const void *st, int want,
                        const char *when)
{
    int term = g->to_move(st) == PLAYER_TERMINAL;
    if (term != want || drawn_by_repetition(g, st) != want)
        fail_msg("%s %s: terminal %d, 3fold %d, want %d", g->info.name,
                 when, term, drawn_by_repetition(g, st), want);
    if (want) {
        double r[2];
        g->returns(st, r);
        assert_true(r[0] == 0 && r[1] == 0);
    }
}

/* Two cycles: the setup position comes back twice (its second and third
 * occurrence); the third ends the game in a draw that the setup string
 * carries into a rebuilt state. */
static void test_shuffle(void **state)
{
    (void)state;
    for (int i = 0; i < NCASES; i++) {
        const RepCase *c = &CASES[i];
        const GameVtbl *g = game_find(c->game);
        void *st = tl_position(c->game, NULL, c->setup, c->cycle);
        expect_draw(g, st, 0, "after one cycle");
        play(g, st, c->cycle);
        expect_draw(g, st, 1, "after two cycles");
        char t[4096];
        assert_true(g->to_text(st, t, sizeof t) > 0);
        void *st2 = tl_position(c->game, NULL, t, NULL);
        expect_draw(g, st2, 1, "rebuilt from its setup string");
        assert_true(g->hash(st2) == g->hash(st));
        free(st2);
        free(st);
        /* one ply short of the second cycle: no draw yet */
        char m[4][32];
        assert_int_equal(sscanf(c->cycle, "%31s %31s %31s %31s", m[0], m[1],
                                m[2], m[3]), 4);
        st = tl_position(c->game, NULL, c->setup, c->cycle);
        for (int k = 0; k < 3; k++)
            play(g, st, m[k]);
        expect_draw(g, st, 0, "after 7 plies");
        play(g, st, m[3]);
        expect_draw(g, st, 1, "after 8 plies");
        free(st);
    }
}

/* A man move or capture between the occurrences starts the count again. */
static void test_progress_resets(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("draughts-russian");
    /* man moves: c3-b4 and f8-e7 start a new count */
    void *st = tl_position("draughts-russian", NULL, "W:WKa1,c3:BKh2,f8",
                           "a1-b2 h2-g1 b2-a1 g1-h2 c3-b4 f8-e7");
    play(g, st, "a1-b2 h2-g1 b2-a1 g1-h2");
    expect_draw(g, st, 0, "after a man move and one more cycle");
    play(g, st, "a1-b2 h2-g1 b2-a1 g1-h2");
    expect_draw(g, st, 1, "after a man move and two more cycles");
    free(st);
    /* a capture: the black king takes a king, then the kings shuffle */
    st = tl_position("draughts-russian", NULL, "W:WKa1,Ke1:BKh2",
                     "a1-b2 h2-g1 b2-a1 g1-h2 e1-g3 h2:f4");
    play(g, st, "a1-b2 f4-g5 b2-a1 g5-f4 a1-b2 f4-g5 b2-a1");
    expect_draw(g, st, 0, "7 plies after a capture");
    play(g, st, "g5-f4");
    expect_draw(g, st, 1, "8 plies after a capture");
    free(st);
    /* Turkish: a man stepping sideways is a quiet move and may repeat */
    g = game_find("draughts-turkish");
    st = tl_position("draughts-turkish", NULL, "W:Wa2,h2:Ba7,h7",
                     "a2-b2 a7-b7 b2-a2 b7-a7 a2-b2 a7-b7 b2-a2");
    expect_draw(g, st, 0, "Turkish, 7 sideways plies");
    play(g, st, "b7-a7");
    expect_draw(g, st, 1, "Turkish, 8 sideways plies");
    free(st);
    /* ... but a forward step is progress */
    st = tl_position("draughts-turkish", NULL, "W:Wa2,h2:Ba7,h7",
                     "a2-b2 a7-b7 b2-a2 b7-a7 h2-h3 h7-h6 a2-b2 a7-b7 "
                     "b2-a2 b7-a7");
    expect_draw(g, st, 0, "Turkish, after forward steps");
    free(st);
}

/* Same squares, other pieces. Columns: two white king columns, one
 * holding a prisoner, trade squares in 12 plies and trade back in 12 more. The tops look the same all
 * along, but the setup position comes back only once (plies 0 and 24),
 * so the game goes on. */
static void test_same_squares(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("draughts-bashni");
    const char *swap = "a1-b2 h2-g1 b2-a3 g1-h2 c1-b2 h2-g1 b2-a1 g1-h2 "
                       "a3-b2 h2-g1 b2-c1 g1-h2";
    void *st = tl_position("draughts-bashni", NULL, "W:WKa1b,Kc1:BKh2",
                           swap);
    char t[512];
    assert_true(g->to_text(st, t, sizeof t) > 0);
    assert_string_equal(t, "W:WKa1,Kc1b:BKh2:H12:P12");
    play(g, st, swap);
    expect_draw(g, st, 0, "columns trading squares and back");
    free(st);
    /* Turkish: a man and a king trade squares (the man sideways) and
     * back: the same squares are taken all along, by other pieces */
    g = game_find("draughts-turkish");
    st = tl_position("draughts-turkish", NULL, "W:Wb2,Kc2:BKh8",
                     "c2-c3 h8-g8 b2-c2 g8-h8 c3-b3 h8-g8 b3-b2 g8-h8");
    assert_true(g->to_text(st, t, sizeof t) > 0);
    assert_string_equal(t, "W:WKb2,c2:BKh8:H8");
    play(g, st, "b2-b3 h8-g8 c2-b2 g8-h8 b3-c3 h8-g8 c3-c2 g8-h8");
    expect_draw(g, st, 0, "a man and a king trading squares and back");
    free(st);
}

/* ---- the slow count ---- */

/* The position part of a setup string: side to move and pieces, without
 * counters (H, P, R) or the 3fold mark. */
static void position_key(const GameVtbl *g, const void *st, char *key,
                         size_t n)
{
    char t[4096];
    assert_true(g->to_text(st, t, sizeof t) > 0);
    size_t k = 0;
    for (const char *p = t; *p && k + 1 < n;) {
        if (*p == ':' && p[1] != 'W' && p[1] != 'B') {
            while (*++p && *p != ':')
                ;
            continue;
        }
        key[k++] = *p++;
    }
    key[k] = 0;
}

static int playable(const RepCase *c, int col, int row)
{
    return c->all_squares || (col + row) % 2 == 0;
}

/* A random setup with 1-3 kings and 0-2 men a side (men off the crowning
 * rows; the game's parser is the judge of the rest). */
static void *random_position(const RepCase *c, Rng *r)
{
    const GameVtbl *g = game_find(c->game);
    void *st = state_alloc(g);
    for (;;) {
        char s[512], used[10][10] = {{0}};
        int len = snprintf(s, sizeof s, "%c", "WB"[rng_below(r, 2)]);
        for (int p = 0; p < 2; p++) {
            int kings = 1 + (int)rng_below(r, 3), men = (int)rng_below(r, 3);
            len += snprintf(s + len, sizeof s - (size_t)len, ":%c",
                            "WB"[p]);
            for (int i = 0; i < kings + men; i++) {
                int col, row;
                do {
                    col = (int)rng_below(r, (uint32_t)c->n);
                    row = (int)rng_below(r, (uint32_t)c->n);
                } while (!playable(c, col, row) || used[col][row] ||
                         (i >= kings && (row == 0 || row == c->n - 1)));
                used[col][row] = 1;
                len += snprintf(s + len, sizeof s - (size_t)len, "%s%s%c%d",
                                i ? "," : "", i < kings ? "K" : "",
                                'a' + col, row + 1);
            }
        }
        PlyError err = {{0}};
        if (!state_setup(g, st, NULL, s, 1, &err) &&
            g->to_move(st) != PLAYER_TERMINAL)
            return st;
    }
}

enum { MAX_PLIES = 300, KEY = 600 };

/* Plays one game; returns the plies played, adds 1 to *draws when it
 * ended by repetition. */
static int slow_game(const RepCase *c, Rng *r, char (*keys)[KEY],
                     int *draws)
{
    const GameVtbl *g = game_find(c->game);
    void *st = random_position(c, r);
    Move mv[1024], last[2] = {0, 0};
    int n = 0;
    for (;;) {
        position_key(g, st, keys[n], KEY);
        int seen = 0;
        for (int i = 0; i <= n; i++)
            seen += !strcmp(keys[i], keys[n]);
        int eng = drawn_by_repetition(g, st);
        if ((seen >= 3) != eng)
            fail_msg("%s: the position %s has occurred %d times, the engine "
                     "says %s", c->game, keys[n], seen,
                     eng ? "3fold" : "no 3fold");
        if (eng)
            ++*draws;
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL || n + 1 >= MAX_PLIES)
            break;
        int k = g->gen_moves(st, mv);
        Move m = mv[rng_below(r, (uint32_t)k)];
        /* often undo this side's last quiet move */
        Move back = (last[p] >> 6 & 63) | (last[p] & 63) << 6;
        if (last[p] && rng_below(r, 4) < 3)
            for (int i = 0; i < k; i++)
                if (mv[i] == back)
                    m = back;
        last[p] = m >> 12 ? 0 : m;  /* captures and crowning: no undo */
        g->make(st, m);
        n++;
    }
    free(st);
    return n;
}

static void test_slow_count(void **state)
{
    (void)state;
    char (*keys)[KEY] = malloc(sizeof *keys * MAX_PLIES);
    int games = tl_slow() ? 10000 : 1500;
    for (int i = 0; i < NCASES; i++) {
        Rng r;
        rng_seed(&r, 4242 + (uint64_t)i);
        int draws = 0;
        long plies = 0;
        for (int gi = 0; gi < games; gi++)
            plies += slow_game(&CASES[i], &r, keys, &draws);
        printf("%s: %d games, %ld plies, %d drawn by repetition\n",
               CASES[i].game, games, plies, draws);
        assert_true(draws >= games / 50);
    }
    free(keys);
}

/* repetition=false: the same shuffle goes on (the perft references). */
static void test_option_off(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("draughts-russian");
    void *st = tl_position("draughts-russian", "repetition=false",
                           "W:WKa1:BKh2", "a1-b2 h2-g1 b2-a1 g1-h2 a1-b2 "
                           "h2-g1 b2-a1 g1-h2");
    assert_int_equal(g->to_move(st), 0);
    assert_false(drawn_by_repetition(g, st));
    PlyError err = {{0}};
    assert_int_not_equal(state_setup(g, st, "repetition=false",
                                     "W:WKa1:BKh2:3fold", 1, &err), 0);
    assert_non_null(strstr(err.msg, "repetition"));
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_progress_resets),
        cmocka_unit_test(test_same_squares),
        cmocka_unit_test(test_slow_count),
        cmocka_unit_test(test_option_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
