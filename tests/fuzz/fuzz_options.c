/* fuzz_options.c — the game options parser (`--options k=v,...`) of every
 * game. Input: a game byte, then the text. Accepted options must print
 * back (options_to_text) to text that parses to the same values, and a
 * game set up with them must have a sane position. */
#include "fuzz.h"

/* Whether a setup under opt would build endgame databases beyond the
 * game's defaults (a "dbseeds" option above its default, or more
 * "houses" than the default with databases on): a documented cost that
 * the user chooses (kalah with 8 houses: 4 s at init in a release build,
 * 76 s under the sanitizers, minutes on a loaded machine, where
 * libFuzzer's timeout took it for a hang), not a parser path. */
static int costly_setup(const GameVtbl *g, const int *opt)
{
    int db = -1, more = 0;
    for (int i = 0; g->info.options && g->info.options[i].key; i++) {
        const GameOption *o = &g->info.options[i];
        if (!strcmp(o->key, "dbseeds"))
            db = opt[i] > o->def ? 2 : opt[i] > 0;
        else if (!strcmp(o->key, "houses") && opt[i] > o->def)
            more = 1;
    }
    return db == 2 || (db == 1 && more);
}

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    char *text = fuzz_rest(in);
    int opt[PLY_MAX_OPTIONS] = {0}, opt2[PLY_MAX_OPTIONS] = {0};
    PlyError err = {{0}};
    if (options_parse(g, text, opt, &err) == 0) {
        char buf[1024];
        if (options_to_text(g, opt, buf, sizeof buf) < 0)
            abort();
        if (options_parse(g, buf, opt2, &err) ||
            memcmp(opt, opt2, sizeof opt))
            abort();    /* printed options do not parse back the same */
        if (costly_setup(g, opt)) {
            free(text);
            return;
        }
        void *st = state_alloc(g);
        if (!st)
            abort();
        if (state_setup(g, st, buf, NULL, 1, &err) == 0 &&
            g->to_move(st) != PLAYER_TERMINAL) {
            Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
            int n = g->gen_moves(st, mv);
            if (n < 0 || n > g->info.max_moves)
                abort();
            free(mv);
        } else if (err.msg[0] == 0 && g->to_move(st) != PLAYER_TERMINAL) {
            abort();
        }
        free(st);
    } else if (!err.msg[0]) {
        abort();        /* rejected without saying why */
    }
    free(text);
}

/* Every option of every game at its minimum, default and maximum, and
 * a few broken forms. */
static void fuzz_seeds(FuzzSeeds *s)
{
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        uint8_t head = (uint8_t)gi;
        fuzz_seedf(s, &head, 1, "%s", "");
        for (const GameOption *o = g->info.options; o && o->key; o++) {
            if (o->type == OPT_CHOICE) {
                for (int c = 0; o->choices[c]; c++)
                    fuzz_seedf(s, &head, 1, "%s=%s", o->key, o->choices[c]);
                continue;
            }
            fuzz_seedf(s, &head, 1, "%s=%.0f", o->key, o->min);
            fuzz_seedf(s, &head, 1, "%s=%.0f", o->key, o->max);
            fuzz_seedf(s, &head, 1, "%s=%.0f,%s=%.0f", o->key, o->def,
                       o->key, o->max);
        }
        fuzz_seedf(s, &head, 1, "%s", "x=1,,=");
    }
}
