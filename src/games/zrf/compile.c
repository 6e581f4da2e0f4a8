/* compile.c — a read ZRF file to a ZGame: one variant's forms merged over
 * the game form; the board (grids, explicit positions, links, unlink,
 * kill-positions, symmetry, zones, dummies); pieces and setup; move and
 * drop templates compiled to bytecode; turn order, priorities, options
 * and goals. Words it does not know are collected with their line
 * (`ply rules check`); a game that uses one does not load. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc.h"
#include "zrf.h"

/* A list's elements after the first / the first's text, for any list. */
#define ZREST(n) ((n)->kids ? (n)->kids->next : NULL)
#define ZFIRST(n) ((n)->kids ? (n)->kids->text : "")

typedef struct Cc {
    ZReader *r;
    ZGame *g;
    PlyError *err;
    char *unsup;
    size_t usz;
    int nunsup;
    int failed;                 /* a hard error already in err */
    int grid_pos0;              /* first position of the current grid */
    uint8_t *killed;
} Cc;

static void note_word(Cc *c, const ZNode *n, const char *word, int soft)
{
    char w[300];
    c->nunsup += !soft;
    size_t l = strlen(c->unsup);
    if (l + 80 < c->usz)
        snprintf(c->unsup + l, c->usz - l, "%s%s (%s)%s", l ? "\n" : "",
                 word, zr_where(c->r, n, w, sizeof w),
                 soft ? " ignored" : "");
}

/* A word Ply cannot run: the game does not load. */
static void note_unsup(Cc *c, const ZNode *n, const char *word)
{
    note_word(c, n, word, 0);
}

/* A rule Ply does not enforce yet; the game loads without it. */
static void note_soft(Cc *c, const ZNode *n, const char *word)
{
    note_word(c, n, word, 1);
}

static int cfail(Cc *c, const ZNode *n, const char *fmt, ...)
{
    char msg[200], w[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!c->failed)
        ply_fail(c->err, "%s: %s", zr_where(c->r, n, w, sizeof w), msg);
    c->failed = 1;
    return -1;
}

/* ---- growing arrays ---- */

static int emit(Cc *c, int32_t v)
{
    ZGame *g = c->g;
    if (g->ncode == g->capcode) {
        int cap = g->capcode ? 2 * g->capcode : 1024;
        if (cap > (16 << 20))
            return cfail(c, NULL, "too much move code");
        int32_t *p = realloc(g->code, sizeof *p * (size_t)cap);
        if (!p)
            return cfail(c, NULL, "out of memory");
        g->code = p;
        g->capcode = cap;
    }
    g->code[g->ncode++] = v;
    return 0;
}

static int new_cond(Cc *c, int op, int arg, int loc)
{
    ZGame *g = c->g;
    if (g->nconds == g->capconds) {
        int cap = g->capconds ? 2 * g->capconds : 256;
        if (cap > (4 << 20))
            return cfail(c, NULL, "too many conditions");
        ZCond *p = realloc(g->conds, sizeof *p * (size_t)cap);
        if (!p)
            return cfail(c, NULL, "out of memory");
        g->conds = p;
        g->capconds = cap;
    }
    g->conds[g->nconds] = (ZCond){op, arg, loc, 0, 0, 0};
    return g->nconds++;
}

static int new_goal(Cc *c)
{
    ZGame *g = c->g;
    if (g->ngoals == g->capgoals) {
        int cap = g->capgoals ? 2 * g->capgoals : 32;
        if (cap > 65536)
            return cfail(c, NULL, "too many goals");
        ZGoal *p = realloc(g->goals, sizeof *p * (size_t)cap);
        if (!p)
            return cfail(c, NULL, "out of memory");
        g->goals = p;
        g->capgoals = cap;
    }
    memset(&g->goals[g->ngoals], 0, sizeof g->goals[0]);
    g->goals[g->ngoals].zone = -1;
    return g->ngoals++;
}

/* ---- names ---- */

static int find_name(const char *name, const char *names, size_t stride,
                     int n)
{
    for (int i = 0; i < n; i++)
        if (!strcasecmp(names + stride * (size_t)i, name))
            return i;
    return -1;
}

#define FIND(arr, n, name) \
    find_name((name), (const char *)(arr), sizeof (arr)[0], (n))

static int find_pos(const ZGame *g, const char *name)
{
    if (!g->pos_case)
        return FIND(g->pos_name, g->npos, name);
    for (int i = 0; i < g->npos; i++)
        if (!strcmp(g->pos_name[i], name))
            return i;
    return -1;
}

/* The position an atom names (its spelling counts when pos_case). */
static int node_pos(const ZGame *g, const ZNode *n)
{
    return find_pos(g, g->pos_case ? n->orig : n->text);
}
static int find_dir(const ZGame *g, const char *name)
{
    return FIND(g->dir_name, g->ndirs, name);
}
static int find_type(const ZGame *g, const char *name)
{
    return FIND(g->type_name, g->ntypes, name);
}
static int find_player(const ZGame *g, const char *name)
{
    return FIND(g->player_names, g->nplayers, name);
}
static int find_zone(const ZGame *g, const char *name)
{
    return FIND(g->zone_name, g->nzones, name);
}
static int find_mtype(const ZGame *g, const char *name)
{
    return FIND(g->mtype_name, g->nmtypes, name);
}

static int add_mtype(Cc *c, const ZNode *n)
{
    ZGame *g = c->g;
    int i = find_mtype(g, n->text);
    if (i >= 0)
        return i;
    if (g->nmtypes == ZMAX_MTYPES)
        return cfail(c, n, "more than %d move types", ZMAX_MTYPES);
    snprintf(g->mtype_name[g->nmtypes], 32, "%s", n->text);
    return g->nmtypes++;
}

static int add_name(Cc *c, const ZNode *n, char (*names)[32], int *count,
                    int max, const char *what)
{
    int i = find_name(n->text, (const char *)names, 32, *count);
    if (i >= 0)
        return i;
    if (*count == max)
        return cfail(c, n, "more than %d %s", max, what);
    snprintf(names[*count], 32, "%s", n->text);
    return (*count)++;
}

/* ---- the board ---- */

static int add_position(Cc *c, const ZNode *at, const char *name)
{
    ZGame *g = c->g;
    for (int i = 0; i < g->npos; i++)
        if (!strcmp(g->pos_name[i], name))
            return i;
    /* the same name in another case: a second position (pos_case) */
    if (FIND(g->pos_name, g->npos, name) >= 0)
        g->pos_case = 1;
    if (g->npos >= ZMAX_POS)
        return cfail(c, at, "more than %d positions", ZMAX_POS);
    if (strlen(name) >= sizeof g->pos_name[0])
        return cfail(c, at, "position name '%s' too long", name);
    snprintf(g->pos_name[g->npos], sizeof g->pos_name[0], "%s", name);
    for (int d = 0; d < ZMAX_DIRS; d++)
        g->link[g->npos * ZMAX_DIRS + d] = -1;
    return g->npos++;
}

static int add_dir(Cc *c, const ZNode *at, const char *name)
{
    ZGame *g = c->g;
    int i = find_dir(g, name);
    if (i >= 0)
        return i;
    if (g->ndirs >= ZMAX_DIRS)
        return cfail(c, at, "more than %d directions", ZMAX_DIRS);
    if (strlen(name) >= sizeof g->dir_name[0])
        return cfail(c, at, "direction name '%s' too long", name);
    snprintf(g->dir_name[g->ndirs], sizeof g->dir_name[0], "%s", name);
    return g->ndirs++;
}

typedef struct DirVec {
    int v[4];
} DirVec;

static int build_grid(Cc *c, const ZNode *grid, DirVec *vecs)
{
    ZGame *g = c->g;
    const ZNode *dims = NULL, *dirs = NULL;
    for (const ZNode *k = ZREST(grid); k; k = k->next) {
        const char *h = zr_head(k);
        if (h && !strcmp(h, "dimensions"))
            dims = k;
        else if (h && !strcmp(h, "directions"))
            dirs = k;
    }
    if (!dims)
        return cfail(c, grid, "grid without dimensions");
    char names[4][64][16];
    int nd = 0, size[4];
    for (const ZNode *d = ZREST(dims); d; d = d->next) {
        const ZNode *s = d->type == ZN_LIST ? d->kids : d;
        if (!s || s->type == ZN_LIST)
            return cfail(c, d, "bad dimension");
        if (nd == 4)
            return cfail(c, d, "more than 4 dimensions");
        const char *p = s->type == ZN_STRING ? s->text : s->orig;
        int k = 0;
        while (*p) {
            size_t l = strcspn(p, "/");
            if (k == 64 || l >= 16)
                return cfail(c, d, "dimension too large");
            snprintf(names[nd][k++], 16, "%.*s", (int)l, p);
            p += l;
            if (*p)
                p++;
        }
        size[nd++] = k;
    }
    if (!nd)
        return cfail(c, dims, "no dimensions");
    int total = 1;
    for (int i = 0; i < nd; i++) {
        if (!size[i])
            return cfail(c, dims, "empty dimension");
        total *= size[i];
        if (total > ZMAX_POS)
            return cfail(c, dims, "grid larger than %d positions", ZMAX_POS);
    }
    int *ids = malloc(sizeof *ids * (size_t)total);
    if (!ids)
        return cfail(c, grid, "out of memory");
    for (int idx = 0; idx < total; idx++) {
        char name[64] = "";
        int rem = idx;
        int coord[4];
        for (int i = nd - 1; i >= 0; i--) {
            coord[i] = rem % size[i];
            rem /= size[i];
        }
        for (int i = 0; i < nd; i++)
            strncat(name, names[i][coord[i]], sizeof name - strlen(name) - 1);
        if ((ids[idx] = add_position(c, grid, name)) < 0) {
            free(ids);
            return -1;
        }
    }
    for (const ZNode *d = dirs ? ZREST(dirs) : NULL; d; d = d->next) {
        if (d->type != ZN_LIST || !d->kids || d->kids->type != ZN_ATOM)
            continue;
        int di = add_dir(c, d, ZFIRST(d));
        if (di < 0) {
            free(ids);
            return -1;
        }
        int dv[4] = {0};
        int i = 0;
        for (const ZNode *v = ZREST(d); v && i < 4; v = v->next)
            dv[i++] = atoi(v->text);
        memcpy(vecs[di].v, dv, sizeof dv);
        for (int idx = 0; idx < total; idx++) {
            int rem = idx, coord[4], ok = 1, to = 0;
            for (int j = nd - 1; j >= 0; j--) {
                coord[j] = rem % size[j];
                rem /= size[j];
            }
            for (int j = 0; j < nd; j++) {
                int x = coord[j] + dv[j];
                if (x < 0 || x >= size[j])
                    ok = 0;
                to = to * size[j] + x;
            }
            if (ok)
                g->link[ids[idx] * ZMAX_DIRS + di] = (int16_t)ids[to];
        }
    }
    free(ids);
    return 0;
}

static int zone_set(ZGame *g, int z, int p, int pos)
{
    g->zone[((size_t)z * (size_t)g->nplayers + (size_t)p) * ZMAX_POS +
            (size_t)pos] = 1;
    return 0;
}

static int build_board(Cc *c, const ZNode *board)
{
    ZGame *g = c->g;
    DirVec *vecs = calloc(ZMAX_DIRS, sizeof *vecs);
    if (!vecs)
        return cfail(c, board, "out of memory");
    int rc = 0;
    /* positions and grids first, links after */
    for (const ZNode *k = ZREST(board); k && !rc; k = k->next) {
        const char *h = zr_head(k);
        if (!h)
            continue;
        if (!strcmp(h, "grid")) {
            rc = build_grid(c, k, vecs);
        } else if (!strcmp(h, "positions")) {
            for (const ZNode *p = ZREST(k); p && !rc; p = p->next) {
                const ZNode *nm = p->type == ZN_LIST ? p->kids : p;
                if (nm && nm->type == ZN_ATOM)
                    rc = add_position(c, p, nm->orig) < 0;
            }
        } else if (!strcmp(h, "dummy")) {
            for (const ZNode *p = ZREST(k); p && !rc; p = p->next)
                if (p->type == ZN_ATOM)
                    rc = add_position(c, p, p->orig) < 0;
        }
    }
    for (const ZNode *k = ZREST(board); k && !rc; k = k->next) {
        const char *h = zr_head(k);
        if (!h)
            continue;
        if (!strcmp(h, "links")) {
            const ZNode *dn = zr_nth(k, 1);
            if (!dn || dn->type != ZN_ATOM) {
                rc = cfail(c, k, "links without a direction");
                break;
            }
            int d = add_dir(c, dn, dn->text);
            if (d < 0) {
                rc = -1;
                break;
            }
            for (const ZNode *p = dn->next; p; p = p->next) {
                const ZNode *a = zr_nth(p, 0), *b = zr_nth(p, 1);
                int pa = a ? node_pos(g, a) : -1;
                int pb = b ? node_pos(g, b) : -1;
                if (p->type != ZN_LIST || pa < 0 || pb < 0) {
                    rc = cfail(c, p, "bad link");
                    break;
                }
                g->link[pa * ZMAX_DIRS + d] = (int16_t)pb;
            }
        } else if (!strcmp(h, "unlink")) {
            for (const ZNode *p = ZREST(k); p; p = p->next) {
                if (p->type == ZN_LIST) {
                    int pa = zr_nth(p, 0) ? node_pos(g, zr_nth(p, 0)) : -1;
                    int pb = zr_nth(p, 1) ? node_pos(g, zr_nth(p, 1)) : -1;
                    if (pa < 0 || pb < 0)
                        continue;
                    for (int d = 0; d < ZMAX_DIRS; d++) {
                        if (g->link[pa * ZMAX_DIRS + d] == pb)
                            g->link[pa * ZMAX_DIRS + d] = -1;
                        if (g->link[pb * ZMAX_DIRS + d] == pa)
                            g->link[pb * ZMAX_DIRS + d] = -1;
                    }
                } else {
                    int pa = node_pos(g, p);
                    if (pa < 0)
                        continue;
                    for (int q = 0; q < g->npos; q++)
                        for (int d = 0; d < ZMAX_DIRS; d++)
                            if (q == pa || g->link[q * ZMAX_DIRS + d] == pa)
                                g->link[q * ZMAX_DIRS + d] = -1;
                }
            }
        } else if (!strcmp(h, "kill-positions")) {
            for (const ZNode *p = ZREST(k); p; p = p->next) {
                int pa = p->type == ZN_ATOM ? node_pos(g, p) : -1;
                if (pa >= 0)
                    c->killed[pa] = 1;
            }
        }
    }
    /* opposites: the negated vector, else the reverse of every link */
    for (int d = 0; d < g->ndirs && !rc; d++) {
        g->opposite[d] = -1;
        int nz = vecs[d].v[0] || vecs[d].v[1] || vecs[d].v[2] || vecs[d].v[3];
        for (int e = 0; e < g->ndirs && nz; e++)
            if (vecs[e].v[0] == -vecs[d].v[0] &&
                vecs[e].v[1] == -vecs[d].v[1] &&
                vecs[e].v[2] == -vecs[d].v[2] &&
                vecs[e].v[3] == -vecs[d].v[3]) {
                g->opposite[d] = e;
                break;
            }
        if (g->opposite[d] >= 0)
            continue;
        for (int e = 0; e < g->ndirs; e++) {
            int seen = 0, ok = 1;
            for (int p = 0; p < g->npos && ok; p++) {
                int q = g->link[p * ZMAX_DIRS + d];
                if (q >= 0) {
                    seen++;
                    if (g->link[q * ZMAX_DIRS + e] != p)
                        ok = 0;
                }
            }
            if (seen && ok) {
                g->opposite[d] = e;
                break;
            }
        }
    }
    free(vecs);
    if (rc)
        return -1;
    /* symmetry and zones need players and directions */
    for (int p = 0; p < PLY_MAX_PLAYERS; p++)
        for (int d = 0; d < ZMAX_DIRS; d++)
            g->dirmap[p][d] = d;
    for (const ZNode *k = ZREST(board); k; k = k->next) {
        const char *h = zr_head(k);
        if (!h)
            continue;
        if (!strcmp(h, "symmetry")) {
            const ZNode *pn = zr_nth(k, 1);
            int pl = pn ? find_player(g, pn->text) : -1;
            if (pl < 0)
                return cfail(c, k, "symmetry for an unknown player");
            for (const ZNode *m = pn->next; m; m = m->next) {
                int a = find_dir(g, zr_nth(m, 0) ? zr_nth(m, 0)->text : "");
                int b = find_dir(g, zr_nth(m, 1) ? zr_nth(m, 1)->text : "");
                if (a < 0 || b < 0)
                    return cfail(c, m, "symmetry names an unknown direction");
                g->dirmap[pl][a] = b;
            }
        } else if (!strcmp(h, "zone")) {
            const ZNode *name = NULL, *pls = NULL, *poss = NULL;
            for (const ZNode *m = ZREST(k); m; m = m->next) {
                const char *mh = zr_head(m);
                if (mh && !strcmp(mh, "name"))
                    name = zr_nth(m, 1);
                else if (mh && !strcmp(mh, "players"))
                    pls = m;
                else if (mh && !strcmp(mh, "positions"))
                    poss = m;
            }
            if (!name || name->type != ZN_ATOM)
                return cfail(c, k, "zone without a name");
            int z = add_name(c, name, g->zone_name, &g->nzones, ZMAX_ZONES,
                             "zones");
            if (z < 0)
                return -1;
            for (const ZNode *pn = pls ? ZREST(pls) : NULL; pn;
                 pn = pn->next) {
                int pl = find_player(g, pn->text);
                if (pl < 0)
                    return cfail(c, pn, "zone for unknown player '%s'",
                                 pn->orig);
                for (const ZNode *q = poss ? ZREST(poss) : NULL; q;
                     q = q->next) {
                    int pp = node_pos(g, q);
                    if (pp < 0)
                        return cfail(c, q, "zone names unknown position "
                                     "'%s'", q->orig);
                    zone_set(g, z, pl, pp);
                }
            }
        }
    }
    return 0;
}

/* ---- conditions and move code ---- */

static int compile_cond(Cc *c, const ZNode *n);
static int compile_seq(Cc *c, const ZNode *n, const ZNode *stop);

static int parse_loc(Cc *c, const ZNode *n, int *loc)
{
    ZGame *g = c->g;
    if (n->type == ZN_LIST) {
        const char *h = zr_head(n);
        const ZNode *a = zr_nth(n, 1);
        if (h && !strcmp(h, "opposite") && a) {
            int d = find_dir(g, a->text);
            if (d >= 0) {
                *loc = LOC(LOC_OPP, d);
                return 0;
            }
        }
        return -1;
    }
    int d = find_dir(g, n->text);
    if (d >= 0) {
        *loc = LOC(LOC_DIR, d);
        return 0;
    }
    int p = node_pos(g, n);
    if (p >= 0) {
        *loc = LOC(LOC_POS, p);
        return 0;
    }
    static const struct { const char *w; int k; } named[] = {
        {"from", LOC_FROM}, {"to", LOC_TO}, {"last-from", LOC_LASTFROM},
        {"last-to", LOC_LASTTO}, {"mark", LOC_MARK}, {"marked", LOC_MARK},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (!strcmp(n->text, named[i].w)) {
            *loc = LOC(named[i].k, 0);
            return 0;
        }
    return -1;
}

static const struct { const char *w; int op; } preds[] = {
    {"empty?", C_EMPTY}, {"friend?", C_FRIEND}, {"enemy?", C_ENEMY},
    {"neutral?", C_NEUTRAL}, {"piece?", C_PIECE}, {"in-zone?", C_INZONE},
    {"on-board?", C_ONBOARD}, {"position?", C_POSITION},
    {"last-from?", C_LASTFROM}, {"last-to?", C_LASTTO},
    {"marked?", C_MARKED}, {"attacked?", C_ATTACKED},
    {"defended?", C_DEFENDED}, {"flag?", C_FLAG},
    {"position-flag?", C_PFLAG},
};

static int find_attr(const ZGame *g, const char *name)
{
    return FIND(g->attr_name, g->nattrs, name);
}

static int flag_index(Cc *c, const ZNode *n, int pos)
{
    ZGame *g = c->g;
    if (!n || n->type != ZN_ATOM)
        return cfail(c, n, "a flag needs a name");
    return pos ? add_name(c, n, g->pflag_name, &g->npflags, ZMAX_FLAGS,
                          "position flags")
               : add_name(c, n, g->flag_name, &g->nflags, ZMAX_FLAGS,
                          "flags");
}

/* A predicate word with its arguments (after "not-" is taken off). */
static int compile_pred(Cc *c, const ZNode *at, const char *w,
                        const ZNode *args)
{
    ZGame *g = c->g;
    int op = -1;
    for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++)
        if (!strcmp(w, preds[i].w))
            op = preds[i].op;
    if (op == C_ATTACKED || op == C_DEFENDED)
        g->uses_attacked = 1;
    if (op < 0) {
        int a = find_attr(g, w), loc = 0;
        if (a >= 0 && args && (args->next || parse_loc(c, args, &loc)))
            return cfail(c, at, "attribute %s takes one place", w);
        if (a >= 0)
            return new_cond(c, C_ATTR, a, loc);
        note_unsup(c, at, w);
        return new_cond(c, C_FALSE, 0, 0);
    }
    int arg = 0, loc = 0;
    const ZNode *rest = args;
    switch (op) {
    case C_PIECE:
        if (!rest || (arg = find_type(g, rest->text)) < 0)
            return cfail(c, at, "piece? needs a piece type");
        rest = rest->next;
        break;
    case C_INZONE:
        if (!rest || (arg = find_zone(g, rest->text)) < 0)
            return cfail(c, at, "in-zone? needs a zone");
        rest = rest->next;
        break;
    case C_ONBOARD:
        if (!rest)
            return cfail(c, at, "on-board? needs a direction");
        break;
    case C_POSITION:
        if (!rest || (arg = node_pos(g, rest)) < 0)
            return cfail(c, at, "position? needs a position");
        rest = rest->next;
        break;
    case C_FLAG:
    case C_PFLAG:
        if ((arg = flag_index(c, rest, op == C_PFLAG)) < 0)
            return -1;
        rest = rest->next;
        break;
    default:
        break;
    }
    if (rest) {
        if (parse_loc(c, rest, &loc))
            return cfail(c, rest, "'%s' is not a direction or position",
                         rest->type == ZN_LIST ? "(...)" : rest->orig);
        if (rest->next)
            return cfail(c, rest->next, "too many arguments to %s", w);
    }
    return new_cond(c, op, arg, loc);
}

static int compile_cond(Cc *c, const ZNode *n)
{
    if (!n)
        return cfail(c, n, "missing condition");
    if (n->type == ZN_STRING)
        return cfail(c, n, "a string is not a condition");
    const char *w = n->type == ZN_ATOM ? n->text : zr_head(n);
    const ZNode *args = n->type == ZN_LIST ? ZREST(n) : NULL;
    if (!w)
        return cfail(c, n, "bad condition");
    if (!strcmp(w, "true"))
        return new_cond(c, C_TRUE, 0, 0);
    if (!strcmp(w, "false"))
        return new_cond(c, C_FALSE, 0, 0);
    if (!strcmp(w, "not") || !strcmp(w, "and") || !strcmp(w, "or")) {
        int op = w[0] == 'n' ? C_NOT : w[0] == 'a' ? C_AND : C_OR;
        int kids[64], nk = 0;
        for (const ZNode *a = args; a; a = a->next) {
            if (nk == 64)
                return cfail(c, n, "too many operands");
            if ((kids[nk++] = compile_cond(c, a)) < 0)
                return -1;
        }
        if (!nk || (op == C_NOT && nk != 1))
            return cfail(c, n, "bad %s", w);
        int first = c->g->nconds;
        for (int i = 0; i < nk; i++) {
            int k = new_cond(c, C_TRUE, 0, 0);
            if (k < 0)
                return -1;
            c->g->conds[k] = c->g->conds[kids[i]];
        }
        int me = new_cond(c, op, 0, 0);
        if (me < 0)
            return -1;
        c->g->conds[me].kid = first;
        c->g->conds[me].nkids = nk;
        return me;
    }
    if (!strncmp(w, "not-", 4) && find_attr(c->g, w) < 0) {
        int k = compile_pred(c, n, w + 4, args);
        if (k < 0)
            return -1;
        int kid = new_cond(c, C_TRUE, 0, 0);
        if (kid < 0)
            return -1;
        c->g->conds[kid] = c->g->conds[k];
        int me = new_cond(c, C_NOT, 0, 0);
        if (me < 0)
            return -1;
        c->g->conds[me].kid = kid;
        c->g->conds[me].nkids = 1;
        return me;
    }
    return compile_pred(c, n, w, args);
}

static int emit_cond_op(Cc *c, int op, const ZNode *cond)
{
    int k = compile_cond(c, cond);
    if (k < 0)
        return -1;
    return emit(c, op) || emit(c, k) ? -1 : 0;
}

/* Resolves optional (types... [mtype]) of add / add-partial (kind 1),
 * add-copy (2), add-copy-partial (3). */
static int compile_add(Cc *c, const ZNode *n, int kind)
{
    int partial = kind & 1, copy = kind >> 1;
    ZGame *g = c->g;
    int types[32], nt = 0, mt = -2;
    for (const ZNode *a = n->type == ZN_LIST ? ZREST(n) : NULL; a;
         a = a->next) {
        int t = find_type(g, a->text);
        if (t >= 0 && nt < 32) {
            types[nt++] = t;
            continue;
        }
        if (partial && a->type == ZN_ATOM && !a->next) {
            mt = add_mtype(c, a);
            if (mt < 0)
                return -1;
            continue;
        }
        return cfail(c, a, "'%s' is not a piece type", a->type == ZN_ATOM
                     ? a->orig : "(...)");
    }
    if (emit(c, partial ? OP_ADDP : OP_ADD) || emit(c, copy))
        return -1;
    if (partial && emit(c, mt))
        return -1;
    if (emit(c, nt))
        return -1;
    for (int i = 0; i < nt; i++)
        if (emit(c, types[i]))
            return -1;
    return 0;
}

static int compile_instr(Cc *c, const ZNode *n)
{
    ZGame *g = c->g;
    if (n->type == ZN_STRING)
        return cfail(c, n, "a string is not an instruction");
    if (n->type == ZN_ATOM) {
        const char *w = n->text;
        static const struct { const char *w; int op; } simple[] = {
            {"from", OP_FROM}, {"to", OP_TO}, {"cascade", OP_CASCADE},
            {"flip", OP_FLIP}, {"change-owner", OP_CHOWNER},
            {"mark", OP_MARK}, {"back", OP_BACK},
        };
        for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
            if (!strcmp(w, simple[i].w))
                return emit(c, simple[i].op) || emit(c, LOC(LOC_HERE, 0));
        if (!strcmp(w, "add"))
            return compile_add(c, n, 0);
        if (!strcmp(w, "add-partial"))
            return compile_add(c, n, 1);
        if (!strcmp(w, "add-copy"))
            return compile_add(c, n, 2);
        if (!strcmp(w, "add-copy-partial"))
            return compile_add(c, n, 3);
        if (!strcmp(w, "capture"))
            return emit(c, OP_CAPTURE) || emit(c, LOC(LOC_HERE, 0));
        int d = find_dir(g, w);
        if (d >= 0)
            return emit(c, OP_DIR) || emit(c, LOC(LOC_DIR, d));
        int p = node_pos(g, n);
        if (p >= 0)
            return emit(c, OP_POS) || emit(c, p);
        note_unsup(c, n, w);
        return 0;
    }
    const char *h = zr_head(n);
    const ZNode *a1 = zr_nth(n, 1);
    if (!h) {
        /* a nested list of instructions (from a macro body) */
        return compile_seq(c, n->kids, NULL);
    }
    if (!strcmp(h, "verify"))
        return emit_cond_op(c, OP_VERIFY, a1);
    if (!strcmp(h, "if")) {
        const ZNode *els = NULL;
        for (const ZNode *k = a1 ? a1->next : NULL; k; k = k->next)
            if (zr_is(k, "else")) {
                els = k;
                break;
            }
        if (emit_cond_op(c, OP_JF, a1) || emit(c, 0))
            return -1;
        int patch = g->ncode - 1;
        if (compile_seq(c, a1->next, els))
            return -1;
        if (els) {
            if (emit(c, OP_JMP) || emit(c, 0))
                return -1;
            int patch2 = g->ncode - 1;
            g->code[patch] = g->ncode;
            if (compile_seq(c, els->next, NULL))
                return -1;
            g->code[patch2] = g->ncode;
        } else {
            g->code[patch] = g->ncode;
        }
        return 0;
    }
    if (!strcmp(h, "while")) {
        int top = g->ncode;
        if (emit_cond_op(c, OP_JF, a1) || emit(c, 0))
            return -1;
        int patch = g->ncode - 1;
        if (compile_seq(c, a1 ? a1->next : NULL, NULL) || emit(c, OP_JMP) ||
            emit(c, top))
            return -1;
        g->code[patch] = g->ncode;
        return 0;
    }
    if (!strcmp(h, "add"))
        return compile_add(c, n, 0);
    if (!strcmp(h, "add-partial"))
        return compile_add(c, n, 1);
    if (!strcmp(h, "add-copy"))
        return compile_add(c, n, 2);
    if (!strcmp(h, "add-copy-partial"))
        return compile_add(c, n, 3);
    if (!strcmp(h, "opposite")) {
        int d = a1 ? find_dir(g, a1->text) : -1;
        if (d < 0)
            return cfail(c, n, "opposite needs a direction");
        return emit(c, OP_DIR) || emit(c, LOC(LOC_OPP, d));
    }
    if (!strcmp(h, "capture") || !strcmp(h, "flip") ||
        !strcmp(h, "change-owner") || !strcmp(h, "go") ||
        !strcmp(h, "mark") || !strcmp(h, "back") || !strcmp(h, "from") ||
        !strcmp(h, "to") || !strcmp(h, "cascade")) {
        int op = h[0] == 'c' ? (h[1] == 'a' ? (h[2] == 'p' ? OP_CAPTURE
                                                : OP_CASCADE) : OP_CHOWNER)
               : h[0] == 'f' ? (h[1] == 'l' ? OP_FLIP : OP_FROM)
               : h[0] == 'g' ? OP_GO : h[0] == 'm' ? OP_MARK
               : h[0] == 'b' ? OP_BACK : OP_TO;
        int loc = LOC(LOC_HERE, 0);
        if (a1 && parse_loc(c, a1, &loc))
            return cfail(c, a1, "'%s' is not a direction or position",
                         a1->type == ZN_ATOM ? a1->orig : "(...)");
        if (op == OP_GO && !a1)
            return cfail(c, n, "go needs a place");
        return emit(c, op) || emit(c, loc);
    }
    if (!strcmp(h, "change-type")) {
        int t = a1 ? find_type(g, a1->text) : -1;
        int loc = LOC(LOC_HERE, 0);
        if (t < 0)
            return cfail(c, n, "change-type needs a piece type");
        if (a1->next && parse_loc(c, a1->next, &loc))
            return cfail(c, n, "bad place in change-type");
        return emit(c, OP_CHTYPE) || emit(c, t) || emit(c, loc);
    }
    if (!strcmp(h, "create")) {
        int owner = -1, t = -1, loc = LOC(LOC_HERE, 0);
        for (const ZNode *a = a1; a; a = a->next) {
            int x;
            if (owner < 0 && t < 0 && (x = find_player(g, a->text)) >= 0)
                owner = x;
            else if (t < 0 && (x = find_type(g, a->text)) >= 0)
                t = x;
            else if (parse_loc(c, a, &loc))
                return cfail(c, a, "bad create argument");
        }
        if (t < 0)
            return cfail(c, n, "create needs a piece type");
        return emit(c, OP_CREATE) || emit(c, owner) || emit(c, t) ||
               emit(c, loc);
    }
    if (!strcmp(h, "set-flag") || !strcmp(h, "set-position-flag")) {
        int pos = h[4] == 'p';
        int f = flag_index(c, a1, pos);
        if (f < 0)
            return -1;
        int k = compile_cond(c, a1->next);
        if (k < 0)
            return -1;
        return emit(c, pos ? OP_SETPFLAG : OP_SETFLAG) || emit(c, f) ||
               emit(c, k);
    }
    if (!strcmp(h, "set-attribute")) {
        int a = a1 ? find_attr(g, a1->text) : -1;
        if (a < 0)
            return cfail(c, n, "set-attribute names no declared attribute");
        int k = compile_cond(c, a1->next);
        if (k < 0)
            return -1;
        return emit(c, OP_SETATTR) || emit(c, a) || emit(c, k);
    }
    note_unsup(c, n, h);
    return 0;
}

static int compile_seq(Cc *c, const ZNode *n, const ZNode *stop)
{
    for (; n && n != stop; n = n->next)
        if (compile_instr(c, n))
            return -1;
    return 0;
}

static int add_template(Cc *c, const ZNode *body, int ptype, int mtype,
                        int drop)
{
    ZGame *g = c->g;
    if (g->ntmpl == g->captmpl) {
        int cap = g->captmpl ? 2 * g->captmpl : 64;
        if (cap > 65000)
            return cfail(c, body, "too many move templates");
        ZTemplate *p = realloc(g->tmpl, sizeof *p * (size_t)cap);
        if (!p)
            return cfail(c, body, "out of memory");
        g->tmpl = p;
        g->captmpl = cap;
    }
    ZTemplate *t = &g->tmpl[g->ntmpl++];
    t->code = g->ncode;
    t->mtype = mtype;
    t->ptype = ptype;
    t->drop = drop;
    if (compile_seq(c, body->kids, NULL) || emit(c, OP_END))
        return -1;
    return 0;
}

static int compile_moves(Cc *c, const ZNode *moves, int ptype, int drop)
{
    int mtype = -1;
    for (const ZNode *m = ZREST(moves); m; m = m->next) {
        const char *h = zr_head(m);
        if (h && !strcmp(h, "move-type")) {
            const ZNode *a = zr_nth(m, 1);
            if (!a || a->type != ZN_ATOM)
                return cfail(c, m, "move-type needs a name");
            if ((mtype = add_mtype(c, a)) < 0)
                return -1;
            continue;
        }
        if (m->type != ZN_LIST)
            return cfail(c, m, "a move template must be a list");
        if (add_template(c, m, ptype, mtype, drop))
            return -1;
    }
    return 0;
}

/* ---- goals ---- */

static int compile_goal(Cc *c, const ZNode *n)
{
    ZGame *g = c->g;
    const char *w = n->type == ZN_ATOM ? n->text : zr_head(n);
    if (!w)
        return cfail(c, n, "bad goal");
    int k = new_goal(c);
    if (k < 0)
        return -1;
    const ZNode *args = n->type == ZN_LIST ? ZREST(n) : NULL;
#define GL (&g->goals[k])
    if (!strcmp(w, "stalemated")) {
        GL->op = G_STALEMATED;
    } else if (!strcmp(w, "repetition")) {
        GL->op = G_REPETITION;
        g->uses_rep = 1;
    } else if (!strcmp(w, "and") || !strcmp(w, "or") || !strcmp(w, "not")) {
        int kids[32], nk = 0;
        for (const ZNode *a = args; a; a = a->next) {
            if (nk == 32)
                return cfail(c, n, "too many goal operands");
            if ((kids[nk++] = compile_goal(c, a)) < 0)
                return -1;
        }
        int first = g->ngoals;
        for (int i = 0; i < nk; i++) {
            int x = new_goal(c);
            if (x < 0)
                return -1;
            g->goals[x] = g->goals[kids[i]];
        }
        GL->op = w[0] == 'a' ? G_AND : w[0] == 'o' ? G_OR : G_NOT;
        GL->kid = first;
        GL->nkids = nk;
    } else if (!strcmp(w, "pieces-remaining") ||
               !strcmp(w, "total-piece-count") || !strcmp(w, "captured") ||
               !strcmp(w, "checkmated")) {
        GL->op = w[0] == 'p' ? G_PIECES : w[0] == 't' ? G_TOTAL
               : w[1] == 'a' ? G_CAPTURED : G_CHECKMATED;
        const ZNode *a = args;
        if (GL->op == G_PIECES || GL->op == G_TOTAL) {
            if (!a || a->type != ZN_ATOM || !isdigit((unsigned char)
                                                     a->text[0]))
                return cfail(c, n, "%s needs a count", w);
            GL->n = atoi(a->text);
            a = a->next;
        }
        for (; a; a = a->next) {
            const ZNode *list = a->type == ZN_LIST ? a->kids : a;
            for (const ZNode *t = list; t; t = a->type == ZN_LIST ? t->next
                 : NULL) {
                int ty = find_type(g, t->text);
                if (ty < 0)
                    return cfail(c, t, "unknown piece type '%s'", t->orig);
                if (GL->ntypes < 8)
                    GL->types[GL->ntypes++] = ty;
            }
        }
        if (GL->op == G_CAPTURED) {
            GL->n = -1;
            if (g->ncapgoals < ZMAX_CAPGOALS) {
                GL->n = g->ncapgoals;
                g->capgoal[g->ncapgoals++] = k;
            } else {
                note_soft(c, n, "captured (more than 4 such goals)");
            }
        }
        if (GL->op == G_CHECKMATED) {
            if (GL->ntypes != 1)
                return cfail(c, n, "checkmated needs one piece type");
            g->royal_checkmated = GL->types[0];
        }
    } else if (!strcmp(w, "absolute-config")) {
        GL->op = G_ABSCONF;
        for (const ZNode *a = args; a; a = a->next) {
            if (a->type == ZN_LIST) {
                for (const ZNode *p = a->kids; p; p = p->next) {
                    int z = find_zone(g, p->text), q;
                    if (z >= 0)
                        GL->zone = z;
                    else if ((q = node_pos(g, p)) >= 0) {
                        if (GL->npos < 64)
                            GL->pos[GL->npos++] = q;
                    } else {
                        int ty = find_type(g, p->text);
                        if (ty < 0)
                            return cfail(c, p, "unknown position or zone "
                                         "'%s'", p->orig);
                        if (GL->ntypes < 8)
                            GL->types[GL->ntypes++] = ty;
                    }
                }
            } else {
                int ty = find_type(g, a->text);
                if (ty < 0)
                    return cfail(c, a, "unknown piece type '%s'", a->orig);
                if (GL->ntypes < 8)
                    GL->types[GL->ntypes++] = ty;
            }
        }
    } else if (!strcmp(w, "relative-config")) {
        GL->op = G_RELCONF;
        int expect_type = 1;
        for (const ZNode *a = args; a; a = a->next) {
            if (expect_type) {
                int ty = find_type(g, a->text);
                if (ty < 0 || GL->ntypes >= 8)
                    return cfail(c, a, "relative-config: bad piece type");
                GL->types[GL->ntypes++] = ty;
            } else {
                int d = find_dir(g, a->text);
                if (d < 0 || GL->npos >= 8)
                    return cfail(c, a, "relative-config: bad direction");
                GL->pos[GL->npos++] = d;
            }
            expect_type = !expect_type;
        }
    } else {
        note_unsup(c, n, w);
        GL->op = G_TRUE;
        GL->nkids = -1;     /* never true */
    }
#undef GL
    return k;
}

static int compile_end(Cc *c, const ZNode *n, int outcome)
{
    ZGame *g = c->g;
    const ZNode *pl = zr_nth(n, 1), *goal = zr_nth(n, 2);
    if (!pl || !goal)
        return cfail(c, n, "a condition needs players and a goal");
    if (g->nends == 64)
        return cfail(c, n, "too many conditions");
    unsigned set = 0;
    for (const ZNode *p = pl->type == ZN_LIST ? pl->kids : pl; p;
         p = pl->type == ZN_LIST ? p->next : NULL) {
        int x = find_player(g, p->text);
        if (x < 0)
            return cfail(c, p, "unknown player '%s'", p->orig);
        set |= 1u << x;
    }
    int k = compile_goal(c, goal);
    if (k < 0)
        return -1;
    g->conds_end[g->nends++] = (ZCondition){outcome, set, k};
    return 0;
}

/* ---- the whole game ---- */

int zrf_count_variants(const ZReader *r)
{
    int n = 0;
    for (const ZNode *t = r->top; t; t = t->next) {
        const char *h = zr_head(t);
        if (h && !strcmp(h, "variant"))
            n++;
    }
    return n;
}

void zrf_game_free(ZGame *g)
{
    if (!g)
        return;
    zvm_forget(g);
    zcc_detach(g);
    free(g->pos_name);
    free(g->link);
    free(g->opposite);
    free(g->dir_name);
    free(g->zone);
    free(g->code);
    free(g->conds);
    free(g->tmpl);
    free(g->piece_tmpl);
    free(g->piece_ntmpl);
    free(g->goals);
    free(g->setup);
    free(g->reserve0);
    free(g->limited);
    free(g->reach);
    free(g->reach_piece);
    free(g->plink);
    free(g->pre_to);
    free(g->reach_inv);
    free(g);
}

enum { MAX_FORMS = 4096 };

static const char *const ignored[] = {
    "title", "description", "history", "strategy", "notation", "version",
    "music", "image", "start-rectangle", "open", "solution", "translate",
    "default", "help", "animate-captures",
    "allow-flipping", "prevent-flipping", "animate-drops",
    "board-image", "release-sound", "capture-sound", "drop-sound",
    "move-sound", "change-sound", "click-sound", "draw-sound",
    "loss-sound", "win-sound", "opening-sound", "looping-sound",
    NULL,
};

static int is_ignored(const char *h)
{
    for (int i = 0; ignored[i]; i++)
        if (!strcmp(h, ignored[i]))
            return 1;
    size_t l = strlen(h);
    return l > 6 && !strcmp(h + l - 6, "-sound");
}

static int piece_name_eq(const ZNode *a, const ZNode *b)
{
    const ZNode *na = NULL, *nb = NULL;
    for (const ZNode *k = ZREST(a); k; k = k->next)
        if (zr_head(k) && !strcmp(zr_head(k), "name"))
            na = zr_nth(k, 1);
    for (const ZNode *k = ZREST(b); k; k = k->next)
        if (zr_head(k) && !strcmp(zr_head(k), "name"))
            nb = zr_nth(k, 1);
    return na && nb && !strcmp(na->text, nb->text);
}

static int option_value(const ZNode *v)
{
    if (!v)
        return 1;
    const char *t = v->text;
    if (!strcmp(t, "true") || !strcmp(t, "yes") || !strcmp(t, "1"))
        return 1;
    if (!strcmp(t, "forced"))
        return 2;
    return 0;
}

ZGame *zrf_compile(ZReader *r, int variant, PlyError *err,
                   char *unsupported, size_t usz)
{
    Cc cc = {0}, *c = &cc;
    char dummy_unsup[4] = "";
    c->r = r;
    c->err = err;
    c->unsup = unsupported ? unsupported : dummy_unsup;
    c->usz = unsupported ? usz : sizeof dummy_unsup;
    if (unsupported && usz)
        unsupported[0] = 0;
    const ZNode *game = NULL, *var = NULL;
    int vi = 0;
    for (const ZNode *t = r->top; t; t = t->next) {
        const char *h = zr_head(t);
        if (!h)
            continue;
        if (!strcmp(h, "game") && !game)
            game = t;
        else if (!strcmp(h, "variant") && ++vi == variant)
            var = t;
    }
    if (!game) {
        ply_fail(err, "%s: no (game ...) form", r->files[0]);
        return NULL;
    }
    if (variant < 0 || (variant > 0 && !var)) {
        ply_fail(err, "%s: no variant %d (the file has %d)", r->files[0],
                 variant, vi);
        return NULL;
    }
    const ZNode **forms = malloc(sizeof *forms * MAX_FORMS);
    ZGame *g = calloc(1, sizeof *g);
    c->g = g;
    int nf = 0;
    if (!forms || !g)
        goto oom;
    g->royal_checkmated = -1;
    for (const ZNode *k = ZREST(game); k; k = k->next) {
        if (nf == MAX_FORMS) {
            cfail(c, k, "too many forms");
            goto fail;
        }
        forms[nf++] = k;
    }
    if (var)
        for (const ZNode *k = ZREST(var); k; k = k->next) {
            const char *h = zr_head(k);
            if (!h || !strcmp(h, "title") || !strcmp(h, "description") ||
                !strcmp(h, "default"))
                continue;
            int j = 0;
            for (int i = 0; i < nf; i++) {
                const char *hi = zr_head(forms[i]);
                int same = hi && !strcmp(hi, h);
                if (same && !strcmp(h, "piece"))
                    same = piece_name_eq(forms[i], k);
                if (same && !strcmp(h, "option"))
                    same = zr_nth(forms[i], 1) && zr_nth(k, 1) &&
                           !strcmp(zr_nth(forms[i], 1)->text,
                                   zr_nth(k, 1)->text);
                if (!same)
                    forms[j++] = forms[i];
            }
            nf = j;
        }
    if (var) {
        int seen_heads = 0;
        for (const ZNode *k = ZREST(var); k; k = k->next) {
            const char *h = zr_head(k);
            if (!h || !strcmp(h, "default") || !strcmp(h, "description"))
                continue;
            if (nf == MAX_FORMS) {
                cfail(c, k, "too many forms");
                goto fail;
            }
            forms[nf++] = k;
            seen_heads++;
        }
    }
    /* title */
    snprintf(g->title, sizeof g->title, "%s", "ZRF game");
    for (int i = 0; i < nf; i++)
        if (zr_head(forms[i]) && !strcmp(zr_head(forms[i]), "title") &&
            zr_nth(forms[i], 1) && zr_nth(forms[i], 1)->orig[0] &&
            strcmp(zr_nth(forms[i], 1)->orig, "-"))
            snprintf(g->title, sizeof g->title, "%s",
                     zr_nth(forms[i], 1)->orig);
    /* players */
    const ZNode *board = NULL, *players = NULL;
    for (int i = 0; i < nf; i++) {
        const char *h = zr_head(forms[i]);
        if (h && !strcmp(h, "players")) {
            if (players) {
                /* (a variant's players replace the game's above) */
                cfail(c, forms[i], "players given twice");
                goto fail;
            }
            players = forms[i];
            for (const ZNode *p = ZREST(forms[i]); p; p = p->next) {
                if (g->nplayers == PLY_MAX_PLAYERS) {
                    cfail(c, p, "more than %d players", PLY_MAX_PLAYERS);
                    goto fail;
                }
                g->seat[g->nplayers] = (int8_t)(p->orig[0] == '?'
                                                ? -1 : g->nseats);
                if (p->orig[0] != '?')
                    g->zplayer[g->nseats++] = (int8_t)g->nplayers;
                snprintf(g->player_names[g->nplayers++], 32, "%s", p->orig);
            }
        } else if (h && !strcmp(h, "board") && !board) {
            board = forms[i];
        }
    }
    if (!g->nseats) {
        cfail(c, game, g->nplayers ? "every player is a random player"
                                   : "no players");
        goto fail;
    }
    if (!board) {
        cfail(c, game, "no board");
        goto fail;
    }
    g->pos_name = calloc(ZMAX_POS, sizeof *g->pos_name);
    g->link = malloc(sizeof *g->link * ZMAX_POS * ZMAX_DIRS);
    g->opposite = calloc(ZMAX_DIRS, sizeof *g->opposite);
    g->dir_name = calloc(ZMAX_DIRS, sizeof *g->dir_name);
    g->zone = calloc((size_t)ZMAX_ZONES * (size_t)g->nplayers * ZMAX_POS, 1);
    c->killed = calloc(ZMAX_POS, 1);
    if (!g->pos_name || !g->link || !g->opposite || !g->dir_name ||
        !g->zone || !c->killed)
        goto oom;
    if (build_board(c, board))
        goto fail;
    /* kill-positions: drop killed cells (links into them vanish) */
    {
        int map[ZMAX_POS], n = 0;
        for (int p = 0; p < g->npos; p++)
            map[p] = c->killed[p] ? -1 : n++;
        if (n < g->npos) {
            for (int p = 0; p < g->npos; p++) {
                if (map[p] < 0)
                    continue;
                int q = map[p];
                memmove(g->pos_name[q], g->pos_name[p], sizeof g->pos_name[0]);
                for (int d = 0; d < ZMAX_DIRS; d++) {
                    int t = g->link[p * ZMAX_DIRS + d];
                    g->link[q * ZMAX_DIRS + d] =
                        (int16_t)(t >= 0 ? map[t] : -1);
                }
                for (int z = 0; z < g->nzones * g->nplayers; z++)
                    g->zone[(size_t)z * ZMAX_POS + (size_t)q] =
                        g->zone[(size_t)z * ZMAX_POS + (size_t)p];
            }
            g->npos = n;
        }
    }
    if (!g->npos) {
        cfail(c, board, "the board has no positions");
        goto fail;
    }
    /* piece types and attributes first, so templates may name any type */
    for (int i = 0; i < nf; i++) {
        const char *h = zr_head(forms[i]);
        if (!h || strcmp(h, "piece"))
            continue;
        const ZNode *name = NULL;
        for (const ZNode *k = ZREST(forms[i]); k; k = k->next) {
            const char *kh = zr_head(k);
            if (kh && !strcmp(kh, "name"))
                name = zr_nth(k, 1);
            if (kh && !strcmp(kh, "attribute")) {
                const ZNode *an = zr_nth(k, 1);
                if (!an) {
                    cfail(c, k, "attribute needs a name");
                    goto fail;
                }
                int a = find_attr(g, an->text);
                if (a < 0) {
                    if (g->nattrs == ZMAX_ATTRS) {
                        cfail(c, k, "more than %d attributes", ZMAX_ATTRS);
                        goto fail;
                    }
                    a = g->nattrs++;
                    snprintf(g->attr_name[a], 32, "%s", an->text);
                    g->attr_default[a] = option_value(an->next) == 1;
                }
            }
        }
        if (!name || name->type != ZN_ATOM) {
            cfail(c, forms[i], "piece without a name");
            goto fail;
        }
        if (find_type(g, name->text) >= 0) {
            cfail(c, name, "piece '%s' defined twice", name->orig);
            goto fail;
        }
        if (g->ntypes == ZMAX_TYPES) {
            cfail(c, name, "more than %d piece types", ZMAX_TYPES);
            goto fail;
        }
        snprintf(g->type_name[g->ntypes], 32, "%s", name->orig);
        g->ntypes++;
    }
    if (!g->ntypes) {
        cfail(c, game, "no pieces");
        goto fail;
    }
    g->piece_tmpl = calloc((size_t)g->ntypes * 2, sizeof *g->piece_tmpl);
    g->piece_ntmpl = calloc((size_t)g->ntypes * 2, sizeof *g->piece_ntmpl);
    g->setup = calloc((size_t)g->npos, sizeof *g->setup);
    g->reserve0 = calloc((size_t)g->nplayers * (size_t)g->ntypes,
                         sizeof *g->reserve0);
    g->limited = calloc((size_t)g->nplayers * (size_t)g->ntypes, 1);
    if (!g->piece_tmpl || !g->piece_ntmpl || !g->setup || !g->reserve0 ||
        !g->limited)
        goto oom;
    /* move-priorities first so their types get low indices */
    for (int i = 0; i < nf; i++) {
        const char *h = zr_head(forms[i]);
        if (h && !strcmp(h, "move-priorities")) {
            g->nprio = 0;
            for (const ZNode *k = ZREST(forms[i]); k; k = k->next) {
                int m = add_mtype(c, k);
                if (m < 0)
                    goto fail;
                if (g->nprio < ZMAX_MTYPES)
                    g->prio[g->nprio++] = m;
            }
        }
    }
    /* templates: per type, moves then drops */
    for (int t = 0; t < g->ntypes; t++) {
        for (int drop = 0; drop < 2; drop++) {
            g->piece_tmpl[t * 2 + drop] = g->ntmpl;
            for (int i = 0; i < nf; i++) {
                const char *h = zr_head(forms[i]);
                if (!h || strcmp(h, "piece"))
                    continue;
                const ZNode *name = NULL;
                for (const ZNode *k = ZREST(forms[i]); k; k = k->next)
                    if (zr_head(k) && !strcmp(zr_head(k), "name"))
                        name = zr_nth(k, 1);
                if (!name || find_type(g, name->text) != t)
                    continue;
                for (const ZNode *k = ZREST(forms[i]); k; k = k->next) {
                    const char *kh = zr_head(k);
                    if (kh && !strcmp(kh, drop ? "drops" : "moves") &&
                        compile_moves(c, k, t, drop))
                        goto fail;
                }
            }
            g->piece_ntmpl[t * 2 + drop] = g->ntmpl -
                                           g->piece_tmpl[t * 2 + drop];
            if (drop && g->piece_ntmpl[t * 2 + 1])
                g->has_drops = 1;
        }
    }
    /* everything else */
    for (int i = 0; i < nf; i++) {
        const ZNode *f = forms[i];
        const char *h = zr_head(f);
        if (!h) {
            if (f->type == ZN_ATOM && f == game->kids)
                continue;
            continue;
        }
        if (!strcmp(h, "players") || !strcmp(h, "board") ||
            !strcmp(h, "piece") || !strcmp(h, "move-priorities") ||
            is_ignored(h))
            continue;
        if (!strcmp(h, "count-condition")) {
            if (compile_end(c, f, OUT_COUNT))
                goto fail;
        } else if (!strcmp(h, "engine")) {
            note_soft(c, f, "engine (Axiom rules; the file's ZRF moves "
                      "are used)");
        } else if (!strcmp(h, "turn-order")) {
            g->nturns = 0;
            g->repeat_at = 0;
            for (const ZNode *k = ZREST(f); k; k = k->next) {
                if (zr_is(k, "repeat")) {
                    g->repeat_at = g->nturns;
                    continue;
                }
                if (g->nturns == ZMAX_TURNS) {
                    cfail(c, k, "turn-order longer than %d", ZMAX_TURNS);
                    goto fail;
                }
                ZTurn tu = {-1, -1, -1};
                const ZNode *pn = k->type == ZN_LIST ? k->kids : k;
                tu.player = pn ? find_player(g, pn->text) : -1;
                if (tu.player < 0) {
                    cfail(c, k, "turn-order names an unknown player");
                    goto fail;
                }
                tu.owner = tu.player;
                if (k->type == ZN_LIST) {
                    /* (Player type), (Mover Owner) or (Mover Owner type) */
                    const ZNode *last = pn;
                    while (last->next)
                        last = last->next;
                    if (last != pn) {
                        if (pn->next == last &&
                            find_player(g, last->text) >= 0)
                            tu.owner = find_player(g, last->text);
                        else if ((tu.mtype = add_mtype(c, last)) < 0)
                            goto fail;
                        if (pn->next != last) {
                            tu.owner = find_player(g, pn->next->text);
                            if (tu.owner < 0 || pn->next->next != last) {
                                cfail(c, k, "turn-order: expected (Mover "
                                      "Owner move-type)");
                                goto fail;
                            }
                        }
                    }
                }
                g->turns[g->nturns++] = tu;
            }
        } else if (!strcmp(h, "board-setup")) {
            memset(g->setup, 0, sizeof *g->setup * (size_t)g->npos);
            memset(g->reserve0, 0, sizeof *g->reserve0 *
                   (size_t)g->nplayers * (size_t)g->ntypes);
            memset(g->limited, 0, (size_t)g->nplayers * (size_t)g->ntypes);
            for (const ZNode *pl = ZREST(f); pl; pl = pl->next) {
                int p = pl->type == ZN_LIST ? find_player(g, ZFIRST(pl))
                                            : -1;
                if (p < 0) {
                    cfail(c, pl, "board-setup for an unknown player");
                    goto fail;
                }
                for (const ZNode *tl = ZREST(pl); tl; tl = tl->next) {
                    int t = tl->type == ZN_LIST ? find_type(g, ZFIRST(tl))
                                                : -1;
                    if (t < 0) {
                        cfail(c, tl, "board-setup names an unknown piece");
                        goto fail;
                    }
                    for (const ZNode *q = ZREST(tl); q; q = q->next) {
                        if (zr_is(q, "off")) {
                            int cnt = q->next ? atoi(q->next->text) : 0;
                            if (cnt < 0 || cnt > 10000) {
                                cfail(c, q, "bad off-board count");
                                goto fail;
                            }
                            g->reserve0[p * g->ntypes + t] = (uint16_t)cnt;
                            /* an off count for anyone limits everyone's
                             * drops of that type to their reserves */
                            for (int o = 0; o < g->nplayers; o++)
                                g->limited[o * g->ntypes + t] = 1;
                            if (q->next)
                                q = q->next;
                            continue;
                        }
                        int pos = node_pos(g, q);
                        if (pos < 0) {
                            cfail(c, q, "board-setup names unknown position "
                                  "'%s'", q->orig);
                            goto fail;
                        }
                        uint16_t v = ZP_MAKE(t, p);
                        for (int a = 0; a < g->nattrs; a++)
                            if (g->attr_default[a])
                                v |= (uint16_t)(1u << (12 + a));
                        g->setup[pos] = v;
                    }
                }
            }
        } else if (!strcmp(h, "option") || !strcmp(h, "pass-turn") ||
                   !strcmp(h, "pass-partial") ||
                   !strcmp(h, "recycle-captures")) {
            const char *name;
            const ZNode *v;
            char buf[64];
            if (!strcmp(h, "option")) {
                const ZNode *nn = zr_nth(f, 1);
                name = nn ? nn->text : "";
                v = zr_nth(f, 2);
            } else {
                snprintf(buf, sizeof buf, "%s", h);
                for (char *p = buf; *p; p++)
                    if (*p == '-')
                        *p = ' ';
                name = buf;
                v = zr_nth(f, 1);
            }
            char lname[64];
            snprintf(lname, sizeof lname, "%s", name);
            for (char *p = lname; *p; p++)
                *p = *p == '-' ? ' ' : (char)tolower((unsigned char)*p);
            int val = option_value(v);
            if (!strcmp(lname, "pass turn"))
                g->pass_turn = val;
            else if (!strcmp(lname, "pass partial"))
                g->pass_partial = val != 0;
            else if (!strcmp(lname, "recycle captures")) {
                g->recycle = val != 0;
            } else if (!strcmp(lname, "maximal captures")) {
                g->maximal = val != 0;
            }
        } else if (!strcmp(h, "win-condition") ||
                   !strcmp(h, "loss-condition") ||
                   !strcmp(h, "draw-condition")) {
            if (compile_end(c, f, h[0] == 'w' ? OUT_WIN : h[0] == 'l'
                            ? OUT_LOSS : OUT_DRAW))
                goto fail;
        } else {
            note_unsup(c, f, h);
        }
    }
    if (!g->nturns) {
        for (int p = 0; p < g->nplayers; p++)
            g->turns[p] = (ZTurn){p, -1, p};
        g->nturns = g->nplayers;
    }
    if (c->failed)
        goto fail;
    if (c->nunsup) {
        ply_fail(err, "unsupported words: %.200s", c->unsup);
        goto fail;
    }
    g->state_size = sizeof(ZState) + sizeof(uint16_t) *
                    ((size_t)g->npos + (size_t)g->nplayers *
                     (size_t)g->ntypes);
    g->state_size = (g->state_size + 7) & ~(size_t)7;
    if (g->uses_rep) {
        g->hist_off = g->state_size;
        g->state_size += sizeof(uint64_t) * ZREP_HIST;
    }
    g->occ_words = (g->npos + 63) / 64;
    g->occ_off = g->state_size;
    g->state_size += sizeof(uint64_t) * (size_t)g->occ_words *
                     (size_t)g->nplayers * (g->royal_checkmated >= 0 ? 2 : 1);
    g->max_moves = ZMAX_MOVES;
    for (int t = 0; t < g->ntypes; t++)
        g->type_value[t] = 100;
    if (g->royal_checkmated >= 0 || g->uses_attacked)
        zvm_build_reach(g);
    if (zvm_prepare(g))
        goto oom;
    free(c->killed);
    free(forms);
    return g;
oom:
    cfail(c, NULL, "out of memory");
fail:
    free(c->killed);
    free(forms);
    zrf_game_free(g);
    return NULL;
}
