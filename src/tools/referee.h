/* referee.h — one game between players (player.h): clocks and forfeits,
 * an opening, chance, the record. The referee knows seats, a time control,
 * an opening and a seed; nothing of tournaments or protocols. */
#ifndef PLY_REFEREE_H
#define PLY_REFEREE_H

#include <stdint.h>

#include "../core/game.h"
#include "player.h"

/* One finished game. */
typedef struct GameRecord {
    uint64_t index;                 /* set by the caller (match) */
    int pairing;                    /* set by the caller (match) */
    int seats[PLY_MAX_PLAYERS];     /* set by the caller: participants */
    char setup[4096];
    int opening_plies;
    int nmoves, cap;
    char **moves;                   /* move texts */
    double result[PLY_MAX_PLAYERS];
    Reason reason;
    int loser;                      /* forfeiting seat, or -1 */
    /* moves over their time but within the grace (not forfeits), and the
     * largest excess, per seat */
    int overruns[PLY_MAX_PLAYERS];
    int64_t overrun_max_ms[PLY_MAX_PLAYERS];
    /* the move number (from 1, over the whole game) of each seat's first
     * win claim (CodeCup's '!'), 0 for none */
    int claim_ply[PLY_MAX_PLAYERS];
    /* each seat's own count of the final position where its program gave
     * one (GTP final_score), against the result written the same way */
    ScoreCheck score_check[PLY_MAX_PLAYERS];
    char score_own[PLY_MAX_PLAYERS][PLAYER_SCORE_MAX];
    char score_ref[PLAYER_SCORE_MAX];
    char error[256];
    uint64_t seed;
} GameRecord;

/* Where a game starts: a setup string (NULL: the start position, with
 * seed for random setups), then plies random moves drawn from seed. */
typedef struct Opening {
    const char *setup;
    int plies;
    uint64_t seed;
} Opening;

/* Plays plies random moves at st (uniformly; chance outcomes by their
 * odds) drawn from seed, trying the next seeds (up to 100 tries) while
 * the game ends within them or at their end; the moves go to
 * played[0..plies-1]. Returns plies, or 0 with st as it was (no try
 * lasted, plies <= 0, out of memory). moves and probs have room for
 * g->info.max_moves each. */
int referee_random_walk(const GameVtbl *g, void *st, int plies,
                        uint64_t seed, Move *moves, double *probs,
                        Move *played);

/* Plays one game of g under options between seats[0..players-1] (player
 * i at seat i), seeded by seed (chance, the players' seeds). Fills r
 * except index, pairing and seats; r->moves must start empty. 0, or -1
 * with err set when the game could not be set up at all (a player that
 * fails is a forfeit, not an error). The players are ended, not freed. */
int referee_play(const GameVtbl *g, const char *options,
                 Player *const seats[], const TimeControl *tc,
                 const Opening *op, uint64_t seed, GameRecord *r,
                 PlyError *err);
void match_record_free(GameRecord *r);

#endif
