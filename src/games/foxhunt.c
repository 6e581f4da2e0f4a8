/* foxhunt.c — Fox hunt (the MK-54 calculator game, Dagaz's 10x10 form),
 * a one-player game with hidden foxes, and its solver bot `foxhunt`.
 *
 * Foxes sit on distinct cells, placed from the seed at init. A probe on a
 * fox finds it; on an empty cell it shows how many foxes (found ones
 * included) lie on the cell's row, column and both diagonals. The game
 * ends when every fox is found; the fewer probes the better.
 *
 * Cells are numbered rank * n + file, rank 0 at the bottom; a move is the
 * cell probed, written file letter and rank number ("e5"). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"

enum { FOX_MAXN = 16, FOX_MAXC = FOX_MAXN * FOX_MAXN, FOX_MAXF = 9 };
enum { PROBE_NONE = -1, PROBE_FOX = -2 };

typedef struct Fox {
    uint8_t n;              /* board n x n */
    uint8_t nfox;
    uint8_t found;
    int8_t view;            /* -1 the true state, 0 the player's view */
    uint16_t shots;
    uint8_t fox[FOX_MAXC];  /* 1: a fox not yet found (true state only) */
    int8_t probe[FOX_MAXC]; /* PROBE_NONE, PROBE_FOX, or the count shown */
} Fox;

static const GameOption fox_options[] = {
    {.key = "size", .type = OPT_INT, .def = 10, .min = 4, .max = FOX_MAXN,
     .help = "the board is size x size"},
    {.key = "foxes", .type = OPT_INT, .def = 8, .min = 1, .max = FOX_MAXF,
     .help = "foxes hidden, one per cell"},
    {.key = NULL},
};

/* Whether cells a and b share a row, column or diagonal (a != b). */
static int sees(int n, int a, int b)
{
    int ax = a % n, ay = a / n, bx = b % n, by = b / n;
    int dx = ax - bx, dy = ay - by;
    return a != b && (!dx || !dy || dx == dy || dx == -dy);
}

static int fox_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    Fox *f = st;
    memset(f, 0, sizeof *f);
    int n = opt[0], k = opt[1];
    if (k >= n * n)
        return ply_fail(err, "foxhunt: %d foxes do not fit on %dx%d", k, n,
                        n);
    f->n = (uint8_t)n;
    f->nfox = (uint8_t)k;
    f->view = -1;
    memset(f->probe, PROBE_NONE, sizeof f->probe);
    Rng r;
    rng_seed(&r, seed ^ 0xf0c5f0c5ull);
    int pool[FOX_MAXC], cells = n * n;
    for (int i = 0; i < cells; i++)
        pool[i] = i;
    for (int i = 0; i < k; i++) {
        int j = i + (int)rng_below(&r, (uint32_t)(cells - i));
        int t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
        f->fox[pool[i]] = 1;
    }
    return 0;
}

static int fox_to_move(const void *st)
{
    const Fox *f = st;
    return f->found >= f->nfox ? PLAYER_TERMINAL : 0;
}

static int fox_gen_moves(const void *st, Move *out)
{
    const Fox *f = st;
    int k = 0;
    if (f->found >= f->nfox)
        return 0;
    for (int c = 0; c < f->n * f->n; c++)
        if (f->probe[c] == PROBE_NONE)
            out[k++] = (Move)c;
    return k;
}

/* Foxes on c's lines, found or not. */
static int fox_count(const Fox *f, int c)
{
    int s = 0;
    for (int x = 0; x < f->n * f->n; x++)
        if ((f->fox[x] || f->probe[x] == PROBE_FOX) && sees(f->n, c, x))
            s++;
    return s;
}

static void fox_make(void *st, Move m)
{
    Fox *f = st;
    int c = (int)m;
    f->shots++;
    if (f->fox[c]) {
        f->fox[c] = 0;
        f->probe[c] = PROBE_FOX;
        f->found++;
    } else {
        f->probe[c] = (int8_t)fox_count(f, c);
    }
}

static void fox_returns(const void *st, double *out)
{
    const Fox *f = st;
    int cells = f->n * f->n;
    out[0] = f->found < f->nfox ? 0
           : 1 - 2.0 * (f->shots - f->nfox) / (double)(cells - f->nfox);
}

static uint64_t fox_hash(const void *st)
{
    const Fox *f = st;
    uint64_t h = 0xf0e1u ^ (uint64_t)f->n << 8 ^ (uint64_t)f->nfox << 16 ^
                 (uint64_t)(f->view + 1) << 24;
    for (int c = 0; c < f->n * f->n; c++)
        h = (h ^ (uint64_t)(f->probe[c] + 3 + 32 * f->fox[c])) *
            0x100000001b3ull;
    return h;
}

static void sq_name(const Fox *f, int c, char *buf, size_t n)
{
    snprintf(buf, n, "%c%d", 'a' + c % f->n, c / f->n + 1);
}

static char cell_char(const Fox *f, int c)
{
    if (f->probe[c] == PROBE_FOX)
        return 'F';
    if (f->probe[c] >= 0)
        return (char)('0' + f->probe[c]);
    if (f->view >= 0)
        return '?';
    return f->fox[c] ? 'f' : '.';
}

/* Ranks from the top (the highest first) joined by '/', then foxes=N,
 * and "view" in a player's view. */
static int fox_to_text(const void *st, char *buf, size_t n)
{
    const Fox *f = st;
    char s[FOX_MAXC + FOX_MAXN + 40];
    int k = 0;
    for (int y = f->n - 1; y >= 0; y--) {
        for (int x = 0; x < f->n; x++)
            s[k++] = cell_char(f, y * f->n + x);
        if (y)
            s[k++] = '/';
    }
    k += snprintf(s + k, sizeof s - (size_t)k, " foxes=%d%s", f->nfox,
                  f->view >= 0 ? " view" : "");
    int w = snprintf(buf, n, "%s", s);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int fox_from_text(void *st, const char *s, PlyError *err)
{
    Fox *f = st;
    if (strchr(s, '?') || strstr(s, "view"))
        return ply_fail(err, "this is the player's view, not the true "
                        "position (the foxes are needed)");
    char rows[FOX_MAXN][FOX_MAXN + 1];
    int nr = 0, len = 0;
    const char *p = s;
    while (*p == ' ')
        p++;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            rows[nr][len] = 0;
            if (++nr >= FOX_MAXN)
                return ply_fail(err, "more than %d ranks", FOX_MAXN);
            len = 0;
            continue;
        }
        if (len >= FOX_MAXN)
            return ply_fail(err, "a rank longer than %d cells", FOX_MAXN);
        rows[nr][len++] = *p;
    }
    rows[nr][len] = 0;
    nr++;
    int n = nr;
    if (n < 4)
        return ply_fail(err, "the board is at least 4x4");
    for (int i = 0; i < nr; i++)
        if ((int)strlen(rows[i]) != n)
            return ply_fail(err, "rank %d has %d cells, not %d", n - i,
                            (int)strlen(rows[i]), n);
    int nfox = -1;
    while (*p == ' ')
        p++;
    if (*p) {
        char *e;
        if (strncmp(p, "foxes=", 6))
            return ply_fail(err, "expected foxes=N after the board");
        long v = strtol(p + 6, &e, 10);
        while (*e == ' ')
            e++;
        if (*e || v < 1 || v > FOX_MAXF)
            return ply_fail(err, "bad fox count (1 to %d)", FOX_MAXF);
        nfox = (int)v;
    }
    if (nfox < 0)
        return ply_fail(err, "missing foxes=N");
    Fox t;
    memset(&t, 0, sizeof t);
    t.n = (uint8_t)n;
    t.nfox = (uint8_t)nfox;
    t.view = -1;
    memset(t.probe, PROBE_NONE, sizeof t.probe);
    int foxes = 0;
    for (int i = 0; i < n; i++)
        for (int x = 0; x < n; x++) {
            int c = (n - 1 - i) * n + x;
            char ch = rows[i][x];
            if (ch == 'f') {
                t.fox[c] = 1;
                foxes++;
            } else if (ch == 'F') {
                t.probe[c] = PROBE_FOX;
                t.found++;
                t.shots++;
                foxes++;
            } else if (ch >= '0' && ch <= '9') {
                t.probe[c] = (int8_t)(ch - '0');
                t.shots++;
            } else if (ch != '.') {
                return ply_fail(err, "bad cell '%c' (. f F or 0-9)", ch);
            }
        }
    if (foxes != nfox)
        return ply_fail(err, "%d foxes on the board, foxes=%d", foxes, nfox);
    for (int c = 0; c < n * n; c++)
        if (t.probe[c] >= 0 && t.probe[c] != fox_count(&t, c)) {
            char nm[16];
            sq_name(&t, c, nm, sizeof nm);
            return ply_fail(err, "%s shows %d but %d foxes are on its "
                            "lines", nm, t.probe[c], fox_count(&t, c));
        }
    *f = t;
    return 0;
}

static int fox_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Fox *f = st;
    char nm[16];
    sq_name(f, (int)m, nm, sizeof nm);
    int w = snprintf(buf, n, "%s", nm);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int fox_text_to_move(const void *st, const char *s, Move *m,
                            PlyError *err)
{
    const Fox *f = st;
    int y, k = 0;
    if (s[0] < 'a' || s[0] >= 'a' + f->n || sscanf(s + 1, "%d%n", &y, &k)
        != 1 || s[1 + k] || y < 1 || y > f->n)
        return ply_fail(err, "bad cell '%s' (a1 to %c%d)", s, 'a' + f->n - 1,
                        f->n);
    if (f->found >= f->nfox)
        return ply_fail(err, "the game is over");
    int c = (y - 1) * f->n + (s[0] - 'a');
    if (f->probe[c] != PROBE_NONE)
        return ply_fail(err, "%s was probed already", s);
    *m = (Move)c;
    return 0;
}

static int fox_render(const void *st, char *buf, size_t n)
{
    const Fox *f = st;
    size_t len = 0;
    int w;
    for (int y = f->n - 1; y >= 0; y--) {
        char row[FOX_MAXN * 2 + 8];
        int k = snprintf(row, sizeof row, "%2d ", y + 1);
        for (int x = 0; x < f->n; x++) {
            char ch = cell_char(f, y * f->n + x);
            row[k++] = ch == '.' || ch == 'f' ? '.' : ch;
            row[k++] = ' ';
        }
        row[k] = 0;
        PLY_OUT("%s\n", row);
    }
    char files[FOX_MAXN * 2 + 1];
    for (int x = 0; x < f->n; x++)
        files[2 * x] = (char)('a' + x), files[2 * x + 1] = ' ';
    files[2 * f->n] = 0;
    w = snprintf(buf + len, n - len, "   %s\n%d of %d foxes found (F), %d "
                 "probes\n", files, f->found, f->nfox, f->shots);
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

static void fox_observe(const void *st, int player, void *obs)
{
    (void)player;
    Fox *o = obs;
    if (o != st)
        memcpy(o, st, sizeof *o);
    memset(o->fox, 0, sizeof o->fox);
    o->view = 0;
}

/* ---- consistent placements of the foxes not yet found ---- */

typedef struct Cons {
    int n;
    int np, probe[FOX_MAXC], need[FOX_MAXC];   /* probes still needing foxes */
    int nc, cell[FOX_MAXC];     /* candidate cells (not probed, not ruled out) */
    int left;                   /* foxes to place */
} Cons;

/* The constraints of a view: each probe's count minus the found foxes on
 * its lines; cells on a probe showing no more foxes are ruled out. */
static void cons_build(const Fox *o, Cons *k)
{
    int cells = o->n * o->n;
    k->n = o->n;
    k->np = k->nc = 0;
    k->left = o->nfox - o->found;
    for (int c = 0; c < cells; c++) {
        if (o->probe[c] < 0)
            continue;
        int need = o->probe[c];
        for (int x = 0; x < cells; x++)
            if (o->probe[x] == PROBE_FOX && sees(o->n, c, x))
                need--;
        k->probe[k->np] = c;
        k->need[k->np++] = need;
    }
    for (int c = 0; c < cells; c++) {
        if (o->probe[c] != PROBE_NONE)
            continue;
        int ok = 1;
        for (int i = 0; i < k->np && ok; i++)
            if (k->need[i] == 0 && sees(o->n, c, k->probe[i]))
                ok = 0;
        if (ok)
            k->cell[k->nc++] = c;
    }
}

typedef struct Dfs {
    const Cons *k;
    int order[FOX_MAXC];        /* candidate cells, shuffled */
    uint8_t avail[FOX_MAXC];    /* by cell */
    int rest[FOX_MAXC];         /* by probe: foxes still needed */
    int cnt[FOX_MAXC];          /* by probe: available cells it sees */
    int nsee[FOX_MAXC];         /* by cell: probes seeing it */
    int see[FOX_MAXC][FOX_MAXC];
    int chosen[FOX_MAXF];
    uint64_t nodes;
} Dfs;

static void dfs_take(Dfs *d, int c, int fox)
{
    d->avail[c] = 0;
    for (int j = 0; j < d->nsee[c]; j++) {
        d->cnt[d->see[c][j]]--;
        d->rest[d->see[c][j]] -= fox;
    }
}

static void dfs_undo(Dfs *d, int c, int fox)
{
    d->avail[c] = 1;
    for (int j = 0; j < d->nsee[c]; j++) {
        d->cnt[d->see[c][j]]++;
        d->rest[d->see[c][j]] += fox;
    }
}

/* Branches on the probe with the fewest available cells: its i-th cell
 * is a fox and the ones before it are not (complete, no duplicates). */
static int dfs_rec(Dfs *d, Rng *r, int placed)
{
    const Cons *k = d->k;
    if (++d->nodes > 4000000)
        return 0;
    int left = k->left - placed, best = -1;
    for (int p = 0; p < k->np; p++) {
        if (d->rest[p] < 0 || d->rest[p] > d->cnt[p] || d->rest[p] > left)
            return 0;
        if (d->rest[p] > 0 && (best < 0 || d->cnt[p] < d->cnt[best]))
            best = p;
    }
    if (best < 0) {
        /* every probe satisfied: the rest on cells no probe sees */
        int fr[FOX_MAXC], nf = 0;
        for (int i = 0; i < k->nc; i++) {
            int c = d->order[i];
            if (d->avail[c] && !d->nsee[c])
                fr[nf++] = c;
        }
        if (nf < left)
            return 0;
        for (int i = 0; i < left; i++) {
            int j = i + (int)rng_below(r, (uint32_t)(nf - i));
            int t = fr[i];
            fr[i] = fr[j];
            fr[j] = t;
            d->chosen[placed + i] = fr[i];
        }
        return 1;
    }
    int banned[FOX_MAXC], nb = 0, ok = 0;
    for (int i = 0; i < k->nc && !ok; i++) {
        int c = d->order[i];
        if (!d->avail[c] || !sees(k->n, c, k->probe[best]))
            continue;
        int fits = 1;
        for (int j = 0; j < d->nsee[c]; j++)
            fits &= d->rest[d->see[c][j]] > 0;
        if (fits) {
            dfs_take(d, c, 1);
            d->chosen[placed] = c;
            ok = dfs_rec(d, r, placed + 1);
            dfs_undo(d, c, 1);
        }
        if (!ok) {
            dfs_take(d, c, 0);
            banned[nb++] = c;
            if (d->rest[best] > d->cnt[best])
                break;
        }
    }
    while (nb)
        dfs_undo(d, banned[--nb], 0);
    return ok;
}

/* A random consistent placement into out[] (k->left cells); 0, or -1. */
static int dfs_place(Dfs *d, const Cons *k, Rng *r, int *out)
{
    d->k = k;
    d->nodes = 0;
    for (int i = 0; i < k->nc; i++)
        d->order[i] = k->cell[i];
    for (int i = k->nc - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1));
        int t = d->order[i];
        d->order[i] = d->order[j];
        d->order[j] = t;
    }
    memset(d->avail, 0, sizeof d->avail);
    for (int p = 0; p < k->np; p++) {
        d->rest[p] = k->need[p];
        d->cnt[p] = 0;
    }
    for (int i = 0; i < k->nc; i++) {
        int c = k->cell[i];
        d->avail[c] = 1;
        d->nsee[c] = 0;
        for (int p = 0; p < k->np; p++)
            if (sees(k->n, c, k->probe[p])) {
                d->see[c][d->nsee[c]++] = p;
                d->cnt[p]++;
            }
    }
    if (!dfs_rec(d, r, 0))
        return -1;
    memcpy(out, d->chosen, sizeof(int) * (size_t)k->left);
    return 0;
}

static void fox_determinize(const void *obs, int player, Rng *r, void *st)
{
    (void)player;
    const Fox *o = obs;
    if (o->view < 0) {
        memmove(st, obs, sizeof *o);
        return;
    }
    Fox t = *o;
    t.view = -1;
    memset(t.fox, 0, sizeof t.fox);
    Cons *k = malloc(sizeof *k);
    Dfs *d = malloc(sizeof *d);
    int out[FOX_MAXF];
    if (k && d) {
        cons_build(o, k);
        if (!dfs_place(d, k, r, out))
            for (int i = 0; i < k->left; i++)
                t.fox[out[i]] = 1;
    }
    free(k), free(d);
    memcpy(st, &t, sizeof t);
}

static int fox_check(const void *st)
{
    const Fox *f = st;
    if (f->n < 4 || f->n > FOX_MAXN || f->nfox < 1 || f->nfox > FOX_MAXF)
        return -1;
    int foxes = 0, found = 0, shots = 0;
    for (int c = 0; c < f->n * f->n; c++) {
        foxes += f->fox[c];
        found += f->probe[c] == PROBE_FOX;
        shots += f->probe[c] != PROBE_NONE;
        if (f->fox[c] && f->probe[c] != PROBE_NONE)
            return -1;
        if (f->view < 0 && f->probe[c] >= 0 &&
            f->probe[c] != fox_count(f, c))
            return -1;
    }
    if (found != f->found || shots != f->shots)
        return -1;
    if (f->view < 0 && foxes + found != f->nfox)
        return -1;
    if (f->view >= 0 && foxes)
        return -1;
    return 0;
}

static int fox_score(const void *st, int player)
{
    (void)player;
    const Fox *f = st;
    return f->shots;
}

static int fox_eval(const void *st, int player)
{
    (void)player;
    const Fox *f = st;
    return 100 * f->found - f->shots;
}

static const char *fox_end_reason(const void *st)
{
    const Fox *f = st;
    return f->found >= f->nfox ? "every fox is found" : NULL;
}

static int fox_layout(const void *st, Layout *l)
{
    const Fox *f = st;
    l->width = f->n;
    l->height = f->n;
    for (int c = 0; c < f->n * f->n; c++) {
        int x = c % f->n, y = c / f->n;
        char nm[16];
        sq_name(f, c, nm, sizeof nm);
        int shade = f->probe[c] == PROBE_FOX ? SHADE_SPECIAL
                  : f->probe[c] >= 0 ? SHADE_LIGHT : SHADE_DARK;
        LayoutCell *lc = layout_cell(l, (float)x + 0.5f,
                                     (float)(f->n - 1 - y) + 0.5f,
                                     CELL_SQUARE, shade, nm);
        if (!lc)
            return -1;
        lc->owner = -1;
        if (f->probe[c] == PROBE_FOX)
            snprintf(lc->glyph, sizeof lc->glyph, "F");
        else if (f->probe[c] >= 0)
            snprintf(lc->glyph, sizeof lc->glyph, "%d", f->probe[c]);
    }
    return 0;
}

static const char *const fox_players[] = {"Hunter"};

const GameVtbl game_foxhunt = {
    .info = {
        .name = "foxhunt",
        .title = "Fox hunt (hidden foxes)",
        .num_players = 1,
        .max_moves = FOX_MAXC,
        .max_game_length = FOX_MAXC,
        .state_size = sizeof(Fox),
        .flags = GAME_HIDDEN,
        .player_names = fox_players,
        .options = fox_options,
        .notation =
            "A move probes a cell: file letter and rank (a1 bottom left).\n"
            "Setup string: the ranks from the top joined by '/', '.' an\n"
            "empty cell not probed, 'f' a hidden fox, 'F' a found fox, 0-9 a\n"
            "probed cell with its count; then \"foxes=N\". The player's view\n"
            "(`ply show foxhunt --as hunter`) writes '?' for cells not\n"
            "probed and ends with \"view\"; it is not accepted where the\n"
            "true position is needed.",
        .rules =
            "One player hunts foxes hidden on distinct cells of a square\n"
            "board (default 10x10 with 8 foxes, as in Dagaz; the 1985 MK-54\n"
            "program let foxes share a cell, not done here). A probe on a\n"
            "fox finds it; on an empty cell it shows how many foxes lie on\n"
            "the cell's row, column and both diagonals, found ones included,\n"
            "rays not stopped by foxes (transparent); foxes do not move. The\n"
            "game ends when every fox is found; there is no loss. Result:\n"
            "1 - 2 (probes - foxes) / (cells - foxes), so fewer probes is\n"
            "better; score: the probes. The foxes come from the game's seed.",
        .default_bot = "foxhunt",
    },
    .init = fox_init,
    .to_move = fox_to_move,
    .gen_moves = fox_gen_moves,
    .make = fox_make,
    .returns = fox_returns,
    .hash = fox_hash,
    .to_text = fox_to_text,
    .from_text = fox_from_text,
    .move_to_text = fox_move_to_text,
    .text_to_move = fox_text_to_move,
    .render = fox_render,
    .eval = fox_eval,
    .observe = fox_observe,
    .determinize = fox_determinize,
    .score = fox_score,
    .check = fox_check,
    .layout = fox_layout,
    .end_reason = fox_end_reason,
};

/* ================================================================ solver
 *
 * From the view alone: cells on the lines of a probe that needs no more
 * foxes are empty; among the rest, the probability of a fox in each cell
 * is estimated by sampling placements consistent with every probe (a
 * random consistent placement by search, then a Metropolis walk moving one
 * fox at a time, counting the placements that break no probe). It probes
 * the most likely cell; ties (and the first probe) to the cell whose lines
 * cover most candidates. */

typedef struct FoxOpts {
    int steps;
} FoxOpts;

static const Option foxb_options[] = {
    {.key = "steps", .type = OPT_INT, .def = 3000, .min = 0, .max = 1000000,
     .help = "Metropolis steps per move", .offset = offsetof(FoxOpts, steps)},
    {.key = NULL},
};

typedef struct FoxBot {
    Rng rng;
    int steps;
    Cons k;
    Dfs d;
    double occ[FOX_MAXC];
} FoxBot;

static void *foxb_create(const GameVtbl *g, const void *opts, uint64_t seed,
                         PlyError *err)
{
    const FoxOpts *o = opts;
    if (g != &game_foxhunt) {
        ply_fail(err, "the foxhunt bot plays foxhunt only");
        return NULL;
    }
    FoxBot *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    rng_seed(&b->rng, seed);
    b->steps = o ? o->steps : 3000;
    return b;
}

static void foxb_destroy(void *p)
{
    free(p);
}

static void foxb_new_game(void *p)
{
    (void)p;
}

static Move foxb_choose(void *p, const void *st, const Limits *lim,
                        SearchInfo *out)
{
    FoxBot *b = p;
    (void)lim;
    const Fox *o = st;
    Cons *k = &b->k;
    memset(out, 0, sizeof *out);
    cons_build(o, k);
    int cells = o->n * o->n;
    for (int c = 0; c < cells; c++)
        b->occ[c] = 0;
    int pos[FOX_MAXF], idx[FOX_MAXC];   /* fox cells; cell -> fox or -1 */
    int samples = 0;
    if (k->np > 0 && k->nc > 0 && !dfs_place(&b->d, k, &b->rng, pos)) {
        int sum[FOX_MAXC], viol = 0;
        for (int c = 0; c < cells; c++)
            idx[c] = -1;
        for (int i = 0; i < k->left; i++)
            idx[pos[i]] = i;
        for (int q = 0; q < k->np; q++) {
            sum[q] = 0;
            for (int i = 0; i < k->left; i++)
                sum[q] += sees(o->n, pos[i], k->probe[q]);
        }
        for (int s = 0; s < b->steps; s++) {
            int i = (int)rng_below(&b->rng, (uint32_t)k->left);
            int to = k->cell[rng_below(&b->rng, (uint32_t)k->nc)];
            if (idx[to] < 0) {
                int from = pos[i], d = 0;
                for (int q = 0; q < k->np; q++) {
                    int a = sees(o->n, from, k->probe[q]);
                    int c = sees(o->n, to, k->probe[q]);
                    if (a != c) {
                        int before = abs(sum[q] - k->need[q]);
                        int after = abs(sum[q] - a + c - k->need[q]);
                        d += after - before;
                    }
                }
                /* accept with probability 1/8 per unit of violation */
                if (d <= 0 || !(rng_next(&b->rng) >> (64 - 3 * d > 0
                                                      ? 64 - 3 * d : 0))) {
                    for (int q = 0; q < k->np; q++)
                        sum[q] += sees(o->n, to, k->probe[q]) -
                                  sees(o->n, from, k->probe[q]);
                    idx[from] = -1;
                    idx[to] = i;
                    pos[i] = to;
                    viol += d;
                }
            }
            if (!viol) {
                for (int j = 0; j < k->left; j++)
                    b->occ[pos[j]] += 1;
                samples++;
            }
        }
        if (!samples)
            for (int j = 0; j < k->left; j++)
                b->occ[pos[j]] += 1;
    }
    /* no probe yet (or nothing sampled): every candidate alike */
    if (!samples && !(k->np > 0 && k->nc > 0))
        for (int i = 0; i < k->nc; i++)
            b->occ[k->cell[i]] = 1;
    int best = -1, bestcov = -1;
    double bestocc = -1;
    for (int i = 0; i < k->nc; i++) {
        int c = k->cell[i], cov = 0;
        for (int j = 0; j < k->nc; j++)
            cov += sees(o->n, c, k->cell[j]);
        if (b->occ[c] > bestocc + 1e-9 ||
            (b->occ[c] > bestocc - 1e-9 && cov > bestcov)) {
            best = c;
            bestocc = b->occ[c];
            bestcov = cov;
        }
    }
    if (best < 0) {     /* an inconsistent view: any cell not probed */
        for (int c = 0; c < cells && best < 0; c++)
            if (o->probe[c] == PROBE_NONE)
                best = c;
        if (best < 0)
            best = 0;
    }
    out->best = (Move)best;
    out->nodes = (uint64_t)b->steps + 1;
    out->playouts = (uint64_t)samples;
    out->value = samples ? (int)(bestocc / samples * EVAL_MAX) : 0;
    return (Move)best;
}

const BotVtbl bot_foxhunt = {
    .name = "foxhunt",
    .help = "Fox hunt only: a solver from the player's view. Rules out the "
            "cells of probes needing no more foxes, estimates each other "
            "cell's chance of a fox from placements consistent with every "
            "probe (search, then a Metropolis walk), probes the likeliest; "
            "ties to the cell whose lines cover most candidates.",
    .options = foxb_options,
    .options_size = sizeof(FoxOpts),
    .create = foxb_create,
    .destroy = foxb_destroy,
    .new_game = foxb_new_game,
    .choose = foxb_choose,
};
