/* fuzz_botspec.c — bot specs ("mcts:time=2s,threads=2", "greedy:
 * fallback=alphabeta:depth=4;hash=1", ...) on every game: bot_new() must
 * build the bot or refuse with a message, never crash. No search is run. */
#include "core/bot.h"
#include "fuzz.h"

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    uint64_t seed = fuzz_u64(in);
    char *spec = fuzz_rest(in);
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, seed, &err);
    if (b)
        bot_free(b);
    else if (!err.msg[0])
        abort();        /* refused without saying why */
    free(spec);
}

/* Every bot plain and with each option its help names, at small values
 * (memory options small, so a run is not spent allocating tables). */
static void fuzz_seeds(FuzzSeeds *s)
{
    static const char *const specs[] = {
        "random", "random:seed=3", "greedy", "greedy:noise=5",
        "greedy:fallback=alphabeta:depth=2;hash=1",
        "alphabeta:depth=3", "alphabeta:time=10ms,hash=1",
        "alphabeta:nodes=1k,hash=0,qs=0,lmr=0,null=0,check=0",
        "alphabeta:mode=brs,hash=1", "alphabeta:contempt=5,soft=30,hash=1",
        "alphabeta:aspiration=0,rollouts=2,ttexact=1,hash=1",
        "alphabeta:weights=/nonexistent,hash=1",
        "mcts:iterations=100,mem=1", "mcts:time=5ms,threads=2,mem=1",
        "mcts:c=0.7,rave=1,grave=10,bias=0.2,mem=1",
        "mcts:policy=heuristic,eps=0.2,ept=4,ept_scale=300,im=0.3,mem=1",
        "mcts:solver=0,reuse=0,expand=1,playouts=2,mem=64k",
        "vindinium:time=10ms,radius=2", "vindinium-simple",
        "nobot", "alphabeta:", "mcts:mem=", "random:seed=-1",
        "alphabeta:time=nan", "mcts:time=1e300s",
    };
    for (int gi = 0; ply_games[gi]; gi++) {
        uint8_t head[9];
        head[0] = (uint8_t)gi;
        fuzz_put_u64(head + 1, 1);
        for (size_t k = 0; k < sizeof specs / sizeof *specs; k++)
            fuzz_seedf(s, head, sizeof head, "%s", specs[k]);
    }
}
