/* reversi.c — Othello on 8x8 bitboards: the rules, text, the search
 * hooks and the GTP and SGF formats (squares and bitboards: reversi.h).
 *
 * Passes follow Bik's perft convention (the project's oracle): a side
 * with no placement passes, and the game is over when the side to move
 * has no placement right after a pass. So when neither side can place
 * after a placement, the blocked side still passes once before the game
 * ends; this extra ply is what makes perft 10 = 24571284. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "../../core/game.h"
#include "../../core/record.h"
#include "../../core/setup.h"
#include "../../core/sgf.h"
#include "../../core/util.h"
#include "reversi.h"

/* Hands the turn over after a placement or a pass (passed). */
static void next_turn(Reversi *r, int passed)
{
    r->side ^= 1;
    r->moves = rv_mobility(r->disc[r->side], r->disc[!r->side]);
    if (passed && !r->moves) {
        r->over = 1;
        r->side = BLACK;
    }
}

static void place(Reversi *r, int sq)
{
    int me = r->side;
    uint64_t f = rv_flips(r->disc[me], r->disc[!me], sq);
    r->disc[me] ^= f | 1ull << sq;
    r->disc[!me] ^= f;
}

static void reversi_make(void *st, Move m)
{
    Reversi *r = st;
    if (m != REVERSI_PASS)
        place(r, (int)m);
    next_turn(r, m == REVERSI_PASS);
}

static int reversi_init(void *st, const int *opt, uint64_t seed,
                        PlyError *err)
{
    (void)opt;
    (void)seed;
    (void)err;
    Reversi *r = st;
    memset(r, 0, sizeof *r);
    /* d4 (27) and e5 (36) white, e4 (28) and d5 (35) black */
    r->disc[WHITE] = 1ull << 27 | 1ull << 36;
    r->disc[BLACK] = 1ull << 28 | 1ull << 35;
    r->side = BLACK;
    r->moves = rv_mobility(r->disc[BLACK], r->disc[WHITE]);
    return 0;
}

static int reversi_to_move(const void *st)
{
    const Reversi *r = st;
    return r->over ? PLAYER_TERMINAL : r->side;
}

static int reversi_gen_moves(const void *st, Move *out)
{
    const Reversi *r = st;
    if (r->over)
        return 0;
    if (!r->moves) {
        out[0] = REVERSI_PASS;
        return 1;
    }
    int n = 0;
    for (uint64_t b = r->moves; b; b &= b - 1)
        out[n++] = (Move)rv_ctz(b);
    return n;
}

static void reversi_returns(const void *st, double *out)
{
    const Reversi *r = st;
    int b = rv_popcount(r->disc[BLACK]), w = rv_popcount(r->disc[WHITE]);
    out[0] = b > w ? 1 : b < w ? -1 : 0;
    out[1] = -out[0];
}

static int reversi_score(const void *st, int player)
{
    const Reversi *r = st;
    return rv_popcount(r->disc[player & 1]);
}

static uint64_t reversi_hash(const void *st)
{
    const Reversi *r = st;
    uint64_t h = ply_mix64(r->disc[BLACK] ^ (uint64_t)(r->side + 2 * r->over));
    return ply_mix64(h ^ r->disc[WHITE]);
}

/* ---- text ---- */

static int square_text(int sq, char *buf, size_t n)
{
    int w = snprintf(buf, n, "%c%c", 'a' + sq % 8, '1' + sq / 8);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* Setup string: 64 characters a1..h1, a2..h2, ... with X Black, O White,
 * - empty, then a space and the side to move (X or O), or '-' for a
 * finished game. A board where neither side can place with X or O to move
 * is the moment before the final pass. */
static int reversi_to_text(const void *st, char *buf, size_t n)
{
    const Reversi *r = st;
    if (n < 67)
        return -1;
    for (int i = 0; i < 64; i++) {
        uint64_t b = 1ull << i;
        buf[i] = r->disc[BLACK] & b ? 'X' : r->disc[WHITE] & b ? 'O' : '-';
    }
    buf[64] = ' ';
    buf[65] = r->over ? '-' : r->side == BLACK ? 'X' : 'O';
    buf[66] = 0;
    return 66;
}

static int reversi_from_text(void *st, const char *s, PlyError *err)
{
    Reversi t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 64; i++) {
        char c = s[i];
        if (c == 'X')
            t.disc[BLACK] |= 1ull << i;
        else if (c == 'O')
            t.disc[WHITE] |= 1ull << i;
        else if (c == 0)
            return ply_fail(err, "the setup has %d squares, needs 64 "
                            "(X, O or -, a1..h1 then a2..h8) then a space "
                            "and the side to move", i);
        else if (c != '-') {
            char sq[4];
            square_text(i, sq, sizeof sq);
            if (c < 32 || c > 126)
                return ply_fail(err, "square %s holds byte "
                                "0x%02x; use X (Black), O (White) or - "
                                "(empty)", sq, (unsigned char)c);
            return ply_fail(err, "square %s holds '%c'; use "
                            "X (Black), O (White) or - (empty)", sq, c);
        }
    }
    if (s[64] != ' ')
        return ply_fail(err, "after the 64 squares comes a "
                        "space and the side to move (X or O)");
    if (s[65] != 'X' && s[65] != 'O' && s[65] != '-')
        return ply_fail(err, "the side to move is X or O "
                        "(or - when the game is over), not '%.10s'",
                        s[65] ? s + 65 : "(nothing)");
    if (s[66])
        return ply_fail(err, "unexpected text after the side "
                        "to move: '%.10s'", s + 66);
    if (s[65] == '-') {
        if (rv_mobility(t.disc[BLACK], t.disc[WHITE]) ||
            rv_mobility(t.disc[WHITE], t.disc[BLACK]))
            return ply_fail(err, "'-' marks a finished game, "
                            "but a side can still move here");
        t.over = 1;
    } else {
        t.side = s[65] == 'O';
        t.moves = rv_mobility(t.disc[t.side], t.disc[!t.side]);
    }
    memcpy(st, &t, sizeof t);
    return 0;
}

static int reversi_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    if (m == REVERSI_PASS) {
        int w = snprintf(buf, n, "pass");
        return w < 0 || (size_t)w >= n ? -1 : w;
    }
    if (m > 63)
        return -1;
    return square_text((int)m, buf, n);
}

static int reversi_text_to_move(const void *st, const char *s, Move *m,
                                PlyError *err)
{
    const Reversi *r = st;
    if (r->over)
        return ply_fail(err, "the game is over");
    if (!strcmp(s, "pass") || !strcmp(s, "PASS") || !strcmp(s, "Pass")) {
        if (r->moves)
            return ply_fail(err, "cannot pass: %s has a move",
                            r->side == BLACK ? "Black" : "White");
        *m = REVERSI_PASS;
        return 0;
    }
    char f = s[0], k = f ? s[1] : 0;
    if (f >= 'A' && f <= 'H')
        f = (char)(f - 'A' + 'a');
    if (f < 'a' || f > 'h' || k < '1' || k > '8' || s[2])
        return ply_fail(err, "a reversi move is a square a1..h8 or 'pass', "
                        "not '%.16s'", s);
    int sq = (k - '1') * 8 + (f - 'a');
    uint64_t b = 1ull << sq;
    if ((r->disc[BLACK] | r->disc[WHITE]) & b)
        return ply_fail(err, "square %c%c is not empty", f, k);
    if (!(r->moves & b)) {
        if (!r->moves)
            return ply_fail(err, "%s has no move and must pass",
                            r->side == BLACK ? "Black" : "White");
        return ply_fail(err, "%c%c flips no disc", f, k);
    }
    *m = (Move)sq;
    return 0;
}

/* The board for drawing as Othello players see it: a1 top left. */
static int reversi_layout(const void *st, Layout *l)
{
    const Reversi *r = st;
    l->width = l->height = 8;
    for (int sq = 0; sq < 64; sq++) {
        int row = sq / 8, col = sq % 8;
        char name[3] = {(char)('a' + col), (char)('1' + row), 0};
        LayoutCell *c = layout_cell(l, (float)col + 0.5f, (float)row + 0.5f,
                                    CELL_SQUARE, SHADE_DARK, name);
        uint64_t b = 1ull << sq;
        for (int p = 0; c && p < 2; p++)
            if (r->disc[p] & b) {
                c->owner = (int8_t)p;
                snprintf(c->glyph, sizeof c->glyph, "\u25CF");
            }
    }
    return 0;
}

static int reversi_render(const void *st, char *buf, size_t n)
{
    const Reversi *r = st;
    size_t len = 0;
    PLY_OUT("   a b c d e f g h\n");
    for (int row = 0; row < 8; row++) {
        PLY_OUT(" %d", row + 1);
        for (int col = 0; col < 8; col++) {
            uint64_t b = 1ull << (row * 8 + col);
            char c = r->disc[BLACK] & b ? 'X' : r->disc[WHITE] & b ? 'O'
                     : r->moves & b && !r->over ? '+' : '.';
            PLY_OUT(" %c", c);
        }
        PLY_OUT(" %d\n", row + 1);
    }
    PLY_OUT("   a b c d e f g h\n");
    PLY_OUT(" Black (X) %d, White (O) %d", rv_popcount(r->disc[BLACK]),
        rv_popcount(r->disc[WHITE]));
    if (r->over)
        PLY_OUT(", game over\n");
    else if (!r->moves)
        PLY_OUT(", %s must pass%s\n", r->side == BLACK ? "Black" : "White",
            rv_mobility(r->disc[!r->side], r->disc[r->side]) ? ""
            : " (neither side can move: the pass ends the game)");
    else
        PLY_OUT(", %s to move (+ marks the moves)\n",
            r->side == BLACK ? "Black" : "White");
    return (int)len;
}

/* ---- evaluation and move ordering ---- */

/* Squares whose line along shift s (both ways) holds an empty square;
 * ml and mr keep left and right shifts from wrapping. */
static uint64_t lines_with_empty(uint64_t empty, int s, uint64_t ml,
                                 uint64_t mr)
{
    uint64_t e = empty;
    for (int i = 0; i < 7; i++)
        e |= ((e << s) & ml) | ((e >> s) & mr);
    return e;
}

/* Discs of P that can never be flipped (a safe under-estimate): along each
 * of the four axes, the line is full or a neighbour on the axis is the
 * board's edge or a stable disc of P. Grown from the edges to a fixed
 * point. */
uint64_t rv_stable(uint64_t P, uint64_t O)
{
    uint64_t empty = ~(P | O);
    uint64_t full_h = ~lines_with_empty(empty, 1, RV_NOT_A, RV_NOT_H);
    uint64_t full_v = ~lines_with_empty(empty, 8, ~0ull, ~0ull);
    uint64_t full_d = ~lines_with_empty(empty, 9, RV_NOT_A, RV_NOT_H);
    uint64_t full_a = ~lines_with_empty(empty, 7, RV_NOT_H, RV_NOT_A);
    uint64_t ok_h = full_h | ~RV_INNER;                    /* files a, h */
    uint64_t ok_v = full_v | 0xff000000000000ffull;     /* rows 1, 8 */
    uint64_t ok_d = full_d | RV_EDGES, ok_a = full_a | RV_EDGES;
    uint64_t st = 0;
    for (;;) {
        uint64_t h = ((st << 1) & RV_NOT_A) | ((st >> 1) & RV_NOT_H);
        uint64_t v = (st << 8) | (st >> 8);
        uint64_t d = ((st << 9) & RV_NOT_A) | ((st >> 9) & RV_NOT_H);
        uint64_t a = ((st << 7) & RV_NOT_H) | ((st >> 7) & RV_NOT_A);
        uint64_t nst = P & (ok_h | h) & (ok_v | v) & (ok_d | d) & (ok_a | a);
        if (nst == st)
            return st;
        st = nst;
    }
}

/* X squares (b2 g2 b7 g7) and C squares (b1 a2 ...) next to each corner:
 * costly while their corner is empty. */
static const int corner_sq[4] = {0, 7, 56, 63};
static const uint64_t x_sq[4] = {1ull << 9, 1ull << 14, 1ull << 49,
                                 1ull << 54};
static const uint64_t c_sq[4] = {
    1ull << 1 | 1ull << 8, 1ull << 6 | 1ull << 15, 1ull << 48 | 1ull << 57,
    1ull << 55 | 1ull << 62,
};

static int corner_region(uint64_t P, uint64_t O)
{
    int v = 0;
    uint64_t empty = ~(P | O);
    for (int i = 0; i < 4; i++) {
        if (!(empty >> corner_sq[i] & 1))
            continue;
        v -= 250 * (rv_popcount(P & x_sq[i]) - rv_popcount(O & x_sq[i]));
        v -= 80 * (rv_popcount(P & c_sq[i]) - rv_popcount(O & c_sq[i]));
    }
    return v;
}

/* The hand-set evaluation Ply played with before the pattern weights
 * (kept for comparisons: the reversi bot's eval=classic). */
int rv_eval_classic(const void *st, int player)
{
    const Reversi *r = st;
    int me = player & 1;
    uint64_t P = r->disc[me], O = r->disc[!me];
    uint64_t empty = ~(P | O);
    int empties = rv_popcount(empty);
    int discs = rv_popcount(P) - rv_popcount(O);
    if (r->over) {
        int v = 200 * discs;
        return v + (discs > 0 ? 10000 : discs < 0 ? -10000 : 0);
    }
    uint64_t mp = me == r->side ? r->moves : rv_mobility(P, O);
    uint64_t mo = me == r->side ? rv_mobility(O, P) : r->moves;
    int v = 0;
    /* mobility, with corners that can be taken now counted extra */
    v += 70 * (rv_popcount(mp) - rv_popcount(mo));
    v += 150 * (rv_popcount(mp & RV_CORNERS) - rv_popcount(mo & RV_CORNERS));
    /* potential mobility: empty squares next to the opponent's discs */
    v += 25 * (rv_popcount(rv_adjacent(O) & empty) -
               rv_popcount(rv_adjacent(P) & empty));
    v += 800 * (rv_popcount(P & RV_CORNERS) - rv_popcount(O & RV_CORNERS));
    v += corner_region(P, O);
    v += 120 * (rv_popcount(rv_stable(P, O)) -
                rv_popcount(rv_stable(O, P)));
    /* Late in the game: parity (who fills the last empty square, ignoring
     * passes) and the disc count itself. */
    if (empties <= 20) {
        int mover_last = empties & 1;
        int mine = (me == r->side) == mover_last;
        v += mine ? 100 : -100;
        v += (20 - empties) * 8 * discs;
    }
    if (v > 20000)
        v = 20000;
    if (v < -20000)
        v = -20000;
    return v;
}

/* The pattern evaluation (eval.c): 100 a disc of the predicted final
 * difference. */
static int reversi_eval(const void *st, int player)
{
    const Reversi *r = st;
    int me = player & 1;
    if (r->over)
        return 100 * (rv_popcount(r->disc[me]) - rv_popcount(r->disc[!me]));
    int v = rv_pattern_score(r->disc[r->side], r->disc[!r->side]) * 100 /
            RV_WSCALE;
    return me == r->side ? v : -v;
}

/* Ordering: corners first; X and C squares next to an empty corner are
 * avoided (below 0); otherwise fewer replies for the opponent is better,
 * and edges a little better. */
static int reversi_heuristic(const void *st, Move m)
{
    const Reversi *r = st;
    if (m == REVERSI_PASS || m > 63)
        return 0;
    int sq = (int)m;
    uint64_t b = 1ull << sq;
    if (b & RV_CORNERS)
        return 1000;
    uint64_t empty = ~(r->disc[0] | r->disc[1]);
    for (int i = 0; i < 4; i++)
        if (empty >> corner_sq[i] & 1) {
            if (b & x_sq[i])
                return -200;
            if (b & c_sq[i])
                return -80;
        }
    int me = r->side;
    uint64_t f = rv_flips(r->disc[me], r->disc[!me], sq);
    uint64_t P = r->disc[me] ^ f ^ b, O = r->disc[!me] ^ f;
    int v = 300 - 12 * rv_popcount(rv_mobility(O, P)) + (b & RV_EDGES ? 40 : 0);
    return v < 0 ? 0 : v;
}

static int reversi_is_noisy(const void *st, Move m)
{
    (void)st;
    return m < 64 && (RV_CORNERS >> m & 1);
}

/* Random playout: take a corner when one is there, shun X squares next to
 * an empty corner when there is anything else, otherwise uniform. */
static void reversi_playout(void *st, Rng *rng)
{
    Reversi *r = st;
    while (!r->over) {
        uint64_t mv = r->moves;
        int passed = !mv;
        if (mv) {
            uint64_t c = mv & RV_CORNERS;
            if (c)
                mv = c;
            else {
                uint64_t empty = ~(r->disc[0] | r->disc[1]), bad = 0;
                for (int i = 0; i < 4; i++)
                    if (empty >> corner_sq[i] & 1)
                        bad |= x_sq[i];
                if (mv & ~bad)
                    mv &= ~bad;
            }
            for (uint32_t k = rng_below(rng, (uint32_t)rv_popcount(mv)); k;
                 k--)
                mv &= mv - 1;
            place(r, rv_ctz(mv));
        }
        next_turn(r, passed);
    }
}

static int reversi_check(const void *st)
{
    const Reversi *r = st;
    if ((r->disc[0] & r->disc[1]) || r->side > 1 || r->over > 1)
        return -1;
    if (r->over) {
        if (r->side != BLACK || r->moves ||
            rv_mobility(r->disc[0], r->disc[1]) ||
            rv_mobility(r->disc[1], r->disc[0]))
            return -1;
    } else if (r->moves != rv_mobility(r->disc[r->side], r->disc[!r->side])) {
        return -1;
    }
    for (int i = 0; i < 6; i++)
        if (r->pad[i])
            return -1;
    return 0;
}

/* The plies_left hook, for sharing a clock: the plies that need
 * thinking, the empty squares less the last RV_CLOCK_FREE ones, which
 * the solver settles in a fraction of a midgame move's time. */
enum { RV_CLOCK_FREE = 14 };

static int reversi_plies_left(const void *st)
{
    const Reversi *r = st;
    int e = 64 - rv_popcount(r->disc[0] | r->disc[1]) - RV_CLOCK_FREE;
    return e > 2 ? e : 2;
}

/* The exact_move hook: a solve for win, draw or loss within `nodes`
 * (0: no limit) over the caller's table memory, or a table of its own for
 * the call. */
static int reversi_exact_move(const void *st, int player, long nodes,
                              void *work, size_t work_bytes, int *result,
                              Move *best)
{
    const Reversi *r = st;
    int me = r->side, v, bm = -1;
    if (r->over) {
        v = rv_popcount(r->disc[me]) - rv_popcount(r->disc[!me]);
    } else {
        void *own = NULL;
        if (!work) {
            work_bytes = (size_t)16 << 20;
            work = own = calloc(1, work_bytes);
        }
        RvSolver s;
        rv_solver_init(&s, work, work ? work_bytes : 0);
        s.limit = nodes > 0 ? (uint64_t)nodes : 0;
        int rc = rv_solve(&s, r->disc[me], r->disc[!me], -1, 1, &v, &bm);
        free(own);
        if (rc)
            return 0;
        /* neither side can move: the solver's position is final, the
         * game's move is the pass that ends it */
        if (bm < 0 && !r->moves)
            bm = REVERSI_PASS;
    }
    int res = v > 0 ? 1 : v < 0 ? -1 : 0;
    *result = (player & 1) == me ? res : -res;
    if (bm >= 0)
        *best = (Move)bm;
    return 1;
}

/* GTP as grhino speaks it (gtp-rhino): the squares as Ply writes them
 * (a-h, row 1 at the top: Othello's own notation), in upper case, and
 * "pass"; list_games calls the game "Othello". */
static int gtp_move_to_wire(const char *own, char *buf, size_t n)
{
    size_t len = strlen(own);
    if (len >= n)
        return -1;
    for (size_t i = 0; i <= len; i++)
        buf[i] = len == 2 && own[i] >= 'a' && own[i] <= 'h'
                 ? (char)(own[i] - 'a' + 'A') : own[i];
    return (int)len;
}

static int gtp_move_from_wire(const char *wire, char *buf, size_t n)
{
    size_t len = strlen(wire);
    if (len >= n)
        return -1;
    for (size_t i = 0; i <= len; i++)
        buf[i] = wire[i] >= 'A' && wire[i] <= 'Z'
                 ? (char)(wire[i] - 'A' + 'a') : wire[i];
    return (int)len;
}

static const GameFormat reversi_gtp = {
    .name = "gtp", .variant = "Othello", .board_size = 8,
    .move_to_wire = gtp_move_to_wire, .move_from_wire = gtp_move_from_wire,
};
/* ---- SGF (FF[4], GM[2] Othello) ----
 * A point is two lower-case letters, column then row from the top left:
 * d3 is "dc", as Ply's squares are already counted. A pass is written B[]
 * and read as B[] or B[tt]. The start position is implied; another
 * becomes AB/AW/PL. The reader follows the main line, replays every move,
 * fills in passes a file leaves out (a side that cannot place) and the
 * last forced pass that ends the game. */

static const struct GameVtbl *reversi_self(void);

static void sgf_root(const struct GameVtbl *g, const void *start, FILE *out)
{
    (void)g;
    (void)start;
    fputs("SZ[8]", out);
}

static void sgf_setup(const void *a, const void *b, FILE *out)
{
    const Reversi *st = a, *start = b;
    if (st->disc[0] == start->disc[0] && st->disc[1] == start->disc[1] &&
        st->side == start->side && st->over == start->over)
        return;
    for (int c = BLACK; c <= WHITE; c++) {
        if (!st->disc[c])
            continue;
        fputs(c == BLACK ? "\nAB" : "\nAW", out);
        for (uint64_t d = st->disc[c]; d; d &= d - 1) {
            int sq = rv_ctz(d);
            fprintf(out, "[%c%c]", 'a' + sq % 8, 'a' + sq / 8);
        }
    }
    fprintf(out, "PL[%c]", st->side == WHITE ? 'W' : 'B');
}

static void sgf_point(const void *st, Move m, FILE *out)
{
    (void)st;
    if (m < 64)
        fprintf(out, "%c%c", 'a' + (int)m % 8, 'a' + (int)m / 8);
}

static int sgf_score(const void *p, int winner, char *buf, size_t n)
{
    const Reversi *r = p;
    int d = rv_popcount(r->disc[winner]) - rv_popcount(r->disc[!winner]);
    return d > 0 ? snprintf(buf, n, "%c+%d", winner ? 'W' : 'B', d) : -1;
}

static const SgfWriter reversi_sgf_writer = {
    .gm = 2, .root = sgf_root, .setup = sgf_setup, .point = sgf_point,
    .score = sgf_score,
};

static int sgf_write(const struct GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    return sgf_write_record(g, r, &reversi_sgf_writer, out, err);
}

/* A square "xy" (0..63), a pass (REVERSI_PASS) for "" and "tt", or -1. */
static int sgf_square(const SgfProp *p)
{
    if (p->len == 0 || (p->len == 2 && !memcmp(p->val, "tt", 2)))
        return REVERSI_PASS;
    if (p->len != 2)
        return -1;
    int x = p->val[0] - 'a', y = p->val[1] - 'a';
    if (x < 0 || x > 7 || y < 0 || y > 7)
        return -1;
    return 8 * y + x;
}

typedef struct SgfRead {
    RecordSink sink;
    void *ctx;
} SgfRead;

static int sgf_game(SgfParser *ps, int number, void *vctx)
{
    SgfRead *rx = vctx;
    PlyError *err = ps->err;
    const struct GameVtbl *g = reversi_self();
    char val[256], setup[72];
    int any_setup = 0;
    SgfCommon c;
    Reversi start, st;
    if (state_setup(g, &start, NULL, NULL, 1, err) || sgf_common(ps, &c))
        return -1;
    uint64_t disc[2] = {start.disc[0], start.disc[1]};
    for (int i = 0; i < ps->nprops; i++) {
        SgfProp *p = &ps->props[i];
        int line = sgf_line_of(ps, p->at);
        int ab = sgf_prop_is(p, "AB"), aw = sgf_prop_is(p, "AW"),
            ae = sgf_prop_is(p, "AE");
        if (p->node != 0)
            continue;
        sgf_unescape(p, val, sizeof val);
        if (ab || aw || ae) {
            int sq = sgf_square(p);
            if (sq < 0 || sq >= 64)
                return ply_fail(err, "sgf line %d: %s[%.*s] is not a square "
                                "of the 8x8 board", line, p->id,
                                (int)(p->len > 8 ? 8 : p->len), p->val);
            uint64_t b = 1ull << sq;
            disc[0] &= ~b;
            disc[1] &= ~b;
            if (!ae)
                disc[aw] |= b;
            any_setup = 1;
        } else if (sgf_prop_is(p, "GM")) {
            if (strcmp(val, "2"))
                return ply_fail(err, "sgf line %d: GM[%s] is not Othello "
                                "(GM[2])", line, val);
        } else if (sgf_prop_is(p, "SZ")) {
            if (strcmp(val, "8") && strcmp(val, "8:8"))
                return ply_fail(err, "sgf line %d: SZ[%s]: Ply plays "
                                "Othello on 8x8", line, val);
        }
    }
    int side = c.pl >= 0 ? c.pl : c.first_mover >= 0 ? c.first_mover : BLACK;
    const char *setup_text = NULL;
    if ((any_setup && (disc[0] != start.disc[0] ||
                       disc[1] != start.disc[1])) || side != BLACK) {
        for (int i = 0; i < 64; i++)
            setup[i] = disc[0] >> i & 1 ? 'X' : disc[1] >> i & 1 ? 'O' : '-';
        setup[64] = ' ';
        setup[65] = side ? 'O' : 'X';
        setup[66] = 0;
        setup_text = setup;
    }
    if (state_setup(g, &st, NULL, setup_text, 1, err))
        return -1;
    /* each SGF move, and a pass before it or two at the end */
    int cap = 2 * c.nmoves + 4, k = 0, rc = -1;
    char (*mv)[8] = calloc((size_t)cap, sizeof *mv);
    const char **mvp = calloc((size_t)cap, sizeof *mvp);
    if (!mv || !mvp) {
        ply_fail(err, "out of memory");
        goto done;
    }
    for (int i = 0; i <= ps->nprops; i++) {
        SgfProp *p = i < ps->nprops ? &ps->props[i] : NULL;
        if (p && !sgf_prop_is(p, "B") && !sgf_prop_is(p, "W"))
            continue;
        int line = p ? sgf_line_of(ps, p->at) : 0;
        int who = p ? p->id[0] == 'W' : -1;
        /* a side that may only pass, and is not the file's mover (or
         * the file has ended), passes */
        while (!st.over && !st.moves && st.side != who) {
            snprintf(mv[k], sizeof mv[k], "pass");
            mvp[k] = mv[k];
            k++;
            reversi_make(&st, REVERSI_PASS);
        }
        if (!p)
            break;
        if (st.over) {
            ply_fail(err, "sgf line %d: a move after the end of the game",
                     line);
            goto done;
        }
        if (st.side != who) {
            ply_fail(err, "sgf line %d: %s[] but %s is to move", line, p->id,
                     st.side ? "White" : "Black");
            goto done;
        }
        int sq = sgf_square(p);
        if (sq < 0) {
            ply_fail(err, "sgf line %d: %s[%.*s] is not a square of the 8x8 "
                     "board", line, p->id, (int)(p->len > 8 ? 8 : p->len),
                     p->val);
            goto done;
        }
        if (!state_is_legal(g, &st, (Move)sq)) {
            char t[8];
            reversi_move_to_text(&st, (Move)sq, t, sizeof t);
            ply_fail(err, "sgf line %d: move %d %s[%.2s] (%s) is illegal",
                     line, k + 1, p->id, p->val, t);
            goto done;
        }
        reversi_move_to_text(&st, (Move)sq, mv[k], sizeof mv[k]);
        mvp[k] = mv[k];
        k++;
        reversi_make(&st, (Move)sq);
    }
    rc = sgf_emit_record(g, &c, NULL, setup_text, mvp, k, number, rx->sink,
                         rx->ctx, err);
done:
    free(mv);
    free(mvp);
    return rc;
}

static int sgf_read(const struct GameVtbl *g, const char *text, size_t len,
                    RecordSink sink, void *ctx, PlyError *err)
{
    (void)g;
    SgfRead rx = {sink, ctx};
    return sgf_read_games(text, len, err, sgf_game, &rx);
}

static int sgf_claims(const char *text, size_t len)
{
    return sgf_game_type(text, len) == 2;
}

static const GameFormat reversi_sgf = {
    .name = "sgf", .extension = "sgf",
    .write_record = sgf_write, .read_records = sgf_read,
    .claims = sgf_claims,
};

static const GameFormat *const reversi_formats[] = {&reversi_gtp,
                                                    &reversi_sgf, NULL};

static const char *const reversi_players[] = {"Black", "White"};

const GameVtbl game_reversi = {
    .info = {
        .name = "reversi",
        .title = "Reversi (Othello 8x8)",
        .num_players = 2,
        .max_moves = REVERSI_MAX_MOVES,
        .max_game_length = REVERSI_MAX_PLIES,
        .state_size = sizeof(Reversi),
        .flags = GAME_ZERO_SUM,
        .player_names = reversi_players,
        .options = NULL,
        .notation =
            "A move is a square a1..h8 (files a-h left to right, rows 1-8\n"
            "top to bottom; upper case accepted) or 'pass' when the side to\n"
            "move has no placement. Setup string: 64 characters for a1..h1,\n"
            "a2..h2, ..., h8 with X Black, O White, - empty, then a space and\n"
            "the side to move, X or O (- once the game is over). Start:\n"
            "---------------------------OX------XO--------------------------- X",
        .rules =
            "Othello on 8x8: d4 and e5 start white, d5 and e4 black; Black\n"
            "moves first. A move places a disc of one's colour on an empty\n"
            "square so that it closes one or more straight lines (in any of\n"
            "8 directions) of opposing discs ended by one's own disc; those\n"
            "discs are flipped. A player without such a move must pass (the\n"
            "pass is a move). The game ends when neither player can move:\n"
            "as in Bik's perft convention, it ends on the pass after which\n"
            "the other side cannot move either. More discs wins (empty\n"
            "squares are not counted).",
    },
    .init = reversi_init,
    .to_move = reversi_to_move,
    .gen_moves = reversi_gen_moves,
    .make = reversi_make,
    .returns = reversi_returns,
    .hash = reversi_hash,
    .to_text = reversi_to_text,
    .from_text = reversi_from_text,
    .move_to_text = reversi_move_to_text,
    .text_to_move = reversi_text_to_move,
    .render = reversi_render,
    .layout = reversi_layout,
    .eval = reversi_eval,
    .heuristic = reversi_heuristic,
    .is_noisy = reversi_is_noisy,
    .playout = reversi_playout,
    .score = reversi_score,
    .check = reversi_check,
    .formats = reversi_formats,
    .exact_move = reversi_exact_move,
    .plies_left = reversi_plies_left,
};

static const struct GameVtbl *reversi_self(void)
{
    return &game_reversi;
}
