/* generals.c — Game of the Generals (Salpakan) with an arbiter.
 *
 * 9x8 board, 21 pieces a side: five generals (5 to 1 star), colonel,
 * lieutenant colonel, major, captain, 1st and 2nd lieutenant, sergeant,
 * six privates, two spies and the flag. Ranks are hidden from the
 * opponent; a challenge (a move onto an enemy piece) is resolved by the
 * arbiter, who announces only which piece(s) left the board.
 *
 * The true state holds every rank and, for every piece, the set of ranks
 * its opponent still considers possible (`know`): the arbiter's outcomes
 * narrow it (the piece that beat my major is a lieutenant colonel or
 * higher, or a spy), and so does a piece standing on the far row when the
 * game goes on (it is not the flag). These sets are exactly what a player
 * has learnt, so a player's view (observe()) keeps them on the enemy
 * pieces, on the board and among the removed ones, with the ranks
 * replaced by unknowns, and drops them on his own pieces (he cannot know
 * what the opponent learnt: that depends on the ranks he cannot see).
 * determinize() deals the enemy ranks: a random assignment of the 21
 * ranks to the enemy pieces that fits every set (constrained pieces first,
 * each rank drawn by its count among those left and kept only when the
 * other constrained pieces can still be matched, then the rest shuffled).
 *
 * The setup phase is moves: White places his 21 pieces one by one on his
 * first three rows, then Black on his; the opponent's placement is behind
 * a screen until both are done (a view during the setup counts the enemy
 * pieces placed, without squares). Option setup=random deals both sides a
 * random setup at init (for matches and perft). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"

enum { FILES = 9, ROWS = 8, NSQ = 72, NPC = 21, NRANK = 15, UNKNOWN = 15 };
enum { FULL = 0x7fff };
enum {
    R_FLAG, R_PVT, R_SGT, R_2LT, R_1LT, R_CPT, R_MAJ, R_LTC, R_COL,
    R_G1, R_G2, R_G3, R_G4, R_G5, R_SPY
};
enum { OUT_ATT, OUT_DEF, OUT_BOTH };
enum { OVER_NO, OVER_WHITE, OVER_BLACK, OVER_DRAW };
enum { FLAG_ADJACENT, FLAG_SURVIVE, FLAG_IMMEDIATE };
enum { PLACE = 1 << 16, MAX_MOVES = 27 * NRANK, MAX_LIMIT = 2000 };

static const int COUNT[NRANK] = {1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2};
static const char LETTER[] = "FPRQONMLKEDCBAS";
static const int VAL[NRANK] = {0,  15, 20,  25,  30,  40,  50, 60,
                               70, 85, 100, 120, 145, 180, 110};

/* No padding: every field is a byte or an aligned 16-bit word, so states
 * compare and hash as bytes. */
typedef struct Gen {
    uint8_t sq[NSQ];            /* 0 empty, else 1 + owner * 16 + rank */
    uint16_t know[NSQ];         /* ranks the piece's opponent thinks possible */
    uint16_t out_know[2][NPC];  /* removed pieces, in order of removal */
    uint8_t out_rank[2][NPC];
    uint8_t nout[2];
    uint8_t side;
    int8_t view;                /* -1 the true state, else the observer */
    uint8_t screened;           /* view in the setup: enemy pieces placed */
    uint8_t over;
    uint8_t flagrule, setup_random;
    uint16_t limit;             /* movement plies before the draw */
    uint16_t ply;               /* movement plies played */
} Gen;

_Static_assert(sizeof(Gen) == 354, "Gen has no padding");

static int owner(int pc) { return (pc - 1) >> 4; }
static int rank_of(int pc) { return (pc - 1) & 15; }
static int code(int own, int r) { return 1 + own * 16 + r; }
static int home_row(int c, int row) { return c ? row >= 5 : row <= 2; }
static int far_row(int c) { return c ? 0 : ROWS - 1; }

static int outcome(int a, int d)
{
    if (a == d)
        return a == R_FLAG ? OUT_ATT : OUT_BOTH;
    if (d == R_FLAG)
        return OUT_ATT;
    if (a == R_FLAG)
        return OUT_DEF;
    if (a == R_SPY)
        return d == R_PVT ? OUT_DEF : OUT_ATT;
    if (d == R_SPY)
        return a == R_PVT ? OUT_ATT : OUT_DEF;
    return a > d ? OUT_ATT : OUT_DEF;
}

/* The rank set of a removed piece that play alone gives: the flag ends
 * the game when it is taken (announced); any other piece removed is not
 * the flag. */
static uint16_t out_default(int rk)
{
    return rk == R_FLAG ? (uint16_t)1u : (uint16_t)(FULL & ~1u);
}

static int placed(const Gen *g, int c)
{
    int n = g->nout[c];
    for (int s = 0; s < NSQ; s++)
        n += g->sq[s] && owner(g->sq[s]) == c;
    if (g->view >= 0 && c != g->view)
        n += g->screened;
    return n;
}

static int in_setup(const Gen *g)
{
    return placed(g, 0) < NPC || placed(g, 1) < NPC;
}

static int popcount16(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static uint64_t gen_hash(const void *st)
{
    const unsigned char *p = st;
    uint64_t h = 0x6e6572616c73ull;
    size_t i = 0;
    for (; i + 8 <= sizeof(Gen); i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = ply_mix64(h ^ w) + i;
    }
    uint64_t w = 0;
    memcpy(&w, p + i, sizeof(Gen) - i);
    return ply_mix64(h ^ w);
}

static const int DF[4] = {0, 0, 1, -1}, DR[4] = {1, -1, 0, 0};

static int neighbour(int s, int d)
{
    int f = s % FILES + DF[d], r = s / FILES + DR[d];
    if (f < 0 || f >= FILES || r < 0 || r >= ROWS)
        return -1;
    return r * FILES + f;
}

static int gen_moves_of(const Gen *g, Move *out)
{
    int n = 0;
    if (g->over)
        return 0;
    if (in_setup(g)) {
        int c = placed(g, 0) < NPC ? 0 : 1;
        int left[NRANK];
        memcpy(left, COUNT, sizeof left);
        for (int s = 0; s < NSQ; s++)
            if (g->sq[s] && owner(g->sq[s]) == c && rank_of(g->sq[s]) < NRANK)
                left[rank_of(g->sq[s])]--;
        for (int s = 0; s < NSQ; s++) {
            if (g->sq[s] || !home_row(c, s / FILES))
                continue;
            for (int r = 0; r < NRANK; r++)
                if (left[r] > 0)
                    out[n++] = PLACE | (Move)r << 8 | (Move)s;
        }
        return n;
    }
    for (int s = 0; s < NSQ; s++) {
        if (!g->sq[s] || owner(g->sq[s]) != g->side)
            continue;
        for (int d = 0; d < 4; d++) {
            int t = neighbour(s, d);
            if (t >= 0 && !(g->sq[t] && owner(g->sq[t]) == g->side))
                out[n++] = (Move)s | (Move)t << 7;
        }
    }
    return n;
}

static int has_move(const Gen *g, int c)
{
    for (int s = 0; s < NSQ; s++) {
        if (!g->sq[s] || owner(g->sq[s]) != c)
            continue;
        for (int d = 0; d < 4; d++) {
            int t = neighbour(s, d);
            if (t >= 0 && !(g->sq[t] && owner(g->sq[t]) == c))
                return 1;
        }
    }
    return 0;
}

static int flag_square(const Gen *g, int c)
{
    for (int s = 0; s < NSQ; s++)
        if (g->sq[s] == code(c, R_FLAG))
            return s;
    return -1;
}

static int flag_removed(const Gen *g, int c)
{
    for (int i = 0; i < g->nout[c]; i++)
        if (g->out_rank[c][i] == R_FLAG)
            return 1;
    return 0;
}

static int enemy_adjacent(const Gen *g, int s, int c)
{
    for (int d = 0; d < 4; d++) {
        int t = neighbour(s, d);
        if (t >= 0 && g->sq[t] && owner(g->sq[t]) != c)
            return 1;
    }
    return 0;
}

static void remove_piece(Gen *g, int s)
{
    int c = owner(g->sq[s]);
    g->out_rank[c][g->nout[c]] = (uint8_t)rank_of(g->sq[s]);
    /* the arbiter announces a taken flag: the game ends with it, so a
     * piece removed in a game that goes on is not the flag */
    g->out_know[c][g->nout[c]] = rank_of(g->sq[s]) == R_FLAG
                                 ? (uint16_t)(1u << R_FLAG)
                                 : (uint16_t)(g->know[s] & ~1u);
    g->nout[c]++;
    g->sq[s] = 0;
    g->know[s] = 0;
}

static void gen_make(void *st, Move m)
{
    Gen *g = st;
    if (m & PLACE) {
        int s = (int)(m & 127), r = (int)((m >> 8) & 15);
        int c = placed(g, 0) < NPC ? 0 : 1;
        g->sq[s] = (uint8_t)code(c, r);
        g->know[s] = FULL;
        g->side = (uint8_t)(placed(g, 0) < NPC ? 0 : placed(g, 1) < NPC);
        return;
    }
    int from = (int)(m & 127), to = (int)((m >> 7) & 127);
    int q = g->side, arrived = -1;
    if (!g->sq[to]) {
        g->sq[to] = g->sq[from];
        g->know[to] = g->know[from];
        g->sq[from] = 0;
        g->know[from] = 0;
        arrived = to;
    } else {
        int a = rank_of(g->sq[from]), d = rank_of(g->sq[to]);
        int o = outcome(a, d);
        unsigned ka = 0, kd = 0;
        for (int x = 0; x < NRANK; x++) {
            if (outcome(x, d) == o)
                ka |= 1u << x;
            if (outcome(a, x) == o)
                kd |= 1u << x;
        }
        g->know[from] &= (uint16_t)ka;
        g->know[to] &= (uint16_t)kd;
        if (o == OUT_ATT) {
            remove_piece(g, to);
            g->sq[to] = g->sq[from];
            g->know[to] = g->know[from];
            g->sq[from] = 0;
            g->know[from] = 0;
            arrived = to;
        } else if (o == OUT_DEF) {
            remove_piece(g, from);
        } else {
            remove_piece(g, from);
            remove_piece(g, to);
        }
    }
    g->ply++;
    g->side = (uint8_t)!q;
    /* the end: a flag taken; the opponent's flag that survived this turn
     * on its far row; this side's flag arriving on its far row */
    if (flag_removed(g, !q)) {
        g->over = q ? OVER_BLACK : OVER_WHITE;
        return;
    }
    if (flag_removed(g, q)) {
        g->over = q ? OVER_WHITE : OVER_BLACK;
        return;
    }
    int fs = flag_square(g, !q);
    if (fs >= 0 && fs / FILES == far_row(!q)) {
        g->over = q ? OVER_WHITE : OVER_BLACK;
        return;
    }
    int pending_ok = 0;
    if (arrived >= 0 && arrived / FILES == far_row(q)) {
        int flag = rank_of(g->sq[arrived]) == R_FLAG;
        int adj = enemy_adjacent(g, arrived, q);
        if (g->flagrule == FLAG_IMMEDIATE ||
            (g->flagrule == FLAG_ADJACENT && !adj)) {
            if (flag) {
                g->over = q ? OVER_BLACK : OVER_WHITE;
                return;
            }
        } else {
            pending_ok = 1;
        }
    }
    /* the game goes on: a piece on its far row is not the flag, unless it
     * just arrived and must survive a turn */
    for (int c = 0; c < 2; c++)
        for (int f = 0; f < FILES; f++) {
            int s = far_row(c) * FILES + f;
            if (g->sq[s] && owner(g->sq[s]) == c &&
                !(pending_ok && s == arrived))
                g->know[s] &= (uint16_t)~1u;
        }
    if (g->ply >= g->limit) {
        g->over = OVER_DRAW;
        return;
    }
    if (!has_move(g, !q))
        g->over = q ? OVER_BLACK : OVER_WHITE;
}

/* Deals a random setup to c on his first three rows. */
static void deal(Gen *g, int c, int n, Rng *r)
{
    int ranks[NPC], k = 0;
    for (int x = 0; x < NRANK; x++)
        for (int i = 0; i < COUNT[x]; i++)
            ranks[k++] = x;
    for (int i = NPC - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1)), t = ranks[i];
        ranks[i] = ranks[j];
        ranks[j] = t;
    }
    int free_sq[NSQ], nf = 0;
    for (int s = 0; s < NSQ; s++)
        if (!g->sq[s] && home_row(c, s / FILES))
            free_sq[nf++] = s;
    for (int i = 0; i < n && nf; i++) {
        int j = (int)rng_below(r, (uint32_t)nf);
        g->sq[free_sq[j]] = (uint8_t)code(c, ranks[i]);
        g->know[free_sq[j]] = FULL;
        free_sq[j] = free_sq[--nf];
    }
}

static int gen_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)err;
    Gen *g = st;
    memset(g, 0, sizeof *g);
    g->view = -1;
    g->flagrule = (uint8_t)(opt ? opt[0] : FLAG_ADJACENT);
    g->setup_random = (uint8_t)(opt ? opt[1] : 0);
    g->limit = (uint16_t)(opt ? opt[2] : 400);
    if (g->setup_random) {
        Rng r;
        rng_seed(&r, seed ^ 0x5a1ba4a9ull);
        deal(g, 0, NPC, &r);
        deal(g, 1, NPC, &r);
    }
    return 0;
}

static int gen_to_move(const void *st)
{
    const Gen *g = st;
    if (g->over)
        return PLAYER_TERMINAL;
    if (in_setup(g))
        return placed(g, 0) < NPC ? 0 : 1;
    return g->side;
}

static int gen_gen(const void *st, Move *out) { return gen_moves_of(st, out); }

static void gen_returns(const void *st, double *out)
{
    const Gen *g = st;
    out[0] = g->over == OVER_WHITE ? 1 : g->over == OVER_BLACK ? -1 : 0;
    out[1] = -out[0];
}

/* ---------------------------------------------------------- text */

static void sq_name(int s, char *o)
{
    o[0] = (char)('a' + s % FILES);
    o[1] = (char)('1' + s / FILES);
    o[2] = 0;
}

static int parse_sq(const char *s)
{
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '8')
        return -1;
    return (s[1] - '1') * FILES + (s[0] - 'a');
}

static char piece_char(int pc)
{
    if (rank_of(pc) == UNKNOWN)
        return '?';
    char ch = LETTER[rank_of(pc)];
    return owner(pc) ? (char)tolower(ch) : ch;
}

static int rank_of_letter(int ch)
{
    const char *p = ch ? strchr(LETTER, toupper(ch)) : NULL;
    return p ? (int)(p - LETTER) : -1;
}

static int mask_text(unsigned m, char *o)
{
    int k = 0;
    for (int r = NRANK - 1; r >= 0; r--)
        if (m & (1u << r))
            o[k++] = LETTER[r];
    o[k] = 0;
    return k;
}

/* snprintf that never lets a running length pass the buffer: it writes
 * nothing and adds n when the text does not fit (the caller then sees
 * a length past its buffer and fails). */
static int put(char *o, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int put(char *o, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = n > 0 && n < 4096 ? vsnprintf(o, n, fmt, ap) : -1;
    va_end(ap);
    return w < 0 || (size_t)w >= n ? (int)n + 1 : w;
}

static int gen_to_text(const void *st, char *buf, size_t n)
{
    const Gen *g = st;
    char s[2048];
    int k = 0;
    for (int r = ROWS - 1; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < FILES; f++) {
            int pc = g->sq[r * FILES + f];
            if (!pc) {
                run++;
                continue;
            }
            if (run)
                s[k++] = (char)('0' + run);
            run = 0;
            s[k++] = piece_char(pc);
        }
        if (run)
            s[k++] = (char)('0' + run);
        if (r)
            s[k++] = '/';
    }
    k += put(s + k, sizeof s - (size_t)k, " %c %d", g->side ? 'b' : 'w',
                  g->ply);
    for (int x = 0; x < NSQ; x++)
        if (g->sq[x] && g->know[x] != FULL) {
            char nm[3], ms[NRANK + 1];
            sq_name(x, nm);
            mask_text(g->know[x], ms);
            k += put(s + k, sizeof s - (size_t)k, " %s:%s", nm, ms);
        }
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < g->nout[c]; i++) {
            char ms[NRANK + 1];
            k += put(s + k, sizeof s - (size_t)k, " x%c",
                          piece_char(code(c, g->out_rank[c][i])));
            if (g->out_know[c][i] != out_default(g->out_rank[c][i])) {
                mask_text(g->out_know[c][i], ms);
                k += put(s + k, sizeof s - (size_t)k, ":%s", ms);
            }
        }
    if (g->over)
        k += put(s + k, sizeof s - (size_t)k, " result %s",
                      g->over == OVER_WHITE ? "1-0" : g->over == OVER_BLACK
                      ? "0-1" : "1/2");
    if (g->view >= 0)
        k += put(s + k, sizeof s - (size_t)k, " view %c",
                      g->view ? 'b' : 'w');
    if (g->screened)
        k += put(s + k, sizeof s - (size_t)k, " screen %d", g->screened);
    if ((size_t)k >= sizeof s)
        return -1;
    int w = snprintf(buf, n, "%s", s);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int parse_mask(const char *s, uint16_t *m, PlyError *err)
{
    unsigned v = 0;
    if (!*s)
        return ply_fail(err, "an empty rank set after ':'");
    for (; *s; s++) {
        int r = isupper((unsigned char)*s) ? rank_of_letter(*s) : -1;
        if (r < 0)
            return ply_fail(err, "'%c' in a rank set is not a rank letter "
                            "(%s)", *s, LETTER);
        v |= 1u << r;
    }
    *m = (uint16_t)v;
    return 0;
}

/* Matches the pieces' rank sets to the counts left: 1 when every piece
 * can get a rank of its set. */
static int match_piece(int i, const uint16_t *mask, int *match, int *used,
                       const int *cnt, unsigned *seen, int n)
{
    for (int r = 0; r < NRANK; r++) {
        if (!(mask[i] & (1u << r)) || (*seen & (1u << r)) || !cnt[r])
            continue;
        *seen |= 1u << r;
        if (used[r] < cnt[r]) {
            match[i] = r;
            used[r]++;
            return 1;
        }
        for (int j = 0; j < n; j++)
            if (j != i && match[j] == r &&
                match_piece(j, mask, match, used, cnt, seen, n)) {
                match[i] = r;   /* j moved on, i takes its place at r */
                return 1;
            }
    }
    return 0;
}

static int feasible(const uint16_t *mask, int n, const int *cnt)
{
    int match[NPC], used[NRANK] = {0};
    for (int i = 0; i < n; i++)
        match[i] = -1;
    for (int i = 0; i < n; i++) {
        unsigned seen = 0;
        if (!match_piece(i, mask, match, used, cnt, &seen, n))
            return 0;
    }
    return 1;
}

/* Parses a setup string or (views ok) a view into t (already holding the
 * options); checks what both share. */
static int parse(Gen *t, const char *text, int views, PlyError *err)
{
    char buf[2048];
    if (strlen(text) >= sizeof buf)
        return ply_fail(err, "setup string too long");
    strcpy(buf, text);
    char *tok[400], *save = NULL;
    int nt = 0;
    for (char *x = strtok_r(buf, " \t", &save); x;
         x = strtok_r(NULL, " \t", &save)) {
        if (nt == 400)
            return ply_fail(err, "too many fields");
        tok[nt++] = x;
    }
    if (nt < 3)
        return ply_fail(err, "a generals setup is 'BOARD SIDE PLY "
                        "[SQ:RANKS]... [xPIECE[:RANKS]]... [result R]'");
    int view = -1, screened = 0;
    for (int i = 3; i < nt; i++) {
        if (!strcmp(tok[i], "view") || !strcmp(tok[i], "screen")) {
            if (!views)
                return ply_fail(err, "this is a player's view, not the true "
                                "position");
            if (i + 1 >= nt)
                return ply_fail(err, "'%s' wants a value", tok[i]);
            if (tok[i][0] == 'v') {
                if (strcmp(tok[i + 1], "w") && strcmp(tok[i + 1], "b"))
                    return ply_fail(err, "view w or b, not '%s'", tok[i + 1]);
                view = tok[i + 1][0] == 'b';
            } else {
                char *end;
                long v = strtol(tok[i + 1], &end, 10);
                if (*end || v < 1 || v > NPC)
                    return ply_fail(err, "screen 1..21, not '%s'",
                                    tok[i + 1]);
                screened = (int)v;
            }
        }
    }
    if (views && view < 0)
        return ply_fail(err, "not a player's view: want 'view w|b' at the "
                        "end");
    t->view = (int8_t)view;
    t->screened = (uint8_t)screened;
    int r = ROWS - 1, f = 0;
    for (const char *c = tok[0]; *c; c++) {
        if (*c == '/') {
            if (f != FILES || r == 0)
                return ply_fail(err, "the board needs 8 rows of 9 squares");
            r--, f = 0;
        } else if (*c >= '1' && *c <= '9') {
            f += *c - '0';
            if (f > FILES)
                return ply_fail(err, "a row has more than 9 squares");
        } else {
            int pc;
            if (*c == '?') {
                if (view < 0)
                    return ply_fail(err, "'?' only in a view");
                pc = code(!view, UNKNOWN);
            } else {
                int rk = rank_of_letter(*c);
                if (rk < 0)
                    return ply_fail(err, "'%c' is not a generals piece "
                                    "(%s, lower case Black, ? unknown)",
                                    *c, LETTER);
                pc = code(islower((unsigned char)*c) ? 1 : 0, rk);
                if (view >= 0 && owner(pc) != view)
                    return ply_fail(err, "a view shows enemy pieces as '?'");
            }
            if (f >= FILES)
                return ply_fail(err, "a row has more than 9 squares");
            t->sq[r * FILES + f] = (uint8_t)pc;
            t->know[r * FILES + f] = FULL;
            f++;
        }
    }
    if (r != 0 || f != FILES)
        return ply_fail(err, "the board needs 8 rows of 9 squares");
    if (strcmp(tok[1], "w") && strcmp(tok[1], "b"))
        return ply_fail(err, "the side to move is w or b, not '%s'", tok[1]);
    t->side = tok[1][0] == 'b';
    char *end;
    long ply = strtol(tok[2], &end, 10);
    if (*end || ply < 0 || ply > t->limit)
        return ply_fail(err, "the ply count is 0..%d, not '%s'", t->limit,
                        tok[2]);
    t->ply = (uint16_t)ply;
    for (int i = 3; i < nt; i++) {
        char *x = tok[i];
        if (!strcmp(x, "view") || !strcmp(x, "screen")) {
            i++;
        } else if (!strcmp(x, "result")) {
            if (i + 1 >= nt)
                return ply_fail(err, "'result' wants 1-0, 0-1 or 1/2");
            x = tok[++i];
            t->over = !strcmp(x, "1-0") ? OVER_WHITE : !strcmp(x, "0-1")
                    ? OVER_BLACK : !strcmp(x, "1/2") ? OVER_DRAW : 0;
            if (!t->over)
                return ply_fail(err, "result 1-0, 0-1 or 1/2, not '%s'", x);
        } else if (x[0] == 'x') {
            int pc;
            if (x[1] == '?') {
                if (view < 0)
                    return ply_fail(err, "'x?' only in a view");
                pc = code(!view, UNKNOWN);
            } else {
                int rk = rank_of_letter(x[1]);
                if (rk < 0)
                    return ply_fail(err, "'%s': x and a piece letter, for a "
                                    "removed piece", x);
                pc = code(islower((unsigned char)x[1]) ? 1 : 0, rk);
                if (view >= 0 && owner(pc) != view)
                    return ply_fail(err, "a view shows removed enemy pieces "
                                    "as 'x?'");
            }
            int c = owner(pc);
            if (t->nout[c] >= NPC)
                return ply_fail(err, "too many removed pieces");
            uint16_t m = out_default(rank_of(pc));
            if (x[2] == ':') {
                if (parse_mask(x + 3, &m, err))
                    return -1;
            } else if (x[2]) {
                return ply_fail(err, "'%s': a removed piece is xP or xP:RANKS",
                                x);
            }
            t->out_rank[c][t->nout[c]] = (uint8_t)rank_of(pc);
            t->out_know[c][t->nout[c]] = m;
            t->nout[c]++;
        } else {
            int s = strlen(x) > 3 && x[2] == ':' ? parse_sq(x) : -1;
            if (s < 0)
                return ply_fail(err, "'%s' is not SQ:RANKS, xPIECE, result, "
                                "view or screen", x);
            if (!t->sq[s])
                return ply_fail(err, "'%s': no piece on %.2s", x, x);
            if (parse_mask(x + 3, &t->know[s], err))
                return -1;
        }
    }
    return 0;
}

/* Checks a parsed state (true state or view) for consistency. */
static int validate(Gen *t, PlyError *err)
{
    int cnt[2][NRANK] = {{0}}, tot[2] = {0, 0};
    int v = t->view;
    for (int s = 0; s < NSQ; s++)
        if (t->sq[s]) {
            int c = owner(t->sq[s]), rk = rank_of(t->sq[s]);
            tot[c]++;
            if (rk != UNKNOWN)
                cnt[c][rk]++;
        }
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < t->nout[c]; i++) {
            tot[c]++;
            if (t->out_rank[c][i] != UNKNOWN)
                cnt[c][t->out_rank[c][i]]++;
        }
    for (int c = 0; c < 2; c++) {
        for (int rk = 0; rk < NRANK; rk++)
            if (cnt[c][rk] > COUNT[rk])
                return ply_fail(err, "more %s '%c' than the set has",
                                c ? "Black" : "White", LETTER[rk]);
        if (tot[c] + (v >= 0 && c != v ? t->screened : 0) > NPC)
            return ply_fail(err, "more than 21 %s pieces",
                            c ? "Black" : "White");
    }
    if (t->screened && tot[!v])
        return ply_fail(err, "a screened view shows no enemy pieces");
    int p0 = placed(t, 0), p1 = placed(t, 1);
    int setup = p0 < NPC || p1 < NPC;
    if (setup) {
        if (p0 < NPC && p1)
            return ply_fail(err, "Black places his pieces after White");
        if (t->nout[0] || t->nout[1] || t->ply || t->over)
            return ply_fail(err, "no challenge before both setups are done");
        if (t->side != (p0 < NPC ? 0 : 1))
            return ply_fail(err, "the side to move is the one setting up");
        if (v >= 0 && !t->screened && tot[!v])
            return ply_fail(err, "the enemy setup is screened until both "
                            "are done");
        for (int s = 0; s < NSQ; s++)
            if (t->sq[s] && !home_row(owner(t->sq[s]), s / FILES))
                return ply_fail(err, "a piece placed outside its owner's "
                                "first three rows");
    } else if (t->screened) {
        return ply_fail(err, "no screen after the setup");
    }
    for (int s = 0; s < NSQ; s++) {
        if (!t->sq[s])
            continue;
        int rk = rank_of(t->sq[s]);
        if (!t->know[s] || (rk != UNKNOWN && !(t->know[s] & (1u << rk))))
            return ply_fail(err, "the rank set on a square excludes its "
                            "piece");
        if (v >= 0 && owner(t->sq[s]) == v && t->know[s] != FULL)
            return ply_fail(err, "a view has no rank sets on its own pieces");
    }
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < t->nout[c]; i++) {
            int rk = t->out_rank[c][i];
            if (!t->out_know[c][i] ||
                (rk != UNKNOWN && !(t->out_know[c][i] & (1u << rk))))
                return ply_fail(err, "a removed piece's rank set excludes "
                                "it");
            if (v >= 0 && c == v && t->out_know[c][i] != out_default(rk))
                return ply_fail(err, "a view has no rank sets on its own "
                                "pieces");
        }
    /* what play tells both sides about the flag: a removed piece was the
     * flag only when the game ended with it; a piece on its far row with
     * its owner to move (or under flag=immediate) is not the flag (a
     * view has no sets on its own pieces) */
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < t->nout[c]; i++)
            if ((t->out_know[c][i] & 1u) && t->out_know[c][i] != 1u)
                return ply_fail(err, "a removed piece is known to be the "
                                "flag (the game ends) or not to be it");
    for (int f = 0; f < FILES; f++)
        for (int c = 0; c < 2; c++) {
            int s = far_row(c) * FILES + f;
            if (t->sq[s] && owner(t->sq[s]) == c && (t->know[s] & 1u) &&
                c != v && !t->over && (t->side == c || t->flagrule == FLAG_IMMEDIATE))
                return ply_fail(err, "a piece that stays on its far row is "
                                "known not to be the flag");
        }
    if (v >= 0 && !setup) {
        /* the enemy pieces' sets must fit the ranks together */
        uint16_t masks[NPC];
        int n = 0;
        for (int s = 0; s < NSQ; s++)
            if (t->sq[s] && owner(t->sq[s]) != v)
                masks[n++] = t->know[s];
        for (int i = 0; i < t->nout[!v]; i++)
            masks[n++] = t->out_know[!v][i];
        if (!feasible(masks, n, COUNT))
            return ply_fail(err, "the rank sets of the enemy pieces "
                            "contradict each other");
    }
    if (setup)
        return 0;
    /* the end, as far as the state shows it */
    int rem[2] = {flag_removed(t, 0), flag_removed(t, 1)};
    if (v >= 0) {
        rem[!v] = 0;
        for (int i = 0; i < t->nout[!v]; i++)
            if (t->out_know[!v][i] == 1u << R_FLAG)
                rem[!v] = 1;
    }
    if (rem[0] && rem[1])
        return ply_fail(err, "both flags removed");
    if (rem[0] || rem[1]) {
        if (t->over != (rem[0] ? OVER_BLACK : OVER_WHITE))
            return ply_fail(err, "a flag was taken: the result is the "
                            "taker's win");
        return 0;
    }
    int m = t->side;
    if (!t->over) {
        if (t->ply >= t->limit)
            return ply_fail(err, "the game is drawn at ply %d", t->limit);
        if (!has_move(t, m))
            return ply_fail(err, "the side to move has no move: the game is "
                            "over");
        int fs = flag_square(t, m);
        if (fs >= 0 && fs / FILES == far_row(m))
            return ply_fail(err, "a flag on its far row with its owner to "
                            "move: the game is over");
        return 0;
    }
    if (t->over == OVER_DRAW)
        return t->ply >= t->limit ? 0
               : ply_fail(err, "a draw only at the ply limit");
    int w = t->over == OVER_WHITE ? 0 : 1;
    int fs = flag_square(t, w);
    if (v >= 0 && w != v)
        return 0;   /* the enemy flag's square is not seen */
    if ((fs >= 0 && fs / FILES == far_row(w)) || (m != w && !has_move(t, m)))
        return 0;
    return ply_fail(err, "the result does not follow from the position");
}

static int gen_from_text(void *st, const char *text, PlyError *err)
{
    Gen *g = st, t;
    memset(&t, 0, sizeof t);
    t.flagrule = g->flagrule;
    t.setup_random = g->setup_random;
    t.limit = g->limit;
    if (parse(&t, text, 0, err) || validate(&t, err))
        return -1;
    *g = t;
    return 0;
}

static int gen_from_view(void *st, const char *text, PlyError *err)
{
    Gen *g = st, t;
    memset(&t, 0, sizeof t);
    t.flagrule = g->flagrule;
    t.setup_random = g->setup_random;
    t.limit = g->limit;
    if (parse(&t, text, 1, err) || validate(&t, err))
        return -1;
    *g = t;
    return t.view;
}

static int gen_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    char a[3], b[3];
    int w;
    if (m & PLACE) {
        sq_name((int)(m & 127), a);
        w = snprintf(buf, n, "%c@%s", LETTER[(m >> 8) & 15], a);
    } else {
        sq_name((int)(m & 127), a);
        sq_name((int)((m >> 7) & 127), b);
        w = snprintf(buf, n, "%s%s", a, b);
    }
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int gen_text_to_move(const void *st, const char *s, Move *m,
                            PlyError *err)
{
    Move want;
    size_t len = strlen(s);
    if (len == 4 && s[1] == '@') {
        int r = isupper((unsigned char)s[0]) ? rank_of_letter(s[0]) : -1;
        int q = parse_sq(s + 2);
        if (r < 0 || q < 0)
            return ply_fail(err, "'%s': a placement is RANK@SQUARE (F@e1)", s);
        want = PLACE | (Move)r << 8 | (Move)q;
    } else if (len == 4) {
        int a = parse_sq(s), b = parse_sq(s + 2);
        if (a < 0 || b < 0)
            return ply_fail(err, "'%s': a move is FROMTO (e3e4)", s);
        want = (Move)a | (Move)b << 7;
    } else {
        return ply_fail(err, "'%s' is not a move (e3e4) or a placement "
                        "(F@e1)", s);
    }
    Move mv[MAX_MOVES];
    int n = gen_moves_of(st, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == want) {
            *m = want;
            return 0;
        }
    return ply_fail(err, "'%s' is not legal here", s);
}

static int gen_render(const void *st, char *buf, size_t n)
{
    const Gen *g = st;
    size_t len = 0;
    int w;
    if (g->view >= 0) {
        w = snprintf(buf, n, "what %s sees (? an enemy piece):\n",
                     g->view ? "Black" : "White");
        if (w < 0 || (size_t)w >= n)
            return -1;
        len = (size_t)w;
    }
    for (int r = ROWS - 1; r >= 0; r--) {
        char row[40];
        int k = 0;
        row[k++] = (char)('1' + r);
        row[k++] = ' ';
        for (int f = 0; f < FILES; f++) {
            int pc = g->sq[r * FILES + f];
            row[k++] = ' ';
            row[k++] = pc ? piece_char(pc) : '.';
        }
        row[k] = 0;
        PLY_OUT("%s\n", row);
    }
    const char *res = g->over == OVER_WHITE ? "White wins"
                    : g->over == OVER_BLACK ? "Black wins"
                    : g->over == OVER_DRAW ? "draw" : NULL;
    char tail[64];
    if (res)
        snprintf(tail, sizeof tail, "%s", res);
    else
        snprintf(tail, sizeof tail, "%s to %s", gen_to_move(g) ? "Black"
                 : "White", in_setup(g) ? "place" : "move");
    w = snprintf(buf + len, n - len, "   a b c d e f g h i\n%s%s\n", tail,
                 g->screened ? " (the enemy setup is screened)" : "");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

/* ---------------------------------------------- hidden information */

static void gen_observe(const void *st, int player, void *obs)
{
    const Gen *s = st;
    if (s->view >= 0) {
        memmove(obs, st, sizeof(Gen));
        return;
    }
    Gen t = *s;
    int setup = in_setup(s);
    t.view = (int8_t)player;
    t.screened = 0;
    for (int x = 0; x < NSQ; x++) {
        if (!t.sq[x])
            continue;
        if (owner(t.sq[x]) == player) {
            t.know[x] = FULL;
        } else if (setup) {
            t.sq[x] = 0;
            t.know[x] = 0;
            t.screened++;
        } else {
            t.sq[x] = (uint8_t)code(!player, UNKNOWN);
        }
    }
    for (int i = 0; i < NPC; i++) {
        if (i < t.nout[player])
            t.out_know[player][i] = out_default(t.out_rank[player][i]);
        if (i < t.nout[!player])
            t.out_rank[!player][i] = UNKNOWN;
    }
    memmove(obs, &t, sizeof t);
}

static void gen_determinize(const void *obs, int player, Rng *r, void *st)
{
    const Gen *o = obs;
    (void)player;
    if (o->view < 0) {
        memmove(st, obs, sizeof(Gen));
        return;
    }
    Gen t = *o;
    int e = !o->view, me = o->view;
    t.view = -1;
    /* what the opponent knows of my pieces is not mine to know; all a
     * world needs is what play makes public: a piece of mine staying on
     * my far row is not the flag */
    for (int f = 0; f < FILES; f++) {
        int s = far_row(me) * FILES + f;
        if (t.sq[s] && owner(t.sq[s]) == me && !t.over &&
            (t.side == me || t.flagrule == FLAG_IMMEDIATE))
            t.know[s] &= (uint16_t)~1u;
    }
    if (o->screened) {
        t.screened = 0;
        deal(&t, e, o->screened, r);
        memmove(st, &t, sizeof t);
        return;
    }
    /* the enemy pieces: board squares and removed ones, with their sets */
    uint16_t mask[NPC];
    uint8_t *slot[NPC];
    int n = 0;
    for (int x = 0; x < NSQ; x++)
        if (t.sq[x] && owner(t.sq[x]) == e && n < NPC) {
            mask[n] = t.know[x];
            slot[n++] = &t.sq[x];
        }
    for (int i = 0; i < t.nout[e] && n < NPC; i++) {
        mask[n] = t.out_know[e][i];
        slot[n++] = &t.out_rank[e][i];
    }
    int left[NRANK], order[NPC], nc = 0, rank[NPC];
    memcpy(left, COUNT, sizeof left);
    for (int i = 0; i < n; i++) {
        rank[i] = -1;
        if (mask[i] != FULL)
            order[nc++] = i;
    }
    /* constrained pieces, fewest possibilities first */
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && popcount16(mask[order[j]]) <
                                  popcount16(mask[order[j - 1]]); j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (int k = 0; k < nc; k++) {
        int i = order[k];
        unsigned cand = mask[i];
        uint16_t rest[NPC];
        for (int j = k + 1; j < nc; j++)
            rest[j - k - 1] = mask[order[j]];
        while (rank[i] < 0) {
            int tot = 0;
            for (int x = 0; x < NRANK; x++)
                if (cand & (1u << x))
                    tot += left[x];
            if (!tot)
                break;   /* contradictory sets: cannot happen from play */
            int pick = (int)rng_below(r, (uint32_t)tot), x = 0;
            for (; x < NRANK; x++)
                if (cand & (1u << x)) {
                    if (pick < left[x])
                        break;
                    pick -= left[x];
                }
            left[x]--;
            if (feasible(rest, nc - k - 1, left)) {
                rank[i] = x;
            } else {
                left[x]++;
                cand &= ~(1u << x);
            }
        }
        if (rank[i] < 0) {   /* fall back to any rank left */
            for (int x = 0; x < NRANK && rank[i] < 0; x++)
                if (left[x]) {
                    left[x]--;
                    rank[i] = x;
                }
        }
    }
    int pool[NPC], np = 0;
    for (int x = 0; x < NRANK; x++)
        for (int j = 0; j < left[x]; j++)
            pool[np++] = x;
    for (int i = 0; i < n; i++) {
        if (rank[i] >= 0)
            continue;
        int j = (int)rng_below(r, (uint32_t)(np ? np : 1));
        rank[i] = np ? pool[j] : R_PVT;
        if (np)
            pool[j] = pool[--np];
    }
    for (int i = 0; i < n; i++) {
        if (slot[i] >= t.sq && slot[i] < t.sq + NSQ)
            *slot[i] = (uint8_t)code(e, rank[i]);
        else
            *slot[i] = (uint8_t)rank[i];
    }
    memmove(st, &t, sizeof t);
}

/* ------------------------------------------------------ bot hooks */

/* A piece's material value: its rank's when the state shows the rank,
 * else (an enemy piece in a view) the mean over its rank set weighted by
 * the counts of each rank. */
static int exp_value(int rk, unsigned mask)
{
    if (rk != UNKNOWN)
        return VAL[rk];
    int num = 0, den = 0;
    for (int x = 0; x < NRANK; x++)
        if (mask & (1u << x)) {
            num += COUNT[x] * VAL[x];
            den += COUNT[x];
        }
    return den ? num / den : 0;
}

static int dist(int a, int b)
{
    return abs(a % FILES - b % FILES) + abs(a / FILES - b / FILES);
}

static int gen_eval(const void *st, int player)
{
    const Gen *g = st;
    if (g->over)
        return g->over == OVER_DRAW ? 0
               : (g->over == OVER_WHITE) == (player == 0) ? EVAL_MAX
                                                          : -EVAL_MAX;
    int v[2] = {0, 0};
    int pos[2][NPC], rk[2][NPC], np[2] = {0, 0};
    for (int s = 0; s < NSQ; s++) {
        if (!g->sq[s])
            continue;
        int c = owner(g->sq[s]), r = rank_of(g->sq[s]);
        v[c] += exp_value(r, g->know[s]);
        if (r != R_FLAG && r != UNKNOWN)   /* advance */
            v[c] += 2 * (c ? ROWS - 1 - s / FILES : s / FILES);
        pos[c][np[c]] = s;
        rk[c][np[c]++] = r;
    }
    int tm = gen_to_move(g);
    for (int c = 0; c < 2; c++) {
        int fs = flag_square(g, c);
        if (fs < 0)
            continue;
        int near = 0, adj = 0;
        for (int i = 0; i < np[!c]; i++) {
            int d = dist(fs, pos[!c][i]);
            adj += d == 1;
            near += d == 2;
        }
        if (adj && tm == !c)
            v[c] -= 600;
        else
            v[c] -= 120 * adj + 30 * near;
        /* the enemy flag pending on c's home row: c must take it */
        int ef = flag_square(g, !c);
        if (ef >= 0 && ef / FILES == far_row(!c) && tm == c)
            v[c] += enemy_adjacent(g, ef, !c) ? 300 : -800;
    }
    /* contact: pairs of pieces close to each other, who beats whom */
    for (int i = 0; i < np[0]; i++) {
        if (rk[0][i] == UNKNOWN)
            continue;
        for (int j = 0; j < np[1]; j++) {
            if (rk[1][j] == UNKNOWN)
                continue;
            int d = dist(pos[0][i], pos[1][j]);
            if (d > 3)
                continue;
            int o = outcome(rk[0][i], rk[1][j]), w = 4 * d;
            if (o == OUT_ATT)
                v[0] += VAL[rk[1][j]] / w + (rk[1][j] == R_FLAG) * 200 / w;
            else if (o == OUT_DEF)
                v[1] += VAL[rk[0][i]] / w + (rk[0][i] == R_FLAG) * 200 / w;
        }
    }
    int e = v[player] - v[!player];
    return e > EVAL_MAX - 1 ? EVAL_MAX - 1 : e < 1 - EVAL_MAX ? 1 - EVAL_MAX
                                                            : e;
}

/* Setup: where each rank likes to stand (rows from the owner's side). */
static int setup_pref(int rk, int row, int file)
{
    int centre = 4 - abs(file - 4);
    switch (rk) {
    case R_FLAG:
        return row == 0 ? 40 + 3 * centre : row == 1 ? 10 : -20;
    case R_SPY:
    case R_G5:
    case R_G4:
    case R_G3:
        return 10 * row + centre;
    case R_PVT:
        return 6 * row;
    default:
        return 3 * row + centre;
    }
}

/* The odds (percent) that rank a beats the piece with set mask, and that
 * it loses to it, from the mover's knowledge. */
static void odds(int a, unsigned mask, int *win, int *lose)
{
    int w = 0, l = 0, tot = 0;
    for (int x = 0; x < NRANK; x++)
        if (mask & (1u << x)) {
            int o = outcome(a, x);
            tot += COUNT[x];
            w += (o == OUT_ATT) * COUNT[x];
            l += (o == OUT_DEF) * COUNT[x];
        }
    *win = tot ? 100 * w / tot : 0;
    *lose = tot ? 100 * l / tot : 0;
}

static int gen_heuristic(const void *st, Move m)
{
    const Gen *g = st;
    if (m & PLACE) {
        int s = (int)(m & 127), c = gen_to_move(g);
        int row = c ? ROWS - 1 - s / FILES : s / FILES;
        return setup_pref((int)((m >> 8) & 15), row, s % FILES);
    }
    int from = (int)(m & 127), to = (int)((m >> 7) & 127);
    int c = owner(g->sq[from]), a = rank_of(g->sq[from]);
    if (g->sq[to]) {
        int ef = flag_square(g, !c);
        if (ef == to)
            return 5000;
        /* a piece on my home row may be their flag about to win */
        if (to / FILES == far_row(!c) && (g->know[to] & 1u))
            return 3000;
        int win, lose;
        odds(a, g->know[to], &win, &lose);
        int dv = exp_value(UNKNOWN, g->know[to] & ~1u);
        return (win * (dv + 10) - lose * VAL[a] - (100 - win - lose) *
                VAL[a] / 2) / 50;
    }
    int fwd = c ? -1 : 1, dr = to / FILES - from / FILES;
    if (a == R_FLAG) {
        /* the flag runs home when no enemy stands near */
        for (int s = 0; s < NSQ; s++)
            if (g->sq[s] && owner(g->sq[s]) != c && dist(s, to) <= 2)
                return -5;
        return dr == fwd ? 30 : 0;
    }
    return dr == fwd ? 6 : dr == 0 ? 2 : 0;
}

static int gen_is_noisy(const void *st, Move m)
{
    const Gen *g = st;
    return !(m & PLACE) && g->sq[(m >> 7) & 127] != 0;
}

static int gen_check(const void *st)
{
    Gen t = *(const Gen *)st;
    PlyError e;
    if (t.view < -1 || t.view > 1 || t.flagrule > 2 || t.nout[0] > NPC ||
        t.nout[1] > NPC)
        return -1;
    for (int s = 0; s < NSQ; s++)
        if ((!t.sq[s]) != (!t.know[s]) || (t.sq[s] && rank_of(t.sq[s]) ==
                                           UNKNOWN && t.view < 0))
            return -1;
    return validate(&t, &e) ? -1 : 0;
}

static int gen_plies_left(const void *st)
{
    const Gen *g = st;
    int left = g->limit - g->ply;
    return left < 120 ? left : 120;
}

static int gen_layout(const void *st, Layout *l)
{
    const Gen *g = st;
    l->width = FILES;
    l->height = ROWS;
    for (int s = 0; s < NSQ; s++) {
        int f = s % FILES, r = s / FILES;
        char name[3];
        sq_name(s, name);
        LayoutCell *c = layout_cell(l, (float)f + 0.5f,
                                    (float)(ROWS - 1 - r) + 0.5f,
                                    CELL_SQUARE, (f + r) % 2 ? SHADE_LIGHT
                                    : SHADE_DARK, name);
        if (!c || !g->sq[s])
            continue;
        c->owner = (int8_t)owner(g->sq[s]);
        snprintf(c->glyph, sizeof c->glyph, "%c", piece_char(g->sq[s]));
    }
    return 0;
}

static const char *gen_end_reason(const void *st)
{
    const Gen *g = st;
    if (!g->over)
        return NULL;
    if (g->over == OVER_DRAW)
        return "move limit";
    int w = g->over == OVER_WHITE ? 0 : 1;
    if (g->view < 0 && flag_removed(g, !w))
        return "flag captured";
    int fs = g->view < 0 || g->view == w ? flag_square(g, w) : -1;
    if (fs >= 0 && fs / FILES == far_row(w))
        return "flag reached the far row";
    return NULL;
}

static const char *const flag_choices[] = {"adjacent", "survive",
                                           "immediate", NULL};
static const char *const setup_choices[] = {"free", "random", NULL};
static const GameOption gen_options[] = {
    {.key = "flag", .type = OPT_CHOICE, .def = 0, .choices = flag_choices,
     .help = "a flag reaching the far row: adjacent (wins at once unless an "
             "enemy piece stands orthogonally beside it, else it must "
             "survive the opponent's next turn), survive (must always "
             "survive one turn), immediate (wins at once, as Dagaz)"},
    {.key = "setup", .type = OPT_CHOICE, .def = 0, .choices = setup_choices,
     .help = "free: the setup phase as moves (White places 21 pieces, then "
             "Black); random: both setups dealt at random from the seed"},
    {.key = "limit", .type = OPT_INT, .def = 400, .min = 20, .max = MAX_LIMIT,
     .help = "movement plies after which the game is drawn"},
    {.key = NULL},
};

static const char *const gen_players[] = {"White", "Black"};

const GameVtbl game_generals = {
    .info = {
        .name = "generals",
        .title = "Game of the Generals (Salpakan)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = 2 * NPC + MAX_LIMIT,
        .state_size = sizeof(Gen),
        .flags = GAME_ZERO_SUM | GAME_HIDDEN,
        .player_names = gen_players,
        .options = gen_options,
        .notation =
            "Squares a1..i8 (files a-i, rows 1-8; White's first three rows\n"
            "are 1-3). Ranks by letter: A 5-star, B 4-star, C 3-star, D 2-star,\n"
            "E 1-star general, K colonel, L lieutenant colonel, M major,\n"
            "N captain, O 1st lieutenant, Q 2nd lieutenant, R sergeant,\n"
            "P private, S spy, F flag (upper case White, lower case Black).\n"
            "A placement: RANK@SQUARE (F@e1); a move or challenge: e3e4.\n"
            "Setup: 'BOARD SIDE PLY [SQ:RANKS]... [xPIECE[:RANKS]]... [result\n"
            "1-0|0-1|1/2]': the rows 8..1 with digits for empty runs, w|b to\n"
            "move, movement plies played, then for a piece the ranks its\n"
            "opponent still thinks possible (e4:ABCDEKLS, only when narrowed),\n"
            "and the removed pieces in order of removal (xM:LKEDCBAS). A\n"
            "player's view (ply show generals --as white) writes enemy pieces\n"
            "as ? and x?, ends with 'view w|b', and during the setup 'screen N'\n"
            "for the enemy pieces placed behind the screen. A view is not\n"
            "accepted where the true position is needed.",
        .rules =
            "Game of the Generals (Salpakan, Pasola 1970) with an arbiter.\n"
            "9x8 board; 21 pieces a side: 5- to 1-star generals, colonel,\n"
            "lt colonel, major, captain, 1st and 2nd lieutenant, sergeant (one\n"
            "each), 6 privates, 2 spies, the flag. Setup as moves: White places\n"
            "his pieces one by one on rows 1-3, then Black on rows 6-8; each\n"
            "setup is screened from the opponent until both are done\n"
            "(setup=random deals both). White moves first; a piece steps one\n"
            "square forward, back or sideways. Moving onto an enemy piece is a\n"
            "challenge: the higher rank removes the lower, equal ranks both go;\n"
            "the spy removes every officer (sergeant up) and is removed by the\n"
            "private; the private loses to every officer; the flag loses to any\n"
            "piece, and a flag moving onto the enemy flag wins. Players see\n"
            "their own ranks and the enemy pieces' squares; after a challenge\n"
            "only which piece(s) left the board, never a rank. Win: take the\n"
            "enemy flag, or bring your flag to the far row: flag=adjacent\n"
            "(default) wins at once if no enemy piece stands orthogonally\n"
            "beside it, else the flag must survive the opponent's next turn\n"
            "(unannounced); flag=survive always needs that turn;\n"
            "flag=immediate wins at once (Dagaz). A player who cannot move\n"
            "loses; limit=N movement plies (default 400) draw.",
        .default_bot = "ismcts",
    },
    .init = gen_init,
    .to_move = gen_to_move,
    .gen_moves = gen_gen,
    .make = gen_make,
    .returns = gen_returns,
    .hash = gen_hash,
    .to_text = gen_to_text,
    .from_text = gen_from_text,
    .move_to_text = gen_move_to_text,
    .text_to_move = gen_text_to_move,
    .render = gen_render,
    .eval = gen_eval,
    .heuristic = gen_heuristic,
    .is_noisy = gen_is_noisy,
    .observe = gen_observe,
    .determinize = gen_determinize,
    .from_view = gen_from_view,
    .check = gen_check,
    .plies_left = gen_plies_left,
    .layout = gen_layout,
    .end_reason = gen_end_reason,
};
