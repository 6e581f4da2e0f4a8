/* go.c — Go (area scoring, positional or situational superko or simple
 * ko, suicide optional, fixed handicap) and Atari Go (first capture
 * wins) on one board of incremental groups.
 *
 * Groups are circular lists of stones; every stone knows its root, and
 * the root keeps the group's pseudo-liberties (one per adjacent empty
 * point per adjacent stone, so a group has no liberty exactly when the
 * count is 0, and point p is the only liberty of group g exactly when
 * g's count equals the number of g's stones next to p) and its size.
 *
 * Superko keeps the keys of earlier positions in the state. Zobrist keys
 * are an invertible mix of (point, colour), so the history is scanned
 * once per move generation: for an entry e, e ^ (current key) decodes to
 * the one plain placement (no capture, no suicide) that would recreate
 * e. Capturing and suicide moves compute their resulting key and scan
 * the history themselves. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/layout.h"
#include "../../core/util.h"
#include "go.h"
#include "pat3_table.h"

static const int dirs[4] = {1, -1, GO_STRIDE, -GO_STRIDE};

/* ---------------------------------------------------------- zobrist */

enum { ZOFFSET = 0x5eed };
#define ZSIDE 0x6a09e667f3bcc909ull

/* An invertible 64-bit mix (splitmix64's finalizer). */
static inline uint64_t zmix(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline uint64_t zunmix(uint64_t x)
{
    x ^= (x >> 31) ^ (x >> 62);
    x *= 0x319642b2d24d8ec3ull;   /* inverse of 0x94d049bb133111eb */
    x ^= (x >> 27) ^ (x >> 54);
    x *= 0x96de1b173f119089ull;   /* inverse of 0xbf58476d1ce4e5b9 */
    x ^= (x >> 30) ^ (x >> 60);
    return x;
}

static inline uint64_t zkey(int p, int c)
{
    return zmix((uint64_t)(p * 2 + c - 1) + ZOFFSET);
}

/* The point whose stone of colour c has key x, or 0. */
static inline int zdecode(uint64_t x, int c)
{
    uint64_t k = zunmix(x) - ZOFFSET;
    if (k >= 2 * GO_PTS || (int)(k & 1) != c - 1)
        return 0;
    return (int)(k >> 1);
}

/* The history key of the position with board key h and `side` to move. */
static inline uint64_t hist_key(const GoState *s, uint64_t h, int side)
{
    return s->ko_rule == GO_KO_SSK && side ? h ^ ZSIDE : h;
}

static int max_plies(const GoState *s)
{
    int n = 3 * s->size * s->size;
    return n < GO_MAX_PLIES ? n : GO_MAX_PLIES;
}

/* ---------------------------------------------------------- groups */

static void place_stone(GoState *s, int p, int c)
{
    s->color[p] = (uint8_t)c;
    s->hash ^= zkey(p, c);
    int libs = 0;
    s->root[p] = (uint16_t)p;
    s->next[p] = (uint16_t)p;
    s->gsize[p] = 1;
    uint32_t sum = 0, sq = 0, pp = (uint32_t)(p * p);
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (s->color[q] == GO_EMPTY) {
            libs++;
            sum += (uint32_t)q;
            sq += (uint32_t)(q * q);
        } else if (s->color[q] != GO_EDGE) {
            int g = s->root[q];
            s->plib[g]--;
            s->lsum[g] -= (uint32_t)p;
            s->lsq[g] -= pp;
        }
    }
    s->plib[p] = (uint16_t)libs;
    s->lsum[p] = sum;
    s->lsq[p] = sq;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (s->color[q] != c)
            continue;
        int a = s->root[p], b = s->root[q];
        if (a == b)
            continue;
        if (s->gsize[a] < s->gsize[b]) {
            int t = a;
            a = b;
            b = t;
        }
        /* b joins a */
        int r = b;
        do {
            s->root[r] = (uint16_t)a;
            r = s->next[r];
        } while (r != b);
        uint16_t t = s->next[a];
        s->next[a] = s->next[b];
        s->next[b] = t;
        s->plib[a] = (uint16_t)(s->plib[a] + s->plib[b]);
        s->gsize[a] = (uint16_t)(s->gsize[a] + s->gsize[b]);
        s->lsum[a] += s->lsum[b];
        s->lsq[a] += s->lsq[b];
        s->plib[b] = 0;
        s->gsize[b] = 0;
        s->lsum[b] = 0;
        s->lsq[b] = 0;
    }
}

/* Removes the group rooted at g; returns its size. */
static int remove_group(GoState *s, int g)
{
    int n = 0, r = g;
    int c = s->color[g];
    do {
        s->color[r] = GO_EMPTY;
        s->hash ^= zkey(r, c);
        r = s->next[r];
        n++;
    } while (r != g);
    /* now give liberties back to the neighbours */
    r = g;
    do {
        int nx = s->next[r];
        for (int d = 0; d < 4; d++) {
            int q = r + dirs[d];
            if (s->color[q] == GO_BLACK || s->color[q] == GO_WHITE) {
                int h = s->root[q];
                s->plib[h]++;
                s->lsum[h] += (uint32_t)r;
                s->lsq[h] += (uint32_t)(r * r);
            }
        }
        s->next[r] = 0;
        s->root[r] = 0;
        s->plib[r] = 0;
        s->gsize[r] = 0;
        s->lsum[r] = 0;
        s->lsq[r] = 0;
        r = nx;
    } while (r != g);
    return n;
}

static uint64_t group_key(const GoState *s, int g)
{
    uint64_t h = 0;
    int r = g, c = s->color[g];
    do {
        h ^= zkey(r, c);
        r = s->next[r];
    } while (r != g);
    return h;
}

/* What a placement of colour c at empty p does. */
typedef struct Probe {
    int captures;       /* stones captured */
    int libs;           /* the new group keeps a liberty */
    int friends;        /* adjacent own stones */
    int caproot[4];     /* roots of captured groups */
    int ncap;
} Probe;

static void probe(const GoState *s, int p, int c, Probe *pr)
{
    pr->captures = 0;
    pr->libs = 0;
    pr->friends = 0;
    pr->ncap = 0;
    int seen[4], nseen = 0;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d], qc = s->color[q];
        if (qc == GO_EMPTY) {
            pr->libs = 1;
            continue;
        }
        if (qc == GO_EDGE)
            continue;
        int g = s->root[q];
        int dup = 0;
        for (int i = 0; i < nseen; i++)
            dup |= seen[i] == g;
        if (qc == c)
            pr->friends = 1;
        if (dup)
            continue;
        seen[nseen++] = g;
        /* p is a liberty of g: is it the only one? */
        uint64_t n = s->plib[g], sum = s->lsum[g];
        int only = n * s->lsq[g] == sum * sum;
        if (qc == c) {
            if (!only)
                pr->libs = 1;
        } else if (only) {
            pr->caproot[pr->ncap++] = g;
            pr->captures += s->gsize[g];
        }
    }
}

/* The board key after colour c plays at p (probed as pr), given that it
 * captures or is a suicide. */
static uint64_t key_after(const GoState *s, int p, int c, const Probe *pr)
{
    uint64_t h = s->hash;
    if (pr->captures) {
        h ^= zkey(p, c);
        for (int i = 0; i < pr->ncap; i++)
            h ^= group_key(s, pr->caproot[i]);
        return h;
    }
    /* suicide: the stone and its friends go */
    int seen[4], nseen = 0;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (s->color[q] != c)
            continue;
        int g = s->root[q], dup = 0;
        for (int i = 0; i < nseen; i++)
            dup |= seen[i] == g;
        if (!dup) {
            seen[nseen++] = g;
            h ^= group_key(s, g);
        }
    }
    return h;
}

static int in_history(const GoState *s, uint64_t key)
{
    for (int i = 0; i < s->nhist; i++)
        if (s->hist[i] == key)
            return 1;
    return 0;
}

/* The ways a placement can be legal. */
enum { PL_ILLEGAL = 0, PL_PLAIN, PL_CAPTURE, PL_SUICIDE };

/* Legality of colour c at empty p apart from the plain-move superko test
 * (the caller checks those against `banned`). */
static int classify(const GoState *s, int p, int c, Probe *pr)
{
    probe(s, p, c, pr);
    if (pr->captures) {
        if (p == s->ko && pr->captures == 1)
            return PL_ILLEGAL;
        if (s->ko_rule != GO_KO_SIMPLE &&
            in_history(s, hist_key(s, key_after(s, p, c, pr), !s->side)))
            return PL_ILLEGAL;
        return PL_CAPTURE;
    }
    if (pr->libs)
        return PL_PLAIN;
    /* suicide */
    if (s->kind == GO_KIND_ATARI)
        return s->suicide ? PL_SUICIDE : PL_ILLEGAL;
    if (!s->suicide || !pr->friends)
        return PL_ILLEGAL;   /* a lone stone's suicide changes nothing */
    if (s->ko_rule != GO_KO_SIMPLE &&
        in_history(s, hist_key(s, key_after(s, p, c, pr), !s->side)))
        return PL_ILLEGAL;
    return PL_SUICIDE;
}

/* Marks in banned[] the points where a plain placement of the side to
 * move would repeat a position of the history. */
static void mark_banned(const GoState *s, uint8_t *banned)
{
    if (s->ko_rule == GO_KO_SIMPLE)
        return;
    int c = s->side + 1;
    uint64_t base = hist_key(s, s->hash, !s->side);
    for (int i = 0; i < s->nhist; i++) {
        int p = zdecode(s->hist[i] ^ base, c);
        if (p)
            banned[p] = 1;
    }
}

static int legal_at(const GoState *s, int p, const uint8_t *banned)
{
    if (s->color[p] != GO_EMPTY)
        return 0;
    Probe pr;
    int k = classify(s, p, s->side + 1, &pr);
    return k == PL_PLAIN ? !banned[p] : k != PL_ILLEGAL;
}

/* One placement's legality, superko included, without generating. */
static int legal_one(const GoState *s, int p)
{
    if (s->color[p] != GO_EMPTY)
        return 0;
    Probe pr;
    int c = s->side + 1, k = classify(s, p, c, &pr);
    if (k == PL_PLAIN && s->ko_rule != GO_KO_SIMPLE)
        return !in_history(s, hist_key(s, s->hash ^ zkey(p, c), !s->side));
    return k != PL_ILLEGAL;
}

static int has_placement(const GoState *s)
{
    uint8_t banned[GO_PTS];
    memset(banned, 0, sizeof banned);
    mark_banned(s, banned);
    for (int y = 0; y < s->size; y++)
        for (int x = 0; x < s->size; x++)
            if (legal_at(s, go_point(x, y), banned))
                return 1;
    return 0;
}

/* ---------------------------------------------------------- scoring */

/* Area (stones plus empty regions that reach only that colour) of both
 * colours. */
static void area(const GoState *s, int *black, int *white)
{
    uint8_t seen[GO_PTS];
    uint16_t stack[GO_PTS];
    memset(seen, 0, sizeof seen);
    int a[3] = {0, 0, 0};
    for (int y = 0; y < s->size; y++)
        for (int x = 0; x < s->size; x++) {
            int p = go_point(x, y);
            if (s->color[p] != GO_EMPTY) {
                a[s->color[p]]++;
                continue;
            }
            if (seen[p])
                continue;
            int n = 0, size = 0, reach = 0;
            stack[n++] = (uint16_t)p;
            seen[p] = 1;
            while (n) {
                int q = stack[--n];
                size++;
                for (int d = 0; d < 4; d++) {
                    int r = q + dirs[d], rc = s->color[r];
                    if (rc == GO_EMPTY) {
                        if (!seen[r]) {
                            seen[r] = 1;
                            stack[n++] = (uint16_t)r;
                        }
                    } else if (rc != GO_EDGE) {
                        reach |= rc;
                    }
                }
            }
            if (reach == GO_BLACK || reach == GO_WHITE)
                a[reach] += size;
        }
    *black = a[GO_BLACK];
    *white = a[GO_WHITE];
}

/* Black's score minus White's, in half points, komi and compensation
 * included. */
static int margin2(const GoState *s)
{
    int b, w;
    area(s, &b, &w);
    int comp = s->comp == 1 ? s->handicap
             : s->comp == 2 && s->handicap ? s->handicap - 1 : 0;
    return 2 * (b - w - comp) - s->komi2;
}

/* ---------------------------------------------------------- options */

static const char *const ko_choices[] = {"psk", "ssk", "simple", NULL};
static const char *const comp_choices[] = {"none", "n", "n-1", NULL};
/* komi from -10 to 20 by halves */
static const char *const komi_choices[] = {
    "-10", "-9.5", "-9", "-8.5", "-8", "-7.5", "-7", "-6.5", "-6", "-5.5",
    "-5", "-4.5", "-4", "-3.5", "-3", "-2.5", "-2", "-1.5", "-1", "-0.5",
    "0", "0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5", "5.5",
    "6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11",
    "11.5", "12", "12.5", "13", "13.5", "14", "14.5", "15", "15.5", "16",
    "16.5", "17", "17.5", "18", "18.5", "19", "19.5", "20", NULL};
enum { KOMI_MIN2 = -20, KOMI_DEFAULT = 35 /* "7.5" */ };

int go_komi_parse(const char *s, int *komi2)
{
    for (int i = 0; komi_choices[i]; i++)
        if (!strcmp(s, komi_choices[i])) {
            *komi2 = KOMI_MIN2 + i;
            return 0;
        }
    /* also "7.50", "7.0" and the like */
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || v < -10 || v > 20)
        return -1;
    double h = v * 2;
    if (h != (double)(int)h)
        return -1;
    *komi2 = (int)h;
    return 0;
}

const char *go_komi_text(int komi2)
{
    return komi_choices[komi2 - KOMI_MIN2];
}

static const GameOption go_options[] = {
    {.key = "size", .type = OPT_INT, .def = 19, .min = 2, .max = GO_MAXN,
     .help = "board size (2..19)"},
    {.key = "komi", .type = OPT_CHOICE, .def = KOMI_DEFAULT,
     .choices = komi_choices,
     .help = "points given to White (-10..20 by halves)"},
    {.key = "ko", .type = OPT_CHOICE, .def = GO_KO_PSK, .choices = ko_choices,
     .help = "psk: no placement may repeat an earlier board (positional "
     "superko); ssk: not with the same player to move (situational); "
     "simple: only the immediate recapture of a single stone is banned"},
    {.key = "suicide", .type = OPT_BOOL, .def = 0, .min = 0, .max = 1,
     .help = "allow a placement that removes its own group (of two or more "
     "stones)"},
    {.key = "handicap", .type = OPT_INT, .def = 0, .min = 0, .max = 9,
     .help = "fixed handicap stones for Black (2..9; boards from 9x9; up "
             "to 4 on even sizes); White then moves first"},
    {.key = "compensation", .type = OPT_CHOICE, .def = 0,
     .choices = comp_choices,
     .help = "points White gets for a handicap: none, n (Chinese), n-1"},
    {.key = "playout", .type = OPT_CHOICE, .def = 0,
     .choices = (const char *const[]){"heavy", "light", NULL},
     .help = "MCTS playouts: heavy (captures, atari escapes and 3x3 "
     "patterns around the last move, no self-atari of two or more stones) "
     "or light (uniform, no own-eye filling)"},
    {.key = NULL},
};

static const char *const atari_nomove_choices[] = {"pass", "lose", NULL};

static const GameOption atari_options[] = {
    {.key = "size", .type = OPT_INT, .def = 9, .min = 2, .max = GO_MAXN,
     .help = "board size (2..19)"},
    {.key = "target", .type = OPT_INT, .def = 1, .min = 1, .max = 99,
     .help = "stones a player must capture to win"},
    {.key = "suicide", .type = OPT_CHOICE, .def = 0,
     .choices = (const char *const[]){"forbid", "lose", NULL},
     .help = "forbid: a placement without liberties that captures nothing is "
     "illegal; lose: it is legal and loses at once"},
    {.key = "nomove", .type = OPT_CHOICE, .def = 0,
     .choices = atari_nomove_choices,
     .help = "pass: a player without a legal placement passes (two passes in a "
     "row: a draw); lose: that player loses"},
    {.key = NULL},
};

int go_max_handicap(int size)
{
    if (size < 9)
        return 0;
    return size % 2 ? 9 : 4;
}

int go_handicap_points(int size, int n, int *out)
{
    if (n == 0)
        return 0;
    if (n < 2 || n > go_max_handicap(size))
        return -1;
    int lo = size >= 13 ? 3 : 2, hi = size - 1 - lo, mid = size / 2;
    int k = 0;
    out[k++] = go_point(lo, lo);
    out[k++] = go_point(hi, hi);
    if (n >= 3)
        out[k++] = go_point(lo, hi);
    if (n >= 4)
        out[k++] = go_point(hi, lo);
    if (n == 5 || n == 7 || n == 9)
        out[k++] = go_point(mid, mid);
    if (n >= 6) {
        out[k++] = go_point(lo, mid);
        out[k++] = go_point(hi, mid);
    }
    if (n >= 8) {
        out[k++] = go_point(mid, lo);
        out[k++] = go_point(mid, hi);
    }
    return k;
}

static void clear_board(GoState *s, int size)
{
    memset(s->color, GO_EDGE, sizeof s->color);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            s->color[go_point(x, y)] = GO_EMPTY;
}

static int go_init_common(GoState *s, int kind, int size)
{
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->size = (uint8_t)size;
    s->winner = -1;
    clear_board(s, size);
    return 0;
}

static void push_history(GoState *s)
{
    if (s->ko_rule == GO_KO_SIMPLE || s->nhist > GO_MAX_PLIES)
        return;
    s->hist[s->nhist++] = hist_key(s, s->hash, s->side);
}

static int go_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    GoState *s = st;
    go_init_common(s, GO_KIND_GO, opt[0]);
    s->komi2 = (int16_t)(KOMI_MIN2 + opt[1]);
    s->ko_rule = (uint8_t)opt[2];
    s->suicide = (uint8_t)opt[3];
    s->comp = (uint8_t)opt[5];
    s->light = (uint8_t)opt[6];
    int pts[9];
    int n = go_handicap_points(opt[0], opt[4], pts);
    if (n < 0)
        return ply_fail(err, "go: handicap %d is not a fixed handicap on "
                        "%dx%d (2..%d)", opt[4], opt[0], opt[0],
                        go_max_handicap(opt[0]));
    s->handicap = (uint8_t)opt[4];
    for (int i = 0; i < n; i++)
        place_stone(s, pts[i], GO_BLACK);
    if (n)
        s->side = 1;
    push_history(s);
    return 0;
}

static int atari_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    GoState *s = st;
    go_init_common(s, GO_KIND_ATARI, opt[0]);
    s->ko_rule = GO_KO_PSK;
    s->target = (uint8_t)opt[1];
    s->suicide = (uint8_t)opt[2];
    s->nomove_lose = (uint8_t)opt[3];
    push_history(s);
    return 0;
}

/* ---------------------------------------------------------- moves */

static int go_to_move(const void *st)
{
    const GoState *s = st;
    return s->over ? PLAYER_TERMINAL : s->side;
}

static int go_gen_moves(const void *st, Move *out)
{
    const GoState *s = st;
    if (s->over)
        return 0;
    uint8_t banned[GO_PTS];
    memset(banned, 0, sizeof banned);
    mark_banned(s, banned);
    int n = 0;
    for (int y = 0; y < s->size; y++)
        for (int x = 0; x < s->size; x++) {
            int p = go_point(x, y);
            if (legal_at(s, p, banned))
                out[n++] = (Move)p;
        }
    if (s->kind == GO_KIND_GO || n == 0)
        out[n++] = GO_PASS;
    return n;
}

/* Plays colour c at p; returns the stones captured (negative: own stones
 * lost to suicide). Sets the ko point. */
static int play_at(GoState *s, int p, int c)
{
    place_stone(s, p, c);
    int captured = 0, single = 0;
    for (int d = 0; d < 4; d++) {
        /* placing took the last liberty of these (a group met twice
         * is gone the second time) */
        int q = p + dirs[d];
        if (s->color[q] == 3 - c && s->plib[s->root[q]] == 0) {
            int k = remove_group(s, s->root[q]);
            if (k == 1)
                single = q;
            captured += k;
        }
    }
    s->ko = 0;
    if (captured == 1 && s->gsize[s->root[p]] == 1 &&
        s->plib[s->root[p]] == 1)
        s->ko = (uint16_t)single;
    if (!captured && s->plib[s->root[p]] == 0)
        return -remove_group(s, s->root[p]);
    return captured;
}

static void after_move(GoState *s)
{
    s->ply++;
    s->side ^= 1;
    if (s->ply >= max_plies(s))
        s->over = 1;
}

static void make_move(GoState *s, Move m);

static void go_make(void *st, Move m)
{
    GoState *s = st;
    make_move(s, m);
    if (s->over)
        s->ko = 0;
}

static void make_move(GoState *s, Move m)
{
    int me = s->side;
    if (m == GO_PASS) {
        s->passes++;
        s->ko = 0;
        after_move(s);
        if (s->ko_rule == GO_KO_SSK)
            push_history(s);
        if (s->passes >= 2)
            s->over = 1;
        return;
    }
    s->passes = 0;
    int k = play_at(s, (int)m, me + 1);
    after_move(s);
    push_history(s);
    if (s->kind != GO_KIND_ATARI)
        return;
    if (k < 0) {
        s->caps[!me] = (uint16_t)(s->caps[!me] - k);
        s->winner = (int8_t)!me;
        s->over = 1;
        return;
    }
    s->caps[me] = (uint16_t)(s->caps[me] + k);
    if (s->caps[me] >= s->target) {
        s->winner = (int8_t)me;
        s->over = 1;
    } else if (!s->over && s->nomove_lose && !has_placement(s)) {
        s->winner = (int8_t)me;
        s->over = 1;
    }
}

static void go_returns(const void *st, double *out)
{
    const GoState *s = st;
    int d;
    if (s->kind == GO_KIND_ATARI)
        d = s->winner < 0 ? 0 : s->winner == 0 ? 1 : -1;
    else
        d = margin2(s);
    out[0] = d > 0 ? 1 : d < 0 ? -1 : 0;
    out[1] = -out[0];
}

static int go_score(const void *st, int player)
{
    const GoState *s = st;
    if (s->kind == GO_KIND_ATARI)
        return s->caps[player];
    int b, w;
    area(s, &b, &w);
    return player ? w : b;
}

static uint64_t go_hash(const void *st)
{
    const GoState *s = st;
    uint64_t h = s->hash ^ ply_mix64((uint64_t)s->side | (uint64_t)s->ko << 1
                                     | (uint64_t)s->passes << 12 |
                                     (uint64_t)s->over << 14);
    if (s->kind == GO_KIND_ATARI)
        h ^= ply_mix64(0x77 + ((uint64_t)s->caps[0] << 16 | s->caps[1]));
    return h;
}

/* Eval: the area margin from `player`'s view, a point = 100. */
static int go_eval(const void *st, int player)
{
    const GoState *s = st;
    int d;
    if (s->kind == GO_KIND_ATARI) {
        d = 100 * (s->caps[0] - s->caps[1]);
    } else {
        d = 50 * margin2(s);
    }
    return player ? -d : d;
}

/* ---------------------------------------------------------- playout */

/* An own eye: every neighbour is own stone or edge, and the diagonals
 * hold at most one enemy stone (none on the edge). */
static int is_eye(const GoState *s, int p, int c)
{
    for (int d = 0; d < 4; d++) {
        int q = s->color[p + dirs[d]];
        if (q != c && q != GO_EDGE)
            return 0;
    }
    static const int diag[4] = {GO_STRIDE + 1, GO_STRIDE - 1,
                                -GO_STRIDE + 1, -GO_STRIDE - 1};
    int bad = 0, edge = 0;
    for (int d = 0; d < 4; d++) {
        int q = s->color[p + diag[d]];
        if (q == GO_EDGE)
            edge = 1;
        else if (q == 3 - c)
            bad++;
    }
    return bad + edge < 2;
}

int go_is_eye(const GoState *s, int p, int c)
{
    return is_eye(s, p, c);
}

/* ---------------------------------------------------------- heavy policy */

/* 1 when the group rooted at g has exactly one liberty (*lib): all its
 * pseudo-liberties are one point when their count, sum and sum of
 * squares meet Cauchy-Schwarz with equality. */
static int in_atari(const GoState *s, int g, int *lib)
{
    uint64_t n = s->plib[g], sum = s->lsum[g];
    if (n == 0 || n * s->lsq[g] != sum * sum)
        return 0;
    *lib = (int)(sum / n);
    return 1;
}

/* The liberties, 0, 1 or 2 (meaning two or more), of the group colour c
 * would form at empty p, captures ignored; *size its stones (exact when
 * the result is below 2). A friend group's liberties other than p come
 * from its sums less p's share: none, one point, or two or more. */
static int libs_after(const GoState *s, int p, int c, int *size)
{
    int lib = 0, n = 0, seen[4], ns = 0;
    *size = 1;
    for (int d = 0; d < 4; d++)
        if (s->color[p + dirs[d]] == GO_EMPTY) {
            if (n)
                return 2;
            lib = p + dirs[d];
            n = 1;
        }
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (s->color[q] != c)
            continue;
        int g = s->root[q], dup = 0;
        for (int i = 0; i < ns; i++)
            dup |= seen[i] == g;
        if (dup)
            continue;
        seen[ns++] = g;
        *size += s->gsize[g];
        uint32_t k = 0;
        for (int e = 0; e < 4; e++)
            k += s->color[p + dirs[e]] == c && s->root[p + dirs[e]] == g;
        uint64_t m = s->plib[g] - k;
        uint64_t sum = s->lsum[g] - k * (uint32_t)p;
        uint64_t sq = s->lsq[g] - k * (uint32_t)(p * p);
        if (m == 0)
            continue;
        if (m * sq != sum * sum)
            return 2;
        int l = (int)(sum / m);
        if (!n) {
            lib = l;
            n = 1;
        } else if (l != lib) {
            return 2;
        }
    }
    return n;
}

int go_in_atari(const GoState *s, int p, int *lib)
{
    return in_atari(s, s->root[p], lib);
}

int go_libs_after(const GoState *s, int p, int c, int *size)
{
    return libs_after(s, p, c, size);
}

/* A placement of c at empty p that is illegal (suicide, the ko point)
 * or leaves a group of two or more stones in atari without capturing (a
 * lone stone in atari may be a throw-in). */
static int bad_move(const GoState *s, int p, int c)
{
    int e = 0;
    for (int d = 0; d < 4; d++)
        e += s->color[p + dirs[d]] == GO_EMPTY;
    if (e >= 2)
        return 0;
    Probe pr;
    probe(s, p, c, &pr);
    if (pr.captures)
        return p == s->ko && pr.captures == 1;
    if (!pr.libs)
        return 1;
    int size;
    return libs_after(s, p, c, &size) < 2 && size >= 2;
}

unsigned go_pat3_code(const GoState *s, int p)
{
    static const int off[8] = {GO_STRIDE - 1, GO_STRIDE, GO_STRIDE + 1,
                               -1, 1, -GO_STRIDE - 1, -GO_STRIDE,
                               -GO_STRIDE + 1};
    unsigned code = 0;
    for (int i = 0; i < 8; i++)
        code |= (unsigned)s->color[p + off[i]] << (2 * i);
    return code;
}

int go_pat3_match(unsigned code)
{
    return (int)(go_pat3_bits[(code >> 6) & 1023] >> (code & 63)) & 1;
}

int go_last_move(const GoState *s)
{
    if (s->passes || s->nhist < 2 || s->ko_rule == GO_KO_SIMPLE)
        return 0;
    uint64_t x = s->hist[s->nhist - 1] ^ s->hist[s->nhist - 2];
    if (s->ko_rule == GO_KO_SSK)
        x ^= ZSIDE;
    int c = 2 - s->side;        /* the colour that just moved */
    int p = zdecode(x, c);
    return p && s->color[p] == c ? p : 0;
}

enum { CAND_MAX = 32 };

static void cand_add(int *cand, int *n, int p)
{
    if (*n < CAND_MAX)
        cand[(*n)++] = p;
}

/* Tactical moves after the opponent's `last`: capture its groups in
 * atari next to it, save own groups in atari next to it (capture a
 * neighbour in atari, or extend when that gains liberties). */
static int tactics(const GoState *s, int last, int *cand)
{
    int c = s->side + 1, o = 3 - c, n = 0, lib;
    for (int i = -1; i < 4; i++) {
        int q = i < 0 ? last : last + dirs[i];
        if (s->color[q] == o) {
            if (in_atari(s, s->root[q], &lib) && lib != s->ko)
                cand_add(cand, &n, lib);
        } else if (s->color[q] == c) {
            int g = s->root[q], a;
            if (!in_atari(s, g, &a))
                continue;
            int r = g;
            do {
                for (int d = 0; d < 4; d++) {
                    int t = r + dirs[d];
                    if (s->color[t] == o && in_atari(s, s->root[t], &lib) &&
                        lib != s->ko)
                        cand_add(cand, &n, lib);
                }
                r = s->next[r];
            } while (r != g);
            int size;
            if (libs_after(s, a, c, &size) >= 2)
                cand_add(cand, &n, a);
        }
    }
    return n;
}

/* Empty neighbours of `last` whose 3x3 shape is a pattern. */
static int pattern_moves(const GoState *s, int last, int *cand)
{
    static const int off[8] = {GO_STRIDE - 1, GO_STRIDE, GO_STRIDE + 1,
                               -1, 1, -GO_STRIDE - 1, -GO_STRIDE,
                               -GO_STRIDE + 1};
    int c = s->side + 1, n = 0;
    for (int i = 0; i < 8; i++) {
        int q = last + off[i];
        if (s->color[q] == GO_EMPTY && go_pat3_match(go_pat3_code(s, q)) &&
            !is_eye(s, q, c) && !bad_move(s, q, c))
            cand_add(cand, &n, q);
    }
    return n;
}

int go_policy_move(const GoState *s, int last, Rng *r)
{
    int cand[CAND_MAX], n;
    if (!last || s->color[last] != 2 - s->side)
        return GO_PASS;
    n = tactics(s, last, cand);
    if (n && rng_below(r, 10) < 9)
        return cand[rng_below(r, (uint32_t)n)];
    n = pattern_moves(s, last, cand);
    if (n && rng_below(r, 10) < 9)
        return cand[rng_below(r, (uint32_t)n)];
    return GO_PASS;
}

/* The playout: in go (playout=heavy, the default) first the tactics and
 * the patterns around the last move, 90% of the time each; else uniform
 * among legal placements that fill no own eye (heavy: and put no group
 * of two or more in atari), a pass when there is none; simple ko only
 * (superko is not checked inside playouts, as in most Go programs). The
 * moves are written to log[] (up to cap) when log is not NULL. */
static int playout_run(GoState *s, Rng *r, Move *log, int8_t *lpl, int cap);

static void go_playout(void *st, Rng *r)
{
    GoState *s = st;
    playout_run(s, r, NULL, NULL, 0);
    s->ko = 0;      /* as make() leaves a finished game */
}

static int go_playout_log(void *st, Rng *r, Move *log, int8_t *players,
                          int cap)
{
    GoState *s = st;
    int n = playout_run(s, r, log, players, cap);
    s->ko = 0;
    return n;
}

static int playout_run(GoState *s, Rng *r, Move *log, int8_t *lpl, int cap)
{
    /* the empty points, and each one's index in that list */
    uint16_t empt[GO_MAXN * GO_MAXN], epos[GO_PTS];
    int ne = 0, rebuild = 1, nlog = 0;
    int limit = max_plies(s);
    int heavy = s->kind == GO_KIND_GO && !s->light;
    int last = heavy ? go_last_move(s) : 0;
    while (!s->over) {
        if (rebuild) {
            ne = 0;
            for (int y = 0; y < s->size; y++)
                for (int x = 0; x < s->size; x++) {
                    int p = go_point(x, y);
                    if (s->color[p] == GO_EMPTY) {
                        epos[p] = (uint16_t)ne;
                        empt[ne++] = (uint16_t)p;
                    }
                }
            rebuild = 0;
        }
        int c = s->side + 1, me = s->side, chosen = GO_PASS;
        if (heavy && last) {
            chosen = go_policy_move(s, last, r);
            if (chosen != GO_PASS) {
                int i = epos[chosen];
                empt[i] = empt[--ne];
                epos[empt[i]] = (uint16_t)i;
            }
        }
        int left = chosen == GO_PASS ? ne : 0;
        while (left > 0) {
            int i = (int)rng_below(r, (uint32_t)left);
            int p = empt[i];
            Probe pr;
            int ok = 0;
            if (s->color[p + 1] == GO_EMPTY || s->color[p - 1] == GO_EMPTY ||
                s->color[p + GO_STRIDE] == GO_EMPTY ||
                s->color[p - GO_STRIDE] == GO_EMPTY) {
                ok = 1;     /* a liberty: legal, and never the ko point */
            } else if (!is_eye(s, p, c)) {
                probe(s, p, c, &pr);
                if (pr.captures)
                    ok = !(p == s->ko && pr.captures == 1);
                else
                    ok = pr.libs;
            }
            if (ok && heavy && bad_move(s, p, c))
                ok = 0;
            if (ok) {
                chosen = p;
                /* drop it from the list of empty points */
                empt[i] = empt[ne - 1];
                epos[empt[i]] = (uint16_t)i;
                ne--;
                break;
            }
            left--;
            uint16_t t = empt[i];
            empt[i] = empt[left];
            empt[left] = t;
            epos[empt[i]] = (uint16_t)i;
            epos[t] = (uint16_t)left;
        }
        if (chosen == GO_PASS && s->kind == GO_KIND_ATARI) {
            /* atari-go passes only without any legal placement: fill an
             * own eye, or lose with nomove=lose */
            for (int i = 0; i < ne && chosen == GO_PASS; i++) {
                Probe pr;
                probe(s, empt[i], c, &pr);
                if (pr.captures ? !(empt[i] == s->ko && pr.captures == 1)
                                : pr.libs) {
                    chosen = empt[i];
                    empt[i] = empt[ne - 1];
                    epos[empt[i]] = (uint16_t)i;
                    ne--;
                }
            }
            if (chosen == GO_PASS && s->nomove_lose) {
                s->winner = (int8_t)!me;
                s->over = 1;
                break;
            }
        }
        if (log && nlog < cap) {
            log[nlog] = (Move)chosen;
            lpl[nlog++] = (int8_t)me;
        }
        last = chosen;
        if (chosen == GO_PASS) {
            s->passes++;
            s->ko = 0;
            s->ply++;
            s->side ^= 1;
            if (s->ko_rule == GO_KO_SSK)
                push_history(s);
            if (s->passes >= 2 || s->ply >= limit)
                s->over = 1;
            continue;
        }
        s->passes = 0;
        int k = play_at(s, chosen, c);
        s->ply++;
        s->side ^= 1;
        push_history(s);
        if (k)
            rebuild = 1;
        if (s->ply >= limit)
            s->over = 1;
        if (s->kind == GO_KIND_ATARI && k > 0) {
            s->caps[me] = (uint16_t)(s->caps[me] + k);
            if (s->caps[me] >= s->target) {
                s->winner = (int8_t)me;
                s->over = 1;
            }
        }
    }
    return nlog;
}

/* ---------------------------------------------------------- tree */

/* Priors for MCTS (visits, wins): an even 10/5 for every move, a won 10
 * more for a tactical move (capture, atari escape) or a pattern next to
 * the last move, and for a third-line move in an empty area; a lost 10
 * more for a first-line move in an empty area and an empty triangle, a
 * lost 20 for a self-atari of two or more stones or an own eye filled;
 * a pass a lost 10 while a quarter of the board is still empty. */
static void go_priors(const void *st, const Move *moves, int n, int *visits,
                      int *wins)
{
    const GoState *s = st;
    int c = s->side + 1, o = 3 - c, sz = s->size;
    int last = go_last_move(s);
    int tac[CAND_MAX], nt = 0;
    if (last)
        nt = tactics(s, last, tac);
    int empties = 0;
    for (int y = 0; y < sz; y++)
        for (int x = 0; x < sz; x++)
            empties += s->color[go_point(x, y)] == GO_EMPTY;
    for (int i = 0; i < n; i++) {
        int m = (int)moves[i], v = 10, w = 5;
        if (m == GO_PASS) {
            if (4 * empties > sz * sz)
                v += 10;
            visits[i] = v;
            wins[i] = w;
            continue;
        }
        int good = 0, bad = 0;
        for (int j = 0; j < nt; j++)
            if (tac[j] == m) {
                good = 1;
                break;
            }
        if (last && abs(go_x(m) - go_x(last)) <= 1 &&
            abs(go_y(m) - go_y(last)) <= 1 &&
            go_pat3_match(go_pat3_code(s, m)))
            good++;
        int x = go_x(m), y = go_y(m);
        int line = x < y ? x : y;
        if (sz - 1 - x < line)
            line = sz - 1 - x;
        if (sz - 1 - y < line)
            line = sz - 1 - y;
        if (sz >= 9 && (line == 0 || line == 2)) {
            int near = 0;
            for (int dy = -2; dy <= 2 && !near; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    if (abs(dx) + abs(dy) > 2)
                        continue;
                    int q = m + dy * GO_STRIDE + dx;
                    if (q >= 0 && q < GO_PTS &&
                        (s->color[q] == GO_BLACK || s->color[q] == GO_WHITE))
                        near = 1;
                }
            if (!near) {
                if (line == 2)
                    good++;
                else
                    bad++;
            }
        }
        /* empty triangle: two own stones on perpendicular sides and the
         * point between them empty */
        for (int d = 0; d < 2; d++)
            for (int e = 2; e < 4; e++)
                if (s->color[m + dirs[d]] == c && s->color[m + dirs[e]] == c &&
                    s->color[m + dirs[d] + dirs[e]] == GO_EMPTY) {
                    int opp = 0;
                    for (int f = 0; f < 4; f++)
                        opp += s->color[m + dirs[f]] == o;
                    if (!opp)
                        bad = bad ? bad : 1;
                }
        v += 10 * (good + bad);
        w += 10 * good;
        if (is_eye(s, m, c) || bad_move(s, m, c))
            v += 20;
        visits[i] = v;
        wins[i] = w;
    }
}

/* The time manager's estimate: about one ply per empty point left. */
static int go_plies_left(const void *st)
{
    const GoState *s = st;
    int e = 0;
    for (int y = 0; y < s->size; y++)
        for (int x = 0; x < s->size; x++)
            e += s->color[go_point(x, y)] == GO_EMPTY;
    return e + 10;
}

/* ---------------------------------------------------------- text */

static int coord_to_text(const GoState *s, int p, char *buf, size_t n)
{
    (void)s;
    if (p == GO_PASS)
        return snprintf(buf, n, "pass");
    int x = go_x(p), y = go_y(p);
    char col = (char)('A' + x + (x >= 8));
    return snprintf(buf, n, "%c%d", col, y + 1);
}

/* A point in GTP notation ("D4", "d4"), or -1. */
static int text_to_coord(const GoState *s, const char *t, const char **end)
{
    int c = toupper((unsigned char)t[0]);
    if (c < 'A' || c > 'Z' || c == 'I')
        return -1;
    int x = c - 'A' - (c > 'I');
    if (!isdigit((unsigned char)t[1]))
        return -1;
    int y = 0, i = 1;
    while (isdigit((unsigned char)t[i]) && y < 100)
        y = y * 10 + (t[i++] - '0');
    if (x >= s->size || y < 1 || y > s->size)
        return -1;
    *end = t + i;
    return go_point(x, y - 1);
}

static int go_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    int w = coord_to_text(st, (int)m, buf, n);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int go_text_to_move(const void *st, const char *t, Move *m,
                           PlyError *err)
{
    const GoState *s = st;
    if (s->over)
        return ply_fail(err, "the game is over");
    int p;
    if (!strcasecmp(t, "pass")) {
        p = GO_PASS;
    } else {
        const char *end;
        p = text_to_coord(s, t, &end);
        if (p < 0 || *end)
            return ply_fail(err, "'%.20s' is not a point of the %dx%d board "
                            "(A1..%c%d, no I) or 'pass'", t, s->size,
                            s->size, 'A' + s->size - 1 + (s->size > 8),
                            s->size);
    }
    if (p == GO_PASS ? s->kind == GO_KIND_GO || !has_placement(s)
                     : legal_one(s, p)) {
        *m = (Move)p;
        return 0;
    }
    if (p == GO_PASS)
        return ply_fail(err, "atari-go: pass only when no placement is "
                        "legal");
    if (s->color[p] != GO_EMPTY)
        return ply_fail(err, "%s is occupied", t);
    return ply_fail(err, "%s is illegal here (%s)", t,
                    s->ko == p ? "ko" : "suicide or superko");
}

/* Setup string, e.g. on 5x5:
 *   ...../...../.OX../...../..... b ko=- pass=0 ply=2 cap=0,0 hist=0,bC3,wB3
 * rows from the top (row size) down to row 1, '.' empty, 'X' Black,
 * 'O' White; the player to move (b or w); the simple-ko point (a point
 * or -); consecutive passes; plies played (the game is cut off at
 * min(3*size*size, 600)); stones captured by Black and by White; winner=b|w|draw
 * when an atari-go game is decided; hist= the superko history (a key
 * in hex, or the previous key plus a stone, bC3 / wB2, or p: the previous
 * key after a pass under ssk) as hex
 * keys (absent with ko=simple; on input, when absent, the current
 * position alone). */
static int go_to_text(const void *st, char *buf, size_t n)
{
    const GoState *s = st;
    size_t len = 0;
    for (int y = s->size - 1; y >= 0; y--) {
        char row[GO_MAXN + 2];
        for (int x = 0; x < s->size; x++)
            row[x] = ".XO"[s->color[go_point(x, y)]];
        row[s->size] = 0;
        PLY_OUT("%s%s", row, y ? "/" : "");
    }
    char ko[8] = "-";
    if (s->ko)
        coord_to_text(s, s->ko, ko, sizeof ko);
    PLY_OUT(" %c ko=%s pass=%d ply=%d cap=%d,%d", s->side ? 'w' : 'b', ko,
        s->passes, s->ply, s->caps[0], s->caps[1]);
    if (s->kind == GO_KIND_ATARI && s->over)
        PLY_OUT(" winner=%s", s->winner < 0 ? "draw" : s->winner ? "w" : "b");
    if (s->ko_rule != GO_KO_SIMPLE) {
        PLY_OUT(" hist=");
        for (int i = 0; i < s->nhist; i++) {
            char hex[20];
            int k = 0;
            uint64_t x = s->hist[i];
            if (i) {
                /* one stone more than the previous key (or a pass under
                 * ssk): its point, written backwards like the hex */
                uint64_t d = x ^ s->hist[i - 1] ^
                             (s->ko_rule == GO_KO_SSK ? ZSIDE : 0);
                int q = 0, c = GO_BLACK;
                if (d && !(q = zdecode(d, c)))
                    q = zdecode(d, c = GO_WHITE);
                if (!d) {
                    hex[k++] = 'p';
                } else if (q && s->color[q] != GO_EDGE) {
                    char pt[8];
                    int l = coord_to_text(s, q, pt, sizeof pt);
                    while (l)
                        hex[k++] = pt[--l];
                    hex[k++] = c == GO_BLACK ? 'b' : 'w';
                }
            }
            if (!k)
                do {
                    hex[k++] = "0123456789abcdef"[x & 15];
                    x >>= 4;
                } while (x);
            if (len + (size_t)k + 2 > n)
                return -1;
            if (i)
                buf[len++] = ',';
            while (k)
                buf[len++] = hex[--k];
            buf[len] = 0;
        }
    }
    return (int)len;
}

static int parse_uint(const char *v, int max, int *out)
{
    if (!isdigit((unsigned char)*v))
        return -1;
    long x = 0;
    while (isdigit((unsigned char)*v)) {
        x = x * 10 + (*v++ - '0');
        if (x > max)
            return -1;
    }
    if (*v)
        return -1;
    *out = (int)x;
    return 0;
}

static int go_from_text(void *st, const char *text, PlyError *err)
{
    GoState *s = st;
    GoState *t = malloc(sizeof *t);
    if (!t)
        return ply_fail(err, "out of memory");
    int rc = -1;
    /* the rules stay, the position goes */
    memcpy(t, s, offsetof(GoState, side));
    memset((char *)t + offsetof(GoState, side), 0,
           sizeof *t - offsetof(GoState, side));
    t->hash = 0;
    t->winner = -1;
    int size = s->size;
    clear_board(t, size);
    const char *p = text;
    for (int y = size - 1; y >= 0; y--) {
        for (int x = 0; x < size; x++, p++) {
            int c = *p == '.' ? GO_EMPTY : *p == 'X' ? GO_BLACK
                  : *p == 'O' ? GO_WHITE : -1;
            if (c < 0) {
                ply_fail(err, "go setup: row %d needs %d of . X O, found "
                         "'%.10s'", y + 1, size, p);
                goto out;
            }
            if (c)
                place_stone(t, go_point(x, y), c);
        }
        if (*p != (y ? '/' : ' ')) {
            ply_fail(err, "go setup: row %d of a %dx%d board ends with '%c',"
                     " expected %s", y + 1, size, size, *p ? *p : '0',
                     y ? "'/'" : "a space and b or w");
            goto out;
        }
        p++;
    }
    for (int q = 0; q < GO_PTS; q++)
        if ((t->color[q] == GO_BLACK || t->color[q] == GO_WHITE) &&
            t->plib[t->root[q]] == 0) {
            char c[8];
            coord_to_text(t, q, c, sizeof c);
            ply_fail(err, "go setup: the group at %s has no liberty", c);
            goto out;
        }
    if ((*p != 'b' && *p != 'w') || (p[1] && p[1] != ' ')) {
        ply_fail(err, "go setup: expected b or w (the player to move) "
                 "after the board");
        goto out;
    }
    t->side = *p == 'w';
    p++;
    int have_hist = 0, have_winner = 0;
    unsigned seen = 0;
    while (*p == ' ') {
        p++;
        char tok[64];
        size_t k = 0;
        const char *start = p;
        while (*p && *p != ' ' && *p != '=' && k + 1 < sizeof tok)
            tok[k++] = *p++;
        tok[k] = 0;
        if (*p != '=') {
            ply_fail(err, "go setup: expected key=value at '%.20s'", start);
            goto out;
        }
        p++;
        const char *v = p;
        while (*p && *p != ' ')
            p++;
        size_t vl = (size_t)(p - v);
        char val[64];
        static const char *const keys[] = {"ko", "pass", "ply", "cap",
                                           "winner", "hist"};
        int key = -1;
        for (int i = 0; i < 6; i++)
            if (!strcmp(tok, keys[i]))
                key = i;
        if (key < 0) {
            ply_fail(err, "go setup: unknown field '%s' (ko, pass, ply, "
                     "cap, winner, hist)", tok);
            goto out;
        }
        if (seen & (1u << key)) {
            ply_fail(err, "go setup: field %s given twice", tok);
            goto out;
        }
        seen |= 1u << key;
        if (key != 5) {
            if (vl >= sizeof val) {
                ply_fail(err, "go setup: value of %s too long", tok);
                goto out;
            }
            memcpy(val, v, vl);
            val[vl] = 0;
        }
        int bad = 0;
        switch (key) {
        case 0:
            if (strcmp(val, "-")) {
                const char *end;
                int q = text_to_coord(t, val, &end);
                if (q < 0 || *end || t->color[q] != GO_EMPTY)
                    bad = 1;
                else
                    t->ko = (uint16_t)q;
            }
            break;
        case 1: {
            int x;
            bad = parse_uint(val, 2, &x);
            t->passes = (uint8_t)x;
            break;
        }
        case 2: {
            int x;
            bad = parse_uint(val, max_plies(t), &x);
            t->ply = (uint16_t)x;
            break;
        }
        case 3: {
            char *comma = strchr(val, ',');
            int a, b;
            if (!comma) {
                bad = 1;
                break;
            }
            *comma = 0;
            bad = parse_uint(val, 60000, &a) || parse_uint(comma + 1, 60000,
                                                           &b);
            t->caps[0] = (uint16_t)a;
            t->caps[1] = (uint16_t)b;
            break;
        }
        case 4:
            if (t->kind != GO_KIND_ATARI)
                bad = 1;
            else if (!strcmp(val, "b"))
                t->winner = 0;
            else if (!strcmp(val, "w"))
                t->winner = 1;
            else if (!strcmp(val, "draw"))
                t->winner = -1;
            else
                bad = 1;
            have_winner = 1;
            break;
        case 5: {
            if (t->ko_rule == GO_KO_SIMPLE) {
                ply_fail(err, "go setup: hist= needs ko=psk or ko=ssk");
                goto out;
            }
            const char *h = v;
            while (h < p) {
                if (t->nhist > GO_MAX_PLIES) {
                    ply_fail(err, "go setup: history too long");
                    goto out;
                }
                uint64_t x = 0;
                int digits = 0, n = t->nhist;
                uint64_t step = n && t->ko_rule == GO_KO_SSK ? ZSIDE : 0;
                const char *item = h;
                if (n && (*h == 'b' || *h == 'w') && h + 1 < p &&
                    isupper((unsigned char)h[1])) {
                    /* a stone added to the previous position */
                    const char *end;
                    int q = text_to_coord(t, h + 1, &end);
                    if (q < 0 || end > p) {
                        ply_fail(err, "go setup: hist= has a bad point at "
                                 "'%.20s'", h);
                        goto out;
                    }
                    x = t->hist[n - 1] ^ step ^
                        zkey(q, *h == 'b' ? GO_BLACK : GO_WHITE);
                    h = end;
                    digits = 1;
                } else if (n && *h == 'p' && (h + 1 == p || h[1] == ',')) {
                    x = t->hist[n - 1] ^ step;
                    h++;
                    digits = 1;
                } else {
                    while (h < p && (isdigit((unsigned char)*h) ||
                                     (*h >= 'a' && *h <= 'f')) &&
                           digits < 17) {
                        int d = isdigit((unsigned char)*h) ? *h - '0'
                                                           : *h - 'a' + 10;
                        x = x << 4 | (uint64_t)d;
                        h++;
                        digits++;
                    }
                }
                if (!digits || digits > 16 || (h < p && *h != ',')) {
                    ply_fail(err, "go setup: hist= is a list of keys "
                             "(lower-case hex, or b/w and a point, or p), "
                             "bad at '%.20s'", item);
                    goto out;
                }
                t->hist[t->nhist++] = x;
                if (h < p)
                    h++;
            }
            have_hist = 1;
            break;
        }
        }
        if (bad) {
            ply_fail(err, "go setup: bad value '%.*s' for %s", (int)vl, v,
                     tok);
            goto out;
        }
    }
    if (*p) {
        ply_fail(err, "go setup: unexpected '%.20s'", p);
        goto out;
    }
    if (t->ko_rule != GO_KO_SIMPLE) {
        uint64_t cur = hist_key(t, t->hash, t->side);
        if (!have_hist) {
            t->hist[0] = cur;
            t->nhist = 1;
        } else if (t->nhist == 0 || t->hist[t->nhist - 1] != cur) {
            /* after a pass under psk the board key is the last one */
            ply_fail(err, "go setup: the last hist= key must be the "
                     "current position's (%llx)", (unsigned long long)cur);
            goto out;
        }
    }
    if (t->nhist > t->ply + 1) {
        ply_fail(err, "go setup: more history than plies played");
        goto out;
    }
    if (t->passes >= 2 || t->ply >= max_plies(t))
        t->over = 1;
    if (t->kind == GO_KIND_ATARI) {
        int decided = t->caps[0] >= t->target || t->caps[1] >= t->target;
        if (decided && t->caps[0] >= t->target && t->caps[1] >= t->target) {
            ply_fail(err, "atari-go setup: both players reached the target");
            goto out;
        }
        if (have_winner) {
            t->over = 1;
            if (decided && (t->winner < 0 ||
                            t->caps[!t->winner] >= t->target)) {
                ply_fail(err, "atari-go setup: winner= disagrees with cap=");
                goto out;
            }
        } else if (decided) {
            ply_fail(err, "atari-go setup: a player reached the capture "
                     "target: give winner=");
            goto out;
        }
        if (t->over && !have_winner) {
            ply_fail(err, "atari-go setup: a finished game needs winner=");
            goto out;
        }
    }
    if (t->over)
        t->ko = 0;
    memcpy(s, t, sizeof *s);
    rc = 0;
out:
    free(t);
    return rc;
}

/* The board for drawing: points on the grid lines, A1 bottom left. */
static int go_layout(const void *st, Layout *l)
{
    const GoState *s = st;
    int N = s->size;
    l->width = l->height = (float)N;
    for (int i = 0; i < N; i++) {
        float c = (float)i + 0.5f, e = (float)N - 0.5f;
        layout_line(l, 0.5f, c, e, c);
        layout_line(l, c, 0.5f, c, e);
    }
    for (int y = N - 1; y >= 0; y--)
        for (int x = 0; x < N; x++) {
            char name[16];
            snprintf(name, sizeof name, "%c%d", 'A' + x + (x >= 8), y + 1);
            LayoutCell *c = layout_cell(l, (float)x + 0.5f,
                                        (float)(N - 1 - y) + 0.5f,
                                        CELL_POINT, SHADE_NONE, name);
            int col = s->color[go_point(x, y)];
            if (c && (col == GO_BLACK || col == GO_WHITE)) {
                c->owner = (int8_t)(col - 1);
                snprintf(c->glyph, sizeof c->glyph, "\u25CF");
            }
        }
    return 0;
}

static int go_render(const void *st, char *buf, size_t n)
{
    const GoState *s = st;
    size_t len = 0;
    PLY_OUT("   ");
    for (int x = 0; x < s->size; x++)
        PLY_OUT(" %c", 'A' + x + (x >= 8));
    PLY_OUT("\n");
    for (int y = s->size - 1; y >= 0; y--) {
        PLY_OUT("%2d ", y + 1);
        for (int x = 0; x < s->size; x++) {
            int p = go_point(x, y);
            PLY_OUT(" %c", ".XO"[s->color[p]]);
        }
        PLY_OUT(" %2d\n", y + 1);
    }
    PLY_OUT("   ");
    for (int x = 0; x < s->size; x++)
        PLY_OUT(" %c", 'A' + x + (x >= 8));
    PLY_OUT("\n");
    if (s->kind == GO_KIND_ATARI) {
        PLY_OUT("captures: X %d, O %d (target %d)\n", s->caps[0], s->caps[1],
            s->target);
    } else {
        int b, wt;
        area(s, &b, &wt);
        PLY_OUT("area: X %d, O %d, komi %s\n", b, wt, go_komi_text(s->komi2));
    }
    if (s->over)
        PLY_OUT("game over\n");
    else
        PLY_OUT("%s (%c) to move%s\n", s->side ? "White" : "Black",
            s->side ? 'O' : 'X', s->passes ? ", after a pass" : "");
    return (int)len;
}

/* Debug check: groups, liberties and key agree with the board. */
static int go_check(const void *st)
{
    const GoState *s = st;
    if (s->size < 2 || s->size > GO_MAXN || s->side > 1)
        return -1;
    uint64_t h = 0;
    for (int p = 0; p < GO_PTS; p++) {
        int c = s->color[p];
        if (c != GO_BLACK && c != GO_WHITE)
            continue;
        h ^= zkey(p, c);
        int g = s->root[p];
        if (s->color[g] != c || s->root[g] != g)
            return -2;
        int adj = 0;
        for (int d = 0; d < 4; d++) {
            int q = p + dirs[d];
            if (s->color[q] == c && s->root[q] != g)
                return -3;
        }
        if (g != p)
            continue;
        int cnt = 0, r = g;
        uint32_t sum = 0, sq = 0;
        do {
            if (s->root[r] != g || s->color[r] != c || cnt > GO_PTS)
                return -4;
            for (int d = 0; d < 4; d++)
                if (s->color[r + dirs[d]] == GO_EMPTY) {
                    int q = r + dirs[d];
                    adj++;
                    sum += (uint32_t)q;
                    sq += (uint32_t)(q * q);
                }
            cnt++;
            r = s->next[r];
        } while (r != g);
        if (cnt != s->gsize[g] || adj != s->plib[g] || adj == 0 ||
            sum != s->lsum[g] || sq != s->lsq[g])
            return -5;
    }
    if (h != s->hash)
        return -6;
    if (s->ko_rule != GO_KO_SIMPLE &&
        (!s->nhist || s->hist[s->nhist - 1] != hist_key(s, h, s->side)))
        return -7;
    return 0;
}

/* ---------------------------------------------------------- tables */

static const char *const go_players[] = {"Black", "White"};

static const GameFormat *const go_formats[] = {&go_format_sgf, &go_format_gtp,
                                               NULL};

#define GO_NOTATION                                                     \
    "A move is a point in GTP form, column letter A..T without I and\n" \
    "row number from 1 at the bottom (D4, Q16; lower case accepted),\n" \
    "or 'pass'.\n"                                                      \
    "Setup string: the rows from the top down, '/' between them, each\n" \
    "'.' empty, 'X' Black, 'O' White; then b or w (to move) and the\n"  \
    "fields ko=<point or -> (the point a single-stone recapture may not\n" \
    "be played on), pass=<0..2> (consecutive passes), ply=<n> (plies\n" \
    "played), cap=<b>,<w> (stones captured), winner=b|w|draw (a decided\n" \
    "atari-go game) and hist=<key>,... (the superko history: the\n" \
    "Zobrist keys of the earlier positions, oldest first, ending with\n" \
    "the current one; omitted with ko=simple). A key is lower-case hex,\n" \
    "or b/w and a point: the previous key with that stone added, or p:\n" \
    "the previous key after a pass (ko=ssk, where the player to move is\n" \
    "in the key). On input every field may be left out (defaults: -, 0,\n" \
    "0, 0,0, none, the current position).\n" \
    "Example (5x5, C3 B3): ...../...../.OX../...../..... b ko=- pass=0\n" \
    "ply=2 cap=0,0 hist=0,bC3,wB3. Records: SGF (ply record --to sgf)."

const GameVtbl game_go = {
    .info = {
        .name = "go",
        .title = "Go (area scoring)",
        /* RAVE with Fuego/Pachi's slow fade (equivalence about 1100
         * playouts) and no UCT term: the priors explore. At 1000
         * iterations a move on 9x9 it beat plain UCT (c=1) 65% with
         * c=0.1 and more with c=0 (docs: the commit messages) */
        .default_bot = "mcts:rave=1,bias=0.015,c=0",
        .num_players = 2,
        .max_moves = GO_MAXN * GO_MAXN + 1,
        .max_game_length = GO_MAX_PLIES,
        .state_size = sizeof(GoState),
        .flags = GAME_ZERO_SUM,
        .player_names = go_players,
        .options = go_options,
        .notation = GO_NOTATION,
        .rules =
            "Go with area scoring (Tromp-Taylor / Chinese counting).\n"
            "Black moves first (White first after a fixed handicap). A turn\n"
            "is a pass or a placement on an empty point; the placement\n"
            "removes the opponent's groups left without liberties, then\n"
            "(suicide=true) the mover's own group if it has none.\n"
            "With suicide=false (default) a placement that leaves its own\n"
            "group without liberties and captures nothing is illegal; a\n"
            "one-stone suicide is always illegal (it would be a pass).\n"
            "Ko: psk (default, positional superko): a placement may not\n"
            "recreate any earlier board, the start included; ssk: not an\n"
            "earlier board with the same player to move (positions after\n"
            "passes count); simple: only the immediate recapture of one\n"
            "stone that just captured one stone is banned.\n"
            "The game ends after two passes in a row. No stones are removed\n"
            "as dead: score = own stones + empty points reaching only own\n"
            "stones; White adds komi (default 7.5) and, with a handicap,\n"
            "compensation=n or n-1. Higher score wins; equal is a draw.\n"
            "Handicap: fixed points (GTP's table: 9x9 C3 G7 C7 G3 ...).\n"
            "A game is cut off after min(3*size*size, 600) plies and scored as it\n"
            "stands. Playouts (MCTS; playout=heavy, default): captures and\n"
            "atari escapes next to the last move, then its 3x3 patterns\n"
            "(hane, cuts, edge shapes), else uniform among legal placements\n"
            "that fill no own eye and put no group of two or more stones in\n"
            "atari, pass when none; playout=light: uniform without own-eye\n"
            "fills only; simple ko only. Tree priors: captures, escapes,\n"
            "patterns, third line up, first line, empty triangles and\n"
            "self-atari down.\n"
            "Perft counts the pass as a move (go.md's 'pass counted' rows:\n"
            "9x9 depth 4 = 42002809); a game over after two passes has no\n"
            "moves below it.",
    },
    .init = go_init,
    .to_move = go_to_move,
    .gen_moves = go_gen_moves,
    .make = go_make,
    .returns = go_returns,
    .hash = go_hash,
    .to_text = go_to_text,
    .from_text = go_from_text,
    .move_to_text = go_move_to_text,
    .text_to_move = go_text_to_move,
    .render = go_render,
    .layout = go_layout,
    .eval = go_eval,
    .playout = go_playout,
    .score = go_score,
    .check = go_check,
    .formats = go_formats,
    .playout_log = go_playout_log,
    .priors = go_priors,
    .plies_left = go_plies_left,
};

const GameVtbl game_atari_go = {
    .info = {
        .name = "atari-go",
        .title = "Atari Go (capture Go)",
        .num_players = 2,
        .max_moves = GO_MAXN * GO_MAXN + 1,
        .max_game_length = GO_MAX_PLIES,
        .state_size = sizeof(GoState),
        .flags = GAME_ZERO_SUM,
        .player_names = go_players,
        .options = atari_options,
        .notation = GO_NOTATION,
        .rules =
            "Atari Go: Go placements and captures (Black first); the first\n"
            "player to capture `target` stones (default 1) wins.\n"
            "suicide=forbid (default): a placement without liberties that\n"
            "captures nothing is illegal; suicide=lose: it loses at once.\n"
            "Positional superko applies (only reachable with target > 1).\n"
            "A player passes only when no placement is legal; two passes\n"
            "in a row end the game drawn (nomove=pass, default), or with\n"
            "nomove=lose a player left without a legal placement loses.\n"
            "A game is cut off after min(3*size*size, 600) plies as a draw.",
    },
    .init = atari_init,
    .to_move = go_to_move,
    .gen_moves = go_gen_moves,
    .make = go_make,
    .returns = go_returns,
    .hash = go_hash,
    .to_text = go_to_text,
    .from_text = go_from_text,
    .move_to_text = go_move_to_text,
    .text_to_move = go_text_to_move,
    .render = go_render,
    .layout = go_layout,
    .eval = go_eval,
    .playout = go_playout,
    .score = go_score,
    .check = go_check,
    .formats = go_formats,
};
