/* oware.h — what oware.c and its endgame databases (oware_db.c) share:
 * the rules on a bare board and the database probe. A board is 12 houses,
 * South's 0..5 then North's 6..11, counter-clockwise. */
#ifndef PLY_OWARE_H
#define PLY_OWARE_H

#include <stdint.h>

#include "../core/game.h"

enum { OWARE_GS_NOCAPTURE, OWARE_GS_FORBIDDEN };
enum { OWARE_END_SPLIT, OWARE_END_OWN };
enum { OWARE_DB_DEFAULT = 10, OWARE_DB_MAX = 20 };

/* A game state (oware.c; the `oware` bot, oware_bot.c, reads it). */
typedef struct Oware {
    uint8_t pit[12];
    uint8_t store[2];
    uint8_t side;
    uint8_t over;           /* END_* */
    uint8_t grandslam;      /* OWARE_GS_* */
    uint8_t endrule;        /* OWARE_END_* */
    uint8_t length;         /* plies without a capture that end the game */
    uint8_t dbseeds;        /* databases the exact hook reads (not rules) */
    uint16_t quiet;         /* plies since the last capture */
    uint16_t ply;
} Oware;

extern const GameVtbl game_oware;

/* Sows the seeds of `side`'s house 0..5 and captures by the rules; the
 * seeds taken go to *captured. Returns 1 when the move was a grand slam
 * (it captured, or under `nocapture` would have captured, every seed the
 * opponent had). */
int oware_sow(uint8_t *pit, int side, int house, int grandslam,
              int *captured);

/* The legal houses of `side` (feeding obligation, grand-slam rule) in
 * increasing order; returns their count. */
int oware_moves(const uint8_t *pit, int side, int grandslam, int *out);

/* The net seeds `side` (to move) captures from `pit` on with best play of
 * both sides, with endless play splitting what is left equally and a side
 * without legal moves leaving each row's seeds to its owner. Builds the
 * databases up to `maxseeds` seeds for that grand-slam rule on first use
 * (a process-wide table, immutable once built). Returns 0 and sets *net,
 * or -1 when the board has more seeds or memory runs out. */
int oware_db_probe(const uint8_t *pit, int side, int grandslam,
                   int maxseeds, int *net);

/* Builds the databases up to maxseeds now; returns 0, or -1 when out of
 * memory. Positions and build statistics for reports: */
int oware_db_build(int grandslam, int maxseeds);
uint64_t oware_db_positions(int maxseeds);
/* As oware_db_build, through the file dir/oware-RULE-SEEDS.mdb
 * (mancala_db_build_file): 0, or -1 with err set. */
int oware_db_build_file(int grandslam, int maxseeds, const char *dir,
                        PlyError *err);

/* The `oware` bot's evaluation (oware_bot.c) of a game state for
 * `player`, 100 a seed. */
int oware_rich_eval(const void *st, int player);

#endif
