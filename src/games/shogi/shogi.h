/* shogi.h — what the files of the shogi family share (private to
 * src/games/shogi/): the board layout, piece codes, the state, move
 * encoding and the functions one file calls in another.
 *
 * Board: a padded mailbox of 10 columns x 13 rows plus one cell, so that
 * every step, knight jump or slide from a board square lands in the array
 * and an off-board cell (OFF) stops it. Square index = (row + 2) * 10 +
 * col + 1, row 0 = rank a (White's back rank), col 0 = the highest file
 * (9 in shogi, 5 in minishogi), as USI diagrams are drawn. Black (sente,
 * upper case) moves first and up the board (towards row 0). */
#ifndef PLY_SHOGI_H
#define PLY_SHOGI_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"
#include "../../core/rng.h"

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

enum { MICRO = 2 };  /* variants[MICRO]: micro shogi, pieces flip on capture */

static const Variant variants[3] = {
    {"shogi", 9, 9, 3,
     "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
     {0, 18, 4, 4, 4, 2, 2, 4, 2}},
    {"minishogi", 5, 5, 1, "rbsgk/4p/5/P4/KGSBR b - 1",
     {0, 2, 0, 0, 2, 2, 2, 2, 2}},
    /* micro shogi, written as Fairy-Stockfish writes it: the gold is a
     * flipped rook (+R), the silver a flipped lance (+L); no zone; counts
     * are per pair of faces (checked by hand slot, micro_slot) */
    {"micro-shogi", 4, 5, 0, "kb+r+l/p3/4/3P/+L+RBK b - 1",
     {0, 2, 2, 2, 2, 2, 2, 2, 2}},
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

/* Micro shogi: the pieces are stored by the way they move (TOKIN is the
 * gold-moving reverse of the bishop); a capture flips the capturer to its
 * other face; a captured piece goes to hand under its pair's slot (the
 * Fairy-Stockfish letter: B, R, L, P) and may be dropped either face up. */
enum { TOKIN = PROM + PAWN };
static const uint8_t micro_flip[16] = {
    [BISHOP] = TOKIN, [TOKIN] = BISHOP, [GOLD] = ROOK, [ROOK] = GOLD,
    [SILVER] = LANCE, [LANCE] = SILVER, [PAWN] = KNIGHT, [KNIGHT] = PAWN,
    [KING] = KING};
static const uint8_t micro_slot[16] = {
    [BISHOP] = BISHOP, [TOKIN] = BISHOP, [GOLD] = ROOK, [ROOK] = ROOK,
    [SILVER] = LANCE, [LANCE] = LANCE, [PAWN] = PAWN, [KNIGHT] = PAWN};
/* Whether a micro type is a slot's own face (written without '+'). */
static inline int micro_front(int t) { return micro_slot[t] == t; }
static const uint8_t micro_slots[4] = {ROOK, BISHOP, LANCE, PAWN};
/* Hand order of SFEN (USI): R B G S N L P. */
static const int hand_order[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE,
                                  PAWN};

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

static inline int is_micro(const Shogi *s) { return s->variant == MICRO; }

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

static const char *const sg_players[] = {"Black", "White"};

/* ---- board.c: hashing, attacks, generation, make, game end ---- */
uint64_t sg_full_hash(const Shogi *s);
/* Whether square q is attacked by colour by on board b. */
int sg_attacked(const uint8_t *b, int q, int by);
/* The legal moves; with noisy set only the captures and promotions. */
int sg_gen_legal(const Shogi *s, Move *out, int noisy);
/* Whether dropping a pawn on q (checking the enemy king) mates. */
int sg_pawn_drop_mates(const Shogi *s, int q);
void sg_push_history(Shogi *s);
void sg_settle_position(Shogi *s);
void sg_settle_result(Shogi *s, int use_history);
/* An empty board of the variant. */
void sg_reset(Shogi *s, int variant);
void shogi_make(void *st, Move m);
int shogi_init(void *st, const int *opt, uint64_t seed, PlyError *err);
int minishogi_init(void *st, const int *opt, uint64_t seed, PlyError *err);
int micro_init(void *st, const int *opt, uint64_t seed, PlyError *err);
int shogi_to_move(const void *st);
int shogi_gen_moves(const void *st, Move *out);
void shogi_returns(const void *st, double *out);
uint64_t shogi_hash(const void *st);
int shogi_gen_noisy(const void *st, Move *out);
int shogi_gen_checks(const void *st, Move *out);
int shogi_in_check(const void *st);
int shogi_null_move_ok(const void *st);
void shogi_make_null(void *st);
int shogi_check(const void *st);

/* ---- text.c: SFEN, USI moves, the picture ---- */
/* Parses an SFEN into s (its variant already set). */
int sg_parse_sfen(Shogi *s, const char *text, PlyError *err);
/* The SFEN (move number 1) of a board diagram read from a record: rows
 * of width piece codes, row r (from the top) at cells[r * stride], white
 * to move or not, the hands [color][PAWN..GOLD]; not micro shogi. -1 when
 * it does not fit in n. */
int sg_diagram_sfen(const uint8_t *cells, int rows, int width, int stride,
                    int white, const uint8_t hand[2][8], char *out, size_t n);
int shogi_to_text(const void *st, char *buf, size_t n);
int shogi_from_text(void *st, const char *text, PlyError *err);
int shogi_move_to_text(const void *st, Move m, char *buf, size_t n);
int shogi_text_to_move(const void *st, const char *text, Move *m,
                       PlyError *err);
int shogi_render(const void *st, char *buf, size_t n);
int shogi_layout(const void *st, Layout *l);
const char *shogi_end_reason(const void *st);

/* ---- eval.c: evaluation and move ordering ---- */
int shogi_eval(const void *st, int player);
int shogi_heuristic(const void *st, Move m);
int shogi_is_noisy(const void *st, Move m);
/* Static exchange (shogi and minishogi, not micro shogi, whose captures
 * flip the capturer): the see hook, the swap list's value for the mover
 * of m, and the least valuable piece type of colour by attacking q on
 * the board b (its square to *from; 0 when none). */
int shogi_see(const void *st, Move m, int threshold);
int sg_see_exchange(const Shogi *s, Move m);
int sg_least_attacker(const uint8_t *b, int q, int by, int *from);
/* What taking a piece of type t swings: its board value and its hand
 * value (the king more than any exchange). */
int sg_see_swing(int t);
int shogi_score(const void *st, int player);
extern const EvalTuning shogi_tuning, minishogi_tuning, micro_tuning;

/* ---- kif.c: record formats (KIF) and wire dialects (USI) ---- */
extern const GameFormat *const sg_formats_shogi[];
extern const GameFormat *const sg_formats_minishogi[];
extern const GameFormat *const sg_formats_micro[];
/* csa.c: the CSA record format (9x9 shogi only) */
extern const GameFormat sg_format_csa;

/* ---- shogi.c ---- */
extern const GameVtbl game_shogi, game_minishogi, game_micro_shogi;
/* The learned evaluation's inputs (netfeat.c). */
extern const NetFeatures shogi_net, minishogi_net;

#endif
