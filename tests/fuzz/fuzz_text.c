/* fuzz_text.c — libFuzzer target for every game's text parsers. The first
 * input byte picks the game, the second the parser (from_text or
 * text_to_move on the start position); the rest is the text. Parsers must
 * reject garbage with an error, never crash; accepted setup strings must
 * round-trip. PLY_FUZZ_GAME=name restricts the run to one game. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/setup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int ngames = 0;
    while (ply_games[ngames])
        ngames++;
    const GameVtbl *g = ply_games[data[0] % ngames];
    const char *only = getenv("PLY_FUZZ_GAME");
    if (only && (g = game_find(only)) == NULL)
        abort();
    char *text = malloc(size - 1);
    memcpy(text, data + 2, size - 2);
    text[size - 2] = 0;
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (state_setup(g, st, NULL, NULL, 1, &err))
        abort();
    if (data[1] & 1) {
        Move m;
        if (g->to_move(st) != PLAYER_TERMINAL &&
            g->text_to_move(st, text, &m, &err) == 0 &&
            !state_is_legal(g, st, m))
            abort();   /* accepted an illegal move */
    } else if (g->from_text(st, text, &err) == 0) {
        char a[1 << 14], b[1 << 14];
        if (g->to_text(st, a, sizeof a) < 0)
            abort();
        void *st2 = state_alloc(g);
        if (state_setup(g, st2, NULL, a, 1, &err))
            abort();   /* to_text wrote what from_text rejects */
        if (g->to_text(st2, b, sizeof b) < 0 || strcmp(a, b))
            abort();
        if (g->to_move(st) != PLAYER_TERMINAL) {
            Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
            int n = g->gen_moves(st, mv);
            if (n < 0 || n > g->info.max_moves)
                abort();
            free(mv);
        }
        free(st2);
    }
    free(st);
    free(text);
    return 0;
}
