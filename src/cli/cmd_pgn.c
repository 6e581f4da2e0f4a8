/* cmd_pgn.c — `ply pgn [FILE]`: match records (JSON lines, as written by
 * `ply match --out`) of chess, makruk and shatranj as PGN with SAN moves.
 * Every move is replayed on the board, so a bad record is reported with
 * its line number instead of being written out. Other games are skipped
 * (and counted on stderr). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../games/chess/board.h"
#include "cli.h"
#include "records.h"

/* The games whose state is a CBoard, so that cb_move_to_san applies. */
static const char *const PGN_GAMES[] = {"chess", "makruk", "shatranj", NULL};

static int pgn_game(const char *name)
{
    for (int i = 0; PGN_GAMES[i]; i++)
        if (!strcmp(PGN_GAMES[i], name))
            return 1;
    return 0;
}

/* A tag: quotes and backslashes escaped (PGN 8.1.1). */
static void put_tag(FILE *out, const char *tag, const char *val)
{
    fprintf(out, "[%s \"", tag);
    for (const char *p = val; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fprintf(out, "\"]\n");
}

typedef struct Wrap {
    FILE *out;
    int col;
} Wrap;

/* Movetext lines stay under 80 characters (PGN export format). */
static void put_word(Wrap *w, const char *s)
{
    int len = (int)strlen(s);
    if (w->col && w->col + 1 + len > 79) {
        fputc('\n', w->out);
        w->col = 0;
    } else if (w->col) {
        fputc(' ', w->out);
        w->col++;
    }
    fputs(s, w->out);
    w->col += len;
}

static const char *str_field(json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

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

/* One record as a PGN game; 0, 1 when skipped (not a PGN game), or -1
 * after printing an error naming the line. */
static int convert(json_t *rec, long line, int round, FILE *out)
{
    const char *name = str_field(rec, "game");
    if (!name)
        return cli_error("pgn", "line %ld: no \"game\" string", line), -1;
    if (!pgn_game(name))
        return 1;
    const GameVtbl *g = game_find(name);
    if (!g || g->info.state_size != sizeof(CBoard))
        return cli_error("pgn", "line %ld: game '%s' is not available",
                         line, name), -1;
    const char *options = str_field(rec, "options");
    const char *setup = str_field(rec, "setup");
    json_t *moves = json_object_get(rec, "moves");
    if (!json_is_array(moves))
        return cli_error("pgn", "line %ld: no \"moves\" array", line), -1;
    json_t *seats = json_object_get(rec, "seats");
    if (!json_is_array(seats) || json_array_size(seats) != 2)
        return cli_error("pgn", "line %ld: \"seats\" is not a list of two",
                         line), -1;
    CBoard st, start;
    PlyError err = {{0}};
    if (state_setup(g, &start, options, NULL, 1, &err) ||
        state_setup(g, &st, options, setup, 1, &err))
        return cli_error("pgn", "line %ld: %s", line, err.msg), -1;
    char fen[512], startfen[512], buf[512];
    if (g->to_text(&st, fen, sizeof fen) < 0 ||
        g->to_text(&start, startfen, sizeof startfen) < 0)
        return cli_error("pgn", "line %ld: cannot write the position",
                         line), -1;

    json_t *res = json_object_get(rec, "result");
    const char *result = "*";
    if (json_is_array(res) && json_array_size(res) == 2 &&
        json_is_number(json_array_get(res, 0)) &&
        json_is_number(json_array_get(res, 1))) {
        double r0 = json_number_value(json_array_get(res, 0));
        double r1 = json_number_value(json_array_get(res, 1));
        result = r0 > r1 ? "1-0" : r0 < r1 ? "0-1" : "1/2-1/2";
    } else if (res) {
        return cli_error("pgn", "line %ld: \"result\" is not two numbers",
                         line), -1;
    }

    /* the seven-tag roster, then the rest */
    fprintf(out, "%s", round > 1 ? "\n" : "");
    put_tag(out, "Event", "Ply match");
    put_tag(out, "Site", "?");
    put_tag(out, "Date", "????.??.??");
    json_t *idx = json_object_get(rec, "index");
    if (json_is_integer(idx))
        snprintf(buf, sizeof buf, "%lld",
                 (long long)json_integer_value(idx) + 1);
    else
        snprintf(buf, sizeof buf, "%d", round);
    put_tag(out, "Round", buf);
    for (int p = 0; p < 2; p++) {
        json_t *s = json_array_get(seats, (size_t)p);
        put_tag(out, p ? "Black" : "White",
                json_is_string(s) ? json_string_value(s) : "?");
    }
    put_tag(out, "Result", result);
    if (strcmp(name, "chess"))
        put_tag(out, "Variant", name);
    if (strcmp(fen, startfen)) {
        put_tag(out, "SetUp", "1");
        put_tag(out, "FEN", fen);
    }
    const char *reason = str_field(rec, "reason");
    if (reason && strcmp(reason, "normal"))
        put_tag(out, "Termination", termination(reason));
    json_t *plies = json_object_get(rec, "opening_plies");
    if (json_is_integer(plies) && json_integer_value(plies) > 0) {
        snprintf(buf, sizeof buf, "%lld",
                 (long long)json_integer_value(plies));
        put_tag(out, "PlyOpeningPlies", buf);
    }
    if (options && *options)
        put_tag(out, "PlyOptions", options);
    fputc('\n', out);

    Wrap w = {out, 0};
    size_t nm = json_array_size(moves);
    for (size_t i = 0; i < nm; i++) {
        json_t *mj = json_array_get(moves, i);
        if (!json_is_string(mj))
            return cli_error("pgn", "line %ld: move %zu is not a string",
                             line, i + 1), -1;
        const char *text = json_string_value(mj);
        Move m;
        int p = g->to_move(&st);
        if (p < 0 || g->text_to_move(&st, text, &m, &err) ||
            !state_is_legal(g, &st, m)) {
            if (p >= 0 && reason && !strcmp(reason, "illegal") &&
                i + 1 == nm) {
                /* the record ends with the illegal move that lost */
                char c[200];
                comment_text(text, c, sizeof c);
                snprintf(buf, sizeof buf, "{illegal move: %s}", c);
                put_word(&w, buf);
                break;
            }
            return cli_error("pgn", "line %ld: move %zu '%.60s': %s", line,
                             i + 1, text, p < 0 ? "the game is over"
                             : err.msg[0] ? err.msg : "illegal"), -1;
        }
        char san[64], word[96];
        if (cb_move_to_san(&st, m, san, sizeof san) < 0)
            return cli_error("pgn", "line %ld: move %zu: no SAN", line,
                             i + 1), -1;
        if (p == 0)
            snprintf(word, sizeof word, "%d. %s", st.fullmove, san);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", st.fullmove, san);
        else
            snprintf(word, sizeof word, "%s", san);
        put_word(&w, word);
        g->make(&st, m);
    }
    const char *error = str_field(rec, "error");
    if (error && *error) {
        char c[300];
        comment_text(error, c, sizeof c);
        snprintf(buf, sizeof buf, "{%s}", c);
        put_word(&w, buf);
    }
    put_word(&w, result);
    fputc('\n', out);
    return 0;
}

int cmd_pgn(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "pgn"))
        return 0;
    return cli_convert_records("pgn", argc, argv, convert,
                               "games other than chess, makruk and shatranj");
}
