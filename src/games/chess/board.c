/* board.c — attacks, legal moves, make, FEN and move notation for the 8x8
 * chess family (see board.h). Sliders use ray tables (tables.h, generated
 * offline): the first blocker on a ray is its lowest or highest set bit. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "../../core/util.h"
#include "board.h"
#include "tables.h"

typedef uint64_t U64;

#define BIT(s) (1ull << (s))

/* ---------------------------------------------------------------- keys */

/* Zobrist keys from a fixed mixer: no table, no state, same every run. */
static inline U64 zk_piece(int pc, int sq)
{
    return ply_mix64(0x6a09e667f3bcc908ull ^ (U64)(pc * 64 + sq));
}
static inline U64 zk_castle(int c)
{
    return c ? ply_mix64(0xbb67ae8584caa73bull ^ (U64)c) : 0;
}
static inline U64 zk_ep(int sq)
{
    return sq == CB_NO_EP ? 0 : ply_mix64(0x3c6ef372fe94f82bull ^ (U64)sq);
}
static const U64 ZK_SIDE = 0xa54ff53a5f1d36f1ull;

static U64 compute_key(const CBoard *b)
{
    U64 k = 0;
    for (int s = 0; s < 64; s++)
        if (b->sq[s])
            k ^= zk_piece(b->sq[s], s);
    if (b->side)
        k ^= ZK_SIDE;
    return k ^ zk_castle(b->castle) ^ zk_ep(b->ep);
}

/* ------------------------------------------------------------- attacks */

static inline U64 ray_pos(int d, int sq, U64 occ)
{
    U64 a = T_RAY[d][sq], bl = a & occ;
    return bl ? a ^ T_RAY[d][cb_lsb(bl)] : a;
}

static inline U64 ray_neg(int d, int sq, U64 occ)
{
    U64 a = T_RAY[d][sq], bl = a & occ;
    return bl ? a ^ T_RAY[d][63 - __builtin_clzll(bl)] : a;
}

static inline U64 rook_att(int sq, U64 occ)
{
    return ray_pos(0, sq, occ) | ray_pos(1, sq, occ) | ray_neg(4, sq, occ) |
           ray_neg(5, sq, occ);
}

static inline U64 bishop_att(int sq, U64 occ)
{
    return ray_pos(2, sq, occ) | ray_pos(3, sq, occ) | ray_neg(6, sq, occ) |
           ray_neg(7, sq, occ);
}

static inline U64 piece_att(int type, int c, int sq, U64 occ)
{
    switch (type) {
    case CB_PAWN: return T_PAWN_ATT[c][sq];
    case CB_KNIGHT: return T_KNIGHT[sq];
    case CB_BISHOP: return bishop_att(sq, occ);
    case CB_ROOK: return rook_att(sq, occ);
    case CB_QUEEN: return rook_att(sq, occ) | bishop_att(sq, occ);
    case CB_KING: return T_KING[sq];
    case CB_FERZ: return T_FERZ[sq];
    case CB_SILVER: return T_SILVER[c][sq];
    case CB_ALFIL: return T_ALFIL[sq];
    }
    return 0;
}

uint64_t cb_piece_attacks(int type, int c, int sq, uint64_t occ)
{
    return piece_att(type, c, sq, occ);
}

int cb_piece_list(const CBoard *b, int c, uint64_t occ, CbPieceAtt *out,
                  int max)
{
    int n = 0;
    for (int t = CB_KNIGHT; t < CB_NTYPES; t++) {
        if (t == CB_KING)
            continue;
        for (U64 p = b->pcs[t] & b->col[c]; p && n < max; p &= p - 1) {
            int s = cb_lsb(p);
            out[n++] = (CbPieceAtt){piece_att(t, c, s, occ), (uint8_t)s,
                                    (uint8_t)t};
        }
    }
    return n;
}

void cb_attacks_to(int c, int sq, uint64_t occ, uint64_t *out)
{
    U64 r = rook_att(sq, occ), bi = bishop_att(sq, occ);
    out[CB_NONE] = out[CB_PAWN] = out[CB_KING] = 0;
    out[CB_KNIGHT] = T_KNIGHT[sq];
    out[CB_BISHOP] = bi;
    out[CB_ROOK] = r;
    out[CB_QUEEN] = r | bi;
    out[CB_FERZ] = T_FERZ[sq];
    out[CB_SILVER] = T_SILVER[c][sq];
    out[CB_ALFIL] = T_ALFIL[sq];
}

static inline U64 attackers(const CBoard *b, int sq, U64 occ, int by)
{
    const U64 *p = b->pcs;
    /* a piece of colour `by` attacks sq from the squares a piece of the
     * other colour on sq would attack (pawns and khons are asymmetric) */
    U64 a = (T_PAWN_ATT[!by][sq] & p[CB_PAWN]) |
            (T_KNIGHT[sq] & p[CB_KNIGHT]) | (T_KING[sq] & p[CB_KING]) |
            (T_FERZ[sq] & p[CB_FERZ]) |
            (T_SILVER[!by][sq] & p[CB_SILVER]) |
            (T_ALFIL[sq] & p[CB_ALFIL]);
    U64 them = b->col[by];
    U64 rq = (p[CB_ROOK] | p[CB_QUEEN]) & them;
    U64 bq = (p[CB_BISHOP] | p[CB_QUEEN]) & them;
    if (rq)
        a |= rook_att(sq, occ) & rq;
    if (bq)
        a |= bishop_att(sq, occ) & bq;
    return a & them;
}

uint64_t cb_attackers(const CBoard *b, int sq, uint64_t occ, int by)
{
    return attackers(b, sq, occ, by);
}

int cb_in_check(const CBoard *b)
{
    U64 k = b->pcs[CB_KING] & b->col[b->side];
    if (!k)
        return 0;   /* dark chess: the king was captured */
    return attackers(b, cb_lsb(k), b->col[0] | b->col[1], !b->side) != 0;
}

/* ------------------------------------------------------------ movegen */

static inline int rank_of(int s) { return s >> 3; }
static inline int file_of(int s) { return s & 7; }

/* Whether a pawn of colour c arriving on `to` promotes. */
static inline int promotes(int variant, int c, int to)
{
    int r = c ? 7 - rank_of(to) : rank_of(to);   /* relative rank */
    return variant == CB_MAKRUK ? r >= 5 : r == 7;
}

#define EMIT(mv)                                                        \
    do {                                                                \
        out[n++] = (mv);                                                \
        if (n >= limit)                                                 \
            return n;                                                   \
    } while (0)

/* noisy: only captures and promotions (the moves cb_hook_is_noisy takes),
 * in the order the full generation writes them. */
static inline __attribute__((always_inline)) int
gen_impl(const CBoard *b, Move *out, int limit, int noisy, int pseudo)
{
    int n = 0, us = b->side, them = !us, v = b->variant;
    const U64 *p = b->pcs;
    U64 own = b->col[us], opp = b->col[them], occ = own | opp;
    if (pseudo && !(p[CB_KING] & own))
        return 0;   /* dark chess: the king was captured */
    int ksq = cb_lsb(p[CB_KING] & own);
    U64 checkers = pseudo ? 0 : attackers(b, ksq, occ, them);

    /* king steps: the destination must be safe with the king lifted */
    U64 occk = occ ^ BIT(ksq);
    for (U64 t = T_KING[ksq] & (noisy ? opp : ~own); t; t &= t - 1) {
        int to = cb_lsb(t);
        if (pseudo || !attackers(b, to, occk, them))
            EMIT(CB_MOVE(ksq, to, 0));
    }
    if (checkers & (checkers - 1))
        return n;   /* double check: only the king moves */
    U64 target = ~own;
    if (checkers) {
        /* block only a slider's check: an alfil jumps over c3 in b4-d2 */
        int cs = cb_lsb(checkers), ct = b->sq[cs] & 15;
        target = checkers;
        if (ct == CB_ROOK || ct == CB_BISHOP || ct == CB_QUEEN)
            target |= T_BETWEEN[ksq][cs];
    }
    U64 ptarget = target;   /* pawns: pushes may promote */
    if (noisy)
        target &= opp;

    /* pinned pieces keep to the line through the king */
    U64 pinned = 0;
    U64 rq = (p[CB_ROOK] | p[CB_QUEEN]) & opp;
    U64 bq = (p[CB_BISHOP] | p[CB_QUEEN]) & opp;
    U64 snipers = pseudo ? 0
                  : (rook_att(ksq, 0) & rq) | (bishop_att(ksq, 0) & bq);
    for (; snipers; snipers &= snipers - 1) {
        U64 bb = T_BETWEEN[ksq][cb_lsb(snipers)] & occ;
        if (bb && !(bb & (bb - 1)))
            pinned |= bb & own;
    }

    for (int t = CB_KNIGHT; t < CB_NTYPES; t++) {
        if (t == CB_KING)
            continue;
        for (U64 pc = p[t] & own; pc; pc &= pc - 1) {
            int from = cb_lsb(pc);
            U64 att = piece_att(t, us, from, occ) & target;
            if (pinned & BIT(from))
                att &= T_LINE[ksq][from];
            for (; att; att &= att - 1)
                EMIT(CB_MOVE(from, cb_lsb(att), 0));
        }
    }

    int fw = us ? -8 : 8;
    for (U64 pc = p[CB_PAWN] & own; pc; pc &= pc - 1) {
        int from = cb_lsb(pc);
        U64 mask = ptarget;
        if (pinned & BIT(from))
            mask &= T_LINE[ksq][from];
        U64 dest = T_PAWN_ATT[us][from] & opp & mask;
        int to = from + fw;
        if (!(occ & BIT(to)) && (!noisy || promotes(v, us, to))) {
            dest |= BIT(to) & mask;
            int rel = us ? 7 - rank_of(from) : rank_of(from);
            if (v == CB_CHESS && rel == 1 && !(occ & BIT(to + fw)))
                dest |= BIT(to + fw) & mask;
        }
        for (; dest; dest &= dest - 1) {
            int d = cb_lsb(dest);
            if (promotes(v, us, d)) {
                if (v == CB_CHESS) {
                    EMIT(CB_MOVE(from, d, CB_QUEEN));
                    EMIT(CB_MOVE(from, d, CB_ROOK));
                    EMIT(CB_MOVE(from, d, CB_BISHOP));
                    EMIT(CB_MOVE(from, d, CB_KNIGHT));
                } else {
                    EMIT(CB_MOVE(from, d, CB_FERZ));
                }
            } else {
                EMIT(CB_MOVE(from, d, 0));
            }
        }
        if (b->ep != CB_NO_EP && (T_PAWN_ATT[us][from] & BIT(b->ep))) {
            /* en passant: check the king with both pawns moved */
            int cap = b->ep - fw;
            U64 occ2 = (occ ^ BIT(from) ^ BIT(cap)) | BIT(b->ep);
            if (pseudo || !(attackers(b, ksq, occ2, them) & ~BIT(cap)))
                EMIT(CB_MOVE(from, b->ep, 0));
        }
    }

    if (v == CB_CHESS && b->castle && !checkers && !noisy) {
        int base = us ? 56 : 0;
        int kr = us ? CB_BK : CB_WK, qr = us ? CB_BQ : CB_WQ;
        if ((b->castle & kr) && !(occ & (BIT(base + 5) | BIT(base + 6))) &&
            (pseudo || (!attackers(b, base + 5, occ, them) &&
                        !attackers(b, base + 6, occ, them))))
            EMIT(CB_MOVE(base + 4, base + 6, 0));
        if ((b->castle & qr) &&
            !(occ & (BIT(base + 1) | BIT(base + 2) | BIT(base + 3))) &&
            (pseudo || (!attackers(b, base + 3, occ, them) &&
                        !attackers(b, base + 2, occ, them))))
            EMIT(CB_MOVE(base + 4, base + 2, 0));
    }
    return n;
}

/* pseudo (dark chess) is a constant inside each copy of the generator */
static int gen(const CBoard *b, Move *out, int limit, int noisy)
{
    return b->pseudo ? gen_impl(b, out, limit, noisy, 1)
                     : gen_impl(b, out, limit, noisy, 0);
}

int cb_gen(const CBoard *b, Move *out, int limit)
{
    return gen(b, out, limit, 0);
}

int cb_gen_noisy(const CBoard *b, Move *out, int limit)
{
    return gen(b, out, limit, 1);
}

/* ---------------------------------------------------------------- make */

static inline void put(CBoard *b, int s, int pc)
{
    b->sq[s] = (uint8_t)pc;
    b->pcs[pc & 15] |= BIT(s);
    b->col[pc >> 4] |= BIT(s);
    b->key ^= zk_piece(pc, s);
}

static inline void lift(CBoard *b, int s)
{
    int pc = b->sq[s];
    b->sq[s] = 0;
    b->pcs[pc & 15] &= ~BIT(s);
    b->col[pc >> 4] &= ~BIT(s);
    b->key ^= zk_piece(pc, s);
}

/* Castling rights kept when a move touches a square. */
static inline int castle_keep(int s)
{
    switch (s) {
    case 0: return ~CB_WQ & 15;
    case 4: return ~(CB_WK | CB_WQ) & 15;
    case 7: return ~CB_WK & 15;
    case 56: return ~CB_BQ & 15;
    case 60: return ~(CB_BK | CB_BQ) & 15;
    case 63: return ~CB_BK & 15;
    }
    return 15;
}

int cb_is_capture(const CBoard *b, Move m)
{
    int to = CB_TO(m);
    return b->sq[to] != 0 ||
           ((b->sq[CB_FROM(m)] & 15) == CB_PAWN && to == b->ep);
}

void cb_make(CBoard *b, Move m)
{
    int from = CB_FROM(m), to = CB_TO(m), promo = CB_PROMO(m);
    int us = b->side, them = !us, fw = us ? -8 : 8;
    int pc = b->sq[from], type = pc & 15;
    int capsq = to;
    if (type == CB_PAWN && to == b->ep)
        capsq = to - fw;
    int irreversible = b->sq[capsq] != 0 || type == CB_PAWN;
    if (irreversible) {
        b->nhist = 0;
    } else {
        b->hist[b->hpos] = b->key;
        b->hpos = (uint8_t)((b->hpos + 1) % CB_HIST);
        if (b->nhist < CB_HIST)
            b->nhist++;
    }
    if (b->sq[capsq])
        lift(b, capsq);
    lift(b, from);
    put(b, to, promo ? promo | us << 4 : pc);
    if (type == CB_KING && (to - from == 2 || from - to == 2)) {
        int rf = to > from ? from + 3 : from - 4;
        int rt = to > from ? from + 1 : from - 1;
        int rook = b->sq[rf];
        lift(b, rf);
        put(b, rt, rook);
    }
    b->key ^= zk_castle(b->castle);
    b->castle &= (uint8_t)(castle_keep(from) & castle_keep(to));
    b->key ^= zk_castle(b->castle) ^ zk_ep(b->ep);
    b->ep = CB_NO_EP;
    if (type == CB_PAWN && (to - from == 16 || from - to == 16)) {
        int mid = (from + to) / 2;
        if (T_PAWN_ATT[us][mid] & b->pcs[CB_PAWN] & b->col[them]) {
            b->ep = (uint8_t)mid;
            b->key ^= zk_ep(mid);
        }
    }
    if (irreversible)
        b->halfmove = 0;
    else if (b->halfmove < 60000)
        b->halfmove++;
    if (us == 1 && b->fullmove < 60000)
        b->fullmove++;
    b->side = (uint8_t)them;
    b->key ^= ZK_SIDE;
}

void cb_make_null(CBoard *b)
{
    /* the search's pass: no repetition may reach across it */
    b->nhist = 0;
    b->key ^= zk_ep(b->ep) ^ ZK_SIDE;
    b->ep = CB_NO_EP;
    b->side = (uint8_t)!b->side;
}

int cb_repetitions(const CBoard *b, int enough)
{
    int c = 1, lim = b->nhist < b->halfmove ? b->nhist : b->halfmove;
    for (int k = 2; k <= lim && c < enough; k += 2)
        if (b->hist[(b->hpos + CB_HIST - k) % CB_HIST] == b->key)
            c++;
    return c;
}

/* ---------------------------------------------------------- start, FEN */

static const char LETTERS[3][CB_NTYPES] = {
    {0, 'P', 'N', 'B', 'R', 'Q', 'K', 0, 0, 0},
    {0, 'P', 'N', 0, 'R', 0, 'K', 'M', 'S', 0},
    {0, 'P', 'N', 0, 'R', 0, 'K', 'Q', 0, 'B'},
};

static const char *const START[3] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
};

char cb_piece_letter(int variant, int type)
{
    return LETTERS[variant][type];
}

void cb_init(CBoard *b, int variant)
{
    int rep3;
    memset(b, 0, sizeof *b);
    b->variant = (uint8_t)variant;
    cb_from_fen(b, START[variant], &rep3, NULL);
}

static int type_of_letter(int variant, int ch)
{
    int up = toupper(ch);
    for (int t = 1; t < CB_NTYPES; t++)
        if (LETTERS[variant][t] && LETTERS[variant][t] == up)
            return t;
    return 0;
}

int cb_to_fen(const CBoard *b, char *buf, size_t n)
{
    char s[128];
    int len = 0;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            int pc = b->sq[r * 8 + f];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                s[len++] = (char)('0' + empty);
            empty = 0;
            char ch = LETTERS[b->variant][pc & 15];
            s[len++] = (char)((pc >> 4) ? tolower(ch) : ch);
        }
        if (empty)
            s[len++] = (char)('0' + empty);
        if (r)
            s[len++] = '/';
    }
    s[len++] = ' ';
    s[len++] = b->side ? 'b' : 'w';
    s[len++] = ' ';
    if (!b->castle)
        s[len++] = '-';
    if (b->castle & CB_WK) s[len++] = 'K';
    if (b->castle & CB_WQ) s[len++] = 'Q';
    if (b->castle & CB_BK) s[len++] = 'k';
    if (b->castle & CB_BQ) s[len++] = 'q';
    s[len++] = ' ';
    if (b->ep == CB_NO_EP) {
        s[len++] = '-';
    } else {
        s[len++] = (char)('a' + file_of(b->ep));
        s[len++] = (char)('1' + rank_of(b->ep));
    }
    s[len] = 0;
    int w = snprintf(buf, n, "%s %u %u%s", s, b->halfmove, b->fullmove,
                     b->over == CB_DRAW && b->reason == CB_R_REPETITION
                         ? " 3fold" : "");
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int parse_num(const char *t, int max, int *out)
{
    long v = 0;
    if (!*t)
        return -1;
    for (; *t; t++) {
        if (*t < '0' || *t > '9')
            return -1;
        v = v * 10 + (*t - '0');
        if (v > max)
            return -1;
    }
    *out = (int)v;
    return 0;
}

int cb_from_fen(CBoard *out, const char *s, int *rep3, PlyError *err)
{
    CBoard t;
    int variant = out->variant;
    memset(&t, 0, sizeof t);
    t.variant = (uint8_t)variant;
    t.pseudo = out->pseudo;
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return ply_fail(err, "FEN too long");
    strcpy(buf, s);
    char *tok[8];
    int nt = 0;
    char *save = NULL;
    for (char *x = strtok_r(buf, " \t", &save); x;
         x = strtok_r(NULL, " \t", &save)) {
        if (nt == 7)
            return ply_fail(err, "FEN has too many fields");
        tok[nt++] = x;
    }
    if (nt == 1 && !strcmp(tok[0], "startpos")) {
        return cb_from_fen(out, START[variant], rep3, err);
    }
    if (nt < 4)
        return ply_fail(err, "FEN needs at least 4 fields (placement, side, "
                        "castling, en passant), got %d", nt);
    /* placement */
    int r = 7, f = 0;
    for (const char *c = tok[0]; *c; c++) {
        if (*c == '/') {
            if (f != 8)
                return ply_fail(err, "FEN rank %d has %d squares, not 8",
                                r + 1, f);
            if (--r < 0)
                return ply_fail(err, "FEN has more than 8 ranks");
            f = 0;
        } else if (*c >= '1' && *c <= '8') {
            f += *c - '0';
            if (f > 8)
                return ply_fail(err, "FEN rank %d has more than 8 squares",
                                r + 1);
        } else {
            int type = type_of_letter(variant, *c);
            if (!type)
                return ply_fail(err, "FEN: '%c' is not a piece here", *c);
            if (f >= 8)
                return ply_fail(err, "FEN rank %d has more than 8 squares",
                                r + 1);
            int c2 = islower((unsigned char)*c) ? 1 : 0;
            int pc = type | c2 << 4;
            t.sq[r * 8 + f] = (uint8_t)pc;
            t.pcs[type] |= BIT(r * 8 + f);
            t.col[c2] |= BIT(r * 8 + f);
            f++;
        }
    }
    if (r != 0 || f != 8)
        return ply_fail(err, "FEN placement must have 8 ranks of 8 squares");
    for (int c = 0; c < 2; c++) {
        int nk = cb_popcount(t.pcs[CB_KING] & t.col[c]);
        if (nk != 1 && !(t.pseudo && nk == 0))
            return ply_fail(err, "FEN: %s needs exactly one king",
                            c ? "black" : "white");
        if (cb_popcount(t.col[c]) > 16)
            return ply_fail(err, "FEN: %s has more than 16 pieces",
                            c ? "black" : "white");
        for (U64 pw = t.pcs[CB_PAWN] & t.col[c]; pw; pw &= pw - 1) {
            int sq = cb_lsb(pw);
            int rel = c ? 7 - rank_of(sq) : rank_of(sq);
            if (promotes(variant, c, sq) ||
                (variant == CB_CHESS && rel == 0))
                return ply_fail(err, "FEN: a pawn on %c%d cannot be there",
                                'a' + file_of(sq), rank_of(sq) + 1);
        }
    }
    /* side */
    if (!strcmp(tok[1], "w"))
        t.side = 0;
    else if (!strcmp(tok[1], "b"))
        t.side = 1;
    else
        return ply_fail(err, "FEN side to move is w or b, not '%s'", tok[1]);
    /* castling */
    if (strcmp(tok[2], "-")) {
        if (variant != CB_CHESS)
            return ply_fail(err, "FEN: no castling in this game ('%s')",
                            tok[2]);
        for (const char *c = tok[2]; *c; c++) {
            int bit = *c == 'K' ? CB_WK : *c == 'Q' ? CB_WQ
                    : *c == 'k' ? CB_BK : *c == 'q' ? CB_BQ : 0;
            if (!bit || (t.castle & bit))
                return ply_fail(err, "FEN castling field '%s' is not a "
                                "subset of KQkq", tok[2]);
            t.castle |= (uint8_t)bit;
        }
        /* rights need the king and rook at home */
        int wk = t.sq[4] == CB_KING, bk = t.sq[60] == (CB_KING | 16);
        if (!wk || t.sq[7] != CB_ROOK) t.castle &= ~CB_WK;
        if (!wk || t.sq[0] != CB_ROOK) t.castle &= ~CB_WQ;
        if (!bk || t.sq[63] != (CB_ROOK | 16)) t.castle &= ~CB_BK;
        if (!bk || t.sq[56] != (CB_ROOK | 16)) t.castle &= ~CB_BQ;
    }
    /* en passant: kept only when a pawn could take (as after a move) */
    t.ep = CB_NO_EP;
    if (strcmp(tok[3], "-")) {
        const char *e = tok[3];
        if (strlen(e) != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' ||
            e[1] > '8')
            return ply_fail(err, "FEN en passant square '%s' is not a "
                            "square or -", e);
        int sq = (e[1] - '1') * 8 + (e[0] - 'a');
        int us = t.side, them = !us, fw = us ? -8 : 8;
        int rel = us ? 7 - rank_of(sq) : rank_of(sq);
        if (variant == CB_CHESS && rel == 5 && !t.sq[sq] && !t.sq[sq + fw] &&
            t.sq[sq - fw] == (CB_PAWN | them << 4) &&
            (T_PAWN_ATT[them][sq] & t.pcs[CB_PAWN] & t.col[us]))
            t.ep = (uint8_t)sq;
    }
    int half = 0, full = 1;
    if (nt >= 5 && parse_num(tok[4], 1000, &half))
        return ply_fail(err, "FEN halfmove clock '%s' is not a number "
                        "0..1000", tok[4]);
    if (nt >= 6 && parse_num(tok[5], 60000, &full))
        return ply_fail(err, "FEN move number '%s' is not a number "
                        "0..60000", tok[5]);
    int r3 = 0;
    if (nt == 7) {
        if (strcmp(tok[6], "3fold"))
            return ply_fail(err, "FEN: unexpected '%s' after the move "
                            "number", tok[6]);
        r3 = 1;
    }
    t.halfmove = (uint16_t)half;
    t.fullmove = (uint16_t)full;
    if (t.pseudo) {
        /* no check rule; only the side to move may have lost its king */
        if (!(t.pcs[CB_KING] & t.col[!t.side]))
            return ply_fail(err, "FEN: the side not to move has no king");
    } else {
        int oksq = cb_lsb(t.pcs[CB_KING] & t.col[!t.side]);
        if (attackers(&t, oksq, t.col[0] | t.col[1], t.side))
            return ply_fail(err, "FEN: the side not to move is in check");
    }
    t.key = compute_key(&t);
    *out = t;
    *rep3 = r3;
    return 0;
}

/* ------------------------------------------------------------ notation */

static int promo_letter(int variant, int type)
{
    return tolower(LETTERS[variant][type]);
}

int cb_move_to_text(const CBoard *b, Move m, char *buf, size_t n)
{
    int f = CB_FROM(m), t = CB_TO(m), p = CB_PROMO(m);
    char s[8];
    s[0] = (char)('a' + file_of(f));
    s[1] = (char)('1' + rank_of(f));
    s[2] = (char)('a' + file_of(t));
    s[3] = (char)('1' + rank_of(t));
    s[4] = p ? (char)promo_letter(b->variant, p) : 0;
    s[5] = 0;
    int w = snprintf(buf, n, "%s", s);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int san_core(const CBoard *b, Move m, const Move *all, int nall,
                    char *s)
{
    int f = CB_FROM(m), t = CB_TO(m), p = CB_PROMO(m);
    int type = b->sq[f] & 15, len = 0;
    if (type == CB_KING && (t - f == 2 || f - t == 2))
        return sprintf(s, t > f ? "O-O" : "O-O-O");
    int cap = cb_is_capture(b, m);
    if (type == CB_PAWN) {
        if (cap) {
            s[len++] = (char)('a' + file_of(f));
            s[len++] = 'x';
        }
    } else {
        s[len++] = LETTERS[b->variant][type];
        int same = 0, same_file = 0, same_rank = 0;
        for (int i = 0; i < nall; i++) {
            int f2 = CB_FROM(all[i]);
            if (f2 != f && CB_TO(all[i]) == t && (b->sq[f2] & 15) == type) {
                same++;
                same_file |= file_of(f2) == file_of(f);
                same_rank |= rank_of(f2) == rank_of(f);
            }
        }
        if (same) {
            if (!same_file)
                s[len++] = (char)('a' + file_of(f));
            else if (!same_rank)
                s[len++] = (char)('1' + rank_of(f));
            else {
                s[len++] = (char)('a' + file_of(f));
                s[len++] = (char)('1' + rank_of(f));
            }
        }
        if (cap)
            s[len++] = 'x';
    }
    s[len++] = (char)('a' + file_of(t));
    s[len++] = (char)('1' + rank_of(t));
    if (p) {
        s[len++] = '=';
        s[len++] = LETTERS[b->variant][p];
    }
    s[len] = 0;
    return len;
}

int cb_move_to_san(const CBoard *b, Move m, char *buf, size_t n)
{
    Move all[CB_MAX_MOVES];
    int nall = cb_gen(b, all, CB_MAX_MOVES);
    char s[16];
    int len = san_core(b, m, all, nall, s);
    CBoard c = *b;
    cb_make(&c, m);
    if (cb_in_check(&c)) {
        Move one[1];
        s[len++] = cb_gen(&c, one, 1) ? '+' : '#';
        s[len] = 0;
    }
    int w = snprintf(buf, n, "%s", s);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* SAN comparison ignores capture marks, '=', check marks and annotations,
 * and reads 0-0 as O-O. */
static void san_norm(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++) {
        char c = *in;
        if (c == 'x' || c == '=' || c == '+' || c == '#' || c == '!' ||
            c == '?' || c == ':')
            continue;
        if (c == '0')
            c = 'O';
        out[k++] = c;
    }
    out[k] = 0;
    /* a lower-case promotion letter after the rank: e8q -> e8Q */
    if (k >= 3 && islower((unsigned char)out[k - 1]) &&
        out[k - 2] >= '1' && out[k - 2] <= '8' && out[k - 1] != 'x')
        out[k - 1] = (char)toupper((unsigned char)out[k - 1]);
}

int cb_text_to_move(const CBoard *b, const char *s, Move *m, PlyError *err)
{
    Move all[CB_MAX_MOVES];
    size_t len = strlen(s);
    if (len == 0)
        return ply_fail(err, "empty move");
    if (len > 12)
        return ply_fail(err, "'%.16s...' is not a move", s);
    int nall = cb_gen(b, all, CB_MAX_MOVES);
    /* long algebraic: e2e4, e7e8q */
    if ((len == 4 || len == 5) && s[0] >= 'a' && s[0] <= 'h' &&
        s[1] >= '1' && s[1] <= '8' && s[2] >= 'a' && s[2] <= 'h' &&
        s[3] >= '1' && s[3] <= '8') {
        int f = (s[1] - '1') * 8 + (s[0] - 'a');
        int t = (s[3] - '1') * 8 + (s[2] - 'a');
        int want = -1;
        if (len == 5) {
            want = type_of_letter(b->variant, s[4]);
            if (!want || want == CB_PAWN || want == CB_KING)
                return ply_fail(err, "'%s': '%c' is not a promotion piece",
                                s, s[4]);
        }
        int found = -1, count = 0;
        for (int i = 0; i < nall; i++) {
            if (CB_FROM(all[i]) != f || CB_TO(all[i]) != t)
                continue;
            if (want >= 0 && CB_PROMO(all[i]) != want)
                continue;
            found = i;
            count++;
        }
        if (count == 1) {
            *m = all[found];
            return 0;
        }
        if (count > 1)
            return ply_fail(err, "'%s' needs a promotion piece (e.g. %sq)",
                            s, s);
        return ply_fail(err, "'%s' is not a legal move here", s);
    }
    char want[16], cand[16], raw[16];
    san_norm(s, want, sizeof want);
    for (int i = 0; i < nall; i++) {
        san_core(b, all[i], all, nall, raw);
        san_norm(raw, cand, sizeof cand);
        if (!strcmp(cand, want)) {
            *m = all[i];
            return 0;
        }
    }
    /* SAN with more disambiguation than needed, e.g. Ngf3 or Ng1f3 */
    size_t wl = strlen(want);
    if (wl >= 4 && isupper((unsigned char)want[0])) {
        int type = type_of_letter(b->variant, want[0]);
        const char *d = want + wl - 2;
        if (type && d[0] >= 'a' && d[0] <= 'h' && d[1] >= '1' &&
            d[1] <= '8') {
            int t = (d[1] - '1') * 8 + (d[0] - 'a');
            int found = -1, count = 0;
            for (int i = 0; i < nall; i++) {
                int f = CB_FROM(all[i]);
                if (CB_TO(all[i]) != t || (b->sq[f] & 15) != type)
                    continue;
                int ok = 1;
                for (const char *c = want + 1; c < d; c++) {
                    if (*c >= 'a' && *c <= 'h')
                        ok &= file_of(f) == *c - 'a';
                    else if (*c >= '1' && *c <= '8')
                        ok &= rank_of(f) == *c - '1';
                    else
                        ok = 0;
                }
                if (ok) {
                    found = i;
                    count++;
                }
            }
            if (count == 1) {
                *m = all[found];
                return 0;
            }
        }
    }
    return ply_fail(err, "'%s' is not a legal move here (write e2e4, "
                    "e7e8q or SAN like Nf3)", s);
}

int cb_render(const CBoard *b, char *buf, size_t n)
{
    size_t len = 0;
    int w;
    for (int r = 7; r >= 0; r--) {
        char row[40];
        int k = 0;
        row[k++] = (char)('1' + r);
        row[k++] = ' ';
        for (int f = 0; f < 8; f++) {
            int pc = b->sq[r * 8 + f];
            char ch = '.';
            if (pc) {
                ch = LETTERS[b->variant][pc & 15];
                if (pc >> 4)
                    ch = (char)tolower(ch);
            }
            row[k++] = ' ';
            row[k++] = ch;
        }
        row[k] = 0;
        PLY_OUT("%s\n", row);
    }
    w = snprintf(buf + len, n - len, "   a b c d e f g h\n%s to move%s\n",
                 b->side ? "Black" : "White",
                 !b->over && cb_in_check(b) ? " (in check)" : "");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

int cb_check(const CBoard *b)
{
    U64 all = 0;
    if (b->variant > CB_SHATRANJ || b->side > 1)
        return -1;
    for (int s = 0; s < 64; s++) {
        int pc = b->sq[s];
        if (!pc)
            continue;
        if ((pc & 15) == 0 || (pc & 15) >= CB_NTYPES || (pc >> 4) > 1)
            return -1;
        if (!(b->pcs[pc & 15] & BIT(s)) || !(b->col[pc >> 4] & BIT(s)))
            return -1;
        all |= BIT(s);
    }
    if ((b->col[0] | b->col[1]) != all || (b->col[0] & b->col[1]))
        return -1;
    U64 sum = 0;
    for (int t = 1; t < CB_NTYPES; t++) {
        if (sum & b->pcs[t])
            return -1;
        sum |= b->pcs[t];
    }
    if (sum != all)
        return -1;
    for (int c = 0; c < 2; c++) {
        int nk = cb_popcount(b->pcs[CB_KING] & b->col[c]);
        if (nk != 1 && !(b->pseudo && nk == 0 && c == b->side))
            return -1;
    }
    if (b->key != compute_key(b))
        return -1;
    return 0;
}

void cb_rebuild(CBoard *b)
{
    memset(b->pcs, 0, sizeof b->pcs);
    memset(b->col, 0, sizeof b->col);
    for (int s = 0; s < 64; s++) {
        int pc = b->sq[s];
        if (pc) {
            b->pcs[pc & 15] |= BIT(s);
            b->col[pc >> 4] |= BIT(s);
        }
    }
    b->key = compute_key(b);
}

/* --------------------------------------------------------------- hooks */

int cb_hook_to_move(const void *st)
{
    const CBoard *b = st;
    return b->over ? PLAYER_TERMINAL : b->side;
}

int cb_hook_gen_moves(const void *st, Move *out)
{
    const CBoard *b = st;
    return b->over ? 0 : cb_gen(b, out, CB_MAX_MOVES);
}

void cb_hook_returns(const void *st, double *out)
{
    const CBoard *b = st;
    out[0] = b->over == CB_WIN_WHITE ? 1 : b->over == CB_WIN_BLACK ? -1 : 0;
    out[1] = -out[0];
}

uint64_t cb_hook_hash(const void *st)
{
    const CBoard *b = st;
    return b->key ^ (b->over ? ply_mix64(b->over) : 0);
}

int cb_hook_to_text(const void *st, char *buf, size_t n)
{
    return cb_to_fen(st, buf, n);
}

int cb_hook_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    return cb_move_to_text(st, m, buf, n);
}

int cb_hook_text_to_move(const void *st, const char *s, Move *m,
                         PlyError *err)
{
    const CBoard *b = st;
    if (b->over)
        return ply_fail(err, "the game is over");
    return cb_text_to_move(b, s, m, err);
}

int cb_hook_render(const void *st, char *buf, size_t n)
{
    return cb_render(st, buf, n);
}

int cb_hook_check(const void *st)
{
    return cb_check(st);
}

int cb_hook_in_check(const void *st)
{
    const CBoard *b = st;
    return !b->over && cb_in_check(b);
}

int cb_hook_gen_noisy(const void *st, Move *out)
{
    const CBoard *b = st;
    return b->over ? 0 : cb_gen_noisy(b, out, CB_MAX_MOVES);
}

/* Zugzwang needs a side with only king and pawns (in makruk and shatranj,
 * where the pieces are short-range, also a lone minor piece). */
int cb_hook_null_move_ok(const void *st)
{
    const CBoard *b = st;
    U64 own = b->col[b->side];
    U64 pieces = own & ~(b->pcs[CB_PAWN] | b->pcs[CB_KING]);
    if (b->variant == CB_CHESS)
        return pieces != 0;
    return cb_popcount(pieces) >= 2;
}

void cb_hook_make_null(void *st)
{
    cb_make_null(st);
}

int cb_hook_repeated(const void *st)
{
    return cb_repetitions(st, 2) >= 2;   /* stops at the first match */
}

/* ---------------------------------------------------------- layout */

const char *cb_hook_end_reason(const void *st)
{
    static const char *const why[] = {
        NULL, "checkmate", "stalemate", "the no-progress move limit",
        "threefold repetition", "insufficient material", "bare king",
        "the counting rule"};
    const CBoard *b = st;
    return b->over && b->reason < sizeof why / sizeof *why
           ? why[b->reason] : NULL;
}

/* The 8x8 board for drawing: a1 bottom left, pieces by their FEN letter
 * (uppercase for both sides; owner tells the colour). */
int cb_hook_layout(const void *st, Layout *l)
{
    const CBoard *b = st;
    l->width = 8;
    l->height = 8;
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        char name[3] = {(char)('a' + f), (char)('1' + r), 0};
        LayoutCell *c = layout_cell(l, (float)f + 0.5f, 7.5f - (float)r,
                                    CELL_SQUARE, (f + r) % 2 ? SHADE_LIGHT
                                    : SHADE_DARK, name);
        int p = b->sq[sq];
        if (c && p) {
            c->glyph[0] = LETTERS[b->variant][p & 15];
            c->owner = (int8_t)(p >> 4);
        }
    }
    return 0;
}
