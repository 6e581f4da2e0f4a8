/* train.c — see train.h. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/setup.h"
#include "../search/alphabeta.h"
#include "train.h"

/* ---- data generation ---- */

typedef struct GenShared {
    const GameVtbl *g;
    const TrainGenOpts *o;
    int opt[PLY_MAX_OPTIONS];
    long ngames;            /* this shard's games */
    atomic_long next;
    char **text;            /* per game: its lines (malloc) */
    size_t *len;
    long *plies;
    int *winner;            /* 0, 1, or 2 for a draw */
    unsigned char *done;
    long written;           /* games written out, in order */
    FILE *out;
    TrainGenStats *stats;
    atomic_int failed;
    PlyError err;
    pthread_mutex_t lock;
} GenShared;

typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

static int buf_add(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns)
            return -1;
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
    return 0;
}

typedef struct Kept {
    char line[1024];        /* "SCORE RESULT SETUP" without the result */
    int score, mover;
} Kept;

static void gen_fail(GenShared *sh, const PlyError *e)
{
    pthread_mutex_lock(&sh->lock);
    if (!atomic_load(&sh->failed))
        sh->err = *e;
    atomic_store(&sh->failed, 1);
    pthread_mutex_unlock(&sh->lock);
}

/* Plays game number k (its index among all shards) and fills its text. */
static int gen_game(GenShared *sh, Bot *play, Bot *score, long slot,
                    long k, void *st, Move *moves, Kept *kept, int maxkept)
{
    const GameVtbl *g = sh->g;
    const TrainGenOpts *o = sh->o;
    PlyError e = {{0}};
    Rng r;
    rng_seed(&r, o->seed + (uint64_t)k * 0x9e3779b97f4a7c15ull);
    if (g->init(st, sh->opt, o->seed + (uint64_t)k, &e)) {
        gen_fail(sh, &e);
        return -1;
    }
    bot_new_game(play);
    if (score)
        bot_new_game(score);
    int nkept = 0;
    long ply = 0;
    while (ply < g->info.max_game_length) {
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL)
            break;
        Move m;
        if (p == PLAYER_CHANCE) {
            double prob[1024];
            int n = g->info.max_moves <= 1024
                  ? g->chance_outcomes(st, moves, prob) : 0;
            if (n <= 0)
                break;
            double x = rng_double(&r), acc = 0;
            m = moves[n - 1];
            for (int i = 0; i < n; i++)
                if (x < (acc += prob[i])) {
                    m = moves[i];
                    break;
                }
        } else if (ply < o->random_plies) {
            int n = g->gen_moves(st, moves);
            if (n <= 0)
                break;
            m = moves[rng_below(&r, (uint32_t)n)];
        } else {
            SearchInfo si;
            memset(&si, 0, sizeof si);
            m = bot_choose(play, st, NULL, &si);
            if (nkept < maxkept && rng_double(&r) < o->keep &&
                !(g->in_check && g->in_check(st))) {
                /* depth 0: the self-play search's own value and move */
                Move b = m;
                if (score) {
                    memset(&si, 0, sizeof si);
                    bot_new_game(score);
                    b = bot_choose(score, st, NULL, &si);
                }
                int quiet = !(g->is_noisy && g->is_noisy(st, b));
                if (quiet && si.value > -EVAL_MAX && si.value < EVAL_MAX) {
                    Kept *kp = &kept[nkept];
                    int len = g->to_text(st, kp->line, sizeof kp->line);
                    if (len > 0 && (size_t)len < sizeof kp->line &&
                        !strchr(kp->line, '\n')) {
                        kp->score = si.value;
                        kp->mover = p;
                        nkept++;
                    }
                }
            }
        }
        g->make(st, m);
        ply++;
    }
    double ret[PLY_MAX_PLAYERS] = {0};
    int over = g->to_move(st) == PLAYER_TERMINAL;
    if (over)
        g->returns(st, ret);
    sh->winner[slot] = !over || ret[0] == ret[1] ? 2 : ret[0] > ret[1] ? 0 : 1;
    sh->plies[slot] = ply;
    Buf b = {0};
    for (int i = 0; i < nkept; i++) {
        double res = over ? (ret[kept[i].mover] + 1) / 2 : 0.5;
        char head[64];
        int n = snprintf(head, sizeof head, "%d %g ", kept[i].score, res);
        if (buf_add(&b, head, (size_t)n) ||
            buf_add(&b, kept[i].line, strlen(kept[i].line)) ||
            buf_add(&b, "\n", 1)) {
            free(b.s);
            PlyError oom;
            ply_fail(&oom, "out of memory");
            gen_fail(sh, &oom);
            return -1;
        }
    }
    /* write out every finished game that follows the last written one,
     * so that a run cut short keeps what it made */
    pthread_mutex_lock(&sh->lock);
    sh->text[slot] = b.s;
    sh->len[slot] = b.len;
    sh->done[slot] = 1;
    while (sh->written < sh->ngames && sh->done[sh->written]) {
        long i = sh->written++;
        TrainGenStats *gs = sh->stats;
        if (sh->len[i])
            fwrite(sh->text[i], 1, sh->len[i], sh->out);
        fflush(sh->out);
        gs->games++;
        gs->plies += sh->plies[i];
        gs->results[sh->winner[i] == 2 ? 1 : sh->winner[i] ? 2 : 0]++;
        for (size_t j = 0; j < sh->len[i]; j++)
            gs->positions += sh->text[i][j] == '\n';
        free(sh->text[i]);
        sh->text[i] = NULL;
    }
    pthread_mutex_unlock(&sh->lock);
    return 0;
}

enum { MAX_KEPT = 4096 };

static void *gen_worker(void *arg)
{
    GenShared *sh = arg;
    const GameVtbl *g = sh->g;
    const TrainGenOpts *o = sh->o;
    PlyError e = {{0}};
    char spec[128];
    snprintf(spec, sizeof spec, "alphabeta:depth=%d,hash=4", o->depth);
    Bot *play = bot_new(g, o->play, o->seed, &e);
    Bot *score = play && o->depth ? bot_new(g, spec, o->seed, &e) : NULL;
    void *st = malloc(g->info.state_size);
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Kept *kept = malloc(sizeof(Kept) * MAX_KEPT);
    if (!play || (o->depth && !score) || !st || !moves || !kept) {
        if (play && (score || !o->depth))
            ply_fail(&e, "out of memory");
        gen_fail(sh, &e);
    } else {
        long slot;
        while (!atomic_load(&sh->failed) &&
               (slot = atomic_fetch_add(&sh->next, 1)) < sh->ngames) {
            long k = (long)o->shard + slot * (long)o->nshards;
            if (gen_game(sh, play, score, slot, k, st, moves, kept,
                         MAX_KEPT))
                break;
        }
    }
    free(kept);
    free(moves);
    free(st);
    bot_free(score);
    bot_free(play);
    return NULL;
}

int train_generate(const GameVtbl *g, const TrainGenOpts *o, FILE *out,
                   TrainGenStats *stats, PlyError *err)
{
    memset(stats, 0, sizeof *stats);
    if (g->info.num_players != 2)
        return ply_fail(err, "training data needs a two-player game");
    if (o->nshards < 1 || o->shard < 0 || o->shard >= o->nshards)
        return ply_fail(err, "bad shard %d/%d", o->shard, o->nshards);
    if (o->depth < 0 || o->depth > 64)
        return ply_fail(err, "the rescoring depth must be in 0..64");
    if (o->jobs < 1 || o->jobs > 256)
        return ply_fail(err, "jobs must be in 1..256");
    GenShared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return ply_fail(err, "out of memory");
    sh->g = g;
    sh->o = o;
    if (options_parse(g, o->options ? o->options : "", sh->opt, err)) {
        free(sh);
        return -1;
    }
    /* a bad spec fails here, before any thread starts */
    Bot *probe = bot_new(g, o->play, o->seed, err);
    if (!probe) {
        free(sh);
        return -1;
    }
    bot_free(probe);
    sh->ngames = o->games <= o->shard ? 0
               : (o->games - o->shard + o->nshards - 1) / o->nshards;
    atomic_init(&sh->next, 0);
    atomic_init(&sh->failed, 0);
    pthread_mutex_init(&sh->lock, NULL);
    size_t ng = (size_t)(sh->ngames > 0 ? sh->ngames : 1);
    sh->text = calloc(ng, sizeof *sh->text);
    sh->len = calloc(ng, sizeof *sh->len);
    sh->plies = calloc(ng, sizeof *sh->plies);
    sh->winner = calloc(ng, sizeof *sh->winner);
    sh->done = calloc(ng, 1);
    sh->out = out;
    sh->stats = stats;
    int rc = 0;
    fprintf(out, "# ply-train-data 1 %s\n", g->info.name);
    if (!sh->text || !sh->len || !sh->plies || !sh->winner || !sh->done) {
        rc = ply_fail(err, "out of memory");
    } else {
        int jobs = o->jobs;
        pthread_t th[256];
        int started = 0;
        for (int i = 1; i < jobs; i++)
            if (!pthread_create(&th[started], NULL, gen_worker, sh))
                started++;
        gen_worker(sh);
        for (int i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        if (atomic_load(&sh->failed)) {
            *err = sh->err;
            rc = -1;
        }
    }
    if (!rc && (fflush(out) || ferror(out)))
        rc = ply_fail(err, "cannot write the data");
    for (long i = 0; sh->text && i < sh->ngames; i++)
        free(sh->text[i]);
    free(sh->text);
    free(sh->len);
    free(sh->plies);
    free(sh->winner);
    free(sh->done);
    pthread_mutex_destroy(&sh->lock);
    free(sh);
    return rc;
}

/* ---- data lines ---- */

/* A data line "SCORE RESULT SETUP" (no line end) into st: 0, with the
 * score, the result and (when setup is not NULL) where the setup text
 * starts; -1 with a message naming name:lineno. */
static int data_line(const GameVtbl *g, void *st, const char *line,
                     const char *name, long lineno, long *score,
                     double *res, const char **setup, PlyError *err)
{
    const char *p = line;
    char *end;
    errno = 0;
    *score = strtol(p, &end, 10);
    if (end == p || *end != ' ' || errno || *score <= -EVAL_MAX ||
        *score >= EVAL_MAX)
        return ply_fail(err, "%s:%ld: expected a score in %d..%d", name,
                        lineno, -EVAL_MAX + 1, EVAL_MAX - 1);
    p = end + 1;
    *res = strtod(p, &end);
    if (end == p || *end != ' ' || !(*res == 0 || *res == 0.5 || *res == 1))
        return ply_fail(err, "%s:%ld: expected a result 0, 0.5 or 1", name,
                        lineno);
    PlyError e = {{0}};
    if (g->from_text(st, end + 1, &e))
        return ply_fail(err, "%s:%ld: %s", name, lineno, e.msg);
    if (g->to_move(st) < 0)
        return ply_fail(err, "%s:%ld: the game is over there", name,
                        lineno);
    if (setup)
        *setup = end + 1;
    return 0;
}

/* A header or comment line (line[0] == '#') of a data file of g: 0 when
 * it is g's header, else -1 with a message. */
static int data_header(const GameVtbl *g, const char *line, const char *name,
                       long lineno, PlyError *err)
{
    char want[128];
    snprintf(want, sizeof want, "# ply-train-data 1 %s", g->info.name);
    if (strcmp(line, want))
        return ply_fail(err, "%s:%ld: expected the header '%s'", name,
                        lineno, want);
    return 0;
}

/* ---- data sets ---- */

void train_set_init(TrainSet *d, const GameVtbl *g, int factors)
{
    memset(d, 0, sizeof *d);
    d->g = g;
    d->factors = factors && g->net && g->net->factor && g->net->nfactors > 0;
    d->maxf = g->net ? g->net->max_active * (d->factors ? 2 : 1) : 0;
}

int train_inputs(const TrainSet *d)
{
    const NetFeatures *nf = d->g->net;
    return nf->ninputs + (d->factors ? nf->nfactors : 0);
}

int train_fold(const TrainSet *d, const NetFloat *n, NetFloat *out)
{
    const NetFeatures *nf = d->g->net;
    if (netf_alloc(out, nf->ninputs, n->hidden))
        return -1;
    size_t H = (size_t)n->hidden;
    memcpy(out->w1, n->w1, sizeof(float) * (size_t)nf->ninputs * H);
    if (d->factors)
        for (int f = 0; f < nf->ninputs; f++) {
            int k = nf->factor(f);
            const float *row = n->w1 + (size_t)(nf->ninputs + k) * H;
            for (size_t h = 0; h < H; h++)
                out->w1[(size_t)f * H + h] += row[h];
        }
    memcpy(out->b1, n->b1, sizeof(float) * H);
    memcpy(out->w2, n->w2, sizeof(float) * 2 * H);
    out->b2 = n->b2;
    out->flags = n->flags;
    return 0;
}

void train_set_free(TrainSet *d)
{
    free(d->feat);
    free(d->nfeat);
    free(d->score);
    free(d->result);
    free(d->hand);
    memset(d, 0, sizeof *d);
}

int train_set_add(TrainSet *d, const void *st, double score, double result)
{
    const GameVtbl *g = d->g;
    if (!g->net || d->maxf > 255)
        return -1;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 4096;
        size_t mf = (size_t)d->maxf;
        uint16_t *f = realloc(d->feat, sizeof *f * cap * 2 * mf);
        if (f)
            d->feat = f;
        uint8_t *nf = realloc(d->nfeat, cap * 2);
        if (nf)
            d->nfeat = nf;
        float *s = realloc(d->score, sizeof *s * cap);
        if (s)
            d->score = s;
        float *r = realloc(d->result, sizeof *r * cap);
        if (r)
            d->result = r;
        float *hd = realloc(d->hand, sizeof *hd * cap);
        if (hd)
            d->hand = hd;
        if (!f || !nf || !s || !r || !hd)
            return -1;
        d->cap = cap;
    }
    int mover = g->to_move(st) == 1;
    for (int side = 0; side < 2; side++) {
        uint16_t *f = d->feat + (d->n * 2 + (size_t)side) * (size_t)d->maxf;
        int cnt = g->net->features(st, side ? 1 - mover : mover, f);
        net_sort_features(f, cnt);
        if (d->factors)
            for (int i = 0, n0 = cnt; i < n0; i++)
                f[cnt++] = (uint16_t)(g->net->ninputs + g->net->factor(f[i]));
        d->nfeat[d->n * 2 + (size_t)side] = (uint8_t)cnt;
    }
    d->score[d->n] = (float)score;
    d->result[d->n] = (float)result;
    d->hand[d->n] = g->eval ? (float)g->eval(st, g->to_move(st)) : 0;
    d->n++;
    return 0;
}

int train_set_read(TrainSet *d, FILE *f, const char *name,
                   const char *options, PlyError *err)
{
    const GameVtbl *g = d->g;
    if (!g->net)
        return ply_fail(err, "%s has no net inputs", g->info.name);
    int opt[PLY_MAX_OPTIONS];
    if (options_parse(g, options ? options : "", opt, err))
        return -1;
    void *st = malloc(g->info.state_size);
    if (!st)
        return ply_fail(err, "out of memory");
    PlyError e = {{0}};
    if (g->init(st, opt, 1, &e)) {
        free(st);
        return ply_fail(err, "%s", e.msg);
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0, header = 0;
    char want[128];
    snprintf(want, sizeof want, "# ply-train-data 1 %s", g->info.name);
    ssize_t len;
    while (!rc && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (line[0] == '#') {
            if (data_header(g, line, name, lineno, err))
                rc = -1;
            header = 1;
            continue;
        }
        if (!header) {
            rc = ply_fail(err, "%s:%ld: not training data (no header '%s')",
                          name, lineno, want);
            break;
        }
        if (!line[0])
            continue;
        long score;
        double res;
        if (data_line(g, st, line, name, lineno, &score, &res, NULL, err)) {
            rc = -1;
            break;
        }
        if (train_set_add(d, st, (double)score, res))
            rc = ply_fail(err, "out of memory");
    }
    if (!rc && ferror(f))
        rc = ply_fail(err, "%s: read error", name);
    free(line);
    free(st);
    return rc;
}

/* ---- rescoring ---- */

enum { RESCORE_BLOCK = 2048 };

typedef struct RescoreShared {
    const GameVtbl *g;
    char **lines;           /* the block's lines (setups start at setup[i]) */
    const char **setup;
    long *score;            /* in: the old score; out: the new one */
    signed char *drop;      /* out: 0 kept, 1 noisy, 2 a mate */
    int n;
    atomic_int next;
    Bot **bots;
    void **states;
} RescoreShared;

typedef struct RescoreJob {
    RescoreShared *sh;
    int k;                  /* its bot and state */
} RescoreJob;

static void *rescore_worker(void *arg)
{
    RescoreJob *j = arg;
    RescoreShared *sh = j->sh;
    const GameVtbl *g = sh->g;
    void *st = sh->states[j->k];
    Bot *bot = sh->bots[j->k];
    int i;
    while ((i = atomic_fetch_add(&sh->next, 1)) < sh->n) {
        PlyError e = {{0}};
        if (g->from_text(st, sh->setup[i], &e)) {
            /* not reached: the reader parsed this setup already */
            sh->drop[i] = 1;
            continue;
        }
        SearchInfo si;
        memset(&si, 0, sizeof si);
        bot_new_game(bot);
        Move b = bot_choose(bot, st, NULL, &si);
        if (g->is_noisy && g->is_noisy(st, b))
            sh->drop[i] = 1;
        else if (!(si.value > -EVAL_MAX && si.value < EVAL_MAX))
            sh->drop[i] = 2;
        else {
            sh->drop[i] = 0;
            sh->score[i] = si.value;
        }
    }
    return NULL;
}

/* Searches the block's positions on the jobs' threads and writes them. */
static int rescore_block(RescoreShared *sh, int jobs, FILE *out,
                         TrainRescoreStats *stats, PlyError *err)
{
    atomic_store(&sh->next, 0);
    RescoreJob job[256];
    pthread_t th[256];
    int started = 0;
    for (int k = 0; k < jobs; k++)
        job[k] = (RescoreJob){.sh = sh, .k = k};
    for (int k = 1; k < jobs; k++)
        if (!pthread_create(&th[started], NULL, rescore_worker, &job[k]))
            started++;
    rescore_worker(&job[0]);
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (int i = 0; i < sh->n; i++) {
        if (sh->drop[i]) {
            stats->noisy += sh->drop[i] == 1;
            stats->mates += sh->drop[i] == 2;
            continue;
        }
        /* the line is "SCORE RESULT SETUP": the result is kept as read */
        const char *res = strchr(sh->lines[i], ' ') + 1;
        if (fprintf(out, "%ld %s\n", sh->score[i], res) < 0)
            return ply_fail(err, "cannot write the data");
        stats->kept++;
    }
    if (fflush(out) || ferror(out))
        return ply_fail(err, "cannot write the data");
    for (int i = 0; i < sh->n; i++) {
        free(sh->lines[i]);
        sh->lines[i] = NULL;
    }
    sh->n = 0;
    return 0;
}

int train_rescore(const GameVtbl *g, const TrainRescoreOpts *o, FILE *in,
                  const char *name, FILE *out, TrainRescoreStats *stats,
                  PlyError *err)
{
    if (g->info.num_players != 2)
        return ply_fail(err, "training data needs a two-player game");
    if (o->jobs < 1 || o->jobs > 256)
        return ply_fail(err, "jobs must be in 1..256");
    if (!o->bot && (o->depth < 1 || o->depth > 64))
        return ply_fail(err, "the rescoring depth must be in 1..64");
    int opt[PLY_MAX_OPTIONS];
    if (options_parse(g, o->options ? o->options : "", opt, err))
        return -1;
    char spec[128];
    snprintf(spec, sizeof spec, "alphabeta:depth=%d,hash=4", o->depth);
    RescoreShared sh = {.g = g};
    sh.lines = calloc(RESCORE_BLOCK, sizeof *sh.lines);
    sh.setup = calloc(RESCORE_BLOCK, sizeof *sh.setup);
    sh.score = calloc(RESCORE_BLOCK, sizeof *sh.score);
    sh.drop = calloc(RESCORE_BLOCK, 1);
    sh.bots = calloc((size_t)o->jobs, sizeof *sh.bots);
    sh.states = calloc((size_t)o->jobs, sizeof *sh.states);
    void *st = malloc(g->info.state_size);
    int rc = 0;
    if (!sh.lines || !sh.setup || !sh.score || !sh.drop || !sh.bots ||
        !sh.states || !st)
        rc = ply_fail(err, "out of memory");
    PlyError e = {{0}};
    if (!rc && g->init(st, opt, 1, &e))
        rc = ply_fail(err, "%s", e.msg);
    for (int k = 0; !rc && k < o->jobs; k++) {
        sh.states[k] = malloc(g->info.state_size);
        if (!sh.states[k])
            rc = ply_fail(err, "out of memory");
        else if (g->init(sh.states[k], opt, 1, &e))
            rc = ply_fail(err, "%s", e.msg);
        else if (!(sh.bots[k] = bot_new(g, o->bot ? o->bot : spec, o->seed,
                                        err)))
            rc = -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int header = 0;
    ssize_t len;
    while (!rc && (len = getline(&line, &cap, in)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (line[0] == '#') {
            rc = data_header(g, line, name, lineno, err);
            header = 1;
            continue;
        }
        if (!header) {
            rc = ply_fail(err, "%s:%ld: not training data (no header)", name,
                          lineno);
            break;
        }
        if (!line[0])
            continue;
        long score;
        double res;
        const char *setup;
        if (data_line(g, st, line, name, lineno, &score, &res, &setup,
                      err)) {
            rc = -1;
            break;
        }
        char *copy = strdup(line);
        if (!copy) {
            rc = ply_fail(err, "out of memory");
            break;
        }
        sh.lines[sh.n] = copy;
        sh.setup[sh.n] = copy + (setup - line);
        sh.score[sh.n] = score;
        sh.n++;
        stats->read++;
        if (sh.n == RESCORE_BLOCK)
            rc = rescore_block(&sh, o->jobs, out, stats, err);
    }
    if (!rc && ferror(in))
        rc = ply_fail(err, "%s: read error", name);
    if (!rc && sh.n)
        rc = rescore_block(&sh, o->jobs, out, stats, err);
    free(line);
    for (int i = 0; sh.lines && i < sh.n; i++)
        free(sh.lines[i]);
    for (int k = 0; k < o->jobs; k++) {
        if (sh.bots)
            bot_free(sh.bots[k]);
        if (sh.states)
            free(sh.states[k]);
    }
    free(sh.lines);
    free(sh.setup);
    free(sh.score);
    free(sh.drop);
    free(sh.bots);
    free(sh.states);
    free(st);
    return rc;
}

/* ---- training ---- */

static int is_valid(size_t i, int percent)
{
    /* by blocks of 256 positions: the positions of one game (written
     * together) fall mostly on one side */
    return (int)(ply_mix64(i / 256 + 0x51ed2701u) % 100) < percent;
}

static double sigmoid(double x)
{
    return 1 / (1 + exp(-x));
}

static double target_of(const TrainSet *d, size_t i, const TrainFitOpts *o)
{
    return o->lambda * sigmoid(d->score[i] / o->k) +
           (1 - o->lambda) * d->result[i];
}

static float forward_at(const TrainSet *d, const NetFloat *n, size_t i,
                        float *acc)
{
    size_t mf = (size_t)d->maxf;
    const uint16_t *fm = d->feat + i * 2 * mf;
    return netf_forward(n, fm, d->nfeat[i * 2], fm + mf, d->nfeat[i * 2 + 1],
                        acc);
}

double train_loss(const TrainSet *d, const NetFloat *n,
                  const TrainFitOpts *o, int which)
{
    double sum = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (is_valid(i, o->valid_percent) != which)
            continue;
        double y = n ? forward_at(d, n, i, NULL) * NET_OUT_SCALE +
                           (n->flags & NET_ADDS_EVAL ? d->hand[i] : 0)
                     : d->hand[i];
        double e = sigmoid(y / o->k) - target_of(d, i, o);
        sum += e * e;
        cnt++;
    }
    return cnt ? sum / (double)cnt : 0;
}

static float clip(float x, float c)
{
    return x > c ? c : x < -c ? -c : x;
}

static void adam_step(float *w, float *g, float *m, float *v, size_t n,
                      float lr, float decay, float b1t, float b2t)
{
    const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    for (size_t i = 0; i < n; i++) {
        m[i] = b1 * m[i] + (1 - b1) * g[i];
        v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
        float mh = m[i] / (1 - b1t), vh = v[i] / (1 - b2t);
        w[i] -= lr * mh / (sqrtf(vh) + eps) + decay * w[i];
        g[i] = 0;
    }
}

int train_fit(const TrainSet *d, NetFloat *n, const TrainFitOpts *o,
              PlyError *err)
{
    int H = n->hidden;
    size_t nw1 = (size_t)n->ninputs * (size_t)H;
    size_t *idx = malloc(sizeof(size_t) * (d->n ? d->n : 1));
    float *g1 = calloc(nw1, sizeof(float));
    float *m1 = calloc(nw1, sizeof(float)), *v1 = calloc(nw1, sizeof(float));
    size_t nsmall = (size_t)H + 2 * (size_t)H + 1;
    float *gs = calloc(nsmall, sizeof(float));
    float *ms = calloc(nsmall, sizeof(float)), *vs = calloc(nsmall, sizeof(float));
    float *ws = calloc(nsmall, sizeof(float));
    unsigned char *touched = calloc((size_t)n->ninputs, 1);
    int *tlist = malloc(sizeof(int) * (size_t)n->ninputs);
    float *acc = malloc(sizeof(float) * 2 * (size_t)H);
    int rc = 0;
    if (!idx || !g1 || !m1 || !v1 || !gs || !ms || !vs || !ws || !touched ||
        !tlist || !acc) {
        rc = ply_fail(err, "out of memory");
        goto done;
    }
    size_t ntrain = 0;
    for (size_t i = 0; i < d->n; i++)
        if (!is_valid(i, o->valid_percent))
            idx[ntrain++] = i;
    Rng r;
    rng_seed(&r, o->seed);
    /* with factors, a feature's row and its factor's are added: each
     * keeps half the bound */
    float c1 = net_clip_w1(d->g->net->max_active) / (d->factors ? 2 : 1);
    netf_clip(n, d->g->net->max_active * (d->factors ? 2 : 1));
    long step = 0;
    float b1t = 1, b2t = 1;
    /* the small parameters live in one vector: b1, w2, b2 */
    for (int ep = 0; ep < o->epochs; ep++) {
        for (size_t i = ntrain; i > 1; i--) {
            size_t j = rng_below(&r, (uint32_t)i);
            size_t t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
        for (size_t start = 0; start < ntrain; start += (size_t)o->batch) {
            size_t end = start + (size_t)o->batch;
            if (end > ntrain)
                end = ntrain;
            float inv = 1.0f / (float)(end - start);
            int nt = 0;
            for (size_t b = start; b < end; b++) {
                size_t i = idx[b];
                float y = forward_at(d, n, i, acc);
                double base = n->flags & NET_ADDS_EVAL ? d->hand[i] : 0;
                double p = sigmoid((y * NET_OUT_SCALE + base) / o->k);
                double e = p - target_of(d, i, o);
                float dy = (float)(2 * e * p * (1 - p) * NET_OUT_SCALE /
                                   o->k) * inv;
                gs[3 * H] += dy;
                size_t mf = (size_t)d->maxf;
                for (int side = 0; side < 2; side++) {
                    const uint16_t *f = d->feat + (i * 2 + (size_t)side) * mf;
                    int cnt = d->nfeat[i * 2 + (size_t)side];
                    const float *a = acc + side * H;
                    const float *w2 = n->w2 + side * H;
                    float *gw2 = gs + H + side * H;
                    float da[NET_MAX_HIDDEN];
                    for (int h = 0; h < H; h++) {
                        float x = a[h];
                        int live = x > 0 && x < 1;
                        gw2[h] += dy * (x < 0 ? 0 : x > 1 ? 1 : x);
                        da[h] = live ? dy * w2[h] : 0;
                        gs[h] += da[h];
                    }
                    for (int k = 0; k < cnt; k++) {
                        float *row = g1 + (size_t)f[k] * (size_t)H;
                        for (int h = 0; h < H; h++)
                            row[h] += da[h];
                        if (!touched[f[k]]) {
                            touched[f[k]] = 1;
                            tlist[nt++] = f[k];
                        }
                    }
                }
            }
            step++;
            b1t *= 0.9f;
            b2t *= 0.999f;
            float lr = (float)o->rate, decay = (float)(o->rate * o->l2);
            for (int t = 0; t < nt; t++) {
                size_t off = (size_t)tlist[t] * (size_t)H;
                adam_step(n->w1 + off, g1 + off, m1 + off, v1 + off,
                          (size_t)H, lr, decay, b1t, b2t);
                for (int h = 0; h < H; h++)
                    n->w1[off + (size_t)h] = clip(n->w1[off + (size_t)h], c1);
                touched[tlist[t]] = 0;
            }
            memcpy(ws, n->b1, sizeof(float) * (size_t)H);
            memcpy(ws + H, n->w2, sizeof(float) * 2 * (size_t)H);
            ws[3 * H] = n->b2;
            adam_step(ws, gs, ms, vs, nsmall, lr, decay, b1t, b2t);
            memcpy(n->b1, ws, sizeof(float) * (size_t)H);
            memcpy(n->w2, ws + H, sizeof(float) * 2 * (size_t)H);
            n->b2 = clip(ws[3 * H], NET_B2_CLIP);
            for (int h = 0; h < H; h++)
                n->b1[h] = clip(n->b1[h], c1);
            for (int h = 0; h < 2 * H; h++)
                n->w2[h] = clip(n->w2[h], NET_W2_CLIP);
        }
        if (o->log)
            fprintf(o->log, "epoch %d  train %.6f  validation %.6f\n", ep + 1,
                    train_loss(d, n, o, 0), train_loss(d, n, o, 1));
    }
    (void)step;
done:
    free(idx);
    free(g1);
    free(m1);
    free(v1);
    free(gs);
    free(ms);
    free(vs);
    free(ws);
    free(touched);
    free(tlist);
    free(acc);
    return rc;
}
