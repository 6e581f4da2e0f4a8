/* bot.c — the `reversi` bot: the exact endgame solver (solve.c) at the
 * root once few squares are empty, an inner bot (alphabeta over the
 * game's evaluation) before that or when the solve does not finish.
 *
 * At `solve` empty squares or fewer the root is solved for win, draw or
 * loss (the null window around 0, far cheaper than the exact score); at
 * `exact` or fewer for the exact final disc difference, which also picks
 * the least bad move of a lost position. A win or a draw found is
 * played; a loss, or a solve stopped by its share of the move's time,
 * leaves the move to the inner bot with the time that is left. The
 * solver's table stays from move to move and game to game: its entries
 * are facts about boards, and the solves of one game's later moves find
 * most of their work done. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/bot.h"
#include "reversi.h"

typedef struct RbOpts {
    int solve, exact, share, hash_mib, eval;
    char inner[OPT_TEXT_MAX];
} RbOpts;

static const char *const rb_evals[] = {"patterns", "classic", NULL};

static const Option rb_options[] = {
    {.key = "solve", .type = OPT_INT, .def = 20, .min = 0, .max = 60,
     .offset = offsetof(RbOpts, solve),
     .help = "empty squares at or below which the root is solved (win, "
             "draw or loss) before the inner bot is asked (0: never)"},
    {.key = "exact", .type = OPT_INT, .def = 14, .min = 0, .max = 60,
     .offset = offsetof(RbOpts, exact),
     .help = "empty squares at or below which the solve finds the exact "
             "final disc difference (the best margin, the least bad loss) "
             "instead of the result only"},
    {.key = "share", .type = OPT_INT, .def = 60, .min = 1, .max = 100,
     .offset = offsetof(RbOpts, share),
     .help = "percent of a timed move the solve may take before the inner "
             "bot gets the rest"},
    {.key = "hash", .type = OPT_INT, .def = 64, .min = 0, .max = 65536,
     .offset = offsetof(RbOpts, hash_mib), .engine = "Hash",
     .help = "the solver's transposition table, MiB (kept across moves "
             "and games: its entries are exact facts about boards)",
     .flags = OPTF_COSTLY},
    {.key = "eval", .type = OPT_CHOICE, .def = 0, .min = 0, .max = 1,
     .choices = rb_evals, .offset = offsetof(RbOpts, eval),
     .help = "the inner bot's evaluation: patterns (the game's, fitted to "
             "self-play) or classic (the hand-set one before it, for "
             "comparisons)"},
    {.key = "inner", .type = OPT_STRING, .def_text = "alphabeta",
     .offset = offsetof(RbOpts, inner),
     .help = "the bot for the moves before the solve and those it does "
             "not settle; write ';' for ',' inside it, as in "
             "inner=alphabeta:qs=0;hash=64"},
    {.key = NULL},
};

typedef struct Rb {
    const GameVtbl *g;
    GameVtbl variant;       /* eval=classic: the game with that eval */
    RbOpts o;
    void *table;
    RvSolver s;
    Bot *inner;
    atomic_int halt;
} Rb;

static void rb_destroy(void *p)
{
    Rb *b = p;
    if (b) {
        bot_free(b->inner);
        free(b->table);
    }
    free(b);
}

static void *rb_create(const GameVtbl *g, const void *opts, uint64_t seed,
                       PlyError *err)
{
    if (g != &game_reversi) {
        ply_fail(err, "the reversi bot plays only reversi");
        return NULL;
    }
    const RbOpts *o = opts;
    Rb *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    b->o = *o;
    atomic_init(&b->halt, 0);
    size_t bytes = (size_t)o->hash_mib << 20;
    if (bytes) {
        b->table = calloc(1, bytes);
        if (!b->table) {
            ply_fail(err, "reversi: no memory for a %d MiB table",
                     o->hash_mib);
            free(b);
            return NULL;
        }
    }
    rv_solver_init(&b->s, b->table, bytes);
    b->variant = *g;
    if (o->eval == 1)
        b->variant.eval = rv_eval_classic;
    b->inner = bot_new_inner(&b->variant, "inner", o->inner, "reversi", seed,
                             err);
    if (!b->inner) {
        rb_destroy(b);
        return NULL;
    }
    return b;
}

static void rb_new_game(void *p)
{
    Rb *b = p;
    bot_new_game(b->inner);     /* the solver's table stays: exact facts */
}

static void rb_stop(void *p)
{
    Rb *b = p;
    atomic_store(&b->halt, 1);
    bot_stop(b->inner);
}

static Move rb_choose(void *p, const void *st, const Limits *lim,
                      SearchInfo *out)
{
    Rb *b = p;
    const Reversi *r = st;
    atomic_store(&b->halt, 0);
    if (!r->moves)
        return out->best = REVERSI_PASS;
    uint64_t P = r->disc[r->side], O = r->disc[!r->side];
    int empties = 64 - rv_popcount(P | O);
    BotClock clk;
    botclock_start(&clk, lim, lim->time_ms > 0
                   ? lim->time_ms * b->o.share / 100 : 0);
    if (empties <= b->o.solve) {
        int exact = empties <= b->o.exact, score, best;
        uint64_t n0 = b->s.nodes;
        b->s.clk = lim->time_ms > 0 ? &clk : NULL;
        b->s.halt = &b->halt;
        int rc = rv_solve(&b->s, P, O, exact ? -RV_SCORE_MAX : -1,
                          exact ? RV_SCORE_MAX : 1, &score, &best);
        b->s.clk = NULL;
        out->nodes = b->s.nodes - n0;
        if (rc == 0 && best >= 0 && best < 64 && (exact || score >= 0)) {
            out->best = (Move)best;
            out->proven = score > 0 ? 1 : score < 0 ? -1 : 0;
            out->value = exact ? 100 * score
                         : out->proven * (EVAL_WIN - empties);
            out->depth = out->seldepth = empties;
            out->pv_len = 1;
            out->pv[0] = (Move)best;
            return (Move)best;
        }
        if (atomic_load(&b->halt))
            return out->best = (Move)rv_ctz(r->moves);
    }
    Limits rest = *lim;
    if (lim->time_ms > 0) {
        rest.time_ms = lim->time_ms - botclock_elapsed_us(&clk) / 1000;
        if (rest.time_ms < 1)
            rest.time_ms = 1;
    }
    uint64_t solved = out->nodes;
    /* without limits of its own the inner bot keeps its spec's */
    Move m = bot_choose_inner(b->inner, st, &rest, out);
    out->nodes += solved;
    return m;
}

const BotVtbl bot_reversi = {
    .name = "reversi",
    .help = "Reversi only: the exact endgame solver at the root from "
            "`solve` empty squares (win, draw or loss; the exact disc "
            "difference from `exact`), an inner bot (alphabeta) before "
            "and for what the solve does not settle.",
    .options = rb_options,
    .options_size = sizeof(RbOpts),
    .create = rb_create,
    .destroy = rb_destroy,
    .new_game = rb_new_game,
    .choose = rb_choose,
    .stop = rb_stop,
};
