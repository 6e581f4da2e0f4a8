/* tune.h — Texel-style tuning of a game's linear evaluation (EvalTuning):
 * positions from finished games, labelled with the result, and weights
 * fitted so that sigmoid(K * eval) predicts the result (least squares).
 * Used by `ply tune` (src/cli/cmd_tune.c); see docs/tuning.md. */
#ifndef PLY_TUNE_H
#define PLY_TUNE_H

#include <stdio.h>

#include "../core/game.h"

/* Positions with their terms, precomputed (sparse). */
typedef struct TuneData {
    int nparams;
    size_t npos, pos_cap;
    size_t *start;          /* npos + 1: position i owns terms[start[i]..] */
    EvalTerm *terms;
    size_t nterms, term_cap;
    double *base;           /* the part of eval no weight scales */
    double *label;          /* result for player 0: 1, 0.5, 0 (more
                             * players: the player's, 0..1) */
    unsigned char *valid;   /* 1: validation set, 0: training set */
    size_t nvalid;
} TuneData;

void tune_data_init(TuneData *d, int nparams);
void tune_data_free(TuneData *d);
/* Adds one position; -1 when out of memory. */
int tune_data_add(TuneData *d, const EvalTerm *t, int n, double base,
                  double label, int valid);

/* How positions are taken from the records. */
typedef struct TuneReadOpts {
    int skip_plies;         /* skip the first plies (and the opening) */
    size_t max_positions;   /* stop there; 0: no bound */
    int valid_percent;      /* games to the validation set, by seeded hash */
    uint64_t seed;
} TuneReadOpts;

typedef struct TuneReadStats {
    long records, games, other_game, forfeits;
    long multi;             /* games of more than two seats */
    long in_check;          /* positions skipped: in check, or no quiet
                             * position at the end of the capture line */
} TuneReadStats;

/* Reads match records (JSON lines as `ply match --out` writes them) from
 * f, replays the games of g and adds their positions: after skip_plies,
 * each position not in check, resolved to the quiet position at the end
 * of its best capture line (quiescence on the game's noisy moves, by
 * g->eval), labelled with the game's result. With more than two seats
 * (the game's terms_of hook), each position as it is from the view of
 * each player still in it, labelled with that player's result scaled to
 * 0..1. Records of other games and
 * forfeits are counted and skipped. -1 with a message naming name:line
 * on a malformed record or a move that does not replay. */
int tune_read_records(TuneData *d, const GameVtbl *g, FILE *f,
                      const char *name, const TuneReadOpts *o,
                      TuneReadStats *stats, PlyError *err);

/* Mean squared error of sigmoid(k * eval) against the labels, over the
 * training (which 0) or validation (which 1) positions. */
double tune_error(const TuneData *d, const double *w, double k, int which);
/* The k that minimises the training error under weights w. */
double tune_fit_k(const TuneData *d, const double *w);

typedef struct TuneFitOpts {
    int epochs;             /* full-batch Adam steps */
    double rate;            /* step size, in weight units */
    double l2;              /* + l2 * sum (w - w0)^2 added to the error */
    const unsigned char *frozen;  /* NULL or nparams flags: keep w0 there */
} TuneFitOpts;

/* Fits w (initially w0, nparams) on the training positions. */
void tune_fit(const TuneData *d, double k, const double *w0, double *w,
              const TuneFitOpts *o);

#endif
