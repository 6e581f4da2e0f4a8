/* test_draughts_towers.c — Bashni and Laska against a slow, plain second
 * move generator written here (coordinates, explicit stacks, results as
 * setup strings), on thousands of random positions: random columns and
 * positions from random games. Every engine move must give a distinct
 * result and the two result sets must be equal. */
#include "testlib.h"

#include "core/rng.h"

enum { MAXN = 8, MAXH = 24 };

typedef struct Board {
    int n, side;
    char col[MAXN][MAXN][MAXH + 1];   /* top first: w b man, W B king */
} Board;

typedef struct Variant {
    const char *game;
    int n, men_back, flying, passing;  /* men capture backwards, ... */
    int at_once;    /* a jumped single piece leaves its square at once */
} Variant;

static const Variant BASHNI = {"draughts-bashni", 8, 1, 1, 1, 0};
static const Variant LASKA = {"draughts-laska", 7, 0, 0, 0, 1};

static int dark(int r, int c)
{
    return (r + c) % 2 == 0;
}

static int on(const Board *b, int r, int c)
{
    return r >= 0 && c >= 0 && r < b->n && c < b->n && dark(r, c);
}

static int owner(char ch)
{
    return (ch == 'w' || ch == 'W') ? 0 : 1;
}

static int is_king(char ch)
{
    return ch == 'W' || ch == 'B';
}

/* The position as the engine writes it, without the counters. */
static void board_text(const Board *b, char *out, size_t n)
{
    size_t len = 0;
    len += (size_t)snprintf(out + len, n - len, "%c", b->side ? 'B' : 'W');
    for (int p = 0; p < 2; p++) {
        len += (size_t)snprintf(out + len, n - len, ":%c", p ? 'B' : 'W');
        int first = 1;
        for (int r = 0; r < b->n; r++)
            for (int c = 0; c < b->n; c++) {
                const char *s = b->col[r][c];
                if (!*s || owner(*s) != p)
                    continue;
                len += (size_t)snprintf(out + len, n - len, "%s%s%c%d%s",
                                        first ? "" : ",",
                                        is_king(*s) ? "K" : "", 'a' + c,
                                        r + 1, s + 1);
                first = 0;
            }
    }
}

typedef struct Results {
    char (*s)[512];
    int n, cap;
} Results;

static void add_result(Results *res, const char *t)
{
    for (int i = 0; i < res->n; i++)
        if (!strcmp(res->s[i], t))
            return;
    if (res->n == res->cap) {
        res->cap = res->cap ? 2 * res->cap : 64;
        res->s = realloc(res->s, sizeof *res->s * (size_t)res->cap);
    }
    snprintf(res->s[res->n++], 512, "%s", t);
}

static const int DR[4] = {1, 1, -1, -1}, DC[4] = {1, -1, 1, -1};

typedef struct Search {
    const Variant *v;
    const Board *b;
    int r0, c0;                 /* the moving column's square */
    int jumped[MAXN][MAXN];
    int order[32][2], nj;
    int crowned;                /* a man became a king mid-capture */
    Results *res;
} Search;

static int empty_sq(const Search *x, int r, int c)
{
    if (x->v->at_once && x->jumped[r][c] && !x->b->col[r][c][1])
        return 1;
    return !x->b->col[r][c][0] || (r == x->r0 && c == x->c0);
}

static int prey(const Search *x, int r, int c)
{
    const char *s = x->b->col[r][c];
    return *s && owner(*s) != x->b->side && !x->jumped[r][c] &&
           !(r == x->r0 && c == x->c0);
}

static void finish(Search *x, int r, int c, int king)
{
    Board nb = *x->b;
    char mover[MAXH + 2];
    snprintf(mover, sizeof mover, "%s", x->b->col[x->r0][x->c0]);
    for (int i = 0; i < x->nj; i++) {
        char *s = nb.col[x->order[i][0]][x->order[i][1]];
        size_t l = strlen(mover);
        mover[l] = s[0];
        mover[l + 1] = 0;
        memmove(s, s + 1, strlen(s));
    }
    if (king)
        mover[0] = (char)(x->b->side ? 'B' : 'W');
    nb.col[x->r0][x->c0][0] = 0;
    size_t ml = strlen(mover);
    assert_true(ml <= MAXH);
    memcpy(nb.col[r][c], mover, ml + 1);
    nb.side = !x->b->side;
    char t[512];
    board_text(&nb, t, sizeof t);
    add_result(x->res, t);
}

/* Squares a king on (r,c) may land on after jumping in direction d, and
 * the jumped square; returns the number of landings. */
static int king_jump(const Search *x, int r, int c, int d, int *jr, int *jc,
                     int land[][2])
{
    int rr = r + DR[d], cc = c + DC[d];
    if (x->v->flying)
        while (on(x->b, rr, cc) && empty_sq(x, rr, cc)) {
            rr += DR[d];
            cc += DC[d];
        }
    if (!on(x->b, rr, cc) || !prey(x, rr, cc))
        return 0;
    *jr = rr;
    *jc = cc;
    int k = 0;
    for (int lr = rr + DR[d], lc = cc + DC[d];
         on(x->b, lr, lc) && empty_sq(x, lr, lc);
         lr += DR[d], lc += DC[d]) {
        land[k][0] = lr;
        land[k][1] = lc;
        k++;
        if (!x->v->flying)
            break;
    }
    return k;
}

static int king_can(Search *x, int r, int c)
{
    int jr, jc, land[8][2];
    for (int d = 0; d < 4; d++)
        if (king_jump(x, r, c, d, &jr, &jc, land))
            return 1;
    return 0;
}

static void search_king(Search *x, int r, int c)
{
    int jr, jc, land[8][2];
    for (int d = 0; d < 4; d++) {
        int k = king_jump(x, r, c, d, &jr, &jc, land);
        if (!k)
            continue;
        x->jumped[jr][jc] = 1;
        x->order[x->nj][0] = jr;
        x->order[x->nj][1] = jc;
        x->nj++;
        int cont[8] = {0}, any = 0;
        for (int i = 0; i < k; i++)
            any |= cont[i] = king_can(x, land[i][0], land[i][1]);
        for (int i = 0; i < k; i++) {
            if (any && cont[i])
                search_king(x, land[i][0], land[i][1]);
            else if (!any)
                finish(x, land[i][0], land[i][1], x->crowned);
        }
        x->nj--;
        x->jumped[jr][jc] = 0;
    }
}

static int man_dir_ok(const Search *x, int d)
{
    int fwd = x->b->side ? -1 : 1;
    return x->v->men_back || DR[d] == fwd;
}

static void search_man(Search *x, int r, int c)
{
    int last = x->b->side ? 0 : x->b->n - 1, found = 0;
    for (int d = 0; d < 4; d++) {
        int jr = r + DR[d], jc = c + DC[d];
        int lr = jr + DR[d], lc = jc + DC[d];
        if (!man_dir_ok(x, d) || !on(x->b, lr, lc) || !prey(x, jr, jc) ||
            !empty_sq(x, lr, lc))
            continue;
        found = 1;
        x->jumped[jr][jc] = 1;
        x->order[x->nj][0] = jr;
        x->order[x->nj][1] = jc;
        x->nj++;
        if (lr == last && x->v->passing) {
            /* crowned at once; goes on as a king if it can */
            if (king_can(x, lr, lc)) {
                x->crowned = 1;
                search_king(x, lr, lc);
                x->crowned = 0;
            } else
                finish(x, lr, lc, 1);
        } else if (lr == last) {
            finish(x, lr, lc, 1);
        } else {
            search_man(x, lr, lc);
        }
        x->nj--;
        x->jumped[jr][jc] = 0;
    }
    if (!found && x->nj)
        finish(x, r, c, 0);
}

static void slow_moves(const Variant *v, const Board *b, Results *res)
{
    Search x = {.v = v, .b = b, .res = res};
    for (int r = 0; r < b->n; r++)
        for (int c = 0; c < b->n; c++) {
            const char *s = b->col[r][c];
            if (!*s || owner(*s) != b->side)
                continue;
            memset(x.jumped, 0, sizeof x.jumped);
            x.r0 = r;
            x.c0 = c;
            x.nj = 0;
            if (is_king(*s)) {
                if (king_can(&x, r, c))
                    search_king(&x, r, c);
            } else {
                search_man(&x, r, c);
            }
        }
    if (res->n)
        return;
    int last = b->side ? 0 : b->n - 1, fwd = b->side ? -1 : 1;
    for (int r = 0; r < b->n; r++)
        for (int c = 0; c < b->n; c++) {
            const char *s = b->col[r][c];
            if (!*s || owner(*s) != b->side)
                continue;
            x.r0 = r;
            x.c0 = c;
            x.nj = 0;
            for (int d = 0; d < 4; d++) {
                if (!is_king(*s) && DR[d] != fwd)
                    continue;
                for (int k = 1;; k++) {
                    int rr = r + k * DR[d], cc = c + k * DC[d];
                    if (!on(b, rr, cc) || !empty_sq(&x, rr, cc))
                        break;
                    finish(&x, rr, cc, !is_king(*s) && rr == last);
                    if (!is_king(*s) || !v->flying)
                        break;
                }
            }
        }
}

/* The engine's results for the same position. */
static void engine_moves(const GameVtbl *g, const void *st, Results *res,
                         int *nmoves)
{
    Move mv[1024];
    int n = g->gen_moves(st, mv);
    void *ch = malloc(g->info.state_size);
    for (int i = 0; i < n; i++) {
        char t[512];
        memcpy(ch, st, g->info.state_size);
        g->make(ch, mv[i]);
        assert_true(g->to_text(ch, t, sizeof t) > 0);
        char *cut = strstr(t, ":H");
        if (!cut)
            cut = strstr(t, ":P");
        if (cut)
            *cut = 0;
        int before = res->n;
        add_result(res, t);
        if (res->n == before)
            fail_msg("%s: two moves give the same position %s", g->info.name,
                     t);
        /* notation round trip on the way */
        char mt[256];
        Move back;
        PlyError err;
        assert_true(g->move_to_text(st, mv[i], mt, sizeof mt) > 0);
        if (g->text_to_move(st, mt, &back, &err) || back != mv[i])
            fail_msg("%s: move %s does not round-trip", g->info.name, mt);
    }
    free(ch);
    *nmoves = n;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void compare(const Variant *v, const Board *b)
{
    const GameVtbl *g = game_find(v->game);
    char setup[512];
    board_text(b, setup, sizeof setup);
    void *st = tl_position(v->game, NULL, setup, NULL);
    char back[512];
    assert_true(g->to_text(st, back, sizeof back) > 0);
    if (strcmp(back, setup))
        fail_msg("%s: setup %s comes back as %s", v->game, setup, back);
    Results a = {0}, e = {0};
    int n;
    slow_moves(v, b, &a);
    engine_moves(g, st, &e, &n);
    if (a.n > 1)
        qsort(a.s, (size_t)a.n, sizeof *a.s, cmp_str);
    if (e.n > 1)
        qsort(e.s, (size_t)e.n, sizeof *e.s, cmp_str);
    int same = a.n == e.n;
    for (int i = 0; same && i < a.n; i++)
        same = !strcmp(a.s[i], e.s[i]);
    if (!same) {
        for (int i = 0; i < a.n; i++)
            printf("slow   %s\n", a.s[i]);
        for (int i = 0; i < e.n; i++)
            printf("engine %s\n", e.s[i]);
        fail_msg("%s %s: %d slow results, %d engine results differ",
                 v->game, setup, a.n, e.n);
    }
    free(a.s);
    free(e.s);
    free(st);
}

static void random_board(const Variant *v, Rng *r, Board *b)
{
    memset(b, 0, sizeof *b);
    b->n = v->n;
    b->side = (int)rng_below(r, 2);
    int total = 0, cols = 2 + (int)rng_below(r, 14);
    for (int i = 0; i < cols && total < MAXH; i++) {
        int rr = (int)rng_below(r, (uint32_t)v->n);
        int cc = (int)rng_below(r, (uint32_t)v->n);
        if (!dark(rr, cc) || b->col[rr][cc][0])
            continue;
        int h = 1 + (int)rng_below(r, rng_below(r, 4) ? 2 : 5);
        for (int k = 0; k < h && total < MAXH; k++, total++) {
            const char *pieces = "wbWB";
            b->col[rr][cc][k] = pieces[rng_below(r, rng_below(r, 3) ? 2 : 4)];
        }
        /* a man on top of its crowning row is a king */
        char *top = &b->col[rr][cc][0];
        if (*top == 'w' && rr == v->n - 1)
            *top = 'W';
        if (*top == 'b' && rr == 0)
            *top = 'B';
    }
}

/* Reads the engine's setup (pieces part) back into a Board. */
static void board_from_engine(const Variant *v, const GameVtbl *g,
                              const void *st, Board *b)
{
    char t[512];
    assert_true(g->to_text(st, t, sizeof t) > 0);
    memset(b, 0, sizeof *b);
    b->n = v->n;
    b->side = t[0] == 'B';
    const char *p = t + 1;
    int p_owner = 0;
    while (*p == ':') {
        p++;
        if (*p != 'W' && *p != 'B')
            break;
        p_owner = *p == 'B';
        p++;
        while (*p && *p != ':') {
            int king = 0;
            if (*p == 'K') {
                king = 1;
                p++;
            }
            int c = *p++ - 'a', r = 0;
            while (*p >= '0' && *p <= '9')
                r = r * 10 + (*p++ - '0');
            r--;
            char *s = b->col[r][c];
            s[0] = (char)(p_owner ? (king ? 'B' : 'b') : (king ? 'W' : 'w'));
            int k = 1;
            while (*p == 'w' || *p == 'W' || *p == 'b' || *p == 'B')
                s[k++] = *p++;
            if (*p == ',')
                p++;
        }
    }
}

static void run_variant(const Variant *v, int randoms, int games)
{
    Rng r;
    rng_seed(&r, 77);
    Board b;
    for (int i = 0; i < randoms; i++) {
        random_board(v, &r, &b);
        compare(v, &b);
    }
    const GameVtbl *g = game_find(v->game);
    int positions = 0;
    for (int gi = 0; gi < games; gi++) {
        void *st = tl_position(v->game, NULL, NULL, NULL);
        Move mv[1024];
        for (int ply = 0; ply < 200 && g->to_move(st) >= 0; ply++) {
            board_from_engine(v, g, st, &b);
            compare(v, &b);
            positions++;
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        free(st);
    }
    printf("%s: %d random boards and %d game positions agree\n", v->game,
           randoms, positions);
}

static void test_bashni(void **state)
{
    (void)state;
    run_variant(&BASHNI, tl_slow() ? 30000 : 3000, tl_slow() ? 200 : 20);
}

static void test_laska(void **state)
{
    (void)state;
    run_variant(&LASKA, tl_slow() ? 30000 : 3000, tl_slow() ? 200 : 20);
}

static void test_tower_rules(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("draughts-bashni");
    /* the jumped column keeps its lower pieces and changes owner */
    void *st = tl_position("draughts-bashni", NULL, "W:Wc3:Bd4w", NULL);
    Move m;
    PlyError err;
    assert_int_equal(g->text_to_move(st, "c3:e5", &m, &err), 0);
    g->make(st, m);
    char t[256];
    assert_true(g->to_text(st, t, sizeof t) > 0);
    assert_string_equal(t, "B:Wd4,e5b:B:P1");
    free(st);
    /* bad tower setups */
    st = state_alloc(g);
    assert_int_not_equal(state_setup(g, st, NULL, "W:Wc3x:Bd4", 1, &err), 0);
    assert_int_not_equal(state_setup(g, st, NULL,
                                     "W:Wa1wwwwwwwwwwwwwwwwwwwwwwwwwwww:Bb8",
                                     1, &err), 0);
    assert_non_null(strstr(err.msg, "more than 24"));
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tower_rules),
        cmocka_unit_test(test_bashni),
        cmocka_unit_test(test_laska),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
