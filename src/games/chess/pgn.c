/* pgn.c — PGN records of the 8x8 chess games (chess, makruk, shatranj):
 * the seven-tag roster, Ply's own tags, SAN movetext from cb_move_to_san.
 * Every move is replayed on the board, so a bad record is reported
 * instead of being written out. Also the games' wire dialects (UCI,
 * CECP), which write moves and FEN as Ply does. */
#include <stdio.h>
#include <string.h>

#include "../../core/record.h"
#include "../../core/setup.h"
#include "board.h"

/* PGN's Termination values for the match's forfeit reasons. */
static const char *termination(const char *reason)
{
    if (!strcmp(reason, "time"))
        return "time forfeit";
    if (!strcmp(reason, "illegal"))
        return "rules infraction";
    if (!strcmp(reason, "crash"))
        return "abandoned";
    if (!strcmp(reason, "adjudicated"))
        return "adjudication";
    return reason;
}

/* A comment's text: braces would end it early. */
static void comment_text(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++)
        out[k++] = *in == '{' ? '(' : *in == '}' ? ')' : *in;
    out[k] = 0;
}

static int pgn_write(const GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    PlyError local;
    if (!err)
        err = &local;
    if (g->info.state_size != sizeof(CBoard))
        return ply_fail(err, "%s has no PGN here", g->info.name);
    if (r->nseats != 2)
        return ply_fail(err, "\"seats\" is not a list of two");
    CBoard st, start;
    if (state_setup(g, &start, r->options, NULL, 1, err) ||
        state_setup(g, &st, r->options, r->setup, 1, err))
        return -1;
    char fen[512], startfen[512], buf[512];
    if (g->to_text(&st, fen, sizeof fen) < 0 ||
        g->to_text(&start, startfen, sizeof startfen) < 0)
        return ply_fail(err, "cannot write the position");
    int winner = record_winner(r);
    const char *result = winner == -2 ? "*" : winner == 0 ? "1-0"
                       : winner == 1 ? "0-1" : "1/2-1/2";

    /* the seven-tag roster, then the rest */
    record_put_tag(out, "Event", "Ply match");
    record_put_tag(out, "Site", "?");
    record_put_tag(out, "Date", "????.??.??");
    snprintf(buf, sizeof buf, "%ld", r->index >= 0 ? r->index + 1
             : (long)r->number);
    record_put_tag(out, "Round", buf);
    for (int p = 0; p < 2; p++)
        record_put_tag(out, p ? "Black" : "White",
                       r->seats[p] ? r->seats[p] : "?");
    record_put_tag(out, "Result", result);
    if (strcmp(g->info.name, "chess"))
        record_put_tag(out, "Variant", g->info.name);
    if (strcmp(fen, startfen)) {
        record_put_tag(out, "SetUp", "1");
        record_put_tag(out, "FEN", fen);
    }
    const char *reason = r->reason;
    if (reason && strcmp(reason, "normal"))
        record_put_tag(out, "Termination", termination(reason));
    if (r->opening_plies > 0) {
        snprintf(buf, sizeof buf, "%d", r->opening_plies);
        record_put_tag(out, "PlyOpeningPlies", buf);
    }
    if (r->options && *r->options)
        record_put_tag(out, "PlyOptions", r->options);
    fputc('\n', out);

    RecordWrap w = {out, 0};
    int nm = r->nmoves;
    for (int i = 0; i < nm; i++) {
        const char *text = r->moves[i];
        Move m;
        int p = g->to_move(&st);
        int step = record_move(g, &st, r, i, &m, err);
        if (step < 0)
            return -1;
        if (step) {
            /* the record ends with the illegal move that lost */
            char c[200];
            comment_text(text, c, sizeof c);
            snprintf(buf, sizeof buf, "{illegal move: %s}", c);
            record_put_word(&w, buf);
            break;
        }
        char san[64], word[96];
        if (cb_move_to_san(&st, m, san, sizeof san) < 0)
            return ply_fail(err, "move %d: no SAN", i + 1);
        if (p == 0)
            snprintf(word, sizeof word, "%d. %s", st.fullmove, san);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", st.fullmove, san);
        else
            snprintf(word, sizeof word, "%s", san);
        record_put_word(&w, word);
        g->make(&st, m);
    }
    if (r->error && *r->error) {
        char c[300];
        comment_text(r->error, c, sizeof c);
        snprintf(buf, sizeof buf, "{%s}", c);
        record_put_word(&w, buf);
    }
    record_put_word(&w, result);
    fputc('\n', out);
    return 0;
}

/* The chess games' formats: PGN records; UCI and CECP, whose moves and
 * FEN are Ply's (chess is the dialects' own game, the others are named
 * as Fairy-Stockfish and xboard name them, which are Ply's names). */
const GameFormat cb_format_pgn = {
    .name = "pgn", .extension = "pgn", .write_record = pgn_write,
};
const GameFormat cb_format_uci_native = {
    .name = "uci", .variant = "chess", .flags = FORMAT_NATIVE,
};
const GameFormat cb_format_cecp_native = {
    .name = "cecp", .variant = "normal", .flags = FORMAT_NATIVE,
};
const GameFormat cb_format_uci = {.name = "uci"};
const GameFormat cb_format_cecp = {.name = "cecp"};

const GameFormat *const cb_formats_chess[] = {
    &cb_format_pgn, &cb_format_uci_native, &cb_format_cecp_native, NULL};
const GameFormat *const cb_formats_variant[] = {
    &cb_format_pgn, &cb_format_uci, &cb_format_cecp, NULL};
