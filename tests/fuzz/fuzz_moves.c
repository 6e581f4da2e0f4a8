/* fuzz_moves.c — move notation in the middle of every game. Input: a game
 * byte, an 8-byte seed, a ply count byte, then the text. The position is
 * reached by that many seeded random plies from the start (so drops,
 * promotions, multi-jump captures and chance nodes come up); there:
 * - every legal move round-trips: move_to_text, then text_to_move gives
 *   the same move back;
 * - the fuzzed text is rejected with an error, or is a legal move whose
 *   own text parses back to it. */
#include "fuzz.h"

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    uint64_t seed = fuzz_u64(in);
    int plies = (int)fuzz_byte(in);
    char *text = fuzz_rest(in);
    void *st = state_alloc(g);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    PlyError err = {{0}};
    if (!st || !mv || state_setup(g, st, NULL, NULL, seed, &err))
        abort();
    fuzz_random_play(g, st, seed, plies, mv);
    if (g->to_move(st) != PLAYER_TERMINAL) {
        char buf[256];
        int n = g->gen_moves(st, mv);
        for (int i = 0; i < n; i++) {
            Move back;
            if (g->move_to_text(st, mv[i], buf, sizeof buf) < 0 ||
                g->text_to_move(st, buf, &back, &err) || back != mv[i])
                abort();    /* a legal move does not round-trip */
        }
        Move m;
        if (g->text_to_move(st, text, &m, &err) == 0) {
            Move back;
            if (!state_is_legal(g, st, m))
                abort();    /* accepted an illegal move */
            if (g->move_to_text(st, m, buf, sizeof buf) < 0 ||
                g->text_to_move(st, buf, &back, &err) || back != m)
                abort();
        } else if (!err.msg[0]) {
            abort();        /* rejected without saying why */
        }
    }
    free(mv);
    free(st);
    free(text);
}

/* Per game, positions 0 to 120 plies in, from three seeds; the texts of
 * the first, a middle and the last legal move there (drops and
 * promotions tend to come last). */
static void fuzz_seeds(FuzzSeeds *s)
{
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        void *st = state_alloc(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        PlyError err = {{0}};
        for (uint64_t seed = 1; seed <= 3; seed++)
            for (int plies = 0; plies <= 120; plies += 40) {
                if (state_setup(g, st, NULL, NULL, seed, &err))
                    abort();
                fuzz_random_play(g, st, seed, plies, mv);
                if (g->to_move(st) == PLAYER_TERMINAL)
                    continue;
                int n = g->gen_moves(st, mv);
                int pick[3] = {0, n / 2, n - 1};
                uint8_t head[10];
                head[0] = (uint8_t)gi;
                fuzz_put_u64(head + 1, seed);
                head[9] = (uint8_t)plies;
                for (int k = 0; k < 3; k++) {
                    char buf[256];
                    if (g->move_to_text(st, mv[pick[k]], buf, sizeof buf) < 0)
                        abort();
                    fuzz_seedf(s, head, sizeof head, "%s", buf);
                }
            }
        free(mv);
        free(st);
    }
}
