/* stats.c — Elo, intervals, LOS and SPRT for ply match. */
#include <math.h>

#include "stats.h"

static const double Z95 = 1.959963984540054;

double stats_elo(double score)
{
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Mean and variance of n samples with values x[i] seen c[i] times; the
 * Elo estimate and interval come from the normal approximation of the
 * mean. A score of exactly 0 or 1 has no finite Elo: the estimate is
 * taken at half a sample from the edge, with the binomial variance. */
static int finish(const double *x, const int *c, int k, StatsResult *out)
{
    double n = 0, sum = 0, sq = 0;
    for (int i = 0; i < k; i++) {
        n += c[i];
        sum += c[i] * x[i];
    }
    if (n <= 0)
        return -1;
    double mean = sum / n;
    for (int i = 0; i < k; i++)
        sq += c[i] * (x[i] - mean) * (x[i] - mean);
    double var = sq / n;
    out->n = n;
    out->score = mean;
    out->var = var;
    out->clamped = 0;
    double m = mean;
    if (m <= 0 || m >= 1) {
        out->clamped = 1;
        m = m <= 0 ? 0.5 / (n + 1) : 1 - 0.5 / (n + 1);
        var = m * (1 - m);
    }
    double se = sqrt(var / n);
    double lo = m - Z95 * se, hi = m + Z95 * se;
    out->elo = stats_elo(m);
    out->elo_lo = lo <= 0 ? -INFINITY : stats_elo(lo);
    out->elo_hi = hi >= 1 ? INFINITY : stats_elo(hi);
    if (se > 0)
        out->los = 0.5 * (1 + erf((m - 0.5) / (se * sqrt(2.0))));
    else
        out->los = 0.5;
    return 0;
}

int stats_trinomial(int w, int d, int l, StatsResult *out)
{
    static const double x[3] = {0, 0.5, 1};
    int c[3] = {l, d, w};
    if (finish(x, c, 3, out))
        return -1;
    /* the classic LOS ignores draws: Phi((W-L)/sqrt(W+L)) */
    if (!out->clamped)
        out->los = w + l ? 0.5 * (1 + erf((w - l) / sqrt(2.0 * (w + l))))
                         : 0.5;
    return 0;
}

int stats_pentanomial(const int p[5], StatsResult *out)
{
    static const double x[5] = {0, 0.25, 0.5, 0.75, 1};
    return finish(x, p, 5, out);
}

double stats_sprt_llr(double n, double mean, double var, double elo0,
                      double elo1)
{
    if (n <= 0)
        return 0;
    if (var <= 0) {
        /* every sample alike (say, all wins): the variance is unknown, so
         * add one drawn sample rather than divide by zero */
        double m2 = (n * mean + 0.5) / (n + 1);
        var = (n * (mean - m2) * (mean - m2) + (0.5 - m2) * (0.5 - m2)) /
              (n + 1);
        mean = m2;
        n += 1;
        if (var <= 0)
            return 0;
    }
    double s0 = stats_score(elo0), s1 = stats_score(elo1);
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

void stats_sprt_bounds(double alpha, double beta, double *lower,
                       double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
