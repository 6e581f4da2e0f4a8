/* layout.c — building layouts and locating moves on them (layout.h). */
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LayoutCell *layout_cell(Layout *l, float x, float y, int shape, int shade,
                        const char *name)
{
    if (l->ncells >= LAYOUT_MAX_CELLS)
        return NULL;
    LayoutCell *c = &l->cells[l->ncells++];
    memset(c, 0, sizeof *c);
    c->x = x;
    c->y = y;
    c->shape = (uint8_t)shape;
    c->shade = (uint8_t)shade;
    c->owner = -1;
    if (name)
        snprintf(c->name, sizeof c->name, "%s", name);
    return c;
}

void layout_line(Layout *l, float x1, float y1, float x2, float y2)
{
    if (l->nlines >= LAYOUT_MAX_LINES)
        return;
    float *p = l->lines[l->nlines++];
    p[0] = x1;
    p[1] = y1;
    p[2] = x2;
    p[3] = y2;
}

int layout_find(const Layout *l, const char *name)
{
    for (int i = 0; i < l->ncells; i++)
        if (l->cells[i].name[0] && !strcmp(l->cells[i].name, name))
            return i;
    return -1;
}

static unsigned name_hash(const char *s, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void layout_index(const Layout *l, LayoutIndex *ix)
{
    memset(ix, 0, sizeof *ix);
    ix->l = l;
    int seen[sizeof l->cells[0].name] = {0};
    for (int i = 0; i < l->ncells; i++) {
        const char *nm = l->cells[i].name;
        int n = (int)strnlen(nm, sizeof l->cells[i].name);
        if (!n || n >= (int)sizeof l->cells[i].name)
            continue;
        seen[n] = 1;
        unsigned h = name_hash(nm, n) & (LAYOUT_INDEX_SLOTS - 1);
        while (ix->slot[h])
            h = (h + 1) & (LAYOUT_INDEX_SLOTS - 1);
        ix->slot[h] = (int16_t)(i + 1);
    }
    for (int n = (int)sizeof seen / (int)sizeof *seen - 1; n > 0; n--)
        if (seen[n])
            ix->lens[ix->nlens++] = n;
}

/* The longest cell name at the start of s: its index and length (the
 * first cell of that name). */
static int match_at(const LayoutIndex *ix, const char *s, int *len)
{
    size_t avail = strlen(s);
    for (int k = 0; k < ix->nlens; k++) {
        int n = ix->lens[k];
        if ((size_t)n > avail)
            continue;
        unsigned h = name_hash(s, n) & (LAYOUT_INDEX_SLOTS - 1);
        int best = -1;
        for (; ix->slot[h]; h = (h + 1) & (LAYOUT_INDEX_SLOTS - 1)) {
            int c = ix->slot[h] - 1;
            const char *nm = ix->l->cells[c].name;
            if (!strncmp(nm, s, (size_t)n) && nm[n] == 0 &&
                (best < 0 || c < best))
                best = c;
        }
        if (best >= 0) {
            *len = n;
            return best;
        }
    }
    *len = 0;
    return -1;
}

int layout_move_cells(const GameVtbl *g, const void *st, const Layout *l,
                      Move m, MoveCells *out)
{
    if (g->move_cells) {
        memset(out, 0, sizeof *out);
        return g->move_cells(st, l, m, out);
    }
    LayoutIndex *ix = malloc(sizeof *ix);
    if (!ix)
        return -1;
    layout_index(l, ix);
    int r = layout_move_cells_ix(g, st, ix, m, out);
    free(ix);
    return r;
}

int layout_move_cells_ix(const GameVtbl *g, const void *st,
                         const LayoutIndex *ix, Move m, MoveCells *out)
{
    memset(out, 0, sizeof *out);
    if (g->move_cells)
        return g->move_cells(st, ix->l, m, out);
    char text[128];
    if (g->move_to_text(st, m, text, sizeof text) < 0)
        return -1;
    size_t nd = 0, nc = 0;
    for (const char *p = text; *p;) {
        int len;
        int c = match_at(ix, p, &len);
        if (c >= 0) {
            if (out->n < MOVE_MAX_CELLS)
                out->cells[out->n++] = c;
            nc = 0;
            out->choice[0] = 0;
            p += len;
            continue;
        }
        if (out->n > 0 && nc == 0 && strchr("-x:", *p)) {
            p++;
            continue;
        }
        if (out->n == 0) {
            if (nd + 1 < sizeof out->drop) {
                out->drop[nd++] = *p;
                out->drop[nd] = 0;
            }
        } else if (nc + 1 < sizeof out->choice) {
            out->choice[nc++] = *p;
            out->choice[nc] = 0;
        }
        p++;
    }
    if (out->n == 0)
        out->drop[0] = out->choice[0] = 0;
    return 0;
}

const char *layout_shape_name(int shape)
{
    static const char *const names[] = {
        "square", "point", "hex", "pit", "store", "hand", "edge", "tile"};
    return shape >= 0 && shape < (int)(sizeof names / sizeof *names)
           ? names[shape] : "square";
}

const char *layout_shade_name(int shade)
{
    static const char *const names[] = {
        "", "light", "dark", "special", "wall", "mine", "tavern"};
    return shade > 0 && shade < (int)(sizeof names / sizeof *names)
           ? names[shade] : NULL;
}
