/* fuzz_text.c — every game's setup-string parser. Input: a game byte,
 * then the text. from_text must reject garbage with an error, never
 * crash; an accepted setup must round-trip through to_text and have a
 * sane move list. */
#include "fuzz.h"

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    char *text = fuzz_rest(in);
    void *st = state_alloc(g), *st2 = state_alloc(g);
    PlyError err = {{0}};
    if (!st || !st2 || state_setup(g, st, NULL, NULL, 1, &err))
        abort();
    if (g->from_text(st, text, &err) == 0) {
        static char a[1 << 16], b[1 << 16];
        if (g->to_text(st, a, sizeof a) < 0)
            abort();
        if (state_setup(g, st2, NULL, a, 1, &err))
            abort();    /* to_text wrote what from_text rejects */
        if (g->to_text(st2, b, sizeof b) < 0 || strcmp(a, b))
            abort();
        if (g->to_move(st) != PLAYER_TERMINAL) {
            Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
            int n = g->gen_moves(st, mv);
            if (n < 0 || n > g->info.max_moves)
                abort();
            free(mv);
        }
    }
    free(st);
    free(st2);
    free(text);
}

/* Each game's start setup and one from a few random plies in. */
static void fuzz_seeds(FuzzSeeds *s)
{
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        void *st = state_alloc(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        static char text[1 << 16];
        PlyError err = {{0}};
        uint8_t head = (uint8_t)gi;
        for (int plies = 0; plies <= 20; plies += 10) {
            if (state_setup(g, st, NULL, NULL, 1, &err))
                abort();
            fuzz_random_play(g, st, 7 + (uint64_t)plies, plies, mv);
            if (g->to_text(st, text, sizeof text) >= 0)
                fuzz_seedf(s, &head, 1, "%s", text);
        }
        free(mv);
        free(st);
    }
}
