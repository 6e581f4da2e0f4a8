/* agon.c — Agon (Queen's Guard): on a hexagon of 91 cells each side's
 * Queen tries to reach the central throne and gather her six Guards
 * around it; pieces step sideways along their ring or inward, and a piece
 * caught between two enemies in a line is captured and must be moved back
 * to the outer ring by its owner on his next turn.
 *
 * Cells use Dagaz's names: the board is 11 columns of hexagons, column X
 * (0..10) named by the letter 'a' + X / 2, its cells by their height in
 * half-cells (1..21), odd heights in the odd columns: c1 is the bottom
 * corner, c11 the throne, c21 the top corner. Internally a cell is
 * X * 23 + height; ring(cell) is its distance from the throne (0..5).
 * Pieces: 1 White Guard, 2 White Queen, 3 Black Guard, 4 Black Queen;
 * +8 a captured piece waiting to be relocated (it still stands there,
 * blocks the cell, captures nothing and cannot be captured again).
 * A move is from * 256 + to; PASS when a side has no move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/setup.h"

enum { AG_COLS = 11, AG_H = 23, AG_CELLS = AG_COLS * AG_H, AG_THRONE =
       5 * AG_H + 11, AG_MAX_MOVES = 192, AG_MAX_PLIES = 2000,
       AG_MAXLEN = 400, CAPT = 8 };
/* AG_MAX_MOVES bounds the relocation list: up to six captured Guards,
 * each to any of the 30 outer-ring cells, is 180 moves (a captured Queen
 * alone, to any empty cell, is under 91; ordinary steps, 7 pieces in 6
 * directions, 42). 128 was too few: three Guards taken at once overran it. */
enum { WG = 1, WQ = 2, BG = 3, BQ = 4 };
enum { END_NONE, END_THRONE, END_GUARDS, END_LENGTH };
enum { RING_SAME, RING_ANY };
enum { ENTER_SUICIDE, ENTER_ILLEGAL, ENTER_SAFE };
enum { QZONE_ANY, QZONE_OUTER };

#define PASS ((Move)0xFFFF)

typedef struct Agon {
    uint8_t cell[AG_CELLS];
    uint8_t side, over, winner;     /* winner 2: a draw */
    uint8_t ring_rule, enter, qzone, guard_loss, same_type;
    uint16_t length, quiet, ply;
} Agon;

/* the six directions in (column, half-height) steps; d ^ 1 is opposite */
static const int DX[6] = {0, 0, 1, -1, 1, -1};
static const int DY[6] = {2, -2, 1, -1, -1, 1};

static int valid(int x, int y)
{
    if (x < 0 || x >= AG_COLS || y < 1 || y > 21 || ((x + y) & 1))
        return 0;
    int dx = abs(x - 5), dy = abs(y - 11);
    return dx + (dy > dx ? (dy - dx) / 2 : 0) <= 5;
}

static int ring(int c)
{
    int dx = abs(c / AG_H - 5), dy = abs(c % AG_H - 11);
    return dx + (dy > dx ? (dy - dx) / 2 : 0);
}

/* the neighbour of c in direction d, or -1 */
static int step(int c, int d)
{
    int x = c / AG_H + DX[d], y = c % AG_H + DY[d];
    return valid(x, y) ? x * AG_H + y : -1;
}

static int owner(int p) { return ((p & 7) - 1) >> 1; }
static int is_queen(int p) { return (p & 7) == WQ || (p & 7) == BQ; }
static int active(int p) { return p && !(p & CAPT); }

/* Is the piece of `side` on c caught between two active enemies in a
 * line (in one ring under the same-ring rule)? */
static int flanked(const Agon *a, int c, int side)
{
    for (int d = 0; d < 6; d += 2) {
        int n1 = step(c, d), n2 = step(c, d + 1);
        if (n1 < 0 || n2 < 0)
            continue;
        int p1 = a->cell[n1], p2 = a->cell[n2];
        if (!active(p1) || !active(p2) || owner(p1) == side ||
            owner(p2) == side)
            continue;
        if (a->ring_rule == RING_SAME &&
            (ring(n1) != ring(c) || ring(n2) != ring(c)))
            continue;
        return 1;
    }
    return 0;
}

/* Plays an ordinary move of the side to move from -> to on a (no
 * relocation): captures, then the mover's own fate. Returns the number of
 * pieces captured (the mover included). */
static int play_step(Agon *a, int from, int to)
{
    int me = a->side, n = 0;
    a->cell[to] = a->cell[from];
    a->cell[from] = 0;
    for (int d = 0; d < 6; d++) {
        int v = step(to, d), w = v < 0 ? -1 : step(v, d);
        if (w < 0)
            continue;
        int pv = a->cell[v], pw = a->cell[w];
        if (!active(pv) || owner(pv) == me || !active(pw) || owner(pw) != me)
            continue;
        if (a->same_type && (pw & 7) != (a->cell[to] & 7))
            continue;       /* Dagaz: the far captor is of the mover's type */
        if (a->ring_rule == RING_SAME &&
            (ring(v) != ring(to) || ring(w) != ring(to)))
            continue;
        a->cell[v] |= CAPT;
        n++;
    }
    if (a->enter == ENTER_SUICIDE && flanked(a, to, me)) {
        a->cell[to] |= CAPT;
        n++;
    }
    return n;
}

static int pending(const Agon *a, int side, int *queen)
{
    int n = 0;
    *queen = -1;
    for (int c = 0; c < AG_CELLS; c++) {
        int p = a->cell[c];
        if (p & CAPT && owner(p) == side) {
            n++;
            if (is_queen(p))
                *queen = c;
        }
    }
    return n;
}

static int gen(const Agon *a, Move *out)
{
    int me = a->side, n = 0, queen;
    if (pending(a, me, &queen)) {
        /* relocation: the Queen first, then any captured Guard */
        for (int c = 0; c < AG_CELLS; c++) {
            int p = a->cell[c];
            if (!(p & CAPT) || owner(p) != me || (queen >= 0 && c != queen))
                continue;
            int outer = !is_queen(p) || a->qzone == QZONE_OUTER;
            for (int t = 0; t < AG_CELLS; t++)
                if (valid(t / AG_H, t % AG_H) && !a->cell[t] &&
                    t != AG_THRONE && (!outer || ring(t) == 5))
                    out[n++] = (Move)(c * 256 + t);
        }
        return n;
    }
    for (int c = 0; c < AG_CELLS; c++) {
        int p = a->cell[c];
        if (!active(p) || owner(p) != me)
            continue;
        int rc = ring(c);
        for (int d = 0; d < 6; d++) {
            int t = step(c, d);
            if (t < 0 || a->cell[t] || ring(t) > rc)
                continue;
            if (t == AG_THRONE && !is_queen(p))
                continue;
            if (a->enter == ENTER_ILLEGAL) {
                Agon tmp = *a;
                play_step(&tmp, c, t);
                if (flanked(&tmp, t, me))
                    continue;
            }
            out[n++] = (Move)(c * 256 + t);
        }
    }
    if (!n)
        out[n++] = PASS;
    return n;
}

static void check_end(Agon *a)
{
    a->over = END_NONE;
    for (int s = 0; s < 2; s++) {
        int guards = 0;
        for (int d = 0; d < 6; d++) {
            int p = a->cell[step(AG_THRONE, d)];
            guards += active(p) && !is_queen(p) && owner(p) == s;
        }
        if (guards < 6)
            continue;
        int q = a->cell[AG_THRONE];
        if (active(q) && owner(q) == s) {
            a->over = END_THRONE;
            a->winner = (uint8_t)s;
            return;
        }
        if (a->guard_loss) {
            a->over = END_GUARDS;
            a->winner = (uint8_t)!s;
            return;
        }
    }
    if (a->quiet >= a->length || a->ply >= AG_MAX_PLIES) {
        a->over = END_LENGTH;
        a->winner = 2;
    }
}

static const char *const ring_choices[] = {"same-ring", "any-line", NULL};
static const char *const enter_choices[] = {"suicide", "illegal", "safe",
                                            NULL};
static const char *const qzone_choices[] = {"anywhere", "outer-ring", NULL};

static const GameOption ag_options[] = {
    {.key = "ring", .type = OPT_CHOICE, .def = RING_ANY,
     .choices = ring_choices,
     .help = "any-line: captors on opposite sides in any straight line "
             "(fivekeys, de.wiki); same-ring: all three in one ring (Board "
             "& Pieces)"},
    {.key = "enter", .type = OPT_CHOICE, .def = ENTER_SUICIDE,
     .choices = enter_choices,
     .help = "a piece moving between two enemies: is captured (suicide), "
             "may not (illegal), or is safe (Dagaz)"},
    {.key = "queenzone", .type = OPT_CHOICE, .def = QZONE_ANY,
     .choices = qzone_choices,
     .help = "where a captured Queen is relocated: any empty cell but the "
             "throne, or the outer ring (Dagaz)"},
    {.key = "guardloss", .type = OPT_BOOL, .def = 1,
     .help = "a side whose six Guards surround the throne without its Queen "
             "on it loses (boardgamesoftheworld)"},
    {.key = "length", .type = OPT_INT, .def = 100, .min = 10,
     .max = AG_MAXLEN, .help = "plies without a capture that draw (Ply's "
                               "rule)"},
    {.key = "sametype", .type = OPT_BOOL, .def = 0,
     .help = "Dagaz: a move captures only when the piece on the far side "
             "is of the mover's type (Queen with Queen, Guard with Guard)"},
    {.key = NULL},
};

static int ag_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Agon *a = st;
    memset(a, 0, sizeof *a);
    a->ring_rule = (uint8_t)opt[0];
    a->enter = (uint8_t)opt[1];
    a->qzone = (uint8_t)opt[2];
    a->guard_loss = (uint8_t)opt[3];
    a->length = (uint16_t)opt[4];
    a->same_type = (uint8_t)opt[5];
    /* the Dagaz setup */
    static const char *const wg[] = {"a5", "f6", "a12", "f14", "b19", "d19"};
    static const char *const bg[] = {"b3", "d3", "a8", "f10", "a16", "e17"};
    for (int i = 0; i < 6; i++) {
        for (int k = 0; k < 2; k++) {
            const char *nm = k ? bg[i] : wg[i];
            int col = nm[0] - 'a', h = atoi(nm + 1);
            int x = 2 * col + (h & 1);
            a->cell[x * AG_H + h] = (uint8_t)(k ? BG : WG);
        }
    }
    a->cell[5 * AG_H + 1] = WQ;
    a->cell[5 * AG_H + 21] = BQ;
    (void)err;
    check_end(a);
    return 0;
}

static int ag_to_move(const void *st)
{
    const Agon *a = st;
    return a->over ? PLAYER_TERMINAL : a->side;
}

static int ag_gen_moves(const void *st, Move *out)
{
    const Agon *a = st;
    return a->over ? 0 : gen(a, out);
}

static void ag_make(void *st, Move m)
{
    Agon *a = st;
    int took = 0;
    if (m != PASS) {
        int from = (int)(m / 256), to = (int)(m % 256);
        if (a->cell[from] & CAPT) {
            a->cell[to] = (uint8_t)(a->cell[from] & 7);
            a->cell[from] = 0;
        } else {
            took = play_step(a, from, to);
        }
    }
    a->quiet = took ? 0 : (uint16_t)(a->quiet + 1);
    a->ply++;
    a->side = (uint8_t)!a->side;
    check_end(a);
}

static void ag_returns(const void *st, double *out)
{
    const Agon *a = st;
    out[0] = out[1] = 0;
    if (a->over && a->winner < 2) {
        out[a->winner] = 1;
        out[!a->winner] = -1;
    }
}

static uint64_t ag_hash(const void *st)
{
    const Agon *a = st;
    uint64_t h = ply_mix64(a->side + 2u * (a->over != 0) +
                           ((uint64_t)a->quiet << 8));
    for (int c = 0; c < AG_CELLS; c++)
        if (a->cell[c])
            h ^= ply_mix64((uint64_t)c * 16 + a->cell[c] + 0xa90);
    return h;
}

static const char piece_chars[] = ".GQgq";
static const char capt_chars[] = ".XYxy";

static int cell_char(int p)
{
    return p & CAPT ? capt_chars[p & 7] : piece_chars[p];
}

/* Setup: the 11 columns of cells from a (left) to f (right), each from
 * the bottom up, separated by '/': '.' empty, G Guard and Q Queen of
 * White, g and q of Black, X Y (x y) a captured White (Black) Guard or
 * Queen waiting to be relocated; then w or b to move and optionally the
 * plies since the last capture. */
static int ag_to_text(const void *st, char *buf, size_t n)
{
    const Agon *a = st;
    char tmp[128];
    size_t len = 0;
    for (int x = 0; x < AG_COLS; x++) {
        for (int y = 1; y <= 21; y++)
            if (valid(x, y))
                tmp[len++] = (char)cell_char(a->cell[x * AG_H + y]);
        if (x < AG_COLS - 1)
            tmp[len++] = '/';
    }
    tmp[len] = 0;
    int w = a->ply
        ? snprintf(buf, n, "%s %c %d %d", tmp, a->side ? 'b' : 'w',
                   a->quiet, a->ply)
        : a->quiet
        ? snprintf(buf, n, "%s %c %d", tmp, a->side ? 'b' : 'w', a->quiet)
        : snprintf(buf, n, "%s %c", tmp, a->side ? 'b' : 'w');
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int col_len(int x) { return 11 - abs(x - 5); }

static int ag_from_text(void *st, const char *s, PlyError *err)
{
    Agon *a = st, t = *a;
    memset(t.cell, 0, sizeof t.cell);
    int x = 0, k = 0, queens[2] = {0, 0}, guards[2] = {0, 0};
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (k != col_len(x))
                return ply_fail(err, "column %d has %d cells, not %d", x + 1,
                                k, col_len(x));
            if (++x >= AG_COLS)
                return ply_fail(err, "more than 11 columns");
            k = 0;
            continue;
        }
        const char *p = strchr(piece_chars, *s), *q = strchr(capt_chars, *s);
        if (!*s || (!p && !q))
            return ply_fail(err, "unknown cell '%c' (. G Q g q X Y x y)", *s);
        if (k >= col_len(x))
            return ply_fail(err, "column %d has more than %d cells", x + 1,
                            col_len(x));
        int y0 = 1 + abs(x - 5);
        int c = x * AG_H + y0 + 2 * k;
        int v = p ? (int)(p - piece_chars) : (int)(q - capt_chars) | CAPT;
        if (v) {
            if (is_queen(v))
                queens[owner(v)]++;
            else
                guards[owner(v)]++;
        }
        if (c == AG_THRONE && v && !is_queen(v))
            return ply_fail(err, "only a Queen may stand on the throne");
        t.cell[c] = (uint8_t)v;
        k++;
    }
    if (x != AG_COLS - 1 || k != col_len(x))
        return ply_fail(err, "expected 11 columns of 6..11 cells");
    for (int p = 0; p < 2; p++)
        if (queens[p] != 1 || guards[p] > 6)
            return ply_fail(err, "each side has one Queen and at most six "
                            "Guards");
    if (*s != ' ' || (s[1] != 'w' && s[1] != 'b'))
        return ply_fail(err, "expected ' w' or ' b' (side to move)");
    t.side = s[1] == 'b';
    s += 2;
    long quiet, ply;
    if (setup_count(&s, t.length, "plies since a capture", "option length",
                    &quiet, err) ||
        setup_count(&s, AG_MAX_PLIES, "plies played", NULL, &ply, err))
        return -1;
    if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    t.quiet = (uint16_t)quiet;
    t.ply = (uint16_t)ply;
    check_end(&t);
    *a = t;
    return 0;
}

static int cell_name(int c, char *buf)
{
    return snprintf(buf, 8, "%c%d", (char)('a' + c / AG_H / 2), c % AG_H);
}

static int ag_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    char a[8], b[8];
    int w;
    if (m == PASS) {
        w = snprintf(buf, n, "pass");
    } else {
        cell_name((int)(m / 256), a);
        cell_name((int)(m % 256), b);
        w = snprintf(buf, n, "%s%s", a, b);
    }
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* a cell name at s: its index and length, or -1 */
static int parse_cell(const char *s, int *len)
{
    if (s[0] < 'a' || s[0] > 'f' || s[1] < '1' || s[1] > '9')
        return -1;
    int h = s[1] - '0', k = 2;
    if (s[2] >= '0' && s[2] <= '9') {
        h = h * 10 + s[2] - '0';
        k = 3;
    }
    int x = 2 * (s[0] - 'a') + (h & 1);
    if (!valid(x, h))
        return -1;
    *len = k;
    return x * AG_H + h;
}

static int ag_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const Agon *a = st;
    if (a->over)
        return ply_fail(err, "the game is over");
    Move list[AG_MAX_MOVES];
    int n = gen(a, list);
    if (!strcmp(s, "pass")) {
        if (list[0] == PASS) {
            *m = PASS;
            return 0;
        }
        return ply_fail(err, "pass only when no piece can move");
    }
    int l1, l2;
    int from = parse_cell(s, &l1);
    int to = from < 0 ? -1 : parse_cell(s + l1, &l2);
    if (from < 0 || to < 0 || s[l1 + l2])
        return ply_fail(err, "an agon move is two cells (Dagaz's names, "
                        "c1..c21), like c1c3, not '%s'", s);
    for (int i = 0; i < n; i++)
        if (list[i] == (Move)(from * 256 + to)) {
            *m = list[i];
            return 0;
        }
    int q;
    if (pending(a, a->side, &q))
        return ply_fail(err, "%s: a captured piece must be relocated first "
                        "(the Queen before the Guards; Guards to the outer "
                        "ring)", s);
    return ply_fail(err, "%s is not a legal move: one step along the ring or "
                    "inwards to an empty cell, the throne for the Queen "
                    "only", s);
}

static int ag_render(const void *st, char *buf, size_t n)
{
    const Agon *a = st;
    size_t len = 0;
    /* rows of half-heights from the top; columns two characters apart */
    for (int y = 21; y >= 1; y--) {
        char line[64];
        int k = snprintf(line, sizeof line, "%2d ", y);
        for (int x = 0; x < AG_COLS; x++) {
            int c = x * AG_H + y;
            line[k++] = valid(x, y) ? (char)cell_char(a->cell[c]) : ' ';
            line[k++] = ' ';
        }
        line[k - 1] = '\n';
        if (len + (size_t)k >= n)
            return -1;
        memcpy(buf + len, line, (size_t)k);
        len += (size_t)k;
    }
    int w = snprintf(buf + len, n - len, "   a a b b c c d d e e f\n"
                     "%s; %d plies without a capture\n", a->over
                     ? "game over" : a->side ? "Black to move"
                     : "White to move", a->quiet);
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)len + w;
}

static int ag_layout(const void *st, Layout *l)
{
    const Agon *a = st;
    l->width = 11.0f * 0.866f + 0.2f;
    l->height = 11.0f;
    for (int x = 0; x < AG_COLS; x++)
        for (int y = 1; y <= 21; y++) {
            if (!valid(x, y))
                continue;
            int c = x * AG_H + y, p = a->cell[c];
            char name[8];
            cell_name(c, name);
            LayoutCell *lc = layout_cell(l, 0.6f + 0.866f * (float)x,
                                         (float)(21 - y) * 0.5f + 0.5f,
                                         CELL_HEX,
                                         c == AG_THRONE ? SHADE_SPECIAL
                                         : ring(c) & 1 ? SHADE_DARK
                                                       : SHADE_LIGHT, name);
            if (!lc)
                return -1;
            if (p) {
                lc->owner = (int8_t)owner(p);
                snprintf(lc->glyph, sizeof lc->glyph, "%s",
                         is_queen(p) ? "\u265B" : "\u265F");
                if (p & CAPT)
                    snprintf(lc->label, sizeof lc->label, "captured");
            }
        }
    return 0;
}

static const char *ag_end_reason(const void *st)
{
    const Agon *a = st;
    return a->over == END_THRONE ? "Queen on the throne among her Guards"
         : a->over == END_GUARDS ? "six Guards round an empty throne"
         : a->over == END_LENGTH ? "length limit: draw" : NULL;
}

/* ---- evaluation ----
 * The Queen's way to the throne, the Guards' rings (the inner ring is the
 * goal), Guards already on the inner ring while their Queen is not on the
 * throne carry the six-Guard risk, and a captured piece costs its owner a
 * turn. A linear form over named features (`ply info agon`), tunable
 * with `ply tune` (docs/tuning.md): each side's features, weighted, the
 * player's less the opponent's. */
enum { W_QRING = 0, W_GRING = 6, W_QCAPT = 12, W_GCAPT, W_INNER2, W_RISK,
       AG_NW };
static const char *const ag_names[AG_NW] = {
    "queen.ring0", "queen.ring1", "queen.ring2", "queen.ring3",
    "queen.ring4", "queen.ring5", "guard.ring0", "guard.ring1",
    "guard.ring2", "guard.ring3", "guard.ring4", "guard.ring5",
    "queen.captured", "guard.captured", "guards.inner.squared",
    "guards.inner5.risk",
};
/* fitted by `ply tune` on 400 self-play games with queen.captured frozen
 * (docs/tuning.md); the hand-set start was 400 170 110 60 25 0 (Queen),
 * 0 90 55 30 12 0 (Guard), -250 -70, 8, -150 */
static const int ag_weights[AG_NW] = {
    148, 356, 203, 78, -130, -309,  /* the Queen by ring, throne first */
    0, 215, 96, 185, 90, -101,      /* a Guard by ring */
    -250, -195,                     /* a captured piece (a lost turn) */
    13,                             /* (Guards on the inner ring)^2 */
    -656,                           /* five there, Queen off the throne */
};

/* The features of both sides: f[side][weight]. */
static void ag_features(const Agon *a, int f[2][AG_NW])
{
    int inner[2] = {0, 0}, qthrone[2] = {0, 0};
    memset(f, 0, sizeof(int) * 2 * AG_NW);
    for (int c = 0; c < AG_CELLS; c++) {
        int p = a->cell[c];
        if (!p)
            continue;
        int s = owner(p), r = ring(c);
        if (p & CAPT) {
            f[s][is_queen(p) ? W_QCAPT : W_GCAPT]++;
            continue;
        }
        if (is_queen(p)) {
            f[s][W_QRING + r]++;
            qthrone[s] = r == 0;
        } else {
            f[s][W_GRING + r]++;
            inner[s] += r == 1;
        }
    }
    for (int s = 0; s < 2; s++) {
        f[s][W_INNER2] = inner[s] * inner[s];
        /* threats (active pieces the opponent could flank next move) are
         * left to the search */
        f[s][W_RISK] = a->guard_loss && inner[s] == 5 && !qthrone[s];
    }
}

static int ag_eval(const void *st, int player)
{
    int f[2][AG_NW];
    ag_features(st, f);
    return evalform_value(ag_weights, f[player], f[!player], AG_NW);
}

/* The terms from player 0's view. */
static int ag_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][AG_NW];
    *base = 0;
    ag_features(st, f);
    return evalform_terms(f[0], f[1], AG_NW, out);
}

static const EvalTuning ag_tuning = {
    .nparams = AG_NW, .names = ag_names, .weights = ag_weights,
    .terms = ag_terms,
};

static int ag_heuristic(const void *st, Move m)
{
    const Agon *a = st;
    if (m == PASS)
        return 0;
    int from = (int)(m / 256), to = (int)(m % 256);
    if (a->cell[from] & CAPT)
        return 10;
    Agon t = *a;
    int took = play_step(&t, from, to);
    if (t.cell[to] & CAPT)
        return -100;        /* walks into a trap */
    return 1000 * took + 10 * (ring(from) - ring(to)) + 5;
}

static int ag_is_noisy(const void *st, Move m)
{
    const Agon *a = st;
    if (m == PASS)
        return 0;
    int from = (int)(m / 256), to = (int)(m % 256);
    if (a->cell[from] & CAPT)
        return 0;
    Agon t = *a;
    return play_step(&t, from, to) > 0 || to == AG_THRONE;
}

static int ag_check(const void *st)
{
    const Agon *a = st;
    int queens[2] = {0, 0};
    if (a->side > 1)
        return -1;
    for (int c = 0; c < AG_CELLS; c++) {
        int p = a->cell[c];
        if (!p)
            continue;
        if (!valid(c / AG_H, c % AG_H) || (p & 7) < 1 || (p & 7) > 4 ||
            (p & ~(7 | CAPT)))
            return -1;
        if (is_queen(p))
            queens[owner(p)]++;
    }
    return queens[0] == 1 && queens[1] == 1 ? 0 : -1;
}

static const char *const ag_players[] = {"White", "Black"};

const GameVtbl game_agon = {
    .info = {
        .name = "agon",
        .title = "Agon (Queen's Guard)",
        .num_players = 2,
        .max_moves = AG_MAX_MOVES,
        .max_game_length = AG_MAX_PLIES,
        .state_size = sizeof(Agon),
        .flags = GAME_ZERO_SUM,
        .player_names = ag_players,
        .options = ag_options,
        .default_bot = "alphabeta",
        .notation =
            "Cells have Dagaz's names: 11 columns of hexagons, column\n"
            "letters a a b b c c d d e e f (each letter names two columns),\n"
            "the number the height in half-cells, odd in the odd columns:\n"
            "c1 the bottom corner (White's Queen), c11 the throne, c21 the\n"
            "top corner. A move is the two cells: c1c3; a relocation the\n"
            "captured piece's cell and its new cell; pass when nothing can\n"
            "move. Setup string: the columns from left to right, each from\n"
            "the bottom up, separated by '/': '.' empty, G Guard and Q\n"
            "Queen of White, g q Black's, X Y (x y) a captured White\n"
            "(Black) Guard or Queen waiting to be relocated; then w or b\n"
            "to move, optionally the plies since the last capture and the\n"
            "plies played (the game ends at 2000, a draw).",
        .rules =
            "Agon on a hexagon of 91 cells: the throne c11 and rings 1-5\n"
            "around it. Each side has a Queen and six Guards on the outer\n"
            "ring (Dagaz's setup: White Queen c1, Guards a5 f6 a12 f14 b19\n"
            "d19; Black Queen c21, Guards b3 d3 a8 f10 a16 e17); White moves\n"
            "first. A piece steps to an adjacent empty cell in its own ring\n"
            "or the next ring inward, never outward; only a Queen enters\n"
            "the throne. A piece caught between two enemy pieces on opposite\n"
            "sides of it in a straight line (fivekeys, de.wiki) is captured\n"
            "by the move that closes the trap (ring=same-ring: only when\n"
            "all three stand in one ring, as Board & Pieces; then a piece\n"
            "on the inner ring can never be taken, and one blocker holds\n"
            "the throne for ever): it stays put, inert, and its owner's next\n"
            "turn must move it, Queen first, a Guard to any empty cell of\n"
            "the outer ring, a Queen to any empty cell but the throne\n"
            "(queenzone=outer-ring: the outer ring); one piece a turn. A\n"
            "piece moving between two enemies is captured (enter=suicide;\n"
            "enter=illegal forbids the move, enter=safe lets it be).\n"
            "Relocations neither capture nor are captured. A side wins\n"
            "with its Queen on the throne and its six Guards around it;\n"
            "guardloss=1: a side whose six Guards surround the throne\n"
            "without their Queen on it loses. A side that cannot move\n"
            "passes. Ply's length rule: `length` plies without a capture\n"
            "draw. sametype=1: Dagaz's rule, a move captures only when the\n"
            "piece beyond the victim is of the mover's type. Dagaz's\n"
            "reading is ring=any-line,enter=safe,queenzone=outer-ring,\n"
            "guardloss=0,sametype=1 (but there the capturer places a\n"
            "captured Queen, which Ply does not play).",
    },
    .init = ag_init,
    .to_move = ag_to_move,
    .gen_moves = ag_gen_moves,
    .make = ag_make,
    .returns = ag_returns,
    .hash = ag_hash,
    .to_text = ag_to_text,
    .from_text = ag_from_text,
    .move_to_text = ag_move_to_text,
    .text_to_move = ag_text_to_move,
    .render = ag_render,
    .eval = ag_eval,
    .tuning = &ag_tuning,
    .heuristic = ag_heuristic,
    .is_noisy = ag_is_noisy,
    .check = ag_check,
    .layout = ag_layout,
    .end_reason = ag_end_reason,
};
