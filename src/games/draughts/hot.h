/* hot.h — the move generator, make() and the vtable glue of one draughts
 * variant, compiled for the rules DR_R (a pointer to a static const
 * DRules of the including file). Include once per variant file, after
 * engine.h and the definition of DR_R; then DR_DEFINE_GAME builds the
 * vtable. */
#ifndef DR_R
#error "define DR_R before including hot.h"
#endif

#include <string.h>

typedef struct DGen {
    Move *out;
    int n, first;       /* moves so far; first move of the current piece */
    int best;           /* precedence key of the moves kept */
    int side, from, mover_king;
    uint64_t opp, oppk, empty;
} DGen;

static void hot_emit(DGen *x, uint64_t at, uint64_t cap, int promo)
{
    const DRules *R = DR_R;
    if (R->precedence != DR_FREE) {
        int key = dr_popcount(cap);
        if (R->precedence == DR_KING)
            key = x->mover_king;
        if (R->precedence == DR_VALUE) {
            /* a king is worth just under two men; ties go to kings */
            int nk = dr_popcount(cap & x->oppk);
            key = ((key + nk) * 64 - nk) * 2 + x->mover_king;
        }
        if (key < x->best)
            return;
        if (key > x->best) {
            x->best = key;
            x->n = x->first = 0;
        }
    }
    Move m = (Move)x->from | (Move)dr_ctz(at) << 6 | (promo ? DM_PROMO : 0) |
             dr_compress(cap, x->opp) << 13;
    for (int i = x->first; i < x->n; i++)
        if (x->out[i] == m)
            return;
    if (x->n < R->max_moves)
        x->out[x->n++] = m;
}

/* Whether a king on `at` can capture again (straight back only where
 * R->king_reverse allows it). */
static int hot_king_can_cap(const DGen *x, uint64_t at, uint64_t cap,
                            int lastd)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    uint64_t empty = R->immediate ? x->empty | cap : x->empty;
    uint64_t prey = x->opp & ~cap;
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
        if (!(R->king_cap >> d & 1) ||
            (!R->king_reverse && d == (lastd ^ 1)))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (R->flying)
            while (v & empty)
                v = dr_step(g, v, d);
        if ((v & prey) && (dr_step(g, v, d) & empty))
            return 1;
    }
    return 0;
}

/* A king on `at` that must capture: for each piece it can jump, it lands
 * only where it can go on capturing if there is such a square; otherwise
 * each free square behind the piece ends the move. */
static void hot_cap_king(DGen *x, uint64_t at, uint64_t cap, int promo,
                         int lastd)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    uint64_t empty = R->immediate ? x->empty | cap : x->empty;
    uint64_t prey = x->opp & ~cap;
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
        if (!(R->king_cap >> d & 1) ||
            (!R->king_reverse && d == (lastd ^ 1)))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (R->flying)
            while (v & empty)
                v = dr_step(g, v, d);
        if (!(v & prey))
            continue;
        uint64_t c2 = cap | v, more = 0, ends = 0;
        for (uint64_t l = dr_step(g, v, d); l & empty; l = dr_step(g, l, d)) {
            if (hot_king_can_cap(x, l, c2, d))
                more |= l;
            else
                ends |= l;
            if (!R->flying || R->land_next)
                break;
        }
        if (more) {
            for (; more; more &= more - 1)
                hot_cap_king(x, more & -more, c2, promo, d);
        } else {
            for (; ends; ends &= ends - 1)
                hot_emit(x, ends & -ends, c2, promo);
        }
    }
}

static void hot_cap_man(DGen *x, uint64_t at, uint64_t cap)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    int side = x->side;
    uint64_t empty = R->immediate ? x->empty | cap : x->empty;
    uint64_t prey = x->opp & ~cap;
    uint64_t last = dr_promo_row(R, side);
    /* a constant when both sides capture alike (folds the loop below) */
    unsigned mc = R->man_cap[0] == R->man_cap[1] ? R->man_cap[0]
                                                 : R->man_cap[side];
    int found = 0;
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
        if (!(mc >> d & 1))
            continue;
        uint64_t v = dr_step(g, at, d);
        if (!(v & prey))
            continue;
        uint64_t l = dr_step(g, v, d);
        if (!(l & empty))
            continue;
        found = 1;
        if (R->passing_promo && (l & last)) {
            if (hot_king_can_cap(x, l, cap | v, d))
                hot_cap_king(x, l, cap | v, 1, d);
            else
                hot_emit(x, l, cap | v, 1);
        } else
            hot_cap_man(x, l, cap | v);
    }
    if (!found && cap)
        hot_emit(x, at, cap, !R->passing_promo && (at & last));
}

#define DR_INLINE static inline __attribute__((always_inline))

/* Compiled once per side, so the side's direction masks are constants. */
DR_INLINE int hot_captures(const DState *s, Move *out, const int me)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    DGen x;
    x.out = out;
    x.n = x.first = x.best = 0;
    x.side = me;
    x.opp = s->occ[!me];
    x.oppk = x.opp & s->kings;
    uint64_t empty = ~(s->occ[0] | s->occ[1]) & g->board;
    uint64_t men = s->occ[me] & ~s->kings, kings = s->occ[me] & s->kings;
    /* men with a jump: an opponent next to them and a free square behind */
    uint64_t jumpers = 0;
    for (int d = 0; d < 8; d++)
        if (R->man_cap[me] >> d & 1)
            jumpers |= dr_step(g, dr_step(g, empty, d ^ 1) & x.opp, d ^ 1);
    for (uint64_t b = jumpers & men; b; b &= b - 1) {
        uint64_t bit = b & -b;
        x.from = dr_ctz(bit);
        x.first = x.n;
        x.mover_king = 0;
        x.empty = empty | bit;
        hot_cap_man(&x, bit, 0);
    }
    for (uint64_t b = kings; b; b &= b - 1) {
        uint64_t bit = b & -b;
        x.from = dr_ctz(bit);
        x.first = x.n;
        x.mover_king = 1;
        x.empty = empty | bit;
        if (hot_king_can_cap(&x, bit, 0, -1))
            hot_cap_king(&x, bit, 0, 0, -1);
    }
    return x.n;
}

DR_INLINE int hot_gen_side(const DState *s, Move *out, const int me)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    int n = hot_captures(s, out, me);
    if (n)
        return n;
    uint64_t empty = ~(s->occ[0] | s->occ[1]) & g->board;
    uint64_t men = s->occ[me] & ~s->kings, kings = s->occ[me] & s->kings;
    uint64_t last = dr_promo_row(R, me);
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
        if (!(R->man_move[me] >> d & 1))
            continue;
        for (uint64_t t = dr_step(g, men, d) & empty; t; t &= t - 1) {
            int to = dr_ctz(t);
            out[n++] = (Move)(to - g->shift[d]) | (Move)to << 6 |
                       ((t & -t & last) ? DM_PROMO : 0);
        }
    }
    for (uint64_t b = kings; b; b &= b - 1) {
        uint64_t bit = b & -b;
        int from = dr_ctz(bit);
        if (R->king_limit && dr_king_blocked(R, s, from))
            continue;
    #pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
            if (!(R->king_move >> d & 1))
                continue;
            for (uint64_t v = dr_step(g, bit, d); v & empty;
                 v = dr_step(g, v, d)) {
                out[n++] = (Move)from | (Move)dr_ctz(v) << 6;
                if (!R->flying)
                    break;
            }
        }
    }
    return n;
}

static int hot_gen(const DState *s, Move *out)
{
    return s->side ? hot_gen_side(s, out, 1) : hot_gen_side(s, out, 0);
}

static int hot_to_move(const void *st)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    const DState *s = st;
    if (dr_drawn(R, s))
        return PLAYER_TERMINAL;
    int me = s->side;
    uint64_t empty = ~(s->occ[0] | s->occ[1]) & g->board;
    uint64_t men = s->occ[me] & ~s->kings, kings = s->occ[me] & s->kings;
    /* fast answers: a man or king step, or a man's jump */
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
        if ((R->man_move[me] >> d & 1) && (dr_step(g, men, d) & empty))
            return me;
        if (!R->king_limit && (R->king_move >> d & 1) &&
            (dr_step(g, kings, d) & empty))
            return me;
        if ((R->man_cap[me] >> d & 1) &&
            (dr_step(g, dr_step(g, men, d) & s->occ[!me], d) & empty))
            return me;
    }
    Move buf[1024];
    return (R->max_moves <= 1024 && hot_gen(s, buf) > 0) ? me
                                                         : PLAYER_TERMINAL;
}

static void hot_make(void *st, Move m)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    DState *s = st;
    int me = s->side, from = DM_FROM(m), to = DM_TO(m);
    uint64_t fb = 1ull << from, tb = 1ull << to;
    int was_king = (s->kings & fb) != 0;
    uint64_t cap = 0;
    if (DM_CAPS(m)) {
        cap = dr_expand(DM_CAPS(m), s->occ[!me]);
        s->occ[!me] &= ~cap;
        s->kings &= ~cap;
    }
    s->occ[me] = (s->occ[me] & ~fb) | tb;
    if (was_king)
        s->kings = (s->kings & ~fb) | tb;
    else if (m & DM_PROMO)
        s->kings |= tb;
    int progress = cap || (!was_king && (g->rc[from] >> 4) != (g->rc[to] >> 4));
    if (progress) {
        s->quiet = 0;
        s->nhist = 0;
    } else {
        if (s->quiet < 255)
            s->quiet++;
        /* nhist <= quiet <= quiet_limit until the game is over */
        if (s->nhist < R->quiet_limit)
            s->hist[s->nhist++] = (uint16_t)(from | to << 6 | was_king << 12);
        if (s->nhist >= 8 && !(s->flags & DR_F_NOREP) &&
            dr_repetitions(s) >= 3)
            s->flags |= DR_F_REP3;
    }
    if (R->king_limit) {
        int op = !me;
        if (s->ksq[op] != DR_NONE && (cap >> s->ksq[op] & 1)) {
            s->ksq[op] = DR_NONE;   /* that king was taken */
            s->kcnt[op] = 0;
        }
        if (!cap && was_king) {
            s->kcnt[me] = s->ksq[me] == from ? (uint8_t)(s->kcnt[me] + 1) : 1;
            if (s->kcnt[me] > R->king_limit)
                s->kcnt[me] = R->king_limit;
            s->ksq[me] = (uint8_t)to;
        } else {
            s->ksq[me] = DR_NONE;
            s->kcnt[me] = 0;
        }
    }
    s->side = (uint8_t)!me;
}

/* ---- vtable glue ---- */

static int hot_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed;
    (void)err;
    return dr_init(DR_R, st, opt[0]);
}

static int hot_gen_moves(const void *st, Move *out)
{
    return hot_gen(st, out);
}

static void hot_returns(const void *st, double *out)
{
    dr_returns(DR_R, st, out);
}

static uint64_t hot_hash(const void *st)
{
    return dr_hash(DR_R, st);
}

static int hot_to_text(const void *st, char *buf, size_t n)
{
    return dr_to_text(DR_R, st, buf, n);
}

static int hot_from_text(void *st, const char *s, PlyError *err)
{
    return dr_from_text(DR_R, st, s, err);
}

static int hot_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    return dr_move_to_text(DR_R, st, m, buf, n);
}

static int hot_text_to_move(const void *st, const char *s, Move *m,
                            PlyError *err)
{
    return dr_text_to_move(DR_R, hot_gen, st, s, m, err);
}

static int hot_render(const void *st, char *buf, size_t n)
{
    return dr_render(DR_R, st, buf, n);
}

static int hot_layout(const void *st, Layout *l)
{
    return dr_layout(DR_R, st, l);
}

static int hot_eval(const void *st, int player)
{
    return dr_eval(DR_R, st, player);
}

/* The static ordering of engine.c, minus a penalty when the move lets
 * the opponent capture at once (a hung piece, or an exchange). */
static int hot_heuristic(const void *st, Move m)
{
    const DRules *R = DR_R;
    int h = dr_heuristic(R, st, m);
    DState t;
    memcpy(&t, st, DR_STATE_SIZE(R->quiet_limit));
    hot_make(&t, m);
    Move buf[1024];
    if (R->max_moves <= 1024 &&
        (t.side ? hot_captures(&t, buf, 1) : hot_captures(&t, buf, 0)))
        h -= 150;
    return h;
}

static int hot_is_noisy(const void *st, Move m)
{
    return dr_is_noisy(DR_R, st, m);
}

static int hot_score(const void *st, int player)
{
    return dr_score(DR_R, st, player);
}

static int hot_check(const void *st)
{
    return dr_check(DR_R, st);
}

/* The inputs of a learned evaluation (game.h NetFeatures): one feature
 * per piece, (own or the opponent's, man or king, square), the squares
 * numbered 0..nsq-1 in row order from persp's side of the board (the
 * board turned by a half turn for player 1, which maps playable squares
 * onto playable squares on every geometry). Each kind of piece has a
 * block of 64 inputs (nsq <= 64), so that one set serves every geometry.
 * Written in ascending order: for player 1 the bits are walked from the
 * top, since the half turn reverses the row order. */
static int hot_net_features(const void *st, int persp, uint16_t *out)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    const DState *s = st;
    int n = 0, nsq = g->nsq;
    _Static_assert(sizeof s->occ[0] * 8 == 64, "a block per 64 bits");
    for (int rel = 0; rel < 2; rel++) {
        uint64_t mine = s->occ[rel ? 1 - persp : persp];
        for (int k = 0; k < 2; k++) {
            uint64_t bb = mine & (k ? s->kings : ~s->kings) & g->board;
            int base = (rel * 2 + k) * 64;
            if (!persp) {
                for (; bb; bb &= bb - 1) {
                    int b = dr_ctz(bb);
                    out[n++] = (uint16_t)(base +
                        dr_popcount(g->board & ((1ull << b) - 1)));
                }
            } else {
                for (; bb; ) {
                    int b = 63 - __builtin_clzll(bb);
                    bb ^= 1ull << b;
                    out[n++] = (uint16_t)(base + nsq - 1 -
                        dr_popcount(g->board & ((1ull << b) - 1)));
                }
            }
        }
    }
    return n;
}

/* The same as bit sets: each kind of piece is one word, its squares
 * packed in row order (and reversed for player 1). */
static void hot_net_feature_bits(const void *st, int persp, uint64_t *out)
{
    const DRules *R = DR_R;
    const DGeom *g = R->g;
    const DState *s = st;
    for (int rel = 0; rel < 2; rel++) {
        uint64_t mine = s->occ[rel ? 1 - persp : persp];
        for (int k = 0; k < 2; k++) {
            uint64_t x = dr_compress(mine & (k ? s->kings : ~s->kings) &
                                     g->board, g->board);
            if (persp)
                x = dr_reverse(x) >> (64 - g->nsq);
            out[rel * 2 + k] = x;
        }
    }
}

/* The coarser feature: the piece (own or not, man or king) anywhere. */
static int hot_net_factor(int feature)
{
    return feature / 64;
}

static const NetFeatures hot_net = {
    .name = "draughts-ps1",
    .ninputs = 4 * 64,
    .max_active = 64,
    .features = hot_net_features,
    .feature_bits = hot_net_feature_bits,
    .nfactors = 4,
    .factor = hot_net_factor,
#ifdef DR_NET_BUILTIN
    .builtin = DR_NET_BUILTIN,
    .builtin_len = sizeof DR_NET_BUILTIN,
#endif
};

/* Longest game: every man move and capture is irreversible and there are
 * at most nsq*(n-1) of the one and nsq of the other; between two of them
 * at most quiet_limit plies pass before the draw rule ends the game. */
#define DR_MAX_LENGTH(nsq, n, quiet) (((nsq) * (n) + 1) * ((quiet) + 1))

/* How threefold repetition is applied, for every variant's rules text. */
#define DR_REPETITION_TEXT                                                 \
    "Repetition: the third occurrence of a position (the same pieces on\n" \
    "the same squares, the same side to move) ends the game in a draw at\n" \
    "once, without a claim. Positions count from the last capture or man\n" \
    "move (none before it can come back) and from the setup on: a setup\n"  \
    "string cannot carry earlier positions, so one of a game drawn this\n"  \
    "way ends in :3fold. Option repetition=false turns the rule off (the\n" \
    "published perft counts ignore it; from the start no oracle row can\n"  \
    "reach it, from the AllKings position it counts from depth 9)."

static const GameOption hot_options[] = {
    {.key = "repetition", .type = OPT_BOOL, .def = 1, .max = 1, .help =
     "the third occurrence of a position draws; false turns it off, as the "
     "published perft counts do"},
    {.key = NULL},
};

/* QUIET is the variant's quiet_limit again, as a constant expression for
 * the state size. */
#define DR_DEFINE_GAME(var, NAME, TITLE, PLAYERS, MAXMOVES, MAXLEN, QUIET,  \
                       NOTATION, RULESTXT)                              \
    _Static_assert((QUIET) <= DR_HIST, "quiet limit above DR_HIST");    \
    const GameVtbl var = {                                              \
        .info = {                                                       \
            .name = NAME,                                               \
            .title = TITLE,                                             \
            .num_players = 2,                                           \
            .max_moves = MAXMOVES,                                      \
            .max_game_length = MAXLEN,                                  \
            .state_size = DR_STATE_SIZE(QUIET),                         \
            .flags = GAME_ZERO_SUM,                                     \
            .player_names = PLAYERS,                                    \
            .options = hot_options,                                     \
            .notation = NOTATION,                                       \
            .rules = RULESTXT,                                          \
        },                                                              \
        .init = hot_init,                                               \
        .to_move = hot_to_move,                                         \
        .gen_moves = hot_gen_moves,                                     \
        .make = hot_make,                                               \
        .returns = hot_returns,                                         \
        .hash = hot_hash,                                               \
        .to_text = hot_to_text,                                         \
        .from_text = hot_from_text,                                     \
        .move_to_text = hot_move_to_text,                               \
        .text_to_move = hot_text_to_move,                               \
        .render = hot_render,                                           \
        .layout = hot_layout,                                           \
        .eval = hot_eval,                                               \
        .heuristic = hot_heuristic,                                     \
        .is_noisy = hot_is_noisy,                                       \
        .score = hot_score,                                             \
        .check = hot_check,                                             \
        .formats = dr_formats,                                          \
        .net = &hot_net,                                                \
    }
