/* apps/vindinium/json.h — Vindinium states as the official server's JSON (shared/rules/
 * vindinium-api.md §4), both ways: the server writes them, the client
 * reads them back into a Vd state for Ply's bots. */
#ifndef PLY_VDJSON_H
#define PLY_VDJSON_H

#include <jansson.h>

#include "../../games/vindinium/vindinium.h"

/* Who sits on a seat, for the hero objects. has_user: a registered bot
 * (name, userId and elo shown); otherwise a server bot (name only). */
typedef struct VdjHero {
    char name[32];
    char user_id[16];
    int elo;
    int has_user;
} VdjHero;

/* The "game" object (the events stream sends exactly this). */
json_t *vdj_game(const char *id, const Vd *v, const VdjHero meta[4]);
/* The envelope for hero `h` (0..3): game, hero, token, viewUrl, playUrl,
 * the URLs built from the request's Host. */
json_t *vdj_envelope(const char *id, const Vd *v, const VdjHero meta[4],
                     int h, const char *token, const char *host);
/* Reads a "game" object back into v (tiles, heroes, turn, maxTurns,
 * finished). Cells under heroes are taken as Air. */
int vdj_read_game(const json_t *game, Vd *v, PlyError *err);

#endif
