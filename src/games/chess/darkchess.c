/* darkchess.c — fog-of-war (dark) chess on the shared board (board.c).
 *
 * The moves are the chess generator's in its pseudo-legal mode
 * (CBoard.pseudo): no check rule, castling out of and through attacked
 * squares, and the game is won by capturing the king. A player sees his
 * own pieces and every square one of them could move to (see
 * dark_vision()); everything else is fog.
 *
 * A state is a DarkState: the CBoard, and for an observation the fog, the
 * observer, and how many of the opponent's pieces of each type stand in
 * the fog. The true state has view -1. observe() and determinize() move
 * between the two; the legal moves of the player to move depend only on
 * what he sees (every destination and every square a move passes over is
 * visible to him), so a determinization never changes his choices. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "board.h"

enum { DARK_MAX_PLIES = 400 };   /* a draw when move 201 is reached */

typedef struct DarkState {
    CBoard b;
    uint64_t fog;               /* observation: squares not seen */
    int8_t view;                /* -1 the true state, else the observer */
    uint8_t hidden[CB_NTYPES];  /* observation: the opponent's pieces in
                                 * the fog, by type */
} DarkState;

#define BIT(s) (1ull << (s))

/* What player c sees of board b: his pieces, the squares they attack or
 * can move to (slider rays up to and including the first piece), the
 * squares in front of his pawns up to the first piece (two from the start
 * rank), both forward diagonals of every pawn, the squares between king
 * and rook while he holds that castling right, and, when he is to move and
 * can take en passant, the pawn that may be taken. */
static uint64_t dark_vision(const CBoard *b, int c)
{
    uint64_t own = b->col[c], occ = b->col[0] | b->col[1];
    uint64_t vis = own;
    int fw = c ? -8 : 8;
    for (uint64_t p = own; p; p &= p - 1) {
        int s = cb_lsb(p), t = b->sq[s] & 15;
        vis |= cb_piece_attacks(t, c, s, occ);
        if (t != CB_PAWN)
            continue;
        int f = s + fw;
        if (f < 0 || f > 63)
            continue;
        vis |= BIT(f);
        int rel = c ? 7 - (s >> 3) : s >> 3;
        if (rel == 1 && !(occ & BIT(f)))
            vis |= BIT(f + fw);
    }
    int base = c ? 56 : 0;
    if (b->castle & (c ? CB_BK : CB_WK))
        vis |= BIT(base + 5) | BIT(base + 6);
    if (b->castle & (c ? CB_BQ : CB_WQ))
        vis |= BIT(base + 1) | BIT(base + 2) | BIT(base + 3);
    if (b->side == c && b->ep != CB_NO_EP &&
        (cb_piece_attacks(CB_PAWN, !c, b->ep, 0) & b->pcs[CB_PAWN] & own))
        vis |= BIT(b->ep) | BIT(b->ep - fw);
    return vis;
}

/* Ends: a side without its king has lost; a side to move without moves
 * draws; move 201 draws. */
static void dark_status(CBoard *b)
{
    Move one[1];
    b->over = CB_PLAYING;
    b->reason = CB_R_NONE;
    for (int c = 0; c < 2; c++)
        if (!(b->pcs[CB_KING] & b->col[c])) {
            b->over = c ? CB_WIN_WHITE : CB_WIN_BLACK;
            b->reason = CB_R_MATE;
            return;
        }
    if (!cb_gen(b, one, 1)) {
        b->over = CB_DRAW;
        b->reason = CB_R_STALEMATE;
    } else if (b->fullmove > DARK_MAX_PLIES / 2) {
        b->over = CB_DRAW;
        b->reason = CB_R_NMOVE;
    }
}

static void dark_clear_history(CBoard *b)
{
    b->halfmove = 0;
    b->nhist = 0;
    b->hpos = 0;
    memset(b->hist, 0, sizeof b->hist);
}

static int dark_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt, (void)seed;
    DarkState *d = st;
    int rep3;
    memset(d, 0, sizeof *d);
    d->b.variant = CB_CHESS;
    d->b.pseudo = 1;
    if (cb_from_fen(&d->b, "startpos", &rep3, err))
        return -1;
    d->view = -1;
    dark_status(&d->b);
    return 0;
}

static void dark_make(void *st, Move m)
{
    DarkState *d = st;
    cb_make(&d->b, m);
    dark_clear_history(&d->b);   /* no repetition rule: keep states lean */
    dark_status(&d->b);
}

static void dark_observe(const void *st, int player, void *obs)
{
    const DarkState *s = st;
    DarkState *o = obs;
    if (s->view >= 0) {            /* already an observation */
        memmove(o, s, sizeof *o);
        return;
    }
    DarkState t;
    memset(&t, 0, sizeof t);
    t.b = s->b;
    t.view = (int8_t)player;
    uint64_t vis = dark_vision(&s->b, player);
    t.fog = ~vis;
    for (uint64_t f = t.fog & t.b.col[!player]; f; f &= f - 1) {
        int sq = cb_lsb(f);
        t.hidden[t.b.sq[sq] & 15]++;
        t.b.sq[sq] = 0;
    }
    t.b.castle &= (uint8_t)(player ? CB_BK | CB_BQ : CB_WK | CB_WQ);
    if (!(t.b.side == player && t.b.ep != CB_NO_EP && (vis & BIT(t.b.ep)) &&
          (cb_piece_attacks(CB_PAWN, !player, t.b.ep, 0) &
           t.b.pcs[CB_PAWN] & t.b.col[player])))
        t.b.ep = CB_NO_EP;
    dark_clear_history(&t.b);
    cb_rebuild(&t.b);
    *o = t;
}

static void dark_determinize(const void *obs, int player, Rng *r, void *st)
{
    const DarkState *o = obs;
    DarkState t;
    if (o->view < 0) {             /* a true state already */
        memmove(st, obs, sizeof t);
        return;
    }
    (void)player;
    int opp = !o->view;
    t = *o;
    int free_sq[64], nfree = 0;
    for (uint64_t f = o->fog & ~(o->b.col[0] | o->b.col[1]); f; f &= f - 1)
        free_sq[nfree++] = cb_lsb(f);
    /* pawns first, on ranks 2..7, then the other pieces anywhere */
    for (int k = 0; k < o->hidden[CB_PAWN]; k++) {
        int cand[64], nc = 0;
        for (int i = 0; i < nfree; i++)
            if ((free_sq[i] >> 3) >= 1 && (free_sq[i] >> 3) <= 6)
                cand[nc++] = i;
        if (!nc)
            break;
        int i = cand[rng_below(r, (uint32_t)nc)];
        t.b.sq[free_sq[i]] = (uint8_t)(CB_PAWN | opp << 4);
        free_sq[i] = free_sq[--nfree];
    }
    for (int ty = CB_KNIGHT; ty < CB_NTYPES; ty++)
        for (int k = 0; k < o->hidden[ty] && nfree; k++) {
            int i = (int)rng_below(r, (uint32_t)nfree);
            t.b.sq[free_sq[i]] = (uint8_t)(ty | opp << 4);
            free_sq[i] = free_sq[--nfree];
        }
    /* the opponent keeps a castling right where king and rook are home */
    int base = opp ? 56 : 0, king = CB_KING | opp << 4,
        rook = CB_ROOK | opp << 4;
    if (t.b.sq[base + 4] == king) {
        if (t.b.sq[base + 7] == rook)
            t.b.castle |= (uint8_t)(opp ? CB_BK : CB_WK);
        if (t.b.sq[base] == rook)
            t.b.castle |= (uint8_t)(opp ? CB_BQ : CB_WQ);
    }
    t.fog = 0;
    t.view = -1;
    memset(t.hidden, 0, sizeof t.hidden);
    cb_rebuild(&t.b);
    dark_status(&t.b);
    memmove(st, &t, sizeof t);
}

static const char TYPE_LETTER[CB_NTYPES] = {0, 'P', 'N', 'B', 'R', 'Q', 'K'};

/* A view: the FEN with '?' on fog squares, then "view white|black" and
 * "hidden" with the opponent's unseen pieces ("-" when none). */
static int dark_to_text(const void *st, char *buf, size_t n)
{
    const DarkState *d = st;
    char fen[160];
    if (cb_to_fen(&d->b, fen, sizeof fen) < 0)
        return -1;
    if (d->view < 0) {
        int w = snprintf(buf, n, "%s", fen);
        return w < 0 || (size_t)w >= n ? -1 : w;
    }
    char place[100];
    int k = 0;
    for (int r = 7; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < 8; f++) {
            int s = r * 8 + f, pc = d->b.sq[s];
            char ch = 0;
            if (d->fog & BIT(s))
                ch = '?';
            else if (pc)
                ch = (char)(pc >> 4 ? tolower(TYPE_LETTER[pc & 15])
                                    : TYPE_LETTER[pc & 15]);
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                place[k++] = (char)('0' + run);
            run = 0;
            place[k++] = ch;
        }
        if (run)
            place[k++] = (char)('0' + run);
        if (r)
            place[k++] = '/';
    }
    place[k] = 0;
    char hid[40];
    int h = 0;
    for (int ty = CB_KING; ty >= CB_PAWN; ty--)
        for (int i = 0; i < d->hidden[ty] && h < 32; i++)
            hid[h++] = (char)(d->view ? TYPE_LETTER[ty]
                                      : tolower(TYPE_LETTER[ty]));
    if (!h)
        hid[h++] = '-';
    hid[h] = 0;
    const char *rest = strchr(fen, ' ');
    int w = snprintf(buf, n, "%s%s view %s hidden %s", place, rest ? rest : "",
                     d->view ? "black" : "white", hid);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int dark_from_text(void *st, const char *s, PlyError *err)
{
    DarkState *d = st;
    if (strchr(s, '?') || strstr(s, " view ") || strstr(s, "hidden"))
        return ply_fail(err, "this is a player's view, not the true "
                        "position: give a full FEN");
    DarkState t;
    memset(&t, 0, sizeof t);
    t.b.variant = CB_CHESS;
    t.b.pseudo = 1;
    int rep3 = 0;
    if (cb_from_fen(&t.b, s, &rep3, err))
        return -1;
    if (rep3)
        return ply_fail(err, "dark chess has no repetition rule ('3fold')");
    dark_clear_history(&t.b);
    t.view = -1;
    dark_status(&t.b);
    *d = t;
    return 0;
}

/* A view (dark_to_text of an observation) back to the observation: the
 * fog from the '?' squares, the observer, the hidden pieces' counts, and
 * the end of the game as far as the observer can tell it (his king gone,
 * the opponent's king taken: neither seen nor hidden, no moves when he is
 * to move, the move limit). */
static int dark_from_view(void *st, const char *s, PlyError *err)
{
    const char *v = strstr(s, " view ");
    const char *h = v ? strstr(v, " hidden ") : NULL;
    if (!v || !h)
        return ply_fail(err, "not a player's view: want a FEN with '?' on "
                        "the fog, then \"view white|black hidden PIECES\"");
    size_t flen = (size_t)(v - s);
    if (flen >= 200)
        return ply_fail(err, "view too long");
    char fen[256], who[16], hid[64], extra[8];
    memcpy(fen, s, flen);
    fen[flen] = 0;
    if (sscanf(v, " view %15s hidden %63s %7s", who, hid, extra) != 2)
        return ply_fail(err, "bad view: want \"view white|black hidden "
                        "PIECES\" at the end");
    int view = !strcmp(who, "white") ? 0 : !strcmp(who, "black") ? 1 : -1;
    if (view < 0)
        return ply_fail(err, "bad view: '%s' is not white or black", who);
    int opp = !view;
    uint8_t hidden[CB_NTYPES] = {0};
    int nhid = 0;
    if (strcmp(hid, "-"))
        for (const char *q = hid; *q; q++) {
            int ty = 0;
            for (int x = CB_PAWN; x < CB_NTYPES; x++)
                if (*q == (opp ? tolower(TYPE_LETTER[x]) : TYPE_LETTER[x]))
                    ty = x;
            if (!ty)
                return ply_fail(err, "bad view: hidden piece '%c' is not "
                                "one of %s's", *q, opp ? "Black" : "White");
            if (++nhid > 16)
                return ply_fail(err, "bad view: too many pieces");
            hidden[ty]++;
        }
    /* the placement with the fog as empty squares (the FEN reader wants
     * both kings: a hidden one stands on the first fog square while it
     * reads), the fog's bits */
    char place[128];
    uint64_t fog = 0;
    int k = 0, r = 7, f = 0, run = 0, fake = -1;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        if (*p == '?') {
            if (r < 0 || f > 7)
                return ply_fail(err, "bad view: '?' off the board");
            fog |= BIT(r * 8 + f);
            if (hidden[CB_KING] && fake < 0) {
                if (run)
                    place[k++] = (char)('0' + run);
                run = 0;
                fake = r * 8 + f;
                place[k++] = opp ? 'k' : 'K';
            } else {
                run++;
            }
            f++;
            continue;
        }
        if (run) {
            place[k++] = (char)('0' + run);
            run = 0;
        }
        if (*p == '/') {
            r--;
            f = 0;
        } else if (*p >= '1' && *p <= '8') {
            f += *p - '0';
        } else {
            f++;
        }
        place[k++] = *p;
        if (k > 100)
            return ply_fail(err, "bad view: the placement is too long");
    }
    if (run)
        place[k++] = (char)('0' + run);
    place[k] = 0;
    char full[512];
    snprintf(full, sizeof full, "%s%s", place, p);
    DarkState t;
    memset(&t, 0, sizeof t);
    t.b.variant = CB_CHESS;
    t.b.pseudo = 1;
    int rep3 = 0;
    PlyError e = {{0}};
    if (cb_from_fen(&t.b, full, &rep3, &e) || rep3)
        return ply_fail(err, "bad view: %s", rep3 ? "no repetition rule "
                        "in dark chess" : e.msg);
    if (fake >= 0)
        t.b.sq[fake] = 0;
    cb_rebuild(&t.b);
    if (fog & (t.b.col[0] | t.b.col[1]))
        return ply_fail(err, "bad view: a piece on a fog square");
    memcpy(t.hidden, hidden, sizeof hidden);
    int total = cb_popcount(t.b.col[opp]) + nhid;
    if (total > 16 || t.hidden[CB_KING] > 1 ||
        (t.hidden[CB_KING] && (t.b.pcs[CB_KING] & t.b.col[opp])) ||
        cb_popcount(t.b.pcs[CB_KING] & t.b.col[view]) > 1)
        return ply_fail(err, "bad view: too many pieces");
    if (nhid > cb_popcount(fog))
        return ply_fail(err, "bad view: more hidden pieces than fog squares");
    /* castling rights are the observer's only */
    t.b.castle &= (uint8_t)(view ? CB_BK | CB_BQ : CB_WK | CB_WQ);
    dark_clear_history(&t.b);
    t.fog = fog;
    t.view = (int8_t)view;
    cb_rebuild(&t.b);
    Move one[1];
    t.b.over = CB_PLAYING;
    t.b.reason = CB_R_NONE;
    if (!(t.b.pcs[CB_KING] & t.b.col[view])) {
        t.b.over = view ? CB_WIN_WHITE : CB_WIN_BLACK;
        t.b.reason = CB_R_MATE;
    } else if (!(t.b.pcs[CB_KING] & t.b.col[opp]) && !t.hidden[CB_KING]) {
        t.b.over = opp ? CB_WIN_WHITE : CB_WIN_BLACK;
        t.b.reason = CB_R_MATE;
    } else if (t.b.side == view && !cb_gen(&t.b, one, 1)) {
        t.b.over = CB_DRAW;
        t.b.reason = CB_R_STALEMATE;
    } else if (t.b.fullmove > DARK_MAX_PLIES / 2) {
        t.b.over = CB_DRAW;
        t.b.reason = CB_R_NMOVE;
    }
    *(DarkState *)st = t;
    return view;
}

static int dark_render(const void *st, char *buf, size_t n)
{
    const DarkState *d = st;
    size_t len = 0;
    int w;
    if (d->view >= 0) {
        w = snprintf(buf, n, "what %s sees (? is fog):\n",
                     d->view ? "Black" : "White");
        if (w < 0 || (size_t)w >= n)
            return -1;
        len = (size_t)w;
    }
    for (int r = 7; r >= 0; r--) {
        char row[40];
        int k = 0;
        row[k++] = (char)('1' + r);
        row[k++] = ' ';
        for (int f = 0; f < 8; f++) {
            int s = r * 8 + f, pc = d->b.sq[s];
            char ch = '.';
            if (d->fog & BIT(s))
                ch = '?';
            else if (pc)
                ch = (char)(pc >> 4 ? tolower(TYPE_LETTER[pc & 15])
                                    : TYPE_LETTER[pc & 15]);
            row[k++] = ' ';
            row[k++] = ch;
        }
        row[k] = 0;
        PLY_OUT("%s\n", row);
    }
    const char *res = d->b.over == CB_WIN_WHITE ? "White wins (king taken)"
                    : d->b.over == CB_WIN_BLACK ? "Black wins (king taken)"
                    : d->b.over == CB_DRAW ? "draw" : NULL;
    if (res)
        w = snprintf(buf + len, n - len, "   a b c d e f g h\n%s\n", res);
    else
        w = snprintf(buf + len, n - len, "   a b c d e f g h\n%s to move\n",
                     d->b.side ? "Black" : "White");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

static int dark_check(const void *st)
{
    const DarkState *d = st;
    if (d->view < -1 || d->view > 1)
        return -1;
    if (d->view < 0 && (d->fog || d->hidden[CB_KING] || d->hidden[CB_PAWN]))
        return -1;
    if (d->view >= 0)
        return 0;   /* an observation may lack the opponent's king */
    return d->b.pseudo ? cb_check(&d->b) : -1;
}

static uint64_t dark_hash(const void *st)
{
    const DarkState *d = st;
    uint64_t h = cb_hook_hash(st);
    if (d->view >= 0)
        h ^= ply_mix64(d->fog ^ (uint64_t)(d->view + 1) * 0x9e37ull);
    return h;
}

static int dark_eval(const void *st, int player)
{
    const CBoard *b = st;
    for (int c = 0; c < 2; c++)
        if (!(b->pcs[CB_KING] & b->col[c]))
            return c == player ? -EVAL_MAX : EVAL_MAX;
    return cb_hook_eval(st, player);
}

/* King captures first, then the chess ordering. */
static int dark_heuristic(const void *st, Move m)
{
    const CBoard *b = st;
    if ((b->sq[CB_TO(m)] & 15) == CB_KING)
        return 1 << 20;
    return cb_hook_heuristic(st, m);
}

/* The chess board for drawing (cb_hook_layout); in a player's view the
 * squares he cannot see are fog: shade wall, no piece (the observation
 * holds none there). */
static int dark_layout(const void *st, Layout *l)
{
    const DarkState *d = st;
    if (cb_hook_layout(&d->b, l))
        return -1;
    for (int i = 0; i < l->ncells && i < 64; i++)
        if (d->fog & BIT(i)) {
            LayoutCell *c = &l->cells[i];
            c->shade = SHADE_WALL;
            c->glyph[0] = 0;
            c->owner = -1;
        }
    return 0;
}

static const char *const dark_players[] = {"White", "Black"};

const GameVtbl game_dark_chess = {
    .info = {
        .name = "dark-chess",
        .title = "Dark chess (fog-of-war chess)",
        .num_players = 2,
        .max_moves = CB_MAX_MOVES,
        .max_game_length = DARK_MAX_PLIES,
        .state_size = sizeof(DarkState),
        .flags = GAME_ZERO_SUM | GAME_HIDDEN,
        .player_names = dark_players,
        .options = NULL,
        .notation =
            "Moves in long algebraic notation: e2e4, e1g1 (castling), e7e8q\n"
            "(promotion); SAN accepted on input. The true position is a FEN\n"
            "(kings may stand attacked; the side to move may have lost its\n"
            "king when the game is over). A player's view, as `ply show\n"
            "dark-chess --as white` prints it, is the FEN with '?' on the\n"
            "squares he cannot see, then \"view white|black\" and \"hidden\"\n"
            "with the opponent's pieces in the fog (e.g. \"hidden kqrrbbnn\");\n"
            "a view is not accepted where the true position is needed.",
        .rules =
            "Fog-of-war chess (as on chess.com): orthodox pieces, moves and\n"
            "start position, but no check: a king may move into or stay in\n"
            "an attack, castling is allowed out of, through and into attacked\n"
            "squares, and the game is won by capturing the king. A player\n"
            "sees his own pieces and every square they can move to: slider\n"
            "rays up to and including the first piece, knight and king\n"
            "targets, the squares ahead of each pawn up to the first piece\n"
            "(two from its start rank) and both forward diagonals, the\n"
            "squares between king and rook while he may castle that way, and\n"
            "when he can take en passant the pawn that may be taken. He knows\n"
            "the material of the opponent (a capture is seen by both; a\n"
            "promotion's new piece is told, not its square), not the\n"
            "opponent's castling rights. A side to move without a move\n"
            "draws; the game is drawn when move 201 is reached. No fifty-move\n"
            "or repetition rule. Bots see only their seat's view.",
    },
    .init = dark_init,
    .to_move = cb_hook_to_move,
    .gen_moves = cb_hook_gen_moves,
    .make = dark_make,
    .returns = cb_hook_returns,
    .hash = dark_hash,
    .to_text = dark_to_text,
    .from_text = dark_from_text,
    .move_to_text = cb_hook_move_to_text,
    .text_to_move = cb_hook_text_to_move,
    .render = dark_render,
    .eval = dark_eval,
    .heuristic = dark_heuristic,
    .is_noisy = cb_hook_is_noisy,
    .observe = dark_observe,
    .from_view = dark_from_view,
    .determinize = dark_determinize,
    .score = cb_hook_score,
    .check = dark_check,
    .gen_noisy = cb_hook_gen_noisy,
    .layout = dark_layout,
};
