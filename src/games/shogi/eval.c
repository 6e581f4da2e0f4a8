/* eval.c — shogi's evaluation (one linear form over shogi_weights.h),
 * move ordering and the impasse score. */
#include <stdlib.h>
#include <string.h>

#include "../../core/see.h"
#include "shogi.h"
#include "shogi_weights.h"
#include "weights_micro_shogi.h"
#include "weights_minishogi.h"
#include "weights_shogi.h"

/* Move ordering's piece values (the evaluation's are in weights_*.h):
 * board values by type, hand values by type (a bit higher). */
static const int board_value[15] = {0, 100, 300, 350, 500, 800, 950, 550, 0,
                                    520, 520, 520, 550, 1050, 1250};
static const int hand_value[8] = {0, 115, 330, 390, 560, 900, 1060, 610};

/* ---- evaluation and ordering ---- */

static inline int dist(int a, int b)
{
    int dr = abs(row_of(a) - row_of(b)), dc = abs(col_of(a) - col_of(b));
    return dr > dc ? dr : dc;
}

/* The evaluation is one linear form over the weights of shogi_weights.h
 * (one array per variant): eval_core adds w[i] * coef for every term and,
 * when a sink is given (ply tune, tests), records the coefficients too.
 * The fast path passes NULL, which the always-inlined body folds away. */
typedef struct TermSink {
    float coef[SW_N_MAX];
} TermSink;

#define SW_NAME(name, value) name,
#define SW_VALUE(name, value) value,
static const char *const SHOGI_NAMES[] = {SHOGI_WEIGHTS(SW_NAME)};
static const int SHOGI_W[] = {SHOGI_WEIGHTS(SW_VALUE)};
static const char *const MINISHOGI_NAMES[] = {MINISHOGI_WEIGHTS(SW_NAME)};
static const int MINISHOGI_W[] = {MINISHOGI_WEIGHTS(SW_VALUE)};
static const char *const MICRO_NAMES[] = {MICRO_SHOGI_WEIGHTS(SW_NAME)};
static const int MICRO_W[] = {MICRO_SHOGI_WEIGHTS(SW_VALUE)};
#define SW_COUNT(a) ((int)(sizeof a / sizeof *a))
_Static_assert(SW_COUNT(SHOGI_W) == SW_PST + 8 * 9 * 9, "shogi weights");
_Static_assert(SW_COUNT(MINISHOGI_W) == SW_PST + 8 * 5 * 5,
               "minishogi weights");
_Static_assert(SW_COUNT(MICRO_W) == SW_PST + 8 * 4 * 5,
               "micro-shogi weights");

static const int *const variant_weights[3] = {SHOGI_W, MINISHOGI_W,
                                              MICRO_W};
/* Which of the newer terms a variant's weights use (the others are all
 * 0 there, and its evaluation skips computing them): RICH_ATTACKS the
 * terms from SW_MOB_LANCE to SW_THREAT_LESSER_WAIT, which need the
 * attack maps, RICH_KTABLES the king-relative tables. test_evalterms
 * fails a variant whose weights use terms its flags leave out. */
enum { RICH_ATTACKS = 1, RICH_KTABLES = 2, RICH_ALL = 3 };
static const int variant_rich[3] = {RICH_ATTACKS, RICH_ALL, 0};

#define TERM(idx, c)                                                    \
    do {                                                                \
        if (sink)                                                       \
            sink->coef[idx] += (float)(c);                              \
    } while (0)

static inline int board_index(int t)
{
    return t < KING ? SW_BOARD_PAWN + t - PAWN
                    : SW_BOARD_TOKIN + t - (PROM + PAWN);
}

/* ---- attacks, for the king-safety, threat and mobility terms ---- */

/* Value classes of piece types for "attacked by a lesser piece" (the
 * king highest); 0 = no attacker. */
static const uint8_t value_rank[16] = {0, 1, 2, 3, 4, 6, 7, 5, 10,
                                       5, 5, 5, 5, 8, 9, 0};
/* Size class of a piece for the hanging terms: 0 pawn, 1 minor, 2 major;
 * -1 the king. */
static const signed char size_class[16] = {-1, 0, 1, 1, 1, 2, 2, 1, -1,
                                           1, 1, 1, 1, 2, 2, -1};
/* Kind of the king-relative tables: pawn lance knight silver gold-like
 * bishop rook horse dragon; -1 the king. */
static const signed char rel_kind[16] = {-1, 0, 1, 2, 3, 5, 6, 4, -1,
                                         4, 4, 4, 4, 7, 8, -1};

typedef struct SgAttacks {
    uint8_t n[2][CELLS];    /* attackers of each colour, the king too
                               (off-board cells count too, unread) */
    int mob[2][5];          /* lance bishop rook horse dragon */
} SgAttacks;

/* The attack maps of the pieces on the n squares of list. */
static void sg_attacks(const Shogi *s, const uint8_t *list, int n,
                       SgAttacks *a)
{
    const uint8_t *b = s->board;
    memset(a, 0, sizeof *a);
    for (int i = 0; i < n; i++) {
        int sq = list[i], p = b[sq], col = COLOR(p), t = TYPE(p);
        uint8_t *att = a->n[col];
        for (unsigned sm = step_mask[p]; sm; sm &= sm - 1)
            att[sq + dv[__builtin_ctz(sm)]]++;
        if (t == KNIGHT) {
            int d = col == BLACK ? -1 : 1;
            att[sq + 21 * d]++;
            att[sq + 19 * d]++;
        }
        unsigned lm = slide_mask[p];
        if (!lm)
            continue;
        int m = 0;
        for (; lm; lm &= lm - 1) {
            int d = dv[__builtin_ctz(lm)], q = sq + d;
            for (; b[q] == EMPTY; q += d, m++)
                att[q]++;
            att[q]++;
            m += b[q] != OFF && COLOR(b[q]) != col;
        }
        int k = t == LANCE ? 0 : t == BISHOP ? 1 : t == ROOK ? 2
              : t == PROM + BISHOP ? 3 : 4;
        a->mob[col][k] += m;
    }
}

/* Which way is towards the centre of the board from a king on column
 * kc: +1 up the columns, -1 down, 0 the centre (either way). */
static inline int centre_dir(int kc, int w)
{
    return 2 * kc < w - 1 ? 1 : 2 * kc > w - 1 ? -1 : 0;
}

/* Columns from c to the king's kc, counted towards the centre. */
static inline int toward_centre(int c, int kc, int dir)
{
    return dir ? dir * (c - kc) : abs(c - kc);
}

/* Empty squares from which a piece of type t of colour col dropped
 * there would check the king on k, and safe: not defended by the
 * king's side, or next to the king, defended by the king alone and
 * supported by col. */
static int drop_checks(const Shogi *s, const SgAttacks *a, int col, int t,
                       int k)
{
    const uint8_t *b = s->board;
    int e = col ^ 1, n = 0, p = (col ? WHITE_BIT : 0) | t;
    if (t == KNIGHT) {
        int d = col == BLACK ? 1 : -1;
        int q[2] = {k + 21 * d, k + 19 * d};
        for (int i = 0; i < 2; i++)
            n += b[q[i]] == EMPTY && !a->n[e][q[i]];
        return n;
    }
    unsigned sm = step_mask[p], lm = slide_mask[p];
    for (int j = 0; j < 8; j++) {
        /* a piece on k + dv[j] checks along direction 7 - j */
        int back = 7 - j, q = k + dv[j];
        if (!((sm | lm) >> back & 1) || b[q] != EMPTY)
            continue;
        n += a->n[e][q] == 1 && a->n[col][q] > 0;
        if (!(lm >> back & 1))
            continue;
        for (q += dv[j]; b[q] == EMPTY; q += dv[j])
            n += !a->n[e][q];
    }
    return n;
}

/* Black's view, without the clamp. */
static inline __attribute__((always_inline)) int
eval_core(const Shogi *s, const int *w, int rich, TermSink *sink)
{
    const Variant *v = var_of(s);
    int score[2] = {0, 0}, attack[2] = {0, 0}, defend[2] = {0, 0};
    int kr[2], kc[2], kdir[2];
    for (int col = 0; col < 2; col++) {
        kr[col] = row_of(s->ksq[col]);
        kc[col] = col_of(s->ksq[col]);
        kdir[col] = centre_dir(kc[col], v->w);
    }
    uint8_t list[CELLS];    /* the squares of the pieces, when rich */
    int npieces = 0;
    for (int r = 0; r < v->h; r++) {
        const uint8_t *row = s->board + sq_of(r, 0);
        for (int c = 0; c < v->w; c++) {
            int p = row[c];
            if (!p)
                continue;
            int col = COLOR(p), t = TYPE(p);
            int pst = sw_pst(t, col, r, c, v->w, v->h);
            score[col] += w[pst];
            TERM(pst, col ? -1 : 1);
            if (rich & RICH_ATTACKS)
                list[npieces++] = (uint8_t)sq_of(r, c);
            if (t == KING)
                continue;
            score[col] += w[board_index(t)];
            TERM(board_index(t), col ? -1 : 1);
            /* pieces near the enemy king attack it, golds, silvers and
             * promoted pieces next to their own king defend it */
            int e = col ^ 1;
            if (abs(r - kr[e]) <= 2 && abs(c - kc[e]) <= 2)
                attack[col] += t == PAWN ? 1 : 2;
            if (abs(r - kr[col]) <= 1 && abs(c - kc[col]) <= 1 &&
                (t == GOLD || t == SILVER || t > KING))
                defend[col]++;
            if (!(rich & RICH_KTABLES))
                continue;
            /* the king-relative tables: rows ahead from the king's
             * owner's view, columns towards the centre */
            int kind = rel_kind[t];
            int dr = col == BLACK ? kr[col] - r : r - kr[col];
            int dc = toward_centre(c, kc[col], kdir[col]);
            if (dr >= -2 && dr <= 2 && dc >= -2 && dc <= 2) {
                int i = SW_KOWN + kind * 25 + (dr + 2) * 5 + dc + 2;
                score[col] += w[i];
                TERM(i, col ? -1 : 1);
            }
            dr = e == BLACK ? kr[e] - r : r - kr[e];
            dc = toward_centre(c, kc[e], kdir[e]);
            if (dr >= -2 && dr <= 3 && dc >= -2 && dc <= 2) {
                int i = SW_KOPP + kind * 30 + (dr + 2) * 5 + dc + 2;
                score[col] += w[i];
                TERM(i, col ? -1 : 1);
            }
        }
    }
    for (int col = 0; col < 2; col++) {
        int sg = col ? -1 : 1, hand_pieces = 0;
        for (int t = PAWN; t <= GOLD; t++) {
            int k = s->hand[col][t];
            score[col] += w[SW_HAND_PAWN + t - PAWN] * k;
            TERM(SW_HAND_PAWN + t - PAWN, sg * k);
            hand_pieces += k * (t == PAWN ? 1 : 2);
        }
        /* hand pieces weigh more once the attack has begun */
        int hp = hand_pieces > 6 ? 6 : hand_pieces;
        score[col] += w[SW_KING_ATTACK] * attack[col] +
                      w[SW_KING_ATTACK_HAND] * attack[col] * hp +
                      w[SW_KING_DEFENDER] * defend[col];
        TERM(SW_KING_ATTACK, sg * attack[col]);
        TERM(SW_KING_ATTACK_HAND, sg * attack[col] * hp);
        TERM(SW_KING_DEFENDER, sg * defend[col]);
    }
    if (rich & RICH_ATTACKS) {
        SgAttacks a;
        sg_attacks(s, list, npieces, &a);
        const uint8_t *b = s->board;
        for (int col = 0; col < 2; col++) {
            int sg = col ? -1 : 1, e = col ^ 1, k = s->ksq[e];
            for (int i = 0; i < 5; i++) {
                score[col] += w[SW_MOB_LANCE + i] * a.mob[col][i];
                TERM(SW_MOB_LANCE + i, sg * a.mob[col][i]);
            }
            /* the enemy king's neighbourhood */
            int zatt = 0, weak = 0, escape = 0, own = s->ksq[col];
            for (int j = 0; j < 8; j++) {
                int q = k + dv[j];
                if (b[q] != OFF) {
                    zatt += a.n[col][q];
                    weak += a.n[col][q] && a.n[e][q] == 1;
                }
                q = own + dv[j];
                escape += b[q] != OFF && (!b[q] || COLOR(b[q]) != col) &&
                          !a.n[e][q];
            }
            int u = zatt + weak > 24 ? 24 : zatt + weak;
            score[col] += w[SW_ZONE_ATTACKS] * zatt +
                          w[SW_ZONE_WEAK] * weak +
                          w[SW_ZONE_DANGER] * u * u +
                          w[SW_KING_ESCAPE] * escape;
            TERM(SW_ZONE_ATTACKS, sg * zatt);
            TERM(SW_ZONE_WEAK, sg * weak);
            TERM(SW_ZONE_DANGER, sg * u * u);
            TERM(SW_KING_ESCAPE, sg * escape);
            static const uint8_t drop_types[6] = {LANCE, KNIGHT, SILVER,
                                                  BISHOP, ROOK, GOLD};
            for (int i = 0; i < 6; i++) {
                if (!s->hand[col][drop_types[i]])
                    continue;
                int n = drop_checks(s, &a, col, drop_types[i], k);
                score[col] += w[SW_DROP_CHECK_LANCE + i] * n;
                TERM(SW_DROP_CHECK_LANCE + i, sg * n);
            }
        }
        /* threats: every piece but the kings; the least attacker is
         * looked for only on the pieces attacked */
        int hang[2][3][2] = {{{0}}}, lesser[2][2] = {{0}};
        for (int i = 0; i < npieces; i++) {
            int q = list[i], p = b[q], col = COLOR(p), e = col ^ 1;
            int t = TYPE(p);
            if (t == KING || !a.n[e][q])
                continue;
            int stm = col == s->side ? 0 : 1, from;
            if (!a.n[col][q])
                hang[col][size_class[t]][stm]++;
            int lt = value_rank[t] > 1 ? sg_least_attacker(b, q, e, &from)
                                       : 0;
            if (lt && value_rank[lt] < value_rank[t])
                lesser[col][stm]++;
        }
        for (int col = 0; col < 2; col++) {
            int sg = col ? -1 : 1;
            for (int z = 0; z < 3; z++)
                for (int st = 0; st < 2; st++) {
                    int i = SW_HANG_SMALL_STM + 2 * z + st;
                    score[col] += w[i] * hang[col][z][st];
                    TERM(i, sg * hang[col][z][st]);
                }
            for (int st = 0; st < 2; st++) {
                score[col] += w[SW_THREAT_LESSER_STM + st] * lesser[col][st];
                TERM(SW_THREAT_LESSER_STM + st, sg * lesser[col][st]);
            }
        }
    }
    TERM(SW_TEMPO, s->side == BLACK ? 1 : -1);
    return score[0] - score[1] +
           (s->side == BLACK ? w[SW_TEMPO] : -w[SW_TEMPO]);
}
#undef TERM

int shogi_eval(const void *st, int player)
{
    const Shogi *s = st;
    int e = eval_core(s, variant_weights[s->variant],
                      variant_rich[s->variant], NULL);
    if (player)
        e = -e;
    if (e > EVAL_MAX)
        e = EVAL_MAX;
    if (e < -EVAL_MAX)
        e = -EVAL_MAX;
    return e;
}

static int shogi_terms(const void *st, EvalTerm *out, double *base)
{
    const Shogi *s = st;
    TermSink sink;
    memset(&sink, 0, sizeof sink);
    eval_core(s, variant_weights[s->variant], RICH_ALL, &sink);
    *base = 0;
    int n = 0;
    for (int i = 0; i < SW_N_MAX; i++)
        if (sink.coef[i] != 0)
            out[n++] = (EvalTerm){i, sink.coef[i]};
    return n;
}

const EvalTuning shogi_tuning = {
    .nparams = SW_COUNT(SHOGI_W),
    .names = SHOGI_NAMES,
    .weights = SHOGI_W,
    .terms = shogi_terms,
};

const EvalTuning micro_tuning = {
    .nparams = SW_COUNT(MICRO_W),
    .names = MICRO_NAMES,
    .weights = MICRO_W,
    .terms = shogi_terms,
};

const EvalTuning minishogi_tuning = {
    .nparams = SW_COUNT(MINISHOGI_W),
    .names = MINISHOGI_NAMES,
    .weights = MINISHOGI_W,
    .terms = shogi_terms,
};

int shogi_heuristic(const void *st, Move m)
{
    const Shogi *s = st;
    int to = mv_to(m), dt = mv_drop(m);
    if (dt) {
        int d = dist(to, s->ksq[s->side ^ 1]);
        return 100 + (d <= 2 ? 300 - 100 * (d - 1) : 0) +
               (is_micro(s) ? board_value[dt] : hand_value[dt]) / 20;
    }
    int p = s->board[mv_from(m)], q = s->board[to], h = 100;
    if (q)
        h += 2000 + board_value[TYPE(q)] * 4 - board_value[TYPE(p)] / 10;
    if (mv_prom(m) && is_micro(s))
        h += board_value[micro_flip[TYPE(p)]] - board_value[TYPE(p)];
    else if (mv_prom(m))
        h += 500 + board_value[TYPE(p) + PROM] - board_value[TYPE(p)];
    return h;
}

/* ---- static exchange (shogi and minishogi) ----
 * The swap list on one square, each side taking back with its least
 * valuable attacker while that pays. A piece taken is worth its board
 * value to the side that loses it and its hand value to the taker, so
 * the swing of taking piece type t is board_value[t] + hand_value of its
 * unpromoted type. The first move's promotion counts, and a drop is a
 * first move that takes nothing; promotions of the recaptures, pins and
 * checks are not looked at. Attackers are found on a copy of the board
 * from which the pieces used are lifted, so sliders behind them join
 * in. */

enum { SEE_KING = 30000 };

int sg_see_swing(int t)
{
    return t == KING ? SEE_KING : board_value[t] + hand_value[BASE(t)];
}

int sg_least_attacker(const uint8_t *b, int q, int by, int *from)
{
    int best = 0, at = -1;
    for (int i = 0; i < 8; i++) {
        int p = b[q + dv[i]];
        if (p && p != OFF && COLOR(p) == by &&
            ((step_mask[p] | slide_mask[p]) & (1u << (7 - i))) &&
            (!best || sg_see_swing(TYPE(p)) < sg_see_swing(best))) {
            best = TYPE(p);
            at = q + dv[i];
        }
    }
    int knight = (by ? WHITE_BIT : 0) | KNIGHT;
    int kn[2] = {by == BLACK ? q + 21 : q - 21, by == BLACK ? q + 19 : q - 19};
    for (int i = 0; i < 2; i++)
        if (b[kn[i]] == knight &&
            (!best || sg_see_swing(KNIGHT) < sg_see_swing(best))) {
            best = KNIGHT;
            at = kn[i];
        }
    for (int i = 0; i < 8; i++) {
        int t = q + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        int p = b[t];
        if (t != q + dv[i] && p != OFF && COLOR(p) == by &&
            (slide_mask[p] & (1u << (7 - i))) &&
            (!best || sg_see_swing(TYPE(p)) < sg_see_swing(best))) {
            best = TYPE(p);
            at = t;
        }
    }
    if (best)
        *from = at;
    return best;
}

/* The board of an exchange under way on the square `to`. */
typedef struct SgSwap {
    uint8_t b[CELLS];
    int to;
} SgSwap;

/* see_swap's next: lifts side's least valuable attacker onto the square */
static int sg_swap_next(void *ctx, int side)
{
    SgSwap *x = ctx;
    int at, a = sg_least_attacker(x->b, x->to, side, &at);
    if (!a)
        return 0;
    x->b[x->to] = x->b[at];
    x->b[at] = EMPTY;
    return sg_see_swing(a);
}

int sg_see_exchange(const Shogi *s, Move m)
{
    SgSwap x;
    memcpy(x.b, s->board, sizeof x.b);
    x.to = mv_to(m);
    int p, t, gain0 = 0;
    if (mv_drop(m)) {
        /* a drop takes nothing and risks the piece dropped */
        t = mv_drop(m);
        p = (s->side ? WHITE_BIT : 0) | t;
    } else {
        int from = mv_from(m);
        p = x.b[from];
        t = TYPE(p);
        gain0 = x.b[x.to] ? sg_see_swing(TYPE(x.b[x.to])) : 0;
        if (mv_prom(m)) {
            gain0 += board_value[t + PROM] - board_value[t];
            p += PROM;
            t += PROM;
        }
        x.b[from] = EMPTY;
    }
    x.b[x.to] = (uint8_t)p;
    return see_swap(gain0, sg_see_swing(t), s->side, sg_swap_next, &x);
}

int shogi_see(const void *st, Move m, int threshold)
{
    const Shogi *s = st;
    if (mv_drop(m))
        return 0 >= threshold && sg_see_exchange(s, m) >= threshold;
    int t = TYPE(s->board[mv_from(m)]), q = s->board[mv_to(m)];
    int gain = q ? sg_see_swing(TYPE(q)) : 0, on = sg_see_swing(t);
    if (mv_prom(m)) {
        gain += board_value[t + PROM] - board_value[t];
        on = sg_see_swing(t + PROM);
    }
    int r = see_bounds(gain, on, threshold);
    return r >= 0 ? r : sg_see_exchange(s, m) >= threshold;
}

int shogi_is_noisy(const void *st, Move m)
{
    const Shogi *s = st;
    return !mv_drop(m) && (s->board[mv_to(m)] != EMPTY || mv_prom(m));
}

int shogi_score(const void *st, int player)
{
    const Shogi *s = st;
    int total = 0;
    const Variant *v = var_of(s);
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (p && COLOR(p) == player && TYPE(p) != KING)
                total += impasse_points[TYPE(p)];
        }
    for (int t = PAWN; t <= GOLD; t++)
        total += impasse_points[t] * s->hand[player][t];
    return total;
}
