/* test_hidden.c — games with hidden information and honest bots.
 *
 * - dark-chess perft against a second, slow and obviously correct
 *   generator written here: pseudo-legal chess on a mailbox, the game
 *   over when a king is taken;
 * - what a player sees in dark chess (start position, a capture in view,
 *   king capture wins, views refused as setups);
 * - the honesty test, for every hidden-information game and every
 *   registered bot that plays it: from two true states that look the same
 *   to the player to move (different hidden parts), with the same seed, the
 *   bot run through a Session (as every front end runs it) chooses the
 *   same move with the same search figures. A bot that peeks at the true
 *   state (kept here as the negative control) fails the same check. */
#include <math.h>

#include "testlib.h"

#include "core/bot.h"
#include "core/session.h"
#include "search/belief.h"

/* ------------------------------------------------- the slow generator */

typedef struct Slow {
    char sq[64];        /* FEN letters, 0 when empty */
    int side;           /* 0 white, 1 black */
    int castle;         /* 1 K, 2 Q, 4 k, 8 q */
    int ep;             /* square or -1 */
} Slow;

typedef struct SMove {
    int from, to;
    char promo;         /* lower case letter or 0 */
} SMove;

static int slow_parse(Slow *s, const char *fen)
{
    memset(s, 0, sizeof *s);
    s->ep = -1;
    int r = 7, f = 0;
    const char *c = fen;
    for (; *c && *c != ' '; c++) {
        if (*c == '/') {
            r--, f = 0;
        } else if (*c >= '1' && *c <= '8') {
            f += *c - '0';
        } else {
            s->sq[r * 8 + f] = *c;
            f++;
        }
    }
    c++;
    s->side = *c == 'b';
    c += 2;
    for (; *c && *c != ' '; c++)
        s->castle |= *c == 'K' ? 1 : *c == 'Q' ? 2 : *c == 'k' ? 4
                   : *c == 'q' ? 8 : 0;
    c++;
    if (*c != '-')
        s->ep = (c[1] - '1') * 8 + (c[0] - 'a');
    return 0;
}

static int color_of(char p) { return p >= 'a' ? 1 : 0; }
static int up(char p) { return p >= 'a' ? p - 32 : p; }

static int slow_gen(const Slow *s, SMove *out)
{
    int n = 0, us = s->side;
    static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                   {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int from = 0; from < 64; from++) {
        char p = s->sq[from];
        if (!p || color_of(p) != us)
            continue;
        int r = from / 8, f = from % 8, t = up(p);
        if (t == 'P') {
            int dr = us ? -1 : 1, last = us ? 0 : 7, start = us ? 6 : 1;
            int r1 = r + dr;
            /* pushes */
            if (!s->sq[r1 * 8 + f]) {
                if (r1 == last) {
                    const char *pr = "qrbn";
                    for (int i = 0; i < 4; i++)
                        out[n++] = (SMove){from, r1 * 8 + f, pr[i]};
                } else {
                    out[n++] = (SMove){from, r1 * 8 + f, 0};
                    if (r == start && !s->sq[(r1 + dr) * 8 + f])
                        out[n++] = (SMove){from, (r1 + dr) * 8 + f, 0};
                }
            }
            for (int df = -1; df <= 1; df += 2) {
                int f1 = f + df;
                if (f1 < 0 || f1 > 7)
                    continue;
                int to = r1 * 8 + f1;
                char q = s->sq[to];
                if ((q && color_of(q) != us) || to == s->ep) {
                    if (r1 == last) {
                        const char *pr = "qrbn";
                        for (int i = 0; i < 4; i++)
                            out[n++] = (SMove){from, to, pr[i]};
                    } else {
                        out[n++] = (SMove){from, to, 0};
                    }
                }
            }
            continue;
        }
        if (t == 'N' || t == 'K') {
            for (int i = 0; i < 8; i++) {
                int r1 = r + (t == 'N' ? kn[i][0] : dirs[i][0]);
                int f1 = f + (t == 'N' ? kn[i][1] : dirs[i][1]);
                if (r1 < 0 || r1 > 7 || f1 < 0 || f1 > 7)
                    continue;
                char q = s->sq[r1 * 8 + f1];
                if (!q || color_of(q) != us)
                    out[n++] = (SMove){from, r1 * 8 + f1, 0};
            }
            if (t == 'K') {
                int base = us ? 56 : 0;
                char rook = us ? 'r' : 'R';
                if (from == base + 4 && (s->castle & (us ? 4 : 1)) &&
                    s->sq[base + 7] == rook && !s->sq[base + 5] &&
                    !s->sq[base + 6])
                    out[n++] = (SMove){from, base + 6, 0};
                if (from == base + 4 && (s->castle & (us ? 8 : 2)) &&
                    s->sq[base] == rook && !s->sq[base + 1] &&
                    !s->sq[base + 2] && !s->sq[base + 3])
                    out[n++] = (SMove){from, base + 2, 0};
            }
            continue;
        }
        int d0 = t == 'B' ? 4 : 0, d1 = t == 'R' ? 4 : 8;
        for (int d = d0; d < d1; d++) {
            int r1 = r, f1 = f;
            for (;;) {
                r1 += dirs[d][0], f1 += dirs[d][1];
                if (r1 < 0 || r1 > 7 || f1 < 0 || f1 > 7)
                    break;
                char q = s->sq[r1 * 8 + f1];
                if (q && color_of(q) == us)
                    break;
                out[n++] = (SMove){from, r1 * 8 + f1, 0};
                if (q)
                    break;
            }
        }
    }
    return n;
}

/* Plays m; returns 1 when it took a king. */
static int slow_make(Slow *s, SMove m)
{
    int us = s->side;
    char p = s->sq[m.from];
    int king = 0;
    if (up(p) == 'P' && m.to == s->ep)
        s->sq[m.to + (us ? 8 : -8)] = 0;
    if (s->sq[m.to] && up(s->sq[m.to]) == 'K')
        king = 1;
    s->sq[m.to] = m.promo ? (char)(us ? m.promo : m.promo - 32) : p;
    s->sq[m.from] = 0;
    if (up(p) == 'K' && (m.to - m.from == 2 || m.from - m.to == 2)) {
        int rf = m.to > m.from ? m.from + 3 : m.from - 4;
        int rt = m.to > m.from ? m.from + 1 : m.from - 1;
        s->sq[rt] = s->sq[rf];
        s->sq[rf] = 0;
    }
    static const int touch[6] = {4, 0, 7, 60, 56, 63};
    static const int lose[6] = {3, 2, 1, 12, 8, 4};
    for (int i = 0; i < 6; i++)
        if (m.from == touch[i] || m.to == touch[i])
            s->castle &= ~lose[i];
    s->ep = -1;
    if (up(p) == 'P' && (m.to - m.from == 16 || m.from - m.to == 16))
        s->ep = (m.from + m.to) / 2;
    s->side = !us;
    return king;
}

static uint64_t slow_perft(const Slow *s, int depth)
{
    if (depth == 0)
        return 1;
    SMove mv[256];
    int n = slow_gen(s, mv);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Slow c = *s;
        if (slow_make(&c, mv[i]))
            total += depth == 1;   /* the game ends with the king taken */
        else
            total += slow_perft(&c, depth - 1);
    }
    return total;
}

static uint64_t game_perft(const GameVtbl *g, const void *st, int depth)
{
    if (depth == 0)
        return 1;
    if (g->to_move(st) < 0)
        return 0;
    Move mv[512];
    int n = g->gen_moves(st, mv);
    uint64_t total = 0;
    void *c = malloc(g->info.state_size);
    for (int i = 0; i < n; i++) {
        memcpy(c, st, g->info.state_size);
        g->make(c, mv[i]);
        total += game_perft(g, c, depth - 1);
    }
    free(c);
    return total;
}

static void test_dark_perft(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int depth;
    } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
         "0 1", 3},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
         3},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3},
        /* a king in reach at once, en passant possible */
        {"4k3/8/8/3pP3/8/8/8/4K2q w - d6 0 1", 3},
    };
    const GameVtbl *g = game_find("dark-chess");
    assert_non_null(g);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *st = tl_position("dark-chess", NULL, cases[i].fen, NULL);
        Slow s;
        slow_parse(&s, cases[i].fen);
        for (int d = 1; d <= cases[i].depth; d++) {
            uint64_t a = game_perft(g, st, d), b = slow_perft(&s, d);
            if (a != b)
                fail_msg("dark-chess perft %d of '%s': %llu, the slow "
                         "generator %llu", d, cases[i].fen,
                         (unsigned long long)a, (unsigned long long)b);
        }
        free(st);
    }
    /* the start position's count is the pseudo-legal one (no check) */
    void *st = tl_position("dark-chess", NULL, NULL, NULL);
    assert_int_equal(game_perft(g, st, 4), 197742);
    free(st);
}

/* --------------------------------------------------- what a seat sees */

static void test_dark_views(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("dark-chess");
    size_t sz = g->info.state_size;
    char buf[512];
    void *obs = malloc(sz);
    void *st = tl_position("dark-chess", NULL, NULL, NULL);
    g->observe(st, 0, obs);
    assert_true(g->to_text(obs, buf, sizeof buf) > 0);
    /* White sees ranks 1-4, nothing of Black */
    assert_string_equal(buf, "?\?\?\?\?\?\?\?/?\?\?\?\?\?\?\?/?\?\?\?\?\?\?\?/"
                             "?\?\?\?\?\?\?\?/8/8/"
                             "PPPPPPPP/RNBQKBNR w KQ - 0 1 view white "
                             "hidden kqrrbbnnpppppppp");
    free(st);
    /* after 1.e4 d5 White sees the pawn on d5 (e4 attacks it), not e7 */
    st = tl_position("dark-chess", NULL, NULL, "e2e4 d7d5");
    g->observe(st, 0, obs);
    assert_true(g->render(obs, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "5  ? . ? p . . ? ."));  /* Bf1, Qd1 rays */
    assert_non_null(strstr(buf, "7  ? ? ? ? ? ? ? ?"));
    /* a view is not a true position */
    PlyError err = {{0}};
    g->to_text(obs, buf, sizeof buf);
    void *t = state_alloc(g);
    assert_int_equal(state_setup(g, t, NULL, buf, 1, &err), -1);
    assert_non_null(strstr(err.msg, "view"));
    assert_null(strstr(err.msg, "pppp"));   /* and tells nothing hidden */
    free(t);
    free(st);
    /* no check rule: the king may walk into an attack, then be taken */
    st = tl_position("dark-chess", NULL, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
                     "e1e2");   /* takes the rook */
    free(st);
    st = tl_position("dark-chess", NULL, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
                     "e1f1 d2d1 f1g2 d1g1");   /* g2 is attacked: legal */
    free(st);
    st = tl_position("dark-chess", NULL, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
                     "e1e2 d2e2");   /* the king is taken: Black wins */
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[1] == 1 && r[0] == -1);
    free(st);
    free(obs);
}

/* Views read back (from_view, for an external engine's position): over
 * seeded random games of every hidden game that reads views, each seat's
 * observation written by to_text and read by from_view is the same
 * observation, with the same seat; hostile views are refused with a
 * message. */
static void test_views_read(void **state)
{
    (void)state;
    int games = 0;
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        if (!(g->info.flags & GAME_HIDDEN) || !g->from_view)
            continue;
        games++;
        size_t sz = g->info.state_size;
        void *st = state_alloc(g), *obs = state_alloc(g), *back = state_alloc(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        char buf[1024];
        PlyError err = {{0}};
        Rng r;
        rng_seed(&r, 7);
        long checked = 0;
        for (int game = 0; game < 40; game++) {
            assert_int_equal(state_setup(g, st, NULL, NULL, (uint64_t)game,
                                         &err), 0);
            for (int ply = 0; ply < 300; ply++) {
                int tm = g->to_move(st);
                if (tm == PLAYER_TERMINAL)
                    break;
                for (int p = 0; p < g->info.num_players; p++) {
                    memset(obs, 0, sz);
                    g->observe(st, p, obs);
                    assert_true(g->to_text(obs, buf, sizeof buf) > 0);
                    memset(back, 0xa5, sz);
                    assert_int_equal(g->init(back, NULL, 1, &err), 0);
                    int seat = g->from_view(back, buf, &err);
                    if (seat != p || memcmp(back, obs, sz))
                        fail_msg("%s: view '%s' of seat %d read back as "
                                 "seat %d (%s), %s", g->info.name, buf, p,
                                 seat, err.msg, seat == p ? "another "
                                 "observation" : "");
                    checked++;
                }
                if (tm == PLAYER_CHANCE) {
                    Move out[256];
                    double pr[256];
                    int n = g->chance_outcomes(st, out, pr);
                    g->make(st, out[rng_below(&r, (uint32_t)n)]);
                    continue;
                }
                int n = g->gen_moves(st, mv);
                g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            }
        }
        assert_true(checked > 1000);
        /* hostile views: refused with a message, never a crash */
        static const char *const bad[] = {
            "", "view white hidden -", "8/8/8/8/8/8/8/8 w - - 0 1",
            "8/8/8/8/8/8/8/8/?\?\? w - - 0 1 view white hidden -",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 view green hidden -",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 view white hidden QQ",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 view white hidden k",
            "4k3/8/8/8/8/8/8/?\?\?\?\?\?K\? w - - 0 1 view white hidden "
            "qqqqqqqqqqqqqqqqq",
            "4k3/8/8/8/8/8/8/4K2\?\? w - - 0 1 view white hidden -",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 view white hidden p",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 view white hidden - extra",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 view white hidden",
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            PlyError e = {{0}};
            assert_int_equal(g->init(back, NULL, 1, &e), 0);
            if (g->from_view(back, bad[k], &e) >= 0)
                fail_msg("%s: hostile view '%s' accepted", g->info.name,
                         bad[k]);
            assert_true(e.msg[0] != 0);
        }
        free(mv);
        free(st);
        free(obs);
        free(back);
    }
    assert_true(games >= 1);
}

/* ---------------------------------------------------- the honesty test */

/* Runs the bot of one seat at a true state; fills the move and figures. */
typedef struct Runner {
    void (*run)(struct Runner *r, const GameVtbl *g, const void *truth,
                SearchInfo *out);
    const char *spec;
    void *peek;       /* the peeking bot */
} Runner;

/* As every front end runs a bot: a Session at the true state; the Session
 * hands the bot the mover's observation. A fresh session each time, so
 * the seed is the same. */
static void run_session(Runner *r, const GameVtbl *g, const void *truth,
                        SearchInfo *out)
{
    PlyError err = {{0}};
    Session *s = session_new(g, NULL, r->spec, 7, &err);
    if (!s)
        fail_msg("%s: %s", r->spec, err.msg);
    if (session_set_state(s, truth, &err) || session_go(s, NULL, 0, &err))
        fail_msg("%s: %s", r->spec, err.msg);
    session_wait(s, out);
    out->seconds = 0;   /* the only figure that may differ */
    session_free(s);
}

/* The negative control: a bot that gets the observation like any other
 * but reads the true state through a side channel (as a bot would that
 * was handed the referee's state): the best move by eval in the truth. */
typedef struct Peek {
    const void *truth;
    unsigned char child[4096];
    Move mv[1024];
} Peek;

static void run_peek(Runner *r, const GameVtbl *g, const void *truth,
                     SearchInfo *out)
{
    Peek *pk = r->peek;
    pk->truth = truth;
    memset(out, 0, sizeof *out);
    assert_true(g->info.state_size <= sizeof pk->child);
    int me = g->to_move(pk->truth);
    int n = g->gen_moves(pk->truth, pk->mv);
    int best = -EVAL_WIN - 1;
    for (int i = 0; i < n; i++) {
        memcpy(pk->child, pk->truth, g->info.state_size);
        g->make(pk->child, pk->mv[i]);
        int v;
        if (g->to_move(pk->child) == PLAYER_TERMINAL) {
            double ret[PLY_MAX_PLAYERS];
            g->returns(pk->child, ret);
            v = (int)(ret[me] * EVAL_MAX);
        } else {
            v = g->eval ? g->eval(pk->child, me) : 0;
        }
        if (v > best) {
            best = v;
            out->best = pk->mv[i];
            out->value = v;
        }
    }
    out->nodes = (uint64_t)n;
}

static int same_figures(const SearchInfo *a, const SearchInfo *b)
{
    return a->best == b->best && a->value == b->value &&
           a->proven == b->proven && a->depth == b->depth &&
           a->nodes == b->nodes && a->playouts == b->playouts &&
           a->pv_len == b->pv_len &&
           !memcmp(a->pv, b->pv, sizeof(Move) * (size_t)a->pv_len) &&
           a->top_len == b->top_len &&
           !memcmp(a->top, b->top, sizeof(Move) * (size_t)a->top_len);
}

enum { HONEST_POSITIONS = 10 };

/* Pairs of true states with one observation for the mover, from seeded
 * random games; returns how many (all differ in what the mover cannot
 * see). */
static int honest_pairs(const GameVtbl *g, unsigned char **a,
                        unsigned char **b)
{
    size_t sz = g->info.state_size;
    unsigned char *obs = malloc(sz), *obs2 = malloc(sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    int k = 0;
    for (uint64_t seed = 1; k < HONEST_POSITIONS && seed < 400; seed++) {
        Rng r;
        rng_seed(&r, seed);
        int opt[PLY_MAX_OPTIONS];
        PlyError err = {{0}};
        assert_int_equal(options_parse(g, NULL, opt, &err), 0);
        memset(a[k], 0, sz);
        assert_int_equal(g->init(a[k], opt, seed, &err), 0);
        int plies = 4 + (int)rng_below(&r, 40);
        for (int i = 0; i < plies && g->to_move(a[k]) >= 0; i++) {
            int n = g->gen_moves(a[k], mv);
            g->make(a[k], mv[rng_below(&r, (uint32_t)n)]);
        }
        int p = g->to_move(a[k]);
        if (p < 0)
            continue;
        g->observe(a[k], p, obs);
        g->determinize(obs, p, &r, b[k]);
        g->observe(b[k], p, obs2);
        assert_memory_equal(obs, obs2, sz);
        if (!memcmp(a[k], b[k], sz))
            continue;   /* nothing hidden differs: no pair */
        k++;
    }
    free(obs), free(obs2), free(mv);
    return k;
}

/* Whether every player's observation is the whole state, over seeded
 * random games. */
static int no_private_parts(const GameVtbl *g)
{
    size_t sz = g->info.state_size;
    unsigned char *st = malloc(sz), *obs = malloc(sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    int opt[PLY_MAX_OPTIONS], same = 1;
    PlyError err = {{0}};
    assert_int_equal(options_parse(g, NULL, opt, &err), 0);
    for (uint64_t seed = 1; seed <= 20 && same; seed++) {
        Rng r;
        rng_seed(&r, seed);
        memset(st, 0, sz);
        assert_int_equal(g->init(st, opt, seed, &err), 0);
        for (int i = 0; i < 200 && g->to_move(st) != PLAYER_TERMINAL; i++) {
            for (int p = 0; p < g->info.num_players; p++) {
                g->observe(st, p, obs);
                same &= !memcmp(st, obs, sz);
            }
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
    }
    free(st), free(obs), free(mv);
    return same;
}

/* How many pairs the runner answers differently. */
static int dishonest_pairs(Runner *run, const GameVtbl *g,
                           unsigned char **a, unsigned char **b, int k)
{
    int bad = 0;
    for (int i = 0; i < k; i++) {
        SearchInfo x, y;
        run->run(run, g, a[i], &x);
        run->run(run, g, b[i], &y);
        bad += !same_figures(&x, &y);
    }
    return bad;
}

static void test_honesty(void **state)
{
    (void)state;
    int games = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (!(g->info.flags & GAME_HIDDEN))
            continue;
        games++;
        size_t sz = g->info.state_size;
        unsigned char *a[HONEST_POSITIONS], *b[HONEST_POSITIONS];
        for (int i = 0; i < HONEST_POSITIONS; i++)
            a[i] = malloc(sz), b[i] = malloc(sz);
        int k = honest_pairs(g, a, b);
        if (k == 0 && no_private_parts(g)) {
            /* nothing hidden from one player that the other knows (banqi:
             * face-down pieces are chance for both): the bots get the
             * whole state, there is nothing to peek at */
            for (int i = 0; i < HONEST_POSITIONS; i++)
                free(a[i]), free(b[i]);
            continue;
        }
        if (k < HONEST_POSITIONS)
            fail_msg("%s: only %d positions with hidden parts", g->info.name,
                     k);
        int bots = 0;
        for (int bi = 0; ply_bots[bi]; bi++) {
            const BotVtbl *v = ply_bots[bi];
            char spec[128];
            snprintf(spec, sizeof spec, "%s:nodes=%d", v->name,
                     !strcmp(v->name, "pimc") ? 600 : 300);
            PlyError err = {{0}};
            Bot *probe = bot_new(g, spec, 1, &err);
            if (!probe)
                continue;   /* a bot of another game (vindinium) */
            bot_free(probe);
            bots++;
            Runner run = {.run = run_session, .spec = spec};
            int bad = dishonest_pairs(&run, g, a, b, k);
            if (bad)
                fail_msg("%s on %s: %d of %d positions answered differently "
                         "for one observation", spec, g->info.name, bad, k);
        }
        /* ismcts with a tree per player (mo=1), a variant of a bot */
        Runner mo = {.run = run_session, .spec = "ismcts:nodes=300,mo=1"};
        int bad_mo = dishonest_pairs(&mo, g, a, b, k);
        if (bad_mo)
            fail_msg("ismcts:mo=1 on %s: %d of %d positions answered "
                     "differently for one observation", g->info.name, bad_mo,
                     k);
        /* random, greedy, alphabeta, mcts, ismcts, pimc at least */
        if (bots < 6)
            fail_msg("%s: only %d bots play it", g->info.name, bots);
        /* the control: a bot that peeks fails the same check */
        Peek *pk = calloc(1, sizeof *pk);
        Runner peek = {.run = run_peek, .peek = pk};
        int bad = dishonest_pairs(&peek, g, a, b, k);
        if (bad < k / 2)
            fail_msg("%s: the peeking bot passed the honesty check (%d of "
                     "%d positions differ)", g->info.name, bad, k);
        free(pk);
        for (int i = 0; i < HONEST_POSITIONS; i++)
            free(a[i]), free(b[i]);
    }
    assert_true(games >= 1);
}

/* ------------------------- honesty over a whole game (memory of earlier
 * observations) */

/* Two true games that the seat `seat` sees alike at every one of its
 * turns: the seat's bot plays the same move in both (it is asserted to
 * choose the same), the other side plays a seeded random move in the first
 * game and, in the second, a move that leaves the seat the same
 * observation, a different one when there is. Each game's bot runs in its
 * own Session, as front ends run it, so it remembers what it saw. Returns
 * the seat's turns at which the two true states differed (the turns that
 * test something), and counts in *peek_bad the turns at which the peeking
 * bot answered differently; fails when the bot does. */
static int game_pair(const GameVtbl *g, const char *spec, int seat,
                     uint64_t seed, int plies, int *peek_bad)
{
    size_t sz = g->info.state_size;
    PlyError err = {{0}};
    Session *s1 = session_new(g, NULL, spec, 7, &err);
    Session *s2 = session_new(g, NULL, spec, 7, &err);
    if (!s1 || !s2)
        fail_msg("%s: %s", spec, err.msg);
    unsigned char *o1 = malloc(sz), *o2 = malloc(sz), *c2 = malloc(sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Peek *pk = calloc(1, sizeof *pk);
    Runner peek = {.run = run_peek, .peek = pk};
    Rng r;
    rng_seed(&r, seed);
    int differing = 0;
    for (int ply = 0; ply < plies; ply++) {
        const void *t1 = session_state(s1), *t2 = session_state(s2);
        int p = g->to_move(t1);
        if (p < 0)
            break;
        assert_int_equal(p, g->to_move(t2));
        Move m;
        if (p == seat) {
            SearchInfo x, y;
            assert_int_equal(session_go(s1, NULL, 0, &err), 0);
            session_wait(s1, &x);
            assert_int_equal(session_go(s2, NULL, 0, &err), 0);
            session_wait(s2, &y);
            x.seconds = y.seconds = 0;
            if (!same_figures(&x, &y))
                fail_msg("%s on %s, seat %d, seed %llu, ply %d: two games "
                         "seen alike, answered differently", spec,
                         g->info.name, seat, (unsigned long long)seed, ply);
            if (memcmp(t1, t2, sz)) {
                differing++;
                SearchInfo a, b;
                peek.run(&peek, g, t1, &a);
                peek.run(&peek, g, t2, &b);
                *peek_bad += !same_figures(&a, &b);
            }
            m = x.best;
            assert_int_equal(session_play(s1, m, &err), 0);
            assert_int_equal(session_play(s2, m, &err), 0);
            continue;
        }
        int n = g->gen_moves(t1, mv);
        m = mv[rng_below(&r, (uint32_t)n)];
        memcpy(c2, t1, sz);
        g->make(c2, m);
        if (g->to_move(c2) < 0)
            break;   /* the other side won: nothing more to see */
        g->observe(c2, seat, o1);
        /* the second game's reply: one the seat cannot tell from m,
         * searched from a random start among its moves */
        n = g->gen_moves(t2, mv);
        Move m2 = 0;
        int found = 0, start = (int)rng_below(&r, (uint32_t)n);
        for (int i = 0; i < n && !(found && m2 != m); i++) {
            Move c = mv[(start + i) % n];
            memcpy(c2, t2, sz);
            g->make(c2, c);
            if (g->to_move(c2) < 0)
                continue;
            g->observe(c2, seat, o2);
            if (!memcmp(o1, o2, sz) && (!found || c != m)) {
                m2 = c;
                found = 1;
            }
        }
        if (!found)
            break;   /* the games cannot stay alike for the seat */
        assert_int_equal(session_play(s1, m, &err), 0);
        assert_int_equal(session_play(s2, m2, &err), 0);
    }
    session_free(s1);
    session_free(s2);
    free(o1), free(o2), free(c2), free(mv), free(pk);
    return differing;
}

static void test_honesty_games(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("dark-chess");
    assert_non_null(g);
    static const char *const specs[] = {
        "pimc:nodes=300", "pimc:nodes=300,belief=64,model=0",
        "ismcts:nodes=300", "ismcts:nodes=300,belief=0",
        "ismcts:nodes=300,mo=1",
        "alphabeta:depth=2", "mcts:nodes=200", "greedy", "random",
    };
    int tested = 0, peek_bad = 0, peek_turns = 0;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (int seat = 0; seat < 2; seat++) {
            int d = game_pair(g, specs[i], seat, 11 + i * 2 + (size_t)seat,
                              40, &peek_bad);
            tested += d > 0;
            peek_turns += d;
        }
    /* the games did differ where the seat could not see */
    assert_true(tested >= 12);
    /* the control: the bot that reads the true state is caught */
    if (peek_bad < 3)
        fail_msg("the peeking bot answered alike at %d of %d differing "
                 "turns", peek_turns - peek_bad, peek_turns);
}

/* The belief of an honest bot (search/belief.c): every world it holds
 * looks to the seat exactly like the observation; at the start it knows
 * the start position (White: the one world; Black: White's first moves
 * that explain what he sees); it keeps the true state among its worlds
 * often, and never loses the game (no restart); equal inputs, equal
 * belief. */
static void test_belief(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("dark-chess");
    size_t sz = g->info.state_size;
    unsigned char *st = malloc(sz), *obs = malloc(sz), *w = malloc(sz);
    Move mv[512];
    PlyError err = {{0}};
    int turns = 0, found_true = 0;
    for (int gm = 0; gm < 6; gm++) {
        int seat = gm & 1;
        Belief b, b2;
        assert_int_equal(belief_init(&b, g, 2048, gm % 3 == 2, &err), 0);
        assert_int_equal(belief_init(&b2, g, 2048, gm % 3 == 2, &err), 0);
        Rng r, r2, play;
        rng_seed(&r, 5), rng_seed(&r2, 5), rng_seed(&play, 40 + gm);
        assert_int_equal(state_setup(g, st, NULL, NULL, 1, &err), 0);
        for (int ply = 0; ply < 60 && g->to_move(st) >= 0; ply++) {
            int p = g->to_move(st);
            int n = g->gen_moves(st, mv);
            Move m = mv[rng_below(&play, (uint32_t)n)];
            if (p == seat) {
                g->observe(st, p, obs);
                belief_observe(&b, obs, &r, NULL, 0);
                belief_observe(&b2, obs, &r2, NULL, 0);
                assert_int_equal(b.n, b2.n);
                assert_memory_equal(b.p, b2.p, sz * (size_t)b.n);
                assert_true(b.n >= 1 && b.n <= 2048);
                if (ply == 0)
                    assert_int_equal(b.n, 1);   /* White knows the start */
                if (ply == 1)
                    assert_true(b.n <= 20);
                uint32_t total = 0;
                int here = 0;
                unsigned char *o2 = malloc(sz);
                for (int i = 0; i < b.n; i++) {
                    const unsigned char *x = b.p + sz * (size_t)i;
                    g->observe(x, p, o2);
                    assert_memory_equal(o2, obs, sz);
                    assert_int_equal(g->check(x), 0);
                    here |= !memcmp(x, st, sz);
                    total += b.count[i];
                }
                free(o2);
                assert_int_equal(total, b.total);
                assert_true(belief_world(&b, obs, &r, w) == w);
                assert_true(belief_world(&b2, obs, &r2, w) == w);
                turns++;
                found_true += here;
                if (ply < 2)
                    assert_true(here);   /* the opening is known exactly */
                belief_chose(&b, m);
                belief_chose(&b2, m);
            }
            g->make(st, m);
        }
        assert_int_equal(b.restarts, 1);   /* it never lost the game */
        belief_free(&b);
        belief_free(&b2);
    }
    /* a game begun with random moves is known from the seat's first turn
     * (as many plies from the start as fit: two in dark chess) */
    for (int plies = 1; plies <= 2; plies++) {
        Belief b;
        Rng r, play;
        rng_seed(&r, 9), rng_seed(&play, 60 + (uint64_t)plies);
        assert_int_equal(belief_init(&b, g, 4096, 1, &err), 0);
        assert_int_equal(state_setup(g, st, NULL, NULL, 1, &err), 0);
        for (int i = 0; i < plies; i++) {
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&play, (uint32_t)n)]);
        }
        g->observe(st, g->to_move(st), obs);
        belief_observe(&b, obs, &r, NULL, 0);
        int here = 0;
        for (int i = 0; i < b.n; i++)
            here |= !memcmp(b.p + sz * (size_t)i, st, sz);
        assert_true(here);
        belief_free(&b);
    }
    /* random replies are the hardest to follow: the true state among the
     * particles at 97 of 170 turns when written */
    assert_true(found_true * 5 >= turns * 2);
    free(st), free(obs), free(w);
}

/* ------------------------------------------------------------- banqi */

/* From a 1 s match against banqi-chain (game 86 of `ply match banqi
 * alphabeta banqi-chain -n 200 --movetime 1s --seed 12`): red, far ahead,
 * walks its general between d3 and d4 while a black soldier follows, and
 * the third occurrence draws. The table entries of the positions, stored
 * while they were new, hid the draw one repetition later; with the game's
 * repeated hook the search scores a position seen before as a draw and
 * steps out. The negative control (rep=0) walks into the repetition. */
static const char *const banqi_chase =
    "a1 =P a2 =e a4 =h a2a1 c4 =c h4 =A c3 =h g4 =e h4g4 f4 =E d4 =R g3 =p "
    "d4c4 e4 =A g4g3 f3 =p f4f3 e3 =P c4c3 g2 =P f2 =p h3 =C h1 =R h2 =a "
    "g2f2 h2h3 g3h3 d3 =C d1 =H d2 =a d3d4 d2d3 d4a4 d3c3 f1 =k c3d3 f2f1 "
    "d3e3 e4e3 g1 =c h1g1 b4 =K a4a1 b3 =p b4c4 b3b4 c4d4 b4c4 d4d3 c4c3 "
    "d3d4 c3c4 d4d3 c4c3";

static int banqi_repeats(const char *spec)
{
    const GameVtbl *g = game_find("banqi");
    PlyError err = {{0}};
    Bot *bot = bot_new(g, spec, 0, &err);
    assert_non_null(bot);
    void *st = state_alloc(g), *child = state_alloc(g);
    assert_int_equal(state_setup(g, st, NULL, NULL, 1, &err), 0);
    char moves[512];
    snprintf(moves, sizeof moves, "%s", banqi_chase);
    int n = 0, asked = 0;
    for (char *w = strtok(moves, " "); w; w = strtok(NULL, " "), n++) {
        Move m;
        /* red's last moves with one bot, so its table carries over */
        if (n >= 69 && g->to_move(st) == 0) {
            bot_choose(bot, st, NULL, NULL);
            asked++;
        }
        assert_int_equal(g->text_to_move(st, w, &m, NULL), 0);
        g->make(st, m);
    }
    assert_true(asked >= 2);
    /* red to move; d3d4 goes back to a position seen before, and black's
     * c3c4 then makes the third occurrence of another */
    assert_int_equal(g->to_move(st), 0);
    Move m = bot_choose(bot, st, NULL, NULL);
    memcpy(child, st, g->info.state_size);
    g->make(child, m);
    int rep = g->repeated(child);
    free(st);
    free(child);
    bot_free(bot);
    return rep;
}

static void test_banqi_repetition(void **state)
{
    (void)state;
    assert_int_equal(banqi_repeats("alphabeta:nodes=100000"), 0);
    assert_int_equal(banqi_repeats("alphabeta:nodes=100000,rep=0"), 1);
}

static void test_banqi(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("banqi");
    assert_non_null(g);
    Move mv[512];
    double pr[512];
    /* the first player has 32 moves, all flips */
    void *st = tl_position("banqi", NULL, NULL, NULL);
    assert_int_equal(g->gen_moves(st, mv), 32);
    free(st);
    /* a flip is chance over the unseen pieces with exact odds, and the
     * first flip gives its colour to the player who flipped */
    st = tl_position("banqi", NULL, NULL, "c2");
    assert_int_equal(g->to_move(st), PLAYER_CHANCE);
    int n = g->chance_outcomes(st, mv, pr);
    assert_int_equal(n, 14);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += pr[i];
    assert_true(sum > 1 - 1e-12 && sum < 1 + 1e-12);
    assert_true(pr[6] == 5.0 / 32);   /* the red soldiers: 5 of 32 */
    free(st);
    st = tl_position("banqi", NULL, NULL, "c2 =p");   /* player 1: black */
    char buf[256];
    g->to_text(st, buf, sizeof buf);
    assert_non_null(strstr(buf, " 2 2 "));   /* player 2 to move, red */
    free(st);
    /* Taiwanese captures: the cannon jumps a screen (face down too) onto a
     * face-up enemy at any distance; it does not take an adjacent piece;
     * the general does not take the soldier; the soldier takes the
     * general */
    st = tl_position("banqi", NULL,
                     "8/8/8/Cx2k3 1 1 p 0", NULL);
    assert_int_equal(g->text_to_move(st, "a1e1", &mv[0], NULL), 0);
    free(st);
    st = tl_position("banqi", NULL, "8/8/8/Ck6 1 1 - 0", NULL);
    assert_int_equal(g->text_to_move(st, "a1b1", &mv[0], NULL), -1);
    free(st);
    st = tl_position("banqi", NULL, "8/8/8/Kp6 1 1 - 0", NULL);
    assert_int_equal(g->text_to_move(st, "a1b1", &mv[0], NULL), -1);
    free(st);
    st = tl_position("banqi", NULL, "8/8/8/Pk6 1 1 - 0", NULL);
    assert_int_equal(g->text_to_move(st, "a1b1", &mv[0], NULL), 0);
    free(st);
    /* the Chinese option: the cannon takes by rank, the general takes the
     * soldier */
    st = tl_position("banqi", "rules=chinese", "8/8/8/Kp6 1 1 - 0", NULL);
    assert_int_equal(g->text_to_move(st, "a1b1", &mv[0], NULL), 0);
    free(st);
    st = tl_position("banqi", "rules=chinese", "8/8/8/Cx2k3 1 1 p 0", NULL);
    assert_int_equal(g->text_to_move(st, "a1e1", &mv[0], NULL), -1);
    free(st);
    /* taking the last piece wins */
    st = tl_position("banqi", NULL, "8/8/8/Rh6 1 1 - 0", "a1b1");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[2];
    g->returns(st, r);
    assert_true(r[0] == 1);
    free(st);
    /* bad setups: pool and face-down squares disagree, too many pieces */
    PlyError err = {{0}};
    void *t = state_alloc(g);
    assert_int_equal(state_setup(g, t, NULL, "8/8/8/Cx2k3 1 1 - 0", 1, &err),
                     -1);
    assert_int_equal(state_setup(g, t, NULL, "8/8/8/KK2k3 1 1 - 0", 1, &err),
                     -1);
    free(t);
}

/* ------------------------------------- the cost of honesty (slow only) */

/* Games between an honest bot (given its seat's observation, as every
 * front end gives it) and the same kind of search given the true state
 * (peeking): the honest bot's score. Seats alternate; seeded. */
static double honesty_match(const char *game, const char *honest,
                            const char *peeker, int games)
{
    const GameVtbl *g = game_find(game);
    size_t sz = g->info.state_size;
    unsigned char *st = malloc(sz), *obs = malloc(sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double pr[1024];
    double score = 0;
    PlyError err = {{0}};
    int opt[PLY_MAX_OPTIONS];
    assert_int_equal(options_parse(g, NULL, opt, &err), 0);
    for (int i = 0; i < games; i++) {
        Bot *h = bot_new(g, honest, 100 + (uint64_t)i, &err);
        Bot *k = bot_new(g, peeker, 200 + (uint64_t)i, &err);
        assert_non_null(h);
        assert_non_null(k);
        Rng r;
        rng_seed(&r, 300 + (uint64_t)i);
        int hseat = i & 1;
        memset(st, 0, sz);
        g->init(st, opt, (uint64_t)i, &err);
        /* a few random plies so that games differ */
        for (int j = 0; j < 2 && g->to_move(st) >= 0; j++) {
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        int p;
        while ((p = g->to_move(st)) != PLAYER_TERMINAL) {
            Move m;
            if (p == PLAYER_CHANCE) {
                int n = g->chance_outcomes(st, mv, pr);
                double x = rng_double(&r), acc = 0;
                m = mv[n - 1];
                for (int j = 0; j < n; j++)
                    if (x < (acc += pr[j])) {
                        m = mv[j];
                        break;
                    }
            } else if (p == hseat) {
                g->observe(st, p, obs);
                m = bot_choose(h, obs, NULL, NULL);
            } else {
                m = bot_choose(k, st, NULL, NULL);   /* peeks */
            }
            g->make(st, m);
        }
        double ret[PLY_MAX_PLAYERS];
        g->returns(st, ret);
        score += (ret[hseat] + 1) / 2;
        bot_free(h);
        bot_free(k);
    }
    free(st), free(obs), free(mv);
    return score / games;
}

static void test_cost_of_honesty(void **state)
{
    (void)state;
    if (!tl_slow())
        return;   /* make test-slow: a measurement, a few minutes */
    static const struct {
        const char *game, *honest, *peeker;
    } runs[] = {
        {"dark-chess", "pimc", "alphabeta:depth=3"},
        {"dark-chess", "alphabeta:depth=3", "alphabeta:depth=3"},
        {"dark-chess", "ismcts:iterations=3000", "alphabeta:depth=3"},
        /* at equal time: the best honest bot, and without its memory */
        {"dark-chess", "pimc:time=100", "alphabeta:time=100"},
        {"dark-chess", "pimc:time=100,belief=0,safety=0",
         "alphabeta:time=100"},
        /* banqi hides nothing from one player that the other knows: the
         * "peeking" mcts gets the same state, the cost is 0 by
         * construction (a check of the harness) */
        {"banqi", "mcts:time=100", "mcts:time=100"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        double s = honesty_match(runs[i].game, runs[i].honest,
                                 runs[i].peeker, 20);
        double elo = s <= 0 ? -1e9 : s >= 1 ? 1e9
                   : -400 * log10(1 / s - 1);
        printf("honesty %s: %s (honest) vs %s (peeking): %.1f%% over 20, "
               "Elo %+.0f\n", runs[i].game, runs[i].honest, runs[i].peeker,
               100 * s, elo);
        assert_true(s >= 0 && s <= 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_banqi),
        cmocka_unit_test(test_banqi_repetition),
        cmocka_unit_test(test_dark_perft),
        cmocka_unit_test(test_dark_views),
        cmocka_unit_test(test_views_read),
        cmocka_unit_test(test_honesty),
        cmocka_unit_test(test_honesty_games),
        cmocka_unit_test(test_belief),
        cmocka_unit_test(test_cost_of_honesty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
