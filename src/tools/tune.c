/* tune.c — see tune.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/setup.h"
#include "tune.h"

enum { QS_MAX_PLY = 10 };

void tune_data_init(TuneData *d, int nparams)
{
    memset(d, 0, sizeof *d);
    d->nparams = nparams;
}

void tune_data_free(TuneData *d)
{
    free(d->start);
    free(d->terms);
    free(d->base);
    free(d->label);
    free(d->valid);
    memset(d, 0, sizeof *d);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

int tune_data_add(TuneData *d, const EvalTerm *t, int n, double base,
                  double label, int valid)
{
    size_t pc = d->pos_cap, need = d->npos + 2;
    if (need > pc) {
        size_t c = pc;
        if (grow((void **)&d->start, &c, need, sizeof *d->start))
            return -1;
        c = pc;
        if (grow((void **)&d->base, &c, need, sizeof *d->base))
            return -1;
        c = pc;
        if (grow((void **)&d->label, &c, need, sizeof *d->label))
            return -1;
        c = pc;
        if (grow((void **)&d->valid, &c, need, sizeof *d->valid))
            return -1;
        d->pos_cap = c;
    }
    if (grow((void **)&d->terms, &d->term_cap, d->nterms + (size_t)n,
             sizeof *d->terms))
        return -1;
    if (d->npos == 0)
        d->start[0] = 0;
    if (n > 0)              /* no terms yet: d->terms may still be NULL */
        memcpy(d->terms + d->nterms, t, sizeof *t * (size_t)n);
    d->nterms += (size_t)n;
    d->base[d->npos] = base;
    d->label[d->npos] = label;
    d->valid[d->npos] = (unsigned char)(valid != 0);
    d->nvalid += valid != 0;
    d->npos++;
    d->start[d->npos] = d->nterms;
    return 0;
}

/* ---- quiet positions ---- */

typedef struct Qs {
    const GameVtbl *g;
    size_t ss;
    unsigned char *st;      /* QS_MAX_PLY + 1 states */
    unsigned char *leaf;    /* the quiet end of each ply's best line */
    Move *moves;            /* QS_MAX_PLY + 1 move lists */
    int *keys;              /* their ordering keys */
} Qs;

static void *qs_state(Qs *q, unsigned char *base, int ply)
{
    return base + (size_t)ply * q->ss;
}

/* Negamax over noisy moves from stack ply; the quiet position where the
 * best line stands pat is left in leaf[ply]. Terminal children are not
 * followed (a quiet position is wanted, not a result). */
static int qsearch(Qs *q, int ply, int alpha, int beta)
{
    const GameVtbl *g = q->g;
    void *st = qs_state(q, q->st, ply);
    int me = g->to_move(st);
    int best = g->eval(st, me);
    memcpy(qs_state(q, q->leaf, ply), st, q->ss);
    if (ply >= QS_MAX_PLY || best >= beta)
        return best;
    if (best > alpha)
        alpha = best;
    Move *mv = q->moves + (size_t)ply * (size_t)g->info.max_moves;
    int n;
    if (g->gen_noisy) {
        n = g->gen_noisy(st, mv);
    } else if (!g->is_noisy) {
        n = 0;              /* no noisy moves: every position is quiet */
    } else {
        int all = g->gen_moves(st, mv);
        n = 0;
        for (int i = 0; i < all; i++)
            if (g->is_noisy(st, mv[i]))
                mv[n++] = mv[i];
    }
    /* best captures first (the game's heuristic): far fewer nodes */
    if (g->heuristic) {
        int *key = q->keys + (size_t)ply * (size_t)g->info.max_moves;
        for (int i = 0; i < n; i++)
            key[i] = g->heuristic(st, mv[i]);
        for (int i = 1; i < n; i++) {
            Move m = mv[i];
            int k = key[i], j = i;
            for (; j > 0 && key[j - 1] < k; j--) {
                mv[j] = mv[j - 1];
                key[j] = key[j - 1];
            }
            mv[j] = m;
            key[j] = k;
        }
    }
    for (int i = 0; i < n; i++) {
        void *child = qs_state(q, q->st, ply + 1);
        memcpy(child, st, q->ss);
        g->make(child, mv[i]);
        int who = g->to_move(child);
        if (who < 0)
            continue;
        int v = who == me ? qsearch(q, ply + 1, alpha, beta)
                          : -qsearch(q, ply + 1, -beta, -alpha);
        if (v > best) {
            best = v;
            memcpy(qs_state(q, q->leaf, ply), qs_state(q, q->leaf, ply + 1),
                   q->ss);
            if (v > alpha)
                alpha = v;
            if (v >= beta)
                break;
        }
    }
    return best;
}

/* ---- records ---- */

static int is_forfeit(json_t *rec)
{
    json_t *r = json_object_get(rec, "reason");
    const char *s = json_is_string(r) ? json_string_value(r) : "";
    return !strcmp(s, "time") || !strcmp(s, "crash") ||
           !strcmp(s, "illegal");
}

int tune_read_records(TuneData *d, const GameVtbl *g, FILE *f,
                      const char *name, const TuneReadOpts *o,
                      TuneReadStats *stats, PlyError *err)
{
    const EvalTuning *t = g->tuning;
    if (!t || !g->eval || (g->info.num_players != 2 && !t->terms_of))
        return ply_fail(err, "%s has no tunable evaluation", g->info.name);
    Qs q = {.g = g, .ss = g->info.state_size};
    q.st = malloc(q.ss * (QS_MAX_PLY + 1));
    q.leaf = malloc(q.ss * (QS_MAX_PLY + 1));
    q.moves = malloc(sizeof(Move) * (size_t)g->info.max_moves *
                     (QS_MAX_PLY + 1));
    q.keys = malloc(sizeof(int) * (size_t)g->info.max_moves *
                    (QS_MAX_PLY + 1));
    EvalTerm *terms = malloc(sizeof *terms * EVAL_MAX_TERMS);
    void *st = state_alloc(g);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0;
    if (!q.st || !q.leaf || !q.moves || !q.keys || !terms || !st)
        rc = ply_fail(err, "out of memory");
    while (!rc && (!o->max_positions || d->npos < o->max_positions) &&
           getline(&line, &cap, f) >= 0) {
        lineno++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        stats->records++;
        json_error_t jerr;
        json_t *rec = json_loads(line, 0, &jerr);
        if (!json_is_object(rec)) {
            rc = ply_fail(err, "%s:%ld: not a JSON object: %s", name, lineno,
                          rec ? "another JSON value" : jerr.text);
            json_decref(rec);
            break;
        }
        json_t *jg = json_object_get(rec, "game");
        json_t *jm = json_object_get(rec, "moves");
        json_t *jr = json_object_get(rec, "result");
        json_t *jo = json_object_get(rec, "options");
        json_t *js = json_object_get(rec, "setup");
        json_t *jp = json_object_get(rec, "opening_plies");
        size_t nr = json_is_array(jr) ? json_array_size(jr) : 0;
        int numok = nr >= 2 && nr <= PLY_MAX_PLAYERS;
        for (size_t k = 0; k < nr && numok; k++)
            numok = json_is_number(json_array_get(jr, k));
        if (!json_is_string(jg) || !json_is_array(jm) || !numok ||
            (jo && !json_is_string(jo)) || (js && !json_is_string(js))) {
            rc = ply_fail(err, "%s:%ld: not a match record (needs game, "
                          "moves, result [r0, r1, ...]; options and setup "
                          "strings)", name, lineno);
        } else if (strcmp(json_string_value(jg), g->info.name)) {
            stats->other_game++;
        } else if (is_forfeit(rec)) {
            stats->forfeits++;
        } else if (state_setup(g, st, jo ? json_string_value(jo) : NULL,
                               js ? json_string_value(js) : NULL, 0, err)) {
            char why[256];
            snprintf(why, sizeof why, "%s", err->msg);
            rc = ply_fail(err, "%s:%ld: bad setup: %s", name, lineno, why);
        } else if ((int)nr != state_seats(g, st, NULL)) {
            rc = ply_fail(err, "%s:%ld: %zu results for %d seats", name,
                          lineno, nr, state_seats(g, st, NULL));
        } else {
            double r0 = json_number_value(json_array_get(jr, 0));
            double label = r0 > 0 ? 1 : r0 < 0 ? 0 : 0.5;
            long game = stats->games++;
            stats->multi += nr > 2;
            int valid = (int)(ply_mix64(o->seed * 0x9e3779b97f4a7c15ull +
                                        (uint64_t)game) % 100) <
                        o->valid_percent;
            int skip = o->skip_plies;
            if (json_is_integer(jp) && json_integer_value(jp) > skip)
                skip = (int)json_integer_value(jp);
            size_t nm = json_array_size(jm);
            for (size_t i = 0; i <= nm && !rc; i++) {
                if (g->to_move(st) < 0)
                    break;
                if ((int)i >= skip && nr > 2 &&
                    (!o->max_positions || d->npos < o->max_positions)) {
                    /* more players: the position as it is, from each
                     * player's view still in the game, labelled with its
                     * result (-1..1 to 0..1) */
                    for (int p = 0; p < (int)nr && !rc; p++) {
                        if (g->eliminated && g->eliminated(st, p))
                            continue;
                        double base = 0;
                        double rp = json_number_value(json_array_get(jr, p));
                        int n = t->terms_of(st, p, terms, &base);
                        if (tune_data_add(d, terms, n, base, (rp + 1) / 2,
                                          valid))
                            rc = ply_fail(err, "out of memory");
                    }
                } else if ((int)i >= skip &&
                           (!o->max_positions ||
                            d->npos < o->max_positions)) {
                    if (g->in_check && g->in_check(st)) {
                        stats->in_check++;
                    } else {
                        memcpy(q.st, st, q.ss);
                        qsearch(&q, 0, -EVAL_MAX, EVAL_MAX);
                        if (g->in_check && g->in_check(q.leaf)) {
                            stats->in_check++;
                        } else {
                            double base = 0;
                            int n = t->terms(q.leaf, terms, &base);
                            if (tune_data_add(d, terms, n, base, label,
                                              valid))
                                rc = ply_fail(err, "out of memory");
                        }
                    }
                }
                if (i == nm)
                    break;
                json_t *jmv = json_array_get(jm, i);
                Move m;
                PlyError merr = {{0}};
                if (!json_is_string(jmv)) {
                    rc = ply_fail(err, "%s:%ld: move %zu is not a string",
                                  name, lineno, i + 1);
                } else if (g->text_to_move(st, json_string_value(jmv), &m,
                                           &merr)) {
                    rc = ply_fail(err, "%s:%ld: move %zu '%.40s': %s", name,
                                  lineno, i + 1, json_string_value(jmv),
                                  merr.msg);
                } else {
                    g->make(st, m);
                }
            }
        }
        json_decref(rec);
    }
    free(line);
    free(st);
    free(terms);
    free(q.moves);
    free(q.keys);
    free(q.leaf);
    free(q.st);
    return rc ? -1 : 0;
}

/* ---- fitting ---- */

static double sigmoid(double x)
{
    return 1 / (1 + exp(-x));
}

static double position_eval(const TuneData *d, size_t i, const double *w)
{
    double e = d->base[i];
    for (size_t j = d->start[i]; j < d->start[i + 1]; j++)
        e += (double)d->terms[j].coef * w[d->terms[j].index];
    return e;
}

double tune_error(const TuneData *d, const double *w, double k, int which)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->npos; i++) {
        if (d->valid[i] != which)
            continue;
        double r = sigmoid(k * position_eval(d, i, w)) - d->label[i];
        sum += r * r;
        n++;
    }
    return n ? sum / (double)n : 0;
}

double tune_fit_k(const TuneData *d, const double *w)
{
    /* golden-section search on log k: the error is unimodal in practice */
    double lo = log(1e-5), hi = log(1.0);
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    double fa = tune_error(d, w, exp(a), 0), fb = tune_error(d, w, exp(b), 0);
    for (int it = 0; it < 60; it++) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - phi * (hi - lo);
            fa = tune_error(d, w, exp(a), 0);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + phi * (hi - lo);
            fb = tune_error(d, w, exp(b), 0);
        }
    }
    return exp((lo + hi) / 2);
}

void tune_fit(const TuneData *d, double k, const double *w0, double *w,
              const TuneFitOpts *o)
{
    int np = d->nparams;
    double *grad = calloc((size_t)np, sizeof *grad);
    double *m = calloc((size_t)np, sizeof *m);
    double *v = calloc((size_t)np, sizeof *v);
    if (!grad || !m || !v) {
        free(grad), free(m), free(v);
        return;
    }
    memcpy(w, w0, sizeof *w * (size_t)np);
    size_t ntrain = d->npos - d->nvalid;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-12;
    double b1t = 1, b2t = 1;
    for (int ep = 0; ep < o->epochs && ntrain; ep++) {
        memset(grad, 0, sizeof *grad * (size_t)np);
        for (size_t i = 0; i < d->npos; i++) {
            if (d->valid[i])
                continue;
            double s = sigmoid(k * position_eval(d, i, w));
            /* d/dw of (s - y)^2 / n, through s = sigmoid(k * eval) */
            double gi = 2 * (s - d->label[i]) * s * (1 - s) * k /
                        (double)ntrain;
            for (size_t j = d->start[i]; j < d->start[i + 1]; j++)
                grad[d->terms[j].index] += gi * d->terms[j].coef;
        }
        b1t *= b1;
        b2t *= b2;
        for (int p = 0; p < np; p++) {
            if (o->frozen && o->frozen[p])
                continue;
            double gp = grad[p] + 2 * o->l2 * (w[p] - w0[p]);
            m[p] = b1 * m[p] + (1 - b1) * gp;
            v[p] = b2 * v[p] + (1 - b2) * gp * gp;
            double mh = m[p] / (1 - b1t), vh = v[p] / (1 - b2t);
            w[p] -= o->rate * mh / (sqrt(vh) + eps);
        }
    }
    free(grad);
    free(m);
    free(v);
}
