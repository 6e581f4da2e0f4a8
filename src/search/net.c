/* net.c — see net.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"
#include "net.h"

static const unsigned char net_magic[8] = {'P', 'L', 'Y', 'N', 'E', 'T',
                                           '\r', '\n'};
/* The header: magic, version, inputs, hidden, scale, [flags,] names. */
enum { NET_HEADER_V1 = 8 + 4 * 4 + 2 * NET_NAME_LEN };

static size_t net_header(uint32_t version)
{
    return NET_HEADER_V1 + (version >= 2 ? 4 : 0);
}

void net_sort_features(uint16_t *f, int n)
{
    for (int i = 1; i < n; i++) {
        uint16_t x = f[i];
        int j = i;
        while (j > 0 && f[j - 1] > x) {
            f[j] = f[j - 1];
            j--;
        }
        f[j] = x;
    }
}

/* ---- float form ---- */

int netf_alloc(NetFloat *n, int ninputs, int hidden)
{
    memset(n, 0, sizeof *n);
    n->ninputs = ninputs;
    n->hidden = hidden;
    n->w1 = calloc((size_t)ninputs * (size_t)hidden, sizeof(float));
    n->b1 = calloc((size_t)hidden, sizeof(float));
    n->w2 = calloc(2 * (size_t)hidden, sizeof(float));
    if (!n->w1 || !n->b1 || !n->w2) {
        netf_free(n);
        return -1;
    }
    return 0;
}

void netf_free(NetFloat *n)
{
    free(n->w1);
    free(n->b1);
    free(n->w2);
    n->w1 = n->b1 = n->w2 = NULL;
}

static float uniform(Rng *r, float a)
{
    return (float)((rng_double(r) * 2 - 1) * a);
}

void netf_randomize(NetFloat *n, uint64_t seed)
{
    Rng r;
    rng_seed(&r, seed);
    size_t nw1 = (size_t)n->ninputs * (size_t)n->hidden;
    for (size_t i = 0; i < nw1; i++)
        n->w1[i] = uniform(&r, 0.05f);
    for (int h = 0; h < n->hidden; h++)
        n->b1[h] = 0.1f + uniform(&r, 0.05f);
    float a = 1.0f / sqrtf((float)(2 * n->hidden));
    for (int h = 0; h < 2 * n->hidden; h++)
        n->w2[h] = uniform(&r, a);
    n->b2 = 0;
}

float netf_forward(const NetFloat *n, const uint16_t *fm, int nm,
                   const uint16_t *fo, int no, float *acc)
{
    int H = n->hidden;
    float y = n->b2;
    for (int side = 0; side < 2; side++) {
        const uint16_t *f = side ? fo : fm;
        int cnt = side ? no : nm;
        float a[NET_MAX_HIDDEN];
        memcpy(a, n->b1, sizeof(float) * (size_t)H);
        for (int i = 0; i < cnt; i++) {
            const float *row = n->w1 + (size_t)f[i] * (size_t)H;
            for (int h = 0; h < H; h++)
                a[h] += row[h];
        }
        const float *w2 = n->w2 + side * H;
        for (int h = 0; h < H; h++) {
            float x = a[h] < 0 ? 0 : a[h] > 1 ? 1 : a[h];
            y += w2[h] * x;
        }
        if (acc)
            memcpy(acc + side * H, a, sizeof(float) * (size_t)H);
    }
    return y;
}

float net_clip_w1(int max_active)
{
    float c = 32000.0f / ((float)NET_QA * (float)(max_active + 1));
    return c > 1.98f ? 1.98f : c;
}

static float clipf(float x, float c)
{
    return x > c ? c : x < -c ? -c : x;
}

void netf_clip(NetFloat *n, int max_active)
{
    float c = net_clip_w1(max_active);
    size_t nw1 = (size_t)n->ninputs * (size_t)n->hidden;
    for (size_t i = 0; i < nw1; i++)
        n->w1[i] = clipf(n->w1[i], c);
    for (int h = 0; h < n->hidden; h++)
        n->b1[h] = clipf(n->b1[h], c);
    for (int h = 0; h < 2 * n->hidden; h++)
        n->w2[h] = clipf(n->w2[h], NET_W2_CLIP);
    n->b2 = clipf(n->b2, NET_B2_CLIP);
}

/* ---- quantised form ---- */

static int net_alloc(Net *q, const GameVtbl *g, int ninputs, int hidden)
{
    memset(q, 0, sizeof *q);
    q->g = g;
    q->nf = g->net;
    q->ninputs = ninputs;
    q->hidden = hidden;
    q->w1 = malloc(sizeof(int16_t) * (size_t)ninputs * (size_t)hidden);
    q->b1 = malloc(sizeof(int16_t) * (size_t)hidden);
    q->w2 = malloc(sizeof(int16_t) * 2 * (size_t)hidden);
    if (!q->w1 || !q->b1 || !q->w2) {
        net_free(q);
        return -1;
    }
    return 0;
}

void net_free(Net *n)
{
    free(n->w1);
    free(n->b1);
    free(n->w2);
    n->w1 = n->b1 = n->w2 = NULL;
}

static int16_t q16(float x, float scale, float clip)
{
    float v = roundf(clipf(x, clip) * scale);
    return (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
}

int net_quantise(const NetFloat *f, const GameVtbl *g, Net *q, PlyError *err)
{
    if (!g->net || g->net->ninputs != f->ninputs || f->hidden < 1 ||
        f->hidden > NET_MAX_HIDDEN)
        return ply_fail(err, "the net does not fit %s's inputs",
                        g->info.name);
    if ((f->flags & NET_ADDS_EVAL) && !g->eval)
        return ply_fail(err, "%s has no evaluation for the net to add to",
                        g->info.name);
    if (net_alloc(q, g, f->ninputs, f->hidden))
        return ply_fail(err, "out of memory");
    float c = net_clip_w1(g->net->max_active);
    size_t nw1 = (size_t)f->ninputs * (size_t)f->hidden;
    for (size_t i = 0; i < nw1; i++)
        q->w1[i] = q16(f->w1[i], NET_QA, c);
    for (int h = 0; h < f->hidden; h++)
        q->b1[h] = q16(f->b1[h], NET_QA, c);
    for (int h = 0; h < 2 * f->hidden; h++)
        q->w2[h] = q16(f->w2[h], NET_QB, NET_W2_CLIP);
    q->b2 = (int32_t)lroundf(clipf(f->b2, NET_B2_CLIP) * NET_QA * NET_QB);
    q->flags = f->flags;
    return 0;
}

/* ---- file ---- */

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(unsigned char *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static size_t net_file_size(uint32_t version, size_t ninputs, size_t hidden)
{
    return net_header(version) +
           2 * (ninputs * hidden + hidden + 2 * hidden) + 4 + 4;
}

int net_save(const Net *n, const char *path, PlyError *err)
{
    size_t len = net_file_size(NET_VERSION, (size_t)n->ninputs,
                               (size_t)n->hidden);
    unsigned char *buf = calloc(len, 1);
    if (!buf)
        return ply_fail(err, "out of memory");
    unsigned char *p = buf;
    memcpy(p, net_magic, 8);
    p += 8;
    put32(p, NET_VERSION);
    put32(p + 4, (uint32_t)n->ninputs);
    put32(p + 8, (uint32_t)n->hidden);
    put32(p + 12, NET_OUT_SCALE);
    put32(p + 16, n->flags);
    p += 20;
    snprintf((char *)p, NET_NAME_LEN, "%s", n->g->info.name);
    snprintf((char *)p + NET_NAME_LEN, NET_NAME_LEN, "%s", n->nf->name);
    p += 2 * NET_NAME_LEN;
    size_t nw1 = (size_t)n->ninputs * (size_t)n->hidden;
    for (size_t i = 0; i < nw1; i++, p += 2) {
        p[0] = (unsigned char)((uint16_t)n->w1[i]);
        p[1] = (unsigned char)((uint16_t)n->w1[i] >> 8);
    }
    for (int h = 0; h < n->hidden; h++, p += 2) {
        p[0] = (unsigned char)((uint16_t)n->b1[h]);
        p[1] = (unsigned char)((uint16_t)n->b1[h] >> 8);
    }
    for (int h = 0; h < 2 * n->hidden; h++, p += 2) {
        p[0] = (unsigned char)((uint16_t)n->w2[h]);
        p[1] = (unsigned char)((uint16_t)n->w2[h] >> 8);
    }
    put32(p, (uint32_t)n->b2);
    p += 4;
    put32(p, fnv1a(buf, (size_t)(p - buf)));
    FILE *f = fopen(path, "wb");
    int rc = 0;
    if (!f)
        rc = ply_fail(err, "cannot write net file '%s'", path);
    else {
        if (fwrite(buf, 1, len, f) != len)
            rc = ply_fail(err, "cannot write net file '%s'", path);
        if (fclose(f) && !rc)
            rc = ply_fail(err, "cannot write net file '%s'", path);
    }
    free(buf);
    return rc;
}

/* A NUL-terminated name of at most NET_NAME_LEN - 1 printable bytes. */
static int name_ok(const unsigned char *p)
{
    int i = 0;
    while (i < NET_NAME_LEN && p[i] >= 0x20 && p[i] < 0x7f)
        i++;
    if (i == 0 || i >= NET_NAME_LEN)
        return 0;
    for (; i < NET_NAME_LEN; i++)
        if (p[i])
            return 0;
    return 1;
}

static int16_t get16(const unsigned char *p)
{
    return (int16_t)(uint16_t)((unsigned)p[0] | (unsigned)p[1] << 8);
}

int net_load_mem(Net *n, const GameVtbl *g, const unsigned char *buf,
                 size_t len, PlyError *err)
{
    memset(n, 0, sizeof *n);
    if (!g->net)
        return ply_fail(err, "%s has no net inputs", g->info.name);
    if (len < 8 || memcmp(buf, net_magic, 8))
        return ply_fail(err, "not a Ply net file (bad magic)");
    if (len < NET_HEADER_V1)
        return ply_fail(err, "truncated net file (%zu bytes)", len);
    uint32_t version = get32(buf + 8), ninputs = get32(buf + 12);
    uint32_t hidden = get32(buf + 16), scale = get32(buf + 20);
    if (version < 1 || version > NET_VERSION)
        return ply_fail(err, "net file version %u, this Ply reads 1 to %d",
                        (unsigned)version, NET_VERSION);
    if (len < net_header(version))
        return ply_fail(err, "truncated net file (%zu bytes)", len);
    uint32_t flags = version >= 2 ? get32(buf + 24) : 0;
    const unsigned char *names = buf + net_header(version) - 2 * NET_NAME_LEN;
    if (flags & ~(uint32_t)NET_ADDS_EVAL)
        return ply_fail(err, "net file flags 0x%x not known to this Ply",
                        (unsigned)flags);
    if ((flags & NET_ADDS_EVAL) && !g->eval)
        return ply_fail(err, "the net adds the game's evaluation, and %s "
                        "has none", g->info.name);
    if (!name_ok(names) || !name_ok(names + NET_NAME_LEN))
        return ply_fail(err, "corrupt net file (bad names)");
    if (strcmp((const char *)names, g->info.name))
        return ply_fail(err, "the net is for %s, not %s",
                        (const char *)names, g->info.name);
    if (strcmp((const char *)names + NET_NAME_LEN, g->net->name))
        return ply_fail(err, "the net reads features '%s', %s has '%s'",
                        (const char *)names + NET_NAME_LEN, g->info.name,
                        g->net->name);
    if (ninputs != (uint32_t)g->net->ninputs)
        return ply_fail(err, "the net has %u inputs, %s's features %d",
                        (unsigned)ninputs, g->info.name, g->net->ninputs);
    if (hidden < 1 || hidden > NET_MAX_HIDDEN)
        return ply_fail(err, "the net's hidden layer of %u is not in "
                        "1..%d", (unsigned)hidden, NET_MAX_HIDDEN);
    if (scale != NET_OUT_SCALE)
        return ply_fail(err, "the net's output scale %u is not %d",
                        (unsigned)scale, NET_OUT_SCALE);
    size_t want = net_file_size(version, ninputs, hidden);
    if (len != want)
        return ply_fail(err, "%s net file: %zu bytes, expected %zu",
                        len < want ? "truncated" : "overlong", len, want);
    if (get32(buf + len - 4) != fnv1a(buf, len - 4))
        return ply_fail(err, "corrupt net file (checksum mismatch)");
    if (net_alloc(n, g, (int)ninputs, (int)hidden))
        return ply_fail(err, "out of memory");
    n->flags = flags;
    const unsigned char *p = buf + net_header(version);
    size_t nw1 = (size_t)ninputs * hidden;
    for (size_t i = 0; i < nw1; i++, p += 2)
        n->w1[i] = get16(p);
    for (uint32_t h = 0; h < hidden; h++, p += 2)
        n->b1[h] = get16(p);
    for (uint32_t h = 0; h < 2 * hidden; h++, p += 2)
        n->w2[h] = get16(p);
    n->b2 = (int32_t)get32(p);
    /* Weights beyond the clip bound could overflow the int16 sums. */
    int c = (int)(net_clip_w1(g->net->max_active) * NET_QA + 1);
    int32_t b2max = (int32_t)(NET_B2_CLIP * NET_QA * NET_QB);
    int w2max = (int)(NET_W2_CLIP * NET_QB);
    int bad = n->b2 > b2max || n->b2 < -b2max;
    for (size_t i = 0; i < nw1 && !bad; i++)
        bad = n->w1[i] > c || n->w1[i] < -c;
    for (uint32_t h = 0; h < hidden && !bad; h++)
        bad = n->b1[h] > c || n->b1[h] < -c;
    for (uint32_t h = 0; h < 2 * hidden && !bad; h++)
        bad = n->w2[h] > w2max || n->w2[h] < -w2max;
    if (bad) {
        net_free(n);
        return ply_fail(err, "corrupt net file (weights out of range)");
    }
    return 0;
}

int net_load(Net *n, const GameVtbl *g, const char *path, PlyError *err)
{
    memset(n, 0, sizeof *n);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ply_fail(err, "cannot open net file '%s'", path);
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    size_t limit = net_file_size(NET_VERSION, 65536, NET_MAX_HIDDEN) + 1;
    while (buf) {
        if (len == cap) {
            unsigned char *nb = cap < limit ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    int rd = ferror(f);
    fclose(f);
    if (!buf)
        return ply_fail(err, "net file '%s' is too large", path);
    if (rd) {
        free(buf);
        return ply_fail(err, "cannot read net file '%s'", path);
    }
    int rc = net_load_mem(n, g, buf, len, err);
    free(buf);
    if (rc) {
        PlyError e = *err;
        snprintf(err->msg, sizeof err->msg, "%.100s: %.150s", path, e.msg);
    }
    return rc;
}

/* ---- inference ---- */

static int mover_of(const Net *n, const void *st)
{
    int p = n->g->to_move(st);
    return p == 1 ? 1 : 0;
}

/* What a residual net adds its output to: the game's own evaluation from
 * the mover's view (0 for other nets). */
static int net_base(const Net *n, const void *st, int mover)
{
    return n->flags & NET_ADDS_EVAL ? n->g->eval(st, mover) : 0;
}

static void acc_row(int16_t *acc, const int16_t *row, int H, int sign)
{
    if (sign > 0)
        for (int h = 0; h < H; h++)
            acc[h] = (int16_t)(acc[h] + row[h]);
    else
        for (int h = 0; h < H; h++)
            acc[h] = (int16_t)(acc[h] - row[h]);
}

static void acc_refresh(const Net *n, int16_t *acc, const uint16_t *f,
                        int cnt)
{
    int H = n->hidden;
    memcpy(acc, n->b1, sizeof(int16_t) * (size_t)H);
    for (int i = 0; i < cnt; i++)
        acc_row(acc, n->w1 + (size_t)f[i] * (size_t)H, H, 1);
}

static int net_output(const Net *n, const int16_t *am, const int16_t *ao)
{
    /* each half is below 512 * 255 * 8192 < 2^31 */
    int H = n->hidden;
    int32_t sm = 0, so = 0;
    const int16_t *w2 = n->w2;
    for (int h = 0; h < H; h++) {
        int x = am[h] < 0 ? 0 : am[h] > NET_QA ? NET_QA : am[h];
        sm += x * w2[h];
    }
    for (int h = 0; h < H; h++) {
        int x = ao[h] < 0 ? 0 : ao[h] > NET_QA ? NET_QA : ao[h];
        so += x * w2[H + h];
    }
    int64_t s = (int64_t)n->b2 + sm + so;
    return (int)(s * NET_OUT_SCALE / (NET_QA * NET_QB));
}

int net_eval_full(const Net *n, const void *st)
{
    int m = mover_of(n, st), maxf = n->nf->max_active;
    uint16_t *f = malloc(sizeof(uint16_t) * (size_t)maxf);
    int16_t *acc = malloc(sizeof(int16_t) * 2 * (size_t)n->hidden);
    int v = 0;
    if (f && acc) {
        for (int side = 0; side < 2; side++) {
            int cnt = n->nf->features(st, side ? 1 - m : m, f);
            acc_refresh(n, acc + side * n->hidden, f, cnt);
        }
        v = net_output(n, acc, acc + n->hidden) + net_base(n, st, m);
    }
    free(f);
    free(acc);
    return v;
}

double net_eval_dequantised(const Net *n, const void *st)
{
    int m = mover_of(n, st), maxf = n->nf->max_active, H = n->hidden;
    uint16_t *f = malloc(sizeof(uint16_t) * (size_t)maxf);
    double y = 0;
    if (!f)
        return 0;
    y = (double)n->b2 / (NET_QA * NET_QB);
    for (int side = 0; side < 2; side++) {
        int cnt = n->nf->features(st, side ? 1 - m : m, f);
        for (int h = 0; h < H; h++) {
            double a = (double)n->b1[h] / NET_QA;
            for (int i = 0; i < cnt; i++)
                a += (double)n->w1[(size_t)f[i] * (size_t)H + (size_t)h] /
                     NET_QA;
            a = a < 0 ? 0 : a > 1 ? 1 : a;
            y += a * n->w2[side * H + h] / NET_QB;
        }
    }
    free(f);
    return y * NET_OUT_SCALE + net_base(n, st, m);
}

int net_stack_init(NetStack *s, const Net *n, int slots)
{
    memset(s, 0, sizeof *s);
    s->net = n;
    s->slots = slots;
    s->maxf = n->nf->max_active;
    s->words = (n->ninputs + 63) / 64;
    size_t sl = (size_t)slots, w = (size_t)s->words;
    s->acc = malloc(sizeof(int16_t) * sl * 2 * (size_t)n->hidden);
    s->bits = malloc(sizeof(uint64_t) * sl * 2 * w);
    s->full = calloc(sl * 2, 1);
    s->tmp = malloc(sizeof(uint16_t) * (size_t)s->maxf);
    s->cur = malloc(sizeof(uint64_t) * w);
    s->key = calloc(sl, sizeof(uint64_t));
    s->keyed = calloc(sl, 1);
    if (!s->acc || !s->bits || !s->full || !s->tmp || !s->cur || !s->key ||
        !s->keyed) {
        net_stack_free(s);
        return -1;
    }
    return 0;
}

void net_stack_free(NetStack *s)
{
    free(s->acc);
    free(s->bits);
    free(s->full);
    free(s->tmp);
    free(s->cur);
    free(s->key);
    free(s->keyed);
    memset(s, 0, sizeof *s);
}

/* The features of st from persp's view, as a bit set over the inputs. */
static void feature_set(NetStack *s, const void *st, int persp)
{
    const NetFeatures *nf = s->net->nf;
    memset(s->cur, 0, sizeof(uint64_t) * (size_t)s->words);
    if (nf->feature_bits) {
        nf->feature_bits(st, persp, s->cur);
        return;
    }
    int cnt = nf->features(st, persp, s->tmp);
    for (int i = 0; i < cnt; i++)
        s->cur[s->tmp[i] >> 6] |= 1ull << (s->tmp[i] & 63);
}

/* Slot `slot`'s accumulators and feature sets moved from slot - 1's
 * (which holds parent) by the move m; 0, or -1 when the game's hook
 * declines (nothing changed then). */
static int stack_delta(NetStack *s, int slot, const void *parent, Move m)
{
    const Net *n = s->net;
    int H = n->hidden, W = s->words;
    uint16_t rem[2][NET_DELTA_MAX], add[2][NET_DELTA_MAX];
    int nrem[2], nadd[2];
    for (int persp = 0; persp < 2; persp++)
        if (n->nf->feature_delta(parent, m, persp, rem[persp], &nrem[persp],
                                 add[persp], &nadd[persp]))
            return -1;
    for (int persp = 0; persp < 2; persp++) {
        size_t k = (size_t)slot * 2 + (size_t)persp;
        int16_t *acc = s->acc + k * (size_t)H;
        uint64_t *bits = s->bits + k * (size_t)W;
        memcpy(acc, s->acc + (k - 2) * (size_t)H, sizeof(int16_t) * (size_t)H);
        memcpy(bits, s->bits + (k - 2) * (size_t)W,
               sizeof(uint64_t) * (size_t)W);
        for (int i = 0; i < nrem[persp]; i++) {
            int f = rem[persp][i];
            acc_row(acc, n->w1 + (size_t)f * (size_t)H, H, -1);
            bits[f >> 6] &= ~(1ull << (f & 63));
        }
        for (int i = 0; i < nadd[persp]; i++) {
            int f = add[persp][i];
            acc_row(acc, n->w1 + (size_t)f * (size_t)H, H, 1);
            bits[f >> 6] |= 1ull << (f & 63);
        }
        s->full[k] = 1;
    }
    return 0;
}

int net_stack_holds(const NetStack *s, int slot, uint64_t key)
{
    return s->keyed[slot] && s->key[slot] == key &&
           s->full[2 * (size_t)slot] && s->full[2 * (size_t)slot + 1];
}

int net_stack_move(NetStack *s, int slot, const void *parent, uint64_t pkey,
                   Move m, uint64_t key)
{
    if (slot <= 0 || !s->net->nf->feature_delta ||
        !net_stack_holds(s, slot - 1, pkey) || stack_delta(s, slot, parent, m))
        return -1;
    s->key[slot] = key;
    s->keyed[slot] = 1;
    return 0;
}

static int stack_eval(NetStack *s, int slot, const void *st, int keyed,
                      uint64_t key, int mover, const void *parent,
                      uint64_t pkey, Move m);

int net_stack_eval(NetStack *s, int slot, const void *st, int mover)
{
    return stack_eval(s, slot, st, 0, 0, mover, NULL, 0, 0);
}

int net_stack_eval_move(NetStack *s, int slot, const void *st, uint64_t key,
                        int mover, const void *parent, uint64_t pkey, Move m)
{
    return stack_eval(s, slot, st, 1, key, mover, parent, pkey, m);
}

static int stack_eval(NetStack *s, int slot, const void *st, int keyed,
                      uint64_t key, int mover, const void *parent,
                      uint64_t pkey, Move m)
{
    const Net *n = s->net;
    int H = n->hidden, W = s->words;
    int delta = parent && !net_stack_move(s, slot, parent, pkey, m, key);
    s->key[slot] = key;
    s->keyed[slot] = (uint8_t)keyed;
    if (delta)
        s->deltas++;
    else
        s->scans++;
    for (int persp = 0; persp < 2 && !delta; persp++) {
        size_t k = (size_t)slot * 2 + (size_t)persp;
        feature_set(s, st, persp);
        const uint64_t *cur = s->cur;
        int cnt = 0;
        for (int w = 0; w < W; w++)
            cnt += __builtin_popcountll(cur[w]);
        int16_t *acc = s->acc + k * (size_t)H;
        /* the cheaper start: the parent's position or this slot's last
         * (a sibling); the sibling only when the parent is far */
        int best = cnt, from = -1;
        for (int c = 1; c >= 0 && best > 2; c--) {
            if (slot - c < 0 || !s->full[k - 2 * (size_t)c])
                continue;
            const uint64_t *prev = s->bits + (k - 2 * (size_t)c) * (size_t)W;
            int d = 0;
            for (int w = 0; w < W; w++)
                d += __builtin_popcountll(cur[w] ^ prev[w]);
            if (d < best) {
                best = d;
                from = c;
            }
        }
        uint64_t *mine = s->bits + k * (size_t)W;
        if (from < 0) {
            memcpy(acc, n->b1, sizeof(int16_t) * (size_t)H);
            for (int w = 0; w < W; w++)
                for (uint64_t b = cur[w]; b; b &= b - 1)
                    acc_row(acc, n->w1 + (size_t)(w * 64 + __builtin_ctzll(b)) *
                                  (size_t)H, H, 1);
        } else {
            const uint64_t *prev = s->bits + (k - 2 * (size_t)from) *
                                             (size_t)W;
            if (from == 1)
                memcpy(acc, s->acc + (k - 2) * (size_t)H,
                       sizeof(int16_t) * (size_t)H);
            for (int w = 0; w < W; w++) {
                uint64_t x = cur[w] ^ prev[w];
                for (uint64_t b = x; b; b &= b - 1) {
                    int f = w * 64 + __builtin_ctzll(b);
                    acc_row(acc, n->w1 + (size_t)f * (size_t)H, H,
                            cur[w] >> (f & 63) & 1 ? 1 : -1);
                }
            }
        }
        memcpy(mine, cur, sizeof(uint64_t) * (size_t)W);
        s->full[k] = 1;
    }
    int16_t *base = s->acc + (size_t)slot * 2 * (size_t)H;
    return net_output(n, base + mover * H, base + (1 - mover) * H) +
           net_base(n, st, mover);
}
