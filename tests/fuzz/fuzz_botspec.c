/* fuzz_botspec.c — bot specs ("mcts:time=2s,threads=2", "greedy:
 * fallback=alphabeta:depth=4;hash=1", ...) on every game: bot_new() must
 * build the bot or refuse with a message, never crash. No search is run. */
#include <math.h>

#include "core/bot.h"
#include "fuzz.h"

/* The largest memory option tried, in bytes. A bot asked for more (say
 * mcts:mem=6g, which the option allows) would allocate it, and libFuzzer
 * reports any malloc over its 2 GB limit as out-of-memory: such inputs
 * are skipped. */
#define MEM_CAP (1024.0 * 1024 * 1024)

/* 1 when a "mem=" or "hash=" value anywhere in the spec (nested specs
 * included) could ask for more than MEM_CAP: the option grammar's number
 * and unit (k, M, G for mem; hash is in MiB). A value that is no number
 * is left to the option parser, which refuses it. */
static int asks_too_much(const char *spec)
{
    static const char *const keys[] = {"mem=", "hash="};
    for (int k = 0; k < 2; k++) {
        size_t kl = strlen(keys[k]);
        for (const char *p = strstr(spec, keys[k]); p;
             p = strstr(p + 1, keys[k])) {
            char *end;
            double x = strtod(p + kl, &end), unit = 1024.0 * 1024;
            if (k == 0 && (*end == 'k' || *end == 'K'))
                unit = 1024.0;
            else if (k == 0 && (*end == 'g' || *end == 'G'))
                unit = 1024.0 * 1024 * 1024;
            if (end != p + kl && isfinite(x) && x * unit > MEM_CAP)
                return 1;
        }
    }
    return 0;
}

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    uint64_t seed = fuzz_u64(in);
    char *spec = fuzz_rest(in);
    if (asks_too_much(spec)) {
        free(spec);
        return;
    }
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
