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
    int book;           /* the move came from the game's opening book */
} SearchInfo;

typedef void (*SearchCallback)(const SearchInfo *info, void *user);

typedef struct Limits {
    int64_t time_ms;     /* 0: none; choose() returns within it */
    uint64_t nodes;      /* nodes or iterations; 0: none */
    int depth;           /* 0: none */
    /* The time_ms is the move's own: a time per move, or byoyomi with
     * the main time spent, so what the move does not use is lost. A
     * search that would stop early to save time for later moves (a soft
     * limit) then goes on to its deadline. 0: the time is a share of a
     * clock (or a cap), and stopping early banks the rest. */
    int spend_all;
    SearchCallback on_info;  /* called as the search deepens; may be NULL */
    void *user;
    /* The clock time_ms is measured on, in microseconds (any origin);
     * NULL: the monotonic clock. Tests pass a fake one. */
    int64_t (*clock_us)(void *ctx);
    void *clock_ctx;
} Limits;

/* Time discipline for searches with lim->time_ms. A bot reads the clock
 * at its start (t0), stops searching at the internal deadline
 *   t0 + time_ms - margin(time_ms) - the longest gap between two of its
 *   clock checks so far (capped at time_ms / 8),
 * and returns within time_ms: the margin pays for what follows the last
 * check (joining threads, the result, the report) and the gap term for
 * the check granularity (one more node batch or iteration). A clock read
 * costs 20-150 ns (150 on virtual machines without a fast clock source),
 * so a bot checks every `every` units of work (nodes, iterations), a
 * number botclock_check() adapts to keep the reads 32-128 us apart. */
typedef struct BotClock {
    const Limits *lim;
    int64_t t0;          /* us, on lim's clock */
    int64_t stop;        /* the internal deadline (us); 0: no time limit */
    int64_t gap_cap;
} BotClock;

/* Clock readings of one searching thread; zero it at the start. */
typedef struct BotTick {
    int64_t last, gap;
    uint32_t every;      /* units of work before the next check (0: 1) */
} BotTick;

int64_t limits_now_us(const Limits *lim);
/* The margin kept for a budget of ms milliseconds, in microseconds. */
int64_t bot_time_margin_us(int64_t ms);
/* Starts the clock of a search with budget ms (0: none). */
void botclock_start(BotClock *c, const Limits *lim, int64_t ms);
/* Reads the clock; 1 when the search must stop now (never without a
 * time limit). t is the calling thread's own; t->every is updated. */
int botclock_check(const BotClock *c, BotTick *t);
/* Microseconds since the start. */
int64_t botclock_elapsed_us(const BotClock *c);

typedef struct BotVtbl {
    const char *name;
    const char *help;   /* one paragraph: what it does */
    /* The bot's own options (bot_limit_options() come first for every
     * bot): rows writing into a struct of options_size bytes, which
     * bot_new() fills (defaults, then the spec) and hands to create() as
     * opts. NULL/0: no options of its own, opts is NULL. */
    const Option *options;
    size_t options_size;
    void *(*create)(const GameVtbl *g, const void *opts, uint64_t seed,
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

/* A bot built from a spec "NAME[:key=val,...]". The keys of
 * bot_limit_options() (time, nodes, iterations, depth, seed) are read here
 * into the default limits; the rest into the bot's options struct. */
typedef struct Bot {
    const BotVtbl *v;
    const GameVtbl *game;
    void *impl;
    Limits limits;
    const struct Book *book;    /* book=1 and the game has one */
    char spec[256];
} Bot;

Bot *bot_new(const GameVtbl *g, const char *spec, uint64_t seed,
             PlyError *err);
/* As bot_new, for a spec from an untrusted client (`ply serve`): no
 * files, no nested specs, no OPTF_COSTLY option above its default
 * (option_guard); the bot's own defaults stay as they are. */
Bot *bot_new_guarded(const GameVtbl *g, const char *spec, uint64_t seed,
                     PlyError *err);
void bot_free(Bot *b);
/* Chooses with the bot's own limits unless lim is given. */
Move bot_choose(Bot *b, const void *st, const Limits *lim, SearchInfo *out);
void bot_inform(Bot *b, const void *st, Move played);
void bot_new_game(Bot *b);
/* Asks a running choose() to return soon, when the bot can. Thread-safe. */
void bot_stop(Bot *b);

/* A bot run by another bot (its inner or fallback bot), made from the
 * text of one of the outer bot's options, where ';' stands for ',' so
 * that it fits in the outer spec (inner=alphabeta:depth=4;hash=1). `what`
 * names the option in errors ("inner: unknown bot ..."); a spec naming
 * the bot `self` is refused (NULL: any bot). NULL with err set. */
Bot *bot_new_inner(const GameVtbl *g, const char *what, const char *text,
                   const char *self, uint64_t seed, PlyError *err);
/* As bot_choose, for an inner bot: the outer bot's limits when they limit
 * anything (time, nodes, depth), else the inner bot's own. */
Move bot_choose_inner(Bot *b, const void *st, const Limits *lim,
                      SearchInfo *out);

/* Hidden information (GAME_HIDDEN): every front end hands choose() the
 * mover's observation (game.h observe()), never the true state; a
 * perfect-information search plays on a world sampled from it.
 * bot_world() returns st itself in other games, else determinize()s st
 * for the player to move into buf (state_size bytes) with r. */
const void *bot_world(const GameVtbl *g, const void *st, Rng *r, void *buf);

/* The rows every bot shares: time, nodes (iterations, iters), depth,
 * seed. */
const Option *bot_limit_options(void);
/* A bot's rows, the shared ones first: i in 0..bot_option_count()-1. */
int bot_option_count(const BotVtbl *v);
const Option *bot_option_at(const BotVtbl *v, int i);
/* The bot's row advertised under a standard engine-option name ("Hash",
 * "Threads", ...; case-insensitive), or NULL. Values of a "Hash" row are
 * MiB: an OPT_INT in MiB or an OPT_SIZE, whose bare numbers are MiB. */
const Option *bot_option_engine(const BotVtbl *v, const char *engine);

/* Parses "150ms", "2s", "1.5s", "3m", or a plain number of milliseconds. */
int parse_duration_ms(const char *s, int64_t *ms);

#endif
