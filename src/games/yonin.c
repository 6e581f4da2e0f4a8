/* yonin.c — Yonin shogi (four-player shogi, Ota Mitsuyasu 1963).
 *
 * Four players sit on the four sides of a 9x9 board (files a-i, ranks
 * 1-9, South at the bottom) and move in clockwise order: South, West,
 * North, East (seats 0-3). Each starts with nine men on the five central
 * files of his own three back ranks. Pieces move as in shogi, each in the
 * direction it faces; captured pieces go to the capturer's hand and are
 * dropped facing the dropper's own way.
 *
 * Check with four players (chessvariants.com's rules): nobody may leave
 * his own King attacked; after every move, a player whose King is attacked
 * moves next (several: the first in turn order after the mover), and the
 * normal order resumes after him. A player to move who has no legal move
 * is mated, credited to the player who made the last move: the mater
 * takes his hand and controls his pieces on the board (they keep facing
 * their old way and keep their old promotion zone), and his King stays on
 * its square face down, an immovable, uncapturable blocker. Kings are
 * never captured. The first player credited with two mates wins (option
 * goal=last: play on until one player is left).
 *
 * A square holds 0 (empty) or type | facing << 4 | controller << 6. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/layout.h"

enum { Y_SQ = 81, Y_SEATS = 4, Y_MAX_PLIES = 800, Y_MAX_MOVES = 2400,
       Y_MAX_MEN = 56, Y_DROP = 81 };
enum { T_P = 1, T_L, T_N, T_S, T_G, T_B, T_R, T_K, T_PP, T_PL, T_PN, T_PS,
       T_PB, T_PR, T_DK };
enum { GOAL_TWO, GOAL_LAST };
enum { MATED_INHERIT, MATED_REMOVE };
/* status of a seat: ALIVE, or 2 + k for the k-th player mated */
enum { ST_ALIVE = 1 };
enum { END_NONE, END_TWO, END_LAST, END_LIMIT };

typedef struct Yonin {
    uint8_t cell[Y_SQ];
    uint8_t hand[Y_SEATS][8];   /* by unpromoted type T_P..T_R */
    uint8_t king[Y_SEATS];      /* square of each seat's King */
    uint8_t status[Y_SEATS];
    uint8_t mates[Y_SEATS];     /* mates credited to each seat */
    uint8_t mover;
    uint8_t nelim;
    uint8_t over;               /* END_* */
    uint8_t goal, jumps, mated; /* options */
    uint16_t ply;
} Yonin;

#define TYPE(c) ((c) & 15)
#define FACE(c) ((c) >> 4 & 3)
#define CTRL(c) ((c) >> 6 & 3)
#define PC(t, f, o) ((uint8_t)((t) | (f) << 4 | (o) << 6))

/* relative steps: bit (ry + 1) * 3 + (rx + 1), ry forward, rx right */
enum { SL_FWD = 1, SL_ORTH = 2, SL_DIAG = 4 };
static const uint16_t STEPS[16] = {
    [T_P] = 128, [T_S] = 453, [T_G] = 490, [T_K] = 495,
    [T_PP] = 490, [T_PL] = 490, [T_PN] = 490, [T_PS] = 490,
    [T_PB] = 170, [T_PR] = 325,
};
static const uint8_t SLIDES[16] = {
    [T_L] = SL_FWD, [T_B] = SL_DIAG, [T_R] = SL_ORTH,
    [T_PB] = SL_DIAG, [T_PR] = SL_ORTH,
};
static const uint8_t PROMOTE[16] = {
    [T_P] = T_PP, [T_L] = T_PL, [T_N] = T_PN, [T_S] = T_PS, [T_B] = T_PB,
    [T_R] = T_PR,
};
static const uint8_t BASE[16] = {
    0, T_P, T_L, T_N, T_S, T_G, T_B, T_R, T_K, T_P, T_L, T_N, T_S, T_B,
    T_R, T_DK,
};
static const char LETTER[16] = ".PLNSGBRKPLNSBRX";
static const int VALUE[16] = {
    0, 100, 300, 350, 500, 550, 750, 900, 0, 550, 550, 550, 550, 950, 1100,
    0,
};

/* absolute (dx, dy) of the relative (rx, ry) for facing f */
static void to_abs(int f, int rx, int ry, int *dx, int *dy)
{
    switch (f) {
    case 0: *dx = rx; *dy = ry; break;
    case 1: *dx = ry; *dy = -rx; break;
    case 2: *dx = -rx; *dy = -ry; break;
    default: *dx = -ry; *dy = rx; break;
    }
}

static void to_rel(int f, int dx, int dy, int *rx, int *ry)
{
    switch (f) {
    case 0: *rx = dx; *ry = dy; break;
    case 1: *rx = -dy; *ry = dx; break;
    case 2: *rx = -dx; *ry = -dy; break;
    default: *rx = dy; *ry = -dx; break;
    }
}

/* how far forward square sq is for facing f: 0 (own back rank) .. 8 */
static int rel_rank(int f, int sq)
{
    int x = sq % 9, y = sq / 9;
    switch (f) {
    case 0: return y;
    case 1: return x;
    case 2: return 8 - y;
    default: return 8 - x;
    }
}

static int slides_along(int t, int f, int dx, int dy)
{
    int sl = SLIDES[t];
    if (!sl)
        return 0;
    if (dx && dy)
        return (sl & SL_DIAG) != 0;
    if (sl & SL_ORTH)
        return 1;
    int rx, ry;
    to_rel(f, dx, dy, &rx, &ry);
    return (sl & SL_FWD) && rx == 0 && ry == 1;
}

static int steps_to(int t, int f, int dx, int dy)
{
    int rx, ry;
    to_rel(f, dx, dy, &rx, &ry);
    if (t == T_N)
        return ry == 2 && (rx == 1 || rx == -1);
    if (rx < -1 || rx > 1 || ry < -1 || ry > 1)
        return 0;
    return STEPS[t] >> ((ry + 1) * 3 + rx + 1) & 1;
}

static const int DIRS[8][2] = {
    {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1},
};
static const int KNIGHT[8][2] = {
    {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2},
};

static int inside(int x, int y) { return x >= 0 && x < 9 && y >= 0 && y < 9; }

/* Whether square sq is attacked by a piece not controlled by seat p. */
static int attacked(const Yonin *s, int sq, int p)
{
    int x0 = sq % 9, y0 = sq / 9;
    for (int d = 0; d < 8; d++) {
        int dx = DIRS[d][0], dy = DIRS[d][1];
        int x = x0 + dx, y = y0 + dy;
        for (int dist = 1; inside(x, y); dist++, x += dx, y += dy) {
            int c = s->cell[y * 9 + x];
            if (!c)
                continue;
            int t = TYPE(c);
            if (CTRL(c) != p && t != T_DK) {
                /* the piece moves from (x, y) towards sq: -dx, -dy */
                if (dist == 1 && steps_to(t, FACE(c), -dx, -dy))
                    return 1;
                if (slides_along(t, FACE(c), -dx, -dy))
                    return 1;
            }
            break;
        }
    }
    for (int k = 0; k < 8; k++) {
        int x = x0 - KNIGHT[k][0], y = y0 - KNIGHT[k][1];
        if (!inside(x, y))
            continue;
        int c = s->cell[y * 9 + x];
        if (c && TYPE(c) == T_N && CTRL(c) != p &&
            steps_to(T_N, FACE(c), KNIGHT[k][0], KNIGHT[k][1]))
            return 1;
    }
    return 0;
}

static int in_check_of(const Yonin *s, int p)
{
    return s->status[p] == ST_ALIVE && attacked(s, s->king[p], p);
}

/* ---- moves: from (0..80, 81 a drop) | to << 7 | promote << 14 |
 * dropped type << 15 ---- */

static Move mk(int from, int to, int promo, int dt)
{
    return (Move)from | (Move)to << 7 | (Move)promo << 14 | (Move)dt << 15;
}
static int m_from(Move m) { return (int)(m & 127); }
static int m_to(Move m) { return (int)(m >> 7 & 127); }
static int m_promo(Move m) { return (int)(m >> 14 & 1); }
static int m_drop(Move m) { return (int)(m >> 15 & 15); }

/* Plays m on the board and hands only (no turn order). */
static void apply(Yonin *s, Move m)
{
    int p = s->mover, to = m_to(m);
    if (m_from(m) == Y_DROP) {
        int t = m_drop(m);
        s->cell[to] = PC(t, p, p);
        s->hand[p][t]--;
        return;
    }
    int from = m_from(m), c = s->cell[from], cap = s->cell[to];
    if (cap)
        s->hand[p][BASE[TYPE(cap)]]++;
    int t = TYPE(c);
    if (m_promo(m))
        t = PROMOTE[t];
    s->cell[to] = PC(t, FACE(c), CTRL(c));
    s->cell[from] = 0;
    if (t == T_K)
        s->king[p] = (uint8_t)to;
}

/* the piece could not move again from sq (must promote / no drop) */
static int dead_end(int t, int f, int sq)
{
    int r = rel_rank(f, sq);
    return ((t == T_P || t == T_L) && r == 8) || (t == T_N && r >= 7);
}

static int legal_after(const Yonin *s, Move m)
{
    Yonin c = *s;
    apply(&c, m);
    return !attacked(&c, c.king[s->mover], s->mover);
}

static int any_legal(const Yonin *s, int p);

/* A pawn dropped straight in front of another player's King that leaves
 * that player without a legal move (judged as if he moved next). */
static int pawn_drop_mate(const Yonin *s, Move m)
{
    int p = s->mover, to = m_to(m), dx, dy;
    to_abs(p, 0, 1, &dx, &dy);
    int x = to % 9 + dx, y = to / 9 + dy;
    if (!inside(x, y))
        return 0;
    int c = s->cell[y * 9 + x];
    if (!c || TYPE(c) != T_K || CTRL(c) == p)
        return 0;
    Yonin n = *s;
    apply(&n, m);
    return !any_legal(&n, CTRL(c));
}

/* Pseudo-legal moves of seat p (their own King may stay attacked);
 * returns the count. stop > 0: return as soon as one legal move is
 * found (as 1), checking legality on the way. */
static int gen(const Yonin *s, int p, Move *out, int legal_only, int stop)
{
    int n = 0;
    Yonin probe = *s;
    probe.mover = (uint8_t)p;
    for (int sq = 0; sq < Y_SQ; sq++) {
        int c = s->cell[sq];
        if (!c || CTRL(c) != p || TYPE(c) == T_DK)
            continue;
        int t = TYPE(c), f = FACE(c), x0 = sq % 9, y0 = sq / 9;
        int tg[20], nt = 0;
        if (t == T_N) {
            for (int k = -1; k <= 1; k += 2) {
                int dx, dy;
                to_abs(f, k, 2, &dx, &dy);
                if (inside(x0 + dx, y0 + dy))
                    tg[nt++] = (y0 + dy) * 9 + x0 + dx;
            }
        } else {
            for (int d = 0; d < 8; d++) {
                int dx = DIRS[d][0], dy = DIRS[d][1];
                int slide = slides_along(t, f, dx, dy);
                if (!slide && !steps_to(t, f, dx, dy))
                    continue;
                int x = x0 + dx, y = y0 + dy;
                while (inside(x, y)) {
                    int q = y * 9 + x;
                    tg[nt++] = q;
                    if (s->cell[q] || !slide)
                        break;
                    x += dx;
                    y += dy;
                }
            }
        }
        for (int i = 0; i < nt; i++) {
            int q = tg[i], v = s->cell[q];
            if (v && (CTRL(v) == p || TYPE(v) == T_K || TYPE(v) == T_DK))
                continue;
            int can = PROMOTE[t] &&
                      (rel_rank(f, sq) >= 6 || rel_rank(f, q) >= 6);
            for (int pr = can; pr >= 0; pr--) {
                if (!pr && dead_end(t, f, q))
                    continue;
                Move m = mk(sq, q, pr, 0);
                if (legal_only && !legal_after(&probe, m))
                    continue;
                if (stop)
                    return 1;
                out[n++] = m;
            }
        }
    }
    for (int t = T_P; t <= T_R; t++) {
        if (!s->hand[p][t])
            continue;
        uint16_t pawnline = 0;
        if (t == T_P)
            for (int sq = 0; sq < Y_SQ; sq++) {
                int c = s->cell[sq];
                if (c && TYPE(c) == T_P && CTRL(c) == p && FACE(c) == p)
                    pawnline |= (uint16_t)(1u << (p & 1 ? sq / 9 : sq % 9));
            }
        for (int q = 0; q < Y_SQ; q++) {
            if (s->cell[q] || dead_end(t, p, q))
                continue;
            if (t == T_P && pawnline >> (p & 1 ? q / 9 : q % 9) & 1)
                continue;
            Move m = mk(Y_DROP, q, 0, t);
            if (legal_only && !legal_after(&probe, m))
                continue;
            if (t == T_P && legal_only && pawn_drop_mate(&probe, m))
                continue;
            if (stop)
                return 1;
            out[n++] = m;
        }
    }
    return n;
}

static int any_legal(const Yonin *s, int p)
{
    return gen(s, p, NULL, 1, 1);
}

static int alive_count(const Yonin *s)
{
    int n = 0;
    for (int p = 0; p < Y_SEATS; p++)
        n += s->status[p] == ST_ALIVE;
    return n;
}

static void eliminate(Yonin *s, int q, int by)
{
    s->status[q] = (uint8_t)(2 + s->nelim++);
    s->mates[by]++;
    for (int sq = 0; sq < Y_SQ; sq++) {
        int c = s->cell[sq];
        if (!c || CTRL(c) != q || TYPE(c) == T_DK)
            continue;
        if (TYPE(c) == T_K)
            s->cell[sq] = s->mated == MATED_INHERIT ? PC(T_DK, FACE(c), q)
                                                    : 0;
        else
            s->cell[sq] = s->mated == MATED_INHERIT
                          ? PC(TYPE(c), FACE(c), by) : 0;
    }
    for (int t = 0; t < 8; t++) {
        if (s->mated == MATED_INHERIT)
            s->hand[by][t] = (uint8_t)(s->hand[by][t] + s->hand[q][t]);
        s->hand[q][t] = 0;
    }
}

/* Who moves after seat `last`: an attacked King first (the first in turn
 * order), else the next seat still playing. */
static int next_seat(const Yonin *s, int last)
{
    if (s->jumps)
        for (int i = 1; i < Y_SEATS; i++) {
            int r = (last + i) % Y_SEATS;
            if (in_check_of(s, r))
                return r;
        }
    for (int i = 1; i < Y_SEATS; i++) {
        int r = (last + i) % Y_SEATS;
        if (s->status[r] == ST_ALIVE)
            return r;
    }
    return last;
}

/* After seat `last` moved: mates, the end, the next mover. */
static void advance(Yonin *s, int last)
{
    for (;;) {
        if (s->goal == GOAL_TWO && s->mates[last] >= 2) {
            s->over = END_TWO;
            return;
        }
        if (alive_count(s) <= 1) {
            s->over = END_LAST;
            return;
        }
        if (s->ply >= Y_MAX_PLIES) {
            s->over = END_LIMIT;
            return;
        }
        int q = next_seat(s, last);
        if (any_legal(s, q)) {
            s->mover = (uint8_t)q;
            return;
        }
        eliminate(s, q, last);
    }
}

/* ---- options, set-up, the interface ---- */

static const char *const goal_choices[] = {"two", "last", NULL};
static const char *const mated_choices[] = {"inherit", "remove", NULL};
static const char *const setup_choices[] = {"9", "8", NULL};

static const GameOption yonin_options[] = {
    {.key = "goal", .type = OPT_CHOICE, .def = GOAL_TWO,
     .choices = goal_choices, .help =
     "two: the first player credited with two mates wins; last: play on "
     "until one player is left"},
    {.key = "jumps", .type = OPT_BOOL, .def = 1, .min = 0, .max = 1,
     .help = "a player whose King is attacked moves next (off: strict "
     "turn order, South, West, North, East)"},
    {.key = "mated", .type = OPT_CHOICE, .def = MATED_INHERIT,
     .choices = mated_choices, .help =
     "inherit: the mater takes the mated player's hand and controls his "
     "pieces, his King stays as a blocker; remove: all his pieces leave "
     "the board and his hand is lost"},
    {.key = "men", .type = OPT_CHOICE, .def = 0, .choices = setup_choices,
     .help = "9: K, 2 G, 2 S, R, 3 P each (chessvariants); 8: without the "
     "Rook (Dagaz's set-up)"},
    {.key = NULL},
};

static int yonin_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    Yonin *s = st;
    memset(s, 0, sizeof *s);
    s->goal = (uint8_t)opt[0];
    s->jumps = (uint8_t)opt[1];
    s->mated = (uint8_t)opt[2];
    /* South's men as relative (file offset from e, rank from own edge) */
    static const int men[9][3] = {
        {0, 0, T_K}, {-1, 0, T_G}, {1, 0, T_G}, {-2, 0, T_S}, {2, 0, T_S},
        {-1, 1, T_P}, {1, 1, T_P}, {0, 2, T_P}, {0, 1, T_R},
    };
    int nmen = opt[3] == 0 ? 9 : 8;
    for (int p = 0; p < Y_SEATS; p++) {
        for (int i = 0; i < nmen; i++) {
            int dx, dy;
            /* from the centre: the own edge is 4 squares behind it */
            to_abs(p, men[i][0], men[i][1] - 4, &dx, &dy);
            int sq = (4 + dy) * 9 + 4 + dx;
            s->cell[sq] = PC(men[i][2], p, p);
            if (men[i][2] == T_K)
                s->king[p] = (uint8_t)sq;
        }
        s->status[p] = ST_ALIVE;
    }
    return 0;
}

static int yonin_to_move(const void *st)
{
    const Yonin *s = st;
    return s->over ? PLAYER_TERMINAL : s->mover;
}

static int yonin_gen_moves(const void *st, Move *out)
{
    const Yonin *s = st;
    if (s->over)
        return 0;
    return gen(s, s->mover, out, 1, 0);
}

static void yonin_make(void *st, Move m)
{
    Yonin *s = st;
    int p = s->mover;
    apply(s, m);
    s->ply++;
    advance(s, p);
}

/* The fast playout: a uniform legal move drawn from the pseudo-legal
 * ones, testing only those drawn. */
static void yonin_playout(void *st, Rng *r)
{
    Yonin *s = st;
    Move mv[Y_MAX_MOVES];
    while (!s->over) {
        int n = gen(s, s->mover, mv, 0, 0);
        Move m = 0;
        int found = 0;
        while (n > 0) {
            int i = (int)rng_below(r, (uint64_t)n);
            m = mv[i];
            if (legal_after(s, m) &&
                !(m_from(m) == Y_DROP && m_drop(m) == T_P &&
                  pawn_drop_mate(s, m))) {
                found = 1;
                break;
            }
            mv[i] = mv[--n];
        }
        if (!found)
            return;     /* cannot happen: the mover has a legal move */
        yonin_make(s, m);
    }
}

/* Places: players still in play first (by mates credited), mated players
 * after them, the last mated best; ties share. Place r of 4 is worth
 * 1 - 2(r-1)/3. */
static void yonin_returns(const void *st, double *out)
{
    const Yonin *s = st;
    int key[Y_SEATS];
    for (int p = 0; p < Y_SEATS; p++)
        key[p] = s->status[p] == ST_ALIVE ? 100 + s->mates[p]
                                          : s->status[p];
    for (int p = 0; p < Y_SEATS; p++) {
        int better = 0, tied = 0;
        for (int q = 0; q < Y_SEATS; q++) {
            better += key[q] > key[p];
            tied += key[q] == key[p];
        }
        double place = better + (tied + 1) / 2.0;
        out[p] = 1 - 2 * (place - 1) / (Y_SEATS - 1);
    }
}

static uint64_t yonin_hash(const void *st)
{
    const Yonin *s = st;
    uint64_t h = ply_mix64((uint64_t)s->mover | (uint64_t)s->over << 4 |
                           (uint64_t)s->nelim << 8 | 0x59u << 16);
    for (int sq = 0; sq < Y_SQ; sq++)
        if (s->cell[sq])
            h ^= ply_mix64((uint64_t)sq << 8 | s->cell[sq]);
    for (int p = 0; p < Y_SEATS; p++) {
        for (int t = T_P; t <= T_R; t++)
            if (s->hand[p][t])
                h ^= ply_mix64(0x1000000u | (uint64_t)p << 16 |
                               (uint64_t)t << 8 | s->hand[p][t]);
        h ^= ply_mix64(0x2000000u | (uint64_t)p << 16 |
                       (uint64_t)s->status[p] << 8 | s->mates[p]);
    }
    return h;
}

/* ---- text ---- */

static void sq_name(int sq, char *b)
{
    b[0] = (char)('a' + sq % 9);
    b[1] = (char)('1' + sq / 9);
    b[2] = 0;
}

static int parse_sq(const char *t)
{
    if (t[0] < 'a' || t[0] > 'i' || t[1] < '1' || t[1] > '9')
        return -1;
    return (t[1] - '1') * 9 + (t[0] - 'a');
}

/* Pieces: [+]LETTER facing controller ("K00", "+P12"; X a mated King);
 * '.' an empty square; ranks 9..1 by '/'. Then the seat to move, the
 * hands ("-" or letters with counts, by ','), the seats' states ('a'
 * playing, k the k-th mated), the mates credited, the ply count. */
static int yonin_to_text(const void *st, char *buf, size_t n)
{
    const Yonin *s = st;
    char out[1024];
    size_t k = 0;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            int c = s->cell[y * 9 + x];
            if (!c) {
                out[k++] = '.';
                continue;
            }
            int t = TYPE(c);
            if (t >= T_PP && t <= T_PR)
                out[k++] = '+';
            out[k++] = LETTER[t];
            out[k++] = (char)('0' + FACE(c));
            out[k++] = (char)('0' + CTRL(c));
        }
        if (y)
            out[k++] = '/';
    }
    k += (size_t)snprintf(out + k, sizeof out - k, " %d ", s->mover);
    for (int p = 0; p < Y_SEATS; p++) {
        int any = 0;
        for (int t = T_P; t <= T_R; t++)
            if (s->hand[p][t]) {
                k += (size_t)snprintf(out + k, sizeof out - k, "%c%d",
                                      LETTER[t], s->hand[p][t]);
                any = 1;
            }
        if (!any)
            out[k++] = '-';
        out[k++] = p < Y_SEATS - 1 ? ',' : ' ';
    }
    for (int p = 0; p < Y_SEATS; p++)
        out[k++] = s->status[p] == ST_ALIVE ? 'a'
                                            : (char)('0' + s->status[p] - 1);
    out[k++] = ' ';
    for (int p = 0; p < Y_SEATS; p++)
        out[k++] = (char)('0' + s->mates[p]);
    k += (size_t)snprintf(out + k, sizeof out - k, " %d", s->ply);
    out[k] = 0;
    if (k + 1 > n)
        return -1;
    memcpy(buf, out, k + 1);
    return (int)k;
}

static int type_of_letter(int ch, int promoted)
{
    for (int t = T_P; t <= T_DK; t++)
        if (LETTER[t] == ch && (t >= T_PP && t <= T_PR) == promoted &&
            (t != T_DK || !promoted))
            return t;
    return 0;
}

static int yonin_from_text(void *st, const char *str, PlyError *err)
{
    Yonin *s = st, n;
    memset(&n, 0, sizeof n);
    n.goal = s->goal;
    n.jumps = s->jumps;
    n.mated = s->mated;
    const char *p = str;
    int kings[Y_SEATS] = {0}, men = 0;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            if (*p == '.') {
                p++;
                continue;
            }
            int prom = *p == '+';
            if (prom)
                p++;
            int t = *p ? type_of_letter(*p, prom) : 0;
            if (!t)
                return ply_fail(err, "bad piece at %c%d in '%s'", 'a' + x,
                                y + 1, str);
            if (p[1] < '0' || p[1] > '3' || p[2] < '0' || p[2] > '3')
                return ply_fail(err, "piece at %c%d: facing and controller "
                                "must be digits 0-3", 'a' + x, y + 1);
            int f = p[1] - '0', o = p[2] - '0', sq = y * 9 + x;
            if (t == T_K) {
                if (f != o)
                    return ply_fail(err, "the King at %c%d faces another "
                                    "way than its owner", 'a' + x, y + 1);
                kings[o]++;
                n.king[o] = (uint8_t)sq;
            } else if (t != T_DK) {
                men++;
                if (dead_end(t, f, sq))
                    return ply_fail(err, "the piece at %c%d could never "
                                    "move", 'a' + x, y + 1);
            }
            n.cell[sq] = PC(t, f, o);
            p += 3;
        }
        if (y && *p++ != '/')
            return ply_fail(err, "expected '/' after rank %d", y + 1);
    }
    if (*p++ != ' ' || *p < '0' || *p > '3')
        return ply_fail(err, "expected the seat to move (0-3)");
    n.mover = (uint8_t)(*p++ - '0');
    if (*p++ != ' ')
        return ply_fail(err, "expected the hands after the seat to move");
    for (int q = 0; q < Y_SEATS; q++) {
        if (*p == '-') {
            p++;
        } else {
            while (*p && *p != ',' && *p != ' ') {
                int t = type_of_letter(*p, 0);
                if (!t || t > T_R)
                    return ply_fail(err, "bad piece '%c' in a hand", *p);
                p++;
                char *e;
                long v = strtol(p, &e, 10);
                if (e == p || v < 1 || v > Y_MAX_MEN)
                    return ply_fail(err, "bad count in a hand");
                n.hand[q][t] = (uint8_t)(n.hand[q][t] + v);
                men += (int)v;
                p = e;
                if (men > Y_MAX_MEN)
                    break;
            }
        }
        if (*p++ != (q < Y_SEATS - 1 ? ',' : ' '))
            return ply_fail(err, "hands: four by ',' then a space");
    }
    if (men > Y_MAX_MEN)
        return ply_fail(err, "more than %d men", Y_MAX_MEN);
    int order[Y_SEATS + 1] = {0};
    for (int q = 0; q < Y_SEATS; q++, p++) {
        if (*p == 'a') {
            n.status[q] = ST_ALIVE;
        } else if (*p >= '1' && *p <= '3') {
            n.status[q] = (uint8_t)(*p - '0' + 1);
            if (order[*p - '0']++)
                return ply_fail(err, "two players mated %c-th", *p);
            n.nelim++;
        } else {
            return ply_fail(err, "seat states: 'a' or the mate's order 1-3");
        }
        if ((n.status[q] == ST_ALIVE) != (kings[q] == 1) || kings[q] > 1)
            return ply_fail(err, "seat %d: one King exactly while playing, "
                            "none after", q);
    }
    for (int k = 1; k <= n.nelim; k++)
        if (!order[k])
            return ply_fail(err, "mates must be numbered 1..%d", n.nelim);
    if (*p++ != ' ')
        return ply_fail(err, "expected the mates credited");
    int total = 0;
    for (int q = 0; q < Y_SEATS; q++, p++) {
        if (*p < '0' || *p > '3')
            return ply_fail(err, "mates credited: four digits");
        n.mates[q] = (uint8_t)(*p - '0');
        total += n.mates[q];
    }
    if (total != n.nelim)
        return ply_fail(err, "the mates credited must add up to the "
                        "players mated");
    for (int sq = 0; sq < Y_SQ; sq++) {
        int c = n.cell[sq];
        if (c && TYPE(c) != T_DK && n.status[CTRL(c)] != ST_ALIVE)
            return ply_fail(err, "a piece at %c%d belongs to a mated "
                            "player", 'a' + sq % 9, sq / 9 + 1);
        if (c && TYPE(c) == T_DK && n.status[CTRL(c)] == ST_ALIVE)
            return ply_fail(err, "a mated King of a player still in play");
    }
    for (int q = 0; q < Y_SEATS; q++)
        for (int t = T_P; t <= T_R; t++)
            if (n.hand[q][t] && n.status[q] != ST_ALIVE)
                return ply_fail(err, "a mated player holds pieces");
    if (*p++ != ' ')
        return ply_fail(err, "expected the ply count");
    char *e;
    long ply = strtol(p, &e, 10);
    if (e == p || ply < 0 || ply > Y_MAX_PLIES || *e)
        return ply_fail(err, "bad ply count (0..%d, then the end)",
                        Y_MAX_PLIES);
    n.ply = (uint16_t)ply;
    if (n.status[n.mover] != ST_ALIVE)
        return ply_fail(err, "the seat to move is not in play");
    for (int q = 0; q < Y_SEATS; q++)
        if (n.goal == GOAL_TWO && n.mates[q] >= 2)
            n.over = END_TWO;
    if (!n.over && alive_count(&n) < 2)
        n.over = END_LAST;
    if (!n.over && n.ply >= Y_MAX_PLIES)
        n.over = END_LIMIT;
    if (!n.over && !any_legal(&n, n.mover))
        return ply_fail(err, "the seat to move has no legal move");
    *s = n;
    return 0;
}

static int yonin_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    char a[3], b[3];
    sq_name(m_to(m), b);
    int k;
    if (m_from(m) == Y_DROP) {
        k = snprintf(buf, n, "%c*%s", LETTER[m_drop(m) & 15], b);
    } else {
        sq_name(m_from(m), a);
        k = snprintf(buf, n, "%s%s%s", a, b, m_promo(m) ? "+" : "");
    }
    return k < 0 || (size_t)k >= n ? -1 : k;
}

static int yonin_text_to_move(const void *st, const char *str, Move *m,
                              PlyError *err)
{
    const Yonin *s = st;
    Move mv;
    if (s->over)
        return ply_fail(err, "the game is over");
    if (str[0] && str[1] == '*') {
        int t = type_of_letter(str[0], 0);
        int q = parse_sq(str + 2);
        if (!t || t > T_R || q < 0 || str[4])
            return ply_fail(err, "bad drop '%s' (e.g. P*e5)", str);
        mv = mk(Y_DROP, q, 0, t);
    } else {
        int a = strlen(str) >= 4 ? parse_sq(str) : -1;
        int b = a >= 0 ? parse_sq(str + 2) : -1;
        if (a < 0 || b < 0 || (str[4] && (str[4] != '+' || str[5])))
            return ply_fail(err, "bad move '%s' (e.g. e3e4, e7e8+, P*e5)",
                            str);
        mv = mk(a, b, str[4] == '+', 0);
    }
    Move list[Y_MAX_MOVES];
    int n = gen(s, s->mover, list, 1, 0);
    for (int i = 0; i < n; i++)
        if (list[i] == mv) {
            *m = mv;
            return 0;
        }
    return ply_fail(err, "illegal move '%s'", str);
}

static int yonin_render(const void *st, char *buf, size_t n)
{
    const Yonin *s = st;
    static const char *const seat[4] = {"S", "W", "N", "E"};
    char out[2048];
    size_t k = 0;
    for (int y = 8; y >= 0; y--) {
        k += (size_t)snprintf(out + k, sizeof out - k, "%d ", y + 1);
        for (int x = 0; x < 9; x++) {
            int c = s->cell[y * 9 + x];
            if (!c)
                k += (size_t)snprintf(out + k, sizeof out - k, "  . ");
            else
                k += (size_t)snprintf(out + k, sizeof out - k, " %c%c%s",
                                      TYPE(c) >= T_PP && TYPE(c) <= T_PR
                                      ? '+' : ' ', LETTER[TYPE(c)],
                                      TYPE(c) == T_DK ? " " :
                                      seat[CTRL(c)]);
        }
        out[k++] = '\n';
    }
    k += (size_t)snprintf(out + k, sizeof out - k,
                          "     a   b   c   d   e   f   g   h   i\n");
    for (int p = 0; p < Y_SEATS; p++) {
        k += (size_t)snprintf(out + k, sizeof out - k, "%s: %s, mates %d,"
                              " hand", seat[p], s->status[p] == ST_ALIVE
                              ? "playing" : "mated", s->mates[p]);
        for (int t = T_P; t <= T_R; t++)
            if (s->hand[p][t])
                k += (size_t)snprintf(out + k, sizeof out - k, " %c%d",
                                      LETTER[t], s->hand[p][t]);
        k += (size_t)snprintf(out + k, sizeof out - k, "%s\n",
                              !s->over && s->mover == p ? "  (to move)"
                              : "");
    }
    if (k + 1 > n)
        return -1;
    memcpy(buf, out, k + 1);
    return (int)k;
}

/* ---- drawing: the board with South at the bottom; each seat's hand a
 * row of slots beside its own edge, the mover's named as drops write them
 * ("P*") ---- */
static int yonin_layout(const void *st, Layout *l)
{
    const Yonin *s = st;
    static const char *const face[16] = {
        "", "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S",
        "+B", "+R", "\u25A0"};
    l->width = 13;
    l->height = 13;
    for (int sq = 0; sq < Y_SQ; sq++) {
        int x = sq % 9, y = sq / 9;
        char name[3];
        sq_name(sq, name);
        int zone = x < 3 || x > 5 || y < 3 || y > 5;
        LayoutCell *c = layout_cell(l, (float)x + 2.5f, 10.5f - (float)y,
                                    CELL_SQUARE, zone ? SHADE_SPECIAL
                                    : SHADE_LIGHT, name);
        int v = s->cell[sq];
        if (!c || !v)
            continue;
        snprintf(c->glyph, sizeof c->glyph, "%s", face[TYPE(v)]);
        c->owner = TYPE(v) == T_DK ? -1 : (int8_t)CTRL(v);
        static const char *const arrows[4] = {"\u2191", "\u2192", "\u2193",
                                              "\u2190"};
        snprintf(c->label, sizeof c->label, "%s", arrows[FACE(v)]);
    }
    for (int p = 0; p < Y_SEATS; p++) {
        for (int i = 0; i < 7; i++) {
            int t = T_P + i, cnt = s->hand[p][t];
            char name[3] = "";
            if (cnt && p == s->mover && !s->over) {
                name[0] = LETTER[t];
                name[1] = '*';
            }
            float a = 3.5f + (float)i, x, y;
            switch (p) {
            case 0: x = a; y = 12.5f; break;
            case 1: x = 0.5f; y = 12.0f - a; break;
            case 2: x = 13.0f - a; y = 0.5f; break;
            default: x = 12.5f; y = a; break;
            }
            LayoutCell *c = layout_cell(l, x, y, CELL_HAND, SHADE_DARK, name);
            if (c && cnt) {
                snprintf(c->glyph, sizeof c->glyph, "%c", LETTER[t]);
                c->owner = (int8_t)p;
                c->count = cnt;
            }
        }
    }
    return 0;
}

static const char *yonin_end_reason(const void *st)
{
    static const char *const why[] = {
        NULL, "a player credited with two mates", "one player left",
        "the move limit"};
    const Yonin *s = st;
    return s->over < 4 ? why[s->over] : NULL;
}

/* ---- evaluation ---- */

/* Material of seat p (hand pieces a tenth more), and the safety of its
 * King: attacked squares around it. */
static int material(const Yonin *s, int p)
{
    int v = 0;
    for (int sq = 0; sq < Y_SQ; sq++) {
        int c = s->cell[sq];
        if (c && CTRL(c) == p)
            v += VALUE[TYPE(c)];
    }
    for (int t = T_P; t <= T_R; t++)
        v += s->hand[p][t] * VALUE[t] * 11 / 10;
    return v;
}

static int king_danger(const Yonin *s, int p)
{
    int k = s->king[p], x0 = k % 9, y0 = k / 9, d = 0;
    for (int i = 0; i < 8; i++) {
        int x = x0 + DIRS[i][0], y = y0 + DIRS[i][1];
        if (!inside(x, y))
            continue;
        int q = y * 9 + x, c = s->cell[q];
        if (c && CTRL(c) == p)
            continue;
        if (attacked(s, q, p))
            d += 2;
        else if (!c)
            d -= 0;
    }
    if (attacked(s, k, p))
        d += 6;
    return d;
}

static int seat_value(const Yonin *s, int p)
{
    return material(s, p) - 25 * king_danger(s, p) + 600 * s->mates[p];
}

static int yonin_eval(const void *st, int player)
{
    const Yonin *s = st;
    if (s->status[player] != ST_ALIVE)
        return -EVAL_MAX / 2;
    int mine = seat_value(s, player), others = 0, n = 0;
    for (int q = 0; q < Y_SEATS; q++)
        if (q != player && s->status[q] == ST_ALIVE) {
            others += seat_value(s, q);
            n++;
        }
    int v = mine - (n ? others / n : 0) + 300 * (Y_SEATS - 1 - n);
    if (v > EVAL_MAX / 2)
        v = EVAL_MAX / 2;
    if (v < -EVAL_MAX / 2)
        v = -EVAL_MAX / 2;
    return v;
}

/* Ordering: captures by the victim's value, promotions, then moves. */
static int yonin_heuristic(const void *st, Move m)
{
    const Yonin *s = st;
    int v = 0;
    if (m_from(m) != Y_DROP) {
        int c = s->cell[m_to(m)];
        if (c)
            v += 100 + VALUE[TYPE(c)] - VALUE[TYPE(s->cell[m_from(m)])] / 10;
        if (m_promo(m))
            v += 50;
    }
    return v;
}

static int yonin_is_noisy(const void *st, Move m)
{
    const Yonin *s = st;
    return m_from(m) != Y_DROP && s->cell[m_to(m)] != 0;
}

static int yonin_in_check(const void *st)
{
    const Yonin *s = st;
    return !s->over && in_check_of(s, s->mover);
}

static int yonin_score(const void *st, int player)
{
    const Yonin *s = st;
    return s->mates[player];
}

static int yonin_check(const void *st)
{
    const Yonin *s = st;
    int kings[Y_SEATS] = {0}, men = 0;
    for (int sq = 0; sq < Y_SQ; sq++) {
        int c = s->cell[sq];
        if (!c)
            continue;
        int t = TYPE(c);
        if (t == T_K) {
            if (s->king[CTRL(c)] != sq || FACE(c) != CTRL(c))
                return -1;
            kings[CTRL(c)]++;
        } else if (t != T_DK) {
            men++;
            if (s->status[CTRL(c)] != ST_ALIVE || dead_end(t, FACE(c), sq))
                return -1;
        }
    }
    for (int p = 0; p < Y_SEATS; p++) {
        if ((s->status[p] == ST_ALIVE) != (kings[p] == 1))
            return -1;
        for (int t = T_P; t <= T_R; t++) {
            men += s->hand[p][t];
            if (s->hand[p][t] && s->status[p] != ST_ALIVE)
                return -1;
        }
    }
    if (men > Y_MAX_MEN)
        return -1;
    if (!s->over && (s->status[s->mover] != ST_ALIVE ||
                     !any_legal(s, s->mover)))
        return -1;
    return 0;
}

static int yonin_plies_left(const void *st)
{
    const Yonin *s = st;
    int left = Y_MAX_PLIES - s->ply;
    return left < 160 ? left : 160;
}

static const char *const yonin_players[] = {"South", "West", "North",
                                            "East"};

const GameVtbl game_yonin_shogi = {
    .info = {
        .name = "yonin-shogi",
        .title = "Yonin shogi (four-player shogi)",
        .num_players = 4,
        .max_moves = Y_MAX_MOVES,
        .max_game_length = Y_MAX_PLIES,
        .state_size = sizeof(Yonin),
        .flags = GAME_ZERO_SUM,
        .player_names = yonin_players,
        .options = yonin_options,
        .notation =
            "Squares a1..i9, South at the bottom (rank 1), West on file a,\n"
            "North on rank 9, East on file i. Moves: e3e4 (from, to), e7e8+\n"
            "(promoting), P*e5 (a drop: P L N S G B R). Setup string: ranks\n"
            "9..1 by '/', each square '.' or a piece: [+]LETTER, the way it\n"
            "faces and its controller as seat digits (K00 South's King,\n"
            "P32 a pawn facing East's way held by North; X a mated\n"
            "King); then the seat to move, the four hands ('-' or letters\n"
            "with counts, by ','), the seats ('a' playing or the order in\n"
            "which it was mated), the mates credited per seat, the ply\n"
            "count. The start:\n"
            "..S22G22K22G22S22../...P22R22P22.../S11...P22...S33/G11P11.."
            "...P33G33/K11R11P11...P33R33K33/G11P11.....P33G33/S11...P00."
            "..S33/...P00R00P00.../..S00G00K00G00S00.. 0 -,-,-,- aaaa 0000 0",
        .rules =
            "Yonin shogi (Ota Mitsuyasu, 1963), chessvariants.com's rules.\n"
            "Four players on a 9x9 board move clockwise: South, West, North,\n"
            "East. Each has K, G, G, S, S, R, P, P, P on the five middle\n"
            "files of his side (K on the edge's centre, G and S beside it, R\n"
            "in front of K between two P, a P in front of R). Pieces move as\n"
            "in shogi in the direction they face; a captured piece goes to\n"
            "the capturer's hand and is dropped facing his own way (pawns:\n"
            "not two unpromoted own pawns facing his way on a line, not on\n"
            "the last rank, no drop that leaves the King in front of it\n"
            "without a legal move). Each player promotes in his own far\n"
            "three ranks (the zones overlap); promotion is optional unless\n"
            "the piece could not move again. Check: nobody may leave his own\n"
            "King attacked, and Kings are never captured. After each move a\n"
            "player whose King is attacked moves next (the first in turn\n"
            "order after the mover), then the order goes on after him\n"
            "(option jumps=0: strict order). A player to move without a\n"
            "legal move is mated; the player who made the last move gets\n"
            "the credit, takes his hand and controls his pieces, which keep\n"
            "facing their way and keep their old promotion zone; the mated\n"
            "King stays, face down, an immovable blocker that nothing\n"
            "captures (option mated=remove: his pieces leave the board).\n"
            "Nobody captures pieces he controls. End: the first player\n"
            "credited with two mates wins (goal=last: when one is left).\n"
            "At 800 plies the game stops. Places: players in play by mates\n"
            "credited, then the mated, the last mated best; ties share;\n"
            "place r is worth 1 - 2(r-1)/3. men=8: without the Rooks\n"
            "(Dagaz). No repetition rule (the limit ends a cycle).",
    },
    .init = yonin_init,
    .to_move = yonin_to_move,
    .gen_moves = yonin_gen_moves,
    .make = yonin_make,
    .returns = yonin_returns,
    .hash = yonin_hash,
    .to_text = yonin_to_text,
    .from_text = yonin_from_text,
    .move_to_text = yonin_move_to_text,
    .text_to_move = yonin_text_to_move,
    .render = yonin_render,
    .layout = yonin_layout,
    .end_reason = yonin_end_reason,
    .eval = yonin_eval,
    .heuristic = yonin_heuristic,
    .is_noisy = yonin_is_noisy,
    .in_check = yonin_in_check,
    .score = yonin_score,
    .playout = yonin_playout,
    .check = yonin_check,
    .plies_left = yonin_plies_left,
};
