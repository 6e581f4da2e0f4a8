/* minesweeper.h — what the tests reach of the minesweeper solver. */
#ifndef PLY_GAMES_MINESWEEPER_H
#define PLY_GAMES_MINESWEEPER_H

enum { MINESWEEPER_MAX_CELLS = 30 * 24 };

/* The probability of a mine in every cell of a minesweeper view (or true
 * state, whose mines are not read), from the open numbers and the mine
 * count: prob[row * width + col]; open cells 0. Returns 0 (exact), 1
 * (a component too large to enumerate, estimated), -1 (no layout fits the
 * view, or out of memory). */
int minesweeper_probabilities(const void *view, double *prob);

#endif
