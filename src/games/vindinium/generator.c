/* generator.c — random maps as the reference server makes them
 * (Generator.scala; shared/rules/vindinium.md §2.1): a random quadrant
 * mirrored both ways, a spawn in the top-left quadrant from which the
 * mirrored spawns are reachable, everything unreachable walled up except
 * mines next to the reachable region, and four mirrored taverns that
 * neither cut the region nor hide a mine. Seeded, not bit-compatible
 * with Scala's Random (not possible, not needed). */
#include <string.h>

#include "vindinium.h"

enum { MAX_ATTEMPTS = 100, MAX_SPAWN_TRIES = 100 };

/* Flood fill over Air from start: marks comp[] with `label` and returns
 * the number of cells reached. */
static int flood(const uint8_t *tile, int n, int start, uint8_t *mark,
                 int16_t *queue)
{
    int head = 0, tail = 0;
    memset(mark, 0, (size_t)(n * n));
    if (tile[start] != VD_AIR)
        return 0;
    mark[start] = 1;
    queue[tail++] = (int16_t)start;
    while (head < tail) {
        int c = queue[head++], x = c / n, y = c % n;
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int a = x + vd_dx[d], b = y + vd_dy[d];
            if (a < 0 || b < 0 || a >= n || b >= n)
                continue;
            int k = a * n + b;
            if (mark[k] || tile[k] != VD_AIR)
                continue;
            mark[k] = 1;
            queue[tail++] = (int16_t)k;
        }
    }
    return tail;
}

/* Criterion (b) of the tavern step, checked where it can change: every
 * mine next to one of the four new taverns keeps an Air neighbour. */
static int mines_still_open(const uint8_t *tile, int n, const int *cells)
{
    for (int i = 0; i < 4; i++) {
        int x = cells[i] / n, y = cells[i] % n;
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int a = x + vd_dx[d], b = y + vd_dy[d];
            if (a < 0 || b < 0 || a >= n || b >= n ||
                !vd_is_mine(tile[a * n + b]))
                continue;
            int open = 0;
            for (int e = VD_NORTH; e <= VD_WEST; e++) {
                int p = a + vd_dx[e], q = b + vd_dy[e];
                if (p >= 0 && q >= 0 && p < n && q < n &&
                    tile[p * n + q] == VD_AIR)
                    open = 1;
            }
            if (!open)
                return 0;
        }
    }
    return 1;
}

/* A fast sufficient test for criterion (a): the four cells are far apart
 * and around each of them its Air 4-neighbours stay joined through the
 * ring of its 8 surrounding cells, so removing them cannot cut the
 * region. When this fails, the caller floods to decide exactly. */
static int locally_removable(const uint8_t *tile, int n, const int *cells)
{
    static const int rx[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
    static const int ry[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++) {
            int dx = cells[i] / n - cells[j] / n, dy = cells[i] % n -
                                                       cells[j] % n;
            if (dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2)
                return 0;
        }
    for (int i = 0; i < 4; i++) {
        int x = cells[i] / n, y = cells[i] % n, air[8];
        for (int r = 0; r < 8; r++) {
            int a = x + rx[r], b = y + ry[r];
            air[r] = a >= 0 && b >= 0 && a < n && b < n &&
                     tile[a * n + b] == VD_AIR;
        }
        /* runs of Air around the ring that hold a 4-neighbour */
        int start = -1;
        for (int r = 0; r < 8; r++)
            if (!air[r])
                start = r;
        if (start < 0)
            continue;   /* all Air around: fine */
        int runs = 0, in = 0, has4 = 0;
        for (int t = 1; t <= 8; t++) {
            int r = (start + t) % 8;
            if (air[r]) {
                in = 1;
                has4 |= r % 2 == 0;
            } else if (in) {
                runs += has4;
                in = has4 = 0;
            }
        }
        if (runs > 1)
            return 0;
    }
    return 1;
}

static int attempt(Vd *v, Rng *r, int n, int wall_pct, int mine_pct)
{
    uint8_t *tile = v->tile;
    uint8_t mark[VD_CELLS], mark2[VD_CELLS];
    int16_t queue[VD_CELLS];
    int half = n / 2, m = n - 1;
    memset(tile, 0, sizeof v->tile);
    /* 1. quadrant and mirror */
    for (int x = 0; x < half; x++)
        for (int y = 0; y < half; y++) {
            int k = (int)rng_below(r, 100);
            int t = k < mine_pct ? VD_MINE
                  : k < mine_pct + wall_pct ? VD_WALL : VD_AIR;
            tile[x * n + y] = tile[x * n + (m - y)] =
                tile[(m - x) * n + y] = tile[(m - x) * n + (m - y)] =
                    (uint8_t)t;
        }
    /* 2. spawn: label the Air components once, then a try is valid when
     * the mirrored spawns share its component */
    int16_t comp[VD_CELLS];
    memset(comp, 0, sizeof comp);
    int ncomp = 0;
    for (int c = 0; c < n * n; c++) {
        if (tile[c] != VD_AIR || comp[c])
            continue;
        ncomp++;
        int head = 0, tail = 0;
        comp[c] = (int16_t)ncomp;
        queue[tail++] = (int16_t)c;
        while (head < tail) {
            int q = queue[head++], x = q / n, y = q % n;
            for (int d = VD_NORTH; d <= VD_WEST; d++) {
                int a = x + vd_dx[d], b = y + vd_dy[d];
                if (a < 0 || b < 0 || a >= n || b >= n)
                    continue;
                int kk = a * n + b;
                if (comp[kk] || tile[kk] != VD_AIR)
                    continue;
                comp[kk] = (int16_t)ncomp;
                queue[tail++] = (int16_t)kk;
            }
        }
    }
    int sx = -1, sy = -1;
    for (int i = 0; i < MAX_SPAWN_TRIES; i++) {
        int x = (int)rng_below(r, (uint32_t)(half - 2));
        int y = (int)rng_below(r, (uint32_t)(half - 2));
        int l = comp[x * n + y];
        if (tile[x * n + y] == VD_AIR && comp[(m - x) * n + y] == l &&
            comp[x * n + (m - y)] == l) {
            sx = x;
            sy = y;
            break;
        }
    }
    if (sx < 0)
        return -1;
    for (int c = 0; c < n * n; c++)
        mark[c] = comp[c] == comp[sx * n + sy];
    int spawn = sx * n + sy;
    /* 3. wall up what the spawn cannot reach (mark[] is its region),
     * keeping mines next to the region */
    for (int c = 0; c < n * n; c++) {
        if (mark[c])
            continue;
        if (tile[c] >= VD_MINE) {
            int x = c / n, y = c % n, keep = 0;
            for (int d = VD_NORTH; d <= VD_WEST; d++) {
                int a = x + vd_dx[d], b = y + vd_dy[d];
                if (a >= 0 && b >= 0 && a < n && b < n && mark[a * n + b])
                    keep = 1;
            }
            if (keep)
                continue;
        }
        tile[c] = VD_WALL;
    }
    int mines = 0;
    for (int c = 0; c < n * n; c++)
        mines += tile[c] >= VD_MINE;
    if (mines == 0 || mines > VD_MAX_MINES)
        return -1;
    /* after the fill every Air cell is in the spawn's region */
    int region = 0;
    for (int c = 0; c < n * n; c++)
        region += tile[c] == VD_AIR;
    /* 4. taverns: candidates in the top-left floor(n/sqrt 2) square, in
     * random order (the reference BFS on a mis-shaped board amounts to
     * that), first acceptable wins */
    int k = 0;
    while (2 * (k + 1) * (k + 1) <= n * n)
        k++;
    int16_t cand[VD_CELLS];
    int nc = 0;
    for (int x = 0; x < k; x++)
        for (int y = 0; y < k; y++)
            cand[nc++] = (int16_t)(x * n + y);
    for (int i = 0; i < nc; i++) {
        /* Fisher-Yates drawn lazily: usually an early candidate wins */
        int j = i + (int)rng_below(r, (uint32_t)(nc - i));
        int16_t t = cand[i];
        cand[i] = cand[j];
        cand[j] = t;
        int x = cand[i] / n, y = cand[i] % n;
        int cells[4] = {x * n + y, (m - x) * n + y, (m - x) * n + (m - y),
                        x * n + (m - y)};
        int ok = 1;
        for (int a = 0; a < 4 && ok; a++) {
            if (tile[cells[a]] != VD_AIR || cells[a] == spawn)
                ok = 0;
            for (int b = 0; b < a; b++)
                if (cells[a] == cells[b])
                    ok = 0;
        }
        if (!ok)
            continue;
        for (int a = 0; a < 4; a++)
            tile[cells[a]] = VD_TAVERN;
        if (mines_still_open(tile, n, cells) &&
            (locally_removable(tile, n, cells) ||
             flood(tile, n, spawn, mark2, queue) == region - 4)) {
            /* 5. heroes: 1 at the spawn, 2 mirrorX, 3 mirrorXY, 4 mirrorY */
            const int hx[4] = {sx, m - sx, m - sx, sx};
            const int hy[4] = {sy, sy, m - sy, m - sy};
            for (int h = 0; h < VD_HEROES; h++) {
                VdHero *e = &v->hero[h];
                memset(e, 0, sizeof *e);
                e->x = e->sx = (uint8_t)hx[h];
                e->y = e->sy = (uint8_t)hy[h];
                e->life = VD_MAX_LIFE;
            }
            return 0;
        }
        for (int a = 0; a < 4; a++)
            tile[cells[a]] = VD_AIR;
    }
    return -1;
}

int vd_generate_with(Vd *v, uint64_t seed, int size, int wall_pct,
                     int mine_pct, PlyError *err)
{
    if (size < 8 || size > VD_MAX || size % 2)
        return ply_fail(err, "vindinium generator: size %d (even, 8..%d)",
                        size, VD_MAX);
    if (wall_pct < 0 || mine_pct < 0 || wall_pct + mine_pct > 100)
        return ply_fail(err, "vindinium generator: bad densities");
    Rng r;
    rng_seed(&r, seed);
    memset(v, 0, sizeof *v);
    v->size = (uint8_t)size;
    for (int i = 0; i < MAX_ATTEMPTS; i++)
        if (attempt(v, &r, size, wall_pct, mine_pct) == 0) {
            vd_refresh(v);
            return 0;
        }
    return ply_fail(err, "vindinium generator: no valid map in %d attempts "
                    "(size %d, walls %d%%, mines %d%%)", MAX_ATTEMPTS, size,
                    wall_pct, mine_pct);
}

int vd_generate(Vd *v, uint64_t seed, PlyError *err)
{
    /* Config.random: size 10..28 even, walls 10..41 %, mines 3..9 % */
    Rng r;
    rng_seed(&r, seed ^ 0x76646d6170ull);
    int size = 10 + 2 * (int)rng_below(&r, 10);
    int wall = 10 + (int)rng_below(&r, 32);
    int mine = 3 + (int)rng_below(&r, 7);
    uint64_t s2 = rng_next(&r);
    /* A config whose 100 attempts all fail (rare: dense walls) would be
     * an HTTP 400 on the reference server; draw another config. */
    for (int i = 0; i < 16; i++) {
        if (vd_generate_with(v, s2, size, wall, mine, NULL) == 0)
            return 0;
        size = 10 + 2 * (int)rng_below(&r, 10);
        wall = 10 + (int)rng_below(&r, 32);
        mine = 3 + (int)rng_below(&r, 7);
        s2 = rng_next(&r);
    }
    return ply_fail(err, "vindinium generator: no valid map");
}
