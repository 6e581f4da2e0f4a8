/* shatra.c — Shatra, the Altai chess–draughts game (Lev Kurin's rules as
 * math.bas.bg and the Wikipedia mirrors give them), with the contested
 * points settled in the rules text below and Dagaz's readings as options.
 *
 * The board is 62 squares inside a 7 x 14 grid: cells rank * 7 + file,
 * a1 = 0; holes are not squares and lines stop at them. White's fortress
 * c1-e3, White's gate d4, the battlefield a5-g10 (White's half ranks
 * 5-7, the ditch, Black's half 8-10), Black's gate d11 and fortress
 * c12-e14.
 *
 * A move: from | to << 7 | kind << 14 | promo << 16 | caught << 19, where
 * caught is the set of enemy pieces jumped, by their order on the board
 * (capture paths with the same ends and the same pieces are one move). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"

enum { SH_W = 7, SH_H = 14, SH_CELLS = SH_W * SH_H, SH_MAXN = 1024,
       SH_MAX_PLIES = 600, SH_NO_PROGRESS = 100, SH_MAX_SIDE = 20 };
enum { EMPTY, SHATRA, JALKYN, TURA, BATYR, BIY };   /* | BLACK */
enum { BLACK = 8 };
enum { K_QUIET, K_CAPTURE, K_DROP };
enum { ROAD_OPEN, ROAD_CLOSED };
enum { PROMO_CAPTURED, PROMO_BATYR };
enum { END_NONE, END_BIY, END_NOMOVE, END_PROGRESS, END_LENGTH };

typedef struct Shatra {
    uint8_t sq[SH_CELLS];
    uint8_t side;
    uint8_t temdek[2];      /* the fortress still holds reserves */
    uint8_t over;
    int8_t winner;          /* -1 draw */
    uint8_t reason;
    uint8_t road, promote;  /* options */
    uint16_t quiet;         /* plies without capture, drop or shatra move */
    uint16_t ply;
} Shatra;

static const char *const sh_players[] = {"White", "Black"};
static const char *const road_choices[] = {"open", "closed", NULL};
static const char *const promo_choices[] = {"captured", "batyr", NULL};

static const GameOption sh_options[] = {
    {.key = "road", .type = OPT_CHOICE, .def = ROAD_OPEN,
     .choices = road_choices, .help =
     "open: reserves may be brought onto any empty square of the own half "
     "(math.bas.bg, wikiilm); closed: not on the great road, file d "
     "(grokipedia)"},
    {.key = "promote", .type = OPT_CHOICE, .def = PROMO_CAPTURED,
     .choices = promo_choices, .help =
     "captured: a shatra on the far rank becomes a piece of a type its side "
     "has lost, and waits there (moving sideways) while none is lost; "
     "batyr: it always becomes a batyr (Dagaz)"},
    {.key = NULL},
};

static const int start_count[6] = {0, 11, 2, 2, 1, 1};
static const char pc_letter[6] = {'.', 'P', 'B', 'R', 'Q', 'K'};

static int col(int c) { return c & BLACK ? 1 : 0; }
static int ptype(int c) { return c & 7; }

/* 0 battlefield, 1 White's fortress, 2 White's gate, 3 Black's gate,
 * 4 Black's fortress, -1 not a square */
static int zone_rf(int r, int f)
{
    if (r < 0 || r >= SH_H || f < 0 || f >= SH_W)
        return -1;
    if (r >= 4 && r <= 9)
        return 0;
    if (r == 3)
        return f == 3 ? 2 : -1;
    if (r == 10)
        return f == 3 ? 3 : -1;
    if (f < 2 || f > 4)
        return -1;
    return r < 3 ? 1 : 4;
}

static int zone(int s) { return zone_rf(s / SH_W, s % SH_W); }

static const int dr8[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int df8[8] = {0, 1, 1, 1, 0, -1, -1, -1};

static int step(int s, int d)
{
    int r = s / SH_W + dr8[d], f = s % SH_W + df8[d];
    return zone_rf(r, f) < 0 ? -1 : r * SH_W + f;
}

/* May a piece of colour c stand on s (fortresses closed by temdeks)? */
static int open_for(const Shatra *g, int s, int type)
{
    int z = zone(s);
    if (z < 0)
        return 0;
    if (type == SHATRA)
        return z == 0;
    if (z == 1 && g->temdek[0])
        return 0;
    if (z == 4 && g->temdek[1])
        return 0;
    return 1;
}

static int is_reserve(const Shatra *g, int s)
{
    int c = g->sq[s];
    if (!c)
        return 0;
    int z = zone(s), p = col(c);
    return g->temdek[p] && z == (p ? 4 : 1);
}

static int far_rank(int p) { return p ? 4 : 9; }

static int crossed(int p, int r) { return p ? r <= 6 : r >= 7; }

/* Which piece types a shatra of p may become now (bit per type). */
static unsigned promo_types(const Shatra *g, int p)
{
    if (g->promote == PROMO_BATYR)
        return 1u << BATYR;
    int have[6] = {0};
    for (int s = 0; s < SH_CELLS; s++)
        if (g->sq[s] && col(g->sq[s]) == p)
            have[ptype(g->sq[s])]++;
    unsigned m = 0;
    for (int t = JALKYN; t <= BATYR; t++)
        if (have[t] < start_count[t])
            m |= 1u << t;
    return m;
}

/* ---- move generation */

typedef struct Gen {
    const Shatra *g;
    Move *out;
    int n, cap;
    int from, type, p;
    uint8_t jumped[SH_CELLS];
    int8_t ord[SH_CELLS];       /* enemy pieces' order */
    uint32_t caught;
    unsigned promos;
    /* finding a path for the notation */
    Move want;
    int found, depth;
    int path[64], best[64], best_len;
} Gen;

static void add(Gen *x, Move m)
{
    if (x->n < x->cap)
        x->out[x->n++] = m;
}

static void add_promos(Gen *x, Move base, int to)
{
    if (x->type == SHATRA && to / SH_W == far_rank(x->p) && x->promos) {
        for (int t = JALKYN; t <= BATYR; t++)
            if (x->promos & 1u << t)
                add(x, base | (Move)t << 16);
    } else {
        add(x, base);
    }
}

static int empty_for(const Gen *x, int s)
{
    return s == x->from || (!x->g->sq[s] && !x->jumped[s]);
}

static void emit_capture(Gen *x, int to)
{
    Move base = (Move)x->from | (Move)to << 7 | (Move)K_CAPTURE << 14 |
                (Move)x->caught << 19;
    if (x->want) {
        if ((x->want & ~((Move)7 << 16)) == base && !x->found) {
            x->found = 1;
            x->best_len = x->depth;
            memcpy(x->best, x->path, sizeof(int) * (size_t)x->depth);
        }
        return;
    }
    int before = x->n;
    add_promos(x, base, to);
    if (x->n == before)
        return;     /* full */
    /* the same ends and pieces by another path: one move */
    for (int i = 0; i < before; i++)
        if (x->out[i] == x->out[before]) {
            x->n = before;
            return;
        }
}

static void capture_dfs(Gen *x, int cur)
{
    const Shatra *g = x->g;
    int any = 0, longr = x->type != SHATRA && x->type != BIY;
    for (int d = 0; d < 8; d++) {
        if ((x->type == TURA && (d & 1)) || (x->type == JALKYN && !(d & 1)))
            continue;
        int a = step(cur, d);
        while (longr && a >= 0 && empty_for(x, a))
            a = step(a, d);
        if (a < 0 || !g->sq[a] || col(g->sq[a]) == x->p || x->jumped[a])
            continue;
        for (int b = step(a, d); b >= 0 && empty_for(x, b); b = step(b, d)) {
            if (open_for(g, b, x->type)) {
                any = 1;
                x->jumped[a] = 1;
                x->caught |= 1u << x->ord[a];
                if (x->depth < 64)
                    x->path[x->depth] = b;
                x->depth++;
                if (x->type == BIY)
                    emit_capture(x, b);     /* the biy may stop */
                capture_dfs(x, b);
                x->depth--;
                x->caught &= ~(1u << x->ord[a]);
                x->jumped[a] = 0;
            }
            if (!longr)
                break;
        }
    }
    if (!any && x->depth > 0 && x->type != BIY)
        emit_capture(x, cur);
}

static void gen_init(Gen *x, const Shatra *g, Move *out, int cap)
{
    memset(x, 0, sizeof *x);
    x->g = g;
    x->out = out;
    x->cap = cap;
    x->p = g->side;
    int k = 0;
    for (int s = 0; s < SH_CELLS; s++) {
        x->ord[s] = -1;
        if (g->sq[s] && col(g->sq[s]) != x->p)
            x->ord[s] = (int8_t)k++;
    }
    x->promos = promo_types(g, x->p);
}

static void gen_captures_from(Gen *x, int s)
{
    x->from = s;
    x->type = ptype(x->g->sq[s]);
    x->caught = 0;
    x->depth = 0;
    capture_dfs(x, s);
}

static void gen_quiet_from(Gen *x, int s)
{
    const Shatra *g = x->g;
    int type = ptype(g->sq[s]), p = x->p;
    x->from = s;
    x->type = type;
    for (int d = 0; d < 8; d++) {
        if (type == SHATRA) {
            int fwd = p ? 4 : 0;    /* direction index straight ahead */
            int ok = d == fwd;
            if (crossed(p, s / SH_W))
                ok = d == fwd || d == (fwd + 1) % 8 || d == (fwd + 7) % 8 ||
                     d == 2 || d == 6;
            if (!ok)
                continue;
        }
        if ((type == TURA && (d & 1)) || (type == JALKYN && !(d & 1)))
            continue;
        int slide = type == TURA || type == JALKYN || type == BATYR;
        for (int t = step(s, d); t >= 0 && !g->sq[t]; t = step(t, d)) {
            if (open_for(g, t, type))
                add_promos(x, (Move)s | (Move)t << 7, t);
            if (!slide)
                break;
        }
    }
}

static int sh_moves(const Shatra *g, Move *out, int cap)
{
    Gen x;
    gen_init(&x, g, out, cap);
    int p = g->side, forced = 0;
    for (int s = 0; s < SH_CELLS; s++)
        if (g->sq[s] && col(g->sq[s]) == p && !is_reserve(g, s)) {
            int before = x.n;
            gen_captures_from(&x, s);
            if (x.n > before && ptype(g->sq[s]) != BIY)
                forced = 1;
        }
    for (int s = 0; s < SH_CELLS; s++) {
        if (!g->sq[s] || col(g->sq[s]) != p || is_reserve(g, s))
            continue;
        if (forced && ptype(g->sq[s]) != BIY)
            continue;
        gen_quiet_from(&x, s);
    }
    if (forced)
        return x.n;
    /* drops: one reserve of each type (the first on the board), onto
     * the empty squares of the own half */
    unsigned seen = 0;
    for (int s = 0; s < SH_CELLS; s++) {
        if (!is_reserve(g, s) || col(g->sq[s]) != p)
            continue;
        int t = ptype(g->sq[s]);
        if (seen & 1u << t)
            continue;
        seen |= 1u << t;
        int r0 = p ? 7 : 4;
        for (int r = r0; r < r0 + 3; r++)
            for (int f = 0; f < SH_W; f++) {
                int to = r * SH_W + f;
                if (g->sq[to] || (g->road == ROAD_CLOSED && f == 3))
                    continue;
                add(&x, (Move)s | (Move)to << 7 | (Move)K_DROP << 14);
            }
    }
    return x.n;
}

static int mv_from(Move m) { return (int)(m & 127); }
static int mv_to(Move m) { return (int)((m >> 7) & 127); }
static int mv_kind(Move m) { return (int)((m >> 14) & 3); }
static int mv_promo(Move m) { return (int)((m >> 16) & 7); }

/* Whether the side to move has a legal move: a step, a drop or else a
 * capture (a step that a compulsory capture forbids implies a capture). */
static int has_move(const Shatra *g)
{
    int p = g->side;
    for (int s = 0; s < SH_CELLS; s++) {
        int c = g->sq[s];
        if (!c || col(c) != p)
            continue;
        if (is_reserve(g, s)) {
            int r0 = p ? 7 : 4;
            for (int t = r0 * SH_W; t < (r0 + 3) * SH_W; t++)
                if (!g->sq[t] && (g->road == ROAD_OPEN || t % SH_W != 3))
                    return 1;
            continue;
        }
        int type = ptype(c);
        for (int d = 0; d < 8; d++) {
            if (type == SHATRA) {
                int fwd = p ? 4 : 0;
                int ok = d == fwd;
                if (crossed(p, s / SH_W))
                    ok = d != (fwd + 4) % 8 && d != (fwd + 3) % 8 &&
                         d != (fwd + 5) % 8;
                if (!ok)
                    continue;
            }
            if ((type == TURA && (d & 1)) || (type == JALKYN && !(d & 1)))
                continue;
            int slide = type == TURA || type == JALKYN || type == BATYR;
            for (int t = step(s, d); t >= 0 && !g->sq[t]; t = step(t, d)) {
                if (open_for(g, t, type))
                    return 1;
                if (!slide)
                    break;
            }
        }
    }
    Move tmp[1];
    return sh_moves(g, tmp, 1) > 0;
}

/* The game ends or goes on with the side to move as it is. */
static void settle(Shatra *g)
{
    int biy[2] = {0, 0};
    for (int s = 0; s < SH_CELLS; s++)
        if (ptype(g->sq[s]) == BIY)
            biy[col(g->sq[s])]++;
    g->over = 0;
    g->winner = -1;
    g->reason = END_NONE;
    if (!biy[0] || !biy[1]) {
        g->over = 1;
        g->winner = (int8_t)(biy[0] ? 0 : 1);
        g->reason = END_BIY;
        return;
    }
    if (!has_move(g)) {
        g->over = 1;
        g->winner = (int8_t)!g->side;
        g->reason = END_NOMOVE;
        return;
    }
    if (g->quiet >= SH_NO_PROGRESS || g->ply >= SH_MAX_PLIES) {
        g->over = 1;
        g->reason = g->quiet >= SH_NO_PROGRESS ? END_PROGRESS : END_LENGTH;
    }
}

static void update_temdeks(Shatra *g)
{
    for (int p = 0; p < 2; p++) {
        if (!g->temdek[p])
            continue;
        int any = 0;
        for (int s = 0; s < SH_CELLS; s++)
            any |= g->sq[s] && col(g->sq[s]) == p && zone(s) == (p ? 4 : 1);
        if (!any)
            g->temdek[p] = 0;
    }
}

static void sh_make(void *st, Move m)
{
    Shatra *g = st;
    int from = mv_from(m), to = mv_to(m), kind = mv_kind(m);
    int c = g->sq[from], progress = kind != K_QUIET || ptype(c) == SHATRA;
    if (kind == K_CAPTURE) {
        uint32_t caught = (uint32_t)(m >> 19);
        int k = 0;
        for (int s = 0; s < SH_CELLS; s++)
            if (g->sq[s] && col(g->sq[s]) != g->side) {
                if (caught & 1u << k)
                    g->sq[s] = EMPTY;
                k++;
            }
    }
    g->sq[from] = EMPTY;
    if (mv_promo(m))
        c = mv_promo(m) | (g->side ? BLACK : 0);
    g->sq[to] = (uint8_t)c;
    update_temdeks(g);
    g->quiet = progress ? 0 : (uint16_t)(g->quiet + 1);
    g->ply++;
    g->side = !g->side;
    settle(g);
}

static int sh_to_move(const void *st)
{
    const Shatra *g = st;
    return g->over ? PLAYER_TERMINAL : g->side;
}

static int sh_gen_moves(const void *st, Move *out)
{
    const Shatra *g = st;
    if (g->over)
        return 0;
    return sh_moves(g, out, SH_MAXN);
}

static void sh_returns(const void *st, double *out)
{
    const Shatra *g = st;
    out[0] = out[1] = 0;
    if (g->over && g->winner >= 0) {
        out[g->winner] = 1;
        out[!g->winner] = -1;
    }
}

static uint64_t sh_hash(const void *st)
{
    const Shatra *g = st;
    uint64_t h = ply_mix64(g->side | (uint64_t)g->temdek[0] << 2 |
                           (uint64_t)g->temdek[1] << 3 |
                           (uint64_t)g->over << 4 |
                           (uint64_t)(g->winner + 1) << 5);
    for (int s = 0; s < SH_CELLS; s++)
        if (g->sq[s])
            h = ply_mix64(h ^ ((uint64_t)g->sq[s] << 8 | (uint64_t)s));
    return h;
}

/* ---- text */

static void sq_name(int s, char *b)
{
    snprintf(b, 8, "%c%d", (char)('a' + s % SH_W), (s / SH_W + 1) % 100);
}

static int parse_sq(const char **ps)
{
    const char *s = *ps;
    if (*s < 'a' || *s > 'g' || s[1] < '1' || s[1] > '9')
        return -1;
    int f = *s - 'a', r = s[1] - '0';
    s += 2;
    if (*s >= '0' && *s <= '9') {
        r = r * 10 + (*s - '0');
        s++;
    }
    if (r < 1 || r > SH_H || zone_rf(r - 1, f) < 0)
        return -1;
    *ps = s;
    return (r - 1) * SH_W + f;
}

static int sh_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Shatra *g = st;
    char a[8], b[8];
    int from = mv_from(m), to = mv_to(m), kind = mv_kind(m);
    size_t len = 0;
    int w;
    sq_name(to, b);
    if (kind == K_DROP) {
        w = snprintf(buf, n, "%c*%s", pc_letter[ptype(g->sq[from])], b);
        return w < 0 || (size_t)w >= n ? -1 : w;
    }
    sq_name(from, a);
    if (kind == K_QUIET) {
        w = snprintf(buf, n, "%s-%s", a, b);
    } else {
        Gen x;
        Move none[1];
        gen_init(&x, g, none, 0);
        x.want = m;
        gen_captures_from(&x, from);
        if (!x.found)
            return -1;
        w = snprintf(buf, n, "%s", a);
        if (w < 0 || (size_t)w >= n)
            return -1;
        len = (size_t)w;
        for (int i = 0; i < x.best_len && i < 64; i++) {
            sq_name(x.best[i], b);
            PLY_OUT("x%s", b);
        }
        w = (int)len;
    }
    if (w < 0 || (size_t)w >= n)
        return -1;
    len = (size_t)w;
    if (mv_promo(m)) {
        PLY_OUT("=%c", pc_letter[mv_promo(m)]);
    }
    return (int)len;
}

static int sh_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const Shatra *g = st;
    if (g->over)
        return ply_fail(err, "the game is over");
    Move mv[SH_MAXN];
    int n = sh_moves(g, mv, SH_MAXN);
    char buf[300];
    for (int i = 0; i < n; i++)
        if (sh_move_to_text(g, mv[i], buf, sizeof buf) > 0 &&
            !strcmp(buf, s)) {
            *m = mv[i];
            return 0;
        }
    /* a capture may also be written by its ends alone, d5xf7=Q, when
     * one capture joins them */
    const char *p = s;
    int from = parse_sq(&p), to = -1, hits = 0;
    if (from >= 0 && *p == 'x') {
        p++;
        to = parse_sq(&p);
        int promo = 0;
        if (to >= 0 && *p == '=') {
            const char *l = strchr("BRQ", p[1]);
            promo = l && p[1] ? (int)(l - "BRQ") + JALKYN : -1;
            p += 2;
        }
        for (int i = 0; to >= 0 && !*p && promo >= 0 && i < n; i++)
            if (mv_kind(mv[i]) == K_CAPTURE && mv_from(mv[i]) == from &&
                mv_to(mv[i]) == to && mv_promo(mv[i]) == promo) {
                *m = mv[i];
                hits++;
            }
        if (hits == 1)
            return 0;
        if (hits > 1)
            return ply_fail(err, "'%.40s': several captures end there; "
                            "write every landing square", s);
    }
    return ply_fail(err, "'%.40s' is not a legal move here (quiet d5-d6, "
                    "capture d5xd7xf7, drop R*c6, promotion =Q; a capture is "
                    "compulsory)", s);
}

/* Setup: ranks from 14 down to 1 separated by '/', each over its own
 * squares only (3 in a fortress, 1 at a gate, 7 on the battlefield). */
static int sh_to_text(const void *st, char *buf, size_t n)
{
    const Shatra *g = st;
    char b[200];
    size_t k = 0;
    for (int r = SH_H - 1; r >= 0; r--) {
        int e = 0;
        for (int f = 0; f < SH_W; f++) {
            if (zone_rf(r, f) < 0)
                continue;
            int c = g->sq[r * SH_W + f];
            if (!c) {
                e++;
                continue;
            }
            if (e)
                b[k++] = (char)('0' + e);
            e = 0;
            char l = pc_letter[ptype(c)];
            b[k++] = col(c) ? (char)(l - 'A' + 'a') : l;
        }
        if (e)
            b[k++] = (char)('0' + e);
        if (r)
            b[k++] = '/';
    }
    b[k] = 0;
    char t[3] = {0};
    int tk = 0;
    if (g->temdek[0])
        t[tk++] = 'T';
    if (g->temdek[1])
        t[tk++] = 't';
    if (!tk)
        t[0] = '-';
    int w = snprintf(buf, n, "%s %c %s %d %d", b, g->side ? 'b' : 'w', t,
                     g->quiet, g->ply);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int sh_from_text(void *st, const char *s, PlyError *err)
{
    Shatra *g = st, t;
    memset(&t, 0, sizeof t);
    t.road = g->road;
    t.promote = g->promote;
    int r = SH_H - 1, f = 0, cnt[2] = {0, 0};
    for (; *s && *s != ' '; s++) {
        while (f < SH_W && zone_rf(r, f) < 0)
            f++;
        if (*s == '/') {
            while (f < SH_W && zone_rf(r, f) < 0)
                f++;
            if (f != SH_W || r == 0)
                return ply_fail(err, "shatra setup: rank %d is not full",
                                r + 1);
            r--;
            f = 0;
            continue;
        }
        if (*s >= '1' && *s <= '7') {
            for (int k = 0; k < *s - '0'; k++) {
                while (f < SH_W && zone_rf(r, f) < 0)
                    f++;
                if (f >= SH_W)
                    return ply_fail(err, "shatra setup: rank %d is too "
                                    "long", r + 1);
                f++;
            }
            continue;
        }
        const char *p = strchr("PBRQKpbrqk", *s);
        if (!p || !*s)
            return ply_fail(err, "shatra setup: '%c' is not a piece (K biy, "
                            "Q batyr, R tura, B jalkyn, P shatra; lower case "
                            "Black)", *s);
        if (f >= SH_W)
            return ply_fail(err, "shatra setup: rank %d is too long", r + 1);
        int i = (int)(p - "PBRQKpbrqk");
        int c = (i % 5 + 1) | (i >= 5 ? BLACK : 0);
        if (ptype(c) == SHATRA && zone_rf(r, f) != 0 &&
            zone_rf(r, f) != (col(c) ? 4 : 1))
            return ply_fail(err, "shatra setup: a shatra stands on the "
                            "battlefield or in its own fortress");
        if (++cnt[col(c)] > SH_MAX_SIDE)
            return ply_fail(err, "shatra setup: more than %d pieces a side",
                            SH_MAX_SIDE);
        t.sq[r * SH_W + f++] = (uint8_t)c;
    }
    while (f < SH_W && zone_rf(r, f) < 0)
        f++;
    if (r != 0 || f != SH_W)
        return ply_fail(err, "shatra setup: 14 ranks are needed (3, 3, 3, 1, "
                        "7 x 6, 1, 3, 3, 3 squares)");
    char side, tem[8];
    int quiet, ply, used = 0;
    if (sscanf(s, " %c %7s %d %d%n", &side, tem, &quiet, &ply, &used) != 4 ||
        s[used])
        return ply_fail(err, "shatra setup: after the board write w or b, "
                        "the temdeks (Tt, T, t or -), the plies without "
                        "progress and the plies played");
    if (side != 'w' && side != 'b')
        return ply_fail(err, "shatra setup: side to move is w or b");
    t.side = side == 'b';
    if (!strcmp(tem, "Tt") || !strcmp(tem, "T") || !strcmp(tem, "t")) {
        t.temdek[0] = strchr(tem, 'T') != NULL;
        t.temdek[1] = strchr(tem, 't') != NULL;
    } else if (strcmp(tem, "-")) {
        return ply_fail(err, "shatra setup: temdeks are Tt, T, t or -");
    }
    if (quiet < 0 || quiet > SH_NO_PROGRESS || ply < 0 || ply > SH_MAX_PLIES)
        return ply_fail(err, "shatra setup: counters out of range");
    t.quiet = (uint16_t)quiet;
    t.ply = (uint16_t)ply;
    int biy[2] = {0, 0};
    for (int i = 0; i < SH_CELLS; i++) {
        int c = t.sq[i];
        if (!c)
            continue;
        if (ptype(c) == BIY)
            biy[col(c)]++;
        int z = zone(i), p = col(c);
        if (t.temdek[!p] && z == (p ? 1 : 4))
            return ply_fail(err, "shatra setup: a piece in the enemy "
                            "fortress while its temdek stands");
        if (ptype(c) == SHATRA && z != 0 && !(t.temdek[p] &&
                                              z == (p ? 4 : 1)))
            return ply_fail(err, "shatra setup: a shatra off the "
                            "battlefield that is not a reserve");
        if (ptype(c) == SHATRA && z == 0 && i / SH_W == far_rank(p) &&
            t.promote == PROMO_BATYR)
            return ply_fail(err, "shatra setup: promote=batyr leaves no "
                            "shatra on the far rank");
    }
    if (biy[0] > 1 || biy[1] > 1 || biy[0] + biy[1] == 0)
        return ply_fail(err, "shatra setup: each side has one biy");
    if (!biy[0] || !biy[1]) {
        /* a finished game: the biy was taken by the other side's move */
        if (t.side != (biy[0] ? 1 : 0))
            return ply_fail(err, "shatra setup: the side without its biy "
                            "must be the one to move");
    }
    update_temdeks(&t);
    if (strcmp(tem, "-") && ((strchr(tem, 'T') && !t.temdek[0]) ||
                             (strchr(tem, 't') && !t.temdek[1])))
        return ply_fail(err, "shatra setup: a temdek stands only while its "
                        "fortress holds reserves");
    settle(&t);
    *g = t;
    return 0;
}

/* The board for a front end: the 62 squares on the 7 x 14 grid, rank 1
 * at the bottom, named as the notation writes them ("d4"); fortresses
 * and gates shaded apart from the battlefield; pieces as chess glyphs
 * (shatra pawn, jalkyn bishop, tura rook, batyr queen, biy king). A drop
 * ("P*b6") is located by its target, the letter before it telling drops
 * apart. */
static int sh_layout(const void *st, Layout *l)
{
    static const char *const glyph[2][6] = {
        {"", "\u2659", "\u2657", "\u2656", "\u2655", "\u2654"},
        {"", "\u265F", "\u265D", "\u265C", "\u265B", "\u265A"}};
    const Shatra *g = st;
    l->width = SH_W;
    l->height = SH_H;
    for (int r = SH_H - 1; r >= 0; r--)
        for (int f = 0; f < SH_W; f++) {
            int z = zone_rf(r, f);
            if (z < 0)
                continue;
            int s = r * SH_W + f;
            char name[8];
            sq_name(s, name);
            int shade = z ? SHADE_SPECIAL
                          : (r + f) % 2 ? SHADE_LIGHT : SHADE_DARK;
            LayoutCell *c = layout_cell(l, (float)f + 0.5f,
                                        (float)(SH_H - 1 - r) + 0.5f,
                                        CELL_SQUARE, (uint8_t)shade, name);
            if (!c)
                return -1;
            int p = g->sq[s];
            if (p) {
                int side = (p & BLACK) ? 1 : 0;
                c->owner = (int8_t)side;
                snprintf(c->glyph, sizeof c->glyph, "%s",
                         glyph[side][ptype(p)]);
            }
        }
    return 0;
}

static int sh_render(const void *st, char *buf, size_t n)
{
    const Shatra *g = st;
    size_t len = 0;
    for (int r = SH_H - 1; r >= 0; r--) {
        PLY_OUT("%2d ", r + 1);
        for (int f = 0; f < SH_W; f++) {
            int s = r * SH_W + f, c = g->sq[s];
            if (zone_rf(r, f) < 0) {
                PLY_OUT("  ");
                continue;
            }
            char l = c ? pc_letter[ptype(c)] : zone(s) ? ':' : '.';
            PLY_OUT(" %c", c && col(c) ? l - 'A' + 'a' : l);
        }
        PLY_OUT("\n");
        if (r == 7)
            PLY_OUT("   - - - - - - - -  (ditch)\n");
    }
    PLY_OUT("    a b c d e f g\n");
    if (g->over)
        PLY_OUT("game over: %s\n", g->winner < 0 ? "draw" :
            g->winner ? "Black wins" : "White wins");
    else
        PLY_OUT("%s to move\n", sh_players[g->side]);
    return (int)len;
}

/* ---- bots */

/* Material (a piece in the reserve of a fortress not yet in play counts
 * its reserve weight besides, which the fit made a bonus), shatras'
 * advance, and the hunt for each biy: its free
 * steps and the enemy pieces near it. A linear form over named weights
 * (`ply info shatra`), tunable with `ply tune` (docs/tuning.md): each
 * side's features, weighted, White's less Black's. */
enum { SF_PIECE = 0, SF_RESERVE = 4, SF_ADVANCE = 8, SF_FREEDOM, SF_NEAR,
       SH_NW };
static const char *const sh_names[SH_NW] = {
    "shatra", "jalkyn", "tura", "batyr",
    "reserve.shatra", "reserve.jalkyn", "reserve.tura", "reserve.batyr",
    "shatra.advance", "biy.freedom", "biy.hunters",
};
/* fitted by `ply tune` on 400 self-play games (docs/tuning.md); the
 * hand-set start was {100, 300, 450, 800, -10, -30, -45, -80, 6, 12, -4} */
static const int sh_weights[SH_NW] = {218, 247, 481, 687,
                                      21, 2, 154, 255, 4, -19, -2};
/* move ordering's piece values: the material weights, 0 for the biy */
static int sh_value(int t)
{
    return t >= SHATRA && t <= BATYR ? sh_weights[SF_PIECE + t - 1] : 0;
}

/* The features of both sides: f[side][weight]. */
static void sh_features(const Shatra *g, int f[2][SH_NW])
{
    memset(f, 0, sizeof(int) * 2 * SH_NW);
    for (int s = 0; s < SH_CELLS; s++) {
        int c = g->sq[s];
        if (!c)
            continue;
        int t = ptype(c), p = col(c), r = s / SH_W;
        if (t == BIY)
            continue;
        f[p][SF_PIECE + t - 1]++;
        if (t == SHATRA && zone(s) == 0)
            f[p][SF_ADVANCE] += p ? 9 - r : r - 4;
        if (is_reserve(g, s))       /* in a fortress: never advanced */
            f[p][SF_RESERVE + t - 1]++;
    }
    /* hunting the biy: its free steps, and pieces near it */
    for (int p = 0; p < 2; p++) {
        int b = -1;
        for (int s = 0; s < SH_CELLS; s++)
            if (g->sq[s] == (BIY | (p ? BLACK : 0)))
                b = s;
        if (b < 0)
            continue;
        int freedom = 0, near = 0;
        for (int d = 0; d < 8; d++) {
            int t = step(b, d);
            freedom += t >= 0 && !g->sq[t] && open_for(g, t, BIY);
        }
        for (int s = 0; s < SH_CELLS; s++) {
            int c = g->sq[s];
            if (!c || col(c) == p || ptype(c) == BIY || is_reserve(g, s))
                continue;
            int dr = abs(s / SH_W - b / SH_W), df = abs(s % SH_W - b % SH_W);
            int dist = dr > df ? dr : df;
            near += dist < 5 ? 5 - dist : 0;
        }
        f[p][SF_FREEDOM] = freedom;
        f[p][SF_NEAR] = near;
    }
}

static int sh_eval(const void *st, int player)
{
    int f[2][SH_NW];
    sh_features(st, f);
    int v = evalform_value(sh_weights, f[0], f[1], SH_NW);
    return player ? -v : v;
}

/* The terms from player 0's (White's) view. */
static int sh_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][SH_NW];
    *base = 0;
    sh_features(st, f);
    return evalform_terms(f[0], f[1], SH_NW, out);
}

static const EvalTuning sh_tuning = {
    .nparams = SH_NW, .names = sh_names, .weights = sh_weights,
    .terms = sh_terms,
};

static int sh_heuristic(const void *st, Move m)
{
    const Shatra *g = st;
    int v = 0;
    if (mv_kind(m) == K_CAPTURE) {
        uint32_t caught = (uint32_t)(m >> 19);
        int k = 0;
        for (int s = 0; s < SH_CELLS; s++)
            if (g->sq[s] && col(g->sq[s]) != g->side) {
                if (caught & 1u << k)
                    v += ptype(g->sq[s]) == BIY ? 5000 :
                         sh_value(ptype(g->sq[s]));
                k++;
            }
    } else if (mv_kind(m) == K_DROP) {
        v = 10;
    }
    if (mv_promo(m))
        v += sh_value(mv_promo(m));
    return v;
}

static int sh_is_noisy(const void *st, Move m)
{
    (void)st;
    return mv_kind(m) == K_CAPTURE || mv_promo(m);
}

static int sh_check(const void *st)
{
    const Shatra *g = st;
    for (int s = 0; s < SH_CELLS; s++) {
        int c = g->sq[s];
        if (c && (zone(s) < 0 || ptype(c) < SHATRA || ptype(c) > BIY ||
                  (c & ~(BLACK | 7))))
            return -1;
    }
    return g->side > 1 ? -1 : 0;
}

static const char *sh_end_reason(const void *st)
{
    const Shatra *g = st;
    if (!g->over)
        return NULL;
    switch (g->reason) {
    case END_BIY: return "the biy was captured";
    case END_NOMOVE: return "no legal move (the biy is stalemated)";
    case END_PROGRESS: return "100 plies without capture, drop or shatra "
                              "move";
    case END_LENGTH: return "game length limit";
    default: return NULL;
    }
}

static int sh_score(const void *st, int player)
{
    const Shatra *g = st;
    int n = 0;
    for (int s = 0; s < SH_CELLS; s++)
        n += g->sq[s] && col(g->sq[s]) == player;
    return n;
}

static int sh_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Shatra *g = st;
    memset(g, 0, sizeof *g);
    g->road = (uint8_t)opt[0];
    g->promote = (uint8_t)opt[1];
    return sh_from_text(g, "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/"
                        "PQP w Tt 0 0", err);
}

const GameVtbl game_shatra = {
    .info = {
        .name = "shatra",
        .title = "Shatra (Altai chess-draughts)",
        .num_players = 2,
        .max_moves = SH_MAXN,
        .max_game_length = SH_MAX_PLIES,
        .state_size = sizeof(Shatra),
        .flags = GAME_ZERO_SUM,
        .player_names = sh_players,
        .options = sh_options,
        .default_bot = "alphabeta",
        .notation =
            "Squares: files a-g, ranks 1-14 (a1 White's bottom left; only\n"
            "c-e exist on ranks 1-3 and 12-14, only d on 4 and 11). A step\n"
            "or slide: d5-d6. A capture: the start and every landing square,\n"
            "d5xd7xf7 (when several paths take the same pieces to the same\n"
            "end, one is written; the start and end alone, d5xf7, are read\n"
            "when one capture joins them). Bringing a reserve out: its\n"
            "letter, * and the square (the reserve nearest a1 goes), "
            "R*c6.\n"
            "A promotion adds =Q, =R or =B. Setup string: the ranks from\n"
            "14 down to 1 separated by '/', each over its own squares (3,\n"
            "1 or 7), K biy, Q batyr, R tura, B\n"
            "jalkyn, P shatra, lower case Black, digits for empty squares;\n"
            "then w or b to move, the standing temdeks (Tt, T, t or -),\n"
            "plies without progress and plies played. Start:\n"
            "pqp/prp/brb/k/ppppppp/7/7/7/7/PPPPPPP/K/BRB/PRP/PQP w Tt 0 0.",
        .rules =
            "Shatra on 62 squares: White's fortress c1-e3, gate d4, the\n"
            "battlefield a5-g10 cut by a ditch between ranks 7 and 8,\n"
            "Black's gate d11 and fortress c12-e14. Each side: biy (king)\n"
            "on its gate, batyr (queen), two turas (rooks), two jalkyns\n"
            "(bishops) and eleven shatras; start as math.bas.bg (White Qd1\n"
            "Rd2 Rd3 Bc3 Be3, shatras c1 e1 c2 e2 a5-g5; Black mirrored, its\n"
            "c4 read as c14). Reserves: while a side's fortress holds\n"
            "pieces its temdek stands: those pieces do not move; a move may\n"
            "instead bring one out onto any empty square of the own half\n"
            "(ranks 5-7 / 8-10; road=closed: not on file d); no piece of\n"
            "either side enters a fortress while its temdek stands, which\n"
            "falls for good when the fortress is empty. Moves: biy one\n"
            "square any way; batyr, tura, jalkyn slide as queen, rook,\n"
            "bishop; a shatra steps straight ahead in its own half, and\n"
            "after the ditch ahead, diagonally ahead or sideways, never\n"
            "leaving the battlefield. Captures are draughts jumps: shatra\n"
            "and biy leap over an adjacent enemy (any of 8 directions) to\n"
            "the square beyond; batyr (8 lines), tura (4 orthogonal) and\n"
            "jalkyn (4 diagonal) leap from afar over one enemy to any empty\n"
            "square beyond (any of them: unlike Russian draughts it need not\n"
            "pick one it can jump on from). From where it lands a capturer\n"
            "must go on jumping while it can; no piece is jumped twice and\n"
            "the jumped are lifted at the end.\n"
            "Capturing is compulsory, except for the biy: when any other\n"
            "piece can capture, the moves are the captures and the biy's\n"
            "steps; the biy may also stop after any jump. Promotion: a\n"
            "shatra ending a move on the far rank (10 / 5) becomes a piece\n"
            "of a type its side has lost (the player chooses); while none\n"
            "is lost it stays and moves sideways (promote=batyr: always a\n"
            "batyr, as Dagaz). Goal: capture the biy; a side without a\n"
            "legal move loses (stalemating the biy wins). Draw after 100\n"
            "plies without capture, drop or shatra move, or at 600 plies.\n"
            "Not played: Dagaz's fixed exit path from the fortress, its\n"
            "ko rule and its fortress zones for promoted pieces.",
    },
    .init = sh_init,
    .to_move = sh_to_move,
    .gen_moves = sh_gen_moves,
    .make = sh_make,
    .returns = sh_returns,
    .hash = sh_hash,
    .to_text = sh_to_text,
    .from_text = sh_from_text,
    .move_to_text = sh_move_to_text,
    .text_to_move = sh_text_to_move,
    .render = sh_render,
    .layout = sh_layout,
    .eval = sh_eval,
    .tuning = &sh_tuning,
    .heuristic = sh_heuristic,
    .is_noisy = sh_is_noisy,
    .score = sh_score,
    .check = sh_check,
    .end_reason = sh_end_reason,
};
