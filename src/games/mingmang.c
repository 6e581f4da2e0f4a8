/* mingmang.c — Ming-Mang (Mig mang), the Tibetan game of converting
 * stones: on a square board each side starts on two adjacent edges;
 * stones slide like rooks, and enemy stones shut in along a line between
 * the moved stone and a friendly one turn to the mover's colour.
 *
 * Points: sq = row * size + col, a1 = 0 (bottom left). Contents: 0 empty,
 * 1 Black, 2 White. Black (player 0) starts on the bottom row and the
 * right edge up to the point below the top right corner; White on the
 * left edge from a2 and the top row (Dagaz's 9x9 orientation, the old
 * Wikipedia 8x8 diagram turned over); Black moves first. A move is
 * from * 512 + to.
 *
 * The game has no natural bound (stones slide back and forth), so Ply
 * ends it after `length` plies without a conversion: a draw, or under
 * goal=territory a win for the larger area (stones plus the empty points
 * only its stones enclose), as the old Wikipedia article scores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/setup.h"

enum { MM_MAXS = 19, MM_MAXN = MM_MAXS * MM_MAXS, MM_MAX_MOVES = 2048,
       MM_MAX_PLIES = 1500, MM_MAXLEN = 400 };
enum { END_NONE, END_NOMOVE, END_LENGTH };
enum { GOAL_ELIMINATE, GOAL_TERRITORY };

typedef struct MingMang {
    uint8_t cell[MM_MAXN];
    uint8_t size, goal, lcap, side, over, winner;   /* winner 2: draw */
    uint16_t length, quiet, ply;
    uint16_t count[2];
} MingMang;

static const int DR[4] = {1, -1, 0, 0}, DC[4] = {0, 0, 1, -1};

static int on_board(const MingMang *m, int r, int c)
{
    return r >= 0 && r < m->size && c >= 0 && c < m->size;
}

/* The enemy stones a stone of `me` arriving on `to` converts, written to
 * out (may be NULL); returns their count. Straight lines in the four
 * directions; with lcap (Dagaz), also a path that runs along enemy stones,
 * turns once by 90 degrees at the second or a later one, and runs on along
 * enemy stones to a friendly stone. A point is counted once. */
static int conversions(const MingMang *m, int to, int me, int *out)
{
    int s = m->size, n = 0, r0 = to / s, c0 = to % s;
    int mine = 1 + me, theirs = 2 - me;
    uint8_t seen[MM_MAXN];
    int line[MM_MAXS], path[MM_MAXS];
    if (m->lcap)
        memset(seen, 0, (size_t)(s * s));
    for (int d = 0; d < 4; d++) {
        int k = 0, r = r0 + DR[d], c = c0 + DC[d];
        while (on_board(m, r, c) && m->cell[r * s + c] == theirs) {
            line[k++] = r * s + c;
            r += DR[d];
            c += DC[d];
        }
        if (!k)
            continue;
        int closed = on_board(m, r, c) && m->cell[r * s + c] == mine;
        if (!m->lcap) {
            if (closed) {
                for (int i = 0; i < k; i++)
                    if (out)
                        out[n + i] = line[i];
                n += k;
            }
            continue;
        }
        if (closed)
            for (int i = 0; i < k; i++)
                if (!seen[line[i]]) {
                    seen[line[i]] = 1;
                    if (out)
                        out[n] = line[i];
                    n++;
                }
        /* turns at the second or a later stone of the run */
        for (int t = 1; t < k; t++) {
            int tr = line[t] / s, tc = line[t] % s;
            for (int e = 0; e < 4; e++) {
                if (DR[e] == DR[d] || DR[e] == -DR[d])
                    if (DC[e] == DC[d] || DC[e] == -DC[d])
                        continue;       /* not a right angle */
                int j = 0, rr = tr + DR[e], cc = tc + DC[e];
                while (on_board(m, rr, cc) && m->cell[rr * s + cc] == theirs) {
                    path[j++] = rr * s + cc;
                    rr += DR[e];
                    cc += DC[e];
                }
                if (!j || !on_board(m, rr, cc) ||
                    m->cell[rr * s + cc] != mine)
                    continue;
                for (int i = 0; i <= t; i++)
                    if (!seen[line[i]]) {
                        seen[line[i]] = 1;
                        if (out)
                            out[n] = line[i];
                        n++;
                    }
                for (int i = 0; i < j; i++)
                    if (!seen[path[i]]) {
                        seen[path[i]] = 1;
                        if (out)
                            out[n] = path[i];
                        n++;
                    }
            }
        }
    }
    return n;
}

static int gen(const MingMang *m, Move *out)
{
    int s = m->size, n = 0, mine = 1 + m->side;
    for (int i = 0; i < s * s; i++) {
        if (m->cell[i] != mine)
            continue;
        int r0 = i / s, c0 = i % s;
        for (int d = 0; d < 4; d++)
            for (int r = r0 + DR[d], c = c0 + DC[d];
                 on_board(m, r, c) && !m->cell[r * s + c];
                 r += DR[d], c += DC[d])
                out[n++] = (Move)(i * 512 + r * s + c);
    }
    return n;
}

static int has_move(const MingMang *m, int side)
{
    int s = m->size, mine = 1 + side;
    for (int i = 0; i < s * s; i++) {
        if (m->cell[i] != mine)
            continue;
        int r0 = i / s, c0 = i % s;
        for (int d = 0; d < 4; d++) {
            int r = r0 + DR[d], c = c0 + DC[d];
            if (on_board(m, r, c) && !m->cell[r * s + c])
                return 1;
        }
    }
    return 0;
}

/* Stones plus the empty points whose region touches only that side. */
static void areas(const MingMang *m, int *area)
{
    int s = m->size, n = s * s;
    uint8_t seen[MM_MAXN] = {0};
    int queue[MM_MAXN];
    area[0] = m->count[0];
    area[1] = m->count[1];
    for (int i = 0; i < n; i++) {
        if (m->cell[i] || seen[i])
            continue;
        int head = 0, tail = 0, touch = 0;
        seen[i] = 1;
        queue[tail++] = i;
        while (head < tail) {
            int j = queue[head++], r = j / s, c = j % s;
            for (int d = 0; d < 4; d++) {
                int rr = r + DR[d], cc = c + DC[d];
                if (!on_board(m, rr, cc))
                    continue;
                int k = rr * s + cc;
                if (m->cell[k])
                    touch |= m->cell[k];
                else if (!seen[k]) {
                    seen[k] = 1;
                    queue[tail++] = k;
                }
            }
        }
        if (touch == 1 || touch == 2)
            area[touch - 1] += tail;
    }
}

static void check_end(MingMang *m)
{
    m->over = END_NONE;
    if (!has_move(m, m->side)) {
        m->over = END_NOMOVE;
        m->winner = (uint8_t)!m->side;
        return;
    }
    if (m->quiet >= m->length || m->ply >= MM_MAX_PLIES) {
        m->over = END_LENGTH;
        m->winner = 2;
        if (m->goal == GOAL_TERRITORY) {
            int a[2];
            areas(m, a);
            if (a[0] != a[1])
                m->winner = a[1] > a[0];
        }
    }
}

static void recount(MingMang *m)
{
    m->count[0] = m->count[1] = 0;
    for (int i = 0; i < m->size * m->size; i++)
        if (m->cell[i])
            m->count[m->cell[i] - 1]++;
}

static const char *const goal_choices[] = {"eliminate", "territory", NULL};

static const GameOption mm_options[] = {
    {.key = "size", .type = OPT_INT, .def = 8, .min = 4, .max = MM_MAXS,
     .help = "board side in points (8 as the old Wikipedia diagram; "
             "traditionally 17, Dagaz 9 and 17, exile boards 19)"},
    {.key = "goal", .type = OPT_CHOICE, .def = GOAL_ELIMINATE,
     .choices = goal_choices,
     .help = "eliminate: convert or immobilise the enemy; territory: also, "
             "at the length limit the larger area wins"},
    {.key = "length", .type = OPT_INT, .def = 100, .min = 10,
     .max = MM_MAXLEN, .help = "plies without a conversion that end the "
                               "game (Ply's rule)"},
    {.key = "lcapture", .type = OPT_BOOL, .def = 0,
     .help = "Dagaz: lines of enemy stones may turn once by 90 degrees "
             "and are converted whole"},
    {.key = NULL},
};

static int mm_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    MingMang *m = st;
    memset(m, 0, sizeof *m);
    int s = m->size = (uint8_t)opt[0];
    m->goal = (uint8_t)opt[1];
    m->length = (uint16_t)opt[2];
    m->lcap = (uint8_t)opt[3];
    for (int c = 0; c < s; c++) {
        m->cell[c] = 1;                     /* Black: the bottom row */
        m->cell[(s - 1) * s + c] = 2;       /* White: the top row */
    }
    for (int r = 1; r < s - 1; r++) {
        m->cell[r * s + s - 1] = 1;         /* Black: the right edge */
        m->cell[r * s] = 2;                 /* White: the left edge */
    }
    m->side = 0;
    recount(m);
    check_end(m);
    return 0;
}

static int mm_to_move(const void *st)
{
    const MingMang *m = st;
    return m->over ? PLAYER_TERMINAL : m->side;
}

static int mm_gen_moves(const void *st, Move *out)
{
    const MingMang *m = st;
    return m->over ? 0 : gen(m, out);
}

static void mm_make(void *st, Move mv)
{
    MingMang *m = st;
    int from = (int)(mv / 512), to = (int)(mv % 512), me = m->side;
    int conv[MM_MAXN];
    m->cell[to] = m->cell[from];
    m->cell[from] = 0;
    int k = conversions(m, to, me, conv);
    for (int i = 0; i < k; i++)
        m->cell[conv[i]] = (uint8_t)(1 + me);
    m->count[me] = (uint16_t)(m->count[me] + k);
    m->count[!me] = (uint16_t)(m->count[!me] - k);
    m->quiet = k ? 0 : (uint16_t)(m->quiet + 1);
    m->ply++;
    m->side = (uint8_t)!me;
    check_end(m);
}

static void mm_returns(const void *st, double *out)
{
    const MingMang *m = st;
    out[0] = out[1] = 0;
    if (m->over && m->winner < 2) {
        out[m->winner] = 1;
        out[!m->winner] = -1;
    }
}

static uint64_t mm_hash(const void *st)
{
    const MingMang *m = st;
    uint64_t h = ply_mix64(m->side + 2u * (m->over != 0) +
                           ((uint64_t)m->quiet << 8));
    for (int i = 0; i < m->size * m->size; i++)
        if (m->cell[i])
            h ^= ply_mix64((uint64_t)i * 4 + m->cell[i] + 0x3a3a);
    return h;
}

static const char stone_chars[] = ".BW";

/* Setup: rows from the top down separated by '/', one character a point:
 * '.' empty, B Black, W White; then b or w to move and optionally the
 * plies since the last conversion. */
static int mm_to_text(const void *st, char *buf, size_t n)
{
    const MingMang *m = st;
    char tmp[MM_MAXN + MM_MAXS + 4];
    size_t len = 0;
    int s = m->size;
    for (int r = s - 1; r >= 0; r--) {
        for (int c = 0; c < s; c++)
            tmp[len++] = stone_chars[m->cell[r * s + c]];
        if (r)
            tmp[len++] = '/';
    }
    tmp[len] = 0;
    int w = m->ply
        ? snprintf(buf, n, "%s %c %d %d", tmp, m->side ? 'w' : 'b',
                   m->quiet, m->ply)
        : m->quiet
        ? snprintf(buf, n, "%s %c %d", tmp, m->side ? 'w' : 'b', m->quiet)
        : snprintf(buf, n, "%s %c", tmp, m->side ? 'w' : 'b');
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int mm_from_text(void *st, const char *s, PlyError *err)
{
    MingMang *m = st, t = *m;
    int size = t.size, r = size - 1, c = 0;
    memset(t.cell, 0, sizeof t.cell);
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (c != size)
                return ply_fail(err, "row %d has %d points, not %d", r + 1,
                                c, size);
            if (--r < 0)
                return ply_fail(err, "more than %d rows", size);
            c = 0;
            continue;
        }
        const char *p = strchr(stone_chars, *s);
        if (!p || !*s)
            return ply_fail(err, "unknown point '%c' (. B W)", *s);
        if (c >= size)
            return ply_fail(err, "row %d has more than %d points", r + 1,
                            size);
        t.cell[r * size + c] = (uint8_t)(p - stone_chars);
        c++;
    }
    if (r != 0 || c != size)
        return ply_fail(err, "expected %d rows of %d points (option size)",
                        size, size);
    if (*s != ' ' || (s[1] != 'b' && s[1] != 'w'))
        return ply_fail(err, "expected ' b' or ' w' (side to move)");
    t.side = s[1] == 'w';
    s += 2;
    long quiet, ply;
    if (setup_count(&s, t.length, "plies since a conversion",
                    "option length", &quiet, err) ||
        setup_count(&s, MM_MAX_PLIES, "plies played", NULL, &ply, err))
        return -1;
    if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    t.quiet = (uint16_t)quiet;
    t.ply = (uint16_t)ply;
    recount(&t);
    check_end(&t);
    *m = t;
    return 0;
}

static int point_text(const MingMang *m, int i, char *buf)
{
    return snprintf(buf, 16, "%c%d", (char)('a' + i % m->size),
                    i / m->size + 1);
}

static int mm_move_to_text(const void *st, Move mv, char *buf, size_t n)
{
    const MingMang *m = st;
    char a[16], b[16];
    point_text(m, (int)(mv / 512), a);
    point_text(m, (int)(mv % 512), b);
    int w = snprintf(buf, n, "%s%s", a, b);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* A point at s ("a1".."s19"): its index and length, or -1. */
static int parse_point(const MingMang *m, const char *s, int *len)
{
    if (s[0] < 'a' || s[0] >= 'a' + m->size || s[1] < '1' || s[1] > '9')
        return -1;
    int row = s[1] - '0', k = 2;
    if (s[2] >= '0' && s[2] <= '9') {
        row = row * 10 + s[2] - '0';
        k = 3;
    }
    if (row > m->size)
        return -1;
    *len = k;
    return (row - 1) * m->size + (s[0] - 'a');
}

static int mm_text_to_move(const void *st, const char *s, Move *mv,
                           PlyError *err)
{
    const MingMang *m = st;
    if (m->over)
        return ply_fail(err, "the game is over");
    int l1, l2;
    int from = parse_point(m, s, &l1);
    int to = from < 0 ? -1 : parse_point(m, s + l1, &l2);
    if (from < 0 || to < 0 || s[l1 + l2])
        return ply_fail(err, "a ming-mang move is two points a1..%c%d, "
                        "like b1b5, not '%s'", 'a' + m->size - 1, m->size,
                        s);
    if (m->cell[from] != 1 + m->side)
        return ply_fail(err, "no stone of the side to move on the first "
                        "point of %s", s);
    Move list[MM_MAX_MOVES];
    int n = gen(m, list);
    for (int i = 0; i < n; i++)
        if (list[i] == (Move)(from * 512 + to)) {
            *mv = list[i];
            return 0;
        }
    return ply_fail(err, "%s: a stone slides along a row or column over "
                    "empty points only", s);
}

static int mm_render(const void *st, char *buf, size_t n)
{
    const MingMang *m = st;
    int s = m->size;
    size_t len = 0;
    for (int r = s - 1; r >= -1; r--) {
        char line[80];
        int k;
        if (r < 0) {
            k = snprintf(line, sizeof line, "   ");
            for (int c = 0; c < s; c++) {
                line[k++] = (char)('a' + c);
                line[k++] = c < s - 1 ? ' ' : '\n';
            }
        } else {
            k = snprintf(line, sizeof line, "%2d ", r + 1);
            for (int c = 0; c < s; c++) {
                line[k++] = stone_chars[m->cell[r * s + c]];
                line[k++] = c < s - 1 ? ' ' : '\n';
            }
        }
        if (len + (size_t)k >= n)
            return -1;
        memcpy(buf + len, line, (size_t)k);
        len += (size_t)k;
    }
    int w = snprintf(buf + len, n - len, "%s; stones %d-%d, %d plies "
                     "without a conversion\n", m->over ? "game over"
                     : m->side ? "White to move" : "Black to move",
                     m->count[0], m->count[1], m->quiet);
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)len + w;
}

static int mm_layout(const void *st, Layout *l)
{
    const MingMang *m = st;
    int s = m->size;
    l->width = (float)s;
    l->height = (float)s;
    for (int r = 0; r < s; r++) {
        layout_line(l, 0.5f, (float)r + 0.5f, (float)s - 0.5f,
                    (float)r + 0.5f);
        layout_line(l, (float)r + 0.5f, 0.5f, (float)r + 0.5f,
                    (float)s - 0.5f);
    }
    for (int r = s - 1; r >= 0; r--)
        for (int c = 0; c < s; c++) {
            char name[16];
            point_text(m, r * s + c, name);
            LayoutCell *lc = layout_cell(l, (float)c + 0.5f,
                                         (float)(s - 1 - r) + 0.5f,
                                         CELL_POINT, SHADE_NONE, name);
            if (!lc)
                return -1;
            int x = m->cell[r * s + c];
            if (x) {
                lc->owner = (int8_t)(x - 1);
                snprintf(lc->glyph, sizeof lc->glyph, "\u25CF");
            }
        }
    return 0;
}

static const char *mm_end_reason(const void *st)
{
    const MingMang *m = st;
    if (m->over == END_NOMOVE)
        return m->count[!m->winner] ? "no move left" : "every stone converted";
    if (m->over == END_LENGTH)
        return m->goal == GOAL_TERRITORY ? "length limit: area counted"
                                         : "length limit: draw";
    return NULL;
}

/* ---- evaluation ----
 * Stones are everything (a conversion swings two); a stone that can be
 * converted at once by the side to move counts against its owner; corner
 * stones are never converted; mobility keeps a side from being shut in.
 * A linear form over named features (`ply info ming-mang`), tunable with
 * `ply tune` (docs/tuning.md): each side's features, weighted, the
 * player's less the opponent's. */
enum { F_STONE, F_CORNER, F_MOB, F_HANG, MM_NW };
static const char *const mm_names[MM_NW] = {
    "stone", "corner", "mobility", "conversion.now",
};
static const int mm_weights[MM_NW] = {100, 30, 2, 35};

/* The features of both sides: f[side][weight]. Mobility counts moves up
 * to 40 fully, beyond a quarter each; the best conversion only for the
 * side to move. */
static void mm_features(const MingMang *m, int f[2][MM_NW])
{
    int s = m->size;
    memset(f, 0, sizeof(int) * 2 * MM_NW);
    for (int p = 0; p < 2; p++)
        f[p][F_STONE] = m->count[p];
    int corners[4] = {0, s - 1, (s - 1) * s, s * s - 1};
    for (int k = 0; k < 4; k++)
        if (m->cell[corners[k]])
            f[m->cell[corners[k]] - 1][F_CORNER]++;
    Move list[MM_MAX_MOVES];
    for (int p = 0; p < 2; p++) {
        MingMang t = *m;
        t.side = (uint8_t)p;
        int n = gen(&t, list);
        f[p][F_MOB] = n < 40 ? n : 40 + (n - 40) / 4;
        if (p != m->side)
            continue;
        int best = 0;
        for (int i = 0; i < n; i++) {
            int from = (int)(list[i] / 512), to = (int)(list[i] % 512);
            t.cell[to] = t.cell[from];
            t.cell[from] = 0;
            int k = conversions(&t, to, p, NULL);
            t.cell[from] = t.cell[to];
            t.cell[to] = 0;
            if (k > best)
                best = k;
        }
        f[p][F_HANG] = best;
    }
}

static int mm_eval(const void *st, int player)
{
    int f[2][MM_NW];
    mm_features(st, f);
    return evalform_value(mm_weights, f[player], f[!player], MM_NW);
}

/* The terms from player 0's view. */
static int mm_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][MM_NW];
    *base = 0;
    mm_features(st, f);
    return evalform_terms(f[0], f[1], MM_NW, out);
}

static const EvalTuning mm_tuning = {
    .nparams = MM_NW, .names = mm_names, .weights = mm_weights,
    .terms = mm_terms,
};

/* Conversions first, as the Dagaz heuristic, then short central moves. */
static int mm_heuristic(const void *st, Move mv)
{
    const MingMang *m = st;
    MingMang t = *m;
    int from = (int)(mv / 512), to = (int)(mv % 512), s = m->size;
    t.cell[to] = t.cell[from];
    t.cell[from] = 0;
    int k = conversions(&t, to, m->side, NULL);
    if (k)
        return 1000 * k;
    int r = to / s, c = to % s;
    int edge = r == 0 || c == 0 || r == s - 1 || c == s - 1;
    return 10 - edge * 3;
}

static int mm_is_noisy(const void *st, Move mv)
{
    const MingMang *m = st;
    MingMang t = *m;
    int from = (int)(mv / 512), to = (int)(mv % 512);
    t.cell[to] = t.cell[from];
    t.cell[from] = 0;
    return conversions(&t, to, m->side, NULL) > 0;
}

static int mm_score(const void *st, int player)
{
    const MingMang *m = st;
    return m->count[player];
}

static int mm_check(const void *st)
{
    MingMang t = *(const MingMang *)st;
    if (t.side > 1 || t.size < 4 || t.size > MM_MAXS)
        return -1;
    for (int i = 0; i < t.size * t.size; i++)
        if (t.cell[i] > 2)
            return -1;
    uint16_t c[2] = {t.count[0], t.count[1]};
    recount(&t);
    return c[0] != t.count[0] || c[1] != t.count[1] ? -1 : 0;
}

static const char *const mm_players[] = {"Black", "White"};

const GameVtbl game_ming_mang = {
    .info = {
        .name = "ming-mang",
        .title = "Ming-Mang (Mig mang)",
        .num_players = 2,
        .max_moves = MM_MAX_MOVES,
        .max_game_length = MM_MAX_PLIES,
        .state_size = sizeof(MingMang),
        .flags = GAME_ZERO_SUM,
        .player_names = mm_players,
        .options = mm_options,
        .default_bot = "alphabeta",
        .notation =
            "A move is the from and to points, files from a, rows from 1\n"
            "at Black's side: b1b5, a10a14. Setup string: rows from the\n"
            "top down separated by '/', one character a point: '.' empty,\n"
            "B Black, W White; then b or w to move, optionally the plies\n"
            "since the last conversion and the plies played (the game\n"
            "ends at 1500, a draw or counted). The 8x8 start:\n"
            "WWWWWWWW/W......B/W......B/W......B/W......B/W......B/"
            "W......B/BBBBBBBB b.",
        .rules =
            "Ming-Mang on a size x size board of points (default 8). Black\n"
            "fills the bottom row and the right edge, White the left edge\n"
            "and the top row (2*size-2 stones each); Black moves first. A\n"
            "stone slides any distance along a row or column over empty\n"
            "points, like a rook. Enemy stones left in an unbroken line\n"
            "between the moved stone and another friendly stone, in any\n"
            "of the four directions, turn to the mover's colour (several\n"
            "lines at once). Moving between two enemy stones is safe; a\n"
            "corner stone is never converted. A player who cannot move,\n"
            "having no stone left or every stone blocked, loses. Ply's\n"
            "rule: `length` plies (default 100) without a conversion end\n"
            "the game, a draw; goal=territory counts areas there instead\n"
            "(stones plus the empty points only one side's stones enclose;\n"
            "the old Wikipedia goal). lcapture=1: Dagaz's L-shaped lines,\n"
            "which turn once by 90 degrees at their second or a later\n"
            "stone. Not played: Dagaz's loss by repetition, Ludii's\n"
            "jumping last stone.",
    },
    .init = mm_init,
    .to_move = mm_to_move,
    .gen_moves = mm_gen_moves,
    .make = mm_make,
    .returns = mm_returns,
    .hash = mm_hash,
    .to_text = mm_to_text,
    .from_text = mm_from_text,
    .move_to_text = mm_move_to_text,
    .text_to_move = mm_text_to_move,
    .render = mm_render,
    .eval = mm_eval,
    .tuning = &mm_tuning,
    .heuristic = mm_heuristic,
    .is_noisy = mm_is_noisy,
    .score = mm_score,
    .check = mm_check,
    .layout = mm_layout,
    .end_reason = mm_end_reason,
};
