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

/* ---- more than two players: ratings from placements ----
 * Every game seats the same n participants. Each game is read as its
 * n(n-1)/2 pairs: the better placed of two scores 1, a tie 0.5 each (a
 * participant's "pair points" in a game are its sum, 0..n-1). The model
 * is Bradley-Terry on those pairs (the pairwise-Elo reading of
 * placements): P(i before j) = g_i / (g_i + g_j), fitted by maximum
 * likelihood (Hunter's MM iterations) with one virtual drawn game per
 * pair, so that a participant always first or always last still gets a
 * finite rating. The pairs of one game are not independent (one good game
 * wins n-1 pairs), so the 95% interval is not the naive one: it is the
 * cluster-robust (sandwich) interval with games as clusters, J^-1 C J^-T
 * with C the covariance of the per-game pair-point vectors over games
 * and J the derivative of their expectation. Ratings are on the Elo scale
 * (400 log10) with mean 0. */
enum { STATS_MAX_N = 16 };

typedef struct PlaceStats {
    int n;                                  /* participants */
    double games;
    double pair[STATS_MAX_N][STATS_MAX_N];  /* i's pair points against j */
    double s1[STATS_MAX_N];                 /* sum of per-game pair points */
    double s2[STATS_MAX_N][STATS_MAX_N];    /* sum of their products */
    double place[STATS_MAX_N][STATS_MAX_N]; /* [i][k]: times i was k+1-th
                                             * (a tie over k places counts
                                             * 1/k for each) */
    double place_sum[STATS_MAX_N];          /* sum of places (ties: mean) */
} PlaceStats;

/* One game: result[s] of seat s (higher is better), who[s] the
 * participant in seat s, n seats. */
void stats_place_add(PlaceStats *ps, int n, const int *who,
                     const double *result);
/* Ratings with their 95% interval (NAN when fewer than 2 games or a
 * singular fit). Returns -1 when there are no games. */
int stats_place_ratings(const PlaceStats *ps, double *elo, double *lo,
                        double *hi);

#endif
