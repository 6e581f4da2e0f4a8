/* gomoku.c — gomoku (free-style: five or more wins; standard: exactly
 * five) and renju (RIF: Black's double-three, double-four and overline are
 * forbidden, Black needs exactly five, White's overline wins), on boards
 * of 5..20 lines, with the old professional opening rule as an option.
 *
 * Forbidden points are not generated: Black cannot play them (the Gomocup
 * convention), so White wins by making a four whose only defence is
 * forbidden, as the rules intend. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "../../core/util.h"
#include "gomoku.h"

static const char *const rule_choices[] = {"freestyle", "standard", "renju",
                                           NULL};
static const char *const opening_choices[] = {"free", "pro", NULL};

static const GameOption gomoku_options[] = {
    {.key = "size", .type = OPT_INT, .def = 15, .min = 5, .max = GK_MAX_SIZE,
     .help = "lines of the square board (15 and 19 are the usual ones; 20 "
             "is the Gomocup's)"},
    {.key = "rule", .type = OPT_CHOICE, .def = GK_FREESTYLE,
     .choices = rule_choices,
     .help = "freestyle: five or more in a row wins; standard: exactly five "
             "(an overline does not win); renju: the renju game's rules"},
    {.key = "opening", .type = OPT_CHOICE, .def = GK_OPEN_FREE,
     .choices = opening_choices,
     .help = "free: any first moves; pro: 1st move at the centre, 2nd "
             "inside the central 3x3, 3rd inside the central 5x5"},
    {.key = NULL},
};

static const GameOption renju_options[] = {
    {.key = "size", .type = OPT_INT, .def = 15, .min = 5, .max = GK_MAX_SIZE,
     .help = "lines of the square board (renju is played on 15)"},
    {.key = "opening", .type = OPT_CHOICE, .def = GK_OPEN_PRO,
     .choices = opening_choices,
     .help = "pro: the old professional rule (1st move at the centre, 2nd "
             "inside the central 3x3, 3rd inside the central 5x5); free: "
             "any first moves"},
    {.key = NULL},
};

static void gk_clear(GkState *s, int size, int rule, int opening)
{
    memset(s, 0, sizeof *s);
    s->size = (uint8_t)size;
    s->rule = (uint8_t)rule;
    s->opening = (uint8_t)opening;
    for (int p = 0; p < GK_CELLS; p++) {
        int x = p % GK_STRIDE, y = p / GK_STRIDE;
        s->cell[p] = (x >= 1 && x <= size && y >= 1 && y <= size)
                     ? GK_EMPTY : GK_WALL;
    }
}

static int gomoku_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    gk_clear(st, opt[0], opt[1], opt[2]);
    return 0;
}

static int renju_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    gk_clear(st, opt[0], GK_RENJU, opt[1]);
    return 0;
}

static int gk_to_move(const void *st)
{
    const GkState *s = st;
    return s->result ? PLAYER_TERMINAL : s->side;
}

static int gk_gen_moves(const void *st, Move *out)
{
    const GkState *s = st;
    if (s->result)
        return 0;
    int n = 0;
    uint8_t scratch[GK_CELLS];
    int renju_black = s->rule == GK_RENJU && s->side == 0;
    if (renju_black)
        memcpy(scratch, s->cell, sizeof scratch);
    for (int y = 1; y <= s->size; y++)
        for (int x = 1; x <= s->size; x++) {
            int p = y * GK_STRIDE + x;
            if (s->cell[p] != GK_EMPTY)
                continue;
            if (s->opening == GK_OPEN_PRO && s->stones < 3 &&
                gk_illegal(s, p))
                continue;
            if (renju_black && gk_forbidden(scratch, p) != GK_OK)
                continue;
            out[n++] = (Move)p;
        }
    return n;
}

/* The game is drawn when the side to move has no move: a full board, or
 * in renju a Black whose every empty point is forbidden. */
static int gk_has_move(const GkState *s)
{
    if (s->stones >= s->size * s->size)
        return 0;
    if (!(s->rule == GK_RENJU && s->side == 0) &&
        !(s->opening == GK_OPEN_PRO && s->stones < 3))
        return 1;
    for (int y = 1; y <= s->size; y++)
        for (int x = 1; x <= s->size; x++)
            if (gk_illegal(s, y * GK_STRIDE + x) == GK_OK)
                return 1;
    return 0;
}

static void gk_make(void *st, Move m)
{
    GkState *s = st;
    int p = (int)m, c = s->side ? GK_WHITE : GK_BLACK;
    s->cell[p] = (uint8_t)c;
    s->key ^= gk_zobrist(p, c);
    s->stones++;
    s->side ^= 1;
    if (gk_makes_five(s, p, c))
        s->result = c == GK_BLACK ? GK_WIN_BLACK : GK_WIN_WHITE;
    else if (!gk_has_move(s))
        s->result = GK_DRAW;
}

static void gk_returns(const void *st, double *out)
{
    const GkState *s = st;
    out[0] = s->result == GK_WIN_BLACK ? 1 : s->result == GK_WIN_WHITE ? -1
                                                                       : 0;
    out[1] = -out[0];
}

static uint64_t gk_hash(const void *st)
{
    const GkState *s = st;
    return s->key ^ (s->side ? 0x7F4A7C159E3779B9ull : 0);
}

/* ---- text ---- */

static int point_text(const GkState *s, int p, char *buf, size_t n)
{
    int x = p % GK_STRIDE, y = p / GK_STRIDE;
    int w = snprintf(buf, n, "%c%d", 'a' + x - 1, s->size + 1 - y);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* "h8" (column letter a.., row 1 at the bottom) or Gomocup's "x,y"
 * (0-based, y = 0 the top row). Returns the cell or -1. */
static int parse_point(const GkState *s, const char *t, PlyError *err)
{
    int x, y;
    const char *q = t;
    while (isspace((unsigned char)*q))
        q++;
    if (isdigit((unsigned char)*q)) {
        char *e;
        long a = strtol(q, &e, 10);
        if (*e != ',')
            return ply_fail(err, "bad point '%s' (h8 or x,y)", t);
        long b = strtol(e + 1, &e, 10);
        while (isspace((unsigned char)*e))
            e++;
        if (*e || !isdigit((unsigned char)e[-1]) || a < 0 || b < 0 ||
            a >= s->size || b >= s->size)
            return ply_fail(err, "bad point '%s' (x,y from 0 to %d)", t,
                            s->size - 1);
        x = (int)a + 1;
        y = (int)b + 1;
    } else {
        int col = tolower((unsigned char)*q) - 'a';
        if (col < 0 || col >= s->size || !isdigit((unsigned char)q[1]))
            return ply_fail(err, "bad point '%s' (a1..%c%d)", t,
                            'a' + s->size - 1, s->size);
        char *e;
        long r = strtol(q + 1, &e, 10);
        while (isspace((unsigned char)*e))
            e++;
        if (*e || r < 1 || r > s->size)
            return ply_fail(err, "bad point '%s' (a1..%c%d)", t,
                            'a' + s->size - 1, s->size);
        x = col + 1;
        y = s->size + 1 - (int)r;
    }
    return y * GK_STRIDE + x;
}

static int gk_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    return point_text(st, (int)m, buf, n);
}

static int gk_text_to_move(const void *st, const char *t, Move *m,
                           PlyError *err)
{
    const GkState *s = st;
    if (s->result)
        return ply_fail(err, "the game is over");
    int p = parse_point(s, t, err);
    if (p < 0)
        return -1;
    if (s->cell[p] != GK_EMPTY)
        return ply_fail(err, "'%s' is not empty", t);
    int why = gk_illegal(s, p);
    if (why < 0)
        return ply_fail(err, "'%s' is outside the opening zone (move %d "
                        "goes inside the central %dx%d)", t, s->stones + 1,
                        2 * s->stones + 1, 2 * s->stones + 1);
    if (why)
        return ply_fail(err, "'%s' is forbidden for Black: %s", t,
                        gk_reason_name(why));
    *m = (Move)p;
    return 0;
}

/* Setup string: the rows from the top down, '/' between them, '.' empty,
 * 'x' Black, 'o' White, then the side to move (b or w). */
static int gk_to_text(const void *st, char *buf, size_t n)
{
    const GkState *s = st;
    size_t len = 0;
    for (int y = 1; y <= s->size; y++) {
        for (int x = 1; x <= s->size; x++) {
            int v = s->cell[y * GK_STRIDE + x];
            if (len + 1 >= n)
                return -1;
            buf[len++] = v == GK_BLACK ? 'x' : v == GK_WHITE ? 'o' : '.';
        }
        if (len + 1 >= n)
            return -1;
        buf[len++] = y < s->size ? '/' : ' ';
    }
    if (len + 2 > n)
        return -1;
    buf[len++] = s->side ? 'w' : 'b';
    buf[len] = 0;
    return (int)len;
}

static int gk_from_text(void *st, const char *t, PlyError *err)
{
    GkState *s = st;
    GkState r;
    gk_clear(&r, s->size, s->rule, s->opening);
    const char *q = t;
    while (isspace((unsigned char)*q))
        q++;
    for (int y = 1; y <= r.size; y++) {
        for (int x = 1; x <= r.size; x++, q++) {
            int p = y * GK_STRIDE + x;
            int c = tolower((unsigned char)*q);
            if (c == 'x' || c == 'o') {
                r.cell[p] = c == 'x' ? GK_BLACK : GK_WHITE;
                r.key ^= gk_zobrist(p, r.cell[p]);
                r.stones++;
            } else if (c != '.') {
                return ply_fail(err, "setup: row %d has %s '%c' (want %d of "
                                "'.', 'x', 'o')", y, *q ? "a bad" : "no",
                                *q ? *q : ' ', r.size);
            }
        }
        if (y < r.size && *q++ != '/')
            return ply_fail(err, "setup: row %d is not %d points long", y,
                            r.size);
    }
    if (!isspace((unsigned char)*q))
        return ply_fail(err, "setup: want %d rows, then b or w", r.size);
    while (isspace((unsigned char)*q))
        q++;
    if ((*q != 'b' && *q != 'w') || q[1])
        return ply_fail(err, "setup: the side to move is b or w, not '%s'",
                        q);
    r.side = *q == 'w';
    int won[3] = {0, 0, 0};
    for (int p = 0; p < GK_CELLS; p++) {
        int c = r.cell[p];
        if (c == GK_BLACK || c == GK_WHITE)
            for (int i = 0; i < 4; i++)
                if (gk_wins(r.rule, c, gk_run(r.cell, p, gk_dir[i], c)))
                    won[c] = 1;
    }
    if (won[GK_BLACK] && won[GK_WHITE])
        return ply_fail(err, "setup: both sides have five in a row");
    if (won[GK_BLACK])
        r.result = GK_WIN_BLACK;
    else if (won[GK_WHITE])
        r.result = GK_WIN_WHITE;
    else if (!gk_has_move(&r))
        r.result = GK_DRAW;
    *s = r;
    return 0;
}

static int gk_render(const void *st, char *buf, size_t n)
{
    const GkState *s = st;
    size_t len = 0;
    for (int y = 1; y <= s->size; y++) {
        PLY_OUT("%3d ", s->size + 1 - y);
        for (int x = 1; x <= s->size; x++) {
            int v = s->cell[y * GK_STRIDE + x];
            PLY_OUT(" %c", v == GK_BLACK ? 'X' : v == GK_WHITE ? 'O' : '.');
        }
        PLY_OUT("\n");
    }
    PLY_OUT("    ");
    for (int x = 1; x <= s->size; x++)
        PLY_OUT(" %c", 'a' + x - 1);
    PLY_OUT("\n");
    return (int)len;
}

/* The board as points on lines (row 1 at the bottom, named as the
 * notation writes them: "h8"), star points drawn as dots (shade dark):
 * the centre and, on 9 lines or more, four points on the 3rd line (on
 * 13 or more, the 4th), as renju and go boards mark them. */
static int is_star(int size, int x, int y)
{
    int c = (size + 1) / 2;
    if (size % 2 && x == c && y == c)
        return 1;
    if (size < 9)
        return 0;
    int e = size >= 13 ? 4 : 3;
    return (x == e || x == size + 1 - e) && (y == e || y == size + 1 - e);
}

static int gk_layout(const void *st, Layout *l)
{
    const GkState *s = st;
    int N = s->size;
    l->width = l->height = (float)N;
    for (int i = 0; i < N; i++) {
        float c = (float)i + 0.5f, e = (float)N - 0.5f;
        layout_line(l, 0.5f, c, e, c);
        layout_line(l, c, 0.5f, c, e);
    }
    for (int y = 1; y <= N; y++)
        for (int x = 1; x <= N; x++) {
            int p = y * GK_STRIDE + x;
            char name[8];
            if (point_text(s, p, name, sizeof name) < 0)
                return -1;
            LayoutCell *c = layout_cell(
                l, (float)x - 0.5f, (float)y - 0.5f, CELL_POINT,
                is_star(N, x, N + 1 - y) ? SHADE_DARK : SHADE_NONE, name);
            int v = s->cell[p];
            if (c && (v == GK_BLACK || v == GK_WHITE)) {
                c->owner = (int8_t)(v - 1);
                snprintf(c->glyph, sizeof c->glyph, "\u25CF");
            }
        }
    return 0;
}

static int gk_check(const void *st)
{
    const GkState *s = st;
    if (s->size < 5 || s->size > GK_MAX_SIZE || s->side > 1 ||
        s->rule > GK_RENJU || s->result > GK_DRAW)
        return -1;
    uint64_t key = 0;
    int stones = 0;
    for (int p = 0; p < GK_CELLS; p++)
        if (s->cell[p] == GK_BLACK || s->cell[p] == GK_WHITE) {
            key ^= gk_zobrist(p, s->cell[p]);
            stones++;
        }
    return key == s->key && stones == s->stones ? 0 : -1;
}

static int gk_plies_left(const void *st)
{
    const GkState *s = st;
    /* games between good players rarely fill a third of the board */
    int left = s->size * s->size / 3 - s->stones;
    return left < 10 ? 10 : left;
}

/* ---- search hooks: the threat detector's shapes ---- */

static const int shape_attack[] = {0, 2, 12, 60, 120, 2000, 100000};
static const int shape_defend[] = {0, 1, 8, 40, 50, 1000, 20000};

/* Any stone within four points of p along a line? */
static int lines_empty(const uint8_t *cell, int p)
{
    for (int i = 0; i < 4; i++) {
        int d = gk_dir[i];
        for (int k = 1, q = p + d; k <= 4 && cell[q] != GK_WALL; k++, q += d)
            if (cell[q] != GK_EMPTY)
                return 0;
        for (int k = 1, q = p - d; k <= 4 && cell[q] != GK_WALL; k++, q -= d)
            if (cell[q] != GK_EMPTY)
                return 0;
    }
    return 1;
}

/* Ordering: what the stone makes for the mover plus what it prevents. */
static int gk_heuristic(const void *st, Move m)
{
    const GkState *s = st;
    if (lines_empty(s->cell, (int)m))
        return 0;
    uint8_t cell[GK_CELLS];
    memcpy(cell, s->cell, sizeof cell);
    int me = s->side ? GK_WHITE : GK_BLACK, op = GK_BLACK + GK_WHITE - me;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        v += shape_attack[gk_shape(cell, s->rule, (int)m, gk_dir[i], me)];
        v += shape_defend[gk_shape(cell, s->rule, (int)m, gk_dir[i], op)];
    }
    return v;
}

/* Evaluation: every window of five points on the board that holds stones
 * of one colour only counts for that colour, more for more stones. */
int gk_eval_board(const GkState *s, int player)
{
    static const int w[6] = {0, 1, 8, 60, 400, 0};
    int v = 0;
    for (int y = 1; y <= s->size; y++)
        for (int x = 1; x <= s->size; x++) {
            int p = y * GK_STRIDE + x;
            for (int i = 0; i < 4; i++) {
                int d = gk_dir[i], e = p + 4 * d;
                int ex = e % GK_STRIDE, ey = e / GK_STRIDE;
                if (e < 0 || e >= GK_CELLS || ex < 1 || ex > s->size ||
                    ey < 1 || ey > s->size)
                    continue;
                int nb = 0, nw = 0;
                for (int k = 0; k < 5; k++) {
                    int c = s->cell[p + k * d];
                    nb += c == GK_BLACK;
                    nw += c == GK_WHITE;
                }
                if (nb && !nw)
                    v += w[nb < 5 ? nb : 4];
                else if (nw && !nb)
                    v -= w[nw < 5 ? nw : 4];
            }
        }
    /* the side to move gets the next stone */
    v += s->side ? -30 : 30;
    return player == 0 ? v : -v;
}

static int gk_eval(const void *st, int player)
{
    int v = gk_eval_board(st, player);
    return v > EVAL_MAX - 1 ? EVAL_MAX - 1 : v < 1 - EVAL_MAX ? 1 - EVAL_MAX
                                                             : v;
}

/* Stones of each colour within four points of p along d (either way):
 * n[GK_BLACK], n[GK_WHITE]. */
static void near_counts(const uint8_t *cell, int p, int d, int *n)
{
    n[GK_BLACK] = n[GK_WHITE] = 0;
    for (int k = 1, q = p + d; k <= 4 && cell[q] != GK_WALL; k++, q += d)
        n[cell[q]]++;
    for (int k = 1, q = p - d; k <= 4 && cell[q] != GK_WALL; k++, q -= d)
        n[cell[q]]++;
}

/* Noisy: a four or a five of one's own, or the block of the opponent's
 * five. A four needs three more own stones within four points on its
 * line, a five to block four of the opponent's: cheap counts first. */
static int gk_is_noisy(const void *st, Move m)
{
    const GkState *s = st;
    int p = (int)m;
    int me = s->side ? GK_WHITE : GK_BLACK, op = GK_BLACK + GK_WHITE - me;
    uint8_t cell[GK_CELLS];
    int copied = 0;
    for (int i = 0; i < 4; i++) {
        int d = gk_dir[i], cnt[4];
        near_counts(s->cell, p, d, cnt);
        int mine = cnt[me], theirs = cnt[op];
        if (mine < 3 && theirs < 4)
            continue;
        if (!copied) {
            memcpy(cell, s->cell, sizeof cell);
            copied = 1;
        }
        if ((mine >= 3 && gk_shape(cell, s->rule, p, d, me) >= SH_FOUR) ||
            (theirs >= 4 && gk_shape(cell, s->rule, p, d, op) == SH_FIVE))
            return 1;
    }
    return 0;
}

/* The Gomocup (Piskvork) protocol: moves go on the wire as x,y, which
 * text_to_move reads; the variant lists the Gomocup rule numbers (INFO
 * rule) of the rule option's choices in order (freestyle 0, standard 1,
 * renju 4), or renju's one rule. */
static const GameFormat gomoku_format_gomocup = {
    .name = "gomocup", .variant = "0,1,4", .flags = FORMAT_NATIVE,
};
static const GameFormat renju_format_gomocup = {
    .name = "gomocup", .variant = "4",
};
static const GameFormat *const gomoku_formats[] = {
    &gk_format_sgf, &gomoku_format_gomocup, NULL};
static const GameFormat *const renju_formats[] = {
    &gk_format_sgf, &renju_format_gomocup, NULL};

/* The noisy moves without asking every point: a noisy point lies in a
 * window of five points holding three or more of the mover's stones and
 * none of the opponent's (a four or a five), or four of the opponent's
 * and none of the mover's (blocking a five). Those points are checked
 * with gk_is_noisy and the rules, in gen_moves order. */
static int gk_gen_noisy(const void *st, Move *out)
{
    const GkState *s = st;
    if (s->result)
        return 0;
    int me = s->side ? GK_WHITE : GK_BLACK, op = GK_BLACK + GK_WHITE - me;
    uint8_t mark[GK_CELLS];
    memset(mark, 0, sizeof mark);
    int any = 0;
    for (int y = 1; y <= s->size; y++)
        for (int x = 1; x <= s->size; x++) {
            int p = y * GK_STRIDE + x;
            for (int i = 0; i < 4; i++) {
                int d = gk_dir[i], e = p + 4 * d;
                int ex = e % GK_STRIDE, ey = e / GK_STRIDE;
                if (e < 0 || e >= GK_CELLS || ex < 1 || ex > s->size ||
                    ey < 1 || ey > s->size)
                    continue;
                int cnt[4] = {0, 0, 0, 0};
                for (int k = 0; k < 5; k++)
                    cnt[s->cell[p + k * d]]++;
                if ((cnt[me] >= 3 && !cnt[op]) || (cnt[op] >= 4 && !cnt[me]))
                    for (int k = 0; k < 5; k++)
                        if (s->cell[p + k * d] == GK_EMPTY)
                            mark[p + k * d] = 1, any = 1;
            }
        }
    int n = 0;
    for (int p = 0; any && p < GK_CELLS; p++)
        if (mark[p] && gk_illegal(s, p) == GK_OK && gk_is_noisy(s, (Move)p))
            out[n++] = (Move)p;
    return n;
}

static const char *const gk_players[] = {"Black", "White"};

#define GK_NOTATION                                                       \
    "A move is a point: its column letter a.. and row number 1.. from\n"  \
    "the bottom (h8 is the centre of 15x15), or Gomocup's x,y (0-based,\n" \
    "y = 0 the top row: 7,7 is h8 on 15x15). Setup string: the rows from\n"\
    "the top down, '/' between them, '.' empty, 'x' Black, 'o' White,\n"   \
    "then b or w (to move), e.g. on 5x5: ...../..x../...../...../..... w.\n"\
    "Records: SGF GM[4] (ply record --to sgf)."

const GameVtbl game_gomoku = {
    .info = {
        .name = "gomoku",
        .title = "Gomoku (five in a row)",
        .num_players = 2,
        .max_moves = GK_MAX_SIZE * GK_MAX_SIZE,
        .max_game_length = GK_MAX_SIZE * GK_MAX_SIZE,
        .state_size = sizeof(GkState),
        .flags = GAME_ZERO_SUM,
        .player_names = gk_players,
        .options = gomoku_options,
        .notation = GK_NOTATION,
        .rules =
            "Black and White take turns to place a stone of their colour on\n"
            "an empty point, Black first. Five in a row (horizontal,\n"
            "vertical or diagonal) wins: rule=freestyle counts five or more,\n"
            "rule=standard exactly five (an overline of six or more does not\n"
            "win but may be played); rule=renju plays the renju game's\n"
            "rules. A full board is a draw. opening=pro restricts the first\n"
            "three moves to the centre, the central 3x3 and the central 5x5.",
        .default_bot = "gomoku",
    },
    .formats = gomoku_formats,
    .init = gomoku_init,
    .to_move = gk_to_move,
    .gen_moves = gk_gen_moves,
    .make = gk_make,
    .returns = gk_returns,
    .hash = gk_hash,
    .to_text = gk_to_text,
    .from_text = gk_from_text,
    .move_to_text = gk_move_to_text,
    .text_to_move = gk_text_to_move,
    .render = gk_render,
    .layout = gk_layout,
    .eval = gk_eval,
    .heuristic = gk_heuristic,
    .is_noisy = gk_is_noisy,
    .gen_noisy = gk_gen_noisy,
    .check = gk_check,
    .plies_left = gk_plies_left,
};

const GameVtbl game_renju = {
    .info = {
        .name = "renju",
        .title = "Renju (RIF rules)",
        .num_players = 2,
        .max_moves = GK_MAX_SIZE * GK_MAX_SIZE,
        .max_game_length = GK_MAX_SIZE * GK_MAX_SIZE,
        .state_size = sizeof(GkState),
        .flags = GAME_ZERO_SUM,
        .player_names = gk_players,
        .options = renju_options,
        .notation = GK_NOTATION,
        .rules =
            "Renju under the RIF rules on 15x15: Black and White take turns\n"
            "to place a stone, Black first. White wins with five or more in\n"
            "a row; Black wins with exactly five. Black may not play a\n"
            "double-three, a double-four (also two fours in one line,\n"
            "X.XXX.X) or an overline, unless the same stone makes a five,\n"
            "which takes precedence. A three is a row to which one more\n"
            "stone, itself not forbidden, makes a straight four (checked\n"
            "recursively, 8 levels deep); a straight four is an unbroken\n"
            "four with two points that each make exactly five. Forbidden\n"
            "points are not offered to Black (the Gomocup convention), so\n"
            "White wins by a four whose only defence is forbidden. A full\n"
            "board, or a Black with only forbidden points, is a draw.\n"
            "opening=pro (the default) is the old professional rule: move 1\n"
            "at the centre, move 2 inside the central 3x3, move 3 inside the\n"
            "central 5x5; opening=free lifts it.",
        .default_bot = "gomoku",
    },
    .formats = renju_formats,
    .init = renju_init,
    .to_move = gk_to_move,
    .gen_moves = gk_gen_moves,
    .make = gk_make,
    .returns = gk_returns,
    .hash = gk_hash,
    .to_text = gk_to_text,
    .from_text = gk_from_text,
    .move_to_text = gk_move_to_text,
    .text_to_move = gk_text_to_move,
    .render = gk_render,
    .layout = gk_layout,
    .eval = gk_eval,
    .heuristic = gk_heuristic,
    .is_noisy = gk_is_noisy,
    .gen_noisy = gk_gen_noisy,
    .check = gk_check,
    .plies_left = gk_plies_left,
};
