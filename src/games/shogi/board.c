/* board.c — shogi and minishogi rules: hashing, attacks, legal
 * generation, make, and the game's end.
 *
 * Legal generation: pins and checkers are computed once per position;
 * non-king moves of pinned pieces stay on their pin line, in check only
 * captures of the checker and interpositions (moves and drops) are made,
 * king moves are tested against attacks with the king lifted off the
 * board. A pawn drop that checks is tested for mate (uchifuzume).
 *
 * The state also holds the game's end: after each move make() decides
 * whether the side to move is mated, wins by the impasse declaration,
 * the game is drawn by sennichite or lost by perpetual check (from a
 * bounded ring of position hashes), or the ply limit is reached. */
#include <stdlib.h>
#include <string.h>

#include "shogi.h"

uint64_t sg_full_hash(const Shogi *s)
{
    uint64_t h = s->side == WHITE ? KEY_WHITE : 0;
    const Variant *v = var_of(s);
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++) {
            int q = sq_of(r, c);
            if (s->board[q])
                h ^= key_piece(s->board[q], q);
        }
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t <= GOLD; t++)
            if (s->hand[c][t])
                h ^= key_hand(c, t, s->hand[c][t]);
    return h;
}

/* ---- attacks ---- */

/* Whether square q is sg_attacked by colour by on board b. */
int sg_attacked(const uint8_t *b, int q, int by)
{
    for (int i = 0; i < 8; i++) {
        int p = b[q + dv[i]];
        if (p && p != OFF && COLOR(p) == by &&
            (step_mask[p] & (1u << (7 - i))))
            return 1;
    }
    if (by == BLACK) {
        if (b[q + 21] == KNIGHT || b[q + 19] == KNIGHT)
            return 1;
    } else if (b[q - 21] == (WHITE_BIT | KNIGHT) ||
               b[q - 19] == (WHITE_BIT | KNIGHT)) {
        return 1;
    }
    for (int i = 0; i < 8; i++) {
        int t = q + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        int p = b[t];
        if (p != OFF && COLOR(p) == by && (slide_mask[p] & (1u << (7 - i))))
            return 1;
    }
    return 0;
}

/* Squares of the pieces of colour by attacking q (at most 2 recorded);
 * returns their number (capped at 2, enough to tell double check). */
static int sg_checkers(const uint8_t *b, int q, int by, int *where)
{
    int n = 0;
    for (int i = 0; i < 8 && n < 2; i++) {
        int p = b[q + dv[i]];
        if (p && p != OFF && COLOR(p) == by &&
            (step_mask[p] & (1u << (7 - i))))
            where[n++] = q + dv[i];
    }
    int kn[2] = {by == BLACK ? q + 21 : q - 21, by == BLACK ? q + 19 : q - 19};
    for (int i = 0; i < 2 && n < 2; i++)
        if (b[kn[i]] == ((by ? WHITE_BIT : 0) | KNIGHT))
            where[n++] = kn[i];
    for (int i = 0; i < 8 && n < 2; i++) {
        int t = q + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        int p = b[t];
        /* an adjacent slider that also steps there was counted above */
        if (p != OFF && COLOR(p) == by &&
            (slide_mask[p] & (1u << (7 - i))) &&
            !(t == q + dv[i] && (step_mask[p] & (1u << (7 - i)))))
            where[n++] = t;
    }
    return n;
}



/* noisy: only captures and promotions (is_noisy's moves); cap says
 * whether the move captures. */
static inline int add_board_move(const Variant *v, int c, int t, int from,
                                 int to, Move *out, int n, int noisy, int cap)
{
    if (v->zone == 0) {
        /* micro shogi: no zone; a capture flips the piece (not the king) */
        if (cap || !noisy)
            out[n++] = mk_move(from, to, cap && t != KING);
        return n;
    }
    if (promotable(t) &&
        (in_zone(v, c, row_of(from)) || in_zone(v, c, row_of(to))))
        out[n++] = mk_move(from, to, 1);
    if ((cap || !noisy) && !dead_square(v, c, t, row_of(to)))
        out[n++] = mk_move(from, to, 0);
    return n;
}

/* Whether dropping a pawn of the side to move on q (checking the enemy
 * king) leaves the enemy without a legal move. */
int sg_pawn_drop_mates(const Shogi *s, int q)
{
    Shogi t;
    memcpy(&t, s, offsetof(Shogi, hist));
    t.board[q] = (uint8_t)((s->side ? WHITE_BIT : 0) | PAWN);
    t.hand[s->side][PAWN]--;
    t.side ^= 1;
    t.in_check = 1;
    Move buf[MAX_MOVES];
    return sg_gen_legal(&t, buf, 0) == 0;
}

/* The legal moves; with noisy set only the captures and promotions
 * (no drops), in the same order. */
int sg_gen_legal(const Shogi *s, Move *out, int noisy)
{
    const Variant *v = var_of(s);
    const uint8_t *b = s->board;
    int us = s->side, them = us ^ 1, ub = us ? WHITE_BIT : 0;
    int k = s->ksq[us];
    int n = 0;
    int chk[2], nchk = s->in_check ? sg_checkers(b, k, them, chk) : 0;

    /* king moves, tested with the king lifted off the board */
    {
        uint8_t nb[CELLS];
        memcpy(nb, b, CELLS);
        nb[k] = EMPTY;
        for (int i = 0; i < 8; i++) {
            int t = k + dv[i], p = b[t];
            if (p == OFF || (p && COLOR(p) == us) || (noisy && !p))
                continue;
            if (!sg_attacked(nb, t, them))
                out[n++] = mk_move(k, t, 0);
        }
    }
    if (nchk >= 2)
        return n;

    /* pins: pin[q] = 1 + direction index from the king */
    uint8_t pin[CELLS];
    memset(pin, 0, sizeof pin);
    for (int i = 0; i < 8; i++) {
        int t = k + dv[i];
        while (b[t] == EMPTY)
            t += dv[i];
        if (b[t] == OFF || COLOR(b[t]) != us)
            continue;
        int u = t + dv[i];
        while (b[u] == EMPTY)
            u += dv[i];
        if (b[u] != OFF && COLOR(b[u]) == them &&
            (slide_mask[b[u]] & (1u << (7 - i))))
            pin[t] = (uint8_t)(i + 1);
    }
    /* in check: the squares that answer it (capture or interposition) */
    uint8_t target[CELLS];
    if (nchk) {
        memset(target, 0, sizeof target);
        target[chk[0]] = 1;
        int dr = row_of(chk[0]) - row_of(k), dc = col_of(chk[0]) - col_of(k);
        if ((dr == 0 || dc == 0 || dr == dc || dr == -dc) &&
            (abs(dr) > 1 || abs(dc) > 1)) {
            int d = (dr > 0) - (dr < 0), e = (dc > 0) - (dc < 0);
            int step = d * STRIDE + e;
            for (int t = k + step; t != chk[0]; t += step)
                target[t] = 2;
        }
    }

    for (int r = 0; r < v->h; r++) {
        for (int c = 0; c < v->w; c++) {
            int f = sq_of(r, c), p = b[f];
            if (!p || COLOR(p) != us)
                continue;
            int t = TYPE(p);
            if (t == KING)
                continue;
            int pd = pin[f] ? pin[f] - 1 : -1;
            unsigned sm = step_mask[p];
            while (sm) {
                int i = __builtin_ctz(sm);
                sm &= sm - 1;
                int to = f + dv[i], q = b[to];
                if (q == OFF || (q && COLOR(q) == us))
                    continue;
                if (pd >= 0 && i != pd && i != 7 - pd)
                    continue;
                if (nchk && !target[to])
                    continue;
                n = add_board_move(v, us, t, f, to, out, n, noisy,
                                   q != EMPTY);
            }
            if (t == KNIGHT) {
                if (pd >= 0)
                    continue;
                int j1 = us == BLACK ? -21 : 21, j2 = us == BLACK ? -19 : 19;
                int js[2] = {j1, j2};
                for (int j = 0; j < 2; j++) {
                    int to = f + js[j], q = b[to];
                    if (q == OFF || (q && COLOR(q) == us))
                        continue;
                    if (nchk && !target[to])
                        continue;
                    n = add_board_move(v, us, t, f, to, out, n, noisy,
                                       q != EMPTY);
                }
                continue;
            }
            unsigned lm = slide_mask[p];
            while (lm) {
                int i = __builtin_ctz(lm);
                lm &= lm - 1;
                if (pd >= 0 && i != pd && i != 7 - pd)
                    continue;
                for (int to = f + dv[i];; to += dv[i]) {
                    int q = b[to];
                    if (q == OFF || (q && COLOR(q) == us))
                        break;
                    if (!nchk || target[to])
                        n = add_board_move(v, us, t, f, to, out, n, noisy,
                                           q != EMPTY);
                    if (q)
                        break;
                }
            }
        }
    }

    /* drops */
    if (noisy)
        return n;
    const uint8_t *hand = s->hand[us];
    if (v->zone == 0) {
        /* micro shogi: on any empty square, either face up */
        for (int i = 0; i < 4; i++) {
            int slot = micro_slots[i];
            if (!hand[slot])
                continue;
            int faces[2] = {slot, micro_flip[slot]};
            for (int r = 0; r < v->h; r++)
                for (int c = 0; c < v->w; c++) {
                    int to = sq_of(r, c);
                    if (b[to] || (nchk && target[to] != 2))
                        continue;
                    out[n++] = mk_drop(faces[0], to);
                    out[n++] = mk_drop(faces[1], to);
                }
        }
        return n;
    }
    int any = 0;
    for (int t = PAWN; t <= GOLD; t++)
        any |= hand[t];
    if (!any)
        return n;
    unsigned pawn_files = 0;
    if (hand[PAWN])
        for (int r = 0; r < v->h; r++)
            for (int c = 0; c < v->w; c++)
                if (b[sq_of(r, c)] == (ub | PAWN))
                    pawn_files |= 1u << c;
    int ek = s->ksq[them];
    int pawn_check_sq = us == BLACK ? ek + STRIDE : ek - STRIDE;
    for (int r = 0; r < v->h; r++) {
        int ahead = rows_ahead(v, us, r);
        for (int c = 0; c < v->w; c++) {
            int to = sq_of(r, c);
            if (b[to] || (nchk && target[to] != 2))
                continue;
            for (int t = PAWN; t <= GOLD; t++) {
                if (!hand[t])
                    continue;
                if (ahead == 0 && (t == PAWN || t == LANCE || t == KNIGHT))
                    continue;
                if (ahead == 1 && t == KNIGHT)
                    continue;
                if (t == PAWN && ((pawn_files >> c) & 1))
                    continue;
                if (t == PAWN && to == pawn_check_sq &&
                    sg_pawn_drop_mates(s, to))
                    continue;
                out[n++] = mk_drop(t, to);
            }
        }
    }
    return n;
}

/* Whether the side to move has a legal move; cheap tests first. */
static int has_legal_move(const Shogi *s)
{
    int us = s->side;
    if (!s->in_check) {
        const uint8_t *h = s->hand[us];
        /* silver, gold, bishop, rook drop anywhere, and a board always has
         * empty squares (40 pieces on 81, 12 on 25) */
        if (h[SILVER] | h[GOLD] | h[BISHOP] | h[ROOK])
            return 1;
        /* micro shogi: every piece may be dropped anywhere */
        if (is_micro(s) && (h[LANCE] | h[PAWN]))
            return 1;
        /* a piece off every line through the king cannot be pinned, so
         * any of its moves is legal when not in check */
        const Variant *v = var_of(s);
        const uint8_t *b = s->board;
        int kr = row_of(s->ksq[us]), kc = col_of(s->ksq[us]);
        for (int r = 0; r < v->h; r++) {
            if (r == kr)
                continue;
            for (int c = 0; c < v->w; c++) {
                int f = sq_of(r, c), p = b[f];
                if (!p || COLOR(p) != us || c == kc || r - c == kr - kc ||
                    r + c == kr + kc)
                    continue;
                unsigned dirs = step_mask[p] | slide_mask[p];
                while (dirs) {
                    int i = __builtin_ctz(dirs), q = b[f + dv[i]];
                    dirs &= dirs - 1;
                    if (q != OFF && (!q || COLOR(q) != us))
                        return 1;
                }
                if (TYPE(p) == KNIGHT)
                    for (int j = 19; j <= 21; j += 2) {
                        int q = b[us == BLACK ? f - j : f + j];
                        if (q != OFF && (!q || COLOR(q) != us))
                            return 1;
                    }
            }
        }
    }
    Move buf[MAX_MOVES];
    return sg_gen_legal(s, buf, 0) > 0;
}

/* The 27-point declaration rule (shogi only), for the side to move. */
static int impasse_win(const Shogi *s)
{
    const Variant *v = var_of(s);
    if (s->variant != 0 || s->in_check)
        return 0;
    int us = s->side;
    if (!in_zone(v, us, row_of(s->ksq[us])))
        return 0;
    int pieces = 0, points = 0;
    for (int r = 0; r < v->h; r++) {
        if (!in_zone(v, us, r))
            continue;
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (p && COLOR(p) == us && TYPE(p) != KING) {
                pieces++;
                points += impasse_points[TYPE(p)];
            }
        }
    }
    if (pieces < 10)
        return 0;
    for (int t = PAWN; t <= GOLD; t++)
        points += impasse_points[t] * s->hand[us][t];
    return points >= (us == BLACK ? 28 : 27);
}

/* Fourfold repetition over the ring: returns R_NONE, R_REPETITION or
 * R_PERPETUAL (setting *loser). */
static int repetition(const Shogi *s, int *loser)
{
    uint32_t cur = s->hist[s->ply % HIST];
    /* common case first: a branch-free count over the entries with the
     * same side to move (HIST is even, so they share the ply's parity) */
    int same = 0;
    for (int j = s->ply & 1; j < HIST; j += 2)
        same += !((s->hist[j] ^ cur) >> 1);
    if (same < 4)
        return R_NONE;
    int count = 1, first = -1;
    for (int back = 4; back < s->hist_len; back += 2) {
        uint32_t e = s->hist[(s->ply - back) % HIST];
        if ((e ^ cur) >> 1)
            continue;
        if (++count == 4) {
            first = back;
            break;
        }
    }
    if (first < 0)
        return R_NONE;
    /* positions after the first occurrence: who was always in check? */
    int always[2] = {1, 1};
    for (int back = 0; back < first; back++) {
        uint32_t e = s->hist[(s->ply - back) % HIST];
        int mover = (s->side + back) & 1;  /* side to move there */
        if (!(e & 1))
            always[mover] = 0;
    }
    if (always[0] != always[1]) {
        /* the side always in check was checked by the other: it wins */
        *loser = always[0] ? WHITE : BLACK;
        return R_PERPETUAL;
    }
    return R_REPETITION;
}

void sg_push_history(Shogi *s)
{
    s->hist[s->ply % HIST] =
        ((uint32_t)(s->hash >> 32) & ~1u) | (s->in_check ? 1u : 0u);
    if (s->hist_len < HIST)
        s->hist_len++;
}

/* Decides whether the game is over for the side to move (everything but
 * the repetition, which needs the history). */
void sg_settle_position(Shogi *s)
{
    s->in_check = (uint8_t)sg_attacked(s->board, s->ksq[s->side], s->side ^ 1);
    s->reason = R_NONE;
    s->winner = -1;
}

void sg_settle_result(Shogi *s, int use_history)
{
    int loser = 0, rep;
    if (impasse_win(s)) {
        s->reason = R_IMPASSE;
        s->winner = (int8_t)s->side;
    } else if (!has_legal_move(s)) {
        s->reason = R_MATE;
        s->winner = (int8_t)(s->side ^ 1);
    } else if (use_history && (rep = repetition(s, &loser)) != R_NONE) {
        s->reason = (uint8_t)rep;
        s->winner = (int8_t)(rep == R_PERPETUAL ? loser ^ 1 : -1);
    } else if (s->ply >= MAX_PLIES) {
        s->reason = R_LIMIT;
        s->winner = -1;
    }
}

/* The piece code a board move m leaves on its square: p itself, or p
 * promoted (micro shogi: flipped to its other face). */
static inline int moved_piece(const Shogi *s, int p, Move m)
{
    return !mv_prom(m)  ? p
           : is_micro(s) ? (p & WHITE_BIT) | micro_flip[TYPE(p)]
                         : p + PROM;
}

void shogi_make(void *st, Move m)
{
    Shogi *s = st;
    int us = s->side, to = mv_to(m), ub = us ? WHITE_BIT : 0;
    uint8_t *b = s->board;
    int dt = mv_drop(m), micro = is_micro(s);
    if (dt) {
        int p = ub | dt, ht = micro ? micro_slot[dt] : dt;
        b[to] = (uint8_t)p;
        s->hash ^= key_piece(p, to) ^ key_hand(us, ht, s->hand[us][ht]);
        s->hand[us][ht]--;
        if (s->hand[us][ht])
            s->hash ^= key_hand(us, ht, s->hand[us][ht]);
    } else {
        int from = mv_from(m), p = b[from], cap = b[to];
        if (cap) {
            int ct = micro ? micro_slot[TYPE(cap)] : BASE(TYPE(cap));
            s->hash ^= key_piece(cap, to);
            if (s->hand[us][ct])
                s->hash ^= key_hand(us, ct, s->hand[us][ct]);
            s->hand[us][ct]++;
            s->hash ^= key_hand(us, ct, s->hand[us][ct]);
        }
        int np = moved_piece(s, p, m);
        b[from] = EMPTY;
        b[to] = (uint8_t)np;
        s->hash ^= key_piece(p, from) ^ key_piece(np, to);
        if (TYPE(p) == KING)
            s->ksq[us] = (uint8_t)to;
    }
    s->side ^= 1;
    s->hash ^= KEY_WHITE;
    s->ply++;
    sg_settle_position(s);
    sg_push_history(s);
    sg_settle_result(s, 1);
}

/* ---- vtable hooks ---- */

void sg_reset(Shogi *s, int variant)
{
    memset(s, 0, sizeof *s);
    s->variant = (uint8_t)variant;
    memset(s->board, OFF, CELLS);
    const Variant *v = var_of(s);
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++)
            s->board[sq_of(r, c)] = EMPTY;
}

static int init_variant(void *st, int variant, PlyError *err)
{
    Shogi *s = st;
    sg_reset(s, variant);
    return sg_parse_sfen(s, variants[variant].start, err);
}

int shogi_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt;
    (void)seed;
    return init_variant(st, 0, err);
}

int minishogi_init(void *st, const int *opt, uint64_t seed,
                          PlyError *err)
{
    (void)opt;
    (void)seed;
    return init_variant(st, 1, err);
}

int micro_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt;
    (void)seed;
    return init_variant(st, MICRO, err);
}

int shogi_to_move(const void *st)
{
    const Shogi *s = st;
    return s->reason ? PLAYER_TERMINAL : s->side;
}

int shogi_gen_moves(const void *st, Move *out)
{
    const Shogi *s = st;
    return s->reason ? 0 : sg_gen_legal(s, out, 0);
}

void shogi_returns(const void *st, double *out)
{
    const Shogi *s = st;
    out[0] = out[1] = 0;
    if (s->reason && s->winner >= 0) {
        out[s->winner] = 1;
        out[s->winner ^ 1] = -1;
    }
}

uint64_t shogi_hash(const void *st)
{
    return ((const Shogi *)st)->hash;
}


int shogi_gen_noisy(const void *st, Move *out)
{
    const Shogi *s = st;
    return s->reason ? 0 : sg_gen_legal(s, out, 1);
}


/* Whether the legal move m of the side to move attacks the enemy king
 * once made: the moved or dropped piece directly, or a slider behind the
 * square it leaves. Moves far from every line through the king are
 * answered without the board. */
static int sg_gives_check(const Shogi *s, Move m)
{
    int us = s->side, ek = s->ksq[us ^ 1], to = mv_to(m), dt = mv_drop(m);
    int dr = row_of(to) - row_of(ek), dc = col_of(to) - col_of(ek);
    int near = abs(dr) <= 2 && abs(dc) <= 1;
    int line = dr == 0 || dc == 0 || dr == dc || dr == -dc;
    if (!dt) {
        int fr = row_of(mv_from(m)) - row_of(ek);
        int fc = col_of(mv_from(m)) - col_of(ek);
        line |= fr == 0 || fc == 0 || fr == fc || fr == -fc;
    }
    if (!near && !line)
        return 0;
    uint8_t nb[CELLS];
    memcpy(nb, s->board, CELLS);
    if (dt) {
        nb[to] = (uint8_t)((us ? WHITE_BIT : 0) | dt);
    } else {
        int from = mv_from(m);
        nb[to] = (uint8_t)moved_piece(s, nb[from], m);
        nb[from] = EMPTY;
    }
    return sg_attacked(nb, ek, us);
}

int shogi_gen_checks(const void *st, Move *out)
{
    const Shogi *s = st;
    if (s->reason)
        return 0;
    Move buf[MAX_MOVES];
    int n = sg_gen_legal(s, buf, 0), k = 0;
    for (int i = 0; i < n; i++)
        if (!shogi_is_noisy(s, buf[i]) && sg_gives_check(s, buf[i]))
            out[k++] = buf[i];
    return k;
}

int shogi_in_check(const void *st)
{
    const Shogi *s = st;
    return s->reason == R_NONE && s->in_check;
}

/* Drops make zugzwang rare; it returns in endgames with few pieces left,
 * so the null move needs a side with material on board and in hand. */
int shogi_null_move_ok(const void *st)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    int n = 0;
    for (int t = 0; t < 8; t++)
        n += s->hand[s->side][t];
    for (int r = 0; r < v->h; r++)
        for (int f = 0; f < v->w; f++) {
            int p = s->board[sq_of(r, f)];
            n += p != EMPTY && COLOR(p) == s->side && TYPE(p) != KING;
        }
    return n >= (s->variant ? 3 : 8);
}

void shogi_make_null(void *st)
{
    Shogi *s = st;
    s->side ^= 1;
    s->hash ^= KEY_WHITE;
    s->ply++;
    sg_settle_position(s);
    s->hist_len = 0;    /* no repetition reaches across the pass */
    sg_push_history(s);
}

int shogi_check(const void *st)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    if (s->variant > MICRO || s->side > 1)
        return -1;
    for (int c = 0; c < 2; c++)
        if (s->board[s->ksq[c]] != ((c ? WHITE_BIT : 0) | KING))
            return -1;
    int counts[9] = {0};
    for (int q = 0; q < CELLS; q++) {
        int p = s->board[q], r = row_of(q), c = col_of(q);
        int on = r >= 0 && r < v->h && c >= 0 && c < v->w;
        if (on != (p != OFF))
            return -1;
        if (on && p) {
            int t = TYPE(p);
            if (is_micro(s) && t != KING && !micro_slot[t])
                return -1;
            counts[is_micro(s) && t != KING ? micro_slot[t] : BASE(t)]++;
        }
    }
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t <= GOLD; t++) {
            if (is_micro(s) && s->hand[c][t] && micro_slot[t] != t)
                return -1;
            counts[t] += s->hand[c][t];
        }
    for (int t = PAWN; t <= KING; t++)
        if (counts[t] > v->max_count[t])
            return -1;
    if (s->hash != sg_full_hash(s))
        return -1;
    if (s->in_check !=
        sg_attacked(s->board, s->ksq[s->side], s->side ^ 1))
        return -1;
    return 0;
}

