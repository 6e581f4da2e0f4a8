/* random.c — the uniform random bot: a legal move, each equally likely. */
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"

typedef struct RandomBot {
    const GameVtbl *g;
    uint64_t seed;
    Rng rng;
    Move *moves;
    void *world;        /* hidden information: a sampled state */
} RandomBot;

static void *random_create(const GameVtbl *g, const void *opts, uint64_t seed,
                           PlyError *err)
{
    RandomBot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    b->world = malloc(g->info.state_size);
    if (!b->moves || !b->world) {
        free(b->moves);
        free(b->world);
        free(b);
        return NULL;
    }
    b->g = g;
    b->seed = seed;
    rng_seed(&b->rng, seed);
    return b;
}

static void random_destroy(void *p)
{
    RandomBot *b = p;
    free(b->moves);
    free(b->world);
    free(b);
}

static void random_new_game(void *p)
{
    RandomBot *b = p;
    rng_seed(&b->rng, b->seed);
}

static Move random_choose(void *p, const void *st, const Limits *lim,
                          SearchInfo *out)
{
    (void)lim;
    RandomBot *b = p;
    st = bot_world(b->g, st, &b->rng, b->world);
    int n = b->g->gen_moves(st, b->moves);
    Move m = n > 0 ? b->moves[rng_below(&b->rng, (uint32_t)n)] : 0;
    out->best = m;
    out->nodes = 1;
    out->pv_len = n > 0;
    out->pv[0] = m;
    return m;
}

const BotVtbl bot_random = {
    .name = "random",
    .help = "A uniformly random legal move.",
    .create = random_create,
    .destroy = random_destroy,
    .new_game = random_new_game,
    .choose = random_choose,
};
