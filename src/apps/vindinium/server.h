/* apps/vindinium/server.h — a Vindinium server speaking the official HTTP API
 * (shared/rules/vindinium-api.md), on libmicrohttpd, jansson and SQLite.
 *
 * Routes: POST /api/training (key, turns, map), POST /api/arena (key),
 * POST /api/{gameId}/{token}/play (dir), GET /events/{gameId} (the
 * official event stream: one "data: <game json>" per state),
 * GET /replay/{gameId} (the same states as one JSON array),
 * GET /{gameId} (a small page), POST /register (name) -> a new key,
 * GET /ai (ratings as JSON). Finished games (start position, moves,
 * heroes) and users' Elo live in SQLite, so replays and ratings survive
 * a restart. */
#ifndef PLY_VDSERVER_H
#define PLY_VDSERVER_H

#include <stdint.h>

#include "../../core/game.h"

typedef struct VdsConfig {
    const char *host;        /* bind address, default 127.0.0.1 */
    int port;                /* 0: any free port (see vds_port) */
    const char *db_path;     /* SQLite file; ":memory:" for tests */
    int timeout_ms;          /* per move, default 1000 */
    int min_move_ms;         /* official anti-flood hold (60); default 0 */
    const char *training_bot;/* Ply bot spec for training seats */
    int registered_only;     /* reject keys not in the users table */
    uint64_t seed;           /* ids, tokens, maps; 0: from the clock */
    int max_body;            /* request body bound in bytes (16 KiB) */
    int arena_turns;         /* arena game length in moves (1200) */
} VdsConfig;

typedef struct VdServer VdServer;

void vds_config_default(VdsConfig *c);
VdServer *vds_start(const VdsConfig *c, PlyError *err);
int vds_port(const VdServer *s);
/* Registers a user (name 3..20 chars of [A-Za-z0-9_-]) and writes its new
 * key (9 bytes). */
int vds_register(VdServer *s, const char *name, char *key, PlyError *err);
/* Stops serving, ends running games (remaining heroes crash) and closes
 * the database. */
void vds_stop(VdServer *s);

#endif
