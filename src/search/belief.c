/* belief.c — the particle filter of belief.h. */
#include "belief.h"

#include <stdlib.h>
#include <string.h>

#include "../core/setup.h"

enum { KIND_NONE = 0, KIND_MOVE = 1 };

int belief_init(Belief *b, const GameVtbl *g, int cap, int model,
                PlyError *err)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    b->model = model;
    if (cap <= 0 || !(g->info.flags & GAME_HIDDEN) || !g->observe ||
        !g->determinize)
        return 0;   /* off: belief_world() is bot_world() */
    b->cap = cap;
    b->sz = g->info.state_size;
    size_t mm = (size_t)g->info.max_moves, c = (size_t)cap;
    b->p = malloc(b->sz * c);
    b->next = malloc(b->sz * c);
    b->count = malloc(sizeof(uint32_t) * c);
    b->cnt = malloc(sizeof(uint32_t) * c);
    b->draws = malloc(sizeof(uint32_t) * c);
    b->hash = malloc(sizeof(uint64_t) * c);
    b->pw = malloc(sizeof(double) * c);
    b->koff = malloc(sizeof(int) * c);
    b->order = malloc(sizeof(uint64_t) * c);
    b->knum = malloc(sizeof(int) * c);
    b->tmask = 1;
    while (b->tmask < 2 * c)
        b->tmask <<= 1;
    b->tab = malloc(sizeof(int) * b->tmask--);
    b->last = malloc(b->sz);
    b->tmp = malloc(b->sz);
    b->tmp2 = malloc(b->sz);
    b->obs = malloc(b->sz);
    b->mv = malloc(sizeof(Move) * mm);
    b->mw = malloc(sizeof(double) * mm);
    b->cmove = malloc(sizeof(Move) * (mm + 1));
    b->ckind = malloc(mm + 1);
    b->cw = malloc(sizeof(double) * (mm + 1));
    b->chits = malloc(sizeof(uint32_t) * (mm + 1));
    if (!b->p || !b->next || !b->count || !b->cnt || !b->draws ||
        !b->hash || !b->pw || !b->tab || !b->koff || !b->knum || !b->order || !b->last || !b->tmp || !b->tmp2 || !b->obs ||
        !b->mv || !b->mw || !b->cmove || !b->ckind || !b->cw || !b->chits) {
        belief_free(b);
        return ply_fail(err, "out of memory");
    }
    return 0;
}

void belief_free(Belief *b)
{
    free(b->p), free(b->next), free(b->count), free(b->cnt);
    free(b->draws), free(b->hash), free(b->pw), free(b->last);
    free(b->tab), free(b->koff), free(b->knum), free(b->order);
    free(b->kmove), free(b->kkind), free(b->kw);
    free(b->tmp), free(b->tmp2), free(b->obs), free(b->mv), free(b->mw);
    free(b->cmove), free(b->ckind), free(b->cw), free(b->chits);
    memset(b, 0, sizeof *b);
}

void belief_reset(Belief *b)
{
    b->n = 0;
    b->total = 0;
    b->have_last = 0;
    b->have_mine = 0;
    b->restarts = 0;
}

void belief_chose(Belief *b, Move m)
{
    if (!b->cap || !b->have_last)
        return;
    b->mine = m;
    b->have_mine = 1;
}

/* Whether the seat sees st as obs. */
static int consistent(Belief *b, const void *st, const void *obs)
{
    b->g->observe(st, b->me, b->obs);
    return !memcmp(b->obs, obs, b->sz);
}

/* The opponent model's weight of each of the k moves at st (into w, summing
 * to 1): uniform, or four times as likely for a noisy move (a capture). */
static void model_weights(Belief *b, const void *st, int k, double *w)
{
    const GameVtbl *g = b->g;
    double sum = 0;
    for (int i = 0; i < k; i++) {
        w[i] = b->model && g->is_noisy && g->is_noisy(st, b->mv[i]) ? 4 : 1;
        sum += w[i];
    }
    for (int i = 0; i < k; i++)
        w[i] /= sum;
}

/* The children of st (a particle after the seat's move) that leave the
 * seat the observation obs: st itself when the seat is to move, else each
 * reply of the other player (or each chance outcome) after which the seat
 * is to move again. Into b->cmove/ckind/cw; returns their total weight. */
static double expand(Belief *b, const void *st, const void *obs)
{
    const GameVtbl *g = b->g;
    int pl = g->to_move(st);
    b->ncand = 0;
    if (pl == b->me) {
        if (!consistent(b, st, obs))
            return 0;
        b->cmove[0] = 0;
        b->ckind[0] = KIND_NONE;
        b->cw[0] = 1;
        b->ncand = 1;
        return 1;
    }
    if (pl == PLAYER_TERMINAL)
        return 0;
    int k;
    if (pl == PLAYER_CHANCE) {
        if (!g->chance_outcomes)
            return 0;
        k = g->chance_outcomes(st, b->mv, b->mw);
    } else {
        k = g->gen_moves(st, b->mv);
        model_weights(b, st, k, b->mw);
    }
    double sum = 0;
    for (int i = 0; i < k; i++) {
        memcpy(b->tmp2, st, b->sz);
        g->make(b->tmp2, b->mv[i]);
        if (g->to_move(b->tmp2) != b->me || !consistent(b, b->tmp2, obs))
            continue;
        b->cmove[b->ncand] = b->mv[i];
        b->ckind[b->ncand] = KIND_MOVE;
        b->cw[b->ncand] = b->mw[i];
        b->ncand++;
        sum += b->mw[i];
    }
    return sum;
}

/* Systematic resampling: `draws` draws over the n weights w (total W)
 * into hits. */
static void systematic(const double *w, int n, double W, uint32_t draws,
                       uint32_t *hits, Rng *r)
{
    memset(hits, 0, sizeof *hits * (size_t)n);
    double step = W / draws, u = rng_double(r) * step, acc = 0;
    int c = 0;
    for (uint32_t j = 0; j < draws; j++) {
        double t = u + step * j;
        while (c < n - 1 && acc + w[c] <= t)
            acc += w[c++];
        hits[c]++;
    }
}

/* Particle i played forward to the start of the seat's turn (st: b->tmp). */
static int particle_after(Belief *b, int i, int apply_mine)
{
    memcpy(b->tmp, b->p + b->sz * (size_t)i, b->sz);
    if (!apply_mine)
        return 1;
    if (!state_is_legal(b->g, b->tmp, b->mine))
        return 0;
    b->g->make(b->tmp, b->mine);
    return 1;
}

/* Room for k more children in the store; 0 when memory is short. */
static int kids_room(Belief *b, int k)
{
    if (b->nkids + k <= b->kcap)
        return 1;
    int cap = b->kcap ? b->kcap : 1024;
    while (cap < b->nkids + k)
        cap *= 2;
    Move *m = realloc(b->kmove, sizeof(Move) * (size_t)cap);
    if (m)
        b->kmove = m;
    unsigned char *kk = realloc(b->kkind, (size_t)cap);
    if (kk)
        b->kkind = kk;
    double *w = realloc(b->kw, sizeof(double) * (size_t)cap);
    if (w)
        b->kw = w;
    if (!m || !kk || !w)
        return 0;
    b->kcap = cap;
    return 1;
}

/* The seat's move, then the others', from every particle: each particle
 * weighted by its copies times the model's odds of the replies that
 * explain obs; cap draws over the particles, then each particle's draws
 * over its replies; equal worlds merged. With a deadline (until, on clk)
 * the particles not reached by then are left out. */
static int by_count(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return *a < *b ? 1 : *a > *b ? -1 : 0;
}

static int advance(Belief *b, const void *obs, int apply_mine, Rng *r,
                   const BotClock *clk, int64_t until)
{
    const GameVtbl *g = b->g;
    double W = 0;
    int m = b->n;
    b->nkids = 0;
    /* the likeliest first (ties by index): a deadline drops the least
     * likely */
    for (int i = 0; i < b->n; i++)
        b->order[i] = (uint64_t)b->count[i] << 32 |
                      (uint32_t)(b->n - 1 - i);
    qsort(b->order, (size_t)b->n, sizeof *b->order, by_count);
    for (int t = 0; t < b->n; t++) {
        int i = b->n - 1 - (int)(uint32_t)b->order[t];
        if (until && !(t & 15) && t && limits_now_us(clk->lim) >= until) {
            m = t;
            break;
        }
        b->koff[t] = b->nkids;
        b->knum[t] = 0;
        b->pw[t] = 0;
        if (!particle_after(b, i, apply_mine))
            continue;
        double cw = expand(b, b->tmp, obs);
        if (!b->ncand || !kids_room(b, b->ncand))
            continue;
        memcpy(b->kmove + b->nkids, b->cmove, sizeof(Move) * (size_t)b->ncand);
        memcpy(b->kkind + b->nkids, b->ckind, (size_t)b->ncand);
        memcpy(b->kw + b->nkids, b->cw, sizeof(double) * (size_t)b->ncand);
        b->knum[t] = b->ncand;
        b->nkids += b->ncand;
        b->pw[t] = cw * b->count[i];
        W += b->pw[t];
    }
    if (!(W > 0))
        return 0;
    systematic(b->pw, m, W, (uint32_t)b->cap, b->draws, r);
    memset(b->tab, 0xff, sizeof(int) * (b->tmask + 1));
    int n = 0;
    for (int t = 0; t < m; t++) {
        if (!b->draws[t])
            continue;
        particle_after(b, b->n - 1 - (int)(uint32_t)b->order[t], apply_mine);
        int off = b->koff[t], k = b->knum[t];
        double cw = 0;
        for (int j = 0; j < k; j++)
            cw += b->kw[off + j];
        systematic(b->kw + off, k, cw, b->draws[t], b->chits, r);
        for (int j = 0; j < k; j++) {
            if (!b->chits[j])
                continue;
            unsigned char *w = b->next + b->sz * (size_t)n;
            memcpy(w, b->tmp, b->sz);
            if (b->kkind[off + j] == KIND_MOVE)
                g->make(w, b->kmove[off + j]);
            uint64_t hw = g->hash(w);
            uint32_t slot = (uint32_t)hw & b->tmask;
            int same = -1;
            for (; b->tab[slot] >= 0; slot = (slot + 1) & b->tmask) {
                int x = b->tab[slot];
                if (b->hash[x] == hw &&
                    !memcmp(b->next + b->sz * (size_t)x, w, b->sz)) {
                    same = x;
                    break;
                }
            }
            if (same >= 0) {
                b->cnt[same] += b->chits[j];
                continue;
            }
            b->tab[slot] = n;
            b->hash[n] = hw;
            b->cnt[n++] = b->chits[j];
        }
    }
    unsigned char *t = b->p;
    b->p = b->next;
    b->next = t;
    b->n = n;
    b->total = 0;
    for (int i = 0; i < n; i++)
        b->total += (b->count[i] = b->cnt[i]);
    return n > 0;
}

/* The game's start position (default options) and every sequence of up
 * to START_PLIES moves from it (while they fit in cap worlds): the worlds
 * where the seat is to move and sees obs, equally likely. A game begun
 * from the start, or after a few random opening moves, is known from its
 * first turn. */
enum { START_PLIES = 4 };

static int from_start(Belief *b, const void *obs)
{
    const GameVtbl *g = b->g;
    int opt[PLY_MAX_OPTIONS];
    PlyError e = {{0}};
    if (options_parse(g, NULL, opt, &e))
        return 0;
    memset(b->p, 0, b->sz);
    if (g->init(b->p, opt, 0, &e))
        return 0;
    int n = 1;
    for (int level = 0;; level++) {
        int found = 0;
        for (int i = 0; i < n; i++) {
            unsigned char *x = b->p + b->sz * (size_t)i;
            if (g->to_move(x) != b->me || !consistent(b, x, obs))
                continue;
            if (found != i)
                memcpy(b->p + b->sz * (size_t)found, x, b->sz);
            found++;
        }
        if (found) {
            b->n = found;
            b->total = (uint32_t)b->cap;
            for (int i = 0; i < found; i++)
                b->count[i] = (uint32_t)(b->cap / found +
                                         (i < b->cap % found));
            return 1;
        }
        if (level == START_PLIES)
            return 0;
        int nn = 0;
        for (int i = 0; i < n; i++) {
            const unsigned char *x = b->p + b->sz * (size_t)i;
            int pl = g->to_move(x), k;
            if (pl == PLAYER_TERMINAL)
                continue;
            if (pl == PLAYER_CHANCE)
                k = g->chance_outcomes ? g->chance_outcomes(x, b->mv, b->mw)
                                       : 0;
            else
                k = g->gen_moves(x, b->mv);
            for (int j = 0; j < k; j++) {
                if (nn == b->cap)
                    return 0;   /* too many: give up */
                unsigned char *y = b->next + b->sz * (size_t)nn++;
                memcpy(y, x, b->sz);
                g->make(y, b->mv[j]);
            }
        }
        unsigned char *t = b->p;
        b->p = b->next;
        b->next = t;
        n = nn;
        if (!n)
            return 0;
    }
}

static void from_determinize(Belief *b, const void *obs, Rng *r)
{
    for (int i = 0; i < b->cap; i++) {
        b->g->determinize(obs, b->me, r, b->p + b->sz * (size_t)i);
        b->count[i] = 1;
    }
    b->n = b->cap;
    b->total = (uint32_t)b->cap;
}

void belief_observe(Belief *b, const void *obs, Rng *r, const BotClock *clk,
                    int64_t until)
{
    if (!b->cap)
        return;
    const GameVtbl *g = b->g;
    int me = g->to_move(obs);
    if (me < 0)
        return;
    if (b->have_last && b->me == me && !memcmp(obs, b->last, b->sz))
        return;   /* the same turn again (analysis, a second search) */
    /* nothing hidden from the seat now (banqi: chance for both): the one
     * world is the observation */
    g->determinize(obs, me, r, b->tmp);
    if (!memcmp(b->tmp, obs, b->sz)) {
        memcpy(b->p, obs, b->sz);
        b->n = 1;
        b->count[0] = b->total = (uint32_t)b->cap;
        b->me = me;
        memcpy(b->last, obs, b->sz);
        b->have_last = 1;
        b->have_mine = 0;
        return;
    }
    int ok = 0;
    if (b->have_last && b->have_mine && b->me == me && b->n > 0)
        ok = advance(b, obs, 1, r, clk, until);
    b->me = me;
    if (!ok) {
        b->restarts++;
        if (!from_start(b, obs))
            from_determinize(b, obs, r);
    }
    memcpy(b->last, obs, b->sz);
    b->have_last = 1;
    b->have_mine = 0;
}

const void *belief_world(Belief *b, const void *obs, Rng *r, void *buf)
{
    if (!b->cap || !b->n || !b->have_last || memcmp(obs, b->last, b->sz))
        return bot_world(b->g, obs, r, buf);
    uint32_t x = rng_below(r, b->total);
    int i = 0;
    while (i < b->n - 1 && x >= b->count[i])
        x -= b->count[i++];
    memcpy(buf, b->p + b->sz * (size_t)i, b->sz);
    return buf;
}

int belief_distinct(const Belief *b, const void *obs)
{
    if (!b->cap || !b->n || !b->have_last || memcmp(obs, b->last, b->sz))
        return 0;
    return b->n;
}

const void *belief_world_at(const Belief *b, int i, uint32_t *count)
{
    *count = b->count[i];
    return b->p + b->sz * (size_t)i;
}
