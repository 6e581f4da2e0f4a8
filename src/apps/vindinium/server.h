/* apps/vindinium/server.h — a Vindinium server speaking the official HTTP API
 * (shared/rules/vindinium-api.md), on libmicrohttpd, jansson and SQLite.
 *
 * Routes: POST /api/training (key, turns, map), POST /api/arena (key),
 * POST /api/{gameId}/{token}/play (dir), GET /events/{gameId} (the
 * official event stream: one "data: <game json>" per state),
 * GET /replay/{gameId} (the same states as one JSON array),
 * GET /{gameId} (a small page), POST /register (name) -> a new key,
 * GET /ai (ratings as JSON). Wrong methods get 405, unknown paths and
 * games 404. Finished games (start position, moves, heroes), users' Elo
 * and a journal of every running game live in SQLite (WAL), so replays,
 * ratings and games in progress survive a restart, even a kill -9. */
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
    /* connections: epoll over a pool of `threads` (2); at most max_conns
     * sockets (4096) and max_per_ip per client address (1024); a socket
     * idle for conn_timeout_s (10) while sending headers or a body, or
     * between requests, is closed (waiting long polls never time out) */
    int threads, max_conns, max_per_ip, conn_timeout_s;
    /* games: at most max_games running (512), key_games per key (8), and
     * new games per key at key_rate_per_min (120) with bursts of
     * key_burst (20); otherwise 429 */
    int max_games, key_games, key_burst, key_rate_per_min;
    /* expiry of finished training games: abandoned ones (no client move)
     * after abandoned_keep_s (600), the others after training_keep_s
     * (7 days); arena games stay */
    long long abandoned_keep_s, training_keep_s;
    /* after a restart, clients of resumed games have this long to post
     * to their play URL again before their hero times out (30000) */
    int resume_grace_ms;
} VdsConfig;

typedef struct VdServer VdServer;

void vds_config_default(VdsConfig *c);
VdServer *vds_start(const VdsConfig *c, PlyError *err);
int vds_port(const VdServer *s);
/* Registers a user (name 3..20 chars of [A-Za-z0-9_-]) and writes its new
 * key (9 bytes). */
int vds_register(VdServer *s, const char *name, char *key, PlyError *err);
/* Answers waiting requests, stops serving and closes the database;
 * running games stay journaled and resume at the next vds_start. */
void vds_stop(VdServer *s);

#endif
