/* oware_bot.c — the `oware` bot: an inner bot (alphabeta) on the game
 * with a richer evaluation than the game's own and with the endgame
 * databases read up to `db` seeds.
 *
 * The game's evaluation (oware.c) is what plain `alphabeta` plays with;
 * this bot hands its inner bot a copy of the game whose eval also counts
 * the houses each side can move from (mobility) and what the opponent
 * threatens to capture (docs/mancala.md has the terms and what each one
 * was measured to be worth). The databases: the state handed to the inner
 * bot says `db` seeds (or the game's dbseeds, when larger), so the exact
 * hook answers for every board with at most that many seeds; they are
 * built once per process (ob_databases) when the bot is made (up to 14
 * seeds; more at its first move), or read from
 * PLY_DB_DIR/oware-RULE-SEEDS.mdb (written there the first time). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "oware.h"

/* databases built when the bot is made without PLY_DB_DIR: up to 14
 * seeds (about 9 s); larger ones at its first move */
enum { OB_DB_NOW = 14 };

typedef struct ObOpts {
    int db, eval;
    char inner[OPT_TEXT_MAX];
} ObOpts;

static const char *const ob_evals[] = {"rich", "game", NULL};

static const Option ob_options[] = {
    {.key = "db", .type = OPT_INT, .def = 14, .min = 0, .max = OWARE_DB_MAX,
     .offset = offsetof(ObOpts, db),
     .help = "endgame databases up to N seeds (the game's dbseeds when "
             "larger), built once per process: 14 about 9 s of CPU and 20 "
             "MB, when the bot is made; 16 about 35 s and 60 MB, 20 several "
             "minutes and 400 MB, at its first move (so are "
             "grandslam=forbidden's); with PLY_DB_DIR set all when the bot "
             "is made, read from PLY_DB_DIR/oware-RULE-N.mdb (written there "
             "the first time); 0: the game's dbseeds only",
     .flags = OPTF_COSTLY},
    {.key = "eval", .type = OPT_CHOICE, .def = 0, .min = 0, .max = 1,
     .choices = ob_evals, .offset = offsetof(ObOpts, eval),
     .help = "the inner bot's evaluation: rich (mobility, threats, "
             "targets) or game (the game's own, for comparisons)"},
    {.key = "inner", .type = OPT_STRING, .def_text = "alphabeta",
     .offset = offsetof(ObOpts, inner),
     .help = "the bot that searches; write ';' for ',' inside it, as in "
             "inner=alphabeta:hash=64"},
    {.key = NULL},
};

typedef struct Ob {
    GameVtbl variant;       /* the game with the rich evaluation */
    ObOpts o;
    Bot *inner;
    int ready[2];           /* per grand-slam rule: the databases are
                             * there (1) or failed (-1) */
} Ob;

/* The most `side` captures with one move now, as oware_moves and
 * oware_sow would find it, without playing the moves: a sowing of fewer
 * than 12 seeds from `side`'s row that ends in the other row put one seed
 * into each of its houses up to the last, so the houses taken are those
 * from the last back that held 1 or 2. Called at a state that is not
 * over, where the other side (to move) has seeds: no feeding applies. */
static int best_capture(const Oware *o, int side)
{
    const uint8_t *pit = o->pit;
    int lo = 6 * !side, rowsum = 0;
    for (int i = lo; i < lo + 6; i++)
        rowsum += pit[i];
    int best = 0, bestslam = 0, quiet = 0;
    for (int h = 0; h < 6; h++) {
        int from = 6 * side + h, n = pit[from], c = 0, slam = 0;
        if (!n)
            continue;
        if (n >= 12) {
            uint8_t t[12];
            memcpy(t, pit, 12);
            slam = oware_sow(t, side, h, OWARE_GS_FORBIDDEN, &c);
        } else {
            int pos = (from + n) % 12;
            if (pos >= lo && pos < lo + 6) {
                for (int p = pos; p >= lo && (pit[p] == 1 || pit[p] == 2);
                     p--)
                    c += pit[p] + 1;
                slam = c && c == rowsum + pos - lo + 1;
            }
        }
        if (!slam) {
            quiet = 1;
            if (c > best)
                best = c;
        } else if (c > bestslam) {
            bestslam = c;
        }
    }
    /* a grand slam captures nothing (nocapture), or is allowed only when
     * every move is one (forbidden) */
    return o->grandslam == OWARE_GS_FORBIDDEN && !quiet ? bestslam : best;
}

/* The rich evaluation, 100 a seed: captured seeds; per row, seeds kept
 * (they feed moves and end in the owner's store when the other side is
 * starved), houses of 1 or 2 seeds (targets) and houses that can move
 * (mobility: a side with few houses to play from is forced into bad
 * sowings); and what the side not to move could capture if it were its
 * turn (the side to move has its captures searched by quiescence). The
 * game's own evaluation is the first two row terms with a target weight
 * of 25. Weights set by fixed-depth matches against it
 * (docs/mancala.md): mobility is worth the most; a bonus for houses of 12
 * or more (kroo) lost games and is left out. */
enum { W_SEED = 8, W_TARGET = 10, W_MOVE = 60, W_THREAT = 20 };

int oware_rich_eval(const void *st, int player)
{
    const Oware *o = st;
    int v = 100 * (o->store[player] - o->store[!player]);
    for (int s = 0; s < 2; s++) {
        int t = 0;
        for (int i = 0; i < 6; i++) {
            int x = o->pit[6 * s + i];
            t += W_SEED * x;
            if (x == 1 || x == 2)
                t -= W_TARGET;
            if (x)
                t += W_MOVE;
        }
        v += s == player ? t : -t;
    }
    int idle = !o->side, thr = W_THREAT * best_capture(o, idle);
    return v + (idle == player ? thr : -thr);
}

/* The databases up to the bot's `db` seeds for grand-slam rule gs: read
 * from a file under PLY_DB_DIR (written there the first time) or built
 * in memory, once per process (oware_db.c). 0, or -1 with err set (a
 * wrong file, no memory); the bot then reads the game's. */
static int ob_databases(Ob *b, int gs, PlyError *err)
{
    int *ready = &b->ready[gs & 1];
    if (*ready || !b->o.db)
        return *ready < 0 ? -1 : 0;
    const char *dir = getenv("PLY_DB_DIR");
    int rc;
    if (dir && *dir)
        rc = oware_db_build_file(gs, b->o.db, dir, err);
    else if (oware_db_build(gs, b->o.db))
        rc = ply_fail(err, "oware: out of memory for the databases");
    else
        rc = 0;
    *ready = rc ? -1 : 1;
    return rc;
}

static void ob_destroy(void *p)
{
    Ob *b = p;
    if (b)
        bot_free(b->inner);
    free(b);
}

static void *ob_create(const GameVtbl *g, const void *opts, uint64_t seed,
                       PlyError *err)
{
    if (g != &game_oware) {
        ply_fail(err, "the oware bot plays only oware");
        return NULL;
    }
    const ObOpts *o = opts;
    Ob *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->o = *o;
    b->variant = *g;
    if (o->eval == 0)
        b->variant.eval = oware_rich_eval;
    b->inner = bot_new_inner(&b->variant, "inner", o->inner, "oware", seed,
                             err);
    if (!b->inner) {
        ob_destroy(b);
        return NULL;
    }
    /* the default rule's databases now, before any clock runs, when they
     * come from a file or take seconds (up to 14 seeds); larger ones and
     * the other rule's at the bot's first move */
    const char *dir = getenv("PLY_DB_DIR");
    if ((o->db <= OB_DB_NOW || (dir && *dir)) &&
        ob_databases(b, OWARE_GS_NOCAPTURE, err)) {
        ob_destroy(b);
        return NULL;
    }
    return b;
}

static void ob_new_game(void *p)
{
    Ob *b = p;
    bot_new_game(b->inner);
}

static void ob_stop(void *p)
{
    Ob *b = p;
    bot_stop(b->inner);
}

static Move ob_choose(void *p, const void *st, const Limits *lim,
                      SearchInfo *out)
{
    Ob *b = p;
    Oware o = *(const Oware *)st;
    PlyError err = {{0}};
    if (b->o.db > o.dbseeds && !ob_databases(b, o.grandslam, &err))
        o.dbseeds = (uint8_t)b->o.db;
    return bot_choose_inner(b->inner, &o, lim, out);
}

const BotVtbl bot_oware = {
    .name = "oware",
    .help = "Oware only: an inner bot (alphabeta) over a richer evaluation "
            "than the game's (mobility, threats), reading the endgame "
            "databases up to `db` seeds (docs/mancala.md).",
    .options = ob_options,
    .options_size = sizeof(ObOpts),
    .create = ob_create,
    .destroy = ob_destroy,
    .new_game = ob_new_game,
    .choose = ob_choose,
    .stop = ob_stop,
};
