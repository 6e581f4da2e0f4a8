/* solve.c — the exact endgame solver of reversi.
 *
 * Negamax alpha-beta (fail-soft, PVS: the first move with the window,
 * the others with a null window, searched again when they beat it) on
 * the side-to-move bitboards of reversi.h, scoring final disc
 * differences. Three layers, as endgame solvers are usually built:
 *
 * - the last empty square: its flips counted directly, for the mover or
 *   else for the opponent (solve1);
 * - up to SHALLOW empties: no move list and no table; the empty squares
 *   next to an opponent's disc, those of quadrants holding an odd number
 *   of empties first (parity: the side that moves last in a region
 *   gains), then the others;
 * - deeper: the legal moves sorted fastest first (the fewer replies the
 *   opponent has, and the fewer corners among them, the earlier; from
 *   EVAL_ORDER_MIN empties the child's evaluation counts too), the
 *   table's move first and odd quadrants a little earlier; a stability
 *   cutoff (the opponent's stable discs bound what the mover can reach);
 *   a transposition table of whole boards with the bounds found, probed
 *   for the children before the search from ETC_MIN empties. */
#include <string.h>

#include "../../core/bot.h"
#include "reversi.h"

struct RvEntry {
    uint64_t P, O;      /* the board (P to move); P = O = 0: empty slot */
    int8_t lo, hi;      /* bounds of its score */
    uint8_t move;       /* a best move found (64: none) */
    uint8_t empties;    /* the cost of what the bounds took to prove */
    uint8_t gen;        /* the solve that wrote it */
    uint8_t pad[3];
};

enum {
    SHALLOW = 6,        /* at most this many empties: parity order */
    TT_MIN = 8,         /* at least this many: the table */
    STAB_MIN = 10,      /* at least this many: the stability cutoff */
    ETC_MIN = 12,       /* children with at least this many: their entries
                         * probed before the search (ETC) */
    EVAL_ORDER_MIN = 14,    /* at least this many: the children's
                             * evaluation added to the order's key */
    EVAL_ORDER_DIV = 8,
    NO_SCORE = -RV_SCORE_MAX - 1,
};

/* The four 4x4 quadrants. */
static const uint64_t quadrant[4] = {
    0x000000000f0f0f0full, 0x00000000f0f0f0f0ull,
    0x0f0f0f0f00000000ull, 0xf0f0f0f000000000ull,
};

void rv_solver_init(RvSolver *s, void *table, size_t bytes)
{
    memset(s, 0, sizeof *s);
    size_t n = 0;
    if (table)
        for (n = 1; 2 * n * sizeof(RvEntry) <= bytes; n *= 2)
            ;
    if (table && n * sizeof(RvEntry) <= bytes && n >= 2) {
        s->tt = table;
        s->mask = n - 1;
    }
}

size_t rv_entry_size(void)
{
    return sizeof(RvEntry);
}

static inline int final_score(uint64_t P, uint64_t O)
{
    return rv_popcount(P) - rv_popcount(O);
}

/* The squares of E in quadrants with an odd number of E's squares. */
static inline uint64_t odd_quadrants(uint64_t E)
{
    uint64_t odd = 0;
    for (int q = 0; q < 4; q++)
        if (rv_popcount(E & quadrant[q]) & 1)
            odd |= quadrant[q];
    return odd;
}

/* 1 when the solve must stop: the node limit, the halt flag, the clock
 * (read every s->every nodes). */
static int stopped(RvSolver *s)
{
    if (s->aborted)
        return 1;
    if (s->limit && s->nodes >= s->limit)
        return s->aborted = 1;
    if (++s->count >= s->every) {
        s->count = 0;
        if (s->halt && atomic_load_explicit(s->halt, memory_order_relaxed))
            return s->aborted = 1;
        if (s->clk) {
            if (botclock_check(s->clk, &s->tick))
                return s->aborted = 1;
            s->every = s->tick.every;
        } else {
            s->every = 4096;
        }
    }
    return 0;
}

/* One empty square x, P to move. */
static inline int solve1(RvSolver *s, uint64_t P, uint64_t O, int x)
{
    s->nodes++;
    int p = rv_popcount(P);
    uint64_t f = rv_flips(P, O, x);
    if (f)
        return 2 * (p + rv_popcount(f)) - 62;
    f = rv_flips(O, P, x);
    if (f)
        return 2 * (p - rv_popcount(f)) - 64;
    return 2 * p - 63;
}

/* 2..SHALLOW empty squares: no table, parity order. */
static int shallow(RvSolver *s, uint64_t P, uint64_t O, int alpha, int beta,
                   int n)
{
    uint64_t E = ~(P | O);
    if (n == 1)
        return solve1(s, P, O, rv_ctz(E));
    s->nodes++;
    uint64_t odd = odd_quadrants(E), near = E & rv_adjacent(O);
    uint64_t set[2] = {near & odd, near & ~odd};
    int best = NO_SCORE;
    for (int k = 0; k < 2; k++)
        for (uint64_t b = set[k]; b; b &= b - 1) {
            int x = rv_ctz(b);
            uint64_t f = rv_flips(P, O, x);
            if (!f)
                continue;
            int a = best > alpha ? best : alpha;
            int v = -shallow(s, O ^ f, P ^ f ^ (1ull << x), -beta, -a,
                             n - 1);
            if (v > best) {
                best = v;
                if (v >= beta)
                    return v;
            }
        }
    if (best != NO_SCORE)
        return best;
    for (uint64_t b = E & rv_adjacent(P); b; b &= b - 1)
        if (rv_flips(O, P, rv_ctz(b)))
            return -shallow(s, O, P, -beta, -alpha, n);
    return final_score(P, O);
}

typedef struct MoveItem {
    uint64_t P, O;      /* the child, its mover first */
    int sq, key;
} MoveItem;

static RvEntry *tt_slot(const RvSolver *s, uint64_t P, uint64_t O)
{
    uint64_t h = P * 0x9e3779b97f4a7c15ull ^
                 (O + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
    h ^= h >> 31;
    return s->tt + ((h & s->mask) & ~1ull);
}

static const RvEntry *tt_probe(const RvSolver *s, uint64_t P, uint64_t O)
{
    RvEntry *e = tt_slot(s, P, O);
    for (int i = 0; i < 2; i++)
        if (e[i].P == P && e[i].O == O && (P | O))
            return &e[i];
    return NULL;
}

static void tt_store(RvSolver *s, uint64_t P, uint64_t O, int n, int alpha,
                     int beta, int score, int move)
{
    RvEntry *e = tt_slot(s, P, O), *w = NULL;
    for (int i = 0; i < 2 && !w; i++)
        if (e[i].P == P && e[i].O == O)
            w = &e[i];
    if (w) {
        /* the same board: tighten its bounds */
        if (score < beta && score < w->hi)
            w->hi = (int8_t)score;
        if (score > alpha && score > w->lo)
            w->lo = (int8_t)score;
        if (w->lo > w->hi)
            w->lo = w->hi = (int8_t)score;   /* cannot happen when sound */
        if (move < 64)
            w->move = (uint8_t)move;
        w->gen = s->gen;
        if (n > w->empties)
            w->empties = (uint8_t)n;
        return;
    }
    /* another solve's entry, else the cheaper one */
    w = &e[0];
    if (e[0].gen == s->gen && (e[1].gen != s->gen ||
                               e[1].empties < e[0].empties))
        w = &e[1];
    w->P = P;
    w->O = O;
    w->lo = (int8_t)(score > alpha ? score : -RV_SCORE_MAX);
    w->hi = (int8_t)(score < beta ? score : RV_SCORE_MAX);
    w->move = (uint8_t)(move < 64 ? move : 64);
    w->empties = (uint8_t)n;
    w->gen = s->gen;
}

/* The moves of P (M, not empty) as children sorted best first; from
 * EVAL_ORDER_MIN empties the child's evaluation (the opponent's, in
 * 1/RV_WSCALE discs) over EVAL_ORDER_DIV is taken off the key. (Counted
 * over 10 positions of 20 empties, exact scores: 135 M nodes for replies
 * counted once, corners among them twice 127 M, four times 119 M;
 * potential mobility, the empty squares next to the mover's discs, more
 * nodes at every weight tried. Later, with the table's children probed,
 * 78 M; with the evaluation from 14 empties over 8, 49 M, 2.5-2.7 s of
 * CPU instead of 3.7-4.0; the evaluation alone, 75 M, and 84 M instead
 * of 68 M for win/draw/loss on 10 positions of 22 empties.) */
static int order(uint64_t P, uint64_t O, uint64_t M, int ttmove,
                 MoveItem *mv, int n_empties)
{
    uint64_t odd = odd_quadrants(~(P | O));
    int n = 0;
    for (uint64_t b = M; b; b &= b - 1) {
        int x = rv_ctz(b);
        uint64_t bit = 1ull << x, f = rv_flips(P, O, x);
        MoveItem *m = &mv[n++];
        m->P = O ^ f;
        m->O = P ^ f ^ bit;
        m->sq = x;
        if (x == ttmove) {
            m->key = 1 << 20;
            continue;
        }
        uint64_t reply = rv_mobility(m->P, m->O);
        /* the opponent's replies, a corner among them counting 4 */
        m->key = -16 * rv_popcount(reply) - 48 * rv_popcount(reply &
                                                             RV_CORNERS);
        if (bit & odd)
            m->key += 4;
        if (n_empties >= EVAL_ORDER_MIN)
            m->key -= rv_pattern_score(m->P, m->O) / EVAL_ORDER_DIV;
    }
    /* insertion sort: a dozen moves at most, usually */
    for (int i = 1; i < n; i++) {
        MoveItem t = mv[i];
        int j = i;
        for (; j > 0 && mv[j - 1].key < t.key; j--)
            mv[j] = mv[j - 1];
        mv[j] = t;
    }
    return n;
}

static int search(RvSolver *s, uint64_t P, uint64_t O, int alpha, int beta,
                  int n);

/* More than SHALLOW empty squares. */
static int deep(RvSolver *s, uint64_t P, uint64_t O, int alpha, int beta,
                int n)
{
    s->nodes++;
    if (stopped(s))
        return 0;
    int ttmove = 64;
    if (s->tt && n >= TT_MIN) {
        const RvEntry *e = tt_probe(s, P, O);
        if (e) {
            if (e->lo >= beta)
                return e->lo;
            if (e->hi <= alpha)
                return e->hi;
            if (e->lo == e->hi)
                return e->lo;
            if (e->lo > alpha)
                alpha = e->lo;
            if (e->hi < beta)
                beta = e->hi;
            ttmove = e->move;
        }
    }
    uint64_t M = rv_mobility(P, O);
    if (!M) {
        if (!rv_mobility(O, P))
            return final_score(P, O);
        return -search(s, O, P, -beta, -alpha, n);
    }
    if (n >= STAB_MIN) {
        /* P can end with at most 64 - 2 * (O's stable discs) */
        int top = RV_SCORE_MAX - 2 * rv_popcount(rv_stable(O, P));
        if (top <= alpha)
            return top;
    }
    MoveItem mv[REVERSI_MAX_MOVES];
    int nm = order(P, O, M, ttmove, mv, n);
    if (s->tt && n - 1 >= ETC_MIN)
        /* a child's table entry may already refute beta */
        for (int i = 0; i < nm; i++) {
            const RvEntry *e = tt_probe(s, mv[i].P, mv[i].O);
            if (e && -e->hi >= beta) {
                tt_store(s, P, O, n, alpha, beta, -e->hi, mv[i].sq);
                return -e->hi;
            }
        }
    int best = NO_SCORE, bm = 64, a = alpha;
    for (int i = 0; i < nm; i++) {
        int v;
        if (i == 0) {
            v = -search(s, mv[i].P, mv[i].O, -beta, -a, n - 1);
        } else {
            v = -search(s, mv[i].P, mv[i].O, -a - 1, -a, n - 1);
            if (v > a && v < beta && !s->aborted)
                v = -search(s, mv[i].P, mv[i].O, -beta, -a, n - 1);
        }
        if (s->aborted)
            return 0;
        if (v > best) {
            best = v;
            bm = mv[i].sq;
            if (v > a) {
                a = v;
                if (v >= beta)
                    break;
            }
        }
    }
    if (s->tt && n >= TT_MIN)
        tt_store(s, P, O, n, alpha, beta, best, bm);
    return best;
}

static int search(RvSolver *s, uint64_t P, uint64_t O, int alpha, int beta,
                  int n)
{
    if (n > SHALLOW)
        return deep(s, P, O, alpha, beta, n);
    if (n == 0) {
        s->nodes++;
        return final_score(P, O);
    }
    return shallow(s, P, O, alpha, beta, n);
}

int rv_solve(RvSolver *s, uint64_t P, uint64_t O, int alpha, int beta,
             int *score, int *best)
{
    s->aborted = 0;
    s->gen++;
    s->count = 0;
    s->every = 1;
    memset(&s->tick, 0, sizeof s->tick);
    int n = 64 - rv_popcount(P | O), bm = -1, v;
    uint64_t M = rv_mobility(P, O);
    if (!M) {
        if (!rv_mobility(O, P)) {
            v = final_score(P, O);
        } else {
            bm = REVERSI_PASS;
            v = -search(s, O, P, -beta, -alpha, n);
        }
    } else {
        int ttmove = 64;
        const RvEntry *e = s->tt ? tt_probe(s, P, O) : NULL;
        if (e)
            ttmove = e->move;
        MoveItem mv[REVERSI_MAX_MOVES];
        int nm = order(P, O, M, ttmove, mv, n), a = alpha;
        v = NO_SCORE;
        for (int i = 0; i < nm; i++) {
            int w;
            if (i == 0) {
                w = -search(s, mv[i].P, mv[i].O, -beta, -a, n - 1);
            } else {
                w = -search(s, mv[i].P, mv[i].O, -a - 1, -a, n - 1);
                if (w > a && w < beta && !s->aborted)
                    w = -search(s, mv[i].P, mv[i].O, -beta, -a, n - 1);
            }
            if (s->aborted)
                break;
            if (w > v) {
                v = w;
                if (w > a) {
                    bm = mv[i].sq;
                    a = w;
                    if (w >= beta)
                        break;
                }
            }
        }
        if (!s->aborted && s->tt && n >= TT_MIN)
            tt_store(s, P, O, n, alpha, beta, v, bm < 0 ? 64 : bm);
    }
    if (s->aborted)
        return -1;
    if (score)
        *score = v;
    if (best)
        *best = bm;
    return 0;
}
