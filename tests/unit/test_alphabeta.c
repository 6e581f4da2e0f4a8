/* test_alphabeta.c — the alpha-beta and greedy bots.
 *
 * alphabeta at a fixed depth must give the value of a plain minimax
 * written here (no pruning, no table) that follows the definition in
 * search/alphabeta.h, on random positions of every registered two-player
 * game with eval, and, in paranoid mode, of a 3-player take-away game
 * defined below (with and without chance nodes, with extra turns), and
 * likewise in best-reply mode against a plain best-reply minimax; with
 * default options, the exact value of endgames minimax solves to the end.
 * Also: identical results after new_game, legal moves under time limits and
 * stop(), greedy avoiding moves that hand an opponent an immediate win,
 * and bad options rejected with a message. */
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "testlib.h"

#include "core/bot.h"
#include "core/util.h"
#include "search/alphabeta.h"
#include "search/net.h"
#include "search/tt.h"

/* ------------------------------------------------------------------ */
/* Take3: a 3-player take-away game. A pile of stones; the mover takes
 * 1..3 and scores k * (pile % 3 + 1). Taking 2 and leaving an odd pile
 * gives another move. Empty pile: the highest score wins (+1, others
 * -0.5; ties to the lower seat). The dice variant adds a chance node
 * after every move: the mover gains 0, 1 or 2 more points. Take2 is the
 * two-player version (loser -1). */

typedef struct Take3 {
    uint8_t pile, turn, pending, last, dice, np, pad[2];
    int16_t pts[3];
} Take3;

static int t3_to_move(const void *st)
{
    const Take3 *t = st;
    if (t->pending)
        return PLAYER_CHANCE;
    return t->pile ? t->turn : PLAYER_TERMINAL;
}

static int t3_gen(const void *st, Move *out)
{
    const Take3 *t = st;
    if (t->pending) {
        for (int i = 0; i < 3; i++)
            out[i] = (Move)i;
        return 3;
    }
    int n = 0;
    for (int k = 1; k <= 3 && k <= t->pile; k++)
        out[n++] = (Move)k;
    return n;
}

static int t3_chance(const void *st, Move *out, double *p)
{
    static const double pr[3] = {0.5, 0.3, 0.2};
    int n = t3_gen(st, out);
    for (int i = 0; i < n; i++)
        p[i] = pr[i];
    return n;
}

static void t3_make(void *st, Move m)
{
    Take3 *t = st;
    if (t->pending) {
        t->pts[t->last] += (int16_t)m;
        t->pending = 0;
        return;
    }
    int k = (int)m, me = t->turn;
    t->pts[me] += (int16_t)(k * (t->pile % 3 + 1));
    t->pile -= (uint8_t)k;
    if (!(k == 2 && t->pile % 2 == 1))
        t->turn = (uint8_t)((me + 1) % t->np);
    if (t->dice) {
        t->pending = 1;
        t->last = (uint8_t)me;
    }
}

static void t3_returns(const void *st, double *r)
{
    const Take3 *t = st;
    int w = 0;
    for (int p = 1; p < t->np; p++)
        if (t->pts[p] > t->pts[w])
            w = p;
    for (int p = 0; p < t->np; p++)
        r[p] = p == w ? 1.0 : -1.0 / (t->np - 1);
}

static uint64_t t3_hash(const void *st)
{
    const Take3 *t = st;
    uint64_t h = ply_mix64((uint64_t)t->pile << 24 | (uint64_t)t->turn << 16 |
                           (uint64_t)t->pending << 8 | t->last);
    for (int p = 0; p < 3; p++)
        h = ply_mix64(h ^ (uint16_t)t->pts[p]);
    return h;
}

static int t3_eval(const void *st, int player)
{
    const Take3 *t = st;
    int best = -1000;
    for (int p = 0; p < t->np; p++)
        if (p != player && t->pts[p] > best)
            best = t->pts[p];
    /* a deterministic wobble so that values differ between positions */
    return 10 * (t->pts[player] - best) + (int)(t3_hash(st) % 7) - 3;
}

static int t3_heuristic(const void *st, Move m)
{
    const Take3 *t = st;
    return (int)m * (t->pile % 3 + 1);
}

static int t3_noisy(const void *st, Move m)
{
    (void)st;
    return m == 3;
}

static int t3_text(const void *st, char *buf, size_t n)
{
    const Take3 *t = st;
    return snprintf(buf, n, "%d,%d,%d,%d,%d", t->pile, t->turn, t->pts[0],
                    t->pts[1], t->pts[2]);
}

static int t3_from_text(void *st, const char *s, PlyError *err)
{
    (void)st;
    return ply_fail(err, "take3 has no setup strings ('%s')", s);
}

static int t3_move_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    return snprintf(buf, n, "%d", (int)m);
}

static int t3_text_move(const void *st, const char *s, Move *m,
                        PlyError *err)
{
    (void)st;
    (void)m;
    return ply_fail(err, "take3 reads no moves ('%s')", s);
}

static int t3_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt;
    (void)seed;
    (void)err;
    memset(st, 0, sizeof(Take3));
    ((Take3 *)st)->pile = 20;
    ((Take3 *)st)->np = 3;
    return 0;
}

static const char *const t3_players[] = {"A", "B", "C"};

#define TAKE3_VTBL(NAME, NP, FLAGS)                                     \
    {                                                                   \
        .info = {.name = NAME, .title = NAME, .num_players = NP,        \
                 .max_moves = 3, .max_game_length = 200,                \
                 .state_size = sizeof(Take3), .flags = FLAGS,           \
                 .player_names = t3_players, .notation = "",           \
                 .rules = ""},                                          \
        .init = t3_init, .to_move = t3_to_move, .gen_moves = t3_gen,    \
        .make = t3_make, .returns = t3_returns, .hash = t3_hash,        \
        .to_text = t3_text, .from_text = t3_from_text,                  \
        .move_to_text = t3_move_text, .text_to_move = t3_text_move,     \
        .render = t3_text, .eval = t3_eval, .heuristic = t3_heuristic,  \
        .is_noisy = t3_noisy, .chance_outcomes = t3_chance,             \
    }

static const GameVtbl take3 = TAKE3_VTBL("take3", 3, GAME_ZERO_SUM);
static const GameVtbl take3_dice =
    TAKE3_VTBL("take3-dice", 3, GAME_ZERO_SUM | GAME_CHANCE);
static const GameVtbl take2_dice =
    TAKE3_VTBL("take2-dice", 2, GAME_ZERO_SUM | GAME_CHANCE);

static void t3_random(Take3 *t, Rng *r, int dice, int np)
{
    memset(t, 0, sizeof *t);
    t->np = (uint8_t)np;
    t->pile = (uint8_t)(4 + rng_below(r, 18));
    t->turn = (uint8_t)rng_below(r, (uint32_t)np);
    t->dice = (uint8_t)dice;
    for (int p = 0; p < 3; p++)
        t->pts[p] = (int16_t)rng_below(r, 12);
}

/* ------------------------------------------------------------------ */
/* Plain minimax with the values alphabeta.h defines. */

typedef struct Mm {
    const GameVtbl *g;
    int np, root;
    Move *mv;               /* (AB_MAX_PLY + 2) * max_moves */
    double *pr;
    unsigned char *stk;     /* (AB_MAX_PLY + 2) states */
    uint64_t nodes;
    uint64_t limit;         /* 0: none; else give up past this many nodes */
    int aborted, horizon;   /* horizon: a leaf was cut by the ply bound */
    int brs;                /* best-reply search instead of paranoid */
    int brsplus;            /* BRS+: some opponent of each stretch branches */
    int ext;                /* single-reply extension (alphabeta ext=1) */
    int noqs;               /* leaves are static evals (alphabeta qs=0) */
    int turnend;            /* no horizon inside a turn (turnend=1) */
    int brturn;             /* best-reply by whole turns (brturn=1) */
    Net *net;               /* the game's built-in net, alphabeta's default */
} Mm;

static void mm_init(Mm *m, const GameVtbl *g)
{
    memset(m, 0, sizeof *m);
    m->g = g;
    m->np = g->info.num_players;
    m->ext = 1;
    m->mv = malloc(sizeof(Move) * (size_t)g->info.max_moves *
                   (AB_MAX_PLY + 2));
    m->pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
    m->stk = malloc(g->info.state_size * (AB_MAX_PLY + 2));
    if (g->net && g->net->builtin && m->np == 2) {
        PlyError err = {{0}};
        m->net = calloc(1, sizeof *m->net);
        assert_non_null(m->net);
        assert_int_equal(net_load_mem(m->net, g, g->net->builtin,
                                      g->net->builtin_len, &err), 0);
    }
}

static void mm_free(Mm *m)
{
    if (m->net) {
        net_free(m->net);
        free(m->net);
    }
    free(m->mv);
    free(m->pr);
    free(m->stk);
}

static unsigned char *mm_at(Mm *m, int ply)
{
    return m->stk + (size_t)ply * m->g->info.state_size;
}

static int mm_side(const Mm *m, int p)
{
    return m->np == 2 ? p : p == m->root ? 0 : 1;
}

static int mm_terminal(Mm *m, const void *st, int pov, int ply)
{
    double r[PLY_MAX_PLAYERS];
    m->g->returns(st, r);
    double x = m->np == 2 ? (r[pov] - r[1 - pov]) / 2
                          : (pov == 0 ? r[m->root] : -r[m->root]);
    if (x >= 1 - 1e-9)
        return EVAL_WIN - ply;
    if (x <= -1 + 1e-9)
        return -(EVAL_WIN - ply);
    return (int)lround(x * (EVAL_WIN / 2));
}

static int mm_static(Mm *m, const void *st, int pov)
{
    if (m->net) {   /* the mover's view, from scratch */
        int v = net_eval_full(m->net, st);
        if ((m->g->to_move(st) == 1) != pov)
            v = -v;
        return v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
    }
    int v = m->np == 2 ? m->g->eval(st, pov)
                       : (pov == 0 ? m->g->eval(st, m->root)
                                   : -m->g->eval(st, m->root));
    return v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
}

static int mm_nega(Mm *m, int depth, int ply, int br);
static int mm_qs(Mm *m, int ply, int qd);

static int mm_value(Mm *m, int pov, int depth, int ply, int qd, int in_qs,
                    int br)
{
    const GameVtbl *g = m->g;
    const void *st = mm_at(m, ply);
    m->nodes++;
    if (m->limit && m->nodes > m->limit)
        m->aborted = 1;
    if (m->aborted)
        return 0;
    int p = g->to_move(st);
    if (p == PLAYER_TERMINAL)
        return mm_terminal(m, st, pov, ply);
    int known;
    if (ply > 0 && p >= 0 && m->np == 2 && g->exact &&
        g->exact(st, p, &known)) {
        if (mm_side(m, p) != pov)
            known = -known;
        return known > 0 ? EVAL_WIN - AB_MAX_PLY - ply
             : known < 0 ? -(EVAL_WIN - AB_MAX_PLY - ply) : 0;
    }
    if (!in_qs && ply > 0 && p >= 0 && g->repeated && g->repeated(st)) {
        m->horizon = 1;     /* a draw by judgement, not the game's end */
        return 0;
    }
    if (ply >= AB_MAX_PLY) {
        m->horizon = 1;
        return mm_static(m, st, pov);
    }
    if (p == PLAYER_CHANCE) {
        if (in_qs || depth <= 0)
            return mm_static(m, st, pov);
        Move *mv = m->mv + (size_t)ply * g->info.max_moves;
        int n = g->chance_outcomes(st, mv, m->pr);
        double pr[n];
        memcpy(pr, m->pr, sizeof pr);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            memcpy(mm_at(m, ply + 1), st, g->info.state_size);
            g->make(mm_at(m, ply + 1), mv[i]);
            sum += pr[i] * mm_value(m, pov, depth, ply + 1, 0, 0, br);
        }
        return (int)lround(sum);
    }
    int v = in_qs ? mm_qs(m, ply, qd) : mm_nega(m, depth, ply, br);
    return mm_side(m, p) == pov ? v : -v;
}

/* Best-reply search: between two moves of the root player only one
 * opponent chooses freely; the others play their highest-heuristic move
 * (the first on ties or without a heuristic). br: one already chose. */
static int mm_default(const GameVtbl *g, const void *st, const Move *mv,
                      int n)
{
    int d = 0;
    for (int i = 1; i < n && g->heuristic; i++)
        if (g->heuristic(st, mv[i]) > g->heuristic(st, mv[d]))
            d = i;
    return d;
}

static int mm_nega(Mm *m, int depth, int ply, int br)
{
    const GameVtbl *g = m->g;
    if (depth <= 0 && m->turnend && ply >= 1 && ply < AB_MAX_PLY - 1) {
        int p = g->to_move(mm_at(m, ply));
        if (p >= 0 && p == g->to_move(mm_at(m, ply - 1)))
            depth = 1;  /* the same player moves again: the turn goes on */
    }
    if (depth <= 0)
        return mm_qs(m, ply, 0);
    const void *st = mm_at(m, ply);
    int s = mm_side(m, g->to_move(st));
    Move *mv = m->mv + (size_t)ply * g->info.max_moves;
    int n = g->gen_moves(st, mv), best = -EVAL_WIN - 1;
    /* brturn: the opponent who moved into this node moves again (br 2:
     * it branched there, and goes on branching; br 0: it did not, and
     * plays its natural move) */
    int cont = m->brturn && ply > 0 &&
               g->to_move(mm_at(m, ply - 1)) == g->to_move(st);
    int goes_on = m->brs && s == 1 && br == 2 && cont;
    if (m->brs && s == 1 && !goes_on) {
        int d = mm_default(g, st, mv, n);
        memcpy(mm_at(m, ply + 1), st, g->info.state_size);
        g->make(mm_at(m, ply + 1), mv[d]);
        int q = g->to_move(mm_at(m, ply + 1));
        if (br || cont)
            return mm_value(m, s, depth, ply + 1, 0, 0, br ? 1 : 0);
        /* BRS+: the last opponent before the root side must branch when
         * nobody has */
        if (!(m->brsplus && (q < 0 || mm_side(m, q) == 0)))
            /* nobody has branched yet: this opponent may pass the turn on */
            best = mm_value(m, s, depth, ply + 1, 0, 0, 0);
    }
    int cd = depth - 1;
    if (m->ext && n == 1 && ply > 0 && ply < AB_EXT_PLY &&
        (!(m->brs && s == 1) || goes_on))
        cd = depth;
    int cbr = m->brs && s == 1 ? (m->brturn ? 2 : 1) : 0;
    for (int i = 0; i < n; i++) {
        memcpy(mm_at(m, ply + 1), st, g->info.state_size);
        g->make(mm_at(m, ply + 1), mv[i]);
        int v = mm_value(m, s, cd, ply + 1, 0, 0, cbr);
        if (v > best)
            best = v;
    }
    return best;
}

static int mm_qs(Mm *m, int ply, int qd)
{
    const GameVtbl *g = m->g;
    const void *st = mm_at(m, ply);
    int s = mm_side(m, g->to_move(st));
    int stand = mm_static(m, st, s);
    if (!g->is_noisy || m->noqs || qd >= AB_QS_PLIES)
        return stand;
    Move *mv = m->mv + (size_t)ply * g->info.max_moves;
    int n = g->gen_moves(st, mv), noisy = 0, best = -EVAL_WIN - 1;
    for (int i = 0; i < n; i++) {
        if (!g->is_noisy(st, mv[i]))
            continue;
        noisy++;
        memcpy(mm_at(m, ply + 1), st, g->info.state_size);
        g->make(mm_at(m, ply + 1), mv[i]);
        int v = mm_value(m, s, 0, ply + 1, qd + 1, 1, 0);
        if (v > best)
            best = v;
    }
    if (noisy == 0 || (noisy < n && stand > best))
        return stand;
    return best;
}

/* Minimax value of st at depth, from the mover's point of view. */
static int mm_search(Mm *m, const void *st, int depth)
{
    m->root = m->g->to_move(st);
    memcpy(mm_at(m, 0), st, m->g->info.state_size);
    return mm_nega(m, depth, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Helpers */

/* A random position with a player to move: random moves (and chance
 * outcomes) from the start. */
static void random_position(const GameVtbl *g, void *st, Rng *r, int maxlen)
{
    PlyError err = {{0}};
    for (;;) {
        int opt[PLY_MAX_OPTIONS];
        assert_int_equal(options_parse(g, NULL, opt, &err), 0);
        assert_int_equal(g->init(st, opt, rng_next(r), &err), 0);
        int len = (int)rng_below(r, (uint32_t)maxlen + 1);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        for (int i = 0; i < len && g->to_move(st) != PLAYER_TERMINAL; i++) {
            int n = g->gen_moves(st, mv);
            g->make(st, mv[rng_below(r, (uint32_t)n)]);
        }
        free(mv);
        if (g->to_move(st) >= 0)
            return;
    }
}

static Bot *make_bot(const GameVtbl *g, const char *spec)
{
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 7, &err);
    if (!b)
        fail_msg("bot '%s' on %s: %s", spec, g->info.name, err.msg);
    return b;
}

/* Deepest depth (max 6) whose minimax stays within a node budget; 0 when
 * even depth 1 does not (a plain quiescence search explodes on some
 * positions of big games). */
static int pick_depth(Mm *m, const void *st, uint64_t budget)
{
    int d = 0;
    while (d < 6) {
        /* the node limit aborts a deeper try as soon as it is too big */
        m->nodes = 0;
        m->aborted = 0;
        m->limit = budget;
        mm_search(m, st, d + 1);
        int too_big = m->aborted || m->nodes > budget;
        m->limit = 0;
        m->aborted = 0;
        if (too_big)
            break;
        d++;
    }
    return d;
}

/* Returns 1 when compared, 0 when the position is too big for minimax. */
static int compare_with_minimax(const GameVtbl *g, void *st, Bot **bots,
                                int nbots, Mm *m, const char *where)
{
    int d = pick_depth(m, st, 4000);
    if (d == 0)
        return 0;
    int want = mm_search(m, st, d);
    for (int k = 0; k < nbots; k++) {
        Limits lim = {0};
        lim.depth = d;
        SearchInfo si;
        Move mv = bot_choose(bots[k], st, &lim, &si);
        char text[512] = "";
        g->to_text(st, text, sizeof text);
        if (si.value != want)
            fail_msg("%s: %s at depth %d on '%s': value %d, minimax %d",
                     where, bots[k]->spec, d, text, si.value, want);
        if (!state_is_legal(g, st, mv))
            fail_msg("%s: illegal move on '%s'", where, text);
        /* a solved position may end the deepening early */
        if (si.depth < 1 || si.depth > d)
            fail_msg("%s: depth %d reported for a depth-%d search", where,
                     si.depth, d);
    }
    return 1;
}

static const char *const exact_specs[] = {
    "alphabeta:ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0",
    "alphabeta:hash=0,aspiration=5,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0",
    "alphabeta:ttexact=1,hash=1,aspiration=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0",
    /* Lazy SMP: entries the helpers store at the same depth are as exact
     * as the main search's own (a torn entry would show here) */
    "alphabeta:ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0,threads=3",
};
enum { NSPECS = 4 };

/* ------------------------------------------------------------------ */
/* Tests */

/* Random positions per game in the comparison below: fewer under the
 * sanitizers, whose searches run several times slower (the same checks on
 * a fifth of the positions; the release suite runs them all). */
#ifdef PLY_SANITIZED
enum { MINIMAX_POSITIONS = 20 };
#else
enum { MINIMAX_POSITIONS = 100 };
#endif

static void test_minimax_two_player(void **state)
{
    (void)state;
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.num_players != 2 || !g->eval ||
            (g->info.flags & GAME_HIDDEN))
            continue;
        Rng r;
        rng_seed(&r, 12345 + (uint64_t)gi);
        Mm m;
        mm_init(&m, g);
        Mm m0;
        mm_init(&m0, g);
        m0.ext = 0;
        Bot *bots[NSPECS];
        for (int k = 0; k < NSPECS; k++)
            bots[k] = make_bot(g, exact_specs[k]);
        Bot *noext = make_bot(
            g, "alphabeta:ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0,ext=0");
        void *st = state_alloc(g);
        /* Positions where a plain quiescence search explodes (busy chess
         * and shogi middle games) are compared without quiescence. */
        Mm mq;
        mm_init(&mq, g);
        mq.noqs = 1;
        Bot *noqs = make_bot(
            g, "alphabeta:ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0,qs=0");
        int with_qs = 0;
        for (int i = 0; i < MINIMAX_POSITIONS; i++) {
            random_position(g, st, &r, 60);
            if (compare_with_minimax(g, st, bots, NSPECS, &m,
                                     g->info.name) &&
                compare_with_minimax(g, st, &noext, 1, &m0, g->info.name))
                with_qs++;
            else if (!compare_with_minimax(g, st, &noqs, 1, &mq,
                                           g->info.name))
                fail_msg("%s: a position too big even without quiescence",
                         g->info.name);
        }
        /* and some with quiescence too (chess: about 15 in 100) */
        if (with_qs < MINIMAX_POSITIONS / 10)
            fail_msg("%s: only %d of %d positions compared with "
                     "quiescence", g->info.name, with_qs, MINIMAX_POSITIONS);
        bot_free(noqs);
        mm_free(&mq);
        free(st);
        bot_free(noext);
        mm_free(&m0);
        for (int k = 0; k < NSPECS; k++)
            bot_free(bots[k]);
        mm_free(&m);
        tested++;
    }
    assert_true(tested > 0);
}

/* Endgames solved by minimax to the end: alphabeta with its default
 * options (table cutoffs at any depth, reductions, aspiration) must find
 * the exact value, win distance included, and stop deepening. */
static void test_solved_endgames(void **state)
{
    (void)state;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.num_players != 2 || (g->info.flags & GAME_HIDDEN))
            continue;
        size_t ss = g->info.state_size;
        int maxlen = g->info.max_game_length < 400 ? g->info.max_game_length
                                                   : 400;
        unsigned char *path = malloc(ss * (size_t)(maxlen + 1));
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        Mm m;
        mm_init(&m, g);
        Bot *bot = make_bot(g, "alphabeta:depth=120");
        Rng r;
        rng_seed(&r, 31337);
        int solved = 0;
        uint64_t spent = 0;     /* minimax nodes: keeps big games quick */
        for (int i = 0; i < 200 && solved < 40 && spent < 600000; i++) {
            random_position(g, path, &r, 0);
            int len = 0;
            while (len < maxlen && g->to_move(path + ss * (size_t)len) !=
                                       PLAYER_TERMINAL) {
                memcpy(path + ss * (size_t)(len + 1), path + ss * (size_t)len,
                       ss);
                int n = g->gen_moves(path + ss * (size_t)len, mv);
                g->make(path + ss * (size_t)(len + 1),
                        mv[rng_below(&r, (uint32_t)n)]);
                len++;
            }
            int back = 2 + (int)rng_below(&r, 6);
            if (back > len)
                continue;
            const void *st = path + ss * (size_t)(len - back);
            if (g->to_move(st) < 0 || !g->eval)
                continue;
            m.nodes = 0;
            m.limit = 20000;
            m.aborted = m.horizon = 0;
            int want = mm_search(&m, st, AB_MAX_PLY + 10);
            m.limit = 0;
            spent += m.nodes;
            if (m.aborted || m.horizon)
                continue;
            solved++;
            bot_new_game(bot);
            SearchInfo si;
            Move best = bot_choose(bot, st, NULL, &si);
            char text[512] = "";
            g->to_text(st, text, sizeof text);
            if (si.value != want)
                fail_msg("%s: solved value %d, alphabeta %d (depth %d) on "
                         "'%s'", g->info.name, want, si.value, si.depth,
                         text);
            if (si.depth >= 120)
                fail_msg("%s: deepening did not stop on solved '%s'",
                         g->info.name, text);
            assert_true(state_is_legal(g, st, best));
        }
        if (!strcmp(g->info.name, "kalah") && solved < 20)
            fail_msg("kalah: only %d endgames solved", solved);
        bot_free(bot);
        mm_free(&m);
        free(mv);
        free(path);
    }
}

static void test_minimax_paranoid(void **state)
{
    (void)state;
    const GameVtbl *games[3] = {&take3, &take3_dice, &take2_dice};
    for (int gi = 0; gi < 3; gi++) {
        const GameVtbl *g = games[gi];
        Rng r;
        rng_seed(&r, 99 + (uint64_t)gi);
        Mm m;
        mm_init(&m, g);
        Bot *bots[NSPECS];
        for (int k = 0; k < NSPECS; k++)
            bots[k] = make_bot(g, exact_specs[k]);
        Mm mb;
        mm_init(&mb, g);
        mb.brs = 1;
        Bot *brs[2] = {make_bot(g, "alphabeta:mode=brs,brturn=0,ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0"),
                       make_bot(g, "alphabeta:mode=brs,brturn=0,hash=0,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0,"
                                   "aspiration=3")};
        Mm mp;
        mm_init(&mp, g);
        mp.brs = mp.brsplus = 1;
        Bot *bp[2] = {make_bot(g, "alphabeta:mode=brs+,brturn=0,ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0"),
                      make_bot(g, "alphabeta:mode=brs+,brturn=0,hash=0,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0,"
                                  "aspiration=3")};
        /* best-reply by whole turns (take3's extra moves) */
        Mm mbt;
        mm_init(&mbt, g);
        mbt.brs = mbt.brturn = 1;
        Bot *bt[2] = {make_bot(g, "alphabeta:mode=brs,brturn=1,ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0"),
                      make_bot(g, "alphabeta:mode=brs,brturn=1,hash=0,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0,"
                                  "aspiration=3")};
        Mm mbpt;
        mm_init(&mbpt, g);
        mbpt.brs = mbpt.brsplus = mbpt.brturn = 1;
        Bot *bpt[1] = {make_bot(g, "alphabeta:mode=brs+,brturn=1,ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0")};
        Mm mt;
        mm_init(&mt, g);
        mt.turnend = 1;
        Bot *te[1] = {make_bot(g, "alphabeta:turnend=1,ttexact=1,lmr=0,"
                                  "null=0,check=0,mdp=0,rfp=0,razor=0,fut=0,lmp=0,iir=0,see=0")};
        Take3 t;
        int extra = 0;
        for (int i = 0; i < 150; i++) {
            t3_random(&t, &r, gi > 0, g->info.num_players);
            Take3 u = t;
            t3_make(&u, 2);
            extra += !gi && u.turn == t.turn && t.pile >= 2;
            compare_with_minimax(g, &t, bots, NSPECS, &m, g->info.name);
            if (g->info.num_players > 2)
                compare_with_minimax(g, &t, brs, 2, &mb, "best-reply");
            if (g->info.num_players > 2)
                compare_with_minimax(g, &t, bp, 2, &mp, "best-reply+");
            if (g->info.num_players > 2)
                compare_with_minimax(g, &t, bt, 2, &mbt, "best-reply turns");
            if (g->info.num_players > 2)
                compare_with_minimax(g, &t, bpt, 1, &mbpt,
                                     "best-reply+ turns");
            compare_with_minimax(g, &t, te, 1, &mt, "turnend");
        }
        bot_free(te[0]);
        mm_free(&mt);
        bot_free(bt[0]);
        bot_free(bt[1]);
        mm_free(&mbt);
        bot_free(bpt[0]);
        mm_free(&mbpt);
        assert_true(gi || extra > 0);   /* extra turns were exercised */
        bot_free(brs[0]);
        bot_free(brs[1]);
        mm_free(&mb);
        bot_free(bp[0]);
        bot_free(bp[1]);
        mm_free(&mp);
        for (int k = 0; k < NSPECS; k++)
            bot_free(bots[k]);
        mm_free(&m);
    }
}


/* Plain max-n: the vector of the child best for the mover, no pruning.
 * *tie is set when two children tie for the mover but differ elsewhere
 * (then the result depends on the order children are searched in). */
static void ref_maxn(const GameVtbl *g, const void *st, int depth, int ply,
                     int *out, int *tie)
{
    int np = g->info.num_players, p = g->to_move(st);
    if (p == PLAYER_TERMINAL) {
        double r[PLY_MAX_PLAYERS];
        g->returns(st, r);
        for (int k = 0; k < np; k++)
            out[k] = (int)lround(r[k] * (EVAL_WIN - ply));
        return;
    }
    if (depth <= 0) {
        for (int k = 0; k < np; k++) {
            int e = g->eval(st, k);
            out[k] = e > EVAL_MAX ? EVAL_MAX : e < -EVAL_MAX ? -EVAL_MAX : e;
        }
        return;
    }
    Move mv[8];
    unsigned char child[64];
    assert_true(g->info.state_size <= sizeof child);
    if (p == PLAYER_CHANCE) {
        double pr[8], sum[PLY_MAX_PLAYERS] = {0};
        int n = g->chance_outcomes(st, mv, pr);
        for (int i = 0; i < n; i++) {
            int cv[PLY_MAX_PLAYERS];
            memcpy(child, st, g->info.state_size);
            g->make(child, mv[i]);
            ref_maxn(g, child, depth, ply + 1, cv, tie);
            for (int k = 0; k < np; k++)
                sum[k] += pr[i] * cv[k];
        }
        for (int k = 0; k < np; k++)
            out[k] = (int)lround(sum[k]);
        return;
    }
    int n = g->gen_moves(st, mv), have = 0;
    for (int i = 0; i < n; i++) {
        int cv[PLY_MAX_PLAYERS];
        memcpy(child, st, g->info.state_size);
        g->make(child, mv[i]);
        ref_maxn(g, child, depth - 1, ply + 1, cv, tie);
        if (have && cv[p] == out[p] &&
            memcmp(cv, out, sizeof(int) * (size_t)np))
            *tie = 1;
        if (!have || cv[p] > out[p]) {
            memcpy(out, cv, sizeof(int) * (size_t)np);
            have = 1;
        }
    }
}

/* mode=maxn at fixed depth: the root player's value of plain max-n, and a
 * move that reaches it, wherever no tie makes max-n order-dependent. */
static void test_maxn(void **state)
{
    (void)state;
    const GameVtbl *games[2] = {&take3, &take3_dice};
    for (int gi = 0; gi < 2; gi++) {
        const GameVtbl *g = games[gi];
        Bot *b = make_bot(g, "alphabeta:mode=maxn");
        Rng r;
        rng_seed(&r, 31 + (uint64_t)gi);
        int compared = 0;
        for (int i = 0; i < 300; i++) {
            Take3 t;
            t3_random(&t, &r, gi > 0, 3);
            int d = 1 + (int)rng_below(&r, gi ? 4 : 6), tie = 0;
            int want[PLY_MAX_PLAYERS];
            ref_maxn(g, &t, d, 0, want, &tie);
            if (tie)
                continue;
            Limits lim = {0};
            lim.depth = d;
            SearchInfo si;
            Move mv = bot_choose(b, &t, &lim, &si);
            int root = g->to_move(&t);
            if (si.value != want[root])
                fail_msg("%s depth %d: max-n value %d, the bot %d",
                         g->info.name, d, want[root], si.value);
            Take3 u = t;
            g->make(&u, mv);
            int got[PLY_MAX_PLAYERS], tie2 = 0;
            ref_maxn(g, &u, d - 1, 1, got, &tie2);
            assert_int_equal(got[root], want[root]);
            compared++;
        }
        assert_true(compared > 100);
        bot_free(b);
    }
}

static void test_brs_and_no_eval(void **state)
{
    (void)state;
    GameVtbl noeval = take3;
    noeval.eval = NULL;
    const struct {
        const GameVtbl *g;
        const char *spec;
    } cases[] = {
        {&take3, "alphabeta:mode=brs,depth=6"},
        {&take3_dice, "alphabeta:mode=brs,depth=4"},
        {&take3, "alphabeta:mode=brs,nodes=5000"},
        {&noeval, "alphabeta:depth=5"},
        {&noeval, "alphabeta:depth=3,rollouts=4"},
        {&take3, "greedy"},
        {&noeval, "greedy:noise=3"},
    };
    Rng r;
    rng_seed(&r, 5);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        Bot *b = make_bot(cases[c].g, cases[c].spec);
        for (int i = 0; i < 50; i++) {
            Take3 t;
            t3_random(&t, &r, cases[c].g == &take3_dice, 3);
            SearchInfo si;
            Move mv = bot_choose(b, &t, NULL, &si);
            if (!state_is_legal(cases[c].g, &t, mv))
                fail_msg("%s chose an illegal move", cases[c].spec);
        }
        bot_free(b);
    }
}

/* Near the end of take3 with a pile of 1, whoever moves wins if it then
 * leads: BRS and paranoid must both take the last stone when that wins. */
static void test_multiplayer_finds_win(void **state)
{
    (void)state;
    const char *specs[] = {"alphabeta:depth=3", "alphabeta:mode=brs,depth=3",
                           "greedy"};
    for (int k = 0; k < 3; k++) {
        Bot *b = make_bot(&take3, specs[k]);
        Take3 t = {0};
        t.np = 3;
        t.pile = 3;     /* taking 3 scores 3 and ends the game */
        t.turn = 1;
        t.pts[0] = 5;
        t.pts[1] = 4;
        t.pts[2] = 0;
        SearchInfo si;
        Move mv = bot_choose(b, &t, NULL, &si);
        if (mv != 3)
            fail_msg("%s did not take the winning 3 stones", specs[k]);
        if (k < 2)
            assert_int_equal(si.value, EVAL_WIN - 1);
        bot_free(b);
    }
}

static void same_info(const SearchInfo *a, const SearchInfo *b)
{
    assert_true(a->best == b->best);
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->seldepth, b->seldepth);
    assert_int_equal(a->nodes, b->nodes);
    assert_int_equal(a->pv_len, b->pv_len);
    for (int i = 0; i < a->pv_len; i++)
        assert_true(a->pv[i] == b->pv[i]);
}

static void test_reproducible(void **state)
{
    (void)state;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.flags & GAME_HIDDEN)
            continue;
        Rng r;
        rng_seed(&r, 77);
        void *a = state_alloc(g), *b = state_alloc(g);
        random_position(g, a, &r, 20);
        random_position(g, b, &r, 20);
        Bot *bot = make_bot(g, "alphabeta:nodes=30000");
        SearchInfo s1, s2, s3;
        bot_choose(bot, a, NULL, &s1);
        bot_choose(bot, b, NULL, &s2);
        bot_new_game(bot);
        bot_choose(bot, a, NULL, &s3);
        same_info(&s1, &s3);
        assert_true(s1.nodes >= 30000 || s1.depth > 0);
        bot_free(bot);
        free(a);
        free(b);
    }
}

/* ecache=1 keeps the game's static values by hash: it must change no
 * search, in any game with an eval, of two players or more (paranoid and
 * best-reply search, whose values are the root's). A cache that reads
 * another position's entry fails here (keyed by the hash's low 16 bits
 * only, the first game's values and node counts differ). */
static void test_ecache_transparent(void **state)
{
    (void)state;
    int games = 0, more = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if ((g->info.flags & GAME_HIDDEN) || !g->eval)
            continue;
        Rng r;
        rng_seed(&r, 91);
        void *a = state_alloc(g), *b = state_alloc(g);
        random_position(g, a, &r, 16);
        random_position(g, b, &r, 24);
        int np = g->info.num_players;
        for (int mode = 0; mode < (np > 2 ? 2 : 1); mode++) {
            char on_spec[80], off_spec[80];
            const char *ms = mode ? ",mode=brs" : "";
            snprintf(on_spec, sizeof on_spec,
                     "alphabeta:nodes=5000,ecache=1%s", ms);
            snprintf(off_spec, sizeof off_spec,
                     "alphabeta:nodes=5000,ecache=0%s", ms);
            Bot *on = make_bot(g, on_spec);
            Bot *off = make_bot(g, off_spec);
            for (int i = 0; i < 2; i++) {
                SearchInfo s1, s2;
                bot_choose(on, i ? b : a, NULL, &s1);
                bot_choose(off, i ? b : a, NULL, &s2);
                same_info(&s1, &s2);
            }
            bot_free(on);
            bot_free(off);
        }
        free(a);
        free(b);
        games++;
        more += np > 2;
    }
    assert_true(games >= 10);
    assert_true(more >= 2);
}

static void test_time_limit(void **state)
{
    (void)state;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        Rng r;
        rng_seed(&r, 3);
        void *st = state_alloc(g);
        Bot *bot = make_bot(g, "alphabeta:time=40ms");
        for (int i = 0; i < 3; i++) {
            random_position(g, st, &r, 30);
            SearchInfo si;
            int64_t t0 = now_ms();
            Move mv = bot_choose(bot, st, NULL, &si);
            int64_t el = now_ms() - t0;
            assert_true(state_is_legal(g, st, mv));
            assert_true(si.depth >= 1);
            assert_true(si.pv_len >= 1 && si.pv[0] == mv);
            /* the whole PV is a legal line */
            void *line = state_alloc(g);
            memcpy(line, st, g->info.state_size);
            for (int j = 0; j < si.pv_len; j++) {
                if (!state_is_legal(g, line, si.pv[j]))
                    fail_msg("%s: PV move %d is illegal", g->info.name, j);
                g->make(line, si.pv[j]);
            }
            free(line);
            /* generous: the machine is shared */
            if (el > 2000)
                fail_msg("%s: a 40 ms search took %lld ms", g->info.name,
                         (long long)el);
        }
        bot_free(bot);
        free(st);
    }
}

typedef struct StopArg {
    Bot *bot;
} StopArg;

static void *stopper(void *p)
{
    StopArg *a = p;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    a->bot->v->stop(a->bot->impl);
    return NULL;
}

static void stop_search(const char *spec)
{
    const GameVtbl *g = ply_games[0];
    void *st = tl_position(g->info.name, NULL, NULL, NULL);
    Bot *bot = make_bot(g, spec);
    StopArg a = {bot};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, stopper, &a), 0);
    int64_t t0 = now_ms();
    SearchInfo si;
    Move mv = bot_choose(bot, st, NULL, &si);
    int64_t el = now_ms() - t0;
    pthread_join(th, NULL);
    assert_true(state_is_legal(g, st, mv));
    if (el > 10000)
        fail_msg("%s: stop() did not end the search (%lld ms)", spec,
                 (long long)el);
    bot_free(bot);
    free(st);
}

static void test_stop(void **state)
{
    (void)state;
    stop_search("alphabeta:time=60s");
    stop_search("alphabeta:time=60s,threads=3");
}

/* threads=N: on every game a legal move with a legal PV at the depth
 * asked, the helpers' nodes counted, and threads=1 the one-thread search
 * node for node. A node limit bounds the searches: every two-player game
 * reaches depth 4 within a tenth of it (go, gomoku, minishogi: under
 * 20,000 nodes); the paranoid quiescence of yonin-shogi, minutes a search
 * at depth 4, stops at it (the limit is part of what threads=1 must
 * reproduce exactly). PLY_SLOW=1 searches to depth 4 without it. */
#define THREAD_NODES "200000"

static void test_threads(void **state)
{
    (void)state;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.flags & GAME_HIDDEN)
            continue;
#ifdef PLY_SANITIZED
        /* paranoid quiescence of the four-player games at depth 4 costs
         * over ten minutes under ASan; the release suite and the TSan run
         * (tests/tsan.sh) cover their threads */
        if (g->info.num_players > 2)
            continue;
#endif
        Rng r;
        rng_seed(&r, 31);
        void *st = state_alloc(g);
        char spec[3][64];
        for (int k = 0; k < 3; k++)
            snprintf(spec[k], sizeof spec[k], "alphabeta:depth=4%s%s",
                     k == 0 ? "" : k == 1 ? ",threads=1" : ",threads=3",
                     tl_slow() ? "" : ",nodes=" THREAD_NODES);
        Bot *one = make_bot(g, spec[0]);
        Bot *one_t = make_bot(g, spec[1]);
        Bot *three = make_bot(g, spec[2]);
        for (int i = 0; i < 3; i++) {
            random_position(g, st, &r, 10 + 10 * i);
            SearchInfo s1, s1t, s3;
            Move m1 = bot_choose(one, st, NULL, &s1);
            bot_choose(one_t, st, NULL, &s1t);
            same_info(&s1, &s1t);
            Move m3 = bot_choose(three, st, NULL, &s3);
            assert_true(state_is_legal(g, st, m1));
            if (!state_is_legal(g, st, m3))
                fail_msg("%s: threads=3 played an illegal move",
                         g->info.name);
            if (s3.depth < 1 || s3.depth > 4)
                fail_msg("%s: threads=3 reports depth %d", g->info.name,
                         s3.depth);
            assert_true(s3.pv_len >= 1 && s3.pv[0] == m3);
            void *line = state_alloc(g);
            memcpy(line, st, g->info.state_size);
            for (int j = 0; j < s3.pv_len; j++) {
                if (!state_is_legal(g, line, s3.pv[j]))
                    fail_msg("%s: threads=3 PV move %d is illegal",
                             g->info.name, j);
                g->make(line, s3.pv[j]);
            }
            free(line);
            assert_true(s3.nodes > 0);
        }
        bot_free(three);
        bot_free(one_t);
        bot_free(one);
        free(st);
    }
    /* a forced move starts no helper: the nodes of the search before are
     * not counted again */
    void *busy = tl_position("chess", NULL, NULL, "e2e4 e7e5 g1f3 b8c6");
    void *forced = tl_position("chess", NULL, "k7/8/8/8/8/8/1r6/K7 w - - 0 1",
                               NULL);
    Bot *bot = make_bot(game_find("chess"), "alphabeta:threads=2");
    Limits lim = {0};
    lim.depth = 6;
    SearchInfo si;
    bot_choose(bot, busy, &lim, &si);
    assert_true(si.nodes > 1000);
    bot_choose(bot, forced, NULL, &si);
    if (si.nodes > 100)
        fail_msg("a forced move counted %llu nodes",
                 (unsigned long long)si.nodes);
    bot_free(bot);
    free(forced);
    free(busy);
}

/* Whether player p wins outright at the terminal state st. */
static int t_wins(const GameVtbl *g, const void *st, int p)
{
    double r[PLY_MAX_PLAYERS];
    g->returns(st, r);
    if (r[p] <= 0)
        return 0;
    for (int q = 0; q < g->info.num_players; q++)
        if (q != p && r[q] >= r[p])
            return 0;
    return 1;
}

/* After move m at st, an opponent of `me` wins with its next move. */
static int gives_win(const GameVtbl *g, const void *st, Move m, int me)
{
    size_t ss = g->info.state_size;
    unsigned char *c = malloc(ss), *d = malloc(ss);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    memcpy(c, st, ss);
    g->make(c, m);
    int q = g->to_move(c), res = 0;
    if (q >= 0 && q != me) {
        int n = g->gen_moves(c, mv);
        for (int i = 0; i < n && !res; i++) {
            memcpy(d, c, ss);
            g->make(d, mv[i]);
            res = g->to_move(d) == PLAYER_TERMINAL && t_wins(g, d, q);
        }
    }
    free(c);
    free(d);
    free(mv);
    return res;
}

/* Greedy checked against brute force on random positions: never a move
 * that lets an opponent win at once while a safe move exists, and always
 * an immediately winning move when there is one. */
static void check_greedy(const GameVtbl *g, int positions, int *traps)
{
    Rng r;
    rng_seed(&r, 4242);
    void *st = state_alloc(g), *c = state_alloc(g);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    Bot *plain = make_bot(g, "greedy");
    Bot *noisy = make_bot(g, "greedy:noise=50");
    for (int i = 0; i < positions; i++) {
        random_position(g, st, &r, g->info.max_game_length < 300
                                            ? g->info.max_game_length : 300);
        int me = g->to_move(st);
        int n = g->gen_moves(st, mv), safe = 0, winning = 0;
        int h_best = -1;
        for (int j = 0; j < n; j++) {
            memcpy(c, st, g->info.state_size);
            g->make(c, mv[j]);
            int over = g->to_move(c) == PLAYER_TERMINAL;
            if (over && t_wins(g, c, me))
                winning = 1;
            int ok = !gives_win(g, st, mv[j], me);
            int lost = 0;
            if (over)
                for (int q = 0; q < g->info.num_players; q++)
                    lost |= q != me && t_wins(g, c, q);
            int usable = ok && !lost &&
                         !(g->heuristic && g->heuristic(st, mv[j]) < 0);
            safe |= usable;
            if (g->heuristic && (h_best < 0 ||
                                 g->heuristic(st, mv[j]) >
                                     g->heuristic(st, mv[h_best])))
                h_best = j;
        }
        if (h_best >= 0 && gives_win(g, st, mv[h_best], me) && safe)
            (*traps)++;
        for (int k = 0; k < 2; k++) {
            SearchInfo si;
            Move m = bot_choose(k ? noisy : plain, st, NULL, &si);
            assert_true(state_is_legal(g, st, m));
            memcpy(c, st, g->info.state_size);
            g->make(c, m);
            if (winning && !(g->to_move(c) == PLAYER_TERMINAL &&
                             t_wins(g, c, me)))
                fail_msg("%s: greedy missed an immediate win",
                         g->info.name);
            if (safe && gives_win(g, st, m, me)) {
                char text[512] = "";
                g->to_text(st, text, sizeof text);
                fail_msg("%s: greedy let the opponent win at once on '%s'",
                         g->info.name, text);
            }
        }
    }
    bot_free(plain);
    bot_free(noisy);
    free(mv);
    free(st);
    free(c);
}

static void test_greedy_avoids_losing(void **state)
{
    (void)state;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.num_players < 2 || (g->info.flags & GAME_HIDDEN))
            continue;
        int traps = 0;
        check_greedy(g, 400, &traps);
    }
    int traps = 0;
    check_greedy(&take3, 400, &traps);
    /* take3 positions where the heuristic's favourite hands over the win */
    assert_true(traps > 0);
}

/* A constructed Kalah(4,3) position: South's heuristic favourite, house 1
 * (a capture of nothing), lets North capture South's last seeds with
 * house 1 and win at once; house 3 is the safe move. */
static void test_greedy_kalah_trap(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    if (!g)
        fail_msg("kalah is not registered");
    void *st = tl_position("kalah", "houses=4,seeds=3",
                           "S:1,0,3,0,9:1,0,0,0,10", NULL);
    Move mv[16];
    int n = g->gen_moves(st, mv), h_best = 0;
    assert_int_equal(n, 2);
    for (int j = 1; j < n; j++)
        if (g->heuristic(st, mv[j]) > g->heuristic(st, mv[h_best]))
            h_best = j;
    assert_true(mv[h_best] == 0);             /* house 1 is the favourite */
    assert_true(gives_win(g, st, mv[h_best], 0));  /* and a trap */
    for (uint64_t seed = 1; seed <= 5; seed++) {
        PlyError err = {{0}};
        Bot *b = bot_new(g, "greedy:noise=5", seed, &err);
        assert_non_null(b);
        SearchInfo si;
        Move m = bot_choose(b, st, NULL, &si);
        assert_true(m == 2);                  /* house 3 */
        bot_free(b);
    }
    free(st);
}

static int t3_all_bad(const void *st, Move m)
{
    (void)st;
    (void)m;
    return -1;
}

/* Every move marked negative: greedy hands over to its fallback. */
static void test_greedy_fallback(void **state)
{
    (void)state;
    GameVtbl bad = take3;
    bad.heuristic = t3_all_bad;
    Bot *b = make_bot(&bad, "greedy:fallback=alphabeta:depth=3;hash=1");
    Bot *plain = make_bot(&take3, "greedy");
    Take3 t;
    Rng r;
    rng_seed(&r, 8);
    for (int i = 0; i < 20; i++) {
        t3_random(&t, &r, 0, 3);
        t.pile = (uint8_t)(t.pile < 8 ? 8 : t.pile);  /* no win in one */
        SearchInfo si;
        Move m = bot_choose(b, &t, NULL, &si);
        assert_true(state_is_legal(&bad, &t, m));
        assert_int_equal(si.depth, 3);          /* alphabeta answered */
        bot_choose(plain, &t, NULL, &si);
        assert_int_equal(si.depth, 1);          /* greedy itself */
    }
    bot_free(b);
    bot_free(plain);
}

/* contempt=N: a draw the search finds is worth -N to the bot. White, a
 * pawn down with the 50-move count at 99, draws with any king move or
 * plays on (worse) with the pawn: small contempt keeps the draw, large
 * contempt plays on; negative contempt makes the draw worth more. */
static int is_pawn_move(const char *text)
{
    return text[0] == 'a' && text[1] == '2';
}

static void test_contempt(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    if (!g)
        fail_msg("chess is not registered");
    void *st = tl_position("chess", NULL, "4k3/pp6/8/8/8/8/P7/4K3 w - - 99 80",
                           NULL);
    static const struct { const char *spec; int pawn; int value; } cases[] = {
        {"alphabeta:hash=1", 0, 0},
        {"alphabeta:hash=1,contempt=30", 0, -30},
        {"alphabeta:hash=1,contempt=-30", 0, 30},
        {"alphabeta:hash=1,contempt=600", 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Bot *b = make_bot(g, cases[i].spec);
        Limits lim = {.depth = 3};
        SearchInfo si;
        Move m = bot_choose(b, st, &lim, &si);
        char text[16];
        g->move_to_text(st, m, text, sizeof text);
        if (is_pawn_move(text) != cases[i].pawn)
            fail_msg("%s chose %s", cases[i].spec, text);
        if (cases[i].pawn) {
            /* playing on: worse than equal, better than the draw */
            assert_true(si.value < 0 && si.value > -600);
        } else {
            assert_int_equal(si.value, cases[i].value);
        }
        bot_free(b);
    }
    free(st);
}

/* rep=1 (default): a position repeated inside the tree is a draw. Black,
 * two queens down, can go back to a position seen before (Kd8-e8 after
 * Ke1-d1 Ke8-d8 Kd1-e1) and takes it; without rep, or in a position
 * with no history, the search sees no draw. */
static void test_repetition(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    if (!g)
        fail_msg("chess is not registered");
    const char *fen = "4k3/8/8/8/8/8/QQ6/4K3 w - - 0 1";
    void *st = tl_position("chess", NULL, fen, "e1d1 e8d8 d1e1");
    void *fresh = tl_position("chess", NULL,
                              "3k4/8/8/8/8/8/QQ6/4K3 b - - 3 2", NULL);
    assert_int_equal(g->repeated(st), 0);
    static const struct { const char *spec; int fresh, draw; } cases[] = {
        {"alphabeta:hash=1", 0, 1},
        {"alphabeta:hash=1", 1, 0},
        {"alphabeta:hash=1,rep=0", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Bot *b = make_bot(g, cases[i].spec);
        Limits lim = {.depth = 3};
        SearchInfo si;
        const void *pos = cases[i].fresh ? fresh : st;
        Move m = bot_choose(b, pos, &lim, &si);
        char text[16];
        g->move_to_text(pos, m, text, sizeof text);
        if (cases[i].draw) {
            assert_string_equal(text, "d8e8");
            assert_int_equal(si.value, 0);
        } else {
            assert_true(si.value < -1000);
        }
        bot_free(b);
    }
    free(fresh);
    free(st);
}

static void expect_rejected(const char *game, const char *spec,
                            const char *words)
{
    const GameVtbl *g = strcmp(game, "take3") ? game_find(game) : &take3;
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 1, &err);
    if (b)
        fail_msg("'%s' was accepted", spec);
    if (!strstr(err.msg, words))
        fail_msg("'%s': message '%s' lacks '%s'", spec, err.msg, words);
}

static void test_bad_options(void **state)
{
    (void)state;
    const char *game = ply_games[0]->info.name;
    expect_rejected(game, "alphabeta:hash=abc", "hash");
    expect_rejected(game, "alphabeta:hash=-1", "hash");
    expect_rejected(game, "alphabeta:mode=minimax", "mode must be paranoid");
    expect_rejected(game, "alphabeta:bogus=1", "unknown option 'bogus'");
    expect_rejected(game, "alphabeta:qs=2", "qs");
    expect_rejected(game, "alphabeta:rollouts=x", "rollouts");
    expect_rejected(game, "alphabeta:contempt=1001", "contempt");
    expect_rejected(game, "alphabeta:rep=2", "rep");
    expect_rejected(game, "alphabeta:threads=0", "threads");
    expect_rejected(game, "alphabeta:threads=65", "threads");
    expect_rejected(game, "alphabeta:threads=two", "threads");
    expect_rejected(game, "alphabeta:hash", "key=value");
    expect_rejected(game, "greedy:noise=-3", "noise");
    expect_rejected(game, "greedy:fallback=nobot", "unknown bot 'nobot'");
    expect_rejected(game, "greedy:colour=red", "unknown option 'colour'");
    expect_rejected("take3", "alphabeta:mode=", "mode");
}

/* The table: values round-trip (signs, win scores), a bucket keeps the
 * deeper and newer entries, and a table of size 0 stores nothing. */
static void test_tt(void **state)
{
    (void)state;
    TTable t;
    assert_int_equal(tt_init(&t, 1), 0);
    TTHit h;
    const int vals[] = {0, 1, -1, 12345, -29999, EVAL_WIN + 200,
                        -EVAL_WIN - 200};
    for (int i = 0; i < 7; i++) {
        uint64_t key = ply_mix64((uint64_t)i + 1);
        tt_store(&t, key, (Move)i * 0x1234567890ull, vals[i], i * 30,
                 1 + i % 3);
        assert_true(tt_probe(&t, key, &h));
        assert_int_equal(h.value, vals[i]);
        assert_int_equal(h.depth, i * 30);
        assert_int_equal(h.bound, 1 + i % 3);
        assert_true(h.move == (Move)i * 0x1234567890ull);
    }
    /* five positions in one bucket: the shallowest of an old search goes */
    tt_clear(&t);
    uint64_t base = 0x0123456789000000ull, keys[5];
    for (int i = 0; i < 5; i++)
        keys[i] = base + (uint64_t)i;  /* same bucket, other check keys */
    for (int i = 0; i < 4; i++)
        tt_store(&t, keys[i], 0, i, 10 + i, TT_EXACT);
    tt_new_search(&t);
    tt_store(&t, keys[4], 0, 4, 1, TT_EXACT);
    assert_false(tt_probe(&t, keys[0], &h));
    for (int i = 1; i < 5; i++)
        assert_true(tt_probe(&t, keys[i], &h));
    /* the same position: a much deeper entry of this search stays */
    tt_store(&t, keys[4], 7, 40, 30, TT_LOWER);
    tt_store(&t, keys[4], 8, 41, 3, TT_UPPER);
    assert_true(tt_probe(&t, keys[4], &h));
    assert_int_equal(h.depth, 30);
    assert_true(h.move == 7);
    tt_free(&t);
    assert_int_equal(tt_init(&t, 0), 0);
    tt_store(&t, 1, 1, 1, 1, TT_EXACT);
    assert_false(tt_probe(&t, 1, &h));
    tt_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tl_timed_test(test_minimax_two_player),
        tl_timed_test(test_solved_endgames),
        tl_timed_test(test_minimax_paranoid),
        tl_timed_test(test_brs_and_no_eval),
        tl_timed_test(test_maxn),
        tl_timed_test(test_multiplayer_finds_win),
        tl_timed_test(test_reproducible),
        tl_timed_test(test_time_limit),
        tl_timed_test(test_stop),
        tl_timed_test(test_threads),
        tl_timed_test(test_greedy_avoids_losing),
        tl_timed_test(test_greedy_kalah_trap),
        tl_timed_test(test_greedy_fallback),
        tl_timed_test(test_contempt),
        tl_timed_test(test_repetition),
        tl_timed_test(test_bad_options),
        tl_timed_test(test_tt),
        tl_timed_test(test_ecache_transparent),
    };
    tl_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
