/* minesweeper.c — Minesweeper, a one-player game with hidden mines, and
 * its solver bot `minesweeper`.
 *
 * The true state holds the mines; the player's view (observe()) holds only
 * the opened cells with their numbers. Mines are placed at the first
 * click from the seed kept in the true state (never in a view), uniformly
 * among the cells the first-click rule allows: anywhere (any), not the
 * clicked cell (safe, the default), not the clicked cell nor its
 * neighbours (opening). After that the seed is cleared, so a fixed seed
 * reproduces a game and a view holds nothing of the mines.
 *
 * Cells are numbered row * w + col, row 0 at the top; a move is the cell
 * opened, written "col,row" from 1 ("1,1" is the top left corner). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"
#include "minesweeper.h"

enum { MS_MAXW = 30, MS_MAXH = 24, MS_MAXC = MS_MAXW * MS_MAXH };
enum { FIRST_ANY, FIRST_SAFE, FIRST_OPENING };
enum { RES_PLAYING, RES_WON, RES_LOST };

typedef struct Mines {
    uint8_t w, h;
    uint16_t nmines;
    uint8_t first;          /* FIRST_* */
    int8_t view;            /* -1 the true state, 0 the player's view */
    uint8_t started;        /* mines placed */
    uint8_t result;         /* RES_* */
    uint16_t opened;        /* safe cells open */
    uint16_t ply;
    int16_t boom;           /* the mine clicked, -1 none */
    uint64_t seed;          /* true state before the first click; else 0 */
    uint8_t mine[MS_MAXC];  /* 1 mine (the true state only) */
    int8_t num[MS_MAXC];    /* -1 hidden, else the number shown */
} Mines;

static const char *const level_choices[] = {"beginner", "intermediate",
                                            "expert", NULL};
static const char *const first_choices[] = {"any", "safe", "opening", NULL};

static const GameOption ms_options[] = {
    {.key = "level", .type = OPT_CHOICE, .def = 0, .choices = level_choices,
     .help = "beginner 9x9 with 10 mines, intermediate 16x16 with 40, "
             "expert 30x16 with 99"},
    {.key = "width", .type = OPT_INT, .def = 0, .min = 0, .max = MS_MAXW,
     .help = "columns (0: the level's)"},
    {.key = "height", .type = OPT_INT, .def = 0, .min = 0, .max = MS_MAXH,
     .help = "rows (0: the level's)"},
    {.key = "mines", .type = OPT_INT, .def = 0, .min = 0, .max = MS_MAXC,
     .help = "mines (0: the level's); at most (width-1)*(height-1)"},
    {.key = "first", .type = OPT_CHOICE, .def = FIRST_SAFE,
     .choices = first_choices,
     .help = "the first click: any (may hit a mine), safe (never a mine), "
             "opening (never a mine nor next to one: it opens an area)"},
    {.key = NULL},
};

static int nbrs(const Mines *m, int c, int *out)
{
    int x = c % m->w, y = c / m->w, n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int X = x + dx, Y = y + dy;
            if ((dx || dy) && X >= 0 && Y >= 0 && X < m->w && Y < m->h)
                out[n++] = Y * m->w + X;
        }
    return n;
}

static int count_around(const Mines *m, int c)
{
    int nb[8], k = nbrs(m, c, nb), s = 0;
    for (int i = 0; i < k; i++)
        s += m->mine[nb[i]];
    return s;
}

static int ms_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    static const int dims[3][3] = {{9, 9, 10}, {16, 16, 40}, {30, 16, 99}};
    Mines *m = st;
    memset(m, 0, sizeof *m);
    int w = opt[1] ? opt[1] : dims[opt[0]][0];
    int h = opt[2] ? opt[2] : dims[opt[0]][1];
    int n = opt[3] ? opt[3] : dims[opt[0]][2];
    if (w < 4 || h < 4)
        return ply_fail(err, "minesweeper: the board is at least 4x4");
    if (n > (w - 1) * (h - 1))
        return ply_fail(err, "minesweeper: %d mines do not fit on %dx%d "
                        "(at most %d)", n, w, h, (w - 1) * (h - 1));
    m->w = (uint8_t)w;
    m->h = (uint8_t)h;
    m->nmines = (uint16_t)n;
    m->first = (uint8_t)opt[4];
    m->view = -1;
    m->boom = -1;
    m->seed = seed ? seed : 0x9e3779b97f4a7c15ull;
    memset(m->num, -1, sizeof m->num);
    return 0;
}

static int ms_to_move(const void *st)
{
    const Mines *m = st;
    return m->result ? PLAYER_TERMINAL : 0;
}

static int ms_gen_moves(const void *st, Move *out)
{
    const Mines *m = st;
    int n = 0;
    if (m->result)
        return 0;
    for (int c = 0; c < m->w * m->h; c++)
        if (m->num[c] < 0)
            out[n++] = (Move)c;
    return n;
}

/* The mines of the first click at c, from the seed. */
static void place_mines(Mines *m, int c)
{
    int cells = m->w * m->h, pool[MS_MAXC], np = 0;
    int nb[8], k = nbrs(m, c, nb);
    for (int i = 0; i < cells; i++) {
        int banned = m->first != FIRST_ANY && i == c;
        for (int j = 0; j < k && m->first == FIRST_OPENING; j++)
            banned |= nb[j] == i;
        if (!banned)
            pool[np++] = i;
    }
    Rng r;
    rng_seed(&r, m->seed);
    /* an opening needs 9 free cells; on a crowded board fall back to safe */
    if (np < m->nmines) {
        np = 0;
        for (int i = 0; i < cells; i++)
            if (i != c)
                pool[np++] = i;
    }
    for (int i = 0; i < m->nmines; i++) {
        int j = i + (int)rng_below(&r, (uint32_t)(np - i));
        int t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
        m->mine[pool[i]] = 1;
    }
    m->seed = 0;
    m->started = 1;
}

static void ms_make(void *st, Move mv)
{
    Mines *m = st;
    int c = (int)mv;
    if (!m->started)
        place_mines(m, c);
    m->ply++;
    if (m->mine[c]) {
        m->result = RES_LOST;
        m->boom = (int16_t)c;
        return;
    }
    int stack[MS_MAXC], sp = 0;
    m->num[c] = (int8_t)count_around(m, c);
    m->opened++;
    stack[sp++] = c;
    while (sp) {
        int x = stack[--sp];
        if (m->num[x])
            continue;
        int nb[8], k = nbrs(m, x, nb);
        for (int i = 0; i < k; i++)
            if (m->num[nb[i]] < 0) {
                m->num[nb[i]] = (int8_t)count_around(m, nb[i]);
                m->opened++;
                stack[sp++] = nb[i];
            }
    }
    if (m->opened == m->w * m->h - m->nmines)
        m->result = RES_WON;
}

static void ms_returns(const void *st, double *out)
{
    const Mines *m = st;
    out[0] = m->result == RES_WON ? 1 : m->result == RES_LOST ? -1 : 0;
}

static uint64_t ms_hash(const void *st)
{
    const Mines *m = st;
    uint64_t h = 0x51ed27u ^ (uint64_t)m->w << 8 ^ (uint64_t)m->h << 16 ^
                 (uint64_t)m->nmines << 24 ^ (uint64_t)(m->view + 1) << 40;
    for (int c = 0; c < m->w * m->h; c++)
        h = (h ^ (uint64_t)(m->num[c] + 2 + 16 * m->mine[c])) *
            0x100000001b3ull;
    return h ^ m->seed ^ (uint64_t)m->result << 44;
}

/* ---- text ---- */

static char cell_char(const Mines *m, int c)
{
    if (c == m->boom)
        return 'X';
    if (m->num[c] >= 0)
        return (char)('0' + m->num[c]);
    if (m->view >= 0)
        return '?';
    return m->mine[c] ? '*' : '.';
}

/* Rows top to bottom joined by '/', then "mines=N first=RULE", then
 * "seed=HEX" before the first click (true state) or "view" (a view). */
static int ms_to_text(const void *st, char *buf, size_t n)
{
    const Mines *m = st;
    char s[MS_MAXC + MS_MAXH + 80];
    int k = 0;
    for (int y = 0; y < m->h; y++) {
        for (int x = 0; x < m->w; x++)
            s[k++] = cell_char(m, y * m->w + x);
        if (y + 1 < m->h)
            s[k++] = '/';
    }
    k += snprintf(s + k, sizeof s - (size_t)k, " mines=%d first=%s",
                  m->nmines, first_choices[m->first]);
    if (m->view >= 0)
        k += snprintf(s + k, sizeof s - (size_t)k, " view");
    else if (!m->started)
        k += snprintf(s + k, sizeof s - (size_t)k, " seed=%llx",
                      (unsigned long long)m->seed);
    int w = snprintf(buf, n, "%s", s);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int ms_from_text(void *st, const char *s, PlyError *err)
{
    Mines *m = st;
    Mines t;
    memset(&t, 0, sizeof t);
    if (strchr(s, '?') || strstr(s, "view"))
        return ply_fail(err, "this is the player's view, not the true "
                        "position (the mines are needed)");
    memset(t.num, -1, sizeof t.num);
    t.view = -1;
    t.boom = -1;
    t.first = m->first;
    int x = 0, y = 0, w = 0, mines = 0, opened = 0, booms = 0;
    const char *p = s;
    while (*p == ' ')
        p++;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (y == 0)
                w = x;
            else if (x != w)
                return ply_fail(err, "row %d has %d cells, not %d", y + 1, x,
                                w);
            x = 0;
            if (++y >= MS_MAXH)
                return ply_fail(err, "more than %d rows", MS_MAXH);
            continue;
        }
        if (x >= MS_MAXW)
            return ply_fail(err, "more than %d columns", MS_MAXW);
        int c = y * MS_MAXW + x;   /* packed below once w is known */
        if (*p == '*' || *p == 'X') {
            t.mine[c] = 1;
            mines++;
            if (*p == 'X') {
                t.boom = (int16_t)c;
                booms++;
            }
        } else if (*p >= '0' && *p <= '8') {
            t.num[c] = (int8_t)(*p - '0');
            opened++;
        } else if (*p != '.') {
            return ply_fail(err, "bad cell '%c' (. * X or 0-8)", *p);
        }
        x++;
    }
    if (y == 0)
        w = x;
    else if (x != w)
        return ply_fail(err, "row %d has %d cells, not %d", y + 1, x, w);
    int h = y + 1;
    if (w < 4 || h < 4)
        return ply_fail(err, "the board is at least 4x4");
    if (booms > 1)
        return ply_fail(err, "more than one exploded mine");
    /* pack rows from stride MS_MAXW to stride w */
    Mines u = t;
    memset(u.mine, 0, sizeof u.mine);
    memset(u.num, -1, sizeof u.num);
    u.w = (uint8_t)w;
    u.h = (uint8_t)h;
    u.boom = -1;
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            u.mine[yy * w + xx] = t.mine[yy * MS_MAXW + xx];
            u.num[yy * w + xx] = t.num[yy * MS_MAXW + xx];
            if (t.boom == yy * MS_MAXW + xx)
                u.boom = (int16_t)(yy * w + xx);
        }
    int declared = -1;
    uint64_t seed = 0;
    int has_seed = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char tok[64];
        int k = 0;
        while (*p && *p != ' ' && k < 63)
            tok[k++] = *p++;
        tok[k] = 0;
        if (!strncmp(tok, "mines=", 6)) {
            char *e;
            long v = strtol(tok + 6, &e, 10);
            if (*e || v < 1 || v > MS_MAXC)
                return ply_fail(err, "bad mine count '%s'", tok + 6);
            declared = (int)v;
        } else if (!strncmp(tok, "first=", 6)) {
            int f = -1;
            for (int i = 0; first_choices[i]; i++)
                if (!strcmp(tok + 6, first_choices[i]))
                    f = i;
            if (f < 0)
                return ply_fail(err, "bad first-click rule '%s'", tok + 6);
            u.first = (uint8_t)f;
        } else if (!strncmp(tok, "seed=", 6 - 1)) {
            char *e;
            seed = strtoull(tok + 5, &e, 16);
            if (*e || !tok[5])
                return ply_fail(err, "bad seed '%s'", tok + 5);
            has_seed = 1;
        } else {
            return ply_fail(err, "unknown field '%s'", tok);
        }
    }
    if (declared < 0)
        return ply_fail(err, "missing mines=N");
    if (declared > (w - 1) * (h - 1))
        return ply_fail(err, "%d mines do not fit on %dx%d", declared, w, h);
    u.nmines = (uint16_t)declared;
    if (mines == 0) {
        if (opened)
            return ply_fail(err, "cells are open but no mine is placed");
        if (!has_seed)
            return ply_fail(err, "before the first click the position "
                            "needs seed=HEX (the mines come from it)");
        u.seed = seed ? seed : 1;
    } else {
        if (has_seed)
            return ply_fail(err, "a seed only before the mines are placed");
        if (mines != declared)
            return ply_fail(err, "%d mines on the board, mines=%d", mines,
                            declared);
        u.started = 1;
    }
    for (int c = 0; c < w * h; c++) {
        if (u.num[c] < 0)
            continue;
        if (u.num[c] != count_around(&u, c))
            return ply_fail(err, "cell %d,%d shows %d but has %d mines "
                            "around", c % w + 1, c / w + 1, u.num[c],
                            count_around(&u, c));
        int nb[8], k = nbrs(&u, c, nb);
        for (int i = 0; i < k && u.num[c] == 0; i++)
            if (u.num[nb[i]] < 0)
                return ply_fail(err, "cell %d,%d shows 0 but a neighbour "
                                "is closed", c % w + 1, c / w + 1);
    }
    u.opened = (uint16_t)opened;
    u.ply = (uint16_t)(opened + (u.boom >= 0));
    if (u.boom >= 0)
        u.result = RES_LOST;
    else if (opened == w * h - declared)
        u.result = RES_WON;
    *m = u;
    return 0;
}

static int ms_move_to_text(const void *st, Move mv, char *buf, size_t n)
{
    const Mines *m = st;
    int c = (int)mv;
    int w = snprintf(buf, n, "%d,%d", c % m->w + 1, c / m->w + 1);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int ms_text_to_move(const void *st, const char *s, Move *mv,
                           PlyError *err)
{
    const Mines *m = st;
    int x, y, k = 0;
    if (sscanf(s, "%d,%d%n", &x, &y, &k) != 2 || s[k])
        return ply_fail(err, "bad move '%s' (col,row from 1, e.g. 3,5)", s);
    if (x < 1 || y < 1 || x > m->w || y > m->h)
        return ply_fail(err, "cell %d,%d is off the %dx%d board", x, y, m->w,
                        m->h);
    if (m->result)
        return ply_fail(err, "the game is over");
    int c = (y - 1) * m->w + (x - 1);
    if (m->num[c] >= 0)
        return ply_fail(err, "cell %d,%d is already open", x, y);
    *mv = (Move)c;
    return 0;
}

static int ms_render(const void *st, char *buf, size_t n)
{
    const Mines *m = st;
    size_t len = 0;
    int w;
    for (int y = 0; y < m->h; y++) {
        char row[MS_MAXW * 2 + 8];
        int k = snprintf(row, sizeof row, "%2d ", y + 1);
        for (int x = 0; x < m->w; x++) {
            int c = y * m->w + x;
            char ch = cell_char(m, c);
            if (ch == '0')
                ch = ' ';
            if (ch == '.' || (ch == '*' && !m->result))
                ch = '#';
            row[k++] = ch;
            row[k++] = ' ';
        }
        row[k] = 0;
        PLY_OUT("%s\n", row);
    }
    w = snprintf(buf + len, n - len, "%d mines, %d of %d safe cells open%s\n",
                 m->nmines, m->opened, m->w * m->h - m->nmines,
                 m->result == RES_WON ? ", cleared"
                 : m->result == RES_LOST ? ", a mine exploded" : "");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

/* ---- hidden information ---- */

static void ms_observe(const void *st, int player, void *obs)
{
    (void)player;
    const Mines *s = st;
    Mines *o = obs;
    if (s == o) {
        if (o->view < 0) {
            memset(o->mine, 0, sizeof o->mine);
            o->seed = 0;
            o->view = 0;
        }
        return;
    }
    memcpy(o, s, sizeof *o);
    memset(o->mine, 0, sizeof o->mine);
    o->seed = 0;
    o->view = 0;
}

/* Constraint backtracking for a consistent mine layout (determinize). */
typedef struct Fill {
    const Mines *m;
    Rng *r;
    int nf, fr[MS_MAXC];        /* frontier cells in scan order */
    int ninterior;
    int need[MS_MAXC];          /* per open cell: mines still needed */
    int left[MS_MAXC];          /* per open cell: unassigned neighbours */
    uint8_t val[MS_MAXC];
    int placed;
} Fill;

static int fill_rec(Fill *f, int i)
{
    const Mines *m = f->m;
    if (i == f->nf) {
        int rest = m->nmines - f->placed;
        return rest >= 0 && rest <= f->ninterior;
    }
    int c = f->fr[i], nb[8], k = nbrs(m, c, nb);
    int first = (int)(rng_next(f->r) >> 63);
    for (int t = 0; t < 2; t++) {
        int v = t ? !first : first;
        if (f->placed + v > m->nmines)
            continue;
        int ok = 1;
        for (int j = 0; j < k; j++) {
            int o = nb[j];
            if (m->num[o] < 0)
                continue;
            int nd = f->need[o] - v, lf = f->left[o] - 1;
            if (nd < 0 || nd > lf)
                ok = 0;
        }
        if (!ok)
            continue;
        for (int j = 0; j < k; j++)
            if (m->num[nb[j]] >= 0)
                f->need[nb[j]] -= v, f->left[nb[j]]--;
        f->val[c] = (uint8_t)v;
        f->placed += v;
        if (fill_rec(f, i + 1))
            return 1;
        f->placed -= v;
        for (int j = 0; j < k; j++)
            if (m->num[nb[j]] >= 0)
                f->need[nb[j]] += v, f->left[nb[j]]++;
    }
    return 0;
}

static void ms_determinize(const void *obs, int player, Rng *r, void *st)
{
    (void)player;
    const Mines *o = obs;
    if (o->view < 0) {
        memmove(st, obs, sizeof *o);
        return;
    }
    Mines *t = malloc(sizeof *t);
    Fill *f = calloc(1, sizeof *f);
    if (!t || !f) {
        free(t), free(f);
        memmove(st, obs, sizeof *o);
        return;
    }
    *t = *o;
    t->view = -1;
    memset(t->mine, 0, sizeof t->mine);
    if (!o->started) {
        t->seed = rng_next(r) | 1;
        memcpy(st, t, sizeof *t);
        free(t), free(f);
        return;
    }
    int cells = o->w * o->h, interior[MS_MAXC];
    f->m = t;
    f->r = r;
    int base = 0;
    if (o->boom >= 0) {
        t->mine[o->boom] = 1;
        base = 1;
    }
    for (int c = 0; c < cells; c++) {
        if (o->num[c] >= 0) {
            int nb[8], k = nbrs(o, c, nb);
            f->need[c] = o->num[c];
            for (int j = 0; j < k; j++)
                if (nb[j] == o->boom)
                    f->need[c]--;
                else if (o->num[nb[j]] < 0)
                    f->left[c]++;
            continue;
        }
        if (c == o->boom)
            continue;
        int nb[8], k = nbrs(o, c, nb), front = 0;
        for (int j = 0; j < k; j++)
            front |= o->num[nb[j]] >= 0;
        if (front)
            f->fr[f->nf++] = c;
        else
            interior[f->ninterior++] = c;
    }
    f->placed = base;
    if (fill_rec(f, 0)) {
        for (int i = 0; i < f->nf; i++)
            t->mine[f->fr[i]] = f->val[f->fr[i]];
        int rest = o->nmines - f->placed;
        for (int i = 0; i < rest; i++) {
            int j = i + (int)rng_below(r, (uint32_t)(f->ninterior - i));
            int x = interior[i];
            interior[i] = interior[j];
            interior[j] = x;
            t->mine[interior[i]] = 1;
        }
    }
    memcpy(st, t, sizeof *t);
    free(t), free(f);
}

static int ms_check(const void *st)
{
    const Mines *m = st;
    if (m->w < 4 || m->h < 4 || m->w > MS_MAXW || m->h > MS_MAXH)
        return -1;
    if (m->view > 0 || m->view < -1 || m->first > FIRST_OPENING)
        return -1;
    int cells = m->w * m->h, mines = 0, opened = 0;
    for (int c = 0; c < cells; c++) {
        mines += m->mine[c];
        if (m->num[c] >= 0) {
            opened++;
            if (m->view < 0 && (m->mine[c] || m->num[c] != count_around(m, c)))
                return -1;
        }
    }
    if (opened != m->opened)
        return -1;
    if (m->view < 0 && m->started != (mines == m->nmines))
        return -1;
    if (m->view < 0 && !m->started && (mines || !m->seed))
        return -1;
    return 0;
}

static int ms_eval(const void *st, int player)
{
    (void)player;
    const Mines *m = st;
    return m->opened;
}

static int ms_score(const void *st, int player)
{
    (void)player;
    const Mines *m = st;
    return m->opened;
}

static const char *ms_end_reason(const void *st)
{
    const Mines *m = st;
    return m->result == RES_WON ? "every safe cell is open"
         : m->result == RES_LOST ? "a mine exploded" : NULL;
}

static int ms_layout(const void *st, Layout *l)
{
    const Mines *m = st;
    l->width = m->w;
    l->height = m->h;
    for (int c = 0; c < m->w * m->h; c++) {
        int x = c % m->w, y = c / m->w;
        char name[12];
        snprintf(name, sizeof name, "%d,%d", (x + 1) & 63, (y + 1) & 63);
        int open = m->num[c] >= 0;
        int shade = c == m->boom || (m->result && m->mine[c]) ? SHADE_MINE
                  : open ? SHADE_LIGHT : SHADE_DARK;
        LayoutCell *lc = layout_cell(l, (float)x + 0.5f, (float)y + 0.5f,
                                     CELL_SQUARE, shade, name);
        if (!lc)
            return -1;
        lc->owner = -1;
        if (open && m->num[c] > 0)
            snprintf(lc->glyph, sizeof lc->glyph, "%d", m->num[c]);
        else if (shade == SHADE_MINE)
            snprintf(lc->glyph, sizeof lc->glyph, "*");
    }
    return 0;
}

static int ms_move_cells(const void *st, const Layout *l, Move mv,
                         MoveCells *out)
{
    (void)st, (void)l;
    memset(out, 0, sizeof *out);
    out->n = 1;
    out->cells[0] = (int)mv;   /* cells are laid out in index order */
    return 0;
}

static const char *const ms_players[] = {"Player"};

const GameVtbl game_minesweeper = {
    .info = {
        .name = "minesweeper",
        .title = "Minesweeper",
        .num_players = 1,
        .max_moves = MS_MAXC,
        .max_game_length = MS_MAXC,
        .state_size = sizeof(Mines),
        .flags = GAME_HIDDEN,
        .player_names = ms_players,
        .options = ms_options,
        .notation =
            "A move opens a cell, written col,row from 1 (1,1 is the top\n"
            "left corner). Setup string: the rows top to bottom joined by\n"
            "'/', '.' a closed safe cell, '*' a closed mine, 'X' the mine\n"
            "that exploded, 0-8 an open cell with its number; then\n"
            "\"mines=N first=any|safe|opening\", and before the first click\n"
            "\"seed=HEX\" (the mines are placed from it at the first click).\n"
            "The player's view (`ply show minesweeper --as player`) writes\n"
            "'?' for closed cells and ends with \"view\"; it is not accepted\n"
            "where the true position is needed.",
        .rules =
            "One player opens cells of a grid hiding mines; an open cell\n"
            "shows how many of its 8 neighbours hold a mine, and a 0 opens\n"
            "its neighbours too. Opening a mine loses (-1); opening every\n"
            "safe cell wins (+1). Levels: beginner 9x9 with 10 mines,\n"
            "intermediate 16x16 with 40, expert 30x16 with 99 (or width,\n"
            "height, mines). The mines are placed uniformly at the first\n"
            "click from the game's seed (a fixed seed reproduces the game):\n"
            "first=safe (default) keeps them off the clicked cell, opening\n"
            "off it and its neighbours, any nowhere. No flags: marks do not\n"
            "change the game. The player sees only the open cells; the\n"
            "`minesweeper` bot solves from that view.",
        .default_bot = "minesweeper",
    },
    .init = ms_init,
    .to_move = ms_to_move,
    .gen_moves = ms_gen_moves,
    .make = ms_make,
    .returns = ms_returns,
    .hash = ms_hash,
    .to_text = ms_to_text,
    .from_text = ms_from_text,
    .move_to_text = ms_move_to_text,
    .text_to_move = ms_text_to_move,
    .render = ms_render,
    .eval = ms_eval,
    .observe = ms_observe,
    .determinize = ms_determinize,
    .score = ms_score,
    .check = ms_check,
    .layout = ms_layout,
    .move_cells = ms_move_cells,
    .end_reason = ms_end_reason,
};

/* ================================================================ solver
 *
 * From the view alone. Single-point deductions to a fixed point; then the
 * exact probability of a mine in every closed cell. The frontier (closed
 * cells next to an open number) is grouped into boxes, cells that touch
 * exactly the same numbers (they are interchangeable: a box of s cells
 * holding x mines counts C(s, x) ways); boxes linked by a shared number
 * form independent components. Each component is enumerated over its
 * boxes' mine counts, giving the number of layouts with k mines and the
 * expected mines of each box given k; the components and the interior
 * (closed cells off the frontier, C(interior, rest) ways) are then
 * combined over the global mine count. Weights are scaled doubles with
 * their logarithms kept apart, so the counts never overflow.
 *
 * A safe cell is opened when there is one (a deduction, or a cell of
 * probability 0 from the global count). Otherwise the bot guesses: among
 * the safest cells (within a margin of the best) it looks one click
 * ahead: for every number the cell may show, the weight of the layouts
 * that show it and whether the view then has a safe cell (progress), else
 * the best safety of the next guess; the cell that maximises the chance
 * of surviving this click and the next is chosen (look=0: the safest
 * cell, ties to corners, then edges). */

enum { ENGINE_BUDGET = 2000000, LOOK_BUDGET = 200000, LOOK_CAND = 12,
       LOOK_INTERIOR = 3 };

enum { EG_CELLS = 64, EG_LAYOUTS = 2000, EG_NODES = 2000000,
       EG_MEMO = 1 << 15 };

typedef struct EgSearch {
    int nu, u[EG_CELLS], idx_of[MS_MAXC], base[EG_CELLS];
    uint64_t nbm[EG_CELLS], full, cur;
    uint64_t lay[EG_LAYOUTS], zob[EG_LAYOUTS];
    int nl, aborted;
    uint64_t nodes;
    uint32_t gen;
    int pool[(EG_CELLS + 1) * EG_LAYOUTS];
    uint64_t memo_key[EG_MEMO];
    uint32_t memo_gen[EG_MEMO];
    double memo_val[EG_MEMO];
} EgSearch;

typedef struct MsBot {
    Rng rng;
    int look_on;
    double margin, progress;
    int8_t state[MS_MAXC];      /* -1 unknown, 0 safe, 1 mine (known) */
    /* per closed unknown cell: its open neighbours (the numbers) */
    int cons[MS_MAXC][8], ncons[MS_MAXC];
    int box[MS_MAXC];           /* box of a frontier cell, else -1 */
    int nbox, bsize[MS_MAXC], bfirst[MS_MAXC], bcomp[MS_MAXC];
    int bcells[MS_MAXC][8];
    int need[MS_MAXC], cap[MS_MAXC];   /* per open cell */
    int order[MS_MAXC], xv[MS_MAXC], ooff;
    int ncomp, cstart[MS_MAXC + 1], cnb[MS_MAXC], cn[MS_MAXC];
    int remaining;
    double *W, *E;              /* enumeration sums (scratch) */
    size_t Wcap, Ecap;
    uint64_t nodes, budget;
    int aborted;
    int exact;                  /* every component enumerated exactly */
    double logw;                /* log of the number of layouts */
    double prob[MS_MAXC];
    double binom[9][9];
    Mines hyp;                  /* lookahead scratch */
    EgSearch *eg;               /* endgame search, NULL when off */
} MsBot;

typedef struct MsOpts {
    int look;
    int margin;
    int progress;
    int endgame;
} MsOpts;

static const Option msb_options[] = {
    {.key = "look", .type = OPT_BOOL, .def = 1,
     .help = "when it must guess, look one click ahead among the safest "
             "cells and take the likeliest to survive this click and the "
             "next (0: the safest cell)", .offset = offsetof(MsOpts, look)},
    {.key = "margin", .type = OPT_INT, .def = 5, .min = 0, .max = 100,
     .help = "the lookahead weighs cells up to this many percent less "
             "safe than the safest", .offset = offsetof(MsOpts, margin)},
    {.key = "progress", .type = OPT_INT, .def = 0, .min = 0, .max = 1000,
     .help = "the lookahead's bonus, in percent, for a number that gives "
             "a safe cell next", .offset = offsetof(MsOpts, progress)},
    {.key = "endgame", .type = OPT_BOOL, .def = 1,
     .help = "with at most 2000 layouts left, the best cell by exhaustive "
             "search over them", .offset = offsetof(MsOpts, endgame)},
    {.key = NULL},
};

static void *msb_create(const GameVtbl *g, const void *opts, uint64_t seed,
                        PlyError *err)
{
    const MsOpts *o = opts;
    if (g != &game_minesweeper) {
        ply_fail(err, "the minesweeper bot plays minesweeper only");
        return NULL;
    }
    MsBot *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    rng_seed(&b->rng, seed);
    b->look_on = o ? o->look : 1;
    b->margin = (o ? o->margin : 5) / 100.0;
    b->progress = (o ? o->progress : 0) / 100.0;
    if (!o || o->endgame) {
        b->eg = calloc(1, sizeof *b->eg);
        if (!b->eg) {
            free(b);
            ply_fail(err, "out of memory");
            return NULL;
        }
        for (int i = 0; i < EG_LAYOUTS; i++)
            b->eg->zob[i] = rng_next(&b->rng);
    }
    for (int n = 0; n <= 8; n++)
        for (int k = 0; k <= n; k++)
            b->binom[n][k] = k == 0 || k == n ? 1
                           : b->binom[n - 1][k - 1] + b->binom[n - 1][k];
    return b;
}

static void msb_destroy(void *p)
{
    MsBot *b = p;
    if (b) {
        free(b->W);
        free(b->E);
        free(b->eg);
    }
    free(b);
}

static void msb_new_game(void *p)
{
    (void)p;
}

static double lchoose(int n, int k)
{
    if (k < 0 || k > n)
        return -INFINITY;
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/* Fills b->state by single-point deductions from the view. */
static void simple_deductions(MsBot *b, const Mines *m)
{
    int cells = m->w * m->h;
    for (int c = 0; c < cells; c++)
        b->state[c] = m->num[c] >= 0 ? 0 : c == m->boom ? 1 : -1;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int c = 0; c < cells; c++) {
            if (m->num[c] <= 0)
                continue;
            int nb[8], k = nbrs(m, c, nb), unk = 0, mines = 0;
            for (int j = 0; j < k; j++) {
                unk += b->state[nb[j]] < 0;
                mines += b->state[nb[j]] == 1;
            }
            if (!unk)
                continue;
            int set = mines == m->num[c] ? 0
                    : mines + unk == m->num[c] ? 1 : -1;
            if (set < 0)
                continue;
            for (int j = 0; j < k; j++)
                if (b->state[nb[j]] < 0)
                    b->state[nb[j]] = (int8_t)set;
            changed = 1;
        }
    }
}

static int corner_rank(const Mines *m, int c)
{
    int x = c % m->w, y = c / m->w;
    int ex = x == 0 || x == m->w - 1, ey = y == 0 || y == m->h - 1;
    return ex + ey;   /* 2 corner, 1 edge, 0 inside */
}

/* Enumerates the mine counts of the component's boxes order[i..n). */
static void box_rec(MsBot *b, int i, int n, int ncells, int mines, double w)
{
    if (b->aborted)
        return;
    if (++b->nodes > b->budget) {
        b->aborted = 1;
        return;
    }
    if (i == n) {
        b->W[mines] += w;
        for (int j = 0; j < n; j++)
            if (b->xv[j])
                b->E[(size_t)j * (size_t)(ncells + 1) + (size_t)mines] +=
                    w * b->xv[j];
        return;
    }
    int bx = b->order[b->ooff + i], s = b->bsize[bx], f = b->bfirst[bx];
    int nc = b->ncons[f];
    const int *cl = b->cons[f];
    int lo = 0, hi = s;
    for (int j = 0; j < nc; j++) {
        int r = b->need[cl[j]], rest = b->cap[cl[j]] - s;
        if (r - rest > lo)
            lo = r - rest;
        if (r < hi)
            hi = r;
    }
    if (mines + hi > b->remaining)
        hi = b->remaining - mines;
    if (lo > hi)
        return;
    for (int j = 0; j < nc; j++)
        b->cap[cl[j]] -= s;
    for (int x = lo; x <= hi; x++) {
        for (int j = 0; j < nc; j++)
            b->need[cl[j]] -= x;
        b->xv[i] = x;
        box_rec(b, i + 1, n, ncells, mines + x, w * b->binom[s][x]);
        for (int j = 0; j < nc; j++)
            b->need[cl[j]] += x;
    }
    for (int j = 0; j < nc; j++)
        b->cap[cl[j]] += s;
}

static int grow(double **p, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    double *q = realloc(*p, n * sizeof(double));
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* Convolution of a (length la) and c (length lc) into out, cut at n,
 * scaled to a maximum of 1; returns the log of the scale taken out. */
static double conv(const double *a, int la, const double *c, int lc,
                   double *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = 0;
    for (int i = 0; i < la && i < n; i++)
        if (a[i] != 0)
            for (int j = 0; j < lc && i + j < n; j++)
                out[i + j] += a[i] * c[j];
    double mx = 0;
    for (int i = 0; i < n; i++)
        if (out[i] > mx)
            mx = out[i];
    if (mx <= 0)
        return -INFINITY;
    for (int i = 0; i < n; i++)
        out[i] /= mx;
    return log(mx);
}

/* The fallback estimate of a box's mine density: the mean over its
 * numbers of the mines each still needs per closed cell it touches. */
static double box_density(const MsBot *b, int bx)
{
    int f = b->bfirst[bx];
    double p = 0;
    for (int j = 0; j < b->ncons[f]; j++) {
        int o = b->cons[f][j];
        p += (double)b->need[o] / b->cap[o];
    }
    return p / b->ncons[f];
}

/* The probability of a mine in every closed cell (b->prob; open cells 0,
 * known mines 1) and the log of the number of layouts (b->logw), from the
 * view and b->state (deductions already made). Returns 0, or -1 when the
 * view has no layout. */
static int probabilities(MsBot *b, const Mines *m, uint64_t budget)
{
    int cells = m->w * m->h, known = 0, nint = 0;
    b->exact = 1;
    b->logw = -INFINITY;
    for (int c = 0; c < cells; c++) {
        b->ncons[c] = 0;
        b->box[c] = -1;
        b->need[c] = b->cap[c] = 0;
        b->prob[c] = b->state[c] == 1 ? 1 : 0;
        known += b->state[c] == 1;
    }
    for (int c = 0; c < cells; c++) {
        if (m->num[c] < 0)
            continue;
        int nb[8], k = nbrs(m, c, nb);
        b->need[c] = m->num[c];
        for (int j = 0; j < k; j++) {
            if (b->state[nb[j]] == 1)
                b->need[c]--;
            else if (b->state[nb[j]] < 0) {
                b->cap[c]++;
                b->cons[nb[j]][b->ncons[nb[j]]++] = c;
            }
        }
        if (b->need[c] < 0 || b->need[c] > b->cap[c])
            return -1;
    }
    b->remaining = m->nmines - known;
    if (b->remaining < 0)
        return -1;
    /* boxes: a frontier cell joins the box of an earlier unknown
     * neighbour of its first number that has the same numbers */
    b->nbox = 0;
    for (int c = 0; c < cells; c++) {
        if (b->state[c] >= 0)
            continue;
        if (!b->ncons[c]) {
            nint++;
            continue;
        }
        int o = b->cons[c][0], nb[8], k = nbrs(m, o, nb), found = -1;
        for (int j = 0; j < k && nb[j] < c && found < 0; j++) {
            int y = nb[j];
            if (b->box[y] >= 0 && b->ncons[y] == b->ncons[c] &&
                !memcmp(b->cons[y], b->cons[c],
                        sizeof(int) * (size_t)b->ncons[c]))
                found = b->box[y];
        }
        if (found < 0) {
            found = b->nbox++;
            b->bsize[found] = 0;
            b->bfirst[found] = c;
            b->bcomp[found] = -1;
        }
        b->box[c] = found;
        b->bcells[found][b->bsize[found]++] = c;
    }
    /* components of boxes, breadth first (boxes sharing a number) */
    b->ncomp = 0;
    int nord = 0;
    for (int s = 0; s < b->nbox; s++) {
        if (b->bcomp[s] >= 0)
            continue;
        int ci = b->ncomp++, head = nord;
        b->cstart[ci] = nord;
        b->cn[ci] = 0;
        b->order[nord++] = s;
        b->bcomp[s] = ci;
        while (head < nord) {
            int x = b->order[head++], f = b->bfirst[x];
            b->cn[ci] += b->bsize[x];
            for (int j = 0; j < b->ncons[f]; j++) {
                int nb[8], k = nbrs(m, b->cons[f][j], nb);
                for (int q = 0; q < k; q++) {
                    int y = nb[q];
                    if (b->box[y] >= 0 && b->bcomp[b->box[y]] < 0) {
                        b->bcomp[b->box[y]] = ci;
                        b->order[nord++] = b->box[y];
                    }
                }
            }
        }
        b->cnb[ci] = nord - b->cstart[ci];
    }
    b->cstart[b->ncomp] = nord;
    /* scratch: per component W (cn+1) and E (cnb * (cn+1)) */
    size_t wn = 0, en = 0;
    for (int ci = 0; ci < b->ncomp; ci++) {
        wn += (size_t)b->cn[ci] + 1;
        en += (size_t)b->cnb[ci] * (size_t)(b->cn[ci] + 1);
    }
    int maxk = b->remaining + 1;
    /* W per component, then 3 * ncomp + 4 arrays of maxk for combining */
    size_t need_w = wn + (size_t)(3 * b->ncomp + 4) * (size_t)maxk + 1;
    if (grow(&b->W, &b->Wcap, need_w) || grow(&b->E, &b->Ecap, en + 1))
        return -1;
    double *Wall = b->W, *Eall = b->E;
    memset(Wall, 0, sizeof(double) * wn);
    memset(Eall, 0, sizeof(double) * en);
    double lsum = 0;            /* logs of the component scales */
    size_t wo = 0, eo = 0;
    double *cw[MS_MAXC];
    int clen[MS_MAXC];
    size_t ceo[MS_MAXC];
    for (int ci = 0; ci < b->ncomp; ci++) {
        int nb = b->cnb[ci], n = b->cn[ci];
        double *saveW = b->W, *saveE = b->E;
        cw[ci] = Wall + wo;
        ceo[ci] = eo;
        clen[ci] = (n < b->remaining ? n : b->remaining) + 1;
        b->W = Wall + wo;
        b->E = Eall + eo;
        b->nodes = 0;
        b->budget = budget;
        b->aborted = 0;
        b->ooff = b->cstart[ci];
        box_rec(b, 0, nb, n, 0, 1.0);
        b->W = saveW;
        b->E = saveE;
        double *w = Wall + wo, *e = Eall + eo;
        if (b->aborted) {
            /* too many layouts: each cell by the mean local density of its
             * numbers, the count fixed at their rounded sum */
            b->exact = 0;
            memset(w, 0, sizeof(double) * (size_t)(n + 1));
            memset(e, 0, sizeof(double) * (size_t)nb * (size_t)(n + 1));
            double sum = 0;
            for (int i = 0; i < nb; i++) {
                int bx = b->order[b->cstart[ci] + i];
                sum += box_density(b, bx) * b->bsize[bx];
            }
            int k = (int)(sum + 0.5);
            if (k >= clen[ci])
                k = clen[ci] - 1;
            w[k] = 1;
            for (int i = 0; i < nb; i++) {
                int bx = b->order[b->cstart[ci] + i];
                e[(size_t)i * (size_t)(n + 1) + (size_t)k] =
                    box_density(b, bx) * b->bsize[bx];
            }
        }
        double mx = 0;
        for (int k = 0; k <= n; k++)
            if (w[k] > mx)
                mx = w[k];
        if (mx <= 0)
            return -1;
        lsum += log(mx);
        for (int k = 0; k <= n; k++) {
            for (int i = 0; i < nb; i++) {
                double *ek = &e[(size_t)i * (size_t)(n + 1) + (size_t)k];
                *ek = w[k] > 0 ? *ek / w[k] : 0;   /* mean mines in box */
            }
            w[k] /= mx;
        }
        wo += (size_t)n + 1;
        eo += (size_t)nb * (size_t)(n + 1);
    }
    /* interior weights C(nint, remaining - K), scaled */
    double *intw = Wall + wo, *pre = intw + maxk, *suf, *tmp, *oth;
    double lmax = -INFINITY;
    for (int K = 0; K < maxk; K++) {
        double l = lchoose(nint, b->remaining - K);
        if (l > lmax)
            lmax = l;
    }
    if (lmax == -INFINITY)
        return -1;
    for (int K = 0; K < maxk; K++)
        intw[K] = exp(lchoose(nint, b->remaining - K) - lmax);
    /* prefix products pre[ci] = components before ci; suffix likewise */
    suf = pre + (size_t)(b->ncomp + 1) * (size_t)maxk;
    tmp = suf + (size_t)(b->ncomp + 1) * (size_t)maxk;
    oth = tmp + maxk;
    (void)tmp;
    double lpre = 0;
    for (int K = 0; K < maxk; K++)
        pre[K] = K == 0;
    for (int ci = 0; ci < b->ncomp; ci++) {
        double l = conv(pre + (size_t)ci * maxk, maxk, cw[ci], clen[ci],
                        pre + (size_t)(ci + 1) * maxk, maxk);
        if (l == -INFINITY)
            return -1;
        lpre += l;
    }
    for (int K = 0; K < maxk; K++)
        suf[(size_t)b->ncomp * maxk + K] = K == 0;
    for (int ci = b->ncomp - 1; ci >= 0; ci--)
        conv(suf + (size_t)(ci + 1) * maxk, maxk, cw[ci], clen[ci],
             suf + (size_t)ci * maxk, maxk);
    /* totals: the interior */
    const double *all = pre + (size_t)b->ncomp * maxk;
    double total = 0, imines = 0;
    for (int K = 0; K < maxk; K++) {
        total += all[K] * intw[K];
        imines += all[K] * intw[K] * (b->remaining - K);
    }
    if (total <= 0)
        return -1;
    b->logw = log(total) + lpre + lsum + lmax;
    for (int c = 0; c < cells; c++)
        if (b->state[c] < 0 && !b->ncons[c])
            b->prob[c] = nint ? imines / total / nint : 0;
    /* each component: the weight of its k mines times the others' and the
     * interior's ways */
    for (int ci = 0; ci < b->ncomp; ci++) {
        conv(pre + (size_t)ci * maxk, maxk, suf + (size_t)(ci + 1) * maxk,
             maxk, oth, maxk);
        int n = b->cn[ci], nb = b->cnb[ci];
        double wk[MS_MAXC + 1], ws = 0;
        for (int k = 0; k < clen[ci]; k++) {
            double s = 0;
            for (int a = 0; a + k < maxk; a++)
                s += oth[a] * intw[a + k];
            wk[k] = s * cw[ci][k];
            ws += wk[k];
        }
        if (ws <= 0)
            return -1;
        const double *e = Eall + ceo[ci];
        for (int i = 0; i < nb; i++) {
            int bx = b->order[b->cstart[ci] + i];
            double p = 0;
            for (int k = 0; k < clen[ci]; k++)
                p += wk[k] * e[(size_t)i * (size_t)(n + 1) + (size_t)k];
            p /= ws * b->bsize[bx];
            for (int j = 0; j < b->bsize[bx]; j++)
                b->prob[b->bcells[bx][j]] = p;
        }
    }
    return 0;
}

/* The view t after a hypothetical click: the log of its layouts and the
 * safety of the move that would follow (1 with a safe cell or cleared).
 * Returns 0, 1 when the count is not exact, -1 when t has no layout. */
static int next_safety(MsBot *b, const Mines *t, double *safety,
                       double *logw)
{
    int cells = t->w * t->h, open = 0, safe = 0;
    simple_deductions(b, t);
    for (int c = 0; c < cells; c++) {
        open += t->num[c] >= 0;
        safe |= t->num[c] < 0 && b->state[c] == 0;
    }
    if (probabilities(b, t, LOOK_BUDGET))
        return -1;
    *logw = b->logw;
    if (!b->exact)
        return 1;
    if (safe || open == cells - t->nmines) {
        *safety = 1;
        return 0;
    }
    double best = 0;
    for (int c = 0; c < cells; c++)
        if (t->num[c] < 0 && b->state[c] < 0 && 1 - b->prob[c] > best)
            best = 1 - b->prob[c];
    *safety = best > 1 - 1e-12 ? 1 : best;
    return 0;
}

/* ---- endgame: few layouts left, the best policy by exhaustive search.
 * The layouts of the closed unknown cells (at most EG_CELLS of them) are
 * listed as bit masks, all equally likely; a node is a set of layouts
 * and the cells opened since. A cell safe in every layout is opened first
 * (free, it only informs); otherwise each cell safe in some layout is
 * tried, its layouts split by the number it would show, and the chance to
 * win is the best over the cells. Nodes are remembered by (opened cells,
 * set of layouts). */

static uint64_t eg_hash(const EgSearch *e, const int *idx, int n,
                        uint64_t opened)
{
    uint64_t h = opened * 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        h ^= e->zob[idx[i]];
    return h ? h : 1;
}

static double eg_win(EgSearch *e, const int *idx, int n, uint64_t opened,
                     int depth, int *bestcell)
{
    uint64_t any = 0, all = ~(uint64_t)0;
    for (int i = 0; i < n; i++) {
        any |= e->lay[idx[i]];
        all &= e->lay[idx[i]];
    }
    uint64_t todo = e->full & ~opened & ~all;
    if (!todo)
        return 1;
    if (++e->nodes > EG_NODES || depth >= EG_CELLS) {
        e->aborted = 1;
        return 0;
    }
    uint64_t key = eg_hash(e, idx, n, opened);
    size_t slot = (size_t)(key & (EG_MEMO - 1));
    if (!bestcell && e->memo_key[slot] == key && e->memo_gen[slot] == e->gen)
        return e->memo_val[slot];
    int *buf = e->pool + (size_t)depth * EG_LAYOUTS;
    uint64_t safe = todo & ~any;
    double best = -1;
    int bc = -1;
    /* candidates: a free cell alone, else every cell by its safety */
    int cand[EG_CELLS], ns[EG_CELLS], nc = 0;
    for (int c = 0; c < e->nu; c++) {
        uint64_t bit = (uint64_t)1 << c;
        if (safe ? !(safe & bit) : !(todo & bit))
            continue;
        int k = 0;
        for (int i = 0; i < n; i++)
            k += !(e->lay[idx[i]] & bit);
        cand[nc] = c;
        ns[nc++] = k;
        if (safe)
            break;
    }
    /* most likely safe first: the chance of safety bounds the value */
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && ns[j] > ns[j - 1]; j--) {
            int t = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = t;
            t = cand[j]; cand[j] = cand[j - 1]; cand[j - 1] = t;
        }
    for (int q = 0; q < nc && !e->aborted; q++) {
        int c = cand[q];
        if ((double)ns[q] / n <= best + 1e-12)
            break;
        uint64_t bit = (uint64_t)1 << c;
        int cnt[9] = {0}, off[10];
        for (int i = 0; i < n; i++) {
            uint64_t l = e->lay[idx[i]];
            if (!(l & bit))
                cnt[e->base[c] + __builtin_popcountll(l & e->nbm[c])]++;
        }
        off[0] = 0;
        for (int v = 0; v < 9; v++)
            off[v + 1] = off[v] + cnt[v];
        int pos[9];
        memcpy(pos, off, sizeof pos);
        for (int i = 0; i < n; i++) {
            uint64_t l = e->lay[idx[i]];
            if (!(l & bit))
                buf[pos[e->base[c] + __builtin_popcountll(l & e->nbm[c])]++]
                    = idx[i];
        }
        double w = 0;
        for (int v = 0; v < 9 && !e->aborted; v++)
            if (cnt[v])
                w += cnt[v] * eg_win(e, buf + off[v], cnt[v], opened | bit,
                                     depth + 1, NULL);
        w /= n;
        if (w > best + 1e-12) {
            best = w;
            bc = c;
        }
    }
    if (bestcell)
        *bestcell = bc;
    if (!e->aborted) {
        e->memo_key[slot] = key;
        e->memo_gen[slot] = e->gen;
        e->memo_val[slot] = best;
    }
    return best;
}

static void eg_list(EgSearch *e, MsBot *b, int i, int mines)
{
    if (e->aborted)
        return;
    if (i == e->nu) {
        if (mines != b->remaining)
            return;
        if (e->nl >= EG_LAYOUTS) {
            e->aborted = 1;
            return;
        }
        e->lay[e->nl++] = e->cur;
        return;
    }
    if (++e->nodes > EG_NODES) {
        e->aborted = 1;
        return;
    }
    int c = e->u[i];
    for (int v = 0; v < 2; v++) {
        if (mines + v > b->remaining ||
            mines + v + (e->nu - i - 1) < b->remaining)
            continue;
        int ok = 1;
        for (int j = 0; j < b->ncons[c]; j++) {
            int o = b->cons[c][j];
            int nd = b->need[o] - v, lf = b->cap[o] - 1;
            if (nd < 0 || nd > lf)
                ok = 0;
        }
        if (!ok)
            continue;
        for (int j = 0; j < b->ncons[c]; j++)
            b->need[b->cons[c][j]] -= v, b->cap[b->cons[c][j]]--;
        if (v)
            e->cur |= (uint64_t)1 << i;
        eg_list(e, b, i + 1, mines + v);
        e->cur &= ~((uint64_t)1 << i);
        for (int j = 0; j < b->ncons[c]; j++)
            b->need[b->cons[c][j]] += v, b->cap[b->cons[c][j]]++;
    }
}

/* The best cell by exhaustive search when the view has few layouts
 * (b->state, probabilities() just run on m); -1 when it is too large. */
static int endgame(MsBot *b, const Mines *m, double *win)
{
    EgSearch *e = b->eg;
    int cells = m->w * m->h;
    if (!e || !b->exact || b->logw > log((double)EG_LAYOUTS))
        return -1;
    e->nu = 0;
    for (int c = 0; c < cells; c++)
        if (m->num[c] < 0 && b->state[c] < 0) {
            if (e->nu >= EG_CELLS)
                return -1;
            e->idx_of[c] = e->nu;
            e->u[e->nu++] = c;
        } else {
            e->idx_of[c] = -1;
        }
    e->full = e->nu == 64 ? ~(uint64_t)0 : ((uint64_t)1 << e->nu) - 1;
    for (int i = 0; i < e->nu; i++) {
        int c = e->u[i], nb[8], k = nbrs(m, c, nb);
        e->base[i] = 0;
        e->nbm[i] = 0;
        for (int j = 0; j < k; j++)
            if (b->state[nb[j]] == 1)
                e->base[i]++;
            else if (e->idx_of[nb[j]] >= 0)
                e->nbm[i] |= (uint64_t)1 << e->idx_of[nb[j]];
    }
    e->nl = 0;
    e->cur = 0;
    e->nodes = 0;
    e->aborted = 0;
    eg_list(e, b, 0, 0);
    if (e->aborted || !e->nl)
        return -1;
    int *idx = e->pool + (size_t)EG_CELLS * EG_LAYOUTS;
    for (int i = 0; i < e->nl; i++)
        idx[i] = i;
    e->gen++;
    e->nodes = 0;
    int bc = -1;
    *win = eg_win(e, idx, e->nl, 0, 0, &bc);
    if (e->aborted || bc < 0)
        return -1;
    return e->u[bc];
}

/* Closed neighbours of c in m. */
static int closed_around(const Mines *m, int c)
{
    int nb[8], k = nbrs(m, c, nb), n = 0;
    for (int j = 0; j < k; j++)
        n += m->num[nb[j]] < 0;
    return n;
}

/* With no safe cell: among the cells within the margin of the safest, the
 * one most likely to survive this click and the next (the weights of the
 * numbers it may show, each with the safety of the best move after it). */
static int lookahead(MsBot *b, const Mines *m, int best, double logw0)
{
    int cells = m->w * m->h;
    double safe[MS_MAXC], top = 1 - b->prob[best];
    int8_t front[MS_MAXC];
    for (int c = 0; c < cells; c++) {
        safe[c] = m->num[c] < 0 && b->state[c] < 0 ? 1 - b->prob[c] : -1;
        front[c] = (int8_t)(b->ncons[c] > 0);
    }
    int cand[LOOK_CAND + LOOK_INTERIOR], nc = 0;
    uint8_t used[MS_MAXC];
    memset(used, 0, (size_t)cells);
    for (int pass = 0; pass < 2; pass++) {
        int limit = pass ? LOOK_INTERIOR : LOOK_CAND;
        for (int got = 0; got < limit; got++) {
            int pick = -1;
            for (int c = 0; c < cells; c++) {
                if (used[c] || safe[c] < 0 || front[c] != !pass ||
                    safe[c] < top - b->margin - 1e-12)
                    continue;
                if (pick < 0 || safe[c] > safe[pick] + 1e-9 ||
                    (safe[c] > safe[pick] - 1e-9 &&
                     (corner_rank(m, c) > corner_rank(m, pick) ||
                      (corner_rank(m, c) == corner_rank(m, pick) &&
                       closed_around(m, c) < closed_around(m, pick)))))
                    pick = c;
            }
            if (pick < 0)
                break;
            used[pick] = 1;
            cand[nc++] = pick;
        }
    }
    double bestscore = -1;
    int choice = best;
    for (int i = 0; i < nc; i++) {
        int c = cand[i];
        double score = 0;
        int ok = 1;
        b->hyp = *m;
        b->hyp.opened++;
        for (int v = 0; v <= 8 && ok; v++) {
            double s2, lw;
            b->hyp.num[c] = (int8_t)v;
            int r = next_safety(b, &b->hyp, &s2, &lw);
            if (r < 0)
                continue;
            if (r > 0)
                ok = 0;
            else
                score += exp(lw - logw0) * (s2 + (s2 >= 1) * b->progress);
        }
        if (!ok)
            score = safe[c] * top;
        if (score > bestscore + 1e-9 ||
            (score > bestscore - 1e-9 && safe[c] > safe[choice] + 1e-9)) {
            bestscore = score;
            choice = c;
        }
    }
    return choice;
}

int minesweeper_probabilities(const void *view, double *prob)
{
    const Mines *m = view;
    MsBot *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    for (int n = 0; n <= 8; n++)
        for (int k = 0; k <= n; k++)
            b->binom[n][k] = k == 0 || k == n ? 1
                           : b->binom[n - 1][k - 1] + b->binom[n - 1][k];
    simple_deductions(b, m);
    int rc = probabilities(b, m, (uint64_t)1 << 40);
    if (!rc) {
        for (int c = 0; c < m->w * m->h; c++)
            prob[c] = m->num[c] >= 0 ? 0 : b->state[c] >= 0 ? b->state[c]
                    : b->prob[c];
        rc = b->exact ? 0 : 1;
    }
    free(b->W);
    free(b->E);
    free(b);
    return rc;
}

static Move msb_choose(void *p, const void *st, const Limits *lim,
                       SearchInfo *out)
{
    MsBot *b = p;
    (void)lim;
    const Mines *m = st;
    int cells = m->w * m->h;
    memset(out, 0, sizeof *out);
    if (!m->started) {
        /* the first click: a corner (safe), or well inside for an opening
         * (the whole neighbourhood opens, so a cell off the edge opens
         * more) */
        int c = m->first == FIRST_OPENING ? 2 * m->w + 2 : 0;
        out->best = (Move)c;
        out->nodes = 1;
        return (Move)c;
    }
    simple_deductions(b, m);
    for (int c = 0; c < cells; c++)
        if (m->num[c] < 0 && b->state[c] == 0) {
            out->best = (Move)c;
            out->value = EVAL_MAX;
            out->nodes = 1;
            return (Move)c;
        }
    int bad = probabilities(b, m, ENGINE_BUDGET);
    uint64_t nodes = b->nodes;
    double bestp = 2;
    int bestc = -1, bestr = -1;
    for (int c = 0; c < cells; c++) {
        if (m->num[c] >= 0 || b->state[c] == 1)
            continue;
        double pr = b->prob[c];
        int r = corner_rank(m, c);
        if (bestc < 0 || pr < bestp - 1e-9 ||
            (pr < bestp + 1e-9 && r > bestr)) {
            bestp = pr;
            bestc = c;
            bestr = r;
        }
    }
    double win;
    int eg = -1;
    if (!bad && bestc >= 0 && bestp > 1e-12)
        eg = endgame(b, m, &win);
    if (eg >= 0)
        bestc = eg;
    else if (b->look_on && !bad && b->exact && bestc >= 0 && bestp > 1e-12)
        bestc = lookahead(b, m, bestc, b->logw);
    Move best;
    if (bestc < 0) {
        Move mv[MS_MAXC];
        int n = ms_gen_moves(st, mv);
        best = n ? mv[0] : 0;
    } else {
        best = (Move)bestc;
    }
    out->best = best;
    out->value = bad ? 0 : (int)((1 - 2 * bestp) * EVAL_MAX);
    out->nodes = nodes + 1;
    return best;
}

const BotVtbl bot_minesweeper = {
    .name = "minesweeper",
    .help = "Minesweeper only: a solver from the player's view. Single-point "
            "deductions; then the exact probability of a mine in each closed "
            "cell (frontier cells grouped into boxes and components, each "
            "enumerated, weighted by the ways to place the other mines off "
            "the frontier); opens a safe cell, else looks one click ahead "
            "among the safest cells for the best chance to survive two "
            "clicks.",
    .options = msb_options,
    .options_size = sizeof(MsOpts),
    .create = msb_create,
    .destroy = msb_destroy,
    .new_game = msb_new_game,
    .choose = msb_choose,
};
