/* test_chess.c — chess, makruk and shatranj: perft against the
 * Fairy-Stockfish oracle (tests/data/chesslike-perft.tsv), the legal move
 * generator against a slow square-by-square one on random games, game
 * ends (mate, stalemate, 50/64/70-move, repetition, material, bare king,
 * counting), notation (long algebraic, SAN) and setup-string errors. */
#include <ctype.h>

#include "testlib.h"

#include "games/chess/board.h"
#include "tools/perft.h"

static const char *const FAMILY[] = {"chess", "makruk", "shatranj"};

/* ------------------------------------------------------------- perft */

static void test_perft_oracle(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/chesslike-perft.tsv", "r");
    if (!f)
        fail_msg("cannot open tests/data/chesslike-perft.tsv (run from the "
                 "repository root)");
    char line[1024];
    int checked = 0;
    unsigned long long limit = tl_slow() ? 400000000ull : 20000000ull;
    while (fgets(line, sizeof line, f)) {
        char *save = NULL;
        char *variant = strtok_r(line, "\t", &save);
        char *pos = strtok_r(NULL, "\t", &save);
        char *depth = strtok_r(NULL, "\t", &save);
        char *nodes = strtok_r(NULL, "\t", &save);
        if (!variant || !pos || !depth || !nodes)
            continue;
        int ours = 0;
        for (int i = 0; i < 3; i++)
            ours |= !strcmp(variant, FAMILY[i]);
        if (!ours)
            continue;
        unsigned long long want = strtoull(nodes, NULL, 10);
        if (want > limit)
            continue;
        const char *fen = pos;
        if (!strncmp(fen, "startpos ", 9))
            fen += 9;
        else if (!strncmp(fen, "fen ", 4))
            fen += 4;
        const GameVtbl *g = game_find(variant);
        void *st = tl_position(variant, NULL, fen, NULL);
        uint64_t got = perft(g, st, atoi(depth), 0);
        if (got != want)
            fail_msg("%s '%s' depth %s: %llu, oracle %llu", variant, fen,
                     depth, (unsigned long long)got, want);
        free(st);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 15);
}

/* The oracle's FEN rows at depths that fit in make test; the counts are
 * the published ones (chessprogramming wiki) and Fairy-Stockfish 11.1's
 * `go perft` gives the same. */
static void test_perft_fast_fens(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int depth;
        uint64_t nodes;
    } rows[] = {
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
         4, 4085603},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 5, 674624},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
         4, 422333},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4,
         2103487},
        {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - "
         "0 10", 4, 3894594},
    };
    const GameVtbl *g = game_find("chess");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        void *st = tl_position("chess", NULL, rows[i].fen, NULL);
        uint64_t got = perft(g, st, rows[i].depth, 0);
        if (got != rows[i].nodes)
            fail_msg("%s depth %d: %llu, expected %llu", rows[i].fen,
                     rows[i].depth, (unsigned long long)got,
                     (unsigned long long)rows[i].nodes);
        free(st);
    }
}

/* ------------------------------------------- slow reference generator */

static int on(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* Whether colour `by` attacks square s, walking the board square by
 * square. */
static int slow_attacked(const CBoard *b, int s, int by)
{
    int sf = s % 8, sr = s / 8;
    for (int from = 0; from < 64; from++) {
        int pc = b->sq[from];
        if (!pc || (pc >> 4) != by)
            continue;
        int t = pc & 15, ff = from % 8, fr = from / 8;
        int df = sf - ff, dr = sr - fr, adf = abs(df), adr = abs(dr);
        int fwd = by ? -1 : 1;
        switch (t) {
        case CB_PAWN:
            if (dr == fwd && adf == 1) return 1;
            break;
        case CB_KNIGHT:
            if ((adf == 1 && adr == 2) || (adf == 2 && adr == 1)) return 1;
            break;
        case CB_KING:
            if (adf <= 1 && adr <= 1 && (adf || adr)) return 1;
            break;
        case CB_FERZ:
            if (adf == 1 && adr == 1) return 1;
            break;
        case CB_SILVER:
            if ((adf == 1 && adr == 1) || (df == 0 && dr == fwd)) return 1;
            break;
        case CB_ALFIL:
            if (adf == 2 && adr == 2) return 1;
            break;
        default: {
            int diag = adf == adr && adf, orth = (!df) != (!dr);
            if (!((diag && (t == CB_BISHOP || t == CB_QUEEN)) ||
                  (orth && (t == CB_ROOK || t == CB_QUEEN))))
                break;
            int sx = (df > 0) - (df < 0), sy = (dr > 0) - (dr < 0);
            int x = ff + sx, y = fr + sy, clear = 1;
            while (x != sf || y != sr) {
                if (b->sq[y * 8 + x]) clear = 0;
                x += sx;
                y += sy;
            }
            if (clear) return 1;
        }
        }
    }
    return 0;
}

static int slow_add(const CBoard *b, Move m, Move *out, int n)
{
    CBoard c = *b;
    cb_make(&c, m);
    int k = 0;
    for (int s = 0; s < 64; s++)
        if (c.sq[s] == (CB_KING | b->side << 4))
            k = s;
    if (!slow_attacked(&c, k, !b->side))
        out[n++] = m;
    return n;
}

static int slow_gen(const CBoard *b, Move *out)
{
    static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int dirs[8][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0},
                                   {1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
    int n = 0, us = b->side, v = b->variant, fwd = us ? -1 : 1;
    for (int from = 0; from < 64; from++) {
        int pc = b->sq[from];
        if (!pc || (pc >> 4) != us)
            continue;
        int t = pc & 15, ff = from % 8, fr = from / 8;
        int targets[64], nt = 0;
        if (t == CB_PAWN) {
            int r1 = fr + fwd;
            if (on(ff, r1) && !b->sq[r1 * 8 + ff]) {
                targets[nt++] = r1 * 8 + ff;
                int rel = us ? 7 - fr : fr;
                if (v == CB_CHESS && rel == 1 && !b->sq[(r1 + fwd) * 8 + ff])
                    targets[nt++] = (r1 + fwd) * 8 + ff;
            }
            for (int dx = -1; dx <= 1; dx += 2) {
                if (!on(ff + dx, r1))
                    continue;
                int s = r1 * 8 + ff + dx;
                if ((b->sq[s] && (b->sq[s] >> 4) != us) || s == b->ep)
                    targets[nt++] = s;
            }
            for (int i = 0; i < nt; i++) {
                int rr = targets[i] / 8, rel = us ? 7 - rr : rr;
                int promo = v == CB_MAKRUK ? rel >= 5 : rel == 7;
                if (!promo)
                    n = slow_add(b, CB_MOVE(from, targets[i], 0), out, n);
                else if (v != CB_CHESS)
                    n = slow_add(b, CB_MOVE(from, targets[i], CB_FERZ), out,
                                 n);
                else
                    for (int p = CB_KNIGHT; p <= CB_QUEEN; p++)
                        n = slow_add(b, CB_MOVE(from, targets[i], p), out, n);
            }
            continue;
        }
        int (*steps)[2] = NULL;
        int nsteps = 0, slide = 0;
        int fz[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
        int al[4][2] = {{2, 2}, {2, -2}, {-2, -2}, {-2, 2}};
        int sv[5][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}, {0, 1}};
        sv[4][1] = fwd;
        switch (t) {
        case CB_KNIGHT: steps = (int (*)[2])kn; nsteps = 8; break;
        case CB_KING: steps = (int (*)[2])dirs; nsteps = 8; break;
        case CB_FERZ: steps = fz; nsteps = 4; break;
        case CB_ALFIL: steps = al; nsteps = 4; break;
        case CB_SILVER: steps = sv; nsteps = 5; break;
        case CB_ROOK: steps = (int (*)[2])dirs; nsteps = 4; slide = 1; break;
        case CB_BISHOP: steps = (int (*)[2])dirs + 4; nsteps = 4; slide = 1;
            break;
        case CB_QUEEN: steps = (int (*)[2])dirs; nsteps = 8; slide = 1; break;
        }
        for (int i = 0; i < nsteps; i++) {
            int x = ff + steps[i][0], y = fr + steps[i][1];
            while (on(x, y)) {
                int s = y * 8 + x;
                if (b->sq[s] && (b->sq[s] >> 4) == us)
                    break;
                targets[nt++] = s;
                if (b->sq[s] || !slide)
                    break;
                x += steps[i][0];
                y += steps[i][1];
            }
        }
        for (int i = 0; i < nt; i++)
            n = slow_add(b, CB_MOVE(from, targets[i], 0), out, n);
        if (t == CB_KING && v == CB_CHESS && !slow_attacked(b, from, !us)) {
            int base = us ? 56 : 0;
            if ((b->castle & (us ? CB_BK : CB_WK)) && !b->sq[base + 5] &&
                !b->sq[base + 6] && !slow_attacked(b, base + 5, !us))
                n = slow_add(b, CB_MOVE(from, base + 6, 0), out, n);
            if ((b->castle & (us ? CB_BQ : CB_WQ)) && !b->sq[base + 1] &&
                !b->sq[base + 2] && !b->sq[base + 3] &&
                !slow_attacked(b, base + 3, !us))
                n = slow_add(b, CB_MOVE(from, base + 2, 0), out, n);
        }
    }
    return n;
}

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

static void test_slow_generator(void **state)
{
    (void)state;
    Move fast[CB_MAX_MOVES], slow[CB_MAX_MOVES];
    int games = tl_slow() ? 2000 : 60;
    long positions = 0;
    for (int vi = 0; vi < 3; vi++) {
        const GameVtbl *g = game_find(FAMILY[vi]);
        for (int gi = 0; gi < games; gi++) {
            Rng r;
            rng_seed(&r, 77 + (uint64_t)gi);
            CBoard *b = tl_position(FAMILY[vi], NULL, NULL, NULL);
            while (g->to_move(b) != PLAYER_TERMINAL) {
                int n = cb_gen(b, fast, CB_MAX_MOVES);
                int k = slow_gen(b, slow);
                qsort(fast, (size_t)n, sizeof(Move), cmp_move);
                qsort(slow, (size_t)k, sizeof(Move), cmp_move);
                if (n != k || memcmp(fast, slow, sizeof(Move) * (size_t)n)) {
                    char fen[128];
                    cb_to_fen(b, fen, sizeof fen);
                    fail_msg("%s: %d moves, slow generator %d at %s",
                             FAMILY[vi], n, k, fen);
                }
                positions++;
                g->make(b, fast[rng_below(&r, (uint32_t)n)]);
            }
            free(b);
        }
    }
    assert_true(positions > 10000);
}

/* ---------------------------------------------------------- game ends */

static const CBoard *pos(const char *game, const char *fen,
                         const char *moves)
{
    return tl_position(game, NULL, fen, moves);
}

static void expect_end(const char *game, const char *fen, const char *moves,
                       int over, int reason)
{
    const CBoard *b = pos(game, fen, moves);
    if (b->over != over || b->reason != reason)
        fail_msg("%s %s + '%s': over %d reason %d, expected %d %d", game,
                 fen ? fen : "start", moves ? moves : "", b->over, b->reason,
                 over, reason);
    free((void *)b);
}

static void test_chess_ends(void **state)
{
    (void)state;
    expect_end("chess", NULL, "f3 e5 g4 Qh4#", CB_WIN_BLACK, CB_R_MATE);
    expect_end("chess", NULL, "f2f3 e7e5 g2g4 d8h4", CB_WIN_BLACK,
               CB_R_MATE);
    expect_end("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", NULL, CB_DRAW,
               CB_R_STALEMATE);
    expect_end("chess", "7k/8/6K1/5Q2/8/8/8/8 w - - 0 1", "Qf7", CB_DRAW,
               CB_R_STALEMATE);
    /* fifty-move rule: the 100th quiet ply ends it, a capture does not */
    expect_end("chess", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", "Ra2",
               CB_DRAW, CB_R_NMOVE);
    expect_end("chess", "4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80", "Ra2",
               CB_PLAYING, CB_R_NONE);
    /* threefold: the start position for the third time after 8 plies */
    expect_end("chess", NULL, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", CB_PLAYING,
               CB_R_NONE);
    expect_end("chess", NULL, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", CB_DRAW,
               CB_R_REPETITION);
    /* a pawn move in between starts a new count */
    expect_end("chess", NULL, "Nf3 Nf6 Ng1 Ng8 e3 Nf6 Nf3 Ng8 Ng1 Nf6 "
               "Nf3 Ng8", CB_PLAYING, CB_R_NONE);
    expect_end("chess", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", NULL, CB_DRAW,
               CB_R_MATERIAL);
    expect_end("chess", "8/8/4k3/8/8/3KN3/8/8 w - - 0 1", NULL, CB_DRAW,
               CB_R_MATERIAL);
    expect_end("chess", "8/8/2b1k3/8/8/3K1B2/8/8 w - - 0 1", NULL, CB_DRAW,
               CB_R_MATERIAL);   /* c6 and f3: both light squares */
    expect_end("chess", "8/8/3bk3/8/8/3K1B2/8/8 w - - 0 1", NULL, CB_PLAYING,
               CB_R_NONE);       /* opposite colours: mate is possible */
    expect_end("chess", "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", NULL, CB_PLAYING,
               CB_R_NONE);
    expect_end("chess", "8/8/4k3/8/8/3K4/7p/8 w - - 0 1", NULL, CB_PLAYING,
               CB_R_NONE);
    /* a game drawn by repetition keeps saying so in its setup string */
    const GameVtbl *g = game_find("chess");
    CBoard *b = tl_position("chess", NULL, NULL,
                            "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    char fen[160];
    assert_true(g->to_text(b, fen, sizeof fen) > 0);
    assert_non_null(strstr(fen, " 3fold"));
    CBoard *c = tl_position("chess", NULL, fen, NULL);
    assert_int_equal(g->to_move(c), PLAYER_TERMINAL);
    free(b);
    free(c);
}

static void test_variant_ends(void **state)
{
    (void)state;
    /* shatranj: stalemate loses for the stalemated side */
    expect_end("shatranj", "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", NULL,
               CB_WIN_WHITE, CB_R_STALEMATE);
    /* bare king: taking the last black piece wins at once... */
    expect_end("shatranj", "4k3/8/8/8/8/2n5/8/R3K3 w - - 0 1", NULL,
               CB_PLAYING, CB_R_NONE);
    expect_end("shatranj", "7k/8/8/8/8/8/n7/R3K3 w - - 0 1", "Rxa2",
               CB_WIN_WHITE, CB_R_BARE_KING);
    /* ...unless the bare king takes back the last piece: then a draw */
    expect_end("shatranj", "8/8/8/8/8/8/nk6/R3K3 w - - 0 1", "Rxa2",
               CB_PLAYING, CB_R_NONE);
    expect_end("shatranj", "8/8/8/8/8/8/nk6/R3K3 w - - 0 1", "Rxa2 Kxa2",
               CB_DRAW, CB_R_MATERIAL);
    expect_end("shatranj", "8/8/8/8/8/8/nk6/R3K3 w - - 0 1", "Rxa2 Kb3",
               CB_WIN_WHITE, CB_R_BARE_KING);
    expect_end("shatranj", "4k3/p7/8/8/8/8/4P3/R3K3 w - - 139 80", "Ra2",
               CB_DRAW, CB_R_NMOVE);
    expect_end("shatranj", "4k3/p7/8/8/8/8/4P3/R3K3 w - - 99 80", "Ra2",
               CB_PLAYING, CB_R_NONE);
    /* makruk: stalemate draws */
    expect_end("makruk", "7k/5K2/6M1/8/8/8/8/8 b - - 0 1", NULL, CB_DRAW,
               CB_R_STALEMATE);
    /* pieces' honour: 2 rua v bare khun, 4 pieces, count 5 + moves > 8 */
    expect_end("makruk", "7k/8/8/8/8/8/R7/R3K3 w - - 6 40", NULL,
               CB_PLAYING, CB_R_NONE);
    expect_end("makruk", "7k/8/8/8/8/8/R7/R3K3 w - - 6 40", "Ra3",
               CB_PLAYING, CB_R_NONE);
    expect_end("makruk", "7k/8/8/8/8/8/R7/R3K3 w - - 6 40", "Ra3 Kg8",
               CB_DRAW, CB_R_COUNTING);
    /* one met v bare khun: limit 64 */
    expect_end("makruk", "7k/8/8/8/8/8/8/3MK3 w - - 110 90", "Me2",
               CB_PLAYING, CB_R_NONE);
    /* board's honour: 64 moves without a capture or bia move */
    expect_end("makruk", "7k/8/8/8/8/8/r7/R3K3 w - - 127 90", "Rxa2",
               CB_PLAYING, CB_R_NONE);
    expect_end("makruk", "7k/8/8/8/8/8/r7/R3K3 w - - 127 90", "Rb1",
               CB_DRAW, CB_R_COUNTING);
    expect_end("makruk", "7k/8/8/8/8/8/8/4K3 w - - 0 90", NULL, CB_DRAW,
               CB_R_MATERIAL);
}

/* ----------------------------------------------------------- notation */

static void expect_move(const char *game, const char *fen, const char *in,
                        const char *lan)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, fen, NULL);
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, in, &m, &err))
        fail_msg("%s: '%s' rejected: %s", game, in, err.msg);
    char buf[16];
    g->move_to_text(st, m, buf, sizeof buf);
    if (strcmp(buf, lan))
        fail_msg("%s: '%s' read as %s, not %s", game, in, buf, lan);
    free(st);
}

static void expect_bad_move(const char *game, const char *fen,
                            const char *in, const char *msg)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, fen, NULL);
    Move m;
    PlyError err = {{0}};
    if (!g->text_to_move(st, in, &m, &err))
        fail_msg("%s: '%s' accepted", game, in);
    if (!strstr(err.msg, msg))
        fail_msg("%s: '%s': message '%s' lacks '%s'", game, in, err.msg,
                 msg);
    free(st);
}

static void expect_san(const char *fen, const char *lan, const char *san)
{
    CBoard *b = tl_position("chess", NULL, fen, NULL);
    Move m;
    PlyError err = {{0}};
    assert_int_equal(cb_text_to_move(b, lan, &m, &err), 0);
    char buf[16];
    cb_move_to_san(b, m, buf, sizeof buf);
    if (strcmp(buf, san))
        fail_msg("%s at %s: SAN %s, expected %s", lan, fen, buf, san);
    free(b);
}

static void test_notation(void **state)
{
    (void)state;
    const char *kiwi =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    expect_move("chess", NULL, "Nf3", "g1f3");
    expect_move("chess", NULL, "e4", "e2e4");
    expect_move("chess", NULL, "e2e4", "e2e4");
    expect_move("chess", kiwi, "O-O", "e1g1");
    expect_move("chess", kiwi, "0-0-0", "e1c1");
    expect_move("chess", kiwi, "Qxf6", "f3f6");
    expect_move("chess", kiwi, "Nxf7", "e5f7");
    expect_move("chess", kiwi, "dxe6", "d5e6");
    expect_move("chess", kiwi, "Ncb5", "c3b5");
    expect_move("chess", kiwi, "Nc3b5", "c3b5");
    expect_move("chess", kiwi, "gxh3", "g2h3");
    expect_move("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N", "b7b8n");
    expect_move("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8q+", "b7b8q");
    expect_move("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8r",
                "b7b8r");
    expect_move("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6",
                "e5d6");
    expect_move("makruk", "4k3/8/8/P7/8/8/8/4K3 w - - 0 1", "a5a6",
                "a5a6m");
    expect_move("makruk", "4k3/8/8/P7/8/8/8/4K3 w - - 0 1", "a5a6m",
                "a5a6m");
    expect_move("makruk", NULL, "Sd2", "c1d2");
    expect_move("shatranj", "4k2r/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8",
                "a7a8q");
    expect_move("shatranj", NULL, "Bc1e3", "c1e3");
    expect_bad_move("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8",
                    "promotion piece");
    expect_bad_move("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8k",
                    "not a promotion piece");
    expect_bad_move("chess", NULL, "e2e5", "not a legal move");
    expect_bad_move("chess", NULL, "Nd2", "not a legal move");
    expect_bad_move("chess", NULL, "O-O", "not a legal move");
    expect_bad_move("chess", NULL, "zz99", "not a legal move");
    expect_bad_move("chess", NULL, "", "empty");
    expect_bad_move("chess", NULL, "e2e4e2e4e2e4e2e4", "not a move");
    /* castling is not allowed through an attacked square */
    expect_bad_move("chess", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O",
                    "not a legal move");
    expect_bad_move("chess", "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", "O-O-O",
                    "not a legal move");   /* in check */
    expect_move("chess", "4k3/8/8/8/8/8/8/Rr2K3 w Q - 0 1", "Kd2", "e1d2");
    /* b1 attacked does not matter for O-O-O */
    expect_move("chess", "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", "e1c1");
    /* en passant that would expose the king along the rank */
    expect_bad_move("chess", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "bxc6",
                    "not a legal move");
    expect_san(NULL, "g1f3", "Nf3");
    expect_san(kiwi, "e1g1", "O-O");
    expect_san(kiwi, "c3b5", "Nb5");
    expect_san(kiwi, "e5g6", "Nxg6");
    expect_san(kiwi, "f3f6", "Qxf6");
    expect_san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+");
    expect_san("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#");
    expect_san("6k1/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1");
    expect_san("7k/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", "R1a2");
}

/* -------------------------------------------------------------- setup */

static void expect_bad_fen(const char *game, const char *fen,
                           const char *msg)
{
    const GameVtbl *g = game_find(game);
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (!state_setup(g, st, NULL, fen, 1, &err))
        fail_msg("%s: '%s' accepted", game, fen);
    if (!strstr(err.msg, msg))
        fail_msg("%s: '%s': message '%s' lacks '%s'", game, fen, err.msg,
                 msg);
    free(st);
}

static void test_setup(void **state)
{
    (void)state;
    expect_bad_fen("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                   "8 ranks");
    expect_bad_fen("chess", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -",
                   "more than 8 squares");
    expect_bad_fen("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - -",
                   "w or b");
    expect_bad_fen("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w - -",
                   "one king");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/4K2X w - -", "'X'");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/4K3 w KX -", "KQkq");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/4K3 w - e9", "en passant");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 junk", "junk");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/P3K3 w - -", "pawn on a1");
    expect_bad_fen("chess", "4k2R/8/8/8/8/8/8/4K3 w - -", "not to move");
    expect_bad_fen("chess", "4k3/8/8/8/8/8/8/4K3", "at least 4 fields");
    expect_bad_fen("makruk", "4k3/P7/8/8/8/8/8/4K3 w - -", "pawn on a7");
    expect_bad_fen("makruk", "4k3/8/8/8/8/8/8/4KQ2 w - -", "'Q'");
    expect_bad_fen("makruk", "4k3/8/8/8/8/8/8/4K3 w KQ -", "no castling");
    expect_bad_fen("shatranj", "4k3/8/8/8/8/8/8/4KS2 w - -", "'S'");
    /* normalisation: unusable rights and ep squares are dropped */
    const GameVtbl *g = game_find("chess");
    void *st = tl_position("chess", NULL, "4k3/8/8/8/3p4/8/4P3/4K2R w KQkq e3 "
                           "0 1", NULL);
    char buf[128];
    g->to_text(st, buf, sizeof buf);
    assert_string_equal(buf, "4k3/8/8/8/3p4/8/4P3/4K2R w K - 0 1");
    free(st);
    st = tl_position("chess", NULL, NULL, "e4 Nf6 e5 d5");
    g->to_text(st, buf, sizeof buf);
    assert_string_equal(buf, "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/"
                             "RNBQKBNR w KQkq d6 0 3");
    free(st);
    st = tl_position("chess", NULL, NULL, "e4");
    g->to_text(st, buf, sizeof buf);   /* no black pawn can take on e3 */
    assert_string_equal(buf, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "
                             "b KQkq - 0 1");
    free(st);
}

/* --------------------------------------------------------------- eval */

/* The colour-flipped FEN: ranks reversed, cases swapped, side swapped. */
static void mirror_fen(const char *fen, char *out)
{
    char place[96], side[4], castle[8], ep[4];
    int half, full;
    assert_int_equal(sscanf(fen, "%95s %3s %7s %3s %d %d", place, side,
                            castle, ep, &half, &full), 6);
    char *ranks[8];
    int n = 0;
    char *save = NULL;
    for (char *r = strtok_r(place, "/", &save); r;
         r = strtok_r(NULL, "/", &save))
        ranks[n++] = r;
    assert_int_equal(n, 8);
    out[0] = 0;
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = (char)(islower((unsigned char)*c) ? toupper(*c)
                                                   : tolower(*c));
        strcat(out, ranks[i]);
        if (i)
            strcat(out, "/");
    }
    char cs[8] = "", *k = cs;
    for (const char *c = castle; *c; c++)
        if (*c != '-')
            *k++ = (char)(islower((unsigned char)*c) ? toupper(*c)
                                                     : tolower(*c));
    *k = 0;
    /* KQkq order */
    char ordered[8] = "";
    int no = 0;
    for (const char *o = "KQkq"; *o; o++)
        if (strchr(cs, *o))
            ordered[no++] = *o;
    ordered[no] = 0;
    if (ep[0] != '-')
        ep[1] = (char)('1' + '8' - ep[1]);
    sprintf(out + strlen(out), " %s %s %s %d %d", side[0] == 'w' ? "b" : "w",
            ordered[0] ? ordered : "-", ep, half, full);
}

static void test_eval(void **state)
{
    (void)state;
    for (int vi = 0; vi < 3; vi++) {
        const GameVtbl *g = game_find(FAMILY[vi]);
        Move mv[CB_MAX_MOVES];
        for (int gi = 0; gi < 20; gi++) {
            Rng r;
            rng_seed(&r, 500 + (uint64_t)gi);
            CBoard *b = tl_position(FAMILY[vi], NULL, NULL, NULL);
            while (g->to_move(b) != PLAYER_TERMINAL) {
                char fen[128], mfen[128];
                g->to_text(b, fen, sizeof fen);
                mirror_fen(fen, mfen);
                CBoard *m = tl_position(FAMILY[vi], NULL, mfen, NULL);
                for (int p = 0; p < 2; p++)
                    if (g->eval(b, p) != g->eval(m, !p))
                        fail_msg("%s: eval not colour-symmetric: %s (%d) "
                                 "vs %s (%d)", FAMILY[vi], fen,
                                 g->eval(b, p), mfen, g->eval(m, !p));
                assert_int_equal(g->eval(b, 0), -g->eval(b, 1));
                int n = g->gen_moves(b, mv);
                for (int i = 0; i < n; i++) {
                    int noisy = g->is_noisy(b, mv[i]);
                    assert_int_equal(noisy, cb_is_capture(b, mv[i]) ||
                                                CB_PROMO(mv[i]) != 0);
                    if (noisy)
                        assert_true(g->heuristic(b, mv[i]) >= 1000);
                    else
                        assert_true(g->heuristic(b, mv[i]) < 1000);
                }
                free(m);
                g->make(b, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(b);
        }
    }
    /* material counts: a queen up is clearly better */
    const GameVtbl *g = game_find("chess");
    void *st = tl_position("chess", NULL, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
                           NULL);
    assert_true(g->eval(st, 0) > 700);
    assert_true(g->eval(st, 1) < -700);
    free(st);
    /* MVV-LVA: pawn takes queen before queen takes pawn */
    st = tl_position("chess", NULL, "4k3/8/8/3q4/2P1p3/8/8/3QK3 w - - 0 1",
                     NULL);
    Move a, b2;
    PlyError err = {{0}};
    assert_int_equal(g->text_to_move(st, "cxd5", &a, &err), 0);
    assert_int_equal(g->text_to_move(st, "Qxd5", &b2, &err), 0);
    assert_true(g->heuristic(st, a) > g->heuristic(st, b2));
    free(st);
    /* one ply of eval finds the free queen, for each game's pieces */
    static const struct { const char *game, *fen, *best; } grab[] = {
        {"chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"},
        {"makruk", "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5"},
        {"shatranj", "4k3/8/8/3r4/8/8/3R4/4K3 b - - 0 1", "d5d2"},
    };
    for (size_t i = 0; i < sizeof grab / sizeof grab[0]; i++) {
        const GameVtbl *gg = game_find(grab[i].game);
        void *pos = tl_position(grab[i].game, NULL, grab[i].fen, NULL);
        Move mv[CB_MAX_MOVES], best = 0;
        int n = gg->gen_moves(pos, mv), bestv = -EVAL_WIN;
        int me = gg->to_move(pos);
        void *c = malloc(gg->info.state_size);
        for (int k = 0; k < n; k++) {
            memcpy(c, pos, gg->info.state_size);
            gg->make(c, mv[k]);
            int v = gg->eval(c, me);
            if (v > bestv) {
                bestv = v;
                best = mv[k];
            }
        }
        char buf[16];
        gg->move_to_text(pos, best, buf, sizeof buf);
        if (strcmp(buf, grab[i].best))
            fail_msg("%s: one ply of eval plays %s, not %s", grab[i].game,
                     buf, grab[i].best);
        free(c);
        free(pos);
    }
    /* en passant is noisy */
    st = tl_position("chess", NULL, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
                     NULL);
    assert_int_equal(g->text_to_move(st, "e5d6", &a, &err), 0);
    assert_true(g->is_noisy(st, a));
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_oracle),
        cmocka_unit_test(test_perft_fast_fens),
        cmocka_unit_test(test_slow_generator),
        cmocka_unit_test(test_chess_ends),
        cmocka_unit_test(test_variant_ends),
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
