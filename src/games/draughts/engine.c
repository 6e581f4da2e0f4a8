/* engine.c — the cold half of the draughts engine: start positions, setup
 * strings, move notation (with capture paths), rendering, evaluation and
 * hashing, shared by every variant (see engine.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "engine.h"

/* ---- squares ---- */

/* Display coordinates (row 0 at the bottom as printed) of bit sq. */
static void sq_disp(const DRules *R, int sq, int *r, int *c)
{
    int rc = R->g->rc[sq], n = R->g->n;
    *r = rc >> 4;
    *c = rc & 15;
    if (R->flip) {
        *r = n - 1 - *r;
        *c = n - 1 - *c;
    }
}

static int disp_sq(const DRules *R, int r, int c)
{
    int n = R->g->n;
    if (r < 0 || r >= n || c < 0 || c >= n)
        return -1;
    if (R->flip) {
        r = n - 1 - r;
        c = n - 1 - c;
    }
    return R->g->idx[r][c];
}

/* PDN number: 1 is the top-left playing square, counting row by row. */
static int sq_number(const DRules *R, int sq)
{
    int r, c, n = R->g->n;
    sq_disp(R, sq, &r, &c);
    return (n - 1 - r) * (n / 2) + c / 2 + 1;
}

static int number_sq(const DRules *R, int num)
{
    int n = R->g->n, h = n / 2;
    if (R->g->full || num < 1 || num > n * h)
        return -1;
    int r = n - 1 - (num - 1) / h;
    int c = 2 * ((num - 1) % h) + ((r & 1) ? 1 : 0);
    return disp_sq(R, r, c);
}

int dr_sq_text(const DRules *R, int sq, char *buf, size_t n)
{
    int r, c;
    if (R->numbered)
        return snprintf(buf, n, "%d", sq_number(R, sq));
    sq_disp(R, sq, &r, &c);
    return snprintf(buf, n, "%c%d", 'a' + c, r + 1);
}

/* Parses one square (a number or a1-style) at *p, advancing *p. */
int dr_parse_sq(const DRules *R, const char **p, PlyError *err)
{
    const char *s = *p;
    int n = R->g->n;
    if (isdigit((unsigned char)*s)) {
        long v = 0;
        while (isdigit((unsigned char)*s) && v < 1000)
            v = v * 10 + (*s++ - '0');
        int sq = number_sq(R, (int)v);
        if (sq < 0)
            return R->g->full
                ? ply_fail(err, "squares are named a1..%c%d here, not "
                           "numbers ('%.8s')", 'a' + n - 1, n, *p)
                : ply_fail(err, "square number %ld is not 1..%d", v,
                           R->g->nsq);
        *p = s;
        return sq;
    }
    int c = tolower((unsigned char)*s) - 'a';
    if (c < 0 || c >= n || !isdigit((unsigned char)s[1]))
        return ply_fail(err, "expected a square at '%.8s'", s);
    s++;
    long r = 0;
    while (isdigit((unsigned char)*s) && r < 1000)
        r = r * 10 + (*s++ - '0');
    int sq = disp_sq(R, (int)r - 1, c);
    if (sq < 0)
        return ply_fail(err, "'%.*s' is not a playing square",
                        (int)(s - *p), *p);
    *p = s;
    return sq;
}

/* ---- start position ---- */

int dr_init(const DRules *R, DState *s, int repetition)
{
    const DGeom *g = R->g;
    memset(s, 0, DR_STATE_SIZE(R->quiet_limit));
    if (!repetition)
        s->flags = DR_F_NOREP;
    for (int r = R->men_rows[0]; r <= R->men_rows[1]; r++) {
        s->occ[0] |= g->row[r];
        s->occ[1] |= g->row[g->n - 1 - r];
    }
    s->ksq[0] = s->ksq[1] = DR_NONE;
    return 0;
}

/* ---- setup strings ---- */

/* Bounded append, shared with towers.c: sets bad instead of overflowing. */
void dr_out(DrOut *o, const char *fmt, ...)
{
    va_list ap;
    if (o->bad)
        return;
    va_start(ap, fmt);
    int w = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= o->n - o->len)
        o->bad = 1;
    else
        o->len += (size_t)w;
}

/* Squares in text order: by number, or by rank then file. */
static int text_order(const DRules *R, int *order)
{
    const DGeom *g = R->g;
    int k = 0;
    if (R->numbered) {
        for (int num = 1; num <= g->nsq; num++)
            order[k++] = number_sq(R, num);
    } else {
        for (int r = 0; r < g->n; r++)
            for (int c = 0; c < g->n; c++)
                if (disp_sq(R, r, c) >= 0)
                    order[k++] = disp_sq(R, r, c);
    }
    return k;
}

static int player_of_letter(const DRules *R, int ch)
{
    ch = toupper(ch);
    return ch == R->colours[0] ? 0 : ch == R->colours[1] ? 1 : -1;
}

int dr_to_text(const DRules *R, const DState *s, char *buf, size_t n)
{
    DrOut o = {buf, n, 0, 0};
    int order[64], k = text_order(R, order);
    char sqb[16];
    dr_out(&o, "%c", R->colours[s->side]);
    for (int letter = 0; letter < 2; letter++) {
        int p = player_of_letter(R, "WB"[letter]);
        dr_out(&o, ":%c", "WB"[letter]);
        int first = 1;
        for (int i = 0; i < k; i++) {
            uint64_t b = 1ull << order[i];
            if (!(s->occ[p] & b))
                continue;
            dr_sq_text(R, order[i], sqb, sizeof sqb);
            dr_out(&o, "%s%s%s", first ? "" : ",",
                    (s->kings & b) ? "K" : "", sqb);
            first = 0;
        }
    }
    if (s->quiet)
        dr_out(&o, ":H%d", s->quiet);
    for (int p = 0; p < 2; p++)
        if (R->king_limit && s->kcnt[p]) {
            dr_sq_text(R, s->ksq[p], sqb, sizeof sqb);
            dr_out(&o, ":R%c%s/%d", R->colours[p], sqb, s->kcnt[p]);
        }
    /* the setup cannot carry the earlier positions: a game drawn by
     * repetition says so */
    if (s->flags & DR_F_REP3)
        dr_out(&o, ":3fold");
    return o.bad ? -1 : (int)o.len;
}

int dr_parse_uint(const char **p, int max, int *v)
{
    const char *s = *p;
    long x = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    while (isdigit((unsigned char)*s)) {
        x = x * 10 + (*s++ - '0');
        if (x > max)
            return -1;
    }
    *v = (int)x;
    *p = s;
    return 0;
}

int dr_from_text(const DRules *R, DState *st, const char *str, PlyError *err)
{
    DState t;
    memset(&t, 0, sizeof t);
    t.ksq[0] = t.ksq[1] = DR_NONE;
    t.flags = st->flags & DR_F_NOREP;   /* the option, from init() */
    const char *p = str;
    while (*p == ' ')
        p++;
    int side = player_of_letter(R, *p);
    if (side < 0)
        return ply_fail(err, "a setup starts with the side to move (%c or "
                        "%c), not '%.8s'", R->colours[0], R->colours[1], p);
    t.side = (uint8_t)side;
    p++;
    int seen[2] = {0, 0};
    while (*p == ':') {
        p++;
        int pl = player_of_letter(R, *p);
        if (pl >= 0) {
            if (seen[pl])
                return ply_fail(err, "the pieces of %c are listed twice",
                                R->colours[pl]);
            seen[pl] = 1;
            p++;
            while (*p && *p != ':' && *p != '.' && *p != ' ') {
                int king = 0;
                if (*p == 'K' || *p == 'k') {
                    king = 1;
                    p++;
                }
                const char *at = p;
                int a = dr_parse_sq(R, &p, err);
                if (a < 0)
                    return -1;
                int b = a;
                if (*p == '-') {  /* a range of numbers */
                    p++;
                    if (!isdigit((unsigned char)*at) ||
                        !isdigit((unsigned char)*p))
                        return ply_fail(err, "a range joins two square "
                                        "numbers: '%.12s'", at);
                    b = dr_parse_sq(R, &p, err);
                    if (b < 0)
                        return -1;
                }
                int na = R->numbered || isdigit((unsigned char)*at)
                    ? sq_number(R, a) : 0;
                int nb = na ? sq_number(R, b) : 0;
                if (na > nb)
                    return ply_fail(err, "empty range '%.12s'", at);
                for (int num = na; num <= nb; num++) {
                    int sq = na ? number_sq(R, num) : a;
                    uint64_t bit = 1ull << sq;
                    if ((t.occ[0] | t.occ[1]) & bit)
                        return ply_fail(err, "square '%.*s' is listed twice",
                                        (int)(p - at), at);
                    t.occ[pl] |= bit;
                    if (king)
                        t.kings |= bit;
                    if (!na)
                        break;
                }
                if (*p == ',')
                    p++;
                else if (*p && *p != ':' && *p != '.' && *p != ' ')
                    return ply_fail(err, "expected ',' or ':' at '%.8s'", p);
            }
        } else if (*p == 'H') {
            p++;
            int v;
            if (dr_parse_uint(&p, R->quiet_limit, &v))
                return ply_fail(err, "H needs the plies without progress "
                                "(0..%d)", R->quiet_limit);
            t.quiet = (uint8_t)v;
        } else if (!strncmp(p, "3fold", 5)) {
            p += 5;
            if (t.flags & DR_F_NOREP)
                return ply_fail(err, "3fold: the repetition rule is off "
                                "(repetition=0)");
            t.flags |= DR_F_REP3;
        } else if (*p == 'R' && R->king_limit) {
            p++;
            int pl2 = player_of_letter(R, *p);
            if (pl2 < 0)
                return ply_fail(err, "R needs a colour letter");
            p++;
            int sq = dr_parse_sq(R, &p, err), v;
            if (sq < 0)
                return -1;
            if (*p != '/' || (p++, dr_parse_uint(&p, R->king_limit, &v)) ||
                v < 1)
                return ply_fail(err, "R needs /count (1..%d)", R->king_limit);
            t.ksq[pl2] = (uint8_t)sq;
            t.kcnt[pl2] = (uint8_t)v;
        } else {
            return ply_fail(err, "unexpected '%.8s' in the setup", p);
        }
    }
    if (*p == '.')
        p++;
    while (*p == ' ')
        p++;
    if (*p)
        return ply_fail(err, "unexpected '%.8s' at the end of the setup", p);
    if (!seen[0] || !seen[1])
        return ply_fail(err, "a setup lists both sides' pieces, e.g. "
                        "W:W...:B...");
    for (int pl = 0; pl < 2; pl++) {
        if (dr_popcount(t.occ[pl]) > 51)
            return ply_fail(err, "at most 51 pieces per side");
        if (t.occ[pl] & ~t.kings & dr_promo_row(R, pl))
            return ply_fail(err, "a man of %c stands on its crowning row",
                            R->colours[pl]);
        if (t.kcnt[pl] && !(t.occ[pl] & t.kings & (1ull << t.ksq[pl])))
            return ply_fail(err, "R names a square without a king of %c",
                            R->colours[pl]);
    }
    memcpy(st, &t, DR_STATE_SIZE(R->quiet_limit));
    return 0;
}

/* ---- capture paths (slow, for notation and tests) ---- */

typedef struct PathCtx {
    const DRules *R;
    int side, stop;
    uint64_t opp, empty;
    int path[64], len;
    DPathFn fn;
    void *user;
} PathCtx;

static int path_king_can(const PathCtx *c, uint64_t at, uint64_t cap,
                         int lastd)
{
    const DRules *R = c->R;
    const DGeom *g = R->g;
    uint64_t empty = R->immediate ? c->empty | cap : c->empty;
    uint64_t prey = c->opp & ~cap;
    for (int d = 0; d < 8; d++) {
        if (!(R->king_cap >> d & 1) ||
            (!R->king_reverse && d == (lastd ^ 1)))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (R->flying)
            while (v & empty)
                v = dr_step(g, v, d);
        if ((v & prey) && (dr_step(g, v, d) & empty))
            return 1;
    }
    return 0;
}

static void path_end(PathCtx *c, int sq, uint64_t cap, int promo)
{
    c->path[c->len++] = sq;
    if (!c->stop)
        c->stop = c->fn(c->user, c->path, c->len, cap, promo);
    c->len--;
}

/* As hot_cap_king: land where the capture goes on, if anywhere. */
static void path_king(PathCtx *c, uint64_t at, uint64_t cap, int promo,
                      int lastd)
{
    const DRules *R = c->R;
    const DGeom *g = R->g;
    uint64_t empty = R->immediate ? c->empty | cap : c->empty;
    uint64_t prey = c->opp & ~cap;
    for (int d = 0; d < 8 && !c->stop; d++) {
        if (!(R->king_cap >> d & 1) ||
            (!R->king_reverse && d == (lastd ^ 1)))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (R->flying)
            while (v & empty)
                v = dr_step(g, v, d);
        if (!(v & prey))
            continue;
        uint64_t c2 = cap | v, more = 0, ends = 0;
        for (uint64_t l = dr_step(g, v, d); l & empty; l = dr_step(g, l, d)) {
            if (path_king_can(c, l, c2, d))
                more |= l;
            else
                ends |= l;
            if (!R->flying || R->land_next)
                break;
        }
        if (more) {
            for (; more && !c->stop; more &= more - 1) {
                c->path[c->len++] = dr_ctz(more);
                path_king(c, more & -more, c2, promo, d);
                c->len--;
            }
        } else {
            for (; ends && !c->stop; ends &= ends - 1)
                path_end(c, dr_ctz(ends), c2, promo);
        }
    }
}

static void path_man(PathCtx *c, uint64_t at, uint64_t cap)
{
    const DRules *R = c->R;
    const DGeom *g = R->g;
    uint64_t empty = R->immediate ? c->empty | cap : c->empty;
    uint64_t prey = c->opp & ~cap, last = dr_promo_row(R, c->side);
    int found = 0;
    for (int d = 0; d < 8 && !c->stop; d++) {
        if (!(R->man_cap[c->side] >> d & 1))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (!(v & prey))
            continue;
        uint64_t l = dr_step(g, v, d);
        if (!(l & empty))
            continue;
        found = 1;
        if (R->passing_promo && (l & last)) {
            if (path_king_can(c, l, cap | v, d)) {
                c->path[c->len++] = dr_ctz(l);
                path_king(c, l, cap | v, 1, d);
                c->len--;
            } else {
                path_end(c, dr_ctz(l), cap | v, 1);
            }
        } else {
            c->path[c->len++] = dr_ctz(l);
            path_man(c, l, cap | v);
            c->len--;
        }
    }
    if (!found && cap && !c->stop)
        c->stop = c->fn(c->user, c->path, c->len, cap,
                        !R->passing_promo && (at & last));
}

int dr_paths(const DRules *R, const DState *s, int from, DPathFn fn,
             void *user)
{
    uint64_t bit = 1ull << from;
    if (!(s->occ[s->side] & bit))
        return 0;
    PathCtx c = {.R = R, .side = s->side, .opp = s->occ[!s->side],
                 .fn = fn, .user = user};
    c.empty = (~(s->occ[0] | s->occ[1]) & R->g->board) | bit;
    if (s->kings & bit) {
        if (path_king_can(&c, bit, 0, -1))
            path_king(&c, bit, 0, 0, -1);
    }
    else
        path_man(&c, bit, 0);
    return c.stop;
}

/* ---- move notation ---- */

typedef struct FindPath {
    int to, promo;
    uint64_t cap;
    const int *want;    /* landing squares the user gave, or NULL */
    int nwant;
    int path[64], len;
} FindPath;

static int find_path_cb(void *user, const int *path, int len, uint64_t cap,
                        int promo)
{
    FindPath *f = user;
    if (!len || path[len - 1] != f->to || cap != f->cap || promo != f->promo)
        return 0;
    if (f->want && (len != f->nwant ||
                    memcmp(path, f->want, sizeof(int) * (size_t)len)))
        return 0;
    memcpy(f->path, path, sizeof(int) * (size_t)len);
    f->len = len;
    return 1;
}

static int move_path(const DRules *R, const DState *s, Move m, FindPath *f)
{
    f->to = DM_TO(m);
    f->promo = (m & DM_PROMO) != 0;
    f->cap = dr_expand(DM_CAPS(m), s->occ[!s->side]);
    return dr_paths(R, s, DM_FROM(m), find_path_cb, f);
}

int dr_move_to_text(const DRules *R, const DState *s, Move m, char *buf,
                    size_t n)
{
    DrOut o = {buf, n, 0, 0};
    char sqb[16];
    dr_sq_text(R, DM_FROM(m), sqb, sizeof sqb);
    dr_out(&o, "%s", sqb);
    if (!DM_CAPS(m)) {
        dr_sq_text(R, DM_TO(m), sqb, sizeof sqb);
        dr_out(&o, "-%s", sqb);
        return o.bad ? -1 : (int)o.len;
    }
    FindPath f = {0};
    if (!move_path(R, s, m, &f))
        return -1;
    for (int i = 0; i < f.len; i++) {
        dr_sq_text(R, f.path[i], sqb, sizeof sqb);
        dr_out(&o, "%s%s", R->numbered ? "x" : ":", sqb);
    }
    return o.bad ? -1 : (int)o.len;
}

int dr_text_to_move(const DRules *R, DGenFn gen, const DState *s,
                    const char *str, Move *m, PlyError *err)
{
    int sq[64], k = 0;
    const char *p = str;
    while (*p) {
        if (k == 64)
            return ply_fail(err, "move '%.20s' is too long", str);
        PlyError e2;
        int v = dr_parse_sq(R, &p, &e2);
        if (v < 0)
            return ply_fail(err, "bad move '%.20s': %s", str, e2.msg);
        sq[k++] = v;
        if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':') {
            if (!*++p)
                return ply_fail(err, "bad move '%.20s': a square must "
                                "follow the last separator", str);
        } else if (*p)
            return ply_fail(err, "bad move '%.20s': expected '-', 'x' or "
                            "':' at '%.8s'", str, p);
    }
    if (k < 2)
        return ply_fail(err, "a move is FROM-TO or FROM%sLANDING...%sTO, "
                        "not '%.20s'", R->numbered ? "x" : ":",
                        R->numbered ? "x" : ":", str);
    if (dr_drawn(R, s))
        return ply_fail(err, "the game is over (draw)");
    Move *mv = malloc(sizeof(Move) * (size_t)R->max_moves);
    if (!mv)
        return ply_fail(err, "out of memory");
    /* a move whose landing squares are exactly the ones given wins; with
     * just FROM and TO, any one capture between them will do */
    int n = gen(s, mv), exact = 0, loose = 0;
    Move pick = 0, pick_loose = 0;
    for (int i = 0; i < n; i++) {
        if (DM_FROM(mv[i]) != sq[0] || DM_TO(mv[i]) != sq[k - 1])
            continue;
        int is_exact;
        if (!DM_CAPS(mv[i])) {
            is_exact = k == 2;
        } else {
            FindPath f = {.want = sq + 1, .nwant = k - 1};
            is_exact = move_path(R, s, mv[i], &f);
        }
        if (is_exact && exact++ == 0)
            pick = mv[i];
        if (k == 2 && DM_CAPS(mv[i]) && loose++ == 0)
            pick_loose = mv[i];
    }
    free(mv);
    if (!n)
        return ply_fail(err, "the game is over (no moves)");
    if (!exact && loose == 1) {
        exact = 1;
        pick = pick_loose;
    } else if (!exact && loose > 1) {
        exact = 2;
    }
    if (!exact)
        return ply_fail(err, "'%.20s' is not a legal move here", str);
    if (exact > 1)
        return ply_fail(err, "'%.20s' is ambiguous: give every landing "
                        "square of the capture", str);
    *m = pick;
    return 0;
}

/* ---- rendering ---- */

int dr_render(const DRules *R, const DState *s, char *buf, size_t n)
{
    DrOut o = {buf, n, 0, 0};
    const DGeom *g = R->g;
    int N = g->n;
    for (int r = N - 1; r >= 0; r--) {
        dr_out(&o, "%2d ", r + 1);
        for (int c = 0; c < N; c++) {
            int sq = disp_sq(R, r, c);
            char ch = ' ';
            if (sq >= 0) {
                uint64_t b = 1ull << sq;
                ch = '.';
                for (int p = 0; p < 2; p++)
                    if (s->occ[p] & b) {
                        ch = R->colours[p];
                        if (!(s->kings & b))
                            ch = (char)tolower(ch);
                    }
            }
            dr_out(&o, " %c", ch);
        }
        if (R->numbered) {
            dr_out(&o, "    ");
            for (int c = 0; c < N; c++) {
                int sq = disp_sq(R, r, c);
                if (sq >= 0)
                    dr_out(&o, "%3d", sq_number(R, sq));
            }
        }
        dr_out(&o, "\n");
    }
    dr_out(&o, "   ");
    for (int c = 0; c < N; c++)
        dr_out(&o, " %c", 'a' + c);
    dr_out(&o, "\n(%c/%c men, %c/%c kings)\n", tolower(R->colours[0]),
            tolower(R->colours[1]), R->colours[0], R->colours[1]);
    return o.bad ? -1 : (int)o.len;
}

/* ---- layout ---- */

int dr_layout(const DRules *R, const DState *s, Layout *l)
{
    const DGeom *g = R->g;
    int N = g->n;
    l->width = (float)N;
    l->height = (float)N;
    for (int r = N - 1; r >= 0; r--)
        for (int c = 0; c < N; c++) {
            int sq = disp_sq(R, r, c);
            char name[8] = "";
            if (sq >= 0)
                dr_sq_text(R, sq, name, sizeof name);
            LayoutCell *cell = layout_cell(l, (float)c + 0.5f,
                                           (float)(N - 1 - r) + 0.5f,
                                           CELL_SQUARE, sq >= 0 && !g->full
                                           ? SHADE_DARK : SHADE_LIGHT, name);
            if (!cell || sq < 0)
                continue;
            uint64_t b = 1ull << sq;
            for (int p = 0; p < 2; p++)
                if (s->occ[p] & b) {
                    cell->owner = (int8_t)p;
                    cell->king = (s->kings & b) != 0;
                    snprintf(cell->glyph, sizeof cell->glyph, "%s",
                             cell->king ? "\u265B" : "\u25CF");
                }
        }
    return 0;
}

/* ---- results, hash, evaluation ---- */

void dr_returns(const DRules *R, const DState *s, double *out)
{
    if (dr_drawn(R, s)) {
        out[0] = out[1] = 0;
        return;
    }
    /* the player to move has no move: a loss */
    out[s->side] = -1;
    out[!s->side] = 1;
}

uint64_t dr_hash(const DRules *R, const DState *s)
{
    uint64_t h = ply_mix64(s->occ[0] ^ 0x5bd1e995u);
    h = ply_mix64(h ^ s->occ[1]);
    h = ply_mix64(h ^ s->kings);
    /* the earlier positions are left out, as the setup string leaves them
     * out; whether the game is drawn is in */
    uint64_t extra = s->side | (uint64_t)dr_drawn(R, s) << 1;
    if (R->king_limit)
        extra |= (uint64_t)s->ksq[0] << 8 | (uint64_t)s->ksq[1] << 16 |
                 (uint64_t)s->kcnt[0] << 24 | (uint64_t)s->kcnt[1] << 32;
    return ply_mix64(h ^ extra);
}

int dr_score(const DRules *R, const DState *s, int player)
{
    (void)R;
    return dr_popcount(s->occ[player]);
}

/* Material (kings per variant), men backed by an own piece, advancement
 * of men with a bonus near the crowning row, a kept back row while the
 * opponent still has men, central men, a tempo for the side to move, and
 * a push to trade down when ahead. */
int dr_eval(const DRules *R, const DState *s, int player)
{
    const DGeom *g = R->g;
    int N = g->n, v[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        uint64_t men = s->occ[p] & ~s->kings;
        uint64_t opp_men = s->occ[!p] & ~s->kings;
        v[p] += dr_popcount(men) * R->man_value +
                dr_popcount(s->occ[p] & s->kings) * R->king_value;
        /* structure: men with an own piece right behind them */
        uint64_t sup = 0;
        for (int d = 0; d < 8; d++)
            if (R->man_move[p] >> d & 1)
                sup |= dr_step(g, s->occ[p], d);
        v[p] += 4 * dr_popcount(men & sup);
        for (uint64_t b = men; b; b &= b - 1) {
            int rc = g->rc[dr_ctz(b)], r = rc >> 4, c = rc & 15;
            int adv = p ? N - 1 - r : r;
            v[p] += 3 * adv;
            if (adv >= N - 3)
                v[p] += 10 * (adv - (N - 4));
            if (adv == 0 && opp_men)
                v[p] += 8;
            if (c >= 2 && c <= N - 3)
                v[p] += 4;
        }
    }
    int d = v[player] - v[!player];
    int total = dr_popcount(s->occ[0] | s->occ[1]);
    d += d * 4 / (total + 4);
    d += s->side == player ? 3 : -3;
    if (d > EVAL_MAX - 1)
        d = EVAL_MAX - 1;
    if (d < -(EVAL_MAX - 1))
        d = -(EVAL_MAX - 1);
    return d;
}

int dr_heuristic(const DRules *R, const DState *s, Move m)
{
    const DGeom *g = R->g;
    int h = 0;
    if (DM_CAPS(m)) {
        uint64_t cap = dr_expand(DM_CAPS(m), s->occ[!s->side]);
        h += 1000 + 100 * dr_popcount(cap) + 60 * dr_popcount(cap & s->kings);
    }
    if (m & DM_PROMO)
        h += 500;
    if (!(s->kings >> DM_FROM(m) & 1)) {
        int r = g->rc[DM_TO(m)] >> 4;
        h += 20 + (s->side ? g->n - 1 - r : r);
    } else {
        h += 10;
    }
    return h;
}

int dr_is_noisy(const DRules *R, const DState *s, Move m)
{
    (void)R;
    (void)s;
    return DM_CAPS(m) || (m & DM_PROMO);
}

int dr_check(const DRules *R, const DState *s)
{
    const DGeom *g = R->g;
    if (s->occ[0] & s->occ[1])
        return -1;
    if ((s->occ[0] | s->occ[1]) & ~g->board)
        return -1;
    if (s->kings & ~(s->occ[0] | s->occ[1]))
        return -1;
    if (s->side > 1 || (s->flags & ~(DR_F_REP3 | DR_F_NOREP)) ||
        s->nhist > R->quiet_limit || s->nhist > s->quiet)
        return -1;
    for (int i = 0; i < s->nhist; i++) {
        unsigned h = s->hist[i];
        if (!(g->board >> (h & 63) & 1) || !(g->board >> (h >> 6 & 63) & 1) ||
            h >> 13)
            return -1;
    }
    for (int p = 0; p < 2; p++)
        if (s->occ[p] & ~s->kings & dr_promo_row(R, p))
            return -1;
    return 0;
}
