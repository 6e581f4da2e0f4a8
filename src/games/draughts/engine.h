/* engine.h — the draughts family's shared engine: board geometries, the
 * rule parameters of a variant, the state and the move encoding.
 *
 * Each variant file defines `static const DRules RULES`, then
 * `#define DR_R (&RULES)` and includes hot.h, which compiles the move
 * generator and make() for exactly those rules (the parameters are
 * constants there, so the compiler drops what the variant does not use).
 * The cold parts (text, rendering, evaluation) live in engine.c and take
 * the rules as an argument.
 *
 * Squares are bits of a uint64_t in a geometry's layout (tables.h). A Move
 * packs: bits 0-5 from, 6-11 to, bit 12 promotion, bits 13-63 the
 * captured pieces as a mask over the opponent's pieces in ascending bit
 * order (so a side may have at most 51 pieces). Two capture paths with
 * the same start, end, captured set and promotion are one move. */
#ifndef PLY_DRAUGHTS_ENGINE_H
#define PLY_DRAUGHTS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "../../core/game.h"

typedef struct DGeom {
    int n;              /* board side: 8 or 10 */
    int full;           /* all squares used (Turkish) rather than dark */
    int nsq;            /* playable squares */
    uint64_t board;     /* all playable bits */
    int shift[8];       /* bit offset of one step in each direction */
    uint64_t from[8];   /* squares that have a neighbour in direction d */
    uint64_t row[10];   /* playable bits of row r (0 = bottom) */
    uint8_t rc[64];     /* bit -> row*16+col, 0xff for a ghost bit */
    int8_t idx[10][10]; /* [row][col] -> bit, -1 when not playable */
} DGeom;

#include "tables.h"

/* Directions; the reverse of d is d ^ 1. */
enum { DR_NE, DR_SW, DR_NW, DR_SE, DR_N, DR_S, DR_E, DR_W };
#define DR_DIAG ((1u << DR_NE) | (1u << DR_SW) | (1u << DR_NW) | (1u << DR_SE))
#define DR_ORTH ((1u << DR_N) | (1u << DR_S) | (1u << DR_E) | (1u << DR_W))

/* Endgame draw rules on top of the no-progress limit. */
enum { DR_SMALL_NONE, DR_SMALL_FMJD, DR_SMALL_FRISIAN, DR_SMALL_TURKISH };

/* Capture precedence. DR_KING: a capture by a king goes first, free
 * choice otherwise (Czech). */
enum { DR_FREE, DR_MAJORITY, DR_VALUE, DR_KING };

typedef struct DRules {
    const DGeom *g;
    uint8_t man_move[2];    /* direction masks, per side */
    uint8_t man_cap[2];
    uint8_t king_move, king_cap;
    uint8_t flying;         /* kings move and capture at a distance */
    uint8_t precedence;     /* DR_FREE, DR_MAJORITY, DR_VALUE (Frisian) or
                               DR_KING (Czech) */
    uint8_t passing_promo;  /* a man reaching the last row mid-capture is
                               crowned and goes on capturing as a king */
    uint8_t immediate;      /* captured pieces leave at once (Turkish) */
    uint8_t land_next;      /* a flying king capturing lands right behind
                               the piece it takes (Thai) */
    uint8_t king_reverse;   /* a king may turn straight back between two
                               jumps, over the square of the piece it just
                               took (Thai, with immediate removal) */
    uint8_t king_limit;     /* Frisian: consecutive quiet moves of one king
                               while its side has men (0: no limit) */
    uint8_t numbered;       /* moves and setups in PDN square numbers */
    uint8_t flip;           /* the first player starts at the top */
    uint8_t quiet_limit;    /* plies without progress that draw */
    uint8_t small_draw;     /* DR_SMALL_*: shorter limits against a lone
                               king */
    uint8_t men_rows[2];    /* start: first and last row of side 0's men */
    int max_moves;
    int man_value, king_value;  /* eval */
    const char *colours;    /* setup letters of players 0 and 1: "WB" */
} DRules;

/* Threefold repetition: a position (pieces and side to move) can only
 * come back between two progress moves (a man move or a capture), and
 * the no-progress limit ends the game within quiet_limit plies of the
 * last one, so the quiet moves since then (at most quiet_limit) are kept,
 * two bytes each, and a position's earlier occurrences are found by
 * undoing them (dr_repetitions). Each variant's state_size stops after
 * its own quiet_limit entries of hist (DR_STATE_SIZE), so code that copies
 * or clears a DState uses that size, never sizeof(DState). */
enum { DR_HIST = 80 };              /* >= every variant's quiet_limit */
enum { DR_F_REP3 = 1, DR_F_NOREP = 2 };

typedef struct DState {
    uint64_t occ[2];        /* pieces of each side */
    uint64_t kings;         /* kings of both sides */
    uint8_t side;           /* player to move */
    uint8_t quiet;          /* plies without a capture or man move */
    uint8_t ksq[2];         /* Frisian: the king that moved last, 0xff */
    uint8_t kcnt[2];        /* ... and its consecutive quiet moves */
    uint8_t flags;          /* DR_F_REP3: drawn by threefold repetition;
                               DR_F_NOREP: option repetition=0 */
    uint8_t nhist;          /* quiet moves in hist */
    uint16_t hist[DR_HIST]; /* since the last progress move or the setup:
                               from | to << 6 | (a king moved) << 12 */
} DState;

/* rounded up to 8 bytes: callers keep arrays of states */
#define DR_STATE_SIZE(quiet_limit)                                         \
    ((offsetof(DState, hist) + sizeof(uint16_t) * (size_t)(quiet_limit) +  \
      7) & ~(size_t)7)

#define DM_FROM(m) ((int)((m) & 63))
#define DM_TO(m) ((int)(((m) >> 6) & 63))
#define DM_PROMO ((Move)1 << 12)
#define DM_CAPS(m) ((m) >> 13)
enum { DR_NONE = 0xff };

static inline uint64_t dr_step(const DGeom *g, uint64_t b, int d)
{
    b &= g->from[d];
    return g->shift[d] > 0 ? b << g->shift[d] : b >> -g->shift[d];
}

static inline int dr_ctz(uint64_t b)
{
    return __builtin_ctzll(b);
}

static inline int dr_popcount(uint64_t b)
{
    return __builtin_popcountll(b);
}

/* The captured set as a mask over the opponent's pieces, and back. */
static inline uint64_t dr_compress(uint64_t cap, uint64_t opp)
{
#ifdef __BMI2__
    return _pext_u64(cap, opp);
#else
    uint64_t r = 0;
    for (uint64_t c = cap; c; c &= c - 1)
        r |= 1ull << dr_popcount(opp & ((c & -c) - 1));
    return r;
#endif
}

/* The bits of a word in reverse order. */
static inline uint64_t dr_reverse(uint64_t x)
{
    x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
    x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
    x = (x >> 4 & 0x0f0f0f0f0f0f0f0full) | (x & 0x0f0f0f0f0f0f0f0full) << 4;
    return __builtin_bswap64(x);
}

static inline uint64_t dr_expand(uint64_t mask, uint64_t opp)
{
#ifdef __BMI2__
    return _pdep_u64(mask, opp);
#else
    uint64_t r = 0;
    for (int i = 0; opp && mask >> i; i++) {
        uint64_t b = opp & -opp;
        opp ^= b;
        if (mask >> i & 1)
            r |= b;
    }
    return r;
#endif
}

static inline uint64_t dr_promo_row(const DRules *R, int side)
{
    return R->g->row[side ? 0 : R->g->n - 1];
}

/* Whether side's king on square sq may not make a quiet move (Frisian). */
static inline int dr_king_blocked(const DRules *R, const DState *s, int sq)
{
    int me = s->side;
    return R->king_limit && s->ksq[me] == sq &&
           s->kcnt[me] >= R->king_limit && (s->occ[me] & ~s->kings);
}

/* Plies without progress that end the game in a draw here. FMJD: a lone
 * king against 3 pieces with a king, 16 moves each; against 1-2 pieces
 * with a king, 5 moves each. Frisian: a lone king against 2 kings, 7
 * moves each; king against king, 2 moves each. The count is the
 * no-progress counter (man moves reset it too). Turkish: one piece
 * against one piece is a draw at once. */
static inline int dr_quiet_limit(const DRules *R, const DState *s)
{
    int lim = R->quiet_limit;
    if (R->small_draw == DR_SMALL_TURKISH)
        return dr_popcount(s->occ[0]) == 1 && dr_popcount(s->occ[1]) == 1
            ? 0 : lim;
    if (R->small_draw == DR_SMALL_NONE || s->quiet < 4)
        return lim;
    for (int p = 0; p < 2; p++) {
        if (dr_popcount(s->occ[p]) != 1 || !(s->occ[p] & s->kings))
            continue;
        uint64_t o = s->occ[!p];
        int t = dr_popcount(o), k = dr_popcount(o & s->kings);
        if (R->small_draw == DR_SMALL_FMJD && k && t <= 3)
            lim = t == 3 ? 32 : 10;
        if (R->small_draw == DR_SMALL_FRISIAN && t == k && t <= 2)
            lim = t == 2 ? 14 : 4;
    }
    return lim;
}

/* How many times the position (pieces, side to move) has occurred since
 * the last progress move or the setup, counting this time. Quiet moves
 * keep every piece, so undoing them one by one changes the occupancy by
 * exactly their from and to squares: an earlier position equals this one
 * when those changes cancel out. A cycle takes at least 4 plies (a side
 * cannot undo the other side's move), so a third occurrence needs 8. */
static inline int dr_repetitions(const DState *s)
{
    uint64_t d[2] = {0, 0}, dk = 0;
    int n = 1, mover = !s->side;
    for (int i = s->nhist - 1, k = 1; i >= 0; i--, k++) {
        unsigned h = s->hist[i];
        uint64_t b = 1ull << (h & 63) | 1ull << (h >> 6 & 63);
        d[mover] ^= b;
        if (h >> 12)
            dk ^= b;
        mover ^= 1;
        if (!(k & 1) && !(d[0] | d[1] | dk))
            n++;
    }
    return n;
}

/* The game is drawn: no-progress limits or threefold repetition. */
static inline int dr_drawn(const DRules *R, const DState *s)
{
    return (s->flags & DR_F_REP3) || s->quiet >= dr_quiet_limit(R, s);
}

typedef int (*DGenFn)(const DState *s, Move *out);

/* engine.c: the cold parts, shared by all variants. */
/* A square as text (PDN number or a1), and parsing one at *p. */
int dr_sq_text(const DRules *R, int sq, char *buf, size_t n);
int dr_parse_sq(const DRules *R, const char **p, PlyError *err);
/* repetition: whether the threefold repetition rule applies (option). */
int dr_init(const DRules *R, DState *s, int repetition);
int dr_to_text(const DRules *R, const DState *s, char *buf, size_t n);
int dr_from_text(const DRules *R, DState *s, const char *str, PlyError *err);
int dr_move_to_text(const DRules *R, const DState *s, Move m, char *buf,
                    size_t n);
int dr_text_to_move(const DRules *R, DGenFn gen, const DState *s,
                    const char *str, Move *m, PlyError *err);
int dr_render(const DRules *R, const DState *s, char *buf, size_t n);
int dr_layout(const DRules *R, const DState *s, Layout *l);
void dr_returns(const DRules *R, const DState *s, double *out);
uint64_t dr_hash(const DRules *R, const DState *s);
int dr_eval(const DRules *R, const DState *s, int player);
int dr_heuristic(const DRules *R, const DState *s, Move m);
int dr_is_noisy(const DRules *R, const DState *s, Move m);
int dr_score(const DRules *R, const DState *s, int player);
int dr_check(const DRules *R, const DState *s);

/* Capture paths, for notation and tests: calls fn for every complete
 * capture sequence of the piece on `from` (landing squares path[0..len-1],
 * captured set cap, promotion flag), in the generator's order, ignoring
 * precedence rules. Stops early when fn returns non-zero. */
typedef int (*DPathFn)(void *user, const int *path, int len, uint64_t cap,
                       int promo);
int dr_paths(const DRules *R, const DState *s, int from, DPathFn fn,
             void *user);

/* Reads a decimal number of at most `max` at *p (setup strings), moving
 * *p past it. 0, or -1 (no digit, or over max) with *p unmoved. */
int dr_parse_uint(const char **p, int max, int *v);

/* A bounded text writer for setup strings and pictures: dr_out appends
 * printf-style and sets bad (instead of overflowing) when buf is full. */
typedef struct DrOut {
    char *buf;
    size_t n, len;
    int bad;
} DrOut;

void dr_out(DrOut *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* pdn.c: the draughts games' record formats (PDN). */
extern const GameFormat *const dr_formats[];

#endif
