/* ugi.h — Ply as a UGI engine (docs/protocols.md) and as a CodeCup/Caia
 * player, both over line-based streams. */
#ifndef PLY_UGI_H
#define PLY_UGI_H

#include <stdint.h>
#include <stdio.h>

#include "../core/game.h"

/* Serves UGI on in/out until "quit" or end of input. game may be NULL
 * (then the client sets it); spec NULL means the default bot. */
int ugi_run(FILE *in, FILE *out, const char *game, const char *options,
            const char *spec, uint64_t seed);

/* Plays one CodeCup game on in/out; messages go to log. Returns 0 on a
 * finished game or "Quit", 1 on a protocol error. */
int codecup_run(FILE *in, FILE *out, FILE *log, const GameVtbl *g,
                const char *options, const char *spec, uint64_t seed,
                int64_t total_ms);

/* When `ply codecup` claims a win with '!': always on a proof; on an MCTS
 * bot's estimate (its mean reward in [-1, 1], value / 1000) of at least
 * value from move number from_ply on (counted from 1 over the game);
 * value > 1 claims only proofs. */
typedef struct CodecupClaim {
    double value;
    int from_ply;
} CodecupClaim;

/* 0.4: in 20 games against the CodeCup 2021 winner, Ply's mean value
 * stayed below 0.34 from move 19 on in every game it lost, and passed
 * 0.4 by move 22-30 in most it won (docs/protocols.md) */
#define CODECUP_CLAIM_VALUE 0.4
#define CODECUP_CLAIM_FROM 19

/* codecup_run with a claim policy (NULL: the defaults above). */
int codecup_run_claim(FILE *in, FILE *out, FILE *log, const GameVtbl *g,
                      const char *options, const char *spec, uint64_t seed,
                      int64_t total_ms, const CodecupClaim *claim);

/* The default bot of `ply codecup GAME`: the game's default bot
 * (game_default_bot), with mcts sized to CodeCup's memory limit. */
const char *codecup_default_bot(const GameVtbl *g);

#endif
