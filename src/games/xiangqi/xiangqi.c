/* xiangqi.c — Chinese chess: palace, river, flying-general ban, cannons,
 * blocked horses and elephants; stalemate loses.
 *
 * Board: a mailbox of 11 x 14 cells, the 9 x 10 points framed by one
 * column and two rows of off-board cells on each side (the column is
 * shared by both edges), so leaps of up to two points never run past the
 * frame. Red (White, to move first) is at ranks 0..4, Black at 5..9.
 * Moves are generated pseudo-legally and kept when the own general is not
 * attacked afterwards (the facing generals count as an attack).
 *
 * Game end, as Ply applies it: no legal move loses (checkmate and
 * stalemate alike). Repetition, the Asian-rules simplification that
 * Fairy-Stockfish uses: on the third occurrence of a position, a side all
 * of whose moves since the previous occurrence gave check (perpetual
 * check) loses, unless both sides did so; any other repetition draws.
 * Chases are not judged. 60 moves (120 plies) without a capture draw, and
 * so does a board where neither side has a chariot, horse, cannon or
 * soldier left. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../../core/layout.h"
#include "../../core/see.h"
#include "../../core/util.h"
#include "xiangqi.h"
#include "xiangqi_weights.h"
#include "weights_xiangqi.h"

enum { W = 11, CELLS = 14 * W };
enum { EMPTY = 0, OFF = 0x40 };
enum { XK = 1, XA, XB, XN, XR, XC, XP };
enum { XQ_HIST = 120, XQ_MAX_MOVES = 160, XQ_MAX_PLIES = 4000 };
enum { PLAYING = 0, WIN_RED, WIN_BLACK, DRAW };
enum { R_NONE, R_MATE, R_STALEMATE, R_NMOVE, R_REPETITION, R_PERPETUAL,
       R_MATERIAL };

typedef struct XBoard {
    uint64_t key;
    uint64_t hist[XQ_HIST];   /* earlier keys; bit 0: side to move in check */
    uint8_t cell[CELLS];
    uint8_t king[2];
    uint8_t side, over, reason, in_check, nhist, hpos;
    uint16_t halfmove, fullmove;
} XBoard;

#define CELL(r, f) (((r) + 2) * W + (f) + 1)
#define FROM(m) ((int)((m) & 255))
#define TO(m) ((int)(((m) >> 8) & 255))
#define MOVE(f, t) ((Move)(f) | (Move)(t) << 8)

static inline int rank_of(int c) { return c / W - 2; }
static inline int file_of(int c) { return c % W - 1; }
static inline int color_of(int p) { return (p >> 3) & 1; }
static inline int type_of(int p) { return p & 7; }

static inline int in_palace(int c, int col)
{
    int f = file_of(c), r = rank_of(c);
    return f >= 3 && f <= 5 && (col ? r >= 7 : r <= 2);
}

static inline int own_half(int c, int col)
{
    return col ? rank_of(c) >= 5 : rank_of(c) <= 4;
}

static const int ORTH[4] = {W, -W, 1, -1};
static const int DIAG[4] = {W + 1, W - 1, -W + 1, -W - 1};
/* horse leaps and the leg point next to the horse that blocks each */
static const int HJUMP[8] = {2 * W + 1, 2 * W - 1, -2 * W + 1, -2 * W - 1,
                             W + 2, -W + 2, W - 2, -W - 2};
static const int HLEG[8] = {W, W, -W, -W, 1, 1, -1, -1};

static inline uint64_t zk(int pc, int c)
{
    return ply_mix64(0x243f6a8885a308d3ull ^ (uint64_t)(pc * 256 + c));
}
static const uint64_t ZK_SIDE = 0x13198a2e03707344ull;

/* Whether colour `by` attacks the point sq (used on general points). */
static int attacked(const uint8_t *cell, int sq, int by)
{
    int rook = XR | by << 3, cannon = XC | by << 3, gen = XK | by << 3;
    for (int d = 0; d < 4; d++) {
        int dir = ORTH[d], s = sq + dir;
        while (cell[s] == EMPTY)
            s += dir;
        if (cell[s] == OFF)
            continue;
        if (cell[s] == rook || (d < 2 && cell[s] == gen))
            return 1;
        s += dir;
        while (cell[s] == EMPTY)
            s += dir;
        if (cell[s] == cannon)
            return 1;
    }
    int horse = XN | by << 3;
    for (int i = 0; i < 8; i++) {
        int h = sq - HJUMP[i];
        if (cell[h] == horse && cell[h + HLEG[i]] == EMPTY)
            return 1;
    }
    int pawn = XP | by << 3, fw = by ? -W : W;
    if (cell[sq - fw] == pawn)
        return 1;
    for (int k = -1; k <= 1; k += 2)
        if (cell[sq + k] == pawn && !own_half(sq + k, by))
            return 1;
    return 0;
}

/* Legal moves, at most `limit`; only those from the point `only` when
 * it is not -1 (to check one move cheaply); only captures when caps is
 * set (the same moves, in the same order, as filtering the full list). */
static inline int gen_from(const XBoard *b, Move *out, int limit, int only,
                           int caps)
{
    uint8_t cell[CELLS];
    memcpy(cell, b->cell, sizeof cell);
    int us = b->side, them = !us, n = 0;
    int ksq = b->king[us];
    int check = b->in_check;
    int tgt[20];
    /* rays from the general that hold an enemy chariot, cannon or
     * general: only pieces leaving or entering those can expose it */
    uint8_t zone[CELLS];   /* 1: on such a ray, 2: a horse-leg point */
    memset(zone, 0, sizeof zone);
    for (int d = 0; d < 4; d++) {
        int x = ksq + ORTH[d], danger = 0;
        for (; cell[x] != OFF; x += ORTH[d]) {
            int p = cell[x];
            if (p != EMPTY && color_of(p) == them &&
                (type_of(p) == XR || type_of(p) == XC ||
                 (type_of(p) == XK && d < 2)))
                danger = 1;
        }
        if (danger)
            for (x = ksq + ORTH[d]; cell[x] != OFF; x += ORTH[d])
                zone[x] = 1;
        zone[ksq + DIAG[d]] |= 2;
    }
    /* A move can expose the general only if it is the general's, or we
     * are in check, or it leaves or enters the general's rank or file
     * (chariot lines, cannon screens, facing generals), or it leaves a
     * point diagonally next to the general (a horse's leg). Other moves
     * need no test. Entering or leaving matters only on a ray that holds
     * an enemy chariot, cannon or general (zone[]). */
#define TRY(from, to)                                                   \
    do {                                                                \
        int f_ = (from), t_ = (to), bad_ = 0;                           \
        if (check || f_ == ksq || zone[f_] || (zone[t_] & 1)) {        \
            int cap_ = cell[t_];                                        \
            cell[t_] = cell[f_];                                        \
            cell[f_] = EMPTY;                                           \
            bad_ = attacked(cell, f_ == ksq ? t_ : ksq, them);          \
            cell[f_] = cell[t_];                                        \
            cell[t_] = (uint8_t)cap_;                                   \
        }                                                               \
        if (!bad_) {                                                    \
            out[n++] = MOVE(f_, t_);                                    \
            if (n >= limit)                                             \
                return n;                                               \
        }                                                               \
    } while (0)
#define FREE_FOR_US(t) (cell[t] != OFF &&                                \
                        (cell[t] == EMPTY ? !caps : color_of(cell[t]) != us))
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int from = CELL(r, f), pc = cell[from];
            if (pc == EMPTY || color_of(pc) != us ||
                (only >= 0 && from != only))
                continue;
            int nt = 0;
            switch (type_of(pc)) {
            case XK:
                for (int d = 0; d < 4; d++) {
                    int t = from + ORTH[d];
                    if (FREE_FOR_US(t) && in_palace(t, us))
                        tgt[nt++] = t;
                }
                break;
            case XA:
                for (int d = 0; d < 4; d++) {
                    int t = from + DIAG[d];
                    if (FREE_FOR_US(t) && in_palace(t, us))
                        tgt[nt++] = t;
                }
                break;
            case XB:
                for (int d = 0; d < 4; d++) {
                    int t = from + 2 * DIAG[d];
                    if (cell[from + DIAG[d]] == EMPTY && FREE_FOR_US(t) &&
                        own_half(t, us))
                        tgt[nt++] = t;
                }
                break;
            case XN:
                for (int i = 0; i < 8; i++) {
                    int t = from + HJUMP[i];
                    if (cell[from + HLEG[i]] == EMPTY && FREE_FOR_US(t))
                        tgt[nt++] = t;
                }
                break;
            case XR:
                for (int d = 0; d < 4; d++) {
                    int t = from + ORTH[d];
                    while (cell[t] == EMPTY) {
                        if (!caps)
                            tgt[nt++] = t;
                        t += ORTH[d];
                    }
                    if (cell[t] != OFF && color_of(cell[t]) != us)
                        tgt[nt++] = t;
                }
                break;
            case XC:
                for (int d = 0; d < 4; d++) {
                    int t = from + ORTH[d];
                    while (cell[t] == EMPTY) {
                        if (!caps)
                            tgt[nt++] = t;
                        t += ORTH[d];
                    }
                    if (cell[t] == OFF)
                        continue;
                    t += ORTH[d];   /* jump the screen */
                    while (cell[t] == EMPTY)
                        t += ORTH[d];
                    if (cell[t] != OFF && color_of(cell[t]) != us)
                        tgt[nt++] = t;
                }
                break;
            case XP: {
                int t = from + (us ? -W : W);
                if (FREE_FOR_US(t))
                    tgt[nt++] = t;
                if (!own_half(from, us))
                    for (int k = -1; k <= 1; k += 2)
                        if (FREE_FOR_US(from + k))
                            tgt[nt++] = from + k;
                break;
            }
            }
            for (int i = 0; i < nt; i++)
                TRY(from, tgt[i]);
        }
#undef TRY
#undef FREE_FOR_US
    return n;
}

static int gen(const XBoard *b, Move *out, int limit)
{
    return gen_from(b, out, limit, -1, 0);
}

/* ------------------------------------------------------- rules, make */

static uint64_t hist_at(const XBoard *b, int k)   /* k plies back */
{
    return b->hist[(b->hpos + XQ_HIST - k) % XQ_HIST];
}

/* rep: 0 none, 1 draw by repetition, 2 red wins, 3 black wins (from a
 * setup string's marker); setup: a new position, not a move */
static void status(XBoard *b, int rep, int setup)
{
    Move one[1];
    int us = b->side;
    b->over = PLAYING;
    b->reason = R_NONE;
    b->in_check = (uint8_t)attacked(b->cell, b->king[us], !us);
    if (!gen(b, one, 1)) {
        b->over = us ? WIN_RED : WIN_BLACK;
        b->reason = b->in_check ? R_MATE : R_STALEMATE;
        return;
    }
    int lim = b->nhist < b->halfmove ? b->nhist : b->halfmove;
    int count = 1, last = 0;
    for (int k = 2; k <= lim; k += 2)
        if ((hist_at(b, k) | 1) == (b->key | 1)) {
            if (!last)
                last = k;
            count++;
        }
    if (count >= 3 && !rep) {
        /* moves since the previous occurrence: the mover's reached the
         * positions k = 0, 2, .., the other side's k = 1, 3, .. */
        int mover_checks = 1, other_checks = 1;
        for (int k = 0; k < last; k++) {
            int chk = k ? (int)(hist_at(b, k) & 1) : b->in_check;
            if (k % 2 == 0)
                mover_checks &= chk;
            else
                other_checks &= chk;
        }
        rep = 1;
        if (mover_checks && !other_checks)
            rep = us ? 3 : 2;   /* the mover (!us) loses */
        else if (other_checks && !mover_checks)
            rep = us ? 2 : 3;
    }
    if (rep) {
        b->over = rep == 1 ? DRAW : rep == 2 ? WIN_RED : WIN_BLACK;
        b->reason = rep == 1 ? R_REPETITION : R_PERPETUAL;
        return;
    }
    if (b->halfmove >= 120) {
        b->over = DRAW;
        b->reason = R_NMOVE;
        return;
    }
    /* material changes only by captures (halfmove 0 after one) */
    int attackers = b->halfmove != 0 && !setup;
    for (int r = 0; r < 10 && !attackers; r++)
        for (int f = 0; f < 9; f++) {
            int t = type_of(b->cell[CELL(r, f)]);
            if (b->cell[CELL(r, f)] != EMPTY &&
                (t == XN || t == XR || t == XC || t == XP))
                attackers = 1;
        }
    if (!attackers) {
        b->over = DRAW;
        b->reason = R_MATERIAL;
    }
}

static void xq_make(void *st, Move m)
{
    XBoard *b = st;
    int from = FROM(m), to = TO(m), us = b->side;
    int pc = b->cell[from], cap = b->cell[to];
    if (cap) {
        b->nhist = 0;
    } else {
        b->hist[b->hpos] = (b->key & ~1ull) | b->in_check;
        b->hpos = (uint8_t)((b->hpos + 1) % XQ_HIST);
        if (b->nhist < XQ_HIST)
            b->nhist++;
    }
    if (cap)
        b->key ^= zk(cap, to);
    b->key ^= zk(pc, from) ^ zk(pc, to) ^ ZK_SIDE;
    b->cell[to] = (uint8_t)pc;
    b->cell[from] = EMPTY;
    if (type_of(pc) == XK)
        b->king[us] = (uint8_t)to;
    b->halfmove = cap ? 0 : (uint16_t)(b->halfmove < 60000 ? b->halfmove + 1
                                                           : 60000);
    if (us && b->fullmove < 60000)
        b->fullmove++;
    b->side = (uint8_t)!us;
    status(b, 0, 0);
}

/* ---------------------------------------------------------- setup */

static const char LETTER[8] = {0, 'K', 'A', 'B', 'N', 'R', 'C', 'P'};
static const char *const START =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
static const int MAX_COUNT[8] = {0, 1, 2, 2, 2, 2, 2, 5};

static int letter_type(int ch)
{
    int up = toupper(ch);
    if (up == 'H') return XN;   /* UCCI-style aliases */
    if (up == 'E') return XB;
    for (int t = 1; t < 8; t++)
        if (LETTER[t] == up)
            return t;
    return 0;
}

static int parse_num(const char *t, int max, int *out)
{
    long v = 0;
    if (!*t)
        return -1;
    for (; *t; t++) {
        if (*t < '0' || *t > '9')
            return -1;
        v = v * 10 + (*t - '0');
        if (v > max)
            return -1;
    }
    *out = (int)v;
    return 0;
}

static int xq_from_text(void *st, const char *s, PlyError *err)
{
    XBoard t;
    memset(&t, 0, sizeof t);
    memset(t.cell, OFF, sizeof t.cell);
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++)
            t.cell[CELL(r, f)] = EMPTY;
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return ply_fail(err, "FEN too long");
    strcpy(buf, s);
    char *tok[8], *save = NULL;
    int nt = 0;
    for (char *x = strtok_r(buf, " \t", &save); x;
         x = strtok_r(NULL, " \t", &save)) {
        if (nt == 7)
            return ply_fail(err, "FEN has too many fields");
        tok[nt++] = x;
    }
    if (nt == 1 && !strcmp(tok[0], "startpos"))
        return xq_from_text(st, START, err);
    if (nt < 2)
        return ply_fail(err, "FEN needs the placement and the side to move");
    int r = 9, f = 0, count[2][8] = {{0}};
    for (const char *c = tok[0]; *c; c++) {
        if (*c == '/') {
            if (f != 9)
                return ply_fail(err, "FEN rank %d has %d points, not 9", r,
                                f);
            if (--r < 0)
                return ply_fail(err, "FEN has more than 10 ranks");
            f = 0;
        } else if (*c >= '1' && *c <= '9') {
            f += *c - '0';
            if (f > 9)
                return ply_fail(err, "FEN rank %d has more than 9 points",
                                r);
        } else {
            int type = letter_type(*c);
            if (!type)
                return ply_fail(err, "FEN: '%c' is not a xiangqi piece", *c);
            if (f >= 9)
                return ply_fail(err, "FEN rank %d has more than 9 points",
                                r);
            int col = islower((unsigned char)*c) ? 1 : 0;
            int cl = CELL(r, f);
            if (++count[col][type] > MAX_COUNT[type])
                return ply_fail(err, "FEN: too many '%c'", *c);
            if ((type == XK || type == XA) && !in_palace(cl, col))
                return ply_fail(err, "FEN: '%c' on %c%d is outside its "
                                "palace", *c, 'a' + f, r);
            if (type == XB && !own_half(cl, col))
                return ply_fail(err, "FEN: elephant '%c' on %c%d crossed "
                                "the river", *c, 'a' + f, r);
            if (type == XP && (col ? r > 6 : r < 3))
                return ply_fail(err, "FEN: soldier '%c' on %c%d is behind "
                                "its start", *c, 'a' + f, r);
            t.cell[cl] = (uint8_t)(type | col << 3);
            if (type == XK)
                t.king[col] = (uint8_t)cl;
            f++;
        }
    }
    if (r != 0 || f != 9)
        return ply_fail(err, "FEN placement must have 10 ranks of 9 points");
    if (count[0][XK] != 1 || count[1][XK] != 1)
        return ply_fail(err, "FEN needs one general of each colour");
    if (!strcmp(tok[1], "w") || !strcmp(tok[1], "r"))
        t.side = 0;
    else if (!strcmp(tok[1], "b"))
        t.side = 1;
    else
        return ply_fail(err, "FEN side to move is w or b, not '%s'", tok[1]);
    for (int i = 2; i < 4 && i < nt; i++)
        if (strcmp(tok[i], "-"))
            return ply_fail(err, "FEN field %d must be '-' in xiangqi, not "
                            "'%s'", i + 1, tok[i]);
    int half = 0, full = 1, rep = 0;
    if (nt >= 5 && parse_num(tok[4], 1000, &half))
        return ply_fail(err, "FEN halfmove clock '%s' is not a number "
                        "0..1000", tok[4]);
    if (nt >= 6 && parse_num(tok[5], 60000, &full))
        return ply_fail(err, "FEN move number '%s' is not a number "
                        "0..60000", tok[5]);
    if (nt == 7) {
        if (!strcmp(tok[6], "3fold")) rep = 1;
        else if (!strcmp(tok[6], "3fold-w")) rep = 2;
        else if (!strcmp(tok[6], "3fold-b")) rep = 3;
        else
            return ply_fail(err, "FEN: unexpected '%s' after the move "
                            "number", tok[6]);
    }
    t.halfmove = (uint16_t)half;
    t.fullmove = (uint16_t)full;
    if (attacked(t.cell, t.king[!t.side], t.side))
        return ply_fail(err, "FEN: the side not to move is in check (or the "
                        "generals face each other)");
    for (int c = 0; c < CELLS; c++)
        if (t.cell[c] != EMPTY && t.cell[c] != OFF)
            t.key ^= zk(t.cell[c], c);
    if (t.side)
        t.key ^= ZK_SIDE;
    status(&t, rep, 1);
    *(XBoard *)st = t;
    return 0;
}

static int xq_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt, (void)seed;
    return xq_from_text(st, START, err);
}

static int xq_to_text(const void *st, char *buf, size_t n)
{
    const XBoard *b = st;
    char s[128];
    int len = 0;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 9; f++) {
            int pc = b->cell[CELL(r, f)];
            if (pc == EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                s[len++] = (char)('0' + empty);
            empty = 0;
            char ch = LETTER[type_of(pc)];
            s[len++] = (char)(color_of(pc) ? tolower(ch) : ch);
        }
        if (empty)
            s[len++] = (char)('0' + empty);
        if (r)
            s[len++] = '/';
    }
    s[len] = 0;
    const char *rep = "";
    if (b->reason == R_REPETITION)
        rep = " 3fold";
    else if (b->reason == R_PERPETUAL)
        rep = b->over == WIN_RED ? " 3fold-w" : " 3fold-b";
    int w = snprintf(buf, n, "%s %c - - %u %u%s", s, b->side ? 'b' : 'w',
                     b->halfmove, b->fullmove, rep);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* ------------------------------------------------------ game hooks */

static int xq_to_move(const void *st)
{
    const XBoard *b = st;
    return b->over ? PLAYER_TERMINAL : b->side;
}

static int xq_gen_moves(const void *st, Move *out)
{
    const XBoard *b = st;
    return b->over ? 0 : gen(b, out, XQ_MAX_MOVES);
}

static void xq_returns(const void *st, double *out)
{
    const XBoard *b = st;
    out[0] = b->over == WIN_RED ? 1 : b->over == WIN_BLACK ? -1 : 0;
    out[1] = -out[0];
}

static uint64_t xq_hash(const void *st)
{
    const XBoard *b = st;
    return b->key ^ (b->over ? ply_mix64(b->over) : 0);
}

static int xq_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    int f = FROM(m), t = TO(m);
    int w = snprintf(buf, n, "%c%d%c%d", 'a' + file_of(f), rank_of(f),
                     'a' + file_of(t), rank_of(t));
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int xq_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const XBoard *b = st;
    if (b->over)
        return ply_fail(err, "the game is over");
    if (strlen(s) != 4 || s[0] < 'a' || s[0] > 'i' || s[1] < '0' ||
        s[1] > '9' || s[2] < 'a' || s[2] > 'i' || s[3] < '0' || s[3] > '9')
        return ply_fail(err, "a xiangqi move is file a-i and rank 0-9 of "
                        "both points, e.g. h2e2, not '%.16s'", s);
    int from = CELL(s[1] - '0', s[0] - 'a'), to = CELL(s[3] - '0',
                                                       s[2] - 'a');
    Move mv[XQ_MAX_MOVES];
    int n = gen_from(b, mv, XQ_MAX_MOVES, from, 0);
    for (int i = 0; i < n; i++)
        if (mv[i] == MOVE(from, to)) {
            *m = mv[i];
            return 0;
        }
    return ply_fail(err, "'%s' is not a legal move here", s);
}

/* The board for drawing: points on the lines, Red (rank 0) at the
 * bottom, the river between ranks 4 and 5, the palaces' diagonals. */
static int xq_layout(const void *st, Layout *l)
{
    static const char *const glyph[2][8] = {
        {"", "\u5E25", "\u4ED5", "\u76F8", "\u508C", "\u4FE5",
         "\u70AE", "\u5175"},
        {"", "\u5C07", "\u58EB", "\u8C61", "\u99AC", "\u8ECA",
         "\u7832", "\u5352"}};
    const XBoard *b = st;
    l->width = 9;
    l->height = 10;
    for (int r = 0; r < 10; r++)
        layout_line(l, 0.5f, (float)r + 0.5f, 8.5f, (float)r + 0.5f);
    for (int f = 0; f < 9; f++) {
        float x = (float)f + 0.5f;
        if (f == 0 || f == 8) {
            layout_line(l, x, 0.5f, x, 9.5f);
        } else {
            layout_line(l, x, 0.5f, x, 4.5f);
            layout_line(l, x, 5.5f, x, 9.5f);
        }
    }
    layout_line(l, 3.5f, 0.5f, 5.5f, 2.5f);
    layout_line(l, 5.5f, 0.5f, 3.5f, 2.5f);
    layout_line(l, 3.5f, 7.5f, 5.5f, 9.5f);
    layout_line(l, 5.5f, 7.5f, 3.5f, 9.5f);
    for (int r = 9; r >= 0; r--)
        for (int f = 0; f < 9; f++) {
            char name[3] = {(char)('a' + f), (char)('0' + r), 0};
            int c = CELL(r, f);
            LayoutCell *cell = layout_cell(l, (float)f + 0.5f,
                                           (float)(9 - r) + 0.5f, CELL_POINT,
                                           in_palace(c, r >= 5)
                                           ? SHADE_SPECIAL : SHADE_NONE,
                                           name);
            int pc = b->cell[c];
            if (cell && pc != EMPTY) {
                cell->owner = (int8_t)color_of(pc);
                snprintf(cell->glyph, sizeof cell->glyph, "%s",
                         glyph[color_of(pc)][type_of(pc)]);
            }
        }
    return 0;
}

static const char *xq_end_reason(const void *st)
{
    static const char *const why[] = {
        NULL, "checkmate", "stalemate (no legal move loses)",
        "the no-capture move limit", "repetition", "perpetual check or chase",
        "no attacking material"};
    const XBoard *b = st;
    return b->over && b->reason < sizeof why / sizeof *why ? why[b->reason]
                                                             : NULL;
}

static int xq_render(const void *st, char *buf, size_t n)
{
    const XBoard *b = st;
    size_t len = 0;
    int w;
    for (int r = 9; r >= 0; r--) {
        char row[40];
        int k = 0;
        row[k++] = (char)('0' + r);
        row[k++] = ' ';
        for (int f = 0; f < 9; f++) {
            int pc = b->cell[CELL(r, f)];
            char ch = in_palace(CELL(r, f), r >= 5) ? '+' : '.';
            if (pc != EMPTY) {
                ch = LETTER[type_of(pc)];
                if (color_of(pc))
                    ch = (char)tolower(ch);
            }
            row[k++] = ' ';
            row[k++] = ch;
        }
        row[k] = 0;
        PLY_OUT("%s\n%s", row,
                r == 5 ? "   ~~~~~ river ~~~~~\n" : "");
    }
    w = snprintf(buf + len, n - len, "   a b c d e f g h i\n%s to move%s\n",
                 b->side ? "Black" : "Red",
                 !b->over && b->in_check ? " (in check)" : "");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

static int xq_check(const void *st)
{
    const XBoard *b = st;
    uint64_t k = 0;
    int kings = 0;
    for (int c = 0; c < CELLS; c++) {
        int r = c / W - 2, f = c % W - 1;
        int inside = r >= 0 && r < 10 && f >= 0 && f < 9;
        int pc = b->cell[c];
        if (inside != (pc != OFF))
            return -1;
        if (!inside || pc == EMPTY)
            continue;
        if (type_of(pc) == 0 || (pc & ~15))
            return -1;
        if (type_of(pc) == XK) {
            if (b->king[color_of(pc)] != c)
                return -1;
            kings++;
        }
        k ^= zk(pc, c);
    }
    if (b->side)
        k ^= ZK_SIDE;
    return kings == 2 && k == b->key && b->side <= 1 ? 0 : -1;
}

/* ------------------------------------------------------------ eval */

static const int XVAL[8] = {0, 0, 200, 200, 400, 900, 450, 100};

#define XQ_NAME(name, value) name,
#define XQ_VALUE(name, value) value,
static const char *const XQ_WEIGHT_NAMES[] = {XIANGQI_WEIGHTS(XQ_NAME)};
static const int XQ_WEIGHTS[] = {XIANGQI_WEIGHTS(XQ_VALUE)};
_Static_assert(sizeof XQ_WEIGHTS / sizeof *XQ_WEIGHTS == XW_N,
               "xiangqi weights: weights_xiangqi.h and xiangqi_weights.h");

/* The evaluation is one linear form over the weights of
 * weights_xiangqi.h (their layout in xiangqi_weights.h): eval_core adds
 * w[i] * coef for every term, and, when a sink is given (ply tune,
 * tests), also records the coefficients. The fast path passes NULL,
 * which the always-inlined body folds away. */
typedef struct TermSink {
    float coef[XW_N];
} TermSink;

#define TERM(idx, c)                                                    \
    do {                                                                \
        if (sink)                                                       \
            sink->coef[idx] += (float)(c);                              \
    } while (0)

/* The empty points along the four lines from c, up to the first piece. */
static inline int line_mobility(const XBoard *b, int c)
{
    int mob = 0;
    for (int d = 0; d < 4; d++)
        for (int x = c + ORTH[d]; b->cell[x] == EMPTY; x += ORTH[d])
            mob++;
    return mob;
}

/* Red's view. */
static inline __attribute__((always_inline)) int
eval_core(const XBoard *b, const int *w, TermSink *sink)
{
    int s[2] = {0, 0}, attackers[2] = {0, 0}, defenders[2] = {0, 0};
    int advisors[2] = {0, 0}, elephants[2] = {0, 0};
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int c = CELL(r, f), pc = b->cell[c];
            if (pc == EMPTY)
                continue;
            int col = color_of(pc), t = type_of(pc);
            int sg = col ? -1 : 1;
            int rel = col ? 9 - r : r;   /* ranks from the own side */
            int pst = xw_pst(t, rel, f);
            TERM(pst, sg);
            if (t == XK) {
                s[col] += w[pst];
                continue;
            }
            int v = w[XW_ADVISOR + t - XA] + w[pst];
            TERM(XW_ADVISOR + t - XA, sg);
            switch (t) {
            case XA:
                advisors[col]++;
                break;
            case XB:
                elephants[col]++;
                break;
            case XP:
                if (rel >= 5) {  /* crossed: stronger, best near the palace */
                    v += w[XW_SOLDIER_CROSSED];
                    TERM(XW_SOLDIER_CROSSED, sg);
                    if (f >= 3 && f <= 5) {
                        v += w[XW_SOLDIER_CENTRAL];
                        TERM(XW_SOLDIER_CENTRAL, sg);
                    }
                    if (rel == 9) {
                        v += w[XW_SOLDIER_LAST_RANK];
                        TERM(XW_SOLDIER_LAST_RANK, sg);
                    }
                    attackers[col]++;
                }
                break;
            case XN: {
                int df = f < 4 ? f : 8 - f, adv = rel < 8 ? rel : 7;
                int legs = 0;
                for (int i = 0; i < 4; i++)   /* blocked legs cost */
                    legs += b->cell[c + ORTH[i]] != EMPTY;
                int jumps = 0;
                for (int i = 0; i < 8; i++) {
                    int to = b->cell[c + HJUMP[i]];
                    jumps += b->cell[c + HLEG[i]] == EMPTY &&
                             to != OFF &&
                             (to == EMPTY || color_of(to) != col);
                }
                v += w[XW_HORSE_CENTRE] * df + w[XW_HORSE_ADVANCE] * adv +
                     w[XW_HORSE_BLOCKED_LEG] * legs +
                     w[XW_HORSE_MOBILITY] * jumps;
                TERM(XW_HORSE_CENTRE, sg * df);
                TERM(XW_HORSE_ADVANCE, sg * adv);
                TERM(XW_HORSE_BLOCKED_LEG, sg * legs);
                TERM(XW_HORSE_MOBILITY, sg * jumps);
                attackers[col]++;
                break;
            }
            case XR: {
                int mob = line_mobility(b, c);
                v += w[XW_CHARIOT_MOBILITY] * mob;
                TERM(XW_CHARIOT_MOBILITY, sg * mob);
                attackers[col]++;
                break;
            }
            case XC: {
                /* a cannon on the enemy general's file: with one screen
                 * it checks, with none it pins the centre (hollow) */
                int ek = b->king[!col];
                if (file_of(ek) == f) {
                    int dir = rank_of(ek) > r ? W : -W, screens = 0;
                    for (int x = c + dir; x != ek; x += dir)
                        screens += b->cell[x] != EMPTY;
                    if (screens == 1) {
                        v += w[XW_CANNON_SCREEN];
                        TERM(XW_CANNON_SCREEN, sg);
                    } else if (screens == 0) {
                        v += w[XW_CANNON_HOLLOW];
                        TERM(XW_CANNON_HOLLOW, sg);
                    }
                }
                if (f == 4) {
                    v += w[XW_CANNON_CENTRAL];
                    TERM(XW_CANNON_CENTRAL, sg);
                }
                int mob = line_mobility(b, c);
                v += w[XW_CANNON_MOBILITY] * mob;
                TERM(XW_CANNON_MOBILITY, sg * mob);
                attackers[col]++;
                break;
            }
            }
            s[col] += v;
        }
    /* defenders matter against attackers: missing advisors/elephants */
    for (int col = 0; col < 2; col++) {
        int sg = col ? -1 : 1;
        defenders[col] = advisors[col] + elephants[col];
        int gap = (4 - defenders[col]) * attackers[!col];
        s[col] += w[XW_DEFENDER_GAP] * gap;
        TERM(XW_DEFENDER_GAP, sg * gap);
        if (advisors[col] == 2) {
            s[col] += w[XW_ADVISOR_PAIR];
            TERM(XW_ADVISOR_PAIR, sg);
        }
        if (elephants[col] == 2) {
            s[col] += w[XW_ELEPHANT_PAIR];
            TERM(XW_ELEPHANT_PAIR, sg);
        }
    }
    TERM(XW_TEMPO, b->side ? -1 : 1);
    return s[0] - s[1] + (b->side ? -w[XW_TEMPO] : w[XW_TEMPO]);
}
#undef TERM

static int eval_red(const XBoard *b)
{
    return eval_core(b, XQ_WEIGHTS, NULL);
}

static int xq_eval(const void *st, int player)
{
    const XBoard *b = st;
    if (b->over == DRAW)
        return 0;
    int v = eval_red(b);
    if (v > EVAL_MAX - 1) v = EVAL_MAX - 1;
    if (v < -(EVAL_MAX - 1)) v = -(EVAL_MAX - 1);
    return player ? -v : v;
}

static int xq_terms(const void *st, EvalTerm *out, double *base)
{
    const XBoard *b = st;
    *base = 0;
    if (b->over == DRAW)
        return 0;
    TermSink sink;
    memset(&sink, 0, sizeof sink);
    eval_core(b, XQ_WEIGHTS, &sink);
    int n = 0;
    for (int i = 0; i < XW_N; i++)
        if (sink.coef[i] != 0)
            out[n++] = (EvalTerm){i, sink.coef[i]};
    return n;
}

static const EvalTuning xq_tuning = {
    .nparams = XW_N,
    .names = XQ_WEIGHT_NAMES,
    .weights = XQ_WEIGHTS,
    .terms = xq_terms,
};

static int xq_heuristic(const void *st, Move m)
{
    const XBoard *b = st;
    int victim = b->cell[TO(m)], attacker = type_of(b->cell[FROM(m)]);
    if (victim != EMPTY)
        return 1000 + XVAL[type_of(victim)] - XVAL[attacker] / 10;
    return 100;
}

/* ------------------------------------------------------------ static
 * exchange: the swap list on one point, each side recapturing with its
 * least valuable attacker (soldier, advisor, elephant, horse, cannon,
 * chariot, general) while that pays. Attackers are found on a copy of
 * the board from which the pieces already used are lifted, so the
 * chariots and cannons behind them (and cannons that lose or gain their
 * screen) join in; pins and the facing generals are not looked at. */

enum { XQ_SEE_GENERAL = 20000 };

static int see_value(int t)
{
    return t == XK ? XQ_SEE_GENERAL : XVAL[t];
}

/* The least valuable piece of colour by that attacks sq on cell[]; its
 * point goes to *from. 0 when none. */
static int least_attacker(const uint8_t *cell, int sq, int by, int *from)
{
    int pawn = XP | by << 3, fw = by ? -W : W;
    if (cell[sq - fw] == pawn) {
        *from = sq - fw;
        return XP;
    }
    for (int k = -1; k <= 1; k += 2)
        if (cell[sq + k] == pawn && !own_half(sq + k, by)) {
            *from = sq + k;
            return XP;
        }
    if (in_palace(sq, by)) {
        int adv = XA | by << 3;
        for (int i = 0; i < 4; i++)
            if (cell[sq + DIAG[i]] == adv) {
                *from = sq + DIAG[i];
                return XA;
            }
    }
    if (own_half(sq, by)) {
        /* two diagonal steps from a corner point leave the frame (whose
         * rows and column only catch leaps from the elephant's points) */
        int ele = XB | by << 3;
        for (int i = 0; i < 4; i++) {
            int e = sq + 2 * DIAG[i];
            if (e >= 0 && e < CELLS && cell[e] == ele &&
                cell[sq + DIAG[i]] == EMPTY) {
                *from = e;
                return XB;
            }
        }
    }
    int horse = XN | by << 3;
    for (int i = 0; i < 8; i++) {
        int h = sq - HJUMP[i];
        if (cell[h] == horse && cell[h + HLEG[i]] == EMPTY) {
            *from = h;
            return XN;
        }
    }
    /* along the lines: the first piece may be a chariot (or the general
     * next to sq, in its palace), the second a cannon */
    int rook = XR | by << 3, cannon = XC | by << 3, gen = XK | by << 3;
    int rook_at = -1, gen_at = -1;
    for (int d = 0; d < 4; d++) {
        int dir = ORTH[d], x = sq + dir;
        while (cell[x] == EMPTY)
            x += dir;
        if (cell[x] == OFF)
            continue;
        if (cell[x] == rook)
            rook_at = x;
        else if (cell[x] == gen && x == sq + dir && in_palace(sq, by))
            gen_at = x;
        x += dir;
        while (cell[x] == EMPTY)
            x += dir;
        if (cell[x] == cannon) {  /* the cheapest after the horse */
            *from = x;
            return XC;
        }
    }
    if (rook_at >= 0) {
        *from = rook_at;
        return XR;
    }
    if (gen_at >= 0) {
        *from = gen_at;
        return XK;
    }
    return 0;
}

/* The board of an exchange under way on the point `to`. */
typedef struct XqSwap {
    uint8_t cell[CELLS];
    int to;
} XqSwap;

/* see_swap's next: lifts side's least valuable attacker onto the point */
static int xq_swap_next(void *ctx, int side)
{
    XqSwap *x = ctx;
    int at, t = least_attacker(x->cell, x->to, side, &at);
    if (!t)
        return 0;
    x->cell[x->to] = x->cell[at];
    x->cell[at] = EMPTY;
    return see_value(t);
}

/* The mover's net material from the exchange m starts on its target. */
static int xq_see_value(const XBoard *b, Move m)
{
    XqSwap x;
    memcpy(x.cell, b->cell, sizeof x.cell);
    int from = FROM(m);
    x.to = TO(m);
    int gain0 = XVAL[type_of(x.cell[x.to])];
    int on = see_value(type_of(x.cell[from]));
    x.cell[x.to] = x.cell[from];
    x.cell[from] = EMPTY;
    return see_swap(gain0, on, b->side, xq_swap_next, &x);
}

int xq_see_exchange(const void *st, Move m)
{
    return xq_see_value(st, m);
}

int xq_least_attacker_value(const void *st, Move m)
{
    const XBoard *b = st;
    int at, t = least_attacker(b->cell, TO(m), b->side, &at);
    return t ? see_value(t) : 0;
}

int xq_piece_value(const void *st, Move m, int to)
{
    const XBoard *b = st;
    int pc = b->cell[to ? TO(m) : FROM(m)];
    return pc == EMPTY ? 0 : see_value(type_of(pc));
}

static int xq_see(const void *st, Move m, int threshold)
{
    const XBoard *b = st;
    int gain = XVAL[type_of(b->cell[TO(m)])];
    int on = see_value(type_of(b->cell[FROM(m)]));
    int r = see_bounds(gain, on, threshold);
    return r >= 0 ? r : xq_see_value(b, m) >= threshold;
}

static int xq_is_noisy(const void *st, Move m)
{
    const XBoard *b = st;
    return b->cell[TO(m)] != EMPTY;
}

static int xq_gen_noisy(const void *st, Move *out)
{
    const XBoard *b = st;
    return b->over ? 0 : gen_from(b, out, XQ_MAX_MOVES, -1, 1);
}

static int xq_in_check(const void *st)
{
    const XBoard *b = st;
    return !b->over && b->in_check;
}

/* Zugzwang is rare while a side has two attacking pieces (rook, horse,
 * cannon); with fewer, endgames turn on tempo. */
static int xq_null_move_ok(const void *st)
{
    const XBoard *b = st;
    int n = 0;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int pc = b->cell[CELL(r, f)];
            if (pc == EMPTY || color_of(pc) != b->side)
                continue;
            int t = type_of(pc);
            n += t == XN || t == XR || t == XC;
        }
    return n >= 2;
}

static void xq_make_null(void *st)
{
    XBoard *b = st;
    b->nhist = 0;   /* no repetition reaches across the search's pass */
    b->key ^= ZK_SIDE;
    b->side = (uint8_t)!b->side;
    b->in_check = (uint8_t)attacked(b->cell, b->king[b->side], !b->side);
}

static const char *const xq_players[] = {"Red", "Black"};

/* ---- formats ----
 * UCI (Fairy-Stockfish) counts xiangqi's ranks 1-10 (h3e3); Ply, UCCI
 * and xboard count 0-9 (h2e2). A square-to-square move "f<r>f<r>" has
 * both ranks moved by delta; anything else is not a move. */
static int shift_move(const char *in, int delta, char *out, size_t n)
{
    int r[2], k = 0;
    char f[2];
    const char *p = in;
    for (int i = 0; i < 2; i++) {
        if (*p < 'a' || *p > 'z')
            return -1;
        f[i] = *p++;
        if (*p < '0' || *p > '9')
            return -1;
        r[i] = *p++ - '0';
        if (*p >= '0' && *p <= '9')
            r[i] = r[i] * 10 + (*p++ - '0');
        r[i] += delta;
        if (r[i] < 0 || r[i] > 99)
            return -1;
    }
    if (*p)
        return -1;
    k = snprintf(out, n, "%c%d%c%d", f[0], r[0], f[1], r[1]);
    return k < 0 || (size_t)k >= n ? -1 : k;
}

static int uci_move_to_wire(const char *own, char *buf, size_t n)
{
    return shift_move(own, 1, buf, n);
}

static int uci_move_from_wire(const char *wire, char *buf, size_t n)
{
    return shift_move(wire, -1, buf, n);
}

static const GameFormat xq_uci = {
    .name = "uci", .variant = "xiangqi",
    .move_to_wire = uci_move_to_wire, .move_from_wire = uci_move_from_wire,
};
static const GameFormat xq_ucci = {
    .name = "ucci", .variant = "xiangqi", .flags = FORMAT_NATIVE,
};
static const GameFormat xq_cecp = {.name = "cecp", .variant = "xiangqi"};
static const GameFormat *const xq_formats[] = {&xq_uci, &xq_ucci, &xq_cecp,
                                               NULL};

/* The learned evaluation's inputs (game.h NetFeatures): one feature per
 * piece, (own or the opponent's, type, point), the board turned upside
 * down for Black. */
static int xq_net_features(const void *st, int persp, uint16_t *out)
{
    const XBoard *b = st;
    int n = 0;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int p = b->cell[CELL(r, f)];
            if (p == EMPTY || (p & OFF))
                continue;
            int rel = color_of(p) != persp;
            int pt = (persp ? 9 - r : r) * 9 + f;
            out[n++] = (uint16_t)((rel * 7 + type_of(p) - 1) * 90 + pt);
        }
    return n;
}

static int xq_net_factor(int feature)
{
    return feature / 90;
}

static const NetFeatures xq_net = {
    .name = "xiangqi-ps1",
    .ninputs = 2 * 7 * 90,
    .max_active = 32,
    .features = xq_net_features,
    .nfactors = 2 * 7,
    .factor = xq_net_factor,
};

const GameVtbl game_xiangqi = {
    .info = {
        .name = "xiangqi",
        .title = "Xiangqi (Chinese chess)",
        .num_players = 2,
        .max_moves = XQ_MAX_MOVES,
        .max_game_length = XQ_MAX_PLIES,
        .state_size = sizeof(XBoard),
        .flags = GAME_ZERO_SUM,
        .player_names = xq_players,
        .options = NULL,
        .notation =
            "Moves as UCCI writes them: file a-i and rank 0-9 (Red's side is\n"
            "rank 0) of both points, e.g. h2e2 (Fairy-Stockfish's UCI writes\n"
            "ranks 1-10 instead: h3e3). Setup string: FEN as Fairy-Stockfish\n"
            "(upper case Red, lower case Black; K general, A advisor, B\n"
            "elephant, N horse, R chariot, C cannon, P soldier; H and E are\n"
            "read too), e.g. rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/\n"
            "9/RNBAKABNR w - - 0 1. A game ended by repetition ends in\n"
            "\" 3fold\" (draw) or \" 3fold-w\"/\" 3fold-b\" (the winner).",
        .rules =
            "Xiangqi. General and advisors stay in the palace (general: one\n"
            "step orthogonally, advisors: one step diagonally); elephants move\n"
            "two points diagonally, not over a piece on the midpoint and not\n"
            "across the river; horses move one point straight then one\n"
            "diagonally outward, blocked by a piece next to them; chariots move\n"
            "like rooks; cannons move like rooks and capture by jumping exactly\n"
            "one piece; soldiers step forward, and also sideways once across the\n"
            "river. The generals may not face each other on a file with nothing\n"
            "between. A side without a legal move loses (stalemate too).\n"
            "Repetition (the Asian-rules simplification Fairy-Stockfish uses):\n"
            "on the third occurrence of a position, a side that gave check with\n"
            "every move since the previous occurrence loses, unless both did;\n"
            "otherwise a draw. Chases are not judged. 60 moves without a capture\n"
            "draw, and so do boards where neither side has a chariot, horse,\n"
            "cannon or soldier. Perft stops at these endings too, where\n"
            "Fairy-Stockfish's counts on (they agree on the oracle rows).",
    },
    .init = xq_init,
    .to_move = xq_to_move,
    .gen_moves = xq_gen_moves,
    .make = xq_make,
    .returns = xq_returns,
    .hash = xq_hash,
    .to_text = xq_to_text,
    .from_text = xq_from_text,
    .move_to_text = xq_move_to_text,
    .text_to_move = xq_text_to_move,
    .render = xq_render,
    .layout = xq_layout,
    .end_reason = xq_end_reason,
    .eval = xq_eval,
    .heuristic = xq_heuristic,
    .is_noisy = xq_is_noisy,
    .in_check = xq_in_check,
    .gen_noisy = xq_gen_noisy,
    .see = xq_see,
    .null_move_ok = xq_null_move_ok,
    .make_null = xq_make_null,
    .check = xq_check,
    .tuning = &xq_tuning,
    .formats = xq_formats,
    .net = &xq_net,
};
