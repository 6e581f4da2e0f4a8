/* game.c — Vindinium rules (Arbiter.doMove of the reference server, in its
 * exact order of events), setup strings, notation and the game's vtable.
 * See shared/rules/vindinium.md; section numbers below refer to it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/layout.h"
#include "../../core/util.h"
#include "vindinium.h"

/* ---- mine ownership, kept with counts and a Zobrist hash ---- */

static uint64_t own_key(int cell, int owner)
{
    return ply_mix64(((uint64_t)cell << 3 | (uint64_t)owner) ^
                     0x76696e64696e69ull);
}

static void set_owner(Vd *v, int cell, int owner)
{
    int old = vd_mine_owner(v->tile[cell]);
    if (old == owner)
        return;
    if (old >= 0) {
        v->owned[old]--;
        v->own_hash ^= own_key(cell, old);
    }
    if (owner >= 0) {
        v->owned[owner]++;
        v->own_hash ^= own_key(cell, owner);
    }
    v->tile[cell] = (uint8_t)(VD_MINE + 1 + owner);
}

/* All of from's mines go to `to` (-1: neutral). */
static void transfer_all(Vd *v, int from, int to)
{
    if (!v->owned[from])
        return;
    for (int i = 0; i < v->mine_count; i++) {
        int c = v->mine_cell[i];
        if (vd_mine_owner(v->tile[c]) == from)
            set_owner(v, c, to);
    }
}

void vd_refresh(Vd *v)
{
    int n = v->size;
    v->mine_count = 0;
    memset(v->owned, 0, sizeof v->owned);
    v->own_hash = 0;
    uint64_t mh = ply_mix64(0x6d6170ull + (uint64_t)n);
    for (int c = 0; c < n * n; c++) {
        int t = v->tile[c];
        if (vd_is_mine(t)) {
            if (v->mine_count < VD_MAX_MINES)
                v->mine_cell[v->mine_count++] = (uint16_t)c;
            int o = vd_mine_owner(t);
            if (o >= 0) {
                v->owned[o]++;
                v->own_hash ^= own_key(c, o);
            }
            t = VD_MINE;
        }
        mh = (mh ^ (uint64_t)t) * 0x100000001b3ull;
    }
    for (int h = 0; h < VD_HEROES; h++)
        mh = (mh ^ ((uint64_t)v->hero[h].sx << 8 | v->hero[h].sy)) *
             0x100000001b3ull;
    v->map_hash = ply_mix64(mh);
}

uint64_t vd_hash(const Vd *v)
{
    uint64_t h = v->map_hash ^ v->own_hash;
    for (int i = 0; i < VD_HEROES; i++) {
        const VdHero *e = &v->hero[i];
        h = ply_mix64(h ^ ((uint64_t)e->x | (uint64_t)e->y << 8 |
                           (uint64_t)(uint16_t)e->life << 16 |
                           (uint64_t)e->last_dir << 32 |
                           (uint64_t)e->crashed << 40 |
                           (uint64_t)i << 48));
        h ^= ply_mix64((uint64_t)(uint32_t)e->gold + ((uint64_t)i << 56));
    }
    return ply_mix64(h ^ (uint64_t)(uint32_t)v->turn ^
                     (uint64_t)v->finished << 36 ^
                     (uint64_t)v->training << 37 ^
                     (uint64_t)(uint32_t)v->max_turns << 40);
}

/* ---- move resolution (§5, §6) ---- */

/* reSpawn: back to the spawn point at full life; another hero standing
 * there is telefragged (its mines go to h) and respawns in turn. The
 * depth guard only matters for odd literal maps whose mirrored spawns
 * coincide (the reference server would recurse forever there). */
static void respawn(Vd *v, int h, uint8_t *respawned, int depth)
{
    VdHero *e = &v->hero[h];
    int other = -1;
    for (int o = 0; o < VD_HEROES; o++)
        if (o != h && v->hero[o].x == e->sx && v->hero[o].y == e->sy)
            other = o;
    e->x = e->sx;
    e->y = e->sy;
    e->life = VD_MAX_LIFE;
    respawned[h] = 1;
    if (other >= 0 && depth < VD_HEROES) {
        transfer_all(v, other, h);
        respawn(v, other, respawned, depth + 1);
    }
}

/* Thirst (never below 1) and income from the mines owned now. */
static void finalize(Vd *v, int h)
{
    VdHero *e = &v->hero[h];
    e->life = (int16_t)(e->life - 1 < 1 ? 1 : e->life - 1);
    e->gold += v->owned[h];
}

static void step(Vd *v)
{
    if (v->finished)
        return;
    v->turn++;
    if (v->turn >= v->max_turns)
        v->finished = 1;
}

void vd_apply(Vd *v, int m)
{
    if (v->finished)
        return;
    int h = v->turn % VD_HEROES;
    VdHero *e = &v->hero[h];
    if (m == VD_CRASH) {
        /* §7: timed out; in training that ends the game, in the arena
         * only when all four have crashed; finished games don't step. */
        e->crashed = 1;
        int all = 1;
        for (int i = 0; i < VD_HEROES; i++)
            all &= v->hero[i].crashed;
        if ((v->training && h == 0) || all)
            v->finished = 1;
        finalize(v, h);
        step(v);
        return;
    }
    uint8_t respawned[VD_HEROES] = {0};
    e->last_dir = (uint8_t)(1 + m);
    int n = v->size;
    int x = e->x + vd_dx[m], y = e->y + vd_dy[m];
    if (x >= 0 && y >= 0 && x < n && y < n && vd_hero_at(v, x, y) < 0) {
        int c = vd_cell(v, x, y), t = v->tile[c];
        if (t == VD_AIR) {
            e->x = (uint8_t)x;
            e->y = (uint8_t)y;
        } else if (t == VD_TAVERN) {
            if (e->gold >= VD_BEER_GOLD) {
                e->gold -= VD_BEER_GOLD;
                e->life = (int16_t)(e->life + VD_BEER_LIFE > VD_MAX_LIFE
                                    ? VD_MAX_LIFE : e->life + VD_BEER_LIFE);
            }
        } else if (vd_is_mine(t) && vd_mine_owner(t) != h) {
            e->life = (int16_t)(e->life > VD_MINE_LIFE
                                ? e->life - VD_MINE_LIFE : 0);
            if (e->life > 0) {
                set_owner(v, c, h);
            } else {
                transfer_all(v, h, -1);
                respawn(v, h, respawned, 0);
            }
        }
    }
    if (!respawned[h]) {
        int foes[4], nf = 0;
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int o = vd_hero_at(v, e->x + vd_dx[d], e->y + vd_dy[d]);
            if (o >= 0 && o != h)
                foes[nf++] = o;
        }
        for (int i = 0; i < nf && !respawned[h]; i++) {
            VdHero *f = &v->hero[foes[i]];
            if (respawned[foes[i]])
                continue;
            f->life = (int16_t)(f->life > VD_DEFEND_LIFE
                                ? f->life - VD_DEFEND_LIFE : 0);
            if (f->life == 0) {
                transfer_all(v, foes[i], h);
                respawn(v, foes[i], respawned, 0);
            }
        }
    }
    finalize(v, h);
    step(v);
}

void vd_returns(const Vd *v, double *out)
{
    for (int p = 0; p < VD_HEROES; p++) {
        double s = 0;
        for (int o = 0; o < VD_HEROES; o++)
            if (o != p)
                s += v->hero[p].gold > v->hero[o].gold ? 1.0
                   : v->hero[p].gold == v->hero[o].gold ? 0.5 : 0.0;
        out[p] = s / 1.5 - 1.0;
    }
}

/* ---- options and vtable hooks ---- */

static const char *const map_choices[] = {"random", "m1", "m2", "m3", "m4",
                                          "m5", "m6", NULL};

static const GameOption vd_options[] = {
    {.key = "turns", .type = OPT_INT, .def = 1200, .min = 1,
     .max = VD_MAX_TURNS, .help =
     "game length in hero moves, all heroes together (the API's turns "
     "parameter times 4)"},
    {.key = "map", .type = OPT_CHOICE, .choices = map_choices, .help =
     "random: the reference generator seeded from the game seed; m1..m6: "
     "the fixed maps of the reference server"},
    {.key = NULL},
};

static int vd_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    Vd *v = st;
    memset(v, 0, sizeof *v);
    int r = opt[1] == 0 ? vd_generate(v, seed, err)
                        : vd_load_fixed(v, opt[1] - 1, err);
    if (r)
        return r;
    v->turn = 0;
    v->max_turns = opt[0];
    v->finished = 0;
    v->training = 0;
    return 0;
}

static int vd_to_move_hook(const void *st)
{
    int p = vd_to_move(st);
    return p < 0 ? PLAYER_TERMINAL : p;
}

static int vd_gen_moves(const void *st, Move *out)
{
    const Vd *v = st;
    if (v->finished)
        return 0;
    if (v->hero[v->turn % VD_HEROES].crashed) {
        out[0] = VD_STAY;   /* crashed heroes keep playing Stay (§7) */
        return 1;
    }
    for (int m = VD_STAY; m <= VD_WEST; m++)
        out[m] = (Move)m;
    return 5;
}

static void vd_make(void *st, Move m)
{
    vd_apply(st, (int)m);
}

static void vd_returns_hook(const void *st, double *out)
{
    vd_returns(st, out);
}

static uint64_t vd_hash_hook(const void *st)
{
    return vd_hash(st);
}

/* ---- setup strings ----
 * ROWS:HEROES:TURN/MAXTURNS/FLAGS
 * ROWS: size rows of size cells joined by '/': '.' air, '#' wall,
 *   'T' tavern, '$' neutral mine, '1'..'4' mine of hero 1..4.
 * HEROES: four "x,y,life,gold,sx,sy,D,C" joined by ';' (x = row; sx,sy
 *   the respawn point; D the last direction: - none, N E S W, or . for
 *   Stay; C 1 when crashed).
 * FLAGS: '-' or letters: t training (hero 1's crash ends the game),
 *   f finished. */

static const char dir_chars[] = "-.NESW";

static char *put_int(char *p, long x)
{
    char tmp[24];
    int n = 0;
    unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
    if (x < 0)
        *p++ = '-';
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static int vd_to_text(const void *st, char *buf, size_t n)
{
    const Vd *v = st;
    int s = v->size;
    size_t need = (size_t)s * (size_t)(s + 1) + 4 * 64 + 64;
    if (n < need)
        return -1;
    static const char tc[] = ".#T$1234";
    char *p = buf;
    for (int x = 0; x < s; x++) {
        if (x)
            *p++ = '/';
        for (int y = 0; y < s; y++)
            *p++ = tc[v->tile[x * s + y]];
    }
    *p++ = ':';
    for (int h = 0; h < VD_HEROES; h++) {
        const VdHero *e = &v->hero[h];
        if (h)
            *p++ = ';';
        p = put_int(p, e->x);
        *p++ = ',';
        p = put_int(p, e->y);
        *p++ = ',';
        p = put_int(p, e->life);
        *p++ = ',';
        p = put_int(p, e->gold);
        *p++ = ',';
        p = put_int(p, e->sx);
        *p++ = ',';
        p = put_int(p, e->sy);
        *p++ = ',';
        *p++ = dir_chars[e->last_dir];
        *p++ = ',';
        *p++ = e->crashed ? '1' : '0';
    }
    *p++ = ':';
    p = put_int(p, v->turn);
    *p++ = '/';
    p = put_int(p, v->max_turns);
    *p++ = '/';
    if (!v->training && !v->finished)
        *p++ = '-';
    if (v->training)
        *p++ = 't';
    if (v->finished)
        *p++ = 'f';
    *p = 0;
    return (int)(p - buf);
}

/* Reads a decimal integer in [lo, hi] at *s. */
static int get_int(const char **s, long lo, long hi, long *out)
{
    const char *p = *s;
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (!isdigit((unsigned char)*p))
        return -1;
    long x = 0;
    while (isdigit((unsigned char)*p)) {
        x = x * 10 + (*p++ - '0');
        if (x > 1000000000L)
            return -1;
    }
    if (neg)
        x = -x;
    if (x < lo || x > hi)
        return -1;
    *out = x;
    *s = p;
    return 0;
}

/* 1 + tile code of a setup-string cell character, 0 if none. */
static const uint8_t cell_code[256] = {
    ['.'] = 1, ['#'] = 2, ['T'] = 3, ['$'] = 4,
    ['1'] = 5, ['2'] = 6, ['3'] = 7, ['4'] = 8,
};

static int vd_from_text(void *st, const char *s, PlyError *err)
{
    Vd *v = st;
    Vd *t = calloc(1, sizeof *t);
    if (!t)
        return ply_fail(err, "out of memory");
    int size = 0, row = 0, col = 0;
    const char *p = s;
    /* the first row fixes the size */
    while (p[size] && p[size] != '/' && p[size] != ':')
        size++;
    if (size < 2 || size > VD_MAX) {
        free(t);
        return ply_fail(err, "vindinium setup: the first row has %d cells "
                        "(2..%d)", size, VD_MAX);
    }
    t->size = (uint8_t)size;
    for (;; p++) {
        char c = *p;
        if (c == '/' || c == ':') {
            if (col != size) {
                free(t);
                return ply_fail(err, "vindinium setup: row %d has %d cells, "
                                "not %d", row + 1, col, size);
            }
            row++;
            col = 0;
            if (c == ':')
                break;
            if (row >= size) {
                free(t);
                return ply_fail(err, "vindinium setup: more than %d rows",
                                size);
            }
            continue;
        }
        int k = cell_code[(unsigned char)c];
        if (!k) {
            free(t);
            return ply_fail(err, "vindinium setup: bad cell '%c' in row %d "
                            "(one of . # T $ 1 2 3 4)", c ? c : '?',
                            row + 1);
        }
        if (col >= size) {
            free(t);
            return ply_fail(err, "vindinium setup: row %d is longer than %d",
                            row + 1, size);
        }
        t->tile[row * size + col++] = (uint8_t)(k - 1);
    }
    if (row != size) {
        free(t);
        return ply_fail(err, "vindinium setup: %d rows, not %d", row, size);
    }
    p++;
    for (int h = 0; h < VD_HEROES; h++) {
        VdHero *e = &t->hero[h];
        long f[6];
        static const long lo[6] = {0, 0, 1, 0, 0, 0};
        long hi[6] = {size - 1, size - 1, VD_MAX_LIFE, 100000000L,
                      size - 1, size - 1};
        for (int i = 0; i < 6; i++) {
            if (get_int(&p, lo[i], hi[i], &f[i]) || *p != ',') {
                free(t);
                return ply_fail(err, "vindinium setup: hero %d field %d is "
                                "missing or out of range %ld..%ld", h + 1,
                                i + 1, lo[i], hi[i]);
            }
            p++;
        }
        const char *d = *p ? strchr(dir_chars, *p) : NULL;
        if (!d || p[1] != ',' || (p[2] != '0' && p[2] != '1')) {
            free(t);
            return ply_fail(err, "vindinium setup: hero %d needs a last "
                            "direction (- . N E S W) and a crash flag 0/1",
                            h + 1);
        }
        e->x = (uint8_t)f[0];
        e->y = (uint8_t)f[1];
        e->life = (int16_t)f[2];
        e->gold = (int32_t)f[3];
        e->sx = (uint8_t)f[4];
        e->sy = (uint8_t)f[5];
        e->last_dir = (uint8_t)(d - dir_chars);
        e->crashed = (uint8_t)(p[2] - '0');
        p += 3;
        if (*p != (h < VD_HEROES - 1 ? ';' : ':')) {
            free(t);
            return ply_fail(err, "vindinium setup: expected '%c' after hero "
                            "%d", h < VD_HEROES - 1 ? ';' : ':', h + 1);
        }
        p++;
    }
    long turn, maxt;
    if (get_int(&p, 0, VD_MAX_TURNS, &turn) || *p++ != '/' ||
        get_int(&p, -VD_MAX_TURNS, VD_MAX_TURNS, &maxt) || *p++ != '/') {
        free(t);
        return ply_fail(err, "vindinium setup: expected TURN/MAXTURNS/FLAGS "
                        "(0..%d)", VD_MAX_TURNS);
    }
    t->turn = (int32_t)turn;
    t->max_turns = (int32_t)maxt;
    if (!strcmp(p, "-")) {
        p++;
    } else {
        if (*p == 't') {
            t->training = 1;
            p++;
        }
        if (*p == 'f') {
            t->finished = 1;
            p++;
        }
        if (!t->training && !t->finished) {
            free(t);
            return ply_fail(err, "vindinium setup: flags are '-' or t, f, tf");
        }
    }
    if (*p) {
        free(t);
        return ply_fail(err, "vindinium setup: unexpected text at the end: "
                        "'%.10s'", p);
    }
    int mines = 0;
    for (int c = 0; c < size * size; c++)
        mines += vd_is_mine(t->tile[c]);
    if (mines > VD_MAX_MINES) {
        free(t);
        return ply_fail(err, "vindinium setup: %d mines (at most %d)", mines,
                        VD_MAX_MINES);
    }
    if (t->turn > 0 && t->turn >= t->max_turns)
        t->finished = 1;
    vd_refresh(t);
    memcpy(v, t, sizeof *t);
    free(t);
    return 0;
}

static const char *const move_names[] = {"Stay", "North", "East", "South",
                                         "West"};

static int vd_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    if (m > VD_WEST)
        return -1;
    int w = snprintf(buf, n, "%s", move_names[m]);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int vd_text_to_move(const void *st, const char *s, Move *m,
                           PlyError *err)
{
    const Vd *v = st;
    if (v->finished)
        return ply_fail(err, "the game is over");
    static const char *const shorts[] = {"x", "n", "e", "s", "w"};
    for (int i = 0; i <= VD_WEST; i++)
        if (!strcasecmp(s, move_names[i]) || !strcasecmp(s, shorts[i])) {
            if (i != VD_STAY && v->hero[v->turn % VD_HEROES].crashed)
                return ply_fail(err, "hero %d has crashed and can only Stay",
                                v->turn % VD_HEROES + 1);
            *m = (Move)i;
            return 0;
        }
    return ply_fail(err, "a vindinium move is North, East, South, West or "
                    "Stay (or n, e, s, w, x), not '%s'", s);
}

void vd_tiles_string(const Vd *v, char *buf)
{
    int n = v->size;
    char *p = buf;
    for (int c = 0; c < n * n; c++) {
        int h = vd_hero_at(v, c / n, c % n);
        int t = v->tile[c];
        if (h >= 0) {
            *p++ = '@';
            *p++ = (char)('1' + h);
        } else if (t == VD_AIR) {
            *p++ = ' ';
            *p++ = ' ';
        } else if (t == VD_WALL) {
            *p++ = '#';
            *p++ = '#';
        } else if (t == VD_TAVERN) {
            *p++ = '[';
            *p++ = ']';
        } else {
            *p++ = '$';
            *p++ = t == VD_MINE ? '-' : (char)('0' + vd_mine_owner(t) + 1);
        }
    }
    *p = 0;
}

/* The map for drawing (a viewer: moves are directions, no cell names):
 * row x, column y as the official tiles string; heroes carry their life
 * and gold. */
static int vd_layout(const void *st, Layout *l)
{
    const Vd *v = st;
    int s = v->size;
    if (s * s > LAYOUT_MAX_CELLS)
        return -1;
    char *tiles = malloc((size_t)(2 * s * s + 1));
    if (!tiles)
        return -1;
    vd_tiles_string(v, tiles);
    l->width = l->height = (float)s;
    for (int x = 0; x < s; x++)
        for (int y = 0; y < s; y++) {
            const char *t = tiles + 2 * (s * x + y);
            int shade = t[0] == '#' ? SHADE_WALL : t[0] == '[' ? SHADE_TAVERN
                        : t[0] == '$' ? SHADE_MINE : SHADE_LIGHT;
            LayoutCell *c = layout_cell(l, (float)y + 0.5f, (float)x + 0.5f,
                                        CELL_TILE, shade, NULL);
            if (!c)
                continue;
            if (t[0] == '$' && t[1] >= '1' && t[1] <= '4') {
                snprintf(c->glyph, sizeof c->glyph, "$");
                c->owner = (int8_t)(t[1] - '1');
            } else if (t[0] == '@' && t[1] >= '1' && t[1] <= '4') {
                int h = t[1] - '1';
                snprintf(c->glyph, sizeof c->glyph, "@%d", h + 1);
                c->owner = (int8_t)h;
                snprintf(c->label, sizeof c->label, "%dhp %dg",
                         v->hero[h].life, (int)v->hero[h].gold);
            }
        }
    free(tiles);
    return 0;
}

static int vd_render(const void *st, char *buf, size_t n)
{
    const Vd *v = st;
    int s = v->size;
    size_t len = 0;
    char *tiles = malloc((size_t)(2 * s * s + 1));
    if (!tiles)
        return -1;
    vd_tiles_string(v, tiles);
    int bad = ply_append(buf, n, &len, "turn %d/%d%s\n", v->turn,
                         v->max_turns, v->finished ? " (finished)" : "");
    for (int x = 0; x < s && !bad; x++)
        bad = ply_append(buf, n, &len, "  %.*s\n", 2 * s,
                         tiles + 2 * s * x);
    for (int h = 0; h < VD_HEROES && !bad; h++) {
        const VdHero *e = &v->hero[h];
        bad = ply_append(buf, n, &len,
                         "@%d at (%d,%d) life %3d gold %5d mines %3d spawn "
                         "(%d,%d)%s\n",
                         h + 1, e->x, e->y, e->life, e->gold, v->owned[h],
                         e->sx, e->sy, e->crashed ? " crashed" : "");
    }
    free(tiles);
    if (bad)
        return -1;
    return (int)len;
}

/* ---- evaluation hooks ---- */

/* Own moves hero p still has from turn t on. */
static int moves_left(const Vd *v, int p)
{
    if (v->finished)
        return 0;
    int first = v->turn + ((p - v->turn % VD_HEROES) + VD_HEROES) % VD_HEROES;
    return first >= v->max_turns ? 0 : (v->max_turns - 1 - first) / 4 + 1;
}

/* Projected final gold if every hero kept its mines. */
static int projected(const Vd *v, int p)
{
    return v->hero[p].gold + v->owned[p] * moves_left(v, p);
}

static int vd_eval(const void *st, int player)
{
    const Vd *v = st;
    int me = projected(v, player), best = -(1 << 30), sum = 0;
    for (int o = 0; o < VD_HEROES; o++)
        if (o != player) {
            int q = projected(v, o);
            sum += q;
            if (q > best)
                best = q;
        }
    long e = 8L * (me - best) + 2L * (3L * me - sum) / 3 +
             v->hero[player].life / 5;
    if (e > EVAL_MAX - 1)
        e = EVAL_MAX - 1;
    if (e < -(EVAL_MAX - 1))
        e = -(EVAL_MAX - 1);
    return (int)e;
}

/* Local move ordering: take mines when healthy, drink when low, avoid
 * suicide on mines and moves into walls. */
static int vd_heuristic(const void *st, Move m)
{
    const Vd *v = st;
    int h = v->turn % VD_HEROES;
    const VdHero *e = &v->hero[h];
    if (m == VD_STAY)
        return 5;
    int x = e->x + vd_dx[m], y = e->y + vd_dy[m], n = v->size;
    if (x < 0 || y < 0 || x >= n || y >= n)
        return -10;
    if (vd_hero_at(v, x, y) >= 0)
        return 20;
    int t = v->tile[vd_cell(v, x, y)];
    if (t == VD_WALL)
        return -10;
    if (t == VD_TAVERN)
        return e->gold >= VD_BEER_GOLD && e->life <= 60 ? 90 : -5;
    if (vd_is_mine(t))
        return vd_mine_owner(t) == h ? -5 : e->life > VD_MINE_LIFE ? 100
                                                                   : -50;
    return 10;
}

static int vd_score(const void *st, int player)
{
    const Vd *v = st;
    return v->hero[player].gold;
}

static int vd_check(const void *st)
{
    const Vd *v = st;
    if (v->size < 2 || v->size > VD_MAX)
        return -1;
    uint16_t owned[VD_HEROES] = {0};
    for (int c = 0; c < v->size * v->size; c++) {
        if (v->tile[c] > VD_MINE + VD_HEROES)
            return -1;
        int o = vd_is_mine(v->tile[c]) ? vd_mine_owner(v->tile[c]) : -1;
        if (o >= 0)
            owned[o]++;
    }
    for (int h = 0; h < VD_HEROES; h++) {
        if (owned[h] != v->owned[h])
            return -1;
        if (v->hero[h].life < 1 || v->hero[h].life > VD_MAX_LIFE ||
            v->hero[h].gold < 0 || v->hero[h].x >= v->size ||
            v->hero[h].y >= v->size)
            return -1;
    }
    return 0;
}

void vd_bfs(const Vd *v, int start, int16_t *dist)
{
    int n = v->size;
    int16_t queue[VD_CELLS];
    int head = 0, tail = 0;
    for (int c = 0; c < n * n; c++)
        dist[c] = -1;
    dist[start] = 0;
    queue[tail++] = (int16_t)start;
    while (head < tail) {
        int c = queue[head++], x = c / n, y = c % n;
        if (c != start && v->tile[c] != VD_AIR)
            continue;   /* mines and taverns are reached, not crossed */
        for (int d = VD_NORTH; d <= VD_WEST; d++) {
            int a = x + vd_dx[d], b = y + vd_dy[d];
            if (a < 0 || b < 0 || a >= n || b >= n)
                continue;
            int k = a * n + b;
            if (dist[k] >= 0 || v->tile[k] == VD_WALL)
                continue;
            dist[k] = (int16_t)(dist[c] + 1);
            queue[tail++] = (int16_t)k;
        }
    }
}

static const char *const vd_players[] = {"Hero1", "Hero2", "Hero3",
                                         "Hero4"};

const GameVtbl game_vindinium = {
    .info = {
        .name = "vindinium",
        .title = "Vindinium (four heroes, gold mines, taverns)",
        .num_players = 4,
        .max_moves = 5,
        .max_game_length = VD_MAX_TURNS,
        .state_size = sizeof(Vd),
        .flags = GAME_ZERO_SUM,
        .player_names = vd_players,
        .options = vd_options,
        .default_bot = "vindinium",
        .notation =
            "A move is North, East, South, West or Stay (n, e, s, w, x are\n"
            "accepted too). x is the row, y the column, as the official\n"
            "server. Setup string ROWS:HEROES:TURN/MAXTURNS/FLAGS where ROWS\n"
            "are the board rows joined by '/' ('.' air, '#' wall, 'T'\n"
            "tavern, '$' free mine, '1'..'4' mine of hero 1..4), HEROES four\n"
            "'x,y,life,gold,spawnx,spawny,D,C' joined by ';' (D: last\n"
            "direction - . N E S W, '.' = Stay; C: 1 if crashed) and FLAGS\n"
            "'-' or t (training: hero 1's crash ends the game) and/or f\n"
            "(finished).",
        .rules =
            "Vindinium, as the reference server plays it: four heroes move\n"
            "in turn (1,2,3,4,...); 'turns' counts single hero moves (1200 =\n"
            "300 each). Stepping into a mine not yours costs 20 HP and takes\n"
            "it; at 20 HP or less you die instead, your mines turn neutral\n"
            "and you respawn. A tavern gives +50 HP (max 100) for 2 gold.\n"
            "After its move a hero hits every adjacent enemy for 20 HP, in\n"
            "the order north, east, south, west; a hero brought to 0 gives\n"
            "all its mines to the attacker and respawns at its spawn point\n"
            "with 100 HP, telefragging whoever stands there (who loses its\n"
            "mines to it and respawns in turn). Heroes respawned during a\n"
            "move are not hit again in it. Then the mover loses 1 HP\n"
            "(never below 1) and earns 1 gold per mine it owns. Crashed\n"
            "(timed-out) heroes keep playing Stay. Most gold wins; equal\n"
            "gold shares the places.",
    },
    .init = vd_init,
    .to_move = vd_to_move_hook,
    .gen_moves = vd_gen_moves,
    .make = vd_make,
    .returns = vd_returns_hook,
    .hash = vd_hash_hook,
    .to_text = vd_to_text,
    .from_text = vd_from_text,
    .move_to_text = vd_move_to_text,
    .text_to_move = vd_text_to_move,
    .render = vd_render,
    .layout = vd_layout,
    .eval = vd_eval,
    .heuristic = vd_heuristic,
    .score = vd_score,
    .check = vd_check,
};
