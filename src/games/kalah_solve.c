/* kalah_solve.c — the exact value of a Kalah board (kalah.h): MTD(f),
 * a sequence of null-window alpha-beta searches to the end of the game,
 * with a transposition table keyed by the whole board (no collisions),
 * the endgame databases below dbseeds seeds, and the bound |value| <= the
 * seeds on the board. Kalah has no cycles (every move banks seeds or
 * carries them toward the mover's store), so the searches end. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/game.h"
#include "kalah.h"

enum { WAYS = 4, INF = 1000 };

/* An entry: the board packed into 64 bits (64 / 2h bits a house; boards
 * with a house too full for that are not stored), so the key is the
 * whole board and a hit is never a collision. A bucket is one cache
 * line. */
typedef struct Entry {
    uint64_t key;           /* 0: empty */
    int16_t lo, hi;         /* the value's bounds */
    uint8_t move;           /* the best move found (or 0xff) */
    uint8_t seeds;          /* seeds on the board: the replacement key */
    uint8_t pad[2];
} Entry;

struct KalahSolver {
    MancalaDb *db;
    const MancalaRules *R;
    int h, K, dbseeds;
    Entry *tt;
    size_t mask;            /* buckets - 1 */
    int bits;               /* per house in a key */
    uint64_t nodes;
    uint64_t budget, limit; /* kalah_solver_limit; limit 0: none */
    const BotClock *clk;    /* kalah_solver_clock; NULL: no deadline */
    BotTick tick;
    uint32_t left;          /* nodes before the next clock check */
    const atomic_int *halt; /* set by a bot's stop(); NULL: never */
    int stop;               /* the limit was reached: unwind, store nothing */
};

void kalah_solver_clock(KalahSolver *s, const BotClock *clk,
                        const atomic_int *halt)
{
    s->clk = clk;
    s->halt = halt;
    s->tick = (BotTick){0, 0, 1};
    s->left = 1;
}

void kalah_solver_limit(KalahSolver *s, uint64_t nodes)
{
    s->budget = nodes;
}

static void start(KalahSolver *s)
{
    s->stop = 0;
    s->limit = s->budget ? s->nodes + s->budget : 0;
}

KalahSolver *kalah_solver_new(int houses, int capture, int dbseeds,
                              size_t tt_bytes)
{
    MancalaDb *db = kalah_db(houses, capture);
    if (!db || dbseeds < 0 || dbseeds > MDB_MAX_SEEDS)
        return NULL;
    dbseeds = kalah_db_fit(houses, dbseeds);
    if (dbseeds && mancala_db_build(db, dbseeds))
        return NULL;
    KalahSolver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t buckets = 1;
    while (buckets * 2 * WAYS * sizeof(Entry) <= tt_bytes)
        buckets *= 2;
    s->tt = aligned_alloc(64, buckets * WAYS * sizeof(Entry));
    if (!s->tt) {
        free(s);
        return NULL;
    }
    memset(s->tt, 0, buckets * WAYS * sizeof(Entry));
    s->mask = buckets - 1;
    s->db = db;
    s->R = db->rules;
    s->h = houses;
    s->K = 2 * houses;
    s->dbseeds = dbseeds;
    s->bits = 64 / s->K < 8 ? 64 / s->K : 8;
    return s;
}

void kalah_solver_free(KalahSolver *s)
{
    if (s) {
        free(s->tt);
        free(s);
    }
}

uint64_t kalah_solver_nodes(const KalahSolver *s)
{
    return s->nodes;
}

/* The board's key, 0 when a house does not fit its bits. */
static uint64_t key_of(const KalahSolver *s, const uint8_t *b)
{
    uint64_t k = 0;
    unsigned lim = 1u << s->bits;
    for (int i = 0; i < s->K; i++) {
        if (b[i] >= lim)
            return 0;
        k = k << s->bits | b[i];
    }
    return k;
}

static Entry *bucket(const KalahSolver *s, uint64_t key)
{
    return &s->tt[(size_t)(ply_mix64(key) & s->mask) * WAYS];
}

static Entry *lookup(const KalahSolver *s, uint64_t key)
{
    Entry *e = bucket(s, key);
    for (int i = 0; i < WAYS; i++)
        if (e[i].key == key)
            return &e[i];
    return NULL;
}

static void store(KalahSolver *s, uint64_t key, int n, int lo, int hi,
                  int move)
{
    if (!key)
        return;
    Entry *e = lookup(s, key);
    if (e) {
        if (lo > e->lo)
            e->lo = (int16_t)lo;
        if (hi < e->hi)
            e->hi = (int16_t)hi;
        if (move >= 0)
            e->move = (uint8_t)move;
        return;
    }
    /* replace an empty slot, else the one with the fewest seeds */
    Entry *bk = bucket(s, key), *v = &bk[0];
    for (int i = 0; i < WAYS; i++) {
        if (!bk[i].key) {
            v = &bk[i];
            break;
        }
        if (bk[i].seeds < v->seeds)
            v = &bk[i];
    }
    v->key = key;
    v->lo = (int16_t)lo;
    v->hi = (int16_t)hi;
    v->move = (uint8_t)(move >= 0 ? move : 0xff);
    v->seeds = (uint8_t)n;
}

static void flip(int K, const uint8_t *b, uint8_t *out)
{
    int h = K / 2;
    memcpy(out, b + h, (size_t)h);
    memcpy(out + h, b, (size_t)h);
}

/* Move order: the table's move, extra turns, captures, then the houses
 * nearest the store. */
static int order(const KalahSolver *s, const uint8_t *b, int *mv, int nm,
                 int ttmove)
{
    int h = s->h, key[MDB_MAX_MOVES];
    for (int i = 0; i < nm; i++) {
        int m = mv[i], seeds = b[m], k = m;
        if (m == ttmove)
            k = 1000;
        else if (seeds == h - m)
            k = 500 + m;
        else if (seeds < 2 * h + 1 && m + seeds < h && !b[m + seeds])
            k = 100 + b[2 * h - 1 - (m + seeds)];
        key[i] = k;
    }
    for (int i = 1; i < nm; i++)
        for (int j = i; j > 0 && key[j] > key[j - 1]; j--) {
            int t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
            t = mv[j];
            mv[j] = mv[j - 1];
            mv[j - 1] = t;
        }
    return nm;
}

static int board_seeds(int K, const uint8_t *b)
{
    int n = 0;
    for (int i = 0; i < K; i++)
        n += b[i];
    return n;
}

/* Fail-soft alpha-beta on the net value of b (n seeds on it). */
static int search(KalahSolver *s, const uint8_t *b, int n, int alpha,
                  int beta)
{
    const MancalaRules *R = s->R;
    if (s->limit && s->nodes >= s->limit)
        s->stop = 1;
    if (!s->stop && (s->clk || s->halt) && --s->left == 0) {
        s->left = s->tick.every ? s->tick.every : 1;
        if ((s->clk && botclock_check(s->clk, &s->tick)) ||
            (s->halt && atomic_load(s->halt)))
            s->stop = 1;
    }
    if (s->stop)
        return 0;
    s->nodes++;
    int net;
    if (n <= s->dbseeds && !mancala_db_probe(s->db, b, s->dbseeds, &net))
        return net;
    int mv[MDB_MAX_MOVES], nm = R->moves(R, b, mv);
    if (!nm)
        return R->stuck(R, b);
    if (alpha >= n)
        return n;
    if (beta <= -n)
        return -n;
    int lo = -n, hi = n, ttmove = -1;
    uint64_t key = key_of(s, b);
    Entry *e = key ? lookup(s, key) : NULL;
    if (e) {
        lo = e->lo > lo ? e->lo : lo;
        hi = e->hi < hi ? e->hi : hi;
        ttmove = e->move == 0xff ? -1 : e->move;
        if (lo >= beta)
            return lo;
        if (hi <= alpha)
            return hi;
        if (lo == hi)
            return lo;
    }
    int a = alpha > lo ? alpha : lo, bb = beta < hi ? beta : hi;
    int a0 = a;
    order(s, b, mv, nm, ttmove);
    int best = -INF, bm = -1;
    for (int i = 0; i < nm; i++) {
        uint8_t c[MDB_MAX_HOUSES] = {0}, f[MDB_MAX_HOUSES] = {0};
        memcpy(c, b, MDB_MAX_HOUSES);
        int gain = 0, what = R->play(R, c, mv[i], &gain), v;
        if (what == MDB_END) {
            v = gain;
        } else if (what == MDB_AGAIN) {
            v = gain + search(s, c, board_seeds(s->K, c), a - gain,
                              bb - gain);
        } else {
            flip(s->K, c, f);
            v = gain - search(s, f, board_seeds(s->K, f), gain - bb,
                              gain - a);
        }
        if (s->stop)
            return 0;
        if (v > best) {
            best = v;
            bm = mv[i];
            if (v > a)
                a = v;
            if (a >= bb)
                break;
        }
    }
    if (best <= a0)
        store(s, key, n, -INF, best, bm);
    else if (best >= bb)
        store(s, key, n, best, INF, bm);
    else
        store(s, key, n, best, best, bm);
    return best;
}

int kalah_solve_at_least(KalahSolver *s, const uint8_t *b, int v)
{
    uint8_t t[MDB_MAX_HOUSES] = {0};
    memcpy(t, b, (size_t)s->K);
    start(s);
    int r = search(s, t, board_seeds(s->K, t), v - 1, v) >= v;
    return s->stop ? -2 : r;
}

int kalah_solve(KalahSolver *s, const uint8_t *b, int *value, int *best)
{
    uint8_t t[MDB_MAX_HOUSES] = {0};
    int n = board_seeds(s->K, b);
    if (n > 255)
        return -1;
    memcpy(t, b, (size_t)s->K);
    start(s);
    /* MTD(f) from the table's guess */
    int lo = -n, hi = n, g = 0;
    uint64_t key = key_of(s, t);
    Entry *e = key ? lookup(s, key) : NULL;
    if (e && e->lo > -INF && e->lo <= n)
        g = e->lo;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        g = search(s, t, n, beta - 1, beta);
        if (s->stop)
            return -2;
        if (g < beta)
            hi = g;
        else
            lo = g;
    }
    *value = lo;
    /* a move that keeps the value */
    int r = kalah_solve_keep(s, t, lo, best);
    return r == -2 ? -2 : 0;
}

/* Whether move m from t (n seeds) keeps a net value of at least v. */
static int keeps(KalahSolver *s, const uint8_t *t, int m, int v)
{
    const MancalaRules *R = s->R;
    uint8_t c[MDB_MAX_HOUSES] = {0}, f[MDB_MAX_HOUSES] = {0};
    memcpy(c, t, MDB_MAX_HOUSES);
    int gain = 0, what = R->play(R, c, m, &gain);
    if (what == MDB_END)
        return gain >= v;
    if (what == MDB_AGAIN)
        return search(s, c, board_seeds(s->K, c), v - gain - 1, v - gain) >=
               v - gain;
    flip(s->K, c, f);
    /* gain - v(f) >= v  <=>  v(f) <= gain - v */
    return search(s, f, board_seeds(s->K, f), gain - v, gain - v + 1) <=
           gain - v;
}

int kalah_solve_keep(KalahSolver *s, const uint8_t *b, int v, int *best)
{
    const MancalaRules *R = s->R;
    uint8_t t[MDB_MAX_HOUSES] = {0};
    if (board_seeds(s->K, b) > 255)
        return -1;
    memcpy(t, b, (size_t)s->K);
    start(s);
    *best = -1;
    int mv[MDB_MAX_MOVES], nm = R->moves(R, t, mv);
    uint64_t key = key_of(s, t);
    Entry *e = key ? lookup(s, key) : NULL;
    order(s, t, mv, nm, e && e->move != 0xff ? e->move : -1);
    for (int i = 0; i < nm; i++) {
        int ok = keeps(s, t, mv[i], v);
        if (s->stop)
            return -2;
        if (ok) {
            *best = mv[i];
            return 1;
        }
    }
    return 0;
}

/* ---- the kalah-perfect bot ---- */

extern const GameVtbl game_kalah;

typedef struct PerfectOpts {
    int dbseeds;
    int hash_mib;
    uint64_t budget;
    char inner[OPT_TEXT_MAX];
    int keep;
} PerfectOpts;

static const Option perfect_options[] = {
    {.key = "dbseeds", .type = OPT_INT, .def = 14, .min = 0, .max = 20,
     .offset = offsetof(PerfectOpts, dbseeds),
     .help = "endgame databases up to this many seeds on the board (built "
     "at the first move; no more than 2^30 boards: with 7 houses a side "
     "up to 19, with 8 up to 16)",
     .flags = OPTF_COSTLY},
    {.key = "hash", .type = OPT_INT, .def = 512, .min = 1, .max = 65536,
     .offset = offsetof(PerfectOpts, hash_mib), .engine = "Hash",
     .help = "the solver's transposition table, MiB (kept across moves "
     "and games: its entries are exact facts about boards)",
     .flags = OPTF_COSTLY},
    {.key = "budget", .type = OPT_COUNT, .def = 0,
     .offset = offsetof(PerfectOpts, budget),
     .help = "nodes a move may spend solving (0: no limit); past it the "
     "move is the inner bot's"},
    {.key = "keep", .type = OPT_INT, .def = 1000, .min = -1000,
     .max = 1000, .offset = offsetof(PerfectOpts, keep),
     .help = "a final margin to keep (kalah 6x4 as first player: 10): "
     "the move is the first proven to keep it, by null-window searches "
     "only, cheaper than the exact value; when none does, the exact value "
     "decides (1000: always the exact value)"},
    {.key = "inner", .type = OPT_STRING, .def_text = "alphabeta",
     .offset = offsetof(PerfectOpts, inner),
     .help = "the bot for boards the solver does not take (over 8 houses "
     "a side or 255 seeds, or past the budget)"},
    {.key = NULL},
};

typedef struct PerfectBot {
    const GameVtbl *g;
    PerfectOpts o;
    KalahSolver *s;
    int houses, capture;    /* of s */
    Bot *inner;
    atomic_int halt;        /* perfect_stop() */
} PerfectBot;

static void *perfect_create(const GameVtbl *g, const void *opts,
                            uint64_t seed, PlyError *err)
{
    if (g != &game_kalah) {
        ply_fail(err, "kalah-perfect plays kalah only");
        return NULL;
    }
    PerfectBot *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    memcpy(&b->o, opts, sizeof b->o);
    b->inner = bot_new_inner(g, "inner", b->o.inner, "kalah-perfect", seed,
                             err);
    if (!b->inner) {
        free(b);
        return NULL;
    }
    return b;
}

static void perfect_destroy(void *p)
{
    PerfectBot *b = p;
    if (b) {
        kalah_solver_free(b->s);
        bot_free(b->inner);
    }
    free(b);
}

static void perfect_new_game(void *p)
{
    PerfectBot *b = p;
    bot_new_game(b->inner);     /* the solver's table stays: exact facts */
}

static void perfect_stop(void *p)
{
    PerfectBot *b = p;
    atomic_store(&b->halt, 1);
    bot_stop(b->inner);
}

static Move perfect_choose(void *p, const void *st, const Limits *lim,
                           SearchInfo *out)
{
    PerfectBot *b = p;
    uint8_t board[MDB_MAX_HOUSES];
    int h, cap, value, best = -1;
    /* the solver gets half of a timed move; when it has not finished by
     * then, the inner bot plays in what is left */
    BotClock clk;
    botclock_start(&clk, lim, lim->time_ms > 0 ? lim->time_ms / 2 : 0);
    atomic_store(&b->halt, 0);
    if (!kalah_board(st, board, &h, &cap)) {
        if (b->s && (b->houses != h || b->capture != cap)) {
            kalah_solver_free(b->s);
            b->s = NULL;
        }
        if (!b->s) {
            b->s = kalah_solver_new(h, cap, b->o.dbseeds,
                                    (size_t)b->o.hash_mib << 20);
            b->houses = h;
            b->capture = cap;
        }
        if (b->s) {
            uint64_t n0 = kalah_solver_nodes(b->s);
            kalah_solver_limit(b->s, b->o.budget ? b->o.budget
                                                 : lim->nodes);
            kalah_solver_clock(b->s, lim->time_ms > 0 ? &clk : NULL,
                               &b->halt);
            int me = b->g->to_move(st);
            int need = b->o.keep - (b->g->score(st, me) -
                                    b->g->score(st, !me));
            int r = b->o.keep < 1000 ?
                kalah_solve_keep(b->s, board, need, &best) : 0;
            if (r == 1)
                value = need;   /* at least */
            else if (r == -2 || kalah_solve(b->s, board, &value, &best))
                best = -1;
            out->nodes = kalah_solver_nodes(b->s) - n0;
            kalah_solver_clock(b->s, NULL, NULL);
        }
    }
    if (best < 0) {
        if (atomic_load(&b->halt)) {
            /* stopped: a legal move at once (kalah has at most 16) */
            Move mv[64];
            if (b->g->info.max_moves <= 64 && b->g->gen_moves(st, mv) > 0)
                return out->best = mv[0];
        }
        Limits rest = *lim;
        if (lim->time_ms > 0) {
            rest.time_ms = lim->time_ms -
                           botclock_elapsed_us(&clk) / 1000;
            if (rest.time_ms < 1)
                rest.time_ms = 1;
        }
        return bot_choose(b->inner, st, &rest, out);
    }
    int me = b->g->to_move(st);
    int margin = b->g->score(st, me) - b->g->score(st, !me) + value;
    out->best = (Move)best;
    out->value = 100 * margin;
    out->proven = margin > 0 ? 1 : margin < 0 ? -1 : 0;
    out->pv_len = 1;
    out->pv[0] = (Move)best;
    return (Move)best;
}

const BotVtbl bot_kalah_perfect = {
    .name = "kalah-perfect",
    .help = "Kalah only: perfect play by an exact solver (MTD(f) with a "
            "transposition table over the endgame databases); the value "
            "is the final margin with best play of both sides.",
    .options = perfect_options,
    .options_size = sizeof(PerfectOpts),
    .create = perfect_create,
    .destroy = perfect_destroy,
    .new_game = perfect_new_game,
    .choose = perfect_choose,
    .stop = perfect_stop,
};
