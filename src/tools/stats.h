/* stats.h — match statistics: Elo from a score, 95% intervals from
 * trinomial (win/draw/loss) or pentanomial (game-pair) counts, likelihood
 * of superiority, and the sequential probability ratio test (GSPRT on the
 * logistic Elo scale, as fishtest's "logistic" mode). */
#ifndef PLY_STATS_H
#define PLY_STATS_H

typedef struct StatsResult {
    double n;           /* samples: games (trinomial) or pairs (pentanomial) */
    double score;       /* mean score in [0, 1] */
    double var;         /* variance of one sample's score */
    double elo, elo_lo, elo_hi;   /* estimate and 95% interval */
    double los;         /* likelihood of superiority, 0..1 */
    int clamped;        /* score was 0 or 1: estimated from 1/(2(n+1)) away
                         * from it, with the binomial variance */
} StatsResult;

/* Elo difference for an expected score in (0, 1), and back. */
double stats_elo(double score);
double stats_score(double elo);

/* From W/D/L counts of the first player. Returns -1 when there are none. */
int stats_trinomial(int w, int d, int l, StatsResult *out);
/* From counts of game pairs scoring 0, 0.5, 1, 1.5, 2 points (p[0..4]). */
int stats_pentanomial(const int p[5], StatsResult *out);

/* GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), given the
 * sample mean and variance of n samples scored in [0, 1]. */
double stats_sprt_llr(double n, double mean, double var, double elo0,
                      double elo1);
/* The bounds: stop for H0 at or below lower, for H1 at or above upper. */
void stats_sprt_bounds(double alpha, double beta, double *lower,
                       double *upper);

#endif
