/* vindinium.h — the Vindinium state and rules, shared by the game's own
 * files (game.c, maps.c, generator.c), its bots and the HTTP server.
 * Rules follow the reference Scala server (shared/rules/vindinium.md).
 *
 * Coordinates as the reference server: x is the row (north-south), y the
 * column; cell index = x * size + y. Heroes are 0..3 here (1..4 in the
 * official JSON and in map strings). */
#ifndef PLY_VINDINIUM_H
#define PLY_VINDINIUM_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"

enum {
    VD_MAX = 32,                 /* largest board side (random maps: 28) */
    VD_CELLS = VD_MAX * VD_MAX,
    VD_MAX_MINES = 256,
    VD_HEROES = 4,
    VD_MAX_TURNS = 2400,         /* the API's cap: 600 per hero */
    VD_MAX_LIFE = 100,
    VD_BEER_LIFE = 50, VD_BEER_GOLD = 2,
    VD_MINE_LIFE = 20, VD_DEFEND_LIFE = 20,
};

/* Tiles. A mine owned by hero h (0..3) is VD_MINE + 1 + h. */
enum { VD_AIR = 0, VD_WALL = 1, VD_TAVERN = 2, VD_MINE = 3 };

/* Moves: the official directions, plus the server's timeout pseudo-move
 * (never generated, accepted by make). */
enum { VD_STAY = 0, VD_NORTH = 1, VD_EAST = 2, VD_SOUTH = 3, VD_WEST = 4,
       VD_CRASH = 5 };

typedef struct VdHero {
    uint8_t x, y;         /* position */
    uint8_t sx, sy;       /* respawn point */
    int16_t life;
    uint8_t last_dir;     /* 0 none yet, else 1 + move (VD_STAY..VD_WEST) */
    uint8_t crashed;
    int32_t gold;
} VdHero;

typedef struct Vd {
    uint8_t size;
    uint8_t training;     /* a crash of hero 0 ends the game */
    uint8_t finished;
    uint8_t pad;
    uint16_t mine_count;  /* number of mine cells */
    uint16_t owned[VD_HEROES];   /* mines owned per hero */
    int32_t turn, max_turns;
    VdHero hero[VD_HEROES];
    uint64_t map_hash;    /* walls, taverns, mine cells, spawns */
    uint64_t own_hash;    /* Zobrist of mine owners, kept incrementally */
    uint16_t mine_cell[VD_MAX_MINES];
    uint8_t tile[VD_CELLS];
} Vd;

/* Board helpers. */
static inline int vd_cell(const Vd *v, int x, int y)
{
    return x * v->size + y;
}
static inline int vd_is_mine(int t)
{
    return t >= VD_MINE;
}
/* Owner of a mine tile: -1 neutral, else 0..3. */
static inline int vd_mine_owner(int t)
{
    return t - VD_MINE - 1;
}
/* Hero standing on (x, y), or -1. */
static inline int vd_hero_at(const Vd *v, int x, int y)
{
    for (int h = 0; h < VD_HEROES; h++)
        if (v->hero[h].x == x && v->hero[h].y == y)
            return h;
    return -1;
}
static const int vd_dx[5] = {0, -1, 0, 1, 0};
static const int vd_dy[5] = {0, 0, 1, 0, -1};

/* Game flow. */
static inline int vd_to_move(const Vd *v)
{
    return v->finished ? -1 : v->turn % VD_HEROES;
}
/* Plays move m (VD_STAY..VD_WEST or VD_CRASH) for the hero to move. */
void vd_apply(Vd *v, int m);
/* Recomputes owned[], mine list and hashes from tile[] (after edits). */
void vd_refresh(Vd *v);
uint64_t vd_hash(const Vd *v);
/* Ranking returns, ties shared: pairwise 1 / 0.5 / 0 on gold, scaled to
 * [-1, 1] (the same pairwise scores as the official Elo). */
void vd_returns(const Vd *v, double *out);

/* Maps. A map is a board with the heroes' start and respawn points; these
 * fill v (tile, size, heroes at 100 HP, 0 gold), leaving the turn fields
 * to the caller. */
extern const char *const vd_map_names[];   /* "m1".."m6", NULL-terminated */
int vd_load_fixed(Vd *v, int index, PlyError *err);
/* A literal map in the official two-character format (@1..@4 starts). */
int vd_parse_map(Vd *v, const char *text, PlyError *err);
/* The seeded random generator of the reference server (sizes 10..28). */
int vd_generate(Vd *v, uint64_t seed, PlyError *err);
/* Generator with a given size and densities (size even, >= 8). */
int vd_generate_with(Vd *v, uint64_t seed, int size, int wall_pct,
                     int mine_pct, PlyError *err);

/* The official JSON tile string (2 chars per cell, heroes as @N) into buf
 * of at least 2*size*size+1 bytes. */
void vd_tiles_string(const Vd *v, char *buf);

/* Shared BFS over cells walkable for a hero (Air), from a start cell;
 * dist[] gets -1 for unreachable cells. Targets (mines, taverns) are not
 * entered but get the distance of the move that bumps into them. */
void vd_bfs(const Vd *v, int start, int16_t *dist);

#endif
