/* oware_db.c — Oware's endgame databases: its rules for mancala_db.c (a
 * capture takes seeds out of play; a side that cannot move leaves each
 * row's seeds to its owner), one database per grand-slam rule. */
#include <string.h>

#include "mancala_db.h"
#include "oware.h"

static int row(const uint8_t *b, int side)
{
    int s = 0;
    for (int i = 0; i < 6; i++)
        s += b[6 * side + i];
    return s;
}

static int ow_moves(const MancalaRules *r, const uint8_t *b, int *out)
{
    return oware_moves(b, 0, r->variant, out);
}

static int ow_play(const MancalaRules *r, uint8_t *b, int move, int *gain)
{
    oware_sow(b, 0, move, r->variant, gain);
    return MDB_PASS;
}

static int ow_stuck(const MancalaRules *r, const uint8_t *b)
{
    (void)r;
    return row(b, 0) - row(b, 1);
}

static const MancalaRules rules[2] = {
    {.houses = 12, .variant = 0, .moves = ow_moves, .play = ow_play,
     .stuck = ow_stuck},
    {.houses = 12, .variant = 1, .moves = ow_moves, .play = ow_play,
     .stuck = ow_stuck},
};

static MancalaDb dbs[2] = {MANCALA_DB_INIT(&rules[0]),
                           MANCALA_DB_INIT(&rules[1])};

int oware_db_build(int gs, int maxseeds)
{
    if (gs < 0 || gs > 1 || maxseeds > OWARE_DB_MAX)
        return -1;
    return mancala_db_build(&dbs[gs], maxseeds);
}

int oware_db_build_file(int gs, int maxseeds, const char *dir,
                        PlyError *err)
{
    static const char *const gsname[2] = {"nocapture", "forbidden"};
    if (gs < 0 || gs > 1 || maxseeds > OWARE_DB_MAX)
        return ply_fail(err, "oware databases: no such rules or seeds");
    char path[4096], tag[64];
    if (snprintf(path, sizeof path, "%s/oware-%s-%d.mdb", dir, gsname[gs],
                 maxseeds) >= (int)sizeof path)
        return ply_fail(err, "database directory name too long");
    snprintf(tag, sizeof tag, "oware grandslam=%s", gsname[gs]);
    return mancala_db_build_file(&dbs[gs], maxseeds, path, tag, err);
}

uint64_t oware_db_positions(int maxseeds)
{
    return mancala_db_positions(12, maxseeds);
}

int oware_db_probe(const uint8_t *pit, int side, int gs, int maxseeds,
                   int *net)
{
    uint8_t b[12];
    if (gs < 0 || gs > 1 || maxseeds > OWARE_DB_MAX)
        return -1;
    if (side) {
        memcpy(b, pit + 6, 6);
        memcpy(b + 6, pit, 6);
    } else {
        memcpy(b, pit, 12);
    }
    return mancala_db_probe(&dbs[gs], b, maxseeds, net);
}
