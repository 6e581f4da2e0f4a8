/* apocalypse.c — Apocalypse (C. S. Elliott, 1976): chess knights and pawns
 * on 5x5, both players moving at once.
 *
 * Simultaneous moves are modelled as two hidden sequential choices: White
 * declares a move (kept in the state, unseen by Black), then Black
 * declares, and the two are resolved together. Black's observation erases
 * White's declaration and determinize() samples it from White's possible
 * declarations, so every information-set bot plays it honestly.
 *
 * Squares: index rank * 5 + file, a1 = 0, rank 1 at White's side. A
 * declaration is from | to << 5 (| SPEC when it is a footman's diagonal
 * step onto an empty square, legal only if an enemy piece arrives there);
 * a redeployment is to | REDEPLOY. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evalform.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/setup.h"
#include "../core/util.h"

enum { AP_N = 5, AP_SQ = 25, AP_MAXN = 200, AP_TURNS = 100,
       AP_MAX_PLIES = 4 * AP_TURNS + 4 };
enum { EMPTY, WF, WH, BF, BH };     /* footman, horseman of White, Black */
enum { PH_WHITE, PH_BLACK, PH_WREDEPLOY, PH_BREDEPLOY, PH_OVER };
enum { SPEC = 1u << 10, REDEPLOY = 1u << 11 };
enum { ILLEGAL_PENALTY, ILLEGAL_FORBID };
enum { GOAL_FOOTMEN, GOAL_HORSEMEN };
enum { LAST_ILLEGAL, LAST_LOSES };
enum { END_NONE, END_GOAL, END_BOTH_GONE, END_PENALTY, END_STALEMATE,
       END_TURNS };

typedef struct Apoc {
    uint8_t sq[AP_SQ];
    uint8_t phase;
    uint8_t hidden;         /* an observation: White's declaration unknown */
    uint8_t pen[2];         /* penalty points */
    uint8_t reason;         /* END_* once over */
    int8_t result;          /* White's result once over: 1, 0, -1 */
    uint8_t illegal, goal, lastpawn;    /* options */
    uint16_t pending;       /* White's declaration in PH_BLACK */
    uint16_t turn;          /* turns resolved */
} Apoc;

static const char *const ap_players[] = {"White", "Black"};
static const char *const illegal_choices[] = {"penalty", "forbid", NULL};
static const char *const goal_choices[] = {"footmen", "horsemen", NULL};
static const char *const last_choices[] = {"illegal", "loses", NULL};

static const GameOption ap_options[] = {
    {.key = "illegal", .type = OPT_CHOICE, .def = ILLEGAL_PENALTY,
     .choices = illegal_choices, .help =
     "penalty: a footman may also declare a diagonal step onto an empty "
     "square an enemy piece could reach, legal only if one arrives there; "
     "otherwise it is not played and costs a penalty point, two lose "
     "(Wikipedia); forbid: only moves legal on the board (Dagaz)"},
    {.key = "goal", .type = OPT_CHOICE, .def = GOAL_FOOTMEN,
     .choices = goal_choices, .help =
     "footmen: a side left without footmen loses (Wikipedia, vchess); "
     "horsemen: without horsemen (Dagaz)"},
    {.key = "lastpawn", .type = OPT_CHOICE, .def = LAST_ILLEGAL,
     .choices = last_choices, .help =
     "illegal: a side with fewer than two horsemen may not take its only "
     "footman to the last rank (Wikipedia); loses: it may, and loses by "
     "it (vchess)"},
    {.key = NULL},
};

static int owner(int c) { return (c - 1) / 2; }
static int is_horse(int c) { return c == WH || c == BH; }
static int footman_of(int p) { return p ? BF : WF; }
static int horse_of(int p) { return p ? BH : WH; }
static int last_rank(int p) { return p ? 0 : AP_N - 1; }

static int count(const Apoc *a, int c)
{
    int n = 0;
    for (int i = 0; i < AP_SQ; i++)
        n += a->sq[i] == c;
    return n;
}

static const int kdr[8] = {1, 2, 2, 1, -1, -2, -2, -1};
static const int kdf[8] = {2, 1, -1, -2, -2, -1, 1, 2};

/* The moves legal on the board for p (no speculation), or with reach set,
 * also the speculative diagonals onto squares in reach. */
static int ap_declarations(const Apoc *a, int p, const uint8_t *reach,
                           Move *out)
{
    int n = 0, dir = p ? -1 : 1;
    int last_guard = a->lastpawn == LAST_ILLEGAL &&
                     count(a, footman_of(p)) == 1 &&
                     count(a, horse_of(p)) < 2;
    for (int s = 0; s < AP_SQ; s++) {
        int c = a->sq[s];
        if (c == EMPTY || owner(c) != p)
            continue;
        int r = s / AP_N, f = s % AP_N;
        if (is_horse(c)) {
            for (int k = 0; k < 8; k++) {
                int r2 = r + kdr[k], f2 = f + kdf[k];
                if (r2 < 0 || r2 >= AP_N || f2 < 0 || f2 >= AP_N)
                    continue;
                int t = r2 * AP_N + f2;
                if (a->sq[t] == EMPTY || owner(a->sq[t]) != p)
                    out[n++] = (Move)(s | t << 5);
            }
            continue;
        }
        int r2 = r + dir;
        if (r2 < 0 || r2 >= AP_N)
            continue;       /* never on the board: promoted at once */
        if (last_guard && r2 == last_rank(p))
            continue;
        for (int df = -1; df <= 1; df++) {
            int f2 = f + df;
            if (f2 < 0 || f2 >= AP_N)
                continue;
            int t = r2 * AP_N + f2, tc = a->sq[t];
            if (df == 0) {
                if (tc == EMPTY)
                    out[n++] = (Move)(s | t << 5);
            } else if (tc != EMPTY) {
                if (owner(tc) != p)
                    out[n++] = (Move)(s | t << 5);
            } else if (reach && reach[t]) {
                out[n++] = (Move)(s | t << 5 | SPEC);
            }
        }
    }
    return n;
}

static int ap_declare(const Apoc *a, int p, Move *out)
{
    if (a->illegal == ILLEGAL_FORBID)
        return ap_declarations(a, p, NULL, out);
    Move tmp[AP_MAXN];
    uint8_t reach[AP_SQ] = {0};
    int k = ap_declarations(a, !p, NULL, tmp);
    for (int i = 0; i < k; i++)
        reach[(tmp[i] >> 5) & 31] = 1;
    return ap_declarations(a, p, reach, out);
}

static int redeploy_phase(const Apoc *a)
{
    for (int f = 0; f < AP_N; f++)
        if (a->sq[last_rank(0) * AP_N + f] == WF)
            return PH_WREDEPLOY;
    for (int f = 0; f < AP_N; f++)
        if (a->sq[last_rank(1) * AP_N + f] == BF)
            return PH_BREDEPLOY;
    return PH_WHITE;
}

static void finish(Apoc *a, int result, int reason)
{
    a->phase = PH_OVER;
    a->result = (int8_t)result;
    a->reason = (uint8_t)reason;
}

/* A new turn begins (no redeployment due): is the game over? */
static void end_check(Apoc *a)
{
    a->phase = PH_WHITE;
    int lose0 = a->pen[0] >= 2, lose1 = a->pen[1] >= 2;
    if (lose0 || lose1) {
        finish(a, lose0 && lose1 ? 0 : lose0 ? -1 : 1, END_PENALTY);
        return;
    }
    int c0 = a->goal == GOAL_FOOTMEN ? count(a, WF) : count(a, WH);
    int c1 = a->goal == GOAL_FOOTMEN ? count(a, BF) : count(a, BH);
    if (!c0 || !c1) {
        finish(a, !c0 && !c1 ? 0 : !c0 ? -1 : 1,
               !c0 && !c1 ? END_BOTH_GONE : END_GOAL);
        return;
    }
    if (a->turn >= AP_TURNS) {
        finish(a, 0, END_TURNS);
        return;
    }
    Move tmp[AP_MAXN];
    if (!ap_declarations(a, 0, NULL, tmp) || !ap_declarations(a, 1, NULL, tmp))
        finish(a, 0, END_STALEMATE);
}

static int ap_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    Apoc *a = st;
    memset(a, 0, sizeof *a);
    a->illegal = (uint8_t)opt[0];
    a->goal = (uint8_t)opt[1];
    a->lastpawn = (uint8_t)opt[2];
    static const char start[2][AP_N + 1] = {"HFFFH", "F...F"};
    for (int r = 0; r < 2; r++)
        for (int f = 0; f < AP_N; f++) {
            int c = start[r][f] == 'H' ? 2 : start[r][f] == 'F' ? 1 : 0;
            if (!c)
                continue;
            a->sq[r * AP_N + f] = (uint8_t)(c == 2 ? WH : WF);
            a->sq[(AP_N - 1 - r) * AP_N + f] = (uint8_t)(c == 2 ? BH : BF);
        }
    return 0;
}

static int ap_to_move(const void *st)
{
    const Apoc *a = st;
    switch (a->phase) {
    case PH_WHITE: case PH_WREDEPLOY: return 0;
    case PH_BLACK: case PH_BREDEPLOY: return 1;
    default: return PLAYER_TERMINAL;
    }
}

static int ap_gen_moves(const void *st, Move *out)
{
    const Apoc *a = st;
    if (a->phase == PH_WHITE || a->phase == PH_BLACK)
        return ap_declare(a, a->phase == PH_BLACK, out);
    if (a->phase == PH_OVER)
        return 0;
    int p = a->phase == PH_BREDEPLOY, n = 0;
    for (int t = 0; t < AP_SQ; t++)
        if (a->sq[t] == EMPTY && t / AP_N != last_rank(p))
            out[n++] = (Move)(t | REDEPLOY);
    return n;
}

/* Both declarations revealed: play them at once. */
static void resolve(Apoc *a, Move wm, Move bm)
{
    Move m[2] = {wm, bm};
    int from[2], to[2], legal[2], piece[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        from[p] = (int)(m[p] & 31);
        to[p] = (int)((m[p] >> 5) & 31);
    }
    for (int p = 0; p < 2; p++)
        legal[p] = !(m[p] & SPEC) ||
                   (!(m[!p] & SPEC) && to[!p] == to[p]);
    for (int p = 0; p < 2; p++) {
        if (!legal[p]) {
            a->pen[p]++;
            continue;
        }
        piece[p] = a->sq[from[p]];
        a->sq[from[p]] = EMPTY;
    }
    if (legal[0] && legal[1] && to[0] == to[1]) {
        int h0 = is_horse(piece[0]), h1 = is_horse(piece[1]);
        a->sq[to[0]] = (uint8_t)(h0 == h1 ? EMPTY : h0 ? piece[0] : piece[1]);
    } else {
        for (int p = 0; p < 2; p++)
            if (legal[p])
                a->sq[to[p]] = (uint8_t)piece[p];
    }
    for (int p = 0; p < 2; p++)
        if (legal[p] && piece[p] == footman_of(p) &&
            a->sq[to[p]] == piece[p] && to[p] / AP_N == last_rank(p) &&
            count(a, horse_of(p)) < 2)
            a->sq[to[p]] = (uint8_t)horse_of(p);
    a->turn++;
}

static void after_turn(Apoc *a)
{
    int ph = redeploy_phase(a);
    if (ph != PH_WHITE)
        a->phase = (uint8_t)ph;
    else
        end_check(a);
}

static void ap_make(void *st, Move m)
{
    Apoc *a = st;
    switch (a->phase) {
    case PH_WHITE:
        a->pending = (uint16_t)m;
        a->phase = PH_BLACK;
        return;
    case PH_BLACK:
        resolve(a, a->pending, m);
        a->pending = 0;
        a->hidden = 0;
        after_turn(a);
        return;
    case PH_WREDEPLOY: case PH_BREDEPLOY: {
        int p = a->phase == PH_BREDEPLOY;
        for (int f = 0; f < AP_N; f++) {
            int s = last_rank(p) * AP_N + f;
            if (a->sq[s] == footman_of(p)) {
                a->sq[s] = EMPTY;
                break;
            }
        }
        a->sq[m & 31] = (uint8_t)footman_of(p);
        after_turn(a);
        return;
    }
    default:
        return;
    }
}

static void ap_returns(const void *st, double *out)
{
    const Apoc *a = st;
    out[0] = a->phase == PH_OVER ? a->result : 0;
    out[1] = -out[0];
}

static uint64_t ap_hash(const void *st)
{
    const Apoc *a = st;
    uint64_t h = ply_mix64(a->phase | (uint64_t)a->hidden << 4 |
                           (uint64_t)a->pen[0] << 8 |
                           (uint64_t)a->pen[1] << 12 |
                           (uint64_t)a->pending << 16 |
                           (uint64_t)(a->result + 1) << 32);
    for (int i = 0; i < AP_SQ; i++)
        if (a->sq[i])
            h = ply_mix64(h ^ ((uint64_t)a->sq[i] << 8 | (uint64_t)i));
    return h;
}

/* ---- text */

static const char pc_char[] = ".PNpn";

static void sq_name(int s, char *b)
{
    b[0] = (char)('a' + s % AP_N);
    b[1] = (char)('1' + s / AP_N);
    b[2] = 0;
}

static int ap_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    char f[3], t[3];
    sq_name((int)((m >> 5) & 31), t);
    int w;
    if (m & REDEPLOY) {
        sq_name((int)(m & 31), t);
        w = snprintf(buf, n, "@%s", t);
    } else {
        sq_name((int)(m & 31), f);
        w = snprintf(buf, n, "%s%s", f, t);
    }
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int ap_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const Apoc *a = st;
    if (a->phase == PH_OVER)
        return ply_fail(err, "the game is over");
    if (a->hidden)
        return ply_fail(err, "this is Black's view: White's choice is "
                        "unknown");
    Move mv[AP_MAXN];
    int n = ap_gen_moves(a, mv);
    char buf[16];
    for (int i = 0; i < n; i++)
        if (ap_move_to_text(a, mv[i], buf, sizeof buf) > 0 &&
            !strcmp(buf, s)) {
            *m = mv[i];
            return 0;
        }
    if (a->phase == PH_WREDEPLOY || a->phase == PH_BREDEPLOY)
        return ply_fail(err, "'%.20s' is not a redeployment: write @ and an "
                        "empty square off the last rank, as @c3", s);
    return ply_fail(err, "'%.20s' is not a move %s may declare here "
                    "(from and to squares, as a2a3)", s,
                    ap_players[ap_to_move(a)]);
}

static int ap_to_text(const void *st, char *buf, size_t n)
{
    const Apoc *a = st;
    char b[64];
    size_t k = 0;
    for (int r = AP_N - 1; r >= 0; r--) {
        char row[AP_N];
        for (int f = 0; f < AP_N; f++) {
            int c = a->sq[r * AP_N + f];
            row[f] = c ? pc_char[c] : 0;
        }
        setup_row(b, &k, row, AP_N);
        if (r)
            b[k++] = '/';
    }
    b[k] = 0;
    char ph[16];
    switch (a->phase) {
    case PH_BLACK:
        if (a->hidden) {
            strcpy(ph, "b:?");
        } else {
            strcpy(ph, "b:");
            ap_move_to_text(a, a->pending, ph + 2, sizeof ph - 2);
        }
        break;
    case PH_WREDEPLOY: strcpy(ph, "W@"); break;
    case PH_BREDEPLOY: strcpy(ph, "B@"); break;
    default: strcpy(ph, "w"); break;    /* over: found again from it */
    }
    int w = snprintf(buf, n, "%s %s %d-%d %d", b, ph, a->pen[0], a->pen[1],
                     a->turn);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int ap_from_text(void *st, const char *s, PlyError *err)
{
    Apoc *a = st, t;
    memset(&t, 0, sizeof t);
    t.illegal = a->illegal;
    t.goal = a->goal;
    t.lastpawn = a->lastpawn;
    int r = AP_N - 1, f = 0;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (f != AP_N || r == 0)
                return ply_fail(err, "apocalypse setup: rank %d does not "
                                "have 5 squares", r + 1);
            r--;
            f = 0;
        } else if (*s >= '1' && *s <= '5') {
            f += *s - '0';
            if (f > AP_N)
                return ply_fail(err, "apocalypse setup: rank %d is longer "
                                "than 5 squares", r + 1);
        } else {
            const char *p = strchr(pc_char + 1, *s);
            if (!p || !*s)
                return ply_fail(err, "apocalypse setup: '%c' is not a piece "
                                "(P N White, p n Black) nor a count", *s);
            if (f >= AP_N)
                return ply_fail(err, "apocalypse setup: rank %d is longer "
                                "than 5 squares", r + 1);
            t.sq[r * AP_N + f++] = (uint8_t)(p - pc_char);
        }
    }
    if (r != 0 || f != AP_N)
        return ply_fail(err, "apocalypse setup: the board needs 5 ranks of "
                        "5 squares");
    char ph[16];
    int p0, p1, turn, used = 0;
    if (sscanf(s, " %15s %d-%d %d%n", ph, &p0, &p1, &turn, &used) != 4 ||
        s[used])
        return ply_fail(err, "apocalypse setup: after the board write the "
                        "phase (w, b:MOVE, W@ or B@), the penalty points "
                        "(0-0) and the turns played");
    if (p0 < 0 || p0 > 2 || p1 < 0 || p1 > 2)
        return ply_fail(err, "apocalypse setup: penalty points are 0..2");
    if (turn < 0 || turn > AP_TURNS)
        return ply_fail(err, "apocalypse setup: turns played are 0..%d",
                        AP_TURNS);
    t.pen[0] = (uint8_t)p0;
    t.pen[1] = (uint8_t)p1;
    t.turn = (uint16_t)turn;
    int wl = 0, bl = 0;
    for (int x = 0; x < AP_N; x++) {
        wl += t.sq[last_rank(0) * AP_N + x] == WF;
        bl += t.sq[last_rank(1) * AP_N + x] == BF;
    }
    if (wl > 1 || bl > 1)
        return ply_fail(err, "apocalypse setup: at most one footman of a "
                        "side waits on its last rank");
    int derived = redeploy_phase(&t);
    if (!strcmp(ph, "W@") || !strcmp(ph, "B@")) {
        if (derived != (ph[0] == 'W' ? PH_WREDEPLOY : PH_BREDEPLOY))
            return ply_fail(err, "apocalypse setup: %s needs that side's "
                            "footman on its last rank (and White redeploys "
                            "first)", ph);
        t.phase = (uint8_t)derived;
        *a = t;
        return 0;
    }
    if (derived != PH_WHITE)
        return ply_fail(err, "apocalypse setup: a footman on its last rank "
                        "is redeployed first (phase W@ or B@)");
    end_check(&t);
    if (!strcmp(ph, "w")) {
        *a = t;
        return 0;
    }
    if (strncmp(ph, "b:", 2))
        return ply_fail(err, "apocalypse setup: unknown phase '%s' (w, "
                        "b:MOVE, W@ or B@)", ph);
    if (!strcmp(ph + 2, "?"))
        return ply_fail(err, "apocalypse setup: 'b:?' is Black's view, not "
                        "a position (White's choice is needed)");
    if (t.phase == PH_OVER)
        return ply_fail(err, "apocalypse setup: the game is over here, no "
                        "one declares");
    Move wm;
    PlyError e2;
    if (ap_text_to_move(&t, ph + 2, &wm, &e2))
        return ply_fail(err, "apocalypse setup: White's choice: %s", e2.msg);
    t.pending = (uint16_t)wm;
    t.phase = PH_BLACK;
    *a = t;
    return 0;
}

/* The board for a front end: 5 x 5 squares, rank 1 at the bottom,
 * named as the notation writes them ("b1"); horsemen as knights and
 * footmen as pawns. A declaration ("b1c3") is located by its two
 * squares, a redeployment ("@c3") by its target. A declaration not yet
 * resolved is not drawn (Black's view does not hold it). */
static int ap_layout(const void *st, Layout *l)
{
    static const char *const glyph[5] = {"", "\u2659", "\u2658",
                                         "\u265F", "\u265E"};
    const Apoc *a = st;
    l->width = l->height = AP_N;
    for (int r = AP_N - 1; r >= 0; r--)
        for (int f = 0; f < AP_N; f++) {
            int s = r * AP_N + f;
            char name[3];
            sq_name(s, name);
            LayoutCell *c = layout_cell(l, (float)f + 0.5f,
                                        (float)(AP_N - 1 - r) + 0.5f,
                                        CELL_SQUARE, (r + f) % 2 ?
                                        SHADE_LIGHT : SHADE_DARK, name);
            if (!c)
                return -1;
            int p = a->sq[s];
            if (p) {
                c->owner = (int8_t)owner(p);
                snprintf(c->glyph, sizeof c->glyph, "%s", glyph[p]);
            }
        }
    return 0;
}

static int ap_render(const void *st, char *buf, size_t n)
{
    const Apoc *a = st;
    size_t len = 0;
    for (int r = AP_N - 1; r >= 0; r--) {
        PLY_OUT("%d ", r + 1);
        for (int f = 0; f < AP_N; f++)
            PLY_OUT(" %c", pc_char[a->sq[r * AP_N + f]]);
        PLY_OUT("\n");
    }
    PLY_OUT("   a b c d e\n");
    PLY_OUT("penalty points: White %d, Black %d; turn %d\n", a->pen[0],
        a->pen[1], a->turn + 1);
    char mv[16];
    switch (a->phase) {
    case PH_WHITE: PLY_OUT("White declares\n"); break;
    case PH_BLACK:
        if (a->hidden) {
            PLY_OUT("White has declared (hidden); Black declares\n");
        } else {
            ap_move_to_text(a, a->pending, mv, sizeof mv);
            PLY_OUT("White has declared %s; Black declares\n", mv);
        }
        break;
    case PH_WREDEPLOY: PLY_OUT("White redeploys its footman\n"); break;
    case PH_BREDEPLOY: PLY_OUT("Black redeploys its footman\n"); break;
    default:
        PLY_OUT("game over: %s\n", a->result > 0 ? "White wins" :
            a->result < 0 ? "Black wins" : "draw");
    }
    return (int)len;
}

/* ---- hidden information */

static void ap_observe(const void *st, int player, void *obs)
{
    const Apoc *a = st;
    Apoc *o = obs;
    memcpy(o, a, sizeof *o);
    if (a->phase == PH_BLACK && player == 1) {
        o->hidden = 1;
        o->pending = 0;
    }
}

static void ap_determinize(const void *obs, int player, Rng *r, void *st)
{
    (void)player;
    const Apoc *o = obs;
    Apoc *a = st;
    memcpy(a, o, sizeof *a);
    if (!o->hidden)
        return;
    Move mv[AP_MAXN];
    int n = ap_declare(a, 0, mv);
    a->hidden = 0;
    a->pending = n ? (uint16_t)mv[rng_below(r, (uint32_t)n)] : 0;
}

/* ---- bots */

/* Material (weighted by the goal: the pieces whose loss ends the game
 * count more), horsemen in the centre, footmen's advance, penalty points.
 * A linear form over named weights (`ply info apocalypse`), tunable with
 * `ply tune` (docs/tuning.md): each side's features, weighted, White's
 * less Black's. */
enum { AF_FOOT_F, AF_HORSE_F, AF_FOOT_H, AF_HORSE_H, AF_CENTRE, AF_ADVANCE,
       AF_PENALTY, AP_NW };
static const char *const ap_names[AP_NW] = {
    "footman.goal-footmen", "horseman.goal-footmen", "footman.goal-horsemen",
    "horseman.goal-horsemen", "horseman.centre", "footman.advance",
    "penalty",
};
/* fitted by `ply tune` on 600 self-play games with the penalty frozen
 * (docs/tuning.md); the hand-set start was {100, 220, 60, 300, 8, 6, -150} */
static const int ap_weights[AP_NW] = {278, 212, 60, 300, -4, -12, -150};

/* The features of both sides: f[side][weight]. */
static void ap_features(const Apoc *a, int f[2][AP_NW])
{
    int foot = a->goal == GOAL_FOOTMEN ? AF_FOOT_F : AF_FOOT_H;
    int horse = a->goal == GOAL_FOOTMEN ? AF_HORSE_F : AF_HORSE_H;
    memset(f, 0, sizeof(int) * 2 * AP_NW);
    for (int s = 0; s < AP_SQ; s++) {
        int c = a->sq[s], r = s / AP_N, fl = s % AP_N;
        if (!c)
            continue;
        int o = owner(c);
        if (is_horse(c)) {
            f[o][horse]++;
            f[o][AF_CENTRE] += (fl > 0 && fl < 4) + (r > 0 && r < 4);
        } else {
            f[o][foot]++;
            f[o][AF_ADVANCE] += o ? AP_N - 1 - r : r;
        }
    }
    for (int o = 0; o < 2; o++)
        f[o][AF_PENALTY] = a->pen[o];
}

static int ap_eval(const void *st, int player)
{
    int f[2][AP_NW];
    ap_features(st, f);
    int v = evalform_value(ap_weights, f[0], f[1], AP_NW);
    return player ? -v : v;
}

/* The terms from player 0's (White's) view. */
static int ap_terms(const void *st, EvalTerm *out, double *base)
{
    int f[2][AP_NW];
    *base = 0;
    ap_features(st, f);
    return evalform_terms(f[0], f[1], AP_NW, out);
}

static const EvalTuning ap_tuning = {
    .nparams = AP_NW, .names = ap_names, .weights = ap_weights,
    .terms = ap_terms,
};

static int ap_heuristic(const void *st, Move m)
{
    const Apoc *a = st;
    if (m & REDEPLOY)
        return 0;
    if (m & SPEC)
        return -20;
    int t = (int)((m >> 5) & 31), c = a->sq[t];
    int from = a->sq[m & 31];
    int v = !c ? 0 : is_horse(c) ? 300 : 120;
    if (!is_horse(from) && t / AP_N == last_rank(owner(from)))
        v += 150;
    return v;
}

static int ap_is_noisy(const void *st, Move m)
{
    const Apoc *a = st;
    return !(m & (REDEPLOY | SPEC)) && a->sq[(m >> 5) & 31] != EMPTY;
}

static int ap_score(const void *st, int player)
{
    const Apoc *a = st;
    return count(a, footman_of(player));
}

static int ap_check(const void *st)
{
    const Apoc *a = st;
    if (a->phase > PH_OVER || a->pen[0] > 2 || a->pen[1] > 2 ||
        a->turn > AP_TURNS)
        return -1;
    for (int i = 0; i < AP_SQ; i++)
        if (a->sq[i] > BH)
            return -1;
    if (a->phase == PH_BLACK && !a->hidden) {
        Move mv[AP_MAXN];
        int n = ap_declare(a, 0, mv), ok = 0;
        for (int i = 0; i < n; i++)
            ok |= mv[i] == a->pending;
        if (!ok)
            return -1;
    }
    return 0;
}

static const char *ap_end_reason(const void *st)
{
    const Apoc *a = st;
    if (a->phase != PH_OVER)
        return NULL;
    switch (a->reason) {
    case END_GOAL:
        return a->goal == GOAL_FOOTMEN ? "a side has no footmen left"
                                       : "a side has no horsemen left";
    case END_BOTH_GONE: return "both sides lost their last pieces at once";
    case END_PENALTY: return "two penalty points";
    case END_STALEMATE: return "a side has no move (stalemate)";
    case END_TURNS: return "turn limit";
    default: return NULL;
    }
}

static int ap_plies_left(const void *st)
{
    const Apoc *a = st;
    int left = 2 * (40 - a->turn);
    return left > 8 ? left : 8;
}

const GameVtbl game_apocalypse = {
    .info = {
        .name = "apocalypse",
        .title = "Apocalypse (simultaneous knights and pawns)",
        .num_players = 2,
        .max_moves = AP_MAXN,
        .max_game_length = AP_MAX_PLIES,
        .state_size = sizeof(Apoc),
        .flags = GAME_ZERO_SUM | GAME_HIDDEN,
        .player_names = ap_players,
        .options = ap_options,
        .default_bot = "ismcts",
        .notation =
            "A declaration is its from and to squares, a1 at White's\n"
            "bottom left: a2a3, a1b3 (a footman's speculative diagonal is\n"
            "written the same way). A redeployment is @ and the square:\n"
            "@c3. Setup string: the board from rank 5 down, FEN-like (P N\n"
            "White's footman and horseman, p n Black's, digits for empty\n"
            "squares), the phase (w: White declares; b:MOVE: Black declares\n"
            "and White has declared MOVE; b:? in Black's view; W@ or B@:\n"
            "that side redeploys), the penalty points White-Black and the\n"
            "turns played: npppn/p3p/5/P3P/NPPPN w 0-0 0.",
        .rules =
            "Apocalypse (C. S. Elliott, 1976) on 5x5: each side has two\n"
            "horsemen (knights) and five footmen (pawns, no double step),\n"
            "White N a1 e1, P a2 b1 c1 d1 e2, Black mirrored. Both sides\n"
            "move at the same time. Ply models this as two hidden choices:\n"
            "White declares first, Black declares without seeing it (his\n"
            "view hides it; bots sample it, so they cannot cheat), then\n"
            "both moves are played together. A joint move would need a\n"
            "matrix-game search that Ply's bots do not have; the hidden\n"
            "form lets ismcts, pimc and every front end play it as is.\n"
            "Resolution: two pieces arriving on one square: a horseman\n"
            "beats a footman, equal types both die; a piece that moves\n"
            "away escapes a capture declared on its square, and a footman\n"
            "whose capture target left still steps there diagonally; two\n"
            "pieces may swap squares. illegal=penalty (default, Wikipedia):\n"
            "a footman may also declare a diagonal step onto an empty square\n"
            "an enemy piece could reach; it is legal only if an enemy\n"
            "piece's legal move arrives there (then the two collide as\n"
            "above), else it is not played and gives a penalty point; two\n"
            "penalty points lose (both at once: draw). Other illegal moves\n"
            "cannot be declared. illegal=forbid: only board-legal moves\n"
            "(Dagaz). Promotion: a footman reaching the last rank becomes a\n"
            "horseman if its side then has fewer than two; otherwise its\n"
            "owner redeploys it to any empty square off the last rank, as\n"
            "a separate move after the reveal (White first), so the square\n"
            "is never taken by the other side's simultaneous move.\n"
            "lastpawn=illegal: with fewer than two horsemen a side may not\n"
            "move its only footman to the last rank (Wikipedia); loses:\n"
            "it may, and then has no footman (vchess). End: a side without\n"
            "footmen loses, both at once draw (goal=horsemen: counts\n"
            "horsemen, as Dagaz); a side without a move: draw; draw after\n"
            "100 turns.",
    },
    .init = ap_init,
    .to_move = ap_to_move,
    .gen_moves = ap_gen_moves,
    .make = ap_make,
    .returns = ap_returns,
    .hash = ap_hash,
    .to_text = ap_to_text,
    .from_text = ap_from_text,
    .move_to_text = ap_move_to_text,
    .text_to_move = ap_text_to_move,
    .render = ap_render,
    .layout = ap_layout,
    .eval = ap_eval,
    .tuning = &ap_tuning,
    .heuristic = ap_heuristic,
    .is_noisy = ap_is_noisy,
    .observe = ap_observe,
    .determinize = ap_determinize,
    .score = ap_score,
    .check = ap_check,
    .plies_left = ap_plies_left,
    .end_reason = ap_end_reason,
};
