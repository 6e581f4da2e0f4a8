/* zcc.c — ZRF templates translated to C and run as native code.
 *
 Per piece type, one C function runs all of the piece's move templates
 * from a square and collects their moves, as gen_raw (vm.c) does with
 * the interpreter; each template's bytecode becomes a block with the
 * machine's exact semantics (vm.c run()): the cursor, mark, moving piece
 * and flags live in locals, every instruction is straight code with its
 * operands folded in (links, conditions' short forms, zone tests), jumps
 * are gotos, and each instruction still counts a step against the
 * machine's limit. Emissions, the conditions it does not inline
 * (attacked?, last-from...) and last-from/last-to locations call back
 * into vm.c through a ZcApi. Make, drops and attack probes, which run
 * one template at a time, stay on the interpreter (native versions of
 * those measured no faster).
 *
 * The source holds only numbers and fixed identifiers: no name, string
 * or other text of the rules file reaches it, and every operand is
 * checked against the game's bounds while translating (a template that
 * fails a check leaves the whole game on the interpreter). It is
 * compiled by the system C compiler (PLY_ZRF_CC, default cc; "off"
 * disables) into a shared object in a private cache directory,
 * $XDG_CACHE_HOME/ply/zrf or ~/.cache/ply/zrf (0700, owned by the user;
 * anything else is refused), named by a hash of the source and the
 * compiler (its path, size, time and inode), and loaded with dlopen.
 * Any failure leaves the interpreter and says why in g->zc_status. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "zcc.h"
#include "zrf.h"

extern char **environ;

enum {
    ZCC_MAX_SOURCE = 64 << 20,      /* bytes of generated C */
    ZCC_MAX_INSNS = 2000,           /* instructions over all templates:
                                     * about 1.5 ms of -O2 each */
    ZCC_TIMEOUT_S = 60,             /* the compiler's time */
    ZCC_ABI = 8,                    /* bump when the calls change */
};

/* The optimisation asked of the compiler (part of the cache key): -O1
 * compiles in half the time of -O2 and ran the test games' perft in as
 * many instructions. */
#define ZCC_OPT "-O1"

static pthread_mutex_t zcc_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- text ---- */

typedef struct Buf {
    char *p;
    size_t len, cap;
    int fail;
} Buf;

static void put(Buf *b, const char *fmt, ...)
{
    if (b->fail)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0,
                          fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->fail = 1;
            return;
        }
        if (b->p && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t want = b->cap ? b->cap * 2 : 1 << 16;
        while (want < b->len + (size_t)n + 1)
            want *= 2;
        if (want > ZCC_MAX_SOURCE) {
            b->fail = 1;
            return;
        }
        char *q = realloc(b->p, want);
        if (!q) {
            b->fail = 1;
            return;
        }
        b->p = q;
        b->cap = want;
    }
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* ---- translation ---- */

typedef struct Tr {
    const ZGame *g;
    Buf *b;
    int ti;                 /* the template being translated */
    int writes;             /* it writes the board (undo at its end) */
    const char *why;        /* the first check that failed */
} Tr;

static int bad(Tr *t, const char *why)
{
    if (!t->why)
        t->why = why;
    return -1;
}

static int insn_len(const ZGame *g, int pc)
{
    return zvm_insn_len(g, pc);
}

/* A location as a C expression (into out); *sure set when it is never
 * negative (the cursor, a position). */
static int loc_expr(Tr *t, int loc, char *out, size_t n, int *sure)
{
    const ZGame *g = t->g;
    int kind = (int)((unsigned)loc >> 24), i = loc & 0xffffff;
    *sure = 0;
    switch (kind) {
    case LOC_HERE:
    case LOC_TO:
        snprintf(out, n, "cursor");
        *sure = 1;
        return 0;
    case LOC_DIR:
    case LOC_OPP:
        if (i >= g->ndirs)
            return bad(t, "a direction out of range");
        snprintf(out, n, "lk[%d + cursor * %d]",
                 (kind == LOC_OPP ? g->npos * g->ndirs : 0) + i, g->ndirs);
        return 0;
    case LOC_POS:
        if (i >= g->npos)
            return bad(t, "a position out of range");
        snprintf(out, n, "%d", i);
        *sure = 1;
        return 0;
    case LOC_MARK:
        snprintf(out, n, "mark");
        return 0;
    case LOC_FROM:
        snprintf(out, n, "start");
        *sure = 1;
        return 0;
    case LOC_LASTFROM:
        snprintf(out, n, "r->last_from");
        return 0;
    case LOC_LASTTO:
        snprintf(out, n, "r->last_to");
        return 0;
    }
    return bad(t, "an unknown location");
}

/* A condition as a C expression, inline where it can be (the machine's
 * cond()); 1 when it must call back (attacked?, defended?). */
static int cond_expr(Tr *t, int k, int depth, Buf *o)
{
    const ZGame *g = t->g;
    if (k < 0 || k >= g->nconds)
        return bad(t, "a condition out of range");
    if (depth > 64)
        return 1;
    const ZCond *c = &g->conds[k];
    switch (c->op) {
    case C_TRUE:
        put(o, "1");
        return 0;
    case C_FALSE:
        put(o, "0");
        return 0;
    case C_NOT:
    case C_AND:
    case C_OR: {
        if (c->op == C_NOT && c->nkids < 1)
            return 1;
        int nk = c->op == C_NOT ? 1 : c->nkids;
        if (c->kid < 0 || c->kid + nk > g->nconds || nk < 0)
            return bad(t, "a condition out of range");
        if (nk == 0) {
            put(o, c->op == C_AND ? "1" : "0");
            return 0;
        }
        put(o, c->op == C_NOT ? "!(" : "(");
        for (int i = 0; i < nk; i++) {
            if (i)
                put(o, c->op == C_AND ? " && " : " || ");
            int rc = cond_expr(t, c->kid + i, depth + 1, o);
            if (rc)
                return rc;
        }
        put(o, ")");
        return 0;
    }
    case C_FLAG:
        if (c->arg < 0 || c->arg >= 32)
            return bad(t, "a flag out of range");
        put(o, "((flags >> %d) & 1)", c->arg);
        return 0;
    default:
        break;
    }
    char L[96];
    int sure;
    if (loc_expr(t, c->loc, L, sizeof L, &sure))
        return -1;
    /* an inline test of square p = L (false off the board) */
    const char *f = NULL;
    char arg[48] = "";
    /* the board first, then the square, then these */
    switch (c->op) {
    case C_ONBOARD:
        put(o, sure ? "1" : "(%s >= 0)", L);
        return 0;
    case C_EMPTY:
        f = "c_empty";
        break;
    case C_FRIEND:
        f = "c_friend";
        snprintf(arg, sizeof arg, ", player");
        break;
    case C_ENEMY:
        f = "c_enemy";
        snprintf(arg, sizeof arg, ", player");
        break;
    case C_NEUTRAL:
        put(o, "0");
        return 0;
    case C_PIECE:
        f = "c_piece";
        snprintf(arg, sizeof arg, ", %d", c->arg);
        break;
    case C_INZONE:
        if (c->arg < 0 || c->arg >= g->nzones)
            return bad(t, "a zone out of range");
        f = "c_zone";
        snprintf(arg, sizeof arg, ", zone + %d",
                 c->arg * g->nplayers * ZMAX_POS);
        break;
    case C_POSITION:
        f = "c_pos";
        snprintf(arg, sizeof arg, ", %d", c->arg);
        break;
    case C_LASTFROM:
        f = "c_pos";
        snprintf(arg, sizeof arg, ", r->last_from");
        break;
    case C_LASTTO:
        f = "c_pos";
        snprintf(arg, sizeof arg, ", r->last_to");
        break;
    case C_MARKED:
        f = "c_pos";
        snprintf(arg, sizeof arg, ", mark");
        break;
    case C_PFLAG:
        f = "c_pflag";
        snprintf(arg, sizeof arg, ", r->pflag");
        break;
    case C_ATTR:
        if (c->arg < 0 || c->arg >= ZMAX_ATTRS)
            return bad(t, "an attribute out of range");
        f = "c_attr";
        snprintf(arg, sizeof arg, ", %d", 12 + c->arg);
        break;
    default:
        return 1;   /* attacked?, defended? */
    }
    put(o, "%s%s(B, %s%s)", f, sure ? "_" : "", L, arg);
    return 0;
}

/* The condition as the machine's condf(r, k) computes it. */
static int cond_top(Tr *t, int k, Buf *o)
{
    Buf e = {0};
    int rc = cond_expr(t, k, 0, &e);
    if (rc < 0) {
        free(e.p);
        return -1;
    }
    if (rc > 0 || e.fail)
        put(o, "(SY(), api->cond(r, %d))", k);
    else
        put(o, "%s", e.p);
    free(e.p);
    return 0;
}

/* A location into local p (RET when off the board unless keep). */
static int loc_p(Tr *t, int loc, int keep)
{
    char L[96];
    int sure;
    if (loc_expr(t, loc, L, sizeof L, &sure))
        return -1;
    put(t->b, "{ int p = %s;%s", L, sure || keep ? "" : " if (p < 0) RET;");
    return 0;
}

/* One instruction at pc; *next gets the fallthrough (-1 none). */
static int insn(Tr *t, const ZTemplate *tp, int pc, int *next,
                const uint8_t *head, int limit)
{
    const ZGame *g = t->g;
    const int32_t *c = g->code;
    Buf *b = t->b;
    int len = insn_len(g, pc);
    put(b, "L%d_%d:", t->ti, pc);
    if (head[pc])   /* a loop's head: count the turns (see body()) */
        put(b, " if (++turns > %d) FALL;", limit);
    put(b, "\n");
    *next = -1;
    if (len < 0) {
        put(b, "RET;\n");
        return 0;
    }
    int op = c[pc];
    *next = pc + len;
    switch (op) {
    case OP_DIR:
    case OP_GO:
    case OP_MARK:
        if (loc_p(t, c[pc + 1], 0))
            return -1;
        put(b, " %s = p; }\n", op == OP_MARK ? "mark" : "cursor");
        break;
    case OP_POS:
        if (c[pc + 1] < 0 || c[pc + 1] >= g->npos)
            return bad(t, "a position out of range");
        put(b, "cursor = %d;\n", c[pc + 1]);
        break;
    case OP_ADD:
    case OP_ADDP: {
        int at = pc + 2 + (op == OP_ADDP);
        int n = c[at];
        put(b, "copy = %d;\n", c[pc + 1] != 0);
        for (int i = 0; i < (n ? n : 1); i++) {
            int promo = n ? c[at + 1 + i] : -1;
            if (promo < -1 || promo >= g->ntypes)
                return bad(t, "a piece type out of range");
            int partial = op == OP_ADDP, ctype = -1;
            if (partial) {
                ctype = c[pc + 2];
                if (ctype == -2)
                    ctype = tp->mtype;
                if (ctype < -1 || ctype >= g->nmtypes)
                    return bad(t, "a move type out of range");
            }
            /* a plain move (vm.c emission) */
            const char *plain = "0";
            if (op == OP_ADD && !c[pc + 1] && promo < 0 && !tp->drop)
                plain = tp->plain == 1 ? "0x8000" : tp->plain == 2 ?
                        "(mp == cells[start] ? 0x8000 : 0)" : "0";
            if (promo < 0)
                put(b, "EMIT(mp, -1, %d, %d, %s);\n", partial, ctype, plain);
            else
                put(b, "EMIT((uint16_t)((mp & 0xff00) | %d), %d, %d, %d, "
                    "0);\n", promo + 1, promo, partial, ctype);
        }
        break;
    }
    case OP_FROM:
        if (loc_p(t, c[pc + 1], 0))
            return -1;
        put(b, " if (!B[p]) RET; mp = B[p]; mo = p; active = 1; }\n");
        break;
    case OP_TO:
        if (loc_p(t, c[pc + 1], 1))
            return -1;
        put(b, " if (p < 0 || !active) RET; if (mo >= 0) WSET(mo, 0); "
            "WSET(p, mp); active = 0; }\n");
        break;
    case OP_CASCADE:
        if (loc_p(t, c[pc + 1], 0))
            return -1;
        put(b, "\n  if (active) { uint16_t nx = B[p]; if (mo >= 0) "
            "WSET(mo, 0); WSET(p, mp); if (!nx) RET; mp = nx; mo = -1; }\n"
            "  else { if (!B[p]) RET; mp = B[p]; mo = p; active = 1; } }\n");
        break;
    case OP_CAPTURE:
        if (loc_p(t, c[pc + 1], 1))
            return -1;
        put(b, " if (p >= 0) WSET(p, 0); }\n");
        break;
    case OP_FLIP:
    case OP_CHOWNER:
        if (loc_p(t, c[pc + 1], 1))
            return -1;
        if (op == OP_CHOWNER)
            put(b, " if (p >= 0 && B[p]) WSET(p, (B[p] & 0xf0ff) | "
                "(player << 8)); }\n");
        else
            put(b, " if (p >= 0 && B[p]) WSET(p, (B[p] & 0xf0ff) | "
                "((((B[p] >> 8) & 0xf) + 1) %% %d) << 8); }\n",
                g->nplayers);
        break;
    case OP_CHTYPE: {
        int ty = c[pc + 1];
        if (ty < 0 || ty >= g->ntypes)
            return bad(t, "a piece type out of range");
        if (loc_p(t, c[pc + 2], 1))
            return -1;
        put(b, " if (p >= 0 && B[p]) WSET(p, (B[p] & 0xff00) | %d); "
            "if (p >= 0 && p == mo && active) mp = (uint16_t)((mp & 0xff00) "
            "| %d); }\n", ty + 1, ty + 1);
        break;
    }
    case OP_CREATE: {
        int ow = c[pc + 1], ty = c[pc + 2];
        if (ow < -1 || ow >= g->nplayers || ty < 0 || ty >= g->ntypes)
            return bad(t, "a piece out of range");
        if (loc_p(t, c[pc + 3], 0))
            return -1;
        unsigned attrs = 0;
        for (int a = 0; a < g->nattrs && a < ZMAX_ATTRS; a++)
            if (g->attr_default[a])
                attrs |= 1u << (12 + a);
        if (ow < 0)
            put(b, " WSET(p, %u | (player << 8)); }\n",
                (unsigned)(ty + 1) | attrs);
        else
            put(b, " WSET(p, %u); }\n",
                (unsigned)(ty + 1) | ((unsigned)ow << 8) | attrs);
        break;
    }
    case OP_VERIFY:
        put(b, "if (!");
        if (cond_top(t, c[pc + 1], b))
            return -1;
        put(b, ") RET;\n");
        break;
    case OP_JF: {
        int to = c[pc + 2];
        if (to < 0 || to >= g->ncode)
            return bad(t, "a jump out of range");
        put(b, "if (!");
        if (cond_top(t, c[pc + 1], b))
            return -1;
        put(b, ") goto L%d_%d;\n", t->ti, to);
        break;
    }
    case OP_JMP: {
        int to = c[pc + 1];
        if (to < 0 || to >= g->ncode)
            return bad(t, "a jump out of range");
        put(b, "goto L%d_%d;\n", t->ti, to);
        *next = -1;
        return 0;
    }
    case OP_BACK:
        put(b, "if (mark < 0) RET;\ncursor = mark;\n");
        break;
    case OP_SETFLAG:
        if (c[pc + 1] < 0 || c[pc + 1] >= 32)
            return bad(t, "a flag out of range");
        put(b, "{ uint32_t v = (uint32_t)(");
        if (cond_top(t, c[pc + 2], b))
            return -1;
        put(b, " != 0); flags = (flags & ~(1u << %d)) | (v << %d); }\n",
            c[pc + 1], c[pc + 1]);
        break;
    case OP_SETPFLAG:
        put(b, "{ int v = ");
        if (cond_top(t, c[pc + 2], b))
            return -1;
        put(b, "; if (v) r->pflag[cursor >> 3] |= (uint8_t)(1u << "
            "(cursor & 7)); else r->pflag[cursor >> 3] &= (uint8_t)~(1u << "
            "(cursor & 7)); }\n");
        break;
    case OP_SETATTR: {
        int a = c[pc + 1];
        if (a < 0 || a >= ZMAX_ATTRS)
            return bad(t, "an attribute out of range");
        put(b, "{ int v = ");
        if (cond_top(t, c[pc + 2], b))
            return -1;
        put(b, "; uint16_t bit = %u;\n"
            "  if (active) mp = v ? (uint16_t)(mp | bit) : (uint16_t)(mp & "
            "~bit);\n"
            "  else if (B[cursor]) WSET(cursor, v ? (B[cursor] | bit) : "
            "(B[cursor] & ~bit)); }\n", 1u << (12 + a));
        break;
    }
    default:    /* OP_END, OP_ADDCOPY, unknown: the machine stops */
        put(b, "RET;\n");
        *next = -1;
        return 0;
    }
    return 0;
}

/* Does the instruction at pc write the board? */
static int writes(const ZGame *g, int pc)
{
    switch (g->code[pc]) {
    case OP_TO: case OP_CASCADE: case OP_CAPTURE: case OP_FLIP:
    case OP_CHOWNER: case OP_CHTYPE: case OP_CREATE: case OP_SETATTR:
        return 1;
    }
    return 0;
}

/* The generated code's helpers. A piece function's locals: the run's
 * cursor, mark, moving piece (mp, mo, active), copy, flags, emissions
 * so far (kk), writes logged (nw, wover) and loop turns; SY() hands them
 * to the machine before a call. */
static const char prelude[] =
    "#define SY() (r->cursor = cursor, r->mark = mark, r->flags = flags, "
    "r->mp = mp, r->mo = mo, r->active = active, r->copy = copy, r->k = kk, "
    "r->nwl = nw, r->wl_over = wover, r->tmpl = TI, r->start = start, "
    "r->W = B)\n"
    /* a write: B becomes the private board at the first one */
    "#define WSET(p_, v_) do { int wp = (p_); uint16_t wv = (uint16_t)(v_); "
    "if (B == cells) { memcpy(r->B, cells, sizeof *B * NPOS); B = r->B; } "
    "if (nw < ZRUN_MAX_WRITES) { r->wl[nw] = (int16_t)wp; r->wold[nw++] = "
    "B[wp]; } else wover = 1; B[wp] = wv; } while (0)\n"
    "#define UNDO() do { if (wover) memcpy(B, cells, sizeof *B * NPOS); "
    "else while (nw > 0) { nw--; B[r->wl[nw]] = r->wold[nw]; } nw = 0; "
    "wover = 0; } while (0)\n"
    /* an emission of the moving piece as v_ (type promo_): to make a
     * move, the target's results, the board left as it is; else legal?
     * then collected (in a pass by priorities, replacing the moves of a
     * lower rank), and a full list ends the generation */
    "#define EMIT(v_, promo_, partial_, ctype_, plain_) do { int k_ = "
    "kk++; if "
    "(k_ == target) { SY(); r->res_v = (v_); r->res_cursor = cursor; "
    "r->res_partial = (partial_); r->res_ctype = (ctype_); r->found = 1; "
    "return 2; } int ok_ = 1; if (ROYAL >= 0 && lg) { if (LGFAST(v_)) ok_ = "
    "!lg->attacked_now; else { SY(); ok_ = api->legal(r, (promo_)); } } "
    "if (ok_ && nout < max) { PRIO; if (mt) mt[nout] = MT; out[nout++] = "
    "((Move)start | (plain_)) | (Move)TI << 16 | (Move)(k_ & 0xffff) << "
    "32 | "
    "(Move)cursor << 48; if (nout >= max) { UNDO(); r->nout = nout; "
    "return 1; } } if (LOOPS && k_ >= 0xffff) RET; } while (0)\n"
    "#define BETTER(rank_) do { best = (rank_); allow0 = rankmask[best][0]; "
    "allow1 = rankmask[best][1]; } while (0)\n"
    /* the checkmated rule's fast test (vm.c emit_legal): the moving
     * piece, one of the player's and not royal, goes from mo to cursor,
     * neither of them read by the probes, and nothing else changes; else
     * the machine works it out */
    "#define SBIT(d_) ((lg->S[(d_) >> 6] >> ((d_) & 63)) & 1)\n"
    "#define LGFAST(v_) (lg->exact && active && !nw && !wover && "
    "(((v_) >> 8) & 0xf) == player && (int)((v_) & 0xff) - 1 != ROYAL && "
    "!SBIT(cursor) && !SBIT(mo))\n"
    /* conditions on square p (false off the board; the _ forms for a
     * square that is always on it) */
    "#define SQ(name, expr) static inline int name(const uint16_t *B, int "
    "p ARG) { return p >= 0 && (expr); } static inline int name##_(const "
    "uint16_t *B, int p ARG) { return (expr); }\n"
    "#define ARG\n"
    "SQ(c_empty, !B[p])\n"
    "#undef ARG\n#define ARG , int pl\n"
    "SQ(c_friend, B[p] && ((B[p] >> 8) & 0xf) == pl)\n"
    "SQ(c_enemy, B[p] && ((B[p] >> 8) & 0xf) != pl)\n"
    "#undef ARG\n#define ARG , const uint8_t *f\n"
    "SQ(c_pflag, (f[p >> 3] >> (p & 7)) & 1)\n"
    "#undef ARG\n#define ARG , int a\n"
    "SQ(c_piece, B[p] && (int)(B[p] & 0xff) - 1 == a)\n"
    "SQ(c_pos, p == a)\n"
    "SQ(c_attr, B[p] && ((B[p] >> a) & 1))\n"
    "#undef ARG\n#define ARG , const uint8_t *zn\n"
    "SQ(c_zone, zn[p] != 0)\n"
    "#undef ARG\n";

/* Template ti's instructions, every one reachable from its start, in
 * code order, labelled L<ti>_<pc>; RET leaves the template. The
 * machine stops a run after ZRUN_MAX_STEPS instructions: a template
 * without a loop never gets there (it has fewer instructions); one with
 * loops counts the visits to their heads (the targets of backward
 * jumps, which every cycle passes), and between two visits runs at most
 * its n instructions, so a run that could reach the limit makes more
 * than ZRUN_MAX_STEPS / n - 1 visits: it is given up (FALL) and run
 * again on the interpreter, which counts exactly. */
static void body(Tr *t, int ti, uint8_t *seen, uint8_t *head, int *work,
                 long *insns, int *loops)
{
    const ZGame *g = t->g;
    Buf *b = t->b;
    const ZTemplate *tp = &g->tmpl[ti];
    t->ti = ti;
    t->writes = 0;
    *loops = 0;
    if (tp->code < 0 || tp->code >= g->ncode) {
        bad(t, "a template out of range");
        return;
    }
    memset(seen, 0, (size_t)g->ncode + 1);
    memset(head, 0, (size_t)g->ncode + 1);
    int nw = 0, n = 0;
    work[nw++] = tp->code;
    seen[tp->code] = 1;
    while (nw) {
        int pc = work[--nw];
        int l = insn_len(g, pc), op = g->code[pc];
        n++;
        if (l > 0 && writes(g, pc))
            t->writes = 1;
        if (l < 0 || op == OP_END || op == OP_JMP ||
            op < 0 || op > OP_SETATTR || op == OP_ADDCOPY) {
            if (op == OP_JMP && l > 0) {
                int to = g->code[pc + 1];
                if (to >= 0 && to < g->ncode) {
                    if (to <= pc)
                        head[to] = 1;
                    if (!seen[to])
                        seen[to] = 1, work[nw++] = to;
                }
            }
            continue;
        }
        if (op == OP_JF) {
            int to = g->code[pc + 2];
            if (to >= 0 && to < g->ncode) {
                if (to <= pc)
                    head[to] = 1;
                if (!seen[to])
                    seen[to] = 1, work[nw++] = to;
            }
        }
        int nx = pc + l;
        if (nx < g->ncode && !seen[nx])
            seen[nx] = 1, work[nw++] = nx;
    }
    if (n >= ZRUN_MAX_STEPS / 2) {
        bad(t, "too many instructions to compile");
        return;
    }
    int limit = ZRUN_MAX_STEPS / n - 1;
    put(b, "goto L%d_%d;\n", ti, tp->code);
    for (int pc = 0; pc < g->ncode && !t->why; pc++) {
        if (!seen[pc])
            continue;
        if (++*insns > ZCC_MAX_INSNS) {
            bad(t, "too many instructions to compile");
            return;
        }
        *loops |= head[pc];
        int next;
        if (insn(t, tp, pc, &next, head, limit))
            return;
        if (next >= g->ncode)
            put(b, "RET;\n");
        else if (next >= 0)
            put(b, "goto L%d_%d;\n", ti, next);
    }
}

/* Boards of 64 squares at most: a template that opens with a step in
 * one direction and a verify of empty?, friend? or enemy? (or their
 * not) on the square reached cannot emit from a start where that
 * fails. Where the direction moves every square by one offset for each
 * player (a grid's), the starts where it passes are the squares of the
 * set tested, shifted back, within the squares that have the link:
 * worked out once per generation (pf<slot>), a template skips the
 * starts outside it with one bit test. A second step and verify right
 * after the first (a `capture` of the first square between them
 * allowed: checkers' jumps) narrows the set the same way, the second
 * square tested as the position has it (it is neither the start nor the
 * square captured: both offsets are not 0, nor is their sum). */
enum { PF_MAX = 64 };
typedef struct Prefilter {
    int nslot;
    int loc[PF_MAX], test[PF_MAX];     /* lk offset; 0 empty, 1 friend,
                                         * 2 enemy, +4 negated */
    int loc2[PF_MAX], test2[PF_MAX];   /* the second step (test2 -1: none) */
    int shift[PLY_MAX_PLAYERS][PF_MAX], shift2[PLY_MAX_PLAYERS][PF_MAX];
    uint64_t mask[PLY_MAX_PLAYERS][PF_MAX], mask2[PLY_MAX_PLAYERS][PF_MAX];
} Prefilter;

/* A step (OP_DIR in a direction) and a verify of a square test at pc:
 * the lk offset into *loc and the test into *test; 0 when not. */
static int pf_step(const ZGame *g, int pc, int *loc, int *test)
{
    const int32_t *c = g->code;
    if (pc < 0 || pc + 3 >= g->ncode || c[pc] != OP_DIR ||
        c[pc + 2] != OP_VERIFY)
        return 0;
    int kind = (int)((unsigned)c[pc + 1] >> 24), d = c[pc + 1] & 0xffffff;
    if ((kind != LOC_DIR && kind != LOC_OPP) || d >= g->ndirs)
        return 0;
    int k = c[pc + 3], neg = 0;
    if (k < 0 || k >= g->nconds)
        return 0;
    const ZCond *cd = &g->conds[k];
    if (cd->op == C_NOT && cd->nkids == 1 && cd->kid >= 0 &&
        cd->kid < g->nconds) {
        cd = &g->conds[cd->kid];
        neg = 4;
    }
    if (cd->loc != LOC(LOC_HERE, 0) ||
        (cd->op != C_EMPTY && cd->op != C_FRIEND && cd->op != C_ENEMY))
        return 0;
    *test = (cd->op == C_EMPTY ? 0 : cd->op == C_FRIEND ? 1 : 2) + neg;
    *loc = (kind == LOC_OPP ? g->npos * g->ndirs : 0) + d;
    return 1;
}

/* The starts where slot i of pf passes for player pl, from the sets
 * S_[0] (empty squares), S_[1] (his), S_[2] (the others'). */
static void pf_expr(Buf *b, const Prefilter *pf, int pl, int i)
{
    int sh = pf->shift[pl][i];
    put(b, "((%sS_[%d] %s %d) & %lluULL", pf->test[i] & 4 ? "~" : "",
        pf->test[i] & 3, sh >= 0 ? ">>" : "<<", sh >= 0 ? sh : -sh,
        (unsigned long long)pf->mask[pl][i]);
    if (pf->test2[i] >= 0) {
        sh = pf->shift2[pl][i];
        put(b, " & (%sS_[%d] %s %d) & %lluULL", pf->test2[i] & 4 ? "~" : "",
            pf->test2[i] & 3, sh >= 0 ? ">>" : "<<", sh >= 0 ? sh : -sh,
            (unsigned long long)pf->mask2[pl][i]);
    }
    put(b, ")");
}

/* Template ti's slot in pf (added when new), or -1; *after: the code
 * past the steps the slot tests. */
static int prefilter_slot(const ZGame *g, int ti, Prefilter *pf, int *after)
{
    const int32_t *c = g->code;
    int pc = g->tmpl[ti].code, loc, test, loc2 = -1, test2 = -1;
    if (g->npos > 64 || !pf_step(g, pc, &loc, &test))
        return -1;
    *after = pc + 4;
    /* a second step: right after, or after a capture of the first
     * square */
    int pc2 = pc + 4;
    if (pc2 + 1 < g->ncode && c[pc2] == OP_CAPTURE &&
        c[pc2 + 1] == LOC(LOC_HERE, 0))
        pc2 += 2;
    if (pf_step(g, pc2, &loc2, &test2)) {
        /* both offsets and their sum not 0 for every player */
        for (int pl = 0; pl < g->nplayers && pl < PLY_MAX_PLAYERS &&
                         test2 >= 0; pl++) {
            const int16_t *lk = g->plink + (size_t)pl * 2 *
                                (size_t)g->npos * (size_t)g->ndirs;
            int D = 0, have = 0;
            for (int p = 0; p < g->npos && test2 >= 0; p++) {
                int q = lk[loc + p * g->ndirs];
                int r = q >= 0 ? lk[loc2 + q * g->ndirs] : -1;
                if (q < 0 || r < 0)
                    continue;
                if (q == p || r == q || r == p || (have && r - p != D))
                    test2 = -1;
                D = r - p, have = 1;
            }
        }
        if (test2 >= 0)
            *after = pc2 + 4;
    }
    if (test2 < 0)
        loc2 = -1;
    for (int i = 0; i < pf->nslot; i++)
        if (pf->loc[i] == loc && pf->test[i] == test &&
            pf->loc2[i] == loc2 && pf->test2[i] == test2)
            return i;
    if (pf->nslot == PF_MAX)
        return -1;
    /* one offset per player */
    int i = pf->nslot;
    for (int pl = 0; pl < g->nplayers && pl < PLY_MAX_PLAYERS; pl++) {
        const int16_t *lk = g->plink + (size_t)pl * 2 * (size_t)g->npos *
                                       (size_t)g->ndirs;
        int delta = 0, have = 0, D = 0;
        uint64_t m = 0, m2 = 0;
        for (int p = 0; p < g->npos; p++) {
            int q = lk[loc + p * g->ndirs];
            if (q < 0)
                continue;
            if (!have)
                delta = q - p, have = 1;
            else if (q - p != delta)
                return -1;
            m |= 1ULL << p;
            int r = test2 >= 0 ? lk[loc2 + q * g->ndirs] : -1;
            if (r >= 0)
                D = r - p, m2 |= 1ULL << p;
        }
        pf->shift[pl][i] = delta;
        pf->mask[pl][i] = m;
        pf->shift2[pl][i] = D;
        pf->mask2[pl][i] = m2;
    }
    pf->loc[i] = loc;
    pf->test[i] = test;
    pf->loc2[i] = loc2;
    pf->test2[i] = test2;
    pf->nslot++;
    return i;
}

/* From pc on, does every path reach an add before any instruction that
 * can stop the run (a template past its prefilter that is sure to emit:
 * then only whether the player has a move is answered by the
 * prefilter)? Conditions, flags and attributes stop nothing. */
static int sure_emit(const ZGame *g, int pc, int depth)
{
    for (int steps = 0; steps < 64 && depth < 8; steps++) {
        if (pc < 0 || pc >= g->ncode || zvm_insn_len(g, pc) < 0)
            return 0;
        switch (g->code[pc]) {
        case OP_ADD:
        case OP_ADDP:
            return 1;
        case OP_JF:
            return sure_emit(g, g->code[pc + 2], depth + 1) &&
                   sure_emit(g, pc + 3, depth + 1);
        case OP_JMP:
            pc = g->code[pc + 1];
            break;
        case OP_POS:
        case OP_SETFLAG:
        case OP_SETPFLAG:
        case OP_SETATTR:
            pc += zvm_insn_len(g, pc);
            break;
        default:
            return 0;
        }
    }
    return 0;
}

/* The generated source; NULL with the reason in t->why. */
static char *translate(const ZGame *g, size_t *len, const char **why)
{
    Buf b = {0};
    Tr t = {g, &b, 0, 0, NULL};
    *why = NULL;
    if (g->ncode > 8 * ZCC_MAX_INSNS) {
        /* an instruction is at most a few words: too many anyway */
        *why = "too many instructions to compile";
        return NULL;
    }
    uint8_t *seen = calloc((size_t)g->ncode + 1, 1);
    uint8_t *head = calloc((size_t)g->ncode + 1, 1);
    int *work = malloc(sizeof *work * ((size_t)g->ncode + 1));
    Buf tb = {0};
    if (!seen || !head || !work) {
        free(seen);
        free(head);
        free(work);
        *why = "out of memory";
        return NULL;
    }
    put(&b, "/* Generated by ply from a ZRF file's move templates: the "
        "machine's bytecode as C. Numbers only; do not edit. */\n"
        "#include <stdint.h>\n#include <string.h>\n"
        "enum { ZMAX_POS = %d, ZRUN_MAX_WRITES = %d, ZRUN_MAX_STEPS = %d, "
        "NPOS = %d, ROYAL = %d };\n%s%s", ZMAX_POS, ZRUN_MAX_WRITES,
        ZRUN_MAX_STEPS, g->npos, g->royal_checkmated, ZCC_TEXT, prelude);
    long insns = 0;
    /* one function: each piece of the player (occupancy bits, in square
     * order), its type's move templates (not drops) one after the other
     * (gen_raw's loop, vm.c); or, to make a move (sel >= 0), template
     * sel from the one square sstart. A template runs when its move type
     * is allowed (bit mtype + 1 of allow0:allow1) or it is sel. rmt -2:
     * the move-priorities in one pass: best is the rank of the moves
     * collected from base on, and only the types of that rank or better
     * are allowed (rankmask; best -1 in the other passes) */
    int rank[ZMAX_MTYPES + 1];  /* per move type + 1 */
    for (int m = 0; m <= ZMAX_MTYPES; m++)
        rank[m] = g->nprio;
    for (int q = g->nprio - 1; q >= 0; q--)
        if (g->prio[q] >= 0 && g->prio[q] < ZMAX_MTYPES)
            rank[g->prio[q] + 1] = q;
    put(&b, "static const uint64_t rankmask[%d][2] = {\n", g->nprio + 1);
    for (int q = 0; q <= g->nprio; q++) {
        uint64_t m[2] = {0, 0};
        for (int mt = 0; mt <= g->nmtypes && mt <= ZMAX_MTYPES; mt++)
            if (rank[mt] <= q)
                m[mt >> 6] |= 1ULL << (mt & 63);
        put(&b, "{%lluULL, %lluULL},\n", (unsigned long long)m[0],
            (unsigned long long)m[1]);
    }
    put(&b, "};\n");
    Prefilter *pf = calloc(1, sizeof *pf);
    int *slot = malloc(sizeof *slot * ((size_t)g->ntmpl + 1));
    int *after = malloc(sizeof *after * ((size_t)g->ntmpl + 1));
    if (!pf || !slot || !after) {
        free(pf);
        free(slot);
        free(after);
        free(seen);
        free(head);
        free(work);
        free(b.p);
        *why = "out of memory";
        return NULL;
    }
    for (int ti = 0; ti < g->ntmpl; ti++)
        slot[ti] = g->tmpl[ti].drop ? -1
                                    : prefilter_slot(g, ti, pf, &after[ti]);
    put(&b, "int zc_gen(Run *r, const ZcApi *api, const uint64_t *occ, "
        "int words, int rmt, int sel, int sstart)\n{\n"
        "const int16_t *lk = r->lk; const int player = r->player;\n"
        "const uint16_t *cells = r->cells; uint16_t *B = (uint16_t "
        "*)cells; "
        "const Legal *lg = r->lg;\n"
        "Move *out = r->out; int16_t *mt = r->mt; int nout = r->nout, "
        "max = r->max;\n"
        "const uint8_t *zone = api->zone + player * ZMAX_POS;\n"
        "int cursor, mark, mo, active, copy, kk, nw = 0, wover = 0, "
        "before; uint16_t mp; uint32_t flags; long turns;\n"
        "const int base = nout, target = sel >= 0 ? r->target : -1; "
        "int best = -1;\n"
        "uint64_t allow0 = ~0ULL, allow1 = ~0ULL, one = 1ULL << (sstart & "
        "63);\n"
        "(void)lk; (void)api; (void)cells; (void)lg; (void)zone; "
        "(void)before; (void)turns; (void)base; (void)best;\n"
        "if (sel >= 0) { occ = &one; words = 1; allow0 = allow1 = 0; }\n"
        "else if (nout >= max) return 1;\n"
        "else if (rmt == -2) BETTER(%d);\n"
        "else if (rmt >= 0) { allow0 = rmt < 63 ? 1ULL << (rmt + 1) : 0; "
        "allow1 = rmt >= 63 ? 1ULL << ((rmt + 1) & 63) : 0; }\n",
        g->nprio);
    /* the prefilters (see Prefilter): all starts when making a move */
    if (pf->nslot) {
        put(&b, "uint64_t pf[%d];\nif (sel >= 0) memset(pf, 0xff, sizeof "
            "pf);\nelse {\nconst uint64_t S_[3] = {~r->occ_all & %lluULL, "
            "r->occ_fr, r->occ_all & ~r->occ_fr};\nswitch (player) {\n",
            pf->nslot, (unsigned long long)(g->npos == 64 ? ~0ULL :
                                            (1ULL << g->npos) - 1));
        for (int pl = 0; pl < g->nplayers && pl < PLY_MAX_PLAYERS; pl++) {
            put(&b, "case %d:\n", pl);
            for (int i = 0; i < pf->nslot; i++) {
                put(&b, "pf[%d] = ", i);
                pf_expr(&b, pf, pl, i);
                put(&b, ";\n");
            }
            put(&b, "break;\n");
        }
        put(&b, "default: memset(pf, 0xff, sizeof pf);\n}\n}\n");
        /* is there a move at all: a piece of a template's type among the
         * starts of its prefilter, the template sure to emit past it */
        int any = 0;
        for (int ti = 0; ti < g->ntmpl; ti++) {
            const ZTemplate *tp = &g->tmpl[ti];
            if (slot[ti] < 0 || tp->mtype < -1 || tp->mtype >= ZMAX_MTYPES ||
                tp->ptype < 0 || tp->ptype >= g->ntypes ||
                !sure_emit(g, after[ti], 0))
                continue;
            if (!any)
                put(&b, "if (r->exists && sel < 0) {\nuint64_t c_;\n");
            any = 1;
            put(&b, "if (((allow%d >> %d) & 1) && (c_ = pf[%d] & r->occ_fr)) "
                "for (; c_; c_ &= c_ - 1) if ((B[__builtin_ctzll(c_)] & "
                "0xff) == %d) { r->nout = nout + 1; return 1; }\n",
                (tp->mtype + 1) >> 6, (tp->mtype + 1) & 63, slot[ti],
                tp->ptype + 1);
        }
        if (any)
            put(&b, "}\n");
    }
    /* every move template prefiltered: the pieces outside all their
     * prefilters have no move and are not visited (all of them when
     * making a move, pf all ones) */
    int all_pf = pf->nslot > 0;
    for (int ti = 0; ti < g->ntmpl; ti++)
        if (!g->tmpl[ti].drop && slot[ti] < 0)
            all_pf = 0;
    put(&b, "const uint64_t U_ = ");
    if (all_pf) {
        uint8_t used[PF_MAX] = {0};
        for (int ti = 0; ti < g->ntmpl; ti++)
            if (!g->tmpl[ti].drop)
                used[slot[ti]] = 1;
        for (int i = 0; i < pf->nslot; i++)
            if (used[i])
                put(&b, "pf[%d] | ", i);
    }
    put(&b, "%s;\n", all_pf ? "0" : "~0ULL");
    put(&b, "for (int w = 0; w < words; w++)\n"
        "for (uint64_t bits = occ[w] & U_; bits; bits &= bits - 1) {\n"
        "const int start = sel >= 0 ? sstart : w * 64 + "
        "__builtin_ctzll(bits);\n"
        "switch (B[start] & 0xff) {\n");
    for (int ty = 0; ty < g->ntypes && !t.why; ty++) {
        int t0 = g->piece_tmpl[ty * 2], nt = g->piece_ntmpl[ty * 2];
        if (t0 < 0 || nt < 0 || t0 + nt > g->ntmpl) {
            bad(&t, "a template out of range");
            break;
        }
        put(&b, "case %d:\n", ty + 1);
        for (int ti = t0; ti < t0 + nt && !t.why; ti++) {
            const ZTemplate *tp = &g->tmpl[ti];
            int loops;
            if (tp->drop || tp->ptype != ty || tp->mtype < -1 ||
                tp->mtype >= ZMAX_MTYPES) {
                bad(&t, "a template out of range");
                break;
            }
            /* the body first (into tb), to know what the template does */
            Buf *main = t.b;
            tb.len = 0;
            tb.fail = 0;
            t.b = &tb;
            body(&t, ti, seen, head, work, &insns, &loops);
            t.b = main;
            if (t.why || tb.fail)
                break;
            /* its rank among the move-priorities (vm.c gen_moves_any):
             * its type's first place in the list, the types not listed
             * after the listed ones */
            int rk = rank[tp->mtype + 1], bit = tp->mtype + 1;
            /* LOOPS: the template has a loop (without one it emits
             * fewer than 0xffff times) */
            put(&b, "#define TI %d\n#define MT %d\n#define RET goto E%d\n"
                "#define FALL goto F%d\n#define RANK %d\n#define PRIO %s\n"
                "#define LOOPS %d\n",
                ti, tp->mtype, ti, ti, rk, rk < g->nprio ? "if (best > RANK) "
                "{ nout = base; BETTER(RANK); }" : "", loops);
            if (slot[ti] >= 0)
                put(&b, "if ((((pf[%d] >> start) & 1) && ((allow%d >> %d) & "
                    "1)) || sel == TI) {\n", slot[ti], bit >> 6, bit & 63);
            else
                put(&b, "if (((allow%d >> %d) & 1) || sel == TI) {\n",
                    bit >> 6, bit & 63);
            put(&b, "cursor = start; mark = -1; mo = start; active = 1; "
                "copy = 0; kk = 0; mp = B[start]; flags = 0; turns = 0; "
                "before = nout;\n%s",
                g->npflags ? "memset(r->pflag, 0, (NPOS + 7) / 8);\n" : "");
            put(&b, "%s", tb.p ? tb.p : "");
            /* given up (see body()): the interpreter runs it (in a pass
             * by priorities, its moves replace those of a lower rank), or
             * makes the move */
            if (loops)
                put(&b, "F%d:\n%sif (sel >= 0) return 3;\nr->nout = "
                    "before; api->interp(r, TI, start); nout = r->nout;\n"
                    "if (nout >= max) return 1;\n"
                    "if (nout > before && best > RANK) { memmove(out + "
                    "base, out + before, sizeof *out * (size_t)(nout - "
                    "before)); nout = base + (nout - before); BETTER(RANK); "
                    "}\ngoto X%d;\n", ti, t.writes ? "UNDO();\n" : "",
                    ti);
            put(&b, "E%d:\n%sX%d:;\n}\n"
                "#undef TI\n#undef MT\n#undef RET\n#undef FALL\n"
                "#undef PRIO\n#undef RANK\n#undef LOOPS\n", ti,
                t.writes ? "UNDO();\n" : "", ti);
        }
        put(&b, "break;\n");
    }
    put(&b, "}\n}\nr->nout = nout;\nreturn 0;\n}\n"
        "const int zc_ntypes = %d;\n", g->ntypes);
    /* zc_any (zcc.h): the templates sure to emit past their prefilters,
     * those of one step first (the cheaper sets) */
    put(&b, "int zc_any(const uint16_t *B, uint64_t occ_all, uint64_t "
        "occ_fr, int player, int rmt)\n{\n");
    if (pf->nslot) {
        put(&b, "const uint64_t S_[3] = {~occ_all & %lluULL, occ_fr, "
            "occ_all & ~occ_fr};\nuint64_t c_;\n(void)S_; (void)c_;\n"
            "switch (player) {\n", (unsigned long long)(g->npos == 64 ?
                                    ~0ULL : (1ULL << g->npos) - 1));
        for (int pl = 0; pl < g->nplayers && pl < PLY_MAX_PLAYERS; pl++) {
            put(&b, "case %d:\n", pl);
            for (int two = 0; two < 2; two++)
                for (int ti = 0; ti < g->ntmpl; ti++) {
                    const ZTemplate *tp = &g->tmpl[ti];
                    int i = slot[ti];
                    if (i < 0 || (pf->test2[i] >= 0) != two ||
                        tp->mtype < -1 || tp->mtype >= ZMAX_MTYPES ||
                        tp->ptype < 0 || tp->ptype >= g->ntypes ||
                        !sure_emit(g, after[ti], 0))
                        continue;
                    put(&b, "if ((rmt < 0 || rmt == %d) && (c_ = ",
                        tp->mtype);
                    pf_expr(&b, pf, pl, i);
                    put(&b, " & occ_fr)) for (; c_; c_ &= c_ - 1) if "
                        "((B[__builtin_ctzll(c_)] & 0xff) == %d) return "
                        "1;\n", tp->ptype + 1);
                }
            put(&b, "break;\n");
        }
        put(&b, "}\n");
    }
    put(&b, "(void)B; (void)occ_all; (void)occ_fr; (void)player; "
        "(void)rmt;\nreturn 0;\n}\n");
    free(pf);
    free(slot);
    free(after);
    free(seen);
    free(head);
    free(work);
    free(tb.p);
    if (b.fail && !t.why)
        t.why = "the generated source is too large";
    if (t.why) {
        free(b.p);
        *why = t.why;
        return NULL;
    }
    *len = b.len;
    return b.p;
}

char *zcc_source(ZGame *g, size_t *len)
{
    const char *why;
    char *s = translate(g, len, &why);
    if (!s)
        snprintf(g->zc_status, sizeof g->zc_status, "interpreter (%s)",
                 why);
    return s;
}

/* ---- the compiler and the cache ---- */

/* The compiler's full path (into out) from PLY_ZRF_CC or cc on PATH; 0,
 * 1 when disabled, -1 not found. */
static int find_cc(char *out, size_t n)
{
    const char *cc = getenv("PLY_ZRF_CC");
    if (cc && (!*cc || !strcmp(cc, "off") || !strcmp(cc, "0") ||
               !strcmp(cc, "no")))
        return 1;
    if (!cc)
        cc = "cc";
    if (strchr(cc, '/')) {
        if (access(cc, X_OK))
            return -1;
        snprintf(out, n, "%s", cc);
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t l = e ? (size_t)(e - path) : strlen(path);
        if (l > 0 && l + strlen(cc) + 2 < n) {
            snprintf(out, n, "%.*s/%s", (int)l, path, cc);
            if (!access(out, X_OK))
                return 0;
        }
        path += l + (e != NULL);
    }
    return -1;
}

/* A directory that is ours alone: made 0700 when missing; refused when
 * it is a link, not a directory, not owned by us or open to others. */
static int private_dir(const char *d, int create)
{
    struct stat st;
    if (lstat(d, &st)) {
        if (errno != ENOENT || !create || mkdir(d, 0700))
            return -1;
        if (lstat(d, &st))
            return -1;
    }
    return S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
           !(st.st_mode & 077) ? 0 : -1;
}

/* The cache directory (into out); -1 with why. */
static int cache_dir(char *out, size_t n, const char **why)
{
    const char *x = getenv("XDG_CACHE_HOME");
    char base[3072];
    if (x && x[0] == '/') {
        snprintf(base, sizeof base, "%s", x);
        mkdir(base, 0700);
    } else {
        const char *h = getenv("HOME");
        if (!h || h[0] != '/') {
            *why = "no cache directory (HOME unset)";
            return -1;
        }
        snprintf(base, sizeof base, "%s/.cache", h);
        mkdir(base, 0700);
    }
    struct stat st;
    if (stat(base, &st) || !S_ISDIR(st.st_mode)) {
        *why = "no cache directory";
        return -1;
    }
    char ply[3100];
    snprintf(ply, sizeof ply, "%s/ply", base);
    snprintf(out, n, "%s/ply/zrf", base);
    if (private_dir(ply, 1) || private_dir(out, 1)) {
        *why = "the cache directory is not private (0700, owned by the "
               "user)";
        return -1;
    }
    return 0;
}

/* Removes our temporary files older than an hour (left by a process
 * killed while its compiler ran). */
static void sweep_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) && n < 10000) {
        n++;
        if (strncmp(e->d_name, "tmp-", 4))
            continue;
        char f[3600];
        snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
        struct stat st;
        if (!lstat(f, &st) && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() && st.st_mtime < now - 3600)
            unlink(f);
    }
    closedir(d);
}

/* Runs argv with no shell, output discarded, within the time limit. */
static int run_cc(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa))
        return -1;
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int status = 0;
    for (long waited = 0;; waited += 10) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return -1;
        if (waited >= ZCC_TIMEOUT_S * 1000L) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* A file we may load: a regular file of ours, written by no one else. */
static int private_file(const char *f)
{
    struct stat st;
    return !lstat(f, &st) && S_ISREG(st.st_mode) &&
           st.st_uid == geteuid() && !(st.st_mode & 022) ? 0 : -1;
}

static int load_so(ZGame *g, const char *so)
{
    if (private_file(so))
        return -1;
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return -1;
    const int *nty = dlsym(h, "zc_ntypes");
    ZcGen gen = (ZcGen)dlsym(h, "zc_gen");
    ZcAny any = (ZcAny)dlsym(h, "zc_any");
    if (!nty || !gen || !any || *nty != g->ntypes) {
        dlclose(h);
        return -1;
    }
    ZcApi *api = malloc(sizeof *api);
    if (!api) {
        dlclose(h);
        return -1;
    }
    api->cond = zvm_cond;
    api->legal = zvm_legal;
    api->interp = zvm_interp;
    api->zone = g->zone;
    g->zc_handle = h;
    g->zc_api = api;
    g->zc_any = any;
    __atomic_store_n(&g->zc_gen, gen, __ATOMIC_RELEASE);
    return 0;
}

void zcc_attach(ZGame *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&zcc_lock);
    if (g->zc_tried) {
        pthread_mutex_unlock(&zcc_lock);
        return;
    }
    g->zc_tried = 1;
    char cc[2048], dir[3200], so[3400], src[3400], tmp[3400];
    const char *why = NULL;
    size_t len = 0;
    char *text = NULL;
    int f = find_cc(cc, sizeof cc);
    if (f) {
        why = f > 0 ? "PLY_ZRF_CC=off" : "no C compiler found";
        goto out;
    }
    if (cache_dir(dir, sizeof dir, &why))
        goto out;
    text = translate(g, &len, &why);
    if (!text)
        goto out;
    struct stat cst;
    if (stat(cc, &cst)) {
        why = "no C compiler found";
        goto out;
    }
    uint64_t key = fnv(0xcbf29ce484222325ULL, text, len);
    long parts[4] = {(long)cst.st_size, (long)cst.st_mtime,
                     (long)cst.st_ino, ZCC_ABI};
    key = fnv(key, cc, strlen(cc));
    key = fnv(key, parts, sizeof parts);
    key = fnv(key, ZCC_OPT, sizeof ZCC_OPT);
    snprintf(so, sizeof so, "%s/zrf-%016llx.so", dir,
             (unsigned long long)key);
    if (!load_so(g, so)) {
        why = NULL;
        goto out;
    }
    sweep_tmp(dir);
    /* compile into private names, then rename into place */
    snprintf(src, sizeof src, "%s/tmp-%016llx-%ld.c", dir,
             (unsigned long long)key, (long)getpid());
    snprintf(tmp, sizeof tmp, "%s/tmp-%016llx-%ld.so", dir,
             (unsigned long long)key, (long)getpid());
    int fd = open(src, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        why = "cannot write the cache directory";
        goto out;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(fd);
    if (off < len) {
        unlink(src);
        why = "cannot write the cache directory";
        goto out;
    }
    char *argv[] = {cc, ZCC_OPT, "-shared", "-fPIC", "-w", "-o", tmp, src,
                    NULL};
    int rc = run_cc(argv);
    unlink(src);
    if (rc || chmod(tmp, 0700) || rename(tmp, so)) {
        unlink(tmp);
        why = "the C compiler failed";
        goto out;
    }
    if (load_so(g, so))
        why = "the compiled object does not load";
out:
    free(text);
    if (why)
        snprintf(g->zc_status, sizeof g->zc_status, "interpreter (%s)",
                 why);
    else
        snprintf(g->zc_status, sizeof g->zc_status, "compiled to native "
                 "code (%.200s)", so);
    pthread_mutex_unlock(&zcc_lock);
}

void zcc_detach(ZGame *g)
{
    if (!g || !g->zc_handle)
        return;
    g->zc_gen = NULL;
    g->zc_any = NULL;
    dlclose(g->zc_handle);
    free(g->zc_api);
    g->zc_handle = NULL;
    g->zc_api = NULL;
}
