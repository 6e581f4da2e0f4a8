/* perft.c — recursive leaf counting with buffers allocated once. */
#include <stdlib.h>
#include <string.h>

#include "perft.h"

typedef struct PerftCtx {
    const GameVtbl *g;
    unsigned char *states;  /* one state per ply */
    Move *moves;            /* max_moves per ply */
    int terminal_is_leaf;
} PerftCtx;

static uint64_t perft_rec(PerftCtx *c, const void *st, int depth, int ply)
{
    const GameVtbl *g = c->g;
    if (g->to_move(st) == PLAYER_TERMINAL)
        return c->terminal_is_leaf ? 1 : 0;
    Move *moves = c->moves + (size_t)ply * (size_t)g->info.max_moves;
    int n = g->gen_moves(st, moves);
    if (depth == 1)
        return (uint64_t)n;
    size_t sz = g->info.state_size;
    void *child = c->states + (size_t)ply * sz;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        memcpy(child, st, sz);
        g->make(child, moves[i]);
        total += perft_rec(c, child, depth - 1, ply + 1);
    }
    return total;
}

uint64_t perft(const GameVtbl *g, const void *st, int depth,
               int terminal_is_leaf)
{
    if (depth <= 0)
        return 1;
    PerftCtx c = {g, NULL, NULL, terminal_is_leaf};
    c.states = malloc(g->info.state_size * (size_t)depth);
    c.moves = malloc(sizeof(Move) * (size_t)g->info.max_moves *
                     (size_t)depth);
    uint64_t r = 0;
    if (c.states && c.moves)
        r = perft_rec(&c, st, depth, 0);
    free(c.states);
    free(c.moves);
    return r;
}
