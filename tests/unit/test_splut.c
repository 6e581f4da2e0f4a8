/* test_splut.c — Splut!: a second, slow generator written straight from
 * the rules on the setup string (a 9x9 grid of tokens) must give the same
 * steps, written the same way, leading to the same positions as the
 * game's generator, on many thousands of random positions; plus set-ups,
 * turn lengths, elimination and its skip in the turn order. */
#include "testlib.h"

#include <unistd.h>

#include "core/bot.h"
#include "core/rng.h"
#include "core/setup.h"
#include "search/evalfile.h"

enum { RMAX = 200 };

typedef struct Tok {
    char k;     /* '#' off the board, '.', 'R', 'S', 'D', 'T' */
    int seat;
    int rt;     /* Rocks: turn it last moved */
} Tok;

typedef struct Ref {
    Tok g[9][9];    /* [rank][file] */
    int np, mover, steps, turn, ply, levx, levy;
    char lev;       /* '-', 'x' or 'r' (levitating the Rock at levx, levy) */
    char status[8]; /* 'a', '-', or '1'.. */
    int last[4];
    int rule;       /* 0 previous, 1 round */
    int over;
} Ref;

static int in_diamond(int x, int y)
{
    return x >= 0 && x < 9 && y >= 0 && y < 9 && abs(x - 4) + abs(y - 4) <= 4;
}

static void ref_parse(Ref *r, const char *s, int np, int rule)
{
    memset(r, 0, sizeof *r);
    r->np = np;
    r->rule = rule;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            Tok *t = &r->g[y][x];
            if (!in_diamond(x, y)) {
                t->k = '#';
                continue;
            }
            t->k = *s++;
            if (t->k == 'R') {
                while (*s >= '0' && *s <= '9')
                    t->rt = t->rt * 10 + *s++ - '0';
            } else if (t->k != '.') {
                t->seat = *s++ - '0';
            }
        }
        if (y)
            assert_int_equal(*s++, '/');
    }
    int n = 0;
    char lev[8];
    assert_int_equal(sscanf(s, " %d %d %d %7s %d %7s%n", &r->mover, &r->steps,
                            &r->turn, lev, &r->ply, r->status, &n), 6);
    s += n;
    for (int p = 0; p < np; p++) {
        assert_true(sscanf(s, p ? ",%d%n" : " %d%n", &r->last[p], &n) == 1);
        s += n;
    }
    r->lev = lev[0] == '-' || lev[0] == 'x' ? lev[0] : 'r';
    if (r->lev == 'r') {
        r->levx = lev[0] - 'a';
        r->levy = lev[1] - '1';
    }
    int alive = 0;
    for (int p = 0; p < np; p++)
        alive += r->status[p] == 'a';
    r->over = alive <= 1 || r->ply >= 1200;
}

static void ref_text(const Ref *r, char *buf, size_t n)
{
    size_t len = 0;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            const Tok *t = &r->g[y][x];
            if (t->k == '#')
                continue;
            if (t->k == 'R' && t->rt)
                len += (size_t)snprintf(buf + len, n - len, "R%d", t->rt);
            else if (t->k == 'R' || t->k == '.')
                len += (size_t)snprintf(buf + len, n - len, "%c", t->k);
            else
                len += (size_t)snprintf(buf + len, n - len, "%c%d", t->k,
                                        t->seat);
        }
        if (y)
            len += (size_t)snprintf(buf + len, n - len, "/");
    }
    char lev[4] = {r->lev, 0, 0, 0};
    if (r->lev == 'r') {
        lev[0] = (char)('a' + r->levx);
        lev[1] = (char)('1' + r->levy);
    }
    len += (size_t)snprintf(buf + len, n - len, " %d %d %d %s %d %s",
                            r->mover, r->steps, r->turn, lev, r->ply,
                            r->status);
    for (int p = 0; p < r->np; p++)
        len += (size_t)snprintf(buf + len, n - len, "%c%d", p ? ',' : ' ',
                                r->last[p]);
}

static Tok *at(Ref *r, int x, int y)
{
    return in_diamond(x, y) ? &r->g[y][x] : NULL;
}

static int may_levitate(const Ref *r, const Tok *t)
{
    if (!t->rt || t->rt == r->turn)
        return 1;
    if (r->rule == 0)
        return t->rt != r->turn - 1;
    return t->rt <= r->last[r->mover];
}

/* Everything after a step: counts, end of the game, end of the turn. */
static void ref_after(Ref *r, int ends, int levitated, int lx, int ly)
{
    if (levitated) {
        r->lev = 'r';
        r->levx = lx;
        r->levy = ly;
    } else if (r->lev == 'r') {
        r->lev = 'x';
    }
    r->ply++;
    r->steps = ends ? 0 : r->steps - 1;
    int alive = 0;
    for (int p = 0; p < r->np; p++)
        alive += r->status[p] == 'a';
    if (alive <= 1 || r->ply >= 1200) {
        r->over = 1;
        return;
    }
    if (r->steps && r->status[r->mover] == 'a')
        return;
    r->last[r->mover] = r->turn;
    r->turn++;
    do
        r->mover = (r->mover + 1) % r->np;
    while (r->status[r->mover] != 'a');
    r->steps = r->turn == 2 ? 2 : 3;
    r->lev = '-';
}

static int nelim(const Ref *r)
{
    int n = 0;
    for (int p = 0; p < r->np; p++)
        n += r->status[p] >= '1' && r->status[p] <= '9';
    return n;
}

typedef struct Out {
    char move[32];
    char pos[512];
} Out;

static void emit(Out *o, int *n, const char *mv, const Ref *r)
{
    assert_true(*n < RMAX);
    snprintf(o[*n].move, sizeof o[*n].move, "%s", mv);
    ref_text(r, o[*n].pos, sizeof o[*n].pos);
    (*n)++;
}

static void nm(int x, int y, char *b)
{
    b[0] = (char)('a' + x);
    b[1] = (char)('1' + y);
    b[2] = 0;
}

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {1, 0, -1, 0};

static int ref_moves(const Ref *r0, Out *o)
{
    int n = 0;
    char a[3], b[3], c[3], mv[32];
    if (r0->over)
        return 0;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            const Tok *me = &r0->g[y][x];
            if (me->k == '#' || me->k == '.' || me->k == 'R' ||
                me->seat != r0->mover)
                continue;
            for (int d = 0; d < 4; d++) {
                int tx = x + DX[d], ty = y + DY[d];
                if (!in_diamond(tx, ty))
                    continue;
                nm(x, y, a);
                nm(tx, ty, b);
                char tk = r0->g[ty][tx].k;
                Ref r;
                if (tk == '.') {
                    /* a plain step, any piece */
                    r = *r0;
                    r.g[ty][tx] = r.g[y][x];
                    r.g[y][x] = (Tok){'.', 0, 0};
                    snprintf(mv, sizeof mv, "%c%s-%s", me->k, a, b);
                    ref_after(&r, 0, 0, 0, 0);
                    emit(o, &n, mv, &r);
                }
                if (me->k == 'T' && tk == '.') {
                    Tok *bh = at((Ref *)r0, x - DX[d], y - DY[d]);
                    if (bh && bh->k == 'R') {
                        r = *r0;
                        r.g[ty][tx] = r.g[y][x];
                        r.g[y][x] = (Tok){'R', 0, r0->turn};
                        r.g[y - DY[d]][x - DX[d]] = (Tok){'.', 0, 0};
                        nm(x - DX[d], y - DY[d], c);
                        snprintf(mv, sizeof mv, "T%s-%s+%s", a, b, c);
                        ref_after(&r, 0, 0, 0, 0);
                        emit(o, &n, mv, &r);
                    }
                }
                if (me->k == 'T' && tk == 'R') {
                    for (int e = 0; e < 4; e++) {
                        r = *r0;
                        r.g[ty][tx] = r.g[y][x];
                        r.g[y][x] = (Tok){'.', 0, 0};
                        int rx = tx, ry = ty, kill = -1;
                        for (;;) {
                            Tok *nx = at(&r, rx + DX[e], ry + DY[e]);
                            if (!nx)
                                break;
                            if (nx->k == '.' || nx->k == 'D') {
                                rx += DX[e];
                                ry += DY[e];
                                continue;
                            }
                            if (nx->k == 'S') {
                                rx += DX[e];
                                ry += DY[e];
                                kill = nx->seat;
                            }
                            break;
                        }
                        if (rx == tx && ry == ty)
                            continue;
                        if (kill >= 0) {
                            for (int yy = 0; yy < 9; yy++)
                                for (int xx = 0; xx < 9; xx++) {
                                    Tok *t = &r.g[yy][xx];
                                    if ((t->k == 'S' || t->k == 'D' ||
                                         t->k == 'T') && t->seat == kill)
                                        *t = (Tok){'.', 0, 0};
                                }
                            r.status[kill] = (char)('1' + nelim(&r));
                        }
                        r.g[ry][rx] = (Tok){'R', 0, r0->turn};
                        nm(rx, ry, c);
                        snprintf(mv, sizeof mv, "T%sx%s>%s", a, b, c);
                        ref_after(&r, 1, 0, 0, 0);
                        emit(o, &n, mv, &r);
                    }
                }
                if (me->k == 'D' && tk != '.') {
                    int ex = tx, ey = ty;
                    while (in_diamond(ex, ey) && r0->g[ey][ex].k != '.') {
                        ex += DX[d];
                        ey += DY[d];
                    }
                    if (in_diamond(ex, ey)) {
                        r = *r0;
                        while (ex != tx || ey != ty) {
                            Tok t = r.g[ey - DY[d]][ex - DX[d]];
                            if (t.k == 'R')
                                t.rt = r0->turn;
                            r.g[ey][ex] = t;
                            ex -= DX[d];
                            ey -= DY[d];
                        }
                        r.g[ty][tx] = r.g[y][x];
                        r.g[y][x] = (Tok){'.', 0, 0};
                        snprintf(mv, sizeof mv, "D%s>%s", a, b);
                        ref_after(&r, 0, 0, 0, 0);
                        emit(o, &n, mv, &r);
                    }
                }
                if (me->k != 'S' || r0->lev == 'x')
                    continue;
                /* levitation: the Sorcerer steps, one Rock follows */
                for (int qy = 0; qy < 9; qy++)
                    for (int qx = 0; qx < 9; qx++) {
                        const Tok *q = &r0->g[qy][qx];
                        if (q->k != 'R' || !may_levitate(r0, q))
                            continue;
                        if (r0->lev == 'r' &&
                            (qx != r0->levx || qy != r0->levy))
                            continue;
                        int ux = qx + DX[d], uy = qy + DY[d];
                        r = *r0;
                        int ahead = qx == tx && qy == ty;
                        if (!ahead && tk != '.')
                            continue;
                        Tok rock = r.g[qy][qx], sorc = r.g[y][x];
                        if (ahead) {
                            Tok *dst = at(&r, ux, uy);
                            if (!dst || dst->k != '.')
                                continue;
                            r.g[qy][qx] = (Tok){'.', 0, 0};
                        }
                        r.g[y][x] = (Tok){'.', 0, 0};
                        r.g[ty][tx] = sorc;
                        if (!ahead)
                            r.g[qy][qx] = (Tok){'.', 0, 0};
                        Tok *dst = at(&r, ux, uy);
                        if (!dst || dst->k != '.')
                            continue;
                        rock.rt = r0->turn;
                        *dst = rock;
                        nm(qx, qy, c);
                        snprintf(mv, sizeof mv, "S%s-%s+%s", a, b, c);
                        ref_after(&r, 0, 1, ux, uy);
                        emit(o, &n, mv, &r);
                    }
            }
        }
    if (!n) {
        Ref r = *r0;
        ref_after(&r, 1, 0, 0, 0);
        emit(o, &n, "pass", &r);
    }
    return n;
}

static int cmp_out(const void *a, const void *b)
{
    return strcmp(((const Out *)a)->move, ((const Out *)b)->move);
}

/* Random games; at every position the two generators must agree. */
static long compare_games(const char *game, const char *opts, int np,
                          int rule, int games, uint64_t seed)
{
    const GameVtbl *g = game_find(game);
    assert_non_null(g);
    Move mv[512];
    Out *mine = calloc(RMAX, sizeof *mine), *ref = calloc(RMAX, sizeof *ref);
    void *st = state_alloc(g), *ch = state_alloc(g);
    Rng rng;
    rng_seed(&rng, seed);
    long positions = 0;
    char txt[512];
    for (int gi = 0; gi < games; gi++) {
        PlyError err = {{0}};
        assert_int_equal(state_setup(g, st, opts, NULL, 1, &err), 0);
        while (g->to_move(st) >= 0) {
            assert_true(g->to_text(st, txt, sizeof txt) > 0);
            int n = g->gen_moves(st, mv);
            assert_true(n > 0 && n <= g->info.max_moves);
            for (int i = 0; i < n; i++) {
                assert_true(g->move_to_text(st, mv[i], mine[i].move,
                                            sizeof mine[i].move) > 0);
                memcpy(ch, st, g->info.state_size);
                g->make(ch, mv[i]);
                assert_int_equal(g->check(ch), 0);
                assert_true(g->to_text(ch, mine[i].pos,
                                       sizeof mine[i].pos) > 0);
            }
            Ref r;
            ref_parse(&r, txt, np, rule);
            int rn = ref_moves(&r, ref);
            qsort(mine, (size_t)n, sizeof *mine, cmp_out);
            qsort(ref, (size_t)rn, sizeof *ref, cmp_out);
            if (rn != n)
                fail_msg("%s: %d steps, the reference %d at %s", game, n,
                         rn, txt);
            for (int i = 0; i < n; i++) {
                if (strcmp(mine[i].move, ref[i].move))
                    fail_msg("%s at %s: %s against the reference's %s",
                             game, txt, mine[i].move, ref[i].move);
                if (strcmp(mine[i].pos, ref[i].pos))
                    fail_msg("%s at %s, %s: %s, the reference %s", game, txt,
                             mine[i].move, mine[i].pos, ref[i].pos);
            }
            positions++;
            g->make(st, mv[rng_below(&rng, (uint64_t)n)]);
        }
    }
    free(mine);
    free(ref);
    free(st);
    free(ch);
    return positions;
}

static void test_reference_generator(void **state)
{
    (void)state;
    int games = tl_slow() ? 200 : 12;
    long n = 0;
    n += compare_games("splut", "players=4", 4, 0, games, 1);
    n += compare_games("splut", "players=3", 3, 0, games, 2);
    n += compare_games("splut", "players=2", 2, 0, games, 3);
    n += compare_games("splut", "players=4,levitate=round", 4, 1, games, 4);
    n += compare_games("splut-duel", NULL, 2, 0, games, 5);
    n += compare_games("splut-duel", "levitate=round", 2, 1, games, 6);
    printf("splut: the generators agree on %ld positions\n", n);
    assert_true(n > 5000);
}

/* Turn lengths 1, 2, 3, 3 and the seat order; a throw that kills a
 * Sorcerer removes the team, which is then skipped. */
static void test_turns_and_skip(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    void *st = tl_position("splut", "players=4", NULL, "Tf2-f3");
    assert_int_equal(g->to_move(st), 1);
    free(st);
    st = tl_position("splut", "players=4", NULL, "Tf2-f3 Tb4-c4");
    assert_int_equal(g->to_move(st), 1);
    free(st);
    st = tl_position("splut", "players=4", NULL,
                     "Tf2-f3 Tb4-c4 Tc4-d4 Td8-d7 De8-e7");
    assert_int_equal(g->to_move(st), 2);
    free(st);
    st = tl_position("splut", "players=4", NULL,
                     "Tf2-f3 Tb4-c4 Tc4-d4 Td8-d7 De8-e7 Sf8-f7");
    assert_int_equal(g->to_move(st), 3);
    free(st);
    /* players=2 and 3: the teams playing are seats 0..players-1, named
     * by the seats hook; players=2 is the duel's position */
    const char *names[PLY_MAX_PLAYERS];
    st = tl_position("splut", "players=2", NULL, "Tf2-f3");
    assert_int_equal(g->to_move(st), 1);
    assert_int_equal(state_seats(g, st, names), 2);
    assert_string_equal(names[0], "South");
    assert_string_equal(names[1], "North");
    assert_string_equal(state_seat_name(g, st, 1), "North");
    char t2[512], td[512];
    void *du = tl_position("splut-duel", NULL, NULL, "Tf2-f3");
    assert_true(g->to_text(st, t2, sizeof t2) > 0);
    assert_true(g->to_text(du, td, sizeof td) > 0);
    assert_string_equal(t2, td);
    free(du);
    free(st);
    st = tl_position("splut", "players=3", NULL,
                     "Tf2-f3 Tb4-c4 Tc4-d4 Td8-d7 De8-e7 Sf8-f7");
    assert_int_equal(g->to_move(st), 0);
    assert_int_equal(state_seats(g, st, names), 3);
    assert_string_equal(names[2], "North");
    free(st);
    st = tl_position("splut", "players=4", NULL, NULL);
    assert_int_equal(state_seats(g, st, names), 4);
    assert_string_equal(names[3], "East");
    free(st);
    PlyError oerr = {{0}};
    assert_int_equal(options_seats(g, "players=2", NULL, &oerr), 2);
    assert_int_equal(options_seats(g, NULL, NULL, &oerr), 4);
    assert_int_equal(options_seats(g, "players=9", NULL, &oerr), -1);
    assert_non_null(strstr(oerr.msg, "players"));
    /* a game without the hook: every seat, the info's names */
    const GameVtbl *ch = game_find("chess");
    assert_int_equal(options_seats(ch, NULL, names, &oerr), 2);
    assert_string_equal(names[1], ch->info.player_names[1]);
    /* South's Troll on d5 next to the Rock on c5; West's Sorcerer on b5
     * in line: the throw west kills it. */
    const char *pos = "R/T2D2S2/...../......./.S1RT0...D3R/"
                      ".T1....S3/...../D0S0./R 0 3 7 - 20 aaaa 3,4,5,6";
    st = tl_position("splut", "players=4", pos, "Td5xc5>b5");
    double ret[4];
    assert_int_equal(g->to_move(st), 2);   /* West is skipped */
    char txt[512];
    assert_true(g->to_text(st, txt, sizeof txt) > 0);
    assert_non_null(strstr(txt, " a1aa "));
    assert_null(strstr(txt, "T1"));        /* the whole team is gone */
    free(st);
    /* the same throw in a duel ends the game */
    g = game_find("splut-duel");
    st = tl_position("splut-duel", NULL,
                     "./.D1./...../......./.S1RT0....R/......./..R../"
                     "D0S0./R 0 3 7 - 20 aa 5,6", "Td5xc5>b5");
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    g->returns(st, ret);
    assert_true(ret[0] == 1 && ret[1] == -1);
    free(st);
    /* a bad setup string is an error, not a crash */
    const GameVtbl *d = game_find("splut-duel");
    st = state_alloc(d);
    PlyError err = {{0}};
    assert_int_not_equal(state_setup(d, st, NULL, "R/T1D1S1", 1, &err), 0);
    assert_int_not_equal(state_setup(d, st, NULL,
                         "./.D1./...../......./.S1RT0....R/......./..R../"
                         "D0S0./R 0 3 7 - 20 aa 5", 1, &err), 0);
    free(st);
}


/* The move bot `spec` (seed 3) chooses in st at 3000 nodes, as text. */
static void choose_text(const GameVtbl *g, void *st, const char *spec,
                        char *txt, size_t n, SearchInfo *si)
{
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 3, &err);
    if (!b)
        fail_msg("%s: %s", spec, err.msg);
    Limits lim = {0};
    lim.nodes = 3000;
    Move m = bot_choose(b, st, &lim, si);
    assert_true(g->move_to_text(st, m, txt, n) > 0);
    bot_free(b);
}

/* Every N-player search takes a Sorcerer when it can and its own is
 * safe, with four players (the kill removes a team: MCTS's and max-n's
 * vector of returns, the turn order after it) and in the duel (the kill
 * wins). (With South's Sorcerer on e2, North could kill it right after:
 * there the searches rightly save it first. East's Sorcerer stands on g3,
 * out of West's reach: on h4 West could kill it by pulling the Rock to c4
 * and throwing it along rank 4, and max-n, which expects every team to
 * take its best, rightly finds waiting as good as killing.) */
static void test_bots_kill(void **state)
{
    (void)state;
    const char *pos4 = "R/T2D2S2/...../......./.S1RT0...D3R/"
                       ".T1...../....S3/.D0S0/R 0 1 7 - 20 aaaa 3,4,5,6";
    const char *pos2 = "./.D1./...../......./.S1RT0....R/......./..R../"
                       "D0S0./R 0 3 7 - 20 aa 5,6";
    const char *specs[] = {"alphabeta:mode=paranoid", "alphabeta:mode=brs",
                           "alphabeta:mode=maxn",
                           "alphabeta:mode=maxn,turnend=1", "mcts",
                           "greedy"};
    for (int k = 0; k < 6; k++)
        for (int duel = 0; duel < 2; duel++) {
            const char *game = duel ? "splut-duel" : "splut";
            const GameVtbl *g = game_find(game);
            void *st = tl_position(game, NULL, duel ? pos2 : pos4, NULL);
            SearchInfo si;
            char txt[32];
            choose_text(g, st, specs[k], txt, sizeof txt, &si);
            if (strcmp(txt, "Td5xc5>b5"))
                fail_msg("%s on %s chose %s, not the kill", specs[k], game,
                         txt);
            free(st);
        }
}

/* With West and East removed, South could throw the Rock on c5 at its
 * own Sorcerer on b5: that ends the game with South second, which is
 * worse than playing on for the first place. (Searches once valued a
 * second place, round(EVAL_WIN / 6), above any position still in play,
 * and threw.) */
static void test_no_suicide(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    const char *pos = "R/T2D2S2/...../......./.S0RT0....R/......./...../"
                      ".D0./R 0 3 30 - 90 a1a2 25,26,27,28";
    const char *specs[] = {"alphabeta:mode=paranoid", "alphabeta:mode=brs",
                           "alphabeta:mode=brs,brturn=0",
                           "alphabeta:mode=maxn"};
    for (int k = 0; k < 4; k++) {
        void *st = tl_position("splut", "players=4", pos, NULL);
        SearchInfo si;
        char txt[32];
        choose_text(g, st, specs[k], txt, sizeof txt, &si);
        if (!strcmp(txt, "Td5xc5>b5") || si.value > EVAL_MAX)
            fail_msg("%s chose %s (value %d)", specs[k], txt, si.value);
        free(st);
    }
}

/* The coefficient of the weight called name in player's evaluation. */
static double term_of(const GameVtbl *g, const void *st, int player,
                      const char *name)
{
    const EvalTuning *t = g->tuning;
    EvalTerm terms[EVAL_MAX_TERMS];
    double base = 0;
    int n = t->terms_of(st, player, terms, &base);
    for (int i = 0; i < n; i++)
        if (!strcmp(t->names[terms[i].index], name))
            return terms[i].coef;
    return 0;
}

/* The evaluation's kill threats: South's Troll on d4 reaches c4 in one
 * step and throws the Rock on c5 at West's Sorcerer on b5 with the next
 * (two steps); with the Rock on d6 and the Troll on d5 it must first
 * pull the Rock to d5 (two steps again); with the Rock on c6, South's
 * Sorcerer steps from e3 to e2 levitating it to c5, and the Troll on d5
 * throws it (two steps; the Troll alone needs three). Who carries a
 * threat out first
 * depends on the turn order: killable.now when South is to move,
 * killable.before when South moves before West's next turn, .later when
 * after it. */
static void test_eval_threats(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    const char *walk = "R/T2D2S2/...../......./.S1R....D3R/T1.T0...S3/"
                       "...../.D0S0/R %d %d 7 - 20 aaaa 3,4,5,6";
    const char *pull = "R/T2D2S2/...../..R..../.S1.T0...D3R/T1.....S3/"
                       "...../.D0S0/R 0 %d 7 - 20 aaaa 3,4,5,6";
    const char *lev = "R/T2D2S2/...../.R...../.S1.T0...D3R/T1.....S3/"
                      "..S0../..D0/R 0 %d 7 - 20 aaaa 3,4,5,6";
    char pos[256];
    struct { const char *fmt; int mover, steps; double now, before, later;
    } cases[] = {
        {walk, 0, 3, 1, 0, 0}, {walk, 0, 2, 1, 0, 0},
        {walk, 0, 1, 0, 0, 0}, {walk, 2, 3, 0, 1, 0},
        {walk, 3, 3, 0, 1, 0}, {walk, 1, 3, 0, 0, 1},
        {pull, 0, 2, 1, 0, 0}, {pull, 0, 1, 0, 0, 0},
        {lev, 0, 2, 1, 0, 0}, {lev, 0, 1, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].fmt == walk)
            snprintf(pos, sizeof pos, walk, cases[i].mover, cases[i].steps);
        else
            snprintf(pos, sizeof pos, cases[i].fmt, cases[i].steps);
        void *st = tl_position("splut", "players=4", pos, NULL);
        if (term_of(g, st, 1, "killable.now") != cases[i].now ||
            term_of(g, st, 1, "killable.before") != cases[i].before ||
            term_of(g, st, 1, "killable.later") != cases[i].later)
            fail_msg("case %zu (%s): West killable now %g before %g "
                     "later %g", i, pos, term_of(g, st, 1, "killable.now"),
                     term_of(g, st, 1, "killable.before"),
                     term_of(g, st, 1, "killable.later"));
        /* South's own view: it can kill (now when to move) */
        double kills = term_of(g, st, 0, cases[i].mover ? "kills.next"
                                                        : "kills.now");
        assert_true(kills == (cases[i].mover || cases[i].now ? 1 : 0));
        /* with three steps South can also step to c4, pull the Rock to
         * c4 stepping to c3, and throw it along rank 4 at East's
         * Sorcerer on h4; nobody threatens South */
        double east = cases[i].fmt == walk && !cases[i].mover &&
                      cases[i].steps == 3;
        assert_true(term_of(g, st, 3, "killable.now") == east);
        assert_true(term_of(g, st, 0, "killable.now") == 0);
        assert_true(term_of(g, st, 0, "killable.before") == 0);
        assert_true(term_of(g, st, 0, "killable.later") == 0);
        free(st);
    }
}

/* A removed team's place is final: its entry of returns() when it is
 * removed is the one it gets at the end, whatever happens after; teams
 * still playing are not eliminated. Also the players=2 evaluation is
 * antisymmetric, as negamax needs. */
static void test_eliminated(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    Move mv[160];    /* splut's max_moves */
    int removals = 0, checked2 = 0;
    assert_true(g->info.max_moves <= 160);
    for (int k = 0; k < 60; k++) {
        int np = k % 3 + 2;
        char opt[32];
        snprintf(opt, sizeof opt, "players=%d", np);
        void *st = tl_position("splut", opt, NULL, NULL);
        Rng r;
        rng_seed(&r, 500 + (uint64_t)k);
        double at_removal[4] = {0};
        int out[4] = {0};
        while (g->to_move(st) >= 0) {
            double ret[4];
            g->returns(st, ret);
            for (int p = 0; p < np; p++) {
                int e = g->eliminated(st, p);
                if (e && !out[p]) {
                    out[p] = 1;
                    at_removal[p] = ret[p];
                    removals++;
                }
                assert_int_equal(e, out[p]);
            }
            if (np == 2) {
                assert_int_equal(g->eval(st, 0), -g->eval(st, 1));
                checked2++;
            }
            int n = g->gen_moves(st, mv);
            /* mostly the game's best-ordered step: games with kills */
            int i = rng_below(&r, 4) ? 0 : (int)rng_below(&r, (uint32_t)n);
            for (int j = 0; j < n && i == 0; j++)
                if (g->heuristic(st, mv[j]) > g->heuristic(st, mv[i]))
                    i = j;
            g->make(st, mv[i]);
        }
        double ret[4];
        g->returns(st, ret);
        for (int p = 0; p < np; p++)
            if (out[p])
                assert_true(ret[p] == at_removal[p]);
        free(st);
    }
    assert_true(removals > 20);
    assert_true(checked2 > 100);
}

/* A search for more than two players stops where its own team has been
 * removed (the eliminated hook): best-reply search used to follow the
 * other teams' forced moves down to the ply limit there, as nothing
 * else deepened. */
static void test_search_stops_when_removed(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    const char *moves = "Sd2-d3 Sb6-c6 Sc6-d6 De8-e7 Sf8-f7+e9 Td8xe8>d8 "
                        "Th6-g6 Dh5-h6 Sh4-g4+i5 De2-d2 Tf2-e2 Sd3-c3";
    const char *specs[] = {"alphabeta:mode=brs,brturn=0,depth=5",
                           "alphabeta:mode=brs,brturn=1,depth=5",
                           "alphabeta:mode=brs+,depth=5",
                           "alphabeta:mode=paranoid,depth=5"};
    for (int k = 0; k < 4; k++) {
        void *st = tl_position("splut", "players=4", NULL, moves);
        PlyError err = {{0}};
        Bot *b = bot_new(g, specs[k], 1, &err);
        if (!b)
            fail_msg("%s", err.msg);
        SearchInfo si;
        bot_choose(b, st, NULL, &si);
        if (si.depth != 5 || si.seldepth > 30)
            fail_msg("%s: depth %d, seldepth %d", specs[k], si.depth,
                     si.seldepth);
        bot_free(b);
        free(st);
    }
}

/* alphabeta:weights=FILE with more than two players (through terms_of):
 * with the compiled weights in FILE, paranoid, best-reply and max-n
 * searches find the same moves and values as with the compiled
 * evaluation. */
static void test_weights_file(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    char path[] = "/tmp/ply_test_splut_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    evalfile_write(f, "splut", g->tuning, g->tuning->weights, NULL);
    fclose(f);
    /* and the weights halved, which must show */
    char half[] = "/tmp/ply_test_splut_XXXXXX";
    int w[64];
    assert_true(g->tuning->nparams <= 64);
    for (int i = 0; i < g->tuning->nparams; i++)
        w[i] = g->tuning->weights[i] / 2;
    fd = mkstemp(half);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    evalfile_write(f, "splut", g->tuning, w, NULL);
    fclose(f);
    int differ = 0;
    const char *modes[] = {"paranoid", "brs", "maxn"};
    const char *moves[] = {NULL, "Sd2-d3 Sb6-c6 Sc6-d6 De8-e7",
                           "Sd2-d3 Sb6-c6 Sc6-d6 De8-e7 Sf8-f7+e9 "
                           "Td8xe8>d8 Th6-g6 Dh5-h6 Sh4-g4+i5 De2-d2"};
    int compared = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) {
            char plain[128], file[256];
            snprintf(plain, sizeof plain, "alphabeta:mode=%s,depth=3",
                     modes[k]);
            snprintf(file, sizeof file, "%s,weights=%s", plain, path);
            void *st = tl_position("splut", "players=4", NULL, moves[i]);
            PlyError err = {{0}};
            Bot *a = bot_new(g, plain, 1, &err), *b = bot_new(g, file, 1,
                                                               &err);
            if (!a || !b)
                fail_msg("%s", err.msg);
            SearchInfo sa, sb;
            Move ma = bot_choose(a, st, NULL, &sa);
            Move mb = bot_choose(b, st, NULL, &sb);
            if (ma != mb || sa.value != sb.value)
                fail_msg("%s on position %d: value %d, with the weights "
                         "file %d (or another move)", plain, i, sa.value,
                         sb.value);
            compared++;
            snprintf(file, sizeof file, "%s,weights=%s", plain, half);
            Bot *c = bot_new(g, file, 1, &err);
            if (!c)
                fail_msg("%s", err.msg);
            SearchInfo sc;
            bot_choose(c, st, NULL, &sc);
            differ += sc.value != sa.value;
            bot_free(c);
            bot_free(a);
            bot_free(b);
            free(st);
        }
    unlink(path);
    unlink(half);
    assert_int_equal(compared, 9);
    assert_true(differ >= 6);
}

/* duel=1: with two teams left of four, every mode searches the two-player
 * game: paranoid, best-reply, BRS+ and max-n give one search (the same
 * move, value and nodes), with the selective search of two-player games
 * (fewer nodes to the same depth than paranoid without the option). With
 * more teams left the option changes nothing. Without it the modes
 * search differently (the control). */
static void test_duel_phase(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("splut");
    const char *two = "R17/.../R49.D0../.D2S2..../.S0.T0....R15/......./"
                      "...T2R51/.../. 0 2 52 - 150 a2a1 50,28,51,8";
    const char *four = "Sd2-d3 Sb6-c6 Sc6-d6 De8-e7 Sf8-f7+e9 Td8xe8>d8";
    const char *modes[] = {"paranoid", "brs", "brs+", "maxn"};
    SearchInfo ref0 = {0}, ref1 = {0}, plain[4];
    Move refm = 0;
    int differ = 0;
    for (int k = 0; k < 4; k++)
        for (int duel = 0; duel < 2; duel++)
            for (int pos = 0; pos < 2; pos++) {
                char spec[96];
                snprintf(spec, sizeof spec,
                         "alphabeta:mode=%s,depth=6,duel=%d", modes[k], duel);
                void *st = pos ? tl_position("splut", "players=4", NULL, four)
                               : tl_position("splut", "players=4", two, NULL);
                PlyError err = {{0}};
                Bot *b = bot_new(g, spec, 1, &err);
                if (!b)
                    fail_msg("%s: %s", spec, err.msg);
                SearchInfo si;
                Move m = bot_choose(b, st, NULL, &si);
                bot_free(b);
                free(st);
                if (pos == 1) {
                    /* four teams: the option changes nothing */
                    if (!duel)
                        plain[k] = si;
                    else if (si.nodes != plain[k].nodes ||
                             si.value != plain[k].value)
                        fail_msg("%s with four teams: %llu nodes, value "
                                 "%d; without duel=1 %llu, %d", spec,
                                 (unsigned long long)si.nodes, si.value,
                                 (unsigned long long)plain[k].nodes,
                                 plain[k].value);
                } else if (!duel) {
                    if (k == 0)
                        ref0 = si;
                    else
                        differ += si.nodes != ref0.nodes;
                } else if (k == 0) {
                    refm = m;
                    ref1 = si;
                    if (si.nodes >= ref0.nodes)
                        fail_msg("duel=1: %llu nodes to depth 6, paranoid "
                                 "without it %llu",
                                 (unsigned long long)si.nodes,
                                 (unsigned long long)ref0.nodes);
                } else if (m != refm || si.value != ref1.value ||
                           si.nodes != ref1.nodes) {
                    fail_msg("%s: value %d, %llu nodes; paranoid %d, %llu",
                             spec, si.value, (unsigned long long)si.nodes,
                             ref1.value, (unsigned long long)ref1.nodes);
                }
            }
    assert_true(differ >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_generator),
        cmocka_unit_test(test_turns_and_skip),
        cmocka_unit_test(test_bots_kill),
        cmocka_unit_test(test_no_suicide),
        cmocka_unit_test(test_eval_threats),
        cmocka_unit_test(test_eliminated),
        cmocka_unit_test(test_search_stops_when_removed),
        cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_duel_phase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
