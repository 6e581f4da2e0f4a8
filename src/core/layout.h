/* layout.h — helpers for the layout hook (game.h: Layout, MoveCells):
 * building a layout, and locating a move on it by the cell names its
 * notation contains. Used by games (to fill a layout) and by front ends
 * (the web server). */
#ifndef PLY_LAYOUT_H
#define PLY_LAYOUT_H

#include "game.h"

/* Appends a cell (NULL when the layout is full); name may be NULL. */
LayoutCell *layout_cell(Layout *l, float x, float y, int shape, int shade,
                        const char *name);
/* Appends a line segment (ignored when full). */
void layout_line(Layout *l, float x1, float y1, float x2, float y2);
/* The index of the cell named name, or -1. */
int layout_find(const Layout *l, const char *name);
/* The cells of legal move m at st: g->move_cells when the game has it,
 * else from its notation: at each place the longest cell name found
 * there is the next cell ('-', 'x', ':' between names are skipped);
 * text before the first cell is the dropped piece, text after the last
 * the choice. A move whose text names no cell gets n = 0. 0, or -1 when
 * the text cannot be written. */
int layout_move_cells(const GameVtbl *g, const void *st, const Layout *l,
                      Move m, MoveCells *out);
/* A hash index of a layout's cell names, so locating many moves costs
 * no scan of the cells per move (go: 361 cells, 362 moves). */
enum { LAYOUT_INDEX_SLOTS = 4096 };
typedef struct LayoutIndex {
    const Layout *l;
    int nlens;
    int lens[12];                   /* name lengths present, longest first */
    int16_t slot[LAYOUT_INDEX_SLOTS];   /* cell + 1, 0 empty */
} LayoutIndex;
void layout_index(const Layout *l, LayoutIndex *ix);
/* layout_move_cells() with an index of l built by layout_index(). */
int layout_move_cells_ix(const GameVtbl *g, const void *st,
                         const LayoutIndex *ix, Move m, MoveCells *out);
/* Names used by the text matcher: the shade and shape names of the API. */
const char *layout_shape_name(int shape);
const char *layout_shade_name(int shade);

#endif
