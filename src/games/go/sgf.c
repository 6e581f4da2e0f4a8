/* sgf.c — SGF FF[4] records (GM[1]) of go and atari-go, written and
 * read. Points are two lower-case letters, column then row from the top
 * left; a pass is written B[] and read as B[] or B[tt]. The writer puts
 * the rules in SZ, KM, HA (with the stones in AB) and RU, Ply's own
 * options in PLYOPTIONS and atari-go in PLYGAME; a setup string becomes
 * AB/AW/PL (its superko history is not kept). The reader follows the
 * main line (the first variation at each branch), replays every move
 * and reports the first bad one; it never trusts the input. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"
#include "../../core/setup.h"
#include "../../core/sgf.h"
#include "go.h"

/* ---------------------------------------------------------- writing */

static void put_point(FILE *out, const GoState *s, int p)
{
    fputc('a' + go_x(p), out);
    fputc('a' + (s->size - 1 - go_y(p)), out);
}

static void write_root(const GameVtbl *g, const void *p, FILE *out)
{
    const GoState *st = p;
    fprintf(out, "SZ[%d]", st->size);
    if (st->kind != GO_KIND_ATARI)
        fprintf(out, "KM[%s]RU[%s]", go_komi_text(st->komi2),
                st->suicide ? "Tromp-Taylor" : "Chinese");
    else
        fprintf(out, "PLYGAME[%s]", g->info.name);
}

static void write_setup(const void *a, const void *b, FILE *out)
{
    const GoState *st = a, *start = b;
    int setup = memcmp(st->color, start->color, sizeof st->color) ||
                st->side != start->side;
    if (!setup && st->handicap)
        fprintf(out, "HA[%d]", st->handicap);
    const GoState *board = setup ? st : start;
    for (int c = GO_BLACK; c <= GO_WHITE; c++) {
        int first = 1;
        for (int p = 0; p < GO_PTS; p++)
            if (board->color[p] == c) {
                if (first)
                    fputs(c == GO_BLACK ? "\nAB" : "\nAW", out);
                first = 0;
                fputc('[', out);
                put_point(out, board, p);
                fputc(']', out);
            }
    }
    if (setup)
        fprintf(out, "PL[%c]", st->side ? 'W' : 'B');
}

static void write_move(const void *p, Move m, FILE *out)
{
    if (m != GO_PASS)
        put_point(out, p, (int)m);
}

static int write_score(const void *p, int winner, char *buf, size_t n)
{
    const GoState *st = p;
    return st->kind == GO_KIND_ATARI ? -1 : go_score_text(st, winner, buf, n);
}

static const SgfWriter go_writer = {
    .gm = 1, .root = write_root, .setup = write_setup, .point = write_move,
    .score = write_score,
};

static int sgf_write(const GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    if (g->info.state_size != sizeof(GoState))
        return ply_fail(err, "%s has no SGF here", g->info.name);
    return sgf_write_record(g, r, &go_writer, out, err);
}

/* ---------------------------------------------------------- reading */

/* A point "xy" on a size board; GO_PASS for "" and (size <= 19) "tt". */
static int sgf_point(const SgfProp *p, int size, int pass_ok)
{
    if (pass_ok && (p->len == 0 ||
                    (p->len == 2 && !memcmp(p->val, "tt", 2) && size <= 19)))
        return GO_PASS;
    if (p->len != 2)
        return -1;
    int x = p->val[0] - 'a', row = p->val[1] - 'a';
    if (x < 0 || x >= size || row < 0 || row >= size)
        return -1;
    return go_point(x, size - 1 - row);
}

typedef struct Game {
    char opts[512], setup[600];
    SgfCommon c;
    char (*mv)[8];
    const char **mvp;
} Game;

static int interpret(SgfParser *ps, const GameVtbl *g0, int number,
                     RecordSink sink, void *ctx)
{
    PlyError *err = ps->err;
    const GameVtbl *g = g0;
    char val[512];
    int size = 19, have_size = 0, ha = 0, komi2 = 0, have_komi = 0;
    int have_opts = 0;
    Game *gm = calloc(1, sizeof *gm);
    GoState *st = malloc(sizeof *st), *start = malloc(sizeof *start);
    int rc = -1;
    if (!gm || !st || !start) {
        ply_fail(err, "out of memory");
        goto done;
    }
    /* the root node */
    if (sgf_common(ps, &gm->c))
        goto done;
    for (int i = 0; i < ps->nprops; i++) {
        SgfProp *p = &ps->props[i];
        if (p->node != 0)
            continue;
        sgf_unescape(p, val, sizeof val);
        int line = sgf_line_of(ps, p->at);
        if (sgf_prop_is(p, "GM")) {
            if (strcmp(val, "1")) {
                ply_fail(err, "sgf line %d: GM[%s] is not Go (GM[1])", line,
                         val);
                goto done;
            }
        } else if (sgf_prop_is(p, "SZ")) {
            char *end;
            long a = strtol(val, &end, 10), b = a;
            if (*end == ':')
                b = strtol(end + 1, &end, 10);
            if (end == val || *end || a != b || a < 2 || a > GO_MAXN) {
                ply_fail(err, "sgf line %d: SZ[%s]: Ply plays square boards "
                         "2..19", line, val);
                goto done;
            }
            size = (int)a;
            have_size = 1;
        } else if (sgf_prop_is(p, "KM")) {
            if (go_komi_parse(val, &komi2)) {
                ply_fail(err, "sgf line %d: KM[%s]: komi is -10..20 by "
                         "halves here", line, val);
                goto done;
            }
            have_komi = 1;
        } else if (sgf_prop_is(p, "HA")) {
            char *end;
            long h = strtol(val, &end, 10);
            if (end == val || *end || h < 0 || h > 9) {
                ply_fail(err, "sgf line %d: HA[%s] is not 0..9", line, val);
                goto done;
            }
            ha = (int)h;
        } else if (sgf_prop_is(p, "PLYGAME")) {
            if (!strcmp(val, game_go.info.name))
                g = &game_go;
            else if (!strcmp(val, game_atari_go.info.name))
                g = &game_atari_go;
            else {
                ply_fail(err, "sgf line %d: PLYGAME[%s] is not go or "
                         "atari-go", line, val);
                goto done;
            }
        } else if (sgf_prop_is(p, "PLYOPTIONS")) {
            sgf_unescape(p, gm->opts, sizeof gm->opts);
            have_opts = 1;
        }
    }
    if (g == &game_atari_go)
        have_komi = 0;
    if (!have_opts) {
        size_t k = 0;
        gm->opts[0] = 0;
        if (have_size)
            k += (size_t)snprintf(gm->opts + k, sizeof gm->opts - k,
                                  "size=%d", size);
        else if (g == &game_atari_go) {
            /* SGF's default is 19x19, atari-go's 9x9: say it */
            k += (size_t)snprintf(gm->opts + k, sizeof gm->opts - k,
                                  "size=19");
        }
        if (have_komi)
            k += (size_t)snprintf(gm->opts + k, sizeof gm->opts - k,
                                  "%skomi=%s", k ? "," : "",
                                  go_komi_text(komi2));
        if (ha >= 2 && g == &game_go) {
            /* HA counts as a fixed handicap when AB holds those points */
            int pts[9], n = go_handicap_points(size, ha, pts);
            int ok = n == ha;
            for (int i = 0; ok && i < n; i++) {
                int found = 0;
                for (int j = 0; j < ps->nprops; j++) {
                    SgfProp *p = &ps->props[j];
                    if (p->node == 0 && sgf_prop_is(p, "AB") &&
                        sgf_point(p, size, 0) == pts[i])
                        found = 1;
                }
                ok = found;
            }
            if (ok)
                snprintf(gm->opts + k, sizeof gm->opts - k,
                         "%shandicap=%d", k ? "," : "", ha);
        }
    }
    if (state_setup(g, start, gm->opts, NULL, 1, err))
        goto done;
    size = start->size;
    /* setup stones: a board unlike the start becomes a setup string */
    uint8_t board[GO_PTS];
    memcpy(board, start->color, sizeof board);
    int any_setup = 0;
    for (int i = 0; i < ps->nprops; i++) {
        SgfProp *p = &ps->props[i];
        int ab = sgf_prop_is(p, "AB"), aw = sgf_prop_is(p, "AW"), ae = sgf_prop_is(p, "AE");
        if (!ab && !aw && !ae)
            continue;
        int line = sgf_line_of(ps, p->at);
        /* a compressed list "aa:cc" is a rectangle */
        int x0, y0, x1, y1;
        if (p->len == 5 && p->val[2] == ':') {
            SgfProp a = *p, b = *p;
            a.len = 2;
            b.val += 3;
            b.len = 2;
            int pa = sgf_point(&a, size, 0), pb = sgf_point(&b, size, 0);
            if (pa < 0 || pb < 0) {
                ply_fail(err, "sgf line %d: %s[%.5s] is not on the board",
                         line, p->id, p->val);
                goto done;
            }
            x0 = go_x(pa), x1 = go_x(pb), y0 = go_y(pb), y1 = go_y(pa);
        } else {
            int q = sgf_point(p, size, 0);
            if (q < 0) {
                ply_fail(err, "sgf line %d: %s[%.*s] is not a point of the "
                         "%dx%d board", line, p->id, (int)(p->len > 8 ? 8
                         : p->len), p->val, size, size);
                goto done;
            }
            x0 = x1 = go_x(q);
            y0 = y1 = go_y(q);
        }
        if (x0 > x1 || y0 > y1) {
            ply_fail(err, "sgf line %d: %s rectangle is upside down", line,
                     p->id);
            goto done;
        }
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++)
                board[go_point(x, y)] = ab ? GO_BLACK : aw ? GO_WHITE
                                                           : GO_EMPTY;
        any_setup = 1;
    }
    int first_mover = gm->c.first_mover;
    int side = gm->c.pl >= 0 ? gm->c.pl
             : first_mover >= 0 ? first_mover : start->side;
    const char *setup = NULL;
    if (any_setup && (memcmp(board, start->color, sizeof board) ||
                      side != start->side)) {
        size_t k = 0;
        for (int y = size - 1; y >= 0; y--) {
            for (int x = 0; x < size; x++)
                gm->setup[k++] = ".XO"[board[go_point(x, y)]];
            gm->setup[k++] = y ? '/' : ' ';
        }
        gm->setup[k++] = side ? 'w' : 'b';
        gm->setup[k] = 0;
        setup = gm->setup;
    } else if (!any_setup && side != start->side && first_mover >= 0) {
        ply_fail(err, "sgf: the first move is %c's but %s moves first here",
                 first_mover ? 'W' : 'B', start->side ? "White" : "Black");
        goto done;
    }
    if (state_setup(g, st, gm->opts, setup, 1, err))
        goto done;
    /* the moves */
    gm->mv = calloc((size_t)gm->c.nmoves + 1, sizeof *gm->mv);
    gm->mvp = calloc((size_t)gm->c.nmoves + 1, sizeof *gm->mvp);
    if (!gm->mv || !gm->mvp) {
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
        int q = sgf_point(p, size, 1);
        if (q < 0) {
            ply_fail(err, "sgf line %d: %s[%.*s] is not a point of the %dx%d "
                     "board", line, p->id, (int)(p->len > 8 ? 8 : p->len),
                     p->val, size, size);
            goto done;
        }
        if (g->move_to_text(st, (Move)q, gm->mv[k], sizeof gm->mv[k]) < 0) {
            ply_fail(err, "sgf line %d: cannot write the move", line);
            goto done;
        }
        Move m;
        PlyError e2 = {{0}};
        if (g->text_to_move(st, gm->mv[k], &m, &e2)) {
            ply_fail(err, "sgf line %d: move %d %s[%.2s] (%s): %s", line, k + 1,
                     p->id, p->val, gm->mv[k], e2.msg);
            goto done;
        }
        g->make(st, m);
        gm->mvp[k] = gm->mv[k];
        k++;
    }
    rc = sgf_emit_record(g, &gm->c, gm->opts, setup, gm->mvp, k, number,
                         sink, ctx, err);
done:
    if (gm) {
        free(gm->mv);
        free(gm->mvp);
    }
    free(gm);
    free(st);
    free(start);
    return rc;
}

typedef struct ReadCtx {
    const GameVtbl *g;
    RecordSink sink;
    void *ctx;
} ReadCtx;

static int read_one(SgfParser *ps, int number, void *ctx)
{
    ReadCtx *rc = ctx;
    return interpret(ps, rc->g, number, rc->sink, rc->ctx);
}

static int sgf_read(const GameVtbl *g, const char *text, size_t len,
                    RecordSink sink, void *ctx, PlyError *err)
{
    ReadCtx rc = {g, sink, ctx};
    return sgf_read_games(text, len, err, read_one, &rc);
}

/* The area score of a finished game as SGF and GTP write it: "B+3.5",
 * "W+12", "0" for a draw; just "B+" when the winner (returns(), -1 for a
 * draw) is not the one the count says (a game cut off, say). */
int go_score_text(const GoState *st, int winner, char *buf, size_t n)
{
    if (winner == -1)
        return snprintf(buf, n, "0");
    int b = game_go.score(st, 0), w = game_go.score(st, 1);
    int comp = st->comp == 1 ? st->handicap
             : st->comp == 2 && st->handicap ? st->handicap - 1 : 0;
    int d2 = 2 * (b - w - comp) - st->komi2;
    int a = d2 < 0 ? -d2 : d2;
    if (d2 == 0 || (d2 > 0) != (winner == 0))
        return snprintf(buf, n, "%c+", winner ? 'W' : 'B');
    return snprintf(buf, n, "%c+%d%s", winner ? 'W' : 'B', a / 2,
                    a % 2 ? ".5" : "");
}

/* GTP final_score of go (atari-go has a winner and no count). */
static int gtp_score(const void *p, char *buf, size_t n)
{
    const GoState *st = p;
    double r[2];
    if (st->kind == GO_KIND_ATARI) {
        game_atari_go.returns(st, r);
        return snprintf(buf, n, r[0] > r[1] ? "B+" : r[1] > r[0] ? "W+" : "0");
    }
    game_go.returns(st, r);
    return go_score_text(st, r[0] > r[1] ? 0 : r[1] > r[0] ? 1 : -1, buf, n);
}

/* GTP: Ply's move notation is GTP's vertex notation (A1..T19 without I,
 * pass), so nothing is converted. */
const GameFormat go_format_gtp = {
    .name = "gtp", .variant = "go", .flags = FORMAT_NATIVE,
    .score_text = gtp_score,
    .stones = go_gtp_stones, .cleanup_moves = go_gtp_cleanup_moves,
    .handicap_setup = go_gtp_handicap_setup,
};

static int sgf_claims(const char *text, size_t len)
{
    return sgf_game_type(text, len) == 1;
}

const GameFormat go_format_sgf = {
    .name = "sgf", .extension = "sgf",
    .write_record = sgf_write, .read_records = sgf_read,
    .claims = sgf_claims,
};
