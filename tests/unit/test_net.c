/* test_net.c — the learned evaluation (src/search/net.c) and its trainer
 * (src/tools/train.c): the accumulators kept by ply equal a computation
 * from scratch over random walks up and down game trees; the quantised
 * integer net agrees with its float form; net files round-trip and bad
 * ones (truncated, corrupt, another game's, not a net) are refused with a
 * message; training on a small synthetic set lowers the loss; data
 * generation does not depend on -j, and shards hold the games of one
 * run; alphabeta:net=FILE plays and refuses what it cannot use. */
#include <ctype.h>
#include <math.h>
#include <unistd.h>

#include "testlib.h"
#include "core/bot.h"
#include "search/net.h"
#include "tools/train.h"
#include "games/draughts/engine.h"

enum { MAXMV = 1024 };

static const char *const family[] = {"chess", "makruk", "shatranj",
                                     "xiangqi", "draughts-international",
                                     "draughts-russian", "shogi"};

/* A random float net with weights large enough for the hidden units to
 * leave the linear part of the clipped ReLU. */
static void random_net(NetFloat *f, const GameVtbl *g, int hidden,
                       uint64_t seed)
{
    assert_int_equal(netf_alloc(f, g->net->ninputs, hidden), 0);
    netf_randomize(f, seed);
    Rng r;
    rng_seed(&r, seed ^ 77);
    size_t n = (size_t)f->ninputs * (size_t)hidden;
    for (size_t i = 0; i < n; i++)
        f->w1[i] = (float)((rng_double(&r) * 2 - 1) * 0.3);
    for (int h = 0; h < 2 * hidden; h++)
        f->w2[h] = (float)((rng_double(&r) * 2 - 1) * 0.5);
    f->b2 = 0.05f;
}

static void test_features(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof family / sizeof *family; k++) {
        const GameVtbl *g = game_find(family[k]);
        assert_non_null(g->net);
        void *st = tl_position(family[k], NULL, NULL, NULL);
        static const int pieces[] = {32, 32, 32, 32, 40, 24, 58};
        uint16_t a[128], b[128];
        int na = g->net->features(st, 0, a), nb = g->net->features(st, 1, b);
        assert_int_equal(na, pieces[k]);
        assert_int_equal(nb, pieces[k]);
        net_sort_features(a, na);
        net_sort_features(b, nb);
        /* chess's and xiangqi's starts are symmetric: each side sees the
         * same (makruk's king faces the other side's met) */
        if (k == 0 || k >= 3)
            assert_memory_equal(a, b, sizeof(uint16_t) * (size_t)na);
        for (int i = 0; i < na; i++) {
            assert_true(a[i] < g->net->ninputs);
            if (i)
                assert_true(a[i] > a[i - 1]);
        }
        free(st);
    }
}

/* A game's feature_bits, where it has one, against its features(). */
static void check_bits(const GameVtbl *g, const void *st)
{
    if (!g->net->feature_bits)
        return;
    for (int persp = 0; persp < 2; persp++) {
        uint16_t f[256];
        uint64_t want[64] = {0}, got[64] = {0};
        assert_true(g->net->ninputs <= 64 * 64);
        int n = g->net->features(st, persp, f);
        for (int i = 0; i < n; i++)
            want[f[i] >> 6] |= 1ull << (f[i] & 63);
        g->net->feature_bits(st, persp, got);
        assert_memory_equal(want, got, sizeof want);
    }
}

/* The draughts features against a slow computation from the geometry's
 * (row, column) tables: square numbers counted in row order from the
 * viewer's side, the board turned by a half turn for player 1. Every
 * variant, on positions of random games; and a control: a half turn
 * left out (player 1 seeing the board as player 0 does) must disagree. */
static int slow_draughts_features(const DGeom *gm, const DState *s,
                                  int persp, int halfturn, uint16_t *out)
{
    int n = 0, N = gm->n;
    for (int rel = 0; rel < 2; rel++)
        for (int k = 0; k < 2; k++) {
            int num = 0;
            for (int r = 0; r < N; r++)
                for (int c = 0; c < N; c++) {
                    int rr = persp && halfturn ? N - 1 - r : r;
                    int cc = persp && halfturn ? N - 1 - c : c;
                    int bit = gm->idx[rr][cc];
                    if (gm->idx[r][c] < 0 || bit < 0)
                        continue;
                    uint64_t b = 1ull << bit;
                    int who = rel ? 1 - persp : persp;
                    if ((s->occ[who] & b) && !(s->kings & b) == !k)
                        out[n++] = (uint16_t)((rel * 2 + k) * 64 + num);
                    num++;
                }
        }
    return n;
}

static void test_draughts_features(void **state)
{
    (void)state;
    static const char *const names[] = {
        "draughts-international", "draughts-russian", "draughts-english",
        "draughts-brazilian", "draughts-pool", "draughts-frisian",
        "draughts-turkish", "draughts-czech", "draughts-thai"};
    static const DGeom *const geoms[] = {&DGEOM_10, &DGEOM_8, &DGEOM_8,
                                         &DGEOM_8, &DGEOM_8, &DGEOM_10,
                                         &DGEOM_FULL8, &DGEOM_8, &DGEOM_8};
    int differed = 0;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        const GameVtbl *g = game_find(names[k]);
        assert_non_null(g);
        assert_non_null(g->net);
        assert_string_equal(g->net->name, "draughts-ps1");
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        Rng r;
        rng_seed(&r, 7 + k);
        int kings = 0;
        for (int game = 0; game < 20; game++) {
            DState *s = tl_position(names[k], NULL, NULL, NULL);
            const DGeom *gm = geoms[k];
            for (int ply = 0; ply < 200; ply++) {
                for (int persp = 0; persp < 2; persp++) {
                    uint16_t a[128], b[128];
                    int na = g->net->features(s, persp, a);
                    assert_true(na <= g->net->max_active);
                    for (int i = 1; i < na; i++)
                        assert_true(a[i] > a[i - 1]);   /* ascending */
                    for (int i = 0; i < na; i++)
                        assert_true(a[i] < g->net->ninputs);
                    int nb = slow_draughts_features(gm, s, persp, 1, b);
                    assert_int_equal(na, nb);
                    assert_memory_equal(a, b, sizeof(uint16_t) * (size_t)na);
                    if (persp) {
                        nb = slow_draughts_features(gm, s, persp, 0, b);
                        net_sort_features(b, nb);
                        differed += nb != na ||
                                    memcmp(a, b, sizeof(uint16_t) * (size_t)na);
                    }
                }
                check_bits(g, s);
                kings += s->kings != 0;
                int n = g->to_move(s) >= 0 ? g->gen_moves(s, mv) : 0;
                if (n <= 0)
                    break;
                g->make(s, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(s);
        }
        assert_true(kings > 0);     /* the king inputs were exercised */
        free(mv);
    }
    assert_true(differed > 100);    /* the control: the half turn matters */
}

/* The shogi features against a computation from the position's SFEN
 * text (to_text), a route that shares nothing with the game's board
 * arrays: board pieces by (own, type, square counted row by row from the
 * viewer's side, a half turn for White), hand pieces as a thermometer
 * per type. Shogi and minishogi, positions of random games; every piece
 * is one feature; a control without the half turn must disagree. */
static int slow_shogi_features(const char *sfen, int persp, int halfturn,
                               uint16_t *out)
{
    static const char order[] = "PLNSBRGK";   /* types 0..7 */
    static const int off[7] = {0, 18, 22, 26, 30, 32, 34};
    static const int len[7] = {18, 4, 4, 4, 2, 2, 4};
    int w = 0, h = 0, n = 0;
    /* the board's size: columns of the first row, count of rows */
    for (const char *p = sfen; *p && *p != ' '; p++) {
        if (*p == '/')
            h++;
        else if (!h)
            w += isdigit((unsigned char)*p) ? *p - '0' : *p != '+';
    }
    h++;
    int r = 0, c = 0, prom = 0, np = 0;
    int pw[40], pt[40], pr[40], pc[40], kr[2] = {0, 0}, kc[2] = {0, 0};
    const char *p = sfen;
    for (; *p != ' '; p++) {
        if (*p == '/') {
            r++, c = 0;
        } else if (*p == '+') {
            prom = 1;
        } else if (isdigit((unsigned char)*p)) {
            c += *p - '0';
        } else {
            int white = islower((unsigned char)*p) != 0;
            int t = (int)(strchr(order, toupper((unsigned char)*p)) - order);
            if (prom)
                t += 8;                     /* +P +L +N +S +B +R */
            int rel = white != persp;
            int flip = persp && halfturn;
            int sq = flip ? (h - 1 - r) * w + (w - 1 - c) : r * w + c;
            out[n++] = (uint16_t)((rel * 14 + t) * 81 + sq);
            if (t == 7) {
                kr[white] = r;
                kc[white] = c;
            } else {
                pw[np] = white, pt[np] = t, pr[np] = r, pc[np] = c;
                np++;
            }
            c++, prom = 0;
        }
    }
    p += 3;                                     /* " b " or " w " */
    int count = 0;
    for (; *p && *p != ' '; p++) {
        if (*p == '-')
            break;
        if (isdigit((unsigned char)*p)) {
            count = count * 10 + (*p - '0');
            continue;
        }
        int white = islower((unsigned char)*p) != 0;
        int t = (int)(strchr(order, toupper((unsigned char)*p)) - order);
        int k = count ? count : 1;
        for (int i = 0; i < k && i < len[t]; i++)
            out[n++] = (uint16_t)(2268 + (white != persp) * 38 + off[t] + i);
        count = 0;
    }
    /* king windows: every piece but the kings within two rows and two
     * columns of the viewer's king (kk 0) or the other's (kk 1), by its
     * offset as the viewer sees it */
    for (int i = 0; i < np; i++)
        for (int kk = 0; kk < 2; kk++) {
            int kw = kk ? !persp : persp;
            int dr = pr[i] - kr[kw], dc = pc[i] - kc[kw];
            if (persp && halfturn)
                dr = -dr, dc = -dc;
            if (abs(dr) > 2 || abs(dc) > 2)
                continue;
            int rel = pw[i] != persp;
            out[n++] = (uint16_t)(2344 + ((kk * 2 + rel) * 14 + pt[i]) * 25 +
                                  (dr + 2) * 5 + dc + 2);
        }
    return n;
}

static void test_shogi_features(void **state)
{
    (void)state;
    static const char *const names[] = {"shogi", "minishogi"};
    static const int pieces[] = {40, 12};
    int differed = 0, hands = 0, promoted = 0, windows = 0;
    for (size_t k = 0; k < 2; k++) {
        const GameVtbl *g = game_find(names[k]);
        assert_non_null(g->net);
        assert_string_equal(g->net->name, "shogi-pk1");
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        Rng r;
        rng_seed(&r, 31 + k);
        for (int game = 0; game < 30; game++) {
            void *s = tl_position(names[k], NULL, NULL, NULL);
            for (int ply = 0; ply < 300; ply++) {
                char sfen[256];
                assert_true(g->to_text(s, sfen, sizeof sfen) > 0);
                for (int persp = 0; persp < 2; persp++) {
                    uint16_t a[128], b[128];
                    int na = g->net->features(s, persp, a);
                    assert_true(na >= pieces[k]);   /* and the windows' */
                    assert_true(na <= g->net->max_active);
                    net_sort_features(a, na);
                    for (int i = 0; i < na; i++) {
                        assert_true(a[i] < g->net->ninputs);
                        if (i)
                            assert_true(a[i] > a[i - 1]);   /* distinct */
                        int f = g->net->factor(a[i]);
                        assert_true(f >= 0 && f < g->net->nfactors);
                        hands += a[i] >= 2268 && a[i] < 2344;
                        windows += a[i] >= 2344;
                        promoted += a[i] < 2268 && a[i] / 81 % 14 >= 8;
                    }
                    int nb = slow_shogi_features(sfen, persp, 1, b);
                    assert_int_equal(na, nb);
                    net_sort_features(b, nb);
                    assert_memory_equal(a, b, sizeof(uint16_t) * (size_t)na);
                    if (persp) {
                        nb = slow_shogi_features(sfen, persp, 0, b);
                        net_sort_features(b, nb);
                        differed += memcmp(a, b, sizeof(uint16_t) * (size_t)na) != 0;
                    }
                }
                check_bits(g, s);
                int n = g->to_move(s) >= 0 ? g->gen_moves(s, mv) : 0;
                if (n <= 0)
                    break;
                g->make(s, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(s);
        }
        free(mv);
    }
    assert_true(hands > 1000);      /* the hand inputs were exercised */
    assert_true(promoted > 100);    /* and the promoted pieces' */
    assert_true(windows > 10000);   /* and the king windows' */
    assert_true(differed > 100);    /* the control: the half turn matters */
}

/* Features of st from persp's view with a move's delta applied: the
 * sorted features of before, less rem, with add; the count. skip_add:
 * leave out the delta's last added feature (the control). */
static int apply_delta(const uint16_t *before, int nb, const uint16_t *rem,
                       int nrem, const uint16_t *add, int nadd,
                       int skip_add, uint16_t *out)
{
    int n = 0;
    for (int i = 0; i < nb; i++) {
        int gone = 0;
        for (int j = 0; j < nrem; j++)
            gone |= before[i] == rem[j];
        if (!gone)
            out[n++] = before[i];
    }
    for (int j = 0; j < nadd - skip_add; j++)
        out[n++] = add[j];
    net_sort_features(out, n);
    return n;
}

/* A game's feature_delta, where it has one, for every legal move of
 * random games: the parent's features moved by the delta are the
 * child's, no removed feature missing from the parent, none added
 * present; with the delta's last added feature left out, the comparison
 * must fail (the control). */
static void test_feature_delta(void **state)
{
    (void)state;
    int games_with = 0;
    for (size_t k = 0; ply_games[k]; k++) {
        const GameVtbl *g = ply_games[k];
        if (!g->net || !g->net->feature_delta)
            continue;
        games_with++;
        size_t ss = g->info.state_size;
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        unsigned char *child = malloc(ss);
        Rng r;
        rng_seed(&r, 71 + k);
        long checked = 0, controls = 0, caught = 0;
        for (int game = 0; game < 12; game++) {
            void *s = tl_position(g->info.name, NULL, NULL, NULL);
            for (int ply = 0; ply < 200; ply++) {
                int n = g->to_move(s) >= 0 ? g->gen_moves(s, mv) : 0;
                if (n <= 0)
                    break;
                for (int i = 0; i < n; i++) {
                    memcpy(child, s, ss);
                    g->make(child, mv[i]);
                    for (int persp = 0; persp < 2; persp++) {
                        uint16_t a[256], c[256], got[256];
                        uint16_t rem[NET_DELTA_MAX], add[NET_DELTA_MAX];
                        int nrem = -1, nadd = -1;
                        if (g->net->feature_delta(s, mv[i], persp, rem,
                                                  &nrem, add, &nadd))
                            continue;
                        assert_true(nrem >= 0 && nrem <= NET_DELTA_MAX);
                        assert_true(nadd >= 0 && nadd <= NET_DELTA_MAX);
                        int na = g->net->features(s, persp, a);
                        int nc = g->net->features(child, persp, c);
                        net_sort_features(a, na);
                        net_sort_features(c, nc);
                        for (int j = 0; j < nrem; j++) {
                            int in = 0;
                            for (int q = 0; q < na; q++)
                                in |= a[q] == rem[j];
                            assert_true(in);
                        }
                        for (int j = 0; j < nadd; j++)
                            for (int q = 0; q < na; q++)
                                assert_true(a[q] != add[j]);
                        int ng = apply_delta(a, na, rem, nrem, add, nadd, 0,
                                             got);
                        assert_int_equal(ng, nc);
                        assert_memory_equal(got, c,
                                            sizeof(uint16_t) * (size_t)nc);
                        checked++;
                        if (nadd > 0) {
                            controls++;
                            ng = apply_delta(a, na, rem, nrem, add, nadd, 1,
                                             got);
                            caught += ng != nc ||
                                      memcmp(got, c, sizeof(uint16_t) *
                                                         (size_t)nc) != 0;
                        }
                    }
                }
                g->make(s, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(s);
        }
        assert_true(checked > 10000);
        assert_true(controls > checked / 2);
        assert_int_equal(caught, controls);
        free(child);
        free(mv);
    }
    assert_true(games_with >= 2);   /* shogi and minishogi have the hook */
}

static void test_incremental(void **state)
{
    (void)state;
    enum { DEPTH = 12 };
    for (size_t k = 0; k < sizeof family / sizeof *family; k++) {
        const GameVtbl *g = game_find(family[k]);
        NetFloat f;
        Net q;
        PlyError err = {{0}};
        random_net(&f, g, 32, 5 + k);
        assert_int_equal(net_quantise(&f, g, &q, &err), 0);
        NetStack ns;
        assert_int_equal(net_stack_init(&ns, &q, DEPTH + 1), 0);
        size_t ss = g->info.state_size;
        unsigned char *stack = malloc(ss * (DEPTH + 1));
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        void *root = tl_position(family[k], NULL, NULL, NULL);
        memcpy(stack, root, ss);
        Rng r;
        rng_seed(&r, 99 + k);
        int ply = 0, checked = 0, distinct = 0, last = 0;
        Move into[DEPTH + 1] = {0};
        for (int step = 0; step < 4000; step++) {
            unsigned char *st = stack + (size_t)ply * ss;
            int p = g->to_move(st);
            /* three ways in: no key; the key and the parent (the move's
             * rows when the game has the hook); the parent under a key
             * that slot ply - 1 does not hold (the scan again) */
            int way = (int)rng_below(&r, 3), v;
            const void *parent = ply > 0 ? st - ss : NULL;
            uint64_t pkey = parent ? g->hash(parent) ^ (way == 2) : 0;
            if (way == 0)
                v = net_stack_eval(&ns, ply, st, p == 1);
            else
                v = net_stack_eval_move(&ns, ply, st, g->hash(st), p == 1,
                                        parent, pkey, ply ? into[ply] : 0);
            assert_int_equal(v, net_eval_full(&q, st));
            check_bits(g, st);
            checked++;
            distinct += v != last;
            last = v;
            int n = p >= 0 ? g->gen_moves(st, mv) : 0;
            if (ply < DEPTH && n > 0 && rng_below(&r, 3)) {
                memcpy(st + ss, st, ss);
                Move m = mv[rng_below(&r, (uint32_t)n)];
                g->make(st + ss, m);
                ply++;
                into[ply] = m;
            } else if (ply > 0) {
                ply -= 1 + (int)rng_below(&r, (uint32_t)ply);
            } else {
                memcpy(stack, root, ss);
            }
        }
        assert_true(checked == 4000);
        assert_true(distinct > 1000);  /* the net is not constant */
        /* the move's rows were used where the game offers them */
        if (g->net->feature_delta)
            assert_true(ns.deltas > 500);
        else
            assert_int_equal(ns.deltas, 0);
        assert_true(ns.scans > 1000);
        free(root);
        free(mv);
        free(stack);
        net_stack_free(&ns);
        net_free(&q);
        netf_free(&f);
    }
}

static void test_quantised_agrees(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    NetFloat f;
    Net q;
    PlyError err = {{0}};
    random_net(&f, g, 64, 11);
    assert_int_equal(net_quantise(&f, g, &q, &err), 0);
    void *st = tl_position("chess", NULL, NULL, NULL);
    Move mv[MAXMV];
    Rng r;
    rng_seed(&r, 3);
    double worst = 0, worst_int = 0;
    for (int i = 0; i < 300; i++) {
        if (g->to_move(st) < 0) {
            free(st);
            st = tl_position("chess", NULL, NULL, NULL);
        }
        int mover = g->to_move(st) == 1;
        uint16_t a[128], b[128];
        int na = g->net->features(st, mover, a);
        int nb = g->net->features(st, 1 - mover, b);
        double fl = netf_forward(&f, a, na, b, nb, NULL) * NET_OUT_SCALE;
        double dq = net_eval_dequantised(&q, st);
        int in = net_eval_full(&q, st);
        /* rounding moves each accumulator by at most (features + 1) /
         * (2 QA) and each output weight by 1 / (2 QB); clipping is
         * 1-Lipschitz */
        double sw2 = 0;
        for (int h = 0; h < 2 * f.hidden; h++)
            sw2 += fabs(f.w2[h]) * ((h < f.hidden ? na : nb) + 1);
        double bound = NET_OUT_SCALE * (sw2 / (2.0 * NET_QA) +
                                        2.0 * f.hidden / (2.0 * NET_QB) +
                                        1.0 / NET_QA);
        assert_true(fabs(fl - dq) <= bound);
        worst = fmax(worst, fabs(fl - dq) / bound);
        worst_int = fmax(worst_int, fabs(dq - in));
        int n = g->gen_moves(st, mv);
        g->make(st, mv[rng_below(&r, (uint32_t)n)]);
    }
    /* integer arithmetic: the truncation of the last division */
    print_message("float vs quantised: %.3f of the bound; dequantised vs "
                  "integer %.2f\n", worst, worst_int);
    assert_true(worst_int < 2);
    free(st);
    net_free(&q);
    netf_free(&f);
}

static char *write_temp(const unsigned char *buf, size_t len)
{
    char *path = malloc(64);
    strcpy(path, "/tmp/ply-test-net-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "wb");
    assert_non_null(fp);
    if (len)
        assert_int_equal(fwrite(buf, 1, len, fp), len);
    fclose(fp);
    return path;
}

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* The file's last four bytes: FNV-1a of the rest (as net.c writes it). */
static void put_checksum(unsigned char *buf, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i + 4 < len; i++)
        h = (h ^ buf[i]) * 16777619u;
    for (int i = 0; i < 4; i++)
        buf[len - 4 + (size_t)i] = (unsigned char)(h >> (8 * i));
}

static void expect_refused(const GameVtbl *g, const unsigned char *buf,
                           size_t len, const char *words)
{
    Net n;
    PlyError err = {{0}};
    assert_int_equal(net_load_mem(&n, g, buf, len, &err), -1);
    if (!strstr(err.msg, words))
        fail_msg("expected '%s' in '%s'", words, err.msg);
}

static void test_file(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    NetFloat f;
    Net q, back;
    PlyError err = {{0}};
    random_net(&f, g, 16, 21);
    assert_int_equal(net_quantise(&f, g, &q, &err), 0);
    char *path = write_temp(NULL, 0);
    assert_int_equal(net_save(&q, path, &err), 0);
    assert_int_equal(net_load(&back, g, path, &err), 0);
    assert_int_equal(back.hidden, 16);
    assert_memory_equal(back.w1, q.w1,
                        sizeof(int16_t) * (size_t)q.ninputs * 16);
    assert_memory_equal(back.w2, q.w2, sizeof(int16_t) * 32);
    assert_int_equal(back.b2, q.b2);
    net_free(&back);
    size_t len;
    unsigned char *buf = read_all(path, &len);
    expect_refused(g, buf, len - 1, "truncated");
    expect_refused(g, buf, 20, "truncated");
    expect_refused(g, buf, 3, "magic");
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, buf, len);
    longer[len] = 0;
    expect_refused(g, longer, len + 1, "overlong");
    free(longer);
    buf[len / 2] ^= 1;
    expect_refused(g, buf, len, "checksum");
    buf[len / 2] ^= 1;
    buf[0] = 'X';
    expect_refused(g, buf, len, "magic");
    buf[0] = 'P';
    buf[8] = 9;
    expect_refused(g, buf, len, "version");
    buf[8] = 2;
    /* an unknown flag is refused (the checksum made right again) */
    buf[24] = 2;
    put_checksum(buf, len);
    expect_refused(g, buf, len, "flags");
    buf[24] = 0;
    put_checksum(buf, len);
    /* a version-1 file (no flags word) still loads, the same net */
    unsigned char *v1 = malloc(len - 4);
    memcpy(v1, buf, 24);
    memcpy(v1 + 24, buf + 28, len - 28);
    v1[8] = 1;
    put_checksum(v1, len - 4);
    assert_int_equal(net_load_mem(&back, g, v1, len - 4, &err), 0);
    assert_int_equal(back.flags, 0);
    assert_memory_equal(back.w1, q.w1,
                        sizeof(int16_t) * (size_t)q.ninputs * 16);
    net_free(&back);
    free(v1);
    expect_refused(game_find("makruk"), buf, len, "for chess");
    expect_refused(game_find("reversi"), buf, len, "no net inputs");
    assert_int_equal(net_load_mem(&back, g, buf, len, &err), 0);
    net_free(&back);
    assert_int_equal(net_load(&back, g, "/nonexistent/ply.net", &err), -1);
    assert_non_null(strstr(err.msg, "cannot open"));

    /* the bot: plays with the net, refuses what it cannot use */
    char spec[200];
    snprintf(spec, sizeof spec, "alphabeta:depth=3,net=%s", path);
    Bot *b = bot_new(g, spec, 1, &err);
    assert_non_null(b);
    void *st = tl_position("chess", NULL, NULL, NULL);
    SearchInfo si;
    Move m = bot_choose(b, st, NULL, &si);
    Move mv[MAXMV];
    int n = g->gen_moves(st, mv), legal = 0;
    for (int i = 0; i < n; i++)
        legal |= mv[i] == m;
    assert_true(legal);
    assert_int_equal(si.depth, 3);
    bot_free(b);
    snprintf(spec, sizeof spec, "alphabeta:depth=3,threads=2,net=%s", path);
    b = bot_new(g, spec, 1, &err);
    assert_non_null(b);
    m = bot_choose(b, st, NULL, &si);
    bot_free(b);
    assert_null(bot_new(game_find("makruk"), spec, 1, &err));
    assert_non_null(strstr(err.msg, "for chess"));
    assert_null(bot_new(game_find("reversi"), spec, 1, &err));
    assert_non_null(strstr(err.msg, "net inputs"));
    free(st);
    free(buf);
    unlink(path);
    free(path);
    net_free(&q);
    netf_free(&f);
}

/* The built-in nets: International and Russian draughts and shogi (a
 * residual net) carry one, which
 * loads and is alphabeta's default: the default bot searches exactly as
 * with net=FILE on the same bytes (same value and move at every
 * position), and net=none (the hand evaluation) differs somewhere. */
/* The search with a game's feature_delta is the search without it, node
 * for node: shogi's built-in net at fixed nodes over positions of a
 * random game, against a copy of the game whose features lack the hook
 * (every accumulator then comes from a scan). */
static void test_delta_search(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shogi");
    assert_non_null(g->net->feature_delta);
    NetFeatures nf = *g->net;
    nf.feature_delta = NULL;
    GameVtbl g2 = *g;
    g2.net = &nf;
    PlyError err = {{0}};
    Bot *fast = bot_new(g, "alphabeta:nodes=20000", 1, &err);
    Bot *scan = bot_new(&g2, "alphabeta:nodes=20000", 1, &err);
    assert_non_null(fast);
    assert_non_null(scan);
    void *st = tl_position("shogi", NULL, NULL, NULL);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Rng r;
    rng_seed(&r, 5);
    int checked = 0;
    for (int ply = 0; ply < 80 && g->to_move(st) >= 0; ply++) {
        if (ply % 4 == 0) {
            SearchInfo a, b;
            bot_new_game(fast);
            bot_new_game(scan);
            Move ma = bot_choose(fast, st, NULL, &a);
            Move mb = bot_choose(scan, st, NULL, &b);
            assert_true(ma == mb);
            assert_int_equal(a.value, b.value);
            assert_int_equal(a.depth, b.depth);
            assert_int_equal(a.seldepth, b.seldepth);
            assert_true(a.nodes == b.nodes);
            checked++;
        }
        int n = g->gen_moves(st, mv);
        if (n <= 0)
            break;
        g->make(st, mv[rng_below(&r, (uint32_t)n)]);
    }
    assert_true(checked >= 10);
    free(mv);
    free(st);
    bot_free(fast);
    bot_free(scan);
}

static void test_builtin(void **state)
{
    (void)state;
    static const char *const games[] = {"draughts-international",
                                        "draughts-russian", "shogi"};
    /* a net is for one game: minishogi shares shogi's inputs, not its net */
    assert_null(game_find("minishogi")->net->builtin);
    for (size_t k = 0; k < 3; k++) {
        const GameVtbl *g = game_find(games[k]);
        assert_non_null(g->net->builtin);
        Net q;
        PlyError err = {{0}};
        assert_int_equal(net_load_mem(&q, g, g->net->builtin,
                                      g->net->builtin_len, &err), 0);
        net_free(&q);
        char *path = write_temp(g->net->builtin,
                                g->net->builtin_len);
        char spec[300];
        snprintf(spec, sizeof spec, "alphabeta:depth=4,net=%s", path);
        Bot *dflt = bot_new(g, "alphabeta:depth=4", 1, &err);
        Bot *file = bot_new(g, spec, 1, &err);
        Bot *hand = bot_new(g, "alphabeta:depth=4,net=none", 1, &err);
        assert_non_null(dflt);
        assert_non_null(file);
        assert_non_null(hand);
        void *st = tl_position(games[k], NULL, NULL, NULL);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        Rng r;
        rng_seed(&r, 31 + k);
        int differ = 0, checked = 0;
        for (int ply = 0; ply < 60 && g->to_move(st) >= 0; ply++) {
            SearchInfo a, b, c;
            bot_new_game(dflt);
            bot_new_game(file);
            bot_new_game(hand);
            Move ma = bot_choose(dflt, st, NULL, &a);
            Move mb = bot_choose(file, st, NULL, &b);
            bot_choose(hand, st, NULL, &c);
            assert_true(ma == mb);
            assert_int_equal(a.value, b.value);
            differ += a.value != c.value;
            checked++;
            int n = g->gen_moves(st, mv);
            if (n <= 0)
                break;
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        assert_true(checked > 20);
        assert_true(differ > checked / 2);
        free(mv);
        free(st);
        bot_free(dflt);
        bot_free(file);
        bot_free(hand);
        unlink(path);
        free(path);
    }
    PlyError err = {{0}};
    Bot *b = bot_new(game_find("chess"), "alphabeta:depth=2,net=none", 1,
                     &err);
    assert_non_null(b);     /* none is the hand evaluation everywhere */
    bot_free(b);
}

/* Random positions (one in ten of random games) labelled by the hand
 * evaluation: training must fit them, held-out games included, much
 * better than the random start. */
static void training(int factors)
{
    const GameVtbl *g = game_find("chess");
    TrainSet d;
    train_set_init(&d, g, factors);
    void *st = tl_position("chess", NULL, NULL, NULL);
    Move mv[MAXMV];
    Rng r;
    rng_seed(&r, 8);
    int ply = 0;
    while (d.n < 3000) {
        if (g->to_move(st) < 0 || ply > 120) {
            free(st);
            st = tl_position("chess", NULL, NULL, NULL);
            ply = 0;
        }
        int p = g->to_move(st);
        if (ply > 4 && rng_below(&r, 10) == 0) {
            int e = g->eval(st, p);
            e = e > 2000 ? 2000 : e < -2000 ? -2000 : e;
            assert_int_equal(train_set_add(&d, st, e, 0.5), 0);
        }
        int n = g->gen_moves(st, mv);
        g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        ply++;
    }
    NetFloat f;
    assert_int_equal(netf_alloc(&f, train_inputs(&d), 16), 0);
    netf_randomize(&f, 4);
    TrainFitOpts o = {.epochs = 6, .batch = 64, .rate = 0.003,
                      .lambda = 1, .k = 200, .valid_percent = 10,
                      .seed = 2};
    double t0 = train_loss(&d, &f, &o, 0), v0 = train_loss(&d, &f, &o, 1);
    PlyError err = {{0}};
    assert_int_equal(train_fit(&d, &f, &o, &err), 0);
    double t1 = train_loss(&d, &f, &o, 0), v1 = train_loss(&d, &f, &o, 1);
    print_message("loss train %.5f -> %.5f, validation %.5f -> %.5f\n", t0,
                  t1, v0, v1);
    assert_true(t1 < 0.5 * t0);
    assert_true(v1 < 0.7 * v0);
    /* the folded net computes what the trained one did */
    NetFloat folded;
    assert_int_equal(train_fold(&d, &f, &folded), 0);
    assert_int_equal(folded.ninputs, g->net->ninputs);
    for (size_t i = 0; i < d.n; i += 97) {
        const uint16_t *fm = d.feat + i * 2 * (size_t)d.maxf;
        const uint16_t *fo = fm + d.maxf;
        int nm = d.nfeat[2 * i], no = d.nfeat[2 * i + 1];
        float y = netf_forward(&f, fm, nm, fo, no, NULL);
        float z = netf_forward(&folded, fm, factors ? nm / 2 : nm, fo,
                               factors ? no / 2 : no, NULL);
        assert_true(fabsf(y - z) < 1e-4f);
    }
    netf_free(&folded);
    netf_free(&f);
    train_set_free(&d);
    free(st);
}

static void test_training(void **state)
{
    (void)state;
    training(0);
    training(1);
}

/* A residual net (NET_ADDS_EVAL): its value is the same net's without the
 * flag plus the game's eval(), from scratch and through the accumulator
 * stack; the flag survives a file; a trainer's zero net with the flag has
 * exactly the hand evaluation's loss (and without it, not); training
 * from there lowers the loss below the hand evaluation's. */
static void test_residual(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("shogi");
    NetFloat f;
    Net plain, res, back;
    PlyError err = {{0}};
    random_net(&f, g, 16, 41);
    assert_int_equal(net_quantise(&f, g, &plain, &err), 0);
    f.flags = NET_ADDS_EVAL;
    assert_int_equal(net_quantise(&f, g, &res, &err), 0);
    char *path = write_temp(NULL, 0);
    assert_int_equal(net_save(&res, path, &err), 0);
    assert_int_equal(net_load(&back, g, path, &err), 0);
    assert_int_equal(back.flags, NET_ADDS_EVAL);
    NetStack ns;
    assert_int_equal(net_stack_init(&ns, &back, 1), 0);
    TrainSet d;
    train_set_init(&d, g, 1);
    void *st = tl_position("shogi", NULL, NULL, NULL);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Rng r;
    rng_seed(&r, 12);
    int ply = 0, nonzero = 0;
    while (d.n < 2000) {
        int p = g->to_move(st);
        if (p < 0 || ply > 150) {
            free(st);
            st = tl_position("shogi", NULL, NULL, NULL);
            ply = 0;
            continue;
        }
        int e = g->eval(st, p);
        nonzero += e != 0;
        int want = net_eval_full(&plain, st) + e;
        assert_int_equal(net_eval_full(&back, st), want);
        assert_int_equal(net_stack_eval(&ns, 0, st, p), want);
        assert_true(fabs(net_eval_dequantised(&back, st) -
                         net_eval_dequantised(&plain, st) - e) < 1e-6);
        /* labels: the hand evaluation plus a constant the correction
         * can learn (its output bias) */
        if (ply > 4 && rng_below(&r, 5) == 0) {
            int lab = e > 1500 ? 1500 : e < -1500 ? -1500 : e;
            assert_int_equal(train_set_add(&d, st, lab + 100, 0.5), 0);
        }
        int n = g->gen_moves(st, mv);
        g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        ply++;
    }
    assert_true(nonzero > 100);
    NetFloat z;
    assert_int_equal(netf_alloc(&z, train_inputs(&d), 8), 0);
    TrainFitOpts o = {.epochs = 1, .batch = 64, .rate = 0.003,
                      .lambda = 1, .k = 200, .valid_percent = 10,
                      .seed = 2};
    double hand = train_loss(&d, NULL, &o, 0);
    z.flags = NET_ADDS_EVAL;
    assert_true(fabs(train_loss(&d, &z, &o, 0) - hand) < 1e-12);
    z.flags = 0;
    assert_true(fabs(train_loss(&d, &z, &o, 0) - hand) > 1e-4);
    z.flags = NET_ADDS_EVAL;
    o.epochs = 4;
    assert_int_equal(train_fit(&d, &z, &o, &err), 0);
    double fitted = train_loss(&d, &z, &o, 1), hv = train_loss(&d, NULL, &o, 1);
    print_message("residual: validation %.6f, the hand evaluation's %.6f\n",
                  fitted, hv);
    assert_true(fitted < 0.5 * hv);
    netf_free(&z);
    train_set_free(&d);
    free(mv);
    free(st);
    net_stack_free(&ns);
    net_free(&back);
    net_free(&res);
    net_free(&plain);
    netf_free(&f);
    unlink(path);
    free(path);
}

static char *gen_text(const TrainGenOpts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    TrainGenStats s;
    PlyError err = {{0}};
    if (train_generate(game_find("chess"), o, f, &s, &err))
        fail_msg("%s", err.msg);
    fclose(f);
    return buf;
}

static void test_generate(void **state)
{
    (void)state;
    TrainGenOpts o = {.play = "alphabeta:nodes=300", .depth = 2,
                      .keep = 0.3, .random_plies = 6, .games = 4,
                      .shard = 0, .nshards = 1, .jobs = 1, .seed = 5};
    char *one = gen_text(&o);
    o.jobs = 2;
    char *two = gen_text(&o);
    assert_string_equal(one, two);
    o.nshards = 2;
    char *s0 = gen_text(&o);
    o.shard = 1;
    char *s1 = gen_text(&o);
    /* every line of the shards is in the single run, and as many */
    size_t lines = 0, found = 0;
    for (int k = 0; k < 2; k++) {
        char *s = k ? s1 : s0;
        for (char *p = strchr(s, '\n') + 1; *p;) {
            char *e = strchr(p, '\n');
            *e = 0;
            lines++;
            found += strstr(one, p) != NULL;
            p = e + 1;
        }
    }
    size_t all = 0;
    for (char *p = one; *p; p++)
        all += *p == '\n';
    assert_true(lines > 5);
    assert_int_equal(lines, found);
    assert_int_equal(lines, all - 1);
    /* the data reads back */
    TrainSet d;
    train_set_init(&d, game_find("chess"), 1);
    FILE *f = fmemopen(one, strlen(one), "r");
    PlyError err = {{0}};
    assert_int_equal(train_set_read(&d, f, "one", "", &err), 0);
    fclose(f);
    assert_int_equal(d.n, all - 1);
    train_set_free(&d);
    static const struct {
        const char *text, *words;
    } bad[] = {
        {"1 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
         "one:1: not training data"},
        {"# ply-train-data 1 makruk\n", "one:1: expected the header"},
        {"# ply-train-data 1 chess\nx 0 8/8/8/8/8/8/8/8 w - - 0 1\n",
         "one:2: expected a score"},
        {"# ply-train-data 1 chess\n5 0.7 8/8/8/8/8/8/8/8 w - - 0 1\n",
         "one:2: expected a result"},
        {"# ply-train-data 1 chess\n5 1 nonsense\n", "one:2:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        train_set_init(&d, game_find("chess"), 1);
        f = fmemopen((void *)bad[i].text, strlen(bad[i].text), "r");
        assert_int_equal(train_set_read(&d, f, "one", "", &err), -1);
        fclose(f);
        if (!strstr(err.msg, bad[i].words))
            fail_msg("expected '%s' in '%s'", bad[i].words, err.msg);
        train_set_free(&d);
    }
    /* depth 0: the self-play search's values */
    o.depth = 0;
    o.shard = 0;
    o.nshards = 1;
    o.jobs = 1;
    char *d0 = gen_text(&o);
    train_set_init(&d, game_find("chess"), 1);
    f = fmemopen(d0, strlen(d0), "r");
    assert_int_equal(train_set_read(&d, f, "d0", "", &err), 0);
    fclose(f);
    assert_true(d.n > 5);
    train_set_free(&d);
    free(d0);
    free(one);
    free(two);
    free(s0);
    free(s1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_draughts_features),
        cmocka_unit_test(test_shogi_features),
        cmocka_unit_test(test_feature_delta),
        cmocka_unit_test(test_incremental),
        cmocka_unit_test(test_quantised_agrees),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_delta_search),
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_training),
        cmocka_unit_test(test_residual),
        cmocka_unit_test(test_generate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
