/* board.h — the 8x8 board shared by chess, makruk and shatranj.
 *
 * Bitboards (a1 = bit 0, h8 = bit 63) by piece type and by colour, plus a
 * mailbox for "what stands on this square". One legal move generator serves
 * the three games: the pieces differ (bishop/queen, khon/met, alfil/ferz)
 * but pins, checks and king safety work the same way; what differs (pawn
 * double steps, promotion rank and pieces, castling, en passant) is read
 * from the variant byte a few times per generation, never per move.
 * The game-end rules live in each game's own file (chess.c, makruk.c,
 * shatranj.c), which calls cb_make() and then decides the result.
 *
 * The state keeps a bounded history of position keys since the last
 * capture or pawn move (CB_HIST plies), enough for threefold repetition
 * under the 50-, 64- and 70-move limits of the three games. */
#ifndef PLY_CHESS_BOARD_H
#define PLY_CHESS_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"

enum {
    CB_NONE = 0, CB_PAWN, CB_KNIGHT, CB_BISHOP, CB_ROOK, CB_QUEEN, CB_KING,
    CB_FERZ,    /* one step diagonally: makruk met, shatranj ferz */
    CB_SILVER,  /* one step diagonally or straight forward: makruk khon */
    CB_ALFIL,   /* jumps two squares diagonally: shatranj elephant */
    CB_NTYPES
};
enum { CB_CHESS, CB_MAKRUK, CB_SHATRANJ };
enum { CB_HIST = 140, CB_NO_EP = 64, CB_MAX_MOVES = 420 };
/* Results (CBoard.over) and why (CBoard.reason). */
enum { CB_PLAYING = 0, CB_WIN_WHITE, CB_WIN_BLACK, CB_DRAW };
enum {
    CB_R_NONE, CB_R_MATE, CB_R_STALEMATE, CB_R_NMOVE, CB_R_REPETITION,
    CB_R_MATERIAL, CB_R_BARE_KING, CB_R_COUNTING
};
/* castling rights */
enum { CB_WK = 1, CB_WQ = 2, CB_BK = 4, CB_BQ = 8 };

typedef struct CBoard {
    uint64_t pcs[CB_NTYPES];  /* by type, both colours ([0] unused) */
    uint64_t col[2];          /* 0 white, 1 black */
    uint64_t key;             /* Zobrist: pieces, side, castling, ep */
    uint8_t sq[64];           /* type | colour << 4, 0 when empty */
    uint8_t variant, side, castle, ep;  /* ep: CB_NO_EP or the square */
    uint8_t over, reason;     /* CB_PLAYING.., CB_R_.. */
    uint8_t nhist, hpos;      /* keys in hist[], next slot (ring) */
    uint16_t halfmove, fullmove;
    /* 1: pseudo-legal moves (no check rule; dark chess): kings may be
     * left attacked and captured, the side to move may have lost its
     * king. Sits in what was padding: sizeof(CBoard) is unchanged. */
    uint8_t pseudo;
    uint64_t hist[CB_HIST];   /* keys of earlier positions, same epoch */
} CBoard;

/* Move: from | to << 6 | promotion type << 12. Castling is the king's
 * two-square move, en passant the pawn's diagonal move to the ep square. */
#define CB_FROM(m) ((int)((m) & 63))
#define CB_TO(m) ((int)(((m) >> 6) & 63))
#define CB_PROMO(m) ((int)(((m) >> 12) & 15))
#define CB_MOVE(f, t, p) ((Move)(f) | (Move)(t) << 6 | (Move)(p) << 12)

static inline int cb_lsb(uint64_t b) { return __builtin_ctzll(b); }
static inline int cb_popcount(uint64_t b) { return __builtin_popcountll(b); }

/* The start position of a variant. */
void cb_init(CBoard *b, int variant);
/* Legal moves; at most `limit` are written (limit 1: "is there any?"). */
int cb_gen(const CBoard *b, Move *out, int limit);
/* Captures and promotions only (cb_hook_is_noisy's moves), same order. */
int cb_gen_noisy(const CBoard *b, Move *out, int limit);
/* The search's null move: the other side to move, no ep, no history. */
void cb_make_null(CBoard *b);
/* Bitboard of `by`'s pieces attacking sq with occupancy occ. */
uint64_t cb_attackers(const CBoard *b, int sq, uint64_t occ, int by);
int cb_in_check(const CBoard *b);
/* Attacks of a piece of `type` and colour c on sq (occupancy occ). */
uint64_t cb_piece_attacks(int type, int c, int sq, uint64_t occ);
/* The pieces of colour c other than pawns and the king, each with its
 * attacks (occupancy occ), by type from CB_KNIGHT up; at most max. */
typedef struct CbPieceAtt {
    uint64_t att;
    uint8_t sq, type;
} CbPieceAtt;
int cb_piece_list(const CBoard *b, int c, uint64_t occ, CbPieceAtt *out,
                  int max);
/* For each type t (CB_KNIGHT and up, not the king), the squares from
 * which a piece of type t of the other colour than c attacks sq:
 * out[t] = cb_piece_attacks(t, c, sq, occ); out[] has CB_NTYPES. */
void cb_attacks_to(int c, int sq, uint64_t occ, uint64_t *out);
/* Plays a legal move: board, key, clocks, history. No game-end rules. */
void cb_make(CBoard *b, Move m);
/* How many times the current position occurred (1 = first time),
 * counting no further than `enough` (the search asks only for a second). */
int cb_repetitions(const CBoard *b, int enough);
int cb_is_capture(const CBoard *b, Move m);

/* FEN (with an optional trailing "3fold" marking a game drawn by
 * repetition). cb_from_fen fills *b only on success; variant from *b. */
int cb_to_fen(const CBoard *b, char *buf, size_t n);
int cb_from_fen(CBoard *b, const char *s, int *rep3, PlyError *err);
/* Long algebraic (e2e4, e7e8q) out; long algebraic or SAN in. */
int cb_move_to_text(const CBoard *b, Move m, char *buf, size_t n);
int cb_text_to_move(const CBoard *b, const char *s, Move *m, PlyError *err);
/* Standard algebraic notation with + and #. */
int cb_move_to_san(const CBoard *b, Move m, char *buf, size_t n);
int cb_render(const CBoard *b, char *buf, size_t n);
char cb_piece_letter(int variant, int type);   /* upper case */
int cb_check(const CBoard *b);
/* Recomputes pcs, col and key from sq[] (and side, castle, ep): for code
 * that builds a board square by square (dark chess's determinize). */
void cb_rebuild(CBoard *b);
/* Shatranj endgame terms for eval (endgame.c), White's view; 0 elsewhere. */
int cb_endgame(const CBoard *b);

/* Shared game hooks (the games' vtables point at these). */
int cb_hook_to_move(const void *st);
int cb_hook_gen_moves(const void *st, Move *out);
void cb_hook_returns(const void *st, double *out);
uint64_t cb_hook_hash(const void *st);
int cb_hook_to_text(const void *st, char *buf, size_t n);
int cb_hook_move_to_text(const void *st, Move m, char *buf, size_t n);
int cb_hook_text_to_move(const void *st, const char *s, Move *m,
                         PlyError *err);
int cb_hook_render(const void *st, char *buf, size_t n);
int cb_hook_layout(const void *st, Layout *l);
const char *cb_hook_end_reason(const void *st);
int cb_hook_check(const void *st);
int cb_hook_eval(const void *st, int player);
int cb_hook_heuristic(const void *st, Move m);
int cb_hook_is_noisy(const void *st, Move m);
int cb_hook_score(const void *st, int player);
/* The linear form of cb_hook_eval, by variant (CB_CHESS..CB_SHATRANJ). */
extern const EvalTuning cb_tuning[3];
int cb_hook_in_check(const void *st);
int cb_hook_gen_noisy(const void *st, Move *out);
int cb_hook_null_move_ok(const void *st);
void cb_hook_make_null(void *st);
int cb_hook_repeated(const void *st);
int cb_hook_see(const void *st, Move m, int threshold);
/* The exchange's value itself (cb_hook_see compares it). */
int cb_see(const CBoard *b, Move m);
/* netfeat.c: the learned evaluation's inputs, shared by the three. */
extern const NetFeatures cb_net;

/* pgn.c: the formats of chess (the wire dialects' own game) and of its
 * variants (named on the wire by their Ply names). */
extern const GameFormat *const cb_formats_chess[];
extern const GameFormat *const cb_formats_variant[];

/* A variant's own hooks, the same three in chess.c, makruk.c and
 * shatranj.c but for the variant and its game-end rules: STATUS(CBoard *,
 * int rep3) decides whether the game is over after the board changed
 * (rep3: the setup string said drawn by repetition). Each variant file
 * writes CB_VARIANT_HOOKS(chess, CB_CHESS, chess_status) and then its
 * vtable with CB_SHARED_HOOKS(chess, CB_CHESS). STATUS is called
 * directly, not through a table: make() is perft's inner loop. */
#define CB_VARIANT_HOOKS(name, VARIANT, STATUS)                          \
    static int name##_init(void *st, const int *opt, uint64_t seed,     \
                           PlyError *err)                               \
    {                                                                   \
        (void)opt, (void)seed, (void)err;                               \
        cb_init(st, VARIANT);                                           \
        STATUS(st, 0);                                                  \
        return 0;                                                       \
    }                                                                   \
    static void name##_make(void *st, Move m)                           \
    {                                                                   \
        cb_make(st, m);                                                 \
        STATUS(st, 0);                                                  \
    }                                                                   \
    static int name##_from_text(void *st, const char *s, PlyError *err) \
    {                                                                   \
        CBoard *b = st;                                                 \
        int rep3 = 0;                                                   \
        b->variant = VARIANT;                                           \
        if (cb_from_fen(b, s, &rep3, err))                              \
            return -1;                                                  \
        STATUS(b, rep3);                                                \
        return 0;                                                       \
    }

/* Every hook of a variant's GameVtbl but its info and formats: the three
 * of CB_VARIANT_HOOKS(name, ...) and the shared ones of this file. */
#define CB_SHARED_HOOKS(name, VARIANT)                                  \
    .init = name##_init,                                                \
    .to_move = cb_hook_to_move,                                         \
    .gen_moves = cb_hook_gen_moves,                                     \
    .make = name##_make,                                                \
    .returns = cb_hook_returns,                                         \
    .hash = cb_hook_hash,                                               \
    .to_text = cb_hook_to_text,                                         \
    .from_text = name##_from_text,                                      \
    .move_to_text = cb_hook_move_to_text,                               \
    .text_to_move = cb_hook_text_to_move,                               \
    .render = cb_hook_render,                                           \
    .layout = cb_hook_layout,                                           \
    .end_reason = cb_hook_end_reason,                                   \
    .eval = cb_hook_eval,                                               \
    .heuristic = cb_hook_heuristic,                                     \
    .is_noisy = cb_hook_is_noisy,                                       \
    .score = cb_hook_score,                                             \
    .check = cb_hook_check,                                             \
    .in_check = cb_hook_in_check,                                       \
    .gen_noisy = cb_hook_gen_noisy,                                     \
    .null_move_ok = cb_hook_null_move_ok,                               \
    .make_null = cb_hook_make_null,                                     \
    .tuning = &cb_tuning[VARIANT],                                      \
    .net = &cb_net,                                                     \
    .repeated = cb_hook_repeated,                                       \
    .see = cb_hook_see

#endif
