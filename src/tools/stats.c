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

/* ---- ratings from placements (stats.h) ---- */

void stats_place_add(PlaceStats *ps, int n, const int *who,
                     const double *result)
{
    double g[STATS_MAX_N] = {0};
    ps->n = n;
    ps->games += 1;
    for (int s = 0; s < n; s++) {
        int better = 0, tied = 0;
        for (int t = 0; t < n; t++) {
            better += result[t] > result[s];
            tied += result[t] == result[s];
            if (t == s)
                continue;
            double pts = result[s] > result[t] ? 1
                       : result[s] == result[t] ? 0.5 : 0;
            ps->pair[who[s]][who[t]] += pts;
            g[who[s]] += pts;
        }
        for (int k = better; k < better + tied; k++)
            ps->place[who[s]][k] += 1.0 / tied;
        ps->place_sum[who[s]] += better + (tied + 1) / 2.0;
    }
    for (int i = 0; i < n; i++) {
        ps->s1[i] += g[i];
        for (int j = 0; j < n; j++)
            ps->s2[i][j] += g[i] * g[j];
    }
}

/* Inverts the m x m matrix a (row stride STATS_MAX_N) into b; -1 when
 * singular. */
static int invert(int m, double a[STATS_MAX_N][STATS_MAX_N],
                  double b[STATS_MAX_N][STATS_MAX_N])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            b[i][j] = i == j;
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        if (fabs(a[piv][c]) < 1e-12)
            return -1;
        for (int j = 0; j < m; j++) {
            double t = a[c][j];
            a[c][j] = a[piv][j];
            a[piv][j] = t;
            t = b[c][j];
            b[c][j] = b[piv][j];
            b[piv][j] = t;
        }
        double d = a[c][c];
        for (int j = 0; j < m; j++) {
            a[c][j] /= d;
            b[c][j] /= d;
        }
        for (int r = 0; r < m; r++) {
            if (r == c)
                continue;
            double f = a[r][c];
            for (int j = 0; j < m; j++) {
                a[r][j] -= f * a[c][j];
                b[r][j] -= f * b[c][j];
            }
        }
    }
    return 0;
}

int stats_place_ratings(const PlaceStats *ps, double *elo, double *lo,
                        double *hi)
{
    int n = ps->n;
    double G = ps->games;
    if (G <= 0 || n < 2)
        return -1;
    /* MM for Bradley-Terry: gamma_i = W_i / sum_j N_ij / (g_i + g_j) */
    double gam[STATS_MAX_N], W[STATS_MAX_N];
    for (int i = 0; i < n; i++) {
        gam[i] = 1;
        W[i] = 0.5 * (n - 1);       /* the virtual draws */
        for (int j = 0; j < n; j++)
            W[i] += j == i ? 0 : ps->pair[i][j];
    }
    double N = G + 1;
    for (int it = 0; it < 10000; it++) {
        double change = 0, lsum = 0;
        for (int i = 0; i < n; i++) {
            double den = 0;
            for (int j = 0; j < n; j++)
                if (j != i)
                    den += N / (gam[i] + gam[j]);
            double ng = W[i] / den;
            change = fmax(change, fabs(log(ng / gam[i])));
            gam[i] = ng;
        }
        for (int i = 0; i < n; i++)
            lsum += log(gam[i]);
        for (int i = 0; i < n; i++)
            gam[i] /= exp(lsum / n);
        if (change < 1e-12)
            break;
    }
    double th[STATS_MAX_N], mean = 0;
    for (int i = 0; i < n; i++)
        mean += (th[i] = log(gam[i])) / n;
    const double k = 400 / log(10);
    for (int i = 0; i < n; i++) {
        elo[i] = k * (th[i] - mean);
        lo[i] = hi[i] = NAN;
    }
    if (G < 2)
        return 0;
    /* sandwich: theta_0 fixed at 0, equations of participants 1..n-1 */
    int m = n - 1;
    double J[STATS_MAX_N][STATS_MAX_N], Ji[STATS_MAX_N][STATS_MAX_N];
    double C[STATS_MAX_N][STATS_MAX_N];
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            int i = a + 1, j = b + 1;
            double v = 0;
            if (i == j) {
                for (int t = 0; t < n; t++)
                    if (t != i) {
                        double p = gam[i] / (gam[i] + gam[t]);
                        v += p * (1 - p);
                    }
            } else {
                double p = gam[i] / (gam[i] + gam[j]);
                v = -p * (1 - p);
            }
            J[a][b] = v;
            C[a][b] = (ps->s2[i][j] / G - ps->s1[i] / G * ps->s1[j] / G) / G;
        }
    if (invert(m, J, Ji))
        return 0;
    /* S = Ji C Ji^T over 1..n-1; theta_0 = 0 has no variance */
    double S[STATS_MAX_N][STATS_MAX_N] = {{0}}, T[STATS_MAX_N][STATS_MAX_N];
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            double v = 0;
            for (int c = 0; c < m; c++)
                v += Ji[a][c] * C[c][b];
            T[a][b] = v;
        }
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            double v = 0;
            for (int c = 0; c < m; c++)
                v += T[a][c] * Ji[b][c];
            S[a + 1][b + 1] = v;
        }
    /* centred ratings r = (I - 11'/n) theta */
    double rowm[STATS_MAX_N] = {0}, allm = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            rowm[i] += S[i][j] / n;
        allm += rowm[i] / n;
    }
    for (int i = 0; i < n; i++) {
        double var = S[i][i] - 2 * rowm[i] + allm;
        if (var < 0)
            var = 0;
        double half = 1.959963984540054 * k * sqrt(var);
        lo[i] = elo[i] - half;
        hi[i] = elo[i] + half;
    }
    return 0;
}
