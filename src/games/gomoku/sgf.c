/* sgf.c — SGF FF[4] records (GM[4]) of gomoku and renju, written and read
 * on the generic reader of core/sgf.h. Points are two lower-case letters,
 * column then row from the top left (Gomocup's x,y). The writer puts the
 * size in SZ, the game in PLYGAME, Ply's options in PLYOPTIONS; a setup
 * string becomes AB/AW/PL. The reader follows the main line, replays
 * every move through the rules (renju's forbidden points included) and
 * reports the first bad one; it never trusts the input. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"
#include "../../core/setup.h"
#include "../../core/sgf.h"
#include "gomoku.h"

extern const GameVtbl game_gomoku, game_renju;

static void put_point(FILE *out, int p)
{
    fputc('a' + p % GK_STRIDE - 1, out);
    fputc('a' + p / GK_STRIDE - 1, out);
}

static void write_root(const GameVtbl *g, const void *p, FILE *out)
{
    const GkState *st = p;
    fprintf(out, "SZ[%d]PLYGAME[%s]", st->size, g->info.name);
}

static void write_setup(const void *a, const void *b, FILE *out)
{
    const GkState *st = a, *start = b;
    int setup = memcmp(st->cell, start->cell, sizeof st->cell) ||
                st->side != start->side;
    for (int c = GK_BLACK; setup && c <= GK_WHITE; c++) {
        int first = 1;
        for (int p = 0; p < GK_CELLS; p++)
            if (st->cell[p] == c) {
                if (first)
                    fputs(c == GK_BLACK ? "\nAB" : "\nAW", out);
                first = 0;
                fputc('[', out);
                put_point(out, p);
                fputc(']', out);
            }
    }
    if (setup)
        fprintf(out, "PL[%c]", st->side ? 'W' : 'B');
}

static void write_move(const void *st, Move m, FILE *out)
{
    (void)st;
    put_point(out, (int)m);
}

static const SgfWriter gk_writer = {
    .gm = 4, .root = write_root, .setup = write_setup, .point = write_move,
};

static int sgf_write(const GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    if (g->info.state_size != sizeof(GkState))
        return ply_fail(err, "%s has no GM[4] SGF here", g->info.name);
    return sgf_write_record(g, r, &gk_writer, out, err);
}

/* A point "xy" of a size board as Gomocup's "x,y", or -1. */
static int sgf_xy(const SgfProp *p, int size, char *buf, size_t n)
{
    if (p->len != 2)
        return -1;
    int x = p->val[0] - 'a', y = p->val[1] - 'a';
    if (x < 0 || x >= size || y < 0 || y >= size)
        return -1;
    snprintf(buf, n, "%d,%d", x, y);
    return (y + 1) * GK_STRIDE + x + 1;
}

typedef struct ReadCtx {
    const GameVtbl *g;
    RecordSink sink;
    void *ctx;
} ReadCtx;

static int interpret(SgfParser *ps, int number, void *vctx)
{
    ReadCtx *rx = vctx;
    PlyError *err = ps->err;
    const GameVtbl *g = rx->g;
    char val[512], opts[512] = "";
    char setup[GK_CELLS + 8];
    int size = 15, have_opts = 0, rc = -1;
    const char *setup_text = NULL;
    SgfCommon c;
    char (*mv)[8] = NULL;
    const char **mvp = NULL;
    GkState *st = malloc(sizeof *st), *start = malloc(sizeof *start);
    if (!st || !start) {
        ply_fail(err, "out of memory");
        goto done;
    }
    if (sgf_common(ps, &c))
        goto done;
    for (int i = 0; i < ps->nprops; i++) {
        SgfProp *p = &ps->props[i];
        if (p->node != 0)
            continue;
        sgf_unescape(p, val, sizeof val);
        int line = sgf_line_of(ps, p->at);
        if (sgf_prop_is(p, "GM")) {
            if (strcmp(val, "4")) {
                ply_fail(err, "sgf line %d: GM[%s] is not gomoku (GM[4])",
                         line, val);
                goto done;
            }
        } else if (sgf_prop_is(p, "SZ")) {
            char *end;
            long a = strtol(val, &end, 10), b = a;
            if (*end == ':')
                b = strtol(end + 1, &end, 10);
            if (end == val || *end || a != b || a < 5 || a > GK_MAX_SIZE) {
                ply_fail(err, "sgf line %d: SZ[%s]: Ply plays square boards "
                         "5..%d", line, val, GK_MAX_SIZE);
                goto done;
            }
            size = (int)a;
        } else if (sgf_prop_is(p, "PLYGAME")) {
            if (!strcmp(val, game_gomoku.info.name))
                g = &game_gomoku;
            else if (!strcmp(val, game_renju.info.name))
                g = &game_renju;
            else {
                ply_fail(err, "sgf line %d: PLYGAME[%s] is not gomoku or "
                         "renju", line, val);
                goto done;
            }
        } else if (sgf_prop_is(p, "PLYOPTIONS")) {
            sgf_unescape(p, opts, sizeof opts);
            have_opts = 1;
        }
    }
    if (!have_opts && size != 15)
        snprintf(opts, sizeof opts, "size=%d", size);
    if (state_setup(g, start, opts, NULL, 1, err))
        goto done;
    size = start->size;
    /* setup stones, on the first node only */
    GkState board = *start;
    int any_setup = 0;
    for (int i = 0; i < ps->nprops; i++) {
        SgfProp *p = &ps->props[i];
        int ab = sgf_prop_is(p, "AB"), aw = sgf_prop_is(p, "AW");
        int ae = sgf_prop_is(p, "AE");
        if (!ab && !aw && !ae)
            continue;
        int line = sgf_line_of(ps, p->at);
        char xy[16];
        int q = sgf_xy(p, size, xy, sizeof xy);
        if (q < 0) {
            ply_fail(err, "sgf line %d: %s[%.*s] is not a point of the %dx%d "
                     "board", line, p->id, (int)(p->len > 8 ? 8 : p->len),
                     p->val, size, size);
            goto done;
        }
        board.cell[q] = ab ? GK_BLACK : aw ? GK_WHITE : GK_EMPTY;
        any_setup = 1;
    }
    int side = c.pl >= 0 ? c.pl : c.first_mover >= 0 ? c.first_mover : 0;
    if (any_setup || side != 0) {
        if (g->to_text(&board, setup, sizeof setup) < 0) {
            ply_fail(err, "sgf: cannot write the setup");
            goto done;
        }
        setup[strlen(setup) - 1] = side ? 'w' : 'b';
        setup_text = setup;
    }
    if (state_setup(g, st, opts, setup_text, 1, err))
        goto done;
    mv = calloc((size_t)c.nmoves + 1, sizeof *mv);
    mvp = calloc((size_t)c.nmoves + 1, sizeof *mvp);
    if (!mv || !mvp) {
        ply_fail(err, "out of memory");
        goto done;
    }
    int k = 0;
    for (int i = 0; i < ps->nprops; i++) {
        SgfProp *p = &ps->props[i];
        if (!sgf_prop_is(p, "B") && !sgf_prop_is(p, "W"))
            continue;
        int line = sgf_line_of(ps, p->at);
        if (sgf_check_turn(ps, p, g->to_move(st)))
            goto done;
        char xy[16];
        if (sgf_xy(p, size, xy, sizeof xy) < 0) {
            ply_fail(err, "sgf line %d: %s[%.*s] is not a point of the %dx%d "
                     "board", line, p->id, (int)(p->len > 8 ? 8 : p->len),
                     p->val, size, size);
            goto done;
        }
        Move m;
        PlyError e2 = {{0}};
        if (g->text_to_move(st, xy, &m, &e2) ||
            g->move_to_text(st, m, mv[k], sizeof mv[k]) < 0) {
            ply_fail(err, "sgf line %d: move %d %s[%.2s]: %s", line, k + 1,
                     p->id, p->val, e2.msg[0] ? e2.msg : "cannot write it");
            goto done;
        }
        g->make(st, m);
        mvp[k] = mv[k];
        k++;
    }
    rc = sgf_emit_record(g, &c, opts, setup_text, mvp, k, number, rx->sink,
                         rx->ctx, err);
done:
    free(mv);
    free(mvp);
    free(st);
    free(start);
    return rc;
}

static int sgf_read(const GameVtbl *g, const char *text, size_t len,
                    RecordSink sink, void *ctx, PlyError *err)
{
    ReadCtx rx = {g, sink, ctx};
    return sgf_read_games(text, len, err, interpret, &rx);
}

static int sgf_claims(const char *text, size_t len)
{
    return sgf_game_type(text, len) == 4;
}

const GameFormat gk_format_sgf = {
    .name = "sgf", .extension = "sgf",
    .write_record = sgf_write, .read_records = sgf_read,
    .claims = sgf_claims,
};
