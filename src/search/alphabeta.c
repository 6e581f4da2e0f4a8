/* alphabeta.c — the generic alpha-beta bot: negamax with PVS, iterative
 * deepening, aspiration windows, a transposition table (tt.c), killer,
 * counter-move and history ordering on top of the game's heuristic,
 * quiescence on the game's noisy moves, and expectation at chance nodes.
 * Two-player games with an evaluation also get selective search (options
 * rfp, razor, fut, lmp, lmrtab, iir, see, singular; docs/search.md has
 * what each does and what it was measured to gain): a node or move it
 * prunes counts as a leaf cut by depth, so nothing pruned is taken for
 * solved.
 *
 * Values are those alphabeta.h defines. The side to move is a player in
 * two-player games; with more players it is the root player (side 0) or
 * the coalition of all others (side 1): paranoid search, or best-reply
 * search (mode=brs), where along each stretch of opponents' moves only one
 * opponent branches and the others play their heuristic-best move. A move
 * negates the value only when the side changes, so extra turns and
 * multi-step turns need nothing special. mode=maxn searches a vector of
 * values, one per player (max-n): each player maximises its own entry,
 * with shallow pruning in zero-sum games; see maxn() below.
 *
 * A subtree searched without cutting any leaf by depth (no quiescence
 * node, no ply bound, no table cutoff from a depth-limited entry) is
 * solved: its table entry holds at any depth, and when a whole iteration
 * is such, deepening stops. A forced win (loss) is likewise stored as a
 * lower (upper) bound valid at any depth.
 *
 * Time: the clock is read every tick.every nodes (adapted to a read every
 * 32-128 us), and the search stops at bot.h's internal deadline (the
 * budget less a margin and the longest gap between two reads), so the
 * move comes back within time_ms; stop() sets an atomic flag.
 * An unfinished iteration is thrown away unless one of its root moves
 * already beat the window with a completed search. Depth 1 always
 * completes, so a legal move always comes back.
 *
 * Threads (threads=N, Lazy SMP): the bot's own search runs on the calling
 * thread as with one thread; N - 1 helpers, each a full AbBot of its own
 * (stack, killers, history) sharing the main bot's table, deepen the same
 * root at the same time, each skipping a different pattern of depths so
 * that they run ahead of the main search and fill the table with entries
 * it will probe. Only the main search decides when to stop and which move
 * to return; it then stops the helpers and adds their nodes to its count.
 * With threads=1 nothing of this runs and the search is the one-thread
 * search, node for node. With more, results depend on timing.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/util.h"
#include "alphabeta.h"
#include "evalfile.h"
#include "net.h"
#include "tt.h"

enum { MODE_PARANOID, MODE_BRS, MODE_MAXN, MODE_BRSP };
enum { HIST_SIZE = 4096, HIST_MAX = 1 << 14, DEFAULT_TIME_MS = 1000,
       TM_DROP = 30,     /* tmstab: an iteration value fall that asks for time */
       MAX_ITER_DEPTH = 100, MAX_THREADS = 64 };
#define AB_INF (EVAL_WIN + 1)
#define NO_EV INT32_MIN
enum { SEL_DEPTH = 8,   /* rfp, futility, lmp only at depth <= this */
       RAZOR_DEPTH = 3, IIR_DEPTH = 4 };
/* Continuation histories (conthist=1): hashed buckets of (the move before,
 * the move, the player); correction history (corrhist=1): buckets of the
 * position's hash by side, in 1/CORR_GRAIN eval units, at most
 * CORR_LIMIT eval units either way; singular extensions (singular=1)
 * from depth SING_DEPTH with a table entry at most SING_SLACK plies
 * shallower. */
enum { CONT_SIZE = 1 << 16, CORR_SIZE = 1 << 14, CORR_GRAIN = 256,
       CORR_LIMIT = 300, SING_DEPTH = 6, SING_SLACK = 3 };
/* Static values (ecache=1): a direct-mapped cache of the game's eval (or
 * the net's value, net=) by the position's hash and point of view (with
 * more than two players, the root's), per search thread. */
enum { ECACHE_SIZE = 1 << 15 };
typedef struct ECacheEntry {
    uint64_t key;       /* hash ^ view salt; 0: empty */
    int32_t value;
} ECacheEntry;
/* Ordering keys (order_key): table move, noisy, killers, counter-move,
 * then history; moves below KEY_COUNTER are quiet and neither. */
#define KEY_KILLER2 (INT64_C(1) << 48)
#define KEY_COUNTER (INT64_C(1) << 47)
#define KEY_LOSING (INT64_C(1) << 46)   /* see=1: a losing capture */

/* A candidate move with its child's depth and best-reply flag. */
typedef struct Item {
    Move m;
    int64_t key;    /* ordering */
    int cdepth, cbr;
} Item;

typedef struct AbHelper AbHelper;

typedef struct AbBot {
    const GameVtbl *g;
    int np, maxm;
    /* options */
    int mode, qs, tt_exact, aspiration, rollouts, lmr, soft, ext;
    int tmstab;         /* soft limit scaled by the best move's stability */
    int nullmove, chk, mdp;
    int turnend;        /* no horizon inside a turn of several moves */
    int brturn;         /* best-reply search: by whole turns */
    int duel;           /* two players left of more: a two-player search */
    int two;            /* this search: two sides that are two players */
    int contempt;       /* two players: a draw is worth -contempt to root */
    int rep;            /* a repeated position in the tree is a draw */
    int egtb;           /* ask the game's exact hook (databases) */
    size_t hash_mib;
    uint64_t seed;
    int *weights;               /* weights=FILE: eval by the linear form */
    EvalTerm *terms;            /* its scratch space */
    int threads;                /* 1 + helpers */
    /* selective search (two players with an eval; 0: off) */
    int rfp;            /* reverse futility margin per ply of depth */
    int razor;          /* razoring margin per ply of depth */
    int fut;            /* futility margin per ply of depth */
    int lmp;            /* late-move pruning of quiet moves */
    int lmrtab;         /* lmr by a log table, adjusted by history */
    int iir;            /* internal iterative reduction without a table move */
    int cmove;          /* counter-move ordering */
    int see;            /* losing captures: ordered late, no quiescence */
    int qchecks;        /* quiet checks at quiescence's first ply */
    int chksee;         /* checks that lose material: no extension, reduced */
    int lmpchk;         /* late-move pruning spares quiet checks */
    int nulladapt;      /* null-move reduction by depth and margin */
    int conthist;       /* 1- and 2-ply continuation histories */
    int corrhist;       /* static-value correction history */
    int singular;       /* singular extension of the table move */
    int ecache;         /* cache the game's eval by hash */
    unsigned char lmr_red[64][64];  /* [depth][move index] reduction */
    Net *net;                   /* net=FILE (owned by the main bot) */
    /* state kept between searches (everything above is options, which
     * helpers copy) */
    Rng rng;
    NetStack ns;                /* net=FILE: accumulators by ply */
    TTable tt;                  /* the table this bot owns (helpers: none) */
    TTable *ttp;                /* the table it searches with */
    AbHelper *helpers;          /* threads - 1 */
    int helper_index;           /* 0: the main search; k: helper k */
    _Atomic uint64_t nodes_pub; /* helpers: nodes, published now and then */
    int history[PLY_MAX_PLAYERS][HIST_SIZE];
    Move counter[2][HIST_SIZE];     /* by side: reply to a move */
    /* conthist=1: [0] follows the opponent's last move (1 ply back), [1]
     * the player's own move before it (2 plies back) */
    int16_t cont[2][CONT_SIZE];
    int32_t corr[2][CORR_SIZE];     /* corrhist=1: by side */
    atomic_int stop;
    /* per search */
    int root;
    BotClock clk;               /* time_ms: start and internal deadline */
    BotTick tick;
    uint64_t node_limit, nodes, next_check;
    uint64_t horizon;           /* leaves cut by depth: count */
    int can_abort, aborted, seldepth;
    uint64_t sing_tests, sing_exts;     /* singular=1: tests, extensions */
    unsigned char *stack;       /* (AB_MAX_PLY + 2) states */
    Move *moves;                /* (AB_MAX_PLY + 2) * maxm */
    Move *checks;               /* maxm: lmpchk's quiet checks */
    Item *items;                /* (AB_MAX_PLY + 2) * (maxm + 1) */
    double *probs;              /* maxm */
    unsigned char *tmp;         /* one state: playouts, determinize */
    ECacheEntry *ecache_e;      /* ecache=1: ECACHE_SIZE entries */
    Move killer[AB_MAX_PLY + 2][2];
    int nkiller[AB_MAX_PLY + 2];
    Move pv[AB_MAX_PLY + 2][AB_MAX_PLY + 2];
    int pv_len[AB_MAX_PLY + 2];
    unsigned char passed[AB_MAX_PLY + 2];   /* stack[ply] came by a null move */
    Move last[AB_MAX_PLY + 2];  /* the move into stack[ply] (0: none) */
    int sev[AB_MAX_PLY + 2];    /* static value at stack[ply], or NO_EV */
    Move excluded[AB_MAX_PLY + 2];  /* singular test: move left out (0) */
    /* net=: stack[ply] was made by into[ply] from the position with hash
     * into_from[ply] and has hash into_key[ply] (when both hashes still
     * match, its accumulators follow from the parent's by the move) */
    Move into[AB_MAX_PLY + 2];
    uint64_t into_from[AB_MAX_PLY + 2], into_key[AB_MAX_PLY + 2];
} AbBot;

struct AbHelper {
    AbBot *bot;
    pthread_t th;
    int maxd, running;
};

static int side_of(const AbBot *b, int player)
{
    if (b->np == 2)
        return player;
    return player == b->root ? 0 : 1;
}

static unsigned char *state_at(AbBot *b, int ply)
{
    return b->stack + (size_t)ply * b->g->info.state_size;
}

/* ---- leaf values ---- */

static int draw_value(const AbBot *b, int pov)
{
    if (b->np != 2 || !b->contempt)
        return 0;
    return pov == b->root ? -b->contempt : b->contempt;
}

/* More than two players: the value to player p of having left the game
 * (the eliminated hook) with result x, below the best. Leaving is never
 * better than staying in, so every such value lies below any static
 * value; better places and later exits are worth more: x = -1 is a loss,
 * -(EVAL_WIN - ply); otherwise -EVAL_WIN / 2 + round(x * EVAL_WIN / 8) +
 * ply. (As round(x * EVAL_WIN / 2), a second place of four would be worth
 * more than any position still in play, and a bot would throw at its own
 * Sorcerer with two teams left.) */
static int out_value(double x, int ply)
{
    if (x <= -1 + 1e-9)
        return -(EVAL_WIN - ply);
    return -(EVAL_WIN / 2) + (int)lround(x * (EVAL_WIN / 8)) + ply;
}

/* The players still in the game at st (all of them without the
 * eliminated hook). */
static int live_players(const AbBot *b, const void *st)
{
    int n = 0;
    for (int p = 0; p < b->np; p++)
        n += !(b->g->eliminated && b->g->eliminated(st, p));
    return n;
}

static int root_out(const AbBot *b, const void *st)
{
    return b->np > 2 && b->g->eliminated && b->g->eliminated(st, b->root);
}

static int terminal_value(AbBot *b, const void *st, int pov, int ply)
{
    double r[PLY_MAX_PLAYERS];
    b->g->returns(st, r);
    double x;
    if (b->np == 2)
        x = (r[pov] - r[1 - pov]) / 2;
    else
        x = pov == 0 ? r[b->root] : -r[b->root];
    if (root_out(b, st) && r[b->root] < 1 - 1e-9) {
        int v = out_value(r[b->root], ply);
        return pov == 0 ? v : -v;
    }
    if (x >= 1 - 1e-9)
        return EVAL_WIN - ply;
    if (x <= -1 + 1e-9)
        return -(EVAL_WIN - ply);
    if (x == 0)
        return draw_value(b, pov);
    return (int)lround(x * (EVAL_WIN / 2));
}

/* Mean outcome of random playouts, for games without eval. */
static int playout_value(AbBot *b, const void *st, int pov)
{
    const GameVtbl *g = b->g;
    double sum = 0;
    for (int i = 0; i < b->rollouts; i++) {
        memcpy(b->tmp, st, g->info.state_size);
        if (g->playout) {
            g->playout(b->tmp, &b->rng);
        } else {
            Move *mv = b->moves + (size_t)(AB_MAX_PLY + 1) * b->maxm;
            for (int k = 0; k < g->info.max_game_length; k++) {
                int p = g->to_move(b->tmp);
                if (p == PLAYER_TERMINAL)
                    break;
                int n;
                Move m;
                if (p == PLAYER_CHANCE) {
                    n = g->chance_outcomes(b->tmp, mv, b->probs);
                    double x = rng_double(&b->rng), acc = 0;
                    m = mv[n - 1];
                    for (int j = 0; j < n; j++) {
                        acc += b->probs[j];
                        if (x < acc) {
                            m = mv[j];
                            break;
                        }
                    }
                } else {
                    n = g->gen_moves(b->tmp, mv);
                    m = mv[rng_below(&b->rng, (uint32_t)n)];
                }
                g->make(b->tmp, m);
            }
        }
        if (g->to_move(b->tmp) != PLAYER_TERMINAL)
            continue;   /* cut off by the length bound: counts as a draw */
        double r[PLY_MAX_PLAYERS];
        g->returns(b->tmp, r);
        if (b->np == 2)
            sum += (r[pov] - r[1 - pov]) / 2;
        else
            sum += pov == 0 ? r[b->root] : -r[b->root];
    }
    return (int)lround(sum / b->rollouts * 1000);
}

/* st's entry of the static-value cache (ecache=1) for the value from
 * player view's point of view, and its key. */
static ECacheEntry *ecache_entry(const AbBot *b, const void *st, int view,
                                 uint64_t *key)
{
    uint64_t k = b->g->hash(st) ^ ((uint64_t)view * 0x5bd1e9955bd1e995ull);
    k |= 1;     /* never 0, the empty mark */
    *key = k;
    return &b->ecache_e[k & (ECACHE_SIZE - 1)];
}

/* net=: how far up the stack a position's accumulators are looked for */
enum { NET_WALK = 4 };

/* net=: stack[ply] was made by m from stack[ply - 1]. */
static inline void note_move(AbBot *b, int ply, Move m)
{
    if (b->net && b->net->nf->feature_delta) {
        b->into[ply] = m;
        b->into_from[ply] = b->g->hash(state_at(b, ply - 1));
        b->into_key[ply] = b->g->hash(state_at(b, ply));
    }
}

static int static_value(AbBot *b, const void *st, int pov)
{
    const GameVtbl *g = b->g;
    int v;
    if (b->net) {
        uint64_t key = 0;
        ECacheEntry *e = b->ecache_e ? ecache_entry(b, st, pov, &key) : NULL;
        if (e && e->key == key)
            return e->value;    /* stored clamped */
        /* two players only (checked at create): the mover's view */
        size_t ss = g->info.state_size;
        const unsigned char *p = st;
        int slot = AB_MAX_PLY + 2;
        if (p >= b->stack && p < b->stack + ss * (AB_MAX_PLY + 2) &&
            (size_t)(p - b->stack) % ss == 0)
            slot = (int)((size_t)(p - b->stack) / ss);
        int mover = g->to_move(st) == 1;
        if (slot < AB_MAX_PLY + 2 && b->net->nf->feature_delta) {
            /* up the stack while each position is known to come from the
             * one below by its move, to the nearest whose accumulators
             * the net stack holds; then down by the moves' rows */
            uint64_t hk[NET_WALK + 1];
            hk[0] = g->hash(st);
            int found = 0;
            for (int d = 0; d < NET_WALK && slot - d > 0; d++) {
                int i = slot - d;
                if (b->into_key[i] != hk[d])
                    break;
                hk[d + 1] = g->hash(state_at(b, i - 1));
                if (b->into_from[i] != hk[d + 1])
                    break;
                if (net_stack_holds(&b->ns, i - 1, hk[d + 1])) {
                    found = d + 1;
                    break;
                }
            }
            for (int d = found - 1; d >= 1; d--)
                if (net_stack_move(&b->ns, slot - d, state_at(b, slot - d - 1),
                                   hk[d + 1], b->into[slot - d], hk[d])) {
                    found = 0;
                    break;
                }
            v = net_stack_eval_move(&b->ns, slot, st, hk[0], mover,
                                    found ? state_at(b, slot - 1) : NULL,
                                    found ? hk[1] : 0, b->into[slot]);
        } else {
            v = net_stack_eval(&b->ns, slot, st, mover);
        }
        if (pov != mover)
            v = -v;
        v = v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
        if (e) {
            e->key = key;
            e->value = v;
        }
    } else if (b->weights && b->np == 2) {
        /* player 0's view */
        v = evalfile_eval(g->tuning, b->weights, st, b->terms);
        if (pov)
            v = -v;
    } else if (b->weights) {
        /* more players (terms_of checked at create): the root's view */
        v = evalfile_eval_of(g->tuning, b->weights, st, b->root, b->terms);
        if (pov)
            v = -v;
    } else if (g->eval) {
        /* two players: the view's own value; more: the root's, negated
         * for the coalition */
        int view = b->np == 2 ? pov : b->root;
        if (b->ecache_e) {
            uint64_t key;
            ECacheEntry *e = ecache_entry(b, st, view, &key);
            if (e->key == key) {
                v = e->value;
            } else {
                v = g->eval(st, view);
                e->key = key;
                e->value = v;
            }
        } else {
            v = g->eval(st, view);
        }
        if (b->np > 2 && pov)
            v = -v;
    } else if (b->rollouts > 0) {
        v = playout_value(b, st, pov);
    } else {
        v = 0;
    }
    return v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
}

/* ---- table helpers ---- */

static uint64_t node_key(const AbBot *b, const void *st, int br)
{
    uint64_t h = b->g->hash(st);
    if (b->np != 2 || b->contempt)   /* values depend on the root player */
        h ^= ply_mix64(0xab00u + (uint64_t)b->root);
    if (br == 1)
        h ^= 0x9e3779b97f4a7c15ull;
    else if (br)
        h ^= 0x7f4a7c159e3779b9ull;
    return h;
}

static int value_to_tt(int v, int ply)
{
    return v >= AB_WIN_BOUND ? v + ply : v <= -AB_WIN_BOUND ? v - ply : v;
}

static int value_from_tt(int v, int ply)
{
    return v >= AB_WIN_BOUND ? v - ply : v <= -AB_WIN_BOUND ? v + ply : v;
}

static int hist_index(Move m)
{
    return (int)(ply_mix64(m) & (HIST_SIZE - 1));
}

static void hist_update(AbBot *b, int player, Move m, int bonus)
{
    int *h = &b->history[player][hist_index(m)];
    int ab = bonus < 0 ? -bonus : bonus;
    /* gravity: entries saturate at +-HIST_MAX */
    *h += bonus - (int)((int64_t)*h * ab / HIST_MAX);
}

/* Continuation history bucket k (0: one ply back, 1: two) of move m by
 * player after the move prev; -1 when there is no such move (the root,
 * a null move). */
static int cont_index(const AbBot *b, int k, int ply, int player, Move m)
{
    int back = ply - k;     /* last[back] is the move k + 1 plies back */
    if (back < 1 || !b->last[back])
        return -1;
    uint64_t x = ply_mix64(b->last[back] ^ ((uint64_t)player << 56) ^
                           ((uint64_t)k << 60));
    return (int)(ply_mix64(x + m) & (CONT_SIZE - 1));
}

/* The history score of quiet move m by player at ply: butterfly history,
 * plus both continuation histories with conthist=1. */
static int quiet_score(const AbBot *b, int player, Move m, int ply)
{
    int v = b->history[player][hist_index(m)];
    if (b->conthist)
        for (int k = 0; k < 2; k++) {
            int i = cont_index(b, k, ply, player, m);
            if (i >= 0)
                v += b->cont[k][i];
        }
    return v;
}

/* hist_update for the butterfly and (conthist=1) continuation tables */
static void quiet_update(AbBot *b, int player, Move m, int ply, int bonus)
{
    hist_update(b, player, m, bonus);
    if (!b->conthist)
        return;
    int ab = bonus < 0 ? -bonus : bonus;
    for (int k = 0; k < 2; k++) {
        int i = cont_index(b, k, ply, player, m);
        if (i < 0)
            continue;
        int h = b->cont[k][i];
        h += bonus - (int)((int64_t)h * ab / HIST_MAX);
        b->cont[k][i] = (int16_t)h;
    }
}

/* corrhist=1: the correction bucket of st for side s */
static int32_t *corr_slot(AbBot *b, const void *st, int s)
{
    return &b->corr[s][ply_mix64(b->g->hash(st)) & (CORR_SIZE - 1)];
}

/* ---- clock ---- */

static int out_of_time(AbBot *b)
{
    if (b->aborted)
        return 1;
    if (!b->can_abort)
        return 0;
    if (atomic_load_explicit(&b->stop, memory_order_relaxed) ||
        (b->node_limit && b->nodes >= b->node_limit))
        b->aborted = 1;
    else if (b->clk.stop && b->nodes >= b->next_check) {
        int expired = botclock_check(&b->clk, &b->tick);
        b->next_check = b->nodes + b->tick.every;
        if (expired)
            b->aborted = 1;
    } else if (b->helper_index && b->nodes >= b->next_check) {
        /* a helper (no clock): its count for the main search's reports */
        b->next_check = b->nodes + 1024;
        atomic_store_explicit(&b->nodes_pub, b->nodes, memory_order_relaxed);
    }
    return b->aborted;
}

/* ---- ordering ---- */

static void pick_next(Item *it, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (it[j].key > it[best].key)
            best = j;
    if (best != i) {
        Item t = it[i];
        it[i] = it[best];
        it[best] = t;
    }
}

/* see=1 and a game with a see hook: a move that loses material on its
 * square (a capture, or with chksee a check) */
static int losing(const AbBot *b, const void *st, Move m)
{
    return b->see && b->g->see && !b->g->see(st, m, 0);
}

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return (x > y) - (x < y);
}

/* lmpchk: moves it[i..n) to it[i..m) those that are quiet checks (with
 * lmpchk=2 not losing material on their square), in their order;
 * returns m. */
static int keep_checks(AbBot *b, const void *st, Item *it, int i, int n)
{
    int nc = b->g->gen_checks(st, b->checks), m = i;
    if (nc <= 0)
        return i;
    qsort(b->checks, (size_t)nc, sizeof(Move), cmp_move);
    for (int j = i; j < n; j++)
        if (bsearch(&it[j].m, b->checks, (size_t)nc, sizeof(Move),
                    cmp_move) &&
            !(b->lmpchk == 2 && b->g->see && !b->g->see(st, it[j].m, 0)))
            it[m++] = it[j];
    return m;
}

/* chksee=1 and a game with a see hook: the move that led to stack[ply]
 * (a check) loses material on its square */
static int losing_check(AbBot *b, int ply)
{
    return b->chksee && ply > 0 && b->last[ply] &&
           losing(b, state_at(b, ply - 1), b->last[ply]);
}

/* The game's ordering heuristic for m, bounded to +-1,000,000 so that
 * it stays below the keys' bands (0 without the hook). */
static inline int64_t bounded_heuristic(const GameVtbl *g, const void *st,
                                        Move m)
{
    int64_t h = g->heuristic ? g->heuristic(st, m) : 0;
    return h > 1000000 ? 1000000 : h < -1000000 ? -1000000 : h;
}

static int64_t order_key(AbBot *b, const void *st, int player, Move m,
                         int has_tt, Move ttm, int ply)
{
    const GameVtbl *g = b->g;
    if (has_tt && m == ttm)
        return INT64_C(1) << 62;
    int64_t h = bounded_heuristic(g, st, m);
    if (g->is_noisy && g->is_noisy(st, m))
        return losing(b, st, m) ? KEY_LOSING + h : (INT64_C(1) << 50) + h;
    if (b->nkiller[ply] > 0 && b->killer[ply][0] == m)
        return INT64_C(1) << 49;
    if (b->nkiller[ply] > 1 && b->killer[ply][1] == m)
        return KEY_KILLER2;
    if (b->cmove && ply > 0 && b->last[ply] &&
        b->counter[side_of(b, player)][hist_index(b->last[ply])] == m)
        return KEY_COUNTER;
    return (int64_t)quiet_score(b, player, m, ply) * 4096 + h;
}

/* The move an opponent plays when it does not branch (best-reply search):
 * its highest heuristic, the first move without one. */
static int default_move(const AbBot *b, const void *st, const Move *mv, int n)
{
    if (!b->g->heuristic)
        return 0;
    int best = 0, bh = b->g->heuristic(st, mv[0]);
    for (int i = 1; i < n; i++) {
        int h = b->g->heuristic(st, mv[i]);
        if (h > bh) {
            bh = h;
            best = i;
        }
    }
    return best;
}

/* ---- search ---- */

/* turnend=1: the state at stack[ply] is inside a turn (the player who
 * made the last move moves again), so the horizon waits for the turn's
 * end; bounded by the ply limit. */
static int mid_turn(AbBot *b, int ply)
{
    if (!b->turnend || ply < 1 || ply >= AB_MAX_PLY - 1)
        return 0;
    int p = b->g->to_move(state_at(b, ply));
    return p >= 0 && p == b->g->to_move(state_at(b, ply - 1));
}

static int negamax(AbBot *b, int depth, int alpha, int beta, int ply, int br);
static int qsearch(AbBot *b, int alpha, int beta, int ply, int qd);

/* Value of the state at stack[ply] from side pov's point of view. */
static int node_value(AbBot *b, int pov, int depth, int alpha, int beta,
                      int ply, int br, int qd, int in_qs)
{
    const GameVtbl *g = b->g;
    const void *st = state_at(b, ply);
    if (ply > b->seldepth)
        b->seldepth = ply;
    b->pv_len[ply] = ply;
    b->sev[ply] = NO_EV;
    int p = g->to_move(st);
    if (p == PLAYER_TERMINAL || root_out(b, st))
        return terminal_value(b, st, pov, ply);
    int known;
    if (b->egtb && ply > 0 && p >= 0 && b->np == 2 && g->exact &&
        g->exact(st, p, &known)) {
        /* a database result: exact, so nothing below is cut */
        if (side_of(b, p) != pov)
            known = -known;
        return known > 0 ? EVAL_WIN - AB_MAX_PLY - ply
             : known < 0 ? -(EVAL_WIN - AB_MAX_PLY - ply)
                         : draw_value(b, pov);
    }
    if (b->rep && !in_qs && ply > 0 && p >= 0 && g->repeated &&
        g->repeated(st)) {
        b->horizon++;   /* not the game's end: nothing here is solved */
        return draw_value(b, pov);
    }
    if (ply >= AB_MAX_PLY) {
        b->horizon++;
        return static_value(b, st, pov);
    }
    if (p == PLAYER_CHANCE) {
        if (in_qs || depth <= 0) {
            b->horizon++;
            return static_value(b, st, pov);
        }
        Move *mv = b->moves + (size_t)ply * b->maxm;
        double *pr = b->probs;
        int n = g->chance_outcomes(st, mv, pr);
        double probs[n > 0 ? n : 1];
        memcpy(probs, pr, sizeof(double) * (size_t)n);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            memcpy(state_at(b, ply + 1), st, g->info.state_size);
            g->make(state_at(b, ply + 1), mv[i]);
            b->nodes++;
            int v = node_value(b, pov, depth, -AB_INF, AB_INF, ply + 1, br,
                               0, 0);
            if (b->aborted)
                return 0;
            sum += probs[i] * v;
        }
        b->pv_len[ply] = ply;
        return (int)lround(sum);
    }
    int s = side_of(b, p);
    if (in_qs)
        return s == pov ? qsearch(b, alpha, beta, ply, qd)
                        : -qsearch(b, -beta, -alpha, ply, qd);
    return s == pov ? negamax(b, depth, alpha, beta, ply, br)
                    : -negamax(b, depth, -beta, -alpha, ply, br);
}

static int qsearch(AbBot *b, int alpha, int beta, int ply, int qd)
{
    const GameVtbl *g = b->g;
    const void *st = state_at(b, ply);
    int p = g->to_move(st), s = side_of(b, p);
    b->nodes++;
    b->horizon++;
    if (out_of_time(b))
        return 0;
    int stand = static_value(b, st, s);
    if (!b->qs || !g->is_noisy || qd >= AB_QS_PLIES)
        return stand;
    Move *mv = b->moves + (size_t)ply * b->maxm;
    Item *it = b->items + (size_t)ply * (b->maxm + 1);
    int k = 0, n, evade = b->chk && g->in_check && g->in_check(st);
    if (evade) {
        /* in check: standing pat is no option, every evasion counts */
        n = g->gen_moves(st, mv);
        for (int i = 0; i < n; i++)
            it[k++] = (Item){mv[i], order_key(b, st, p, mv[i], 0, 0, ply),
                             0, 0};
        if (n == 0)
            return stand;
        n = -1;     /* no stand pat */
    } else if (b->chk && g->gen_noisy) {
        /* noisy moves only (a quiet move is assumed to exist, so standing
         * pat is always allowed): a stand pat at or above beta is the
         * node's value whatever the moves, so they are not generated */
        if (stand >= beta)
            return stand;
        int nn = g->gen_noisy(st, mv);
        for (int i = 0; i < nn; i++)
            if (!losing(b, st, mv[i]))
                it[k++] = (Item){mv[i],
                                 g->heuristic ? g->heuristic(st, mv[i]) : 0,
                                 0, 0};
        n = k + 1;
    } else {
        n = g->gen_moves(st, mv);
        for (int i = 0; i < n; i++)
            if (g->is_noisy(st, mv[i]) && !losing(b, st, mv[i])) {
                it[k].m = mv[i];
                it[k].key = g->heuristic ? g->heuristic(st, mv[i]) : 0;
                k++;
            }
    }
    if (b->qchecks && qd == 0 && n > 0 && g->gen_checks) {
        /* the first ply also tries the quiet checks (mates in one among
         * them), after the captures and without the losing ones */
        Move *ck = b->moves + (size_t)(ply + 1) * b->maxm;
        int nc = g->gen_checks(st, ck);
        for (int i = 0; i < nc; i++)
            if (!losing(b, st, ck[i]))
                it[k++] = (Item){ck[i], -(INT64_C(1) << 40) +
                                 bounded_heuristic(g, st, ck[i]), 0, 0};
        if (b->chk && g->gen_noisy)
            n = k + 1;  /* a quiet move is still assumed: stand pat stays */
    }
    if (k == 0)
        return stand;
    int best = k < n ? stand : -AB_INF;
    if (best >= beta)
        return best;
    if (best > alpha)
        alpha = best;
    for (int i = 0; i < k; i++) {
        pick_next(it, i, k);
        memcpy(state_at(b, ply + 1), st, g->info.state_size);
        g->make(state_at(b, ply + 1), it[i].m);
        note_move(b, ply + 1, it[i].m);
        int v = node_value(b, s, 0, alpha, beta, ply + 1, 0, qd + 1, 1);
        if (b->aborted)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Fills it[] with the moves at stack[ply] for a node of side s at depth
 * (best-reply restrictions included) and ordering keys; returns the count. */
static int node_items(AbBot *b, const void *st, int p, int depth, int br,
                      int has_tt, Move ttm, int ply, Item *it)
{
    const GameVtbl *g = b->g;
    Move *mv = b->moves + (size_t)ply * b->maxm;
    int n = g->gen_moves(st, mv);
    int s = side_of(b, p);
    if (b->np > 2 && !b->two &&
        (b->mode == MODE_BRS || b->mode == MODE_BRSP) && s == 1) {
        int d = default_move(b, st, mv, n);
        /* brturn=1: a branching opponent's whole turn branches (its
         * children carry br = 2), and one that did not branch at the
         * first move of its turn plays the natural move to its end */
        int cont = b->brturn && ply > 0 &&
                   g->to_move(state_at(b, ply - 1)) == p;
        int cbr = b->brturn ? 2 : 1;
        if (br == 2 && cont) {
            for (int i = 0; i < n; i++)
                it[i] = (Item){mv[i], order_key(b, st, p, mv[i], has_tt,
                                                ttm, ply), depth - 1, 2};
            return n;
        }
        if (br || cont) {   /* another opponent branched: the natural move */
            it[0] = (Item){mv[d], 0, depth, br ? 1 : 0};
            return 1;
        }
        for (int i = 0; i < n; i++)
            it[i] = (Item){mv[i], order_key(b, st, p, mv[i], has_tt, ttm,
                                            ply), depth - 1, cbr};
        if (b->mode == MODE_BRSP) {
            /* BRS+: exactly one opponent branches, so the last opponent
             * before the root side moves again must (the child's slot
             * serves as scratch: it is written again before it is read) */
            void *next = state_at(b, ply + 1);
            memcpy(next, st, g->info.state_size);
            g->make(next, mv[d]);
            int q = g->to_move(next);
            if (q < 0 || side_of(b, q) == 0)
                return n;
        }
        /* or this opponent does not branch and a later one may */
        it[n] = (Item){mv[d], INT64_MIN, depth, 0};
        return n + 1;
    }
    for (int i = 0; i < n; i++)
        it[i] = (Item){mv[i], order_key(b, st, p, mv[i], has_tt, ttm, ply),
                       depth - 1, 0};
    return n;
}

static void update_pv(AbBot *b, int ply, Move m)
{
    b->pv[ply][ply] = m;
    int len = b->pv_len[ply + 1];
    if (len < ply + 1)
        len = ply + 1;
    for (int j = ply + 1; j < len; j++)
        b->pv[ply][j] = b->pv[ply + 1][j];
    b->pv_len[ply] = len;
}

static int negamax(AbBot *b, int depth, int alpha, int beta, int ply, int br)
{
    const GameVtbl *g = b->g;
    const void *st = state_at(b, ply);
    if (depth <= 0 && mid_turn(b, ply))
        depth = 1;
    if (depth <= 0)
        return qsearch(b, alpha, beta, ply, 0);
    b->nodes++;
    if (out_of_time(b))
        return 0;
    int p = g->to_move(st), s = side_of(b, p);
    b->pv_len[ply] = ply;
    if (b->mdp) {
        /* mate distance: nothing here beats a win (loss) one ply away */
        int lo = -(EVAL_WIN - ply - 1), hi = EVAL_WIN - ply - 1;
        if (alpha < lo)
            alpha = lo;
        if (beta > hi)
            beta = hi;
        if (alpha >= beta)
            return alpha;
    }
    int incheck = b->chk && g->in_check && g->in_check(st);
    if (incheck && ply < AB_EXT_PLY && !losing_check(b, ply))
        depth++;    /* check extension */
    Move excl = b->excluded[ply];
    uint64_t key = node_key(b, st, br);
    if (excl)   /* the singular test's own entries */
        key ^= ply_mix64(excl ^ 0x5157ull);
    TTHit hit = {0};
    int has_tt = tt_probe(b->ttp, key, &hit);
    if (has_tt) {
        int v = value_from_tt(hit.value, ply);
        int deep = b->tt_exact ? hit.depth == depth : hit.depth >= depth;
        if (deep && (hit.bound == TT_EXACT ||
                     (hit.bound == TT_LOWER && v >= beta) ||
                     (hit.bound == TT_UPPER && v <= alpha))) {
            if (hit.depth < TT_MAX_DEPTH)
                b->horizon++;
            return v;
        }
    }
    /* the static value, where selective search may use it: two players,
     * an evaluation, not in check; a table bound on the same side
     * refines it */
    int pvnode = beta - alpha > 1;
    int sel = b->two && !incheck && (g->eval || b->weights) &&
              beta > -AB_WIN_BOUND && alpha < AB_WIN_BOUND;
    int sv = NO_EV, ev = NO_EV, improving = 0, raw = NO_EV;
    b->sev[ply] = NO_EV;
    if (sel && depth <= SEL_DEPTH &&
        (b->rfp || b->razor || b->fut || b->lmp || b->lmrtab)) {
        sv = raw = static_value(b, st, s);
        if (b->corrhist) {
            /* what searches below this position found it to be worth */
            sv += *corr_slot(b, st, s) / CORR_GRAIN;
            if (sv > EVAL_MAX)
                sv = EVAL_MAX;
            if (sv < -EVAL_MAX)
                sv = -EVAL_MAX;
        }
        ev = sv;
        b->sev[ply] = sv;
        if (has_tt && hit.value > -AB_WIN_BOUND && hit.value < AB_WIN_BOUND &&
            (hit.bound == TT_EXACT ||
             (hit.bound == TT_LOWER && hit.value > ev) ||
             (hit.bound == TT_UPPER && hit.value < ev)))
            ev = hit.value;
        improving = ply >= 2 && b->sev[ply - 2] != NO_EV &&
                    sv > b->sev[ply - 2] &&
                    g->to_move(state_at(b, ply - 2)) == p;
    }
    /* reverse futility: far enough above beta near the horizon, a move
     * will not bring it back below */
    if (b->rfp && ev != NO_EV && !pvnode && depth <= SEL_DEPTH &&
        beta > -AB_WIN_BOUND && beta < AB_WIN_BOUND &&
        ev - b->rfp * (depth - improving) >= beta) {
        b->horizon++;
        return ev;
    }
    /* razoring: far below alpha near the horizon, ask quiescence */
    if (b->razor && ev != NO_EV && !pvnode && !b->turnend &&
        depth <= RAZOR_DEPTH && ev + b->razor * depth <= alpha) {
        int v = qsearch(b, alpha, alpha + 1, ply, 0);
        if (b->aborted)
            return 0;
        if (v <= alpha)
            return v;
    }
    /* null move: if passing still fails high at a reduced depth, so would
     * a real move (zugzwang aside, which null_move_ok rules out) */
    if (b->nullmove && g->make_null && !incheck && depth >= 2 &&
        beta - alpha == 1 && b->two && !b->passed[ply] && !excl &&
        beta > -AB_WIN_BOUND && beta < AB_WIN_BOUND &&
        g->null_move_ok(st) &&
        (sv != NO_EV ? sv : static_value(b, st, s)) >= beta) {
        int r = depth >= 7 ? 3 : 2;
        if (b->nulladapt) {
            /* deeper nodes and larger margins over beta: larger steps */
            int over = (sv != NO_EV ? sv : static_value(b, st, s)) - beta;
            r = 3 + depth / 4 + (over / 200 < 3 ? over / 200 : 3);
            if (r > depth - 1)
                r = depth - 1;
        }
        unsigned char *child = state_at(b, ply + 1);
        memcpy(child, st, g->info.state_size);
        g->make_null(child);
        b->passed[ply + 1] = 1;
        b->last[ply + 1] = 0;
        int v = node_value(b, s, depth - 1 - r, beta - 1, beta, ply + 1, 0,
                           0, 0);
        b->passed[ply + 1] = 0;
        if (b->aborted)
            return 0;
        if (v >= beta)
            return v >= AB_WIN_BOUND ? beta : v;
    }
    /* internal iterative reduction: no table move to start from, so
     * search shallower (the next iteration finds one here) */
    if (b->iir && depth >= IIR_DEPTH && !has_tt)
        depth--;
    /* singular extension: when every move but the table's fails low
     * against a bound a little under the table's value, searched at
     * half depth, the table move is extended by a ply; when that bound
     * still reaches beta, several moves would cut: return it */
    int sing = 0;
    if (b->singular && sel && !excl && depth >= SING_DEPTH && has_tt &&
        hit.move && ply < AB_EXT_PLY &&
        (hit.bound == TT_LOWER || hit.bound == TT_EXACT) &&
        hit.depth >= depth - SING_SLACK &&
        hit.value > -AB_WIN_BOUND && hit.value < AB_WIN_BOUND) {
        int sbeta = value_from_tt(hit.value, ply) - 2 * depth;
        b->sing_tests++;
        b->excluded[ply] = hit.move;
        int v = negamax(b, (depth - 1) / 2, sbeta - 1, sbeta, ply, br);
        b->excluded[ply] = 0;
        b->sev[ply] = sv;
        b->pv_len[ply] = ply;
        if (b->aborted)
            return 0;
        if (v < sbeta) {
            sing = 1;
            b->sing_exts++;
        } else if (sbeta >= beta) {
            b->horizon++;
            return sbeta;
        }
    }
    Item *it = b->items + (size_t)ply * (b->maxm + 1);
    int n = node_items(b, st, p, depth, br, has_tt, hit.move, ply, it);
    if (excl)
        for (int i = 0; i < n; i++)
            if (it[i].m == excl) {
                it[i] = it[--n];
                break;
            }
    if (n == 0 && excl)
        return alpha;   /* nothing but the excluded move: it is singular */
    if (n == 0)
        return static_value(b, st, s);  /* broken game: no moves */
    if (n == 1 && b->ext && ply < AB_EXT_PLY && it[0].cdepth == depth - 1)
        it[0].cdepth = depth;   /* a forced move costs no depth */
    if (sing)
        for (int i = 0; i < n; i++)
            if (it[i].m == hit.move && it[i].cdepth == depth - 1)
                it[i].cdepth = depth;
    int alpha0 = alpha, best = -AB_INF, quiets = 0, checks_only = 0;
    uint64_t h0 = b->horizon;
    Move bestm = it[0].m;
    /* late quiet moves pruned near the horizon: after this many */
    int lmp_after = (3 + depth * depth) / (improving ? 1 : 2);
    for (int i = 0; i < n; i++) {
        pick_next(it, i, n);
        int isq = it[i].key < KEY_COUNTER;   /* quiet, not a killer */
        quiets += isq;
        if (b->lmp && ev != NO_EV && isq && !pvnode &&
            depth <= SEL_DEPTH && best > -AB_WIN_BOUND &&
            quiets > lmp_after && !checks_only) {
            /* the moves are picked by falling key, so every move left is
             * quiet too, and pruned the same way (lmpchk: but for the
             * quiet checks, which are searched on) */
            int m = i;
            if (b->lmpchk && g->gen_checks)
                m = keep_checks(b, st, it, i, n);
            b->horizon += (uint64_t)(n - m);
            if (m == i)
                break;
            n = m;
            checks_only = 1;
            pick_next(it, i, n);
        }
        unsigned char *child = state_at(b, ply + 1);
        memcpy(child, st, g->info.state_size);
        g->make(child, it[i].m);
        b->last[ply + 1] = it[i].m;
        note_move(b, ply + 1, it[i].m);
        int v;
        if (i == 0) {
            v = node_value(b, s, it[i].cdepth, alpha, beta, ply + 1,
                           it[i].cbr, 0, 0);
        } else {
            int cd = it[i].cdepth, red = 0;
            int gives = -1;     /* unknown */
            /* futility: a quiet move near the horizon that cannot lift
             * the static value to alpha; not one that ends the game (its
             * value is exact, a mate or a draw, whatever the static
             * value: the games' in_check is false once the game is
             * over, so a mate is not a check here) */
            if (b->fut && ev != NO_EV && isq && depth <= SEL_DEPTH &&
                best > -AB_WIN_BOUND &&
                ev + b->fut * depth <= alpha &&
                g->to_move(child) != PLAYER_TERMINAL &&
                !(gives = b->chk && g->in_check && g->in_check(child))) {
                b->horizon++;
                if (ev + b->fut * depth > best)
                    best = ev + b->fut * depth;
                continue;
            }
            /* late quiet moves (not table move, killer or counter-move)
             * get a shallower null-window look first */
            if (b->lmr && depth >= 3 && cd == depth - 1 &&
                it[i].key < KEY_COUNTER && !incheck) {
                if (gives < 0)
                    gives = b->chk && g->in_check && g->in_check(child);
                if (gives && !(b->chksee && losing(b, st, it[i].m))) {
                    red = 0;
                } else if (b->lmrtab) {
                    if (i >= 2) {
                        int di = depth < 63 ? depth : 63;
                        int mi = i < 63 ? i : 63;
                        red = b->lmr_red[di][mi];
                        if (pvnode)
                            red--;
                        if (!improving && ev != NO_EV)
                            red++;
                        red -= b->conthist
                                   ? quiet_score(b, p, it[i].m, ply) /
                                         HIST_MAX
                                   : b->history[p][hist_index(it[i].m)] /
                                         (HIST_MAX / 2);
                        if (red > cd - 1)
                            red = cd - 1;
                        if (red < 0)
                            red = 0;
                    }
                } else if (i >= 3) {
                    red = beta - alpha == 1 && i >= 6 ? 2 : 1;
                }
            }
            v = node_value(b, s, cd - red, alpha, alpha + 1, ply + 1,
                           it[i].cbr, 0, 0);
            if (red && v > alpha && !b->aborted)
                v = node_value(b, s, cd, alpha, alpha + 1, ply + 1,
                               it[i].cbr, 0, 0);
            if (v > alpha && v < beta && !b->aborted)
                v = node_value(b, s, it[i].cdepth, alpha, beta, ply + 1,
                               it[i].cbr, 0, 0);
        }
        if (b->aborted)
            return 0;
        if (v > best) {
            best = v;
            bestm = it[i].m;
            if (v > alpha) {
                alpha = v;
                update_pv(b, ply, it[i].m);
                if (v >= beta) {
                    int quiet = !(g->is_noisy && g->is_noisy(st, it[i].m));
                    if (quiet) {
                        if (!(b->nkiller[ply] > 0 &&
                              b->killer[ply][0] == it[i].m)) {
                            b->killer[ply][1] = b->killer[ply][0];
                            b->killer[ply][0] = it[i].m;
                            if (b->nkiller[ply] < 2)
                                b->nkiller[ply]++;
                        }
                        quiet_update(b, p, it[i].m, ply, depth * depth);
                        if (b->cmove && b->last[ply])
                            b->counter[s][hist_index(b->last[ply])] =
                                it[i].m;
                        for (int j = 0; j < i; j++)
                            if (!(g->is_noisy && g->is_noisy(st, it[j].m)))
                                quiet_update(b, p, it[j].m, ply,
                                             -depth * depth);
                    }
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    if (b->corrhist && raw != NO_EV && !excl &&
        best > -AB_WIN_BOUND && best < AB_WIN_BOUND &&
        !(g->is_noisy && g->is_noisy(st, bestm)) &&
        !(bound == TT_LOWER && best <= sv) &&
        !(bound == TT_UPPER && best >= sv)) {
        /* the search's value where it is trustworthy (a bound on the
         * right side of the static value, a quiet best move): move the
         * correction a step towards best - raw, weighted by depth */
        int32_t *c = corr_slot(b, st, s);
        int w = depth + 1 < 16 ? depth + 1 : 16;
        int64_t diff = (int64_t)(best - raw) * CORR_GRAIN;
        int64_t x = ((int64_t)*c * (256 - w) + diff * w) / 256;
        int64_t lim = (int64_t)CORR_LIMIT * CORR_GRAIN;
        *c = (int32_t)(x > lim ? lim : x < -lim ? -lim : x);
    }
    int sdepth = depth;
    if (!b->tt_exact && b->horizon == h0) {
        /* no leaf was cut by depth: the result holds at any depth */
        sdepth = TT_MAX_DEPTH;
    } else if (!b->tt_exact &&
        ((best >= AB_WIN_BOUND && bound != TT_UPPER) ||
         (best <= -AB_WIN_BOUND && bound != TT_LOWER))) {
        /* a forced result holds at any depth, as a bound */
        sdepth = TT_MAX_DEPTH;
        bound = best > 0 ? TT_LOWER : TT_UPPER;
    }
    tt_store(b->ttp, key, bestm, value_to_tt(best, ply), sdepth, bound);
    return best;
}

/* ---- root ---- */

typedef struct Root {
    Item *it;
    int n;
    Move iter_best;     /* best move of the iteration under way, if any */
    int iter_valid, iter_value;
} Root;

static int root_search(AbBot *b, Root *r, int depth, int alpha, int beta)
{
    const GameVtbl *g = b->g;
    const void *st = state_at(b, 0);
    int s = side_of(b, g->to_move(st));
    int best = -AB_INF;
    b->pv_len[0] = 0;
    b->sev[0] = NO_EV;
    b->last[0] = 0;
    r->iter_valid = 0;
    for (int i = 0; i < r->n; i++) {
        unsigned char *child = state_at(b, 1);
        memcpy(child, st, g->info.state_size);
        g->make(child, r->it[i].m);
        b->last[1] = r->it[i].m;
        note_move(b, 1, r->it[i].m);
        b->nodes++;
        int v;
        if (i == 0) {
            v = node_value(b, s, depth - 1, alpha, beta, 1, 0, 0, 0);
        } else {
            v = node_value(b, s, depth - 1, alpha, alpha + 1, 1, 0, 0, 0);
            if (v > alpha && v < beta && !b->aborted)
                v = node_value(b, s, depth - 1, alpha, beta, 1, 0, 0, 0);
        }
        if (b->aborted)
            break;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                update_pv(b, 0, r->it[i].m);
                r->iter_best = r->it[i].m;
                r->iter_value = v;
                r->iter_valid = 1;
                /* keep the best move first for the next iteration */
                Item t = r->it[i];
                memmove(r->it + 1, r->it, sizeof(Item) * (size_t)i);
                r->it[0] = t;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Table cutoffs cut the collected PV short: follow the table's moves
 * from its end (legal ones only, a bounded number). */
static int extend_pv(AbBot *b, Move *pv, int len)
{
    const GameVtbl *g = b->g;
    if (b->np > 2 && !b->two &&
        (b->mode == MODE_BRS || b->mode == MODE_BRSP))
        return len;     /* entries there depend on who branched */
    unsigned char *st = state_at(b, 1);
    Move *mv = b->moves + (size_t)(AB_MAX_PLY + 1) * b->maxm;
    memcpy(st, state_at(b, 0), g->info.state_size);
    for (int i = 0; i < len; i++)
        g->make(st, pv[i]);
    while (len < SEARCH_MAX_PV && g->to_move(st) >= 0) {
        TTHit hit;
        if (!tt_probe(b->ttp, node_key(b, st, 0), &hit))
            break;
        int n = g->gen_moves(st, mv), legal = 0;
        for (int i = 0; i < n && !legal; i++)
            legal = mv[i] == hit.move;
        if (!legal)
            break;
        pv[len++] = hit.move;
        g->make(st, hit.move);
    }
    return len;
}

/* Nodes of the whole search: the calling thread's, and what the helpers
 * last published (all of theirs once they are joined). */
static uint64_t total_nodes(AbBot *b)
{
    uint64_t n = b->nodes;
    for (int i = 0; i < b->threads - 1; i++)
        n += atomic_load_explicit(&b->helpers[i].bot->nodes_pub,
                                  memory_order_relaxed);
    return n;
}


/* ---- max-n (mode=maxn, more than two players) ----
 * The value of a node is a vector, one entry per player: terminal,
 * returns() r times EVAL_WIN - ply; at the horizon, eval(st, p) for
 * every player p (one eval_all() call where the game has it; clamped
 * to +-EVAL_MAX; 0 without eval); for a player
 * out of the game (the eliminated hook), out_value() of its result
 * unless it is the best; at a chance node the expectation; otherwise the
 * vector of the child whose entry for the player to move is highest
 * (the first such child in search order). Shallow pruning: in a zero-sum
 * game every entry is >= -EVAL_WIN and the entries sum to at most 0, so
 * once the player to move p is sure of v, the player q who moved into
 * this node gets at most (np - 2) * EVAL_WIN - v here; when that is no
 * more than what q already has elsewhere, the other children do not
 * matter (for q's choice, which is all that remains of them). A turn of
 * several steps is searched step by step, each step one ply. No table:
 * entries would need the whole vector. */
static void maxn_leaf(AbBot *b, const void *st, int ply, int *v)
{
    const GameVtbl *g = b->g;
    double r[PLY_MAX_PLAYERS];
    int all[PLY_MAX_PLAYERS];
    int term = g->to_move(st) == PLAYER_TERMINAL;
    int use_all = !term && !b->weights && g->eval_all;
    if (term || g->eliminated)
        g->returns(st, r);
    if (use_all)
        g->eval_all(st, all);
    for (int p = 0; p < b->np; p++) {
        if (g->eliminated && g->eliminated(st, p) && r[p] < 1 - 1e-9) {
            v[p] = out_value(r[p], ply);
        } else if (term) {
            v[p] = (int)lround(r[p] * (EVAL_WIN - ply));
        } else {
            int e = use_all ? all[p]
                  : b->weights ? evalfile_eval_of(g->tuning, b->weights, st,
                                                  p, b->terms)
                  : g->eval ? g->eval(st, p) : 0;
            v[p] = e > EVAL_MAX ? EVAL_MAX : e < -EVAL_MAX ? -EVAL_MAX : e;
        }
    }
}

static void maxn(AbBot *b, int depth, int ply, int q, int qbest, int *out)
{
    const GameVtbl *g = b->g;
    const void *st = state_at(b, ply);
    int np = b->np;
    if (ply > b->seldepth)
        b->seldepth = ply;
    b->pv_len[ply] = ply;
    int p = g->to_move(st);
    if (p == PLAYER_TERMINAL) {
        maxn_leaf(b, st, ply, out);
        return;
    }
    if (depth <= 0 && mid_turn(b, ply))
        depth = 1;
    if (depth <= 0 || ply >= AB_MAX_PLY) {
        b->horizon++;
        maxn_leaf(b, st, ply, out);
        return;
    }
    b->nodes++;
    if (out_of_time(b))
        return;
    Move *mv = b->moves + (size_t)ply * b->maxm;
    if (p == PLAYER_CHANCE) {
        int n = g->chance_outcomes(st, mv, b->probs);
        double probs[n > 0 ? n : 1], sum[PLY_MAX_PLAYERS] = {0};
        memcpy(probs, b->probs, sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++) {
            int cv[PLY_MAX_PLAYERS];
            memcpy(state_at(b, ply + 1), st, g->info.state_size);
            g->make(state_at(b, ply + 1), mv[i]);
            maxn(b, depth, ply + 1, -1, 0, cv);
            if (b->aborted)
                return;
            for (int k = 0; k < np; k++)
                sum[k] += probs[i] * cv[k];
        }
        for (int k = 0; k < np; k++)
            out[k] = (int)lround(sum[k]);
        return;
    }
    Item *it = b->items + (size_t)ply * (b->maxm + 1);
    int n = node_items(b, st, p, depth, 0, 0, 0, ply, it);
    if (n == 0) {
        maxn_leaf(b, st, ply, out);
        return;
    }
    int prune = (g->info.flags & GAME_ZERO_SUM) && q >= 0 && q != p;
    int best[PLY_MAX_PLAYERS], have = 0;
    for (int i = 0; i < n; i++) {
        pick_next(it, i, n);
        int cv[PLY_MAX_PLAYERS];
        memcpy(state_at(b, ply + 1), st, g->info.state_size);
        g->make(state_at(b, ply + 1), it[i].m);
        maxn(b, it[i].cdepth, ply + 1, p, have ? best[p] : -AB_INF, cv);
        if (b->aborted)
            return;
        if (!have || cv[p] > best[p]) {
            memcpy(best, cv, sizeof(int) * (size_t)np);
            have = 1;
            update_pv(b, ply, it[i].m);
            if (prune && (int64_t)(np - 2) * EVAL_WIN - best[p] <= qbest) {
                if (i > 0 || n > 1)
                    hist_update(b, p, it[i].m, depth * depth);
                break;
            }
        }
    }
    memcpy(out, best, sizeof(int) * (size_t)np);
}

/* One max-n iteration over the root moves (best first); returns the root
 * player's value, the best move first in r->it. */
static int maxn_root(AbBot *b, Root *r, int depth)
{
    const GameVtbl *g = b->g;
    const void *st = state_at(b, 0);
    int best = -AB_INF, bi = 0;
    b->pv_len[0] = 0;
    for (int i = 0; i < r->n; i++) {
        int cv[PLY_MAX_PLAYERS];
        memcpy(state_at(b, 1), st, g->info.state_size);
        g->make(state_at(b, 1), r->it[i].m);
        b->nodes++;
        maxn(b, depth - 1, 1, b->root, best, cv);
        if (b->aborted)
            return best;
        if (cv[b->root] > best) {
            best = cv[b->root];
            bi = i;
            update_pv(b, 0, r->it[i].m);
        }
    }
    Item t = r->it[bi];
    memmove(r->it + 1, r->it, sizeof(Item) * (size_t)bi);
    r->it[0] = t;
    return best;
}

static void fill_info(AbBot *b, SearchInfo *out, Move best, int value,
                      int depth, const Move *pv, int pv_len)
{
    out->best = best;
    out->value = value;
    out->proven = value >= AB_WIN_BOUND ? 1 : value <= -AB_WIN_BOUND ? -1 : 0;
    out->depth = depth;
    out->seldepth = b->seldepth;
    out->nodes = total_nodes(b);
    out->seconds = (double)botclock_elapsed_us(&b->clk) / 1e6;
    if (pv_len > SEARCH_MAX_PV)
        pv_len = SEARCH_MAX_PV;
    out->pv_len = pv_len;
    for (int i = 0; i < pv_len; i++)
        out->pv[i] = pv[i];
}

/* Counters and killers of one search. */
static void search_reset(AbBot *b)
{
    b->nodes = 0;
    b->horizon = 0;
    b->next_check = 0;
    b->seldepth = 0;
    b->sing_tests = b->sing_exts = 0;
    b->aborted = 0;
    b->can_abort = 0;
    memset(b->nkiller, 0, sizeof b->nkiller);
}

/* The moves at stack[0] in their first order: the table's move, then the
 * ordering keys. Returns their count. */
static int root_items(AbBot *b, Root *r)
{
    const GameVtbl *g = b->g;
    const void *root = state_at(b, 0);
    r->it = b->items + (size_t)(AB_MAX_PLY + 1) * (b->maxm + 1);
    TTHit hit = {0};
    int has_tt = tt_probe(b->ttp, node_key(b, root, 0), &hit);
    Move *mv = b->moves;
    r->n = g->gen_moves(root, mv);
    if (r->n < 1)
        return 0;
    for (int i = 0; i < r->n; i++)
        r->it[i] = (Item){mv[i], order_key(b, root, b->root, mv[i], has_tt,
                                           hit.move, 0), 0, 0};
    for (int i = 0; i < r->n; i++)
        pick_next(r->it, i, r->n);
    return r->n;
}

/* One iteration at depth d, in an aspiration window around the last
 * iteration's value that widens on failure; b->aborted says whether it
 * finished. *h0 is the horizon count before the last window's search. */
static int iterate(AbBot *b, Root *r, int d, int value, uint64_t *h0)
{
    int v, delta = b->aspiration;
    int alpha = -AB_INF, beta = AB_INF;
    if (d >= 4 && delta > 0 && value > -AB_WIN_BOUND &&
        value < AB_WIN_BOUND) {
        alpha = value - delta;
        beta = value + delta;
    }
    for (;;) {
        *h0 = b->horizon;
        v = root_search(b, r, d, alpha, beta);
        if (b->aborted)
            break;
        if (v <= alpha && alpha > -AB_INF) {
            delta *= 4;
            alpha = v - delta < -EVAL_MAX ? -AB_INF : v - delta;
        } else if (v >= beta && beta < AB_INF) {
            delta *= 4;
            beta = v + delta > EVAL_MAX ? AB_INF : v + delta;
        } else {
            break;
        }
    }
    return v;
}

/* ---- Lazy SMP helpers ---- */

/* Whether helper k leaves out depth d. Helpers that all searched the
 * depth the main search is on would mostly repeat its work; skipping
 * depths spreads them over the next few: helper 1 searches the odd
 * depths, helper 2 the even ones, helpers 3 and 4 alternate pairs of
 * depths in two phases, 5 and 6 pairs in the other two, 7 and 8 triples,
 * and so on. Depth 1 is never skipped. */
static int helper_skips(int k, int d)
{
    int span = 1 + (k - 1) / 4 + ((k - 1) % 4 >= 2 ? 1 : 0);
    return d > 1 && ((d + k) / span) % 2 == 1;
}

static void *helper_main(void *arg)
{
    AbHelper *hp = arg;
    AbBot *b = hp->bot;
    Root r = {0};
    if (root_items(b, &r) > 0) {
        int value = 0;
        for (int d = 1; d <= hp->maxd; d++) {
            if (helper_skips(b->helper_index, d))
                continue;
            uint64_t h0;
            int v = iterate(b, &r, d, value, &h0);
            if (b->aborted)
                break;
            value = v;
            if (b->horizon == h0)
                break;  /* solved */
        }
    }
    atomic_store_explicit(&b->nodes_pub, b->nodes, memory_order_relaxed);
    return NULL;
}

/* Starts the helpers on the main search's root (stack[0], b->root set)
 * with the table already aged for this search; none when maxd is 1 (a
 * forced move), but their node counts are cleared in any case. */
static void start_helpers(AbBot *b, int maxd)
{
    for (int i = 0; i < b->threads - 1; i++) {
        AbHelper *hp = &b->helpers[i];
        AbBot *h = hp->bot;
        atomic_store_explicit(&h->nodes_pub, 0, memory_order_relaxed);
        if (maxd <= 1)
            continue;
        search_reset(h);
        atomic_store(&h->stop, 0);
        h->can_abort = 1;       /* stopped by the main search only */
        h->clk = b->clk;
        h->clk.stop = 0;        /* no clock of its own: the main one stops it */
        h->node_limit = 0;
        h->ttp = b->ttp;
        h->root = b->root;
        memcpy(state_at(h, 0), state_at(b, 0), b->g->info.state_size);
        hp->maxd = maxd;
        hp->running = !pthread_create(&hp->th, NULL, helper_main, hp);
    }
}

static void stop_helpers(AbBot *b)
{
    for (int i = 0; i < b->threads - 1; i++)
        if (b->helpers[i].running)
            atomic_store(&b->helpers[i].bot->stop, 1);
    for (int i = 0; i < b->threads - 1; i++)
        if (b->helpers[i].running) {
            pthread_join(b->helpers[i].th, NULL);
            b->helpers[i].running = 0;
        }
}

static Move ab_choose(void *p, const void *st0, const Limits *lim,
                      SearchInfo *out)
{
    AbBot *b = p;
    const GameVtbl *g = b->g;
    static const Limits none = {0};
    if (!lim)
        lim = &none;
    atomic_store(&b->stop, 0);
    int64_t tlim = lim->time_ms;
    if (!tlim && !lim->nodes && !lim->depth)
        tlim = DEFAULT_TIME_MS;
    botclock_start(&b->clk, lim, tlim);
    b->tick = (BotTick){0, 0, 1};
    b->node_limit = lim->nodes;
    search_reset(b);
    tt_new_search(b->ttp);

    unsigned char *root = state_at(b, 0);
    if (g->info.flags & GAME_HIDDEN)
        g->determinize(st0, g->to_move(st0), &b->rng, root);
    else
        memcpy(root, st0, g->info.state_size);
    b->root = g->to_move(root);
    if (b->root < 0)
        return 0;   /* terminal or chance: nothing to choose */
    if (g->seats) {
        /* the seats playing (splut players=2 is a duel: negamax, not
         * paranoid over empty seats); values differ, so the table goes */
        int np = g->seats(root, NULL);
        if (np >= 1 && np <= g->info.num_players && np != b->np) {
            b->np = np;
            for (int i = 0; i < b->threads - 1; i++)
                b->helpers[i].bot->np = np;
            tt_clear(b->ttp);
        }
    }

    Root r = {0};
    if (root_items(b, &r) < 1)
        return 0;

    Move best = r.it[0].m;
    int value = 0, done = 0;
    Move pv[SEARCH_MAX_PV];
    int pv_len = 0;
    int maxd = lim->depth ? lim->depth : MAX_ITER_DEPTH;
    if (r.n == 1 && !lim->depth)
        maxd = 1;   /* a forced move needs no thinking */
    /* two players left of more (duel=1, the default): whatever the
     * mode, the search is the two-player search, selective search
     * included (docs/nplayer.md, "Two players left"); the table goes
     * when that changes, as its values came from another search */
    int two = b->np == 2 || (b->duel && live_players(b, root) == 2);
    if (two != b->two) {
        b->two = two;
        for (int i = 0; i < b->threads - 1; i++)
            b->helpers[i].bot->two = two;
        if (b->np > 2)
            tt_clear(b->ttp);
    }
    int use_maxn = b->np > 2 && !two && b->mode == MODE_MAXN;
    Move prev_best = best;
    int prev_value = 0, same = -1;  /* iterations the move has stayed */
    start_helpers(b, use_maxn ? 1 : maxd);  /* helpers search paranoid */
    for (int d = 1; d <= maxd; d++) {
        uint64_t h0 = b->horizon;
        int v = use_maxn ? maxn_root(b, &r, d) : iterate(b, &r, d, value,
                                                         &h0);
        if (use_maxn)
            r.iter_valid = 0;
        if (b->aborted) {
            if (r.iter_valid) {
                /* a completed search beat the last iteration's best */
                best = r.iter_best;
                value = r.iter_value;
                pv_len = b->pv_len[0];
                for (int i = 0; i < pv_len && i < SEARCH_MAX_PV; i++)
                    pv[i] = b->pv[0][i];
            }
            break;
        }
        best = r.it[0].m;
        value = v;
        done = d;
        pv_len = b->pv_len[0] < SEARCH_MAX_PV ? b->pv_len[0] : SEARCH_MAX_PV;
        if (pv_len == 0 || b->pv[0][0] != best) {
            pv[0] = best;
            pv_len = 1;
        } else {
            for (int i = 0; i < pv_len; i++)
                pv[i] = b->pv[0][i];
        }
        pv_len = extend_pv(b, pv, pv_len);
        b->can_abort = 1;
        if (lim->on_info) {
            SearchInfo tmp;
            memset(&tmp, 0, sizeof tmp);
            fill_info(b, &tmp, best, value, done, pv, pv_len);
            lim->on_info(&tmp, lim->user);
        }
        if (out_of_time(b))
            break;
        int64_t el = botclock_elapsed_us(&b->clk);
        int64_t soft = b->soft;
        if (b->tmstab && d >= 4) {
            /* a settled choice needs no more time; a changed or falling
             * one more */
            if (best != prev_best || value <= prev_value - TM_DROP)
                soft = soft * (100 + b->tmstab) / 100;
            else if (same >= 1)
                soft = soft * (100 - b->tmstab) / 100;
            if (soft > 100)
                soft = 100;
        }
        same = best == prev_best ? same + 1 : 0;
        prev_best = best;
        prev_value = value;
        if (tlim && !lim->spend_all && el * 100 >= tlim * 1000 * soft)
            break;  /* the next iteration would likely not finish (time
                       the move's own is spent all the same: the
                       unfinished iteration may still find a better
                       move, below) */
        if ((value >= AB_WIN_BOUND || value <= -AB_WIN_BOUND) &&
            d > EVAL_WIN - abs(value) + 1)
            break;  /* proven, and no shorter result remains to find */
        if (b->horizon == h0)
            break;  /* solved: no leaf was cut by depth */
    }
    stop_helpers(b);
    fill_info(b, out, best, value, done, pv, pv_len);
    return best;
}

/* ---- life cycle ---- */

static void ab_destroy(void *p)
{
    AbBot *b = p;
    if (!b)
        return;
    if (b->helpers)
        for (int i = 0; i < b->threads - 1; i++)
            ab_destroy(b->helpers[i].bot);
    free(b->helpers);
    tt_free(&b->tt);
    free(b->stack);
    free(b->moves);
    free(b->checks);
    free(b->items);
    free(b->probs);
    free(b->tmp);
    free(b->ecache_e);
    free(b->weights);
    free(b->terms);
    net_stack_free(&b->ns);
    if (b->net && !b->helper_index) {
        net_free(b->net);
        free(b->net);
    }
    free(b);
}

static void ab_new_game(void *p)
{
    AbBot *b = p;
    tt_clear(&b->tt);
    memset(b->history, 0, sizeof b->history);
    memset(b->counter, 0, sizeof b->counter);
    memset(b->cont, 0, sizeof b->cont);
    memset(b->corr, 0, sizeof b->corr);
    memset(b->nkiller, 0, sizeof b->nkiller);
    if (b->ecache_e)
        memset(b->ecache_e, 0, sizeof *b->ecache_e * ECACHE_SIZE);
    rng_seed(&b->rng, b->seed);
    for (int i = 0; i < b->threads - 1; i++)
        ab_new_game(b->helpers[i].bot);
}

/* The per-thread buffers of a search. Returns 0, or -1 when out of
 * memory (the caller frees what was allocated). */
static int ab_buffers(AbBot *b)
{
    size_t ss = b->g->info.state_size, slots = AB_MAX_PLY + 2;
    b->stack = malloc(ss * slots);
    b->moves = malloc(sizeof(Move) * (size_t)b->maxm * slots);
    b->checks = malloc(sizeof(Move) * (size_t)b->maxm);
    b->items = malloc(sizeof(Item) * (size_t)(b->maxm + 1) * slots);
    b->probs = malloc(sizeof(double) * (size_t)b->maxm);
    b->tmp = malloc(ss);
    int cache = b->ecache && b->g->eval;
    b->ecache_e = cache ? calloc(ECACHE_SIZE, sizeof *b->ecache_e) : NULL;
    return b->stack && b->moves && b->checks && b->items && b->probs &&
                   b->tmp && (b->ecache_e || !cache)
               ? 0
               : -1;
}

/* Helper k of main bot b: its options, its own buffers, history and
 * seed, no table of its own (start_helpers points it at b's). */
static AbBot *ab_helper_new(const AbBot *b, int k)
{
    AbBot *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    memcpy(h, b, offsetof(AbBot, rng));     /* game and options */
    h->weights = NULL;
    h->terms = NULL;
    h->threads = 1;
    h->helper_index = k;
    h->seed = b->seed + (uint64_t)k;
    rng_seed(&h->rng, h->seed);
    atomic_init(&h->stop, 0);
    atomic_init(&h->nodes_pub, 0);
    h->ttp = b->ttp;
    int bad = ab_buffers(h);
    if (!bad && b->net)
        bad = net_stack_init(&h->ns, b->net, AB_MAX_PLY + 3);
    if (!bad && b->weights) {
        size_t wb = sizeof(int) * (size_t)b->g->tuning->nparams;
        h->weights = malloc(wb);
        h->terms = malloc(sizeof(EvalTerm) * EVAL_MAX_TERMS);
        bad = !h->weights || !h->terms;
        if (!bad)
            memcpy(h->weights, b->weights, wb);
    }
    if (bad) {
        ab_destroy(h);
        return NULL;
    }
    return h;
}

static void ab_stop(void *p)
{
    AbBot *b = p;
    atomic_store(&b->stop, 1);
}

static const char *const mode_choices[] = {"paranoid", "brs", "maxn",
                                           "brs+", NULL};

typedef struct AbOpts {
    int hash_mib, mode, qs, lmr, nullmove, chk, mdp, ext, aspiration, soft;
    int rollouts, contempt, rep, tt_exact, threads, turnend, brturn, duel;
    char weights[OPT_TEXT_MAX];
    int egtb;
    int rfp, razor, fut, lmp, lmrtab, iir, cmove, see, nulladapt;
    char net[OPT_TEXT_MAX];
    int conthist, corrhist, singular, tmstab, ecache, qchecks, chksee;
    int lmpchk;
} AbOpts;

#define AB_OPT(k, t, d, lo, hi, field, h)                                   \
    {.key = k, .type = t, .def = d, .min = lo, .max = hi,                  \
     .offset = offsetof(AbOpts, field), .help = h}

static const Option ab_options[] = {
    {.key = "hash", .type = OPT_INT, .def = 16, .max = 65536,
     .offset = offsetof(AbOpts, hash_mib), .engine = "Hash",
     .help = "transposition table, MiB (0: no table)",
     .flags = OPTF_COSTLY},
    {.key = "threads", .type = OPT_INT, .def = 1, .min = 1,
     .max = MAX_THREADS, .offset = offsetof(AbOpts, threads),
     .engine = "Threads",
     .help = "Lazy SMP: N searches share the table, helpers skip depths in "
             "different patterns, the main search's move is played and "
             "nodes= limits it alone",
     .flags = OPTF_COSTLY},
    {.key = "mode", .type = OPT_CHOICE, .def = MODE_PARANOID,
     .choices = mode_choices, .offset = offsetof(AbOpts, mode),
     .help = "more than two players: paranoid, best-reply search, "
             "max-n (one value per player, shallow pruning), or brs+ "
             "(best-reply search where exactly one opponent of each "
             "stretch branches; in brs the coalition may also let every "
             "opponent play its ordering move)"},
    AB_OPT("qs", OPT_BOOL, 1, 0, 1, qs, "quiescence on noisy moves"),
    AB_OPT("lmr", OPT_BOOL, 1, 0, 1, lmr, "late move reductions"),
    AB_OPT("null", OPT_BOOL, 1, 0, 1, nullmove,
           "null-move pruning where the game allows it"),
    AB_OPT("check", OPT_BOOL, 1, 0, 1, chk,
           "games with in_check: check extensions, all evasions in "
           "quiescence, quiescence on gen_noisy without a quiet-move test"),
    AB_OPT("mdp", OPT_BOOL, 1, 0, 1, mdp, "mate-distance pruning"),
    AB_OPT("ext", OPT_BOOL, 1, 0, 1, ext,
           "a single legal move costs no depth"),
    AB_OPT("aspiration", OPT_INT, 50, 0, EVAL_MAX, aspiration,
           "aspiration window, eval units (0: off)"),
    AB_OPT("soft", OPT_INT, 50, 1, 100, soft,
           "no new iteration after this percentage of the time, "
           "unless the time is the move's own (a time per move, byoyomi "
           "after the main time): then the search goes on to its "
           "deadline"),
    AB_OPT("tmstab", OPT_INT, 0, 0, 90, tmstab,
           "timed searches: the soft limit is scaled by the best move's "
           "stability, down by N percent once the same move has come out "
           "of three iterations in a row, up by N percent (to the whole "
           "budget at most) after an iteration that changed the move or "
           "dropped the value by 30 or more (0: off)"),
    AB_OPT("rollouts", OPT_INT, 0, 0, 10000, rollouts,
           "games without eval: leaf value from N random playouts (0: "
           "leaves are 0)"),
    AB_OPT("contempt", OPT_INT, 0, -1000, 1000, contempt,
           "two players: a drawn end found in the search is worth -N to "
           "the bot, +N to its opponent"),
    AB_OPT("rep", OPT_BOOL, 1, 0, 1, rep,
           "games with a repeated hook: a position repeated inside the "
           "tree is a draw"),
    AB_OPT("turnend", OPT_BOOL, 0, 0, 1, turnend,
           "games whose turns have several moves: no horizon inside a "
           "turn, the search goes on to its end (the last move's player "
           "moving again extends by a move)"),
    AB_OPT("brturn", OPT_BOOL, 1, 0, 1, brturn,
           "mode=brs|brs+ in games whose turns have several moves: the "
           "opponent that branches does so for its whole turn, and one "
           "that does not branch at the first move of its turn plays "
           "natural moves to its end"),
    AB_OPT("duel", OPT_BOOL, 1, 0, 1, duel,
           "more than two players, two of them left in the game: every "
           "mode searches it as a two-player game (paranoid, with the "
           "selective search of two-player games)"),
    AB_OPT("ttexact", OPT_BOOL, 0, 0, 1, tt_exact,
           "table cutoffs only at equal depth, for tests"),
    {.key = "weights", .type = OPT_FILE, .offset = offsetof(AbOpts, weights),
     .help = "games with a tunable evaluation: evaluate with the weights "
             "in FILE, a header written by ply tune; slower, for comparing "
             "weights at fixed nodes"},
    AB_OPT("egtb", OPT_BOOL, 1, 0, 1, egtb,
           "games with endgame databases (an exact hook): their results "
           "at every node they cover"),
    AB_OPT("rfp", OPT_INT, 100, 0, EVAL_MAX, rfp,
           "two players with an eval: reverse futility pruning, a "
           "non-PV node at depth <= 8 whose static value beats beta by N "
           "per ply of depth (a ply fewer when improving) returns it "
           "(0: off)"),
    AB_OPT("razor", OPT_INT, 300, 0, EVAL_MAX, razor,
           "razoring: a non-PV node at depth <= 3 whose static value is "
           "N per ply below alpha asks quiescence, and returns its value "
           "when that fails low too (0: off)"),
    AB_OPT("fut", OPT_INT, 150, 0, EVAL_MAX, fut,
           "futility pruning: at depth <= 8, quiet moves after the first "
           "that give no check are skipped when the static value plus N "
           "per ply stays at or below alpha (0: off)"),
    AB_OPT("lmp", OPT_BOOL, 1, 0, 1, lmp,
           "late-move pruning: at non-PV nodes of depth <= 8, quiet moves "
           "after the first (3 + depth^2) / 2 (twice that when improving) "
           "are skipped"),
    AB_OPT("lmrtab", OPT_BOOL, 1, 0, 1, lmrtab,
           "lmr=1: reductions from a table 0.75 + ln(depth) ln(move) / "
           "2.25, one less at PV nodes, one more when not improving, "
           "less for moves with good history"),
    AB_OPT("iir", OPT_BOOL, 1, 0, 1, iir,
           "internal iterative reduction: a node at depth >= 4 without a "
           "table entry is searched one ply shallower"),
    AB_OPT("cmove", OPT_BOOL, 1, 0, 1, cmove,
           "counter-move ordering: the quiet move that last refuted the "
           "opponent's move comes after the killers"),
    AB_OPT("qchecks", OPT_BOOL, 0, 0, 1, qchecks,
           "games with gen_checks (shogi): quiescence's first ply also "
           "searches the quiet checks that do not lose material"),
    AB_OPT("chksee", OPT_BOOL, 1, 0, 1, chksee,
           "games with a see hook: a check that loses material on its "
           "square is not extended and is reduced like a quiet move"),
    AB_OPT("lmpchk", OPT_INT, 0, 0, 2, lmpchk,
           "games with gen_checks (shogi): late-move pruning spares the "
           "quiet moves that give check (2: those that lose no material, "
           "by the see hook, 1: all)"),
    AB_OPT("see", OPT_BOOL, 1, 0, 1, see,
           "games with a see hook (static exchange): captures that lose "
           "material are ordered after killers and counter-moves (and "
           "treated as quiet moves) and left out of quiescence"),
    AB_OPT("nullr", OPT_BOOL, 0, 0, 1, nulladapt,
           "null=1: the null move's reduction grows with depth and with "
           "the static value's margin over beta, 3 + depth/4 + "
           "min(margin/200, 3), instead of 2 (3 from depth 7)"),
    {.key = "net", .type = OPT_FILE, .offset = offsetof(AbOpts, net),
     .help = "games with net inputs: evaluate with the learned net in "
             "FILE, written by ply train (accumulators updated from the "
             "parent's); net=none: the hand-written evaluation. A game "
             "with a built-in net (ply info GAME) uses it when neither "
             "net= nor weights= is given"},
    AB_OPT("conthist", OPT_BOOL, 0, 0, 1, conthist,
           "continuation histories: quiet moves are also ordered (and "
           "reduced) by how they did after the opponent's last move and "
           "after the player's own move before it (hashed move pairs)"),
    AB_OPT("corrhist", OPT_BOOL, 0, 0, 1, corrhist,
           "two players with an eval: a correction history moves the "
           "static value used for pruning towards what searches of the "
           "same position (hash bucket) found, by at most 300"),
    AB_OPT("singular", OPT_BOOL, 1, 0, 1, singular,
           "singular extension: at depth >= 6, when every move but the "
           "table's fails low at half depth against the table value less "
           "2 per ply, the table move is searched a ply deeper (and a "
           "node where that bound reaches beta returns it)"),
    AB_OPT("ecache", OPT_BOOL, 1, 0, 1, ecache,
           "the game's static evaluation is kept in a 32k-entry cache "
           "by the position's hash and point of view, one per thread "
           "(the same values, computed less often)"),
    {.key = NULL},
};

static void *ab_create(const GameVtbl *g, const void *opts, uint64_t seed,
                       PlyError *err)
{
    const AbOpts *o = opts;
    const char *wfile = o->weights;
    int threads = o->threads;
    if (wfile[0] && (!g->tuning || (g->info.num_players != 2 &&
                                    !g->tuning->terms_of))) {
        ply_fail(err, "weights=FILE needs a game with a tunable "
                 "evaluation (with more than two players, from every "
                 "player's view); %s has none", g->info.name);
        return NULL;
    }
    int hand = !strcmp(o->net, "none");
    if (o->net[0] && !hand && (!g->net || g->info.num_players != 2)) {
        ply_fail(err, "net=FILE needs a two-player game with net inputs; "
                 "%s has none", g->info.name);
        return NULL;
    }
    if (o->net[0] && !hand && wfile[0]) {
        ply_fail(err, "net=FILE and weights=FILE exclude each other");
        return NULL;
    }
    AbBot *b = calloc(1, sizeof *b);
    if (!b) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->g = g;
    b->np = g->info.num_players;
    b->two = b->np == 2;
    b->maxm = g->info.max_moves;
    b->mode = o->mode;
    b->qs = o->qs;
    b->lmr = o->lmr;
    b->ext = o->ext;
    b->nullmove = o->nullmove;
    b->chk = o->chk;
    b->mdp = o->mdp;
    b->turnend = o->turnend;
    b->brturn = o->brturn;
    b->duel = o->duel;
    b->contempt = o->contempt;
    b->rep = o->rep;
    b->egtb = o->egtb;
    b->soft = o->soft;
    b->tmstab = o->tmstab;
    b->tt_exact = o->tt_exact;
    b->aspiration = o->aspiration;
    b->rollouts = o->rollouts;
    b->rfp = o->rfp;
    b->razor = o->razor;
    b->fut = o->fut;
    b->lmp = o->lmp;
    b->lmrtab = o->lmrtab;
    b->iir = o->iir;
    b->cmove = o->cmove;
    b->see = o->see;
    b->qchecks = o->qchecks;
    b->chksee = o->chksee;
    b->lmpchk = o->lmpchk;
    b->nulladapt = o->nulladapt;
    b->conthist = o->conthist;
    b->corrhist = o->corrhist;
    b->singular = o->singular;
    b->ecache = o->ecache;
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++) {
            double r = 0.75 + log(d) * log(m) / 2.25;
            b->lmr_red[d][m] = (unsigned char)(r < 0 ? 0 : r);
        }
    b->hash_mib = (size_t)o->hash_mib;
    b->seed = seed;
    rng_seed(&b->rng, seed);
    atomic_init(&b->stop, 0);
    atomic_init(&b->nodes_pub, 0);
    b->threads = 1;
    b->ttp = &b->tt;
    int nobuf = ab_buffers(b);
    /* the game's built-in net unless told otherwise */
    int builtin = !o->net[0] && !wfile[0] && g->net && g->net->builtin &&
                  g->info.num_players == 2;
    if ((o->net[0] && !hand) || builtin) {
        b->net = calloc(1, sizeof *b->net);
        if (!b->net) {
            ab_destroy(b);
            ply_fail(err, "out of memory");
            return NULL;
        }
        if (builtin ? net_load_mem(b->net, g, g->net->builtin,
                                   g->net->builtin_len, err)
                    : net_load(b->net, g, o->net, err)) {
            ab_destroy(b);
            return NULL;
        }
        if (net_stack_init(&b->ns, b->net, AB_MAX_PLY + 3)) {
            ab_destroy(b);
            ply_fail(err, "out of memory");
            return NULL;
        }
    }
    if (wfile[0]) {
        b->weights = malloc(sizeof(int) * (size_t)g->tuning->nparams);
        b->terms = malloc(sizeof(EvalTerm) * EVAL_MAX_TERMS);
        if (b->weights && b->terms &&
            evalfile_read(g->tuning, wfile, b->weights, err)) {
            ab_destroy(b);
            return NULL;
        }
    }
    if ((wfile[0] && (!b->weights || !b->terms)) || nobuf ||
        tt_init(&b->tt, b->hash_mib)) {
        ab_destroy(b);
        ply_fail(err, "out of memory (hash=%d MiB)", o->hash_mib);
        return NULL;
    }
    if (threads > 1) {
        b->helpers = calloc((size_t)threads - 1, sizeof *b->helpers);
        if (b->helpers)
            b->threads = threads;
        for (int i = 0; b->helpers && i < threads - 1; i++)
            if (!(b->helpers[i].bot = ab_helper_new(b, i + 1))) {
                ab_destroy(b);
                ply_fail(err, "out of memory (threads=%d)", threads);
                return NULL;
            }
        if (!b->helpers) {
            ab_destroy(b);
            ply_fail(err, "out of memory (threads=%d)", threads);
            return NULL;
        }
    }
    return b;
}

const BotVtbl bot_alphabeta = {
    .name = "alphabeta",
    .help =
        "Alpha-beta (negamax, PVS, iterative deepening, aspiration windows, "
        "transposition table, killers, counter-moves and history, null "
        "move, late-move reductions and pruning, futility, reverse "
        "futility and razoring, static exchange, singular extensions, "
        "quiescence on noisy moves, expectation at chance nodes). "
        "Limits: time, nodes, depth (none given: time=1s).",
    .options = ab_options,
    .options_size = sizeof(AbOpts),
    .create = ab_create,
    .destroy = ab_destroy,
    .new_game = ab_new_game,
    .choose = ab_choose,
    .stop = ab_stop,
};
