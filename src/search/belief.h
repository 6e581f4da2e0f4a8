/* belief.h — what an honest bot remembers of a game with hidden
 * information: a particle filter over full states (worlds) consistent
 * with every observation its seat was given and every move it chose.
 *
 * The bot calls belief_observe() with the observation it is handed at each
 * of its turns (the only input besides its own moves, so the belief is a
 * function of the seat's observation sequence and the bot's seed), samples
 * worlds with belief_world() in place of bot_world(), and tells the move it
 * chose with belief_chose(). Between two of its turns each particle plays
 * the bot's move, then every move of the other players; the children whose
 * observation equals the new one survive, weighted by an opponent model
 * (uniform, or the game's heuristic), and are resampled. When none
 * survives, or at the first turn, the filter starts again: from the game's
 * start position (default options) and the opponent moves that explain the
 * observation, else from determinize(). Generic over GameVtbl: only
 * gen_moves, make, to_move, observe, determinize, hash and init are used. */
#ifndef PLY_BELIEF_H
#define PLY_BELIEF_H

#include "../core/bot.h"

typedef struct Belief {
    const GameVtbl *g;
    int cap;                /* particles wanted (0: off, bot_world()) */
    int model;              /* opponent model: 0 uniform, 1 heuristic */
    size_t sz;
    int n;                  /* distinct particles held */
    unsigned char *p;       /* cap worlds */
    uint32_t *count;        /* copies of each */
    uint32_t total;
    unsigned char *next;    /* cap worlds being built */
    unsigned char *last;    /* the observation of the previous turn */
    int have_last, me;
    Move mine;
    int have_mine;
    /* one update: each particle's weight and draws; one particle's
     * children (move, kind, weight, draws) */
    double *pw;
    uint32_t *draws, *cnt;
    uint64_t *hash;
    int *tab;               /* open addressing over hash: merges */
    uint32_t tmask;
    uint64_t *order;        /* particles by count, likeliest first */
    int *koff, *knum;       /* their children in the store */
    int nkids, kcap;        /* the store of children (grows) */
    Move *kmove;
    unsigned char *kkind;
    double *kw;
    int ncand;
    Move *cmove;
    unsigned char *ckind;
    double *cw;
    uint32_t *chits;
    Move *mv;
    double *mw;
    unsigned char *tmp, *tmp2, *obs;
    /* figures */
    int restarts;           /* times the filter started again */
} Belief;

int belief_init(Belief *b, const GameVtbl *g, int cap, int model,
                PlyError *err);
void belief_free(Belief *b);
/* A new game: forget everything. */
void belief_reset(Belief *b);
/* The observation at the seat's turn (call once at the start of choose).
 * until: 0, or a time on clk's clock (limits_now_us) by which the update
 * stops growing particles (those not reached are dropped); searches with
 * a time limit give it part of their budget, so a fixed-node search stays
 * reproducible. */
void belief_observe(Belief *b, const void *obs, Rng *r, const BotClock *clk,
                    int64_t until);
/* The move chosen at that observation. */
void belief_chose(Belief *b, Move m);
/* A world consistent with obs: a particle copied to buf, or bot_world(). */
const void *belief_world(Belief *b, const void *obs, Rng *r, void *buf);

/* How many distinct worlds the belief holds for obs (0: none, the belief
 * is off or was built for another observation), and the i-th of them with
 * its copies among the cap draws. */
int belief_distinct(const Belief *b, const void *obs);
const void *belief_world_at(const Belief *b, int i, uint32_t *count);

#endif
