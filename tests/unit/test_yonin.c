/* test_yonin.c — Yonin shogi: a second, slow generator written straight
 * from the rules text (a 9x9 array of pieces, vectors turned a quarter at
 * a time, every piece tried against every square, check found by asking
 * every other piece whether it reaches the King) against the game's, on
 * positions from random games: the same moves, the same positions after
 * them (turn order, check jumps, mates and inherited pieces included) and
 * the same perft to depth 2 and 3. Then the rules one by one. */
#include "testlib.h"

#include <ctype.h>

typedef struct {
    char t;         /* P L N S G B R K, X a mated King; 0 empty */
    int prom, face, ctrl;
} RP;

typedef struct {
    RP b[9][9];     /* b[x][y] */
    int hand[4][8]; /* index in "PLNSGBR" */
    int status[4];  /* 0 playing, k the k-th mated */
    int mates[4];
    int mover, ply, nelim, over;
    int goal_two, jumps, inherit;
} RS;

static const char HAND[] = "PLNSGBR";

static int hand_index(char t)
{
    const char *p = strchr(HAND, t);
    return p && t ? (int)(p - HAND) : -1;
}

/* relative vector of the absolute (dx, dy) for a piece facing f: the
 * absolute is the relative turned clockwise f times */
static void rel(int f, int dx, int dy, int *rx, int *ry)
{
    for (int i = 0; i < f; i++) {
        int t = dx;
        dx = -dy;
        dy = t;
    }
    *rx = dx;
    *ry = dy;
}

/* how far from its own edge square (x, y) is for facing f: 0..8 */
static int rrank(int f, int x, int y)
{
    int rx, ry;
    rel(f, x - 4, y - 4, &rx, &ry);
    return ry + 4;
}

static int rfile(int f, int x, int y)
{
    int rx, ry;
    rel(f, x - 4, y - 4, &rx, &ry);
    return rx + 4;
}

static int clear_between(const RS *s, int x0, int y0, int x1, int y1)
{
    int dx = (x1 > x0) - (x1 < x0), dy = (y1 > y0) - (y1 < y0);
    for (int x = x0 + dx, y = y0 + dy; x != x1 || y != y1; x += dx, y += dy)
        if (s->b[x][y].t)
            return 0;
    return 1;
}

/* Whether the piece on (x0, y0) moves to (x1, y1) by its rules. */
static int reaches(const RS *s, int x0, int y0, int x1, int y1)
{
    const RP *p = &s->b[x0][y0];
    int rx, ry;
    rel(p->face, x1 - x0, y1 - y0, &rx, &ry);
    int ax = abs(rx), ay = abs(ry);
    int king = ax <= 1 && ay <= 1 && (ax || ay);
    int gold = king && !(ry == -1 && rx != 0);
    int diag = ax == ay && ax > 0, orth = (rx == 0) != (ry == 0);
    if (p->prom) {
        switch (p->t) {
        case 'B': return king || (diag && clear_between(s, x0, y0, x1, y1));
        case 'R': return king || (orth && clear_between(s, x0, y0, x1, y1));
        default: return gold;
        }
    }
    switch (p->t) {
    case 'K': return king;
    case 'G': return gold;
    case 'S': return king && (ry == 1 || (ry == -1 && rx != 0));
    case 'N': return ry == 2 && ax == 1;
    case 'P': return rx == 0 && ry == 1;
    case 'L': return rx == 0 && ry >= 1 && clear_between(s, x0, y0, x1, y1);
    case 'B': return diag && clear_between(s, x0, y0, x1, y1);
    case 'R': return orth && clear_between(s, x0, y0, x1, y1);
    default: return 0;
    }
}

static int king_attacked(const RS *s, int p)
{
    for (int kx = 0; kx < 9; kx++)
        for (int ky = 0; ky < 9; ky++) {
            const RP *k = &s->b[kx][ky];
            if (k->t != 'K' || k->ctrl != p)
                continue;
            for (int x = 0; x < 9; x++)
                for (int y = 0; y < 9; y++) {
                    const RP *a = &s->b[x][y];
                    if (a->t && a->t != 'X' && a->ctrl != p &&
                        reaches(s, x, y, kx, ky))
                        return 1;
                }
        }
    return 0;
}

typedef struct {
    int drop;       /* hand index, or -1 */
    int x0, y0, x1, y1, prom;
} RM;

static void ref_apply(RS *s, const RM *m)
{
    int p = s->mover;
    if (m->drop >= 0) {
        s->b[m->x1][m->y1] = (RP){HAND[m->drop], 0, p, p};
        s->hand[p][m->drop]--;
        return;
    }
    RP *to = &s->b[m->x1][m->y1];
    if (to->t)
        s->hand[p][hand_index(to->t)]++;
    *to = s->b[m->x0][m->y0];
    if (m->prom)
        to->prom = 1;
    s->b[m->x0][m->y0] = (RP){0, 0, 0, 0};
}

static int stuck(char t, int r)
{
    return ((t == 'P' || t == 'L') && r == 8) || (t == 'N' && r >= 7);
}

static int ref_gen(const RS *s, int p, RM *out);

/* all legal moves of seat p (the mover is set to p for them) */
static int ref_gen(const RS *s0, int p, RM *out)
{
    RS s = *s0;
    s.mover = p;
    int n = 0;
    RM cand[4096];
    int nc = 0;
    for (int x = 0; x < 9; x++)
        for (int y = 0; y < 9; y++) {
            const RP *a = &s.b[x][y];
            if (!a->t || a->t == 'X' || a->ctrl != p)
                continue;
            for (int u = 0; u < 9; u++)
                for (int v = 0; v < 9; v++) {
                    const RP *d = &s.b[u][v];
                    if ((u == x && v == y) || !reaches(&s, x, y, u, v))
                        continue;
                    if (d->t && (d->ctrl == p || d->t == 'K' || d->t == 'X'))
                        continue;
                    int can = !a->prom && strchr("PLNSBR", a->t) &&
                              (rrank(a->face, x, y) >= 6 ||
                               rrank(a->face, u, v) >= 6);
                    if (can)
                        cand[nc++] = (RM){-1, x, y, u, v, 1};
                    if (a->prom || !stuck(a->t, rrank(a->face, u, v)))
                        cand[nc++] = (RM){-1, x, y, u, v, 0};
                }
        }
    for (int h = 0; h < 7; h++) {
        if (!s.hand[p][h])
            continue;
        for (int u = 0; u < 9; u++)
            for (int v = 0; v < 9; v++) {
                if (s.b[u][v].t || stuck(HAND[h], rrank(p, u, v)))
                    continue;
                if (HAND[h] == 'P') {
                    int two = 0;
                    for (int x = 0; x < 9; x++)
                        for (int y = 0; y < 9; y++) {
                            const RP *a = &s.b[x][y];
                            if (a->t == 'P' && !a->prom && a->ctrl == p &&
                                a->face == p &&
                                rfile(p, x, y) == rfile(p, u, v))
                                two = 1;
                        }
                    if (two)
                        continue;
                }
                cand[nc++] = (RM){h, 0, 0, u, v, 0};
            }
    }
    for (int i = 0; i < nc; i++) {
        RS t = s;
        ref_apply(&t, &cand[i]);
        if (king_attacked(&t, p))
            continue;
        if (cand[i].drop == 0) {
            /* a pawn drop in front of another's King leaving him no move */
            int dx, dy, fx = 0, fy = 1;
            for (int k = 0; k < p; k++) {
                int tmp = fx;
                fx = fy;
                fy = -tmp;
            }
            dx = cand[i].x1 + fx;
            dy = cand[i].y1 + fy;
            if (dx >= 0 && dx < 9 && dy >= 0 && dy < 9 &&
                t.b[dx][dy].t == 'K' && t.b[dx][dy].ctrl != p) {
                RM tmp[4096];
                if (!ref_gen(&t, t.b[dx][dy].ctrl, tmp))
                    continue;
            }
        }
        if (out)
            out[n] = cand[i];
        n++;
    }
    return n;
}

static int playing(const RS *s, int p) { return s->status[p] == 0; }

static void ref_make(RS *s, const RM *m)
{
    int last = s->mover;
    ref_apply(s, m);
    s->ply++;
    for (;;) {
        int alive = 0;
        for (int p = 0; p < 4; p++)
            alive += playing(s, p);
        if ((s->goal_two && s->mates[last] >= 2) || alive <= 1 ||
            s->ply >= 800) {
            s->over = 1;
            return;
        }
        int next = -1;
        for (int i = 1; i < 4 && next < 0 && s->jumps; i++) {
            int r = (last + i) % 4;
            if (playing(s, r) && king_attacked(s, r))
                next = r;
        }
        for (int i = 1; i < 4 && next < 0; i++)
            if (playing(s, (last + i) % 4))
                next = (last + i) % 4;
        RM tmp[4096];
        if (ref_gen(s, next, tmp)) {
            s->mover = next;
            return;
        }
        s->status[next] = ++s->nelim;
        s->mates[last]++;
        for (int x = 0; x < 9; x++)
            for (int y = 0; y < 9; y++) {
                RP *a = &s->b[x][y];
                if (!a->t || a->t == 'X' || a->ctrl != next)
                    continue;
                if (!s->inherit)
                    *a = (RP){0, 0, 0, 0};
                else if (a->t == 'K')
                    a->t = 'X';
                else
                    a->ctrl = last;
            }
        for (int h = 0; h < 7; h++) {
            if (s->inherit)
                s->hand[last][h] += s->hand[next][h];
            s->hand[next][h] = 0;
        }
    }
}

static void ref_parse(RS *s, const char *txt, int goal_two, int jumps,
                      int inherit)
{
    memset(s, 0, sizeof *s);
    s->goal_two = goal_two;
    s->jumps = jumps;
    s->inherit = inherit;
    const char *p = txt;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            if (*p == '.') {
                p++;
                continue;
            }
            RP *a = &s->b[x][y];
            if (*p == '+') {
                a->prom = 1;
                p++;
            }
            a->t = *p++;
            a->face = *p++ - '0';
            a->ctrl = *p++ - '0';
        }
        p++;
    }
    s->mover = *p - '0';
    p += 2;
    for (int q = 0; q < 4; q++) {
        if (*p == '-')
            p++;
        while (isalpha((unsigned char)*p)) {
            int h = hand_index(*p++);
            s->hand[q][h] = (int)strtol(p, (char **)&p, 10);
        }
        p++;
    }
    for (int q = 0; q < 4; q++, p++) {
        s->status[q] = *p == 'a' ? 0 : *p - '0';
        if (s->status[q])
            s->nelim++;
    }
    p++;
    for (int q = 0; q < 4; q++, p++)
        s->mates[q] = *p - '0';
    s->ply = atoi(p);
}

static void ref_text(const RS *s, char *out, size_t n)
{
    size_t k = 0;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            const RP *a = &s->b[x][y];
            if (!a->t) {
                out[k++] = '.';
                continue;
            }
            k += (size_t)snprintf(out + k, n - k, "%s%c%d%d",
                                  a->prom ? "+" : "", a->t, a->face,
                                  a->ctrl);
        }
        if (y)
            out[k++] = '/';
    }
    k += (size_t)snprintf(out + k, n - k, " %d ", s->mover);
    for (int q = 0; q < 4; q++) {
        int any = 0;
        for (int h = 0; h < 7; h++)
            if (s->hand[q][h]) {
                k += (size_t)snprintf(out + k, n - k, "%c%d", HAND[h],
                                      s->hand[q][h]);
                any = 1;
            }
        if (!any)
            out[k++] = '-';
        out[k++] = q < 3 ? ',' : ' ';
    }
    for (int q = 0; q < 4; q++)
        out[k++] = s->status[q] ? (char)('0' + s->status[q]) : 'a';
    out[k++] = ' ';
    for (int q = 0; q < 4; q++)
        out[k++] = (char)('0' + s->mates[q]);
    snprintf(out + k, n - k, " %d", s->ply);
}

static void ref_move_text(const RM *m, char *b, size_t n)
{
    if (m->drop >= 0)
        snprintf(b, n, "%c*%c%d", HAND[m->drop], 'a' + m->x1, m->y1 + 1);
    else
        snprintf(b, n, "%c%c%c%c%s", 'a' + m->x0, (char)('1' + m->y0),
                 'a' + m->x1, (char)('1' + m->y1), m->prom ? "+" : "");
}

static long ref_perft(const RS *s, int depth)
{
    if (s->over)
        return 0;
    RM *mv = malloc(4096 * sizeof *mv);
    int n = ref_gen(s, s->mover, mv);
    long total = 0;
    if (depth <= 1) {
        total = n;
    } else {
        for (int i = 0; i < n; i++) {
            RS c = *s;
            ref_make(&c, &mv[i]);
            total += ref_perft(&c, depth - 1);
        }
    }
    free(mv);
    return total;
}

static long perft(const GameVtbl *g, const void *st, int depth)
{
    if (g->to_move(st) < 0)
        return 0;
    Move *mv = malloc((size_t)g->info.max_moves * sizeof *mv);
    int n = g->gen_moves(st, mv);
    long total = 0;
    if (depth <= 1) {
        total = n;
    } else {
        void *c = malloc(g->info.state_size);
        for (int i = 0; i < n; i++) {
            memcpy(c, st, g->info.state_size);
            g->make(c, mv[i]);
            total += perft(g, c, depth - 1);
        }
        free(c);
    }
    free(mv);
    return total;
}

typedef struct {
    char move[16];
    char pos[512];
} Out;

static int cmp_out(const void *a, const void *b)
{
    return strcmp(((const Out *)a)->move, ((const Out *)b)->move);
}

/* Positions from random games (random lengths); at each, the same moves
 * and positions after them, and perft to depth 2 (3 when few moves). */
static int compare(const char *opts, int goal_two, int jumps, int inherit,
                   int positions, uint64_t seed, long *nodes, int *mates)
{
    const GameVtbl *g = game_find("yonin-shogi");
    assert_non_null(g);
    Move *mv = malloc((size_t)g->info.max_moves * sizeof *mv);
    Out *mine = calloc(4096, sizeof *mine), *ref = calloc(4096, sizeof *ref);
    RM *rm = malloc(4096 * sizeof *rm);
    void *st = state_alloc(g), *ch = state_alloc(g);
    Rng rng;
    rng_seed(&rng, seed);
    char txt[512];
    int done = 0;
    while (done < positions) {
        PlyError err = {{0}};
        assert_int_equal(state_setup(g, st, opts, NULL, 1, &err), 0);
        int len = (int)rng_below(&rng, 400);
        for (int i = 0; i < len && g->to_move(st) >= 0; i++) {
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&rng, (uint64_t)n)]);
        }
        if (g->to_move(st) < 0)
            continue;
        assert_true(g->to_text(st, txt, sizeof txt) > 0);
        RS r;
        ref_parse(&r, txt, goal_two, jumps, inherit);
        char back[512];
        ref_text(&r, back, sizeof back);
        assert_string_equal(back, txt);
        int n = g->gen_moves(st, mv);
        int rn = ref_gen(&r, r.mover, rm);
        if (n != rn)
            fail_msg("%d moves, the reference %d at %s", n, rn, txt);
        for (int i = 0; i < n; i++) {
            assert_true(g->move_to_text(st, mv[i], mine[i].move,
                                        sizeof mine[i].move) > 0);
            memcpy(ch, st, g->info.state_size);
            g->make(ch, mv[i]);
            assert_int_equal(g->check(ch), 0);
            assert_true(g->to_text(ch, mine[i].pos, sizeof mine[i].pos) > 0);
            RS c = r;
            ref_move_text(&rm[i], ref[i].move, sizeof ref[i].move);
            ref_make(&c, &rm[i]);
            ref_text(&c, ref[i].pos, sizeof ref[i].pos);
            if (c.nelim > r.nelim)
                (*mates)++;
        }
        qsort(mine, (size_t)n, sizeof *mine, cmp_out);
        qsort(ref, (size_t)n, sizeof *ref, cmp_out);
        for (int i = 0; i < n; i++) {
            if (strcmp(mine[i].move, ref[i].move))
                fail_msg("at %s: %s against the reference's %s", txt,
                         mine[i].move, ref[i].move);
            if (strcmp(mine[i].pos, ref[i].pos))
                fail_msg("at %s, %s: %s, the reference %s", txt,
                         mine[i].move, mine[i].pos, ref[i].pos);
        }
        int depth = n <= 30 ? 3 : 2;
        long a = perft(g, st, depth), b = ref_perft(&r, depth);
        if (a != b)
            fail_msg("perft %d: %ld, the reference %ld at %s", depth, a, b,
                     txt);
        *nodes += a;
        done++;
    }
    free(mv);
    free(mine);
    free(ref);
    free(rm);
    free(st);
    free(ch);
    return done;
}

static void test_reference_generator(void **state)
{
    (void)state;
    int k = tl_slow() ? 5 : 1;
    long nodes = 0;
    int mates = 0, n = 0;
    n += compare(NULL, 1, 1, 1, 30 * k, 1, &nodes, &mates);
    n += compare("goal=last", 0, 1, 1, 12 * k, 2, &nodes, &mates);
    n += compare("jumps=0,mated=remove", 1, 0, 0, 12 * k, 3, &nodes, &mates);
    n += compare("men=8,goal=last,mated=remove", 0, 1, 0, 8 * k, 4, &nodes,
                 &mates);
    printf("yonin-shogi: the generators agree on %d positions, %ld perft "
           "leaves, %d mating moves\n", n, nodes, mates);
    assert_true(n >= 60);
}

/* The start: nine men each, South to move, nine moves. */
static void test_start(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("yonin-shogi");
    void *st = tl_position("yonin-shogi", NULL, NULL, NULL);
    assert_int_equal(g->to_move(st), 0);
    assert_int_equal(perft(g, st, 1), 9);
    assert_int_equal(perft(g, st, 2), 81);
    free(st);
    st = tl_position("yonin-shogi", "men=8", NULL, NULL);
    char txt[512];
    g->to_text(st, txt, sizeof txt);
    assert_null(strchr(txt, 'R'));
    free(st);
}

/* A check makes the checked player move next; a mate is credited to the
 * last mover, who then controls the mated player's pieces. */
static void test_check_jump_and_mate(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("yonin-shogi");
    /* South's Rook on e8 gives check to North's King on e9: North (seat
     * 2) moves next, not West. */
    const char *pos =
        "....K22..../........./........./........./K11...R00..../"
        "........K33/........./........./....K00.... 0 -,-,-,- aaaa 0000 0";
    void *st = tl_position("yonin-shogi", NULL, pos, "e5e8");
    assert_int_equal(g->to_move(st), 2);
    free(st);
    /* South's Gold mates North (King e9 boxed in by its own pieces,
     * nothing can take the Gold on e8, covered by the Rook on e7). */
    const char *mate =
        "...P22K22P22.../........./....R00..../........./K11......../"
        "........K33/........./........./....K00.... 0 G1,-,-,- aaaa 0000 0";
    st = tl_position("yonin-shogi", NULL, mate, "G*e8");
    char txt[512];
    g->to_text(st, txt, sizeof txt);
    /* North mated first, credited to South; the Golds now South's, the
     * King a blocker; West to move */
    assert_non_null(strstr(txt, "P20X22P20"));
    assert_non_null(strstr(txt, " 1 -,-,-,- aa1a 1000 1"));
    assert_int_equal(g->to_move(st), 1);
    free(st);
    /* with mated=remove the pieces leave the board */
    st = tl_position("yonin-shogi", "mated=remove", mate, "G*e8");
    g->to_text(st, txt, sizeof txt);
    assert_true(strncmp(txt, "........./", 10) == 0);
    free(st);
}

/* A player credited with two mates wins; the places follow. */
static void test_two_mates_end(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("yonin-shogi");
    const char *pos =
        "...G20X22G20.../....G00..../....R00..../........./K11......../"
        "........K33/........./........./....K00.... 0 G1,-,-,- aa1a 1000 "
        "5";
    void *st = tl_position("yonin-shogi", NULL, pos, NULL);
    assert_int_equal(g->to_move(st), 0);
    free(st);
    /* West's King a5 boxed by South: R on b-file... a simple net */
    const char *two =
        "...G20X22G20.../........./........./.G00......./K11......../"
        "........./........./........K33/R00...K00.... 0 G1,-,-,- aa1a "
        "1000 5";
    st = tl_position("yonin-shogi", NULL, two, "G*b5");
    /* G b5 protected by G b6, which covers a6; the Rook on a1 covers
     * a2..a4, the Gold b4 */
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    double r[4];
    g->returns(st, r);
    assert_true(r[0] == 1.0);
    assert_true(r[3] > r[1] && r[1] > r[2]);
    assert_string_equal(g->end_reason(st),
                        "a player credited with two mates");
    free(st);
}

/* Drops: no pawn on its last rank, no second pawn on a line, no pawn
 * drop that mates; West's drops face West's way. */
static void test_drops(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("yonin-shogi");
    PlyError err = {{0}};
    Move m;
    const char *pos =
        "....K22..../........./........./........./K11......../"
        "........K33/........./....P00..../....K00.... 1 -,P2,-,- aaaa 0000 "
        "0";
    void *st = tl_position("yonin-shogi", NULL, pos, NULL);
    /* West's last rank is file i */
    assert_int_not_equal(g->text_to_move(st, "P*i3", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "P*h3", &m, &err), 0);
    /* a second West pawn on the same rank (West's line) */
    g->make(st, m);
    free(st);
    st = tl_position("yonin-shogi", NULL, pos, "P*h3");
    /* now North moves, then East, then South, then West again */
    assert_int_equal(g->to_move(st), 2);
    free(st);
    const char *nifu =
        "....K22..../........./........./........./K11......../"
        "........K33/.......P11./....P00..../....K00.... 1 -,P2,-,- aaaa "
        "0000 0";
    st = tl_position("yonin-shogi", NULL, nifu, NULL);
    assert_int_not_equal(g->text_to_move(st, "P*c3", &m, &err), 0);
    assert_int_equal(g->text_to_move(st, "P*c4", &m, &err), 0);
    free(st);
}

/* Bad setup strings are refused with a message. */
static void test_bad_text(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("yonin-shogi");
    void *st = tl_position("yonin-shogi", NULL, NULL, NULL);
    PlyError err = {{0}};
    const char *bad[] = {
        "", "garbage", "....K22..../ 0 -,-,-,- aaaa 0000 0",
        /* two Kings for South */
        "....K22..../........./........./........./K11......../"
        "........K33/........./....K00..../....K00.... 0 -,-,-,- aaaa 0000 0",
        /* mates not adding up */
        "....K22..../........./........./........./K11......../"
        "........K33/........./........./....K00.... 0 -,-,-,- aaaa 1000 0",
        /* a pawn on its last rank */
        "....K22P00.../........./........./........./K11......../"
        "........K33/........./........./....K00.... 0 -,-,-,- aaaa 0000 0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (g->from_text(st, bad[i], &err) == 0)
            fail_msg("accepted bad setup %zu: %s", i, bad[i]);
        assert_true(err.msg[0] != 0);
    }
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_check_jump_and_mate),
        cmocka_unit_test(test_two_mates_end),
        cmocka_unit_test(test_drops),
        cmocka_unit_test(test_bad_text),
        cmocka_unit_test(test_reference_generator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
