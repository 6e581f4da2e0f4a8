/* bot.h — the interface every Ply bot implements, and the Bot wrapper the
 * tools use.
 *
 * A bot works on any game through GameVtbl. It keeps no global state, never
 * prints, and reports through SearchInfo (and an optional progress
 * callback). Limits are explicit; an anytime bot returns its best move so
 * far when its time runs out or stop() is called from another thread.
 */
#ifndef PLY_BOT_H
#define PLY_BOT_H

#include <stdint.h>

#include "game.h"

enum { SEARCH_MAX_PV = 64, SEARCH_MAX_TOP = 8 };

typedef struct SearchInfo {
    Move best;
    int value;          /* EVAL units, the mover's point of view */
    int proven;         /* +1 proven win, -1 proven loss, 0 unknown */
    int depth;          /* completed depth (alphabeta), 0 if none */
    int seldepth;
    uint64_t nodes;     /* nodes (alphabeta) or iterations (mcts) */
    uint64_t playouts;
    double seconds;
    int pv_len;
    Move pv[SEARCH_MAX_PV];
    int top_len;        /* mcts: most visited root moves */
    Move top[SEARCH_MAX_TOP];
    uint64_t top_visits[SEARCH_MAX_TOP];
    double top_value[SEARCH_MAX_TOP];
} SearchInfo;

typedef void (*SearchCallback)(const SearchInfo *info, void *user);

typedef struct Limits {
    int64_t time_ms;     /* 0: none */
    uint64_t nodes;      /* nodes or iterations; 0: none */
    int depth;           /* 0: none */
    SearchCallback on_info;  /* called as the search deepens; may be NULL */
    void *user;
} Limits;

typedef struct BotVtbl {
    const char *name;
    const char *help;   /* one paragraph: what it does and its options */
    /* opts: the bot's own "key=value,..." (limits already removed). */
    void *(*create)(const GameVtbl *g, const char *opts, uint64_t seed,
                    PlyError *err);
    void (*destroy)(void *bot);
    /* Forget everything learnt (tree, tables, history): a new game. */
    void (*new_game)(void *bot);
    /* Best move for the player to move at st (not terminal, not chance). */
    Move (*choose)(void *bot, const void *st, const Limits *lim,
                   SearchInfo *out);
    /* Optional: a move was played at st (tree reuse). May be NULL. */
    void (*inform)(void *bot, const void *st, Move played);
    /* Optional: ask a running choose() to return soon. Thread-safe. */
    void (*stop)(void *bot);
} BotVtbl;

/* A bot built from a spec "NAME[:key=val,...]". The keys time (e.g. 100ms,
 * 2s), nodes, iterations, depth and seed are read here into the default
 * limits; the rest go to the bot's create(). */
typedef struct Bot {
    const BotVtbl *v;
    const GameVtbl *game;
    void *impl;
    Limits limits;
    char spec[256];
} Bot;

Bot *bot_new(const GameVtbl *g, const char *spec, uint64_t seed,
             PlyError *err);
void bot_free(Bot *b);
/* Chooses with the bot's own limits unless lim is given. */
Move bot_choose(Bot *b, const void *st, const Limits *lim, SearchInfo *out);
void bot_inform(Bot *b, const void *st, Move played);
void bot_new_game(Bot *b);

/* Parses "150ms", "2s", "1.5s", "3m", or a plain number of milliseconds. */
int parse_duration_ms(const char *s, int64_t *ms);

#endif
