/* record_json.c — a match record's JSON line (`ply match --out`) to the
 * plain Record the formats read, and back. Nothing here prints: tests
 * link it alone. */
#include <stdlib.h>
#include <string.h>

#include "records.h"

static const char *str_field(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

int record_from_json(json_t *o, Record *r, const char ***moves,
                     PlyError *err)
{
    record_init(r);
    *moves = NULL;
    r->game = str_field(o, "game");
    if (!r->game)
        return ply_fail(err, "no \"game\" string");
    r->options = str_field(o, "options");
    r->setup = str_field(o, "setup");
    r->reason = str_field(o, "reason");
    r->error = str_field(o, "error");
    json_t *seats = json_object_get(o, "seats");
    if (json_is_array(seats)) {
        if (json_array_size(seats) > PLY_MAX_PLAYERS)
            return ply_fail(err, "\"seats\" has more than %d names",
                            PLY_MAX_PLAYERS);
        r->nseats = (int)json_array_size(seats);
        for (int i = 0; i < r->nseats; i++) {
            json_t *s = json_array_get(seats, (size_t)i);
            r->seats[i] = json_is_string(s) ? json_string_value(s) : NULL;
        }
    }
    json_t *res = json_object_get(o, "result");
    if (res) {
        size_t n = json_is_array(res) ? json_array_size(res) : 0;
        int ok = n >= 1 && n <= PLY_MAX_PLAYERS &&
                 (!r->nseats || n == (size_t)r->nseats);
        for (size_t i = 0; ok && i < n; i++)
            ok = json_is_number(json_array_get(res, i));
        if (!ok)
            return ply_fail(err, "\"result\" is not a list of numbers, one "
                            "per seat");
        if (!r->nseats)     /* seats unnamed: as many as results */
            r->nseats = (int)n;
        r->has_result = 1;
        for (size_t i = 0; i < n; i++)
            r->result[i] = json_number_value(json_array_get(res, i));
    }
    json_t *idx = json_object_get(o, "index");
    if (json_is_integer(idx))
        r->index = (long)json_integer_value(idx);
    json_t *plies = json_object_get(o, "opening_plies");
    if (json_is_integer(plies) && json_integer_value(plies) > 0 &&
        json_integer_value(plies) < 1000000)
        r->opening_plies = (int)json_integer_value(plies);
    json_t *seed = json_object_get(o, "seed");
    if (json_is_integer(seed)) {
        r->has_seed = 1;
        r->seed = (uint64_t)json_integer_value(seed);
    }
    json_t *mv = json_object_get(o, "moves");
    if (!json_is_array(mv))
        return ply_fail(err, "no \"moves\" array");
    size_t n = json_array_size(mv);
    if (n > 1000000)
        return ply_fail(err, "too many moves");
    const char **m = malloc(sizeof *m * (n + 1));
    if (!m)
        return ply_fail(err, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(mv, i);
        if (!json_is_string(s)) {
            free(m);
            return ply_fail(err, "move %zu is not a string", i + 1);
        }
        m[i] = json_string_value(s);
    }
    r->nmoves = (int)n;
    r->moves = m;
    *moves = m;
    return 0;
}

/* A number as an integer when it is one (1, -1, 0), as records write. */
static json_t *number(double v)
{
    if (v == (double)(long long)v)
        return json_integer((json_int_t)v);
    return json_real(v);
}

json_t *record_to_json(const Record *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(r->game ? r->game : ""));
    json_object_set_new(o, "options",
                        json_string(r->options ? r->options : ""));
    json_object_set_new(o, "setup", json_string(r->setup ? r->setup : ""));
    json_t *seats = json_array();
    for (int i = 0; i < r->nseats; i++)
        json_array_append_new(seats, json_string(r->seats[i] ? r->seats[i]
                                                 : "?"));
    json_object_set_new(o, "seats", seats);
    json_t *moves = json_array();
    for (int i = 0; i < r->nmoves; i++)
        json_array_append_new(moves, json_string(r->moves[i]));
    json_object_set_new(o, "moves", moves);
    if (r->has_result) {
        json_t *res = json_array();
        for (int i = 0; i < r->nseats; i++)
            json_array_append_new(res, number(r->result[i]));
        json_object_set_new(o, "result", res);
    }
    if (r->reason)
        json_object_set_new(o, "reason", json_string(r->reason));
    if (r->error)
        json_object_set_new(o, "error", json_string(r->error));
    if (r->index >= 0)
        json_object_set_new(o, "index", json_integer(r->index));
    if (r->opening_plies > 0)
        json_object_set_new(o, "opening_plies",
                            json_integer(r->opening_plies));
    if (r->has_seed)
        json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    return o;
}

