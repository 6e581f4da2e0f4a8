/* fuzz_vdgame.c — the Vindinium "game" JSON reader (vdj_read_game, what
 * the client reads from a server). Input: the JSON text. It must read a
 * state or fail with a message; a state read must be written back by
 * vdj_game() to JSON that reads back to the same JSON again. The literal
 * map parser (the game's setup strings) is fuzzed by fuzz_text. */
#include "fuzz.h"
#include "apps/vindinium/json.h"

static const VdjHero meta[VD_HEROES] = {
    {"a", "u1", 1200, 1}, {"b", "", 0, 0}, {"c", "", 0, 0}, {"d", "", 0, 0},
};

static char *dump_game(const Vd *v)
{
    json_t *j = vdj_game("fuzz", v, meta);
    if (!j)
        abort();
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(j);
    if (!s)
        abort();
    return s;
}

static void fuzz_one(FuzzIn *in)
{
    json_error_t je;
    json_t *j = json_loadb((const char *)in->data + in->pos,
                           in->size - in->pos, 0, &je);
    if (!j)
        return;
    static Vd v, v2;
    memset(&v, 0, sizeof v);
    PlyError err = {{0}};
    if (vdj_read_game(j, &v, &err) == 0) {
        char *a = dump_game(&v);
        json_t *j2 = json_loads(a, 0, &je);
        memset(&v2, 0, sizeof v2);
        if (!j2 || vdj_read_game(j2, &v2, &err))
            abort();    /* what we write, we cannot read */
        char *b = dump_game(&v2);
        if (strcmp(a, b))
            abort();
        json_decref(j2);
        free(a);
        free(b);
    } else if (!err.msg[0]) {
        abort();
    }
    json_decref(j);
}

/* Games on generated maps, a few turns in, as the server writes them. */
static void fuzz_seeds(FuzzSeeds *s)
{
    const GameVtbl *g = game_find("vindinium");
    if (!g || g->info.state_size != sizeof(Vd))
        abort();
    Vd *v = state_alloc(g);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    PlyError err = {{0}};
    for (uint64_t seed = 1; seed <= 6; seed++) {
        if (state_setup(g, v, NULL, NULL, seed, &err))
            abort();
        fuzz_random_play(g, v, seed, (int)(seed * 30), mv);
        char *a = dump_game(v);
        fuzz_seed(s, a, strlen(a));
        /* regression: hero 1 moved onto a mine of the tiles (read once
         * with the mine kept, written back without it) */
        json_error_t je;
        json_t *j = json_loads(a, 0, &je);
        const char *tiles = json_string_value(
            json_object_get(json_object_get(j, "board"), "tiles"));
        const char *mine = tiles ? strchr(tiles, '$') : NULL;
        if (mine && (mine - tiles) % 2 == 0) {
            int c = (int)(mine - tiles) / 2;
            json_t *pos = json_object_get(
                json_array_get(json_object_get(j, "heroes"), 0), "pos");
            json_object_set_new(pos, "x", json_integer(c / v->size));
            json_object_set_new(pos, "y", json_integer(c % v->size));
            char *b = json_dumps(j, JSON_COMPACT);
            fuzz_seed(s, b, strlen(b));
            free(b);
        }
        json_decref(j);
        free(a);
    }
    free(mv);
    free(v);
}
