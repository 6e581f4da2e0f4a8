/* towers.c — column draughts: Bashni (Russian rules) and Laska (English
 * rules on 7x7). Pieces are never removed: a jump takes the top piece of
 * the jumped column and puts it under the jumping column; a column moves
 * and captures as its top piece and belongs to the top piece's owner.
 *
 * Choices where the sources leave room (documented in info.rules): a
 * column cannot be jumped twice in one move; in Bashni a jumped column
 * stays in place until the move ends and blocks (as Dagaz's column
 * checkers); in Laska the prisoner is taken at once (Lasker: "picked up
 * under the attacker as he leaps over it"), so a jumped single piece
 * frees its square during the move; each prisoner
 * goes to the bottom when it is taken, so the first prisoner ends up
 * just above the second; a freed king stays a king.
 *
 * The generator works on the "top view" (which side tops each square and
 * whether a king does) with the engine's geometry. A Move packs: bits 0-5
 * from, 6-11 to, 12 promotion, 13-36 the jumped columns as a mask over the
 * opponent's columns (ascending bit order), 37-63 whether each prisoner,
 * in capture order, is a king (the only thing the order changes). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "engine.h"

enum { T_SQ = 36, T_MAX_PIECES = 24, T_MAX_PLIES = 1000, T_MAX_MOVES = 512 };
/* Quiet moves kept for threefold repetition: at least the longest
 * no-progress limit (Laska's 80 plies), which bounds how long a position
 * can come back. */
enum { T_HIST = 80 };

typedef struct TState {
    uint64_t occ[2];        /* columns topped by each side */
    uint64_t kings;         /* columns topped by a king */
    uint64_t stack[T_SQ];   /* 2 bits a piece, top first: colour, king */
    uint8_t h[T_SQ];        /* column heights */
    uint8_t side, quiet;
    uint16_t ply;
    uint8_t rep3;           /* drawn by threefold repetition */
    uint8_t nhist;          /* quiet moves in hist */
    uint16_t hist[T_HIST];  /* since the last progress move or the setup:
                               from | to << 6 */
} TState;

#define T_CAPS(m) (((m) >> 13) & 0xffffffull)
#define T_KPAT(m) ((m) >> 37)

static void t_set_top(TState *s, int sq)
{
    uint64_t b = 1ull << sq;
    s->occ[0] &= ~b;
    s->occ[1] &= ~b;
    s->kings &= ~b;
    if (s->h[sq]) {
        s->occ[s->stack[sq] & 1] |= b;
        if (s->stack[sq] & 2)
            s->kings |= b;
    }
}

/* ---- capture search (one DFS for moves and for notation) ---- */

typedef struct TGen TGen;
struct TGen {
    const DRules *R;
    int side, from, stop;
    uint64_t opp, oppk, empty;
    uint64_t singles;       /* opponent columns of one piece */
    int path[32], len;      /* landing squares */
    uint64_t kpat;          /* kings among the prisoners, in order */
    int ncap;
    /* end of a sequence: returns non-zero to stop */
    int (*end)(TGen *x, uint64_t at, uint64_t cap, int promo);
    Move *out;
    int n, first;
    Move want;              /* notation: the move to find a path for */
    const int *want_path;
    int want_len;
    int found[32], nfound;  /* the path found */
};

/* Free squares: with immediate capture (Laska) a jumped single piece has
 * left its square at once; a jumped taller column stays either way. */
static uint64_t t_empty(const TGen *x, uint64_t cap)
{
    return x->R->immediate ? x->empty | (cap & x->singles) : x->empty;
}

static int t_king_can(const TGen *x, uint64_t at, uint64_t cap, int lastd)
{
    const DRules *R = x->R;
    const DGeom *g = R->g;
    uint64_t prey = x->opp & ~cap, empty = t_empty(x, cap);
    for (int d = 0; d < 8; d++) {
        if (!(R->king_cap >> d & 1) || d == (lastd ^ 1))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (R->flying)
            while (v & empty)
                v = dr_step(g, v, d);
        if ((v & prey) && (dr_step(g, v, d) & empty))
            return 1;
    }
    return 0;
}

static void t_step_in(TGen *x, uint64_t v, int land)
{
    if (x->oppk & v)
        x->kpat |= 1ull << x->ncap;
    x->ncap++;
    x->path[x->len++] = land;
}

static void t_step_out(TGen *x)
{
    x->ncap--;
    x->kpat &= ~(1ull << x->ncap);
    x->len--;
}

static void t_king(TGen *x, uint64_t at, uint64_t cap, int promo, int lastd)
{
    const DRules *R = x->R;
    const DGeom *g = R->g;
    uint64_t prey = x->opp & ~cap, empty = t_empty(x, cap);
    for (int d = 0; d < 8 && !x->stop; d++) {
        if (!(R->king_cap >> d & 1) || d == (lastd ^ 1))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (R->flying)
            while (v & empty)
                v = dr_step(g, v, d);
        if (!(v & prey))
            continue;
        uint64_t c2 = cap | v, more = 0, ends = 0;
        for (uint64_t l = dr_step(g, v, d); l & empty;
             l = dr_step(g, l, d)) {
            if (t_king_can(x, l, c2, d))
                more |= l;
            else
                ends |= l;
            if (!R->flying)
                break;
        }
        uint64_t land = more ? more : ends;
        for (; land && !x->stop; land &= land - 1) {
            uint64_t l = land & -land;
            t_step_in(x, v, dr_ctz(l));
            if (more)
                t_king(x, l, c2, promo, d);
            else
                x->stop = x->end(x, l, c2, promo);
            t_step_out(x);
        }
    }
}

static void t_man(TGen *x, uint64_t at, uint64_t cap)
{
    const DRules *R = x->R;
    const DGeom *g = R->g;
    uint64_t prey = x->opp & ~cap, last = dr_promo_row(R, x->side);
    uint64_t empty = t_empty(x, cap);
    int found = 0;
    for (int d = 0; d < 8 && !x->stop; d++) {
        if (!(R->man_cap[x->side] >> d & 1))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (!(v & prey))
            continue;
        uint64_t l = dr_step(g, v, d);
        if (!(l & empty))
            continue;
        found = 1;
        t_step_in(x, v, dr_ctz(l));
        if (R->passing_promo && (l & last) && t_king_can(x, l, cap | v, d))
            t_king(x, l, cap | v, 1, d);
        else if (R->passing_promo && (l & last))
            x->stop = x->end(x, l, cap | v, 1);
        else
            t_man(x, l, cap | v);
        t_step_out(x);
    }
    if (!found && cap && !x->stop)
        x->stop = x->end(x, at, cap, !R->passing_promo && (at & last));
}

static Move t_encode(const TGen *x, uint64_t at, uint64_t cap, int promo)
{
    return (Move)x->from | (Move)dr_ctz(at) << 6 | (promo ? DM_PROMO : 0) |
           dr_compress(cap, x->opp) << 13 | (Move)x->kpat << 37;
}

static int t_end_gen(TGen *x, uint64_t at, uint64_t cap, int promo)
{
    Move m = t_encode(x, at, cap, promo);
    for (int i = x->first; i < x->n; i++)
        if (x->out[i] == m)
            return 0;
    if (x->n < T_MAX_MOVES)
        x->out[x->n++] = m;
    return 0;
}

static int t_end_find(TGen *x, uint64_t at, uint64_t cap, int promo)
{
    if (t_encode(x, at, cap, promo) != x->want)
        return 0;
    if (x->want_path && (x->len != x->want_len ||
                         memcmp(x->path, x->want_path,
                                sizeof(int) * (size_t)x->len)))
        return 0;
    memcpy(x->found, x->path, sizeof(int) * (size_t)x->len);
    x->nfound = x->len;
    return 1;
}

static void t_search(TGen *x, const TState *s, int from)
{
    uint64_t bit = 1ull << from;
    x->from = from;
    x->first = x->n;
    x->len = x->ncap = 0;
    x->kpat = 0;
    x->empty = (~(s->occ[0] | s->occ[1]) & x->R->g->board) | bit;
    if (s->kings & bit) {
        if (t_king_can(x, bit, 0, -1))
            t_king(x, bit, 0, 0, -1);
    } else {
        t_man(x, bit, 0);
    }
}

static void t_gen_init(TGen *x, const DRules *R, const TState *s)
{
    memset(x, 0, sizeof *x);
    x->R = R;
    x->side = s->side;
    x->opp = s->occ[!s->side];
    x->oppk = x->opp & s->kings;
    for (uint64_t b = x->opp; b; b &= b - 1)
        if (s->h[dr_ctz(b)] == 1)
            x->singles |= b & -b;
}

static int t_gen(const DRules *R, const TState *s, Move *out)
{
    const DGeom *g = R->g;
    TGen x;
    t_gen_init(&x, R, s);
    x.out = out;
    x.end = t_end_gen;
    int me = s->side;
    for (uint64_t b = s->occ[me]; b; b &= b - 1)
        t_search(&x, s, dr_ctz(b));
    if (x.n)
        return x.n;
    int n = 0;
    uint64_t empty = ~(s->occ[0] | s->occ[1]) & g->board;
    uint64_t men = s->occ[me] & ~s->kings, kings = s->occ[me] & s->kings;
    uint64_t last = dr_promo_row(R, me);
    for (int d = 0; d < 8; d++) {
        if (!(R->man_move[me] >> d & 1))
            continue;
        for (uint64_t t = dr_step(g, men, d) & empty; t; t &= t - 1) {
            int to = dr_ctz(t);
            out[n++] = (Move)(to - g->shift[d]) | (Move)to << 6 |
                       ((t & -t & last) ? DM_PROMO : 0);
        }
    }
    for (uint64_t b = kings; b; b &= b - 1) {
        uint64_t bit = b & -b;
        for (int d = 0; d < 8; d++) {
            if (!(R->king_move >> d & 1))
                continue;
            for (uint64_t v = dr_step(g, bit, d); v & empty;
                 v = dr_step(g, v, d)) {
                out[n++] = (Move)dr_ctz(bit) | (Move)dr_ctz(v) << 6;
                if (!R->flying)
                    break;
            }
        }
    }
    return n;
}

/* ---- the game hooks, for rules R ---- */

static int t_init(const DRules *R, TState *s)
{
    const DGeom *g = R->g;
    memset(s, 0, sizeof *s);
    for (int r = R->men_rows[0]; r <= R->men_rows[1]; r++)
        for (int p = 0; p < 2; p++)
            for (uint64_t b = g->row[p ? g->n - 1 - r : r]; b; b &= b - 1) {
                int sq = dr_ctz(b);
                s->stack[sq] = (uint64_t)p;
                s->h[sq] = 1;
                t_set_top(s, sq);
            }
    return 0;
}

static int t_over(const DRules *R, const TState *s)
{
    return s->rep3 || s->quiet >= R->quiet_limit || s->ply >= T_MAX_PLIES;
}

/* How many times the position has occurred since the last progress move
 * or the setup, counting this time. Columns differ, so unlike the
 * engine's pieces they are followed one by one: undoing the quiet moves,
 * at[sq] is where the column that stood on sq then stands now. A cycle
 * takes at least 4 plies, so a third occurrence needs 8. */
static int t_repetitions(const TState *s)
{
    uint8_t at[T_SQ];
    for (int sq = 0; sq < T_SQ; sq++)
        at[sq] = s->h[sq] ? (uint8_t)sq : DR_NONE;
    uint64_t d = 0;
    int n = 1;
    for (int i = s->nhist - 1, k = 1; i >= 0; i--, k++) {
        int f = s->hist[i] & 63, t = s->hist[i] >> 6 & 63;
        at[f] = at[t];
        at[t] = DR_NONE;
        d ^= 1ull << f | 1ull << t;
        if ((k & 1) || d)
            continue;
        int same = 1;
        for (int sq = 0; sq < T_SQ && same; sq++)
            if (at[sq] != DR_NONE && at[sq] != sq)
                same = s->stack[at[sq]] == s->stack[sq] &&
                       s->h[at[sq]] == s->h[sq];
        n += same;
    }
    return n;
}

static int t_to_move(const DRules *R, const TState *s)
{
    if (t_over(R, s))
        return PLAYER_TERMINAL;
    Move buf[T_MAX_MOVES];
    return t_gen(R, s, buf) ? s->side : PLAYER_TERMINAL;
}

static void t_make(const DRules *R, TState *s, Move m)
{
    const DGeom *g = R->g;
    int me = s->side, from = DM_FROM(m), to = DM_TO(m);
    uint64_t caps = T_CAPS(m), kpat = T_KPAT(m);
    uint64_t st = s->stack[from];
    int h = s->h[from], was_king = (st & 2) != 0;
    if (caps) {
        uint64_t cap = dr_expand(caps, s->occ[!me]);
        int k = dr_popcount(cap);
        for (uint64_t b = cap; b; b &= b - 1) {
            int sq = dr_ctz(b);
            s->stack[sq] >>= 2;
            s->h[sq]--;
            t_set_top(s, sq);
        }
        for (int i = 0; i < k; i++) {
            uint64_t piece = (uint64_t)!me | ((kpat >> i & 1) ? 2 : 0);
            st |= piece << (2 * h++);
        }
    }
    if (m & DM_PROMO)
        st |= 2;
    s->stack[from] = 0;
    s->h[from] = 0;
    t_set_top(s, from);
    s->stack[to] = st;
    s->h[to] = (uint8_t)h;
    t_set_top(s, to);
    int progress = caps || (!was_king && (g->rc[from] >> 4) != (g->rc[to] >> 4));
    s->quiet = progress ? 0 : (uint8_t)(s->quiet + (s->quiet < 255));
    if (progress) {
        s->nhist = 0;
    } else {
        if (s->nhist < T_HIST)
            s->hist[s->nhist++] = (uint16_t)(from | to << 6);
        if (s->nhist >= 8 && t_repetitions(s) >= 3)
            s->rep3 = 1;
    }
    s->ply++;
    s->side = (uint8_t)!me;
}

static void t_returns(const DRules *R, const TState *s, double *out)
{
    if (t_over(R, s)) {
        out[0] = out[1] = 0;
        return;
    }
    out[s->side] = -1;
    out[!s->side] = 1;
}

static uint64_t t_hash(const DRules *R, const TState *s)
{
    uint64_t h = ply_mix64(s->side | (uint64_t)t_over(R, s) << 1);
    for (uint64_t b = s->occ[0] | s->occ[1]; b; b &= b - 1) {
        int sq = dr_ctz(b);
        h = ply_mix64(h ^ s->stack[sq] ^ (uint64_t)s->h[sq] << 50 ^
                      (uint64_t)sq << 57);
    }
    return h;
}


static char t_piece_char(const DRules *R, uint64_t piece)
{
    char c = R->colours[piece & 1];
    return (piece & 2) ? c : (char)tolower(c);
}

/* Setup: W:Wa1,c3bB,Kd4:Bb8 — sections by the top piece's colour, K for a
 * king on top, then the pieces below the top, top to bottom (w/b men,
 * W/B kings). Squares by rank then file. :H<n> plies without progress,
 * :P<n> plies played (the game stops at T_MAX_PLIES), :3fold a game drawn
 * by threefold repetition. */
static int t_to_text(const DRules *R, const TState *s, char *buf, size_t n)
{
    const DGeom *g = R->g;
    DrOut o = {buf, n, 0, 0};
    char sqb[16];
    dr_out(&o, "%c", R->colours[s->side]);
    for (int letter = 0; letter < 2; letter++) {
        int p = R->colours[0] == "WB"[letter] ? 0 : 1;
        dr_out(&o, ":%c", "WB"[letter]);
        int first = 1;
        for (int r = 0; r < g->n; r++)
            for (int c = 0; c < g->n; c++) {
                int sq = g->idx[r][c];
                if (sq < 0 || !(s->occ[p] >> sq & 1))
                    continue;
                dr_sq_text(R, sq, sqb, sizeof sqb);
                dr_out(&o, "%s%s%s", first ? "" : ",",
                      (s->stack[sq] & 2) ? "K" : "", sqb);
                for (int i = 1; i < s->h[sq]; i++)
                    dr_out(&o, "%c", t_piece_char(R, s->stack[sq] >> (2 * i)));
                first = 0;
            }
    }
    if (s->quiet)
        dr_out(&o, ":H%d", s->quiet);
    if (s->ply)
        dr_out(&o, ":P%d", s->ply);
    /* the setup cannot carry the earlier positions */
    if (s->rep3)
        dr_out(&o, ":3fold");
    return o.bad ? -1 : (int)o.len;
}

static int t_letter(const DRules *R, int ch)
{
    ch = toupper(ch);
    return ch == R->colours[0] ? 0 : ch == R->colours[1] ? 1 : -1;
}

static int t_from_text(const DRules *R, TState *st, const char *str,
                       PlyError *err)
{
    TState t;
    memset(&t, 0, sizeof t);
    const char *p = str;
    int side = t_letter(R, *p), total = 0;
    if (side < 0)
        return ply_fail(err, "a setup starts with the side to move (W or "
                        "B), not '%.8s'", p);
    t.side = (uint8_t)side;
    p++;
    int seen[2] = {0, 0};
    while (*p == ':') {
        p++;
        int pl = (*p == 'W' || *p == 'B') ? t_letter(R, *p) : -1;
        if (pl >= 0) {
            if (seen[pl])
                return ply_fail(err, "the columns of %c are listed twice",
                                R->colours[pl]);
            seen[pl] = 1;
            p++;
            while (*p && *p != ':') {
                uint64_t top = (uint64_t)pl;
                if (*p == 'K') {
                    top |= 2;
                    p++;
                }
                const char *at = p;
                int sq = dr_parse_sq(R, &p, err);
                if (sq < 0)
                    return -1;
                if (t.h[sq])
                    return ply_fail(err, "square '%.*s' is listed twice",
                                    (int)(p - at), at);
                t.stack[sq] = top;
                t.h[sq] = 1;
                total++;
                while (*p == 'w' || *p == 'W' || *p == 'b' || *p == 'B') {
                    if (++total > T_MAX_PIECES)
                        return ply_fail(err, "more than %d pieces",
                                        T_MAX_PIECES);
                    uint64_t piece = (uint64_t)t_letter(R, *p) |
                                     (isupper((unsigned char)*p) ? 2 : 0);
                    t.stack[sq] |= piece << (2 * t.h[sq]++);
                    p++;
                }
                if (total > T_MAX_PIECES)
                    return ply_fail(err, "more than %d pieces", T_MAX_PIECES);
                t_set_top(&t, sq);
                if ((t.occ[pl] & ~t.kings & dr_promo_row(R, pl)) >> sq & 1)
                    return ply_fail(err, "a man of %c tops a column on its "
                                    "crowning row", R->colours[pl]);
                if (*p == ',')
                    p++;
                else if (*p && *p != ':')
                    return ply_fail(err, "expected ',' or ':' at '%.8s'", p);
            }
        } else if (!strncmp(p, "3fold", 5)) {
            p += 5;
            t.rep3 = 1;
        } else if (*p == 'H' || *p == 'P') {
            int v, isq = *p == 'H';
            p++;
            if (dr_parse_uint(&p, isq ? R->quiet_limit : T_MAX_PLIES, &v))
                return ply_fail(err, "%s needs a number (0..%d)",
                                isq ? "H" : "P",
                                isq ? R->quiet_limit : T_MAX_PLIES);
            if (isq)
                t.quiet = (uint8_t)v;
            else
                t.ply = (uint16_t)v;
        } else {
            return ply_fail(err, "unexpected '%.8s' in the setup", p);
        }
    }
    if (*p)
        return ply_fail(err, "unexpected '%.8s' at the end of the setup", p);
    if (!seen[0] || !seen[1])
        return ply_fail(err, "a setup lists both sides' columns, e.g. "
                        "W:Wa1,c3b:Bb8");
    *st = t;
    return 0;
}

static int t_move_to_text(const DRules *R, const TState *s, Move m,
                          char *buf, size_t n)
{
    DrOut o = {buf, n, 0, 0};
    char sqb[16];
    dr_sq_text(R, DM_FROM(m), sqb, sizeof sqb);
    dr_out(&o, "%s", sqb);
    if (!T_CAPS(m)) {
        dr_sq_text(R, DM_TO(m), sqb, sizeof sqb);
        dr_out(&o, "-%s", sqb);
        return o.bad ? -1 : (int)o.len;
    }
    TGen x;
    t_gen_init(&x, R, s);
    x.end = t_end_find;
    x.want = m;
    if (!(s->occ[s->side] >> DM_FROM(m) & 1))
        return -1;
    t_search(&x, s, DM_FROM(m));
    if (!x.stop)
        return -1;
    for (int i = 0; i < x.nfound; i++) {
        dr_sq_text(R, x.found[i], sqb, sizeof sqb);
        dr_out(&o, ":%s", sqb);
    }
    return o.bad ? -1 : (int)o.len;
}

static int t_text_to_move(const DRules *R, const TState *s, const char *str,
                          Move *m, PlyError *err)
{
    int sq[33], k = 0;
    const char *p = str;
    while (*p) {
        if (k == 33)
            return ply_fail(err, "move '%.20s' is too long", str);
        PlyError e2;
        int v = dr_parse_sq(R, &p, &e2);
        if (v < 0)
            return ply_fail(err, "bad move '%.20s': %s", str, e2.msg);
        sq[k++] = v;
        if (*p == '-' || *p == 'x' || *p == ':') {
            if (!*++p)
                return ply_fail(err, "bad move '%.20s': a square must "
                                "follow the last separator", str);
        } else if (*p) {
            return ply_fail(err, "bad move '%.20s': expected '-' or ':' at "
                            "'%.8s'", str, p);
        }
    }
    if (k < 2)
        return ply_fail(err, "a move is FROM-TO or FROM:LANDING...:TO, not "
                        "'%.20s'", str);
    if (t_over(R, s))
        return ply_fail(err, "the game is over (draw)");
    Move mv[T_MAX_MOVES];
    /* a move whose landing squares are exactly the ones given wins; with
     * just FROM and TO, any one capture between them will do */
    int n = t_gen(R, s, mv), exact = 0, loose = 0;
    Move pick = 0, pick_loose = 0;
    for (int i = 0; i < n; i++) {
        if (DM_FROM(mv[i]) != sq[0] || DM_TO(mv[i]) != sq[k - 1])
            continue;
        int is_exact;
        if (!T_CAPS(mv[i])) {
            is_exact = k == 2;
        } else {
            TGen x;
            t_gen_init(&x, R, s);
            x.end = t_end_find;
            x.want = mv[i];
            x.want_path = sq + 1;
            x.want_len = k - 1;
            t_search(&x, s, sq[0]);
            is_exact = x.stop;
        }
        if (is_exact && exact++ == 0)
            pick = mv[i];
        if (k == 2 && T_CAPS(mv[i]) && loose++ == 0)
            pick_loose = mv[i];
    }
    if (!n)
        return ply_fail(err, "the game is over (no moves)");
    if (!exact && loose == 1) {
        exact = 1;
        pick = pick_loose;
    } else if (!exact && loose > 1) {
        exact = 2;
    }
    if (!exact)
        return ply_fail(err, "'%.20s' is not a legal move here", str);
    if (exact > 1)
        return ply_fail(err, "'%.20s' is ambiguous: give every landing "
                        "square of the capture", str);
    *m = pick;
    return 0;
}

static int t_render(const DRules *R, const TState *s, char *buf, size_t n)
{
    const DGeom *g = R->g;
    DrOut o = {buf, n, 0, 0};
    for (int r = g->n - 1; r >= 0; r--) {
        dr_out(&o, "%2d ", r + 1);
        for (int c = 0; c < g->n; c++) {
            int sq = g->idx[r][c];
            if (sq < 0)
                dr_out(&o, "   ");
            else if (!s->h[sq])
                dr_out(&o, " . ");
            else if (s->h[sq] == 1)
                dr_out(&o, " %c ", t_piece_char(R, s->stack[sq]));
            else
                dr_out(&o, " %c%d", t_piece_char(R, s->stack[sq]), s->h[sq]);
        }
        dr_out(&o, "\n");
    }
    dr_out(&o, "   ");
    for (int c = 0; c < g->n; c++)
        dr_out(&o, " %c ", 'a' + c);
    dr_out(&o, "\ncolumns (top first):");
    int any = 0;
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->n; c++) {
            int sq = g->idx[r][c];
            if (sq < 0 || s->h[sq] < 2)
                continue;
            dr_out(&o, " %c%d=", 'a' + c, r + 1);
            for (int i = 0; i < s->h[sq]; i++)
                dr_out(&o, "%c", t_piece_char(R, s->stack[sq] >> (2 * i)));
            any = 1;
        }
    dr_out(&o, "%s\n", any ? "" : " none taller than one");
    return o.bad ? -1 : (int)o.len;
}

/* The board for drawing: each column's owners bottom to top. */
static int t_layout(const DRules *R, const TState *s, Layout *l)
{
    const DGeom *g = R->g;
    int N = g->n;
    l->width = (float)N;
    l->height = (float)N;
    for (int r = N - 1; r >= 0; r--)
        for (int c = 0; c < N; c++) {
            int sq = g->idx[r][c];
            char name[16] = "";
            if (sq >= 0)
                snprintf(name, sizeof name, "%c%d", 'a' + c, r + 1);
            LayoutCell *cell = layout_cell(l, (float)c + 0.5f,
                                           (float)(N - 1 - r) + 0.5f,
                                           CELL_SQUARE, sq >= 0 ? SHADE_DARK
                                           : SHADE_LIGHT, name);
            if (!cell || sq < 0 || !s->h[sq])
                continue;
            uint64_t top = s->stack[sq];
            cell->owner = (int8_t)(top & 1);
            cell->king = (top & 2) != 0;
            snprintf(cell->glyph, sizeof cell->glyph, "%s",
                     cell->king ? "\u265B" : "\u25CF");
            int h = s->h[sq] < (int)sizeof cell->stack - 1
                    ? s->h[sq] : (int)sizeof cell->stack - 1;
            for (int i = 0; i < h; i++)
                cell->stack[i] = (char)('0' + (top >> (2 * (h - 1 - i)) & 1));
            cell->stack[h] = 0;
            if (s->h[sq] > 1)
                cell->count = s->h[sq];
        }
    return 0;
}

/* Own pieces in a column count fully, prisoners under one's top count for
 * the holder (they are out of the opponent's play); a column's own pieces
 * right under the top make it hard to free prisoners; the top man's
 * advancement counts as in draughts. */
static int t_eval(const DRules *R, const TState *s, int player)
{
    const DGeom *g = R->g;
    int v[2] = {0, 0};
    for (uint64_t b = s->occ[0] | s->occ[1]; b; b &= b - 1) {
        int sq = dr_ctz(b), p = (int)(s->stack[sq] & 1), guard = 1;
        for (int i = 0; i < s->h[sq]; i++) {
            uint64_t piece = s->stack[sq] >> (2 * i) & 3;
            int val = (piece & 2) ? R->king_value : R->man_value;
            if ((int)(piece & 1) == p) {
                v[p] += val + (i && guard ? 15 : 0);
            } else {
                v[p] += val / 2;    /* a prisoner */
                guard = 0;
            }
        }
        if (!(s->stack[sq] & 2)) {
            int r = g->rc[sq] >> 4, adv = p ? g->n - 1 - r : r;
            v[p] += 3 * adv;
        }
    }
    int d = v[player] - v[!player];
    d += s->side == player ? 3 : -3;
    return d > EVAL_MAX - 1 ? EVAL_MAX - 1 : d < 1 - EVAL_MAX ? 1 - EVAL_MAX
                                                              : d;
}

static int t_end_stop(TGen *x, uint64_t at, uint64_t cap, int promo)
{
    (void)x, (void)at, (void)cap, (void)promo;
    return 1;
}

/* Whether the player to move has a capture. */
static int t_any_capture(const DRules *R, const TState *s)
{
    TGen x;
    t_gen_init(&x, R, s);
    x.end = t_end_stop;
    for (uint64_t b = s->occ[s->side]; b && !x.stop; b &= b - 1)
        t_search(&x, s, dr_ctz(b));
    return x.stop;
}

static void t_make(const DRules *R, TState *s, Move m);

/* Captures (more prisoners, kings) and crowning first; a move that lets
 * the opponent capture at once loses points. */
static int t_heuristic(const DRules *R, const TState *s, Move m)
{
    int h = T_CAPS(m) ? 1000 + 100 * dr_popcount(T_CAPS(m)) +
                        60 * dr_popcount(T_KPAT(m)) : 0;
    if (m & DM_PROMO)
        h += 500;
    if (!(s->kings >> DM_FROM(m) & 1)) {
        int r = R->g->rc[DM_TO(m)] >> 4;
        h += 20 + (s->side ? R->g->n - 1 - r : r);
    } else {
        h += 10;
    }
    TState t = *s;
    t_make(R, &t, m);
    if (t_any_capture(R, &t))
        h -= 150;
    return h;
}

static int t_score(const TState *s, int player)
{
    int k = 0;
    for (uint64_t b = s->occ[player]; b; b &= b - 1)
        k += s->h[dr_ctz(b)];
    return k;
}

static int t_check(const DRules *R, const TState *s)
{
    const DGeom *g = R->g;
    int total = 0;
    for (int sq = 0; sq < T_SQ; sq++) {
        uint64_t b = 1ull << sq;
        if (s->h[sq] > T_MAX_PIECES)
            return -1;
        if (s->h[sq] && !(g->board & b))
            return -1;
        if (s->h[sq] < 32 && (s->stack[sq] >> (2 * s->h[sq])))
            return -1;
        total += s->h[sq];
        int top = s->h[sq] ? (int)(s->stack[sq] & 1) : -1;
        if (!!(s->occ[0] & b) != (top == 0) || !!(s->occ[1] & b) != (top == 1))
            return -1;
        if (!!(s->kings & b) != (s->h[sq] && (s->stack[sq] & 2)))
            return -1;
    }
    if (total > T_MAX_PIECES || s->side > 1 || s->rep3 > 1 ||
        s->nhist > R->quiet_limit || s->nhist > s->quiet)
        return -1;
    return 0;
}

/* ---- the two games ---- */

#define TOWER_GAME(var, R, NAME, TITLE, NOTATION, RULESTXT)               \
    static int var##_init(void *st, const int *o, uint64_t seed,          \
                          PlyError *e)                                    \
    {                                                                     \
        (void)o, (void)seed, (void)e;                                     \
        return t_init(R, st);                                             \
    }                                                                     \
    static int var##_to_move(const void *st) { return t_to_move(R, st); } \
    static int var##_gen(const void *st, Move *out)                       \
    {                                                                     \
        return t_gen(R, st, out);                                         \
    }                                                                     \
    static void var##_make(void *st, Move m) { t_make(R, st, m); }        \
    static void var##_returns(const void *st, double *out)                \
    {                                                                     \
        t_returns(R, st, out);                                            \
    }                                                                     \
    static uint64_t var##_hash(const void *st) { return t_hash(R, st); }  \
    static int var##_to_text(const void *st, char *b, size_t n)           \
    {                                                                     \
        return t_to_text(R, st, b, n);                                    \
    }                                                                     \
    static int var##_from_text(void *st, const char *s, PlyError *e)      \
    {                                                                     \
        return t_from_text(R, st, s, e);                                  \
    }                                                                     \
    static int var##_move_to_text(const void *st, Move m, char *b,        \
                                  size_t n)                               \
    {                                                                     \
        return t_move_to_text(R, st, m, b, n);                            \
    }                                                                     \
    static int var##_text_to_move(const void *st, const char *s, Move *m, \
                                  PlyError *e)                            \
    {                                                                     \
        return t_text_to_move(R, st, s, m, e);                            \
    }                                                                     \
    static int var##_render(const void *st, char *b, size_t n)            \
    {                                                                     \
        return t_render(R, st, b, n);                                     \
    }                                                                     \
    static int var##_layout(const void *st, Layout *l)                    \
    {                                                                     \
        return t_layout(R, st, l);                                        \
    }                                                                     \
    static int var##_eval(const void *st, int p) { return t_eval(R, st, p); } \
    static int var##_heuristic(const void *st, Move m)                    \
    {                                                                     \
        return t_heuristic(R, st, m);                                     \
    }                                                                     \
    static int var##_is_noisy(const void *st, Move m)                     \
    {                                                                     \
        (void)st;                                                         \
        return T_CAPS(m) || (m & DM_PROMO);                               \
    }                                                                     \
    static int var##_score(const void *st, int p) { return t_score(st, p); } \
    static int var##_check(const void *st) { return t_check(R, st); }     \
    const GameVtbl game_draughts_##var = {                                \
        .formats = dr_formats,                                            \
        .info = {                                                         \
            .name = NAME,                                                 \
            .title = TITLE,                                               \
            .num_players = 2,                                             \
            .max_moves = T_MAX_MOVES,                                     \
            .max_game_length = T_MAX_PLIES,                               \
            .state_size = sizeof(TState),                                 \
            .flags = GAME_ZERO_SUM,                                       \
            .player_names = tower_players,                                \
            .options = NULL,                                              \
            .notation = NOTATION,                                         \
            .rules = RULESTXT,                                            \
        },                                                                \
        .init = var##_init,                                               \
        .to_move = var##_to_move,                                         \
        .gen_moves = var##_gen,                                           \
        .make = var##_make,                                               \
        .returns = var##_returns,                                         \
        .hash = var##_hash,                                               \
        .to_text = var##_to_text,                                         \
        .from_text = var##_from_text,                                     \
        .move_to_text = var##_move_to_text,                               \
        .text_to_move = var##_text_to_move,                               \
        .render = var##_render,                                           \
        .layout = var##_layout,                                           \
        .eval = var##_eval,                                               \
        .heuristic = var##_heuristic,                                     \
        .is_noisy = var##_is_noisy,                                       \
        .score = var##_score,                                             \
        .check = var##_check,                                             \
    }

static const char *const tower_players[] = {"White", "Black"};

static const DRules BASHNI = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {DR_DIAG, DR_DIAG},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .passing_promo = 1,
    .quiet_limit = 30,
    .men_rows = {0, 2},
    .max_moves = T_MAX_MOVES,
    .man_value = 100,
    .king_value = 250,
    .colours = "WB",
};

static const DRules LASKA = {
    .g = &DGEOM_7,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 0,
    .immediate = 1,
    .quiet_limit = 80,
    .men_rows = {0, 2},
    .max_moves = T_MAX_MOVES,
    .man_value = 100,
    .king_value = 170,
    .colours = "WB",
};

#define TOWER_NOTATION(BOARD, EX)                                           \
    "Squares " BOARD " (a1 is a playing square, White at the bottom). A\n" \
    "quiet move is FROM-TO; a capture lists every landing square,\n"       \
    "FROM:...:TO; FROM:TO alone is enough when unambiguous. Setup: side\n" \
    "to move, then the columns topped by White and by Black; each column\n" \
    "is K (if a king is on top), its square, then the pieces under the\n"  \
    "top, top to bottom (w/b man, W/B king): " EX ". Optional :H<n>\n"     \
    "(plies without progress) and :P<n> (plies played)."

#define TOWER_REP                                                          \
    "Repetition: the third occurrence of a position (every column the\n"   \
    "same, the same side to move) draws at once; positions count from the\n" \
    "last capture or man move and from the setup on (a game drawn so has\n" \
    "a setup ending in :3fold). A capture could in principle rebuild an\n" \
    "earlier position; such a return is not seen."

#define TOWER_COMMON                                                       \
    "Column rule: pieces are never removed. A jump takes only the top\n"   \
    "piece of the jumped column and puts it under the jumping column (at\n" \
    "the bottom, in the order taken); the rest of the jumped column stays,\n" \
    "with its new top deciding its owner. A column moves and captures as\n" \
    "its top piece and belongs to the top piece's owner. A column cannot\n" \
    "be jumped twice in one move; a freed king stays a king. Capturing is\n" \
    "compulsory with free choice among captures, but a capture must be\n"  \
    "taken to its end. A player without a legal move loses."

TOWER_GAME(bashni, &BASHNI, "draughts-bashni", "Bashni (column draughts)",
    TOWER_NOTATION("a1..h8", "W:Wa1,Kc3bw:Bb8Ww"),
    "Russian draughts with columns. 8x8 board, 12 men each on the three\n"
    "nearest rows; White first. Men step diagonally forward and capture\n"
    "forward and backward; kings fly and capture at a distance, landing\n"
    "where the capture can go on if there is such a square. A man reaching\n"
    "the last row mid-capture is crowned and goes on as a king. A jumped\n"
    "column stays in place until the move ends and blocks the way.\n"
    TOWER_COMMON
    "\nDraw: 30 plies with only king moves and no capture, threefold\n"
    "repetition (as in Russian draughts; the column rules seen do not\n"
    "say), or 1000 plies in all.\n" TOWER_REP);

TOWER_GAME(laska, &LASKA, "draughts-laska", "Laska (Lasca, column draughts)",
    TOWER_NOTATION("a1..g7", "W:Wa1,Kc3bw:Bb7Ww"),
    "Lasker's column game on English rules. 7x7 board (25 playing\n"
    "squares, the corners dark), 11 men each on the three nearest rows;\n"
    "White first. Men step and capture diagonally forward only (short\n"
    "jumps); a man reaching the last row is crowned (officer) and its\n"
    "move ends. Officers step one square diagonally and capture short in\n"
    "all four directions. A prisoner is taken as the jump is made: a\n"
    "jumped single piece leaves its square at once.\n"
    TOWER_COMMON
    "\nDraw: 80 plies without a capture or a man move, threefold\n"
    "repetition (Lasker's rules do not say; chosen as in English\n"
    "draughts), or 1000 plies in all.\n" TOWER_REP);
