/* jungle.c — Jungle (Dou Shou Qi, animal chess): 7 files x 9 ranks, dens,
 * traps, two rivers; the rat swims and takes the elephant, lion and tiger
 * jump the rivers unless a rat is in the way.
 *
 * Squares: sq = rank * 7 + file, a1 = 0, g9 = 62. White starts on ranks
 * 1-3 and owns the den d1 and the traps c1, d2, e1; Black the mirror.
 * Pieces are their rank 1..8 (rat, cat, wolf, dog, leopard, tiger, lion,
 * elephant), +8 for Black; 0 is empty. A move is from * 64 + to.
 *
 * The evaluation counts material, the way to the enemy den, and the chain
 * of threats: for every pair of pieces where one can take the other, the
 * shortest path between them over the terrain that piece may cross, with
 * the parity of that path deciding who strikes first when both can take
 * each other; so an exchange some moves away shows in the static value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/setup.h"

enum { W = 7, H = 9, NSQ = W * H, MAX_MOVES = 64, MAX_LENGTH = 400,
       MAX_PLIES = 2000 };
enum { RAT = 1, CAT, WOLF, DOG, LEOPARD, TIGER, LION, ELEPHANT };
enum { DEN0 = 3, DEN1 = 8 * W + 3 };
enum { END_NONE, END_DEN, END_WIPED, END_STUCK, END_LENGTH };

typedef struct Jungle {
    uint8_t board[NSQ];
    uint8_t side, over, winner;  /* winner: 0, 1, or 2 for a draw */
    uint8_t tiger7, leapjump, length, first;
    uint16_t quiet, ply;
} Jungle;

static const char piece_chars[] = ".RCWDPTLE";

static int colour(int p) { return p > 8; }
static int kind(int p) { return p > 8 ? p - 8 : p; }
static int file_of(int sq) { return sq % W; }
static int rank_of(int sq) { return sq / W; }

static int is_water(int sq)
{
    int f = file_of(sq), r = rank_of(sq);
    return r >= 3 && r <= 5 && (f == 1 || f == 2 || f == 4 || f == 5);
}

static int den_of(int side) { return side ? DEN1 : DEN0; }

/* the traps around side's den: pieces of the other side lose their rank */
static int trap_owner(int sq)
{
    if (sq == 2 || sq == 4 || sq == W + 3)
        return 0;
    if (sq == 8 * W + 2 || sq == 8 * W + 4 || sq == 7 * W + 3)
        return 1;
    return -1;
}

static int power(const Jungle *j, int k)
{
    return k == TIGER && j->tiger7 ? 7 : k;
}

/* Can piece a (on from) take piece b (on to)? */
static int can_take(const Jungle *j, int a, int from, int b, int to)
{
    int ka = kind(a), kb = kind(b);
    if (is_water(from) != is_water(to))
        return 0;   /* rats only: never between water and land */
    if (trap_owner(to) == colour(a))
        return 1;   /* b stands in a's trap: any piece takes it */
    if (ka == RAT && kb == ELEPHANT)
        return 1;
    if (ka == ELEPHANT && kb == RAT)
        return 0;
    return power(j, ka) >= power(j, kb);
}

static const int dfile[4] = {0, 0, 1, -1}, drank[4] = {1, -1, 0, 0};

/* The square a piece of kind k reaches from sq in direction d, walking or
 * jumping (ignoring what stands there); -1 when none. */
static int step(const Jungle *j, int k, int sq, int d)
{
    int f = file_of(sq) + dfile[d], r = rank_of(sq) + drank[d];
    if (f < 0 || f >= W || r < 0 || r >= H)
        return -1;
    int to = r * W + f;
    if (!is_water(to))
        return to;
    if (k == RAT)
        return to;
    int jumper = k == LION || k == TIGER || (k == LEOPARD && j->leapjump &&
                                             drank[d] == 0);
    if (!jumper)
        return -1;
    while (is_water(to)) {
        if (j->board[to])
            return -1;  /* a rat in the water blocks the jump */
        f += dfile[d];
        r += drank[d];
        to = r * W + f;
    }
    return to;
}

static int gen(const Jungle *j, Move *out)
{
    int n = 0, me = j->side;
    for (int sq = 0; sq < NSQ; sq++) {
        int p = j->board[sq];
        if (!p || colour(p) != me)
            continue;
        for (int d = 0; d < 4; d++) {
            int to = step(j, kind(p), sq, d);
            if (to < 0 || to == den_of(me))
                continue;
            int q = j->board[to];
            if (q && (colour(q) == me || !can_take(j, p, sq, q, to)))
                continue;
            out[n++] = (Move)(sq * 64 + to);
        }
    }
    return n;
}

static int count_side(const Jungle *j, int side)
{
    int n = 0;
    for (int sq = 0; sq < NSQ; sq++)
        n += j->board[sq] && colour(j->board[sq]) == side;
    return n;
}

static void check_end(Jungle *j)
{
    j->over = END_NONE;
    for (int s = 0; s < 2; s++)
        if (j->board[den_of(!s)] && colour(j->board[den_of(!s)]) == s) {
            j->over = END_DEN;
            j->winner = (uint8_t)s;
            return;
        }
    for (int s = 0; s < 2; s++)
        if (!count_side(j, s)) {
            j->over = END_WIPED;
            j->winner = (uint8_t)!s;
            return;
        }
    Move mv[MAX_MOVES];
    if (!gen(j, mv)) {
        j->over = END_STUCK;
        j->winner = (uint8_t)!j->side;
        return;
    }
    if (j->quiet >= j->length || j->ply >= MAX_PLIES) {
        j->over = END_LENGTH;
        j->winner = 2;
    }
}

static const char *const first_choices[] = {"white", "black", NULL};

static const GameOption jungle_options[] = {
    {.key = "first", .type = OPT_CHOICE, .def = 0, .choices = first_choices,
     .help = "who moves first (the sources disagree)"},
    {.key = "tiger7", .type = OPT_BOOL, .def = 0, .help =
     "Dagaz: the tiger has the lion's rank 7, so they take each other"},
    {.key = "leopardjump", .type = OPT_BOOL, .def = 0, .help =
     "Dagaz: the leopard jumps the rivers sideways (east-west)"},
    {.key = "length", .type = OPT_INT, .def = 100, .min = 10,
     .max = MAX_LENGTH, .help = "plies without a capture that draw the game"},
    {.key = NULL},
};

static const char *const start =
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w";

static int jungle_from_text(void *st, const char *s, PlyError *err);

static int jungle_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Jungle *j = st;
    memset(j, 0, sizeof *j);
    j->first = (uint8_t)opt[0];
    j->tiger7 = (uint8_t)opt[1];
    j->leapjump = (uint8_t)opt[2];
    j->length = (uint8_t)opt[3];
    if (jungle_from_text(j, start, err))
        return -1;
    j->side = j->first;
    return 0;
}

static int jungle_to_move(const void *st)
{
    const Jungle *j = st;
    return j->over ? PLAYER_TERMINAL : j->side;
}

static int jungle_gen_moves(const void *st, Move *out)
{
    const Jungle *j = st;
    return j->over ? 0 : gen(j, out);
}

static void jungle_make(void *st, Move m)
{
    Jungle *j = st;
    int from = (int)(m / 64), to = (int)(m % 64);
    int took = j->board[to] != 0;
    j->board[to] = j->board[from];
    j->board[from] = 0;
    j->quiet = took ? 0 : (uint16_t)(j->quiet + 1);
    j->ply++;
    j->side = (uint8_t)!j->side;
    check_end(j);
}

static void jungle_returns(const void *st, double *out)
{
    const Jungle *j = st;
    out[0] = out[1] = 0;
    if (j->over && j->winner < 2) {
        out[j->winner] = 1;
        out[!j->winner] = -1;
    }
}

static uint64_t jungle_hash(const void *st)
{
    const Jungle *j = st;
    uint64_t h = ply_mix64(j->side + 2u * (j->over != 0) +
                           ((uint64_t)j->quiet << 8));
    for (int sq = 0; sq < NSQ; sq++)
        if (j->board[sq])
            h ^= ply_mix64((uint64_t)sq * 32 + j->board[sq] + 0x51ed);
    return h;
}

/* Setup: ranks 9 down to 1 separated by '/', digits for empty squares,
 * RCWDPTLE for White and rcwdptle for Black, then w or b to move and an
 * optional count of plies since the last capture. */
static int jungle_to_text(const void *st, char *buf, size_t n)
{
    const Jungle *j = st;
    char tmp[160];
    size_t len = 0;
    for (int r = H - 1; r >= 0; r--) {
        char row[W];
        for (int f = 0; f < W; f++) {
            int p = j->board[r * W + f];
            char c = p ? piece_chars[kind(p)] : 0;
            row[f] = p && colour(p) ? (char)(c - 'A' + 'a') : c;
        }
        setup_row(tmp, &len, row, W);
        if (r)
            tmp[len++] = '/';
    }
    tmp[len] = 0;
    int w = j->quiet ? snprintf(buf, n, "%s %c %d", tmp, j->side ? 'b' : 'w',
                                j->quiet)
                     : snprintf(buf, n, "%s %c", tmp, j->side ? 'b' : 'w');
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int jungle_from_text(void *st, const char *s, PlyError *err)
{
    Jungle *j = st, t = *j;
    memset(t.board, 0, sizeof t.board);
    int r = H - 1, f = 0, seen[2][9] = {{0}};
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (f != W)
                return ply_fail(err, "rank %d has %d squares, not 7", r + 1,
                                f);
            if (--r < 0)
                return ply_fail(err, "more than 9 ranks");
            f = 0;
        } else if (*s >= '1' && *s <= '7') {
            f += *s - '0';
            if (f > W)
                return ply_fail(err, "rank %d has more than 7 squares",
                                r + 1);
        } else {
            const char *c = strchr(piece_chars + 1,
                                   *s >= 'a' ? *s - 'a' + 'A' : *s);
            if (!c || !*s)
                return ply_fail(err, "unknown piece '%c' (RCWDPTLE, "
                                "lowercase for Black)", *s);
            if (f >= W)
                return ply_fail(err, "rank %d has more than 7 squares",
                                r + 1);
            int k = (int)(c - piece_chars), black = *s >= 'a';
            int sq = r * W + f;
            if (seen[black][k]++)
                return ply_fail(err, "two %c pieces", *s);
            if (is_water(sq) && k != RAT)
                return ply_fail(err, "only a rat may stand in the water "
                                "(%c%d)", 'a' + f, r + 1);
            if (sq == den_of(black))
                return ply_fail(err, "a piece in its own den (%c%d)",
                                'a' + f, r + 1);
            t.board[sq] = (uint8_t)(k + 8 * black);
            f++;
        }
    }
    if (r != 0 || f != W)
        return ply_fail(err, "expected 9 ranks of 7 squares");
    if (*s != ' ' || (s[1] != 'w' && s[1] != 'b'))
        return ply_fail(err, "expected ' w' or ' b' (side to move)");
    t.side = s[1] == 'b';
    s += 2;
    long quiet;
    if (setup_count(&s, t.length, "plies since a capture", "option length",
                    &quiet, err))
        return -1;
    if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    t.quiet = (uint16_t)quiet;
    t.ply = 0;
    check_end(&t);
    *j = t;
    return 0;
}

static int jungle_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    int from = (int)(m / 64), to = (int)(m % 64);
    int w = snprintf(buf, n, "%c%d%c%d", 'a' + file_of(from),
                     rank_of(from) + 1, 'a' + file_of(to), rank_of(to) + 1);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int parse_sq(const char *s)
{
    if (s[0] < 'a' || s[0] > 'g' || s[1] < '1' || s[1] > '9')
        return -1;
    return (s[1] - '1') * W + (s[0] - 'a');
}

static int jungle_text_to_move(const void *st, const char *s, Move *m,
                               PlyError *err)
{
    const Jungle *j = st;
    if (j->over)
        return ply_fail(err, "the game is over");
    if (strlen(s) != 4 || parse_sq(s) < 0 || parse_sq(s + 2) < 0)
        return ply_fail(err, "a jungle move is two squares a1..g9, like "
                        "g3g4, not '%s'", s);
    int from = parse_sq(s), to = parse_sq(s + 2);
    int p = j->board[from];
    if (!p || colour(p) != j->side)
        return ply_fail(err, "no piece of the side to move on %.2s", s);
    Move mv[MAX_MOVES];
    int n = gen(j, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == (Move)(from * 64 + to)) {
            *m = mv[i];
            return 0;
        }
    if (to == den_of(j->side))
        return ply_fail(err, "%s: no piece may enter its own den", s);
    if (is_water(to) && kind(p) != RAT)
        return ply_fail(err, "%s: only the rat enters the water", s);
    if (j->board[to] && colour(j->board[to]) != j->side)
        return ply_fail(err, "%s: that piece cannot take the one on %.2s", s,
                        s + 2);
    return ply_fail(err, "%s is not a legal move", s);
}

/* The board for a front end: 7x9 squares, rank 1 (White) at the bottom,
 * named as the notation writes them ("d1"); water shaded special, traps
 * and dens dark with a small label while empty; the pieces as their
 * Chinese names (rat .. elephant), owner 0 White. */
static int jungle_layout(const void *st, Layout *l)
{
    static const char *const glyph[9] = {
        "", "\u9F20", "\u732B", "\u72FC", "\u72D7", "\u8C79", "\u864E",
        "\u72EE", "\u8C61"};
    const Jungle *j = st;
    l->width = W;
    l->height = H;
    for (int r = H - 1; r >= 0; r--)
        for (int f = 0; f < W; f++) {
            int sq = r * W + f, p = j->board[sq];
            char name[3] = {(char)('a' + f), (char)('1' + r), 0};
            int den = sq == DEN0 || sq == DEN1, trap = trap_owner(sq) >= 0;
            int shade = is_water(sq) ? SHADE_SPECIAL
                        : den || trap ? SHADE_DARK : SHADE_LIGHT;
            LayoutCell *c = layout_cell(l, (float)f + 0.5f,
                                        (float)(H - 1 - r) + 0.5f,
                                        CELL_SQUARE, shade, name);
            if (!c)
                return -1;
            if (p) {
                c->owner = (int8_t)colour(p);
                snprintf(c->glyph, sizeof c->glyph, "%s", glyph[kind(p)]);
            } else if (den || trap) {
                snprintf(c->label, sizeof c->label, "%s",
                         den ? "den" : "trap");
            }
        }
    return 0;
}

static int jungle_render(const void *st, char *buf, size_t n)
{
    const Jungle *j = st;
    size_t len = 0;
    for (int r = H - 1; r >= -1; r--) {
        char line[64];
        size_t k = 0;
        if (r < 0) {
            k = (size_t)snprintf(line, sizeof line, "   a b c d e f g\n");
        } else {
            k = (size_t)snprintf(line, sizeof line, "%d  ", r + 1);
            for (int f = 0; f < W; f++) {
                int sq = r * W + f, p = j->board[sq];
                char c = '.';
                if (p) {
                    c = piece_chars[kind(p)];
                    if (colour(p))
                        c = (char)(c - 'A' + 'a');
                } else if (is_water(sq)) {
                    c = '~';
                } else if (sq == DEN0 || sq == DEN1) {
                    c = '@';
                } else if (trap_owner(sq) >= 0) {
                    c = '#';
                }
                line[k++] = c;
                line[k++] = f < W - 1 ? ' ' : '\n';
            }
        }
        if (len + k >= n)
            return -1;
        memcpy(buf + len, line, k);
        len += k;
    }
    int w = snprintf(buf + len, n - len, "%s to move, %d plies without a "
                     "capture\n", j->over ? "nobody" : j->side ? "Black"
                     : "White", j->quiet);
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)len + w;
}

/* ---- evaluation ----
 * Material, each piece's shortest way to the enemy den (the chain
 * heuristic: what a slow piece threatens beyond the horizon), and the
 * best threat on each piece by its distance from the attacker. A linear
 * form over named weights (`ply info jungle`), tunable with `ply tune`
 * (docs/tuning.md): each side's features, weighted, the player's less
 * the opponent's. The weights of the threats began as the piece's value
 * times 300, 150, 80, 40, 20, 10, 5 per mille by distance 1..7. */
enum { J_VALUE = 0, J_DEN = 8, J_THREAT = 24, J_NW = 24 + 8 * 7 };
static const char *const jungle_names[J_NW] = {
    "rat", "cat", "wolf", "dog", "panther", "tiger", "lion", "elephant",
    "den.d0", "den.d1", "den.d2", "den.d3", "den.d4", "den.d5", "den.d6",
    "den.d7", "den.d8", "den.d9", "den.d10", "den.d11", "den.d12", "den.d13",
    "den.d14", "den.d15", "threat.rat.d1", "threat.rat.d2", "threat.rat.d3",
    "threat.rat.d4", "threat.rat.d5", "threat.rat.d6", "threat.rat.d7",
    "threat.cat.d1", "threat.cat.d2", "threat.cat.d3", "threat.cat.d4",
    "threat.cat.d5", "threat.cat.d6", "threat.cat.d7", "threat.wolf.d1",
    "threat.wolf.d2", "threat.wolf.d3", "threat.wolf.d4", "threat.wolf.d5",
    "threat.wolf.d6", "threat.wolf.d7", "threat.dog.d1", "threat.dog.d2",
    "threat.dog.d3", "threat.dog.d4", "threat.dog.d5", "threat.dog.d6",
    "threat.dog.d7", "threat.panther.d1", "threat.panther.d2",
    "threat.panther.d3", "threat.panther.d4", "threat.panther.d5",
    "threat.panther.d6", "threat.panther.d7", "threat.tiger.d1",
    "threat.tiger.d2", "threat.tiger.d3", "threat.tiger.d4",
    "threat.tiger.d5", "threat.tiger.d6", "threat.tiger.d7",
    "threat.lion.d1", "threat.lion.d2", "threat.lion.d3", "threat.lion.d4",
    "threat.lion.d5", "threat.lion.d6", "threat.lion.d7",
    "threat.elephant.d1", "threat.elephant.d2", "threat.elephant.d3",
    "threat.elephant.d4", "threat.elephant.d5", "threat.elephant.d6",
    "threat.elephant.d7",
};
static const int jungle_weights[J_NW] = {
    450, 200, 300, 350, 550, 800, 900, 1000,    /* rat .. elephant */
    /* a piece d steps from the enemy den, d = 0..15 (15: or further) */
    0, 400, 160, 90, 55, 35, 22, 14, 9, 6, 4, 2, 1, 0, 0, 0,
    /* a threat on a piece of each kind from 1..7 steps away */
    135, 67, 36, 18, 9, 4, 2,
    60, 30, 16, 8, 4, 2, 1,
    90, 45, 24, 12, 6, 3, 1,
    105, 52, 28, 14, 7, 3, 1,
    165, 82, 44, 22, 11, 5, 2,
    240, 120, 64, 32, 16, 8, 4,
    270, 135, 72, 36, 18, 9, 4,
    300, 150, 80, 40, 20, 10, 5,
};
/* Shortest paths over the terrain a piece of kind k of `side` may cross
 * (water, jumps, never its own den), from sq; other pieces ignored except
 * rats in the way of a jump. */
static void paths(const Jungle *j, int k, int side, int sq, uint8_t *dist)
{
    int queue[NSQ], head = 0, tail = 0;
    memset(dist, 255, NSQ);
    dist[sq] = 0;
    queue[tail++] = sq;
    while (head < tail) {
        int s = queue[head++];
        for (int d = 0; d < 4; d++) {
            int to = step(j, k, s, d);
            if (to < 0 || to == den_of(side) || dist[to] != 255)
                continue;
            dist[to] = (uint8_t)(dist[s] + 1);
            queue[tail++] = to;
        }
    }
}

/* The weight each side's features count: f[side][weight]. */
static void jungle_features(const Jungle *j, int f[2][J_NW])
{
    int sqs[16], np = 0;
    uint8_t dist[16][NSQ];
    memset(f, 0, sizeof(int) * 2 * J_NW);
    for (int sq = 0; sq < NSQ; sq++)
        if (j->board[sq]) {
            int p = j->board[sq], s = colour(p);
            sqs[np] = sq;
            paths(j, kind(p), s, sq, dist[np]);
            f[s][J_VALUE + kind(p) - 1]++;
            int d = dist[np][den_of(!s)];
            f[s][J_DEN + (d < 15 ? d : 15)]++;
            np++;
        }
    /* threats: the best threat on each piece */
    for (int b = 0; b < np; b++) {
        int pb = j->board[sqs[b]], sb = colour(pb), best = 0, at = -1;
        for (int a = 0; a < np; a++) {
            int pa = j->board[sqs[a]];
            if (colour(pa) == sb)
                continue;
            int d = dist[a][sqs[b]];
            if (d == 0 || d >= 8 || !can_take(j, pa, sqs[a], pb, sqs[b]))
                continue;
            /* if b can take a as well, the one who arrives first wins:
             * the attacker strikes first when it moves at odd distance */
            if (can_take(j, pb, sqs[b], pa, sqs[a])) {
                int mover_is_a = j->side == colour(pa);
                if ((d % 2 == 1) != mover_is_a)
                    continue;
            }
            int w = J_THREAT + 7 * (kind(pb) - 1) + d - 1;
            if (jungle_weights[w] > best) {
                best = jungle_weights[w];
                at = w;
            }
        }
        if (at >= 0)
            f[!sb][at]++;
    }
}

static int jungle_eval(const void *st, int player)
{
    int f[2][J_NW];
    jungle_features(st, f);
    return evalform_value(jungle_weights, f[player], f[!player], J_NW);
}

/* The terms from player 0's view. */
static int jungle_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][J_NW];
    *base = 0;
    jungle_features(st, f);
    return evalform_terms(f[0], f[1], J_NW, out);
}

static const EvalTuning jungle_tuning = {
    .nparams = J_NW, .names = jungle_names, .weights = jungle_weights,
    .terms = jungle_terms,
};

static int jungle_heuristic(const void *st, Move m)
{
    const Jungle *j = st;
    int from = (int)(m / 64), to = (int)(m % 64);
    if (to == den_of(!j->side))
        return 100000;
    int q = j->board[to];
    if (q)
        return 10000 + 10 * jungle_weights[J_VALUE + kind(q) - 1] -
               kind(j->board[from]);
    /* towards the enemy den */
    int df = abs(file_of(to) - 3) - abs(file_of(from) - 3);
    int dr = j->side ? rank_of(to) - rank_of(from)
                     : rank_of(from) - rank_of(to);
    return 10 - df + dr * 2;
}

static int jungle_is_noisy(const void *st, Move m)
{
    const Jungle *j = st;
    int to = (int)(m % 64);
    return j->board[to] != 0 || to == den_of(!j->side);
}

static int jungle_score(const void *st, int player)
{
    return count_side(st, player);
}

static int jungle_check(const void *st)
{
    const Jungle *j = st;
    if (j->side > 1)
        return -1;
    for (int sq = 0; sq < NSQ; sq++)
        if (j->board[sq] > 16 || (is_water(sq) && j->board[sq] &&
                                  kind(j->board[sq]) != RAT))
            return -1;
    return 0;
}

static const char *const jungle_players[] = {"White", "Black"};

const GameVtbl game_jungle = {
    .info = {
        .name = "jungle",
        .title = "Jungle (Dou Shou Qi)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Jungle),
        .flags = GAME_ZERO_SUM,
        .player_names = jungle_players,
        .options = jungle_options,
        .default_bot = "alphabeta",
        .notation =
            "A move is the from and to squares, files a-g, ranks 1-9 from\n"
            "White's side: g3g4; a jump over a river the same: c3c7.\n"
            "Setup string: ranks 9 down to 1 separated by '/', digits for\n"
            "empty squares, R rat, C cat, W wolf, D dog, P leopard, T tiger,\n"
            "L lion, E elephant (lowercase Black), then w or b to move and\n"
            "optionally the plies since the last capture:\n"
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w.",
        .rules =
            "Jungle (Dou Shou Qi) on 7x9 squares. White's den is d1, its\n"
            "traps c1, d2, e1; Black's den d9, traps c9, d8, e9; the rivers\n"
            "are b4-c6 and e4-f6. Ranks: elephant 8, lion 7, tiger 6,\n"
            "leopard 5, dog 4 (starts f2/b8), wolf 3 (c3/e7), cat 2, rat 1.\n"
            "Every piece steps one square orthogonally and never enters its\n"
            "own den; only the rat enters the water. Lion and tiger jump a\n"
            "river in a straight line to the first land square beyond,\n"
            "unless a rat (of either side) is in the water on the way. A\n"
            "piece takes an enemy of equal or lower rank; the rat takes the\n"
            "elephant, the elephant never takes the rat; no capture between\n"
            "water and land (rats: only both in the water or both on land).\n"
            "A piece in one of its enemy's traps can be taken by any enemy\n"
            "piece (this overrides the elephant-rat rule). A player wins by\n"
            "entering the enemy den or taking every enemy piece; a player\n"
            "without a legal move loses (Ply's choice: the sources are\n"
            "silent). Ply's length rule: `length` plies (default 100)\n"
            "without a capture draw. Options: first=white|black; Dagaz's\n"
            "deviations tiger7 (tiger ranks 7 like the lion) and\n"
            "leopardjump (the leopard jumps the rivers east-west).",
    },
    .init = jungle_init,
    .to_move = jungle_to_move,
    .gen_moves = jungle_gen_moves,
    .make = jungle_make,
    .returns = jungle_returns,
    .hash = jungle_hash,
    .to_text = jungle_to_text,
    .from_text = jungle_from_text,
    .move_to_text = jungle_move_to_text,
    .text_to_move = jungle_text_to_move,
    .render = jungle_render,
    .layout = jungle_layout,
    .eval = jungle_eval,
    .tuning = &jungle_tuning,
    .heuristic = jungle_heuristic,
    .is_noisy = jungle_is_noisy,
    .score = jungle_score,
    .check = jungle_check,
};
