/* gomoku.h — what the gomoku files share: the board (a padded grid with a
 * wall around it), the state of gomoku and renju, and the threat detector
 * (line patterns through a point, Black's forbidden points in renju) used
 * by the rules, the evaluation and the bot alike.
 *
 * Cells: index y*GK_STRIDE + x with x, y in 1..size (y = 1 is the top row,
 * Gomocup's y = 0); every other cell is a wall. A Move is a cell index. */
#ifndef PLY_GOMOKU_H
#define PLY_GOMOKU_H

#include <stdint.h>

#include "../../core/game.h"

enum { GK_MAX_SIZE = 20, GK_STRIDE = GK_MAX_SIZE + 2,
       GK_CELLS = GK_STRIDE * GK_STRIDE };
enum { GK_EMPTY = 0, GK_BLACK = 1, GK_WHITE = 2, GK_WALL = 3 };
/* rule: who wins with what, and Black's restrictions */
enum { GK_FREESTYLE = 0, GK_STANDARD = 1, GK_RENJU = 2 };
/* opening: none, or the old professional rule (1st move at the centre,
 * 2nd inside the central 3x3, 3rd inside the central 5x5) */
enum { GK_OPEN_FREE = 0, GK_OPEN_PRO = 1 };
/* forbidden(): why a point is forbidden for Black */
enum { GK_OK = 0, GK_OVERLINE = 1, GK_DOUBLE_FOUR = 2, GK_DOUBLE_THREE = 3 };
/* the result */
enum { GK_NONE = 0, GK_WIN_BLACK = 1, GK_WIN_WHITE = 2, GK_DRAW = 3 };

static const int gk_dir[4] = {1, GK_STRIDE, GK_STRIDE + 1, GK_STRIDE - 1};

typedef struct GkState {
    uint8_t cell[GK_CELLS];
    uint8_t size, rule, opening;
    uint8_t side;           /* 0 Black, 1 White to move */
    uint8_t result;         /* GK_NONE .. GK_DRAW */
    uint8_t pad;
    uint16_t stones;
    uint64_t key;           /* Zobrist key of the stones (not the side) */
} GkState;

/* the point's Zobrist key for a colour, without a table */
uint64_t gk_zobrist(int p, int colour);
/* Stones of colour c in an unbroken line through p along d (p counted as
 * c whatever it holds). */
int gk_run(const uint8_t *cell, int p, int d, int c);
/* Does a run of this length win for colour c under the rule? */
int gk_wins(int rule, int c, int run);
/* Would a stone of colour c at empty p make a winning line? */
int gk_makes_five(const GkState *s, int p, int c);
/* Why Black may not play the empty point p in renju (GK_OK when he may:
 * also when the move makes a five). cell is a scratch copy of the board,
 * restored on return. */
int gk_forbidden(uint8_t *cell, int p);
/* The cheap filter under gk_forbidden: 0 when p cannot be forbidden. */
int gk_may_be_forbidden(const uint8_t *cell, int p);
/* Is p legal for the side to move (empty, the opening rule, renju)? 0 if
 * legal, else a reason GK_* (or -1: occupied or outside the opening zone) */
int gk_illegal(const GkState *s, int p);
/* The name of a forbidden reason ("double-three", ...). */
const char *gk_reason_name(int why);

/* Line shapes of a stone of colour c at empty p along d, for ordering and
 * the threat search (cell is modified and restored): */
enum { SH_NONE = 0, SH_TWO = 1, SH_THREE = 2, SH_OPEN3 = 3, SH_FOUR = 4,
       SH_OPEN4 = 5, SH_FIVE = 6 };
int gk_shape(uint8_t *cell, int rule, int p, int d, int c);

/* SGF FF[4] GM[4] records (sgf.c). */
extern const GameFormat gk_format_sgf;

/* The evaluation of the board from player's view (0 Black, 1 White). */
int gk_eval_board(const GkState *s, int player);

#endif
