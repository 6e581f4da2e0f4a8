/* threats.c — the threat detector of gomoku and renju: runs, fives, the
 * shapes a stone makes along a line (two, three, open three, four, open
 * four, five) and Black's forbidden points under the RIF definitions.
 *
 * Every question is asked about one line through one point, and the
 * answers rest on one fact: a five (or a straight four) that contains p
 * and one more stone q has nothing but p's colour between p and q, so q is
 * the first point off p's run in one of the two directions. Each line
 * therefore has at most two points to try. */
#include <string.h>

#include "gomoku.h"

uint64_t gk_zobrist(int p, int colour)
{
    uint64_t z = (uint64_t)(p * 4 + colour) * 0x9E3779B97F4A7C15ull +
                 0x2545F4914F6CDD1Dull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int gk_run(const uint8_t *cell, int p, int d, int c)
{
    int n = 1;
    for (int q = p + d; cell[q] == c; q += d)
        n++;
    for (int q = p - d; cell[q] == c; q -= d)
        n++;
    return n;
}

int gk_wins(int rule, int c, int run)
{
    if (rule == GK_STANDARD || (rule == GK_RENJU && c == GK_BLACK))
        return run == 5;
    return run >= 5;
}

int gk_makes_five(const GkState *s, int p, int c)
{
    for (int i = 0; i < 4; i++)
        if (gk_wins(s->rule, c, gk_run(s->cell, p, gk_dir[i], c)))
            return 1;
    return 0;
}

/* The first point beyond p's run of colour c in direction d. */
static int run_end(const uint8_t *cell, int p, int d, int c)
{
    int q = p + d;
    while (cell[q] == c)
        q += d;
    return q;
}

/* ---- Black's forbidden points (renju) ----
 * p holds a black stone in every helper below. */

/* Fours through p along d: how many points make an exact five with p.
 * Two such points around one unbroken run of four are one straight four;
 * otherwise they are two fours in one line (X.XXX.X). */
static int fours_in(uint8_t *cell, int p, int d)
{
    int e[2] = {run_end(cell, p, d, GK_BLACK), run_end(cell, p, -d, GK_BLACK)};
    int n = 0;
    for (int i = 0; i < 2; i++) {
        if (cell[e[i]] != GK_EMPTY)
            continue;
        cell[e[i]] = GK_BLACK;
        if (gk_run(cell, p, d, GK_BLACK) == 5)
            n++;
        cell[e[i]] = GK_EMPTY;
    }
    if (n == 2 && gk_run(cell, p, d, GK_BLACK) == 4)
        n = 1;
    return n;
}

/* A straight four through p along d: an unbroken run of exactly four with
 * both ends empty, each end making an exact five (not an overline). */
static int straight_four(const uint8_t *cell, int p, int d)
{
    if (gk_run(cell, p, d, GK_BLACK) != 4)
        return 0;
    int a = run_end(cell, p, d, GK_BLACK), b = run_end(cell, p, -d, GK_BLACK);
    return cell[a] == GK_EMPTY && cell[b] == GK_EMPTY &&
           cell[a + d] != GK_BLACK && cell[b - d] != GK_BLACK;
}

enum { FORBID_DEPTH = 8 };

static int forbidden_at(uint8_t *cell, int p, int depth);

/* A three through p along d: one more black stone, itself not forbidden,
 * makes a straight four (RIF: a three is only a three if it can become a
 * straight four, and that move must be allowed; recursively). */
static int three_in(uint8_t *cell, int p, int d, int depth)
{
    int e[2] = {run_end(cell, p, d, GK_BLACK), run_end(cell, p, -d, GK_BLACK)};
    for (int i = 0; i < 2; i++) {
        if (cell[e[i]] != GK_EMPTY)
            continue;
        cell[e[i]] = GK_BLACK;
        int st = straight_four(cell, p, d);
        cell[e[i]] = GK_EMPTY;
        if (st && (depth >= FORBID_DEPTH ||
                   forbidden_at(cell, e[i], depth + 1) == GK_OK))
            return 1;
    }
    return 0;
}

static int forbidden_at(uint8_t *cell, int p, int depth)
{
    cell[p] = GK_BLACK;
    int five = 0, over = 0, res = GK_OK;
    for (int i = 0; i < 4; i++) {
        int r = gk_run(cell, p, gk_dir[i], GK_BLACK);
        if (r == 5)
            five = 1;
        else if (r > 5)
            over = 1;
    }
    if (five) {
        res = GK_OK;                /* a five takes precedence */
    } else if (over) {
        res = GK_OVERLINE;
    } else {
        int fours = 0;
        for (int i = 0; i < 4; i++)
            fours += fours_in(cell, p, gk_dir[i]);
        if (fours >= 2) {
            res = GK_DOUBLE_FOUR;
        } else {
            int threes = 0;
            for (int i = 0; i < 4 && threes < 2; i++)
                threes += three_in(cell, p, gk_dir[i], depth);
            if (threes >= 2)
                res = GK_DOUBLE_THREE;
        }
    }
    cell[p] = GK_EMPTY;
    return res;
}

/* Cheap filter: a forbidden point has four other black stones within four
 * points in one line (overline, two fours in a line), or two in each of
 * two lines (two threes or fours). */
static int may_be_forbidden(const uint8_t *cell, int p)
{
    int lines = 0;
    for (int i = 0; i < 4; i++) {
        int d = gk_dir[i], n = 0;
        for (int k = 1, q = p + d; k <= 4 && cell[q] != GK_WALL; k++, q += d)
            n += cell[q] == GK_BLACK;
        for (int k = 1, q = p - d; k <= 4 && cell[q] != GK_WALL; k++, q -= d)
            n += cell[q] == GK_BLACK;
        if (n >= 4)
            return 1;
        lines += n >= 2;
    }
    return lines >= 2;
}

int gk_may_be_forbidden(const uint8_t *cell, int p)
{
    return may_be_forbidden(cell, p);
}

int gk_forbidden(uint8_t *cell, int p)
{
    if (!may_be_forbidden(cell, p))
        return GK_OK;
    return forbidden_at(cell, p, 0);
}

const char *gk_reason_name(int why)
{
    switch (why) {
    case GK_OVERLINE: return "overline";
    case GK_DOUBLE_FOUR: return "double-four";
    case GK_DOUBLE_THREE: return "double-three";
    default: return "not forbidden";
    }
}

int gk_illegal(const GkState *s, int p)
{
    if (p < 0 || p >= GK_CELLS || s->cell[p] != GK_EMPTY)
        return -1;
    if (s->opening == GK_OPEN_PRO && s->stones < 3) {
        int c = (s->size + 1) / 2, x = p % GK_STRIDE, y = p / GK_STRIDE;
        int dx = x > c ? x - c : c - x, dy = y > c ? y - c : c - y;
        int r = dx > dy ? dx : dy;
        if (r > s->stones)
            return -1;
    }
    if (s->rule == GK_RENJU && s->side == 0 && may_be_forbidden(s->cell, p)) {
        uint8_t scratch[GK_CELLS];
        memcpy(scratch, s->cell, sizeof scratch);
        return gk_forbidden(scratch, p);
    }
    return GK_OK;
}

/* ---- shapes for ordering and the threat search ---- */

/* Points that complete a win for c with the stone at p along d (p is c in
 * cell): 0, 1 or 2, with the run length through p. */
static int five_points(uint8_t *cell, int rule, int p, int d, int c)
{
    int e[2] = {run_end(cell, p, d, c), run_end(cell, p, -d, c)};
    int n = 0;
    for (int i = 0; i < 2; i++) {
        if (cell[e[i]] != GK_EMPTY)
            continue;
        cell[e[i]] = (uint8_t)c;
        if (gk_wins(rule, c, gk_run(cell, p, d, c)))
            n++;
        cell[e[i]] = GK_EMPTY;
    }
    return n;
}

int gk_shape(uint8_t *cell, int rule, int p, int d, int c)
{
    int r = gk_run(cell, p, d, c);
    if (r >= 5)
        return gk_wins(rule, c, r) ? SH_FIVE : SH_NONE;
    {
        /* no stone of c within four points: nothing to make */
        int any = r > 1;
        for (int k = 1, q = p + d; k <= 4 && !any && cell[q] != GK_WALL;
             k++, q += d)
            any = cell[q] == c;
        for (int k = 1, q = p - d; k <= 4 && !any && cell[q] != GK_WALL;
             k++, q -= d)
            any = cell[q] == c;
        if (!any)
            return SH_NONE;
    }
    cell[p] = (uint8_t)c;
    int res = SH_NONE;
    int f = five_points(cell, rule, p, d, c);
    if (f == 2) {
        res = SH_OPEN4;
    } else if (f == 1) {
        res = SH_FOUR;
    } else {
        int e[2] = {run_end(cell, p, d, c), run_end(cell, p, -d, c)};
        for (int i = 0; i < 2 && res == SH_NONE; i++) {
            if (cell[e[i]] != GK_EMPTY)
                continue;
            cell[e[i]] = (uint8_t)c;
            if (five_points(cell, rule, p, d, c) == 2 &&
                gk_run(cell, p, d, c) == 4)
                res = SH_OPEN3;
            cell[e[i]] = GK_EMPTY;
        }
        if (res == SH_NONE) {
            /* the most stones of c in a five-point window through p
             * holding nothing else */
            int line[9], best = 0;
            line[4] = c;
            for (int k = 1, q = p + d; k <= 4; k++) {
                line[4 + k] = cell[q];
                if (cell[q] != GK_WALL)
                    q += d;
            }
            for (int k = 1, q = p - d; k <= 4; k++) {
                line[4 - k] = cell[q];
                if (cell[q] != GK_WALL)
                    q -= d;
            }
            for (int a = 0; a <= 4; a++) {
                int n = 0, ok = 1;
                for (int k = a; k < a + 5 && ok; k++) {
                    int v = line[k];
                    if (v == c)
                        n++;
                    else if (v != GK_EMPTY)
                        ok = 0;
                }
                if (ok && n > best)
                    best = n;
            }
            res = best >= 4 ? SH_THREE : best == 3 ? SH_THREE
                : best == 2 ? SH_TWO : SH_NONE;
        }
    }
    cell[p] = GK_EMPTY;
    return res;
}
