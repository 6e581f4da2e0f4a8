/* perft.h — counting move sequences, the move generator's check. */
#ifndef PLY_PERFT_H
#define PLY_PERFT_H

#include <stdint.h>

#include "../core/game.h"

/* Leaves `depth` plies below st. A game-over position above the last ply
 * counts 0, as in the chess and draughts oracles, or 1 when
 * terminal_is_leaf is set (Bik's Reversi convention for "higher leaves").
 * Chance outcomes count as plies like any move. */
uint64_t perft(const GameVtbl *g, const void *st, int depth,
               int terminal_is_leaf);

#endif
