/* reversi.h — what the reversi files share: the state, the bitboard
 * primitives (placements, flips, stable discs), the exact endgame solver
 * (solve.c), the pattern evaluation (eval.c) and the bot (bot.c).
 *
 * Square i = 8 * row + col, with a1 = 0 in the top-left corner, h1 = 7,
 * a8 = 56 (rows 1..8 run top to bottom, as Othello diagrams are written).
 * Shifting a bitboard left by 1 moves a disc one file to the right, by 8
 * one row down. A move is a square 0..63 or REVERSI_PASS. Boards are seen
 * from the side to move: P its discs, O the opponent's. */
#ifndef PLY_REVERSI_H
#define PLY_REVERSI_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/bot.h"
#include "../../core/game.h"

enum { REVERSI_PASS = 64, REVERSI_MAX_MOVES = 64,
       /* each placement fills a square, and a pass is always followed by
        * a placement of the other side */
       REVERSI_MAX_PLIES = 128 };
enum { BLACK = 0, WHITE = 1 };

typedef struct Reversi {
    uint64_t disc[2];   /* BLACK, WHITE */
    uint64_t moves;     /* placements of the side to move (derived) */
    uint8_t side;       /* side to move; BLACK when over */
    uint8_t over;       /* no placement right after a pass */
    uint8_t pad[6];     /* kept zero so states compare with memcmp */
} Reversi;

extern const GameVtbl game_reversi;

/* Masks that keep a shifted bitboard from wrapping around a row's end. */
#define RV_NOT_A 0xfefefefefefefefeull   /* every file but a */
#define RV_NOT_H 0x7f7f7f7f7f7f7f7full   /* every file but h */
#define RV_INNER 0x7e7e7e7e7e7e7e7eull   /* files b..g */
#define RV_CORNERS 0x8100000000000081ull
#define RV_EDGES 0xff818181818181ffull

static inline int rv_popcount(uint64_t x)
{
    return __builtin_popcountll(x);
}

static inline int rv_ctz(uint64_t x)
{
    return __builtin_ctzll(x);
}

/* Placements for P against O in one direction pair (shift s): a run of O
 * discs starting next to a P disc, ending next to an empty square. Six
 * steps reach the longest possible run. Horizontal and diagonal
 * directions pass O without the a and h files (mo), so no run wraps
 * around a row end. */
static inline uint64_t rv_dir_moves(uint64_t P, uint64_t mo, uint64_t empty,
                                    int s)
{
    uint64_t l = mo & (P << s), r = mo & (P >> s);
    l |= mo & (l << s);
    r |= mo & (r >> s);
    uint64_t ml = mo & (mo << s), mr = mo & (mo >> s);
    l |= ml & (l << 2 * s);
    r |= mr & (r >> 2 * s);
    l |= ml & (l << 2 * s);
    r |= mr & (r >> 2 * s);
    return ((l << s) | (r >> s)) & empty;
}

/* The squares next to a disc of x (x itself where it touches x). */
static inline uint64_t rv_adjacent(uint64_t x)
{
    uint64_t h = ((x << 1) & RV_NOT_A) | ((x >> 1) & RV_NOT_H);
    uint64_t row = x | h;
    return h | (row << 8) | (row >> 8);
}

/* The placements of P against O. */
static inline uint64_t rv_mobility(uint64_t P, uint64_t O)
{
    uint64_t empty = ~(P | O), mo = O & RV_INNER;
    return rv_dir_moves(P, mo, empty, 1) | rv_dir_moves(P, O, empty, 8) |
           rv_dir_moves(P, mo, empty, 7) | rv_dir_moves(P, mo, empty, 9);
}

/* Discs flipped along one direction pair (shift s) by a disc placed at
 * bit m: the run of O discs next to m, kept when a P disc closes it. */
static inline uint64_t rv_dir_flips(uint64_t m, uint64_t P, uint64_t mo,
                                    int s)
{
    uint64_t l = mo & (m << s), r = mo & (m >> s);
    uint64_t ml = mo & (mo << s), mr = mo & (mo >> s);
    l |= mo & (l << s);
    r |= mo & (r >> s);
    l |= ml & (l << 2 * s);
    r |= mr & (r >> 2 * s);
    l |= ml & (l << 2 * s);
    r |= mr & (r >> 2 * s);
    uint64_t f = 0;
    if ((l << s) & P)
        f |= l;
    if ((r >> s) & P)
        f |= r;
    return f;
}

/* The discs P flips by placing on empty square sq (0: sq is no
 * placement). */
static inline uint64_t rv_flips(uint64_t P, uint64_t O, int sq)
{
    uint64_t m = 1ull << sq, mo = O & RV_INNER;
    return rv_dir_flips(m, P, mo, 1) | rv_dir_flips(m, P, O, 8) |
           rv_dir_flips(m, P, mo, 7) | rv_dir_flips(m, P, mo, 9);
}

/* Discs of P that can never be flipped (a safe under-estimate): along
 * each of the four axes the line is full, or a neighbour on the axis is
 * the board's edge or a stable disc of P. */
uint64_t rv_stable(uint64_t P, uint64_t O);

/* ---- the pattern evaluation (eval.c, weights.c) ---- */
enum {
    RV_NSTAGES = 12,        /* weight tables: empty squares 0-4, 5-9, ... */
    RV_OCCURRENCES = 46,    /* pattern occurrences on the board */
    RV_CONFIGS = 167265,    /* configurations of all pattern types */
    RV_FEATURES = RV_OCCURRENCES + 4,   /* and four counts */
    RV_WEIGHTS = RV_CONFIGS + 4 * 64,   /* a weight for each count 0..63 */
    RV_WSCALE = 64,         /* weight units a disc */
};

/* The weights: per stage, one per configuration of every pattern type
 * and per value of each count; per number of empty squares, a bias. */
extern const int16_t rv_weights[RV_NSTAGES][RV_WEIGHTS];
extern const int16_t rv_bias[61];

/* The hand-set evaluation of reversi.c before the patterns (mobility,
 * corners, X and C squares, stable discs, late parity), in EVAL units
 * from player's view: the eval hook's signature. */
int rv_eval_classic(const void *st, int player);

/* The stage of a position with `empties` empty squares. */
int rv_stage(int empties);
/* The weight index (0..RV_WEIGHTS-1) of each feature for P to move
 * against O: the occurrences' configurations, then the counts (P's
 * placements, O's, P's potential mobility, O's). */
void rv_features(uint64_t P, uint64_t O, int32_t *idx);
/* The final disc difference P's side can expect, in 1/RV_WSCALE discs:
 * the bias and the stage's weights of the features. */
int rv_pattern_score(uint64_t P, uint64_t O);
/* The weight index a feature index shares its weight with: for a
 * configuration the smaller of itself and its mirror image on the same
 * squares; a count its own; -1 out of range. */
int rv_config_canonical(int32_t index);
/* The squares of occurrence occ in digit order (digit k weighs 3^k);
 * returns their count. */
int rv_occurrence_squares(int occ, int *sq);

/* ---- the exact endgame solver (solve.c) ----
 * Scores are final disc differences, the side to move's discs less the
 * opponent's, empty squares counted for nobody (Ply's rules: the sign is
 * the result). */
enum { RV_SCORE_MAX = 64 };

typedef struct RvEntry RvEntry;     /* the solver's table entries */

typedef struct RvSolver {
    RvEntry *tt;            /* a power of two entries, or NULL */
    uint64_t mask;          /* entries - 1 */
    uint8_t gen;            /* the current search's generation */
    uint64_t nodes;         /* positions visited, over every solve */
    uint64_t limit;         /* stop once nodes reaches it (0: never) */
    const BotClock *clk;    /* stop at its deadline (NULL: never) */
    atomic_int *halt;       /* stop when it becomes non-zero (NULL) */
    uint32_t every, count;  /* clock reads: every `every` nodes */
    BotTick tick;
    int aborted;
} RvSolver;

/* A solver over table memory of `bytes` (NULL or too small: no table),
 * zeroed by the caller before the first use; entries are exact facts
 * about boards, so a table may serve any number of solves. */
void rv_solver_init(RvSolver *s, void *table, size_t bytes);
/* The bytes of one table entry. */
size_t rv_entry_size(void);

/* The exact score of P to move against O, fail-soft within (alpha, beta):
 * a score <= alpha is an upper bound, >= beta a lower bound. *best (when
 * not NULL) gets a move reaching it (REVERSI_PASS when P must pass, -1
 * when the game is over, or none beat alpha). Returns 0, or -1 when
 * stopped (limit, clock or halt): then nothing is known. */
int rv_solve(RvSolver *s, uint64_t P, uint64_t O, int alpha, int beta,
             int *score, int *best);

#endif
