/* playthrough.h — golden playthroughs (`ply playthrough`, tests/golden):
 * one seeded random game of a game, written as a transcript of its
 * metadata, every ply's setup string, legal move count, mover and move,
 * and the returns at the end. The same game, options, seed and ply cap
 * give the same bytes on every machine, so a diff against the stored
 * transcript shows any change in move generation, move order, notation,
 * setup strings or results. */
#ifndef PLY_PLAYTHROUGH_H
#define PLY_PLAYTHROUGH_H

#include <stdint.h>
#include <stdio.h>

#include "../core/game.h"

enum {
    PLAYTHROUGH_PLIES = 200,        /* default cap on the plies played */
    PLAYTHROUGH_MAX_PLIES = 100000,
};

/* Plays the game from its start (init with options and seed), each move
 * drawn uniformly from gen_moves() by the core Rng seeded with seed, each
 * chance outcome by its probability, until the game ends or max_plies
 * plies were played, and writes the transcript to out. Returns 0, or -1
 * with err set (bad options, a setup string or move that has no text). */
int playthrough_write(const GameVtbl *g, const char *options, uint64_t seed,
                      int max_plies, FILE *out, PlyError *err);

#endif
