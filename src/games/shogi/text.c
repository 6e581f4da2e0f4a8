/* text.c — shogi's text: SFEN setup strings, USI moves (with the legality
 * check that names what is wrong), and the board picture. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "shogi.h"

/* ---- text ---- */

typedef struct Buf {
    char *p;
    size_t n, len;
    int over;
} Buf;

static void bput(Buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void bput(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->len < b->n ? b->n - b->len : 0;
    int k = vsnprintf(b->p + b->len, room, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= room)
        b->over = 1;
    else
        b->len += (size_t)k;
}

/* Micro shogi writes a piece as Fairy-Stockfish does: the letter of its
 * pair (B R L P) or K, '+' before the reverse face (tokin +B, gold +R,
 * silver +L, knight +P). */
static int micro_letter(int t, int *plus)
{
    *plus = t != KING && !micro_front(t);
    return piece_chars[t == KING ? KING : micro_slot[t]];
}

static void piece_text_v(Buf *o, int p, int micro)
{
    int t = TYPE(p), plus = t > KING;
    char ch = micro ? (char)micro_letter(t, &plus) : piece_chars[BASE(t)];
    if (COLOR(p))
        ch = (char)(ch - 'A' + 'a');
    bput(o, "%s%c", plus ? "+" : "", ch);
}

static const char *const result_tokens[2] = {"perpetual-b", "perpetual-w"};

/* SFEN's board, side and hands (no move number): rows of width piece
 * codes, row r (from the top, as SFEN lists them) at cells[r * stride]. */
static void put_fields(Buf *o, const uint8_t *cells, int rows, int width,
                       int stride, int micro, int white,
                       const uint8_t hand[2][8])
{
    for (int r = 0; r < rows; r++) {
        int empty = 0;
        for (int c = 0; c < width; c++) {
            int p = cells[r * stride + c];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                bput(o, "%d", empty);
            empty = 0;
            piece_text_v(o, p, micro);
        }
        if (empty)
            bput(o, "%d", empty);
        if (r + 1 < rows)
            bput(o, "/");
    }
    bput(o, " %c ", white ? 'w' : 'b');
    int any = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 7; i++) {
            int t = hand_order[i], k = hand[c][t];
            if (!k)
                continue;
            any = 1;
            if (k > 1)
                bput(o, "%d", k);
            bput(o, "%c", c ? piece_chars[t] - 'A' + 'a' : piece_chars[t]);
        }
    if (!any)
        bput(o, "-");
}

int sg_diagram_sfen(const uint8_t *cells, int rows, int width, int stride,
                    int white, const uint8_t hand[2][8], char *out, size_t n)
{
    Buf o = {out, n, 0, 0};
    if (n)
        out[0] = 0;
    put_fields(&o, cells, rows, width, stride, 0, white, hand);
    bput(&o, " 1");
    return o.over ? -1 : 0;
}

int shogi_to_text(const void *st, char *buf, size_t n)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    Buf o = {buf, n, 0, 0};
    if (n)
        buf[0] = 0;
    put_fields(&o, &s->board[sq_of(0, 0)], v->h, v->w, STRIDE, is_micro(s),
               s->side, s->hand);
    bput(&o, " %d", s->ply + 1);
    if (s->reason == R_REPETITION)
        bput(&o, " sennichite");
    else if (s->reason == R_PERPETUAL)
        bput(&o, " %s", result_tokens[s->winner ^ 1]);
    return o.over ? -1 : (int)o.len;
}

static int letter_type(char ch)
{
    const char *p = strchr("PLNSBRGK", ch >= 'a' ? ch - 'a' + 'A' : ch);
    return ch && p ? (int)(p - "PLNSBRGK") + 1 : 0;
}

/* Parses an SFEN into s (already sg_reset for its variant). */
int sg_parse_sfen(Shogi *s, const char *text, PlyError *err)
{
    const Variant *v = var_of(s);
    int variant = s->variant;
    sg_reset(s, variant);
    char tok[5][200];
    int nt = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (nt == 5)
            return ply_fail(err, "bad setup string: too many fields (an "
                            "SFEN has board, side, hands, move number)");
        size_t len = strcspn(p, " \t");
        if (len >= sizeof tok[0])
            return ply_fail(err, "bad setup string: field %d too long",
                            nt + 1);
        memcpy(tok[nt], p, len);
        tok[nt][len] = 0;
        nt++;
        p += len;
    }
    if (nt < 3)
        return ply_fail(err, "bad setup string: expected 'BOARD SIDE HANDS "
                        "[MOVENUMBER]', got %d field(s)", nt);
    /* board */
    int r = 0, c = 0, counts[9] = {0}, kings[2] = {0, 0};
    for (const char *q = tok[0]; *q; q++) {
        if (*q == '/') {
            if (c != v->w)
                return ply_fail(err, "bad setup string: rank %d has %d "
                                "squares, not %d", r + 1, c, v->w);
            if (++r >= v->h)
                return ply_fail(err, "bad setup string: more than %d ranks",
                                v->h);
            c = 0;
        } else if (*q >= '1' && *q <= '9') {
            c += *q - '0';
            if (c > v->w)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than %d squares", r + 1, v->w);
        } else {
            int prom = 0;
            if (*q == '+') {
                prom = 1;
                q++;
            }
            int t = letter_type(*q);
            if (!t || (variant == MICRO && t != KING && micro_slot[t] != t))
                return ply_fail(err, "bad setup string: bad piece '%c' in "
                                "the board%s", *q ? *q : '+',
                                variant == MICRO ? " (micro shogi: K B R L P, "
                                "'+' before B R L P for the reverse face)"
                                : "");
            if (prom && (variant == MICRO ? t == KING : !promotable(t)))
                return ply_fail(err, "bad setup string: '%c' cannot be "
                                "promoted", *q);
            if (c >= v->w)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than %d squares", r + 1, v->w);
            int col = *q >= 'a' ? WHITE : BLACK;
            if (variant == MICRO && c >= v->w)
                return ply_fail(err, "bad setup string: rank %d is longer "
                                "than %d squares", r + 1, v->w);
            if (variant == MICRO) {
                int sq = sq_of(r, c);
                s->board[sq] = (uint8_t)((col ? WHITE_BIT : 0) |
                                         (prom ? micro_flip[t] : t));
                counts[t]++;
                if (t == KING) {
                    kings[col]++;
                    s->ksq[col] = (uint8_t)sq;
                }
                c++;
                continue;
            }
            if (!prom && dead_square(v, col, t, r))
                return ply_fail(err, "bad setup string: '%c' on rank %c "
                                "can never move", *q, 'a' + r);
            int sq = sq_of(r, c);
            s->board[sq] = (uint8_t)((col ? WHITE_BIT : 0) |
                                     (prom ? t + PROM : t));
            counts[t]++;
            if (t == KING) {
                kings[col]++;
                s->ksq[col] = (uint8_t)sq;
            }
            c++;
        }
    }
    if (r != v->h - 1 || c != v->w)
        return ply_fail(err, "bad setup string: the board needs %d ranks of "
                        "%d squares", v->h, v->w);
    if (kings[0] != 1 || kings[1] != 1)
        return ply_fail(err, "bad setup string: each side needs exactly one "
                        "king");
    /* side */
    if (!strcmp(tok[1], "b"))
        s->side = BLACK;
    else if (!strcmp(tok[1], "w"))
        s->side = WHITE;
    else
        return ply_fail(err, "bad setup string: side to move '%s' is not "
                        "b or w", tok[1]);
    /* hands */
    if (strcmp(tok[2], "-")) {
        for (const char *q = tok[2]; *q;) {
            int k = 1;
            if (*q >= '0' && *q <= '9') {
                k = 0;
                while (*q >= '0' && *q <= '9' && k < 100)
                    k = k * 10 + (*q++ - '0');
                if (k < 1 || k > 18)
                    return ply_fail(err, "bad setup string: hand count "
                                    "%d out of range", k);
            }
            int t = letter_type(*q);
            if (!t || t == KING || (variant == MICRO && micro_slot[t] != t))
                return ply_fail(err, "bad setup string: bad hand piece "
                                "'%c'", *q ? *q : '?');
            int col = *q >= 'a' ? WHITE : BLACK;
            if (s->hand[col][t])
                return ply_fail(err, "bad setup string: hand piece '%c' "
                                "given twice", *q);
            s->hand[col][t] = (uint8_t)k;
            counts[t] += k;
            q++;
        }
    }
    for (int t = PAWN; t <= KING; t++)
        if (counts[t] > v->max_count[t])
            return ply_fail(err, "bad setup string: %d %c pieces, at most "
                            "%d in %s", counts[t], piece_chars[t],
                            v->max_count[t], v->name);
    /* nifu */
    for (int col = 0; col < 2 && variant != MICRO; col++)
        for (int cc = 0; cc < v->w; cc++) {
            int k = 0;
            for (int rr = 0; rr < v->h; rr++)
                k += s->board[sq_of(rr, cc)] ==
                     ((col ? WHITE_BIT : 0) | PAWN);
            if (k > 1)
                return ply_fail(err, "bad setup string: two %s pawns on "
                                "file %d (nifu)", sg_players[col],
                                v->w - cc);
        }
    /* move number */
    long mn = 1;
    if (nt >= 4) {
        char *end;
        mn = strtol(tok[3], &end, 10);
        if (*end || end == tok[3] || mn < 1 || mn > 10000)
            return ply_fail(err, "bad setup string: move number '%s' is not "
                            "1..10000", tok[3]);
    }
    s->ply = (uint16_t)(mn - 1);
    if (sg_attacked(s->board, s->ksq[s->side ^ 1], s->side))
        return ply_fail(err, "bad setup string: the side not to move is in "
                        "check");
    s->hash = sg_full_hash(s);
    sg_settle_position(s);
    sg_push_history(s);
    sg_settle_result(s, 0);
    if (nt == 5) {
        int reason = 0, winner = -1;
        if (!strcmp(tok[4], "sennichite"))
            reason = R_REPETITION;
        else if (!strcmp(tok[4], result_tokens[0]))
            reason = R_PERPETUAL, winner = WHITE;
        else if (!strcmp(tok[4], result_tokens[1]))
            reason = R_PERPETUAL, winner = BLACK;
        else
            return ply_fail(err, "bad setup string: unknown result '%s' "
                            "(sennichite, perpetual-b or perpetual-w)",
                            tok[4]);
        if (s->reason == R_MATE || s->reason == R_IMPASSE)
            return ply_fail(err, "bad setup string: result '%s' given for "
                            "a position that is already decided", tok[4]);
        s->reason = (uint8_t)reason;
        s->winner = (int8_t)winner;
    }
    return 0;
}

int shogi_from_text(void *st, const char *text, PlyError *err)
{
    Shogi *s = st;
    Shogi tmp;
    sg_reset(&tmp, s->variant);
    if (sg_parse_sfen(&tmp, text, err))
        return -1;
    *s = tmp;
    return 0;
}

int shogi_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    int to = mv_to(m), dt = mv_drop(m), k = 0;
    char t[8];
    if (dt && is_micro(s)) {
        int plus;
        char ch = (char)micro_letter(dt, &plus);
        if (plus)
            t[k++] = '+';
        t[k++] = ch;
        t[k++] = '*';
    } else if (dt) {
        t[k++] = piece_chars[dt];
        t[k++] = '*';
    } else {
        t[k++] = (char)('0' + v->w - col_of(mv_from(m)));
        t[k++] = (char)('a' + row_of(mv_from(m)));
    }
    t[k++] = (char)('0' + v->w - col_of(to));
    t[k++] = (char)('a' + row_of(to));
    /* micro shogi: '+' when a front face flips, '-' when a reverse face
     * flips back (Fairy-Stockfish's USI) */
    if (mv_prom(m))
        t[k++] = is_micro(s) && !micro_front(TYPE(s->board[mv_from(m)]))
                     ? '-' : '+';
    if ((size_t)k >= n)
        return -1;
    memcpy(buf, t, (size_t)k);
    buf[k] = 0;
    return k;
}

/* "7g" -> square, or -1. */
static int parse_square(const Variant *v, const char *t)
{
    if (t[0] < '1' || t[0] > '0' + v->w || t[1] < 'a' || t[1] >= 'a' + v->h)
        return -1;
    return sq_of(t[1] - 'a', v->w - (t[0] - '0'));
}

static const char *const no_in_hand[8] = {
    "", "no P in hand", "no L in hand", "no N in hand", "no S in hand",
    "no B in hand", "no R in hand", "no G in hand"};

/* Why m (well formed) is illegal, or NULL when it is legal: made on a
 * copy of the board and the king tested, a second, simpler path than
 * sg_gen_legal. Constant messages: the fuzzer and tests call this a lot. */
static const char *move_is_legal(const Shogi *s, Move m)
{
    const Variant *v = var_of(s);
    int us = s->side, ub = us ? WHITE_BIT : 0, to = mv_to(m);
    uint8_t nb[CELLS];
    memcpy(nb, s->board, CELLS);
    int dt = mv_drop(m), ksq = s->ksq[us];
    if (dt && is_micro(s)) {
        if (!micro_slot[dt] || !s->hand[us][micro_slot[dt]])
            return micro_slot[dt] ? no_in_hand[micro_slot[dt]]
                                  : "no such piece";
        if (nb[to])
            return "drop on an occupied square";
        nb[to] = (uint8_t)(ub | dt);
    } else if (dt) {
        if (!s->hand[us][dt])
            return no_in_hand[dt];
        if (nb[to])
            return "drop on an occupied square";
        if (dead_square(v, us, dt, row_of(to)))
            return "a piece dropped there could never move";
        if (dt == PAWN)
            for (int r = 0; r < v->h; r++)
                if (nb[sq_of(r, col_of(to))] == (ub | PAWN))
                    return "two pawns on a file (nifu)";
        nb[to] = (uint8_t)(ub | dt);
    } else {
        int from = mv_from(m), p = nb[from];
        if (!p || COLOR(p) != us)
            return "no piece of the side to move there";
        int q = nb[to];
        if (q && COLOR(q) == us)
            return "cannot capture one's own piece";
        int t = TYPE(p), reach = 0;
        for (int i = 0; i < 8 && !reach; i++) {
            if ((step_mask[p] >> i & 1) && from + dv[i] == to)
                reach = 1;
            if (slide_mask[p] >> i & 1)
                for (int x = from + dv[i]; nb[x] != OFF; x += dv[i]) {
                    if (x == to)
                        reach = 1;
                    if (nb[x])
                        break;
                }
        }
        if (t == KNIGHT)
            reach = to - from == (us ? 21 : -21) || to - from == (us ? 19 : -19);
        if (!reach)
            return "the piece does not move so";
        if (is_micro(s)) {
            int flip = q && t != KING;
            if (mv_prom(m) != flip)
                return flip ? "a piece flips when it captures"
                            : "a piece flips only when it captures";
            nb[from] = EMPTY;
            nb[to] = (uint8_t)(flip ? (p & WHITE_BIT) | micro_flip[t] : p);
            if (t == KING)
                ksq = to;
            goto king_test;
        }
        if (mv_prom(m) && !(promotable(t) && (in_zone(v, us, row_of(from)) ||
                                              in_zone(v, us, row_of(to)))))
            return "no promotion possible here";
        if (!mv_prom(m) && dead_square(v, us, t, row_of(to)))
            return "the piece must promote there";
        nb[from] = EMPTY;
        nb[to] = (uint8_t)(mv_prom(m) ? p + PROM : p);
        if (t == KING)
            ksq = to;
    }
king_test:
    if (sg_attacked(nb, ksq, us ^ 1))
        return "leaves the king in check";
    if (is_micro(s))
        return NULL;
    if (dt == PAWN && to == (us == BLACK ? s->ksq[us ^ 1] + STRIDE
                                          : s->ksq[us ^ 1] - STRIDE) &&
        sg_pawn_drop_mates(s, to))
        return "mate by a dropped pawn (uchifuzume)";
    return NULL;
}

int shogi_text_to_move(const void *st, const char *text, Move *m,
                              PlyError *err)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    if (s->reason)
        return ply_fail(err, "the game is over");
    size_t len = strlen(text);
    Move mv;
    if (is_micro(s)) {
        /* drops B*2e or +B*2e (the reverse face); moves 4e3d, and a
         * capture with or without its flip mark (4c3e-, 2e4c+) */
        int plus = text[0] == '+';
        if (len == (size_t)(4 + plus) && text[1 + plus] == '*') {
            int t = letter_type(text[plus]);
            if (!t || t == KING || text[plus] >= 'a' || micro_slot[t] != t)
                return ply_fail(err, "bad drop piece in '%s' (B R L P, "
                                "'+' before it for the reverse face)", text);
            int to = parse_square(v, text + 2 + plus);
            if (to < 0)
                return ply_fail(err, "bad square in '%s'", text);
            mv = mk_drop(plus ? micro_flip[t] : t, to);
        } else if (len == 4 || (len == 5 && (text[4] == '+' ||
                                             text[4] == '-'))) {
            int from = parse_square(v, text), to = parse_square(v, text + 2);
            if (from < 0 || to < 0)
                return ply_fail(err, "bad move '%s' (USI: 1d1c, 2e4c+, "
                                "4c3e-, B*2c, +B*2c)", text);
            if (from == to)
                return ply_fail(err, "bad move '%s': no move", text);
            int p = s->board[from], q = s->board[to];
            int flip = q != EMPTY && q != OFF && p != EMPTY && p != OFF &&
                       TYPE(p) != KING;
            if (len == 5 && p != EMPTY && p != OFF &&
                (!flip || (text[4] == '+') != micro_front(TYPE(p))))
                return ply_fail(err, "illegal move '%s': %s", text,
                                !flip ? "a piece flips only when it captures"
                                : text[4] == '+' ? "the piece flips back "
                                "('-')" : "the piece flips to its reverse "
                                "('+')");
            mv = mk_move(from, to, flip);
        } else {
            return ply_fail(err, "bad move '%s' (USI: 1d1c, 2e4c+, 4c3e-, "
                            "B*2c, +B*2c)", text);
        }
    } else if (len == 4 && text[1] == '*') {
        int t = letter_type(text[0]);
        if (!t || t == KING || text[0] >= 'a')
            return ply_fail(err, "bad drop piece '%c' in '%s' (P L N S G B "
                            "R)", text[0], text);
        int to = parse_square(v, text + 2);
        if (to < 0)
            return ply_fail(err, "bad square in '%s'", text);
        mv = mk_drop(t, to);
    } else if (len == 4 || (len == 5 && text[4] == '+')) {
        int from = parse_square(v, text), to = parse_square(v, text + 2);
        if (from < 0 || to < 0)
            return ply_fail(err, "bad move '%s' (USI: 7g7f, 8h2b+, P*5e)",
                            text);
        if (from == to)
            return ply_fail(err, "bad move '%s': no move", text);
        mv = mk_move(from, to, len == 5);
    } else {
        return ply_fail(err, "bad move '%s' (USI: 7g7f, 8h2b+, P*5e)", text);
    }
    const char *why = move_is_legal(s, mv);
    if (why)
        return ply_fail(err, "illegal move '%s': %s", text, why);
    *m = mv;
    return 0;
}

/* The board for drawing: Black at the bottom, each side's hand a row of
 * slots beside its edge (White's above the board, Black's below); the
 * hand of the side to move names its slots as drops write them ("P*"). */
int shogi_layout(const void *st, Layout *l)
{
    static const char *const kanji[16] = {
        "", "\u6B69", "\u9999", "\u6842", "\u9280", "\u89D2", "\u98DB",
        "\u91D1", "\u7389", "\u3068", "\u674F", "\u572D", "\u5168",
        "\u99AC", "\u9F8D", ""};
    const Shogi *s = st;
    const Variant *v = var_of(s);
    l->width = (float)(v->w > 7 ? v->w : 7);
    l->height = (float)v->h + 2;
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++) {
            char name[4] = {(char)('0' + v->w - c), (char)('a' + r), 0};
            int zone = r < v->zone || r >= v->h - v->zone;
            LayoutCell *cell = layout_cell(l, (float)c + 0.5f,
                                           (float)r + 1.5f, CELL_SQUARE,
                                           zone ? SHADE_SPECIAL : SHADE_LIGHT,
                                           name);
            int p = s->board[sq_of(r, c)];
            if (cell && p) {
                snprintf(cell->glyph, sizeof cell->glyph, "%s",
                         kanji[TYPE(p) & 15]);
                cell->owner = (int8_t)COLOR(p);
            }
        }
    for (int col = 0; col < 2; col++) {
        int slot = 0;
        for (int i = 0; i < 7; i++) {
            int t = hand_order[i];
            if (!v->max_count[t] || (is_micro(s) && micro_slot[t] != t))
                continue;
            char name[4] = "";
            int cnt = s->hand[col][t];
            if (cnt && col == s->side && !s->reason) {
                name[0] = piece_chars[t];
                name[1] = '*';
            }
            LayoutCell *cell = layout_cell(l, (float)slot + 0.5f, col ? 0.5f
                                           : (float)v->h + 1.5f, CELL_HAND,
                                           SHADE_DARK, name);
            slot++;
            if (cell && cnt) {
                snprintf(cell->glyph, sizeof cell->glyph, "%s", kanji[t]);
                cell->owner = (int8_t)col;
                cell->count = cnt;
            }
        }
    }
    return 0;
}

const char *shogi_end_reason(const void *st)
{
    static const char *const why[] = {
        NULL, "checkmate (no legal move)", "sennichite (fourfold repetition)",
        "perpetual check", "impasse (entering king)", "the move limit"};
    const Shogi *s = st;
    return s->reason < sizeof why / sizeof *why ? why[s->reason] : NULL;
}

int shogi_render(const void *st, char *buf, size_t n)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    Buf o = {buf, n, 0, 0};
    if (n)
        buf[0] = 0;
    static const char *const hand_names[2] = {"Black hand", "White hand"};
    bput(&o, "%s:", hand_names[1]);
    for (int i = 0; i < 7; i++) {
        int t = hand_order[i];
        if (s->hand[1][t])
            bput(&o, " %c%d", piece_chars[t] - 'A' + 'a', s->hand[1][t]);
    }
    bput(&o, "\n  ");
    for (int c = 0; c < v->w; c++)
        bput(&o, "  %d", v->w - c);
    bput(&o, "\n");
    for (int r = 0; r < v->h; r++) {
        bput(&o, "%c ", 'a' + r);
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (!p) {
                bput(&o, "  .");
                continue;
            }
            bput(&o, " ");
            if (is_micro(s) ? TYPE(p) == KING || micro_front(TYPE(p))
                            : TYPE(p) <= KING)
                bput(&o, " ");
            piece_text_v(&o, p, is_micro(s));
        }
        bput(&o, "\n");
    }
    bput(&o, "%s:", hand_names[0]);
    for (int i = 0; i < 7; i++) {
        int t = hand_order[i];
        if (s->hand[0][t])
            bput(&o, " %c%d", piece_chars[t], s->hand[0][t]);
    }
    bput(&o, "\n");
    static const char *const reasons[] = {
        "", "checkmate (no legal move)", "sennichite (fourfold repetition)",
        "perpetual check", "impasse declaration (27-point rule)",
        "move limit"};
    if (s->reason)
        bput(&o, "game over: %s\n", reasons[s->reason]);
    else
        bput(&o, "%s to move%s\n", sg_players[s->side],
             s->in_check ? " (in check)" : "");
    return o.over ? -1 : (int)o.len;
}

