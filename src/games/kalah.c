/* kalah.c — Kalah(h,s): sowing, stores, extra turns and captures.
 *
 * Pits, counter-clockwise: South's houses 0..h-1, South's store h,
 * North's houses h+1..2h, North's store 2h+1. A move is the mover's house
 * index 0..h-1 (written 1..h, counting from the house farthest from the
 * mover's store). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"
#include "kalah.h"

enum { KALAH_MAX_HOUSES = 16, KALAH_MAX_PITS = 2 * KALAH_MAX_HOUSES + 2,
       KALAH_MAX_PLIES = 2000 };
enum { CAPTURE_EMPTY, CAPTURE_NONEMPTY };

typedef struct Kalah {
    uint16_t pit[KALAH_MAX_PITS];
    uint8_t houses;
    uint8_t capture_rule;   /* CAPTURE_EMPTY or CAPTURE_NONEMPTY */
    uint8_t side;           /* 0 South, 1 North */
    uint8_t over;
    uint16_t ply;           /* plies played, for the hard length cap */
    uint8_t dbseeds;        /* endgame databases up to this many seeds */
} Kalah;

static int store_of(const Kalah *k, int side)
{
    return side ? 2 * k->houses + 1 : k->houses;
}

static int first_house(const Kalah *k, int side)
{
    return side ? k->houses + 1 : 0;
}

static int side_seeds(const Kalah *k, int side)
{
    int sum = 0, f = first_house(k, side);
    for (int i = 0; i < k->houses; i++)
        sum += k->pit[f + i];
    return sum;
}

/* When a side has no seeds left, the other side's seeds go to its owner. */
static void kalah_check_end(Kalah *k)
{
    if (side_seeds(k, 0) && side_seeds(k, 1) && k->ply < KALAH_MAX_PLIES)
        return;
    for (int s = 0; s < 2; s++) {
        int f = first_house(k, s);
        for (int i = 0; i < k->houses; i++) {
            k->pit[store_of(k, s)] += k->pit[f + i];
            k->pit[f + i] = 0;
        }
    }
    k->over = 1;
}

static const char *const capture_choices[] = {"empty", "nonempty", NULL};

static const GameOption kalah_options[] = {
    {.key = "houses", .type = OPT_INT, .def = 6, .min = 1,
     .max = KALAH_MAX_HOUSES, .help = "houses per side"},
    {.key = "seeds", .type = OPT_INT, .def = 4, .min = 1, .max = 32,
     .help = "seeds per house at the start"},
    {.key = "capture", .type = OPT_CHOICE, .def = CAPTURE_EMPTY,
     .choices = capture_choices, .help =
     "empty: a last seed in an own empty house always captures (with the "
     "opposite house, even if that is empty), as in the solved results; "
     "nonempty: only when the opposite house has seeds"},
    {.key = "dbseeds", .type = OPT_INT, .def = 10, .min = 0, .max = 20,
     .help = "endgame databases: exact results for boards with at most N "
     "seeds in the houses (up to 8 houses a side), built once per process "
     "when the game is set up, about a byte a board (6 houses: 10 about "
     "0.3 s, 14 about 8 s and 20 MB, 16 about 35 s and 60 MB, 20 several "
     "minutes and 400 MB; 0: none; refused beyond 2^30 boards: 7 houses "
     "up to 19, 8 houses up to 16)",
     .flags = OPTF_COSTLY},
    {.key = NULL},
};

/* ------------------------------------------------ endgame databases */

/* A board from the mover's view for mancala_db.c: its houses 0..h-1
 * (its store after house h-1), then the opponent's houses h..2h-1 in
 * their own order; the stores are not on it. */
static int kdb_moves(const MancalaRules *r, const uint8_t *b, int *out)
{
    int h = r->houses / 2, n = 0, opp = 0;
    for (int i = 0; i < h; i++)
        opp += b[h + i];
    if (!opp)
        return 0;       /* over: see kdb_stuck */
    for (int i = 0; i < h; i++)
        if (b[i])
            out[n++] = i;
    return n;
}

/* A side without seeds: the game is over, each side keeps its own. */
static int kdb_stuck(const MancalaRules *r, const uint8_t *b)
{
    int h = r->houses / 2, d = 0;
    for (int i = 0; i < h; i++)
        d += b[i] - b[h + i];
    return d;
}

static int kdb_play(const MancalaRules *r, uint8_t *b, int move, int *gain)
{
    int h = r->houses / 2, slots = 2 * h + 1;   /* slot h: the store */
    int seeds = b[move], pos = move, g = 0;
    b[move] = 0;
    while (seeds-- > 0) {
        pos = (pos + 1) % slots;
        if (pos == h)
            g++;
        else
            b[pos < h ? pos : pos - 1]++;
    }
    if (pos < h && b[pos] == 1) {
        int opp = 2 * h - 1 - pos;
        if (b[opp] || r->variant == CAPTURE_EMPTY) {
            g += b[opp] + 1;
            b[opp] = 0;
            b[pos] = 0;
        }
    }
    int mine = 0, theirs = 0;
    for (int i = 0; i < h; i++) {
        mine += b[i];
        theirs += b[h + i];
    }
    *gain = g;
    if (!mine || !theirs) {
        *gain = g + mine - theirs;
        return MDB_END;
    }
    return pos == h ? MDB_AGAIN : MDB_PASS;
}

enum { KDB_MAX_HOUSES = MDB_MAX_HOUSES / 2 };
/* the layers built at init (the rest at the first probe that needs them) */
enum { KALAH_DB_INIT = 10 };
#define KALAH_DB_MAX_BOARDS (UINT64_C(1) << 30)

#define KDB_RULES(h, cap) \
    {.houses = 2 * (h), .variant = (cap), .moves = kdb_moves, \
     .play = kdb_play, .stuck = kdb_stuck}
static const MancalaRules kdb_rules[2][KDB_MAX_HOUSES] = {
    {KDB_RULES(1, 0), KDB_RULES(2, 0), KDB_RULES(3, 0), KDB_RULES(4, 0),
     KDB_RULES(5, 0), KDB_RULES(6, 0), KDB_RULES(7, 0), KDB_RULES(8, 0)},
    {KDB_RULES(1, 1), KDB_RULES(2, 1), KDB_RULES(3, 1), KDB_RULES(4, 1),
     KDB_RULES(5, 1), KDB_RULES(6, 1), KDB_RULES(7, 1), KDB_RULES(8, 1)},
};
#define KDB(c, h) MANCALA_DB_INIT(&kdb_rules[c][(h) - 1])
/* process-wide caches, immutable once a layer is built (mancala_db.h) */
static MancalaDb kdb[2][KDB_MAX_HOUSES] = {
    {KDB(0, 1), KDB(0, 2), KDB(0, 3), KDB(0, 4), KDB(0, 5), KDB(0, 6),
     KDB(0, 7), KDB(0, 8)},
    {KDB(1, 1), KDB(1, 2), KDB(1, 3), KDB(1, 4), KDB(1, 5), KDB(1, 6),
     KDB(1, 7), KDB(1, 8)},
};

/* A byte a board plus the work space of the largest layer: 8 houses at
 * 20 seeds would be 7.3 G boards, hours and gigabytes asked for by one
 * option (over UGI, by a controller). Nothing beyond 2^30 boards. */
int kalah_db_fit(int houses, int dbseeds)
{
    while (dbseeds > 0 &&
           mancala_db_positions(2 * houses, dbseeds) > KALAH_DB_MAX_BOARDS)
        dbseeds--;
    return dbseeds;
}

MancalaDb *kalah_db(int houses, int capture)
{
    if (houses < 1 || houses > KDB_MAX_HOUSES || capture < 0 || capture > 1)
        return NULL;
    return &kdb[capture][houses - 1];
}

/* The net seeds the side to move banks from here on with best play
 * (stores not counted): 0 and *net, or -1 (too many seeds, too many
 * houses, out of memory). */
static int kalah_db_probe(const Kalah *k, int maxseeds, int *net)
{
    int h = k->houses;
    if (h > KDB_MAX_HOUSES || k->capture_rule > 1)
        return -1;
    uint8_t b[MDB_MAX_HOUSES];
    int me = k->side, n = 0;
    int f = me ? h + 1 : 0, o = me ? 0 : h + 1;
    for (int i = 0; i < h; i++) {
        n += k->pit[f + i] + k->pit[o + i];
        if (n > maxseeds)
            return -1;
        b[i] = (uint8_t)k->pit[f + i];
        b[h + i] = (uint8_t)k->pit[o + i];
    }
    return mancala_db_probe(&kdb[k->capture_rule][h - 1], b, maxseeds, net);
}

int kalah_board(const void *st, uint8_t *b, int *houses, int *capture)
{
    const Kalah *k = st;
    int h = k->houses;
    if (k->over || h > KDB_MAX_HOUSES)
        return -1;
    int me = k->side, f = me ? h + 1 : 0, o = me ? 0 : h + 1, n = 0;
    for (int i = 0; i < h; i++) {
        n += k->pit[f + i] + k->pit[o + i];
        if (n > 255)
            return -1;
        b[i] = (uint8_t)k->pit[f + i];
        b[h + i] = (uint8_t)k->pit[o + i];
    }
    *houses = h;
    *capture = k->capture_rule;
    return 0;
}

static int kalah_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    Kalah *k = st;
    memset(k, 0, sizeof *k);
    k->houses = (uint8_t)opt[0];
    k->capture_rule = (uint8_t)opt[2];
    k->dbseeds = (uint8_t)opt[3];
    if (opt[0] * opt[1] * 2 > 60000)
        return ply_fail(err, "kalah: too many seeds");
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < k->houses; i++)
            k->pit[first_house(k, s) + i] = (uint16_t)opt[1];
    /* The databases are built once per process. The layers up to the
     * default (10 seeds, well under a second for six houses) here, before
     * any clock runs: built lazily at a probe they cost one move up to
     * 20 ms past its 100 ms budget (bench/overrun.sh). Larger layers
     * (dbseeds above 10: minutes and gigabytes at 20) at the first probe
     * that needs them, inside a search, so that setting a game up stays
     * cheap; PLY_DB_DIR builds or reads them all now. A failure (memory)
     * only leaves the bots without them. */
    if (!k->dbseeds || k->houses > KDB_MAX_HOUSES || k->capture_rule > 1)
        return 0;
    int fit = kalah_db_fit(k->houses, k->dbseeds);
    if (fit < k->dbseeds)
        return ply_fail(err, "kalah: dbseeds=%d with %d houses means %.2g "
                        "database boards (a byte each), more than the "
                        "limit of 2^30; at most dbseeds=%d here",
                        k->dbseeds, k->houses,
                        (double)mancala_db_positions(2 * k->houses,
                                                     k->dbseeds), fit);
    MancalaDb *db = &kdb[k->capture_rule][k->houses - 1];
    /* with PLY_DB_DIR set, through a file there (a wrong one: an error) */
    const char *dir = getenv("PLY_DB_DIR");
    if (dir && *dir) {
        char path[4096], tag[64];
        if (snprintf(path, sizeof path, "%s/kalah-%d-%s-%d.mdb", dir,
                     k->houses, capture_choices[k->capture_rule],
                     k->dbseeds) >= (int)sizeof path)
            return ply_fail(err, "database directory name too long");
        snprintf(tag, sizeof tag, "kalah houses=%d capture=%s", k->houses,
                 capture_choices[k->capture_rule]);
        return mancala_db_build_file(db, k->dbseeds, path, tag, err);
    }
    (void)mancala_db_build(db, k->dbseeds < KALAH_DB_INIT ? k->dbseeds
                                                        : KALAH_DB_INIT);
    return 0;
}

static int kalah_to_move(const void *st)
{
    const Kalah *k = st;
    return k->over ? PLAYER_TERMINAL : k->side;
}

static int kalah_gen_moves(const void *st, Move *out)
{
    const Kalah *k = st;
    int n = 0, f = first_house(k, k->side);
    if (k->over)
        return 0;
    for (int i = 0; i < k->houses; i++)
        if (k->pit[f + i])
            out[n++] = (Move)i;
    return n;
}

static void kalah_make(void *st, Move m)
{
    Kalah *k = st;
    int npits = 2 * k->houses + 2;
    int me = k->side, pos = first_house(k, me) + (int)m;
    int opp_store = store_of(k, !me);
    int seeds = k->pit[pos];
    k->pit[pos] = 0;
    while (seeds > 0) {
        pos = (pos + 1) % npits;
        if (pos == opp_store)
            continue;
        k->pit[pos]++;
        seeds--;
    }
    k->ply++;
    int f = first_house(k, me);
    if (pos >= f && pos < f + k->houses && k->pit[pos] == 1) {
        int opposite = 2 * k->houses - pos;
        if (k->pit[opposite] || k->capture_rule == CAPTURE_EMPTY) {
            k->pit[store_of(k, me)] += k->pit[opposite] + 1;
            k->pit[opposite] = 0;
            k->pit[pos] = 0;
        }
    }
    if (pos != store_of(k, me))
        k->side = (uint8_t)!me;
    kalah_check_end(k);
}

static void kalah_returns(const void *st, double *out)
{
    const Kalah *k = st;
    int a = k->pit[store_of(k, 0)] + side_seeds(k, 0);
    int b = k->pit[store_of(k, 1)] + side_seeds(k, 1);
    out[0] = a > b ? 1 : a < b ? -1 : 0;
    out[1] = -out[0];
}

static int kalah_score(const void *st, int player)
{
    const Kalah *k = st;
    return k->pit[store_of(k, player)];
}

static uint64_t kalah_hash(const void *st)
{
    const Kalah *k = st;
    uint64_t h = ply_mix64(k->side + 2u * k->over);
    for (int i = 0; i < 2 * k->houses + 2; i++)
        h = ply_mix64(h ^ ((uint64_t)k->pit[i] << 8 | (uint64_t)i));
    return h;
}

/* Setup string: "S:4,4,4,4,4,4,0:4,4,4,4,4,4,0" — the side to move (S or
 * N), South's houses from its first to its last then its store, North's
 * the same. A finished game has every house empty, so no marker is
 * needed; ":over" is accepted on input when a side is empty. */
static int kalah_to_text(const void *st, char *buf, size_t n)
{
    const Kalah *k = st;
    size_t len = 0;
    int w = snprintf(buf, n, "%c", k->side ? 'N' : 'S');
    if (w < 0 || (size_t)w >= n)
        return -1;
    len = (size_t)w;
    for (int s = 0; s < 2; s++) {
        int f = first_house(k, s);
        for (int i = 0; i <= k->houses; i++) {
            int v = i < k->houses ? k->pit[f + i] : k->pit[store_of(k, s)];
            PLY_OUT("%c%d", i ? ',' : ':', v);
        }
    }
    return (int)len;
}

static int kalah_from_text(void *st, const char *s, PlyError *err)
{
    Kalah *k = st, t;
    memset(&t, 0, sizeof t);
    t.capture_rule = k->capture_rule;
    t.dbseeds = k->dbseeds;
    if (*s != 'S' && *s != 'N')
        return ply_fail(err, "kalah setup starts with S or N (side to move)");
    t.side = *s == 'N';
    s++;
    int vals[2][KALAH_MAX_HOUSES + 1], counts[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        if (*s != ':')
            return ply_fail(err, "expected ':' before %s's pits",
                            side ? "North" : "South");
        s++;
        for (;;) {
            if (*s < '0' || *s > '9')
                return ply_fail(err, "expected a seed count at '%.10s'", s);
            long v = 0;
            while (*s >= '0' && *s <= '9') {
                v = v * 10 + (*s++ - '0');
                if (v > 60000)
                    return ply_fail(err, "seed count too large");
            }
            if (counts[side] > KALAH_MAX_HOUSES)
                return ply_fail(err, "more than %d houses per side",
                                KALAH_MAX_HOUSES);
            vals[side][counts[side]++] = (int)v;
            if (*s != ',')
                break;
            s++;
        }
    }
    int over = 0;
    if (!strcmp(s, ":over"))
        over = 1;
    else if (*s)
        return ply_fail(err, "unexpected text at the end: '%.10s'", s);
    if (counts[0] != counts[1] || counts[0] < 2)
        return ply_fail(err, "both sides need the same number of houses "
                        "(1..%d) plus a store", KALAH_MAX_HOUSES);
    t.houses = (uint8_t)(counts[0] - 1);
    long total = 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i <= t.houses; i++) {
            int idx = i < t.houses ? first_house(&t, side) + i
                                   : store_of(&t, side);
            t.pit[idx] = (uint16_t)vals[side][i];
            total += vals[side][i];
        }
    if (total > 60000)
        return ply_fail(err, "too many seeds in all");
    int empty_side = !side_seeds(&t, 0) || !side_seeds(&t, 1);
    if (over && !empty_side)
        return ply_fail(err, "':over' needs a side without seeds");
    if (empty_side)
        kalah_check_end(&t);
    *k = t;
    return 0;
}

static int kalah_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    int w = snprintf(buf, n, "%d", (int)m + 1);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int kalah_text_to_move(const void *st, const char *s, Move *m,
                              PlyError *err)
{
    const Kalah *k = st;
    if (k->over)
        return ply_fail(err, "the game is over");
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end)
        return ply_fail(err, "a kalah move is a house number 1..%d, not "
                        "'%s'", k->houses, s);
    if (v < 1 || v > k->houses)
        return ply_fail(err, "house %ld is not on the board (1..%d)", v,
                        k->houses);
    if (!k->pit[first_house(k, k->side) + v - 1])
        return ply_fail(err, "house %ld is empty", v);
    *m = (Move)(v - 1);
    return 0;
}

static int kalah_render(const void *st, char *buf, size_t n)
{
    const Kalah *k = st;
    size_t len = 0;
    /* North's houses run right to left when South looks at the board. */
    PLY_OUT("      ");
    for (int i = k->houses - 1; i >= 0; i--)
        PLY_OUT("%4d", i + 1);
    PLY_OUT("   (North's house numbers)\n      ");
    for (int i = k->houses - 1; i >= 0; i--)
        PLY_OUT("%4d", k->pit[first_house(k, 1) + i]);
    PLY_OUT("\n N %3d", k->pit[store_of(k, 1)]);
    for (int i = 0; i < k->houses; i++)
        PLY_OUT("    ");
    PLY_OUT("%4d S\n      ", k->pit[store_of(k, 0)]);
    for (int i = 0; i < k->houses; i++)
        PLY_OUT("%4d", k->pit[i]);
    PLY_OUT("\n      ");
    for (int i = 0; i < k->houses; i++)
        PLY_OUT("%4d", i + 1);
    PLY_OUT("   (South's house numbers)\n");
    return (int)len;
}

/* The board for drawing, South at the bottom: the houses of the side to
 * move carry their numbers (the notation), the stores are at the ends. */
static int kalah_layout(const void *st, Layout *l)
{
    const Kalah *k = st;
    int H = k->houses;
    l->width = (float)H + 2;
    l->height = 2;
    for (int side = 0; side < 2; side++) {
        for (int i = 0; i < H; i++) {
            char name[16] = "";
            if (!k->over && k->side == side)
                snprintf(name, sizeof name, "%d", i + 1);
            float x = side ? (float)(H - i) + 0.5f : (float)(i + 1) + 0.5f;
            LayoutCell *c = layout_cell(l, x, side ? 0.5f : 1.5f, CELL_PIT,
                                        SHADE_LIGHT, name);
            if (c) {
                c->owner = (int8_t)side;
                c->count = k->pit[first_house(k, side) + i];
            }
        }
        LayoutCell *c = layout_cell(l, side ? 0.5f : (float)H + 1.5f, 1,
                                    CELL_STORE, SHADE_DARK, NULL);
        if (c) {
            c->h = 2;
            c->owner = (int8_t)side;
            c->count = k->pit[store_of(k, side)];
        }
    }
    return 0;
}

/* Evaluation: store difference plus a fraction of the seeds on each side
 * (seeds on one's own side tend to end in one's own store). */
static int kalah_eval(const void *st, int player)
{
    const Kalah *k = st;
    int d = k->pit[store_of(k, player)] - k->pit[store_of(k, !player)];
    int s = side_seeds(k, player) - side_seeds(k, !player);
    return 100 * d + 25 * s;
}

/* Ordering: moves that end in the store (extra turn) first, then captures,
 * then moves from the house nearest the store. */
static int kalah_heuristic(const void *st, Move m)
{
    const Kalah *k = st;
    int me = k->side, h = k->houses;
    int seeds = k->pit[first_house(k, me) + (int)m];
    int dist = h - (int)m;   /* steps to the own store */
    if (seeds == dist)
        return 300;
    int lap = 2 * h + 1;
    if (seeds < lap) {
        int land = (int)m + seeds;   /* relative to the mover */
        if (land < h && k->pit[first_house(k, me) + land] == 0) {
            int opposite = 2 * h - (first_house(k, me) + land);
            return 100 + 10 * k->pit[opposite];
        }
    }
    return (int)m;
}

static int kalah_is_noisy(const void *st, Move m)
{
    return kalah_heuristic(st, m) >= 100;
}

/* Endgame databases: the result with best play of both sides from a
 * board with at most dbseeds seeds in the houses. */
static int kalah_exact(const void *st, int player, int *result)
{
    const Kalah *k = st;
    int net;
    /* far from the length cap (which the databases do not know: within a
     * layer every move carries seeds toward the mover's store, so a board
     * of n seeds ends within a few hundred plies) */
    if (k->over || !k->dbseeds || k->ply + 400 > KALAH_MAX_PLIES ||
        kalah_db_probe(k, k->dbseeds, &net))
        return 0;
    int d = k->pit[store_of(k, k->side)] - k->pit[store_of(k, !k->side)] +
            net;
    int r = d > 0 ? 1 : d < 0 ? -1 : 0;
    *result = player == k->side ? r : -r;
    return 1;
}

static int kalah_check(const void *st)
{
    const Kalah *k = st;
    if (k->houses < 1 || k->houses > KALAH_MAX_HOUSES || k->side > 1)
        return -1;
    return 0;
}

static const char *const kalah_players[] = {"South", "North"};

const GameVtbl game_kalah = {
    .info = {
        .name = "kalah",
        .title = "Kalah (mancala)",
        .num_players = 2,
        .max_moves = KALAH_MAX_HOUSES,
        .max_game_length = KALAH_MAX_PLIES,
        .state_size = sizeof(Kalah),
        .flags = GAME_ZERO_SUM,
        .player_names = kalah_players,
        .options = kalah_options,
        .notation =
            "A move is a house number 1..houses, counted from the house\n"
            "farthest from the mover's store. Setup string: the side to move\n"
            "(S or N), then ':' and South's houses (first to last) and store,\n"
            "then ':' and North's, e.g. S:4,4,4,4,4,4,0:4,4,4,4,4,4,0.",
        .rules =
            "Kalah(houses, seeds): each player owns a row of houses and a\n"
            "store on their right. A move takes all seeds from one of the\n"
            "mover's houses and sows them one by one counter-clockwise,\n"
            "skipping the opponent's store. A last seed in one's own store\n"
            "gives another move. A last seed in one's own empty house\n"
            "captures it together with the opposite house (capture=empty:\n"
            "even when the opposite house is empty; capture=nonempty: only\n"
            "when it has seeds). When one side has no seeds the game ends\n"
            "and the other side's seeds go to their owner. Most seeds wins.\n"
            "A game is cut off after 2000 plies, scored the same way.\n"
            "Bots read exact results from endgame databases (dbseeds): the\n"
            "layers up to 10 seeds are built when a game is set up, larger\n"
            "ones at the first search that reaches them; with the\n"
            "environment variable PLY_DB_DIR set all are read from\n"
            "PLY_DB_DIR/kalah-HOUSES-CAPTURE-SEEDS.mdb or built and written\n"
            "there.",
    },
    .init = kalah_init,
    .to_move = kalah_to_move,
    .gen_moves = kalah_gen_moves,
    .make = kalah_make,
    .returns = kalah_returns,
    .hash = kalah_hash,
    .to_text = kalah_to_text,
    .from_text = kalah_from_text,
    .move_to_text = kalah_move_to_text,
    .text_to_move = kalah_text_to_move,
    .render = kalah_render,
    .layout = kalah_layout,
    .eval = kalah_eval,
    .heuristic = kalah_heuristic,
    .is_noisy = kalah_is_noisy,
    .score = kalah_score,
    .check = kalah_check,
    .exact = kalah_exact,
};
