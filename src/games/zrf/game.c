/* game.c — a ZRF file as a Ply game: the GameVtbl built at load time
 * (every variant compiled, chosen by the option variant=N, 0 = the game
 * form), setup strings, notation, the picture, a material evaluation, and
 * the table of loaded files (kept for the life of the process: a loaded
 * game is as permanent as a registered one). */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc.h"
#include "zrf.h"
#include "zrf_api.h"

enum { ZMAX_VARIANTS = 64 };

typedef struct ZLoaded {
    GameVtbl vt;
    struct ZLoaded *next;
    char path[1024];
    int nvariants;
    ZGame *var[ZMAX_VARIANTS + 1];
    PlyError verr[ZMAX_VARIANTS + 1];  /* why a variant did not load */
    GameOption opts[2];
    const char *pnames[PLY_MAX_PLAYERS];
    char title[160];
    char rules[4096];
} ZLoaded;

/* ---- hooks ---- */

/* Ply numbers the players that choose (seats); a random player's turn
 * is a chance node. */
static int z_to_move(const void *st)
{
    int p = zvm_to_move(st);
    if (p < 0)
        return p;
    int seat = ZG((const ZState *)st)->seat[p];
    return seat >= 0 ? seat : PLAYER_CHANCE;
}

/* A random player's turn: each of its legal moves equally likely. */
static int z_chance(const void *st, Move *out, double *p)
{
    const ZState *s = st;
    int n = zvm_gen(s, out, ZG(s)->max_moves);
    for (int i = 0; i < n; i++)
        p[i] = 1.0 / n;
    return n;
}

static int z_gen(const void *st, Move *out)
{
    const ZState *s = st;
    return zvm_gen(s, out, ZG(s)->max_moves);
}

static void z_make(void *st, Move m)
{
    zvm_make(st, m);
}

static void z_returns(const void *st, double *out)
{
    const ZGame *g = ZG((const ZState *)st);
    double r[PLY_MAX_PLAYERS];
    zvm_returns(st, r);
    for (int i = 0; i < g->nplayers; i++)
        if (g->seat[i] >= 0)
            out[g->seat[i]] = r[i];
}

static uint64_t z_hash(const void *st)
{
    const ZState *s = st;
    uint64_t h = s->hash;
    uint64_t x = (uint64_t)s->turn | (uint64_t)(uint16_t)s->cont_pos << 16 |
                 (uint64_t)(uint16_t)s->cont_type << 32 |
                 (uint64_t)(uint16_t)s->last_to << 48;
    x ^= (uint64_t)(uint16_t)s->last_from * 0x9e3779b97f4a7c15ULL;
    x ^= (uint64_t)s->passed << 63;
    x += 0x632be59bd9b4e019ULL;
    x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (x ^ (x >> 29)) ^ (uint64_t)s->over;
}

static int z_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)st, (void)opt, (void)seed;
    return ply_fail(err, "internal: ZRF init without a game");
}

/* Text: "turn cont_pos cont_type last_from last_to ply over r0.. [P] |
 * pos=owner.Type[.attrs] ... | owner.Type=count ..." (P: the last ply
 * was a forced pass) */
static int z_to_text(const void *st, char *buf, size_t n)
{
    const ZState *s = st;
    const ZGame *g = ZG(s);
    size_t len = 0;
#define PUT(...) \
    do { \
        int w_ = snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__); \
        if (w_ < 0) \
            return -1; \
        len += (size_t)w_; \
    } while (0)
    PUT("%d %d %d %d %d %d %d", s->turn, s->cont_pos, s->cont_type,
        s->last_from, s->last_to, s->ply, s->over);
    for (int i = 0; i < g->nplayers; i++)
        PUT(" %d", s->result[i]);
    if (s->passed)
        PUT(" P");
    PUT(" |");
    for (int p = 0; p < g->npos; p++) {
        uint16_t v = s->cells[p];
        if (!v)
            continue;
        PUT(" %s=%d.%s", g->pos_name[p], ZP_OWNER(v),
            g->type_name[ZP_TYPE(v)]);
        if (v >> 12)
            PUT(".%d", v >> 12);
    }
    PUT(" |");
    for (int i = 0; i < g->nplayers * g->ntypes; i++)
        if (ZS_RESERVE(s)[i])
            PUT(" %d.%s=%d", i / g->ntypes, g->type_name[i % g->ntypes],
                ZS_RESERVE(s)[i]);
#undef PUT
    return len < n ? (int)len : -1;
}

static int find_type_name(const ZGame *g, const char *s, size_t l)
{
    for (int t = 0; t < g->ntypes; t++)
        if (strlen(g->type_name[t]) == l &&
            !strncasecmp(g->type_name[t], s, l))
            return t;
    return -1;
}

static int z_from_text(void *st, const char *text, PlyError *err)
{
    ZState *s = st;
    const ZGame *g = ZG(s);
    ZState *t = calloc(1, g->state_size);
    if (!t)
        return ply_fail(err, "out of memory");
    zvm_init_state(g, t);
    memset(t->cells, 0, sizeof *t->cells *
           ((size_t)g->npos + (size_t)g->nplayers * (size_t)g->ntypes));
    int v[7], off = 0;
    if (sscanf(text, "%d %d %d %d %d %d %d%n", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &off) != 7) {
        free(t);
        return ply_fail(err, "setup: expected 7 numbers first");
    }
    if (v[0] < 0 || v[0] >= g->nturns || v[1] < -1 || v[1] >= g->npos ||
        v[2] < -1 || v[2] >= g->nmtypes || v[3] < -1 || v[3] >= g->npos ||
        v[4] < -1 || v[4] >= g->npos || v[5] < 0 || v[5] > ZMAX_GAME ||
        v[6] < 0 || v[6] > 1) {
        free(t);
        return ply_fail(err, "setup: a number out of range");
    }
    t->turn = (uint16_t)v[0];
    t->cont_pos = (int16_t)v[1];
    t->cont_type = (int16_t)v[2];
    t->last_from = (int16_t)v[3];
    t->last_to = (int16_t)v[4];
    t->ply = v[5];
    t->over = (int8_t)v[6];
    const char *p = text + off;
    for (int i = 0; i < g->nplayers; i++) {
        int r, o2;
        if (sscanf(p, "%d%n", &r, &o2) != 1 || r < -1 || r > 1) {
            free(t);
            return ply_fail(err, "setup: bad result");
        }
        t->result[i] = (int8_t)r;
        p += o2;
    }
    while (*p == ' ')
        p++;
    if (*p == 'P') {
        /* the last ply was a forced pass ("pass turn" forced) */
        t->passed = 1;
        p++;
        while (*p == ' ')
            p++;
    }
    if (*p != '|') {
        free(t);
        return ply_fail(err, "setup: expected '|' before the cells");
    }
    p++;
    for (int part = 0; part < 2; part++) {
        for (;;) {
            while (*p == ' ')
                p++;
            if (!*p || *p == '|')
                break;
            size_t l = strcspn(p, " |");
            char tok[96];
            if (l >= sizeof tok) {
                free(t);
                return ply_fail(err, "setup: token too long");
            }
            memcpy(tok, p, l);
            tok[l] = 0;
            p += l;
            char *eq = strchr(tok, '=');
            if (!eq) {
                free(t);
                return ply_fail(err, "setup: bad item '%s'", tok);
            }
            *eq = 0;
            if (part == 0) {
                int pos = -1;
                for (int q = 0; q < g->npos; q++)
                    if (!(g->pos_case ? strcmp : strcasecmp)(g->pos_name[q],
                                                            tok))
                        pos = q;
                char *dot = strchr(eq + 1, '.');
                int owner = atoi(eq + 1);
                int ty = -1, attrs = 0;
                if (dot) {
                    char *dot2 = strchr(dot + 1, '.');
                    ty = find_type_name(g, dot + 1, dot2 ? (size_t)(dot2 -
                                        dot - 1) : strlen(dot + 1));
                    if (dot2)
                        attrs = atoi(dot2 + 1);
                }
                if (pos < 0 || ty < 0 || owner < 0 ||
                    owner >= g->nplayers || attrs < 0 || attrs > 15 ||
                    !isdigit((unsigned char)eq[1])) {
                    free(t);
                    return ply_fail(err, "setup: bad cell '%s'", tok);
                }
                t->cells[pos] = (uint16_t)(ZP_MAKE(ty, owner) | attrs << 12);
            } else {
                char *dot = strchr(tok, '.');
                int owner = atoi(tok);
                int ty = dot ? find_type_name(g, dot + 1, strlen(dot + 1))
                             : -1;
                int cnt = atoi(eq + 1);
                if (ty < 0 || owner < 0 || owner >= g->nplayers ||
                    cnt < 0 || cnt > 10000 || !isdigit((unsigned char)tok[0])) {
                    free(t);
                    return ply_fail(err, "setup: bad reserve '%s'", tok);
                }
                ZS_RESERVE(t)[owner * g->ntypes + ty] = (uint16_t)cnt;
            }
        }
        if (part == 0) {
            if (*p != '|') {
                free(t);
                return ply_fail(err, "setup: expected '|' before the "
                                "reserves");
            }
            p++;
        }
    }
    if (*p) {
        free(t);
        return ply_fail(err, "setup: trailing text");
    }
    zvm_sync(t);
    zvm_reset_history(t);
    memcpy(s, t, g->state_size);
    free(t);
    return 0;
}

static int z_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    const ZState *s = st;
    char base[128];
    int l = zvm_move_text(s, m, base, sizeof base);
    if (l < 0)
        return -1;
    /* the same text for several legal moves: number them */
    Move *mv = malloc(sizeof *mv * ZMAX_MOVES);
    if (!mv)
        return -1;
    int nm = zvm_gen(s, mv, ZG(s)->max_moves), same = 0, idx = 0;
    for (int i = 0; i < nm; i++) {
        char o[128];
        if (zvm_move_text(s, mv[i], o, sizeof o) >= 0 && !strcmp(o, base)) {
            if (mv[i] == m)
                idx = same;
            same++;
        }
    }
    free(mv);
    if (same > 1)
        return snprintf(buf, n, "%s/%d", base, idx + 1);
    return snprintf(buf, n, "%s", base);
}

static int z_text_to_move(const void *st, const char *text, Move *m,
                          PlyError *err)
{
    const ZState *s = st;
    Move *mv = malloc(sizeof *mv * ZMAX_MOVES);
    if (!mv)
        return ply_fail(err, "out of memory");
    int nm = zvm_gen(s, mv, ZG(s)->max_moves);
    for (int i = 0; i < nm; i++) {
        char o[160];
        if (z_move_to_text(s, mv[i], o, sizeof o) >= 0 &&
            !(ZG(s)->pos_case ? strcmp : strcasecmp)(o, text)) {
            *m = mv[i];
            free(mv);
            return 0;
        }
    }
    free(mv);
    return ply_fail(err, "'%s' is not a legal move here", text);
}

static int z_render(const void *st, char *buf, size_t n)
{
    const ZState *s = st;
    const ZGame *g = ZG(s);
    size_t len = 0;
    int col = 0;
    for (int p = 0; p < g->npos; p++) {
        uint16_t v = s->cells[p];
        if (!v)
            continue;
        int w = snprintf(buf + len, len < n ? n - len : 0, "%s%s:%s.%s",
                         col ? "  " : "", g->pos_name[p],
                         g->player_names[ZP_OWNER(v)],
                         g->type_name[ZP_TYPE(v)]);
        if (w < 0)
            return -1;
        len += (size_t)w;
        if (++col == 6) {
            col = 0;
            w = snprintf(buf + len, len < n ? n - len : 0, "\n");
            len += (size_t)w;
        }
    }
    int w = snprintf(buf + len, len < n ? n - len : 0, "%s%s to move\n",
                     col ? "\n" : "", s->over ? "nobody" :
                     g->player_names[g->turns[s->turn].player]);
    len += (size_t)w;
    return len < n ? (int)len : -1;
}

static int z_eval(const void *st, int seat)
{
    const ZState *s = st;
    const ZGame *g = ZG(s);
    int player = g->zplayer[seat], sc = 0;
    for (int p = 0; p < g->npos; p++) {
        uint16_t v = s->cells[p];
        if (v)
            sc += ZP_OWNER(v) == player ? g->type_value[ZP_TYPE(v)]
                                        : -g->type_value[ZP_TYPE(v)];
    }
    for (int i = 0; i < g->nplayers * g->ntypes; i++)
        sc += (i / g->ntypes == player ? 1 : -1) * ZS_RESERVE(s)[i] *
              g->type_value[i % g->ntypes] / 2;
    return sc > EVAL_MAX ? EVAL_MAX : sc < -EVAL_MAX ? -EVAL_MAX : sc;
}

static int z_is_noisy(const void *st, Move m)
{
    const ZState *s = st;
    if (m == ZMOVE_PASS)
        return 0;
    int to = (int)((m >> 48) & 0xffff);
    return to < ZG(s)->npos && s->cells[to] != 0;
}

/* ---- loading ---- */

/* init needs its ZLoaded: the hooks are shared, so each loaded game gets
 * its own init through a small table of trampolines. */
enum { ZMAX_LOADED = 32 };
static pthread_mutex_t zl_lock = PTHREAD_MUTEX_INITIALIZER;
static ZLoaded *zl_list;    /* loaded files, for the life of the process */
static ZLoaded *zl_slot[ZMAX_LOADED];

static int init_slot(int slot, void *st, const int *opt, PlyError *err)
{
    ZLoaded *L = zl_slot[slot];
    int v = opt ? opt[0] : 0;
    if (v < 0 || v > L->nvariants)
        return ply_fail(err, "variant %d out of range", v);
    if (!L->var[v])
        return ply_fail(err, "variant %d does not load: %s", v,
                        L->verr[v].msg);
    zcc_attach(L->var[v]);
    zvm_init_state(L->var[v], st);
    zvm_start(st);
    return 0;
}

#define SLOT(i) static int init_##i(void *st, const int *opt, uint64_t seed, \
                                    PlyError *err) \
    { (void)seed; return init_slot(i, st, opt, err); }
SLOT(0) SLOT(1) SLOT(2) SLOT(3) SLOT(4) SLOT(5) SLOT(6) SLOT(7)
SLOT(8) SLOT(9) SLOT(10) SLOT(11) SLOT(12) SLOT(13) SLOT(14) SLOT(15)
SLOT(16) SLOT(17) SLOT(18) SLOT(19) SLOT(20) SLOT(21) SLOT(22) SLOT(23)
SLOT(24) SLOT(25) SLOT(26) SLOT(27) SLOT(28) SLOT(29) SLOT(30) SLOT(31)
#undef SLOT
static int (*const init_fns[ZMAX_LOADED])(void *, const int *, uint64_t,
                                          PlyError *) = {
    init_0, init_1, init_2, init_3, init_4, init_5, init_6, init_7,
    init_8, init_9, init_10, init_11, init_12, init_13, init_14, init_15,
    init_16, init_17, init_18, init_19, init_20, init_21, init_22, init_23,
    init_24, init_25, init_26, init_27, init_28, init_29, init_30, init_31,
};

int zrf_is_path(const char *name)
{
    size_t l = name ? strlen(name) : 0;
    return l > 4 && !strcasecmp(name + l - 4, ".zrf");
}

static void free_loaded(ZLoaded *L)
{
    for (int i = 0; i <= ZMAX_VARIANTS; i++)
        zrf_game_free(L->var[i]);
    free(L);
}

/* Reads and compiles every variant of path. */
static ZLoaded *load(const char *path, PlyError *err)
{
    ZReader r;
    zr_init(&r, NULL, err);
    size_t len = 0;
    char *text = zr_read_path(path, &len, err);
    if (!text)
        return NULL;
    int rc = zr_read(&r, path, text, len);
    free(text);
    if (rc) {
        zr_free(&r);
        return NULL;
    }
    ZLoaded *L = calloc(1, sizeof *L);
    if (!L) {
        zr_free(&r);
        ply_fail(err, "out of memory");
        return NULL;
    }
    snprintf(L->path, sizeof L->path, "%s", path);
    L->nvariants = zrf_count_variants(&r);
    if (L->nvariants > ZMAX_VARIANTS)
        L->nvariants = ZMAX_VARIANTS;
    char unsup[2048];
    for (int v = 0; v <= L->nvariants; v++) {
        PlyError e2 = {{0}};
        char u[2048];
        L->var[v] = zrf_compile(&r, v, &e2, u, sizeof u);
        if (v == 0) {
            snprintf(unsup, sizeof unsup, "%s", u);
            if (!L->var[0]) {
                zr_free(&r);
                free_loaded(L);
                ply_fail(err, "%s", e2.msg);
                return NULL;
            }
        }
        if (!L->var[v])
            L->verr[v] = e2;
    }
    zr_free(&r);
    /* the game form's templates as native code (other variants at their
     * first init) */
    zcc_attach(L->var[0]);
    const ZGame *g0 = L->var[0];
    size_t ss = 0;
    for (int v = 0; v <= L->nvariants; v++)
        if (L->var[v] && L->var[v]->state_size > ss)
            ss = L->var[v]->state_size;
    int np = g0->nseats;
    for (int v = 1; v <= L->nvariants; v++)
        if (L->var[v] && (L->var[v]->nplayers != g0->nplayers ||
                          memcmp(L->var[v]->seat, g0->seat,
                                 sizeof g0->seat))) {
            zrf_game_free(L->var[v]);
            L->var[v] = NULL;
            snprintf(L->verr[v].msg, sizeof L->verr[v].msg,
                     "a different number of players");
        }
    for (int i = 0; i < np; i++)
        L->pnames[i] = g0->player_names[g0->zplayer[i]];
    snprintf(L->title, sizeof L->title, "%s (ZRF)", g0->title);
    int nv = 0;
    for (int v = 1; v <= L->nvariants; v++)
        nv += L->var[v] != NULL;
    snprintf(L->rules, sizeof L->rules,
             "Loaded from the Zillions rules file %s: %d positions, %d "
             "directions, %d piece types, %d move templates, %d of %d "
             "variants playable (option variant=N; 0 is the game form). "
             "Moves come from the file's templates; priorities, partial "
             "moves (the same player moves again), passes and the "
             "checkmated rule as the file says. Templates run: %s (PLY_ZRF_CC=off "
             "for the interpreter).%s%s",
             path, g0->npos, g0->ndirs, g0->ntypes, g0->ntmpl, nv,
             L->nvariants, g0->zc_status,
             unsup[0] ? " Not enforced: " : "", unsup);
    L->opts[0] = (GameOption){
        .key = "variant", .type = OPT_INT, .def = 0, .min = 0,
        .max = L->nvariants, .help = "which (variant ...) form: 0 is the "
        "game form, N the Nth variant"};
    GameVtbl *vt = &L->vt;
    vt->info.name = L->path;
    vt->info.title = L->title;
    vt->info.num_players = np;
    vt->info.max_moves = ZMAX_MOVES;
    vt->info.max_game_length = ZMAX_GAME + 1;
    vt->info.state_size = ss;
    /* two seats: zero-sum unless a random player can win or lose, or
     * pieces are counted (a random player may have the most) */
    unsigned rnd = 0;
    for (int i = 0; i < g0->nplayers; i++)
        rnd |= (g0->seat[i] < 0 ? 1u : 0u) << i;
    int zero_sum = np == 2;
    for (int i = 0; i < g0->nends; i++)
        if (rnd && (g0->conds_end[i].players & rnd ||
                    g0->conds_end[i].outcome == OUT_COUNT))
            zero_sum = 0;
    vt->info.flags = zero_sum ? GAME_ZERO_SUM : 0;
    if (np < g0->nplayers) {
        vt->info.flags |= GAME_CHANCE;
        vt->chance_outcomes = z_chance;
    }
    vt->info.player_names = L->pnames;
    vt->info.options = L->opts;
    vt->info.notation = "Moves: FROM-TO (a piece's start and end square), "
        "Type@TO (a drop), =Type when the piece changes type, pass; /N "
        "tells apart moves with the same text. Setup: 'turn cont_pos "
        "cont_type last_from last_to ply over results | square=owner.Type"
        "[.attrs] ... | owner.Type=count ...'.";
    vt->info.rules = L->rules;
    vt->to_move = z_to_move;
    vt->gen_moves = z_gen;
    vt->make = z_make;
    vt->returns = z_returns;
    vt->hash = z_hash;
    vt->to_text = z_to_text;
    vt->from_text = z_from_text;
    vt->move_to_text = z_move_to_text;
    vt->text_to_move = z_text_to_move;
    vt->render = z_render;
    if (np == 2) {
        vt->eval = z_eval;
        vt->is_noisy = z_is_noisy;
    }
    vt->init = z_init;
    return L;
}

const GameVtbl *zrf_open(const char *path, PlyError *err)
{
    pthread_mutex_lock(&zl_lock);
    for (ZLoaded *L = zl_list; L; L = L->next)
        if (!strcmp(L->path, path)) {
            pthread_mutex_unlock(&zl_lock);
            return &L->vt;
        }
    int slot = 0;
    while (slot < ZMAX_LOADED && zl_slot[slot])
        slot++;
    if (slot == ZMAX_LOADED) {
        pthread_mutex_unlock(&zl_lock);
        ply_fail(err, "more than %d rules files loaded", ZMAX_LOADED);
        return NULL;
    }
    ZLoaded *L = load(path, err);
    if (L) {
        L->vt.init = init_fns[slot];
        zl_slot[slot] = L;
        L->next = zl_list;
        zl_list = L;
    }
    pthread_mutex_unlock(&zl_lock);
    return L ? &L->vt : NULL;
}

/* Reads and compiles a file for `ply rules check` and `ply list`: the
 * game (NULL on error), the words it does not support in u (empty when
 * none) and its number of variants in *nv. */
static ZGame *load_for_check(const char *path, int variant, char *u,
                             size_t un, int *nv, PlyError *err)
{
    ZReader r;
    u[0] = 0;
    *nv = 0;
    zr_init(&r, NULL, err);
    size_t len = 0;
    char *text = zr_read_path(path, &len, err);
    if (!text)
        return NULL;
    int rc = zr_read(&r, path, text, len);
    free(text);
    if (rc) {
        zr_free(&r);
        return NULL;
    }
    ZGame *g = zrf_compile(&r, variant, err, u, un);
    *nv = zrf_count_variants(&r);
    zr_free(&r);
    return g;
}

int zrf_check(const char *path, int variant, FILE *out, PlyError *err)
{
    char u[8192];
    int nv;
    ZGame *g = load_for_check(path, variant, u, sizeof u, &nv, err);
    if (!g && !u[0])
        return -1;
    if (u[0]) {
        fprintf(out, "%s: %s:\n%s\n", path, g ? "loads, but ignores"
                : "unsupported", u);
        zrf_game_free(g);
        ply_fail(err, "%s uses words Ply does not support", path);
        return 1;
    }
    fprintf(out, "%s: ok: %d players, %d positions, %d piece types, %d "
            "templates, %d variants\n", path, g->nplayers, g->npos,
            g->ntypes, g->ntmpl, nv);
    zrf_game_free(g);
    return 0;
}

int zrf_describe(const char *path, char *line, size_t n, PlyError *err)
{
    char u[1024];
    int nv;
    ZGame *g = load_for_check(path, 0, u, sizeof u, &nv, err);
    if (!g)
        return -1;
    snprintf(line, n, "%s (%d players%s, %d variant%s)", g->title,
             g->nseats, g->nseats < g->nplayers ? ", chance" : "", nv,
             nv == 1 ? "" : "s");
    zrf_game_free(g);
    return 0;
}

/* Perft over whole turns (partial moves composed into one, as Dagaz
 * counts them): a ply that leaves the same piece to continue does not
 * use up depth. Buffers for every ply are allocated once. */
typedef struct TurnPerft {
    Move *moves;            /* ZMAX_MOVES per ply */
    unsigned char *states;  /* one state per ply */
    size_t ss;
    int nply;
} TurnPerft;

static uint64_t turn_perft(TurnPerft *tp, const ZState *s, int depth,
                           int mid, int ply)
{
    if (depth == 0 && !mid)
        return 1;
    if (zvm_to_move(s) < 0)
        return mid ? 1 : 0;
    Move *mv;
    ZState *t;
    int deep = ply >= tp->nply;     /* a long chain of partial moves */
    if (deep) {
        mv = malloc(sizeof *mv * ZMAX_MOVES);
        t = malloc(tp->ss);
        if (!mv || !t) {
            free(mv);
            free(t);
            return 0;
        }
    } else {
        mv = tp->moves + (size_t)ply * ZMAX_MOVES;
        t = (ZState *)(tp->states + (size_t)ply * tp->ss);
    }
    int n = zvm_gen(s, mv, ZG(s)->max_moves);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        memcpy(t, s, tp->ss);
        zvm_make(t, mv[i]);
        int cont = t->cont_pos >= 0;
        sum += turn_perft(tp, t, cont ? depth : depth - 1, cont, ply + 1);
    }
    if (deep) {
        free(mv);
        free(t);
    }
    return sum;
}

int zrf_turn_perft(const GameVtbl *g, const void *st, int depth,
                   uint64_t *out)
{
    if (g->to_move != z_to_move)
        return -1;
    /* plies beyond these (long chains of partial moves) get their own */
    TurnPerft tp;
    tp.ss = g->info.state_size;
    tp.nply = depth > 0 && depth < 64 ? depth * 4 + 16 : 256;
    tp.moves = malloc(sizeof *tp.moves * ZMAX_MOVES * (size_t)tp.nply);
    tp.states = malloc(tp.ss * (size_t)tp.nply);
    if (!tp.moves || !tp.states) {
        free(tp.moves);
        free(tp.states);
        return -1;
    }
    *out = turn_perft(&tp, st, depth, 0, 0);
    free(tp.moves);
    free(tp.states);
    return 0;
}
