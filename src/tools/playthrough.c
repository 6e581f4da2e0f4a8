/* playthrough.c — a seeded random game as a transcript (playthrough.h).
 *
 * Layout, one item a line: comment lines (#) saying what the file is and
 * the command that rewrites it; the metadata (game, players, options as
 * used, flags, seed, ply cap); per ply "ply N", its setup string, and
 * "legal L  mover P (Name)  move M"; the final setup string; how it ended
 * and the returns. Numbers are printed with fixed formats so that the
 * bytes do not depend on the C library. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/setup.h"
#include "playthrough.h"

enum { TEXT_MAX = 16384 };

static int option_count(const GameVtbl *g)
{
    int k = 0;
    while (g->info.options && g->info.options[k].key)
        k++;
    return k;
}

/* Every option with the value used, defaults included. */
static void write_options(const GameVtbl *g, const int *opt, FILE *out)
{
    int k = option_count(g);
    fputs("options:", out);
    if (k == 0)
        fputs(" (none)", out);
    for (int i = 0; i < k; i++) {
        const GameOption *o = &g->info.options[i];
        if (o->type == OPT_CHOICE)
            fprintf(out, "%s%s=%s", i ? "," : " ", o->key,
                    o->choices[opt[i]]);
        else
            fprintf(out, "%s%s=%d", i ? "," : " ", o->key, opt[i]);
    }
    fputc('\n', out);
}

static void write_header(const GameVtbl *g, const int *opt,
                         const char *nondefault, uint64_t seed,
                         int max_plies, FILE *out)
{
    const GameInfo *in = &g->info;
    fprintf(out,
            "# Golden playthrough: a seeded random game, each move drawn "
            "uniformly\n"
            "# by the core Rng, chance outcomes by their probabilities, "
            "at most\n"
            "# %d plies. Checked by tests/unit/test_golden.c; rewrite "
            "with `make golden`.\n", max_plies);
    fprintf(out, "# command: ply playthrough %s --seed %" PRIu64
            " --plies %d", in->name, seed, max_plies);
    if (nondefault[0])
        fprintf(out, " --options %s", nondefault);
    fputc('\n', out);
    fprintf(out, "game: %s\n", in->name);
    fprintf(out, "title: %s\n", in->title);
    fprintf(out, "players: %d:", in->num_players);
    for (int p = 0; p < in->num_players; p++)
        fprintf(out, "%s%s", p ? ", " : " ", in->player_names[p]);
    fputc('\n', out);
    write_options(g, opt, out);
    fputs("flags:", out);
    static const char *const flag_names[] = {"zero-sum", "chance", "hidden",
                                             "impartial"};
    int any = 0;
    for (int i = 0; i < 4; i++)
        if (in->flags & (1u << i)) {
            fprintf(out, " %s", flag_names[i]);
            any = 1;
        }
    fputs(any ? "\n" : " (none)\n", out);
    fprintf(out, "max_game_length: %d\n", in->max_game_length);
    fprintf(out, "seed: %" PRIu64 "\n", seed);
    fprintf(out, "max_plies: %d\n", max_plies);
}

/* A chance outcome drawn by its probability (the last one when rounding
 * leaves the sum short of 1). */
static int draw_chance(Rng *r, const double *pr, int n)
{
    double x = rng_double(r), acc = 0;
    for (int i = 0; i < n; i++) {
        acc += pr[i];
        if (x < acc)
            return i;
    }
    return n - 1;
}

/* Returns as "%.6f", with -0 written as 0. */
static void write_returns(const GameVtbl *g, const void *st, FILE *out)
{
    double r[PLY_MAX_PLAYERS];
    g->returns(st, r);
    fputs("returns:", out);
    for (int p = 0; p < g->info.num_players; p++)
        fprintf(out, " %.6f", r[p] == 0 ? 0.0 : r[p]);
    fputc('\n', out);
}

int playthrough_write(const GameVtbl *g, const char *options, uint64_t seed,
                      int max_plies, FILE *out, PlyError *err)
{
    if (max_plies < 0 || max_plies > PLAYTHROUGH_MAX_PLIES)
        return ply_fail(err, "plies must be 0..%d", PLAYTHROUGH_MAX_PLIES);
    int opt[PLY_MAX_OPTIONS];
    char nondefault[1024];
    if (options_parse(g, options, opt, err))
        return -1;
    if (options_to_text(g, opt, nondefault, sizeof nondefault) < 0)
        return ply_fail(err, "options too long");
    int rc = 0;
    void *st = state_alloc(g);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
    char *text = malloc(TEXT_MAX);
    if (!mv || !pr || !text) {
        rc = ply_fail(err, "out of memory");
        goto done;
    }
    if (state_setup(g, st, options, NULL, seed, err)) {
        rc = -1;
        goto done;
    }
    write_header(g, opt, nondefault, seed, max_plies, out);
    Rng r;
    rng_seed(&r, seed);
    int ply = 0;
    for (;; ply++) {
        if (g->to_text(st, text, TEXT_MAX) < 0) {
            rc = ply_fail(err, "ply %d: no setup string", ply);
            goto done;
        }
        fprintf(out, "ply %d\n  setup %s\n", ply, text);
        int p = g->to_move(st);
        if (p == PLAYER_TERMINAL || ply >= max_plies)
            break;
        int n = p == PLAYER_CHANCE ? g->chance_outcomes(st, mv, pr)
                                   : g->gen_moves(st, mv);
        if (n <= 0) {
            rc = ply_fail(err, "ply %d: no moves at a live position", ply);
            goto done;
        }
        int k = p == PLAYER_CHANCE ? draw_chance(&r, pr, n)
                                   : (int)rng_below(&r, (uint32_t)n);
        if (g->move_to_text(st, mv[k], text, TEXT_MAX) < 0) {
            rc = ply_fail(err, "ply %d: move %d has no text", ply, k);
            goto done;
        }
        if (p == PLAYER_CHANCE)
            fprintf(out, "  legal %d  mover chance  move %s\n", n, text);
        else
            fprintf(out, "  legal %d  mover %d (%s)  move %s\n", n, p,
                    g->info.player_names[p], text);
        g->make(st, mv[k]);
    }
    if (g->to_move(st) == PLAYER_TERMINAL) {
        fprintf(out, "end: terminal after %d plies\n", ply);
        write_returns(g, st, out);
    } else {
        fprintf(out, "end: cut after %d plies (not terminal)\n", ply);
        fputs("returns: (game not over)\n", out);
    }
done:
    free(st);
    free(mv);
    free(pr);
    free(text);
    return rc;
}
