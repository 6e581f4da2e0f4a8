/* pdn.c — PDN records of the draughts games (every variant here and the
 * column games): tags with the PDN GameType where the variant has one,
 * the moves in Ply's notation with captures written 'x'. Every move is
 * replayed, so a bad record is reported rather than written out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"
#include "../../core/setup.h"
#include "engine.h"

/* PDN GameType numbers of the variants that have one. */
static const struct {
    const char *game;
    int type;
} game_types[] = {
    {"draughts-international", 20}, {"draughts-english", 21},
    {"draughts-pool", 23},          {"draughts-russian", 25},
    {"draughts-brazilian", 26},     {"draughts-turkish", 30},
    {"draughts-frisian", 40},
};

static int game_type(const char *name)
{
    for (size_t i = 0; i < sizeof game_types / sizeof game_types[0]; i++)
        if (!strcmp(game_types[i].game, name))
            return game_types[i].type;
    return -1;
}

static int pdn_write(const GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    PlyError local;
    if (!err)
        err = &local;
    if (g->info.num_players != 2)
        return ply_fail(err, "%s has no PDN", g->info.name);
    void *st = state_alloc(g);
    void *start = state_alloc(g);
    int rc = -1;
    if (!st || !start) {
        ply_fail(err, "out of memory");
        goto done;
    }
    if (state_setup(g, st, r->options, r->setup, 1, err))
        goto done;
    memcpy(start, st, g->info.state_size);
    char buf[8192];

    record_put_tag(out, "Event", "Ply match");
    snprintf(buf, sizeof buf, "%d", r->number);
    record_put_tag(out, "Round", buf);
    for (int p = 0; p < 2; p++)
        record_put_tag(out, g->info.player_names[p],
                p < r->nseats && r->seats[p] ? r->seats[p] : "?");
    /* the result with White's score first: 2-0, 1-1, 0-2 */
    const char *result = "*";
    if (r->has_result && r->nseats == 2) {
        int white = strcmp(g->info.player_names[0], "White") ? 1 : 0;
        double rw = r->result[white], rb = r->result[!white];
        result = rw > rb ? "2-0" : rw < rb ? "0-2" : "1-1";
    }
    record_put_tag(out, "Result", result);
    int type = game_type(g->info.name);
    if (type >= 0) {
        snprintf(buf, sizeof buf, "%d", type);
        record_put_tag(out, "GameType", buf);
    }
    record_put_tag(out, "Variant", g->info.name);
    if (r->setup && *r->setup && g->to_text(start, buf, sizeof buf) >= 0)
        record_put_tag(out, "FEN", buf);
    if (r->options && *r->options)
        record_put_tag(out, "PlyOptions", r->options);
    const char *reason = r->reason;
    if (reason && strcmp(reason, "normal"))
        record_put_tag(out, "Termination", reason);
    if (r->has_seed) {
        /* as the record writes it: a signed JSON integer */
        snprintf(buf, sizeof buf, "%lld", (long long)r->seed);
        record_put_tag(out, "PlySeed", buf);
    }

    RecordWrap w = {out, 0};
    int moveno = 1;
    for (int i = 0; i < r->nmoves; i++) {
        const char *text = r->moves[i];
        Move m;
        int p = g->to_move(st);
        int step = record_move(g, st, r, i, &m, err);
        if (step < 0)
            goto done;
        if (step) {
            /* the record ends with the illegal move that lost */
            snprintf(buf, sizeof buf, "{illegal move: %s}", text);
            record_put_word(&w, buf);
            break;
        }
        char mv[256], word[300];
        if (g->move_to_text(st, m, mv, sizeof mv) < 0)
            snprintf(mv, sizeof mv, "%s", text);
        for (char *c = mv; *c; c++)
            if (*c == ':')
                *c = 'x';
        if (p == 0)
            snprintf(word, sizeof word, "%d. %s", moveno, mv);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", moveno, mv);
        else
            snprintf(word, sizeof word, "%s", mv);
        if (p == 1)
            moveno++;
        record_put_word(&w, word);
        g->make(st, m);
    }
    record_put_word(&w, result);
    fputc('\n', out);
    rc = 0;
done:
    free(st);
    free(start);
    return rc;
}

static const GameFormat dr_pdn = {
    .name = "pdn", .extension = "pdn", .write_record = pdn_write,
};

const GameFormat *const dr_formats[] = {&dr_pdn, NULL};
