/* oware.c — Oware / Awale (abapa) with endgame databases.
 *
 * Houses, counter-clockwise: South's 0..5 (written 1..6 from South's
 * left), North's 6..11 (1..6 from North's left). A move is the mover's
 * house index 0..5. Sowing skips the starting house on later laps; a last
 * seed that makes an opponent's house 2 or 3 captures it and the houses
 * before it while they are the opponent's and hold 2 or 3. The feeding
 * obligation and the grand-slam rule (an option) restrict the moves.
 *
 * The databases (oware_db.c) hold, for every board with at most `dbseeds`
 * seeds, the net number of seeds the side to move captures from there on
 * with best play, endless play counting as an equal split of what is left.
 * The `exact` hook turns that into the game's result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/layout.h"
#include "oware.h"

enum { MAX_LENGTH = 200, MAX_PLIES = MAX_LENGTH * 49 + 200 };
enum { END_NONE, END_SCORE, END_NOMOVES, END_LENGTH };


static int row_sum(const uint8_t *pit, int side)
{
    int s = 0;
    for (int i = 0; i < 6; i++)
        s += pit[6 * side + i];
    return s;
}

/* ---- the rules on a bare board (shared with the databases) ---- */

int oware_sow(uint8_t *pit, int side, int house, int grandslam,
              int *captured)
{
    int from = 6 * side + house, seeds = pit[from], pos = from;
    pit[from] = 0;
    while (seeds > 0) {
        pos = pos == 11 ? 0 : pos + 1;
        if (pos == from)
            continue;
        pit[pos]++;
        seeds--;
    }
    *captured = 0;
    int opp = !side, lo = 6 * opp, hi = lo + 5;
    if (pos < lo || pos > hi || (pit[pos] != 2 && pit[pos] != 3))
        return 0;
    int take = 0, p = pos;
    while (p >= lo && (pit[p] == 2 || pit[p] == 3))
        take += pit[p--];
    int slam = take == row_sum(pit, opp);
    if (slam && grandslam == OWARE_GS_NOCAPTURE)
        return 1;
    for (p = pos; p >= lo && (pit[p] == 2 || pit[p] == 3); p--)
        pit[p] = 0;
    *captured = take;
    return slam;
}

int oware_moves(const uint8_t *pit, int side, int grandslam, int *out)
{
    int feed = row_sum(pit, !side) == 0, n = 0, slams = 0;
    int cand[6], isslam[6];
    for (int h = 0; h < 6; h++) {
        int s = pit[6 * side + h];
        if (!s || (feed && s < 6 - h))
            continue;
        int slam = 0;
        if (grandslam == OWARE_GS_FORBIDDEN) {
            uint8_t t[12];
            int c;
            memcpy(t, pit, 12);
            slam = oware_sow(t, side, h, grandslam, &c);
            slams += slam;
        }
        isslam[n] = slam;
        cand[n++] = h;
    }
    if (slams == 0 || slams == n) {
        memcpy(out, cand, sizeof(int) * (size_t)n);
        return n;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isslam[i])
            out[k++] = cand[i];
    return k;
}

/* ---- the game ---- */

static void check_end(Oware *o)
{
    o->over = END_NONE;
    if (o->store[0] > 24 || o->store[1] > 24 ||
        (o->store[0] == 24 && o->store[1] == 24)) {
        o->over = END_SCORE;
        return;
    }
    int mv[6];
    if (oware_moves(o->pit, o->side, o->grandslam, mv) == 0) {
        /* the seeds left go to the owner of the row they are in */
        for (int i = 0; i < 12; i++) {
            o->store[i / 6] = (uint8_t)(o->store[i / 6] + o->pit[i]);
            o->pit[i] = 0;
        }
        o->over = END_NOMOVES;
        return;
    }
    if (o->quiet >= o->length || o->ply >= MAX_PLIES)
        o->over = END_LENGTH;
}

static const char *const gs_choices[] = {"nocapture", "forbidden", NULL};
static const char *const end_choices[] = {"split", "own", NULL};

static const GameOption oware_options[] = {
    {.key = "grandslam", .type = OPT_CHOICE, .def = OWARE_GS_NOCAPTURE,
     .choices = gs_choices, .help =
     "a move that would capture all the opponent's seeds: nocapture = "
     "allowed, captures nothing (World Oware Federation); forbidden = not "
     "allowed while another move exists (Dagaz's no-full-capturing)"},
    {.key = "length", .type = OPT_INT, .def = 100, .min = 10,
     .max = MAX_LENGTH, .help = "plies without a capture that end the game"},
    {.key = "end", .type = OPT_CHOICE, .def = OWARE_END_SPLIT,
     .choices = end_choices, .help =
     "seeds on the board when the length rule ends the game: split = "
     "shared equally (what the endgame databases assume); own = each "
     "player takes those in his row"},
    {.key = "dbseeds", .type = OPT_INT, .def = OWARE_DB_DEFAULT, .min = 0,
     .max = OWARE_DB_MAX, .help =
     "endgame databases: exact results for boards with at most N seeds "
     "(built once per process, about a byte a board: up to 10 when the "
     "game is set up, in 0.4 s; beyond, at the first search that needs "
     "them: 12 about 2 s, 14 about 9 s and 20 MB, 16 about 40 s and 60 "
     "MB, 20 several minutes and 400 MB; 0: none)",
     .flags = OPTF_COSTLY},
    {.key = NULL},
};

static int oware_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Oware *o = st;
    memset(o, 0, sizeof *o);
    o->grandslam = (uint8_t)opt[0];
    o->length = (uint8_t)opt[1];
    o->endrule = (uint8_t)opt[2];
    for (int i = 0; i < 12; i++)
        o->pit[i] = 4;
    o->dbseeds = (uint8_t)opt[3];
    /* The databases are built once per process. The small layers (0.4 s)
     * now, before any clock runs; larger ones (dbseeds above 10) at the
     * first probe that needs them, inside a search. A failure only leaves
     * the bots without them. */
    /* With PLY_DB_DIR set, all of them now, read from a file there or
     * built and written to it (a wrong file is an error). */
    const char *dir = getenv("PLY_DB_DIR");
    if (o->dbseeds && dir && *dir)
        return oware_db_build_file(o->grandslam, o->dbseeds, dir, err);
    if (o->dbseeds)
        oware_db_build(o->grandslam, o->dbseeds < OWARE_DB_DEFAULT
                                         ? o->dbseeds : OWARE_DB_DEFAULT);
    return 0;
}

static int oware_to_move(const void *st)
{
    const Oware *o = st;
    return o->over ? PLAYER_TERMINAL : o->side;
}

static int oware_gen_moves(const void *st, Move *out)
{
    const Oware *o = st;
    if (o->over)
        return 0;
    int mv[6], n = oware_moves(o->pit, o->side, o->grandslam, mv);
    for (int i = 0; i < n; i++)
        out[i] = (Move)mv[i];
    return n;
}

static void oware_make(void *st, Move m)
{
    Oware *o = st;
    int c;
    oware_sow(o->pit, o->side, (int)m, o->grandslam, &c);
    o->store[o->side] = (uint8_t)(o->store[o->side] + c);
    o->quiet = c ? 0 : (uint16_t)(o->quiet + 1);
    o->ply++;
    o->side = (uint8_t)!o->side;
    check_end(o);
}

/* Final totals; with the split rule the seeds left count for nobody. */
static void totals(const Oware *o, int *a, int *b)
{
    *a = o->store[0];
    *b = o->store[1];
    if (o->over == END_LENGTH && o->endrule == OWARE_END_OWN) {
        *a += row_sum(o->pit, 0);
        *b += row_sum(o->pit, 1);
    }
}

static void oware_returns(const void *st, double *out)
{
    int a, b;
    totals(st, &a, &b);
    out[0] = a > b ? 1 : a < b ? -1 : 0;
    out[1] = -out[0];
}

static int oware_score(const void *st, int player)
{
    int a, b;
    totals(st, &a, &b);
    return player ? b : a;
}

static uint64_t oware_hash(const void *st)
{
    const Oware *o = st;
    uint64_t h = ply_mix64(o->side + 2u * (o->over != 0) +
                           ((uint64_t)o->quiet << 8) +
                           ((uint64_t)o->store[0] << 24) +
                           ((uint64_t)o->store[1] << 32));
    for (int i = 0; i < 12; i++)
        h = ply_mix64(h ^ ((uint64_t)o->pit[i] << 8 | (uint64_t)i));
    return h;
}

/* Setup: "S:4,4,4,4,4,4:4,4,4,4,4,4:0,0" — side to move, South's houses
 * 1..6, North's houses 1..6, the two stores; an optional ":qN" gives the
 * plies since the last capture. */
static int oware_to_text(const void *st, char *buf, size_t n)
{
    const Oware *o = st;
    const uint8_t *p = o->pit;
    int w = snprintf(buf, n, "%c:%d,%d,%d,%d,%d,%d:%d,%d,%d,%d,%d,%d:%d,%d",
                     o->side ? 'N' : 'S', p[0], p[1], p[2], p[3], p[4], p[5],
                     p[6], p[7], p[8], p[9], p[10], p[11], o->store[0],
                     o->store[1]);
    if (w < 0 || (size_t)w >= n)
        return -1;
    if (o->quiet) {
        int w2 = snprintf(buf + w, n - (size_t)w, ":q%d", o->quiet);
        if (w2 < 0 || (size_t)w2 >= n - (size_t)w)
            return -1;
        w += w2;
    }
    return w;
}

static int read_list(const char **sp, int *v, int count, const char *what,
                     PlyError *err)
{
    const char *s = *sp;
    for (int i = 0; i < count; i++) {
        if (i && *s++ != ',')
            return ply_fail(err, "%s: expected %d numbers separated by ','",
                            what, count);
        if (*s < '0' || *s > '9')
            return ply_fail(err, "%s: expected a number at '%.10s'", what, s);
        int x = 0;
        while (*s >= '0' && *s <= '9') {
            x = x * 10 + (*s++ - '0');
            if (x > 48)
                return ply_fail(err, "%s: more than 48 seeds", what);
        }
        v[i] = x;
    }
    *sp = s;
    return 0;
}

static int oware_from_text(void *st, const char *s, PlyError *err)
{
    Oware *o = st, t = *o;
    if (*s != 'S' && *s != 'N')
        return ply_fail(err, "oware setup starts with S or N (side to move)");
    t.side = *s++ == 'N';
    int v[14];
    const char *what[3] = {"South's houses", "North's houses", "stores"};
    int cnt[3] = {6, 6, 2};
    int *dst[3] = {v, v + 6, v + 12};
    for (int k = 0; k < 3; k++) {
        if (*s++ != ':')
            return ply_fail(err, "expected ':' before %s", what[k]);
        if (read_list(&s, dst[k], cnt[k], what[k], err))
            return -1;
    }
    long quiet = 0;
    if (s[0] == ':' && s[1] == 'q') {
        char *end;
        s += 2;
        if (*s < '0' || *s > '9')
            return ply_fail(err, "expected a number after ':q'");
        quiet = strtol(s, &end, 10);
        if (quiet > t.length)
            return ply_fail(err, "plies without capture %ld exceed the "
                            "length rule (%d)", quiet, t.length);
        s = end;
    }
    if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    int total = 0;
    for (int i = 0; i < 14; i++)
        total += v[i];
    if (total != 48)
        return ply_fail(err, "the seeds add up to %d, not 48", total);
    for (int i = 0; i < 12; i++)
        t.pit[i] = (uint8_t)v[i];
    t.store[0] = (uint8_t)v[12];
    t.store[1] = (uint8_t)v[13];
    t.quiet = (uint16_t)quiet;
    t.ply = 0;
    check_end(&t);
    *o = t;
    return 0;
}

static int oware_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    int w = snprintf(buf, n, "%d", (int)m + 1);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int oware_text_to_move(const void *st, const char *s, Move *m,
                              PlyError *err)
{
    const Oware *o = st;
    if (o->over)
        return ply_fail(err, "the game is over");
    if (s[0] < '1' || s[0] > '6' || s[1])
        return ply_fail(err, "an oware move is a house number 1..6, not "
                        "'%s'", s);
    int h = s[0] - '1';
    if (!o->pit[6 * o->side + h])
        return ply_fail(err, "house %d is empty", h + 1);
    int mv[6], n = oware_moves(o->pit, o->side, o->grandslam, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == h) {
            *m = (Move)h;
            return 0;
        }
    if (row_sum(o->pit, !o->side) == 0)
        return ply_fail(err, "house %d does not feed the opponent, who has "
                        "no seeds (feeding obligation)", h + 1);
    return ply_fail(err, "house %d would capture all the opponent's seeds "
                    "(grand slam, forbidden while another move exists)",
                    h + 1);
}

static int oware_render(const void *st, char *buf, size_t n)
{
    const Oware *o = st;
    int w = snprintf(buf, n,
                     "       6   5   4   3   2   1   (North's houses)\n"
                     "     %3d %3d %3d %3d %3d %3d\n"
                     " N %2d                          S %2d\n"
                     "     %3d %3d %3d %3d %3d %3d\n"
                     "       1   2   3   4   5   6   (South's houses)\n"
                     "%s to move, %d plies without a capture\n",
                     o->pit[11], o->pit[10], o->pit[9], o->pit[8], o->pit[7],
                     o->pit[6], o->store[1], o->store[0], o->pit[0],
                     o->pit[1], o->pit[2], o->pit[3], o->pit[4], o->pit[5],
                     o->over ? "nobody" : o->side ? "North" : "South",
                     o->quiet);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* The board as the render draws it: South's houses along the bottom
 * (1..6 from the left), North's along the top (1..6 from North's left,
 * so right to left), North's store (captured seeds) on the left and
 * South's on the right. Only the mover's houses are named ("1".."6"),
 * as the notation names them. */
static int oware_layout(const void *st, Layout *l)
{
    const Oware *o = st;
    l->width = 8;
    l->height = 2;
    for (int side = 0; side < 2; side++) {
        for (int i = 0; i < 6; i++) {
            /* the house's number, 1..6: one digit and the zero */
            char name[2] = "";
            if (!o->over && o->side == side)
                name[0] = (char)('1' + i);
            float x = side ? (float)(6 - i) + 0.5f : (float)(i + 1) + 0.5f;
            LayoutCell *c = layout_cell(l, x, side ? 0.5f : 1.5f, CELL_PIT,
                                        SHADE_LIGHT, name);
            if (c) {
                c->owner = (int8_t)side;
                c->count = o->pit[6 * side + i];
            }
        }
        LayoutCell *c = layout_cell(l, side ? 0.5f : 7.5f, 1, CELL_STORE,
                                    SHADE_DARK, NULL);
        if (c) {
            c->h = 2;
            c->owner = (int8_t)side;
            c->count = o->store[side];
        }
    }
    return 0;
}

/* Evaluation: captured seeds, plus a little for seeds kept in one's own
 * row (they feed moves and cannot be taken all at once), minus houses of
 * one's own that hold 1 or 2 seeds (the opponent's targets). */
static int oware_eval(const void *st, int player)
{
    const Oware *o = st;
    int v = 100 * (o->store[player] - o->store[!player]);
    for (int s = 0; s < 2; s++) {
        int sign = s == player ? 1 : -1, t = 0;
        for (int i = 0; i < 6; i++) {
            int x = o->pit[6 * s + i];
            t += 8 * x - (x == 1 || x == 2 ? 25 : 0);
        }
        v += sign * t;
    }
    return v;
}

static int oware_capture_of(const Oware *o, Move m)
{
    uint8_t t[12];
    int c;
    memcpy(t, o->pit, 12);
    oware_sow(t, o->side, (int)m, o->grandslam, &c);
    return c;
}

static int oware_heuristic(const void *st, Move m)
{
    const Oware *o = st;
    int c = oware_capture_of(o, m);
    return c ? 100 + 10 * c : (int)m;
}

static int oware_is_noisy(const void *st, Move m)
{
    return oware_capture_of(st, m) > 0;
}

static int oware_exact(const void *st, int player, int *result)
{
    const Oware *o = st;
    if (o->over || o->endrule != OWARE_END_SPLIT || !o->dbseeds ||
        2 * o->quiet > o->length)
        return 0;
    int left = row_sum(o->pit, 0) + row_sum(o->pit, 1);
    if (left > o->dbseeds)
        return 0;
    int net;
    if (oware_db_probe(o->pit, o->side, o->grandslam, o->dbseeds, &net))
        return 0;
    int d = o->store[o->side] - o->store[!o->side] + net;
    int r = d > 0 ? 1 : d < 0 ? -1 : 0;
    *result = player == o->side ? r : -r;
    return 1;
}

static int oware_plies_left(const void *st)
{
    const Oware *o = st;
    int left = row_sum(o->pit, 0) + row_sum(o->pit, 1);
    return 10 + 2 * left;
}

static int oware_check(const void *st)
{
    const Oware *o = st;
    int total = o->store[0] + o->store[1];
    for (int i = 0; i < 12; i++)
        total += o->pit[i];
    if (o->side > 1 || total > 48 || o->grandslam > 1 || o->endrule > 1)
        return -1;
    return 0;
}

static const char *const oware_players[] = {"South", "North"};

const GameVtbl game_oware = {
    .info = {
        .name = "oware",
        .title = "Oware / Awale (abapa)",
        .num_players = 2,
        .max_moves = 6,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Oware),
        .flags = GAME_ZERO_SUM,
        .player_names = oware_players,
        .options = oware_options,
        .default_bot = "oware",
        .notation =
            "A move is a house number 1..6 counted from the mover's left\n"
            "(South's 1 faces North's 6). Setup string: side to move (S or\n"
            "N), ':' South's houses 1..6, ':' North's houses 1..6, ':' the\n"
            "two stores (South, North), optionally ':qN' for the plies since\n"
            "the last capture: S:4,4,4,4,4,4:4,4,4,4,4,4:0,0.",
        .rules =
            "Oware abapa: 2x6 houses with 4 seeds each; South moves first.\n"
            "A move sows all the seeds of one of the mover's houses one by\n"
            "one counter-clockwise, skipping the starting house when it\n"
            "goes round (12 seeds or more). If the last seed makes an\n"
            "opponent's house hold 2 or 3, those seeds are captured, and so\n"
            "are the houses before it, going back, while they are the\n"
            "opponent's and hold 2 or 3. Feeding: when the opponent has no\n"
            "seeds, the mover must give him some; if no move can, the game\n"
            "ends. Grand slam (a move that would capture every seed the\n"
            "opponent has), option grandslam: nocapture (default, the World\n"
            "Oware Federation's rule) = allowed but captures nothing;\n"
            "forbidden = illegal while another move exists (Dagaz). A player\n"
            "with 25 seeds wins; 24-24 is a draw. When the side to move has\n"
            "no legal move the game ends and each player takes the seeds in\n"
            "his own row. Length rule: `length` plies (default 100) without\n"
            "a capture end the game; the seeds left are then shared equally\n"
            "(end=split, default) or taken by the owner of each row\n"
            "(end=own). Most seeds wins.\n"
            "Bots: alphabeta reads exact results from endgame databases\n"
            "built by retrograde analysis for boards with at most dbseeds\n"
            "seeds (default 10; they assume end=split and no length rule;\n"
            "used while fewer than length/2 quiet plies have passed). With\n"
            "the environment variable PLY_DB_DIR set, all dbseeds layers are\n"
            "made when the game is set up, read from\n"
            "PLY_DB_DIR/oware-RULE-SEEDS.mdb or built and written there.\n"
            "The default bot, oware (ply info --bot oware), is alphabeta\n"
            "with a richer evaluation than the game's (houses each side can\n"
            "move from, what the side not to move could capture, houses of\n"
            "1-2 seeds) and the databases to 14 seeds (built when the bot is\n"
            "made, about 9 s, or read from PLY_DB_DIR). At 100 ms a move it\n"
            "beat alphabeta without databases 95 games of 100 (+95 =0 -5,\n"
            "docs/mancala.md).",
    },
    .init = oware_init,
    .to_move = oware_to_move,
    .gen_moves = oware_gen_moves,
    .make = oware_make,
    .returns = oware_returns,
    .hash = oware_hash,
    .to_text = oware_to_text,
    .from_text = oware_from_text,
    .move_to_text = oware_move_to_text,
    .text_to_move = oware_text_to_move,
    .render = oware_render,
    .layout = oware_layout,
    .eval = oware_eval,
    .heuristic = oware_heuristic,
    .is_noisy = oware_is_noisy,
    .score = oware_score,
    .check = oware_check,
    .plies_left = oware_plies_left,
    .exact = oware_exact,
};
