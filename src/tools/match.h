/* match.h — bot-versus-bot matches and tournaments (ply match).
 *
 * Participants are in-process bots (a bot spec) or external programs
 * speaking UGI, UCI, USI, CECP (xboard), GTP or the CodeCup protocol. Game number i of a match is fully
 * determined by the settings and i: its pairing, seats, opening and seeds.
 * So games can run on any number of threads and a match resumed from its
 * record file plays exactly the missing games. */
#ifndef PLY_MATCH_H
#define PLY_MATCH_H

#include <stdint.h>
#include <stdio.h>

#include "../core/bot.h"
#include "../core/game.h"
#include "player.h"
#include "referee.h"

enum {
    MATCH_MAX_PARTS = 16,
    MATCH_MAX_GAMES = 100000000,    /* -n: games per pairing */
    MATCH_MAX_TOTAL = 1000000000,   /* games in one match (counters: int) */
    MATCH_MAX_JOBS = 256,           /* -j */
    MATCH_MAX_OPENINGS = 1000000,   /* setups in an openings file */
    MATCH_MAX_OPEN_PLIES = 1000,    /* --openings random:PLIES */
    MATCH_MAX_ELO = 2000,           /* |elo0|, |elo1| of --sprt */
    MATCH_MAX_SHARDS = 100000,      /* N of --shard I/N */
};

typedef enum {
    PART_BOT, PART_UGI, PART_CODECUP, PART_UCI, PART_USI, PART_CECP,
    PART_GTP, PART_GOMOCUP
} PartKind;

typedef struct Participant {
    PartKind kind;
    char name[128];     /* a bot spec, or an engine's NAME: goes to records */
    char label[140];    /* name, made unique for tables */
    char cmd[1024];     /* external program: a shell command */
    char opts[1024];    /* its engine options: NAME=VALUE lines */
} Participant;

typedef struct MatchConfig {
    const GameVtbl *g;
    char options[256];          /* game options as given ("" = defaults) */
    int nparts;
    Participant parts[MATCH_MAX_PARTS];
    uint64_t games;             /* games per pairing */
    int jobs;
    TcKind tc;
    int64_t tc_ms, inc_ms;      /* per move: tc_ms; per game: base + inc */
    int64_t grace_ms;           /* slack before a time forfeit */
    int64_t ext_move_ms;        /* without --tc: UGI engines, and bots
                                 * without limits of their own */
    int64_t start_ms;           /* external engines' handshake */
    int open_plies;             /* random openings of this many plies */
    char **open_lines;          /* or setups from a file */
    int open_count;
    int sprt;
    double elo0, elo1, alpha, beta;
    const char *out;
    int resume;
    uint64_t seed;
    int json;
    int quiet_engines;          /* engines' stderr to /dev/null */
    int fixed_seats;            /* --fixed-seats: each pairing's members
                                 * keep the seats they are listed in */
    int progress;               /* live progress on stderr */
    const struct EngineWatch *watch;    /* set by match_run(): engines'
                                         * watchdog, or NULL */
    /* the protocols' clients (src/proto/clients.h), ended by {NULL};
     * NULL: bots only */
    const PlayerClient *clients;
    /* --shard I/N: play only the games of shard I (1..N); 0 0: all */
    int shard_i, shard_n;
    /* --merge: the participants are names from records, not checked
     * as bots or engines (nothing is played) */
    int merge;
    /* derived by match_prepare() */
    int np;                     /* seats playing under the options (the
                                 * game's seats hook); 0: not prepared */
    int npairings;
    int pairing[MATCH_MAX_PARTS * MATCH_MAX_PARTS][PLY_MAX_PLAYERS];
    uint64_t total;
    uint64_t shard_total;       /* games in this shard (total without) */
} MatchConfig;

/* Parses "100ms" (per move) or "30s+0.1s" (per game with increment). */
int match_parse_tc(const char *s, MatchConfig *c, PlyError *err);
/* Parses "NAME=CMD[,proto=ugi|uci|usi|cecp|codecup|gtp|gomocup]" into p. */
int match_parse_engine(const char *s, Participant *p, PlyError *err);
/* Checks the participants against the game and fills in the pairings. */
int match_prepare(MatchConfig *c, PlyError *err);
/* The number of seats a game of the match seats: c->np once prepared,
 * else the game's num_players. */
int match_players(const MatchConfig *c);
/* How many seatings one pairing cycles through: 2 with two players (who
 * sits first), all N! orders with N > 2 players (the first N games of a
 * match are the N rotations of the given order), 1 with fixed seats;
 * game j of a pairing takes seating j mod that and opening j / that. */
uint64_t match_seatings(const MatchConfig *c);
/* Pairing and seats of game number index. */
void match_schedule(const MatchConfig *c, uint64_t index, int *pairing,
                    int seats[PLY_MAX_PLAYERS]);
/* Plays game number index (match_game.c). 0, or -1 if it could not be
 * set up at all. */
int match_play_game(const MatchConfig *c, uint64_t index, GameRecord *r,
                    PlyError *err);
/* The record as one JSON line (malloc()ed, ending in a newline). */
char *match_record_json(const MatchConfig *c, const GameRecord *r);
/* Shards: the games of one pairing fall into blocks of match_seatings()
 * games with two players (an opening pair: both seatings of one opening)
 * and of one game with more, and block b of the whole match (numbered
 * across pairings) belongs to shard b mod N + 1. Whether game index is
 * in c's shard (always without --shard). */
int match_in_shard(const MatchConfig *c, uint64_t index);
/* The first game number >= index in c's shard, or c->total. */
uint64_t match_shard_next(const MatchConfig *c, uint64_t index);
/* Parses "I/N" (1 <= I <= N <= MATCH_MAX_SHARDS) into c. */
int match_parse_shard(const char *s, MatchConfig *c, PlyError *err);
/* --merge: reads the records of the shards of one match from files,
 * checks they are one match with no game twice and none missing, and
 * prints the statistics match_run() prints for the whole match. c gives
 * only json and sprt settings; the rest is read from the records. */
int match_merge(MatchConfig *c, int nfiles, char **files, FILE *out,
                PlyError *err);
/* Runs the whole match: records, progress, summary (or JSON) on out.
 * Returns 0, or -1 with err set. */
int match_run(MatchConfig *c, FILE *out, PlyError *err);

#endif
