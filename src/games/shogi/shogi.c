/* shogi.c — shogi (9x9) and minishogi (5x5): one engine, two variants.
 *
 * Board: a padded mailbox of 10 columns x 13 rows plus one cell, so that
 * every step, knight jump or slide from a board square lands in the array
 * and an off-board cell (OFF) stops it. Square index = (row + 2) * 10 +
 * col + 1, row 0 = rank a (White's back rank), col 0 = the highest file
 * (9 in shogi, 5 in minishogi), as USI diagrams are drawn. Black (sente,
 * upper case) moves first and up the board (towards row 0).
 *
 * Legal generation: pins and checkers are computed once per position;
 * non-king moves of pinned pieces stay on their pin line, in check only
 * captures of the checker and interpositions (moves and drops) are made,
 * king moves are tested against attacks with the king lifted off the
 * board. A pawn drop that checks is tested for mate (uchifuzume).
 *
 * The state also holds the game's end: after each move make() decides
 * whether the side to move is mated, wins by the impasse declaration,
 * the game is drawn by sennichite or lost by perpetual check (from a
 * bounded ring of position hashes), or the ply limit is reached. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "shogi_weights.h"

enum { STRIDE = 10, CELLS = 132, HIST = 128, MAX_MOVES = 600,
       MAX_PLIES = 512 };
enum { EMPTY = 0, OFF = 0x80, WHITE_BIT = 16 };
enum { PAWN = 1, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING,
       PROM = 8 };    /* PROM + PAWN.. PROM + ROOK are the promoted pieces */
enum { BLACK = 0, WHITE = 1 };
enum { R_NONE, R_MATE, R_REPETITION, R_PERPETUAL, R_IMPASSE, R_LIMIT };

#define TYPE(p) ((p) & 15)
#define COLOR(p) (((p) >> 4) & 1)
#define BASE(t) ((t) > KING ? (t) - PROM : (t))

typedef struct Variant {
    const char *name;
    int w, h, zone;
    const char *start;
    int max_count[9];   /* per type 1..8, both sides, board and hands */
} Variant;

static const Variant variants[2] = {
    {"shogi", 9, 9, 3,
     "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
     {0, 18, 4, 4, 4, 2, 2, 4, 2}},
    {"minishogi", 5, 5, 1, "rbsgk/4p/5/P4/KGSBR b - 1",
     {0, 2, 0, 0, 2, 2, 2, 2, 2}},
};

typedef struct Shogi {
    uint8_t board[CELLS];
    uint8_t hand[2][8];     /* [color][PAWN..GOLD] */
    uint8_t variant;        /* index into variants[] */
    uint8_t side;
    uint8_t ksq[2];
    uint8_t in_check;       /* the side to move is in check */
    uint8_t reason;         /* R_NONE while the game goes on */
    int8_t winner;          /* -1 draw */
    uint8_t pad;
    uint16_t ply;           /* SFEN move number - 1 */
    uint16_t hist_len;      /* valid entries in hist (<= HIST) */
    uint32_t pad2;
    uint64_t hash;
    /* hist[ply % HIST]: high hash bits, low bit = side to move in check */
    uint32_t hist[HIST];
} Shogi;

/* Directions, Black's view: NW N NE W E SW S SE; the opposite of i is 7-i. */
static const int dv[8] = {-11, -10, -9, -1, 1, 9, 10, 11};

#define MIRROR8(x) ((((x) & 1) << 7) | (((x) & 2) << 5) | (((x) & 4) << 3) | \
                    (((x) & 8) << 1) | (((x) & 16) >> 1) | (((x) & 32) >> 3) | \
                    (((x) & 64) >> 5) | (((x) & 128) >> 7))
#define M_PAWN 0x02
#define M_SILVER 0xA7
#define M_GOLD 0x5F
#define M_KING 0xFF
#define M_ORTH 0x5A
#define M_DIAG 0xA5
#define M_N 0x02

/* Step directions per piece code (colour bit included). */
static const uint8_t step_mask[32] = {
    [PAWN] = M_PAWN, [SILVER] = M_SILVER, [GOLD] = M_GOLD, [KING] = M_KING,
    [PROM + PAWN] = M_GOLD, [PROM + LANCE] = M_GOLD, [PROM + KNIGHT] = M_GOLD,
    [PROM + SILVER] = M_GOLD, [PROM + BISHOP] = M_ORTH,
    [PROM + ROOK] = M_DIAG,
    [16 + PAWN] = MIRROR8(M_PAWN), [16 + SILVER] = MIRROR8(M_SILVER),
    [16 + GOLD] = MIRROR8(M_GOLD), [16 + KING] = M_KING,
    [16 + PROM + PAWN] = MIRROR8(M_GOLD),
    [16 + PROM + LANCE] = MIRROR8(M_GOLD),
    [16 + PROM + KNIGHT] = MIRROR8(M_GOLD),
    [16 + PROM + SILVER] = MIRROR8(M_GOLD),
    [16 + PROM + BISHOP] = M_ORTH, [16 + PROM + ROOK] = M_DIAG,
};
/* Sliding directions per piece code. */
static const uint8_t slide_mask[32] = {
    [LANCE] = M_N, [BISHOP] = M_DIAG, [ROOK] = M_ORTH,
    [PROM + BISHOP] = M_DIAG, [PROM + ROOK] = M_ORTH,
    [16 + LANCE] = MIRROR8(M_N), [16 + BISHOP] = M_DIAG,
    [16 + ROOK] = M_ORTH, [16 + PROM + BISHOP] = M_DIAG,
    [16 + PROM + ROOK] = M_ORTH,
};

static const char piece_chars[] = " PLNSBRGK";
/* Hand order of SFEN (USI): R B G S N L P. */
static const int hand_order[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE,
                                  PAWN};

/* Move ordering's piece values (the evaluation's are in shogi_weights.h):
 * board values by type, hand values by type (a bit higher). */
static const int board_value[15] = {0, 100, 300, 350, 500, 800, 950, 550, 0,
                                    520, 520, 520, 550, 1050, 1250};
static const int hand_value[8] = {0, 115, 330, 390, 560, 900, 1060, 610};
/* Impasse points: rook and bishop (promoted or not) 5, others 1. */
static const int impasse_points[15] = {0, 1, 1, 1, 1, 5, 5, 1, 0,
                                       1, 1, 1, 1, 5, 5};

static inline int sq_of(int row, int col)
{
    return (row + 2) * STRIDE + col + 1;
}
static inline int row_of(int s) { return s / STRIDE - 2; }
static inline int col_of(int s) { return s % STRIDE - 1; }

static inline const Variant *var_of(const Shogi *s)
{
    return &variants[s->variant];
}

/* Rows a piece of colour c has still ahead of it (0 = last rank). */
static inline int rows_ahead(const Variant *v, int c, int row)
{
    return c == BLACK ? row : v->h - 1 - row;
}

static inline int in_zone(const Variant *v, int c, int row)
{
    return rows_ahead(v, c, row) < v->zone;
}

/* A piece of type t (unpromoted) may not stand (or be dropped) so. */
static inline int dead_square(const Variant *v, int c, int t, int row)
{
    int a = rows_ahead(v, c, row);
    return ((t == PAWN || t == LANCE) && a == 0) || (t == KNIGHT && a < 2);
}

static inline int promotable(int t)
{
    return t >= PAWN && t <= ROOK;
}

/* ---- hashing: Zobrist keys from a fixed mixer (no tables) ---- */

static inline uint64_t key_piece(int p, int sq)
{
    return ply_mix64(0x5000000ull + ((uint64_t)p << 8) + (uint64_t)sq);
}
static inline uint64_t key_hand(int c, int t, int n)
{
    return ply_mix64(0x7000000ull + ((uint64_t)c << 16) +
                     ((uint64_t)t << 8) + (uint64_t)n);
}
static const uint64_t KEY_WHITE = 0x3c6ef372fe94f82bull;

static uint64_t full_hash(const Shogi *s)
{
    uint64_t h = s->side == WHITE ? KEY_WHITE : 0;
    const Variant *v = var_of(s);
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++) {
            int q = sq_of(r, c);
            if (s->board[q])
                h ^= key_piece(s->board[q], q);
        }
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t <= GOLD; t++)
            if (s->hand[c][t])
                h ^= key_hand(c, t, s->hand[c][t]);
    return h;
}

/* ---- attacks ---- */

/* Whether square q is attacked by colour by on board b. */
static int attacked(const uint8_t *b, int q, int by)
{
    for (int i = 0; i < 8; i++) {
        int p = b[q + dv[i]];
        if (p && p != OFF && COLOR(p) == by &&
            (step_mask[p] & (1u << (7 - i))))
            return 1;
    }
    if (by == BLACK) {
        if (b[q + 21] == KNIGHT || b[q + 19] == KNIGHT)
            return 1;
    } else if (b[q - 21] == (WHITE_BIT | KNIGHT) ||
               b[q - 19] == (WHITE_BIT | KNIGHT)) {
        return 1;
    }
    for (int i = 0; i < 8; i++) {
        int t = q + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        int p = b[t];
        if (p != OFF && COLOR(p) == by && (slide_mask[p] & (1u << (7 - i))))
            return 1;
    }
    return 0;
}

/* Squares of the pieces of colour by attacking q (at most 2 recorded);
 * returns their number (capped at 2, enough to tell double check). */
static int checkers(const uint8_t *b, int q, int by, int *where)
{
    int n = 0;
    for (int i = 0; i < 8 && n < 2; i++) {
        int p = b[q + dv[i]];
        if (p && p != OFF && COLOR(p) == by &&
            (step_mask[p] & (1u << (7 - i))))
            where[n++] = q + dv[i];
    }
    int kn[2] = {by == BLACK ? q + 21 : q - 21, by == BLACK ? q + 19 : q - 19};
    for (int i = 0; i < 2 && n < 2; i++)
        if (b[kn[i]] == ((by ? WHITE_BIT : 0) | KNIGHT))
            where[n++] = kn[i];
    for (int i = 0; i < 8 && n < 2; i++) {
        int t = q + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        int p = b[t];
        /* an adjacent slider that also steps there was counted above */
        if (p != OFF && COLOR(p) == by &&
            (slide_mask[p] & (1u << (7 - i))) &&
            !(t == q + dv[i] && (step_mask[p] & (1u << (7 - i)))))
            where[n++] = t;
    }
    return n;
}

/* ---- moves ---- */
/* Move: bits 0-7 to, 8-15 from, bit 16 promote, bits 17-20 drop type. */
static inline Move mk_move(int from, int to, int prom)
{
    return (Move)to | ((Move)from << 8) | ((Move)prom << 16);
}
static inline Move mk_drop(int t, int to)
{
    return (Move)to | ((Move)t << 17);
}
static inline int mv_to(Move m) { return (int)(m & 0xff); }
static inline int mv_from(Move m) { return (int)((m >> 8) & 0xff); }
static inline int mv_prom(Move m) { return (int)((m >> 16) & 1); }
static inline int mv_drop(Move m) { return (int)((m >> 17) & 15); }

/* noisy: only captures and promotions (is_noisy's moves); cap says
 * whether the move captures. */
static inline int add_board_move(const Variant *v, int c, int t, int from,
                                 int to, Move *out, int n, int noisy, int cap)
{
    if (promotable(t) &&
        (in_zone(v, c, row_of(from)) || in_zone(v, c, row_of(to))))
        out[n++] = mk_move(from, to, 1);
    if ((cap || !noisy) && !dead_square(v, c, t, row_of(to)))
        out[n++] = mk_move(from, to, 0);
    return n;
}

static int gen_legal(const Shogi *s, Move *out, int noisy);

/* Whether dropping a pawn of the side to move on q (checking the enemy
 * king) leaves the enemy without a legal move. */
static int pawn_drop_mates(const Shogi *s, int q)
{
    Shogi t;
    memcpy(&t, s, offsetof(Shogi, hist));
    t.board[q] = (uint8_t)((s->side ? WHITE_BIT : 0) | PAWN);
    t.hand[s->side][PAWN]--;
    t.side ^= 1;
    t.in_check = 1;
    Move buf[MAX_MOVES];
    return gen_legal(&t, buf, 0) == 0;
}

/* The legal moves; with noisy set only the captures and promotions
 * (no drops), in the same order. */
static int gen_legal(const Shogi *s, Move *out, int noisy)
{
    const Variant *v = var_of(s);
    const uint8_t *b = s->board;
    int us = s->side, them = us ^ 1, ub = us ? WHITE_BIT : 0;
    int k = s->ksq[us];
    int n = 0;
    int chk[2], nchk = s->in_check ? checkers(b, k, them, chk) : 0;

    /* king moves, tested with the king lifted off the board */
    {
        uint8_t nb[CELLS];
        memcpy(nb, b, CELLS);
        nb[k] = EMPTY;
        for (int i = 0; i < 8; i++) {
            int t = k + dv[i], p = b[t];
            if (p == OFF || (p && COLOR(p) == us) || (noisy && !p))
                continue;
            if (!attacked(nb, t, them))
                out[n++] = mk_move(k, t, 0);
        }
    }
    if (nchk >= 2)
        return n;

    /* pins: pin[q] = 1 + direction index from the king */
    uint8_t pin[CELLS];
    memset(pin, 0, sizeof pin);
    for (int i = 0; i < 8; i++) {
        int t = k + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        if (b[t] == OFF || COLOR(b[t]) != us)
            continue;
        int u = t + dv[i];
        while (b[u] == EMPTY)
            u += dv[i];
        if (b[u] != OFF && COLOR(b[u]) == them &&
            (slide_mask[b[u]] & (1u << (7 - i))))
            pin[t] = (uint8_t)(i + 1);
    }
    /* in check: the squares that answer it (capture or interposition) */
    uint8_t target[CELLS];
    if (nchk) {
        memset(target, 0, sizeof target);
        target[chk[0]] = 1;
        int dr = row_of(chk[0]) - row_of(k), dc = col_of(chk[0]) - col_of(k);
        if ((dr == 0 || dc == 0 || dr == dc || dr == -dc) &&
            (abs(dr) > 1 || abs(dc) > 1)) {
            int d = (dr > 0) - (dr < 0), e = (dc > 0) - (dc < 0);
            int step = d * STRIDE + e;
            for (int t = k + step; t != chk[0]; t += step)
                target[t] = 2;
        }
    }

    for (int r = 0; r < v->h; r++) {
        for (int c = 0; c < v->w; c++) {
            int f = sq_of(r, c), p = b[f];
            if (!p || COLOR(p) != us)
                continue;
            int t = TYPE(p);
            if (t == KING)
                continue;
            int pd = pin[f] ? pin[f] - 1 : -1;
            unsigned sm = step_mask[p];
            while (sm) {
                int i = __builtin_ctz(sm);
                sm &= sm - 1;
                int to = f + dv[i], q = b[to];
                if (q == OFF || (q && COLOR(q) == us))
                    continue;
                if (pd >= 0 && i != pd && i != 7 - pd)
                    continue;
                if (nchk && !target[to])
                    continue;
                n = add_board_move(v, us, t, f, to, out, n, noisy,
                                   q != EMPTY);
            }
            if (t == KNIGHT) {
                if (pd >= 0)
                    continue;
                int j1 = us == BLACK ? -21 : 21, j2 = us == BLACK ? -19 : 19;
                int js[2] = {j1, j2};
                for (int j = 0; j < 2; j++) {
                    int to = f + js[j], q = b[to];
                    if (q == OFF || (q && COLOR(q) == us))
                        continue;
                    if (nchk && !target[to])
                        continue;
                    n = add_board_move(v, us, t, f, to, out, n, noisy,
                                       q != EMPTY);
                }
                continue;
            }
            unsigned lm = slide_mask[p];
            while (lm) {
                int i = __builtin_ctz(lm);
                lm &= lm - 1;
                if (pd >= 0 && i != pd && i != 7 - pd)
                    continue;
                for (int to = f + dv[i];; to += dv[i]) {
                    int q = b[to];
                    if (q == OFF || (q && COLOR(q) == us))
                        break;
                    if (!nchk || target[to])
                        n = add_board_move(v, us, t, f, to, out, n, noisy,
                                           q != EMPTY);
                    if (q)
                        break;
                }
            }
        }
    }

    /* drops */
    if (noisy)
        return n;
    const uint8_t *hand = s->hand[us];
    int any = 0;
    for (int t = PAWN; t <= GOLD; t++)
        any |= hand[t];
    if (!any)
        return n;
    unsigned pawn_files = 0;
    if (hand[PAWN])
        for (int r = 0; r < v->h; r++)
            for (int c = 0; c < v->w; c++)
                if (b[sq_of(r, c)] == (ub | PAWN))
                    pawn_files |= 1u << c;
    int ek = s->ksq[them];
    int pawn_check_sq = us == BLACK ? ek + STRIDE : ek - STRIDE;
    for (int r = 0; r < v->h; r++) {
        int ahead = rows_ahead(v, us, r);
        for (int c = 0; c < v->w; c++) {
            int to = sq_of(r, c);
            if (b[to] || (nchk && target[to] != 2))
                continue;
            for (int t = PAWN; t <= GOLD; t++) {
                if (!hand[t])
                    continue;
                if (ahead == 0 && (t == PAWN || t == LANCE || t == KNIGHT))
                    continue;
                if (ahead == 1 && t == KNIGHT)
                    continue;
                if (t == PAWN && ((pawn_files >> c) & 1))
                    continue;
                if (t == PAWN && to == pawn_check_sq &&
                    pawn_drop_mates(s, to))
                    continue;
                out[n++] = mk_drop(t, to);
            }
        }
    }
    return n;
}

/* Whether the side to move has a legal move; cheap tests first. */
static int has_legal_move(const Shogi *s)
{
    int us = s->side;
    if (!s->in_check) {
        const uint8_t *h = s->hand[us];
        /* silver, gold, bishop, rook drop anywhere, and a board always has
         * empty squares (40 pieces on 81, 12 on 25) */
        if (h[SILVER] | h[GOLD] | h[BISHOP] | h[ROOK])
            return 1;
        /* a piece off every line through the king cannot be pinned, so
         * any of its moves is legal when not in check */
        const Variant *v = var_of(s);
        const uint8_t *b = s->board;
        int kr = row_of(s->ksq[us]), kc = col_of(s->ksq[us]);
        for (int r = 0; r < v->h; r++) {
            if (r == kr)
                continue;
            for (int c = 0; c < v->w; c++) {
                int f = sq_of(r, c), p = b[f];
                if (!p || COLOR(p) != us || c == kc || r - c == kr - kc ||
                    r + c == kr + kc)
                    continue;
                unsigned dirs = step_mask[p] | slide_mask[p];
                while (dirs) {
                    int i = __builtin_ctz(dirs), q = b[f + dv[i]];
                    dirs &= dirs - 1;
                    if (q != OFF && (!q || COLOR(q) != us))
                        return 1;
                }
                if (TYPE(p) == KNIGHT)
                    for (int j = 19; j <= 21; j += 2) {
                        int q = b[us == BLACK ? f - j : f + j];
                        if (q != OFF && (!q || COLOR(q) != us))
                            return 1;
                    }
            }
        }
    }
    Move buf[MAX_MOVES];
    return gen_legal(s, buf, 0) > 0;
}

/* The 27-point declaration rule (shogi only), for the side to move. */
static int impasse_win(const Shogi *s)
{
    const Variant *v = var_of(s);
    if (s->variant != 0 || s->in_check)
        return 0;
    int us = s->side;
    if (!in_zone(v, us, row_of(s->ksq[us])))
        return 0;
    int pieces = 0, points = 0;
    for (int r = 0; r < v->h; r++) {
        if (!in_zone(v, us, r))
            continue;
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (p && COLOR(p) == us && TYPE(p) != KING) {
                pieces++;
                points += impasse_points[TYPE(p)];
            }
        }
    }
    if (pieces < 10)
        return 0;
    for (int t = PAWN; t <= GOLD; t++)
        points += impasse_points[t] * s->hand[us][t];
    return points >= (us == BLACK ? 28 : 27);
}

/* Fourfold repetition over the ring: returns R_NONE, R_REPETITION or
 * R_PERPETUAL (setting *loser). */
static int repetition(const Shogi *s, int *loser)
{
    uint32_t cur = s->hist[s->ply % HIST];
    /* common case first: a branch-free count over the entries with the
     * same side to move (HIST is even, so they share the ply's parity) */
    int same = 0;
    for (int j = s->ply & 1; j < HIST; j += 2)
        same += !((s->hist[j] ^ cur) >> 1);
    if (same < 4)
        return R_NONE;
    int count = 1, first = -1;
    for (int back = 4; back < s->hist_len; back += 2) {
        uint32_t e = s->hist[(s->ply - back) % HIST];
        if ((e ^ cur) >> 1)
            continue;
        if (++count == 4) {
            first = back;
            break;
        }
    }
    if (first < 0)
        return R_NONE;
    /* positions after the first occurrence: who was always in check? */
    int always[2] = {1, 1};
    for (int back = 0; back < first; back++) {
        uint32_t e = s->hist[(s->ply - back) % HIST];
        int mover = (s->side + back) & 1;  /* side to move there */
        if (!(e & 1))
            always[mover] = 0;
    }
    if (always[0] != always[1]) {
        /* the side always in check was checked by the other: it wins */
        *loser = always[0] ? WHITE : BLACK;
        return R_PERPETUAL;
    }
    return R_REPETITION;
}

static void push_history(Shogi *s)
{
    s->hist[s->ply % HIST] =
        ((uint32_t)(s->hash >> 32) & ~1u) | (s->in_check ? 1u : 0u);
    if (s->hist_len < HIST)
        s->hist_len++;
}

/* Decides whether the game is over for the side to move (everything but
 * the repetition, which needs the history). */
static void settle_position(Shogi *s)
{
    s->in_check = (uint8_t)attacked(s->board, s->ksq[s->side], s->side ^ 1);
    s->reason = R_NONE;
    s->winner = -1;
}

static void settle_result(Shogi *s, int use_history)
{
    int loser = 0, rep;
    if (impasse_win(s)) {
        s->reason = R_IMPASSE;
        s->winner = (int8_t)s->side;
    } else if (!has_legal_move(s)) {
        s->reason = R_MATE;
        s->winner = (int8_t)(s->side ^ 1);
    } else if (use_history && (rep = repetition(s, &loser)) != R_NONE) {
        s->reason = (uint8_t)rep;
        s->winner = (int8_t)(rep == R_PERPETUAL ? loser ^ 1 : -1);
    } else if (s->ply >= MAX_PLIES) {
        s->reason = R_LIMIT;
        s->winner = -1;
    }
}

static void shogi_make(void *st, Move m)
{
    Shogi *s = st;
    int us = s->side, to = mv_to(m), ub = us ? WHITE_BIT : 0;
    uint8_t *b = s->board;
    int dt = mv_drop(m);
    if (dt) {
        int p = ub | dt;
        b[to] = (uint8_t)p;
        s->hash ^= key_piece(p, to) ^ key_hand(us, dt, s->hand[us][dt]);
        s->hand[us][dt]--;
        if (s->hand[us][dt])
            s->hash ^= key_hand(us, dt, s->hand[us][dt]);
    } else {
        int from = mv_from(m), p = b[from], cap = b[to];
        if (cap) {
            int ct = BASE(TYPE(cap));
            s->hash ^= key_piece(cap, to);
            if (s->hand[us][ct])
                s->hash ^= key_hand(us, ct, s->hand[us][ct]);
            s->hand[us][ct]++;
            s->hash ^= key_hand(us, ct, s->hand[us][ct]);
        }
        int np = mv_prom(m) ? p + PROM : p;
        b[from] = EMPTY;
        b[to] = (uint8_t)np;
        s->hash ^= key_piece(p, from) ^ key_piece(np, to);
        if (TYPE(p) == KING)
            s->ksq[us] = (uint8_t)to;
    }
    s->side ^= 1;
    s->hash ^= KEY_WHITE;
    s->ply++;
    settle_position(s);
    push_history(s);
    settle_result(s, 1);
}

/* ---- vtable hooks ---- */

static const char *const shogi_players[] = {"Black", "White"};

static void reset(Shogi *s, int variant)
{
    memset(s, 0, sizeof *s);
    s->variant = (uint8_t)variant;
    memset(s->board, OFF, CELLS);
    const Variant *v = var_of(s);
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++)
            s->board[sq_of(r, c)] = EMPTY;
}

static int parse_sfen(Shogi *s, const char *text, PlyError *err);

static int init_variant(void *st, int variant, PlyError *err)
{
    Shogi *s = st;
    reset(s, variant);
    return parse_sfen(s, variants[variant].start, err);
}

static int shogi_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt;
    (void)seed;
    return init_variant(st, 0, err);
}

static int minishogi_init(void *st, const int *opt, uint64_t seed,
                          PlyError *err)
{
    (void)opt;
    (void)seed;
    return init_variant(st, 1, err);
}

static int shogi_to_move(const void *st)
{
    const Shogi *s = st;
    return s->reason ? PLAYER_TERMINAL : s->side;
}

static int shogi_gen_moves(const void *st, Move *out)
{
    const Shogi *s = st;
    return s->reason ? 0 : gen_legal(s, out, 0);
}

static void shogi_returns(const void *st, double *out)
{
    const Shogi *s = st;
    out[0] = out[1] = 0;
    if (s->reason && s->winner >= 0) {
        out[s->winner] = 1;
        out[s->winner ^ 1] = -1;
    }
}

static uint64_t shogi_hash(const void *st)
{
    return ((const Shogi *)st)->hash;
}

/* ---- text ---- */

typedef struct Buf {
    char *p;
    size_t n, len;
    int over;
} Buf;

static void bput(Buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void bput(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->len < b->n ? b->n - b->len : 0;
    int k = vsnprintf(b->p + b->len, room, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= room)
        b->over = 1;
    else
        b->len += (size_t)k;
}

static void piece_text(Buf *o, int p)
{
    int t = TYPE(p);
    char ch = piece_chars[BASE(t)];
    if (COLOR(p))
        ch = (char)(ch - 'A' + 'a');
    bput(o, "%s%c", t > KING ? "+" : "", ch);
}

static const char *const result_tokens[2] = {"perpetual-b", "perpetual-w"};

static int shogi_to_text(const void *st, char *buf, size_t n)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    Buf o = {buf, n, 0, 0};
    if (n)
        buf[0] = 0;
    for (int r = 0; r < v->h; r++) {
        int empty = 0;
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                bput(&o, "%d", empty);
            empty = 0;
            piece_text(&o, p);
        }
        if (empty)
            bput(&o, "%d", empty);
        if (r + 1 < v->h)
            bput(&o, "/");
    }
    bput(&o, " %c ", s->side ? 'w' : 'b');
    int any = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 7; i++) {
            int t = hand_order[i], k = s->hand[c][t];
            if (!k)
                continue;
            any = 1;
            if (k > 1)
                bput(&o, "%d", k);
            bput(&o, "%c", c ? piece_chars[t] - 'A' + 'a' : piece_chars[t]);
        }
    if (!any)
        bput(&o, "-");
    bput(&o, " %d", s->ply + 1);
    if (s->reason == R_REPETITION)
        bput(&o, " sennichite");
    else if (s->reason == R_PERPETUAL)
        bput(&o, " %s", result_tokens[s->winner ^ 1]);
    return o.over ? -1 : (int)o.len;
}

static int letter_type(char ch)
{
    const char *p = strchr("PLNSBRGK", ch >= 'a' ? ch - 'a' + 'A' : ch);
    return ch && p ? (int)(p - "PLNSBRGK") + 1 : 0;
}

/* Parses an SFEN into s (already reset for its variant). */
static int parse_sfen(Shogi *s, const char *text, PlyError *err)
{
    const Variant *v = var_of(s);
    int variant = s->variant;
    reset(s, variant);
    char tok[5][200];
    int nt = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (nt == 5)
            return ply_fail(err, "bad setup string: too many fields (an "
                            "SFEN has board, side, hands, move number)");
        size_t len = strcspn(p, " \t");
        if (len >= sizeof tok[0])
            return ply_fail(err, "bad setup string: field %d too long",
                            nt + 1);
        memcpy(tok[nt], p, len);
        tok[nt][len] = 0;
        nt++;
        p += len;
    }
    if (nt < 3)
        return ply_fail(err, "bad setup string: expected 'BOARD SIDE HANDS "
                        "[MOVENUMBER]', got %d field(s)", nt);
    /* board */
    int r = 0, c = 0, counts[9] = {0}, kings[2] = {0, 0};
    for (const char *q = tok[0]; *q; q++) {
        if (*q == '/') {
            if (c != v->w)
                return ply_fail(err, "bad setup string: rank %d has %d "
                                "squares, not %d", r + 1, c, v->w);
            if (++r >= v->h)
                return ply_fail(err, "bad setup string: more than %d ranks",
                                v->h);
            c = 0;
        } else if (*q >= '1' && *q <= '9') {
            c += *q - '0';
            if (c > v->w)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than %d squares", r + 1, v->w);
        } else {
            int prom = 0;
            if (*q == '+') {
                prom = 1;
                q++;
            }
            int t = letter_type(*q);
            if (!t)
                return ply_fail(err, "bad setup string: bad piece '%c' in "
                                "the board", *q ? *q : '+');
            if (prom && !promotable(t))
                return ply_fail(err, "bad setup string: '%c' cannot be "
                                "promoted", *q);
            if (c >= v->w)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than %d squares", r + 1, v->w);
            int col = *q >= 'a' ? WHITE : BLACK;
            if (!prom && dead_square(v, col, t, r))
                return ply_fail(err, "bad setup string: '%c' on rank %c "
                                "can never move", *q, 'a' + r);
            int sq = sq_of(r, c);
            s->board[sq] = (uint8_t)((col ? WHITE_BIT : 0) |
                                     (prom ? t + PROM : t));
            counts[t]++;
            if (t == KING) {
                kings[col]++;
                s->ksq[col] = (uint8_t)sq;
            }
            c++;
        }
    }
    if (r != v->h - 1 || c != v->w)
        return ply_fail(err, "bad setup string: the board needs %d ranks of "
                        "%d squares", v->h, v->w);
    if (kings[0] != 1 || kings[1] != 1)
        return ply_fail(err, "bad setup string: each side needs exactly one "
                        "king");
    /* side */
    if (!strcmp(tok[1], "b"))
        s->side = BLACK;
    else if (!strcmp(tok[1], "w"))
        s->side = WHITE;
    else
        return ply_fail(err, "bad setup string: side to move '%s' is not "
                        "b or w", tok[1]);
    /* hands */
    if (strcmp(tok[2], "-")) {
        for (const char *q = tok[2]; *q;) {
            int k = 1;
            if (*q >= '0' && *q <= '9') {
                k = 0;
                while (*q >= '0' && *q <= '9' && k < 100)
                    k = k * 10 + (*q++ - '0');
                if (k < 1 || k > 18)
                    return ply_fail(err, "bad setup string: hand count "
                                    "%d out of range", k);
            }
            int t = letter_type(*q);
            if (!t || t == KING)
                return ply_fail(err, "bad setup string: bad hand piece "
                                "'%c'", *q ? *q : '?');
            int col = *q >= 'a' ? WHITE : BLACK;
            if (s->hand[col][t])
                return ply_fail(err, "bad setup string: hand piece '%c' "
                                "given twice", *q);
            s->hand[col][t] = (uint8_t)k;
            counts[t] += k;
            q++;
        }
    }
    for (int t = PAWN; t <= KING; t++)
        if (counts[t] > v->max_count[t])
            return ply_fail(err, "bad setup string: %d %c pieces, at most "
                            "%d in %s", counts[t], piece_chars[t],
                            v->max_count[t], v->name);
    /* nifu */
    for (int col = 0; col < 2; col++)
        for (int cc = 0; cc < v->w; cc++) {
            int k = 0;
            for (int rr = 0; rr < v->h; rr++)
                k += s->board[sq_of(rr, cc)] ==
                     ((col ? WHITE_BIT : 0) | PAWN);
            if (k > 1)
                return ply_fail(err, "bad setup string: two %s pawns on "
                                "file %d (nifu)", shogi_players[col],
                                v->w - cc);
        }
    /* move number */
    long mn = 1;
    if (nt >= 4) {
        char *end;
        mn = strtol(tok[3], &end, 10);
        if (*end || end == tok[3] || mn < 1 || mn > 10000)
            return ply_fail(err, "bad setup string: move number '%s' is not "
                            "1..10000", tok[3]);
    }
    s->ply = (uint16_t)(mn - 1);
    if (attacked(s->board, s->ksq[s->side ^ 1], s->side))
        return ply_fail(err, "bad setup string: the side not to move is in "
                        "check");
    s->hash = full_hash(s);
    settle_position(s);
    push_history(s);
    settle_result(s, 0);
    if (nt == 5) {
        int reason = 0, winner = -1;
        if (!strcmp(tok[4], "sennichite"))
            reason = R_REPETITION;
        else if (!strcmp(tok[4], result_tokens[0]))
            reason = R_PERPETUAL, winner = WHITE;
        else if (!strcmp(tok[4], result_tokens[1]))
            reason = R_PERPETUAL, winner = BLACK;
        else
            return ply_fail(err, "bad setup string: unknown result '%s' "
                            "(sennichite, perpetual-b or perpetual-w)",
                            tok[4]);
        if (s->reason == R_MATE || s->reason == R_IMPASSE)
            return ply_fail(err, "bad setup string: result '%s' given for "
                            "a position that is already decided", tok[4]);
        s->reason = (uint8_t)reason;
        s->winner = (int8_t)winner;
    }
    return 0;
}

static int shogi_from_text(void *st, const char *text, PlyError *err)
{
    Shogi *s = st;
    Shogi tmp;
    reset(&tmp, s->variant);
    if (parse_sfen(&tmp, text, err))
        return -1;
    *s = tmp;
    return 0;
}

static int shogi_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    int to = mv_to(m), dt = mv_drop(m), k = 0;
    char t[8];
    if (dt) {
        t[k++] = piece_chars[dt];
        t[k++] = '*';
    } else {
        t[k++] = (char)('0' + v->w - col_of(mv_from(m)));
        t[k++] = (char)('a' + row_of(mv_from(m)));
    }
    t[k++] = (char)('0' + v->w - col_of(to));
    t[k++] = (char)('a' + row_of(to));
    if (mv_prom(m))
        t[k++] = '+';
    if ((size_t)k >= n)
        return -1;
    memcpy(buf, t, (size_t)k);
    buf[k] = 0;
    return k;
}

/* "7g" -> square, or -1. */
static int parse_square(const Variant *v, const char *t)
{
    if (t[0] < '1' || t[0] > '0' + v->w || t[1] < 'a' || t[1] >= 'a' + v->h)
        return -1;
    return sq_of(t[1] - 'a', v->w - (t[0] - '0'));
}

static const char *const no_in_hand[8] = {
    "", "no P in hand", "no L in hand", "no N in hand", "no S in hand",
    "no B in hand", "no R in hand", "no G in hand"};

/* Why m (well formed) is illegal, or NULL when it is legal: made on a
 * copy of the board and the king tested, a second, simpler path than
 * gen_legal. Constant messages: the fuzzer and tests call this a lot. */
static const char *move_is_legal(const Shogi *s, Move m)
{
    const Variant *v = var_of(s);
    int us = s->side, ub = us ? WHITE_BIT : 0, to = mv_to(m);
    uint8_t nb[CELLS];
    memcpy(nb, s->board, CELLS);
    int dt = mv_drop(m), ksq = s->ksq[us];
    if (dt) {
        if (!s->hand[us][dt])
            return no_in_hand[dt];
        if (nb[to])
            return "drop on an occupied square";
        if (dead_square(v, us, dt, row_of(to)))
            return "a piece dropped there could never move";
        if (dt == PAWN)
            for (int r = 0; r < v->h; r++)
                if (nb[sq_of(r, col_of(to))] == (ub | PAWN))
                    return "two pawns on a file (nifu)";
        nb[to] = (uint8_t)(ub | dt);
    } else {
        int from = mv_from(m), p = nb[from];
        if (!p || COLOR(p) != us)
            return "no piece of the side to move there";
        int q = nb[to];
        if (q && COLOR(q) == us)
            return "cannot capture one's own piece";
        int t = TYPE(p), reach = 0;
        for (int i = 0; i < 8 && !reach; i++) {
            if ((step_mask[p] >> i & 1) && from + dv[i] == to)
                reach = 1;
            if (slide_mask[p] >> i & 1)
                for (int x = from + dv[i]; nb[x] != OFF; x += dv[i]) {
                    if (x == to)
                        reach = 1;
                    if (nb[x])
                        break;
                }
        }
        if (t == KNIGHT)
            reach = to - from == (us ? 21 : -21) || to - from == (us ? 19 : -19);
        if (!reach)
            return "the piece does not move so";
        if (mv_prom(m) && !(promotable(t) && (in_zone(v, us, row_of(from)) ||
                                              in_zone(v, us, row_of(to)))))
            return "no promotion possible here";
        if (!mv_prom(m) && dead_square(v, us, t, row_of(to)))
            return "the piece must promote there";
        nb[from] = EMPTY;
        nb[to] = (uint8_t)(mv_prom(m) ? p + PROM : p);
        if (t == KING)
            ksq = to;
    }
    if (attacked(nb, ksq, us ^ 1))
        return "leaves the king in check";
    if (dt == PAWN && to == (us == BLACK ? s->ksq[us ^ 1] + STRIDE
                                          : s->ksq[us ^ 1] - STRIDE) &&
        pawn_drop_mates(s, to))
        return "mate by a dropped pawn (uchifuzume)";
    return NULL;
}

static int shogi_text_to_move(const void *st, const char *text, Move *m,
                              PlyError *err)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    if (s->reason)
        return ply_fail(err, "the game is over");
    size_t len = strlen(text);
    Move mv;
    if (len == 4 && text[1] == '*') {
        int t = letter_type(text[0]);
        if (!t || t == KING || text[0] >= 'a')
            return ply_fail(err, "bad drop piece '%c' in '%s' (P L N S G B "
                            "R)", text[0], text);
        int to = parse_square(v, text + 2);
        if (to < 0)
            return ply_fail(err, "bad square in '%s'", text);
        mv = mk_drop(t, to);
    } else if (len == 4 || (len == 5 && text[4] == '+')) {
        int from = parse_square(v, text), to = parse_square(v, text + 2);
        if (from < 0 || to < 0)
            return ply_fail(err, "bad move '%s' (USI: 7g7f, 8h2b+, P*5e)",
                            text);
        if (from == to)
            return ply_fail(err, "bad move '%s': no move", text);
        mv = mk_move(from, to, len == 5);
    } else {
        return ply_fail(err, "bad move '%s' (USI: 7g7f, 8h2b+, P*5e)", text);
    }
    const char *why = move_is_legal(s, mv);
    if (why)
        return ply_fail(err, "illegal move '%s': %s", text, why);
    *m = mv;
    return 0;
}

static int shogi_render(const void *st, char *buf, size_t n)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    Buf o = {buf, n, 0, 0};
    if (n)
        buf[0] = 0;
    static const char *const hand_names[2] = {"Black hand", "White hand"};
    bput(&o, "%s:", hand_names[1]);
    for (int i = 0; i < 7; i++) {
        int t = hand_order[i];
        if (s->hand[1][t])
            bput(&o, " %c%d", piece_chars[t] - 'A' + 'a', s->hand[1][t]);
    }
    bput(&o, "\n  ");
    for (int c = 0; c < v->w; c++)
        bput(&o, "  %d", v->w - c);
    bput(&o, "\n");
    for (int r = 0; r < v->h; r++) {
        bput(&o, "%c ", 'a' + r);
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (!p) {
                bput(&o, "  .");
                continue;
            }
            bput(&o, " ");
            if (TYPE(p) <= KING)
                bput(&o, " ");
            piece_text(&o, p);
        }
        bput(&o, "\n");
    }
    bput(&o, "%s:", hand_names[0]);
    for (int i = 0; i < 7; i++) {
        int t = hand_order[i];
        if (s->hand[0][t])
            bput(&o, " %c%d", piece_chars[t], s->hand[0][t]);
    }
    bput(&o, "\n");
    static const char *const reasons[] = {
        "", "checkmate (no legal move)", "sennichite (fourfold repetition)",
        "perpetual check", "impasse declaration (27-point rule)",
        "move limit"};
    if (s->reason)
        bput(&o, "game over: %s\n", reasons[s->reason]);
    else
        bput(&o, "%s to move%s\n", shogi_players[s->side],
             s->in_check ? " (in check)" : "");
    return o.over ? -1 : (int)o.len;
}

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
    float coef[SW_N];
} TermSink;

static const int *const variant_weights[2] = {SHOGI_WEIGHTS,
                                              MINISHOGI_WEIGHTS};

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

/* Black's view, without the clamp. */
static inline __attribute__((always_inline)) int
eval_core(const Shogi *s, const int *w, TermSink *sink)
{
    const Variant *v = var_of(s);
    int score[2] = {0, 0}, attack[2] = {0, 0}, defend[2] = {0, 0};
    int kr[2], kc[2];
    for (int col = 0; col < 2; col++) {
        kr[col] = row_of(s->ksq[col]);
        kc[col] = col_of(s->ksq[col]);
    }
    for (int r = 0; r < v->h; r++) {
        const uint8_t *row = s->board + sq_of(r, 0);
        for (int c = 0; c < v->w; c++) {
            int p = row[c];
            if (!p)
                continue;
            int col = COLOR(p), t = TYPE(p);
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
    TERM(SW_TEMPO, s->side == BLACK ? 1 : -1);
    return score[0] - score[1] +
           (s->side == BLACK ? w[SW_TEMPO] : -w[SW_TEMPO]);
}
#undef TERM

static int shogi_eval(const void *st, int player)
{
    const Shogi *s = st;
    int e = eval_core(s, variant_weights[s->variant], NULL);
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
    eval_core(s, variant_weights[s->variant], &sink);
    *base = 0;
    int n = 0;
    for (int i = 0; i < SW_N; i++)
        if (sink.coef[i] != 0)
            out[n++] = (EvalTerm){i, sink.coef[i]};
    return n;
}

static const EvalTuning shogi_tuning = {
    .nparams = SW_N,
    .names = SHOGI_WEIGHT_NAMES,
    .weights = SHOGI_WEIGHTS,
    .terms = shogi_terms,
};

static const EvalTuning minishogi_tuning = {
    .nparams = SW_N,
    .names = SHOGI_WEIGHT_NAMES,
    .weights = MINISHOGI_WEIGHTS,
    .terms = shogi_terms,
};

static int shogi_heuristic(const void *st, Move m)
{
    const Shogi *s = st;
    int to = mv_to(m), dt = mv_drop(m);
    if (dt) {
        int d = dist(to, s->ksq[s->side ^ 1]);
        return 100 + (d <= 2 ? 300 - 100 * (d - 1) : 0) + hand_value[dt] / 20;
    }
    int p = s->board[mv_from(m)], q = s->board[to], h = 100;
    if (q)
        h += 2000 + board_value[TYPE(q)] * 4 - board_value[TYPE(p)] / 10;
    if (mv_prom(m))
        h += 500 + board_value[TYPE(p) + PROM] - board_value[TYPE(p)];
    return h;
}

static int shogi_is_noisy(const void *st, Move m)
{
    const Shogi *s = st;
    return !mv_drop(m) && (s->board[mv_to(m)] != EMPTY || mv_prom(m));
}

static int shogi_gen_noisy(const void *st, Move *out)
{
    const Shogi *s = st;
    return s->reason ? 0 : gen_legal(s, out, 1);
}

static int shogi_in_check(const void *st)
{
    const Shogi *s = st;
    return s->reason == R_NONE && s->in_check;
}

/* Drops make zugzwang rare; it returns in endgames with few pieces left,
 * so the null move needs a side with material on board and in hand. */
static int shogi_null_move_ok(const void *st)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    int n = 0;
    for (int t = 0; t < 8; t++)
        n += s->hand[s->side][t];
    for (int r = 0; r < v->h; r++)
        for (int f = 0; f < v->w; f++) {
            int p = s->board[sq_of(r, f)];
            n += p != EMPTY && COLOR(p) == s->side && TYPE(p) != KING;
        }
    return n >= (s->variant ? 3 : 8);
}

static void shogi_make_null(void *st)
{
    Shogi *s = st;
    s->side ^= 1;
    s->hash ^= KEY_WHITE;
    s->ply++;
    settle_position(s);
    s->hist_len = 0;    /* no repetition reaches across the pass */
    push_history(s);
}

static int shogi_score(const void *st, int player)
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

static int shogi_check(const void *st)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    if (s->variant > 1 || s->side > 1)
        return -1;
    for (int c = 0; c < 2; c++)
        if (s->board[s->ksq[c]] != ((c ? WHITE_BIT : 0) | KING))
            return -1;
    int counts[9] = {0};
    for (int q = 0; q < CELLS; q++) {
        int p = s->board[q], r = row_of(q), c = col_of(q);
        int on = r >= 0 && r < v->h && c >= 0 && c < v->w;
        if (on != (p != OFF))
            return -1;
        if (on && p)
            counts[BASE(TYPE(p))]++;
    }
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t <= GOLD; t++)
            counts[t] += s->hand[c][t];
    for (int t = PAWN; t <= KING; t++)
        if (counts[t] > v->max_count[t])
            return -1;
    if (s->hash != full_hash(s))
        return -1;
    if (s->in_check !=
        attacked(s->board, s->ksq[s->side], s->side ^ 1))
        return -1;
    return 0;
}

static const char shogi_notation[] =
    "Moves in USI notation: file digit then rank letter for the origin and\n"
    "the destination, '+' to promote (7g7f, 8h2b+); drops as P*5e (piece\n"
    "letter P L N S G B R, '*', square). Files count from 1 at Black's\n"
    "right, ranks from a at White's side. Setup string: SFEN 'BOARD SIDE\n"
    "HANDS [MOVENUMBER]', ranks a..i from file 9 to file 1, upper case\n"
    "Black (sente), lower case White, '+' before a promoted piece; side b\n"
    "or w; hands '-' or e.g. 'RB2Pp' (counts before letters); the move\n"
    "number counts plies from 1. A game ended by repetition adds a fifth\n"
    "field: 'sennichite', or 'perpetual-b'/'perpetual-w' (that side gave\n"
    "perpetual check and lost).";

static const char shogi_rules[] =
    "Japanese chess (Fairy-Stockfish conventions). Black (sente) moves\n"
    "first. Captured pieces go to the captor's hand and may be dropped on\n"
    "any empty square instead of a move. Promotion zone: the last three\n"
    "ranks; a promotable piece may promote when it moves into, out of or\n"
    "within the zone, and must when it could not move again (pawn and\n"
    "lance on the last rank, knight on the last two). Drops may not go\n"
    "where the piece could never move, nor a pawn onto a file holding an\n"
    "unpromoted pawn of the same side (nifu), nor a pawn that mates\n"
    "(uchifuzume). No legal move (checkmate) loses. Fourfold repetition\n"
    "(sennichite) is a draw, unless one side gave check with every move\n"
    "since the first occurrence: that side loses. Repetitions are looked\n"
    "up among the last 128 plies. Impasse: the 27-point declaration rule\n"
    "applied automatically - the side to move wins when its king is in\n"
    "the enemy camp, not in check, with 10 other pieces there, and its\n"
    "pieces there plus in hand count 28 (Black) / 27 (White) points (rook\n"
    "and bishop 5, others 1). Differences from Fairy-Stockfish: it has no\n"
    "impasse rule and no move limit; here the game is drawn at move\n"
    "number 513 (512 plies), as tournament servers cap games.";

static const char minishogi_notation[] =
    "As shogi on 5x5: files 1-5, ranks a-e (2e2d, B*3c, 4d5e+). Setup\n"
    "string: SFEN 'BOARD SIDE HANDS [MOVENUMBER]'; a game ended by\n"
    "repetition adds 'sennichite', 'perpetual-b' or 'perpetual-w'.";

static const char minishogi_rules[] =
    "Minishogi (Gosho shogi) on 5x5, Fairy-Stockfish conventions: each\n"
    "side has king, gold, silver, bishop, rook and pawn; Black starts\n"
    "with its pieces on rank e (KGSBR from file 5 to 1) and a pawn on 5d.\n"
    "Shogi rules (drops, nifu, uchifuzume, forced pawn promotion) with the\n"
    "promotion zone being the last rank. Fourfold repetition draws,\n"
    "perpetual check loses (repetitions looked up among the last 128\n"
    "plies). No impasse rule (as Fairy-Stockfish). Differences from\n"
    "Fairy-Stockfish: the game is drawn at move number 513 (512 plies);\n"
    "Fairy-Stockfish 11.1 lets some mating pawn drops through (pawn\n"
    "guarded by a silver), so its perft 7 is 132680698, Ply's 132680617.";

#define SHOGI_HOOKS                                                     \
    .to_move = shogi_to_move, .gen_moves = shogi_gen_moves,             \
    .make = shogi_make, .returns = shogi_returns, .hash = shogi_hash,   \
    .to_text = shogi_to_text, .from_text = shogi_from_text,             \
    .move_to_text = shogi_move_to_text,                                 \
    .text_to_move = shogi_text_to_move, .render = shogi_render,         \
    .eval = shogi_eval, .heuristic = shogi_heuristic,                   \
    .is_noisy = shogi_is_noisy, .score = shogi_score,                   \
    .check = shogi_check, .in_check = shogi_in_check,                   \
    .gen_noisy = shogi_gen_noisy,                                       \
    .null_move_ok = shogi_null_move_ok, .make_null = shogi_make_null

const GameVtbl game_shogi = {
    .info = {
        .name = "shogi",
        .title = "Shogi (Japanese chess, 9x9)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Shogi),
        .flags = GAME_ZERO_SUM,
        .player_names = shogi_players,
        .options = NULL,
        .notation = shogi_notation,
        .rules = shogi_rules,
    },
    .init = shogi_init,
    .tuning = &shogi_tuning,
    SHOGI_HOOKS,
};

const GameVtbl game_minishogi = {
    .info = {
        .name = "minishogi",
        .title = "Minishogi (5x5 shogi)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Shogi),
        .flags = GAME_ZERO_SUM,
        .player_names = shogi_players,
        .options = NULL,
        .notation = minishogi_notation,
        .rules = minishogi_rules,
    },
    .init = minishogi_init,
    .tuning = &minishogi_tuning,
    SHOGI_HOOKS,
};
