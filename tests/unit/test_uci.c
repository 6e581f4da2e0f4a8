/* test_uci.c — `ply uci` dialogues through uci_run() on memory streams:
 * handshake, position fen ... moves ..., go movetime / depth / infinite +
 * stop, go perft, variants, malformed lines (an info string each, never a
 * crash), quit. */
#include "testlib.h"

#include "proto/uci.h"

/* Runs a dialogue and returns what the engine wrote (free() it). */
static char *dialogue_with(int (*run)(FILE *, FILE *, const char *,
                                      uint64_t),
                           const char *bot, const char *script)
{
    FILE *in = fmemopen((void *)script, strlen(script), "r");
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    assert_non_null(in);
    assert_non_null(o);
    assert_int_equal(run(in, o, bot, 7), 0);
    fclose(in);
    fclose(o);
    return out;
}

static char *dialogue(const char *bot, const char *script)
{
    return dialogue_with(uci_run, bot, script);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The move after "bestmove " must be legal in `game` at fen + moves. */
static void expect_legal_bestmove(const char *out, const char *game,
                                  const char *fen, const char *moves)
{
    const char *b = strstr(out, "bestmove ");
    if (!b)
        fail_msg("no bestmove in:\n%s", out);
    char mv[32];
    if (sscanf(b + 9, "%31s", mv) != 1)
        fail_msg("empty bestmove");
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, fen, moves);
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, mv, &m, &err))
        fail_msg("bestmove %s is not legal: %s", mv, err.msg);
    free(st);
}

static void test_handshake(void **state)
{
    (void)state;
    char *out = dialogue("random", "uci\nisready\nquit\nisready\n");
    assert_non_null(strstr(out, "id name Ply"));
    assert_non_null(strstr(out, "option name UCI_Variant type combo"));
    assert_non_null(strstr(out, "var makruk"));
    assert_non_null(strstr(out, "uciok"));
    assert_int_equal(count(out, "readyok"), 1);   /* nothing after quit */
    free(out);
}

/* The bot's engine options (rows of its table with an engine name) are
 * spin options, and setoption on them reaches the bot: the spec shown by a
 * second `uci` carries them, a new bot keeps them where it has the row, a
 * bad value is refused and the spec stays as it was. */
static void test_engine_options(void **state)
{
    (void)state;
    char *out = dialogue("alphabeta",
                         "uci\nsetoption name Hash value 64\n"
                         "setoption name Threads value 2\nuci\n"
                         "position startpos\ngo depth 3\nisready\n"
                         "setoption name Threads value 999\nuci\n"
                         "setoption name Bot value mcts\nuci\n"
                         "setoption name Bot value random\n"
                         "setoption name Hash value 8\nuci\nquit\n");
    assert_non_null(strstr(out, "option name Hash type spin default 16 "
                                "min 0 max 65536"));
    assert_non_null(strstr(out, "option name Threads type spin default 1 "
                                "min 1 max 64"));
    assert_int_equal(count(out, "option name Bot type string default "
                                "alphabeta:hash=64,threads=2\n"), 2);
    assert_int_equal(count(out, "bestmove "), 1);
    assert_non_null(strstr(out, "out of range 1..64"));
    /* mcts has Hash (mem, MiB) and Threads rows: both carried over */
    assert_non_null(strstr(out, "option name Bot type string default "
                                "mcts:mem=64,threads=2\n"));
    /* random has neither: no engine options advertised, Hash refused */
    assert_non_null(strstr(out, "option name Bot type string default "
                                "random\nuciok"));
    assert_non_null(strstr(out, "unknown option 'Hash'"));
    free(out);
}

static void test_position_and_go(void **state)
{
    (void)state;
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/"
                      "R3K2R w KQkq - 0 1";
    char script[512];
    snprintf(script, sizeof script,
             "uci\nucinewgame\nposition fen %s moves e1g1 e8c8\n"
             "go movetime 50\nisready\nquit\n", fen);
    /* the default bot, whichever is registered */
    char *out = dialogue(NULL, script);
    assert_int_equal(count(out, "bestmove "), 1);
    expect_legal_bestmove(out, "chess", fen, "e1g1 e8c8");
    free(out);
    out = dialogue("random", "position startpos moves e2e4 e7e5 g1f3\n"
                   "go wtime 1000 btime 1000 winc 10 binc 10\nquit\n");
    expect_legal_bestmove(out, "chess", NULL, "e2e4 e7e5 g1f3");
    free(out);
    out = dialogue("random", "position startpos\ngo depth 1\nquit\n");
    expect_legal_bestmove(out, "chess", NULL, NULL);
    free(out);
}

static void test_infinite_and_stop(void **state)
{
    (void)state;
    char *out = dialogue(NULL, "position startpos\ngo infinite\nisready\n"
                         "go movetime 10\nposition startpos moves e2e4\n"
                         "stop\nstop\nquit\n");
    assert_int_equal(count(out, "bestmove "), 1);
    assert_int_equal(count(out, "readyok"), 1);
    /* a second go and a position while searching are refused */
    assert_true(count(out, "info string error") >= 2);
    expect_legal_bestmove(out, "chess", NULL, NULL);
    free(out);
    /* quit during an infinite search still answers and ends */
    out = dialogue(NULL, "position startpos\ngo infinite\nquit\n");
    assert_int_equal(count(out, "bestmove "), 1);
    free(out);
    /* EOF during a search */
    out = dialogue("random", "position startpos\ngo infinite\n");
    assert_int_equal(count(out, "bestmove "), 1);
    free(out);
}

static void test_variants_and_perft(void **state)
{
    (void)state;
    char *out = dialogue("random", "go perft 3\nquit\n");
    assert_non_null(strstr(out, "Nodes searched: 8902"));
    free(out);
    out = dialogue("random", "setoption name UCI_Variant value makruk\n"
                   "position startpos\ngo perft 4\n"
                   "position startpos moves e3e4\ngo movetime 20\nquit\n");
    assert_non_null(strstr(out, "Nodes searched: 273026"));
    expect_legal_bestmove(out, "makruk", NULL, "e3e4");
    free(out);
    out = dialogue("random", "setoption name UCI_Variant value shatranj\n"
                   "position startpos\ngo perft 4\nquit\n");
    assert_non_null(strstr(out, "Nodes searched: 68122"));
    free(out);
    /* a game that is over */
    out = dialogue("random", "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n"
                   "go movetime 10\nquit\n");
    assert_non_null(strstr(out, "bestmove 0000"));
    free(out);
}

static void test_garbage(void **state)
{
    (void)state;
    const char *script =
        "\n   \nfoo bar\nposition\nposition fen\nposition fen xx yy zz ww\n"
        "position startpos moves e2e5\nposition startpos junk\n"
        "position banana\ngo wtime\ngo wtime -5\ngo depth abc\ngo sideways\n"
        "go perft 0\nsetoption\nsetoption name\n"
        "setoption name UCI_Variant value janggi\n"
        "setoption name UCI_Variant\nsetoption name Hash value 16\n"
        "setoption name Bot value nosuchbot\n"
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 zz\n"
        "\x01\x02\xff\n"
        "position startpos moves e2e4\nisready\ngo movetime 5\nquit\n";
    char *out = dialogue("random", script);
    assert_true(count(out, "info string error") >= 18);
    assert_int_equal(count(out, "readyok"), 1);
    /* the last good position is the one searched */
    expect_legal_bestmove(out, "chess", NULL, "e2e4");
    free(out);
    /* a bad bot spec at the start is an error, not a crash */
    FILE *in = fmemopen((void *)"quit\n", 5, "r");
    char *o = NULL;
    size_t len = 0;
    FILE *of = open_memstream(&o, &len);
    assert_int_equal(uci_run(in, of, "nosuchbot", 1), 2);
    fclose(in);
    fclose(of);
    assert_non_null(strstr(o, "info string error"));
    free(o);
}

static void test_ucci(void **state)
{
    (void)state;
    char *out = dialogue_with(ucci_run, "random",
        "ucci\nisready\nposition startpos moves h2e2 h9g7\n"
        "go time 10 increment 1\nsetoption usemillisec true\n"
        "position fen 4k4/9/4P4/9/9/9/9/9/3R1R3/4K4 b - - 0 1\n"
        "go depth 2\nsetoption UCI_Variant chess\nuci\n"
        "position startpos moves h2e2 h9g7 zz\nposition startpos\n"
        "go infinite\nposition startpos moves b0c2\nstop\n"
        "quit\nisready\n");
    assert_non_null(strstr(out, "ucciok"));
    assert_int_equal(count(out, "readyok"), 1);
    assert_non_null(strstr(out, "nobestmove"));
    assert_int_equal(count(out, "bestmove "), 2);
    assert_true(count(out, "info string error") >= 3);
    assert_non_null(strstr(out, "bye"));
    expect_legal_bestmove(out, "xiangqi", NULL, "h2e2 h9g7");
    /* the last bestmove answers the infinite search from the start */
    const char *last = strstr(strstr(out, "bestmove ") + 1, "bestmove ");
    assert_non_null(last);
    expect_legal_bestmove(last, "xiangqi", NULL, NULL);
    free(out);
    /* UCCI does not speak UCI's variants */
    out = dialogue_with(ucci_run, "random",
                        "setoption name UCI_Variant value chess\nquit\n");
    assert_non_null(strstr(out, "info string error"));
    free(out);
    /* xiangqi over UCI counts ranks 1-10, as Fairy-Stockfish */
    out = dialogue("random", "setoption name UCI_Variant value xiangqi\n"
                   "position startpos moves h3e3 h10g8\ngo perft 1\n"
                   "position startpos moves h2e2\n"
                   "position startpos moves h3e3\ngo movetime 5\nquit\n");
    assert_non_null(strstr(out, "Nodes searched: 35"));
    assert_non_null(strstr(out, "e4e5: 1"));     /* e3e4 in Ply's terms */
    assert_int_equal(count(out, "info string error"), 1);   /* h2e2 */
    const char *b = strstr(out, "bestmove ");
    assert_non_null(b);
    char mv[16];
    int r1, r2;
    char f1, f2;
    assert_int_equal(sscanf(b + 9, "%15s", mv), 1);
    assert_int_equal(sscanf(mv, "%c%d%c%d", &f1, &r1, &f2, &r2), 4);
    assert_true(r1 >= 1 && r1 <= 10 && r2 >= 1 && r2 <= 10);
    char ply_mv[48];
    snprintf(ply_mv, sizeof ply_mv, "%c%d%c%d", f1, r1 - 1, f2, r2 - 1);
    const GameVtbl *g = game_find("xiangqi");
    void *st = tl_position("xiangqi", NULL, NULL, "h2e2");
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, ply_mv, &m, &err))
        fail_msg("bestmove %s (%s) is not legal: %s", mv, ply_mv, err.msg);
    free(st);
    free(out);
}

/* Seeded random lines from protocol words, numbers, moves and junk: the
 * engine must answer isready after each batch and never crash (this runs
 * under ASan/UBSan in make test MODE=sanitize). */
static void test_random_lines(void **state)
{
    (void)state;
    static const char *const words[] = {
        "position", "startpos", "fen", "moves", "go", "stop", "isready",
        "ucinewgame", "setoption", "name", "value", "UCI_Variant", "chess",
        "makruk", "shatranj", "xiangqi", "Bot", "random", "wtime", "btime",
        "winc", "binc", "movetime", "depth", "nodes", "infinite", "ponder",
        "ponderhit", "perft", "e2e4", "e7e5", "g1f3", "h3e3", "e1g1", "a7a8q",
        "-1", "0", "1", "2", "99999999999999999999", "-", "w", "b", "KQkq",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8/8/8/8/8/8/8/8",
        "4k3/8/8/8/8/8/8/4K3", "\xff\xfe", "%s%n%x", "d", "uci", "debug",
    };
    enum { NWORDS = sizeof words / sizeof words[0] };
    Rng r;
    rng_seed(&r, 2024);
    size_t cap = 1 << 16, len = 0;
    char *script = malloc(cap);
    for (int line = 0; line < 400; line++) {
        int n = (int)rng_below(&r, 8);
        for (int i = 0; i < n; i++) {
            const char *w = words[rng_below(&r, NWORDS)];
            /* no perft deeper than 2 and no endless search: keep it fast */
            if (!strcmp(w, "perft") || !strcmp(w, "infinite") ||
                !strcmp(w, "ponder"))
                w = "depth";
            len += (size_t)snprintf(script + len, cap - len, "%s%s",
                                    i ? " " : "", w);
        }
        len += (size_t)snprintf(script + len, cap - len, "\n%s",
                                line % 50 == 49 ? "stop\nisready\n" : "");
    }
    snprintf(script + len, cap - len, "stop\nisready\nquit\n");
    char *out = dialogue("random", script);
    assert_int_equal(count(out, "readyok") >= 9, 1);
    free(out);
    free(script);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_engine_options),
        cmocka_unit_test(test_position_and_go),
        cmocka_unit_test(test_infinite_and_stop),
        cmocka_unit_test(test_variants_and_perft),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_ucci),
        cmocka_unit_test(test_random_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
