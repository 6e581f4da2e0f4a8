/* test_formats.c — the formats games declare (GameFormat): the lookups,
 * wire conversions, and every record format written and, where it can
 * be, read back. */
#include "testlib.h"

#include "cli/records.h"
#include "core/format.h"
#include "core/record.h"

/* ---------------------------------------------------------- helpers */

/* A record of game `name` with moves (space-separated, may be NULL). */
typedef struct TRec {
    Record r;
    char buf[4096];
    const char *moves[600];
} TRec;

static void trec(TRec *t, const char *name, const char *setup,
                 const char *moves)
{
    record_init(&t->r);
    t->r.game = name;
    t->r.setup = setup;
    t->r.nseats = 2;
    t->r.seats[0] = "first";
    t->r.seats[1] = "second";
    snprintf(t->buf, sizeof t->buf, "%s", moves ? moves : "");
    int n = 0;
    for (char *s = strtok(t->buf, " "); s && n < 600; s = strtok(NULL, " "))
        t->moves[n++] = s;
    t->r.moves = t->moves;
    t->r.nmoves = n;
}

/* Writes r in format fmt; returns the text (free it), NULL on error with
 * the message in err. */
static char *write_rec(const char *fmt, const Record *r, PlyError *err)
{
    const GameVtbl *g = game_find(r->game);
    assert_non_null(g);
    const GameFormat *f = game_format(g, fmt);
    assert_non_null(f);
    assert_non_null(f->write_record);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    int rc = f->write_record(g, r, mem, err);
    fclose(mem);
    if (rc) {
        free(text);
        return NULL;
    }
    return text;
}

/* What a reader gave back: the records as JSON lines. */
typedef struct Got {
    int n;
    char lines[8][8192];
} Got;

static int collect(const Record *r, void *ctx, PlyError *err)
{
    Got *g = ctx;
    if (g->n == 8)
        return ply_fail(err, "too many games");
    json_t *o = record_to_json(r);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    snprintf(g->lines[g->n++], sizeof g->lines[0], "%s", s);
    free(s);
    return 0;
}

static int read_text(const char *fmt, const char *text, size_t len,
                     Got *got, PlyError *err)
{
    const GameFormat *f = game_format(game_find("shogi"), fmt);
    assert_non_null(f);
    assert_non_null(f->read_records);
    memset(got, 0, sizeof *got);
    return f->read_records(game_find("shogi"), text, len, collect, got,
                           err);
}

/* ---------------------------------------------------------- lookups */

static void test_lookups(void **state)
{
    (void)state;
    const GameVtbl *chess = game_find("chess"), *xq = game_find("xiangqi");
    const GameVtbl *shogi = game_find("shogi"), *kalah = game_find("kalah");
    assert_non_null(game_format(chess, "pgn"));
    assert_null(game_format(chess, "kif"));
    assert_null(game_format(kalah, "pgn"));
    assert_null(game_format(NULL, "pgn"));

    const GameVtbl *g[16];
    assert_int_equal(games_with_format("pgn", g, 16), 3);
    assert_string_equal(g[0]->info.name, "chess");
    assert_int_equal(games_with_format("kif", g, 16), 2);
    assert_int_equal(games_with_format("csa", g, 16), 1);
    assert_int_equal(games_with_format("usi", g, 16), 3);
    assert_string_equal(game_by_variant("usi", "micro", NULL)->info.name,
                        "micro-shogi");
    assert_int_equal(games_with_format("ucci", g, 16), 1);
    assert_ptr_equal(g[0], xq);
    assert_int_equal(games_with_format("uci", NULL, 0), 4);
    assert_int_equal(games_with_format("no-such-format", g, 16), 0);
    assert_true(games_with_format("pdn", NULL, 0) >= 9);

    assert_ptr_equal(game_by_variant("uci", "xiangqi", NULL), xq);
    assert_ptr_equal(game_by_variant("uci", "chess", NULL), chess);
    assert_ptr_equal(game_by_variant("uci", "makruk", NULL),
                     game_find("makruk"));
    assert_null(game_by_variant("uci", "shogi", NULL));
    assert_ptr_equal(game_by_variant("usi", "minishogi", NULL),
                     game_find("minishogi"));
    assert_ptr_equal(game_by_variant("usi", "shogi", NULL), shogi);
    assert_null(game_by_variant("usi", NULL, NULL));

    assert_ptr_equal(format_native_game("uci", NULL), chess);
    assert_ptr_equal(format_native_game("ucci", NULL), xq);
    assert_ptr_equal(format_native_game("usi", NULL), shogi);
    assert_null(format_native_game("pgn", NULL));

    assert_null(format_variant(chess, "uci"));
    assert_null(format_variant(chess, "cecp"));
    assert_null(format_variant(shogi, "usi"));
    assert_null(format_variant(xq, "ucci"));
    assert_string_equal(format_variant(xq, "uci"), "xiangqi");
    assert_string_equal(format_variant(xq, "cecp"), "xiangqi");
    assert_string_equal(format_variant(game_find("minishogi"), "usi"),
                        "minishogi");
    assert_string_equal(format_variant_name(chess, "uci"), "chess");
    assert_string_equal(format_variant_name(shogi, "usi"), "shogi");
    assert_string_equal(format_variant_name(game_find("makruk"), "uci"),
                        "makruk");
    assert_string_equal(format_variant_name(kalah, "uci"), "kalah");
    /* undeclared: the game's own name, as the referee always sent */
    assert_string_equal(format_variant(shogi, "uci"), "shogi");
}

/* Every declared format is well formed: a name, unique in its game, a
 * file extension when it writes records. */
static void test_declarations(void **state)
{
    (void)state;
    int formats = 0;
    for (int i = 0; ply_games[i]; i++) {
        const GameFormat *const *fs = ply_games[i]->formats;
        for (int j = 0; fs && fs[j]; j++, formats++) {
            assert_non_null(fs[j]->name);
            assert_true(fs[j]->name[0]);
            for (int k = 0; k < j; k++)
                assert_string_not_equal(fs[k]->name, fs[j]->name);
            if (fs[j]->write_record)
                assert_non_null(fs[j]->extension);
            assert_ptr_equal(game_format(ply_games[i], fs[j]->name), fs[j]);
        }
    }
    assert_true(formats > 20);
    const char *names[32];
    int n = format_names(names, 32);
    assert_true(n >= 8);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i; k++)
            assert_string_not_equal(names[i], names[k]);
}

/* ---------------------------------------------------------- wires */

static void test_xiangqi_uci_ranks(void **state)
{
    (void)state;
    const GameVtbl *xq = game_find("xiangqi");
    const GameFormat *uci = game_format(xq, "uci");
    char buf[64];
    assert_int_equal(format_move_to_wire(uci, "h2e2", buf, sizeof buf), 4);
    assert_string_equal(buf, "h3e3");
    assert_int_equal(format_move_from_wire(uci, "h3e3", buf, sizeof buf),
                     4);
    assert_string_equal(buf, "h2e2");
    format_move_to_wire(uci, "a9a8", buf, sizeof buf);
    assert_string_equal(buf, "a10a9");
    format_move_from_wire(uci, "a10a9", buf, sizeof buf);
    assert_string_equal(buf, "a9a8");
    /* not a move: -1, the text unchanged for the receiver to reject */
    assert_int_equal(format_move_from_wire(uci, "resign", buf, sizeof buf),
                     -1);
    assert_string_equal(buf, "resign");
    assert_int_equal(format_move_from_wire(uci, "a0a1", buf, sizeof buf),
                     -1);
    assert_int_equal(format_move_to_wire(uci, "h2e2", buf, 4), -1);
    /* UCCI and the unconverted dialects copy */
    assert_int_equal(format_move_to_wire(game_format(xq, "ucci"), "h2e2",
                                         buf, sizeof buf), 4);
    assert_string_equal(buf, "h2e2");
    assert_int_equal(format_move_to_wire(NULL, "e2e4", buf, sizeof buf), 4);
    assert_string_equal(buf, "e2e4");
    assert_int_equal(format_setup_to_wire(NULL, "x", buf, sizeof buf), 1);

    char *list = format_moves_from_wire(uci, "  h3e3 h10g8\tresign b1c3 ");
    assert_string_equal(list, "h2e2 h9g7 resign b0c2");
    free(list);
    list = format_moves_from_wire(NULL, "e2e4 e7e5");
    assert_string_equal(list, "e2e4 e7e5");
    free(list);
    list = format_moves_from_wire(uci, "");
    assert_string_equal(list, "");
    free(list);

    /* every legal move along a game goes out and comes back */
    void *st = tl_position("xiangqi", NULL, NULL, NULL);
    Move mv[256];
    for (int ply = 0; ply < 40 && xq->to_move(st) >= 0; ply++) {
        int n = xq->gen_moves(st, mv);
        for (int i = 0; i < n; i++) {
            char own[32], wire[32], back[32];
            xq->move_to_text(st, mv[i], own, sizeof own);
            assert_true(format_move_to_wire(uci, own, wire, sizeof wire) > 0);
            assert_string_not_equal(own, wire);
            assert_true(format_move_from_wire(uci, wire, back,
                                              sizeof back) > 0);
            assert_string_equal(own, back);
        }
        xq->make(st, mv[(ply * 7) % n]);
    }
    free(st);
}

/* ---------------------------------------------------------- PGN, PDN */

static void test_pgn(void **state)
{
    (void)state;
    TRec t;
    trec(&t, "chess", NULL, "e2e4 e7e5 g1f3 b8c6 f1b5");
    t.r.has_result = 1;
    t.r.result[0] = 1;
    t.r.result[1] = -1;
    t.r.reason = "time";
    t.r.index = 4;
    PlyError err = {{0}};
    char *s = write_rec("pgn", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "[White \"first\"]\n[Black \"second\"]\n"));
    assert_non_null(strstr(s, "[Round \"5\"]"));
    assert_non_null(strstr(s, "[Result \"1-0\"]"));
    assert_non_null(strstr(s, "[Termination \"time forfeit\"]"));
    assert_non_null(strstr(s, "1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n"));
    assert_null(strstr(s, "Variant"));
    free(s);

    /* a variant and a setup */
    trec(&t, "makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1",
         "e6e5");
    s = write_rec("pgn", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "[Variant \"makruk\"]"));
    assert_non_null(strstr(s, "[SetUp \"1\"]"));
    assert_non_null(strstr(s, "1... e5 *"));
    free(s);

    /* a bad move names itself and writes nothing */
    trec(&t, "chess", NULL, "e2e4 e2e4");
    assert_null(write_rec("pgn", &t.r, &err));
    assert_non_null(strstr(err.msg, "move 2 'e2e4'"));
    trec(&t, "chess", NULL, "e2e4");
    t.r.nseats = 3;
    assert_null(write_rec("pgn", &t.r, &err));
    assert_non_null(strstr(err.msg, "seats"));
}

static void test_pdn(void **state)
{
    (void)state;
    TRec t;
    trec(&t, "draughts-russian", NULL, "c3-d4 f6-e5 d4:f6 g7:e5");
    t.r.has_result = 1;
    t.r.has_seed = 1;
    t.r.seed = 7;
    PlyError err = {{0}};
    char *s = write_rec("pdn", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "[GameType \"25\"]"));
    assert_non_null(strstr(s, "[PlySeed \"7\"]"));
    assert_non_null(strstr(s, "1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-1\n"));
    free(s);
    trec(&t, "draughts-russian", NULL, "c3-d4 c3-d4");
    assert_null(write_rec("pdn", &t.r, &err));
    assert_non_null(strstr(err.msg, "move 2 'c3-d4'"));
    /* a variant without a GameType */
    trec(&t, "draughts-thai", NULL, NULL);
    s = write_rec("pdn", &t.r, &err);
    assert_non_null(s);
    assert_null(strstr(s, "GameType"));
    free(s);
}

/* ---------------------------------------------------------- KIF */

/* A shogi game with a declined promotion (4. 2b7g, bishop takes on 7g,
 * staying unpromoted), a promotion and a drop. */
static const char KIF_MOVES[] =
    "9g9f 3c3d 6i6h 2b7g 5i6i 4a5b 2h5h 7g9e+ 8h2b 8b9b 6g6f 9e6h 5h6h "
    "5a4a B*9g";

static void test_kif_round_trip(void **state)
{
    (void)state;
    static const char *const fmts[] = {"kif", "kif-sjis"};
    for (int k = 0; k < 2; k++) {
        TRec t;
        trec(&t, "shogi", NULL, KIF_MOVES);
        t.r.has_result = 1;
        t.r.result[0] = 1;      /* White, to move, lost on time */
        t.r.result[1] = -1;
        t.r.reason = "time";
        PlyError err = {{0}};
        char *s = write_rec(fmts[k], &t.r, &err);
        assert_non_null(s);
        if (k == 0) {
            assert_non_null(strstr(s, "#KIF version=2.0 encoding=UTF-8\n"));
            assert_non_null(strstr(s, "手合割：平手\n"));
            /* declined: a plain move, as KIF readers expect */
            assert_non_null(strstr(s, "   4 ７七角(22)  "));
            assert_null(strstr(s, "不成"));
            assert_non_null(strstr(s, "   8 ９五角成(77)"));
            assert_non_null(strstr(s, "  15 ９七角打"));
            assert_non_null(strstr(s, "  13 同　飛(58)"));
            assert_non_null(strstr(s, "  16 切れ負け"));
        } else {
            /* Shift_JIS: no UTF-8 line, not valid UTF-8 */
            assert_null(strstr(s, "#KIF"));
            assert_null(strstr(s, "手合割"));
        }
        Got got;
        assert_int_equal(read_text("kif", s, strlen(s), &got, &err), 0);
        assert_int_equal(got.n, 1);
        /* ["9g9f","3c3d",...] */
        char want[4096] = "\"moves\":[\"";
        size_t w = strlen(want);
        for (const char *p = KIF_MOVES; *p && w + 4 < sizeof want; p++) {
            if (*p == ' ') {
                memcpy(want + w, "\",\"", 3);
                w += 3;
            } else {
                want[w++] = *p;
            }
        }
        memcpy(want + w, "\"]", 3);
        assert_non_null(strstr(got.lines[0], want));
        assert_non_null(strstr(got.lines[0], "\"game\":\"shogi\""));
        assert_non_null(strstr(got.lines[0],
                               "\"seats\":[\"first\",\"second\"]"));
        assert_non_null(strstr(got.lines[0], "\"result\":[1,-1]"));
        assert_non_null(strstr(got.lines[0], "\"reason\":\"time\""));
        free(s);
    }
}

static void test_kif_minishogi_and_diagram(void **state)
{
    (void)state;
    TRec t;
    trec(&t, "minishogi", NULL, "5d5c 1b1c");
    PlyError err = {{0}};
    char *s = write_rec("kif", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "手合割：5五将棋\n"));
    Got got;
    assert_int_equal(read_text("kif", s, strlen(s), &got, &err), 0);
    assert_int_equal(got.n, 1);
    assert_non_null(strstr(got.lines[0], "\"game\":\"minishogi\""));
    assert_non_null(strstr(got.lines[0], "\"moves\":[\"5d5c\",\"1b1c\"]"));
    free(s);

    /* a start without a name: a diagram, White to move, hands */
    const char *setup = "4k4/9/9/9/9/9/9/9/4K4 w 2Rb 1";
    trec(&t, "shogi", setup, "B*5e");
    s = write_rec("kif", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "後手の持駒：角　\n"));
    assert_non_null(strstr(s, "先手の持駒：飛二　\n"));
    assert_non_null(strstr(s, "後手番\n"));
    assert_int_equal(read_text("kif", s, strlen(s), &got, &err), 0);
    assert_non_null(strstr(got.lines[0], "\"setup\":\"4k4/9/9/9/9/9/9/9/"
                                         "4K4 w 2Rb 1\""));
    free(s);
}

static void test_kif_reader_errors(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        {"   1 ７六歩(77)\n   2 ７七歩(77)\n", "line 2: move 2"},
        {"   1 ０六歩(77)\n", "line 1: no square"},
        {"   1 ７六角(77)\n", "that piece is not on 7g"},
        {"手合割：九枚落ち\n   1 ７六歩(77)\n", "unknown 手合割"},
        {"   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n",
         "a move after the end"},
        {"   1 同　歩(77)\n", "同 at the first move"},
        {"   1 ７六歩\n", "no P in hand"},  /* a drop without 打 */
        {"   1 ７六玉\n", "no origin square"},
        {"| ・ ・ ・|一\n   1 投了\n", "a board rank has 3 squares"},
        {"   1 ７六(77)\n", "no piece"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Got got;
        PlyError err = {{0}};
        assert_int_equal(read_text("kif", cases[i].text,
                                   strlen(cases[i].text), &got, &err), -1);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
    }
    /* NUL bytes and garbage that is neither UTF-8 nor Shift_JIS */
    Got got;
    PlyError err = {{0}};
    assert_int_equal(read_text("kif", "a\0b", 3, &got, &err), -1);
    assert_int_equal(read_text("kif", "\xff\xff\xff", 3, &got, &err), -1);
    /* nothing at all: no game, no error */
    assert_int_equal(read_text("kif", "先手：a\n", strlen("先手：a\n"), &got,
                               &err), 0);
    assert_int_equal(got.n, 0);
}

/* The KIF reader has no SFEN reader of its own: a diagram's start goes
 * through shogi's from_text, whose own messages come back. */
static void test_kif_uses_shogi_sfen_reader(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shogi");
    static const char *const diagrams[] = {
        /* two Black pawns on file 5 (nifu) */
        "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
        "| ・ ・ ・ ・ 歩 ・ ・ ・ ・|五\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|六\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
        "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n   1 投了\n",
        /* a Black pawn on the last rank */
        "| 歩 ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
        "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n   1 投了\n",
    };
    static const char *const sfens[] = {
        "4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1",
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
    };
    for (int i = 0; i < 2; i++) {
        void *st = state_alloc(g);
        PlyError direct = {{0}}, viakif = {{0}};
        assert_int_equal(state_setup(g, st, NULL, sfens[i], 1, &direct), -1);
        free(st);
        Got got;
        assert_int_equal(read_text("kif", diagrams[i], strlen(diagrams[i]),
                                   &got, &viakif), -1);
        if (!strstr(viakif.msg, direct.msg))
            fail_msg("'%s' is not shogi's '%s'", viakif.msg, direct.msg);
    }
}

/* ---------------------------------------------------------- CSA */

static void test_csa_round_trip(void **state)
{
    (void)state;
    TRec t;
    trec(&t, "shogi", NULL, KIF_MOVES);
    t.r.has_result = 1;
    t.r.result[0] = 1;
    t.r.result[1] = -1;
    t.r.reason = "time";
    PlyError err = {{0}};
    char *s = write_rec("csa", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "V2.2\nN+first\nN-second\n"));
    assert_non_null(strstr(s, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"));
    assert_non_null(strstr(s, "P2 * -HI *  *  *  *  * -KA * \n"));
    assert_non_null(strstr(s, "\n+\n+9796FU\n-3334FU\n"));
    assert_non_null(strstr(s, "\n-2277KA\n"));     /* declined */
    assert_non_null(strstr(s, "\n-7795UM\n"));     /* promoted */
    assert_non_null(strstr(s, "\n+0097KA\n"));     /* a drop */
    assert_non_null(strstr(s, "\n%TIME_UP\n"));
    Got got;
    assert_int_equal(read_text("csa", s, strlen(s), &got, &err), 0);
    assert_int_equal(got.n, 1);
    assert_non_null(strstr(got.lines[0], "\"moves\":[\"9g9f\",\"3c3d\","));
    assert_non_null(strstr(got.lines[0], "\"9e6h\",\"5h6h\",\"5a4a\","
                                         "\"B*9g\"]"));
    assert_non_null(strstr(got.lines[0], "\"seats\":[\"first\",\"second\"]"));
    assert_non_null(strstr(got.lines[0], "\"result\":[1,-1],\"reason\":"
                                         "\"time\""));
    free(s);

    /* a start with hands and White to move */
    trec(&t, "shogi", "4k4/9/9/9/9/9/9/9/4K4 w 2Rb 1", "B*5e");
    s = write_rec("csa", &t.r, &err);
    assert_non_null(s);
    assert_non_null(strstr(s, "P+00HI00HI\nP-00KA\n-\n-0055KA\n%CHUDAN\n"));
    assert_int_equal(read_text("csa", s, strlen(s), &got, &err), 0);
    assert_non_null(strstr(got.lines[0], "\"setup\":\"4k4/9/9/9/9/9/9/9/"
                                         "4K4 w 2Rb 1\""));
    assert_null(strstr(got.lines[0], "result"));
    free(s);

    /* minishogi has no CSA */
    trec(&t, "minishogi", NULL, NULL);
    assert_null(game_format(game_find("minishogi"), "csa"));
    const GameFormat *f = game_format(game_find("shogi"), "csa");
    FILE *devnull = fopen("/dev/null", "w");
    assert_int_equal(f->write_record(game_find("minishogi"), &t.r, devnull,
                                     &err), -1);
    fclose(devnull);
    assert_non_null(strstr(err.msg, "9x9"));
}

static void test_csa_reader(void **state)
{
    (void)state;
    /* PI with removed pieces (a bishop handicap), statements split by
     * commas, times, comments, two games split by '/' */
    const char *text =
        "V2.2\nN+a\nN-b\n'a comment\nPI22KA\n-\n-3334FU,T3\n+7776FU\n"
        "%TORYO\n/\nPI\n+\n+2726FU\n%CHUDAN\n";
    Got got;
    PlyError err = {{0}};
    assert_int_equal(read_text("csa", text, strlen(text), &got, &err), 0);
    assert_int_equal(got.n, 2);
    assert_non_null(strstr(got.lines[0], "\"setup\":\"lnsgkgsnl/1r7/"));
    assert_non_null(strstr(got.lines[0], "\"moves\":[\"3c3d\",\"7g7f\"]"));
    /* White resigned at its turn */
    assert_non_null(strstr(got.lines[0], "\"result\":[1,-1]"));
    assert_non_null(strstr(got.lines[1], "\"moves\":[\"2g2f\"]"));

    static const struct { const char *text, *msg; } bad[] = {
        {"PI\n+\n-3334FU\n", "not the side to move"},
        {"PI\n+\n+7776KA\n", "that piece is not on 77"},
        {"PI\n+\n+7775FU\n", "illegal"},
        {"PI\n+\n+7776FU\n%BOGUS\n", "unknown special move"},
        {"PI\n+\n+7776FU\nP1 * \n", "a position after the moves"},
        {"PI\n+7776FU\n", "no side to move"},
        {"+\n+7776FU\n", "P1..P9 or PI"},
        {"PI\n+\n+77\n", "bad move"},
        {"PI\n+\n+0055OU\n", "cannot be dropped"},
        {"PI\n+\n%TORYO\n+7776FU\n", "a move after the end"},
        {"PI99KA\n+\n", "PI: no '99KA'"},
        {"P+00AL\n", "'AL'"},
        {"hello\n", "not CSA"},
        /* shogi's own setup reader refuses the start: two kings */
        {"P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \n"
         "P3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \n"
         "P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n"
         "P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  * +OU *  *  *  * \n"
         "P9 *  *  *  * +OU *  *  *  * \n+\n%TORYO\n", "exactly one king"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(read_text("csa", bad[i].text, strlen(bad[i].text),
                                   &got, &err), -1);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
    }
}

/* ---------------------------------------------------------- JSON */

static void test_record_json(void **state)
{
    (void)state;
    const char *line = "{\"game\":\"chess\",\"options\":\"\",\"setup\":\"\","
                       "\"seats\":[\"a\",\"b\"],\"moves\":[\"e2e4\"],"
                       "\"result\":[1,-1],\"reason\":\"normal\","
                       "\"index\":3,\"seed\":-5}";
    json_t *o = json_loads(line, 0, NULL);
    Record r;
    const char **moves;
    PlyError err = {{0}};
    assert_int_equal(record_from_json(o, &r, &moves, &err), 0);
    assert_int_equal(r.nseats, 2);
    assert_int_equal(r.nmoves, 1);
    assert_int_equal(record_winner(&r), 0);
    assert_int_equal(r.index, 3);
    assert_true(r.has_seed);
    json_t *back = record_to_json(&r);
    char *s = json_dumps(back, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_string_equal(s, line);
    free(s);
    json_decref(back);
    free(moves);
    json_decref(o);

    static const struct { const char *json, *msg; } bad[] = {
        {"{\"moves\":[]}", "no \"game\""},
        {"{\"game\":\"chess\"}", "no \"moves\""},
        {"{\"game\":\"chess\",\"moves\":[1]}", "move 1 is not a string"},
        {"{\"game\":\"chess\",\"moves\":[],\"result\":\"1-0\"}", "result"},
        {"{\"game\":\"chess\",\"seats\":[\"a\",\"b\"],\"moves\":[],"
         "\"result\":[1]}", "one per seat"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o = json_loads(bad[i].json, 0, NULL);
        assert_non_null(o);
        assert_int_equal(record_from_json(o, &r, &moves, &err), -1);
        assert_non_null(strstr(err.msg, bad[i].msg));
        assert_null(moves);
        json_decref(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_xiangqi_uci_ranks),
        cmocka_unit_test(test_pgn),
        cmocka_unit_test(test_pdn),
        cmocka_unit_test(test_kif_round_trip),
        cmocka_unit_test(test_kif_minishogi_and_diagram),
        cmocka_unit_test(test_kif_reader_errors),
        cmocka_unit_test(test_kif_uses_shogi_sfen_reader),
        cmocka_unit_test(test_csa_round_trip),
        cmocka_unit_test(test_csa_reader),
        cmocka_unit_test(test_record_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
