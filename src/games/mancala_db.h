/* mancala_db.h — endgame databases by retrograde analysis for sowing games
 * (Oware, Kalah): for every board with at most N seeds in play, the net
 * seeds the side to move gains from there with best play of both sides.
 *
 * A board is 2h houses seen from the side to move (its row first). Boards
 * with n seeds in play form layer n, indexed by the rank of the
 * composition of n into 2h houses. A move that takes seeds out of play
 * (captures, a store) leads to a lower layer, already solved; one that
 * keeps them stays in the layer. Each layer is solved by value iteration
 * from 0: v_{k+1}(p) = max over moves of (gain ± v_k(child)), + when the
 * mover moves again (Kalah's extra turn), - when the other side moves,
 * with v_k the value of the game cut after k in-layer plies. The first k
 * with v_{k+1} = v_k gives the exact values of the game in which endless
 * play splits the seeds in play (each value's attractor is reached within
 * k plies, and a fixed point of the update stays one). Values are net
 * seeds, -n..n, one byte per board. No edges are stored: a step
 * recomputes only the boards a move of which leads to a board that
 * changed in the last step, found by taking sowings back (moves that
 * stay in a layer sow without capture and pass the turn), so building
 * layer n needs about three bytes per board of it besides the byte per
 * board of the layers below.
 *
 * A MancalaDb is a process-wide cache that its game defines statically,
 * immutable once a layer is published: layers are built under a lock on
 * first use and read without one. */
#ifndef PLY_MANCALA_DB_H
#define PLY_MANCALA_DB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../core/game.h"

enum {
    MDB_MAX_HOUSES = 16,    /* houses of both sides */
    MDB_MAX_SEEDS = 24,
    MDB_MAX_MOVES = MDB_MAX_HOUSES / 2,     /* moves of one side */
};

/* What a move did (MancalaRules.play). */
enum { MDB_PASS, MDB_AGAIN, MDB_END };

typedef struct MancalaRules {
    int houses;             /* of both sides: 2h <= MDB_MAX_HOUSES */
    int variant;            /* the game's own rule choice, for its hooks */
    /* The legal moves of the side to move (board from its view), in any
     * order; their count. 0: it cannot move (see stuck). */
    int (*moves)(const struct MancalaRules *r, const uint8_t *b, int *out);
    /* Plays a move on b (from the mover's view) and returns MDB_PASS (b
     * is left from the mover's view; the other side moves next),
     * MDB_AGAIN (the mover moves again) or MDB_END (the game is over).
     * *gain: the seeds the move takes out of play for the mover net of
     * the opponent's (for MDB_END, everything left to collect too). */
    int (*play)(const struct MancalaRules *r, uint8_t *b, int move,
                int *gain);
    /* The net value for the side to move of a board where it cannot
     * move. */
    int (*stuck)(const struct MancalaRules *r, const uint8_t *b);
} MancalaRules;

typedef struct MancalaDb {
    pthread_mutex_t lock;
    const MancalaRules *rules;
    uint32_t c[MDB_MAX_HOUSES + 1][MDB_MAX_SEEDS + 1];  /* compositions */
    atomic_int built;       /* layers 0..built-1 are complete */
    int8_t *layer[MDB_MAX_SEEDS + 1];
} MancalaDb;

#define MANCALA_DB_INIT(rulesp) \
    { .lock = PTHREAD_MUTEX_INITIALIZER, .rules = (rulesp) }

/* Builds the layers up to maxseeds now: 0, or -1 when out of memory or
 * maxseeds is beyond MDB_MAX_SEEDS. */
int mancala_db_build(MancalaDb *db, int maxseeds);
/* As mancala_db_build, through the file `path`: when it exists, its
 * layers are read (it must be a database of these rules: `tag` names the
 * game and its rules, checked with the houses and a checksum); else the
 * layers are built and written there (through path.tmp, then renamed).
 * 0, or -1 with err set: a file of other rules or seeds, a corrupt or
 * short one, one that cannot be written, out of memory. */
int mancala_db_build_file(MancalaDb *db, int maxseeds, const char *path,
                          const char *tag, PlyError *err);
/* The value of board b (from the side to move's view, n seeds in play):
 * 0 and *net, or -1 when n > maxseeds or memory runs out. */
int mancala_db_probe(MancalaDb *db, const uint8_t *b, int maxseeds,
                     int *net);
/* Frees the layers of a database that is no longer used (tests). */
void mancala_db_free(MancalaDb *db);
/* Boards with at most maxseeds seeds in 2h houses, for reports. */
uint64_t mancala_db_positions(int houses, int maxseeds);

#endif
