/* zcc.h — what the template machine (vm.c) shares with the compiled move
 * generators (zcc.c): the state of one template run, and the calls a
 * generated function makes back into the machine.
 *
 * A game's templates can be translated to C, compiled by the system C
 * compiler into a shared object in a private cache directory, and loaded
 * with dlopen; move generation then runs each piece's templates as one
 * native function with the machine's exact semantics (see docs/zrf.md). The generated source gets
 * these definitions as text (ZCC_TEXT below), so the structures the
 * object was compiled against are the ones this program uses, and the
 * text is part of the cache key. */
#ifndef PLY_ZRF_ZCC_H
#define PLY_ZRF_ZCC_H

#include <stdint.h>

#include "zrf.h"

enum { ZRUN_MAX_STEPS = 100000, ZRUN_MAX_WRITES = 64 };

/* The checkmated rule for one position and player, worked out once per
 * move generation: is a royal piece attacked now, and which squares the
 * attack probes read (S). A move that changes no square of S and puts
 * no new enemy or royal piece anywhere leaves every probe as it was, so
 * the answer stands without running them again. */
#define ZCC_LEGAL_BODY { \
    int ready; \
    int attacked_now; \
    int exact; /* the probes read no last-from/last-to */ \
    uint64_t S[ZMAX_POS / 64]; \
    /* attacked? answered for these squares (att_known), with att_val */ \
    uint64_t att_known[ZMAX_POS / 64], att_val[ZMAX_POS / 64]; \
}
typedef struct Legal ZCC_LEGAL_BODY Legal;

/* One template run (fields in order):
 * g s player tmpl start: the rules, the position, who moves, which
 *   template from which square;
 * lk lk_opp: links for this player (plink) and the offset of the opposite
 *   directions;
 * W: the board as the template sees it; buf: its private copy, made at
 *   the first write (written);
 * cursor mark; mp: the moving piece, mo its square (-1 in hand), active: a
 *   piece is moving; copy: this emission is add-copy; flags pflag;
 * k: emissions so far; mode: 0 collect, 1 stop at target, 2 probe;
 * out nout max: collected moves; target; res_*: the target emission's
 *   results (res_W NULL: the caller reads the run instead), found;
 * probe_pos probe_old: probe: an emission that changes this square;
 * aborted; rd: probe: the squares read (NULL: untracked); used_last:
 *   read last-from/last-to; wl nwl wl_over: the squares written, in
 *   order; lg: collect: keep only legal emissions;
 * native code (zcc.c) only: B, room for the board it writes (a copy of
 *   the position's cells made at the first write of a generation, given
 *   back as the cells at each template's end: wold holds what each
 *   write of wl replaced, to undo them), and mt, the move type of each
 *   collected move when not NULL; cells last_from last_to: the
 *   position's; occ_fr occ_all: boards of 64 squares at most, the
 *   squares of the player's pieces and of all pieces; exists: only
 *   whether there is a move is asked (r->nout 1 when there is, the move
 *   itself perhaps not collected; no legality test). */
#define ZCC_RUN_BODY { \
    const ZGame *g; const ZState *s; int player; int tmpl; int start; \
    const int16_t *lk; int lk_opp; \
    const uint16_t *W; uint16_t *buf; int written; \
    int cursor, mark; uint16_t mp; int mo; int active; int copy; \
    uint32_t flags; uint8_t pflag[ZMAX_POS / 8]; \
    int k; int mode; Move *out; int nout, max; int target; \
    int res_cursor, res_partial, res_ctype, found; \
    uint16_t *res_W; uint16_t res_v; \
    int probe_pos; uint16_t probe_old; int aborted; \
    uint64_t *rd; int used_last; \
    int16_t wl[ZRUN_MAX_WRITES]; int nwl, wl_over; \
    Legal *lg; \
    uint16_t *B; uint16_t wold[ZRUN_MAX_WRITES]; int16_t *mt; \
    const uint16_t *cells; int last_from, last_to; \
    uint64_t occ_fr, occ_all; int exists; \
}
typedef struct Run ZCC_RUN_BODY Run;

/* The machine's side, for what the generated code does not inline:
 * a condition it leaves to the machine; the legality of an emission
 * when the fast test cannot tell (r synchronised, the moving piece as
 * type promo when >= 0); template ti from start on the interpreter (a
 * run that could pass the step limit); the game's zone table. */
#define ZCC_API_BODY { \
    int (*cond)(Run *r, int k); \
    int (*legal)(Run *r, int promo); \
    void (*interp)(Run *r, int ti, int start); \
    const uint8_t *zone; \
}
typedef struct ZcApi ZCC_API_BODY ZcApi;

/* The player's pieces (the bits of occ, words words) each run its
 * type's move templates, on r->cells until a template writes, then on
 * r->B (r->W names the board before each call back). Collecting
 * (r->mode 0) as vm.c's gen_raw does, legal moves only when r->lg is
 * set (ready): move type rmt only when >= 0, the move-priorities when
 * -2 (only the moves of the best rank, vm.c gen_moves_any); 1 when
 * r->max moves are collected. Making a move (r->mode 1): template sel
 * from square sstart to its emission r->target: 2 found (the results in
 * r, the run's board in r->W), 0 not found, 3 the interpreter must do
 * it. */
typedef int (*ZcGen)(Run *r, const ZcApi *api, const uint64_t *occ,
                     int words, int rmt, int sel, int sstart);

/* Boards of 64 squares at most: 1 when a piece of player stands where
 * the prefilter of a template sure to emit past it passes (cells the
 * position's, occ_all and occ_fr its pieces and the player's), that
 * template of move type rmt when rmt >= 0: the player has a move (not
 * asked under the checkmated rule); 0 when none does (he may still have
 * one: zc_gen answers). */
typedef int (*ZcAny)(const uint16_t *cells, uint64_t occ_all,
                     uint64_t occ_fr, int player, int rmt);

#define ZCC_STR_(...) #__VA_ARGS__
#define ZCC_STR(...) ZCC_STR_(__VA_ARGS__)
/* The declarations the generated source starts with (after the enum of
 * the constants they name). */
#define ZCC_TEXT \
    "typedef uint64_t Move;\n" \
    "typedef struct ZGame ZGame;\n" \
    "typedef struct ZState ZState;\n" \
    "typedef struct Legal " ZCC_STR(ZCC_LEGAL_BODY) " Legal;\n" \
    "typedef struct Run " ZCC_STR(ZCC_RUN_BODY) " Run;\n" \
    "typedef struct ZcApi " ZCC_STR(ZCC_API_BODY) " ZcApi;\n"

/* vm.c: the calls a generated function makes. */
int zvm_cond(Run *r, int k);
int zvm_legal(Run *r, int promo);
void zvm_interp(Run *r, int ti, int start);

/* zcc.c */
/* Translates g's templates to C, compiles (or finds in the cache) and
 * loads them; on any failure g keeps the interpreter and g->zc_status
 * says why. path names the rules file (for messages only). Safe to call
 * more than once (does nothing after the first). */
void zcc_attach(ZGame *g);
/* Unloads (before g is freed). */
void zcc_detach(ZGame *g);
/* The generated source for g (malloc'd), or NULL when a template cannot
 * be translated (why in g->zc_status). For tests and `ply rules`. */
char *zcc_source(ZGame *g, size_t *len);

#endif
