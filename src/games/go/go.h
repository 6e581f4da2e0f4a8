/* go.h — the Go board shared by go.c (the games go and atari-go) and
 * sgf.c (their SGF record format).
 *
 * Points live on a fixed 21x21 grid with a border: point (x, y), x the
 * column from 0 (A) and y the row from 0 (row 1 at the bottom), is index
 * (y + 1) * GO_STRIDE + x + 1, whatever the board size; cells outside the
 * size x size board are GO_EDGE. A move is a point index, or GO_PASS (0,
 * a border cell). */
#ifndef PLY_GO_H
#define PLY_GO_H

#include <stdint.h>

#include "../../core/game.h"

enum {
    GO_MAXN = 19,
    GO_STRIDE = GO_MAXN + 2,
    GO_PTS = GO_STRIDE * GO_STRIDE,
    GO_PASS = 0,
    /* a game is cut off after min(3 * size * size, GO_MAX_PLIES) plies,
     * scored as it stands (19x19: 600, 13x13: 507, 9x9: 243) */
    GO_MAX_PLIES = 600,
};
enum { GO_EMPTY = 0, GO_BLACK = 1, GO_WHITE = 2, GO_EDGE = 3 };
enum { GO_KO_PSK, GO_KO_SSK, GO_KO_SIMPLE };
enum { GO_KIND_GO, GO_KIND_ATARI };

typedef struct GoState {
    uint64_t hash;          /* Zobrist key of the board (stones only) */
    /* rules, from the options */
    uint8_t kind;           /* GO_KIND_GO or GO_KIND_ATARI */
    uint8_t size;           /* 2..19 */
    uint8_t ko_rule;        /* GO_KO_PSK, GO_KO_SSK, GO_KO_SIMPLE */
    uint8_t suicide;        /* go: 1 allows multi-stone suicide;
                             * atari-go: 1 makes a suicide lose */
    uint8_t handicap;       /* fixed handicap stones placed at init */
    uint8_t comp;           /* white's compensation: 0 none, 1 n, 2 n-1 */
    uint8_t target;         /* atari-go: captured stones that win */
    uint8_t nomove_lose;    /* atari-go: no legal placement loses */
    int16_t komi2;          /* komi in half points */
    /* position */
    uint8_t side;           /* 0 Black, 1 White to move */
    uint8_t passes;         /* consecutive passes just played */
    uint8_t over;
    int8_t winner;          /* atari-go: 0, 1, or -1 (none / draw) */
    uint16_t ko;            /* simple-ko point, or 0 */
    uint16_t ply;           /* plies played since the start */
    uint16_t caps[2];       /* stones captured by Black, by White */
    uint16_t nhist;
    uint16_t pad;           /* zero */
    uint8_t color[GO_PTS];
    uint8_t light;          /* go: 1 plays the light playout policy */
    uint8_t pad2[2];        /* zero */
    /* groups: a circular list of stones, each knowing its root; the
     * root holds the pseudo-liberties (adjacent empty points counted
     * once per adjacent stone) and the stone count */
    uint16_t next[GO_PTS];
    uint16_t root[GO_PTS];
    uint16_t plib[GO_PTS];
    uint16_t gsize[GO_PTS];
    /* at a root: the sum and the sum of squares of its pseudo-liberty
     * points (one term per plib count), so that the group has a single
     * liberty exactly when plib * lsq == lsum * lsum (then lsum / plib
     * is that point) */
    uint32_t lsum[GO_PTS];
    uint32_t lsq[GO_PTS];
    /* superko: the keys of the positions after each stone move (and the
     * start); with ko=ssk the key includes the player to move and
     * passes add one too. Empty with ko=simple. */
    uint64_t hist[GO_MAX_PLIES + 1];
} GoState;

static inline int go_point(int x, int y)
{
    return (y + 1) * GO_STRIDE + x + 1;
}
static inline int go_x(int p)
{
    return p % GO_STRIDE - 1;
}
static inline int go_y(int p)
{
    return p / GO_STRIDE - 1;
}

/* Fixed handicap points for n stones on a size board (GTP's table);
 * returns the count written, or -1 when n is not allowed there. */
int go_handicap_points(int size, int n, int *out);
/* The maximum fixed handicap on a size board. */
int go_max_handicap(int size);
/* Komi in half points from text such as "7.5" or "-3"; -1 on a value
 * the option table has no choice for, else 0. */
int go_komi_parse(const char *s, int *komi2);

/* Komi text ("7.5") for a komi in half points within -10..20. */
const char *go_komi_text(int komi2);

/* The playout policy (exposed for tests). go_pat3_code: the 3x3 code of
 * p's neighbourhood (pat3.h); go_policy_move: the move the heavy policy
 * plays for the side to move after `last` (0: unknown), GO_PASS when it
 * finds none; go_last_move: the last placement decoded from the superko
 * history, or 0. */
unsigned go_pat3_code(const GoState *s, int p);
int go_pat3_match(unsigned code);
int go_policy_move(const GoState *s, int last, Rng *r);
int go_last_move(const GoState *s);
/* The liberty tests of the policy (exposed for tests): go_in_atari, 1
 * when the group at stone p has exactly one liberty (*lib); go_libs_after,
 * the liberties 0, 1 or 2 (two or more) of the group colour c would form
 * at empty p, captures ignored, *size its stones when below 2. */
int go_in_atari(const GoState *s, int p, int *lib);
int go_libs_after(const GoState *s, int p, int c, int *size);
/* 1 when p is an eye of colour c (the playouts never fill one). */
int go_is_eye(const GoState *s, int p, int c);

extern const GameFormat go_format_sgf, go_format_gtp;
/* The GTP hooks of GameFormat (status.c): stone status from playouts,
 * kgs-genmove_cleanup's moves, a free handicap's setup string. */
int go_gtp_stones(const void *st, int player, int status, uint64_t seed,
                  Move *out, int max);
int go_gtp_cleanup_moves(const void *st, uint64_t seed, Move *out, int max);
int go_gtp_handicap_setup(const void *st, const Move *pts, int n, char *buf,
                          size_t len);
/* "B+3.5", "W+12", "0" (winner -1): the area count of a finished game. */
int go_score_text(const GoState *st, int winner, char *buf, size_t n);
extern const GameVtbl game_go, game_atari_go;

#endif
