/* test_draughts.c — the draughts family: every unique_moves perft row of
 * tests/data/draughts-perft.tsv for the variants Ply has (small counts in
 * `make test`, the rest under PLY_SLOW), and rule and notation checks. */
#include "testlib.h"
#include "tools/perft.h"

/* Rows above this many leaves run only under tl_slow(). */
enum { FAST_NODES = 1200000 };
static const uint64_t SLOW_NODES = 400000000ull;

static const struct {
    const char *tsv, *game;
} game_map[] = {
    {"russian", "draughts-russian"},
    {"international", "draughts-international"},
    {"english_checkers", "draughts-english"},
    {"brazilian", "draughts-brazilian"},
    {"pool", "draughts-pool"},
    {"frisian", "draughts-frisian"},
    {"turkish", "draughts-turkish"},
    {"czech", "draughts-czech"},
    {"thai", "draughts-thai"},
};

static const char *map_game(const char *tsv)
{
    for (size_t i = 0; i < sizeof game_map / sizeof game_map[0]; i++)
        if (!strcmp(game_map[i].tsv, tsv))
            return game_map[i].game;
    return NULL;
}

static FILE *open_tsv(void)
{
    const char *paths[] = {"tests/data/draughts-perft.tsv",
                           "../tests/data/draughts-perft.tsv",
                           "../../tests/data/draughts-perft.tsv"};
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(paths[i], "r");
        if (f)
            return f;
    }
    return NULL;
}

static void test_perft_oracle(void **state)
{
    (void)state;
    FILE *f = open_tsv();
    if (!f)
        fail_msg("cannot open tests/data/draughts-perft.tsv");
    char line[4096];
    int checked = 0, deferred = 0;
    uint64_t limit = tl_slow() ? SLOW_NODES : FAST_NODES;
    while (fgets(line, sizeof line, f)) {
        char *field[8];
        int nf = 0;
        char *p = line;
        line[strcspn(line, "\r\n")] = 0;
        while (nf < 8) {
            field[nf++] = p;
            p = strchr(p, '\t');
            if (!p)
                break;
            *p++ = 0;
        }
        if (nf < 5 || strcmp(field[4], "unique_moves"))
            continue;
        const char *game = map_game(field[0]);
        if (!game || !game_find(game))
            continue;
        int depth = atoi(field[2]);
        uint64_t want = strtoull(field[3], NULL, 10);
        if (want > limit) {
            deferred++;
            continue;
        }
        const char *setup = NULL;
        /* dctl counts Thai from the 12-man start, not the game's 8 men */
        if (!strcmp(field[0], "thai"))
            setup = "W:W21-32:B1-12";
        else if (strncmp(field[1], "initial", 7)) {
            setup = strchr(field[1], ' ');
            assert_non_null(setup);
            setup++;
        }
        /* the references ignore repetition (from AllKings it first draws
         * at depth 9) */
        void *st = tl_position(game, "repetition=0", setup, NULL);
        uint64_t got = perft(game_find(game), st, depth, 0);
        if (got != want)
            fail_msg("%s %s depth %d: %llu, oracle %llu", game, field[1],
                     depth, (unsigned long long)got,
                     (unsigned long long)want);
        free(st);
        checked++;
    }
    fclose(f);
    printf("checked %d perft rows (%d deeper ones %s)\n", checked, deferred,
           tl_slow() ? "above the slow limit" : "left for PLY_SLOW=1");
    assert_true(checked >= 8);
}

/* All legal moves of a position as text, space separated. */
static void moves_text(const GameVtbl *g, const void *st, char *buf,
                       size_t n)
{
    Move mv[1024];
    int k = g->gen_moves(st, mv);
    buf[0] = 0;
    for (int i = 0; i < k; i++) {
        char t[256];
        assert_true(g->move_to_text(st, mv[i], t, sizeof t) > 0);
        strncat(buf, i ? " " : "", n - strlen(buf) - 1);
        strncat(buf, t, n - strlen(buf) - 1);
    }
}

static void expect_moves(const char *game, const char *setup,
                         const char *want)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, setup, NULL);
    char buf[4096];
    moves_text(g, st, buf, sizeof buf);
    if (strcmp(buf, want))
        fail_msg("%s %s:\n  moves %s\n  want  %s", game, setup, buf, want);
    free(st);
}

static void expect_setup_after(const char *game, const char *setup,
                               const char *moves, const char *want)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, setup, moves);
    char buf[1024];
    assert_true(g->to_text(st, buf, sizeof buf) > 0);
    if (strcmp(buf, want))
        fail_msg("%s %s after %s:\n  got  %s\n  want %s", game, setup, moves,
                 buf, want);
    free(st);
}

static void expect_bad_setup(const char *game, const char *setup,
                             const char *pat)
{
    const GameVtbl *g = game_find(game);
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (!state_setup(g, st, NULL, setup, 1, &err))
        fail_msg("%s accepted bad setup '%s'", game, setup);
    if (!strstr(err.msg, pat))
        fail_msg("%s setup '%s': message '%s' lacks '%s'", game, setup,
                 err.msg, pat);
    free(st);
}

static void test_russian_rules(void **state)
{
    (void)state;
    /* a man crowned mid-capture goes on as a flying king */
    expect_moves("draughts-russian", "W:Wb6:Bc7,e7",
                 "b6:d8:h4 b6:d8:g5 b6:d8:f6");
    expect_setup_after("draughts-russian", "W:Wb6:Bc7,e7", "b6:d8:h4",
                       "B:WKh4:B");
    /* men capture in all four directions; jumped pieces block */
    expect_moves("draughts-russian", "W:Wd4:Bc3,e3,c5,e5",
                 "d4:f6 d4:b2 d4:b6 d4:f2");
    expect_moves("draughts-russian", "W:Wd4,Ka1:Bc3,e5,f6,c7", "d4:b2");
    /* the king lands only where it can go on capturing (e5, not f6-h8) */
    expect_moves("draughts-russian", "W:WKa1:Bb2,d4,f4,f2",
                 "a1:c3:e5:g3:e1");
    /* two orders of the same five captures ending on c3 are one move;
     * jumped pieces stay and cannot be jumped twice (Turkish strike) */
    expect_moves("draughts-russian", "W:WKa1:Bb2,d4,f4,f2,d2",
                 "a1:c3:e5:g3:e1:c3 a1:c3:e5:g3:e1:b4 a1:c3:e5:g3:e1:a5");
    /* a one-jump move and a longer capture share FROM and TO: the landing
     * squares given pick the move */
    expect_moves("draughts-russian", "W:WKd6:BKb8,g5,d2,Kb2,g3,b4",
                 "d6:a3:c1:e3:h6 d6:a3:c1:f4:h2 d6:h2");
    expect_setup_after("draughts-russian", "W:WKd6:BKb8,g5,d2,Kb2,g3,b4",
                       "d6:h2", "B:WKh2:BKb2,d2,b4,g5,Kb8");
    /* PDN numbers are accepted for squares and moves */
    expect_setup_after("draughts-russian", "W:W21-32:B1-12", "22-18",
                       "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,"
                       "a7,c7,e7,g7,b8,d8,f8,h8");
    /* a kings-only game draws after 30 quiet plies */
    const GameVtbl *g = game_find("draughts-russian");
    void *st = tl_position("draughts-russian", NULL, "W:WKa1:BKh8:H29",
                           NULL);
    assert_int_equal(g->to_move(st), 0);
    Move m;
    PlyError err;
    assert_int_equal(g->text_to_move(st, "a1-b2", &m, &err), 0);
    g->make(st, m);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] == 0 && r[1] == 0);
    free(st);
    /* no moves: a loss */
    st = tl_position("draughts-russian", NULL, "B:Wa1:Bb2,c3", NULL);
    assert_int_equal(g->to_move(st), 1);
    free(st);
    st = tl_position("draughts-russian", NULL, "W:Wa1:Bb2,c3", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, r);
    assert_true(r[0] == -1 && r[1] == 1);
    free(st);
}

/* Frisian: captures in eight directions, the value rule, and at most
 * three quiet moves in a row by one king while men remain. */
static void test_frisian_rules(void **state)
{
    (void)state;
    const char *game = "draughts-frisian";
    /* orthogonal man capture along row 5: e5 over c5 to a5 */
    expect_moves(game, "W:W28:B27", "28x26");
    /* value rule: a king (worth nearly two men) beats one man, and two
     * men beat one king */
    expect_moves(game, "W:W28:BK23,22", "28x19");
    expect_moves(game, "W:W28:BK23,22,11", "28x17x6");
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, "W:WK46,40:B3", NULL);
    Move m;
    PlyError err;
    const char *plies[] = {"46-41", "3-9", "41-46", "9-13", "46-41",
                           "13-18"};
    for (int i = 0; i < 6; i++) {
        if (g->text_to_move(st, plies[i], &m, &err))
            fail_msg("frisian: %s rejected: %s", plies[i], err.msg);
        g->make(st, m);
    }
    char buf[256];
    assert_true(g->to_text(st, buf, sizeof buf) > 0);
    assert_string_equal(buf, "W:W40,K41:B18:RW41/3");
    assert_int_not_equal(g->text_to_move(st, "41-46", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "40-35", &m, &err), 0);
    free(st);
    /* without men the king is free */
    st = tl_position(game, NULL, "W:WK41:B1:RW41/3", NULL);
    assert_int_equal(g->text_to_move(st, "41-46", &m, &err), 0);
    free(st);
}

/* International: a lone king against two kings draws after 5 moves each */
static void test_international_endgame(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("draughts-international");
    void *st = tl_position("draughts-international", NULL,
                           "W:WK46:BK5,K1:H9", NULL);
    Move m;
    PlyError err;
    assert_int_equal(g->to_move(st), 0);
    assert_int_equal(g->text_to_move(st, "46-41", &m, &err), 0);
    g->make(st, m);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
    /* with three kings the limit is 16 moves each */
    st = tl_position("draughts-international", NULL,
                     "W:WK46:BK5,K1,K2:H9", NULL);
    assert_int_equal(g->text_to_move(st, "46-41", &m, &err), 0);
    g->make(st, m);
    assert_int_equal(g->to_move(st), 1);
    free(st);
}

/* Turkish: orthogonal men (no backward capture), pieces removed at once
 * (the king crosses a3 again), most captures compulsory, 1 v 1 drawn. */
static void test_turkish_rules(void **state)
{
    (void)state;
    const char *game = "draughts-turkish";
    expect_moves(game, "W:Wd4:Bd5,c4,e4,d3", "d4:d6 d4:f4 d4:b4");
    expect_moves(game, "W:WKa1:Ba3,c4,d2,Kb1,a6",
                 "a1:a4:d4:d1:a1:a7 a1:a4:d4:d1:a1:a8");
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, "W:Wa2:Bh7", NULL);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] == 0 && r[1] == 0);
    free(st);
}

/* English: Black (first) starts on 1-12 at the top; men capture forward
 * only; kings are short. */
static void test_english_rules(void **state)
{
    (void)state;
    const char *game = "draughts-english";
    expect_setup_after(game, NULL, "11-15 22-18 15x22",
                       "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,"
                       "8,9,10,12,22");
    expect_moves(game, "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,"
                 "7,8,9,10,12,22", "26x17 25x18");
    expect_moves(game, "B:W15:B11", "11x18");
    expect_moves(game, "B:W7:B11", "11-15 11-16");
    expect_moves(game, "B:W15,23:BK11", "11x18x27");
    expect_moves(game, "B:W15,23,32:BK11", "11x18x27");
}

/* Czech: men capture forward only; a king's capture goes before a man's
 * (here the man's e3:g5 is not offered) */
static void test_czech_rules(void **state)
{
    (void)state;
    const char *game = "draughts-czech";
    expect_moves(game, "W:We3:Bf4,d2", "e3:g5");
    expect_moves(game, "W:We3,Ka1:Bf4,c3", "a1:e5:h2 a1:e5:g3");
    expect_moves(game, "W:We3,Ka1:Bf4", "e3:g5");
}

/* Thai: a king lands right behind the piece it takes; a jumped piece
 * leaves at once, and a king may turn straight back */
static void test_thai_rules(void **state)
{
    (void)state;
    const char *game = "draughts-thai";
    expect_moves(game, "W:WKa1:Bc3", "29x18");     /* a1xd4 only */
    expect_moves(game, "W:WKa1:Bc3,f6", "29x18x8");
    expect_moves(game, "W:W22:B18,19", "22x15");    /* never backward */
    /* pieces leave at once, so a king may turn straight back over the
     * emptied squares (d4xf6, then back over e5 and d4 to take c3) */
    expect_moves(game, "W:WKd4:Be5,c3", "18x11x25 18x25x11");
    expect_moves(game, "W:WKd4:Be5", "18x11");
    expect_setup_after(game, NULL, NULL,
                       "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8");
}

static void test_bad_input(void **state)
{
    (void)state;
    const char *game = "draughts-russian";
    expect_bad_setup(game, "X:Wa1:Bb8", "side to move");
    expect_bad_setup(game, "W:Wa1,a1:Bb8", "twice");
    expect_bad_setup(game, "W:Wa2:Bb8", "not a playing square");
    expect_bad_setup(game, "W:Wa1:Bb8,z9", "expected a square");
    expect_bad_setup(game, "W:W33:Bb8", "square number 33");
    expect_bad_setup(game, "W:Wb8:Ba1", "crowning row");
    expect_bad_setup(game, "W:Wa1", "both sides");
    expect_bad_setup(game, "W:Wa1:Bb8:H99", "H needs");
    expect_bad_setup(game, "W:W12-3:Bb8", "empty range");
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, NULL, NULL);
    Move m;
    PlyError err = {{0}};
    const char *bad[] = {"", "c3", "c3-c4", "c3-e5", "c3:e5", "i9-a1",
                         "c3-d4-e5", "c3--d4", "99-1", "c3-d4x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!g->text_to_move(st, bad[i], &m, &err))
            fail_msg("move '%s' accepted", bad[i]);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_oracle),
        cmocka_unit_test(test_russian_rules),
        cmocka_unit_test(test_frisian_rules),
        cmocka_unit_test(test_international_endgame),
        cmocka_unit_test(test_turkish_rules),
        cmocka_unit_test(test_english_rules),
        cmocka_unit_test(test_czech_rules),
        cmocka_unit_test(test_thai_rules),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
