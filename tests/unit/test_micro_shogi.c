/* test_micro_shogi.c — micro shogi: perft against the Fairy-Stockfish
 * table (tests/data/chesslike-perft.tsv) and against fairy-stockfish
 * itself, run live on positions reached by seeded random play (when the
 * program is installed; the test says so when it is not); the generator
 * against the move parser's second legality path; the flip on capture,
 * drops either face up, the rules chosen (no nifu, pawn-drop mate
 * allowed, no dead squares); setup and move errors. */
#include <unistd.h>

#include "testlib.h"
#include "core/rng.h"
#include "tools/perft.h"

#define FSF "/usr/games/fairy-stockfish"

static const GameVtbl *micro(void)
{
    const GameVtbl *g = game_find("micro-shogi");
    assert_non_null(g);
    return g;
}

/* ---- perft: the oracle table ---- */

static void test_perft_oracle(void **state)
{
    (void)state;
    const char *paths[] = {"tests/data/chesslike-perft.tsv",
                           "../tests/data/chesslike-perft.tsv"};
    FILE *f = NULL;
    for (int i = 0; i < 2 && !f; i++)
        f = fopen(paths[i], "r");
    if (!f)
        fail_msg("cannot open tests/data/chesslike-perft.tsv");
    const GameVtbl *g = micro();
    void *st = tl_position("micro-shogi", NULL, NULL, NULL);
    char line[2048];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char *save = NULL, *v = strtok_r(line, "\t", &save);
        char *pos = strtok_r(NULL, "\t", &save);
        char *d = strtok_r(NULL, "\t", &save);
        char *k = strtok_r(NULL, "\t", &save);
        if (!v || !pos || !d || !k || strcmp(v, "micro"))
            continue;
        /* the table lists the start position only (FSF's FEN of it) */
        assert_string_equal(pos, "startpos kb+r+l/p3/4/3P/+L+RBK[] w - - 0 1");
        uint64_t want = strtoull(k, NULL, 10);
        assert_int_equal(perft(g, st, atoi(d), 0), want);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 5);
    free(st);
}

/* ---- perft: fairy-stockfish live ---- */

/* Positions reached by seeded random play (not over), as SFEN. */
static int random_positions(char (*out)[128], int max, uint64_t seed)
{
    const GameVtbl *g = micro();
    Move mv[600];
    int n = 0;
    for (int game = 0; n < max; game++) {
        void *st = tl_position("micro-shogi", NULL, NULL, NULL);
        Rng r;
        rng_seed(&r, seed + (uint64_t)game);
        int stop = 4 + (int)rng_below(&r, 40);
        for (int ply = 0; ply < stop && g->to_move(st) != PLAYER_TERMINAL;
             ply++) {
            int k = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)k)]);
        }
        if (g->to_move(st) != PLAYER_TERMINAL) {
            assert_true(g->to_text(st, out[n], sizeof out[n]) > 0);
            n++;
        }
        free(st);
    }
    return n;
}

/* Runs fairy-stockfish (USI, variant micro) on the positions at the
 * depth; counts[i] = its perft of position i. Returns 0, or -1 when the
 * program is not installed. */
static int fsf_perft(char (*pos)[128], int n, int depth, uint64_t *counts)
{
    if (access(FSF, X_OK))
        return -1;
    char in[] = "/tmp/ply-micro-fsf-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "usi\nsetoption name UCI_Variant value micro\n");
    for (int i = 0; i < n; i++) {
        /* the move number field is Ply's; FSF reads it too */
        fprintf(f, "position sfen %s\ngo perft %d\n", pos[i], depth);
    }
    fprintf(f, "quit\n");
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "timeout 600 %s < %s 2>&1", FSF, in);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[512];
    int k = 0;
    while (fgets(line, sizeof line, p))
        if (!strncmp(line, "Nodes searched: ", 16) && k < n)
            counts[k++] = strtoull(line + 16, NULL, 10);
    pclose(p);
    unlink(in);
    assert_int_equal(k, n);
    return 0;
}

static void live_compare(int npos, int depth, uint64_t seed)
{
    const GameVtbl *g = micro();
    char (*pos)[128] = malloc(sizeof *pos * (size_t)npos);
    uint64_t *want = malloc(sizeof *want * (size_t)npos);
    assert_int_equal(random_positions(pos, npos, seed), npos);
    if (fsf_perft(pos, npos, depth, want)) {
        print_message("fairy-stockfish not installed at " FSF
                      ": the live perft comparison did not run "
                      "(scripts/install-deps.sh installs it)\n");
        free(pos);
        free(want);
        return;
    }
    uint64_t total = 0;
    for (int i = 0; i < npos; i++) {
        void *st = tl_position("micro-shogi", NULL, pos[i], NULL);
        uint64_t got = perft(g, st, depth, 0);
        if (got != want[i])
            fail_msg("perft %d of '%s': Ply %llu, fairy-stockfish %llu",
                     depth, pos[i], (unsigned long long)got,
                     (unsigned long long)want[i]);
        total += got;
        free(st);
    }
    print_message("micro-shogi: perft %d equal to fairy-stockfish on %d "
                  "random positions (%llu leaves)\n", depth, npos,
                  (unsigned long long)total);
    free(pos);
    free(want);
}

static void test_perft_live(void **state)
{
    (void)state;
    if (tl_slow()) {
        live_compare(200, 4, 1000);
        live_compare(40, 5, 5000);
    } else {
        live_compare(30, 3, 1000);
    }
}

/* ---- the generator against the parser's legality path ---- */

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

/* Every text that could name a move (origin/destination pairs with no
 * mark, '+' and '-'; drops of B R L P, either face) is accepted exactly
 * when it names a generated move; the marked and unmarked forms of a
 * capture name the same move. */
static void cross_check(const GameVtbl *g, const void *st)
{
    Move mv[600];
    int n = g->gen_moves(st, mv);
    qsort(mv, (size_t)n, sizeof(Move), cmp_move);
    int found[600] = {0};
    PlyError err;
    char t[8];
    for (int f = 0; f <= 20; f++)
        for (int to = 0; to < 20; to++)
            for (int k = 0; k < (f < 20 ? 3 : 8); k++) {
                int len = 0;
                if (f < 20) {
                    if (f == to)
                        continue;
                    t[len++] = (char)('0' + 4 - f % 4);
                    t[len++] = (char)('a' + f / 4);
                } else {
                    if (k & 1)
                        t[len++] = '+';
                    t[len++] = "BRLP"[k / 2];
                    t[len++] = '*';
                }
                t[len++] = (char)('0' + 4 - to % 4);
                t[len++] = (char)('a' + to / 4);
                if (f < 20 && k)
                    t[len++] = k == 1 ? '+' : '-';
                t[len] = 0;
                Move m;
                if (g->text_to_move(st, t, &m, &err))
                    continue;
                Move *hit = bsearch(&m, mv, (size_t)n, sizeof(Move),
                                    cmp_move);
                if (!hit) {
                    char p[256];
                    g->to_text(st, p, sizeof p);
                    fail_msg("'%s' accepted but not generated at %s", t, p);
                }
                found[hit - mv] = 1;
                /* the move's own text reads back as the same move */
                char own[16];
                Move back;
                assert_true(g->move_to_text(st, m, own, sizeof own) > 0);
                assert_int_equal(g->text_to_move(st, own, &back, &err), 0);
                assert_true(back == m);
            }
    for (int i = 0; i < n; i++)
        if (!found[i]) {
            char p[256], mt[16];
            g->to_text(st, p, sizeof p);
            g->move_to_text(st, mv[i], mt, sizeof mt);
            fail_msg("'%s' generated but no text names it at %s", mt, p);
        }
}

static void test_cross_check(void **state)
{
    (void)state;
    const GameVtbl *g = micro();
    Move mv[600];
    int games = tl_slow() ? 2000 : 150, positions = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position("micro-shogi", NULL, NULL, NULL);
        Rng r;
        rng_seed(&r, 300 + (uint64_t)gi);
        for (int ply = 0; g->to_move(st) != PLAYER_TERMINAL && ply < 200;
             ply++) {
            if (ply % 3 == gi % 3) {
                cross_check(g, st);
                positions++;
            }
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            assert_int_equal(g->check(st), 0);
        }
        free(st);
    }
    assert_true(positions > games);
}

/* ---- rules ---- */

static void expect_moves(const char *setup, const char *moves, int count)
{
    const GameVtbl *g = micro();
    void *st = tl_position("micro-shogi", NULL, setup, moves);
    Move mv[600];
    assert_int_equal(g->gen_moves(st, mv), count);
    free(st);
}

static int legal(const char *setup, const char *move)
{
    const GameVtbl *g = micro();
    void *st = tl_position("micro-shogi", NULL, setup, NULL);
    Move m;
    PlyError err;
    int ok = g->text_to_move(st, move, &m, &err) == 0;
    free(st);
    return ok;
}

static void expect_text(const char *setup, const char *moves,
                        const char *want)
{
    const GameVtbl *g = micro();
    void *st = tl_position("micro-shogi", NULL, setup, moves);
    char buf[256];
    assert_true(g->to_text(st, buf, sizeof buf) > 0);
    assert_string_equal(buf, want);
    free(st);
}

static void test_flip_on_capture(void **state)
{
    (void)state;
    /* the bishop steps out; White's pawn takes it and turns into a
     * knight; White holds a bishop (the pair of bishop and tokin) */
    expect_text(NULL, "2e4c", "kb+r+l/p3/B3/3P/+L+R1K w - 2");
    expect_text(NULL, "2e4c 4b4c+", "kb+r+l/4/+p3/3P/+L+R1K b b 3");
    /* the knight captures the gold and turns back into a pawn, standing
     * on its last rank; the gold goes to hand as R (its pair's letter) */
    expect_text(NULL, "2e4c 4b4c+ 1d1c 4c3e-",
                "kb+r+l/4/3P/4/+Lp1K b rb 5");
    /* the mark may be left out; a wrong mark is refused */
    expect_text(NULL, "2e4c 4b4c", "kb+r+l/4/+p3/3P/+L+R1K b b 3");
    assert_false(legal("kb+r+l/p3/B3/3P/+L+R1K w - 2", "4b4c-"));
    assert_true(legal("kb+r+l/p3/B3/3P/+L+R1K w - 2", "4b4c+"));
    assert_false(legal(NULL, "2e4c+"));
    assert_false(legal(NULL, "1d1c+"));
    /* the tokin (a flipped bishop) turns back into a bishop */
    expect_text("k3/4/1p2/1+B2/3K b - 1", "3d3c-", "k3/4/1B2/4/3K w P 2");
    /* the king never flips */
    expect_text("k3/4/4/2p1/3K b - 1", "1e2d", "k3/4/4/2K1/4 w P 2");
    assert_false(legal("k3/4/4/2p1/3K b - 1", "1e2d+"));
}

static void test_drops(void **state)
{
    (void)state;
    /* a pawn and a lance in hand: 18 empty squares, each either face:
     * 72 drops, 3 king moves */
    expect_moves("k3/4/4/4/3K b PL 1", NULL, 75);
    expect_text("k3/4/4/4/3K b PL 1", "+P*2c", "k3/4/2+P1/4/3K w L 2");
    expect_text("k3/4/4/4/3K b PL 1", "+L*2c", "k3/4/2+L1/4/3K w P 2");
    /* no dead squares: a pawn on the last rank, a knight on the last two */
    assert_true(legal("k3/4/4/4/3K b PL 1", "P*1a"));
    assert_true(legal("k3/4/4/4/3K b PL 1", "+P*1b"));
    assert_true(legal("k3/2P1/4/4/3K b - 1", "2b2a"));
    /* no nifu: a second pawn on a file */
    assert_true(legal("k3/4/4/2P1/3K b P 1", "P*2c"));
    /* a dropped pawn may mate */
    assert_true(legal("k3/2+L1/1+R2/4/3K b P 1", "P*4b"));
    {
        const GameVtbl *g = micro();
        void *st = tl_position("micro-shogi", NULL,
                               "k3/2+L1/1+R2/4/3K b P 1", "P*4b");
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        double ret[2];
        g->returns(st, ret);
        assert_true(ret[0] == 1 && ret[1] == -1);
        free(st);
    }
    /* nothing of the pair in hand, a bad letter, an occupied square */
    assert_false(legal("k3/4/4/4/3K b P 1", "B*2c"));
    assert_false(legal("k3/4/4/4/3K b P 1", "S*2c"));
    assert_false(legal("k3/4/4/4/3K b P 1", "P*4a"));
    assert_false(legal("k3/4/4/4/3K b p 1", "P*2c"));
}

static void test_bad_setups(void **state)
{
    (void)state;
    const GameVtbl *g = micro();
    void *st = state_alloc(g);
    const char *bad[] = {
        "kb+r+l/p3/4/3P/+L+RBG b - 1",    /* G is written +R */
        "kb+r+l/p3/4/3P/+L+RB+K b - 1",   /* the king has no reverse */
        "kb+r+l/p3/4/3P/+L+RBK b S 1",    /* hands by pair letter */
        "kb+r+l/p3/4/3P/+L+RBK b 2P 1",   /* three pawn pairs */
        "kb+r+l/p3/4/3P/+L+RBKK b - 1",   /* a rank too long */
        "kb+r+l/p3/4/+L+RBK b - 1",       /* too few ranks */
        "4/4/4/4/3K b - 1",               /* no White king */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        PlyError err = {{0}};
        if (g->from_text(st, bad[i], &err) == 0)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_oracle),
        cmocka_unit_test(test_perft_live),
        cmocka_unit_test(test_cross_check),
        cmocka_unit_test(test_flip_on_capture),
        cmocka_unit_test(test_drops),
        cmocka_unit_test(test_bad_setups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
