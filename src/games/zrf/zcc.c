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
    ZCC_ABI = 3,                    /* bump when the calls change */
};

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
    const char *why;        /* the first check that failed */
} Tr;

static int bad(Tr *t, const char *why)
{
    if (!t->why)
        t->why = why;
    return -1;
}

/* The number of int32 words of the instruction at pc (opcode included),
 * or -1 when it runs past the code. Unknown opcodes: 1 (they stop). */
static int insn_len(const ZGame *g, int pc)
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

/* A location as a C expression (into out). */
static int loc_expr(Tr *t, int loc, char *out, size_t n)
{
    const ZGame *g = t->g;
    int kind = (int)((unsigned)loc >> 24), i = loc & 0xffffff;
    switch (kind) {
    case LOC_HERE:
    case LOC_TO:
        snprintf(out, n, "cursor");
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
        return 0;
    case LOC_MARK:
        snprintf(out, n, "mark");
        return 0;
    case LOC_FROM:
        snprintf(out, n, "r->start");
        return 0;
    case LOC_LASTFROM:
    case LOC_LASTTO:
        snprintf(out, n, "(SY(), api->resolve(r, %d))", loc);
        return 0;
    }
    return bad(t, "an unknown location");
}

/* A condition as a C expression, inline where it can be (same reads
 * recorded as the machine's cond()); 1 when it must call back. */
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
    int kind = (int)((unsigned)c->loc >> 24);
    if (kind == LOC_LASTFROM || kind == LOC_LASTTO)
        return 1;
    char L[96];
    if (loc_expr(t, c->loc, L, sizeof L))
        return -1;
    switch (c->op) {
    case C_ONBOARD:
        put(o, "(%s >= 0)", L);
        return 0;
    case C_EMPTY:
        put(o, "c_empty(r, W, %s)", L);
        return 0;
    case C_FRIEND:
        put(o, "c_friend(r, W, %s, player)", L);
        return 0;
    case C_ENEMY:
        put(o, "c_enemy(r, W, %s, player)", L);
        return 0;
    case C_NEUTRAL:
        put(o, "c_none(r, %s)", L);
        return 0;
    case C_PIECE:
        put(o, "c_piece(r, W, %s, %d)", L, c->arg);
        return 0;
    case C_INZONE:
        if (c->arg < 0 || c->arg >= g->nzones)
            return bad(t, "a zone out of range");
        put(o, "c_zone(r, api, %s, %d)", L,
            c->arg * g->nplayers * ZMAX_POS);
        return 0;
    case C_POSITION:
        put(o, "c_pos(r, %s, %d)", L, c->arg);
        return 0;
    case C_MARKED:
        put(o, "c_pos(r, %s, mark)", L);
        return 0;
    case C_PFLAG:
        put(o, "c_pflag(r, %s)", L);
        return 0;
    case C_ATTR:
        if (c->arg < 0 || c->arg >= ZMAX_ATTRS)
            return bad(t, "an attribute out of range");
        put(o, "c_attr(r, W, %s, %d)", L, c->arg);
        return 0;
    }
    return 1;   /* attacked?, defended?, last-from?, last-to? */
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

/* One instruction at pc; *next gets the fallthrough (-1 none). */
static int insn(Tr *t, const ZTemplate *tp, int pc, int *next)
{
    const ZGame *g = t->g;
    const int32_t *c = g->code;
    Buf *b = t->b;
    int len = insn_len(g, pc);
    char L[96];
    put(b, "L%d_%d: STEP;\n", t->ti, pc);
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
        if (loc_expr(t, c[pc + 1], L, sizeof L))
            return -1;
        put(b, "{ int p = %s; if (p < 0) RET; %s = p; }\n", L,
            op == OP_MARK ? "mark" : "cursor");
        break;
    case OP_POS:
        if (c[pc + 1] < 0 || c[pc + 1] >= g->npos)
            return bad(t, "a position out of range");
        put(b, "cursor = %d;\n", c[pc + 1]);
        break;
    case OP_ADD:
    case OP_ADDP: {
        int partial = op == OP_ADDP, at = pc + 2, ctype = -1;
        if (partial) {
            ctype = c[pc + 2];
            if (ctype == -2)
                ctype = tp->mtype;
            at++;
        }
        int n = c[at];
        put(b, "r->copy = %d; SY();\n", c[pc + 1]);
        if (!n)
            put(b, "if (api->emission(r, -1, %d, %d)) RET;\n", partial,
                ctype);
        for (int i = 0; i < n; i++) {
            int promo = c[at + 1 + i];
            if (promo < -1 || promo >= g->ntypes)
                return bad(t, "a piece type out of range");
            put(b, "if (api->emission(r, %d, %d, %d)) RET;\n", promo,
                partial, ctype);
        }
        break;
    }
    case OP_FROM:
        if (loc_expr(t, c[pc + 1], L, sizeof L))
            return -1;
        put(b, "{ int p = %s; if (p < 0) RET; RD(p); if (!W[p]) "
            "RET; mp = W[p]; mo = p; active = 1; }\n", L);
        break;
    case OP_TO:
        if (loc_expr(t, c[pc + 1], L, sizeof L))
            return -1;
        put(b, "{ int p = %s; if (p < 0 || !active) RET; if (mo >= 0) "
            "WSET(mo, 0); WSET(p, mp); active = 0; }\n", L);
        break;
    case OP_CASCADE:
        if (loc_expr(t, c[pc + 1], L, sizeof L))
            return -1;
        put(b, "{ int p = %s; if (p < 0) RET; RD(p);\n"
            "  if (active) { uint16_t nx = W[p]; if (mo >= 0) WSET(mo, 0); "
            "WSET(p, mp); if (!nx) RET; mp = nx; mo = -1; }\n"
            "  else { if (!W[p]) RET; mp = W[p]; mo = p; active = 1; "
            "} }\n", L);
        break;
    case OP_CAPTURE:
        if (loc_expr(t, c[pc + 1], L, sizeof L))
            return -1;
        put(b, "{ int p = %s; if (p >= 0) WSET(p, 0); }\n", L);
        break;
    case OP_FLIP:
    case OP_CHOWNER:
        if (loc_expr(t, c[pc + 1], L, sizeof L))
            return -1;
        if (op == OP_CHOWNER)
            put(b, "{ int p = %s; if (p >= 0) RD(p); if (p >= 0 && W[p]) "
                "WSET(p, (W[p] & 0xf0ff) | (player << 8)); }\n", L);
        else
            put(b, "{ int p = %s; if (p >= 0) RD(p); if (p >= 0 && W[p]) "
                "WSET(p, (W[p] & 0xf0ff) | ((((W[p] >> 8) & 0xf) + 1) %% "
                "%d) << 8); }\n", L, g->nplayers);
        break;
    case OP_CHTYPE: {
        int ty = c[pc + 1];
        if (ty < 0 || ty >= g->ntypes)
            return bad(t, "a piece type out of range");
        if (loc_expr(t, c[pc + 2], L, sizeof L))
            return -1;
        put(b, "{ int p = %s; if (p >= 0) RD(p); if (p >= 0 && W[p]) "
            "WSET(p, (W[p] & 0xff00) | %d); if (p >= 0 && p == mo && "
            "active) mp = (uint16_t)((mp & 0xff00) | %d); }\n", L, ty + 1,
            ty + 1);
        break;
    }
    case OP_CREATE: {
        int ow = c[pc + 1], ty = c[pc + 2];
        if (ow < -1 || ow >= g->nplayers || ty < 0 || ty >= g->ntypes)
            return bad(t, "a piece out of range");
        if (loc_expr(t, c[pc + 3], L, sizeof L))
            return -1;
        unsigned attrs = 0;
        for (int a = 0; a < g->nattrs && a < ZMAX_ATTRS; a++)
            if (g->attr_default[a])
                attrs |= 1u << (12 + a);
        if (ow < 0)
            put(b, "{ int p = %s; if (p < 0) RET; WSET(p, %u | (player "
                "<< 8)); }\n", L, (unsigned)(ty + 1) | attrs);
        else
            put(b, "{ int p = %s; if (p < 0) RET; WSET(p, %u); }\n", L,
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
        put(b, "if (mark < 0) RET; cursor = mark;\n");
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
            "  else { RD(cursor); if (W[cursor]) WSET(cursor, v ? (W[cursor] "
            "| bit) : (W[cursor] & ~bit)); } }\n", 1u << (12 + a));
        break;
    }
    default:    /* OP_END, OP_ADDCOPY, unknown: the machine stops */
        put(b, "RET;\n");
        *next = -1;
        return 0;
    }
    return 0;
}

static const char prelude[] =
    "#define RD(p) do { if (r->rd) r->rd[(p) >> 6] |= 1ULL << ((p) & 63); "
    "} while (0)\n"
    "#define SY() (r->cursor = cursor, r->mark = mark, r->flags = flags, "
    "r->mp = mp, r->mo = mo, r->active = active)\n"
    "#define STEP do { if (++steps > ZRUN_MAX_STEPS) RET; } while (0)\n"
    "#define WSET(p_, v_) do { int wp = (p_); uint16_t wv = (uint16_t)(v_); "
    "if (!r->written) { memcpy(r->buf, W, sizeof *W * NPOS); r->W = W = "
    "r->buf; r->written = 1; } if (r->nwl < ZRUN_MAX_WRITES) "
    "r->wl[r->nwl++] = (int16_t)wp; else r->wl_over = 1; r->buf[wp] = wv; "
    "} while (0)\n"
    "static inline int c_empty(Run *r, const uint16_t *W, int p)\n"
    "{ if (p < 0) return 0; RD(p); return !W[p]; }\n"
    "static inline int c_friend(Run *r, const uint16_t *W, int p, int pl)\n"
    "{ if (p < 0) return 0; RD(p); return W[p] && ((W[p] >> 8) & 0xf) == "
    "pl; }\n"
    "static inline int c_enemy(Run *r, const uint16_t *W, int p, int pl)\n"
    "{ if (p < 0) return 0; RD(p); return W[p] && ((W[p] >> 8) & 0xf) != "
    "pl; }\n"
    "static inline int c_none(Run *r, int p)\n"
    "{ if (p < 0) return 0; RD(p); return 0; }\n"
    "static inline int c_piece(Run *r, const uint16_t *W, int p, int t)\n"
    "{ if (p < 0) return 0; RD(p); return W[p] && (int)(W[p] & 0xff) - 1 "
    "== t; }\n"
    "static inline int c_zone(Run *r, const ZcApi *api, int p, int z)\n"
    "{ if (p < 0) return 0; RD(p); return api->zone[z + r->player * "
    "ZMAX_POS + p] != 0; }\n"
    "static inline int c_pos(Run *r, int p, int q)\n"
    "{ if (p < 0) return 0; RD(p); return p == q; }\n"
    "static inline int c_pflag(Run *r, int p)\n"
    "{ if (p < 0) return 0; RD(p); return (r->pflag[p >> 3] >> (p & 7)) & "
    "1; }\n"
    "static inline int c_attr(Run *r, const uint16_t *W, int p, int a)\n"
    "{ if (p < 0) return 0; RD(p); return W[p] && ((W[p] >> (12 + a)) & "
    "1); }\n";

/* Template ti's instructions, every one reachable from its start, in
 * code order, labelled L<ti>_<pc>; RET leaves the template. */
static void body(Tr *t, int ti, uint8_t *seen, int *work, long *insns)
{
    const ZGame *g = t->g;
    Buf *b = t->b;
    const ZTemplate *tp = &g->tmpl[ti];
    t->ti = ti;
    if (tp->code < 0 || tp->code >= g->ncode) {
        bad(t, "a template out of range");
        return;
    }
    memset(seen, 0, (size_t)g->ncode + 1);
    int nw = 0;
    work[nw++] = tp->code;
    seen[tp->code] = 1;
    while (nw) {
        int pc = work[--nw];
        int l = insn_len(g, pc), op = g->code[pc];
        if (l < 0 || op == OP_END || op == OP_JMP ||
            op < 0 || op > OP_SETATTR || op == OP_ADDCOPY) {
            if (op == OP_JMP && l > 0) {
                int to = g->code[pc + 1];
                if (to >= 0 && to < g->ncode && !seen[to])
                    seen[to] = 1, work[nw++] = to;
            }
            continue;
        }
        if (op == OP_JF) {
            int to = g->code[pc + 2];
            if (to >= 0 && to < g->ncode && !seen[to])
                seen[to] = 1, work[nw++] = to;
        }
        int nx = pc + l;
        if (nx < g->ncode && !seen[nx])
            seen[nx] = 1, work[nw++] = nx;
    }
    put(b, "goto L%d_%d;\n", ti, tp->code);
    for (int pc = 0; pc < g->ncode && !t->why; pc++) {
        if (!seen[pc])
            continue;
        if (++*insns > ZCC_MAX_INSNS) {
            bad(t, "too many instructions to compile");
            return;
        }
        int next;
        if (insn(t, tp, pc, &next))
            return;
        if (next >= g->ncode)
            put(b, "RET;\n");
        else if (next >= 0)
            put(b, "goto L%d_%d;\n", ti, next);
    }
}

/* The generated source; NULL with the reason in t->why. */
static char *translate(const ZGame *g, size_t *len, const char **why)
{
    Buf b = {0};
    Tr t = {g, &b, 0, NULL};
    *why = NULL;
    if (g->ncode > 8 * ZCC_MAX_INSNS) {
        /* an instruction is at most a few words: too many anyway */
        *why = "too many instructions to compile";
        return NULL;
    }
    uint8_t *seen = calloc((size_t)g->ncode + 1, 1);
    int *work = malloc(sizeof *work * ((size_t)g->ncode + 1));
    if (!seen || !work) {
        free(seen);
        free(work);
        *why = "out of memory";
        return NULL;
    }
    put(&b, "/* Generated by ply from a ZRF file's move templates: the "
        "machine's bytecode as C. Numbers only; do not edit. */\n"
        "#include <stdint.h>\n#include <string.h>\n"
        "enum { ZMAX_POS = %d, ZRUN_MAX_WRITES = %d, ZRUN_MAX_STEPS = %d, "
        "NPOS = %d };\n%s%s", ZMAX_POS, ZRUN_MAX_WRITES, ZRUN_MAX_STEPS,
        g->npos, ZCC_TEXT, prelude);
    long insns = 0;
    /* per piece type, its move templates (not drops) one after the other
     * from one square, collecting (gen_raw's loop, vm.c) */
    for (int ty = 0; ty < g->ntypes && !t.why; ty++) {
        int t0 = g->piece_tmpl[ty * 2], nt = g->piece_ntmpl[ty * 2];
        if (t0 < 0 || nt < 0 || t0 + nt > g->ntmpl) {
            bad(&t, "a template out of range");
            break;
        }
        put(&b, "static int g%d(Run *r, const ZcApi *api, int start, int "
            "rmt, int16_t *mt, const uint16_t *cells)\n{\n"
            "const int16_t *lk = r->lk; const int player = r->player;\n"
            "(void)lk; (void)player; (void)api; (void)cells; (void)start;\n",
            ty);
        for (int ti = t0; ti < t0 + nt && !t.why; ti++) {
            const ZTemplate *tp = &g->tmpl[ti];
            put(&b, "if (rmt < 0 || rmt == %d) {\n"
                "const uint16_t *W = cells; int cursor = start, mark = -1, "
                "mo = start, active = 1;\nuint16_t mp = cells[start]; "
                "uint32_t flags = 0; long steps = 0; int before = r->nout;\n"
                "r->W = cells; r->written = 0; r->nwl = 0; r->wl_over = 0; "
                "r->tmpl = %d; r->start = start; r->k = 0; r->found = 0;\n"
                "RD(start);\n%s"
                "#define RET goto E%d\n", tp->mtype, ti,
                g->npflags ? "memset(r->pflag, 0, (NPOS + 7) / 8);\n" : "",
                ti);
            body(&t, ti, seen, work, &insns);
            put(&b, "#undef RET\nE%d:\n"
                "if (mt) for (int i = before; i < r->nout; i++) mt[i] = %d;\n"
                "if (r->nout >= r->max) return 1;\n}\n", ti, tp->mtype);
        }
        put(&b, "return 0;\n}\n");
    }
    free(seen);
    free(work);
    if (!t.why) {
        put(&b, "int (*const zc_gen[])(Run *, const ZcApi *, int, int, "
            "int16_t *, const uint16_t *) = {\n");
        for (int ty = 0; ty < g->ntypes; ty++)
            put(&b, "g%d,%s", ty, ty % 16 == 15 ? "\n" : " ");
        put(&b, "};\nconst int zc_ntypes = %d;\n", g->ntypes);
    }
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
    ZcGen const *gen = dlsym(h, "zc_gen");
    if (!nty || !gen || *nty != g->ntypes) {
        dlclose(h);
        return -1;
    }
    ZcApi *api = malloc(sizeof *api);
    if (!api) {
        dlclose(h);
        return -1;
    }
    api->emission = zvm_emission;
    api->cond = zvm_cond;
    api->resolve = zvm_resolve;
    api->zone = g->zone;
    g->zc_handle = h;
    g->zc_api = api;
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
    char *argv[] = {cc, "-O2", "-shared", "-fPIC", "-w", "-o", tmp, src,
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
    dlclose(g->zc_handle);
    free(g->zc_api);
    g->zc_handle = NULL;
    g->zc_api = NULL;
}
