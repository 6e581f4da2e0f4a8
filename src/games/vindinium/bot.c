/* bot.c — two Vindinium bots.
 *
 * vindinium-simple: the benchmark baseline — walk (BFS, other heroes
 * block) to the nearest mine not yet ours, or to the nearest tavern when
 * life is low; drink up to about 75 HP when standing by a tavern.
 *
 * vindinium: iterative-deepening alpha-beta in turn order on the exact
 * rules. Our moves branch; an opponent within a few steps of us branches
 * too and plays against us (paranoid); a distant opponent plays a fixed
 * greedy policy (nearest free mine / tavern), so the search stays deep
 * where it matters. Leaves are scored by projected gold: gold + mines x
 * own moves left + a prospect for the next mine (by precomputed BFS
 * distances, with a tavern detour when life is too low to take it), us
 * against the leader and the field. Distance tables are built once per
 * map (~1.5 MB). Default budget 250 ms per move (time=...). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/bot.h"
#include "../../core/util.h"
#include "vindinium.h"

enum { INF_D = 30000 };

/* Own moves hero p still has. */
static int moves_left(const Vd *v, int p)
{
    if (v->finished)
        return 0;
    int first = v->turn + ((p - v->turn % VD_HEROES) + VD_HEROES) % VD_HEROES;
    return first >= v->max_turns ? 0 : (v->max_turns - 1 - first) / 4 + 1;
}

/* Whether move m of hero h changes nothing but lastDir (same as Stay). */
static int is_null_move(const Vd *v, int h, int m)
{
    if (m == VD_STAY)
        return 0;
    const VdHero *e = &v->hero[h];
    int n = v->size, x = e->x + vd_dx[m], y = e->y + vd_dy[m];
    if (x < 0 || y < 0 || x >= n || y >= n)
        return 1;
    if (vd_hero_at(v, x, y) >= 0)
        return 1;
    int t = v->tile[x * n + y];
    if (t == VD_WALL)
        return 1;
    if (t == VD_TAVERN)
        return e->gold < VD_BEER_GOLD;
    return vd_is_mine(t) && vd_mine_owner(t) == h;
}

/* ================= the simple baseline ================= */

typedef struct Simple {
    const GameVtbl *g;
} Simple;

static void *simple_create(const GameVtbl *g, const void *opts,
                           uint64_t seed, PlyError *err)
{
    (void)seed;
    if (strcmp(g->info.name, "vindinium")) {
        ply_fail(err, "plays only vindinium");
        return NULL;
    }
    Simple *b = calloc(1, sizeof *b);
    if (b)
        b->g = g;
    return b;
}

static void simple_destroy(void *p)
{
    free(p);
}

static void simple_new_game(void *p)
{
    (void)p;
}

/* First step (1..4) of a shortest path from hero h to a cell accepted by
 * want(), other heroes blocking; 0 when none is reachable. */
static int path_step(const Vd *v, int h, int want_tavern)
{
    int n = v->size;
    int16_t queue[VD_CELLS];
    uint8_t first[VD_CELLS], seen[VD_CELLS];
    memset(seen, 0, (size_t)(n * n));
    int start = vd_cell(v, v->hero[h].x, v->hero[h].y);
    int head = 0, tail = 0;
    seen[start] = 1;
    first[start] = 0;
    queue[tail++] = (int16_t)start;
    while (head < tail) {
        int c = queue[head++], x = c / n, y = c % n;
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int a = x + vd_dx[d], b = y + vd_dy[d];
            if (a < 0 || b < 0 || a >= n || b >= n)
                continue;
            int k = a * n + b;
            if (seen[k])
                continue;
            seen[k] = 1;
            int t = v->tile[k];
            int step = c == start ? d : first[c];
            if (want_tavern ? t == VD_TAVERN
                            : vd_is_mine(t) && vd_mine_owner(t) != h)
                return step;
            if (t != VD_AIR || vd_hero_at(v, a, b) >= 0)
                continue;
            first[k] = (uint8_t)step;
            queue[tail++] = (int16_t)k;
        }
    }
    return 0;
}

static int simple_move(const Vd *v, int h)
{
    const VdHero *e = &v->hero[h];
    int n = v->size;
    if (e->crashed)
        return VD_STAY;
    if (e->gold >= VD_BEER_GOLD && e->life <= 75)
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int a = e->x + vd_dx[d], b = e->y + vd_dy[d];
            if (a >= 0 && b >= 0 && a < n && b < n &&
                v->tile[a * n + b] == VD_TAVERN)
                return d;   /* by a tavern: drink */
        }
    int step = 0;
    if (e->life <= 40 && e->gold >= VD_BEER_GOLD)
        step = path_step(v, h, 1);
    if (!step)
        step = path_step(v, h, 0);
    return step ? step : VD_STAY;
}

static Move simple_choose(void *p, const void *st, const Limits *lim,
                          SearchInfo *out)
{
    (void)p;
    (void)lim;
    const Vd *v = st;
    Move m = (Move)simple_move(v, vd_to_move(v));
    out->best = m;
    out->nodes = 1;
    out->pv_len = 1;
    out->pv[0] = m;
    return m;
}

const BotVtbl bot_vindinium_simple = {
    .name = "vindinium-simple",
    .help = "Vindinium baseline: nearest mine not yet its own (BFS), a "
            "tavern when life is 40 or less, drinks to ~75 HP by a "
            "tavern. No options.",
    .create = simple_create,
    .destroy = simple_destroy,
    .new_game = simple_new_game,
    .choose = simple_choose,
};

/* ================= the search bot ================= */

typedef struct Strong {
    const GameVtbl *g;
    /* distance tables for the current map */
    uint64_t map_key;
    int size, nmines;
    int16_t *mine_dist;      /* [mine][cell]: moves to bump into mine */
    int16_t *tav_dist;       /* [cell]: moves to bump into a tavern */
    int16_t *cell_dist;      /* [cell][cell] over Air */
    uint16_t mine_cell[VD_MAX_MINES];
    /* search */
    int me;
    BotClock clk;            /* bot.h's time discipline */
    BotTick tick;
    uint64_t nodes, max_nodes;
    int aborted;
    int radius;              /* opponents this close branch */
} Strong;

typedef struct StrongOpts {
    int radius;
} StrongOpts;

static const Option strong_options[] = {
    {.key = "radius", .type = OPT_INT, .def = 3, .max = 9,
     .offset = offsetof(StrongOpts, radius),
     .help = "opponents within this many steps branch"},
    {.key = NULL},
};

static void *strong_create(const GameVtbl *g, const void *opts,
                           uint64_t seed, PlyError *err)
{
    (void)seed;
    if (strcmp(g->info.name, "vindinium")) {
        ply_fail(err, "plays only vindinium");
        return NULL;
    }
    int radius = ((const StrongOpts *)opts)->radius;
    Strong *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->g = g;
    b->radius = radius;
    b->mine_dist = malloc(sizeof(int16_t) * VD_MAX_MINES * VD_CELLS);
    b->tav_dist = malloc(sizeof(int16_t) * VD_CELLS);
    b->cell_dist = malloc(sizeof(int16_t) * VD_CELLS * VD_CELLS);
    if (!b->mine_dist || !b->tav_dist || !b->cell_dist) {
        free(b->mine_dist);
        free(b->tav_dist);
        free(b->cell_dist);
        free(b);
        return NULL;
    }
    return b;
}

static void strong_destroy(void *p)
{
    Strong *b = p;
    free(b->mine_dist);
    free(b->tav_dist);
    free(b->cell_dist);
    free(b);
}

static void strong_new_game(void *p)
{
    Strong *b = p;
    b->map_key = 0;
}

/* BFS over Air from the Air neighbours of `src` (a mine or tavern) or
 * from src itself (an Air cell): out[c] = moves from c to bump into /
 * reach src. */
static void bfs_from(const Vd *v, int src, int16_t *out)
{
    int n = v->size;
    int16_t queue[VD_CELLS];
    int head = 0, tail = 0;
    for (int c = 0; c < n * n; c++)
        out[c] = INF_D;
    out[src] = 0;
    queue[tail++] = (int16_t)src;
    while (head < tail) {
        int c = queue[head++], x = c / n, y = c % n;
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int a = x + vd_dx[d], bb = y + vd_dy[d];
            if (a < 0 || bb < 0 || a >= n || bb >= n)
                continue;
            int k = a * n + bb;
            if (out[k] != INF_D || v->tile[k] != VD_AIR)
                continue;
            out[k] = (int16_t)(out[c] + 1);
            queue[tail++] = (int16_t)k;
        }
    }
}

static void build_tables(Strong *b, const Vd *v)
{
    uint64_t key = v->map_hash ^ (uint64_t)v->size << 56;
    if (key == b->map_key && b->size == v->size)
        return;
    int n = v->size, cells = n * n;
    b->size = n;
    b->map_key = key;
    b->nmines = v->mine_count;
    memcpy(b->mine_cell, v->mine_cell, sizeof b->mine_cell);
    for (int i = 0; i < b->nmines; i++)
        bfs_from(v, b->mine_cell[i], b->mine_dist + (size_t)i * VD_CELLS);
    int16_t tmp[VD_CELLS];
    for (int c = 0; c < cells; c++)
        b->tav_dist[c] = INF_D;
    for (int c = 0; c < cells; c++)
        if (v->tile[c] == VD_TAVERN) {
            bfs_from(v, c, tmp);
            for (int k = 0; k < cells; k++)
                if (tmp[k] < b->tav_dist[k])
                    b->tav_dist[k] = tmp[k];
        }
    for (int c = 0; c < cells; c++) {
        if (v->tile[c] == VD_AIR)
            bfs_from(v, c, b->cell_dist + (size_t)c * VD_CELLS);
        else
            for (int k = 0; k < cells; k++)
                b->cell_dist[(size_t)c * VD_CELLS + k] = INF_D;
    }
}

static int hero_cell(const Vd *v, int h)
{
    return v->hero[h].x * v->size + v->hero[h].y;
}

/* Distance from hero h to the nearest mine it does not own. */
static int nearest_free_mine(const Strong *b, const Vd *v, int h, int cell)
{
    int best = INF_D;
    for (int i = 0; i < b->nmines; i++) {
        int t = v->tile[b->mine_cell[i]];
        if (vd_mine_owner(t) == h)
            continue;
        int d = b->mine_dist[(size_t)i * VD_CELLS + cell];
        if (d < best)
            best = d;
    }
    return best;
}

/* The greedy policy of a distant opponent (and a fallback). */
static int policy_move(const Strong *b, const Vd *v, int h)
{
    const VdHero *e = &v->hero[h];
    if (e->crashed)
        return VD_STAY;
    int n = v->size;
    int tavern = e->gold >= VD_BEER_GOLD && e->life <= 40;
    int best = VD_STAY, bestd = INF_D;
    for (int d = VD_NORTH; d <= VD_WEST; d++) {
        int a = e->x + vd_dx[d], c = e->y + vd_dy[d];
        if (a < 0 || c < 0 || a >= n || c >= n)
            continue;
        int k = a * n + c, t = v->tile[k], dist;
        if (tavern) {
            if (t == VD_TAVERN)
                return d;
            if (t != VD_AIR)
                continue;
            dist = b->tav_dist[k];
        } else {
            if (vd_is_mine(t) && vd_mine_owner(t) != h)
                return d;
            if (t == VD_TAVERN && e->life <= 75 && e->gold >= VD_BEER_GOLD)
                return d;
            if (t != VD_AIR)
                continue;
            dist = nearest_free_mine(b, v, h, k);
        }
        if (vd_hero_at(v, a, c) >= 0)
            continue;
        if (dist < bestd) {
            bestd = dist;
            best = d;
        }
    }
    return best;
}

/* Projected final gold of hero h, in quarter-gold units. */
static int hero_value(const Strong *b, const Vd *v, int h)
{
    const VdHero *e = &v->hero[h];
    int ml = moves_left(v, h);
    int val = 4 * (e->gold + v->owned[h] * ml);
    if (ml <= 0)
        return val;
    int cell = hero_cell(v, h);
    int dm = nearest_free_mine(b, v, h, cell);
    int delay = dm;
    if (e->life - dm <= VD_MINE_LIFE) {
        int dt = b->tav_dist[cell];
        delay = (e->gold >= VD_BEER_GOLD && dt < INF_D) ? 2 * dt + dm + 1
                                                        : INF_D;
    }
    if (delay < ml)
        val += 2 * (ml - delay);   /* half: the mine may be contested */
    val += e->life;                /* a quarter gold per HP */
    return val;
}

static int evaluate(const Strong *b, const Vd *v)
{
    int me = b->me, mine = 0, best = -(1 << 30), sum = 0;
    if (v->finished) {
        /* the ranking: lead over the best, then over the field */
        for (int h = 0; h < VD_HEROES; h++)
            if (h != me) {
                int d = v->hero[me].gold - v->hero[h].gold;
                best = d < 0 ? (best > -d ? best : -d) : best;
                sum += d;
            }
        int place = 0;
        for (int h = 0; h < VD_HEROES; h++)
            place += h != me && v->hero[h].gold > v->hero[me].gold;
        return 1000000 * (3 - place) + 4 * sum;
    }
    int val[VD_HEROES];
    for (int h = 0; h < VD_HEROES; h++)
        val[h] = hero_value(b, v, h);
    mine = val[me];
    for (int h = 0; h < VD_HEROES; h++)
        if (h != me) {
            sum += val[h];
            if (val[h] > best)
                best = val[h];
        }
    return 2 * mine - best - sum / 3;
}

static int gen_unique(const Vd *v, int h, int *out)
{
    if (v->hero[h].crashed) {
        out[0] = VD_STAY;
        return 1;
    }
    int n = 0;
    out[n++] = VD_STAY;
    for (int m = VD_NORTH; m <= VD_WEST; m++)
        if (!is_null_move(v, h, m))
            out[n++] = m;
    return n;
}

static int search(Strong *b, const Vd *v, int depth, int alpha, int beta)
{
    if (v->finished || depth <= 0)
        return evaluate(b, v);
    if ((++b->nodes & 1023) == 0 &&
        (botclock_check(&b->clk, &b->tick) ||
         (b->max_nodes && b->nodes >= b->max_nodes)))
        b->aborted = 1;
    if (b->aborted)
        return 0;
    int h = v->turn % VD_HEROES;
    Vd child;
    if (h != b->me) {
        int cme = hero_cell(v, b->me), ch = hero_cell(v, h);
        int dist = b->cell_dist[(size_t)ch * VD_CELLS + cme];
        if (dist > b->radius || v->hero[h].crashed) {
            child = *v;
            vd_apply(&child, policy_move(b, v, h));
            return search(b, &child, depth - 1, alpha, beta);
        }
        int moves[5], nm = gen_unique(v, h, moves);
        int best = 1 << 30;
        for (int i = 0; i < nm; i++) {
            child = *v;
            vd_apply(&child, moves[i]);
            int s = search(b, &child, depth - 1, alpha, beta);
            if (s < best)
                best = s;
            if (best < beta)
                beta = best;
            if (alpha >= beta)
                break;
        }
        return best;
    }
    int moves[5], nm = gen_unique(v, h, moves);
    int best = -(1 << 30);
    for (int i = 0; i < nm; i++) {
        child = *v;
        vd_apply(&child, moves[i]);
        int s = search(b, &child, depth - 1, alpha, beta);
        if (s > best)
            best = s;
        if (best > alpha)
            alpha = best;
        if (alpha >= beta)
            break;
    }
    return best;
}

static Move strong_choose(void *p, const void *st, const Limits *lim,
                          SearchInfo *out)
{
    Strong *b = p;
    const Vd *v = st;
    int64_t budget = lim->time_ms > 0 ? lim->time_ms
                   : (lim->nodes || lim->depth) ? 600000 : 250;
    botclock_start(&b->clk, lim, budget);
    b->tick = (BotTick){0, 0, 1};
    build_tables(b, v);
    b->me = vd_to_move(v);
    b->max_nodes = lim->nodes;
    b->nodes = 0;
    b->aborted = 0;
    int moves[5], nm = gen_unique(v, b->me, moves);
    int best_move = moves[0], best_val = 0, done_depth = 0;
    if (nm == 1)
        goto done;
    /* iterative deepening, one full round (4 plies) at a time */
    int max_plies = v->max_turns - v->turn;
    for (int rounds = 1; rounds <= 64; rounds++) {
        if (lim->depth && rounds > lim->depth)
            break;
        int depth = 4 * rounds;
        int cur_best = moves[0], cur_val = -(1 << 30);
        int alpha = -(1 << 30);
        for (int i = 0; i < nm; i++) {
            Vd child = *v;
            vd_apply(&child, moves[i]);
            int s = search(b, &child, depth - 1, alpha, 1 << 30);
            if (b->aborted)
                break;
            if (s > cur_val) {
                cur_val = s;
                cur_best = moves[i];
            }
            if (s > alpha)
                alpha = s;
        }
        if (b->aborted)
            break;
        best_move = cur_best;
        best_val = cur_val;
        done_depth = rounds;
        /* best move first next time */
        for (int i = 0; i < nm; i++)
            if (moves[i] == cur_best) {
                moves[i] = moves[0];
                moves[0] = cur_best;
            }
        if (depth >= max_plies)
            break;
        /* a new round costs several times the last: stop early */
        if (!lim->nodes && !lim->depth &&
            botclock_elapsed_us(&b->clk) > budget * 1000 / 3)
            break;
    }
done:
    out->best = (Move)best_move;
    out->value = best_val / 4 > EVAL_MAX ? EVAL_MAX
               : best_val / 4 < -EVAL_MAX ? -EVAL_MAX : best_val / 4;
    out->depth = done_depth * 4;
    out->nodes = b->nodes;
    out->seconds = (double)botclock_elapsed_us(&b->clk) / 1e6;
    out->pv_len = 1;
    out->pv[0] = (Move)best_move;
    return (Move)best_move;
}

const BotVtbl bot_vindinium = {
    .name = "vindinium",
    .help = "Vindinium search bot: alpha-beta in turn order, our moves and "
            "nearby opponents' (paranoid) branch, distant opponents follow "
            "a greedy mine/tavern policy; projected-gold evaluation on BFS "
            "distance tables. Limits: time (default 250ms), nodes, depth "
            "(rounds of 4 moves).",
    .options = strong_options,
    .options_size = sizeof(StrongOpts),
    .create = strong_create,
    .destroy = strong_destroy,
    .new_game = strong_new_game,
    .choose = strong_choose,
};
