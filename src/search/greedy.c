/* greedy.c — the one-ply heuristic bot, Dagaz's heuristic AI done well.
 *
 * A move that wins at once is played at once. Otherwise the moves are
 * ranked by the game's heuristic (plus optional noise); moves the heuristic
 * marks negative, moves that lose at once, and moves after which an
 * opponent has an immediately winning reply are dropped (each reply is
 * made and returns() read). Without a heuristic the rank is eval after the
 * move, without eval it is random. Ties go to a random one of the tied
 * moves. When nothing is left the fallback bot (fallback=SPEC, default
 * random) chooses.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"

typedef struct GreedyBot {
    const GameVtbl *g;
    int np;
    long noise;
    uint64_t seed;
    Rng rng;
    Bot *fallback;
    Move *moves, *replies;
    int64_t *keys;
    uint64_t *ties;
    int *order;
    unsigned char *child, *grand;
    unsigned char *world;   /* hidden information: a sampled state */
} GreedyBot;

/* Player p has won: the strictly highest return, and above zero. */
static int wins(const double *r, int np, int p)
{
    if (r[p] <= 0)
        return 0;
    for (int q = 0; q < np; q++)
        if (q != p && r[q] >= r[p])
            return 0;
    return 1;
}

/* An opponent of `me` to move at child can win with one move. */
static int opponent_wins_next(GreedyBot *b, const void *child, int me,
                              uint64_t *nodes)
{
    const GameVtbl *g = b->g;
    int q = g->to_move(child);
    if (q < 0 || q == me)
        return 0;
    int n = g->gen_moves(child, b->replies);
    double r[PLY_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        memcpy(b->grand, child, g->info.state_size);
        g->make(b->grand, b->replies[i]);
        (*nodes)++;
        if (g->to_move(b->grand) != PLAYER_TERMINAL)
            continue;
        g->returns(b->grand, r);
        if (wins(r, b->np, q))
            return 1;
    }
    return 0;
}

static Move greedy_choose(void *p, const void *st, const Limits *lim,
                          SearchInfo *out)
{
    GreedyBot *b = p;
    const GameVtbl *g = b->g;
    size_t ss = g->info.state_size;
    const void *seen = st;   /* what the fallback gets */
    st = bot_world(g, st, &b->rng, b->world);
    int me = g->to_move(st);
    if (me < 0)
        return 0;
    int n = g->gen_moves(st, b->moves), k = 0;
    uint64_t nodes = 0;
    double r[PLY_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        Move m = b->moves[i];
        memcpy(b->child, st, ss);
        g->make(b->child, m);
        nodes++;
        if (g->to_move(b->child) == PLAYER_TERMINAL) {
            g->returns(b->child, r);
            if (wins(r, b->np, me)) {
                out->best = m;
                out->value = EVAL_WIN - 1;
                out->proven = 1;
                out->nodes = nodes;
                out->pv_len = 1;
                out->pv[0] = m;
                return m;
            }
            int lost = 0;
            for (int q = 0; q < b->np; q++)
                lost |= q != me && wins(r, b->np, q);
            if (lost)
                continue;
        }
        int64_t key = 0;
        if (g->heuristic) {
            key = g->heuristic(st, m);
            if (key < 0)
                continue;   /* checked after the win: a win is a win */
        }
        if (!g->heuristic)
            key = g->eval && g->to_move(b->child) != PLAYER_TERMINAL
                      ? g->eval(b->child, me) : 0;
        if (b->noise > 0)
            key += (int64_t)rng_below(&b->rng, (uint32_t)b->noise + 1);
        b->keys[k] = key;
        b->ties[k] = rng_next(&b->rng);
        b->order[k] = i;
        k++;
    }
    /* best first: selection over k candidates, checking each in turn */
    for (int j = 0; j < k; j++) {
        int best = j;
        for (int i = j + 1; i < k; i++)
            if (b->keys[i] > b->keys[best] ||
                (b->keys[i] == b->keys[best] && b->ties[i] > b->ties[best]))
                best = i;
        int64_t tk = b->keys[j];
        uint64_t tt = b->ties[j];
        int to = b->order[j];
        b->keys[j] = b->keys[best];
        b->ties[j] = b->ties[best];
        b->order[j] = b->order[best];
        b->keys[best] = tk;
        b->ties[best] = tt;
        b->order[best] = to;
        Move m = b->moves[b->order[j]];
        memcpy(b->child, st, ss);
        g->make(b->child, m);
        nodes++;
        if (opponent_wins_next(b, b->child, me, &nodes))
            continue;
        int64_t v = b->keys[j];
        out->best = m;
        out->value = v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX
                                                              : (int)v;
        out->depth = 1;
        out->nodes = nodes;
        out->pv_len = 1;
        out->pv[0] = m;
        return m;
    }
    Move m = bot_choose(b->fallback, seen, NULL, out);
    out->nodes += nodes;
    return m;
}

static void greedy_destroy(void *p)
{
    GreedyBot *b = p;
    if (!b)
        return;
    bot_free(b->fallback);
    free(b->moves);
    free(b->replies);
    free(b->keys);
    free(b->ties);
    free(b->order);
    free(b->child);
    free(b->grand);
    free(b->world);
    free(b);
}

static void greedy_new_game(void *p)
{
    GreedyBot *b = p;
    rng_seed(&b->rng, b->seed);
    bot_new_game(b->fallback);
}

typedef struct GreedyOpts {
    int noise;
    char fallback[OPT_TEXT_MAX];
} GreedyOpts;

static const Option greedy_options[] = {
    {.key = "noise", .type = OPT_INT, .max = 1000000,
     .offset = offsetof(GreedyOpts, noise),
     .help = "adds 0..N to each heuristic value"},
    {.key = "fallback", .type = OPT_STRING, .def_text = "random",
     .offset = offsetof(GreedyOpts, fallback),
     .help = "the bot used when no move is left; write ';' for ',' inside "
             "it, as in fallback=alphabeta:depth=4;hash=1"},
    {.key = NULL},
};

static void *greedy_create(const GameVtbl *g, const void *opts,
                           uint64_t seed, PlyError *err)
{
    const GreedyOpts *o = opts;
    GreedyBot *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    b->np = g->info.num_players;
    b->noise = o->noise;
    b->seed = seed;
    rng_seed(&b->rng, seed);
    b->fallback = bot_new_inner(g, "fallback", o->fallback, NULL,
                                ply_mix64(seed ^ 0xfa11bac4ull), err);
    if (!b->fallback) {
        greedy_destroy(b);
        return NULL;
    }
    size_t mm = (size_t)g->info.max_moves;
    b->moves = malloc(sizeof(Move) * mm);
    b->replies = malloc(sizeof(Move) * mm);
    b->keys = malloc(sizeof(int64_t) * mm);
    b->ties = malloc(sizeof(uint64_t) * mm);
    b->order = malloc(sizeof(int) * mm);
    b->child = malloc(g->info.state_size);
    b->grand = malloc(g->info.state_size);
    b->world = malloc(g->info.state_size);
    if (!b->moves || !b->replies || !b->keys || !b->ties || !b->order ||
        !b->child || !b->grand || !b->world) {
        greedy_destroy(b);
        ply_fail(err, "out of memory");
        return NULL;
    }
    return b;
}

const BotVtbl bot_greedy = {
    .name = "greedy",
    .help =
        "One ply: plays a winning move when there is one, else the move "
        "the game's heuristic likes best (eval after the move without a "
        "heuristic, random without either), skipping moves the heuristic "
        "marks negative, moves that lose at once and moves that let an "
        "opponent win with the next move; the fallback bot when none is "
        "left.",
    .options = greedy_options,
    .options_size = sizeof(GreedyOpts),
    .create = greedy_create,
    .destroy = greedy_destroy,
    .new_game = greedy_new_game,
    .choose = greedy_choose,
};
