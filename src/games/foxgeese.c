/* foxgeese.c — Fox and Geese on the 33-point cross.
 *
 * Points on a 7x7 grid, sq = rank * 7 + file (a1 = 0), valid where the
 * file or the rank is c..e / 3..5. Lines join orthogonal neighbours; with
 * diagonals=1 they also join diagonal neighbours through the points whose
 * file + rank is even (the centre d4 among them). The geese start low
 * (ranks 1-3) and "forward" is up. A move: bits 0-5 the from point, bits
 * 6-10 the number of jumps (0: a step), then 3 bits per step or jump
 * direction.
 *
 * The evaluation is the geese's formation against the fox's room: geese
 * count, how far the flock has advanced, geese the fox can jump now or
 * after one step (no holes behind them), the points the fox can still
 * reach by stepping (its room), and with one goose more than the fox
 * needs to win, how far that flock has advanced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/layout.h"
#include "../core/setup.h"

enum { N = 7, NSQ = 49, MAX_MOVES = 512, MAX_JUMPS = 17, MAX_LEN = 400,
       MAX_PLIES = 5000 };
enum { EMPTY, GOOSE, FOX };
enum { FOXP = 0, GEESEP = 1 };  /* players */
enum { SET13, SET15, SET17, SET17F };
enum { GM_FORWARD, GM_ALL, GM_ORTHO_FORWARD };

typedef struct Fg {
    uint8_t pt[NSQ];
    uint8_t side, over, winner;     /* winner 0 fox, 1 geese, 2 draw */
    uint8_t diag, gmove, multi, must, foxwin, length, setup, first;
    uint16_t quiet, ply;
} Fg;

static const int df[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int dr[8] = {1, -1, 0, 0, 1, 1, -1, -1};   /* N S E W NE NW SE SW */
static const int opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};

static int valid(int f, int r)
{
    return f >= 0 && f < N && r >= 0 && r < N &&
           ((f >= 2 && f <= 4) || (r >= 2 && r <= 4));
}

/* The neighbour of sq along a line in direction d, or -1. */
static int nb(const Fg *g, int sq, int d)
{
    int f = sq % N, r = sq / N;
    if (d >= 4 && (!g->diag || (f + r) % 2))
        return -1;
    f += df[d];
    r += dr[d];
    return valid(f, r) ? r * N + f : -1;
}

static int goose_dir_ok(const Fg *g, int d)
{
    switch (g->gmove) {
    case GM_ALL: return 1;
    case GM_ORTHO_FORWARD: return d == 0 || d == 2 || d == 3;
    default: return dr[d] >= 0;     /* forward or sideways */
    }
}

static int fox_sq(const Fg *g)
{
    for (int i = 0; i < NSQ; i++)
        if (g->pt[i] == FOX)
            return i;
    return -1;
}

static int geese(const Fg *g)
{
    int n = 0;
    for (int i = 0; i < NSQ; i++)
        n += g->pt[i] == GOOSE;
    return n;
}

/* Fox jump chains from sq (the fox lifted), each prefix a move. */
static void jumps(const Fg *g, uint8_t *pt, int from, int sq, int depth,
                  uint64_t dirs, Move *out, int *n)
{
    for (int d = 0; d < 8; d++) {
        int over = nb(g, sq, d);
        if (over < 0 || pt[over] != GOOSE)
            continue;
        int to = nb(g, over, d);
        if (to < 0 || pt[to] != EMPTY)
            continue;
        uint64_t nd = dirs | (uint64_t)d << (11 + 3 * depth);
        if (*n < MAX_MOVES)
            out[(*n)++] = (Move)from | (Move)(depth + 1) << 6 | nd;
        if (!g->multi || depth + 1 >= MAX_JUMPS)
            continue;
        pt[over] = EMPTY;
        jumps(g, pt, from, to, depth + 1, nd, out, n);
        pt[over] = GOOSE;
    }
}

static int gen(const Fg *g, Move *out)
{
    int n = 0;
    if (g->side == FOXP) {
        int f = fox_sq(g);
        if (f < 0)
            return 0;
        uint8_t pt[NSQ];
        memcpy(pt, g->pt, NSQ);
        pt[f] = EMPTY;
        jumps(g, pt, f, f, 0, 0, out, &n);
        if (n && g->must)
            return n;
        for (int d = 0; d < 8; d++) {
            int to = nb(g, f, d);
            if (to >= 0 && g->pt[to] == EMPTY)
                out[n++] = (Move)f | (Move)d << 11;
        }
        return n;
    }
    for (int sq = 0; sq < NSQ; sq++) {
        if (g->pt[sq] != GOOSE)
            continue;
        for (int d = 0; d < 8; d++) {
            if (!goose_dir_ok(g, d))
                continue;
            int to = nb(g, sq, d);
            if (to >= 0 && g->pt[to] == EMPTY)
                out[n++] = (Move)sq | (Move)d << 11;
        }
    }
    return n;
}

static void check_end(Fg *g)
{
    Move mv[MAX_MOVES];
    g->over = 0;
    if (geese(g) <= g->foxwin) {
        g->over = 1;
        g->winner = FOXP;
    } else if (!gen(g, mv)) {
        g->over = 1;
        g->winner = (uint8_t)!g->side;  /* no move loses */
    } else if (g->quiet >= g->length || g->ply >= MAX_PLIES) {
        g->over = 1;
        g->winner = 2;
    }
}

static const char *const setup_choices[] = {"13", "15", "17", "17french",
                                            NULL};
static const char *const gmove_choices[] = {"forward", "all", "orthoforward",
                                            NULL};
static const char *const first_choices[] = {"fox", "geese", NULL};

static const GameOption fg_options[] = {
    {.key = "geese", .type = OPT_CHOICE, .def = SET13,
     .choices = setup_choices, .help =
     "13: a3-g3, c2-e2, c1-e1; 15: also a4, g4; 17: also b4, f4 (British); "
     "17french: also a5, g5; the fox on d4"},
    {.key = "diagonals", .type = OPT_BOOL, .def = 0, .help =
     "lines also run diagonally through the points whose file+rank is "
     "even (Dagaz's board)"},
    {.key = "geesemove", .type = OPT_CHOICE, .def = GM_FORWARD,
     .choices = gmove_choices, .help =
     "forward: forward or sideways along any line, never back; all: any "
     "direction (Dagaz); orthoforward: forward or sideways, orthogonally"},
    {.key = "multijump", .type = OPT_BOOL, .def = 1,
     .help = "the fox may go on jumping in one move (Dagaz: 0)"},
    {.key = "mustjump", .type = OPT_BOOL, .def = 0,
     .help = "the fox must jump when it can"},
    {.key = "first", .type = OPT_CHOICE, .def = 0, .choices = first_choices,
     .help = "who moves first (traditional: the fox; Dagaz: the geese)"},
    {.key = "foxwin", .type = OPT_INT, .def = 5, .min = 0, .max = 12,
     .help = "the fox wins when this many geese or fewer remain"},
    {.key = "length", .type = OPT_INT, .def = 150, .min = 20,
     .max = MAX_LEN, .help =
     "plies without a capture or a goose moving forward that draw"},
    {.key = NULL},
};

static const char *const setups[4] = {
    "3/3/7/3F3/GGGGGGG/GGG/GGG f",
    "3/3/7/G2F2G/GGGGGGG/GGG/GGG f",
    "3/3/7/GG1F1GG/GGGGGGG/GGG/GGG f",
    "3/3/G5G/G2F2G/GGGGGGG/GGG/GGG f",
};

static int fg_from_text(void *st, const char *s, PlyError *err);

static int fg_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Fg *g = st;
    memset(g, 0, sizeof *g);
    g->setup = (uint8_t)opt[0];
    g->diag = (uint8_t)opt[1];
    g->gmove = (uint8_t)opt[2];
    g->multi = (uint8_t)opt[3];
    g->must = (uint8_t)opt[4];
    g->first = (uint8_t)opt[5];
    g->foxwin = (uint8_t)opt[6];
    g->length = (uint8_t)(opt[7] > 255 ? 255 : opt[7]);
    if (fg_from_text(g, setups[g->setup], err))
        return -1;
    g->side = g->first ? GEESEP : FOXP;
    check_end(g);
    return 0;
}

static int fg_to_move(const void *st)
{
    const Fg *g = st;
    return g->over ? PLAYER_TERMINAL : g->side;
}

static int fg_gen_moves(const void *st, Move *out)
{
    const Fg *g = st;
    return g->over ? 0 : gen(g, out);
}

static int move_jumps(Move m) { return (int)(m >> 6 & 31); }
static int move_dir(Move m, int i) { return (int)(m >> (11 + 3 * i) & 7); }

static void fg_make(void *st, Move m)
{
    Fg *g = st;
    int from = (int)(m & 63), k = move_jumps(m), sq = from;
    int progress = 0;
    if (k == 0) {
        int d = move_dir(m, 0);
        sq = nb(g, from, d);
        progress = g->side == GEESEP && dr[d] > 0;
    } else {
        for (int i = 0; i < k; i++) {
            int d = move_dir(m, i), over = nb(g, sq, d);
            g->pt[over] = EMPTY;
            sq = nb(g, over, d);
        }
        progress = 1;
    }
    int piece = g->pt[from];
    g->pt[from] = EMPTY;    /* first: a chain of jumps may end where it began */
    g->pt[sq] = (uint8_t)piece;
    g->quiet = progress ? 0 : (uint16_t)(g->quiet + 1);
    g->ply++;
    g->side = (uint8_t)!g->side;
    check_end(g);
}

static void fg_returns(const void *st, double *out)
{
    const Fg *g = st;
    out[0] = out[1] = 0;
    if (g->over && g->winner < 2) {
        out[g->winner] = 1;
        out[!g->winner] = -1;
    }
}

static uint64_t fg_hash(const void *st)
{
    const Fg *g = st;
    uint64_t h = ply_mix64(g->side + 2u * (g->over != 0) +
                           ((uint64_t)g->quiet << 8));
    for (int i = 0; i < NSQ; i++)
        if (g->pt[i])
            h ^= ply_mix64((uint64_t)i * 4 + g->pt[i] + 0xf0c5);
    return h;
}

/* Setup: ranks 7 down to 1 separated by '/', each listing its points from
 * the left (3 on ranks 1, 2, 6, 7; 7 on ranks 3-5): F fox, G goose,
 * digits for empty points; then f or g to move, and optionally the plies
 * since the last capture or forward goose move. */
static int fg_to_text(const void *st, char *buf, size_t n)
{
    const Fg *g = st;
    char t[80];
    size_t len = 0;
    for (int r = N - 1; r >= 0; r--) {
        char row[N];
        int k = 0;
        for (int f = 0; f < N; f++) {
            if (!valid(f, r))
                continue;
            int p = g->pt[r * N + f];
            row[k++] = !p ? 0 : p == FOX ? 'F' : 'G';
        }
        setup_row(t, &len, row, k);
        if (r)
            t[len++] = '/';
    }
    t[len] = 0;
    int w = g->quiet ? snprintf(buf, n, "%s %c %d", t, g->side ? 'g' : 'f',
                                g->quiet)
                     : snprintf(buf, n, "%s %c", t, g->side ? 'g' : 'f');
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int fg_from_text(void *st, const char *s, PlyError *err)
{
    Fg *g = st, t = *g;
    memset(t.pt, 0, sizeof t.pt);
    int r = N - 1, i = 0, foxes = 0;
    for (; *s && *s != ' '; s++) {
        int first = r >= 2 && r <= 4 ? 0 : 2, count = first ? 3 : 7;
        if (*s == '/') {
            if (i != count)
                return ply_fail(err, "rank %d has %d points, not %d", r + 1,
                                i, count);
            if (--r < 0)
                return ply_fail(err, "more than 7 ranks");
            i = 0;
            continue;
        }
        int cnt = 1, p;
        if (*s >= '1' && *s <= '7') {
            cnt = *s - '0';
            p = EMPTY;
        } else if (*s == 'F' || *s == 'G') {
            p = *s == 'F' ? FOX : GOOSE;
        } else {
            return ply_fail(err, "unknown piece '%c' (F fox, G goose)", *s);
        }
        if (i + cnt > count)
            return ply_fail(err, "rank %d has more than %d points", r + 1,
                            count);
        for (int k = 0; k < cnt; k++)
            t.pt[r * N + first + i++] = (uint8_t)p;
        foxes += p == FOX;
    }
    if (r != 0 || i != 3)
        return ply_fail(err, "expected 7 ranks of points");
    if (foxes != 1)
        return ply_fail(err, "there must be exactly one fox, not %d", foxes);
    if (*s != ' ' || (s[1] != 'f' && s[1] != 'g'))
        return ply_fail(err, "expected ' f' or ' g' (side to move)");
    t.side = s[1] == 'g' ? GEESEP : FOXP;
    s += 2;
    long quiet;
    if (setup_count(&s, t.length, "plies since progress", "option length",
                    &quiet, err))
        return -1;
    if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    t.quiet = (uint16_t)quiet;
    t.ply = 0;
    check_end(&t);
    *g = t;
    return 0;
}

static int put_sq(char *buf, size_t n, size_t at, int sq)
{
    if (at + 3 > n)
        return -1;
    buf[at] = (char)('a' + sq % N);
    buf[at + 1] = (char)('1' + sq / N);
    buf[at + 2] = 0;
    return 0;
}

static int fg_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Fg *g = st;
    int from = (int)(m & 63), k = move_jumps(m), sq = from;
    size_t len = 0;
    if (put_sq(buf, n, len, from))
        return -1;
    len += 2;
    if (k == 0) {
        if (put_sq(buf, n, len, nb(g, from, move_dir(m, 0))))
            return -1;
        return (int)len + 2;
    }
    for (int i = 0; i < k; i++) {
        int d = move_dir(m, i);
        sq = nb(g, nb(g, sq, d), d);
        if (put_sq(buf, n, len, sq))
            return -1;
        len += 2;
    }
    return (int)len;
}

static int fg_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const Fg *g = st;
    if (g->over)
        return ply_fail(err, "the game is over");
    Move mv[MAX_MOVES];
    int n = gen(g, mv);
    char buf[64];
    for (int i = 0; i < n; i++)
        if (fg_move_to_text(g, mv[i], buf, sizeof buf) > 0 &&
            !strcmp(buf, s)) {
            *m = mv[i];
            return 0;
        }
    size_t len = strlen(s);
    if (len < 4 || len % 2 || len > 40)
        return ply_fail(err, "a move is its points, like d4d5 or d4d6f6 "
                        "(jumps), not '%s'", s);
    for (size_t i = 0; i < len; i += 2)
        if (s[i] < 'a' || s[i] > 'g' || s[i + 1] < '1' || s[i + 1] > '7' ||
            !valid(s[i] - 'a', s[i + 1] - '1'))
            return ply_fail(err, "'%.2s' is not a point of the cross",
                            s + i);
    int from = (s[1] - '1') * N + (s[0] - 'a');
    if (g->pt[from] != (g->side == FOXP ? FOX : GOOSE))
        return ply_fail(err, "no %s on %.2s", g->side == FOXP ? "fox"
                        : "goose", s);
    if (g->side == FOXP && g->must && len == 4)
        return ply_fail(err, "%s: the fox must jump (mustjump=1)", s);
    if (g->side == GEESEP)
        return ply_fail(err, "%s: a goose steps along a line to an empty "
                        "neighbour%s", s, g->gmove == GM_ALL ? ""
                        : ", never backwards");
    return ply_fail(err, "%s is not a legal fox move", s);
}

/* The board for a front end: the 33 points on their lines, rank 1 at
 * the bottom as the notation counts (the geese start there), named as
 * the notation writes them ("d4"); the orthogonal lines of the cross and,
 * with diagonals=1, the diagonal segments between the points that have
 * them. The fox "F" (owner 0), the geese plain stones (owner 1). */
static int fg_layout(const void *st, Layout *l)
{
    const Fg *g = st;
    l->width = l->height = N;
    for (int i = 0; i < N; i++) {
        float c = (float)i + 0.5f;
        float lo = i >= 2 && i <= 4 ? 0.5f : 2.5f;
        float hi = i >= 2 && i <= 4 ? 6.5f : 4.5f;
        layout_line(l, lo, c, hi, c);       /* a rank */
        layout_line(l, c, lo, c, hi);       /* a file */
    }
    if (g->diag)
        for (int sq = 0; sq < NSQ; sq++) {
            int f = sq % N, r = sq / N;
            if (!valid(f, r))
                continue;
            for (int d = 4; d <= 5; d++) {  /* NE, NW: each segment once */
                int t = nb(g, sq, d);
                if (t >= 0)
                    layout_line(l, (float)f + 0.5f, (float)(N - 1 - r) + 0.5f,
                                (float)(t % N) + 0.5f,
                                (float)(N - 1 - t / N) + 0.5f);
            }
        }
    for (int r = N - 1; r >= 0; r--)
        for (int f = 0; f < N; f++) {
            if (!valid(f, r))
                continue;
            int p = g->pt[r * N + f];
            char name[3] = {(char)('a' + f), (char)('1' + r), 0};
            LayoutCell *c = layout_cell(l, (float)f + 0.5f,
                                        (float)(N - 1 - r) + 0.5f,
                                        CELL_POINT, SHADE_NONE, name);
            if (!c)
                return -1;
            if (p == FOX) {
                c->owner = FOXP;
                snprintf(c->glyph, sizeof c->glyph, "F");
            } else if (p == GOOSE) {
                c->owner = GEESEP;
                snprintf(c->glyph, sizeof c->glyph, "\u25CF");
            }
        }
    return 0;
}

static int fg_render(const void *st, char *buf, size_t n)
{
    const Fg *g = st;
    size_t len = 0;
    for (int r = N - 1; r >= -1; r--) {
        char line[40];
        size_t k = 0;
        if (r < 0) {
            k = (size_t)snprintf(line, sizeof line, "   a b c d e f g\n");
        } else {
            k = (size_t)snprintf(line, sizeof line, "%d  ", r + 1);
            for (int f = 0; f < N; f++) {
                int p = g->pt[r * N + f];
                line[k++] = !valid(f, r) ? ' ' : p == FOX ? 'F'
                            : p == GOOSE ? 'G' : '.';
                line[k++] = f < N - 1 ? ' ' : '\n';
            }
        }
        if (len + k >= n)
            return -1;
        memcpy(buf + len, line, k);
        len += k;
    }
    int w = snprintf(buf + len, n - len, "%s to move, %d geese\n",
                     g->over ? "nobody" : g->side ? "geese" : "fox",
                     geese(g));
    return w < 0 || (size_t)w >= n - len ? -1 : (int)len + w;
}

/* ---- evaluation, from the geese's side ----
 * A linear form over named features (`ply info fox-and-geese`), tunable
 * with `ply tune` (docs/tuning.md): eval = sum of weight x feature, from
 * the geese's view. */

enum { F_MARGIN, F_ROOM, F_ESCAPED, F_ADVANCE, F_HANG_FOX, F_HANG_GEESE,
       F_EXPOSED, F_FOXMOVES, F_TRAPPED, F_LASTADV, FG_NW };
static const char *const fg_names[FG_NW] = {
    "geese.margin", "fox.room", "fox.escaped", "goose.advance",
    "goose.hanging.foxmove", "goose.hanging.geesemove", "goose.exposed",
    "fox.moves", "fox.trapped", "goose.advance.last",
};
static const int fg_weights[FG_NW] = {220, -12, -4, 6, -160, -50, -25, -8,
                                      500, 45};

/* The features of g from the geese's view; 0 when the fox is gone. */
static int features(const Fg *g, int *f)
{
    memset(f, 0, sizeof(int) * FG_NW);
    int fox = fox_sq(g), ng = geese(g);
    if (fox < 0)
        return 0;
    /* geese above the number that lets the fox win */
    f[F_MARGIN] = ng - g->foxwin;
    /* the fox's room: points it reaches by steps alone */
    uint8_t seen[NSQ] = {0};
    int queue[NSQ], head = 0, tail = 0;
    seen[fox] = 1;
    queue[tail++] = fox;
    int room_rank = 0;
    while (head < tail) {
        int s = queue[head++];
        room_rank += s / N;
        for (int d = 0; d < 8; d++) {
            int to = nb(g, s, d);
            if (to >= 0 && !seen[to] && g->pt[to] == EMPTY) {
                seen[to] = 1;
                queue[tail++] = to;
            }
        }
    }
    f[F_ROOM] = tail;
    /* a fox below the flock has escaped it */
    if (tail > 1)
        f[F_ESCAPED] = N * tail - room_rank - tail;
    /* geese: advance, and those the fox can jump from a point it reaches
     * (now: much worse, more so with the fox to move) */
    for (int sq = 0; sq < NSQ; sq++) {
        if (g->pt[sq] != GOOSE)
            continue;
        f[F_ADVANCE] += sq / N;
        /* the last goose the fox needs: an advanced flock of that many
         * holds out on the top points where no jump reaches, so the fox
         * should take the advanced geese first (docs/greedy-games.md) */
        if (f[F_MARGIN] == 1)
            f[F_LASTADV] += sq / N;
        for (int d = 0; d < 8; d++) {
            int from = nb(g, sq, opposite[d]), to = nb(g, sq, d);
            if (from < 0 || to < 0 || nb(g, from, d) != sq)
                continue;
            if (g->pt[to] != EMPTY && to != fox)
                continue;
            if (from == fox)
                f[g->side == FOXP ? F_HANG_FOX : F_HANG_GEESE]++;
            else if (seen[from])
                f[F_EXPOSED]++;
        }
    }
    /* the fox's moves now */
    Move mv[MAX_MOVES];
    Fg t = *g;
    t.side = FOXP;
    int nm = gen(&t, mv);
    f[F_FOXMOVES] = nm;
    f[F_TRAPPED] = nm == 0;
    return 1;
}

static int geese_view(const Fg *g)
{
    int f[FG_NW], v = 0;
    if (!features(g, f))
        return 0;
    for (int i = 0; i < FG_NW; i++)
        v += fg_weights[i] * f[i];
    return v;
}

static int fg_eval(const void *st, int player)
{
    int v = geese_view(st);
    return player == GEESEP ? v : -v;
}

/* The terms from player 0's view (the fox's): the geese's features,
 * negated. */
static int fg_terms(const void *st, EvalTerm *out, double *base)
{
    int f[FG_NW], n = 0;
    *base = 0;
    if (!features(st, f))
        return 0;
    for (int i = 0; i < FG_NW; i++)
        if (f[i])
            out[n++] = (EvalTerm){.index = i, .coef = (float)-f[i]};
    return n;
}

static const EvalTuning fg_tuning = {
    .nparams = FG_NW, .names = fg_names, .weights = fg_weights,
    .terms = fg_terms,
};

static int fg_heuristic(const void *st, Move m)
{
    const Fg *g = st;
    int k = move_jumps(m);
    if (k)
        return 1000 + 100 * k;
    int d = move_dir(m, 0);
    if (g->side == GEESEP)
        return 10 + 5 * dr[d];
    return 0;
}

static int fg_is_noisy(const void *st, Move m)
{
    (void)st;
    return move_jumps(m) > 0;
}

static int fg_score(const void *st, int player)
{
    const Fg *g = st;
    return player == GEESEP ? geese(g) : 0;
}

static int fg_check(const void *st)
{
    const Fg *g = st;
    int foxes = 0;
    for (int i = 0; i < NSQ; i++) {
        if (g->pt[i] > FOX || (g->pt[i] && !valid(i % N, i / N)))
            return -1;
        foxes += g->pt[i] == FOX;
    }
    return foxes == 1 && g->side <= 1 ? 0 : -1;
}

static const char *const fg_players[] = {"Fox", "Geese"};

const GameVtbl game_fox_and_geese = {
    .info = {
        .name = "fox-and-geese",
        .title = "Fox and Geese (33-point cross)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Fg),
        .flags = GAME_ZERO_SUM,
        .player_names = fg_players,
        .options = fg_options,
        .default_bot = "alphabeta",
        .notation =
            "A move lists its points, files a-g and ranks 1-7 from the\n"
            "geese's side: a step d4d5, a fox's jumps d4d6f6 (each landing\n"
            "point). Setup string: ranks 7 down to 1 separated by '/', each\n"
            "rank's points from the left (3 on ranks 1, 2, 6, 7; 7 on ranks\n"
            "3-5), F fox, G goose, digits for empty points; then f or g to\n"
            "move and optionally the plies since the last progress:\n"
            "3/3/7/3F3/GGGGGGG/GGG/GGG f.",
        .rules =
            "Fox and Geese on the 33-point cross. The fox starts on d4, the\n"
            "geese on ranks 1-3 (geese=13), also a4 g4 (15), b4 f4 (17,\n"
            "British) or a4 g4 a5 g5 (17french). Lines join neighbouring\n"
            "points orthogonally; diagonals=1 adds diagonals through the\n"
            "points whose file+rank is even (Dagaz's board). A goose steps\n"
            "along a line to an empty point, forward or sideways\n"
            "(geesemove=forward, default), any way (all, Dagaz) or only\n"
            "orthogonally (orthoforward, the 17-geese tradition). The fox\n"
            "steps, or jumps a goose next to it along a line to the empty\n"
            "point beyond and removes it; with multijump=1 (default) it may\n"
            "go on jumping in the same move and stop after any jump\n"
            "(Dagaz: 0); mustjump=1 makes jumping compulsory. The fox moves\n"
            "first (first=fox; Dagaz: geese). The geese win when the fox\n"
            "cannot move; the fox wins when foxwin (default 5) geese or\n"
            "fewer remain, or when the geese cannot move. Ply's length rule:\n"
            "`length` plies (default 150) without a capture or a goose\n"
            "moving forward draw.",
    },
    .init = fg_init,
    .to_move = fg_to_move,
    .gen_moves = fg_gen_moves,
    .make = fg_make,
    .returns = fg_returns,
    .hash = fg_hash,
    .to_text = fg_to_text,
    .from_text = fg_from_text,
    .move_to_text = fg_move_to_text,
    .text_to_move = fg_text_to_move,
    .render = fg_render,
    .layout = fg_layout,
    .eval = fg_eval,
    .tuning = &fg_tuning,
    .heuristic = fg_heuristic,
    .is_noisy = fg_is_noisy,
    .score = fg_score,
    .check = fg_check,
};
