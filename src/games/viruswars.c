/* viruswars.c — Virus Wars (Война вирусов), the Leningrad paper-and-pencil
 * game: on a square board two colonies grow and absorb each other.
 *
 * A turn is `steps` steps (3 by default), each one move of Ply's
 * interface: the same player moves again until the turn is done. A step
 * puts a live virus on an empty accessible cell, or turns an accessible
 * enemy live virus into the mover's zombie (permanent, never taken again).
 * A cell is accessible when it touches (8 directions) one of the mover's
 * live viruses, or one of his zombies joined to one of his live viruses
 * through a chain of his zombies (8-connected). A player who cannot make a
 * step loses; so does a player left without a live virus.
 *
 * Cells: sq = row * size + col, a1 = 0 (bottom left). Contents: 0 empty, 1 Blue live,
 * 2 Red live, 3 Blue's zombie (a killed Red virus), 4 Red's zombie. A move
 * is the cell. The state counts each side's live viruses and zombies.
 *
 * Every step fills an empty cell or turns a live virus into a zombie, so
 * a game lasts at most 2 * size * size steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"

enum { VW_MAXS = 16, VW_MAXN = VW_MAXS * VW_MAXS,
       VW_MAX_PLIES = 2 * VW_MAXN + 2 };
enum { EMPTY = 0, LIVE0 = 1, LIVE1 = 2, ZOMB0 = 3, ZOMB1 = 4 };
enum { END_NONE, END_WIPED, END_STUCK };
enum { CHAIN_LIVE, CHAIN_DAGAZ };

typedef struct VirusWars {
    uint8_t cell[VW_MAXN];
    uint8_t size, steps, chain;
    uint8_t side, left, over, winner;
    uint16_t live[2], zomb[2];
    uint16_t ply;
} VirusWars;

static int owner(int c) { return c ? (c - 1) & 1 : -1; }
static int is_live(int c) { return c == LIVE0 || c == LIVE1; }

/* The cells from which side reaches out: his live viruses and (rule
 * `chain`) his zombies joined to them, or (Dagaz) all his pieces. */
static void active_cells(const VirusWars *v, int side, uint8_t *act)
{
    int s = v->size, n = s * s;
    int queue[VW_MAXN], head = 0, tail = 0;
    memset(act, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        int c = v->cell[i];
        if (c == LIVE0 + side || (v->chain == CHAIN_DAGAZ &&
                                  c == ZOMB0 + side)) {
            act[i] = 1;
            queue[tail++] = i;
        }
    }
    if (v->chain == CHAIN_DAGAZ)
        return;
    while (head < tail) {
        int i = queue[head++], r = i / s, col = i % s;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++) {
                int rr = r + dr, cc = col + dc;
                if (rr < 0 || rr >= s || cc < 0 || cc >= s)
                    continue;
                int j = rr * s + cc;
                if (!act[j] && v->cell[j] == ZOMB0 + side) {
                    act[j] = 1;
                    queue[tail++] = j;
                }
            }
    }
}

/* Marks (acc[i] = 1) the cells side may step on; returns their count. */
static int accessible(const VirusWars *v, int side, uint8_t *acc)
{
    int s = v->size, n = s * s, count = 0;
    uint8_t act[VW_MAXN];
    active_cells(v, side, act);
    memset(acc, 0, (size_t)n);
    int enemy = LIVE0 + !side;
    for (int i = 0; i < n; i++) {
        if (!act[i])
            continue;
        int r = i / s, col = i % s;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++) {
                int rr = r + dr, cc = col + dc;
                if (rr < 0 || rr >= s || cc < 0 || cc >= s)
                    continue;
                int j = rr * s + cc, c = v->cell[j];
                if (!acc[j] && (c == EMPTY || c == enemy)) {
                    acc[j] = 1;
                    count++;
                }
            }
    }
    return count;
}

static int gen(const VirusWars *v, Move *out)
{
    uint8_t acc[VW_MAXN];
    if (!accessible(v, v->side, acc))
        return 0;
    int n = 0;
    for (int i = 0; i < v->size * v->size; i++)
        if (acc[i])
            out[n++] = (Move)i;
    return n;
}

static void recount(VirusWars *v)
{
    v->live[0] = v->live[1] = v->zomb[0] = v->zomb[1] = 0;
    for (int i = 0; i < v->size * v->size; i++) {
        int c = v->cell[i];
        if (is_live(c))
            v->live[owner(c)]++;
        else if (c)
            v->zomb[owner(c)]++;
    }
}

static void check_end(VirusWars *v)
{
    v->over = END_NONE;
    for (int p = 0; p < 2; p++)
        if (!v->live[p]) {
            v->over = END_WIPED;
            v->winner = (uint8_t)!p;
            return;
        }
    uint8_t acc[VW_MAXN];
    if (!accessible(v, v->side, acc)) {
        v->over = END_STUCK;
        v->winner = (uint8_t)!v->side;
    }
}

static const char *const first_choices[] = {"one", "full", NULL};
static const char *const chain_choices[] = {"live", "dagaz", NULL};

static const GameOption vw_options[] = {
    {.key = "size", .type = OPT_INT, .def = 10, .min = 5, .max = VW_MAXS,
     .help = "board side (10 as Zillions/Dagaz/Yandex; PAPG 8, "
             "iggamecenter 11, 13, 15)"},
    {.key = "steps", .type = OPT_INT, .def = 3, .min = 1, .max = 9,
     .help = "steps per turn (3; iggamecenter plays 5)"},
    {.key = "first", .type = OPT_CHOICE, .def = 0, .choices = first_choices,
     .help = "the first player's first turn: one step (PAPG, botpot) or "
             "full (Dagaz)"},
    {.key = "chain", .type = OPT_CHOICE, .def = CHAIN_LIVE,
     .choices = chain_choices,
     .help = "live: a zombie reaches out only when a chain of zombies joins "
             "it to a live virus; dagaz: every own piece reaches out"},
    {.key = NULL},
};

static int vw_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    VirusWars *v = st;
    memset(v, 0, sizeof *v);
    v->size = (uint8_t)opt[0];
    v->steps = (uint8_t)opt[1];
    v->chain = (uint8_t)opt[3];
    int s = v->size;
    v->cell[s - 1] = LIVE0;         /* j1 on 10x10, as Zillions/Dagaz */
    v->cell[(s - 1) * s] = LIVE1;   /* a10 */
    v->side = 0;
    v->left = opt[2] == 0 ? 1 : v->steps;
    recount(v);
    check_end(v);
    return 0;
}

static int vw_to_move(const void *st)
{
    const VirusWars *v = st;
    return v->over ? PLAYER_TERMINAL : v->side;
}

static int vw_gen_moves(const void *st, Move *out)
{
    const VirusWars *v = st;
    return v->over ? 0 : gen(v, out);
}

static void vw_make(void *st, Move m)
{
    VirusWars *v = st;
    int i = (int)m, me = v->side;
    if (v->cell[i] == EMPTY) {
        v->cell[i] = (uint8_t)(LIVE0 + me);
        v->live[me]++;
    } else {
        v->cell[i] = (uint8_t)(ZOMB0 + me);
        v->live[!me]--;
        v->zomb[me]++;
    }
    v->ply++;
    if (--v->left == 0) {
        v->side = (uint8_t)!me;
        v->left = v->steps;
    }
    check_end(v);
}

static void vw_returns(const void *st, double *out)
{
    const VirusWars *v = st;
    out[0] = out[1] = 0;
    if (v->over) {
        out[v->winner] = 1;
        out[!v->winner] = -1;
    }
}

static uint64_t vw_hash(const void *st)
{
    const VirusWars *v = st;
    uint64_t h = ply_mix64(v->side + 2u * v->left + 64u * (v->over != 0));
    for (int i = 0; i < v->size * v->size; i++)
        if (v->cell[i])
            h ^= ply_mix64((uint64_t)i * 8 + v->cell[i] + 0x7a11);
    return h;
}

static const char cell_chars[] = ".BRbr";

/* Setup: rows from the top down separated by '/', one character a cell:
 * '.' empty, B and R live viruses, b a zombie of Blue's (a killed Red
 * virus), r a zombie of Red's; then b or r to move and the steps left in
 * this turn. */
static int vw_to_text(const void *st, char *buf, size_t n)
{
    const VirusWars *v = st;
    char tmp[VW_MAXN + VW_MAXS + 16];
    size_t len = 0;
    int s = v->size;
    for (int r = s - 1; r >= 0; r--) {
        for (int c = 0; c < s; c++)
            tmp[len++] = cell_chars[v->cell[r * s + c]];
        if (r)
            tmp[len++] = '/';
    }
    tmp[len] = 0;
    int w = snprintf(buf, n, "%s %c %d", tmp, v->side ? 'r' : 'b', v->left);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int vw_from_text(void *st, const char *s, PlyError *err)
{
    VirusWars *v = st, t = *v;
    int size = t.size, r = size - 1, c = 0;
    memset(t.cell, 0, sizeof t.cell);
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (c != size)
                return ply_fail(err, "row %d has %d cells, not %d", r + 1, c,
                                size);
            if (--r < 0)
                return ply_fail(err, "more than %d rows", size);
            c = 0;
            continue;
        }
        const char *p = strchr(cell_chars, *s);
        if (!p || !*s)
            return ply_fail(err, "unknown cell '%c' (. B R b r)", *s);
        if (c >= size)
            return ply_fail(err, "row %d has more than %d cells", r + 1,
                            size);
        t.cell[r * size + c] = (uint8_t)(p - cell_chars);
        c++;
    }
    if (r != 0 || c != size)
        return ply_fail(err, "expected %d rows of %d cells (option size)",
                        size, size);
    if (*s != ' ' || (s[1] != 'b' && s[1] != 'r'))
        return ply_fail(err, "expected ' b' or ' r' (side to move)");
    t.side = s[1] == 'r';
    s += 2;
    t.left = t.steps;
    if (*s == ' ') {
        if (s[1] < '1' || s[1] > '9' || (s[2] && s[2] != ' '))
            return ply_fail(err, "expected the steps left, 1..%d", t.steps);
        t.left = (uint8_t)(s[1] - '0');
        if (t.left > t.steps)
            return ply_fail(err, "%d steps left, but a turn has %d", t.left,
                            t.steps);
        s += 2;
    }
    if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    t.ply = 0;
    recount(&t);
    check_end(&t);
    *v = t;
    return 0;
}

static int vw_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const VirusWars *v = st;
    int i = (int)m;
    int w = snprintf(buf, n, "%c%d", 'a' + i % v->size, i / v->size + 1);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int vw_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const VirusWars *v = st;
    if (v->over)
        return ply_fail(err, "the game is over");
    int size = v->size;
    char *end;
    if (s[0] < 'a' || s[0] >= 'a' + size || s[1] < '1' || s[1] > '9')
        return ply_fail(err, "a virus wars move is a cell a1..%c%d, not "
                        "'%s'", 'a' + size - 1, size, s);
    long row = strtol(s + 1, &end, 10);
    if (*end || row < 1 || row > size || (s[1] == '0'))
        return ply_fail(err, "a virus wars move is a cell a1..%c%d, not "
                        "'%s'", 'a' + size - 1, size, s);
    int i = (int)(row - 1) * size + (s[0] - 'a');
    uint8_t acc[VW_MAXN];
    accessible(v, v->side, acc);
    if (acc[i]) {
        *m = (Move)i;
        return 0;
    }
    int c = v->cell[i];
    if (c && !is_live(c))
        return ply_fail(err, "%s: a zombie is never taken", s);
    if (c && owner(c) == v->side)
        return ply_fail(err, "%s: your own virus is there", s);
    return ply_fail(err, "%s is out of reach: not next to your live viruses "
                    "or a chain of your zombies joined to them", s);
}

static int vw_render(const void *st, char *buf, size_t n)
{
    const VirusWars *v = st;
    int s = v->size;
    size_t len = 0;
    for (int r = s - 1; r >= -1; r--) {
        char line[80];
        int k = 0;
        if (r < 0) {
            k = snprintf(line, sizeof line, "   ");
            for (int c = 0; c < s; c++) {
                line[k++] = (char)('a' + c);
                line[k++] = c < s - 1 ? ' ' : '\n';
            }
        } else {
            k = snprintf(line, sizeof line, "%2d ", r + 1);
            for (int c = 0; c < s; c++) {
                line[k++] = cell_chars[v->cell[r * s + c]];
                line[k++] = c < s - 1 ? ' ' : '\n';
            }
        }
        if (len + (size_t)k >= n)
            return -1;
        memcpy(buf + len, line, (size_t)k);
        len += (size_t)k;
    }
    int w = v->over
        ? snprintf(buf + len, n - len, "%s wins (%s)\n",
                   v->winner ? "Red" : "Blue",
                   v->over == END_WIPED ? "no live virus left"
                                        : "no step left")
        : snprintf(buf + len, n - len, "%s to move, %d step%s left; live "
                   "%d-%d, zombies %d-%d\n", v->side ? "Red" : "Blue",
                   v->left, v->left == 1 ? "" : "s", v->live[0], v->live[1],
                   v->zomb[0], v->zomb[1]);
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)len + w;
}

static int vw_layout(const void *st, Layout *l)
{
    const VirusWars *v = st;
    int s = v->size;
    l->width = (float)s;
    l->height = (float)s;
    for (int r = s - 1; r >= 0; r--)
        for (int c = 0; c < s; c++) {
            int x = v->cell[r * s + c];
            char name[16];
            snprintf(name, sizeof name, "%c%d", 'a' + c, r + 1);
            LayoutCell *lc = layout_cell(l, (float)c + 0.5f,
                                         (float)(s - 1 - r) + 0.5f,
                                         CELL_SQUARE, SHADE_LIGHT, name);
            if (!lc)
                return -1;
            if (x) {
                lc->owner = (int8_t)owner(x);
                /* live: a disc; zombie: a cross on a dark cell */
                snprintf(lc->glyph, sizeof lc->glyph, "%s",
                         is_live(x) ? "\u25CF" : "\u2716");
                if (!is_live(x))
                    lc->shade = SHADE_DARK;
            }
        }
    return 0;
}

static const char *vw_end_reason(const void *st)
{
    const VirusWars *v = st;
    return v->over == END_WIPED ? "no live virus left"
         : v->over == END_STUCK ? "no step left" : NULL;
}

/* ---- evaluation ----
 * What decides the game is room: the player who runs out of steps loses.
 * So the evaluation counts, for each side, the cells it can reach now
 * (its accessible cells), its zombies (permanent: they hold ground and
 * extend reach, and cost the opponent a virus), its live viruses, and
 * how many of its live viruses the opponent can reach (they are what
 * he will absorb next). The side to move gets the steps it has left. A
 * side that reaches nothing cannot move at its turn. A linear form over
 * named features (`ply info virus-wars`), tunable with `ply tune`
 * (docs/tuning.md): each side's features, weighted, the player's less
 * the opponent's. */
enum { F_REACH, F_ZOMB, F_LIVE, F_EXPOSED, F_STEP, F_NOREACH, VW_NW };
static const char *const vw_names[VW_NW] = {
    "reach", "zombie", "live", "live.exposed", "steps.left", "reach.none",
};
static const int vw_weights[VW_NW] = {6, 40, 8, -14, 30, -2000};

/* The features of both sides: f[side][weight]. */
static void vw_features(const VirusWars *v, int f[2][VW_NW])
{
    int n = v->size * v->size;
    uint8_t acc[2][VW_MAXN];
    memset(f, 0, sizeof(int) * 2 * VW_NW);
    for (int p = 0; p < 2; p++)
        f[p][F_REACH] = accessible(v, p, acc[p]);
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < n; i++)
            f[p][F_EXPOSED] += v->cell[i] == LIVE0 + p && acc[!p][i];
        f[p][F_ZOMB] = v->zomb[p];
        f[p][F_LIVE] = v->live[p];
        f[p][F_NOREACH] = !f[p][F_REACH];
    }
    f[v->side][F_STEP] = v->left;
}

static int vw_eval(const void *st, int player)
{
    int f[2][VW_NW];
    vw_features(st, f);
    return evalform_value(vw_weights, f[player], f[!player], VW_NW);
}

/* The terms from player 0's view. */
static int vw_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][VW_NW];
    *base = 0;
    vw_features(st, f);
    return evalform_terms(f[0], f[1], VW_NW, out);
}

static const EvalTuning vw_tuning = {
    .nparams = VW_NW, .names = vw_names, .weights = vw_weights,
    .terms = vw_terms,
};

/* Kills first, then generations towards the enemy. (No is_noisy hook:
 * late in a game nearly every step can kill, and a quiescence search over
 * kills, three steps a turn, does not finish depth 1 in time.) */
static int vw_heuristic(const void *st, Move m)
{
    const VirusWars *v = st;
    int i = (int)m, s = v->size, me = v->side;
    if (v->cell[i] == LIVE0 + !me)
        return 1000 + (v->live[!me] == 1 ? 10000 : 0);
    /* distance to the nearest enemy live virus, Chebyshev */
    int r = i / s, c = i % s, best = 99;
    for (int j = 0; j < s * s; j++)
        if (v->cell[j] == LIVE0 + !me) {
            int dr = abs(j / s - r), dc = abs(j % s - c);
            int d = dr > dc ? dr : dc;
            if (d < best)
                best = d;
        }
    return 100 - best;
}

static int vw_score(const void *st, int player)
{
    const VirusWars *v = st;
    return v->live[player] + v->zomb[player];
}

static int vw_check(const void *st)
{
    VirusWars v = *(const VirusWars *)st;
    if (v.side > 1 || v.size < 5 || v.size > VW_MAXS || v.left < 1 ||
        v.left > v.steps)
        return -1;
    for (int i = 0; i < v.size * v.size; i++)
        if (v.cell[i] > ZOMB1)
            return -1;
    uint16_t live[2] = {v.live[0], v.live[1]};
    uint16_t zomb[2] = {v.zomb[0], v.zomb[1]};
    recount(&v);
    return memcmp(live, v.live, sizeof live) ||
           memcmp(zomb, v.zomb, sizeof zomb) ? -1 : 0;
}

static int vw_plies_left(const void *st)
{
    const VirusWars *v = st;
    int empty = v->size * v->size - v->live[0] - v->live[1] - v->zomb[0] -
                v->zomb[1];
    return empty / 2 + 6;
}

static const char *const vw_players[] = {"Blue", "Red"};

const GameVtbl game_virus_wars = {
    .info = {
        .name = "virus-wars",
        .title = "Virus Wars (Voina virusov)",
        .num_players = 2,
        .max_moves = VW_MAXN,
        .max_game_length = VW_MAX_PLIES,
        .state_size = sizeof(VirusWars),
        .flags = GAME_ZERO_SUM,
        .player_names = vw_players,
        .options = vw_options,
        .default_bot = "alphabeta",
        .notation =
            "A move is one step: the cell, a1 at the bottom left, files\n"
            "from a, rows from 1: e5. A turn is several moves by the same\n"
            "player. Setup string: rows from the top down separated by\n"
            "'/', one character a cell: '.' empty, B Blue's and R Red's\n"
            "live viruses, b a zombie of Blue's, r a zombie of Red's; then\n"
            "b or r to move and optionally the steps left in the turn; the\n"
            "start, first=one: R........./ (8 rows of ..........) /.........B b 1.",
        .rules =
            "Virus Wars on a size x size board (default 10x10). Blue starts\n"
            "with a live virus in the bottom right corner (j1), Red in the\n"
            "top left (a10), as Zillions and Dagaz; Blue moves first. A\n"
            "turn is `steps` steps (default 3; iggamecenter 5); the\n"
            "first player's first turn is a single step (first=one, PAPG and\n"
            "botpot; first=full plays it in full, as Dagaz). A step either\n"
            "puts a live virus on an empty accessible cell, or absorbs an\n"
            "accessible enemy live virus, which becomes the mover's zombie\n"
            "for good (zombies are never taken). A cell is accessible when\n"
            "it touches, in any of 8 directions, one of the mover's live\n"
            "viruses, or one of his zombies joined to one of his live\n"
            "viruses by a chain of his zombies (8-connected); pieces placed\n"
            "earlier in the turn count. chain=dagaz: every own piece, live\n"
            "or zombie, reaches out, joined or not (Dagaz's reading). A\n"
            "player who cannot make a required step loses; a player left\n"
            "without live viruses loses at once. Not played: the free start\n"
            "on the edges (iggamecenter) and botpot's fog.",
    },
    .init = vw_init,
    .to_move = vw_to_move,
    .gen_moves = vw_gen_moves,
    .make = vw_make,
    .returns = vw_returns,
    .hash = vw_hash,
    .to_text = vw_to_text,
    .from_text = vw_from_text,
    .move_to_text = vw_move_to_text,
    .text_to_move = vw_text_to_move,
    .render = vw_render,
    .eval = vw_eval,
    .tuning = &vw_tuning,
    .heuristic = vw_heuristic,
    .score = vw_score,
    .check = vw_check,
    .plies_left = vw_plies_left,
    .layout = vw_layout,
    .end_reason = vw_end_reason,
};
