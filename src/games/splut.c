/* splut.c — Splut! (Tommy De Coninck, 2009) for 2-4 teams.
 *
 * The board is the diamond |x-4| + |y-4| <= 4 of a 9x9 grid (41 squares,
 * files a-i, ranks 1-9). Each team has a Sorcerer, a Dwarf and a Troll;
 * four Rocks are shared. One engine move is one step; a turn has 1 step
 * (the first turn of the game), 2 (the second), then 3 steps, and the same
 * player stays to move until its steps are spent or a throw ends the turn.
 * A team whose Sorcerer is hit by a thrown Rock leaves the game and is
 * skipped in the turn order; the last Sorcerer standing wins.
 *
 * Two vtables share the code: `splut` has up to four seats (South, West,
 * North, East, in turn order) and option players=2|3|4: the teams playing
 * are seats 0..players-1 (South and North with two players; South, West
 * and North with three), told to front ends by the seats hook; `splut-duel`
 * is the two-player game of the Axiom article (South against North, all
 * four Rocks) as a two-seat game, the same position as players=2.
 *
 * Squares hold EMPTY, ROCK, or a piece 4 + 4 * seat + kind. A Rock square
 * carries the number of the turn in which that Rock last moved (rturn),
 * which decides whether a Sorcerer may levitate it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"

enum { SP_SQ = 81, SP_SEATS = 4, SP_MAX_PLIES = 1200, SP_MAX_MOVES = 160 };
enum { EMPTY = 0, ROCK = 1, PIECE = 4 };
enum { K_SORC = 0, K_DWARF = 1, K_TROLL = 2 };
enum { MV_STEP, MV_DRAG, MV_THROW, MV_PUSH, MV_LEV, MV_PASS };
enum { LEV_FREE, LEV_ON, LEV_DONE };
enum { RULE_PREVIOUS, RULE_ROUND };
/* status of a seat */
enum { ST_ABSENT = 0, ST_ALIVE = 1 };   /* 2 + k: the k-th team removed */

typedef struct Splut {
    uint8_t cell[SP_SQ];
    uint16_t rturn[SP_SQ];      /* Rock squares: turn it last moved, 0 never */
    uint16_t last_turn[SP_SEATS];   /* each seat's latest finished turn */
    uint16_t turn;              /* number of the turn being played, from 1 */
    uint16_t ply;
    uint8_t np;                 /* seats playing: 2, 3 or 4 */
    uint8_t mover;
    uint8_t steps;              /* steps left in this turn */
    uint8_t lev, lev_sq;        /* LEV_*, the Rock being levitated */
    uint8_t status[SP_SEATS];
    uint8_t nelim;
    uint8_t over;
    uint8_t rule;               /* RULE_*: which Rocks may be levitated */
    uint8_t side[SP_SEATS];     /* board side of each seat: 0 S 1 W 2 N 3 E */
} Splut;

static const char KINDC[3] = {'S', 'D', 'T'};

/* NBT[sq][d]: the neighbour of square sq = 9 * rank + file in direction
 * d (0 n, 1 e, 2 s, 3 w), -1 off the diamond (every entry of a square off
 * the diamond is -1). test_splut's reference generator, which works on
 * coordinates, checks every step through it. */
static const int8_t NBT[SP_SQ][4] = {
    {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {13, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {21, 13, -1, -1}, {22, 14, 4, 12}, {23, -1, -1, 13}, {-1, -1, -1, -1},
    {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {29, 21, -1, -1}, {30, 22, 12, 20}, {31, 23, 13, 21}, {32, 24, 14, 22},
    {33, -1, -1, 23}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {37, 29, -1, -1}, {38, 30, 20, 28}, {39, 31, 21, 29}, {40, 32, 22, 30},
    {41, 33, 23, 31}, {42, 34, 24, 32}, {43, -1, -1, 33}, {-1, -1, -1, -1},
    {-1, 37, -1, -1}, {46, 38, 28, 36}, {47, 39, 29, 37}, {48, 40, 30, 38},
    {49, 41, 31, 39}, {50, 42, 32, 40}, {51, 43, 33, 41}, {52, 44, 34, 42},
    {-1, -1, -1, 43}, {-1, -1, -1, -1}, {-1, 47, 37, -1}, {56, 48, 38, 46},
    {57, 49, 39, 47}, {58, 50, 40, 48}, {59, 51, 41, 49}, {60, 52, 42, 50},
    {-1, -1, 43, 51}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {-1, 57, 47, -1}, {66, 58, 48, 56}, {67, 59, 49, 57}, {68, 60, 50, 58},
    {-1, -1, 51, 59}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, 67, 57, -1}, {76, 68, 58, 66},
    {-1, -1, 59, 67}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {-1, -1, 67, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1},
    {-1, -1, -1, -1},
};

static inline int nb(int sq, int d)
{
    return NBT[sq][d];
}

static int on_board(int sq)
{
    return sq >= 0 && sq < SP_SQ && abs(sq % 9 - 4) + abs(sq / 9 - 4) <= 4;
}

static int is_piece(int c) { return c >= PIECE; }
static int seat_of(int c) { return (c - PIECE) / 4; }
static int kind_of(int c) { return (c - PIECE) % 4; }
static int piece(int seat, int kind) { return PIECE + 4 * seat + kind; }

static Move mk(int kind, int from, int dir, int aux, int tdir)
{
    return (Move)kind | (Move)from << 3 | (Move)dir << 10 |
           (Move)aux << 12 | (Move)tdir << 19;
}
static int m_kind(Move m) { return (int)(m & 7); }
static int m_from(Move m) { return (int)(m >> 3 & 127); }
static int m_dir(Move m) { return (int)(m >> 10 & 3); }
static int m_aux(Move m) { return (int)(m >> 12 & 127); }
static int m_tdir(Move m) { return (int)(m >> 19 & 3); }

/* Starting squares per board side: Rock, Sorcerer, Dwarf, Troll. */
static const char *const START[4][4] = {
    {"e1", "d2", "e2", "f2"},
    {"a5", "b6", "b5", "b4"},
    {"e9", "f8", "e8", "d8"},
    {"i5", "h4", "h5", "h6"},
};

static int sq_of(const char *s)
{
    return (s[1] - '1') * 9 + (s[0] - 'a');
}

static int levitatable(const Splut *s, int q)
{
    int t = s->rturn[q];
    if (!t || t == s->turn)
        return 1;
    if (s->rule == RULE_PREVIOUS)
        return t != s->turn - 1;
    return t <= s->last_turn[s->mover];
}

static int alive_count(const Splut *s)
{
    int n = 0;
    for (int p = 0; p < s->np; p++)
        n += s->status[p] == ST_ALIVE;
    return n;
}

/* ---- options and set-up ---- */

static const char *const players_choices[] = {"2", "3", "4", NULL};
static const char *const lev_choices[] = {"previous", "round", NULL};

static const GameOption splut_options[] = {
    {.key = "players", .type = OPT_CHOICE, .def = 2,
     .choices = players_choices, .help =
     "teams playing: 4 (South, West, North, East), 3 (South, West, North) "
     "or 2 (South, North), playing as seats 0..players-1"},
    {.key = "levitate", .type = OPT_CHOICE, .def = RULE_PREVIOUS,
     .choices = lev_choices, .help =
     "previous: a Rock moved during the immediately preceding turn may not "
     "be levitated; round: nor one moved in any turn since the mover's own "
     "last turn (Rocks moved earlier in the mover's turn always may)"},
    {.key = NULL},
};

static const GameOption duel_options[] = {
    {.key = "levitate", .type = OPT_CHOICE, .def = RULE_PREVIOUS,
     .choices = lev_choices, .help =
     "previous or round, as in splut (the same in a duel)"},
    {.key = NULL},
};

static void place_team(Splut *s, int seat)
{
    const char *const *t = START[s->side[seat]];
    s->cell[sq_of(t[1])] = (uint8_t)piece(seat, K_SORC);
    s->cell[sq_of(t[2])] = (uint8_t)piece(seat, K_DWARF);
    s->cell[sq_of(t[3])] = (uint8_t)piece(seat, K_TROLL);
}

static void setup(Splut *s, int np, const int *sides, int rule)
{
    memset(s, 0, sizeof *s);
    s->np = (uint8_t)np;
    s->rule = (uint8_t)rule;
    for (int p = 0; p < np; p++)
        s->side[p] = (uint8_t)sides[p];
    for (int k = 0; k < 4; k++)
        s->cell[sq_of(START[k][0])] = ROCK;
    for (int p = 0; p < np; p++) {
        s->status[p] = ST_ALIVE;
        place_team(s, p);
    }
    s->turn = 1;
    s->steps = 1;
    s->mover = 0;
}

static int splut_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    static const int sides[3][4] = {{0, 2}, {0, 1, 2}, {0, 1, 2, 3}};
    setup(st, opt[0] + 2, sides[opt[0]], opt[1]);
    return 0;
}

static int duel_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    static const int sides[2] = {0, 2};
    setup(st, 2, sides, opt[0]);
    return 0;
}

static int splut_to_move(const void *st)
{
    const Splut *s = st;
    return s->over ? PLAYER_TERMINAL : s->mover;
}

/* ---- moves ---- */

/* Where a Rock thrown from u in direction e lands (the Troll's vacated
 * square `vac` counts as empty); -1 when it cannot move at all. */
static int flight(const uint8_t *cell, int u, int e, int vac)
{
    int v = u;
    for (;;) {
        int w = nb(v, e);
        if (w < 0)
            break;
        int c = w == vac ? EMPTY : cell[w];
        if (c == EMPTY || (is_piece(c) && kind_of(c) == K_DWARF)) {
            v = w;
            continue;
        }
        if (is_piece(c) && kind_of(c) == K_SORC)
            v = w;
        break;
    }
    return v == u ? -1 : v;
}

static int splut_gen_moves(const void *st, Move *out)
{
    const Splut *s = st;
    int n = 0, me = s->mover;
    if (s->over)
        return 0;
    int own[3], nown = 0, rocks[4], nrocks = 0;
    for (int sq = 0; sq < SP_SQ; sq++) {
        int c = s->cell[sq];
        if (c == ROCK && nrocks < 4)
            rocks[nrocks++] = sq;
        else if (is_piece(c) && seat_of(c) == me && nown < 3)
            own[nown++] = sq;
    }
    for (int i = 0; i < nown; i++) {
        int sq = own[i], c = s->cell[sq];
        int k = kind_of(c);
        for (int d = 0; d < 4; d++) {
            int u = nb(sq, d);
            if (u < 0)
                continue;
            int cu = s->cell[u];
            if (k == K_TROLL) {
                if (cu == EMPTY) {
                    out[n++] = mk(MV_STEP, sq, d, 0, 0);
                    int b = nb(sq, (d + 2) & 3);
                    if (b >= 0 && s->cell[b] == ROCK)
                        out[n++] = mk(MV_DRAG, sq, d, b, 0);
                } else if (cu == ROCK) {
                    for (int e = 0; e < 4; e++)
                        if (flight(s->cell, u, e, sq) >= 0)
                            out[n++] = mk(MV_THROW, sq, d, 0, e);
                }
            } else if (k == K_DWARF) {
                if (cu == EMPTY) {
                    out[n++] = mk(MV_STEP, sq, d, 0, 0);
                } else {
                    int v = u;
                    while (v >= 0 && s->cell[v] != EMPTY)
                        v = nb(v, d);
                    if (v >= 0)
                        out[n++] = mk(MV_PUSH, sq, d, 0, 0);
                }
            } else {
                if (cu == EMPTY) {
                    out[n++] = mk(MV_STEP, sq, d, 0, 0);
                    if (s->lev == LEV_DONE)
                        continue;
                    for (int r = 0; r < nrocks; r++) {
                        int q = rocks[r];
                        if ((s->lev == LEV_ON && q != s->lev_sq) ||
                            !levitatable(s, q))
                            continue;
                        int t = nb(q, d);
                        if (t >= 0 && t != u &&
                            (s->cell[t] == EMPTY || t == sq))
                            out[n++] = mk(MV_LEV, sq, d, q, 0);
                    }
                } else if (cu == ROCK && s->lev != LEV_DONE &&
                           (s->lev == LEV_FREE || s->lev_sq == u) &&
                           levitatable(s, u)) {
                    int t = nb(u, d);
                    if (t >= 0 && s->cell[t] == EMPTY)
                        out[n++] = mk(MV_LEV, sq, d, u, 0);
                }
            }
        }
    }
    if (!n)
        out[n++] = mk(MV_PASS, 0, 0, 0, 0);
    return n;
}

static void move_piece(Splut *s, int from, int to)
{
    s->cell[to] = s->cell[from];
    s->rturn[to] = s->rturn[from];
    s->cell[from] = EMPTY;
    s->rturn[from] = 0;
}

static void remove_team(Splut *s, int seat)
{
    for (int q = 0; q < SP_SQ; q++)
        if (is_piece(s->cell[q]) && seat_of(s->cell[q]) == seat)
            s->cell[q] = EMPTY;
    s->nelim++;
    s->status[seat] = (uint8_t)(1 + s->nelim);
}

static void end_turn(Splut *s)
{
    s->last_turn[s->mover] = s->turn;
    s->turn++;
    int p = s->mover;
    for (int i = 0; i < s->np; i++) {
        p = (p + 1) % s->np;
        if (s->status[p] == ST_ALIVE)
            break;
    }
    s->mover = (uint8_t)p;
    s->steps = s->turn == 2 ? 2 : 3;
    s->lev = LEV_FREE;
    s->lev_sq = 0;
}

static void splut_make(void *st, Move m)
{
    Splut *s = st;
    int kind = m_kind(m), sq = m_from(m), d = m_dir(m);
    int u = kind == MV_PASS ? 0 : nb(sq, d);
    int ends = 0, levved = 0;
    switch (kind) {
    case MV_STEP:
        move_piece(s, sq, u);
        break;
    case MV_DRAG: {
        int b = m_aux(m);
        move_piece(s, sq, u);
        move_piece(s, b, sq);
        s->rturn[sq] = s->turn;
        break;
    }
    case MV_THROW: {
        int e = m_tdir(m);
        int v = flight(s->cell, u, e, sq);
        s->cell[u] = s->cell[sq];
        s->rturn[u] = 0;
        s->cell[sq] = EMPTY;
        int c = s->cell[v];
        if (is_piece(c) && kind_of(c) == K_SORC)
            remove_team(s, seat_of(c));
        s->cell[v] = ROCK;
        s->rturn[v] = s->turn;
        ends = 1;
        break;
    }
    case MV_PUSH: {
        int v = u;
        while (s->cell[v] != EMPTY)
            v = nb(v, d);
        int back = (d + 2) & 3;
        while (v != u) {
            int w = nb(v, back);
            move_piece(s, w, v);
            if (s->cell[v] == ROCK)
                s->rturn[v] = s->turn;
            v = w;
        }
        move_piece(s, sq, u);
        break;
    }
    case MV_LEV: {
        int q = m_aux(m), t = nb(q, d);
        if (q == u) {
            move_piece(s, q, t);
            move_piece(s, sq, u);
        } else {
            move_piece(s, sq, u);
            move_piece(s, q, t);
        }
        s->rturn[t] = s->turn;
        s->lev = LEV_ON;
        s->lev_sq = (uint8_t)t;
        levved = 1;
        break;
    }
    default:
        ends = 1;
        break;
    }
    if (!levved && s->lev == LEV_ON) {
        s->lev = LEV_DONE;
        s->lev_sq = 0;
    }
    s->ply++;
    if (s->steps)
        s->steps--;
    if (ends)
        s->steps = 0;
    if (alive_count(s) <= 1 || s->ply >= SP_MAX_PLIES) {
        s->over = 1;
        return;
    }
    if (!s->steps || s->status[s->mover] != ST_ALIVE)
        end_turn(s);
}

/* Places: survivors share the first places, removed teams follow in
 * reverse order of removal, empty seats share the last. The value of
 * place r (1-based, ties averaged) among n seats is 1 - 2(r-1)/(n-1). */
static void splut_returns(const void *st, double *out)
{
    const Splut *s = st;
    int key[SP_SEATS];
    for (int p = 0; p < s->np; p++)
        key[p] = s->status[p] == ST_ALIVE ? 100 : s->status[p];
    for (int p = 0; p < s->np; p++) {
        int better = 0, tied = 0;
        for (int q = 0; q < s->np; q++) {
            better += key[q] > key[p];
            tied += key[q] == key[p];
        }
        double place = better + (tied + 1) / 2.0;
        out[p] = 1 - 2 * (place - 1) / (s->np - 1);
    }
    for (int p = s->np; p < SP_SEATS; p++)
        out[p] = 0;     /* a seat not playing: only for 4-seat callers */
}

/* A removed team's place is fixed: every team still playing ends ahead
 * of it (surviving, or removed later), every team removed before it
 * behind. */
static int splut_eliminated(const void *st, int player)
{
    const Splut *s = st;
    return player >= 0 && player < s->np && s->status[player] != ST_ALIVE;
}

static const char *const side_names[4] = {"South", "West", "North", "East"};

static int splut_seats(const void *st, const char **names)
{
    const Splut *s = st;
    for (int p = 0; names && p < s->np; p++)
        names[p] = side_names[s->side[p]];
    return s->np;
}

static uint64_t splut_hash(const void *st)
{
    const Splut *s = st;
    uint64_t h = ply_mix64((uint64_t)s->mover | (uint64_t)s->steps << 4 |
                           (uint64_t)s->lev << 8 |
                           (uint64_t)s->lev_sq << 12 |
                           (uint64_t)(s->turn < 3 ? s->turn : 3) << 20 |
                           (uint64_t)s->over << 24);
    for (int p = 0; p < s->np; p++) {
        int lt = s->turn - s->last_turn[p];
        h = ply_mix64(h ^ ((uint64_t)s->status[p] << 8 |
                           (uint64_t)(lt < 6 ? lt : 6) << 16 |
                           (uint64_t)p));
    }
    for (int q = 0; q < SP_SQ; q++) {
        if (!s->cell[q])
            continue;
        uint64_t v = s->cell[q];
        if (s->cell[q] == ROCK && s->rturn[q]) {
            int age = s->turn - s->rturn[q];
            v |= (uint64_t)(age < 6 ? age + 1 : 7) << 8;
        }
        h = ply_mix64(h ^ (v << 8 | (uint64_t)q) ^ 0x9e3779b97f4a7c15ull);
    }
    return h;
}

/* ---- text ---- */

static int sq_name(int sq, char *b)
{
    b[0] = (char)('a' + sq % 9);
    b[1] = (char)('1' + sq / 9);
    b[2] = 0;
    return 2;
}

/* Setup string: the diamond's rows from rank 9 down to rank 1 separated
 * by '/', each square '.', 'R' (a Rock, followed by the number of the turn
 * in which it last moved when it has moved) or a piece letter S, D, T with
 * its seat digit; then the seat to move, the steps left, the turn number,
 * levitation ('-' may start, 'x' no more this turn, or the square of the
 * Rock being levitated), plies played, each seat's state ('a' playing,
 * '-' empty seat, k the k-th team removed) and each seat's last turn. */
static int splut_to_text(const void *st, char *buf, size_t n)
{
    const Splut *s = st;
    size_t len = 0;
    char b[3];
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            int q = y * 9 + x;
            if (!on_board(q))
                continue;
            int c = s->cell[q];
            if (c == EMPTY)
                PLY_OUT(".");
            else if (c == ROCK && s->rturn[q])
                PLY_OUT("R%d", s->rturn[q]);
            else if (c == ROCK)
                PLY_OUT("R");
            else
                PLY_OUT("%c%d", KINDC[kind_of(c)], seat_of(c));
        }
        if (y)
            PLY_OUT("/");
    }
    PLY_OUT(" %d %d %d ", s->mover, s->steps, s->turn);
    if (s->lev == LEV_FREE)
        PLY_OUT("-");
    else if (s->lev == LEV_DONE)
        PLY_OUT("x");
    else {
        sq_name(s->lev_sq, b);
        PLY_OUT("%s", b);
    }
    PLY_OUT(" %d ", s->ply);
    for (int p = 0; p < s->np; p++)
        PLY_OUT("%c", s->status[p] == ST_ALIVE ? 'a'
                  : s->status[p] == ST_ABSENT ? '-'
                  : (char)('0' + s->status[p] - 1));
    for (int p = 0; p < s->np; p++)
        PLY_OUT("%c%d", p ? ',' : ' ', s->last_turn[p]);
    return (int)len;
}

static int read_num(const char **p, long max, long *v)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    long x = 0;
    while (*s >= '0' && *s <= '9') {
        x = x * 10 + (*s++ - '0');
        if (x > max)
            return -1;
    }
    *v = x;
    *p = s;
    return 0;
}

static int skip_space(const char **p)
{
    if (**p != ' ')
        return -1;
    while (**p == ' ')
        (*p)++;
    return 0;
}

static int splut_from_text(void *st, const char *str, PlyError *err)
{
    Splut *k = st, t;
    memset(&t, 0, sizeof t);
    t.np = k->np;
    t.rule = k->rule;
    memcpy(t.side, k->side, sizeof t.side);
    const char *p = str;
    long v;
    int counts[SP_SEATS][3] = {{0}}, rocks = 0;
    for (int y = 8; y >= 0; y--) {
        for (int x = 0; x < 9; x++) {
            int q = y * 9 + x;
            if (!on_board(q))
                continue;
            char c = *p;
            if (c == '.') {
                p++;
            } else if (c == 'R') {
                p++;
                t.cell[q] = ROCK;
                rocks++;
                if (*p >= '0' && *p <= '9') {
                    if (read_num(&p, 60000, &v))
                        return ply_fail(err, "bad Rock turn at '%.10s'", p);
                    t.rturn[q] = (uint16_t)v;
                }
            } else if (c == 'S' || c == 'D' || c == 'T') {
                int kind = c == 'S' ? K_SORC : c == 'D' ? K_DWARF : K_TROLL;
                int seat = p[1] - '0';
                if (seat < 0 || seat >= t.np)
                    return ply_fail(err, "piece '%c' needs a seat digit "
                                    "0..%d at '%.10s'", c, t.np - 1, p);
                p += 2;
                t.cell[q] = (uint8_t)piece(seat, kind);
                if (++counts[seat][kind] > 1)
                    return ply_fail(err, "seat %d has two %c", seat, c);
            } else {
                return ply_fail(err, "expected '.', 'R', or S/D/T with a "
                                "seat at '%.10s' (rank %d)", p, y + 1);
            }
        }
        if (y && *p++ != '/')
            return ply_fail(err, "rank %d: wrong number of squares (the "
                            "rows have 1,3,5,7,9,7,5,3,1)", y + 1);
    }
    if (rocks != 4)
        return ply_fail(err, "there are always 4 Rocks, not %d", rocks);
    long mover, steps, turn, ply;
    if (skip_space(&p) || read_num(&p, 7, &mover) || mover >= t.np)
        return ply_fail(err, "expected the seat to move (0..%d)", t.np - 1);
    if (skip_space(&p) || read_num(&p, 3, &steps))
        return ply_fail(err, "expected the steps left (1..3; 0 when over)");
    if (skip_space(&p) || read_num(&p, 60000, &turn) || turn < 1)
        return ply_fail(err, "expected the turn number (from 1)");
    if (steps > (turn == 1 ? 1 : turn == 2 ? 2 : 3))
        return ply_fail(err, "turn %ld has at most %d steps", turn,
                        turn == 1 ? 1 : turn == 2 ? 2 : 3);
    t.mover = (uint8_t)mover;
    t.steps = (uint8_t)steps;
    t.turn = (uint16_t)turn;
    if (skip_space(&p))
        return ply_fail(err, "expected the levitation field");
    if (*p == '-') {
        t.lev = LEV_FREE;
        p++;
    } else if (*p == 'x') {
        t.lev = LEV_DONE;
        p++;
    } else if (p[0] >= 'a' && p[0] <= 'i' && p[1] >= '1' && p[1] <= '9' &&
               on_board(sq_of(p)) && t.cell[sq_of(p)] == ROCK) {
        t.lev = LEV_ON;
        t.lev_sq = (uint8_t)sq_of(p);
        p += 2;
    } else {
        return ply_fail(err, "levitation is '-', 'x' or a Rock's square, "
                        "not '%.10s'", p);
    }
    if (skip_space(&p) || read_num(&p, SP_MAX_PLIES, &ply))
        return ply_fail(err, "expected the plies played (0..%d)",
                        SP_MAX_PLIES);
    t.ply = (uint16_t)ply;
    if (skip_space(&p))
        return ply_fail(err, "expected the seats' states");
    int seen[SP_SEATS + 1] = {0};
    for (int q = 0; q < t.np; q++, p++) {
        if (*p == 'a')
            t.status[q] = ST_ALIVE;
        else if (*p == '-')
            t.status[q] = ST_ABSENT;
        else if (*p >= '1' && *p < '1' + t.np) {
            int kk = *p - '0';
            if (seen[kk]++)
                return ply_fail(err, "two teams removed as number %d", kk);
            t.status[q] = (uint8_t)(1 + kk);
            t.nelim++;
        } else
            return ply_fail(err, "a seat's state is 'a', '-' or 1..%d, not "
                            "'%.1s'", t.np, p);
    }
    for (int kk = 1; kk <= t.nelim; kk++)
        if (!seen[kk])
            return ply_fail(err, "removed teams must be numbered 1..%d",
                            t.nelim);
    for (int q = 0; q < t.np; q++) {
        if (skip_space(&p) && q == 0)
            return ply_fail(err, "expected each seat's last turn");
        if (q && *p++ != ',')
            return ply_fail(err, "expected %d last turns", t.np);
        if (read_num(&p, 60000, &v) || v >= turn)
            return ply_fail(err, "a last turn is a number below the turn");
        t.last_turn[q] = (uint16_t)v;
    }
    if (*p)
        return ply_fail(err, "unexpected text at the end: '%.10s'", p);
    for (int q = 0; q < SP_SQ; q++)
        if (t.cell[q] == ROCK && t.rturn[q] > t.turn)
            return ply_fail(err, "a Rock moved in a turn after the current");
    for (int q = 0; q < t.np; q++) {
        int has = counts[q][0] + counts[q][1] + counts[q][2];
        if (t.status[q] == ST_ALIVE && !counts[q][K_SORC])
            return ply_fail(err, "seat %d plays without its Sorcerer", q);
        if (t.status[q] != ST_ALIVE && has)
            return ply_fail(err, "seat %d is out but has pieces", q);
    }
    if (alive_count(&t) < 1)
        return ply_fail(err, "no team is playing");
    if (alive_count(&t) == 1 || t.ply >= SP_MAX_PLIES)
        t.over = 1;
    else if (!t.steps)
        return ply_fail(err, "no steps left in a game not over");
    else if (t.status[t.mover] != ST_ALIVE)
        return ply_fail(err, "seat %d is to move but out of the game",
                        (int)t.mover);
    *k = t;
    return 0;
}

static int splut_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Splut *s = st;
    size_t len = 0;
    char a[3], b[3], c[3];
    int kind = m_kind(m), sq = m_from(m), d = m_dir(m);
    if (kind == MV_PASS) {
        PLY_OUT("pass");
        return (int)len;
    }
    int u = nb(sq, d);
    if (u < 0 || !is_piece(s->cell[sq]))
        return -1;
    sq_name(sq, a);
    sq_name(u, b);
    char L = KINDC[kind_of(s->cell[sq])];
    switch (kind) {
    case MV_STEP:
        PLY_OUT("%c%s-%s", L, a, b);
        break;
    case MV_DRAG:
    case MV_LEV:
        sq_name(m_aux(m), c);
        PLY_OUT("%c%s-%s+%s", L, a, b, c);
        break;
    case MV_THROW: {
        int v = flight(s->cell, u, m_tdir(m), sq);
        if (v < 0)
            return -1;
        sq_name(v, c);
        PLY_OUT("%c%sx%s>%s", L, a, b, c);
        break;
    }
    case MV_PUSH:
        PLY_OUT("%c%s>%s", L, a, b);
        break;
    default:
        return -1;
    }
    return (int)len;
}

/* ---- drawing ---- */

/* The diamond for drawing: the 41 squares of the 9x9 grid, a1 bottom
 * left (South at the bottom), named as the notation writes them; the
 * Sorcerer, Dwarf and Troll by their letter with their seat as owner,
 * Rocks as neutral discs. Pieces of an empty seat are not drawn. */
static int splut_layout(const void *st, Layout *l)
{
    const Splut *s = st;
    l->width = 9;
    l->height = 9;
    for (int sq = 0; sq < SP_SQ; sq++) {
        if (!on_board(sq))
            continue;
        int x = sq % 9, y = sq / 9;
        char name[3];
        sq_name(sq, name);
        LayoutCell *c = layout_cell(l, (float)x + 0.5f, 8.5f - (float)y,
                                    CELL_SQUARE, (x + y) % 2 ? SHADE_LIGHT
                                    : SHADE_DARK, name);
        int v = s->cell[sq];
        if (!c || v == EMPTY)
            continue;
        if (v == ROCK) {
            snprintf(c->glyph, sizeof c->glyph, "\u25CF");
            c->owner = -1;
        } else if (is_piece(v) && seat_of(v) < SP_SEATS &&
                   s->status[seat_of(v)] != ST_ABSENT &&
                   kind_of(v) <= K_TROLL) {
            c->glyph[0] = KINDC[kind_of(v)];
            c->owner = (int8_t)seat_of(v);
        }
    }
    return 0;
}

/* The cells of a step in clicking order: the piece, the square it steps
 * to, then the Rock it drags or levitates, or where its thrown Rock
 * lands. The notation's piece letter is no dropped piece, so the cells
 * are given here rather than read from the text. A pass has none. */
static int splut_move_cells(const void *st, const Layout *l, Move m,
                            MoveCells *out)
{
    const Splut *s = st;
    memset(out, 0, sizeof *out);
    int kind = m_kind(m), sq = m_from(m);
    if (kind == MV_PASS)
        return 0;
    int u = nb(sq, m_dir(m)), third = -1;
    if (u < 0)
        return -1;
    if (kind == MV_DRAG || kind == MV_LEV)
        third = m_aux(m);
    else if (kind == MV_THROW &&
             (third = flight(s->cell, u, m_tdir(m), sq)) < 0)
        return -1;
    int sqs[3] = {sq, u, third};
    for (int i = 0; i < 3 && sqs[i] >= 0; i++) {
        char name[3];
        sq_name(sqs[i], name);
        int c = layout_find(l, name);
        if (c < 0)
            return -1;
        out->cells[out->n++] = c;
    }
    return 0;
}

static int splut_text_to_move(const void *st, const char *str, Move *m,
                              PlyError *err)
{
    const Splut *s = st;
    if (s->over)
        return ply_fail(err, "the game is over");
    Move mv[SP_MAX_MOVES];
    char buf[32];
    int n = splut_gen_moves(st, mv);
    for (int i = 0; i < n; i++)
        if (splut_move_to_text(st, mv[i], buf, sizeof buf) > 0 &&
            !strcmp(buf, str)) {
            *m = mv[i];
            return 0;
        }
    return ply_fail(err, "'%s' is not a legal step for seat %d (steps are "
                    "written Tf2-g2, Tf3-f4+f2, Te2xe1>e5, De2>e3, "
                    "Sd2-d3+c3, pass)", str, (int)s->mover);
}

static int splut_render(const void *st, char *buf, size_t n)
{
    const Splut *s = st;
    size_t len = 0;
    static const char *const sidec = "swne";
    for (int y = 8; y >= 0; y--) {
        PLY_OUT("%d ", y + 1);
        for (int x = 0; x < 9; x++) {
            int q = y * 9 + x, c = s->cell[q];
            if (!on_board(q))
                PLY_OUT("   ");
            else if (c == EMPTY)
                PLY_OUT(" . ");
            else if (c == ROCK)
                PLY_OUT(" R%c", s->rturn[q] && s->rturn[q] >= s->turn - 1
                            ? '\'' : ' ');
            else
                PLY_OUT(" %c%c", KINDC[kind_of(c)], sidec[s->side[seat_of(c)]]);
        }
        PLY_OUT("\n");
    }
    PLY_OUT("   a  b  c  d  e  f  g  h  i\n");
    static const char *const names[4] = {"South", "West", "North", "East"};
    for (int p = 0; p < s->np; p++) {
        PLY_OUT("%s (%c, seat %d): ", names[s->side[p]], sidec[s->side[p]], p);
        if (s->status[p] == ST_ALIVE)
            PLY_OUT("playing");
        else if (s->status[p] == ST_ABSENT)
            PLY_OUT("empty seat");
        else
            PLY_OUT("removed (%d.)", s->status[p] - 1);
        PLY_OUT("\n");
    }
    if (s->over)
        PLY_OUT("game over after %d steps\n", s->ply);
    else
        PLY_OUT("turn %d: %s to move, %d step%s left%s\n", s->turn,
            names[s->side[s->mover]], s->steps, s->steps == 1 ? "" : "s",
            s->lev == LEV_ON ? ", levitating" : "");
    return (int)len;
}

/* ---- evaluation: a linear form over named weights ----
 *
 * A game of Splut! is decided by whose Sorcerer goes next, so the main
 * terms are kill threats. kill[q] has a bit for each team whose Sorcerer
 * q's Troll can hit within q's next turn (its steps left when q is to
 * move, 3 otherwise; 2 for the second turn of the game) by stepping and
 * pulling through empty squares and then throwing, the rest of the board
 * standing still (troll_plans). Whether a threat is carried out depends
 * on the turn order: the team to move does it now (killable.now); a team
 * that moves before p's next turn may do it (killable.before); one that
 * moves after p's turn leaves p a turn to answer (killable.later). */

enum { W_THREAT, W_ATTACK, W_DWARF, W_TROLL, W_ROCKNEAR, W_EXPOSED,
       W_ESCAPE, W_TOMOVE, W_REMOVED, W_KNOW, W_KBEFORE, W_KLATER,
       W_KILLNOW, W_KILLNEXT, W_OKNOW, W_OKBEFORE, W_OKLATER, SP_NW };
static const char *const sp_names[SP_NW] = {
    "threatened", "attacks", "dwarf", "troll", "troll.rock.near",
    "sorcerer.exposed", "sorcerer.escape", "tempo", "opponents.removed",
    "killable.now", "killable.before", "killable.later", "kills.now",
    "kills.next", "others.killable.now", "others.killable.before",
    "others.killable.later",
};
static const int sp_weights[SP_NW] = {
    0, 0, 60, 150, 30, -40, 15, 20, 4500, -6000, -3000, -600, 300, 200,
    2400, 1200, 300,
};

static int dist(int a, int b)
{
    return abs(a % 9 - b % 9) + abs(a / 9 - b / 9);
}

/* A team's plans to kill within its steps (team_plans): the board as
 * the plan changes it, the four Rocks with whether each may still be
 * levitated, the team's Troll and Sorcerer, its levitation state. */
typedef struct Plan {
    uint8_t cell[SP_SQ];
    int rocks[4], locked[4], nrocks;
    int troll, sorc;
    int lev, lev_rock;          /* LEV_*, the index of the Rock levitated */
    uint8_t aim[SP_SQ];         /* bit e: another team's Sorcerer in
                                 * line from the square in direction e */
    uint8_t *best;              /* by seat: fewest steps to kill */
} Plan;

static void team_plans(Plan *pl, int used, int left);

/* One step of a plan: the Troll from t to u (pulling the Rock rocks[pr]
 * behind it when pr >= 0), levitation over. */
static void troll_step(Plan *pl, int t, int u, int pr, int used, int left)
{
    uint8_t *cell = pl->cell;
    int lev = pl->lev, b = pr >= 0 ? pl->rocks[pr] : -1;
    cell[u] = cell[t];
    cell[t] = EMPTY;
    if (b >= 0) {
        cell[t] = ROCK;
        cell[b] = EMPTY;
        pl->rocks[pr] = t;
    }
    pl->troll = u;
    if (lev == LEV_ON)
        pl->lev = LEV_DONE;
    team_plans(pl, used + 1, left - 1);
    pl->lev = lev;
    pl->troll = t;
    if (b >= 0) {
        pl->rocks[pr] = b;
        cell[b] = ROCK;
    }
    cell[t] = cell[u];
    cell[u] = EMPTY;
}

/* The Sorcerer from S to u levitating rocks[r] from q to w (w may be S,
 * the square the Sorcerer leaves; q may be u, the Rock ahead). */
static void lev_step(Plan *pl, int u, int r, int w, int used, int left)
{
    uint8_t *cell = pl->cell;
    int S = pl->sorc, q = pl->rocks[r];
    int lev = pl->lev, lr = pl->lev_rock;
    uint8_t me = cell[S];
    cell[q] = EMPTY;
    cell[S] = EMPTY;
    cell[u] = me;
    cell[w] = ROCK;
    pl->rocks[r] = w;
    pl->sorc = u;
    pl->lev = LEV_ON;
    pl->lev_rock = r;
    team_plans(pl, used + 1, left - 1);
    pl->lev = lev;
    pl->lev_rock = lr;
    pl->sorc = S;
    pl->rocks[r] = q;
    cell[w] = EMPTY;
    cell[u] = EMPTY;
    cell[q] = ROCK;
    cell[S] = me;
}

/* Throws by the team's Troll within `left` steps: best[v] becomes at most
 * used + 1 when a throw after `used` steps hits v's Sorcerer. The steps
 * before it: the Troll's, plain or pulling the Rock behind it, and the
 * Sorcerer's levitating a Rock (by the levitation rules, with locked[]
 * for the Rocks it may not take). Each step brings the Troll at most one
 * square nearer a Rock, so a Troll farther than `left` from every Rock
 * has no plan, and only Rocks within `left` are levitated. */
static void team_plans(Plan *pl, int used, int left)
{
    uint8_t *cell = pl->cell;
    int t = pl->troll, reach = 0, adj = 0;
    for (int d = 0; d < 4; d++) {
        int u = nb(t, d);
        if (u < 0 || cell[u] != ROCK)
            continue;
        reach = adj = 1;
        for (int e = 0; e < 4; e++) {
            if (!(pl->aim[u] >> e & 1))
                continue;
            int v = flight(cell, u, e, t);
            if (v >= 0 && is_piece(cell[v]) && kind_of(cell[v]) == K_SORC &&
                pl->best[seat_of(cell[v])] > used + 1)
                pl->best[seat_of(cell[v])] = (uint8_t)(used + 1);
        }
    }
    if (left < 2)
        return;
    int rd[4];
    for (int r = 0; r < pl->nrocks; r++) {
        rd[r] = dist(t, pl->rocks[r]);
        reach |= rd[r] <= left;
    }
    if (!reach)
        return;
    /* with two steps left, only a step after which the Troll stands
     * next to a Rock leaves a throw (a pulled one always does) */
    for (int d = 0; d < 4; d++) {
        int u = nb(t, d);
        if (u < 0 || cell[u] != EMPTY)
            continue;
        int b = nb(t, (d + 2) & 3);
        int pull = b >= 0 && cell[b] == ROCK;
        int next = left > 2;
        for (int e = 0; e < 4 && !next; e++) {
            int w = nb(u, e);
            next = w >= 0 && cell[w] == ROCK;
        }
        if (next)
            troll_step(pl, t, u, -1, used, left);
        if (pull) {
            int r = 0;
            while (pl->rocks[r] != b)
                r++;
            troll_step(pl, t, u, r, used, left);
        }
    }
    int S = pl->sorc, cand = 0;
    if (S < 0 || pl->lev == LEV_DONE)
        return;
    for (int r = 0; r < pl->nrocks; r++)
        if (!pl->locked[r] && rd[r] <= left &&
            (pl->lev != LEV_ON || r == pl->lev_rock))
            cand |= 1 << r;
    for (int d = 0; d < 4 && cand; d++) {
        int u = nb(S, d);
        if (u < 0 || (cell[u] != EMPTY && cell[u] != ROCK))
            continue;
        for (int r = 0; r < pl->nrocks; r++) {
            int q = pl->rocks[r], w = nb(q, d);
            if (!(cand >> r & 1) || w < 0 || (cell[u] == ROCK && q != u) ||
                (left == 2 && !adj && dist(t, w) != 1))
                continue;
            if (cell[w] == EMPTY ? w != u : w == S && q != u)
                lev_step(pl, u, r, w, used, left);
        }
    }
}

/* Features of every seat: f[p][W_*] (zero for a seat not playing). */
static void features(const Splut *s, int f[SP_SEATS][SP_NW])
{
    int sorc[SP_SEATS], troll[SP_SEATS], rocks[4], nrocks = 0;
    memset(f, 0, sizeof(int) * SP_SEATS * SP_NW);
    for (int p = 0; p < SP_SEATS; p++)
        sorc[p] = troll[p] = -1;
    for (int q = 0; q < SP_SQ; q++) {
        int c = s->cell[q];
        if (c == ROCK) {
            if (nrocks < 4)
                rocks[nrocks++] = q;
        } else if (is_piece(c)) {
            int p = seat_of(c), k = kind_of(c);
            if (k == K_SORC)
                sorc[p] = q;
            else if (k == K_TROLL)
                troll[p] = q;
            else
                f[p][W_DWARF] = 1;
        }
    }
    /* turns until each seat's next turn starts (0: the mover), and the
     * steps it will have */
    int order[SP_SEATS] = {0}, budget[SP_SEATS] = {0};
    int m = s->mover, k = 0;
    for (int i = 0; i < s->np; i++) {
        int p = (m + i) % s->np;
        if (s->status[p] != ST_ALIVE)
            continue;
        order[p] = k;
        budget[p] = !k ? s->steps : s->turn + k == 2 ? 2 : 3;
        k++;
    }
    /* kill[q][p]: the fewest steps in which q's Troll hits p's Sorcerer,
     * within q's next turn (9: not) */
    uint8_t kill[SP_SEATS][SP_SEATS];
    Plan pl;
    memset(kill, 9, sizeof kill);
    memcpy(pl.cell, s->cell, sizeof pl.cell);
    memcpy(pl.rocks, rocks, sizeof rocks);
    pl.nrocks = nrocks;
    for (int q = 0; q < s->np; q++) {
        if (s->status[q] != ST_ALIVE || troll[q] < 0 || budget[q] <= 0)
            continue;
        pl.troll = troll[q];
        pl.sorc = sorc[q];
        memset(pl.aim, 0, sizeof pl.aim);
        for (int v = 0; v < s->np; v++)
            for (int d = 0; v != q && sorc[v] >= 0 && d < 4; d++)
                for (int u = nb(sorc[v], d); u >= 0; u = nb(u, d))
                    pl.aim[u] |= (uint8_t)(1 << ((d + 2) & 3));
        pl.best = kill[q];
        pl.lev = q == m ? s->lev : LEV_FREE;
        pl.lev_rock = -1;
        for (int r = 0; r < nrocks; r++) {
            int rt = s->rturn[rocks[r]];
            if (rocks[r] == s->lev_sq && pl.lev == LEV_ON)
                pl.lev_rock = r;
            /* the mover by the rules; the next team may not take a Rock
             * moved in this turn, nor (levitate=round) one moved since
             * its own last turn; later teams' previous turns are to come */
            pl.locked[r] = q == m ? !levitatable(s, rocks[r])
                         : rt && (rt == s->turn ||
                                  (s->rule == RULE_ROUND &&
                                   rt > s->last_turn[q]));
            if (q != m && order[q] > 1 && s->rule == RULE_PREVIOUS)
                pl.locked[r] = 0;
        }
        team_plans(&pl, 0, budget[q]);
    }
    for (int p = 0; p < s->np; p++) {
        if (s->status[p] != ST_ALIVE)
            continue;
        int *fp = f[p];
        for (int q = 0; q < s->np; q++) {
            if (q == p || s->status[q] != ST_ALIVE)
                continue;
            if (kill[q][p] == 1)
                fp[W_THREAT] = 1;
            if (kill[p][q] == 1)
                fp[W_ATTACK] = 1;
            if (kill[p][q] < 9)
                fp[p == m ? W_KILLNOW : W_KILLNEXT] = 1;
            if (kill[q][p] == 9)
                continue;
            if (p != m && q == m)
                fp[W_KNOW] = 1;
            else if (p != m && order[q] < order[p])
                fp[W_KBEFORE] = 1;
            else
                fp[W_KLATER] = 1;
        }
        if (troll[p] >= 0) {
            fp[W_TROLL] = 1;
            int best = 8;
            for (int r = 0; r < nrocks; r++) {
                int dd = dist(troll[p], rocks[r]);
                if (dd < best)
                    best = dd;
            }
            fp[W_ROCKNEAR] = 8 - best;
        }
        if (sorc[p] >= 0) {
            for (int d = 0; d < 4; d++) {
                int u = nb(sorc[p], d);
                if (u >= 0 && s->cell[u] == EMPTY)
                    fp[W_ESCAPE]++;
                /* Rocks in line with the Sorcerer over empty squares and
                 * Dwarves: a Troll next to one can throw it. */
                for (int v = u; v >= 0; v = nb(v, d)) {
                    int c = s->cell[v];
                    if (c == ROCK) {
                        fp[W_EXPOSED]++;
                        break;
                    }
                    if (c != EMPTY && !(is_piece(c) && kind_of(c) == K_DWARF))
                        break;
                }
            }
        }
        fp[W_TOMOVE] = m == p ? s->steps : 0;
    }
}

/* The terms of p's evaluation from the features f of every seat: up to
 * W_REMOVED, p's feature less its mean over the other teams playing; the
 * share of the other seated teams removed; p's own threats (killable.*,
 * kills.*) as they are; the share of the other seated teams killable
 * (others.killable.*, which a removal turns into opponents.removed). */
static void seat_terms(const Splut *s, int f[SP_SEATS][SP_NW], int p,
                       double *df)
{
    int others = 0, removed = 0, seated = 0;
    double sum[SP_NW] = {0};
    for (int q = 0; q < s->np; q++) {
        if (q == p || s->status[q] == ST_ABSENT)
            continue;
        seated++;
        if (s->status[q] != ST_ALIVE) {
            removed++;
            continue;
        }
        for (int i = 0; i < SP_NW; i++)
            sum[i] += f[q][i];
        others++;
    }
    for (int i = 0; i < W_REMOVED; i++)
        df[i] = f[p][i] - (others ? sum[i] / others : 0);
    df[W_REMOVED] = seated ? (double)removed / seated : 0;
    for (int i = W_KNOW; i <= W_KILLNEXT; i++)
        df[i] = f[p][i];
    for (int i = 0; i < 3; i++)
        df[W_OKNOW + i] = seated ? sum[W_KNOW + i] / seated : 0;
}

/* The terms of p's evaluation from the features f of every seat; in a
 * duel (two seats) the mean of p's and the negation of the other's, so
 * that the evaluation is antisymmetric. */
static void seat_diff(const Splut *s, int f[SP_SEATS][SP_NW], int p,
                      double *df)
{
    seat_terms(s, f, p, df);
    if (s->np == 2 && s->status[1 - p] == ST_ALIVE) {
        double dq[SP_NW];
        seat_terms(s, f, 1 - p, dq);
        for (int i = 0; i < SP_NW; i++)
            df[i] = (df[i] - dq[i]) / 2;
    }
}

static void diff_features(const Splut *s, int p, double *df)
{
    int f[SP_SEATS][SP_NW];
    features(s, f);
    seat_diff(s, f, p, df);
}

/* p's evaluation from the features f of every seat. */
static int seat_eval(const Splut *s, int f[SP_SEATS][SP_NW], int p)
{
    double df[SP_NW], v = 0;
    if (s->status[p] != ST_ALIVE)
        return -EVAL_MAX / 2;
    seat_diff(s, f, p, df);
    for (int i = 0; i < SP_NW; i++)
        v += df[i] * sp_weights[i];
    if (v > EVAL_MAX / 2)
        v = EVAL_MAX / 2;
    if (v < -EVAL_MAX / 2)
        v = -EVAL_MAX / 2;
    return (int)(v >= 0 ? v + 0.5 : v - 0.5);
}

static int splut_eval(const void *st, int player)
{
    const Splut *s = st;
    int f[SP_SEATS][SP_NW];
    if (s->status[player] != ST_ALIVE)
        return -EVAL_MAX / 2;
    features(s, f);
    return seat_eval(s, f, player);
}

/* Every seat's evaluation from one pass over the features. */
static void splut_eval_all(const void *st, int *out)
{
    const Splut *s = st;
    int f[SP_SEATS][SP_NW];
    features(s, f);
    for (int p = 0; p < s->np; p++)
        out[p] = seat_eval(s, f, p);
}

static int splut_terms_of(const void *st, int player, EvalTerm *out,
                          double *base)
{
    const Splut *s = st;
    double df[SP_NW];
    int n = 0;
    *base = 0;
    if (s->status[player] != ST_ALIVE) {
        *base = -EVAL_MAX / 2;
        return 0;
    }
    diff_features(s, player, df);
    for (int i = 0; i < SP_NW; i++)
        if (df[i] != 0)
            out[n++] = (EvalTerm){.index = i, .coef = (float)df[i]};
    return n;
}

static int splut_terms(const void *st, EvalTerm *out, double *base)
{
    return splut_terms_of(st, 0, out, base);
}

static const EvalTuning splut_tuning = {
    .nparams = SP_NW, .names = sp_names, .weights = sp_weights,
    .terms = splut_terms, .terms_of = splut_terms_of,
};

/* Ordering: throws that remove a Sorcerer first, other throws last (they
 * end the turn), pushes and levitations before plain steps. */
static int splut_heuristic(const void *st, Move m)
{
    const Splut *s = st;
    int kind = m_kind(m);
    if (kind == MV_THROW) {
        int sq = m_from(m), u = nb(sq, m_dir(m));
        int v = flight(s->cell, u, m_tdir(m), sq);
        int c = v >= 0 ? s->cell[v] : 0;
        if (is_piece(c) && kind_of(c) == K_SORC)
            return seat_of(c) == s->mover ? -1000 : 1000;
        return is_piece(c) ? 40 : 0;
    }
    if (kind == MV_PASS)
        return 0;
    return kind == MV_STEP ? 10 : 20;
}

static int splut_is_noisy(const void *st, Move m)
{
    return m_kind(m) == MV_THROW && splut_heuristic(st, m) >= 1000;
}

static int splut_score(const void *st, int player)
{
    const Splut *s = st;
    return s->status[player] == ST_ALIVE;
}

static int splut_check(const void *st)
{
    const Splut *s = st;
    int sorc[SP_SEATS] = {0}, rocks = 0;
    if (s->np < 2 || s->np > SP_SEATS)
        return -1;
    for (int q = 0; q < SP_SQ; q++) {
        int c = s->cell[q];
        if (!on_board(q) && c)
            return -1;
        if (c == ROCK)
            rocks++;
        else if (s->rturn[q])
            return -1;
        if (is_piece(c)) {
            if (seat_of(c) >= s->np || kind_of(c) > K_TROLL ||
                s->status[seat_of(c)] != ST_ALIVE)
                return -1;
            if (kind_of(c) == K_SORC)
                sorc[seat_of(c)]++;
        }
    }
    if (rocks != 4)
        return -1;
    for (int p = 0; p < s->np; p++)
        if ((s->status[p] == ST_ALIVE) != (sorc[p] == 1))
            return -1;
    if (!s->over && (s->status[s->mover] != ST_ALIVE || !s->steps))
        return -1;
    if (s->lev == LEV_ON && s->cell[s->lev_sq] != ROCK)
        return -1;
    return 0;
}

static int splut_plies_left(const void *st)
{
    const Splut *s = st;
    int left = SP_MAX_PLIES - s->ply;
    return left < 120 ? left : 120;
}

static const char *const splut_players[] = {"South", "West", "North",
                                            "East"};
static const char *const duel_players[] = {"South", "North"};

#define SPLUT_NOTATION                                                      \
    "Squares a1..i9 on the diamond |file-e| + |rank-5| <= 4. One move is\n" \
    "one step: Tf2-g2 (a step), Tf3-f4+f2 (a Troll step pulling the Rock\n" \
    "from f2 behind it), Te2xe1>e5 (the Troll steps onto e1 and throws its\n" \
    "Rock, which lands on e5), De2>e3 (a Dwarf pushing the line from e3),\n" \
    "Sd2-d3+c3 (a Sorcerer step levitating the Rock on c3 the same way;\n" \
    "Sd2-d3+d3 when the Rock ahead is moved on), pass (no step exists).\n"  \
    "Setup string: ranks 9..1 by '/', each square '.', R (Rock; Rn: it\n"   \
    "last moved in turn n) or S/D/T with the seat digit; then the seat to\n" \
    "move, steps left, turn number, levitation ('-', 'x' or the levitated\n" \
    "Rock's square), plies, seat states ('a' playing, '-' empty seat, k\n"  \
    "the k-th removed) and each seat's last turn, e.g. the start:\n"

#define SPLUT_RULES                                                         \
    "Splut! (De Coninck 2009). Each team: a Sorcerer, a Dwarf and a Troll;\n" \
    "4 Rocks start on the diamond's tips. A turn is 3 steps (the game's\n"  \
    "first turn 1 step, its second 2); each step moves one own piece one\n" \
    "square orthogonally to an empty square. Troll: may pull a Rock right\n" \
    "behind it; stepping onto a Rock it throws it in any direction that\n"  \
    "lets it move (its vacated square counts as empty): the Rock flies\n"   \
    "over empty squares and Dwarves and stops before the edge, a Troll or\n" \
    "a Rock, crushing a Dwarf it stops on; hitting a Sorcerer it kills it\n" \
    "and lies on its square. A throw ends the turn. Dwarf: stepping into\n" \
    "an occupied square pushes the whole line ahead one square, if an\n"    \
    "empty square ends it (not the edge). Sorcerer: with a step it may\n"   \
    "levitate one Rock one square the same way into an empty square (the\n" \
    "Rock ahead of it, or right behind it, too); the same Rock on\n"        \
    "consecutive steps only, and once it stops it may not start again this\n" \
    "turn; a Rock moved in the previous turn may not be levitated (option\n" \
    "levitate=round: in any turn since the mover's own last). A team whose\n" \
    "Sorcerer dies (also by its own throw) leaves the game with its pieces\n" \
    "and is skipped; the last Sorcerer standing wins. A player without a\n" \
    "step passes. After 1200 steps the game stops: the teams still playing\n" \
    "share the first places. Places: survivors first, removed teams in\n"   \
    "reverse order of removal, empty seats last; place r of n is worth\n"   \
    "1 - 2(r-1)/(n-1).\n"

const GameVtbl game_splut = {
    .info = {
        .name = "splut",
        .title = "Splut! (2-4 teams, 4 seats)",
        .num_players = 4,
        .max_moves = SP_MAX_MOVES,
        .max_game_length = SP_MAX_PLIES,
        .state_size = sizeof(Splut),
        .flags = GAME_ZERO_SUM,
        .player_names = splut_players,
        .options = splut_options,
        .notation = SPLUT_NOTATION
            "R/T2D2S2/...../S1.....T3/RD1.....D3R/T1.....S3/...../S0D0T0/R\n"
            "0 1 1 - 0 aaaa 0,0,0,0 (players=4).",
        .rules = SPLUT_RULES
            "Seats: South, West, North, East, in turn order, South first.\n"
            "players=3: South, West, North (seats 0-2); players=2: South and\n"
            "North (seats 0 and 1, as in splut-duel); front ends seat only\n"
            "the teams playing.",
    },
    .init = splut_init,
    .to_move = splut_to_move,
    .gen_moves = splut_gen_moves,
    .make = splut_make,
    .returns = splut_returns,
    .hash = splut_hash,
    .to_text = splut_to_text,
    .from_text = splut_from_text,
    .move_to_text = splut_move_to_text,
    .text_to_move = splut_text_to_move,
    .render = splut_render,
    .layout = splut_layout,
    .move_cells = splut_move_cells,
    .eval = splut_eval,
    .eval_all = splut_eval_all,
    .heuristic = splut_heuristic,
    .is_noisy = splut_is_noisy,
    .score = splut_score,
    .check = splut_check,
    .tuning = &splut_tuning,
    .plies_left = splut_plies_left,
    .seats = splut_seats,
    .eliminated = splut_eliminated,
};

const GameVtbl game_splut_duel = {
    .info = {
        .name = "splut-duel",
        .title = "Splut! duel (2 players, 4 Rocks, the Axiom set-up)",
        .num_players = 2,
        .max_moves = SP_MAX_MOVES,
        .max_game_length = SP_MAX_PLIES,
        .state_size = sizeof(Splut),
        .flags = GAME_ZERO_SUM,
        .player_names = duel_players,
        .options = duel_options,
        .notation = SPLUT_NOTATION
            "R/T1D1S1/...../......./R.......R/......./...../S0D0T0/R\n"
            "0 1 1 - 0 aa 0,0 (seat 0 South, seat 1 North).",
        .rules = SPLUT_RULES
            "The duel: South (seat 0, 1 step first) against North (seat 1),\n"
            "all four Rocks on the board, as Axiom's two-player set-up.",
    },
    .init = duel_init,
    .to_move = splut_to_move,
    .gen_moves = splut_gen_moves,
    .make = splut_make,
    .returns = splut_returns,
    .hash = splut_hash,
    .to_text = splut_to_text,
    .from_text = splut_from_text,
    .move_to_text = splut_move_to_text,
    .text_to_move = splut_text_to_move,
    .render = splut_render,
    .layout = splut_layout,
    .move_cells = splut_move_cells,
    .eval = splut_eval,
    .eval_all = splut_eval_all,
    .heuristic = splut_heuristic,
    .is_noisy = splut_is_noisy,
    .score = splut_score,
    .check = splut_check,
    .tuning = &splut_tuning,
    .plies_left = splut_plies_left,
    .seats = splut_seats,
    .eliminated = splut_eliminated,
};
