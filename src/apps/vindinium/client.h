/* apps/vindinium/client.h — plays a Ply bot on any Vindinium server over
 * HTTP (libcurl, one keep-alive connection). The client trusts no server:
 * only http and https, every playUrl on the host and port it was given,
 * no redirects, bounded answers, moves and total time. */
#ifndef PLY_VDCLIENT_H
#define PLY_VDCLIENT_H

#include <stdio.h>

#include "../../core/game.h"

typedef struct VdcOptions {
    const char *server;      /* "http://host:port" */
    const char *key;
    int arena;               /* 0 training, 1 arena */
    const char *bot;         /* Ply bot spec */
    int turns;               /* training: turns per hero, 0 = default */
    const char *map;         /* training: m1..m6 or NULL */
    uint64_t seed;
    FILE *log;               /* progress lines, may be NULL */
    int max_moves;           /* give up after this many moves (0: 1200) */
    int max_seconds;         /* and after this long in all (0: 3600) */
    int reconnect_ms;        /* retry a move this long when the server is
                                unreachable or restarting (0: 30000) */
} VdcOptions;

typedef struct VdcResult {
    char game_id[32];
    char view_url[256];
    int hero;                /* 1..4 */
    int gold[4];
    char names[4][32];
    int place;               /* 1..4 by gold (ties share the better place) */
    int moves;
    int crashed;
} VdcResult;

int vdc_play(const VdcOptions *o, VdcResult *res, PlyError *err);

#endif
