/* apps/vindinium/json.c — the official JSON shapes (field names and order as
 * JsonFormat.scala; optional fields omitted, never null). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static const char *const dir_names[] = {NULL, "Stay", "North", "East",
                                        "South", "West"};

static json_t *pos_json(int x, int y)
{
    json_t *p = json_object();
    json_object_set_new(p, "x", json_integer(x));
    json_object_set_new(p, "y", json_integer(y));
    return p;
}

static json_t *hero_json(const Vd *v, const VdjHero *meta, int h)
{
    const VdHero *e = &v->hero[h];
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(h + 1));
    json_object_set_new(o, "name", json_string(meta[h].name));
    if (meta[h].has_user) {
        json_object_set_new(o, "userId", json_string(meta[h].user_id));
        json_object_set_new(o, "elo", json_integer(meta[h].elo));
    }
    json_object_set_new(o, "pos", pos_json(e->x, e->y));
    if (e->last_dir)
        json_object_set_new(o, "lastDir", json_string(dir_names[e->last_dir]));
    json_object_set_new(o, "life", json_integer(e->life));
    json_object_set_new(o, "gold", json_integer(e->gold));
    json_object_set_new(o, "mineCount", json_integer(v->owned[h]));
    json_object_set_new(o, "spawnPos", pos_json(e->sx, e->sy));
    json_object_set_new(o, "crashed", json_boolean(e->crashed));
    return o;
}

json_t *vdj_game(const char *id, const Vd *v, const VdjHero meta[4])
{
    json_t *g = json_object();
    json_object_set_new(g, "id", json_string(id));
    json_object_set_new(g, "turn", json_integer(v->turn));
    json_object_set_new(g, "maxTurns", json_integer(v->max_turns));
    json_t *hs = json_array();
    for (int h = 0; h < VD_HEROES; h++)
        json_array_append_new(hs, hero_json(v, meta, h));
    json_object_set_new(g, "heroes", hs);
    json_t *b = json_object();
    json_object_set_new(b, "size", json_integer(v->size));
    char tiles[2 * VD_CELLS + 1];
    vd_tiles_string(v, tiles);
    json_object_set_new(b, "tiles", json_string(tiles));
    json_object_set_new(g, "board", b);
    json_object_set_new(g, "finished", json_boolean(v->finished));
    return g;
}

json_t *vdj_envelope(const char *id, const Vd *v, const VdjHero meta[4],
                     int h, const char *token, const char *host)
{
    json_t *o = json_object();
    json_object_set_new(o, "game", vdj_game(id, v, meta));
    json_object_set_new(o, "hero", hero_json(v, meta, h));
    json_object_set_new(o, "token", json_string(token));
    char url[512];
    snprintf(url, sizeof url, "http://%s/%s", host, id);
    json_object_set_new(o, "viewUrl", json_string(url));
    snprintf(url, sizeof url, "http://%s/api/%s/%s/play", host, id, token);
    json_object_set_new(o, "playUrl", json_string(url));
    return o;
}

static int get_int(const json_t *o, const char *key, long lo, long hi,
                   long *out)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_integer(x))
        return -1;
    long long v = json_integer_value(x);
    if (v < lo || v > hi)
        return -1;
    *out = (long)v;
    return 0;
}

static int get_pos(const json_t *o, const char *key, int size, int *x,
                   int *y)
{
    json_t *p = json_object_get(o, key);
    long a, b;
    if (!json_is_object(p) || get_int(p, "x", 0, size - 1, &a) ||
        get_int(p, "y", 0, size - 1, &b))
        return -1;
    *x = (int)a;
    *y = (int)b;
    return 0;
}

int vdj_read_game(const json_t *game, Vd *v, PlyError *err)
{
    if (!json_is_object(game))
        return ply_fail(err, "vindinium json: 'game' is not an object");
    const json_t *board = json_object_get(game, "board");
    long size, turn, maxt;
    if (!json_is_object(board) || get_int(board, "size", 2, VD_MAX, &size))
        return ply_fail(err, "vindinium json: board.size missing or not in "
                        "2..%d", VD_MAX);
    const char *tiles = json_string_value(json_object_get(board, "tiles"));
    if (!tiles || strlen(tiles) != (size_t)(2 * size * size))
        return ply_fail(err, "vindinium json: board.tiles is not %ld "
                        "characters", 2 * size * size);
    if (get_int(game, "turn", 0, 1000000, &turn) ||
        get_int(game, "maxTurns", -1000000, 1000000, &maxt))
        return ply_fail(err, "vindinium json: turn or maxTurns missing");
    memset(v, 0, sizeof *v);
    v->size = (uint8_t)size;
    int mines = 0;
    for (int c = 0; c < size * size; c++) {
        char a = tiles[2 * c], b = tiles[2 * c + 1];
        int t;
        if ((a == ' ' && b == ' ') || a == '@')
            t = VD_AIR;
        else if (a == '#' && b == '#')
            t = VD_WALL;
        else if (a == '[' && b == ']')
            t = VD_TAVERN;
        else if (a == '$')
            t = b >= '1' && b <= '4' ? VD_MINE + 1 + (b - '1') : VD_MINE;
        else
            return ply_fail(err, "vindinium json: bad tile '%c%c'", a, b);
        mines += t >= VD_MINE;
        v->tile[c] = (uint8_t)t;
    }
    if (mines > VD_MAX_MINES)
        return ply_fail(err, "vindinium json: too many mines");
    const json_t *hs = json_object_get(game, "heroes");
    if (!json_is_array(hs) || json_array_size(hs) != VD_HEROES)
        return ply_fail(err, "vindinium json: heroes is not 4 heroes");
    for (int h = 0; h < VD_HEROES; h++) {
        const json_t *o = json_array_get(hs, (size_t)h);
        VdHero *e = &v->hero[h];
        long life, gold;
        int x, y, sx, sy;
        if (!json_is_object(o) || get_pos(o, "pos", (int)size, &x, &y) ||
            get_pos(o, "spawnPos", (int)size, &sx, &sy) ||
            get_int(o, "life", 0, VD_MAX_LIFE, &life) ||
            get_int(o, "gold", 0, 1000000000L, &gold))
            return ply_fail(err, "vindinium json: hero %d is incomplete",
                            h + 1);
        /* the tiles have a hero glyph there: a mine, tavern or wall
         * under a hero would be lost when the game is written back */
        if (v->tile[vd_cell(v, x, y)] != VD_AIR)
            return ply_fail(err, "vindinium json: hero %d stands on a "
                            "wall, tavern or mine", h + 1);
        e->x = (uint8_t)x;
        e->y = (uint8_t)y;
        e->sx = (uint8_t)sx;
        e->sy = (uint8_t)sy;
        e->life = (int16_t)(life < 1 ? 1 : life);
        e->gold = (int32_t)gold;
        e->crashed = json_is_true(json_object_get(o, "crashed"));
        const char *d = json_string_value(json_object_get(o, "lastDir"));
        for (int k = 1; d && k <= 5; k++)
            if (!strcmp(d, dir_names[k]))
                e->last_dir = (uint8_t)k;
    }
    v->turn = (int32_t)turn;
    v->max_turns = (int32_t)maxt;
    v->finished = json_is_true(json_object_get(game, "finished"));
    vd_refresh(v);
    return 0;
}
