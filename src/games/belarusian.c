/* belarusian.c — Belarusian chess (Grushevsky and Shkludov, 1984), the
 * chess-draughts crossover that Dagaz implements: chess pieces move as in
 * chess, draughts men and damas as in Russian draughts, on one 8x8 board.
 *
 * A plain 8x8 mailbox (square = rank * 8 + file, a1 = 0). Legal moves are
 * pseudo-legal moves made on a copy of the board and kept when the own
 * king is not attacked afterwards. A draughts capture is encoded by its
 * origin, its destination and the set of captured squares; since men and
 * damas jump diagonally, every square of a capture has the colour of the
 * capturer's square, and the set is 32 bits over that colour (square / 2).
 *
 * Rules chosen (the sources leave them open; `ply info` says so):
 * a draughts capture is compulsory when the side to move has a legal one
 * (Dagaz gives draughts captures priority over every other move); a
 * capture chain goes on while it can (Russian: any chain, not the
 * longest; captured pieces leave at its end and are jumped once; a man
 * reaching the last rank becomes a dama and goes on as one); the king is
 * never jumped, and a man or dama that could jump it at once gives check;
 * pawns step one square (no double step, so no en passant) and promote on
 * the last rank to queen, rook, bishop or knight; castling as in chess
 * with the rights in the setup string; checkmate wins, stalemate,
 * threefold repetition and the move limit draw. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/rng.h"

enum { MAN = 1, DAMA, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1, BLACKBIT = 16 };
enum { HIST = 128, MAX_PLIES = 400, BC_MAX_MOVES = 400 };
enum { R_NONE, R_MATE, R_STALEMATE, R_REPETITION, R_LIMIT, R_KING };

#define TYPE(p) ((p) & 15)
#define COLOR(p) (((p) >> 4) & 1)

typedef struct Bel {
    uint8_t b[64];
    uint8_t side;
    uint8_t castle;         /* 1 K, 2 Q, 4 k, 8 q */
    uint8_t ksq[2];
    uint8_t reason;
    int8_t winner;
    uint8_t in_check;
    uint8_t setup;          /* option: 0 = Dagaz setup 1, 1 = setup 2 */
    uint8_t kingcap;        /* option kings=capture: men may take the king
                               (Dagaz), and do not give check */
    uint8_t pad0;
    uint16_t ply;
    uint16_t hist_len;
    uint32_t pad;
    uint64_t hash;
    uint32_t hist[HIST];
} Bel;

/* Move: bits 0-5 from, 6-11 to, 12-14 promotion piece (0 none),
 * bit 15 draughts capture, bits 16-47 captured squares (square / 2). */
static inline Move mk(int from, int to, int promo)
{
    return (Move)from | ((Move)to << 6) | ((Move)promo << 12);
}
static inline int m_from(Move m) { return (int)(m & 63); }
static inline int m_to(Move m) { return (int)((m >> 6) & 63); }
static inline int m_promo(Move m) { return (int)((m >> 12) & 7); }
static inline int m_jump(Move m) { return (int)((m >> 15) & 1); }
static inline uint32_t m_caps(Move m) { return (uint32_t)(m >> 16); }

static const char *const bel_players[] = {"White", "Black"};
static const char piece_letters[] = " MDPNBRQK";

static const char *const starts[2] = {
    "rmbqkmnm/mpmpmpmp/pmpmpmpm/8/8/MPMPMPMP/PMPMPMPM/MNMQKBMR w Kq 1",
    "mrmkmqmr/nmbmbmnm/mpmpmpmp/8/8/PMPMPMPM/MNMBMBMN/RMQMKMRM w Q 1",
};

static inline int fl(int s) { return s & 7; }
static inline int rk(int s) { return s >> 3; }
/* The square one step from s in (df, dr), or -1 off the board. */
static inline int step(int s, int df, int dr)
{
    int f = fl(s) + df, r = rk(s) + dr;
    return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}

static const int diag[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
static const int orth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                             {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

static inline uint64_t key_piece(int p, int sq)
{
    return ply_mix64(0xbe1a000000ull + ((uint64_t)p << 8) + (uint64_t)sq);
}
static inline uint64_t key_castle(int c)
{
    return ply_mix64(0xbe1b000000ull + (uint64_t)c);
}
static const uint64_t KEY_BLACK = 0x9e3779b97f4a7c15ull;

static uint64_t full_hash(const Bel *s)
{
    uint64_t h = s->side ? KEY_BLACK : 0;
    for (int q = 0; q < 64; q++)
        if (s->b[q])
            h ^= key_piece(s->b[q], q);
    return h ^ key_castle(s->castle);
}

/* ---- attacks ---- */

/* Whether colour `by` attacks square q on board b: a chess piece that
 * could capture there, or a man or dama that could jump q at once (the
 * square beyond q empty). */
static int attacked(const uint8_t *b, int q, int by, int kingcap)
{
    int bb = by ? BLACKBIT : 0;
    /* pawns: a white pawn on q-7/q-9 diagonals attacks upward */
    int pr = by == WHITE ? -1 : 1;
    for (int i = 0; i < 2; i++) {
        int t = step(q, i ? 1 : -1, pr);
        if (t >= 0 && b[t] == (bb | PAWN))
            return 1;
    }
    for (int i = 0; i < 8; i++) {
        int t = step(q, kn[i][0], kn[i][1]);
        if (t >= 0 && b[t] == (bb | KNIGHT))
            return 1;
    }
    for (int i = 0; i < 4; i++) {
        int t = step(q, diag[i][0], diag[i][1]);
        if (t >= 0 && b[t] == (bb | KING))
            return 1;
        t = step(q, orth[i][0], orth[i][1]);
        if (t >= 0 && b[t] == (bb | KING))
            return 1;
    }
    for (int i = 0; i < 4; i++) {
        /* sliders along the diagonal; draughts pieces jumping q */
        int beyond = step(q, -diag[i][0], -diag[i][1]);
        int t = step(q, diag[i][0], diag[i][1]), near = 1;
        while (t >= 0 && !b[t]) {
            t = step(t, diag[i][0], diag[i][1]);
            near = 0;
        }
        if (t >= 0 && COLOR(b[t]) == by) {
            int ty = TYPE(b[t]);
            if (ty == BISHOP || ty == QUEEN)
                return 1;
            if (!kingcap && beyond >= 0 && !b[beyond] &&
                (ty == DAMA || (ty == MAN && near)))
                return 1;
        }
        t = step(q, orth[i][0], orth[i][1]);
        while (t >= 0 && !b[t])
            t = step(t, orth[i][0], orth[i][1]);
        if (t >= 0 && COLOR(b[t]) == by &&
            (TYPE(b[t]) == ROOK || TYPE(b[t]) == QUEEN))
            return 1;
    }
    return 0;
}

/* ---- draughts captures ---- */

typedef struct JumpCtx {
    const uint8_t *b;
    int us, from, kingcap;
    Move *out;
    int n;
} JumpCtx;

static int last_rank(int c, int sq) { return rk(sq) == (c == WHITE ? 7 : 0); }

/* The enemy piece a jump from sq in direction d would capture (its
 * square), with the first landing square in *land; -1 when none. */
static int jump_target(const JumpCtx *j, int sq, int type, uint32_t caps,
                       int d, int *land)
{
    int df = diag[d][0], dr = diag[d][1];
    int t = step(sq, df, dr);
    if (type == DAMA)
        while (t >= 0 && (!j->b[t] || t == j->from))
            t = step(t, df, dr);
    if (t < 0 || t == j->from)
        return -1;
    int p = j->b[t];
    if (!p || COLOR(p) == j->us || (TYPE(p) == KING && !j->kingcap) ||
        (caps >> (t >> 1) & 1))
        return -1;
    int u = step(t, df, dr);
    if (u < 0 || (j->b[u] && u != j->from))
        return -1;
    *land = u;
    return t;
}

static int can_jump(const JumpCtx *j, int sq, int type, uint32_t caps)
{
    int land;
    for (int d = 0; d < 4; d++)
        if (jump_target(j, sq, type, caps, d, &land) >= 0)
            return 1;
    return 0;
}

/* Continues a chain at sq (the piece moving as `type`, having captured
 * caps). Adds a move at each end: a chain ends only where no jump is
 * left; a dama chooses among the squares beyond a captured piece those
 * from which it can go on capturing, when there are any. */
static void jumps_from(JumpCtx *j, int sq, int type, uint32_t caps)
{
    int any = 0;
    for (int d = 0; d < 4; d++) {
        int land;
        int t = jump_target(j, sq, type, caps, d, &land);
        if (t < 0)
            continue;
        any = 1;
        uint32_t nc = caps | (1u << (t >> 1));
        int lands[8], nl = 0;
        for (int u = land; u >= 0 && (!j->b[u] || u == j->from);
             u = step(u, diag[d][0], diag[d][1])) {
            lands[nl++] = u;
            if (type != DAMA)
                break;
        }
        int goes_on[8], some = 0;
        for (int i = 0; i < nl; i++) {
            int nt = type == MAN && last_rank(j->us, lands[i]) ? DAMA : type;
            goes_on[i] = can_jump(j, lands[i], nt, nc);
            some |= goes_on[i];
        }
        for (int i = 0; i < nl; i++) {
            if (some && !goes_on[i])
                continue;
            int nt = type == MAN && last_rank(j->us, lands[i]) ? DAMA : type;
            jumps_from(j, lands[i], nt, nc);
        }
    }
    if (!any && caps) {
        Move m = mk(j->from, sq, type == DAMA && TYPE(j->b[j->from]) == MAN)
                 | ((Move)1 << 15) | ((Move)caps << 16);
        for (int i = 0; i < j->n; i++)
            if (j->out[i] == m)
                return;     /* the same capture by another path */
        j->out[j->n++] = m;
    }
}

/* ---- generation ---- */

/* The draughts captures of the side to move (pseudo-legal). */
static int gen_jumps(const Bel *s, Move *out)
{
    JumpCtx j = {s->b, s->side, 0, s->kingcap, out, 0};
    for (int q = 0; q < 64; q++) {
        int p = s->b[q];
        if (!p || COLOR(p) != s->side || (TYPE(p) != MAN && TYPE(p) != DAMA))
            continue;
        j.from = q;
        jumps_from(&j, q, TYPE(p), 0);
    }
    return j.n;
}

static inline int add_to(const Bel *s, int from, int to, Move *out, int n)
{
    int p = s->b[to];
    if (p && COLOR(p) == s->side)
        return n;
    out[n++] = mk(from, to, 0);
    return n;
}

/* Every other pseudo-legal move: chess pieces, draughts steps,
 * castling (its squares tested here, the king's safety at the end by
 * the caller like any move). */
static int gen_quiet_and_chess(const Bel *s, Move *out)
{
    int us = s->side, n = 0, fwd = us == WHITE ? 1 : -1;
    const uint8_t *b = s->b;
    for (int q = 0; q < 64; q++) {
        int p = b[q];
        if (!p || COLOR(p) != us)
            continue;
        switch (TYPE(p)) {
        case MAN:
            for (int i = 0; i < 2; i++) {
                int t = step(q, i ? 1 : -1, fwd);
                if (t >= 0 && !b[t])
                    out[n++] = mk(q, t, last_rank(us, t));
            }
            break;
        case DAMA:
            for (int d = 0; d < 4; d++)
                for (int t = step(q, diag[d][0], diag[d][1]); t >= 0 && !b[t];
                     t = step(t, diag[d][0], diag[d][1]))
                    out[n++] = mk(q, t, 0);
            break;
        case PAWN: {
            int t = step(q, 0, fwd);
            if (t >= 0 && !b[t]) {
                if (last_rank(us, t))
                    for (int pr = QUEEN; pr >= KNIGHT; pr--)
                        out[n++] = mk(q, t, pr - KNIGHT + 1);
                else
                    out[n++] = mk(q, t, 0);
            }
            for (int i = 0; i < 2; i++) {
                t = step(q, i ? 1 : -1, fwd);
                if (t < 0 || !b[t] || COLOR(b[t]) == us)
                    continue;
                if (last_rank(us, t))
                    for (int pr = QUEEN; pr >= KNIGHT; pr--)
                        out[n++] = mk(q, t, pr - KNIGHT + 1);
                else
                    out[n++] = mk(q, t, 0);
            }
            break;
        }
        case KNIGHT:
            for (int i = 0; i < 8; i++) {
                int t = step(q, kn[i][0], kn[i][1]);
                if (t >= 0)
                    n = add_to(s, q, t, out, n);
            }
            break;
        case KING:
            for (int i = 0; i < 4; i++) {
                int t = step(q, diag[i][0], diag[i][1]);
                if (t >= 0)
                    n = add_to(s, q, t, out, n);
                t = step(q, orth[i][0], orth[i][1]);
                if (t >= 0)
                    n = add_to(s, q, t, out, n);
            }
            break;
        default: {
            int ty = TYPE(p);
            for (int i = 0; i < 4; i++) {
                const int *dd[2] = {diag[i], orth[i]};
                for (int k = 0; k < 2; k++) {
                    if ((k == 0 && ty == ROOK) || (k == 1 && ty == BISHOP))
                        continue;
                    for (int t = step(q, dd[k][0], dd[k][1]); t >= 0;
                         t = step(t, dd[k][0], dd[k][1])) {
                        n = add_to(s, q, t, out, n);
                        if (b[t])
                            break;
                    }
                }
            }
        }
        }
    }
    /* castling: king on e1/e8, rook on h or a, squares between empty,
     * the king not in check and not crossing an attacked square */
    int home = us == WHITE ? 4 : 60, kb = us ? BLACKBIT : 0;
    if (b[home] == (kb | KING) && !s->in_check) {
        int kr = us == WHITE ? 1 : 4, qr = us == WHITE ? 2 : 8;
        if ((s->castle & kr) && b[home + 3] == (kb | ROOK) && !b[home + 1] &&
            !b[home + 2] && !attacked(b, home + 1, us ^ 1, s->kingcap) &&
            !attacked(b, home + 2, us ^ 1, s->kingcap))
            out[n++] = mk(home, home + 2, 0);
        if ((s->castle & qr) && b[home - 4] == (kb | ROOK) && !b[home - 1] &&
            !b[home - 2] && !b[home - 3] && !attacked(b, home - 1, us ^ 1, s->kingcap) &&
            !attacked(b, home - 2, us ^ 1, s->kingcap))
            out[n++] = mk(home, home - 2, 0);
    }
    return n;
}

/* The board after m (no state bookkeeping): for the legality test. */
static void apply_board(uint8_t *b, Move m, int us)
{
    int from = m_from(m), to = m_to(m), p = b[from];
    if (m_jump(m)) {
        uint32_t caps = m_caps(m);
        while (caps) {
            int i = __builtin_ctz(caps);
            caps &= caps - 1;
            /* square / 2 = i: the one of the capturer's colour */
            int base = i * 2, q = base;
            if (((rk(base) + fl(base)) & 1) != ((rk(from) + fl(from)) & 1))
                q = base + 1;
            b[q] = 0;
        }
        b[from] = 0;
        b[to] = (uint8_t)(m_promo(m) ? (p & BLACKBIT) | DAMA : p);
        return;
    }
    b[from] = 0;
    int np = p;
    if (m_promo(m))
        np = (p & BLACKBIT) | (TYPE(p) == MAN ? DAMA
                               : KNIGHT + m_promo(m) - 1);
    b[to] = (uint8_t)np;
    if (TYPE(p) == KING && abs(to - from) == 2) {
        int rf = to > from ? from + 3 : from - 4, rt = (from + to) / 2;
        b[rt] = b[rf];
        b[rf] = 0;
    }
    (void)us;
}

/* The king's square, or 64 when it was taken (kings=capture). */
static int king_of(const uint8_t *b, int c)
{
    for (int q = 0; q < 64; q++)
        if (b[q] == ((c ? BLACKBIT : 0) | KING))
            return q;
    return 64;
}

static int bel_gen_legal(const Bel *s, Move *out)
{
    Move tmp[BC_MAX_MOVES];
    int n = 0, us = s->side;
    /* draughts captures first: compulsory when one is legal */
    for (int pass = 0; pass < 2; pass++) {
        int k = pass == 0 ? gen_jumps(s, tmp) : gen_quiet_and_chess(s, tmp);
        for (int i = 0; i < k; i++) {
            uint8_t nb[64];
            memcpy(nb, s->b, 64);
            apply_board(nb, tmp[i], us);
            int ksq = TYPE(s->b[m_from(tmp[i])]) == KING ? m_to(tmp[i])
                                                         : s->ksq[us];
            if (!attacked(nb, ksq, us ^ 1, s->kingcap))
                out[n++] = tmp[i];
        }
        if (n)
            return n;
    }
    return n;
}

/* ---- make and the game's end ---- */

static int repeated3(const Bel *s)
{
    uint32_t cur = s->hist[s->ply % HIST];
    int count = 1;
    for (int back = 2; back < s->hist_len; back += 2)
        if (s->hist[(s->ply - back) % HIST] == cur && ++count >= 3)
            return 1;
    return 0;
}

static void settle(Bel *s, int use_history)
{
    s->ksq[0] = (uint8_t)king_of(s->b, 0);
    s->ksq[1] = (uint8_t)king_of(s->b, 1);
    s->hist[s->ply % HIST] = (uint32_t)(s->hash >> 32);
    if (s->hist_len < HIST)
        s->hist_len++;
    s->reason = R_NONE;
    s->winner = -1;
    s->in_check = 0;
    if (s->ksq[s->side] == 64) {
        /* kings=capture: a man took the king */
        s->reason = R_KING;
        s->winner = (int8_t)(s->side ^ 1);
        return;
    }
    s->in_check = (uint8_t)attacked(s->b, s->ksq[s->side], s->side ^ 1,
                                    s->kingcap);
    Move buf[BC_MAX_MOVES];
    if (bel_gen_legal(s, buf) == 0) {
        s->reason = s->in_check ? R_MATE : R_STALEMATE;
        s->winner = (int8_t)(s->in_check ? s->side ^ 1 : -1);
    } else if (use_history && repeated3(s)) {
        s->reason = R_REPETITION;
    } else if (s->ply >= MAX_PLIES) {
        s->reason = R_LIMIT;
    }
}

static void bel_make(void *st, Move m)
{
    Bel *s = st;
    int from = m_from(m), to = m_to(m), p = s->b[from];
    uint8_t nb[64];
    memcpy(nb, s->b, 64);
    apply_board(nb, m, s->side);
    /* castling rights: a king or rook leaving home, a rook taken */
    static const int rook_home[4] = {7, 0, 63, 56};
    int c = s->castle;
    if (TYPE(p) == KING)
        c &= s->side == WHITE ? ~3 : ~12;
    for (int i = 0; i < 4; i++)
        if (nb[rook_home[i]] != ((i >= 2 ? BLACKBIT : 0) | ROOK))
            c &= ~(1 << i);
    uint64_t h = s->hash ^ KEY_BLACK ^ key_castle(s->castle) ^ key_castle(c);
    for (int q = 0; q < 64; q++)
        if (nb[q] != s->b[q]) {
            if (s->b[q])
                h ^= key_piece(s->b[q], q);
            if (nb[q])
                h ^= key_piece(nb[q], q);
        }
    memcpy(s->b, nb, 64);
    s->castle = (uint8_t)c;
    s->hash = h;
    s->side ^= 1;
    s->ply++;
    (void)to;
    settle(s, 1);
}

/* ---- setup strings ---- */

static int letter_piece(char ch)
{
    const char *p = strchr(piece_letters + 1, ch >= 'a' ? ch - 'a' + 'A' : ch);
    if (!ch || !p)
        return 0;
    return (int)(p - piece_letters) | (ch >= 'a' ? BLACKBIT : 0);
}

static int parse_fen(Bel *s, const char *text, PlyError *err)
{
    char tok[5][100];
    int nt = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (nt == 5)
            return ply_fail(err, "bad setup string: too many fields "
                            "(BOARD SIDE CASTLING [MOVENUMBER [repetition]])");
        size_t len = strcspn(p, " \t");
        if (len >= sizeof tok[0])
            return ply_fail(err, "bad setup string: field %d too long",
                            nt + 1);
        memcpy(tok[nt], p, len);
        tok[nt++][len] = 0;
        p += len;
    }
    if (nt < 3)
        return ply_fail(err, "bad setup string: expected 'BOARD SIDE "
                        "CASTLING [MOVENUMBER]', got %d field(s)", nt);
    uint8_t setup = s->setup, kingcap = s->kingcap;
    memset(s, 0, sizeof *s);
    s->setup = setup;
    s->kingcap = kingcap;
    int r = 7, f = 0, kings[2] = {0, 0};
    for (const char *q = tok[0]; *q; q++) {
        if (*q == '/') {
            if (f != 8 || r == 0)
                return ply_fail(err, "bad setup string: rank %d has %d "
                                "squares, not 8", r + 1, f);
            r--;
            f = 0;
        } else if (*q >= '1' && *q <= '8') {
            f += *q - '0';
            if (f > 8)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than 8 squares", r + 1);
        } else {
            int pc = letter_piece(*q);
            if (!pc)
                return ply_fail(err, "bad setup string: bad piece '%c' "
                                "(K Q R B N P, M man, D dama)", *q);
            if (f >= 8)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than 8 squares", r + 1);
            int c = COLOR(pc);
            if (TYPE(pc) == PAWN && (r == 0 || r == 7))
                return ply_fail(err, "bad setup string: a pawn on rank %d",
                                r + 1);
            if (TYPE(pc) == MAN && last_rank(c, r * 8))
                return ply_fail(err, "bad setup string: a man on its last "
                                "rank (it is a dama there)");
            if (TYPE(pc) == KING)
                kings[c]++;
            s->b[r * 8 + f++] = (uint8_t)pc;
        }
    }
    if (r != 0 || f != 8)
        return ply_fail(err, "bad setup string: the board needs 8 ranks of "
                        "8 squares");
    if (!strcmp(tok[1], "w"))
        s->side = WHITE;
    else if (!strcmp(tok[1], "b"))
        s->side = BLACK;
    else
        return ply_fail(err, "bad setup string: side to move '%s' is not "
                        "w or b", tok[1]);
    /* kings=capture: the side to move may have lost its king (over) */
    if (kings[s->side ^ 1] != 1 || kings[s->side] > 1 ||
        (kings[s->side] == 0 && !s->kingcap))
        return ply_fail(err, "bad setup string: each side needs exactly one "
                        "king");
    if (strcmp(tok[2], "-"))
        for (const char *q = tok[2]; *q; q++) {
            const char *k = strchr("KQkq", *q);
            if (!k)
                return ply_fail(err, "bad setup string: castling '%s' (K Q "
                                "k q or -)", tok[2]);
            int bit = 1 << (k - "KQkq"), home = bit < 4 ? 4 : 60;
            int rook = home + (bit & 5 ? 3 : -4), kb = bit < 4 ? 0 : BLACKBIT;
            if (s->b[home] != (kb | KING) || s->b[rook] != (kb | ROOK))
                return ply_fail(err, "bad setup string: castling '%c' needs "
                                "the king and the rook at home", *q);
            s->castle |= (uint8_t)bit;
        }
    long mn = 1;
    if (nt >= 4) {
        char *end;
        mn = strtol(tok[3], &end, 10);
        if (*end || end == tok[3] || mn < 1 || mn > 10000)
            return ply_fail(err, "bad setup string: move number '%s' is not "
                            "1..10000", tok[3]);
    }
    s->ply = (uint16_t)((mn - 1) * 2 + s->side);
    if (s->ply > MAX_PLIES)
        return ply_fail(err, "bad setup string: move number past the "
                        "limit of %d plies", MAX_PLIES);
    s->ksq[0] = (uint8_t)king_of(s->b, 0);
    s->ksq[1] = (uint8_t)king_of(s->b, 1);
    if (attacked(s->b, s->ksq[s->side ^ 1], s->side, s->kingcap))
        return ply_fail(err, "bad setup string: the side not to move is in "
                        "check");
    s->hash = full_hash(s);
    settle(s, 0);
    if (nt == 5) {
        if (strcmp(tok[4], "repetition"))
            return ply_fail(err, "bad setup string: unknown result '%s' "
                            "(repetition)", tok[4]);
        if (s->reason != R_NONE)
            return ply_fail(err, "bad setup string: result '%s' given for "
                            "a position that is already decided", tok[4]);
        s->reason = R_REPETITION;
    }
    return 0;
}

static const char *const setup_choices[] = {"1", "2", NULL};
static const char *const kings_choices[] = {"check", "capture", NULL};
static const GameOption bel_options[] = {
    {.key = "setup", .type = OPT_CHOICE, .def = 0, .choices = setup_choices,
     .help = "1: Dagaz's first setup (men on the dark squares of ranks 1-3 "
     "between the pieces, pawns on the others, one rook); 2: Dagaz's "
     "second (men on the light squares, pawns a3 c3 e3 g3, two rooks)"},
    {.key = "kings", .type = OPT_CHOICE, .def = 0, .choices = kings_choices,
     .help = "check: the king is never jumped, a man or dama that could "
     "jump it gives check; capture: Dagaz's reading, men and damas jump "
     "the king like any piece (taking it wins) and give no check"},
    {.key = NULL},
};

static int bel_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Bel *s = st;
    memset(s, 0, sizeof *s);
    s->setup = (uint8_t)(opt ? opt[0] : 0);
    s->kingcap = (uint8_t)(opt ? opt[1] : 0);
    return parse_fen(s, starts[s->setup], err);
}

static int bel_from_text(void *st, const char *text, PlyError *err)
{
    Bel tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.setup = ((Bel *)st)->setup;
    tmp.kingcap = ((Bel *)st)->kingcap;
    if (parse_fen(&tmp, text, err))
        return -1;
    memcpy(st, &tmp, sizeof tmp);
    return 0;
}

static int bel_to_text(const void *st, char *buf, size_t n)
{
    const Bel *s = st;
    char t[128];
    int k = 0;
    for (int r = 7; r >= 0; r--) {
        int e = 0;
        for (int f = 0; f < 8; f++) {
            int p = s->b[r * 8 + f];
            if (!p) {
                e++;
                continue;
            }
            if (e)
                t[k++] = (char)('0' + e);
            e = 0;
            char ch = piece_letters[TYPE(p)];
            t[k++] = COLOR(p) ? (char)(ch - 'A' + 'a') : ch;
        }
        if (e)
            t[k++] = (char)('0' + e);
        if (r)
            t[k++] = '/';
    }
    t[k] = 0;
    char cs[5] = "";
    int nc = 0;
    for (int i = 0; i < 4; i++)
        if (s->castle >> i & 1)
            cs[nc++] = "KQkq"[i];
    if (!nc)
        cs[nc++] = '-';
    cs[nc] = 0;
    int len = snprintf(buf, n, "%s %c %s %d%s", t, s->side ? 'b' : 'w', cs,
                       s->ply / 2 + 1,
                       s->reason == R_REPETITION ? " repetition" : "");
    return len < 0 || (size_t)len >= n ? -1 : len;
}

/* ---- move text ---- */

/* A path of landing squares for capture m (depth-first over the jumps
 * that take exactly m's pieces); returns its length. */
static int path_dfs(const JumpCtx *j, int sq, int type, uint32_t used,
                    uint32_t want, int to, int *path, int depth)
{
    if (used == want)
        return sq == to ? depth : -1;
    for (int d = 0; d < 4; d++) {
        int land;
        int t = jump_target(j, sq, type, used, d, &land);
        if (t < 0 || !(want >> (t >> 1) & 1))
            continue;
        for (int u = land; u >= 0 && (!j->b[u] || u == j->from);
             u = step(u, diag[d][0], diag[d][1])) {
            int nt = type == MAN && last_rank(j->us, u) ? DAMA : type;
            path[depth] = u;
            int r = path_dfs(j, u, nt, used | (1u << (t >> 1)), want, to,
                             path, depth + 1);
            if (r >= 0)
                return r;
            if (type != DAMA)
                break;
        }
    }
    return -1;
}

static int bel_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Bel *s = st;
    char t[128];
    int k = 0, from = m_from(m);
    t[k++] = (char)('a' + fl(from));
    t[k++] = (char)('1' + rk(from));
    if (m_jump(m)) {
        JumpCtx j = {s->b, s->side, from, s->kingcap, NULL, 0};
        int path[40];
        int len = path_dfs(&j, from, TYPE(s->b[from]), 0, m_caps(m),
                           m_to(m), path, 0);
        if (len <= 0) {
            path[0] = m_to(m);
            len = 1;
        }
        for (int i = 0; i < len; i++) {
            t[k++] = 'x';
            t[k++] = (char)('a' + fl(path[i]));
            t[k++] = (char)('1' + rk(path[i]));
        }
    } else {
        t[k++] = (char)('a' + fl(m_to(m)));
        t[k++] = (char)('1' + rk(m_to(m)));
        if (m_promo(m) && TYPE(s->b[from]) == PAWN)
            t[k++] = "nbrq"[m_promo(m) - 1];
    }
    t[k] = 0;
    if ((size_t)k >= n)
        return -1;
    memcpy(buf, t, (size_t)k + 1);
    return k;
}

static int bel_gen_moves(const void *st, Move *out)
{
    const Bel *s = st;
    return s->reason ? 0 : bel_gen_legal(s, out);
}

static int bel_text_to_move(const void *st, const char *text, Move *m,
                            PlyError *err)
{
    const Bel *s = st;
    if (s->reason)
        return ply_fail(err, "the game is over");
    if (strlen(text) > 100)
        return ply_fail(err, "bad move: too long");
    Move mv[BC_MAX_MOVES];
    int n = bel_gen_legal(s, mv), hits = 0;
    char t[128];
    /* the whole text, else a capture by its two ends (c3xg7, c3g7) */
    for (int i = 0; i < n; i++)
        if (bel_move_to_text(s, mv[i], t, sizeof t) > 0 && !strcmp(t, text)) {
            *m = mv[i];
            return 0;
        }
    size_t len = strlen(text);
    if ((len == 4 || (len == 5 && text[2] == 'x')) && text[0] >= 'a' &&
        text[0] <= 'h' && text[1] >= '1' && text[1] <= '8') {
        const char *b = text + len - 2;
        if (b[0] >= 'a' && b[0] <= 'h' && b[1] >= '1' && b[1] <= '8') {
            int from = (text[1] - '1') * 8 + text[0] - 'a';
            int to = (b[1] - '1') * 8 + b[0] - 'a';
            for (int i = 0; i < n; i++)
                if (m_jump(mv[i]) && m_from(mv[i]) == from &&
                    m_to(mv[i]) == to) {
                    *m = mv[i];
                    hits++;
                }
            if (hits == 1)
                return 0;
            if (hits > 1)
                return ply_fail(err, "ambiguous capture '%s': give its "
                                "whole path (c3xe5xg7)", text);
        }
    }
    /* say why */
    for (int i = 0; i < n; i++)
        if (m_jump(mv[i]))
            return ply_fail(err, "illegal move '%s': a draughts capture is "
                            "compulsory", text);
    return ply_fail(err, "illegal move '%s' (moves: e2e3, b7b8q, a3b4, "
                    "c3xe5xg7)", text);
}

/* ---- the rest of the vtable ---- */

static int bel_to_move(const void *st)
{
    const Bel *s = st;
    return s->reason ? PLAYER_TERMINAL : s->side;
}

static void bel_returns(const void *st, double *out)
{
    const Bel *s = st;
    out[0] = out[1] = 0;
    if (s->reason && s->winner >= 0) {
        out[s->winner] = 1;
        out[s->winner ^ 1] = -1;
    }
}

static uint64_t bel_hash(const void *st) { return ((const Bel *)st)->hash; }

static int bel_render(const void *st, char *buf, size_t n)
{
    const Bel *s = st;
    size_t k = 0;
    char line[64];
    buf[0] = 0;
    for (int r = 7; r >= 0; r--) {
        int w = snprintf(line, sizeof line, "%d ", r + 1);
        for (int f = 0; f < 8; f++) {
            int p = s->b[r * 8 + f];
            char ch = p ? piece_letters[TYPE(p)] : '.';
            if (p && COLOR(p))
                ch = (char)(ch - 'A' + 'a');
            w += snprintf(line + w, sizeof line - (size_t)w, " %c", ch);
        }
        w += snprintf(line + w, sizeof line - (size_t)w, "\n");
        if (k + (size_t)w >= n)
            return -1;
        memcpy(buf + k, line, (size_t)w + 1);
        k += (size_t)w;
    }
    static const char *const why[] = {"", "checkmate", "stalemate",
                                      "threefold repetition", "move limit",
                                      "the king was taken"};
    int w;
    if (s->reason)
        w = snprintf(line, sizeof line, "   a b c d e f g h\ngame over: %s\n",
                     why[s->reason]);
    else
        w = snprintf(line, sizeof line, "   a b c d e f g h\n%s to move%s\n",
                     bel_players[s->side], s->in_check ? " (in check)" : "");
    if (w < 0 || k + (size_t)w >= n)
        return -1;
    memcpy(buf + k, line, (size_t)w + 1);
    return (int)(k + (size_t)w);
}

static const char *bel_end_reason(const void *st)
{
    static const char *const why[] = {NULL, "checkmate", "stalemate",
                                      "threefold repetition",
                                      "the move limit", "the king was taken"};
    const Bel *s = st;
    return s->reason < 6 ? why[s->reason] : NULL;
}

static int bel_layout(const void *st, Layout *l)
{
    static const char *const glyph[2][9] = {
        {"", "\u26C0", "\u26C1", "\u2659", "\u2658", "\u2657", "\u2656",
         "\u2655", "\u2654"},
        {"", "\u26C2", "\u26C3", "\u265F", "\u265E", "\u265D", "\u265C",
         "\u265B", "\u265A"}};
    const Bel *s = st;
    l->width = l->height = 8;
    for (int r = 7; r >= 0; r--)
        for (int f = 0; f < 8; f++) {
            char name[3] = {(char)('a' + f), (char)('1' + r), 0};
            LayoutCell *c = layout_cell(l, (float)f + 0.5f,
                                        (float)(7 - r) + 0.5f, CELL_SQUARE,
                                        (r + f) & 1 ? SHADE_LIGHT : SHADE_DARK,
                                        name);
            if (!c)
                return -1;
            int p = s->b[r * 8 + f];
            if (p) {
                snprintf(c->glyph, sizeof c->glyph, "%s",
                         glyph[COLOR(p)][TYPE(p)]);
                c->owner = (int8_t)COLOR(p);
            }
        }
    return 0;
}

/* ---- evaluation ---- */

/* Material, the advance of men and pawns (squared), the centre for the
 * knight, bishop and dama, the king away from it, and the move. A linear
 * form over named weights (`ply info belarusian-chess`), tunable with
 * `ply tune` (docs/tuning.md): each side's features, weighted, the
 * player's less the opponent's. */
enum { BF_VALUE = 0, BF_MAN_ADV = 7, BF_PAWN_ADV, BF_CENTRE, BF_KING_CENTRE,
       BF_TEMPO, BEL_NW };
static const char *const bel_names[BEL_NW] = {
    "man", "dama", "pawn", "knight", "bishop", "rook", "queen",
    "man.advance.squared", "pawn.advance.squared", "minor.centre",
    "king.centre", "tempo",
};
/* fitted by `ply tune` on 400 self-play games (docs/tuning.md); the
 * hand-set start was {120, 450, 100, 320, 330, 500, 900, 3, 2, 8, -6, 10} */
static const int bel_weights[BEL_NW] = {94, 113, 116, 391, 493, 623, 1234,
                                        0, 3, 0, -4, -34};
/* move ordering's piece values: the material weights, 0 for the king */
static int value(int t)
{
    return t >= MAN && t <= QUEEN ? bel_weights[BF_VALUE + t - 1] : 0;
}

/* The features of both sides: f[side][weight]. */
static void bel_features(const Bel *s, int f[2][BEL_NW])
{
    memset(f, 0, sizeof(int) * 2 * BEL_NW);
    for (int q = 0; q < 64; q++) {
        int p = s->b[q];
        if (!p)
            continue;
        int c = COLOR(p), t = TYPE(p), adv = c ? 7 - rk(q) : rk(q);
        int center = 3 - (abs(2 * fl(q) - 7) / 2 > abs(2 * rk(q) - 7) / 2
                              ? abs(2 * fl(q) - 7) / 2
                              : abs(2 * rk(q) - 7) / 2);
        if (t != KING)
            f[c][BF_VALUE + t - 1]++;
        if (t == MAN)
            f[c][BF_MAN_ADV] += adv * adv;
        else if (t == PAWN)
            f[c][BF_PAWN_ADV] += adv * adv;
        else if (t == KNIGHT || t == BISHOP || t == DAMA)
            f[c][BF_CENTRE] += center;
        else if (t == KING)
            f[c][BF_KING_CENTRE] += center;
    }
    f[s->side][BF_TEMPO] = 1;
}

static int bel_eval(const void *st, int player)
{
    int f[2][BEL_NW];
    bel_features(st, f);
    int e = evalform_value(bel_weights, f[player], f[player ^ 1], BEL_NW);
    return e > EVAL_MAX ? EVAL_MAX : e < -EVAL_MAX ? -EVAL_MAX : e;
}

/* The terms from player 0's view. */
static int bel_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][BEL_NW];
    *base = 0;
    bel_features(st, f);
    return evalform_terms(f[0], f[1], BEL_NW, out);
}

static const EvalTuning bel_tuning = {
    .nparams = BEL_NW, .names = bel_names, .weights = bel_weights,
    .terms = bel_terms,
};

static int bel_heuristic(const void *st, Move m)
{
    const Bel *s = st;
    int h = 100;
    if (m_jump(m))
        h += 3000 + 400 * __builtin_popcount(m_caps(m));
    int q = s->b[m_to(m)];
    if (q && !m_jump(m))
        h += 2000 + value(TYPE(q)) * 4 - value(TYPE(s->b[m_from(m)])) / 10;
    if (m_promo(m))
        h += 1000;
    return h;
}

static int bel_is_noisy(const void *st, Move m)
{
    const Bel *s = st;
    return m_jump(m) || m_promo(m) || s->b[m_to(m)] != 0;
}

static int bel_in_check(const void *st)
{
    const Bel *s = st;
    return s->reason == R_NONE && s->in_check;
}

static int bel_check(const void *st)
{
    const Bel *s = st;
    if (s->side > 1 || s->setup > 1 || s->kingcap > 1)
        return -1;
    for (int c = 0; c < 2; c++)
        if (king_of(s->b, c) != s->ksq[c])
            return -1;
    if (s->hash != full_hash(s))
        return -1;
    if (s->reason == R_KING)
        return s->ksq[s->side] == 64 ? 0 : -1;
    if (s->in_check != attacked(s->b, s->ksq[s->side], s->side ^ 1,
                                s->kingcap))
        return -1;
    return 0;
}

const GameVtbl game_belarusian_chess = {
    .info = {
        .name = "belarusian-chess",
        .title = "Belarusian chess (chess with draughts men, 1984)",
        .num_players = 2,
        .max_moves = BC_MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Bel),
        .flags = GAME_ZERO_SUM,
        .player_names = bel_players,
        .options = bel_options,
        .default_bot = "alphabeta",
        .notation =
            "Coordinates, files a-h and ranks 1-8 from White's side: a chess\n"
            "move or a draughts step names its two squares (e1f2, a3b4), a\n"
            "pawn's promotion adds the piece (b7b8q, n b r q); a draughts\n"
            "capture lists every landing square after 'x' (c3xe5xg7; its two\n"
            "ends alone, c3xg7, are read when they name one capture); castling\n"
            "is the king's move (e1g1). Setup string: 'BOARD SIDE CASTLING\n"
            "[MOVENUMBER]' as FEN, ranks 8 to 1, K Q R B N P chess pieces, M\n"
            "man, D dama, upper case White; side w or b; castling K Q k q or\n"
            "-; a game drawn by repetition adds 'repetition'.",
        .rules =
            "Belarusian chess (N. N. Grushevsky and P. A. Shkludov, 1984) as\n"
            "Dagaz sets it up: each side has a king, queen, rook, bishop,\n"
            "knight, eight pawns and eleven draughts men (setup=2: Dagaz's\n"
            "second setup, two rooks, two knights, two bishops, four pawns,\n"
            "twelve men). Chess pieces move and capture as in chess; men and\n"
            "damas as in Russian draughts: a man steps diagonally forward,\n"
            "captures by jumping in all four diagonal directions, and becomes\n"
            "a dama on the last rank (also in the middle of a capture, going\n"
            "on as a dama); a dama flies along diagonals and captures at any\n"
            "distance. Every piece captures every enemy piece. Rules chosen\n"
            "where the sources are silent: a draughts capture is compulsory\n"
            "whenever the side to move has a legal one (Dagaz gives them\n"
            "priority over all other moves), not necessarily the longest; a\n"
            "chain goes on while it can, pieces are jumped once and leave at\n"
            "its end; the king is never jumped, and a man or dama that could\n"
            "jump it at once gives check (kings=capture: Dagaz's reading, a man\n"
            "or dama jumps the king like any piece, taking it wins, and only\n"
            "chess pieces give check); pawns step one square (Dagaz's pawns have no double step,\n"
            "so no en passant) and promote on the last rank to queen, rook,\n"
            "bishop or knight; castling as in chess (king from e1/e8 two\n"
            "squares towards a rook at home, rights in the setup string).\n"
            "Checkmate wins; stalemate, threefold repetition and move 200\n"
            "(400 plies) draw.",
    },
    .init = bel_init,
    .to_move = bel_to_move,
    .gen_moves = bel_gen_moves,
    .make = bel_make,
    .returns = bel_returns,
    .hash = bel_hash,
    .to_text = bel_to_text,
    .from_text = bel_from_text,
    .move_to_text = bel_move_to_text,
    .text_to_move = bel_text_to_move,
    .render = bel_render,
    .layout = bel_layout,
    .end_reason = bel_end_reason,
    .eval = bel_eval,
    .tuning = &bel_tuning,
    .heuristic = bel_heuristic,
    .is_noisy = bel_is_noisy,
    .in_check = bel_in_check,
    .check = bel_check,
};
