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
 * From the view alone: single-point deductions to a fixed point; when
 * they find no safe cell, the exact probability of a mine in every closed
 * cell: the frontier (closed cells next to an open one) split into
 * independent components, each enumerated exactly (counts of solutions by
 * their number of mines, and of solutions with a mine in each cell),
 * combined with the number of ways to put the remaining mines among the
 * other closed cells. A safe cell if there is one, else the least likely
 * mine, ties to corners, then edges. */

enum { SOLVER_MAX_COMP = 64, LOOK_BUDGET = 100000 };   /* larger components: local estimates */

typedef struct MsBot {
    Rng rng;
    /* scratch, allocated once */
    int cons[MS_MAXC][8], ncons[MS_MAXC];   /* per frontier cell: its
                                               constraints (open cells) */
    int need[MS_MAXC], left[MS_MAXC];
    int8_t state[MS_MAXC];      /* -1 unknown, 0 safe, 1 mine (known) */
    int comp[MS_MAXC];          /* component id of frontier cells, -1 */
    int order[MS_MAXC];
    uint8_t val[MS_MAXC];
    double ccount[SOLVER_MAX_COMP + 1];
    double cmine[SOLVER_MAX_COMP + 1][SOLVER_MAX_COMP];
    double prob[MS_MAXC];
    uint64_t nodes, budget;
    int aborted;
    double logw;                /* log of the number of layouts (exact) */
    int allexact;
    Mines look;                 /* lookahead scratch */
    int looking, look_on;
    double cprob[MS_MAXC];
} MsBot;

typedef struct MsOpts {
    int look;
} MsOpts;

static const Option msb_options[] = {
    {.key = "look", .type = OPT_BOOL, .def = 0,
     .help = "when it must guess, look one click ahead among the safest "
             "cells: the chance of being safe and then giving a safe cell "
             "(slower)", .offset = offsetof(MsOpts, look)},
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
    b->look_on = o ? o->look : 0;
    return b;
}

static void msb_destroy(void *p)
{
    free(p);
}

static void msb_new_game(void *p)
{
    (void)p;
}

/* Enumerates the component's cells order[0..n) from index i. */
static void comp_rec(MsBot *b, const Mines *m, int n, int i, int mines)
{
    if (b->aborted)
        return;
    if (++b->nodes > b->budget) {
        b->aborted = 1;
        return;
    }
    if (i == n) {
        b->ccount[mines] += 1;
        for (int j = 0; j < n; j++)
            if (b->val[j])
                b->cmine[mines][j] += 1;
        return;
    }
    int c = b->order[i];
    for (int v = 0; v < 2; v++) {
        int ok = 1;
        for (int j = 0; j < b->ncons[c]; j++) {
            int o = b->cons[c][j];
            int nd = b->need[o] - v, lf = b->left[o] - 1;
            if (nd < 0 || nd > lf)
                ok = 0;
        }
        if (!ok)
            continue;
        for (int j = 0; j < b->ncons[c]; j++)
            b->need[b->cons[c][j]] -= v, b->left[b->cons[c][j]]--;
        b->val[i] = (uint8_t)v;
        comp_rec(b, m, n, i + 1, mines + v);
        for (int j = 0; j < b->ncons[c]; j++)
            b->need[b->cons[c][j]] += v, b->left[b->cons[c][j]]++;
    }
    (void)m;
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
        b->state[c] = m->num[c] >= 0 ? 0 : -1;
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

/* Probabilities of a mine in every closed cell of unknown state; returns
 * 0, or -1 when the view is inconsistent. */
static int probabilities(MsBot *b, const Mines *m)
{
    int cells = m->w * m->h;
    int known_mines = 0, nint = 0;
    for (int c = 0; c < cells; c++) {
        b->comp[c] = -1;
        b->prob[c] = b->state[c] == 1 ? 1 : 0;
        known_mines += b->state[c] == 1;
    }
    /* constraints: open cells with unknown neighbours */
    for (int c = 0; c < cells; c++) {
        b->need[c] = b->left[c] = 0;
        b->ncons[c] = 0;
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
                b->left[c]++;
                b->cons[nb[j]][b->ncons[nb[j]]++] = c;
            }
        }
    }
    /* components over shared constraints (flood fill) */
    int ncomp = 0, start[MS_MAXC + 1], members[MS_MAXC], nm = 0;
    int stack[MS_MAXC];
    for (int c = 0; c < cells; c++) {
        if (b->state[c] >= 0)
            continue;
        if (!b->ncons[c]) {
            nint++;
            continue;
        }
        if (b->comp[c] >= 0)
            continue;
        start[ncomp] = nm;
        int sp = 0, head = 0;     /* breadth first: neighbours close */
        stack[sp++] = c;
        b->comp[c] = ncomp;
        while (head < sp) {
            int x = stack[head++];
            members[nm++] = x;
            for (int j = 0; j < b->ncons[x]; j++) {
                int o = b->cons[x][j], nb[8], k = nbrs(m, o, nb);
                for (int q = 0; q < k; q++) {
                    int y = nb[q];
                    if (b->state[y] < 0 && b->comp[y] < 0) {
                        b->comp[y] = ncomp;
                        stack[sp++] = y;
                    }
                }
            }
        }
        ncomp++;
    }
    start[ncomp] = nm;
    int remaining = m->nmines - known_mines;
    /* per component: weight of k mines (normalised), expected mine per
     * cell given k; stored in flat arrays */
    double *cw = calloc((size_t)ncomp * (SOLVER_MAX_COMP + 1) + 1,
                        sizeof(double));
    double *cp = calloc((size_t)nm * (SOLVER_MAX_COMP + 1) + 1,
                        sizeof(double));
    int *cmax = calloc((size_t)ncomp + 1, sizeof(int));
    int *exact = calloc((size_t)ncomp + 1, sizeof(int));
    double lcw = 0;             /* log of the scales taken out of cw */
    b->allexact = 1;
    b->logw = -INFINITY;
    if (!cw || !cp || !cmax || !exact) {
        free(cw), free(cp), free(cmax), free(exact);
        return -1;
    }
    for (int ci = 0; ci < ncomp; ci++) {
        int n = start[ci + 1] - start[ci];
        for (int i = 0; i < n; i++)
            b->order[i] = members[start[ci] + i];
        cmax[ci] = n;
        exact[ci] = 0;
        if (n <= SOLVER_MAX_COMP) {
            memset(b->ccount, 0, sizeof(double) * (size_t)(n + 1));
            for (int k = 0; k <= n; k++)
                memset(b->cmine[k], 0, sizeof(double) * (size_t)n);
            b->nodes = 0;
            b->budget = b->looking ? LOOK_BUDGET : 4000000;
            b->aborted = 0;
            comp_rec(b, m, n, 0, 0);
            if (!b->aborted) {
                double mx = 0;
                for (int k = 0; k <= n; k++)
                    if (b->ccount[k] > mx)
                        mx = b->ccount[k];
                if (mx == 0) {
                    free(cw), free(cp), free(cmax), free(exact);
                    return -1;
                }
                lcw += log(mx);
                for (int k = 0; k <= n; k++) {
                    cw[ci * (SOLVER_MAX_COMP + 1) + k] = b->ccount[k] / mx;
                    for (int i = 0; i < n; i++)
                        cp[(size_t)(start[ci] + i) * (SOLVER_MAX_COMP + 1) + k]
                            = b->ccount[k] > 0 ? b->cmine[k][i] / b->ccount[k]
                            : 0;
                }
                exact[ci] = 1;
            }
        }
        if (!exact[ci]) {
            b->allexact = 0;
            /* too large: each cell by the mean local density of its
             * constraints, mine count fixed at its rounded sum */
            double sum = 0;
            for (int i = 0; i < n; i++) {
                int c = b->order[i];
                double p = 0;
                for (int j = 0; j < b->ncons[c]; j++) {
                    int o = b->cons[c][j];
                    p += b->left[o] ? (double)b->need[o] / b->left[o] : 0;
                }
                p /= b->ncons[c];
                b->prob[c] = p;
                sum += p;
            }
            int k = (int)(sum + 0.5);
            if (k > n)
                k = n;
            if (k > SOLVER_MAX_COMP)
                k = SOLVER_MAX_COMP;
            cmax[ci] = k;
            cw[ci * (SOLVER_MAX_COMP + 1) + k] = 1;
            for (int i = 0; i < n; i++)
                cp[(size_t)(start[ci] + i) * (SOLVER_MAX_COMP + 1) + k] =
                    b->prob[b->order[i]];
        }
    }
    /* combine: for each component, the distribution of mines in all the
     * others, times the ways to fill the interior */
    int maxk = remaining + 1;
    if (maxk < 1)
        maxk = 1;
    double *all = calloc((size_t)maxk + 1, sizeof(double));
    double *oth = calloc((size_t)maxk + 1, sizeof(double));
    double *tmp = calloc((size_t)maxk + 1, sizeof(double));
    double *intw = calloc((size_t)maxk + 1, sizeof(double));
    if (!all || !oth || !tmp || !intw) {
        free(cw), free(cp), free(cmax), free(exact);
        free(all), free(oth), free(tmp), free(intw);
        return -1;
    }
    /* interior weights C(nint, remaining - K), scaled */
    double lmax = -INFINITY;
    for (int K = 0; K <= remaining && K < maxk; K++) {
        double l = lchoose(nint, remaining - K);
        if (l > lmax)
            lmax = l;
    }
    for (int K = 0; K < maxk; K++)
        intw[K] = K <= remaining && lmax > -INFINITY
                ? exp(lchoose(nint, remaining - K) - lmax) : 0;
    int rc = 0;
    double total = 0, interior_mines = 0;
    for (int ci = -1; ci < ncomp; ci++) {
        /* distribution of mines over components other than ci */
        double lsc = 0;
        memset(oth, 0, sizeof(double) * (size_t)maxk);
        oth[0] = 1;
        for (int cj = 0; cj < ncomp; cj++) {
            if (cj == ci)
                continue;
            memset(tmp, 0, sizeof(double) * (size_t)maxk);
            double mx = 0;
            for (int a = 0; a < maxk; a++) {
                if (oth[a] == 0)
                    continue;
                for (int k = 0; k <= cmax[cj] && a + k < maxk; k++)
                    tmp[a + k] += oth[a] * cw[cj * (SOLVER_MAX_COMP + 1) + k];
            }
            for (int a = 0; a < maxk; a++)
                if (tmp[a] > mx)
                    mx = tmp[a];
            for (int a = 0; a < maxk; a++)
                oth[a] = mx > 0 ? tmp[a] / mx : 0;
            lsc += mx > 0 ? log(mx) : -INFINITY;
        }
        if (ci < 0) {
            /* the interior: expected mines off the frontier */
            for (int K = 0; K < maxk; K++) {
                total += oth[K] * intw[K];
                interior_mines += oth[K] * intw[K] * (remaining - K);
            }
            b->logw = total > 0 && remaining >= 0
                    ? log(total) + lsc + lcw + lmax : -INFINITY;
            continue;
        }
        /* weight of ci having k mines */
        int n = start[ci + 1] - start[ci];
        double wk[SOLVER_MAX_COMP + 1], ws = 0;
        for (int k = 0; k <= cmax[ci]; k++) {
            double s = 0;
            for (int a = 0; a + k < maxk; a++)
                s += oth[a] * intw[a + k];
            wk[k] = s * cw[ci * (SOLVER_MAX_COMP + 1) + k];
            ws += wk[k];
        }
        if (ws <= 0) {
            rc = -1;
            continue;
        }
        for (int i = 0; i < n; i++) {
            double p = 0;
            for (int k = 0; k <= cmax[ci]; k++)
                p += wk[k] * cp[(size_t)(start[ci] + i) *
                                (SOLVER_MAX_COMP + 1) + k];
            b->prob[members[start[ci] + i]] = p / ws;
        }
    }
    double pint = total > 0 && nint ? interior_mines / total / nint : 1;
    for (int c = 0; c < cells; c++)
        if (b->state[c] < 0 && !b->ncons[c])
            b->prob[c] = pint;
    free(cw), free(cp), free(cmax), free(exact);
    free(all), free(oth), free(tmp), free(intw);
    return rc;
}

/* Whether the view b->look gives a new safe cell (or is cleared). */
static int progress(MsBot *b, const Mines *t)
{
    int cells = t->w * t->h, open = 0, safe = 0;
    simple_deductions(b, t);
    for (int c = 0; c < cells; c++) {
        open += t->num[c] >= 0;
        safe |= t->num[c] < 0 && b->state[c] == 0;
    }
    if (probabilities(b, t)) {
        b->logw = -INFINITY;
        return 0;
    }
    if (safe || open == cells - t->nmines)
        return 1;
    for (int c = 0; c < cells; c++)
        if (t->num[c] < 0 && b->state[c] < 0 && b->prob[c] < 1e-12)
            return 1;
    return 0;
}

enum { LOOK_FRONT = 4, LOOK_INTERIOR = 2 };

/* With no safe cell: among the least likely mines (best, within a
 * margin), the cell most likely to be safe and to give a safe cell next,
 * over the numbers it may show (each weighted by its layouts). */
static int lookahead(MsBot *b, const Mines *m, int best, double *bestp)
{
    int cells = m->w * m->h;
    memcpy(b->cprob, b->prob, sizeof(double) * (size_t)cells);
    int8_t front[MS_MAXC];
    for (int c = 0; c < cells; c++)
        front[c] = (int8_t)(b->ncons[c] > 0);
    int cand[LOOK_FRONT + LOOK_INTERIOR], nc = 0;
    int used[MS_MAXC];
    memset(used, 0, sizeof(int) * (size_t)cells);
    for (int pass = 0; pass < 2; pass++) {
        int limit = pass ? LOOK_INTERIOR : LOOK_FRONT, got = 0;
        while (got < limit) {
            int pick = -1;
            for (int c = 0; c < cells; c++) {
                if (m->num[c] >= 0 || c == m->boom || used[c] ||
                    front[c] != !pass || b->state[c] == 1)
                    continue;
                if (b->cprob[c] > *bestp + 0.1)
                    continue;
                if (pick < 0 || b->cprob[c] < b->cprob[pick] - 1e-9 ||
                    (b->cprob[c] < b->cprob[pick] + 1e-9 &&
                     corner_rank(m, c) > corner_rank(m, pick)))
                    pick = c;
            }
            if (pick < 0)
                break;
            used[pick] = 1;
            cand[nc++] = pick;
            got++;
        }
    }
    double bestscore = -1;
    int choice = best;
    for (int i = 0; i < nc; i++) {
        int c = cand[i];
        double psafe = 1 - b->cprob[c];
        double lw[9], mx = -INFINITY;
        int prog[9];
        b->look = *m;
        b->look.opened++;
        b->looking = 1;
        for (int v = 0; v <= 8; v++) {
            b->look.num[c] = (int8_t)v;
            prog[v] = progress(b, &b->look);
            lw[v] = b->logw;
            if (b->state[c] != 0 || !b->allexact)
                lw[v] = -INFINITY;
            if (lw[v] > mx)
                mx = lw[v];
        }
        b->looking = 0;
        if (mx == -INFINITY)
            continue;
        double sw = 0, sp = 0;
        for (int v = 0; v <= 8; v++) {
            double w = exp(lw[v] - mx);
            sw += w;
            sp += w * prog[v];
        }
        double score = psafe * (1 + sp / sw) / 2;
        if (score > bestscore + 1e-12) {
            bestscore = score;
            choice = c;
        }
    }
    *bestp = b->cprob[choice];
    return choice;
}

static Move msb_choose(void *p, const void *st, const Limits *lim,
                       SearchInfo *out)
{
    MsBot *b = p;
    (void)lim;
    const Mines *m = st;
    int cells = m->w * m->h;
    memset(out, 0, sizeof *out);
    Move best = 0;
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
    int bad = probabilities(b, m);
    double bestp = 2;
    int bestc = -1, bestr = -1;
    for (int c = 0; c < cells; c++) {
        if (m->num[c] >= 0 || c == m->boom)
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
    if (b->look_on && !bad && b->allexact && bestc >= 0)
        bestc = lookahead(b, m, bestc, &bestp);
    if (bestc < 0) {
        Move mv[MS_MAXC];
        int n = ms_gen_moves(st, mv);
        best = n ? mv[0] : 0;
    } else {
        best = (Move)bestc;
    }
    out->best = best;
    out->value = bad ? 0 : (int)((1 - 2 * bestp) * EVAL_MAX);
    out->nodes = b->nodes + 1;
    return best;
}

const BotVtbl bot_minesweeper = {
    .name = "minesweeper",
    .help = "Minesweeper only: a solver from the player's view. Single-point "
            "deductions; then the exact probability of a mine in each closed "
            "cell (each frontier component enumerated, weighted by the ways "
            "to place the other mines off the frontier); opens a safe cell, "
            "else the least likely mine, ties to corners and edges.",
    .options = msb_options,
    .options_size = sizeof(MsOpts),
    .create = msb_create,
    .destroy = msb_destroy,
    .new_game = msb_new_game,
    .choose = msb_choose,
};
