/* vm.c — the machine that runs compiled ZRF templates, and the rules
 * around it: moves (one per emission of a template), priorities, partial
 * moves as plies of the same player, passes, the checkmated legality
 * rule, turn order and goals.
 *
 * A template runs on a working copy of the board: captures, flips and
 * creations change the copy at once, so later predicates see them; each
 * add emits the copy with the moving piece set down at the cursor. A Move
 * names the template, its start square and which emission it is, so make
 * runs that one template again up to that emission. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc.h"
#include "zrf.h"

/* The compiled games of the process, by number (ZState.gid is the index
 * plus one): states name their rules here rather than by a pointer. An
 * entry is set once when a game is prepared and cleared when it is
 * freed; readers need no lock. */
const ZGame *_Atomic zvm_games_[ZMAX_GAMES];
#define zgames zvm_games_
static pthread_mutex_t zgames_lock = PTHREAD_MUTEX_INITIALIZER;

#if defined(__GNUC__)
#define ZINLINE __attribute__((always_inline))
#else
#define ZINLINE
#endif

static int zgames_add(ZGame *g)
{
    pthread_mutex_lock(&zgames_lock);
    for (int i = 0; i < ZMAX_GAMES; i++)
        if (!atomic_load_explicit(&zgames[i], memory_order_relaxed)) {
            g->id = (uint32_t)i + 1;
            atomic_store_explicit(&zgames[i], g, memory_order_release);
            pthread_mutex_unlock(&zgames_lock);
            return 0;
        }
    pthread_mutex_unlock(&zgames_lock);
    return -1;
}

void zvm_forget(const ZGame *g)
{
    if (!g->id)
        return;
    pthread_mutex_lock(&zgames_lock);
    atomic_store_explicit(&zgames[(g->id - 1) & (ZMAX_GAMES - 1)], NULL,
                          memory_order_release);
    pthread_mutex_unlock(&zgames_lock);
}


#define RD(r, p) \
    do { \
        if ((r)->rd) \
            (r)->rd[(p) >> 6] |= 1ULL << ((p) & 63); \
    } while (0)

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t cell_key(int pos, uint16_t v)
{
    return v ? mix64((uint64_t)pos << 16 | v) : 0;
}

static uint64_t res_key(int i, uint16_t n)
{
    return n ? mix64(0x5a5a000000000000ULL ^ ((uint64_t)i << 20) ^ n) : 0;
}

uint64_t zvm_hash_full(const ZState *s)
{
    const ZGame *g = ZG(s);
    uint64_t h = 0;
    for (int p = 0; p < g->npos; p++)
        h ^= cell_key(p, s->cells[p]);
    for (int i = 0; i < g->nplayers * g->ntypes; i++)
        h ^= res_key(i, ZS_RESERVE(s)[i]);
    return h;
}

/* The occupancy bits of square p, from old to nv. */
static inline void occ_cell(ZState *s, const ZGame *g, int p, uint16_t old,
                            uint16_t nv)
{
    uint64_t bit = 1ULL << (p & 63);
    if (old && ZP_OWNER(old) < g->nplayers) {
        ZS_OCC(s, g, ZP_OWNER(old))[p >> 6] &= ~bit;
        if (ZP_TYPE(old) == g->royal_checkmated)
            ZS_ROYAL(s, g, ZP_OWNER(old))[p >> 6] &= ~bit;
    }
    if (nv && ZP_OWNER(nv) < g->nplayers) {
        ZS_OCC(s, g, ZP_OWNER(nv))[p >> 6] |= bit;
        if (ZP_TYPE(nv) == g->royal_checkmated)
            ZS_ROYAL(s, g, ZP_OWNER(nv))[p >> 6] |= bit;
    }
}

/* Square p of s becomes nv: the cell, the hash and the occupancy. */
static inline ZINLINE void set_cell(ZState *s, const ZGame *g, int p,
                                    uint16_t nv)
{
    uint16_t old = s->cells[p];
    s->cells[p] = nv;
    if (old)
        s->hash ^= cell_key(p, old);
    if (nv)
        s->hash ^= cell_key(p, nv);
    occ_cell(s, g, p, old, nv);
}

void zvm_sync(ZState *s)
{
    const ZGame *g = ZG(s);
    s->hash = zvm_hash_full(s);
    memset(ZS_OCC(s, g, 0), 0, sizeof(uint64_t) * (size_t)g->occ_words *
           (size_t)g->nplayers * (g->royal_checkmated >= 0 ? 2 : 1));
    for (int p = 0; p < g->npos; p++)
        occ_cell(s, g, p, 0, s->cells[p]);
}

void zvm_init_state(const ZGame *g, ZState *s)
{
    memset(s, 0, g->state_size);
    s->gid = g->id;
    s->last_from = s->last_to = -1;
    s->cont_pos = s->cont_type = -1;
    memcpy(s->cells, g->setup, sizeof *s->cells * (size_t)g->npos);
    memcpy(ZS_RESERVE(s), g->reserve0,
           sizeof *s->cells * (size_t)g->nplayers * (size_t)g->ntypes);
    zvm_sync(s);
    s->mover = -1;
    zvm_reset_history(s);
}

/* The key of a position for repetition: board, reserves, who moves. */
static uint64_t rep_key(const ZState *s)
{
    return s->hash ^ mix64(0x7265700000000000ULL ^ s->turn);
}

void zvm_reset_history(ZState *s)
{
    const ZGame *g = ZG(s);
    s->nhist = 0;
    if (!g->uses_rep)
        return;
    ZS_HIST(s, g)[0] = rep_key(s);
    s->nhist = 1;
}

static void record_position(ZState *s)
{
    const ZGame *g = ZG(s);
    if (!g->uses_rep)
        return;
    ZS_HIST(s, g)[s->nhist % ZREP_HIST] = rep_key(s);
    s->nhist++;
    if (s->nhist >= 2 * ZREP_HIST)  /* keep the count small, same slots */
        s->nhist -= ZREP_HIST;
}

/* Has the position now on the board been seen ZREP_TIMES times (this
 * time included) among the last ZREP_HIST? */
static int repeated(const ZState *s)
{
    const ZGame *g = ZG(s);
    if (!g->uses_rep || !s->nhist)
        return 0;
    const uint64_t *h = ZS_HIST(s, g);
    uint64_t key = rep_key(s);
    int n = s->nhist < ZREP_HIST ? s->nhist : ZREP_HIST, same = 0;
    for (int i = 0; i < n; i++)
        same += h[i] == key;
    return same >= ZREP_TIMES;
}

static void check_end(ZState *s);

void zvm_start(ZState *s)
{
    check_end(s);
}

/* Whose pieces move this turn (the player to move, unless the turn
 * order has him move another side's). */
static int cur_owner(const ZState *s)
{
    return ZG(s)->turns[s->turn].owner;
}

static int cur_player(const ZState *s)
{
    return ZG(s)->turns[s->turn].player;
}

/* ---- running one template ---- */

/* Writes a square of the board: copied from the state at the first
 * write; the squares written are listed (for the legality test). */
static inline void wset(Run *r, int p, uint16_t v)
{
    if (!r->written) {
        memcpy(r->buf, r->s->cells, sizeof *r->buf * (size_t)r->g->npos);
        r->W = r->buf;
        r->written = 1;
    }
    if (r->nwl < ZRUN_MAX_WRITES)
        r->wl[r->nwl++] = (int16_t)p;
    else
        r->wl_over = 1;
    r->buf[p] = v;
}

static inline int step_dir(const Run *r, int pos, int loc)
{
    if (pos < 0)
        return -1;
    return r->lk[((loc >> 24) == LOC_OPP ? r->lk_opp : 0) +
                 pos * r->g->ndirs + (loc & 0xffffff)];
}

/* Short forms of conditions (ZCond.fast): the test in bits 0-3, bit 4
 * negates it; they look at the cursor's square or nothing. */
enum { F_NONE, F_TRUE, F_EMPTY, F_FRIEND, F_ENEMY, F_PIECE, F_ATTR,
       F_ZONE, F_NEG = 16 };

static int fast_form(const ZCond *c)
{
    if (c->op == C_TRUE)
        return F_TRUE;
    if (c->op == C_FALSE)
        return F_TRUE | F_NEG;
    if (c->loc != LOC(LOC_HERE, 0))
        return F_NONE;
    switch (c->op) {
    case C_EMPTY:
        return F_EMPTY;
    case C_FRIEND:
        return F_FRIEND;
    case C_ENEMY:
        return F_ENEMY;
    case C_PIECE:
        return F_PIECE;
    case C_ATTR:
        return F_ATTR;
    case C_INZONE:
        return F_ZONE;
    }
    return F_NONE;
}

int zvm_insn_len(const ZGame *g, int pc)
{
    const int32_t *c = g->code;
    int n;
    switch (c[pc]) {
    case OP_END:
        n = 1;
        break;
    case OP_ADD:
    case OP_ADDP: {
        int at = pc + 2 + (c[pc] == OP_ADDP);
        if (at >= g->ncode || c[at] < 0 || c[at] > 1024)
            return -1;
        n = at - pc + 1 + c[at];
        break;
    }
    case OP_CHTYPE:
    case OP_JF:
    case OP_SETFLAG:
    case OP_SETPFLAG:
    case OP_SETATTR:
        n = 3;
        break;
    case OP_CREATE:
        n = 4;
        break;
    case OP_DIR: case OP_POS: case OP_FROM: case OP_TO: case OP_CASCADE:
    case OP_CAPTURE: case OP_FLIP: case OP_CHOWNER: case OP_VERIFY:
    case OP_JMP: case OP_MARK: case OP_BACK: case OP_GO:
        n = 2;
        break;
    default:
        n = 1;
        break;
    }
    return pc + n <= g->ncode ? n : -1;
}

/* ZTemplate.plain of template ti: its code runs from its start to the
 * next template's. */
static int plain_kind(const ZGame *g, int ti)
{
    const ZTemplate *t = &g->tmpl[ti];
    if (t->drop)
        return 0;
    int end = ti + 1 < g->ntmpl ? g->tmpl[ti + 1].code : g->ncode;
    if (t->code < 0 || end > g->ncode || end < t->code)
        return 0;
    int kind = 1;
    for (int pc = t->code; pc < end;) {
        int l = zvm_insn_len(g, pc);
        if (l < 0)
            return 0;
        switch (g->code[pc]) {
        case OP_END: case OP_DIR: case OP_POS: case OP_ADD: case OP_ADDP:
        case OP_VERIFY: case OP_JF: case OP_JMP: case OP_MARK:
        case OP_BACK: case OP_GO: case OP_SETFLAG: case OP_SETPFLAG:
            break;
        case OP_SETATTR:
            kind = 2;
            break;
        default:
            return 0;
        }
        pc += l;
    }
    return kind;
}

/* Goal gi is false whenever the player to move has a move. */
static int goal_stuck(const ZGame *g, int gi, int depth)
{
    if (gi < 0 || gi >= g->ngoals || depth > 64)
        return 0;
    const ZGoal *gl = &g->goals[gi];
    switch (gl->op) {
    case G_STALEMATED:
    case G_CHECKMATED:
        return 1;
    case G_AND:
        for (int i = 0; i < gl->nkids; i++)
            if (goal_stuck(g, gl->kid + i, depth + 1))
                return 1;
        return 0;
    case G_OR:
        for (int i = 0; i < gl->nkids; i++)
            if (!goal_stuck(g, gl->kid + i, depth + 1))
                return 0;
        return gl->nkids > 0;
    }
    return 0;
}

int zvm_prepare(ZGame *g)
{
    for (int ti = 0; ti < g->ntmpl; ti++)
        g->tmpl[ti].plain = plain_kind(g, ti);
    for (int i = 0; i < g->nends && i < 64; i++)
        g->end_stuck[i] = (uint8_t)goal_stuck(g, g->conds_end[i].goal, 0);
    for (int ti = 0; ti < g->ntmpl; ti++) {
        ZTemplate *t = &g->tmpl[ti];
        int pc = t->code, n = 0;
        t->pre_n = 0;
        t->pre_cond = -1;
        while (n < 3 && pc + 1 < g->ncode && g->code[pc] == OP_DIR &&
               (g->code[pc + 1] >> 24 == LOC_DIR ||
                g->code[pc + 1] >> 24 == LOC_OPP))
            t->pre_dir[n++] = g->code[pc + 1], pc += 2;
        if (pc + 1 < g->ncode && g->code[pc] == OP_VERIFY &&
            g->code[pc + 1] >= 0 && g->code[pc + 1] < g->nconds) {
            t->pre_n = n;
            t->pre_cond = g->code[pc + 1];
        }
    }
    for (int k = 0; k < g->nconds; k++) {
        ZCond *c = &g->conds[k];
        c->fast = fast_form(c);
        if (c->op == C_NOT && c->nkids == 1 && c->kid >= 0 &&
            c->kid < g->nconds) {
            int f = fast_form(&g->conds[c->kid]);
            if (f) {
                c->fast = (f ^ F_NEG);
                c->arg = g->conds[c->kid].arg;  /* C_NOT has no arg */
            }
        }
    }
    size_t per = (size_t)g->npos * (size_t)g->ndirs;
    g->plink = malloc(sizeof *g->plink * (per ? per : 1) * 2 *
                      (size_t)g->nplayers);
    if (!g->plink)
        return -1;
    for (int pl = 0; pl < g->nplayers && pl < PLY_MAX_PLAYERS; pl++)
        g->plk[pl] = g->plink + (size_t)pl * 2 * per;
    for (int pl = 0; pl < g->nplayers; pl++)
        for (int opp = 0; opp < 2; opp++)
            for (int p = 0; p < g->npos; p++)
                for (int d0 = 0; d0 < g->ndirs; d0++) {
                    int d = g->dirmap[pl][d0];
                    if (opp && d >= 0)
                        d = g->opposite[d];
                    g->plink[((size_t)pl * 2 + (size_t)opp) * per +
                             (size_t)p * (size_t)g->ndirs + (size_t)d0] =
                        d < 0 ? -1 : g->link[p * ZMAX_DIRS + d];
                }
    size_t npre = (size_t)g->ntmpl * (size_t)g->nplayers * (size_t)g->npos;
    if (npre * sizeof *g->pre_to <= (16u << 20)) {
        g->pre_to = malloc(sizeof *g->pre_to * (npre ? npre : 1));
        if (!g->pre_to)
            return -1;
        for (int ti = 0; ti < g->ntmpl; ti++)
            for (int pl = 0; pl < g->nplayers; pl++)
                for (int p0 = 0; p0 < g->npos; p0++) {
                    const ZTemplate *t = &g->tmpl[ti];
                    int p = p0;
                    for (int i = 0; i < t->pre_n && p >= 0; i++) {
                        int loc = t->pre_dir[i];
                        p = g->plink[((size_t)pl * 2 +
                                      (size_t)((loc >> 24) == LOC_OPP)) *
                                     per + (size_t)p * (size_t)g->ndirs +
                                     (size_t)(loc & 0xffffff)];
                    }
                    g->pre_to[((size_t)ti * (size_t)g->nplayers +
                               (size_t)pl) * (size_t)g->npos +
                              (size_t)p0] = (int16_t)p;
                }
    }
    if (zgames_add(g))
        return -1;
    return 0;
}

static int resolve(const Run *r, int loc)
{
    switch (loc >> 24) {
    case LOC_HERE:
        return r->cursor;
    case LOC_DIR:
    case LOC_OPP:
        return step_dir(r, r->cursor, loc);
    case LOC_POS:
        return loc & 0xffffff;
    case LOC_MARK:
        return r->mark;
    case LOC_FROM:
        return r->start;
    case LOC_TO:
        return r->cursor;
    case LOC_LASTFROM:
        ((Run *)r)->used_last = 1;
        return r->s->last_from;
    case LOC_LASTTO:
        ((Run *)r)->used_last = 1;
        return r->s->last_to;
    }
    return -1;
}

static int attacked(const ZState *s, int pos, int by_friend, int player,
                    uint64_t *rd, int *used_last);
static int emit_legal(Run *r, int promo);
static int attacked_memo(Run *r, int pos);

static int cond(Run *r, int k)
{
    const ZCond *c = &r->g->conds[k];
    switch (c->op) {
    case C_TRUE:
        return 1;
    case C_FALSE:
        return 0;
    case C_NOT:
        return !cond(r, c->kid);
    case C_AND:
        for (int i = 0; i < c->nkids; i++)
            if (!cond(r, c->kid + i))
                return 0;
        return 1;
    case C_OR:
        for (int i = 0; i < c->nkids; i++)
            if (cond(r, c->kid + i))
                return 1;
        return 0;
    case C_FLAG:
        return (r->flags >> c->arg) & 1;
    default:
        break;
    }
    int pos = resolve(r, c->loc);
    if (c->op == C_ONBOARD)
        return pos >= 0;
    if (pos < 0)
        return 0;
    RD(r, pos);
    uint16_t v = r->W[pos];
    switch (c->op) {
    case C_EMPTY:
        return v == 0;
    case C_FRIEND:
        return v && ZP_OWNER(v) == r->player;
    case C_ENEMY:
        return v && ZP_OWNER(v) != r->player;
    case C_NEUTRAL:
        return 0;
    case C_PIECE:
        return v && ZP_TYPE(v) == c->arg;
    case C_INZONE:
        return r->g->zone[((size_t)c->arg * (size_t)r->g->nplayers +
                           (size_t)r->player) * ZMAX_POS + (size_t)pos];
    case C_POSITION:
        return pos == c->arg;
    case C_LASTFROM:
        r->used_last = 1;
        return pos == r->s->last_from;
    case C_LASTTO:
        r->used_last = 1;
        return pos == r->s->last_to;
    case C_MARKED:
        return pos == r->mark;
    /* inside an attack probe, attacked?/defended? count as true (no
     * recursion; castling-like moves that need safety never attack) */
    case C_ATTACKED:
        if (r->mode == 2)
            return 1;
        if (r->lg)
            return attacked_memo(r, pos);
        return attacked(r->s, pos, 0, r->player, NULL, NULL);
    case C_DEFENDED:
        return r->mode == 2 || attacked(r->s, pos, 1, r->player, NULL,
                                        NULL);
    case C_PFLAG:
        return (r->pflag[pos >> 3] >> (pos & 7)) & 1;
    case C_ATTR:
        return v && ((v >> (12 + c->arg)) & 1);
    }
    return 0;
}

/* cond with the short forms done here. */
static inline ZINLINE int condf(Run *r, int k)
{
    const ZCond *c = &r->g->conds[k];
    int f = c->fast, v;
    if (!f)
        return cond(r, k);
    int p = r->cursor;
    uint16_t w = r->W[p];
    if ((f & 15) != F_TRUE && (f & 15) != F_ZONE)
        RD(r, p);
    switch (f & 15) {
    case F_TRUE:
        v = 1;
        break;
    case F_EMPTY:
        v = !w;
        break;
    case F_FRIEND:
        v = w && ZP_OWNER(w) == r->player;
        break;
    case F_ENEMY:
        v = w && ZP_OWNER(w) != r->player;
        break;
    case F_PIECE:
        v = w && ZP_TYPE(w) == c->arg;
        break;
    case F_ATTR:
        v = w && ((w >> (12 + c->arg)) & 1);
        break;
    default:    /* F_ZONE */
        v = r->g->zone[((size_t)c->arg * (size_t)r->g->nplayers +
                        (size_t)r->player) * ZMAX_POS + (size_t)p] != 0;
        break;
    }
    return v ^ !!(f & F_NEG);
}

/* An emission: the board with the moving piece set down at the cursor
 * (as type `promo` when >= 0). Returns 1 to stop the run. */
static int emission(Run *r, int promo, int partial, int ctype)
{
    int k = r->k++;
    if (r->mode == 0) {
        if (r->lg && !emit_legal(r, promo))
            return k >= 0xffff;
        if (r->nout < r->max) {
            /* a plain move (zrf.h): the template's kind, an add of the
             * piece as it was */
            const ZTemplate *t = &r->g->tmpl[r->tmpl];
            Move plain = t->plain && !partial && !r->copy && promo < 0 &&
                         (t->plain == 1 ||
                          r->mp == r->s->cells[r->start]) ? ZMV_PLAIN : 0;
            r->out[r->nout++] = ((Move)r->start | plain) |
                                (Move)r->tmpl << 16 |
                                (Move)(k & 0xffff) << 32 |
                                (Move)r->cursor << 48;
        }
        return k >= 0xffff;
    }
    if (r->mode == 2) {
        if (r->cursor == r->probe_pos)
            return r->found = 1;
        return 0;
    }
    if (k != r->target)
        return 0;
    uint16_t v = r->mp;
    if (promo >= 0)
        v = (uint16_t)((v & 0xff00) | (promo + 1));
    r->res_v = v;
    uint16_t *W = r->res_W;
    if (W) {
        memcpy(W, r->W, sizeof *W * (size_t)r->g->npos);
        if (r->active) {
            if (r->mo >= 0 && !r->copy)
                W[r->mo] = 0;
            W[r->cursor] = v;
        }
    }
    r->res_cursor = r->cursor;
    r->res_partial = partial;
    r->res_ctype = ctype;
    r->found = 1;
    return 1;
}

/* The calls compiled templates make (zcc.h). */
int zvm_cond(Run *r, int k)
{
    return cond(r, k);
}

/* Dispatch: with GCC or Clang each instruction jumps straight to the
 * next one's code (computed goto); elsewhere through the switch. */
#if defined(__GNUC__)
#define CASE(x) case x: L_##x:
#define NEXT \
    do { \
        if (++steps > ZRUN_MAX_STEPS) \
            return; \
        op = code[pc++]; \
        if ((unsigned)op > OP_SETATTR) \
            return; \
        goto *lbl[op]; \
    } while (0)
#else
#define CASE(x) case x:
#define NEXT continue
#endif

static void run(Run *r)
{
    const ZGame *g = r->g;
    const ZTemplate *t = &g->tmpl[r->tmpl];
    const int32_t *code = g->code;
    int pc = t->code;
    long steps = 0;
    int op;
#if defined(__GNUC__)
    static const void *const lbl[OP_SETATTR + 1] = {
        [OP_END] = &&L_OP_END, [OP_DIR] = &&L_OP_DIR, [OP_POS] = &&L_OP_POS,
        [OP_ADD] = &&L_OP_ADD, [OP_ADDP] = &&L_OP_ADDP,
        [OP_ADDCOPY] = &&L_bad, [OP_FROM] = &&L_OP_FROM,
        [OP_TO] = &&L_OP_TO, [OP_CASCADE] = &&L_OP_CASCADE,
        [OP_CAPTURE] = &&L_OP_CAPTURE, [OP_FLIP] = &&L_OP_FLIP,
        [OP_CHOWNER] = &&L_OP_CHOWNER, [OP_CHTYPE] = &&L_OP_CHTYPE,
        [OP_CREATE] = &&L_OP_CREATE, [OP_VERIFY] = &&L_OP_VERIFY,
        [OP_JF] = &&L_OP_JF, [OP_JMP] = &&L_OP_JMP, [OP_MARK] = &&L_OP_MARK,
        [OP_BACK] = &&L_OP_BACK, [OP_GO] = &&L_OP_GO,
        [OP_SETFLAG] = &&L_OP_SETFLAG, [OP_SETPFLAG] = &&L_OP_SETPFLAG,
        [OP_SETATTR] = &&L_OP_SETATTR,
    };
#endif
    for (;;) {
        if (++steps > ZRUN_MAX_STEPS)
            return;
        op = code[pc++];
        switch (op) {
        CASE(OP_END)
            return;
        CASE(OP_DIR) {
            int p = step_dir(r, r->cursor, code[pc++]);
            if (p < 0)
                return;
            r->cursor = p;
            NEXT;
        }
        CASE(OP_POS)
            r->cursor = code[pc++];
            NEXT;
        CASE(OP_ADD)
        CASE(OP_ADDP) {
            int ctype = -1, partial = op == OP_ADDP;
            r->copy = code[pc++];
            if (partial) {
                ctype = code[pc++];
                if (ctype == -2)
                    ctype = t->mtype;
            }
            int n = code[pc++];
            if (!n) {
                if (emission(r, -1, partial, ctype))
                    return;
            } else {
                for (int i = 0; i < n; i++)
                    if (emission(r, code[pc + i], partial, ctype))
                        return;
            }
            pc += n;
            NEXT;
        }
        CASE(OP_FROM) {
            int p = resolve(r, code[pc++]);
            if (p < 0)
                return;
            RD(r, p);
            if (!r->W[p])
                return;
            r->mp = r->W[p];
            r->mo = p;
            r->active = 1;
            NEXT;
        }
        CASE(OP_TO) {
            int p = resolve(r, code[pc++]);
            if (p < 0 || !r->active)
                return;
            if (r->mo >= 0)
                wset(r, r->mo, 0);
            wset(r, p, r->mp);
            r->active = 0;
            NEXT;
        }
        CASE(OP_CASCADE) {
            int p = resolve(r, code[pc++]);
            if (p < 0)
                return;
            RD(r, p);
            if (r->active) {
                uint16_t next = r->W[p];
                if (r->mo >= 0)
                    wset(r, r->mo, 0);
                wset(r, p, r->mp);
                if (!next)
                    return;
                r->mp = next;
                r->mo = -1;
            } else {
                if (!r->W[p])
                    return;
                r->mp = r->W[p];
                r->mo = p;
                r->active = 1;
            }
            NEXT;
        }
        CASE(OP_CAPTURE) {
            int p = resolve(r, code[pc++]);
            if (p >= 0)
                wset(r, p, 0);
            NEXT;
        }
        CASE(OP_FLIP)
        CASE(OP_CHOWNER) {
            int p = resolve(r, code[pc++]);
            if (p >= 0)
                RD(r, p);
            if (p >= 0 && r->W[p]) {
                int o = op == OP_CHOWNER ? r->player
                        : (ZP_OWNER(r->W[p]) + 1) % g->nplayers;
                wset(r, p, (uint16_t)((r->W[p] & 0xf0ff) | (o << 8)));
            }
            NEXT;
        }
        CASE(OP_CHTYPE) {
            int ty = code[pc++];
            int p = resolve(r, code[pc++]);
            if (p >= 0)
                RD(r, p);
            if (p >= 0 && r->W[p])
                wset(r, p, (uint16_t)((r->W[p] & 0xff00) | (ty + 1)));
            if (p >= 0 && p == r->mo && r->active)
                r->mp = (uint16_t)((r->mp & 0xff00) | (ty + 1));
            NEXT;
        }
        CASE(OP_CREATE) {
            int o = code[pc++], ty = code[pc++];
            int p = resolve(r, code[pc++]);
            if (p < 0)
                return;
            uint16_t v = ZP_MAKE(ty, o < 0 ? r->player : o);
            for (int a = 0; a < g->nattrs; a++)
                if (g->attr_default[a])
                    v |= (uint16_t)(1u << (12 + a));
            wset(r, p, v);
            NEXT;
        }
        CASE(OP_VERIFY)
            if (!condf(r, code[pc++]))
                return;
            NEXT;
        CASE(OP_JF) {
            int k = code[pc++], to = code[pc++];
            if (!condf(r, k))
                pc = to;
            NEXT;
        }
        CASE(OP_JMP)
            pc = code[pc];
            NEXT;
        CASE(OP_MARK) {
            int p = resolve(r, code[pc++]);
            if (p < 0)
                return;
            r->mark = p;
            NEXT;
        }
        CASE(OP_BACK)
            pc++;
            if (r->mark < 0)
                return;
            r->cursor = r->mark;
            NEXT;
        CASE(OP_GO) {
            int p = resolve(r, code[pc++]);
            if (p < 0)
                return;
            r->cursor = p;
            NEXT;
        }
        CASE(OP_SETFLAG) {
            int f = code[pc++];
            int v = condf(r, code[pc++]);
            r->flags = (r->flags & ~(1u << f)) | ((uint32_t)v << f);
            NEXT;
        }
        CASE(OP_SETPFLAG) {
            int f = code[pc++];
            int v = condf(r, code[pc++]);
            (void)f;
            int p = r->cursor;
            if (v)
                r->pflag[p >> 3] |= (uint8_t)(1u << (p & 7));
            else
                r->pflag[p >> 3] &= (uint8_t)~(1u << (p & 7));
            NEXT;
        }
        CASE(OP_SETATTR) {
            int a = code[pc++];
            int v = condf(r, code[pc++]);
            uint16_t bit = (uint16_t)(1u << (12 + a));
            if (r->active) {
                r->mp = v ? (r->mp | bit) : (r->mp & (uint16_t)~bit);
            } else {
                RD(r, r->cursor);
                if (r->W[r->cursor])
                    wset(r, r->cursor, v ? (r->W[r->cursor] | bit)
                                         : (r->W[r->cursor] &
                                            (uint16_t)~bit));
            }
            NEXT;
        }
        default:
#if defined(__GNUC__)
        L_bad:
#endif
            return;
        }
    }
}

/* Can template ti from start emit at all? 0 when its opening steps
 * and verify already fail on s (the run would stop there, emitting
 * nothing and changing nothing). */
static inline ZINLINE int pre_ok(const ZGame *g, int ti, int player,
                                 int start, const uint16_t *cells,
                                 uint64_t *rd)
{
    const ZTemplate *t = &g->tmpl[ti];
    if (t->pre_cond < 0)
        return 1;
    int p = start;
    if (g->pre_to) {
        p = g->pre_to[((size_t)ti * (size_t)g->nplayers + (size_t)player) *
                      (size_t)g->npos + (size_t)start];
        if (p < 0)
            return 0;
    } else {
        const int16_t *lk = g->plink + (size_t)player * 2 *
                                       (size_t)g->npos * (size_t)g->ndirs;
        for (int i = 0; i < t->pre_n; i++) {
            int loc = t->pre_dir[i];
            p = lk[((loc >> 24) == LOC_OPP ? g->npos * g->ndirs : 0) +
                   p * g->ndirs + (loc & 0xffffff)];
            if (p < 0)
                return 0;
        }
    }
    const ZCond *c = &g->conds[t->pre_cond];
    int f = c->fast, v;
    if (!f)
        return 1;
    uint16_t w = cells[p];
    if (rd && (f & 15) != F_TRUE && (f & 15) != F_ZONE)
        rd[p >> 6] |= 1ULL << (p & 63);
    switch (f & 15) {
    case F_TRUE:
        v = 1;
        break;
    case F_EMPTY:
        v = !w;
        break;
    case F_FRIEND:
        v = w && ZP_OWNER(w) == player;
        break;
    case F_ENEMY:
        v = w && ZP_OWNER(w) != player;
        break;
    case F_PIECE:
        v = w && ZP_TYPE(w) == c->arg;
        break;
    case F_ATTR:
        v = w && ((w >> (12 + c->arg)) & 1);
        break;
    default:    /* F_ZONE */
        v = g->zone[((size_t)c->arg * (size_t)g->nplayers +
                     (size_t)player) * ZMAX_POS + (size_t)p] != 0;
        break;
    }
    return v ^ !!(f & F_NEG);
}

/* The fields of a run that both machines read, for player on s: the
 * rules, the position, the player's links, the board as the position's
 * cells, nothing written. */
static void run_base(Run *r, const ZGame *g, const ZState *s, int player)
{
    r->g = g;
    r->s = s;
    r->player = player;
    r->lk = g->plk[player];
    r->lk_opp = g->npos * g->ndirs;
    r->W = s->cells;
    r->nwl = r->wl_over = 0;
}

/* Every player's pieces on boards of 64 squares at most (one
 * occupancy word a player). */
static inline uint64_t occ_all(const ZState *s, const ZGame *g)
{
    const uint64_t *o = ZS_OCC(s, g, 0);
    uint64_t all = 0;
    for (int x = 0; x < g->nplayers; x++)
        all |= o[x];
    return all;
}

/* A native run (zcc.h) for player on s, B room for its board: the
 * fields the generated code reads besides the mode's (out nout max mt
 * lg exists for collecting, target for making). */
static void run_native(Run *r, const ZGame *g, const ZState *s, int player,
                       uint16_t *B)
{
    run_base(r, g, s, player);
    r->rd = NULL;
    r->lg = NULL;
    r->mt = NULL;
    r->exists = 0;
    r->B = B;
    r->cells = s->cells;
    r->last_from = s->last_from;
    r->last_to = s->last_to;
    if (g->npos <= 64) {
        r->occ_all = occ_all(s, g);
        r->occ_fr = ZS_OCC(s, g, player)[0];
    }
}

/* Sets up and runs template ti from square `start` for `player` on s. */
static void run_template(const ZGame *g, Run *r, const ZState *s,
                         int player, int ti,
                         int start, uint16_t *W)
{
    const ZTemplate *t = &g->tmpl[ti];
    run_base(r, g, s, player);
    r->tmpl = ti;
    r->start = start;
    r->buf = W;
    r->written = 0;
    r->cursor = start;
    r->mark = -1;
    r->flags = 0;
    if (g->npflags)
        memset(r->pflag, 0, (size_t)(g->npos + 7) / 8);
    r->k = 0;
    r->found = 0;
    if (t->drop) {
        r->mp = ZP_MAKE(t->ptype, player);
        for (int a = 0; a < g->nattrs; a++)
            if (g->attr_default[a])
                r->mp |= (uint16_t)(1u << (12 + a));
        r->mo = -1;
    } else {
        RD(r, start);
        r->mp = s->cells[start];
        r->mo = start;
    }
    r->active = 1;
    run(r);
}

/* Template ti from start on the interpreter, collecting into r (with
 * the move types into r->mt when set). */
static int run_collect(const ZGame *g, Run *r, const ZState *s, int player,
                       int ti, int start, uint16_t *W)
{
    int before = r->nout;
    run_template(g, r, s, player, ti, start, W);
    if (r->mt)
        for (int i = before; i < r->nout; i++)
            r->mt[i] = (int16_t)g->tmpl[ti].mtype;
    return r->nout >= r->max;
}

static void legal_prepare(const ZState *s, int player, Legal *L);

/* A compiled template's run given up (it could pass the step limit):
 * the interpreter runs it instead. */
void zvm_interp(Run *r, int ti, int start)
{
    uint16_t W[ZMAX_POS];
    run_collect(r->g, r, r->s, r->player, ti, start, W);
}

/* The native part of gen_raw (its moves and drops aside): 1 when the
 * list is full. */
static int gen_native(const ZState *s, const ZGame *g, ZcGen gen,
                      int player, Move *out, int16_t *mt, int *n, int max,
                      int restrict_mt, int only_pos, Legal *lg, int exists)
{
    /* B: room for a board of its own */
    uint16_t B[ZMAX_POS];
    Run r;
    run_native(&r, g, s, player, B);
    r.lg = lg;
    r.mode = 0;
    r.out = out;
    r.nout = *n;
    r.max = max;
    r.mt = mt;
    r.exists = exists && !lg && only_pos < 0;
    if (lg && !lg->ready)
        legal_prepare(s, player, lg);
    const uint64_t *occ = ZS_OCC(s, g, player);
    int full;
    if (only_pos >= 0) {
        /* the one piece: its bit alone */
        uint64_t one[ZMAX_POS / 64];
        int w = only_pos >> 6;
        memset(one, 0, sizeof *one * (size_t)w);
        one[w] = occ[w] & (1ULL << (only_pos & 63));
        full = gen(&r, g->zc_api, one, w + 1, restrict_mt, -1, 0);
    } else {
        full = gen(&r, g->zc_api, occ, g->occ_words, restrict_mt, -1, 0);
    }
    *n = r.nout;
    return full;
}

/* Raw moves of `player` (no priorities; only the legal ones under the
 * checkmated rule when lg is set): into out (with the move type of each
 * in mt when mt is not NULL). restrict_mt >= 0 keeps one move type, -2
 * (native code only, no drops: max without it) the best rank of the
 * move-priorities; only_pos >= 0 only that piece. exists: only whether
 * there is a move (0 or 1; out[0] may be left unset). */
static int gen_raw(const ZState *s, int player, Move *out, int16_t *mt,
                   int max, int restrict_mt, int only_pos, int drops,
                   Legal *lg, int exists)
{
    const ZGame *g = ZG(s);
    int from = only_pos >= 0 ? only_pos : 0;
    int to = only_pos >= 0 ? only_pos + 1 : g->npos;
    ZcGen gen = __atomic_load_n(&g->zc_gen, __ATOMIC_ACQUIRE);
    if (restrict_mt == -2 && !gen)
        return max;
    uint16_t W[ZMAX_POS];
    Run r;
    r.rd = NULL;
    r.lg = lg;
    r.mode = 0;
    r.out = out;
    r.nout = 0;
    r.max = max;
    r.mt = mt;
    if (gen) {
        if (gen_native(s, g, gen, player, out, mt, &r.nout, max,
                       restrict_mt, only_pos, lg, exists))
            return r.nout;
        from = to;
    }
    /* his pieces, by the occupancy bits, in square order */
    const uint64_t *occ = ZS_OCC(s, g, player);
    for (int w = from >> 6; from < to && w <= (to - 1) >> 6; w++)
        for (uint64_t b = occ[w]; b; b &= b - 1) {
            int p = w * 64 + __builtin_ctzll(b);
            if (p < from || p >= to)
                continue;
            int ty = ZP_TYPE(s->cells[p]);
            int t0 = g->piece_tmpl[ty * 2], nt = g->piece_ntmpl[ty * 2];
            for (int ti = t0; ti < t0 + nt; ti++) {
                if (restrict_mt >= 0 && g->tmpl[ti].mtype != restrict_mt)
                    continue;
                if (pre_ok(g, ti, player, p, s->cells, NULL) &&
                    run_collect(g, &r, s, player, ti, p, W))
                    return r.nout;
            }
        }
    if (drops && g->has_drops && only_pos < 0)
        for (int ty = 0; ty < g->ntypes; ty++) {
            if (!ZS_RESERVE(s)[player * g->ntypes + ty] &&
                g->limited[player * g->ntypes + ty])
                continue;
            int t0 = g->piece_tmpl[ty * 2 + 1], nt = g->piece_ntmpl[ty * 2 + 1];
            for (int ti = t0; ti < t0 + nt; ti++) {
                if (restrict_mt >= 0 && g->tmpl[ti].mtype != restrict_mt)
                    continue;
                for (int p = 0; p < g->npos; p++) {
                    if (pre_ok(g, ti, player, p, s->cells, NULL) &&
                        run_collect(g, &r, s, player, ti, p, W))
                        return r.nout;
                }
            }
        }
    return r.nout;
}

/* ---- reach: where each template can emit, over every outcome of its
 * conditions (an over-approximation), so attack probes skip templates
 * that cannot land on the square. ---- */

typedef struct Abs {
    int pc, cursor, mark;
} Abs;

enum { REACH_SET = 4096, REACH_STACK = 1024 };

static int abs_resolve(const ZGame *g, int player, int loc, int cursor,
                       int mark, int start)
{
    int kind = loc >> 24, i = loc & 0xffffff;
    switch (kind) {
    case LOC_HERE:
    case LOC_TO:
        return cursor;
    case LOC_DIR:
    case LOC_OPP: {
        int d = g->dirmap[player][i];
        if (kind == LOC_OPP)
            d = g->opposite[d];
        return d < 0 ? -1 : g->link[cursor * ZMAX_DIRS + d];
    }
    case LOC_POS:
        return i;
    case LOC_MARK:
        return mark;
    case LOC_FROM:
        return start;
    }
    return -2;  /* unknown */
}

/* The abstract states met (a hash set of keys, 0 empty), and the slots
 * used, to empty them for the next template. */
typedef struct ReachSeen {
    uint64_t key[REACH_SET];
    uint16_t used[REACH_SET];
    int nused;
} ReachSeen;

/* Fills set (npos bits) with the squares template ti of player can emit
 * on from start; 0, or -1 when it cannot tell (treat as everywhere). */
static int reach_one(const ZGame *g, int ti, int player, int start,
                     uint64_t *set, ReachSeen *rs)
{
    const int32_t *code = g->code;
    Abs stack[REACH_STACK];
    int sp = 0;
    uint64_t *seen = rs->key;
    for (int i = 0; i < rs->nused; i++)
        seen[rs->used[i]] = 0;
    rs->nused = 0;
    stack[sp++] = (Abs){g->tmpl[ti].code, start, -1};
    long work = 0;
    while (sp) {
        Abs a = stack[--sp];
        for (;;) {
            if (++work > 200000)
                return -1;
            uint64_t key = ((uint64_t)a.pc * ZMAX_POS + (uint64_t)a.cursor)
                           * (ZMAX_POS + 1) + (uint64_t)(a.mark + 1) + 1;
            uint64_t h = (key * 0x9e3779b97f4a7c15ULL) >> 52;
            int dup = 0;
            for (;;) {
                if (!seen[h]) {
                    seen[h] = key;
                    rs->used[rs->nused++] = (uint16_t)h;
                    break;
                }
                if (seen[h] == key) {
                    dup = 1;
                    break;
                }
                h = (h + 1) & (REACH_SET - 1);
                if (++work > 200000)
                    return -1;
            }
            if (dup)
                break;
            int op = code[a.pc], stop = 0;
            switch (op) {
            case OP_END:
                stop = 1;
                break;
            case OP_DIR: {
                int p = abs_resolve(g, player, code[a.pc + 1], a.cursor,
                                    a.mark, start);
                if (p == -2)
                    return -1;
                if (p < 0)
                    stop = 1;
                a.cursor = p;
                a.pc += 2;
                break;
            }
            case OP_POS:
                a.cursor = code[a.pc + 1];
                a.pc += 2;
                break;
            case OP_ADD:
                set[a.cursor >> 6] |= 1ULL << (a.cursor & 63);
                a.pc += 3 + code[a.pc + 2];
                break;
            case OP_ADDP:
                set[a.cursor >> 6] |= 1ULL << (a.cursor & 63);
                a.pc += 4 + code[a.pc + 3];
                break;
            case OP_FROM: case OP_TO: case OP_CASCADE: case OP_CAPTURE:
            case OP_FLIP: case OP_CHOWNER: case OP_VERIFY:
                a.pc += 2;
                break;
            case OP_CHTYPE: case OP_SETFLAG: case OP_SETPFLAG:
            case OP_SETATTR:
                a.pc += 3;
                break;
            case OP_CREATE:
                a.pc += 4;
                break;
            case OP_JF:
                if (sp == REACH_STACK)
                    return -1;
                stack[sp++] = (Abs){code[a.pc + 2], a.cursor, a.mark};
                a.pc += 3;
                break;
            case OP_JMP:
                a.pc = code[a.pc + 1];
                break;
            case OP_MARK: {
                int p = abs_resolve(g, player, code[a.pc + 1], a.cursor,
                                    a.mark, start);
                if (p == -2)
                    return -1;
                if (p < 0)
                    stop = 1;
                a.mark = p;
                a.pc += 2;
                break;
            }
            case OP_BACK:
                if (a.mark < 0)
                    stop = 1;
                a.cursor = a.mark;
                a.pc += 2;
                break;
            case OP_GO: {
                int p = abs_resolve(g, player, code[a.pc + 1], a.cursor,
                                    a.mark, start);
                if (p == -2)
                    return -1;
                if (p < 0)
                    stop = 1;
                a.cursor = p;
                a.pc += 2;
                break;
            }
            default:
                return -1;
            }
            if (stop)
                break;
        }
    }
    return 0;
}

void zvm_build_reach(ZGame *g)
{
    int words = (g->npos + 63) / 64;
    size_t n = (size_t)g->ntmpl * (size_t)g->nplayers * (size_t)g->npos *
               (size_t)words;
    if (n * sizeof(uint64_t) > (32u << 20))
        return;
    uint64_t *reach = calloc(n ? n : 1, sizeof *reach);
    ReachSeen *seen = calloc(1, sizeof *seen);
    if (!reach || !seen) {
        free(reach);
        free(seen);
        return;
    }
    for (int ti = 0; ti < g->ntmpl; ti++) {
        if (g->tmpl[ti].drop)
            continue;
        for (int pl = 0; pl < g->nplayers; pl++)
            for (int p = 0; p < g->npos; p++) {
                uint64_t *set = reach + (((size_t)ti * (size_t)g->nplayers +
                                          (size_t)pl) * (size_t)g->npos +
                                         (size_t)p) * (size_t)words;
                if (reach_one(g, ti, pl, p, set, seen))
                    memset(set, 0xff, sizeof *set * (size_t)words);
            }
    }
    free(seen);
    /* per piece type: the union over its templates */
    size_t pn = (size_t)g->ntypes * (size_t)g->nplayers * (size_t)g->npos *
                (size_t)words;
    uint64_t *pr = calloc(pn ? pn : 1, sizeof *pr);
    if (!pr) {
        free(reach);
        return;
    }
    for (int t = 0; t < g->ntypes; t++)
        for (int pl = 0; pl < g->nplayers; pl++)
            for (int p = 0; p < g->npos; p++) {
                uint64_t *u = pr + (((size_t)t * (size_t)g->nplayers +
                                     (size_t)pl) * (size_t)g->npos +
                                    (size_t)p) * (size_t)words;
                int t0 = g->piece_tmpl[t * 2], nt = g->piece_ntmpl[t * 2];
                for (int ti = t0; ti < t0 + nt; ti++) {
                    const uint64_t *set = reach +
                        (((size_t)ti * (size_t)g->nplayers + (size_t)pl) *
                         (size_t)g->npos + (size_t)p) * (size_t)words;
                    for (int w = 0; w < words; w++)
                        u[w] |= set[w];
                }
            }
    g->reach = reach;
    g->reach_piece = pr;
    g->reach_words = words;
    /* per player and target: the squares some type could reach it from */
    size_t in = (size_t)g->nplayers * (size_t)g->npos * (size_t)words;
    uint64_t *inv = calloc(in ? in : 1, sizeof *inv);
    if (!inv)
        return;
    for (int t = 0; t < g->ntypes; t++)
        for (int pl = 0; pl < g->nplayers; pl++)
            for (int p = 0; p < g->npos; p++) {
                const uint64_t *u = pr + (((size_t)t * (size_t)g->nplayers +
                                           (size_t)pl) * (size_t)g->npos +
                                          (size_t)p) * (size_t)words;
                for (int w = 0; w < words; w++)
                    for (uint64_t b = u[w]; b; b &= b - 1) {
                        int to = w * 64 + __builtin_ctzll(b);
                        if (to < g->npos)
                            inv[((size_t)pl * (size_t)g->npos +
                                 (size_t)to) * (size_t)words +
                                (size_t)(p >> 6)] |= 1ULL << (p & 63);
                    }
            }
    g->reach_inv = inv;
}

static int piece_can_reach(const ZGame *g, int type, int player, int from,
                           int pos)
{
    if (!g->reach_piece)
        return 1;
    const uint64_t *set = g->reach_piece +
        (((size_t)type * (size_t)g->nplayers + (size_t)player) *
         (size_t)g->npos + (size_t)from) * (size_t)g->reach_words;
    return (set[pos >> 6] >> (pos & 63)) & 1;
}

static int can_reach(const ZGame *g, int ti, int player, int from, int pos)
{
    if (!g->reach)
        return 1;
    const uint64_t *set = g->reach + (((size_t)ti * (size_t)g->nplayers +
                                       (size_t)player) * (size_t)g->npos +
                                      (size_t)from) * (size_t)g->reach_words;
    return (set[pos >> 6] >> (pos & 63)) & 1;
}

/* Is square pos attacked (by an enemy of player, or defended by a friend)?
 * An attack is an emission that lands on pos or removes what stands
 * there. */
/* Does the piece of q on p (if any) attack pos? */
static inline int probe_piece(const ZGame *g, Run *r, const ZState *s,
                              int q, int p, int pos,
                              uint16_t *W, int *used_last)
{
    uint16_t v = s->cells[p];
    if (!v || ZP_OWNER(v) != q || p == pos)
        return 0;
    int ty = ZP_TYPE(v);
    if (!piece_can_reach(g, ty, q, p, pos))
        return 0;
    int t0 = g->piece_tmpl[ty * 2], nt = g->piece_ntmpl[ty * 2];
    for (int ti = t0; ti < t0 + nt; ti++) {
        if (!can_reach(g, ti, q, p, pos) ||
            !pre_ok(g, ti, q, p, s->cells, r->rd))
            continue;
        run_template(g, r, s, q, ti, p, W);
        if (used_last)
            *used_last |= r->used_last;
        if (r->found)
            return 1;
    }
    return 0;
}

static int attacked(const ZState *s, int pos, int by_friend, int player,
                    uint64_t *rd, int *used_last)
{
    const ZGame *g = ZG(s);
    uint16_t W[ZMAX_POS];
    Run r;
    r.rd = rd;
    r.lg = NULL;
    r.used_last = 0;
    r.mode = 2;
    r.probe_pos = pos;
    for (int q = 0; q < g->nplayers; q++) {
        if ((q == player) != by_friend)
            continue;
        /* q's pieces, and only on the squares some piece could attack
         * pos from */
        const uint64_t *occ = ZS_OCC(s, g, q);
        const uint64_t *inv = g->reach_inv ? g->reach_inv +
            ((size_t)q * (size_t)g->npos + (size_t)pos) *
            (size_t)g->reach_words : NULL;
        for (int w = 0; w < g->occ_words; w++)
            for (uint64_t bits = occ[w] & (inv ? inv[w] : ~0ULL); bits;
                 bits &= bits - 1) {
                int p = w * 64 + __builtin_ctzll(bits);
                if (probe_piece(g, &r, s, q, p, pos, W, used_last))
                    return 1;
            }
    }
    return 0;
}

/* The value of square d after the emission under way (the moving piece
 * v set down at the cursor). */
static inline uint16_t after(const Run *r, int d, uint16_t v)
{
    if (r->active) {
        if (d == r->cursor)
            return v;
        if (d == r->mo && !r->copy)
            return 0;
    }
    return r->W[d];
}

static int type_in(const ZGoal *gl, uint16_t v);

/* For the (captured ...) goals: a square changes from old to nv. */
static void cap_delta(const ZGame *g, uint16_t old, uint16_t nv,
                      int delta[ZMAX_CAPGOALS][PLY_MAX_PLAYERS])
{
    for (int i = 0; i < g->ncapgoals; i++) {
        const ZGoal *gl = &g->goals[g->capgoal[i]];
        if (old && type_in(gl, old))
            delta[i][ZP_OWNER(old) % PLY_MAX_PLAYERS]--;
        if (nv && type_in(gl, nv))
            delta[i][ZP_OWNER(nv) % PLY_MAX_PLAYERS]++;
    }
}

/* "recycle captures": the pieces a move took from the board go back to
 * their owners' reserves. removed/added: the pieces (type and owner) on
 * the squares the move changed, before and after. A piece that is only
 * moved appears in both; a player whose count went down by n gets back n
 * of his pieces that left (so a promotion recycles nothing). */
static void recycle(ZState *s, const ZGame *g, uint16_t *removed, int nr,
                    const uint16_t *added, int na)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nr; j++)
            if (removed[j] == added[i]) {
                removed[j] = 0;
                break;
            }
    for (int o = 0; o < g->nplayers; o++) {
        int n = 0;
        for (int j = 0; j < nr; j++)
            n += removed[j] && ZP_OWNER(removed[j]) == o;
        for (int i = 0; i < na; i++)
            n -= ZP_OWNER(added[i]) == o;
        for (int j = 0; j < nr && n > 0; j++) {
            if (!removed[j] || ZP_OWNER(removed[j]) != o)
                continue;
            int ty = ZP_TYPE(removed[j]);
            if (ty < 0 || ty >= g->ntypes)
                continue;
            int i = o * g->ntypes + ty;
            uint16_t *res = ZS_RESERVE(s);
            if (res[i] == 0xffff)
                continue;
            s->hash ^= res_key(i, res[i]);
            res[i]++;
            s->hash ^= res_key(i, res[i]);
            n--;
        }
    }
}

/* Applies a non-pass move's board effects to s; fills partial info. */
static int apply(ZState *s, Move m, int *partial, int *ctype, int *to)
{
    const ZGame *g = ZG(s);
    int start = ZMV_START(m), ti = ZMV_TMPL(m), k = ZMV_K(m);
    if (ti >= g->ntmpl || start >= g->npos)
        return -1;
    int dest = ZMV_TO(m);
    if ((m & ZMV_PLAIN) && s->cells[start] && dest < g->npos &&
        g->tmpl[ti].plain && !g->ncapgoals && !g->recycle) {
        /* a plain move: the piece from start to dest, whatever stood
         * there removed (the general way below, in short) */
        uint16_t v = s->cells[start];
        if (dest != start) {
            set_cell(s, g, start, 0);
            if (s->cells[dest] != v)
                set_cell(s, g, dest, v);
        }
        s->last_from = (int16_t)start;
        s->last_to = (int16_t)dest;
        *partial = 0;
        *ctype = -1;
        *to = dest;
        return 0;
    }
    uint16_t W[ZMAX_POS], B[ZMAX_POS];
    Run r;
    r.rd = NULL;
    r.lg = NULL;
    r.mode = 1;
    r.target = k;
    r.res_W = NULL;
    r.found = 0;
    int player = cur_owner(s), done = 0;
    ZcGen gen = __atomic_load_n(&g->zc_gen, __ATOMIC_ACQUIRE);
    uint16_t v0 = s->cells[start];
    if ((m & ZMV_PLAIN) && v0 && ZMV_TO(m) < g->npos &&
        g->tmpl[ti].plain) {
        /* the piece from start to the destination, as the template's
         * emission would have it */
        r.W = s->cells;
        r.active = 1;
        r.copy = 0;
        r.mo = start;
        r.cursor = r.res_cursor = ZMV_TO(m);
        r.res_v = v0;
        r.nwl = r.wl_over = 0;
        r.res_partial = 0;
        r.res_ctype = -1;
        r.found = 1;
        done = 1;
    } else if (gen && v0 && !g->tmpl[ti].drop &&
               ZP_TYPE(v0) == g->tmpl[ti].ptype) {
        /* native code: the template runs to that emission (r.W: the
         * board with its writes) */
        run_native(&r, g, s, player, B);
        r.mode = 1;
        r.target = k;
        r.res_W = NULL;
        r.buf = W;
        r.out = NULL;
        r.nout = r.max = 0;
        done = gen(&r, g->zc_api, NULL, 0, -1, ti, start) != 3;
    }
    if (!done)
        run_template(g, &r, s, player, ti, start, W);
    if (!r.found)
        return -1;
    int delta[ZMAX_CAPGOALS][PLY_MAX_PLAYERS];
    if (g->ncapgoals)
        memset(delta, 0, sizeof delta);
    uint16_t removed[ZMAX_POS], added[ZMAX_POS];
    int nrem = 0, nadd = 0;
#define NOTE_CHANGE(old_, new_) \
    do { \
        if (g->ncapgoals) \
            cap_delta(g, (old_), (new_), delta); \
        if (g->recycle) { \
            if ((old_) && nrem < ZMAX_POS) \
                removed[nrem++] = (uint16_t)((old_) & 0x0fff); \
            if ((new_) && nadd < ZMAX_POS) \
                added[nadd++] = (uint16_t)((new_) & 0x0fff); \
        } \
    } while (0)
    if (r.wl_over) {
        /* many writes: r.W is the run's own copy, compare all */
        for (int p = 0; p < g->npos; p++) {
            uint16_t nv = after(&r, p, r.res_v);
            if (nv != s->cells[p]) {
                NOTE_CHANGE(s->cells[p], nv);
                set_cell(s, g, p, nv);
            }
        }
    } else {
        /* the squares written and the moving piece's two squares: their
         * new values first (r.W may be s->cells), then set */
        int cand[ZRUN_MAX_WRITES + 2], nc = 0;
        uint16_t nv[ZRUN_MAX_WRITES + 2];
        if (r.active) {
            cand[nc] = r.cursor;
            nv[nc] = after(&r, r.cursor, r.res_v);
            nc++;
            if (r.mo >= 0) {
                cand[nc] = r.mo;
                nv[nc] = after(&r, r.mo, r.res_v);
                nc++;
            }
        }
        for (int i = 0; i < r.nwl; i++) {
            cand[nc] = r.wl[i];
            nv[nc] = after(&r, r.wl[i], r.res_v);
            nc++;
        }
        for (int i = 0; i < nc; i++) {
            int p = cand[i];
            if (nv[i] != s->cells[p]) {
                NOTE_CHANGE(s->cells[p], nv[i]);
                set_cell(s, g, p, nv[i]);
            }
        }
    }
#undef NOTE_CHANGE
    for (int i = 0; i < g->ncapgoals; i++)
        for (int x = 0; x < g->nplayers; x++)
            if (delta[i][x] < 0)
                s->capbits |= 1u << (i * 8 + x);
    if (g->recycle && nrem)
        recycle(s, g, removed, nrem, added, nadd);
    if (g->tmpl[ti].drop) {
        int i = cur_owner(s) * g->ntypes + g->tmpl[ti].ptype;
        uint16_t *res = ZS_RESERVE(s);
        s->hash ^= res_key(i, res[i]);
        if (res[i] && g->limited[i])
            res[i]--;
        s->hash ^= res_key(i, res[i]);
        s->last_from = -1;
    } else {
        s->last_from = (int16_t)start;
    }
    s->last_to = (int16_t)r.res_cursor;
    *partial = r.res_partial;
    *ctype = r.res_ctype;
    *to = r.res_cursor;
    return 0;
}

static int royal_attacked(const ZState *s, int player)
{
    const ZGame *g = ZG(s);
    if (g->royal_checkmated < 0)
        return 0;
    const uint64_t *roy = ZS_ROYAL(s, g, player);
    for (int w = 0; w < g->occ_words; w++)
        for (uint64_t b = roy[w]; b; b &= b - 1)
            if (attacked(s, w * 64 + __builtin_ctzll(b), 0, player, NULL,
                         NULL))
                return 1;
    return 0;
}

typedef struct { _Alignas(8) unsigned char b[sizeof(ZState) +
    2 * (ZMAX_POS + PLY_MAX_PLAYERS * ZMAX_TYPES) + 8 +
    8 * ZREP_HIST + 2 * PLY_MAX_PLAYERS * ZMAX_POS / 8]; } ZBuf;

/* The probes of the checkmated rule on s for player, reads tracked. */
static void legal_prepare(const ZState *s, int player, Legal *L)
{
    const ZGame *g = ZG(s);
    int words = g->occ_words, used_last = 0;
    for (int w = 0; w < words; w++)
        L->S[w] = L->att_known[w] = L->att_val[w] = 0;
    L->attacked_now = 0;
    int roy[ZMAX_POS], nroy = 0;
    const uint64_t *rb = ZS_ROYAL(s, g, player);
    for (int w = 0; w < g->occ_words; w++)
        for (uint64_t b = rb[w]; b; b &= b - 1) {
            int p = w * 64 + __builtin_ctzll(b);
            L->S[p >> 6] |= 1ULL << (p & 63);
            roy[nroy++] = p;
        }
    for (int i = 0; i < nroy && !L->attacked_now; i++)
        if (attacked(s, roy[i], 0, player, L->S, &used_last))
            L->attacked_now = 1;
    L->exact = !used_last;
    if (nroy == 1) {
        /* attacked(s, that square) was just worked out */
        L->att_known[roy[0] >> 6] |= 1ULL << (roy[0] & 63);
        if (L->attacked_now)
            L->att_val[roy[0] >> 6] |= 1ULL << (roy[0] & 63);
    }
    L->ready = 1;
}

/* attacked? in a collecting run: attacked(s, pos) depends on the position
 * and the square only, so one generation asks it once per square. */
static int attacked_memo(Run *r, int pos)
{
    Legal *L = r->lg;
    if (!L->ready)
        legal_prepare(r->s, r->player, L);
    uint64_t bit = 1ULL << (pos & 63);
    if (L->att_known[pos >> 6] & bit)
        return (L->att_val[pos >> 6] & bit) != 0;
    int a = attacked(r->s, pos, 0, r->player, NULL, NULL);
    L->att_known[pos >> 6] |= bit;
    if (a)
        L->att_val[pos >> 6] |= bit;
    else
        L->att_val[pos >> 6] &= ~bit;
    return a;
}


int zvm_legal(Run *r, int promo)
{
    return emit_legal(r, promo);
}

/* Is the emission under way legal under the checkmated rule: no royal
 * piece of the mover attacked after it. */
static int emit_legal(Run *r, int promo)
{
    const ZState *s = r->s;
    const ZGame *g = r->g;
    Legal *L = r->lg;
    int player = r->player;
    if (!L->ready)
        legal_prepare(s, player, L);
    uint16_t v = r->mp;
    if (promo >= 0)
        v = (uint16_t)((v & 0xff00) | (promo + 1));
    if (L->exact && !r->wl_over) {
        int ok = 1;
        for (int i = -2; i < r->nwl && ok; i++) {
            int d = i == -2 ? (r->active ? r->cursor : -1)
                  : i == -1 ? (r->active ? r->mo : -1) : r->wl[i];
            if (d < 0)
                continue;
            uint16_t nv = after(r, d, v);
            if (nv == s->cells[d])
                continue;
            if ((L->S[d >> 6] >> (d & 63)) & 1)
                ok = 0;
            else if (nv && (ZP_OWNER(nv) != player ||
                            ZP_TYPE(nv) == g->royal_checkmated))
                ok = 0;
        }
        if (ok)
            return !L->attacked_now;
    }
    /* the slow way: the position after the move (its cells and
     * occupancy), probed again */
    ZBuf buf;
    ZState *t = (ZState *)buf.b;
    memcpy(t, s, g->state_size);
    if (r->wl_over) {
        for (int d = 0; d < g->npos; d++) {
            uint16_t nv = after(r, d, v);
            if (nv != t->cells[d]) {
                occ_cell(t, g, d, t->cells[d], nv);
                t->cells[d] = nv;
            }
        }
    } else {
        /* the squares written and the moving piece's two: their new
         * values first (r->W may be s->cells), then set */
        int cand[ZRUN_MAX_WRITES + 2], nc = 0;
        uint16_t nv[ZRUN_MAX_WRITES + 2];
        if (r->active) {
            cand[nc++] = r->cursor;
            if (r->mo >= 0)
                cand[nc++] = r->mo;
        }
        for (int i = 0; i < r->nwl; i++)
            cand[nc++] = r->wl[i];
        for (int i = 0; i < nc; i++)
            nv[i] = after(r, cand[i], v);
        for (int i = 0; i < nc; i++)
            if (nv[i] != t->cells[cand[i]]) {
                occ_cell(t, g, cand[i], t->cells[cand[i]], nv[i]);
                t->cells[cand[i]] = nv[i];
            }
    }
    t->last_from = (int16_t)(g->tmpl[r->tmpl].drop ? -1 : r->start);
    t->last_to = (int16_t)r->cursor;
    return !royal_attacked(t, player);
}

/* gen_moves_any for a turn's moves (not a partial move's) all made by
 * the native code (no drops): the move-priorities in one pass (rmt -2),
 * or the turn's type; -1 when a pass by priorities filled the list (it
 * is worked out again type by type). One run set up for the one call
 * into the generated code; the larger frames of the general way are not
 * entered. */
static __attribute__((noinline)) int native_turn(const ZState *s,
                                                 const ZGame *g, ZcGen gen,
                                                 Move *out, int max, int any)
{
    int player = cur_owner(s), tmt = g->turns[s->turn].mtype;
    int rmt = g->nprio && !any && tmt < 0 ? -2 : tmt;
    uint16_t B[ZMAX_POS];
    Run r;
    Legal L;
    run_native(&r, g, s, player, B);
    r.mode = 0;
    r.out = out;
    r.nout = 0;
    /* "is there a move": the first legal move will do */
    r.max = any && max > 0 ? 1 : max;
    if (g->royal_checkmated >= 0) {
        L.ready = 0;
        legal_prepare(s, player, &L);
        r.lg = &L;
    } else {
        r.exists = any;
    }
    gen(&r, g->zc_api, ZS_OCC(s, g, player), g->occ_words, rmt, -1, 0);
    int n = r.nout;
    if (any)
        return n > 0 ? 1 : g->pass_turn != 0 ? 2 : 0;
    if (rmt == -2 && n >= max)
        return -1;
    if ((g->pass_turn == 1 || (g->pass_turn == 2 && !n)) && n < max)
        out[n++] = ZMOVE_PASS;
    return n;
}

static int gen_moves_all(const ZState *s, Move *out, int max, int any);

/* The moves of the player to move, before the end-of-game check (with
 * any set: 1 as soon as one legal move exists, else 0; out[0] then may
 * be left unset). */
static inline int gen_moves_any(const ZState *s, Move *out, int max,
                                int any)
{
    const ZGame *g = ZG(s);
    ZcGen gen = __atomic_load_n(&g->zc_gen, __ATOMIC_ACQUIRE);
    if (gen && !g->has_drops && s->cont_pos < 0) {
        if (any && max > 0 && g->npos <= 64 && g->royal_checkmated < 0) {
            /* straight into the generated code: a template sure to emit
             * from a start where its prefilter passes (zcc.h ZcAny) */
            int player = cur_owner(s);
            if (g->zc_any(s->cells, occ_all(s, g),
                          ZS_OCC(s, g, player)[0], player,
                          g->turns[s->turn].mtype))
                return 1;
        }
        int n = native_turn(s, g, gen, out, max, any);
        if (n >= 0)
            return n;
    }
    return gen_moves_all(s, out, max, any);
}

/* gen_moves_any the general way. */
static __attribute__((noinline)) int gen_moves_all(const ZState *s,
                                                   Move *out, int max,
                                                   int any)
{
    const ZGame *g = ZG(s);
    int player = cur_owner(s);
    if (s->cont_pos >= 0) {
        int n = gen_raw(s, player, out, NULL, max, s->cont_type,
                        s->cont_pos, 0, NULL, 0);
        if (g->pass_partial && n < max)
            out[n++] = ZMOVE_PASS;
        return n;
    }
    int16_t mt[ZMAX_MOVES];
    /* "is there a move": the first legal move will do (priorities only
     * choose among moves) */
    if (any && max > 0)
        max = 1;
    Legal L;
    L.ready = 0;
    Legal *lg = g->royal_checkmated >= 0 ? &L : NULL;
    int n = 0;
    if (g->nprio && !any && g->turns[s->turn].mtype < 0) {
        /* the listed types in priority order: the first that yields a
         * move gives the moves (in the order the whole generation lists
         * them), and the later types are not generated at all */
        for (int q = 0; q < g->nprio && !n; q++)
            if (g->prio[q] >= 0 && g->prio[q] < ZMAX_MTYPES)
                n = gen_raw(s, player, out, NULL, max, g->prio[q], -1, 1,
                            lg, 0);
        if (n)
            goto pass;
    }
    n = gen_raw(s, player, out, g->nprio && !any ? mt : NULL, max,
                g->turns[s->turn].mtype, -1, 1, lg, any);
    if (any)
        return n > 0 ? 1 : g->pass_turn != 0 ? 2 : 0;
    if (g->nprio && n) {
        /* rank of each move type (mtype + 1): its place in the list,
         * unlisted types after the listed ones */
        uint8_t rank[ZMAX_MTYPES + 1];
        memset(rank, g->nprio, sizeof rank);
        for (int q = g->nprio - 1; q >= 0; q--)
            if (g->prio[q] >= -1 && g->prio[q] < ZMAX_MTYPES)
                rank[g->prio[q] + 1] = (uint8_t)q;
        int best = g->nprio;
        for (int i = 0; i < n; i++) {
            int c = mt[i] >= -1 && mt[i] < ZMAX_MTYPES ? rank[mt[i] + 1]
                                                       : g->nprio;
            if (c < best)
                best = c;
        }
        int j = 0;
        for (int i = 0; i < n; i++) {
            int c = mt[i] >= -1 && mt[i] < ZMAX_MTYPES ? rank[mt[i] + 1]
                                                       : g->nprio;
            if (c == best)
                out[j++] = out[i];
        }
        n = j;
    }
pass:
    if ((g->pass_turn == 1 || (g->pass_turn == 2 && !n)) && n < max)
        out[n++] = ZMOVE_PASS;
    return n;
}

static int gen_moves_core(const ZState *s, Move *out, int max)
{
    return gen_moves_any(s, out, max, 0);
}

/* "maximal captures": the enemy pieces on the board (owner not x). */
static int enemy_pieces(const ZState *s, int x)
{
    const ZGame *g = ZG(s);
    int n = 0;
    for (int p = 0; p < g->npos; p++)
        n += s->cells[p] && ZP_OWNER(s->cells[p]) != x;
    return n;
}

enum { ZMAX_CHAIN = 64 };   /* partial moves followed by maximal captures */

/* The most enemy pieces of x (the owner of the moving pieces) x's side can still take in this turn from s (the
 * same player continuing a partial move), each of moves[0..n) scored into
 * caps when not NULL. Searches the continuations depth-first on copies;
 * it allocates (one state and one move list per level), which only the
 * games with the option pay. -1 out of memory. */
static int chain_caps(const ZState *s, int x, const Move *moves, int n,
                      int *caps, int depth)
{
    const ZGame *g = ZG(s);
    ZState *t = malloc(g->state_size);
    Move *sub = malloc(sizeof *sub * (size_t)g->max_moves);
    int best = 0, before = enemy_pieces(s, x);
    if (!t || !sub) {
        free(t);
        free(sub);
        return -1;
    }
    for (int i = 0; i < n && best >= 0; i++) {
        memcpy(t, s, g->state_size);
        zvm_make(t, moves[i]);
        int c = before - enemy_pieces(t, x);
        if (!t->over && t->cont_pos >= 0 && depth < ZMAX_CHAIN) {
            int m = gen_moves_core(t, sub, g->max_moves);
            int more = m > 0 ? chain_caps(t, x, sub, m, NULL, depth + 1)
                             : 0;
            if (more < 0) {
                best = -1;
                break;
            }
            c += more;
        }
        if (caps)
            caps[i] = c;
        if (c > best)
            best = c;
    }
    free(t);
    free(sub);
    return best;
}

int zvm_gen(const ZState *s, Move *out, int max)
{
    if (s->over)
        return 0;
    int n = gen_moves_core(s, out, max);
    if (ZG(s)->maximal && n > 1) {
        int *caps = malloc(sizeof *caps * (size_t)n);
        int best = caps ? chain_caps(s, cur_owner(s), out, n, caps, 0) : -1;
        if (best > 0) {
            int j = 0;
            for (int i = 0; i < n; i++)
                if (caps[i] == best)
                    out[j++] = out[i];
            n = j;
        }
        free(caps);
    }
    return n;
}

/* ---- goals ---- */

static int count_pieces(const ZState *s, int player, const ZGoal *gl)
{
    const ZGame *g = ZG(s);
    int n = 0;
    for (int p = 0; p < g->npos; p++) {
        uint16_t v = s->cells[p];
        if (!v || (player >= 0 && ZP_OWNER(v) != player))
            continue;
        int ok = !gl->ntypes;
        for (int i = 0; i < gl->ntypes; i++)
            if (gl->types[i] == ZP_TYPE(v))
                ok = 1;
        n += ok;
    }
    return n;
}

static int type_in(const ZGoal *gl, uint16_t v)
{
    if (!gl->ntypes)
        return 1;
    for (int i = 0; i < gl->ntypes; i++)
        if (gl->types[i] == ZP_TYPE(v))
            return 1;
    return 0;
}

static int goal(const ZState *s, int gi, int x, int to_move, int *movable)
{
    const ZGame *g = ZG(s);
    const ZGoal *gl = &g->goals[gi];
    switch (gl->op) {
    case G_STALEMATED:
        return x == to_move && !*movable;
    case G_CHECKMATED:
        return x == to_move && !*movable && royal_attacked(s, x);
    case G_PIECES:
        return count_pieces(s, x, gl) == gl->n;
    case G_TOTAL:
        return count_pieces(s, -1, gl) == gl->n;
    case G_ABSCONF:
        if (gl->zone >= 0) {
            for (int p = 0; p < g->npos; p++) {
                uint16_t v = s->cells[p];
                if (v && ZP_OWNER(v) == x && type_in(gl, v) &&
                    g->zone[((size_t)gl->zone * (size_t)g->nplayers +
                             (size_t)x) * ZMAX_POS + (size_t)p])
                    return 1;
            }
            return 0;
        }
        for (int i = 0; i < gl->npos; i++) {
            uint16_t v = s->cells[gl->pos[i]];
            if (!v || ZP_OWNER(v) != x || !type_in(gl, v))
                return 0;
        }
        return gl->npos > 0;
    case G_RELCONF:
        for (int p0 = 0; p0 < g->npos; p0++) {
            int p = p0, ok = 1;
            for (int i = 0; i < gl->ntypes && ok; i++) {
                uint16_t v = p >= 0 ? s->cells[p] : 0;
                if (!v || ZP_OWNER(v) != x || ZP_TYPE(v) != gl->types[i])
                    ok = 0;
                else if (i < gl->npos)
                    p = g->link[p * ZMAX_DIRS + g->dirmap[x][gl->pos[i]]];
            }
            if (ok)
                return 1;
        }
        return 0;
    case G_AND:
        for (int i = 0; i < gl->nkids; i++)
            if (!goal(s, gl->kid + i, x, to_move, movable))
                return 0;
        return 1;
    case G_OR:
        for (int i = 0; i < gl->nkids; i++)
            if (goal(s, gl->kid + i, x, to_move, movable))
                return 1;
        return 0;
    case G_NOT:
        return !goal(s, gl->kid, x, to_move, movable);
    case G_CAPTURED:
        /* a piece of x of these types was taken this turn */
        return gl->n >= 0 && ((s->capbits >> (gl->n * 8 + x)) & 1);
    case G_REPETITION:
        /* the player who made the position repeat */
        return x == s->mover && repeated(s);
    default:
        return 0;
    }
}

static void set_result(ZState *s, int x, int outcome)
{
    const ZGame *g = ZG(s);
    int n = g->nplayers;
    s->over = 1;
    for (int i = 0; i < n; i++)
        s->result[i] = 0;
    if (outcome == OUT_DRAW)
        return;
    for (int i = 0; i < n; i++)
        s->result[i] = (int8_t)((i == x) == (outcome == OUT_WIN) ? 1 : -1);
}

/* count-condition: the game ends and the players with the most pieces
 * on the board win (the others lose); all equal is a draw. */
static void set_count_result(ZState *s)
{
    const ZGame *g = ZG(s);
    int n = g->nplayers, cnt[PLY_MAX_PLAYERS] = {0}, best = 0, nbest = 0;
    for (int p = 0; p < g->npos; p++)
        if (s->cells[p] && ZP_OWNER(s->cells[p]) < n)
            cnt[ZP_OWNER(s->cells[p])]++;
    for (int i = 0; i < n; i++)
        best = cnt[i] > best ? cnt[i] : best;
    for (int i = 0; i < n; i++)
        nbest += cnt[i] == best;
    s->over = 1;
    for (int i = 0; i < n; i++)
        s->result[i] = (int8_t)(nbest == n ? 0 : cnt[i] == best ? 1 : -1);
}

static void check_end(ZState *s)
{
    const ZGame *g = ZG(s);
    Move buf[1];
    int to_move = cur_player(s);
    /* 1: a move, 2: only the pass. Under "pass turn" forced, a player
     * who must pass right after a forced pass has no move: neither side
     * can move, and the game ends there (Bik's perft convention, as the
     * C reversi counts it) */
    int any = gen_moves_any(s, buf, 1, 1);
    int movable = any == 1 || (any == 2 && !(g->pass_turn == 2 &&
                                             s->passed));
    for (int i = 0; i < g->nends; i++) {
        const ZCondition *c = &g->conds_end[i];
        if (movable && i < 64 && g->end_stuck[i])
            continue;
        for (int x = 0; x < g->nplayers; x++)
            if ((c->players >> x) & 1 && goal(s, c->goal, x, to_move,
                                                &movable)) {
                if (c->outcome == OUT_COUNT)
                    set_count_result(s);
                else
                    set_result(s, x, c->outcome);
                return;
            }
    }
    if (!movable || s->ply >= ZMAX_GAME)
        set_result(s, 0, OUT_DRAW);
}

static void end_turn(ZState *s)
{
    const ZGame *g = ZG(s);
    s->cont_pos = s->cont_type = -1;
    s->turn++;
    if (s->turn >= g->nturns)
        s->turn = (uint16_t)(g->repeat_at < g->nturns ? g->repeat_at : 0);
    record_position(s);
}

void zvm_make(ZState *s, Move m)
{
    s->mover = (int8_t)cur_player(s);
    if (s->cont_pos < 0)
        s->capbits = 0;
    s->ply++;
    s->passed = (int8_t)(m == ZMOVE_PASS && ZG(s)->pass_turn == 2);
    if (m == ZMOVE_PASS) {
        end_turn(s);
        check_end(s);
        return;
    }
    int partial = 0, ctype = -1, to = -1;
    if (apply(s, m, &partial, &ctype, &to)) {
        end_turn(s);
        check_end(s);
        return;
    }
    if (partial) {
        s->cont_pos = (int16_t)to;
        s->cont_type = (int16_t)ctype;
        Move one[1];
        int n = gen_raw(s, cur_owner(s), one, NULL, 1, ctype, to, 0, NULL,
                        0);
        if (n > 0) {
            if (s->ply >= ZMAX_GAME)
                set_result(s, 0, OUT_DRAW);
            return;
        }
    }
    end_turn(s);
    check_end(s);
}

int zvm_to_move(const ZState *s)
{
    return s->over ? PLAYER_TERMINAL : cur_player(s);
}

void zvm_returns(const ZState *s, double *out)
{
    for (int i = 0; i < ZG(s)->nplayers; i++)
        out[i] = s->over ? s->result[i] : 0;
}

/* Move text: FROM-TO or Type@TO, =Type for a change of type. */
int zvm_move_text(const ZState *s, Move m, char *buf, size_t n)
{
    const ZGame *g = ZG(s);
    if (m == ZMOVE_PASS)
        return snprintf(buf, n, "pass");
    int start = ZMV_START(m), ti = ZMV_TMPL(m);
    if (ti >= g->ntmpl || start >= g->npos)
        return -1;
    uint16_t W[ZMAX_POS], R[ZMAX_POS];
    Run r;
    r.rd = NULL;
    r.lg = NULL;
    r.mode = 1;
    r.target = ZMV_K(m);
    r.res_W = R;
    run_template(g, &r, s, cur_owner(s), ti, start, W);
    if (!r.found)
        return -1;
    const ZTemplate *t = &g->tmpl[ti];
    uint16_t after = R[r.res_cursor];
    int len;
    if (t->drop)
        len = snprintf(buf, n, "%s@%s", g->type_name[t->ptype],
                       g->pos_name[r.res_cursor]);
    else
        len = snprintf(buf, n, "%s-%s", g->pos_name[start],
                       g->pos_name[r.res_cursor]);
    int mover_t = t->drop ? t->ptype : ZP_TYPE(s->cells[start]);
    if (after && ZP_TYPE(after) != mover_t && len >= 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "=%s",
                        g->type_name[ZP_TYPE(after)]);
    return len;
}
