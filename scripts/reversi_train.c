/* reversi_train.c — the data and the fit behind reversi's pattern weights
 * (src/games/reversi/weights.c, docs/reversi.md). Build after `make`:
 *
 *   cc -std=c11 -O2 -march=native -D_GNU_SOURCE -Isrc -o /tmp/reversi_train \
 *       scripts/reversi_train.c build/release/libply.a -ljansson -lm -pthread
 *
 * gen: self-play positions labelled by the game's final disc difference.
 *   /tmp/reversi_train gen --games N [--first K] [--seed S]
 *       [--play SPEC] [--random LO:HI] > FILE
 * Game k (k = K .. K+N-1) starts with LO..HI uniformly random plies
 * (seeded by S and k alone, so shards of a run are the same games), then
 * the bot SPEC (default below: the reversi bot solving exactly from 16
 * empty squares, so that every later label is the exact value) plays
 * both sides to the end. Each position after the random plies where the
 * side to move has a placement is written as "SETUP SCORE": Ply's setup
 * string and the final disc difference for the side to move; a line
 * "# game k" comes before each game's.
 *
 * fit: least squares of the patterns' weights to the labels, stage by
 * stage, a configuration's mirror image on the same squares sharing its
 * weight.
 *   /tmp/reversi_train fit [--epochs E] [--ridge L] [--validation PCT]
 *       [--blend B] [--td T] [--out FILE] FILE...
 * Ridge regression (L times the sum of the squared weights added to the
 * squared errors: rare configurations stay near 0; the biases, one per
 * number of empty squares, are free) solved by E conjugate-gradient
 * iterations. The games whose number hashes below PCT percent are held
 * out and their error reported. A stage also learns from its neighbours'
 * positions, weighted B. With --td T the stages are fitted from the
 * end of the game back, and a position aims at (1 - T) times its game's
 * result plus T times the fitted prediction of its game's first position
 * at least TD_GAP empty squares later (TD(lambda)-like: less of the
 * noise of the moves in between). The reported errors are against the
 * results. --out writes weights.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bot.h"
#include "core/registry.h"
#include "core/rng.h"
#include "core/setup.h"
#include "games/reversi/reversi.h"

static const char *const default_play =
    "reversi:solve=16,exact=16,hash=16,inner=alphabeta:nodes=2000";

static int usage(void)
{
    fprintf(stderr, "usage: reversi_train gen --games N [--first K] "
            "[--seed S] [--play SPEC] [--random LO:HI]\n"
            "       reversi_train fit [--epochs E] [--ridge L] "
            "[--validation PCT] [--blend B] [--td T] [--out FILE] "
            "FILE...\n");
    return 2;
}

/* ---- gen ---- */

static int gen(int argc, char **argv)
{
    long games = 0, first = 0;
    uint64_t seed = 1;
    int lo = 2, hi = 12;
    const char *play = default_play;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        if (!strcmp(a, "--games"))
            games = atol(v);
        else if (!strcmp(a, "--first"))
            first = atol(v);
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--play"))
            play = v;
        else if (!strcmp(a, "--random")) {
            if (sscanf(v, "%d:%d", &lo, &hi) != 2 || lo < 0 || hi < lo)
                return usage();
        } else
            return usage();
        i++;
    }
    if (games <= 0)
        return usage();
    const GameVtbl *g = game_find("reversi");
    PlyError err = {{0}};
    Bot *b = bot_new(g, play, seed, &err);
    if (!b) {
        fprintf(stderr, "reversi_train: %s\n", err.msg);
        return 1;
    }
    enum { MAXPOS = 128 };
    Reversi pos[MAXPOS];
    for (long k = first; k < first + games; k++) {
        Rng r;
        rng_seed(&r, ply_mix64(seed * 0x9e3779b97f4a7c15ull + (uint64_t)k));
        Reversi st;
        if (state_setup(g, &st, NULL, NULL, 1, &err)) {
            fprintf(stderr, "reversi_train: %s\n", err.msg);
            return 1;
        }
        bot_new_game(b);
        int nrand = lo + (int)rng_below(&r, (uint32_t)(hi - lo + 1));
        int n = 0;
        for (int ply = 0; !st.over; ply++) {
            Move m;
            if (ply < nrand) {
                Move mv[REVERSI_MAX_MOVES];
                int nm = g->gen_moves(&st, mv);
                m = mv[rng_below(&r, (uint32_t)nm)];
            } else {
                if (st.moves && n < MAXPOS)
                    pos[n++] = st;
                m = bot_choose(b, &st, NULL, NULL);
            }
            g->make(&st, m);
        }
        printf("# game %ld\n", k);
        for (int i = 0; i < n; i++) {
            int me = pos[i].side;
            int d = rv_popcount(st.disc[me]) - rv_popcount(st.disc[!me]);
            char t[80];
            g->to_text(&pos[i], t, sizeof t);
            printf("%s %d\n", t, d);
        }
        fflush(stdout);
    }
    bot_free(b);
    return 0;
}

/* ---- fit ---- */

typedef struct Pos {
    int32_t idx[RV_FEATURES];    /* canonical configurations */
    int32_t future;     /* a later position of its game (-1: none) */
    int8_t label, empties;
    uint8_t valid;      /* held out */
    uint8_t side;       /* the side to move */
    float target;       /* what the fit aims at */
} Pos;

/* TD labels: a position's future is the first of its game with at
 * least TD_GAP fewer empty squares, in a lower stage than its own. */
enum { TD_GAP = 6 };

typedef struct Data {
    Pos *p;
    size_t n, cap;
} Data;

/* occurrences left out of the fit (--skip): their configurations all
 * become configuration 0's slot of their type, so they count as a
 * constant */
static uint64_t skip_occ;

static int read_file(const char *path, Data *d, int vpct,
                     const int32_t *canon)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "reversi_train: cannot read %s\n", path);
        return -1;
    }
    const GameVtbl *g = game_find("reversi");
    char line[256];
    long game = -1, lineno = 0;
    int valid = 0;
    size_t first = d->n;    /* the game's first position */
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#') {
            first = d->n;
            if (sscanf(line, "# game %ld", &game) == 1)
                valid = (int)(ply_mix64((uint64_t)game ^ 0x5eedull) % 100)
                        < vpct;
            continue;
        }
        char setup[80];
        int score;
        if (strlen(line) < 68 || sscanf(line + 67, "%d", &score) != 1) {
            fprintf(stderr, "%s:%ld: not SETUP SCORE\n", path, lineno);
            fclose(f);
            return -1;
        }
        memcpy(setup, line, 66);
        setup[66] = 0;
        Reversi st;
        PlyError err = {{0}};
        if (state_setup(g, &st, NULL, setup, 1, &err)) {
            fprintf(stderr, "%s:%ld: %s\n", path, lineno, err.msg);
            fclose(f);
            return -1;
        }
        if (d->n == d->cap) {
            size_t c = d->cap ? 2 * d->cap : 1 << 16;
            Pos *q = realloc(d->p, c * sizeof *q);
            if (!q) {
                fprintf(stderr, "reversi_train: out of memory\n");
                fclose(f);
                return -1;
            }
            d->p = q;
            d->cap = c;
        }
        Pos *p = &d->p[d->n++];
        uint64_t P = st.disc[st.side], O = st.disc[!st.side];
        rv_features(P, O, p->idx);
        int32_t base[RV_FEATURES];
        rv_features(0, 0, base);
        for (int i = 0; i < RV_FEATURES; i++)
            p->idx[i] = skip_occ >> i & 1 ? base[i] : canon[p->idx[i]];
        p->label = (int8_t)score;
        p->empties = (int8_t)(64 - rv_popcount(P | O));
        p->valid = (uint8_t)valid;
        p->side = st.side;
        p->target = (float)score;
        /* the future of the game's earlier positions: the first one at
         * least TD_GAP empties later */
        p->future = -1;
        for (size_t j = first; j + 1 < d->n; j++)
            if (d->p[j].future < 0 && d->p[j].empties - p->empties >= TD_GAP)
                d->p[j].future = (int32_t)(d->n - 1);
    }
    fclose(f);
    return 0;
}

typedef struct Fit {
    int epochs;
    double ridge, blend, td;
} Fit;

/* The unknowns of a stage: RV_WEIGHTS weights, then 61 biases. */
enum { NX = RV_WEIGHTS + 61 };

/* q = A x over the stage's rows (each scaled by the square root of its
 * weight sw). */
static void mul(const Data *d, const size_t *use, const double *sw,
                size_t nu, const double *x, double *q)
{
    for (size_t u = 0; u < nu; u++) {
        const Pos *p = &d->p[use[u]];
        double v = x[RV_WEIGHTS + p->empties];
        for (int j = 0; j < RV_FEATURES; j++)
            v += x[p->idx[j]];
        q[u] = v * sw[u];
    }
}

/* s = A^T r */
static void mul_t(const Data *d, const size_t *use, const double *sw,
                  size_t nu, const double *r, double *s)
{
    memset(s, 0, NX * sizeof *s);
    for (size_t u = 0; u < nu; u++) {
        const Pos *p = &d->p[use[u]];
        double v = r[u] * sw[u];
        s[RV_WEIGHTS + p->empties] += v;
        for (int j = 0; j < RV_FEATURES; j++)
            s[p->idx[j]] += v;
    }
}

/* Fits stage s's weights w (RV_WEIGHTS) and the biases of its empties
 * (bias, 61) on the training positions of stage s, and s +- 1 weighted
 * blend: ridge regression, min |A x - y|^2 + ridge |weights|^2, by
 * conjugate gradients on the normal equations (CGLS, `epochs`
 * iterations). Returns the training and validation mean squared errors
 * on the stage's own positions. */
static void fit_stage(const Data *d, int s, const Fit *fp, float *w,
                      float *bias, double *tmse, double *vmse, size_t *nt,
                      size_t *nv)
{
    size_t *use = malloc(d->n * sizeof *use), nu = 0;
    double *sw = malloc(d->n * sizeof *sw);
    *nt = *nv = 0;
    for (size_t i = 0; i < d->n; i++) {
        int ps = rv_stage(d->p[i].empties);
        if (ps != s && (fp->blend <= 0 || abs(ps - s) != 1))
            continue;
        if (d->p[i].valid) {
            *nv += ps == s;
            continue;
        }
        *nt += ps == s;
        use[nu] = i;
        sw[nu++] = ps == s ? 1.0 : sqrt(fp->blend);
    }
    double *x = calloc(NX, sizeof *x), *r = malloc((nu + 1) * sizeof *r);
    double *q = malloc((nu + 1) * sizeof *q), *g = malloc(NX * sizeof *g);
    double *p = malloc(NX * sizeof *p);
    /* the biases are not shrunk */
    for (size_t u = 0; u < nu; u++)
        r[u] = d->p[use[u]].target * sw[u];
    mul_t(d, use, sw, nu, r, g);
    memcpy(p, g, NX * sizeof *p);
    double gamma = 0;
    for (int c = 0; c < NX; c++)
        gamma += g[c] * g[c];
    for (int it = 0; it < fp->epochs && gamma > 1e-12; it++) {
        mul(d, use, sw, nu, p, q);
        double delta = 0;
        for (size_t u = 0; u < nu; u++)
            delta += q[u] * q[u];
        for (int c = 0; c < RV_WEIGHTS; c++)
            delta += fp->ridge * p[c] * p[c];
        if (delta <= 0)
            break;
        double alpha = gamma / delta;
        for (int c = 0; c < NX; c++)
            x[c] += alpha * p[c];
        for (size_t u = 0; u < nu; u++)
            r[u] -= alpha * q[u];
        mul_t(d, use, sw, nu, r, g);
        double gn = 0;
        for (int c = 0; c < NX; c++) {
            if (c < RV_WEIGHTS)
                g[c] -= fp->ridge * x[c];
            gn += g[c] * g[c];
        }
        double beta = gn / gamma;
        gamma = gn;
        for (int c = 0; c < NX; c++)
            p[c] = g[c] + beta * p[c];
        if (it % 25 == 0 || it == fp->epochs - 1) {
            double se = 0, sn = 0;
            for (size_t u = 0; u < nu; u++) {
                se += r[u] * r[u];
                sn += sw[u] * sw[u];
            }
            fprintf(stderr, "  stage %d iteration %d train mse %.3f\n", s,
                    it, sn > 0 ? se / sn : 0);
        }
    }
    for (int c = 0; c < RV_WEIGHTS; c++)
        w[c] = (float)x[c];
    for (int e = 0; e < 61; e++)
        if (rv_stage(e) == s)
            bias[e] = (float)x[RV_WEIGHTS + e];
    /* the errors on the stage's own positions */
    double se[2] = {0, 0};
    size_t n[2] = {0, 0};
    for (size_t i = 0; i < d->n; i++) {
        const Pos *ps = &d->p[i];
        if (rv_stage(ps->empties) != s)
            continue;
        double pred = bias[ps->empties];
        for (int j = 0; j < RV_FEATURES; j++)
            pred += w[ps->idx[j]];
        se[ps->valid] += (pred - ps->label) * (pred - ps->label);
        n[ps->valid]++;
    }
    *tmse = n[0] ? se[0] / (double)n[0] : 0;
    *vmse = n[1] ? se[1] / (double)n[1] : 0;
    free(use);
    free(sw);
    free(x);
    free(r);
    free(q);
    free(g);
    free(p);
}

/* The prediction for position p of the weights fitted so far. */
static double predict(const Pos *p, const float *w, const float *bias)
{
    const float *ws = w + (size_t)rv_stage(p->empties) * RV_WEIGHTS;
    double v = bias[p->empties];
    for (int j = 0; j < RV_FEATURES; j++)
        v += ws[p->idx[j]];
    return v;
}

/* TD targets of stage s's positions: (1 - td) times the game's result
 * plus td times the fitted prediction of the position's future (a lower
 * stage, fitted already), from the position's own side. */
static void td_targets(Data *d, int s, double td, const float *w,
                       const float *bias)
{
    for (size_t i = 0; i < d->n; i++) {
        Pos *p = &d->p[i];
        if (rv_stage(p->empties) != s)
            continue;
        p->target = p->label;
        if (p->future < 0 || rv_stage(d->p[p->future].empties) >= s)
            continue;
        const Pos *f = &d->p[p->future];
        double v = predict(f, w, bias);
        if (f->side != p->side)
            v = -v;
        p->target = (float)((1 - td) * p->label + td * v);
    }
}

static int16_t q16(double x)
{
    double v = round(x * RV_WSCALE);
    return (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
}

static int fit(int argc, char **argv, const char *cmdline)
{
    Fit fp = {.epochs = 100, .ridge = 4, .blend = 0, .td = 0};
    int vpct = 5;
    const char *out = NULL;
    int nfiles = 0;
    const char *files[256];
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-' || a[1] != '-') {
            if (nfiles == 256)
                return usage();
            files[nfiles++] = a;
            continue;
        }
        if (!v)
            return usage();
        if (!strcmp(a, "--epochs"))
            fp.epochs = atoi(v);
        else if (!strcmp(a, "--ridge"))
            fp.ridge = atof(v);
        else if (!strcmp(a, "--blend"))
            fp.blend = atof(v);
        else if (!strcmp(a, "--td"))
            fp.td = atof(v);
        else if (!strcmp(a, "--skip"))
            skip_occ = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--validation"))
            vpct = atoi(v);
        else if (!strcmp(a, "--out"))
            out = v;
        else
            return usage();
        i++;
    }
    if (!nfiles)
        return usage();
    int32_t *canon = malloc(RV_WEIGHTS * sizeof *canon);
    for (int c = 0; c < RV_WEIGHTS; c++)
        canon[c] = rv_config_canonical(c);
    Data d = {0};
    for (int i = 0; i < nfiles; i++)
        if (read_file(files[i], &d, vpct, canon))
            return 1;
    fprintf(stderr, "%zu positions\n", d.n);
    float *w = calloc((size_t)RV_NSTAGES * RV_WEIGHTS, sizeof *w);
    float bias[61] = {0};
    double tt = 0, tv = 0;
    size_t ntt = 0, ntv = 0;
    for (int s = 0; s < RV_NSTAGES; s++) {
        double tm, vm;
        if (fp.td > 0)
            td_targets(&d, s, fp.td, w, bias);
        size_t nt, nv;
        fit_stage(&d, s, &fp, w + (size_t)s * RV_WEIGHTS, bias, &tm, &vm,
                  &nt, &nv);
        fprintf(stderr, "stage %2d (empties %2d-%2d): %7zu train mse %6.2f"
                "  %6zu held out mse %6.2f\n", s, 5 * s,
                s == RV_NSTAGES - 1 ? 60 : 5 * s + 4, nt, tm, nv, vm);
        tt += tm * (double)nt;
        tv += vm * (double)nv;
        ntt += nt;
        ntv += nv;
    }
    fprintf(stderr, "all: train mse %.2f, held out mse %.2f (discs^2)\n",
            ntt ? tt / (double)ntt : 0, ntv ? tv / (double)ntv : 0);
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "reversi_train: cannot write %s\n", out);
            return 1;
        }
        fprintf(f, "/* weights.c — reversi's pattern weights, in 1/%d discs, "
                "written by\n * scripts/reversi_train.c (do not edit): %zu "
                "positions,\n * %s\n * (docs/reversi.md) */\n"
                "#include \"reversi.h\"\n\n", RV_WSCALE, d.n, cmdline);
        fprintf(f, "const int16_t rv_bias[61] = {\n");
        for (int e = 0; e < 61; e++)
            fprintf(f, "%s%d,%s", e % 12 ? " " : "    ", q16(bias[e]),
                    e % 12 == 11 || e == 60 ? "\n" : "");
        fprintf(f, "};\n\nconst int16_t rv_weights[RV_NSTAGES]"
                "[RV_WEIGHTS] = {\n");
        for (int s = 0; s < RV_NSTAGES; s++) {
            fprintf(f, "{\n");
            const float *ws = w + (size_t)s * RV_WEIGHTS;
            int col = 0;
            for (int c = 0; c < RV_WEIGHTS; c++) {
                char num[16];
                int len = snprintf(num, sizeof num, "%d,",
                                   q16(ws[canon[c]]));
                if (col + len > 78) {
                    fputc('\n', f);
                    col = 0;
                }
                fputs(num, f);
                col += len;
            }
            fprintf(f, "\n},\n");
        }
        fprintf(f, "};\n");
        fclose(f);
    }
    free(w);
    free(d.p);
    free(canon);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "gen"))
        return gen(argc - 2, argv + 2);
    if (!strcmp(argv[1], "fit")) {
        char cmd[1024] = "reversi_train fit";
        for (int i = 2; i < argc; i++) {
            size_t l = strlen(cmd);
            snprintf(cmd + l, sizeof cmd - l, " %s", argv[i]);
        }
        return fit(argc - 2, argv + 2, cmd);
    }
    return usage();
}
