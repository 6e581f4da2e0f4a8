/* csa.c — the CSA standard record format (Computer Shogi Association,
 * version 2.2) for 9x9 shogi: what shogi servers (floodgate) and many
 * engines' tools write and read. Written from and read into the shogi
 * state itself.
 *
 *     V2.2
 *     N+sente's name
 *     N-gote's name
 *     $EVENT:Ply match
 *     P1-KY-KE-GI-KI-OU-KI-GI-KE-KY     the board, rank 1 (White's back
 *     ...                               rank) first, files 9 to 1
 *     P+00HI00FU                        hands, when not empty
 *     +                                 the side to move
 *     +7776FU                           sign, from, to, the piece after
 *     -3334FU                           the move (00 for a drop; TO NY NK
 *     %TORYO                            NG UM RY promoted); the end
 *
 * Reading also takes PI (the even start, with optional removed pieces:
 * PI82HI22KA), several statements on one line separated by ',', comment
 * lines (') and time lines (T10), and several games separated by '/'
 * or each beginning with its version line (as `ply record` writes them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"
#include "../../core/setup.h"
#include "shogi.h"

/* By shogi's piece type: the CSA names, and those of promoted pieces. */
static const char *const CSA_NAME[9] = {"", "FU", "KY", "KE", "GI", "KA",
                                        "HI", "KI", "OU"};
static const char *const CSA_PROM[9] = {"", "TO", "NY", "NK", "NG", "UM",
                                        "RY", "", ""};

/* The piece type (PROM added when promoted) of a two-letter name, or 0. */
static int csa_piece(const char *s)
{
    for (int t = PAWN; t <= KING; t++) {
        if (!strncmp(s, CSA_NAME[t], 2))
            return t;
        if (CSA_PROM[t][0] && !strncmp(s, CSA_PROM[t], 2))
            return t + PROM;
    }
    return 0;
}

/* A square's file (1 at Black's right) and rank (1 at White's side). */
static int file_of(const Variant *v, int sq) { return v->w - col_of(sq); }
static int rank_of(int sq) { return row_of(sq) + 1; }

/* ------------------------------------------------------------ writer */

/* The record's end as a CSA special move (the side to move's view). */
static const char *csa_ending(const Shogi *s, const Record *r)
{
    int side = s->side;
    if (!r->reason || !strcmp(r->reason, "normal")) {
        switch (s->reason) {
        case R_NONE: return "%CHUDAN";
        case R_MATE: return "%TSUMI";
        case R_REPETITION: return "%SENNICHITE";
        case R_LIMIT: return "%MAX_MOVES";
        case R_IMPASSE: return "%KACHI";
        default:    /* perpetual check: the checker loses */
            return s->winner == BLACK ? "%-ILLEGAL_ACTION"
                                      : "%+ILLEGAL_ACTION";
        }
    }
    int winner = record_winner(r);
    if (winner < 0)
        return "%HIKIWAKE";         /* an adjudicated draw */
    int loser = !winner;
    if (!strcmp(r->reason, "time"))
        return loser == side ? "%TIME_UP" : "%CHUDAN";
    if (!strcmp(r->reason, "illegal"))
        return loser == side ? "%ILLEGAL_MOVE"
             : loser == BLACK ? "%+ILLEGAL_ACTION" : "%-ILLEGAL_ACTION";
    return loser == side ? "%TORYO" : "%CHUDAN";  /* crash, adjudicated */
}

/* A name or comment on one line. */
static void put_line_text(FILE *out, const char *text)
{
    for (; *text; text++)
        fputc(*text == '\n' || *text == '\r' ? ' ' : *text, out);
    fputc('\n', out);
}

static int csa_write(const GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    PlyError local;
    if (!err)
        err = &local;
    if (g != &game_shogi)
        return ply_fail(err, "%s has no CSA (9x9 shogi only)",
                        g->info.name);
    if (r->nseats != 2)
        return ply_fail(err, "\"seats\" is not a list of two");
    Shogi st;
    if (state_setup(g, &st, r->options, r->setup, 1, err))
        return -1;
    const Variant *v = var_of(&st);
    fputs("V2.2\n", out);
    for (int i = 0; i < 2; i++) {
        fputs(i ? "N-" : "N+", out);
        put_line_text(out, r->seats[i] ? r->seats[i] : "?");
    }
    fputs("$EVENT:Ply match\n", out);
    if (r->index >= 0)
        fprintf(out, "'game %ld of the match\n", r->index + 1);
    for (int row = 0; row < v->h; row++) {
        fprintf(out, "P%d", row + 1);
        for (int c = 0; c < v->w; c++) {
            int p = st.board[sq_of(row, c)], t = TYPE(p);
            if (!p)
                fputs(" * ", out);
            else
                fprintf(out, "%c%s", COLOR(p) ? '-' : '+',
                        t > KING ? CSA_PROM[t - PROM] : CSA_NAME[t]);
        }
        fputc('\n', out);
    }
    for (int c = 0; c < 2; c++) {
        int any = 0;
        for (int i = 0; i < 7; i++)
            for (int k = 0; k < st.hand[c][hand_order[i]]; k++) {
                if (!any++)
                    fputs(c ? "P-" : "P+", out);
                fprintf(out, "00%s", CSA_NAME[hand_order[i]]);
            }
        if (any)
            fputc('\n', out);
    }
    fputs(st.side ? "-\n" : "+\n", out);
    const char *illegal = NULL;
    for (int i = 0; i < r->nmoves; i++) {
        const char *text = r->moves[i];
        Move m;
        int step = record_move(g, &st, r, i, &m, err);
        if (step < 0)
            return -1;
        if (step) {
            illegal = text;     /* the move that lost */
            break;
        }
        int to = mv_to(m), dt = mv_drop(m);
        if (dt) {
            fprintf(out, "%c00%d%d%s\n", st.side ? '-' : '+', file_of(v, to),
                    rank_of(to), CSA_NAME[dt]);
        } else {
            int from = mv_from(m), t = TYPE(st.board[from]);
            if (mv_prom(m))
                t += PROM;
            fprintf(out, "%c%d%d%d%d%s\n", st.side ? '-' : '+',
                    file_of(v, from), rank_of(from), file_of(v, to),
                    rank_of(to), t > KING ? CSA_PROM[t - PROM] : CSA_NAME[t]);
        }
        shogi_make(&st, m);
    }
    fprintf(out, "%s\n", csa_ending(&st, r));
    if (r->error && *r->error) {
        fputc('\'', out);
        put_line_text(out, r->error);
    } else if (illegal) {
        fprintf(out, "'illegal move: %.100s\n", illegal);
    }
    return 0;
}

/* ------------------------------------------------------------ reader */

enum { END_NONE, END_WIN_OTHER, END_TIME, END_ILLEGAL, END_BLACK_FOUL,
       END_WHITE_FOUL, END_KACHI, END_DRAW, END_ABORT };

/* One game being read. */
typedef struct CsaGame {
    int used;                   /* anything of this game read */
    char seat[2][128];
    uint8_t bod[9][9];          /* the P1..P9 or PI start */
    uint8_t hand[2][8];
    int rows, pi, side_seen, white;
    int started;
    Shogi st;
    char (*moves)[8];
    int nmoves, cap;
    int ending;
} CsaGame;

static void csa_reset(CsaGame *k)
{
    free(k->moves);
    memset(k, 0, sizeof *k);
}

/* The start's SFEN from the board lines and hands; -1 when too long. */
static int start_sfen(const CsaGame *k, char *out, size_t n)
{
    return sg_diagram_sfen(&k->bod[0][0], 9, 9, 9, k->white, k->hand, out, n);
}

/* The even start, as PI writes it. */
static void even_board(CsaGame *k)
{
    static const char *const rows[9] = {
        "lnsgkgsnl", ".r.....b.", "ppppppppp", ".........", ".........",
        ".........", "PPPPPPPPP", ".B.....R.", "LNSGKGSNL"};
    memset(k->bod, 0, sizeof k->bod);
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            char ch = rows[r][c];
            if (ch == '.')
                continue;
            const char *p = strchr(piece_chars, ch >= 'a' ? ch - 'a' + 'A'
                                                          : ch);
            k->bod[r][c] = (uint8_t)((p - piece_chars) |
                                     (ch >= 'a' ? WHITE_BIT : 0));
        }
}

/* Sets up the game before its first move, through shogi's SFEN reader. */
static int csa_start(CsaGame *k, long line, PlyError *err)
{
    if (k->started)
        return 0;
    if (!k->pi && k->rows != 9)
        return ply_fail(err, "line %ld: the board needs P1..P9 or PI before "
                        "the moves", line);
    if (!k->side_seen)
        return ply_fail(err, "line %ld: no side to move ('+' or '-') before "
                        "the moves", line);
    char sfen[512];
    PlyError e2 = {{0}};
    if (start_sfen(k, sfen, sizeof sfen))
        return ply_fail(err, "line %ld: bad board", line);
    if (state_setup(&game_shogi, &k->st, NULL, sfen, 1, &e2))
        return ply_fail(err, "line %ld: start position: %s", line, e2.msg);
    k->started = 1;
    return 0;
}

static int csa_finish(CsaGame *k, RecordSink sink, void *ctx, PlyError *err)
{
    if (!k->started)
        return 0;
    char sfen[512];
    Shogi start;
    if (start_sfen(k, sfen, sizeof sfen) ||
        state_setup(&game_shogi, &start, NULL, sfen, 1, err) ||
        shogi_to_text(&start, sfen, sizeof sfen) < 0)
        return ply_fail(err, "bad start position");
    const char **moves = malloc(sizeof *moves * (size_t)(k->nmoves + 1));
    if (!moves)
        return ply_fail(err, "out of memory");
    for (int i = 0; i < k->nmoves; i++)
        moves[i] = k->moves[i];
    Record r;
    record_init(&r);
    r.game = game_shogi.info.name;
    r.options = "";
    r.setup = sfen;
    r.nseats = 2;
    for (int s = 0; s < 2; s++)
        r.seats[s] = k->seat[s][0] ? k->seat[s] : "?";
    r.nmoves = k->nmoves;
    r.moves = moves;
    int side = shogi_to_move(&k->st), winner = -2;
    const char *reason = "normal";
    if (side == PLAYER_TERMINAL) {
        winner = k->st.winner;
    } else {
        switch (k->ending) {
        case END_WIN_OTHER: winner = !side; break;
        case END_TIME: winner = !side; reason = "time"; break;
        case END_ILLEGAL: winner = !side; reason = "illegal"; break;
        case END_BLACK_FOUL: winner = WHITE; reason = "illegal"; break;
        case END_WHITE_FOUL: winner = BLACK; reason = "illegal"; break;
        case END_KACHI: winner = side; reason = "adjudicated"; break;
        case END_DRAW: winner = -1; reason = "adjudicated"; break;
        default: break;
        }
    }
    record_set_winner(&r, winner, reason);
    int rc = sink(&r, ctx, err);
    free(moves);
    return rc;
}

/* "+7776FU": a move of the side to move. */
static int csa_move(CsaGame *k, const char *s, long line, PlyError *err)
{
    if (csa_start(k, line, err))
        return -1;
    if (k->ending)
        return ply_fail(err, "line %ld: a move after the end of the game",
                        line);
    if (shogi_to_move(&k->st) < 0)
        return ply_fail(err, "line %ld: move %d '%.20s': the game is already "
                        "over here", line, k->nmoves + 1, s);
    if (strlen(s) != 7 || s[1] < '0' || s[1] > '9' || s[2] < '0' ||
        s[2] > '9' || s[3] < '1' || s[3] > '9' || s[4] < '1' || s[4] > '9')
        return ply_fail(err, "line %ld: bad move '%.20s' (+7776FU)", line, s);
    if ((s[0] == '-') != (k->st.side == WHITE))
        return ply_fail(err, "line %ld: move %d '%.20s': not the side to "
                        "move", line, k->nmoves + 1, s);
    int pc = csa_piece(s + 5);
    if (!pc)
        return ply_fail(err, "line %ld: bad piece in '%.20s'", line, s);
    char usi[8];
    int ff = s[1] - '0', fr = s[2] - '0', drop = ff == 0 && fr == 0;
    if (drop) {
        if (pc >= KING)
            return ply_fail(err, "line %ld: '%.20s' drops a piece that "
                            "cannot be dropped", line, s);
        snprintf(usi, sizeof usi, "%c*%c%c", piece_chars[pc], s[3],
                 'a' + s[4] - '1');
    } else {
        if (!ff || !fr)
            return ply_fail(err, "line %ld: bad square in '%.20s'", line, s);
        int on = TYPE(k->st.board[sq_of(fr - 1, 9 - ff)]);
        int prom = pc > KING && on == pc - PROM;
        if (!prom && on != pc)
            return ply_fail(err, "line %ld: move %d '%.20s': that piece is "
                            "not on %c%c", line, k->nmoves + 1, s, s[1],
                            s[2]);
        snprintf(usi, sizeof usi, "%c%c%c%c%s", s[1], 'a' + s[2] - '1',
                 s[3], 'a' + s[4] - '1', prom ? "+" : "");
    }
    Move m;
    PlyError e2 = {{0}};
    if (shogi_text_to_move(&k->st, usi, &m, &e2) ||
        !state_is_legal(&game_shogi, &k->st, m))
        return ply_fail(err, "line %ld: move %d '%.20s' (%s): %s", line,
                        k->nmoves + 1, s, usi,
                        e2.msg[0] ? e2.msg : "illegal");
    if (k->nmoves == k->cap) {
        int cap = k->cap ? k->cap * 2 : 256;
        char(*nm)[8] = realloc(k->moves, sizeof *nm * (size_t)cap);
        if (!nm)
            return ply_fail(err, "out of memory");
        k->moves = nm;
        k->cap = cap;
    }
    memcpy(k->moves[k->nmoves++], usi, sizeof usi);
    shogi_make(&k->st, m);
    return 0;
}

static int csa_special(CsaGame *k, const char *s, long line, PlyError *err)
{
    static const struct { const char *k; int code; } T[] = {
        {"%TORYO", END_WIN_OTHER}, {"%TSUMI", END_WIN_OTHER},
        {"%TIME_UP", END_TIME}, {"%ILLEGAL_MOVE", END_ILLEGAL},
        {"%+ILLEGAL_ACTION", END_BLACK_FOUL},
        {"%-ILLEGAL_ACTION", END_WHITE_FOUL}, {"%KACHI", END_KACHI},
        {"%SENNICHITE", END_DRAW}, {"%JISHOGI", END_DRAW},
        {"%HIKIWAKE", END_DRAW}, {"%MAX_MOVES", END_DRAW},
        {"%CHUDAN", END_ABORT}, {"%FUZUMI", END_ABORT},
        {"%ERROR", END_ABORT}};
    if (csa_start(k, line, err))
        return -1;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(s, T[i].k)) {
            k->ending = T[i].code;
            return 0;
        }
    return ply_fail(err, "line %ld: unknown special move '%.20s'", line, s);
}

/* "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY" */
static int csa_row(CsaGame *k, const char *s, long line, PlyError *err)
{
    int r = s[1] - '1';
    if (r != k->rows || k->pi)
        return ply_fail(err, "line %ld: board rank P%c out of order", line,
                        s[1]);
    s += 2;
    for (int c = 0; c < 9; c++, s += 3) {
        if (!strncmp(s, " * ", 3) || (c == 8 && !strcmp(s, " *"))) {
            if (c == 8 && !s[2])
                s--;
            continue;
        }
        int pc = (*s == '+' || *s == '-') ? csa_piece(s + 1) : 0;
        if (!pc)
            return ply_fail(err, "line %ld: bad square %d of rank %d", line,
                            9 - c, r + 1);
        k->bod[r][c] = (uint8_t)(pc | (*s == '-' ? WHITE_BIT : 0));
    }
    if (*s)
        return ply_fail(err, "line %ld: rank %d is longer than 9 squares",
                        line, r + 1);
    k->rows++;
    return 0;
}

/* "P+00HI00FU": pieces in hand (00) or put on squares. */
static int csa_pieces(CsaGame *k, const char *s, long line, PlyError *err)
{
    int col = s[1] == '-';
    for (s += 2; *s; s += 4) {
        if (strlen(s) < 4)
            return ply_fail(err, "line %ld: bad piece list", line);
        if (!strncmp(s + 2, "AL", 2))
            return ply_fail(err, "line %ld: 'AL' (all the remaining pieces) "
                            "is not read", line);
        int pc = csa_piece(s + 2);
        int f = s[0] - '0', r = s[1] - '0';
        if (!pc || f < 0 || f > 9 || r < 0 || r > 9 || (!f) != (!r))
            return ply_fail(err, "line %ld: bad piece '%.4s'", line, s);
        if (!f) {
            if (pc >= KING || k->hand[col][pc] >= 18)
                return ply_fail(err, "line %ld: bad piece in hand '%.4s'",
                                line, s);
            k->hand[col][pc]++;
        } else {
            k->bod[r - 1][9 - f] = (uint8_t)(pc | (col ? WHITE_BIT : 0));
        }
    }
    return 0;
}

/* "PI82HI22KA": the even start without those pieces. */
static int csa_pi(CsaGame *k, const char *s, long line, PlyError *err)
{
    if (k->rows)
        return ply_fail(err, "line %ld: PI after board ranks", line);
    even_board(k);
    k->pi = 1;
    for (s += 2; *s; s += 4) {
        int f = s[0] - '1', r = s[1] - '1';
        if (strlen(s) < 4 || f < 0 || f > 8 || r < 0 || r > 8 ||
            TYPE(k->bod[r][8 - f]) != csa_piece(s + 2))
            return ply_fail(err, "line %ld: PI: no '%.4s' to remove", line,
                            s);
        k->bod[r][8 - f] = 0;
    }
    return 0;
}

/* One statement (a line, or a part of one between commas). */
static int csa_statement(CsaGame *k, const char *s, long line,
                         PlyError *err)
{
    switch (s[0]) {
    case 'V': case '$': case 'T': case '\'':
        return 0;
    case 'N':
        if (s[1] == '+' || s[1] == '-')
            snprintf(k->seat[s[1] == '-'], sizeof k->seat[0], "%s", s + 2);
        return 0;
    case 'P':
        if (k->started)
            return ply_fail(err, "line %ld: a position after the moves",
                            line);
        if (s[1] >= '1' && s[1] <= '9')
            return csa_row(k, s, line, err);
        if (s[1] == 'I')
            return csa_pi(k, s, line, err);
        if (s[1] == '+' || s[1] == '-')
            return csa_pieces(k, s, line, err);
        return ply_fail(err, "line %ld: bad position line '%.20s'", line, s);
    case '+': case '-':
        if (!s[1]) {
            if (k->started)
                return ply_fail(err, "line %ld: side to move after the "
                                "moves", line);
            k->white = s[0] == '-';
            k->side_seen = 1;
            return 0;
        }
        return csa_move(k, s, line, err);
    case '%':
        return csa_special(k, s, line, err);
    default:
        return ply_fail(err, "line %ld: not CSA: '%.20s'", line, s);
    }
}

static int csa_read(const GameVtbl *g, const char *input, size_t len,
                    RecordSink sink, void *ctx, PlyError *err)
{
    (void)g;
    PlyError local;
    if (!err)
        err = &local;
    if (memchr(input, 0, len))
        return ply_fail(err, "the input holds a NUL byte: not a CSA text");
    char *text = malloc(len + 1);
    CsaGame *k = calloc(1, sizeof *k);
    if (!text || !k) {
        free(text);
        free(k);
        return ply_fail(err, "out of memory");
    }
    memcpy(text, input, len);
    text[len] = 0;
    int rc = 0;
    long line = 0;
    char *save = NULL;
    for (char *ln = strtok_r(text, "\n", &save); ln && !rc;
         ln = strtok_r(NULL, "\n", &save)) {
        line++;
        size_t n = strlen(ln);
        while (n && (ln[n - 1] == '\r' || ln[n - 1] == ' '))
            ln[--n] = 0;
        if (!strcmp(ln, "/") || (ln[0] == 'V' && k->started)) {
            /* the next game: a '/' line, or a version line after moves */
            rc = csa_finish(k, sink, ctx, err);
            csa_reset(k);
            continue;
        }
        if (!*ln || ln[0] == '\'')
            continue;
        /* a comma separates statements, except in names and comments */
        char *part = ln;
        while (!rc && part) {
            char *comma = part[0] == 'N' || part[0] == '$' ? NULL
                        : strchr(part, ',');
            if (comma)
                *comma = 0;
            rc = csa_statement(k, part, line, err);
            part = comma ? comma + 1 : NULL;
        }
    }
    if (!rc)
        rc = csa_finish(k, sink, ctx, err);
    csa_reset(k);
    free(k);
    free(text);
    return rc ? -1 : 0;
}

const GameFormat sg_format_csa = {
    .name = "csa", .extension = "csa",
    .write_record = csa_write, .read_records = csa_read,
};
