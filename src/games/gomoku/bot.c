/* bot.c — the gomoku/renju bot: threat-space search over the threat
 * detector, then alpha-beta.
 *
 * Every node first answers the forced questions: a five of its own wins;
 * the opponent's four (a five-point along a line through his last stone)
 * must be blocked, and two such points lose. At the root a VCF search
 * (victory by continuous fours: every attacking move a four, every reply
 * the forced block) looks for a win; below it, alpha-beta (negamax, PVS)
 * searches the best few candidates near the stones, ordered by the shapes
 * they make and prevent, an open four being a win in three; at the
 * horizon a short VCF replaces the static evaluation when it finds a win.
 * Renju: Black's moves are checked against the forbidden points, and a
 * forced block that is forbidden loses. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/bot.h"
#include "gomoku.h"

enum { GB_MAX_PLY = 64, GB_MAX_CAND = GK_MAX_SIZE * GK_MAX_SIZE };
enum { GB_WIN = 900000 };

typedef struct GbOpts {
    int width;
    int vcf_depth;
    int leaf_vcf;
    int vct_depth;
} GbOpts;

static const Option gb_options[] = {
    {.key = "width", .type = OPT_INT, .def = 12, .min = 2, .max = 100,
     .offset = offsetof(GbOpts, width),
     .help = "candidate moves searched at each node (best by the shapes)"},
    {.key = "vcf", .type = OPT_INT, .def = 12, .min = 0, .max = 40,
     .offset = offsetof(GbOpts, vcf_depth),
     .help = "fours in a row the root's VCF search tries"},
    {.key = "leafvcf", .type = OPT_INT, .def = 4, .min = 0, .max = 20,
     .offset = offsetof(GbOpts, leaf_vcf),
     .help = "fours in a row the VCF at the horizon tries"},
    {.key = "vct", .type = OPT_INT, .def = 4, .min = 0, .max = 12,
     .offset = offsetof(GbOpts, vct_depth),
     .help = "threats (fours and open threes) in a row the root's VCT "
             "search tries, within a third of the move's time"},
    {.key = NULL},
};

typedef struct Gb {
    GbOpts o;
    GkState s;                  /* the working position */
    uint8_t near[GK_CELLS];     /* stones within two points */
    BotClock clk;
    BotTick tick;
    uint64_t nodes, max_nodes;
    int64_t soft_us;            /* a phase's own deadline (0: none) */
    int aborted;
    atomic_int stop;
} Gb;

static void *gb_create(const GameVtbl *g, const void *opts, uint64_t seed,
                       PlyError *err)
{
    (void)seed;
    if (g->info.state_size != sizeof(GkState) ||
        (strcmp(g->info.name, "gomoku") && strcmp(g->info.name, "renju"))) {
        ply_fail(err, "the gomoku bot plays only gomoku and renju");
        return NULL;
    }
    Gb *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->o = *(const GbOpts *)opts;
    atomic_init(&b->stop, 0);
    return b;
}

static void gb_destroy(void *p)
{
    free(p);
}

static void gb_new_game(void *p)
{
    (void)p;
}

static void gb_stop(void *p)
{
    Gb *b = p;
    atomic_store(&b->stop, 1);
}

static int colour_of(const GkState *s)
{
    return s->side ? GK_WHITE : GK_BLACK;
}

static void near_add(Gb *b, int p, int delta)
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int q = p + dy * GK_STRIDE + dx;
            if (q >= 0 && q < GK_CELLS)
                b->near[q] = (uint8_t)(b->near[q] + delta);
        }
}

static void place(Gb *b, int p)
{
    GkState *s = &b->s;
    int c = colour_of(s);
    s->cell[p] = (uint8_t)c;
    s->stones++;
    s->side ^= 1;
    near_add(b, p, 1);
}

static void unplace(Gb *b, int p)
{
    GkState *s = &b->s;
    s->cell[p] = GK_EMPTY;
    s->stones--;
    s->side ^= 1;
    near_add(b, p, -1);
}

/* May the side to move play p (renju: Black's forbidden points)? */
static int legal(Gb *b, int p)
{
    GkState *s = &b->s;
    if (s->cell[p] != GK_EMPTY)
        return 0;
    if (s->rule == GK_RENJU && s->side == 0 &&
        gk_may_be_forbidden(s->cell, p))
        return gk_forbidden(s->cell, p) == GK_OK;
    return 1;
}

/* Points where colour c makes a win along a line through p (c's last
 * stone); up to max of them, distinct. */
static int five_points_near(Gb *b, int p, int c, int *out, int max)
{
    const uint8_t *cell = b->s.cell;
    int n = 0;
    if (p < 0)
        return 0;
    for (int i = 0; i < 4; i++) {
        int d = gk_dir[i];
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            int q = p;
            for (int k = 1; k <= 4; k++) {
                q += sgn * d;
                if (cell[q] == GK_WALL)
                    break;
                if (cell[q] != GK_EMPTY)
                    continue;
                if (!gk_wins(b->s.rule, c, gk_run(cell, q, d, c)))
                    continue;
                int dup = 0;
                for (int j = 0; j < n; j++)
                    dup |= out[j] == q;
                if (!dup && n < max)
                    out[n++] = q;
            }
        }
    }
    return n;
}

static int five_points_all(Gb *b, int c, int *out, int max)
{
    GkState *s = &b->s;
    int n = 0;
    for (int p = 0; p < GK_CELLS && n < max; p++)
        if (s->cell[p] == GK_EMPTY && gk_makes_five(s, p, c))
            out[n++] = p;
    return n;
}

/* The best shape colour c makes at p over the four lines. */
static int best_shape(Gb *b, int p, int c, int *fours)
{
    int best = SH_NONE, nf = 0;
    for (int i = 0; i < 4; i++) {
        int sh = gk_shape(b->s.cell, b->s.rule, p, gk_dir[i], c);
        if (sh >= SH_FOUR)
            nf += sh == SH_OPEN4 ? 2 : 1;
        if (sh > best)
            best = sh;
    }
    if (fours)
        *fours = nf;
    return best;
}

static int time_up(Gb *b)
{
    if (b->aborted)
        return 1;
    if ((++b->nodes & 63) == 0 &&
        (botclock_check(&b->clk, &b->tick) ||
         (b->max_nodes && b->nodes >= b->max_nodes) ||
         atomic_load(&b->stop) ||
         (b->soft_us && botclock_elapsed_us(&b->clk) > b->soft_us)))
        b->aborted = 1;
    return b->aborted;
}

/* VCF for the side to move (whose opponent has no four): 1 when a chain
 * of fours wins; *first gets its first move. */
static int vcf(Gb *b, int depth, int *first)
{
    GkState *s = &b->s;
    int me = colour_of(s), op = GK_BLACK + GK_WHITE - me;
    if (depth <= 0 || time_up(b))
        return 0;
    for (int p = 0; p < GK_CELLS; p++) {
        if (s->cell[p] != GK_EMPTY || !b->near[p])
            continue;
        int fours;
        if (best_shape(b, p, me, &fours) < SH_FOUR || !legal(b, p))
            continue;
        place(b, p);
        int f[3], nf = five_points_near(b, p, me, f, 3);
        int win = 0;
        if (nf >= 2) {
            win = 1;    /* two five-points: one block cannot stop both */
        } else if (nf == 1) {
            if (!legal(b, f[0])) {
                win = 1;    /* the block is forbidden (renju) */
            } else {
                place(b, f[0]);
                int g[1];
                /* the block must not give the defender a four */
                if (!five_points_near(b, f[0], op, g, 1))
                    win = vcf(b, depth - 1, NULL);
                unplace(b, f[0]);
            }
        }
        unplace(b, p);
        if (win) {
            if (first)
                *first = p;
            return 1;
        }
        if (b->aborted)
            return 0;
    }
    return 0;
}

/* VCT for the side to move (whose opponent has no four): threats of
 * fours and open threes. A four's reply is its block; an open three's
 * replies are every empty point within four of the new stone on its line
 * and every four of the defender; a reply that gives the defender a four
 * counts as a defence (the search does not follow it). 1 when every
 * defence loses within depth threats; *first gets the first threat. */
static int vct(Gb *b, int depth, int *first)
{
    GkState *s = &b->s;
    int me = colour_of(s), op = GK_BLACK + GK_WHITE - me;
    if (depth <= 0 || time_up(b))
        return 0;
    if (vcf(b, 2 * depth, first))
        return 1;
    for (int p = 0; p < GK_CELLS && !b->aborted; p++) {
        if (s->cell[p] != GK_EMPTY || !b->near[p])
            continue;
        int dirs3 = 0, four = 0;
        for (int i = 0; i < 4; i++) {
            int sh = gk_shape(s->cell, s->rule, p, gk_dir[i], me);
            if (sh >= SH_FOUR)
                four = 1;
            else if (sh == SH_OPEN3)
                dirs3 |= 1 << i;
        }
        if (!four && !dirs3)
            continue;
        if (!legal(b, p))
            continue;
        place(b, p);
        int win = 1;
        int f[3], nf = five_points_near(b, p, me, f, 3);
        if (nf >= 2) {
            win = 1;
        } else if (nf == 1) {
            if (legal(b, f[0])) {
                place(b, f[0]);
                int g[1];
                win = !five_points_near(b, f[0], op, g, 1) &&
                      vct(b, depth - 1, NULL);
                unplace(b, f[0]);
            }
        } else {
            /* the defences of an open three */
            int def[64], nd = 0;
            for (int i = 0; i < 4; i++) {
                if (!(dirs3 >> i & 1))
                    continue;
                for (int sgn = -1; sgn <= 1; sgn += 2)
                    for (int k = 1, q = p + sgn * gk_dir[i];
                         k <= 4 && s->cell[q] != GK_WALL;
                         k++, q += sgn * gk_dir[i])
                        if (s->cell[q] == GK_EMPTY && nd < 64)
                            def[nd++] = q;
            }
            for (int q = 0; q < GK_CELLS && nd < 64; q++) {
                if (s->cell[q] != GK_EMPTY || !b->near[q])
                    continue;
                int dup = 0;
                for (int j = 0; j < nd; j++)
                    dup |= def[j] == q;
                if (!dup && best_shape(b, q, op, NULL) >= SH_FOUR)
                    def[nd++] = q;
            }
            for (int j = 0; j < nd && win; j++) {
                int q = def[j];
                if (s->cell[q] != GK_EMPTY || !legal(b, q))
                    continue;
                place(b, q);
                int g[1];
                if (gk_makes_five(s, q, op) ||
                    five_points_near(b, q, op, g, 1))
                    win = 0;
                else
                    win = vct(b, depth - 1, NULL);
                unplace(b, q);
            }
        }
        unplace(b, p);
        if (win && !b->aborted) {
            if (first)
                *first = p;
            return 1;
        }
    }
    return 0;
}

typedef struct Cand {
    int p, score;
} Cand;

static int cand_cmp(const void *x, const void *y)
{
    const Cand *a = x, *c = y;
    if (a->score != c->score)
        return c->score - a->score;
    return a->p - c->p;
}

static const int attack_w[] = {0, 2, 12, 70, 110, 3000, 100000};
static const int defend_w[] = {0, 1, 8, 50, 45, 1500, 50000};

/* Candidates near the stones, scored and sorted; legal only. */
static int candidates(Gb *b, Cand *c, int *open4)
{
    GkState *s = &b->s;
    int me = colour_of(s), op = GK_BLACK + GK_WHITE - me;
    int n = 0;
    *open4 = -1;
    for (int p = 0; p < GK_CELLS; p++) {
        if (s->cell[p] != GK_EMPTY || !b->near[p])
            continue;
        int v = 0, fours = 0, threes = 0;
        for (int i = 0; i < 4; i++) {
            int a = gk_shape(s->cell, s->rule, p, gk_dir[i], me);
            int d = gk_shape(s->cell, s->rule, p, gk_dir[i], op);
            v += attack_w[a] + defend_w[d];
            fours += a == SH_OPEN4 ? 2 : a >= SH_FOUR;
            threes += a == SH_OPEN3;
        }
        /* double threats */
        if (fours >= 2 || (fours && threes))
            v += 5000;
        else if (threes >= 2)
            v += 1500;
        if (!legal(b, p))
            continue;
        if (fours >= 2 && *open4 < 0)
            *open4 = p;
        c[n].p = p;
        c[n].score = v;
        n++;
    }
    qsort(c, (size_t)n, sizeof *c, cand_cmp);
    return n;
}

static int evaluate(Gb *b)
{
    return gk_eval_board(&b->s, b->s.side);
}

static int search(Gb *b, int depth, int ply, int alpha, int beta,
                  int my_last, int op_last)
{
    GkState *s = &b->s;
    int me = colour_of(s), op = GK_BLACK + GK_WHITE - me;
    int f[3];
    if (five_points_near(b, my_last, me, f, 1))
        return GB_WIN - ply;
    if (s->stones >= s->size * s->size)
        return 0;
    if (time_up(b) || ply >= GB_MAX_PLY - 2)
        return evaluate(b);
    int nf = five_points_near(b, op_last, op, f, 3);
    if (nf >= 2)
        return -(GB_WIN - ply - 1);
    if (nf == 1) {
        if (!legal(b, f[0]))
            return -(GB_WIN - ply - 1);
        place(b, f[0]);
        int v = -search(b, depth, ply + 1, -beta, -alpha, op_last, f[0]);
        unplace(b, f[0]);
        return v;
    }
    if (depth <= 0) {
        if (b->o.leaf_vcf && vcf(b, b->o.leaf_vcf, NULL))
            return GB_WIN - ply - 2;
        return evaluate(b);
    }
    Cand c[GB_MAX_CAND];
    int open4, n = candidates(b, c, &open4);
    if (n == 0)
        return 0;
    if (open4 >= 0)
        return GB_WIN - ply - 2;
    int width = b->o.width;
    if (n > width)
        n = width;
    int best = -GB_WIN - 1;
    for (int i = 0; i < n; i++) {
        place(b, c[i].p);
        int v;
        if (i == 0) {
            v = -search(b, depth - 1, ply + 1, -beta, -alpha, op_last, c[i].p);
        } else {
            v = -search(b, depth - 1, ply + 1, -alpha - 1, -alpha, op_last,
                        c[i].p);
            if (v > alpha && v < beta)
                v = -search(b, depth - 1, ply + 1, -beta, -alpha, op_last,
                            c[i].p);
        }
        unplace(b, c[i].p);
        if (b->aborted)
            return best > -GB_WIN - 1 ? best : 0;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

static int first_legal(Gb *b)
{
    for (int p = 0; p < GK_CELLS; p++)
        if (b->s.cell[p] == GK_EMPTY && gk_illegal(&b->s, p) == GK_OK)
            return p;
    return -1;
}

static Move gb_choose(void *p, const void *st, const Limits *lim,
                      SearchInfo *out)
{
    Gb *b = p;
    int64_t budget = lim->time_ms > 0 ? lim->time_ms
                   : (lim->nodes || lim->depth) ? 0 : 1000;
    botclock_start(&b->clk, lim, budget);
    b->tick = (BotTick){0, 0, 1};
    b->max_nodes = lim->nodes;
    b->nodes = 0;
    b->aborted = 0;
    atomic_store(&b->stop, 0);
    b->s = *(const GkState *)st;
    GkState *s = &b->s;
    memset(b->near, 0, sizeof b->near);
    for (int q = 0; q < GK_CELLS; q++)
        if (s->cell[q] == GK_BLACK || s->cell[q] == GK_WHITE)
            near_add(b, q, 1);
    int me = colour_of(s), op = GK_BLACK + GK_WHITE - me;
    int best = -1, value = 0, proven = 0, depth_done = 0;
    int f[3];
    /* the opening rule and the empty board: the centre, else the first
     * legal point nearest the centre's zone */
    if (s->stones == 0 || (s->opening == GK_OPEN_PRO && s->stones < 3)) {
        int c = (s->size + 1) / 2, ctr = c * GK_STRIDE + c;
        if (gk_illegal(s, ctr) == GK_OK) {
            best = ctr;
        } else {
            Cand cs[GB_MAX_CAND];
            int o4, n = candidates(b, cs, &o4);
            for (int i = 0; i < n && best < 0; i++)
                if (gk_illegal(s, cs[i].p) == GK_OK)
                    best = cs[i].p;
            if (best < 0)
                best = first_legal(b);
        }
        goto done;
    }
    /* a five now */
    for (int q = 0; q < GK_CELLS && best < 0; q++)
        if (s->cell[q] == GK_EMPTY && gk_makes_five(s, q, me) && legal(b, q))
            best = q, value = GB_WIN, proven = 1;
    if (best >= 0)
        goto done;
    /* the opponent's four must be blocked */
    int nf = five_points_all(b, op, f, 3);
    if (nf >= 1) {
        best = legal(b, f[0]) ? f[0] : first_legal(b);
        if (nf >= 2 || !legal(b, f[0]))
            value = -GB_WIN, proven = -1;
        goto done;
    }
    /* victory by continuous fours */
    if (b->o.vcf_depth && vcf(b, b->o.vcf_depth, &best)) {
        value = GB_WIN;
        proven = 1;
        goto done;
    }
    best = -1;
    b->aborted = 0;
    /* victory by continuous threats, deepening, within a third of the
     * time */
    if (b->o.vct_depth) {
        b->soft_us = budget ? budget * 1000 / 3 : 0;
        for (int d = 1; d <= b->o.vct_depth && !b->aborted; d++)
            if (vct(b, d, &best)) {
                value = GB_WIN;
                proven = 1;
                b->soft_us = 0;
                goto done;
            }
        b->soft_us = 0;
        best = -1;
        /* a stop or the node limit ends the alpha-beta below at once */
        b->aborted = 0;
    }
    Cand root[GB_MAX_CAND];
    int open4, n = candidates(b, root, &open4);
    if (n == 0) {
        best = first_legal(b);
        goto done;
    }
    if (open4 >= 0) {
        best = open4, value = GB_WIN, proven = 1;
        goto done;
    }
    int width = b->o.width + 4;
    if (n > width)
        n = width;
    best = root[0].p;
    int maxd = lim->depth > 0 ? lim->depth : 60;
    for (int d = 1; d <= maxd; d++) {
        int alpha = -GB_WIN - 1, cur = -1, curv = -GB_WIN - 1;
        for (int i = 0; i < n; i++) {
            place(b, root[i].p);
            int v = -search(b, d - 1, 1, -GB_WIN - 1, -alpha, -1,
                            root[i].p);
            unplace(b, root[i].p);
            if (b->aborted)
                break;
            if (v > curv) {
                curv = v;
                cur = i;
            }
            if (v > alpha)
                alpha = v;
        }
        if (b->aborted && cur < 0)
            break;
        if (cur >= 0 && (!b->aborted || curv > value)) {
            Cand t = root[cur];
            memmove(root + 1, root, sizeof *root * (size_t)cur);
            root[0] = t;
            best = t.p;
            value = curv;
        }
        if (b->aborted)
            break;
        depth_done = d;
        if (curv >= GB_WIN - 100) {
            proven = 1;
            break;
        }
        if (curv <= -GB_WIN + 100) {
            proven = -1;
            break;
        }
        if (lim->on_info) {
            SearchInfo si = {0};
            si.best = (Move)best;
            si.value = value;
            si.depth = d;
            si.nodes = b->nodes;
            si.seconds = (double)botclock_elapsed_us(&b->clk) / 1e6;
            si.pv_len = 1;
            si.pv[0] = (Move)best;
            lim->on_info(&si, lim->user);
        }
        /* the next depth costs several times this one */
        if (budget && !lim->nodes && !lim->depth &&
            botclock_elapsed_us(&b->clk) > budget * 1000 / 3)
            break;
    }
done:
    if (best < 0)
        best = first_legal(b);
    out->best = (Move)best;
    out->proven = proven;
    out->value = value >= GB_WIN - 100 ? EVAL_WIN
               : value <= -GB_WIN + 100 ? -EVAL_WIN
               : value > EVAL_MAX ? EVAL_MAX
               : value < -EVAL_MAX ? -EVAL_MAX : value;
    out->depth = depth_done;
    out->nodes = b->nodes;
    out->seconds = (double)botclock_elapsed_us(&b->clk) / 1e6;
    out->pv_len = 1;
    out->pv[0] = (Move)best;
    return (Move)best;
}

const BotVtbl bot_gomoku = {
    .name = "gomoku",
    .help = "Gomoku and renju: VCF (victory by continuous fours) at the "
            "root, then alpha-beta (PVS) over the best candidates near the "
            "stones by the shapes they make and block, with forced blocks "
            "of fours, open fours as wins and a short VCF at the horizon; "
            "renju's forbidden points respected. Limits: time (default 1s), "
            "nodes, depth.",
    .options = gb_options,
    .options_size = sizeof(GbOpts),
    .create = gb_create,
    .destroy = gb_destroy,
    .new_game = gb_new_game,
    .choose = gb_choose,
    .stop = gb_stop,
};
