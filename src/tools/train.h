/* train.h — training data and training for the learned evaluation
 * (src/search/net.h), used by `ply train` (src/cli/cmd_train.c); see
 * docs/nets.md.
 *
 * Data: a text file, one position a line after a header line
 *   # ply-train-data 1 GAME
 *   SCORE RESULT SETUP
 * SCORE the fixed-depth search value in EVAL units from the mover's view,
 * RESULT the game's result for the mover (1, 0.5, 0), SETUP the game's
 * setup string. Shards are such files; merging is concatenation, the
 * reader takes repeated headers of the same game.
 *
 * Loss, over positions i with y_i the net's value (EVAL units; a net
 * with NET_ADDS_EVAL is trained as a correction: y_i is its output plus
 * the game's eval() of the position):
 *   target_i = lambda * sigmoid(SCORE_i / K) + (1 - lambda) * RESULT_i
 *   loss     = mean (sigmoid(y_i / K) - target_i)^2
 * minimised by Adam on minibatches (the first-layer rows are updated
 * only when a position of the batch uses them: lazy Adam), with an
 * optional decoupled weight decay. */
#ifndef PLY_TRAIN_H
#define PLY_TRAIN_H

#include <stdio.h>

#include "../core/game.h"
#include "../search/net.h"

typedef struct TrainGenOpts {
    const char *options;    /* game options ("" or NULL: defaults) */
    const char *play;       /* self-play bot spec ("alphabeta:nodes=2000") */
    int depth;              /* rescoring depth; 0: the self-play search's
                             * own value and move */
    double keep;            /* fraction of positions kept */
    int random_plies;       /* uniformly random moves at the start */
    long games;             /* games in all shards */
    int shard, nshards;     /* this shard: games g with g % nshards == shard */
    int jobs;               /* threads */
    uint64_t seed;
} TrainGenOpts;

typedef struct TrainGenStats {
    long games, positions, plies;
    long results[3];        /* player 0 wins, draws, player 1 wins */
} TrainGenStats;

/* Plays this shard's games and writes their kept positions to out: the
 * header first, then each game once it and those before it are done (a
 * run cut short keeps what it made). Game k is seeded by seed + k
 * alone, so a shard's lines do not depend on jobs, and the shards of a
 * split run hold the same games as one run. -1 with err on a bad option or spec. */
int train_generate(const GameVtbl *g, const TrainGenOpts *o, FILE *out,
                   TrainGenStats *stats, PlyError *err);

/* Rescoring: every position of a data file searched again by a bot
 * (a deeper or dearer search than the one that made the data), its
 * result kept. */
typedef struct TrainRescoreOpts {
    const char *options;    /* game options ("" or NULL: defaults) */
    const char *bot;        /* the search's spec; NULL: depth below */
    int depth;              /* with bot NULL: alphabeta:depth=D,hash=4 */
    int jobs;               /* threads */
    uint64_t seed;
} TrainRescoreOpts;

typedef struct TrainRescoreStats {
    long read, kept;
    long noisy;             /* dropped: the best move is noisy */
    long mates;             /* dropped: a mate found (no score to learn) */
} TrainRescoreStats;

/* Reads the data file `in` (name for messages), searches each position
 * once with a fresh game for the bot (the same search gen's rescoring
 * makes, so a rescore at gen's depth gives gen's scores back), and
 * writes 'SCORE RESULT SETUP' lines in the input's order, without a
 * header, dropping positions as gen does. The work goes by blocks: a
 * run cut short keeps the blocks done. Adds to *stats. -1 with a
 * message naming name:line on bad data, a bad spec or a write error. */
int train_rescore(const GameVtbl *g, const TrainRescoreOpts *o, FILE *in,
                  const char *name, FILE *out, TrainRescoreStats *stats,
                  PlyError *err);

/* Positions with their features, ready for training. */
typedef struct TrainSet {
    const GameVtbl *g;
    int factors;            /* 1: each feature's factor is an input too */
    int maxf;
    size_t n, cap;
    uint16_t *feat;         /* n * 2 * maxf: the mover's, the other's */
    uint8_t *nfeat;         /* n * 2 */
    float *score, *result;
    float *hand;            /* the game's eval() from the mover's view (0
                             * without one): a baseline */
} TrainSet;

/* factors: with the game's factors (when it has them) as extra inputs
 * ninputs..ninputs+nfactors-1, so nets for d have train_inputs(d)
 * inputs, folded back by train_fold(). */
void train_set_init(TrainSet *d, const GameVtbl *g, int factors);
int train_inputs(const TrainSet *d);
/* The net of the game's inputs equal to n (trained on d): each factor's
 * weights added into its features'. -1 when out of memory. */
int train_fold(const TrainSet *d, const NetFloat *n, NetFloat *out);
void train_set_free(TrainSet *d);
/* Appends a position's features (mover first) and labels. */
int train_set_add(TrainSet *d, const void *st, double score, double result);
/* Reads a data file (name for messages); game options from `options`.
 * -1 with a message naming name:line. */
int train_set_read(TrainSet *d, FILE *f, const char *name,
                   const char *options, PlyError *err);

typedef struct TrainFitOpts {
    int epochs, batch;
    double rate;            /* Adam step */
    double lambda;          /* weight of the score in the target */
    double k;               /* sigmoid scale, EVAL units */
    double l2;              /* weight decay: each step w -= rate * l2 * w
                             * (decoupled, AdamW), on the rows it updates */
    int valid_percent;      /* positions held out (by index hash) */
    uint64_t seed;          /* shuffling */
    FILE *log;              /* one line per epoch, or NULL */
} TrainFitOpts;

/* The loss above over the training (which 0) or validation (which 1)
 * positions of d; with n NULL, of the game's own evaluation. */
double train_loss(const TrainSet *d, const NetFloat *n,
                  const TrainFitOpts *o, int which);
/* Trains n (already sized and initialised) on d; n stays clipped to what
 * quantisation keeps. -1 when out of memory. */
int train_fit(const TrainSet *d, NetFloat *n, const TrainFitOpts *o,
              PlyError *err);

#endif
