/* test_belarusian.c — Belarusian chess: a second, slow and plain move
 * generator written from the rules text (letters on a char board, every
 * capture path enumerated, legality by asking whether any enemy piece
 * could take or jump the king) compared with the game's perft on random
 * positions; the first moves by hand; compulsory captures, chains,
 * promotion in a chain, the dama's continuation rule, check by a man,
 * castling, pawn promotion; setup and move errors. */
#include "testlib.h"
#include "core/rng.h"
#include "tools/perft.h"

/* ---- the slow generator ---- */

typedef struct SPos {
    char b[64];         /* '.' or a FEN letter, a1 = 0 */
    int side;           /* 0 White (upper case), 1 Black */
    char castle[5];
    int kingcap;        /* kings=capture: men jump kings, give no check */
} SPos;

typedef struct SMove {
    int from, to;
    char promo;         /* the piece letter it becomes, or 0 */
    unsigned long long caps;
    int castle;
} SMove;

static int sp_parse(SPos *p, const char *fen)
{
    memset(p, '.', sizeof p->b);
    int r = 7, f = 0;
    const char *q = fen;
    for (; *q && *q != ' '; q++) {
        if (*q == '/') {
            r--;
            f = 0;
        } else if (*q >= '1' && *q <= '8') {
            f += *q - '0';
        } else {
            p->b[r * 8 + f++] = *q;
        }
    }
    p->side = q[1] == 'b';
    sscanf(q + 3, "%4s", p->castle);
    return 0;
}

static int is_white(char c) { return c >= 'A' && c <= 'Z'; }
static int own(const SPos *p, char c)
{
    return c != '.' && is_white(c) == (p->side == 0);
}
static int enemy(const SPos *p, char c)
{
    return c != '.' && is_white(c) != (p->side == 0);
}
static char up(char c) { return c >= 'a' ? (char)(c - 32) : c; }
static int sq(int f, int r)
{
    return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}

/* Capture chains of the draughts piece at `at` (type 'M' or 'D' as it
 * stands now), with `taken` already jumped; appends each finished chain. */
static void chains(const SPos *p, int from, int at, char type,
                   unsigned long long taken, SMove *out, int *n)
{
    int found = 0;
    static const int dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int d = 0; d < 4; d++) {
        int f = at % 8, r = at / 8, dist = 0;
        /* walk to the piece to jump */
        int victim = -1;
        for (;;) {
            f += dirs[d][0];
            r += dirs[d][1];
            dist++;
            int s = sq(f, r);
            if (s < 0)
                break;
            char c = s == from ? '.' : p->b[s];
            if (c == '.') {
                if (type == 'M')
                    break;
                continue;
            }
            if (type == 'M' && dist > 1)
                break;
            if (enemy(p, c) && (up(c) != 'K' || p->kingcap) &&
                !(taken >> s & 1))
                victim = s;
            break;
        }
        if (victim < 0)
            continue;
        /* empty squares beyond it */
        int lands[8], nl = 0;
        f = victim % 8;
        r = victim / 8;
        for (;;) {
            f += dirs[d][0];
            r += dirs[d][1];
            int s = sq(f, r);
            if (s < 0 || (s != from && p->b[s] != '.'))
                break;
            lands[nl++] = s;
            if (type == 'M')
                break;
        }
        if (!nl)
            continue;
        found = 1;
        /* a dama must pick a square from which it can go on, if any */
        int more[8], any_more = 0;
        for (int i = 0; i < nl; i++) {
            char nt = type;
            if (type == 'M' && lands[i] / 8 == (p->side ? 0 : 7))
                nt = 'D';
            SMove tmp[64];
            int k = 0;
            chains(p, from, lands[i], nt, taken | 1ull << victim, tmp, &k);
            /* k > 0 with a longer chain than this jump means it went on */
            more[i] = 0;
            for (int j = 0; j < k; j++)
                if (__builtin_popcountll(tmp[j].caps) >
                    __builtin_popcountll(taken) + 1)
                    more[i] = 1;
            any_more |= more[i];
        }
        for (int i = 0; i < nl; i++) {
            if (any_more && !more[i])
                continue;
            char nt = type;
            if (type == 'M' && lands[i] / 8 == (p->side ? 0 : 7))
                nt = 'D';
            chains(p, from, lands[i], nt, taken | 1ull << victim, out, n);
        }
    }
    if (!found && taken) {
        char orig = up(p->b[from]);
        SMove m = {from, at, orig == 'M' && type == 'D' ? 'D' : 0, taken, 0};
        for (int i = 0; i < *n; i++)
            if (out[i].from == m.from && out[i].to == m.to &&
                out[i].caps == m.caps)
                return;
        assert_true(*n < 400);
        out[(*n)++] = m;
    }
}

static void apply(SPos *p, const SMove *m)
{
    char c = p->b[m->from];
    for (int s = 0; s < 64; s++)
        if (m->caps >> s & 1)
            p->b[s] = '.';
    p->b[m->from] = '.';
    if (m->promo)
        c = p->side ? (char)(m->promo + 32) : m->promo;
    p->b[m->to] = c;
    if (m->castle) {
        int r = m->from / 8, kingside = m->to > m->from;
        int rf = r * 8 + (kingside ? 7 : 0), rt = r * 8 + (kingside ? 5 : 3);
        p->b[rt] = p->b[rf];
        p->b[rf] = '.';
    }
    /* castling rights */
    char nc[5] = "";
    int k = 0;
    for (const char *q = p->castle; *q && *q != '-'; q++) {
        int white = *q == 'K' || *q == 'Q', r = white ? 0 : 7;
        int rookf = *q == 'K' || *q == 'k' ? 7 : 0;
        if (p->b[r * 8 + 4] == (white ? 'K' : 'k') &&
            p->b[r * 8 + rookf] == (white ? 'R' : 'r'))
            nc[k++] = *q;
    }
    nc[k] = 0;
    snprintf(p->castle, sizeof p->castle, "%s", k ? nc : "-");
    p->side ^= 1;
}

/* Whether the side to move could take square s (chess pieces landing on
 * it, a pawn diagonally, a man or dama jumping it at once). */
static int can_take(const SPos *p, int s)
{
    int fwd = p->side ? -1 : 1;
    for (int from = 0; from < 64; from++) {
        char c = p->b[from];
        if (!own(p, c))
            continue;
        int f = from % 8, r = from / 8, tf = s % 8, tr = s / 8;
        int df = tf - f, dr = tr - r;
        int adf = abs(df), adr = abs(dr);
        switch (up(c)) {
        case 'P':
            if (dr == fwd && adf == 1)
                return 1;
            break;
        case 'N':
            if ((adf == 1 && adr == 2) || (adf == 2 && adr == 1))
                return 1;
            break;
        case 'K':
            if (adf <= 1 && adr <= 1 && (adf || adr))
                return 1;
            break;
        case 'R': case 'B': case 'Q': case 'M': case 'D': {
            int straight = (df == 0) != (dr == 0);
            int diagonal = adf == adr && adf > 0;
            char t = up(c);
            if (!((t == 'R' && straight) || (t == 'B' && diagonal) ||
                  (t == 'Q' && (straight || diagonal)) ||
                  ((t == 'M' || t == 'D') && diagonal)))
                break;
            if (t == 'M' && adf != 1)
                break;
            if ((t == 'M' || t == 'D') && p->kingcap)
                break;
            int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0), clear = 1;
            for (int k = 1; k < (adf > adr ? adf : adr); k++)
                if (p->b[sq(f + sf * k, r + sr * k)] != '.')
                    clear = 0;
            if (!clear)
                break;
            if (t == 'M' || t == 'D') {
                int beyond = sq(tf + sf, tr + sr);
                if (beyond < 0 || p->b[beyond] != '.')
                    break;
            }
            return 1;
        }
        }
    }
    return 0;
}

static int king_sq(const SPos *p, int white)
{
    for (int s = 0; s < 64; s++)
        if (p->b[s] == (white ? 'K' : 'k'))
            return s;
    return -1;
}

static int in_check(const SPos *p)
{
    SPos q = *p;
    q.side ^= 1;
    return can_take(&q, king_sq(p, p->side == 0));
}

static int legal_after(const SPos *p, const SMove *m)
{
    SPos q = *p;
    apply(&q, m);
    return !can_take(&q, king_sq(&q, p->side == 0));
}

static int slow_gen(const SPos *p, SMove *out)
{
    SMove ps[400];
    int n = 0, k = 0;
    if (king_sq(p, p->side == 0) < 0)
        return 0;       /* the king was taken */
    /* draughts captures */
    for (int s = 0; s < 64; s++)
        if (own(p, p->b[s]) && (up(p->b[s]) == 'M' || up(p->b[s]) == 'D'))
            chains(p, s, s, up(p->b[s]), 0, ps, &k);
    for (int i = 0; i < k; i++)
        if (legal_after(p, &ps[i]))
            out[n++] = ps[i];
    if (n)
        return n;
    k = 0;
    int fwd = p->side ? -1 : 1, last = p->side ? 0 : 7;
    for (int s = 0; s < 64; s++) {
        char c = p->b[s];
        if (!own(p, c))
            continue;
        for (int t = 0; t < 64; t++) {
            if (t == s || own(p, p->b[t]))
                continue;
            int df = t % 8 - s % 8, dr = t / 8 - s / 8;
            int adf = abs(df), adr = abs(dr), ok = 0;
            int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0), clear = 1;
            if (adf == adr || !df || !dr)
                for (int j = 1; j < (adf > adr ? adf : adr); j++)
                    if (p->b[sq(s % 8 + sf * j, s / 8 + sr * j)] != '.')
                        clear = 0;
            char e = p->b[t];
            switch (up(c)) {
            case 'M': ok = e == '.' && dr == fwd && adf == 1; break;
            case 'D': ok = e == '.' && adf == adr && clear; break;
            case 'P':
                ok = (e == '.' && dr == fwd && df == 0) ||
                     (e != '.' && dr == fwd && adf == 1);
                break;
            case 'N': ok = (adf == 1 && adr == 2) || (adf == 2 && adr == 1);
                break;
            case 'K': ok = adf <= 1 && adr <= 1; break;
            case 'B': ok = adf == adr && clear; break;
            case 'R': ok = (!df || !dr) && clear; break;
            case 'Q': ok = (adf == adr || !df || !dr) && clear; break;
            }
            if (!ok)
                continue;
            if (up(c) == 'P' && t / 8 == last) {
                const char *pr = "QRBN";
                for (int j = 0; j < 4; j++)
                    ps[k++] = (SMove){s, t, pr[j], 0, 0};
            } else {
                ps[k++] = (SMove){s, t,
                                  up(c) == 'M' && t / 8 == last ? 'D' : 0, 0,
                                  0};
            }
        }
    }
    /* castling */
    if (!in_check(p))
        for (const char *q = p->castle; *q && *q != '-'; q++) {
            int white = *q == 'K' || *q == 'Q';
            if (white != (p->side == 0))
                continue;
            int r = white ? 0 : 7, ks = *q == 'K' || *q == 'k';
            int e = r * 8 + 4, dir = ks ? 1 : -1, ok = 1;
            for (int f = 4 + dir; f != (ks ? 7 : 0); f += dir)
                if (p->b[r * 8 + f] != '.')
                    ok = 0;
            for (int j = 1; j <= 2 && ok; j++) {
                SMove step = {e, e + dir * j, 0, 0, 0};
                if (!legal_after(p, &step))
                    ok = 0;
            }
            if (ok)
                ps[k++] = (SMove){e, e + 2 * dir, 0, 0, 1};
        }
    for (int i = 0; i < k; i++)
        if (legal_after(p, &ps[i]))
            out[n++] = ps[i];
    return n;
}

static unsigned long long slow_perft(const SPos *p, int depth)
{
    if (depth == 0)
        return 1;
    SMove mv[400];
    int n = slow_gen(p, mv);
    if (depth == 1)
        return (unsigned long long)n;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        SPos q = *p;
        apply(&q, &mv[i]);
        total += slow_perft(&q, depth - 1);
    }
    return total;
}

/* ---- tests ---- */

static const GameVtbl *bel(void)
{
    const GameVtbl *g = game_find("belarusian-chess");
    assert_non_null(g);
    return g;
}

static void compare_at(const GameVtbl *g, void *st, int depth, int kingcap)
{
    char fen[256];
    assert_true(g->to_text(st, fen, sizeof fen) > 0);
    SPos p;
    sp_parse(&p, fen);
    p.kingcap = kingcap;
    unsigned long long want = slow_perft(&p, depth);
    unsigned long long got = perft(g, st, depth, 0);
    if (got != want)
        fail_msg("perft %d of '%s': game %llu, slow generator %llu", depth,
                 fen, got, want);
}

static void random_compare(const char *opts, int positions, int depth,
                           uint64_t seed)
{
    const GameVtbl *g = bel();
    int kingcap = opts && strstr(opts, "kings=capture") != NULL;
    Move mv[400];
    int done = 0;
    for (int game = 0; done < positions; game++) {
        void *st = tl_position("belarusian-chess", opts, NULL, NULL);
        Rng r;
        rng_seed(&r, seed + (uint64_t)game);
        int stop = 2 + (int)rng_below(&r, 120);
        for (int ply = 0; ply < stop && g->to_move(st) != PLAYER_TERMINAL;
             ply++) {
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            assert_int_equal(g->check(st), 0);
        }
        if (g->to_move(st) != PLAYER_TERMINAL) {
            /* a fresh position from its text: no history behind it */
            char fen[256];
            assert_true(g->to_text(st, fen, sizeof fen) > 0);
            void *fresh = tl_position("belarusian-chess", opts, fen, NULL);
            compare_at(g, fresh, depth, kingcap);
            free(fresh);
            done++;
        }
        free(st);
    }
}

static void test_start(void **state)
{
    (void)state;
    const GameVtbl *g = bel();
    void *st = tl_position("belarusian-chess", NULL, NULL, NULL);
    Move mv[400];
    /* 7 man steps (a3b4 c3b4 c3d4 e3d4 e3f4 g3f4 g3h4) and 4 pawn steps
     * (b3 d3 f3 h3); the knight on b1 is boxed in by men */
    assert_int_equal(g->gen_moves(st, mv), 11);
    for (int d = 1; d <= 3; d++)
        compare_at(g, st, d, 0);
    free(st);
    st = tl_position("belarusian-chess", "setup=2", NULL, NULL);
    for (int d = 1; d <= 3; d++)
        compare_at(g, st, d, 0);
    free(st);
}

static void test_random_positions(void **state)
{
    (void)state;
    int n = tl_slow() ? 400 : 40, depth = tl_slow() ? 4 : 3;
    random_compare(NULL, n, 3, 11);
    random_compare("setup=2", n / 2, 3, 5011);
    random_compare("kings=capture", n / 2, 3, 7011);
    random_compare("setup=2,kings=capture", n / 4, 3, 8011);
    if (tl_slow())
        random_compare(NULL, 60, depth, 9011);
}

static int legal(const char *setup, const char *move)
{
    const GameVtbl *g = bel();
    void *st = tl_position("belarusian-chess", NULL, setup, NULL);
    Move m;
    PlyError err;
    int ok = g->text_to_move(st, move, &m, &err) == 0;
    free(st);
    return ok;
}

static void expect_after(const char *setup, const char *moves,
                         const char *want)
{
    const GameVtbl *g = bel();
    void *st = tl_position("belarusian-chess", NULL, setup, moves);
    char buf[256];
    assert_true(g->to_text(st, buf, sizeof buf) > 0);
    assert_string_equal(buf, want);
    free(st);
}

static void test_draughts_rules(void **state)
{
    (void)state;
    /* a capture is compulsory: the man on c3 must take d4 */
    const char *pos = "4k3/8/8/8/3m4/2M5/8/4K3 w - 1";
    assert_true(legal(pos, "c3xe5"));
    assert_true(legal(pos, "c3e5"));
    assert_false(legal(pos, "e1e2"));
    /* a chain goes on: b2 takes c3 and e5 */
    expect_after("4k3/8/8/4m3/8/2m5/1M6/4K3 w - 1", "b2xd4xf6",
                 "4k3/8/5M2/8/8/8/8/4K3 b - 1");
    assert_false(legal("4k3/8/8/4m3/8/2m5/1M6/4K3 w - 1", "b2xd4"));
    /* a man taking backwards */
    assert_true(legal("4k3/8/8/8/8/2M5/1m6/4K3 w - 1", "c3xa1"));
    /* promoted on e8 in the chain, the new dama flies on: f7 empty, it
     * jumps g6 (a man could not) and lands on h5 */
    expect_after("k7/3m4/2M3m1/8/8/8/8/K7 w - 1", "c6xe8xh5",
                 "k7/8/8/7D/8/8/8/K7 b - 1");
    /* a dama lands only where it can go on: from a1 it takes c3 and may
     * land on d4 .. h8, but only from d4 does it go on (over b6) */
    expect_after("4k3/8/1m6/8/8/2m5/8/D6K w - 1", "a1xd4xa7",
                 "4k3/D7/8/8/8/8/8/7K b - 1");
    assert_false(legal("4k3/8/1m6/8/8/2m5/8/D6K w - 1", "a1xe5"));
    assert_false(legal("4k3/8/1m6/8/8/2m5/8/D6K w - 1", "a1xd4"));
    /* without b6 every square beyond c3 ends the capture */
    assert_true(legal("4k3/8/8/8/8/2m5/8/D6K w - 1", "a1xg7"));
    /* a man next to the king with an empty square beyond gives check */
    {
        const GameVtbl *g = bel();
        void *st = tl_position("belarusian-chess", NULL,
                               "4k3/8/8/8/8/3m4/4K3/8 w - 1", NULL);
        assert_true(g->in_check(st));   /* d3 could jump e2 to f1 */
        free(st);
        st = tl_position("belarusian-chess", NULL,
                         "4k3/8/8/8/8/3m4/4K3/5Q2 w - 1", NULL);
        assert_false(g->in_check(st));  /* f1 taken: no jump */
        free(st);
        /* the king may not step where a man could jump it */
        assert_false(legal("4k3/8/8/8/8/3m4/8/4K3 w - 1", "e1e2"));
        assert_true(legal("4k3/8/8/8/8/3m4/8/4KQ2 w - 1", "e1e2"));
    }
}

/* kings=capture (Dagaz): the man takes the king and wins; it gave no
 * check before, so the king could stand there */
static void test_kings_capture(void **state)
{
    (void)state;
    const GameVtbl *g = bel();
    void *st = tl_position("belarusian-chess", "kings=capture",
                           "4k3/8/8/8/8/3m4/4K3/8 b - 1", NULL);
    assert_false(g->in_check(st));
    Move m;
    PlyError err;
    /* the capture is compulsory, and it takes the king */
    assert_int_equal(g->text_to_move(st, "d3xf1", &m, &err), 0);
    assert_int_not_equal(g->text_to_move(st, "e8e7", &m, &err), 0);
    g->make(st, m);
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double ret[2];
    g->returns(st, ret);
    assert_true(ret[0] == -1 && ret[1] == 1);
    assert_string_equal(g->end_reason(st), "the king was taken");
    free(st);
    /* by default the same position is illegal: White would be in check
     * with Black to move, so White's king must not stand there */
    st = state_alloc(g);
    assert_int_not_equal(g->from_text(st, "4k3/8/8/8/8/3m4/4K3/8 b - 1",
                                      &err), 0);
    free(st);
}

static void test_chess_rules(void **state)
{
    (void)state;
    /* castling, and the rights in the setup string */
    expect_after("4k3/8/8/8/8/8/8/4K2R w K 1", "e1g1",
                 "4k3/8/8/8/8/8/8/5RK1 b - 1");
    assert_false(legal("4k3/8/8/8/8/8/8/4K2R w - 1", "e1g1"));
    assert_false(legal("4k3/8/8/8/8/8/5r2/4K2R w K 1", "e1g1"));
    /* no double step */
    assert_false(legal("4k3/8/8/8/8/8/4P3/4K3 w - 1", "e2e4"));
    /* promotion to each piece */
    expect_after("4k3/1P6/8/8/8/8/8/4K3 w - 1", "b7b8n",
                 "1N2k3/8/8/8/8/8/8/4K3 b - 1");
    assert_false(legal("4k3/1P6/8/8/8/8/8/4K3 w - 1", "b7b8"));
    /* checkmate and stalemate */
    {
        const GameVtbl *g = bel();
        void *st = tl_position("belarusian-chess", NULL,
                               "k7/8/1Q6/8/8/8/8/4K3 w - 1", "b6b7");
        /* b7 is guarded? no: the king takes it: not mate */
        assert_int_not_equal(g->to_move(st), PLAYER_TERMINAL);
        free(st);
        st = tl_position("belarusian-chess", NULL,
                         "k7/8/1QK5/8/8/8/8/8 w - 1", "b6b7");
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        double ret[2];
        g->returns(st, ret);
        assert_true(ret[0] == 1 && ret[1] == -1);
        free(st);
        st = tl_position("belarusian-chess", NULL,
                         "k7/8/3Q4/8/8/8/8/4K3 w - 1", "e1e2");
        assert_int_not_equal(g->to_move(st), PLAYER_TERMINAL);
        free(st);
        st = tl_position("belarusian-chess", NULL,
                         "k7/8/3Q4/8/8/8/8/4K3 w - 1", "d6b6");
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        g->returns(st, ret);
        assert_true(ret[0] == 0 && ret[1] == 0);
        free(st);
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    const GameVtbl *g = bel();
    void *st = state_alloc(g);
    const char *bad[] = {
        "4k3/8/8/8/8/8/8/4K3",                  /* no side */
        "4k3/8/8/8/8/8/8/4K3 x - 1",            /* bad side */
        "4k3/8/8/8/8/8/8/4KK2 w - 1",           /* two kings */
        "4k3/8/8/8/8/8/8/4K3 w K 1",            /* no rook for K */
        "4k2M/8/8/8/8/8/8/4K3 w - 1",           /* a man on its last rank */
        "4k3/8/8/8/8/8/8/4K2Z w - 1",           /* bad letter */
        "4k3/8/8/8/8/8/8/4K3/8 w - 1",          /* nine ranks */
        "4k3/4Q3/8/8/8/8/8/4K3 w - 1",          /* Black in check, White
                                                   to move */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        PlyError err = {{0}};
        if (g->from_text(st, bad[i], &err) == 0)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
    }
    free(st);
    assert_false(legal(NULL, "a3a4"));
    assert_false(legal(NULL, "zz"));
    assert_false(legal(NULL, "b1c3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_draughts_rules),
        cmocka_unit_test(test_chess_rules),
        cmocka_unit_test(test_kings_capture),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
