/* kif.c — KIF, the game record format of Kakinoki's Kifu for Windows,
 * which shogi programs read (ShogiGUI, Shogidokoro, Kifu for Windows,
 * lishogi, json-kifu-format, tsshogi): records written from and read
 * into the shogi state itself, its SFEN going through text.c's reader.
 *
 * KIF as written here (docs/records.md): header lines `key：value`,
 * `手合割：平手` (or a handicap name, `5五将棋` for minishogi as lishogi
 * writes it, or a board diagram for other starts), then one line per move
 * `   1 ７六歩(77)` with the destination in full-width digit and kanji
 * numeral, the piece, 成 or 打, and the origin in half-width digits; 同
 * when a move lands where the previous one did; then the game's end as a
 * move (投了, 詰み, 千日手, ...) and a `まで` summary line. A declined
 * promotion is written as a plain move: KIF readers take a move without 成
 * as not promoting, and several reject 不成 (that is KI2's word, where
 * moves have no origin square). Two formats: "kif" UTF-8 with the line
 * `#KIF version=2.0 encoding=UTF-8` (the .kifu convention), "kif-sjis"
 * Shift_JIS (CP932) for programs that read .kif files only so. Both read
 * UTF-8 and Shift_JIS. */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"
#include "../../core/setup.h"
#include "shogi.h"

/* ------------------------------------------------------------ tables */

static const char *const ZEN_DIGIT[10] = {
    "０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const KAN_NUM[19] = {
    "", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
    "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八"};
/* By shogi's piece type (PAWN .. KING): the move notation's names (two
 * kanji for promoted minor pieces), and one kanji per piece in diagrams. */
static const char *const NAME[9] = {"", "歩", "香", "桂", "銀", "角", "飛",
                                    "金", "玉"};
static const char *const PROM_NAME[9] = {"", "と", "成香", "成桂", "成銀",
                                         "馬", "龍", "", ""};
static const char *const PROM_CHAR[9] = {"", "と", "杏", "圭", "全", "馬",
                                         "龍", "", ""};

/* Start positions with a name (手合割). In handicap games the handicap
 * giver (上手, "upper hand") is White and moves first. */
typedef struct Handicap {
    const char *sfen;   /* board, side and hands fields */
    const char *name;
} Handicap;

static const Handicap HANDICAPS[] = {
    {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
     "平手"},
    {"lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "香落ち"},
    {"1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "右香落ち"},
    {"lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "角落ち"},
    {"lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "飛車落ち"},
    {"lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "飛香落ち"},
    {"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "二枚落ち"},
    {"1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "四枚落ち"},
    {"2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "六枚落ち"},
    {"3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "八枚落ち"},
    {"4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
     "十枚落ち"},
    {"rbsgk/4p/5/P4/KGSBR b -", "5五将棋"},
    {NULL, NULL},
};

static const char MINISHOGI_NAME[] = "5五将棋";

/* A square's file (1 at Black's right) and rank (1 at White's side). */
static int file_of(const Variant *v, int sq) { return v->w - col_of(sq); }
static int rank_of(int sq) { return row_of(sq) + 1; }

/* ------------------------------------------------------------ writer */

/* Display columns of UTF-8 text: Japanese characters are two wide. */
static int columns(const char *s)
{
    int n = 0;
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        if ((*u & 0xc0) != 0x80)
            n += *u >= 0x80 ? 2 : 1;
    return n;
}

/* One move line: number, text padded to a column, zero times (the
 * record keeps no clock; readers expect the field). */
static void put_move_line(FILE *out, int num, const char *text)
{
    fprintf(out, "%4d %s", num, text);
    for (int k = columns(text); k < 13; k++)
        fputc(' ', out);
    fputs(" ( 0:00/00:00:00)\n", out);
}

static void put_hand(FILE *out, const char *who, const uint8_t *hand)
{
    fprintf(out, "%s：", who);
    int any = 0;
    for (int i = 0; i < 7; i++) {
        int t = hand_order[i], k = hand[t];
        if (k) {
            fprintf(out, "%s%s　", NAME[t], k > 1 ? KAN_NUM[k] : "");
            any = 1;
        }
    }
    fputs(any ? "\n" : "なし\n", out);
}

static void put_rule(FILE *out, int w)
{
    fputc('+', out);
    for (int c = 0; c < w * 3; c++)
        fputc('-', out);
    fputs("+\n", out);
}

/* A board diagram (BOD), for starts without a name. */
static void put_diagram(FILE *out, const Shogi *s, const char *const *sides)
{
    const Variant *v = var_of(s);
    char who[64];
    snprintf(who, sizeof who, "%sの持駒", sides[1]);
    put_hand(out, who, s->hand[1]);
    fputs(" ", out);
    for (int c = 0; c < v->w; c++)
        fprintf(out, " %s", ZEN_DIGIT[v->w - c]);
    fputc('\n', out);
    put_rule(out, v->w);
    for (int r = 0; r < v->h; r++) {
        fputc('|', out);
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)], t = TYPE(p);
            if (!p)
                fputs(" ・", out);
            else
                fprintf(out, "%c%s", COLOR(p) ? 'v' : ' ',
                        t > KING ? PROM_CHAR[t - PROM] : NAME[t]);
        }
        fprintf(out, "|%s\n", KAN_NUM[r + 1]);
    }
    put_rule(out, v->w);
    snprintf(who, sizeof who, "%sの持駒", sides[0]);
    put_hand(out, who, s->hand[0]);
    if (s->side)
        fprintf(out, "%s番\n", sides[1]);
}

/* A comment line: '*' then the text on one line. */
static void put_comment(FILE *out, const char *text)
{
    fputc('*', out);
    for (; *text; text++)
        fputc(*text == '\n' || *text == '\r' ? ' ' : *text, out);
    fputc('\n', out);
}

/* The KIF text of legal move m at s; prev_to is the previous move's
 * destination (0 at the start). */
static void kif_move(const Shogi *s, Move m, int prev_to, char *buf,
                     size_t n)
{
    const Variant *v = var_of(s);
    int to = mv_to(m), dt = mv_drop(m);
    if (dt) {
        snprintf(buf, n, "%s%s%s打", ZEN_DIGIT[file_of(v, to)],
                 KAN_NUM[rank_of(to)], NAME[dt]);
        return;
    }
    int from = mv_from(m), t = TYPE(s->board[from]);
    char dest[32];
    if (to == prev_to)
        snprintf(dest, sizeof dest, "同　");
    else
        snprintf(dest, sizeof dest, "%s%s", ZEN_DIGIT[file_of(v, to)],
                 KAN_NUM[rank_of(to)]);
    snprintf(buf, n, "%s%s%s(%d%d)", dest,
             t > KING ? PROM_NAME[t - PROM] : NAME[t],
             mv_prom(m) ? "成" : "", file_of(v, from), rank_of(from));
}

/* The record's end as a KIF special move and the `まで` line. */
typedef struct Ending {
    const char *special;    /* 投了, 詰み, ... */
    char summary[128];      /* after "まで N手で" */
} Ending;

static void decide_ending(const Shogi *s, const Record *r,
                          const char *const *sides, Ending *e)
{
    const char *reason = r->reason;
    int side = s->side;
    e->special = "中断";
    snprintf(e->summary, sizeof e->summary, "中断");
    if (!reason || !strcmp(reason, "normal")) {
        if (!s->reason)
            return;
        int winner = s->winner;
        const char *win = winner >= 0 ? sides[winner] : "";
        switch (s->reason) {
        case R_REPETITION:
            e->special = "千日手";
            snprintf(e->summary, sizeof e->summary, "千日手");
            break;
        case R_PERPETUAL:
            /* the side that checked perpetually loses by a foul */
            e->special = winner == side ? "反則勝ち" : "反則負け";
            snprintf(e->summary, sizeof e->summary, "%sの反則勝ち", win);
            break;
        case R_LIMIT:
            e->special = "持将棋";
            snprintf(e->summary, sizeof e->summary, "持将棋");
            break;
        case R_IMPASSE:
            e->special = "入玉勝ち";  /* the 27-point declaration */
            snprintf(e->summary, sizeof e->summary, "%sの入玉勝ち", win);
            break;
        default:
            e->special = "詰み";
            snprintf(e->summary, sizeof e->summary, "%sの勝ち", win);
        }
        return;
    }
    int winner = record_winner(r);
    if (winner < 0) {
        e->special = "持将棋";      /* an adjudicated draw */
        snprintf(e->summary, sizeof e->summary, "持将棋");
        return;
    }
    const char *win = sides[winner];
    int loser = !winner;
    if (!strcmp(reason, "time")) {
        e->special = loser == side ? "切れ負け" : "中断";
        snprintf(e->summary, sizeof e->summary, "時間切れにより%sの勝ち",
                 win);
    } else if (!strcmp(reason, "illegal")) {
        e->special = loser == side ? "反則負け" : "反則勝ち";
        snprintf(e->summary, sizeof e->summary, "%sの反則負け",
                 sides[loser]);
    } else if (loser == side) {
        e->special = "投了";        /* crash, adjudicated */
        snprintf(e->summary, sizeof e->summary, "%sの勝ち", win);
    } else {
        e->special = "中断";
        snprintf(e->summary, sizeof e->summary, "%sの勝ち", win);
    }
}

/* One game as UTF-8 KIF; header says whether to write the #KIF line. */
static int write_game(const GameVtbl *g, const Record *r, FILE *out,
                      int header, PlyError *err)
{
    if (g != &game_shogi && g != &game_minishogi)
        return ply_fail(err, "%s has no KIF", g->info.name);
    if (r->nseats != 2)
        return ply_fail(err, "\"seats\" is not a list of two");
    Shogi st;
    char sfen[512], buf[256];
    if (state_setup(g, &st, r->options, r->setup, 1, err))
        return -1;
    if (shogi_to_text(&st, sfen, sizeof sfen) < 0)
        return ply_fail(err, "cannot write the position");
    const char *handicap = NULL;
    for (int i = 0; HANDICAPS[i].sfen; i++) {
        size_t len = strlen(HANDICAPS[i].sfen);
        if (!strncmp(sfen, HANDICAPS[i].sfen, len) && sfen[len] == ' ')
            handicap = HANDICAPS[i].name;
    }
    /* handicap games name the players lower and upper hand */
    static const char *const EVEN[2] = {"先手", "後手"};
    static const char *const HC[2] = {"下手", "上手"};
    const char *const *sides =
        handicap && strcmp(handicap, "平手") &&
        strcmp(handicap, MINISHOGI_NAME) ? HC : EVEN;

    if (header)
        fputs("#KIF version=2.0 encoding=UTF-8\n", out);
    fputs("# ---- Ply match record (ply kif) ----\n", out);
    fputs("棋戦：Ply match\n", out);
    if (r->index >= 0)
        fprintf(out, "# game %ld of the match\n", r->index + 1);
    if (handicap)
        fprintf(out, "手合割：%s\n", handicap);
    else
        put_diagram(out, &st, sides);
    for (int i = 0; i < 2; i++)
        fprintf(out, "%s：%s\n", sides[i], r->seats[i] ? r->seats[i] : "?");
    fputs("手数----指手---------消費時間--\n", out);

    int num = 0, prev_to = 0;
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
        kif_move(&st, m, prev_to, buf, sizeof buf);
        put_move_line(out, ++num, buf);
        prev_to = mv_to(m);
        shogi_make(&st, m);
    }
    Ending e;
    decide_ending(&st, r, sides, &e);
    put_move_line(out, num + 1, e.special);
    if (r->error && *r->error) {
        put_comment(out, r->error);
    } else if (illegal) {
        snprintf(buf, sizeof buf, "illegal move: %.100s", illegal);
        put_comment(out, buf);
    }
    fprintf(out, "まで%d手で%s\n", num, e.summary);
    return 0;
}

static int kif_write(const GameVtbl *g, const Record *r, FILE *out,
                     PlyError *err)
{
    PlyError local;
    return write_game(g, r, out, 1, err ? err : &local);
}

/* Converts UTF-8 text to CP932 (Shift_JIS as Windows writes it). */
static int to_sjis(const char *in, size_t len, FILE *out)
{
    iconv_t cd = iconv_open("CP932", "UTF-8");
    if (cd == (iconv_t)-1)
        return -1;
    char *src = (char *)in, obuf[4096];
    size_t left = len;
    int rc = 0;
    while (left) {
        char *dst = obuf;
        size_t room = sizeof obuf;
        size_t k = iconv(cd, &src, &left, &dst, &room);
        fwrite(obuf, 1, (size_t)(dst - obuf), out);
        if (k == (size_t)-1 && errno != E2BIG) {
            rc = -1;
            break;
        }
    }
    iconv_close(cd);
    return rc;
}

/* Shift_JIS files are recognized by their extension, not a #KIF line. */
static int kif_sjis_write(const GameVtbl *g, const Record *r, FILE *out,
                          PlyError *err)
{
    PlyError local;
    if (!err)
        err = &local;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return ply_fail(err, "out of memory");
    int rc = write_game(g, r, mem, 0, err);
    fclose(mem);
    if (!rc && to_sjis(text, len, out))
        rc = ply_fail(err, "cannot convert to Shift_JIS (CP932): iconv "
                      "lacks it");
    free(text);
    return rc;
}

/* ------------------------------------------------------------ reader */

/* If s starts with lit, steps over it. */
static int eat(const char **s, const char *lit)
{
    size_t n = strlen(lit);
    if (strncmp(*s, lit, n))
        return 0;
    *s += n;
    return 1;
}

static void skip_space(const char **s)
{
    for (;;) {
        if (**s == ' ' || **s == '\t')
            (*s)++;
        else if (!eat(s, "　"))
            return;
    }
}

/* A piece name (move text or diagram): shogi's piece type (PROM added
 * when promoted), or 0. */
static int eat_piece(const char **s)
{
    static const struct { const char *k; int type; } T[] = {
        {"成香", PROM + LANCE}, {"成桂", PROM + KNIGHT},
        {"成銀", PROM + SILVER}, {"歩", PAWN}, {"香", LANCE},
        {"桂", KNIGHT}, {"銀", SILVER}, {"金", GOLD}, {"角", BISHOP},
        {"飛", ROOK}, {"玉", KING}, {"王", KING}, {"と", PROM + PAWN},
        {"杏", PROM + LANCE}, {"圭", PROM + KNIGHT}, {"全", PROM + SILVER},
        {"馬", PROM + BISHOP}, {"龍", PROM + ROOK}, {"竜", PROM + ROOK}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (eat(s, T[i].k))
            return T[i].type;
    return 0;
}

/* A kanji numeral 1..18 (一 .. 十八); 0 when there is none. */
static int eat_kanji_number(const char **s)
{
    int v = 0;
    if (eat(s, "十"))
        v = 10;
    for (int k = 9; k >= 1; k--)
        if (eat(s, KAN_NUM[k]))
            return v + k;
    return v;
}

/* A file digit, full-width or ASCII; 0 when there is none. */
static int eat_file(const char **s)
{
    for (int k = 1; k <= 9; k++)
        if (eat(s, ZEN_DIGIT[k]))
            return k;
    if (**s >= '1' && **s <= '9')
        return *(*s)++ - '0';
    return 0;
}

/* The game's end, written as a move. */
enum { END_NONE, END_RESIGN, END_MATE, END_REPETITION, END_JISHOGI,
       END_TIME, END_FOUL_WIN, END_FOUL_LOSS, END_IMPASSE, END_ABORT };

static int eat_ending(const char **s)
{
    static const struct { const char *k; int code; } T[] = {
        {"投了", END_RESIGN}, {"詰み", END_MATE}, {"千日手", END_REPETITION},
        {"持将棋", END_JISHOGI}, {"切れ負け", END_TIME},
        {"反則勝ち", END_FOUL_WIN}, {"反則負け", END_FOUL_LOSS},
        {"入玉勝ち", END_IMPASSE}, {"中断", END_ABORT},
        {"不戦勝", END_FOUL_WIN}, {"不戦敗", END_FOUL_LOSS}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (eat(s, T[i].k))
            return T[i].code;
    return END_NONE;
}

/* One game being read. */
typedef struct KifGame {
    int minishogi;
    char seat[2][128];
    const char *handicap_sfen;  /* from 手合割 */
    int rows, width;            /* board diagram rows read, their width */
    uint8_t bod[9][9];          /* the diagram: shogi piece codes */
    uint8_t bod_hand[2][8];
    int bod_white;              /* 後手番 */
    int started;
    Shogi st;
    const GameVtbl *g;
    char (*moves)[8];           /* USI moves */
    int nmoves, cap;
    int prev_to;                /* square, 0 before the first move */
    int ending, size;           /* size: 9, or 5 in minishogi */
    int summary_winner;         /* from "まで..の勝ち": 0, 1, or -1 */
} KifGame;

static void game_reset(KifGame *k)
{
    free(k->moves);
    memset(k, 0, sizeof *k);
    k->summary_winner = -1;
}

/* The start position's SFEN from the header: a diagram, a handicap name,
 * or the even game; -1 when it does not fit. */
static int start_sfen(const KifGame *k, char *out, size_t n)
{
    if (!k->rows) {
        snprintf(out, n, "%s 1", k->handicap_sfen ? k->handicap_sfen
                 : HANDICAPS[0].sfen);
        return 0;
    }
    return sg_diagram_sfen(&k->bod[0][0], k->rows, k->width, 9,
                           k->bod_white, k->bod_hand, out, n);
}

/* Sets up the game before its first move: the header's start goes
 * through shogi's own SFEN reader. */
static int game_start(KifGame *k, long line, PlyError *err)
{
    if (k->started)
        return 0;
    k->size = k->minishogi || k->rows == 5 ? 5 : 9;
    k->g = k->size == 5 ? &game_minishogi : &game_shogi;
    if (k->rows && k->rows != 5 && k->rows != 9)
        return ply_fail(err, "line %ld: a board diagram of %d ranks "
                        "(shogi has 9, minishogi 5)", line, k->rows);
    if (k->rows && k->rows != k->width)
        return ply_fail(err, "line %ld: a board diagram of %d ranks of %d "
                        "squares", line, k->rows, k->width);
    char sfen[512];
    if (start_sfen(k, sfen, sizeof sfen))
        return ply_fail(err, "line %ld: bad board diagram", line);
    PlyError e2 = {{0}};
    if (state_setup(k->g, &k->st, NULL, sfen, 1, &e2))
        return ply_fail(err, "line %ld: start position: %s", line, e2.msg);
    k->started = 1;
    return 0;
}

/* Hands the finished game to the sink as a record. */
static int game_finish(KifGame *k, RecordSink sink, void *ctx,
                       PlyError *err)
{
    if (!k->started)
        return 0;
    const GameVtbl *g = k->g;
    char sfen[512];
    Shogi start;
    /* the setup is the start replayed from scratch: what the header said */
    if (start_sfen(k, sfen, sizeof sfen) ||
        state_setup(g, &start, NULL, sfen, 1, err) ||
        shogi_to_text(&start, sfen, sizeof sfen) < 0)
        return ply_fail(err, "bad start position");
    const char **moves = malloc(sizeof *moves * (size_t)(k->nmoves + 1));
    if (!moves)
        return ply_fail(err, "out of memory");
    for (int i = 0; i < k->nmoves; i++)
        moves[i] = k->moves[i];
    Record r;
    record_init(&r);
    r.game = g->info.name;
    r.options = "";
    r.setup = sfen;
    r.nseats = 2;
    for (int s = 0; s < 2; s++)
        r.seats[s] = k->seat[s][0] ? k->seat[s] : "?";
    r.nmoves = k->nmoves;
    r.moves = moves;
    /* the result: the game's own when it is over, else the KIF's word */
    int side = shogi_to_move(&k->st), winner = -2;
    const char *reason = "normal";
    if (side == PLAYER_TERMINAL) {
        winner = k->st.winner;
    } else {
        switch (k->ending) {
        case END_RESIGN: case END_MATE: winner = !side; break;
        case END_TIME: winner = !side; reason = "time"; break;
        case END_FOUL_LOSS: winner = !side; reason = "illegal"; break;
        case END_FOUL_WIN: winner = side; reason = "illegal"; break;
        case END_IMPASSE: winner = side; reason = "adjudicated"; break;
        case END_REPETITION: case END_JISHOGI:
            winner = -1;
            reason = "adjudicated";
            break;
        default:    /* interrupted: the summary may still name a winner */
            if (k->summary_winner >= 0) {
                winner = k->summary_winner;
                reason = "adjudicated";
            }
        }
    }
    record_set_winner(&r, winner, reason);
    int rc = sink(&r, ctx, err);
    free(moves);
    return rc;
}

/* A move line's text after the number: a move, or the game's end. */
static int read_move(KifGame *k, const char *s, long line, PlyError *err)
{
    if (game_start(k, line, err))
        return -1;
    if (k->ending)
        return ply_fail(err, "line %ld: a move after the end of the game",
                        line);
    if (!eat(&s, "▲") && !eat(&s, "△") && !eat(&s, "☗"))
        eat(&s, "☖");
    int end = eat_ending(&s);
    if (end) {
        k->ending = end;
        return 0;
    }
    const Variant *v = var_of(&k->st);
    char usi[8];
    int tf, tr;
    const char *at = s;
    if (eat(&s, "同")) {
        if (!k->prev_to)
            return ply_fail(err, "line %ld: 同 at the first move", line);
        tf = file_of(v, k->prev_to);
        tr = rank_of(k->prev_to);
        skip_space(&s);
    } else {
        tf = eat_file(&s);
        tr = eat_kanji_number(&s);
        if (!tf || !tr || tf > k->size || tr > k->size)
            return ply_fail(err, "line %ld: no square in '%.40s'", line, at);
    }
    int pc = eat_piece(&s);
    if (!pc)
        return ply_fail(err, "line %ld: no piece in '%.40s'", line, at);
    int prom = 0;
    int drop = eat(&s, "打");
    if (!drop) {
        if (eat(&s, "成"))
            prom = 1;
        else if (!eat(&s, "不成"))
            eat(&s, "生");
        /* without an origin it is a drop written without 打 */
        drop = !prom && *s != '(';
    }
    if (drop) {
        if (pc >= KING)
            return ply_fail(err, "line %ld: no origin square '(FR)' in "
                            "'%.40s'", line, at);
        snprintf(usi, sizeof usi, "%c*%d%c", piece_chars[pc], tf,
                 'a' + tr - 1);
    } else {
        if (!eat(&s, "(") || s[0] < '1' || s[0] > '9' || s[1] < '1' ||
            s[1] > '9' || s[2] != ')')
            return ply_fail(err, "line %ld: no origin square '(FR)' in "
                            "'%.40s'", line, at);
        snprintf(usi, sizeof usi, "%c%c%d%c%s", s[0], 'a' + s[1] - '1', tf,
                 'a' + tr - 1, prom ? "+" : "");
    }
    Move m;
    PlyError e2 = {{0}};
    if (shogi_to_move(&k->st) < 0)
        return ply_fail(err, "line %ld: move %d '%.40s': the game is "
                        "already over here", line, k->nmoves + 1, at);
    if (shogi_text_to_move(&k->st, usi, &m, &e2) ||
        !state_is_legal(k->g, &k->st, m))
        return ply_fail(err, "line %ld: move %d '%.40s' (%s): %s", line,
                        k->nmoves + 1, at, usi,
                        e2.msg[0] ? e2.msg : "illegal");
    /* the piece named must be the one that moves */
    if (!mv_drop(m) && TYPE(k->st.board[mv_from(m)]) != pc)
        return ply_fail(err, "line %ld: move %d '%.40s': that piece is "
                        "not on %c%c", line, k->nmoves + 1, at, usi[0],
                        usi[1]);
    if (k->nmoves == k->cap) {
        int cap = k->cap ? k->cap * 2 : 256;
        char(*nm)[8] = realloc(k->moves, sizeof *nm * (size_t)cap);
        if (!nm)
            return ply_fail(err, "out of memory");
        k->moves = nm;
        k->cap = cap;
    }
    memcpy(k->moves[k->nmoves++], usi, sizeof usi);
    k->prev_to = mv_to(m);
    shogi_make(&k->st, m);
    return 0;
}

/* A board diagram row "|v香v桂 ・ ...|一". */
static int read_row(KifGame *k, const char *s, long line, PlyError *err)
{
    if (k->rows >= 9)
        return ply_fail(err, "line %ld: more than 9 board ranks", line);
    int r = k->rows++, c = 0;
    s++;
    while (*s && *s != '|') {
        int white = 0;
        if (*s == 'v') {
            white = 1;
            s++;
        } else if (*s == ' ') {
            s++;
        }
        if (eat(&s, "・")) {
            c++;
            continue;
        }
        int pc = eat_piece(&s);
        if (!pc || c >= 9)
            return ply_fail(err, "line %ld: bad board rank", line);
        k->bod[r][c++] = (uint8_t)(pc | (white ? WHITE_BIT : 0));
    }
    if (*s != '|' || (r > 0 && c != k->width) || (c != 5 && c != 9))
        return ply_fail(err, "line %ld: a board rank has %d squares", line,
                        c);
    k->width = c;
    return 0;
}

static int read_hand(KifGame *k, int col, const char *s, long line,
                     PlyError *err)
{
    skip_space(&s);
    if (eat(&s, "なし"))
        return 0;
    while (*s) {
        skip_space(&s);
        if (!*s)
            break;
        int pc = eat_piece(&s);
        if (!pc || pc >= KING)
            return ply_fail(err, "line %ld: bad piece in hand", line);
        int n = eat_kanji_number(&s);
        n = k->bod_hand[col][pc] + (n ? n : 1);
        if (n > 18)
            return ply_fail(err, "line %ld: more than 18 of a piece in "
                            "hand", line);
        k->bod_hand[col][pc] = (uint8_t)n;
    }
    return 0;
}

/* A header line "key：value"; unknown keys are kept out of the record. */
static int read_header(KifGame *k, const char *s, long line, PlyError *err)
{
    const char *v = strstr(s, "：");
    size_t klen;
    if (v) {
        klen = (size_t)(v - s);
        v += strlen("：");
    } else if ((v = strchr(s, ':'))) {
        klen = (size_t)(v - s);
        v++;
    } else {
        return 0;
    }
    char key[64];
    if (klen >= sizeof key)
        return 0;
    memcpy(key, s, klen);
    key[klen] = 0;
    skip_space(&v);
    if (!strcmp(key, "手合割")) {
        if (!strcmp(v, "五々将棋") || !strcmp(v, "５五将棋"))
            v = MINISHOGI_NAME;
        if (!strcmp(v, "その他"))
            return 0;
        for (int i = 0; HANDICAPS[i].sfen; i++)
            if (!strcmp(v, HANDICAPS[i].name)) {
                k->handicap_sfen = HANDICAPS[i].sfen;
                k->minishogi = !strcmp(v, MINISHOGI_NAME);
                return 0;
            }
        return ply_fail(err, "line %ld: unknown 手合割 '%.40s'", line, v);
    }
    int seat = !strcmp(key, "先手") || !strcmp(key, "下手") ? 0
             : !strcmp(key, "後手") || !strcmp(key, "上手") ? 1 : -1;
    if (seat >= 0) {
        snprintf(k->seat[seat], sizeof k->seat[seat], "%s", v);
        return 0;
    }
    int hand = !strcmp(key, "先手の持駒") || !strcmp(key, "下手の持駒") ? 0
             : !strcmp(key, "後手の持駒") || !strcmp(key, "上手の持駒") ? 1
             : -1;
    if (hand >= 0)
        return read_hand(k, hand, v, line, err);
    return 0;
}

static int valid_utf8(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        int len = u[i] < 0x80 ? 1 : (u[i] & 0xe0) == 0xc0 ? 2
                : (u[i] & 0xf0) == 0xe0 ? 3 : (u[i] & 0xf8) == 0xf0 ? 4 : 0;
        if (!len || i + (size_t)len > n)
            return 0;
        for (int j = 1; j < len; j++)
            if ((u[i + (size_t)j] & 0xc0) != 0x80)
                return 0;
        i += (size_t)len;
    }
    return 1;
}

/* A copy of the input as UTF-8 (NUL-terminated): Shift_JIS (CP932) input
 * is converted. NULL after setting err. */
static char *to_utf8(const char *in, size_t len, PlyError *err)
{
    if (memchr(in, 0, len)) {
        ply_fail(err, "the input holds a NUL byte: not a KIF text");
        return NULL;
    }
    if (valid_utf8(in, len)) {
        char *copy = malloc(len + 1);
        if (!copy) {
            ply_fail(err, "out of memory");
            return NULL;
        }
        memcpy(copy, in, len);
        copy[len] = 0;
        return copy;
    }
    iconv_t cd = iconv_open("UTF-8", "CP932");
    if (cd == (iconv_t)-1) {
        ply_fail(err, "the input is not UTF-8, and iconv cannot read "
                 "Shift_JIS here");
        return NULL;
    }
    size_t cap = len * 3 + 1, left = len, room = cap - 1;
    char *out = malloc(cap), *src = (char *)in, *dst = out;
    if (!out || iconv(cd, &src, &left, &dst, &room) == (size_t)-1) {
        ply_fail(err, "the input is neither UTF-8 nor Shift_JIS");
        free(out);
        out = NULL;
    } else {
        *dst = 0;
    }
    iconv_close(cd);
    return out;
}

static int kif_read(const GameVtbl *g, const char *input, size_t len,
                    RecordSink sink, void *ctx, PlyError *err)
{
    (void)g;    /* the header says shogi or minishogi */
    PlyError local;
    if (!err)
        err = &local;
    char *text = to_utf8(input, len, err);
    if (!text)
        return -1;
    KifGame *k = calloc(1, sizeof *k);
    if (!k) {
        free(text);
        return ply_fail(err, "out of memory");
    }
    game_reset(k);
    int rc = 0;
    long line = 0;
    char *save = NULL;
    for (char *ln = strtok_r(text, "\n", &save); ln && !rc;
         ln = strtok_r(NULL, "\n", &save)) {
        line++;
        size_t n = strlen(ln);
        while (n && (ln[n - 1] == '\r' || ln[n - 1] == ' '))
            ln[--n] = 0;
        const char *s = ln;
        eat(&s, "\xef\xbb\xbf");    /* a byte order mark */
        if (!strncmp(s, "#KIF", 4) && k->started) {
            rc = game_finish(k, sink, ctx, err);
            game_reset(k);
        }
        if (rc || *s == '#' || *s == '*' || *s == '&' || !*s)
            continue;
        if (eat(&s, "まで")) {          /* the summary ends a game */
            if (strstr(s, "先手の勝ち") || strstr(s, "下手の勝ち"))
                k->summary_winner = 0;
            else if (strstr(s, "後手の勝ち") || strstr(s, "上手の勝ち"))
                k->summary_winner = 1;
            rc = game_finish(k, sink, ctx, err);
            game_reset(k);
            continue;
        }
        if (!strncmp(s, "変化", strlen("変化")))
            break;                      /* variations are not read */
        if (!strncmp(s, "手数", strlen("手数")))
            continue;
        if (*s == '|') {
            if (k->started)
                rc = ply_fail(err, "line %ld: a board after the moves",
                              line);
            else
                rc = read_row(k, s, line, err);
            continue;
        }
        if (!strcmp(s, "後手番") || !strcmp(s, "上手番")) {
            k->bod_white = 1;
            continue;
        }
        const char *t = s;
        skip_space(&t);
        if (*t >= '0' && *t <= '9') {
            while (*t >= '0' && *t <= '9')
                t++;
            skip_space(&t);
            rc = read_move(k, t, line, err);
            continue;
        }
        if (k->started && (strstr(s, "：") || strchr(s, ':'))) {
            /* a header after moves: the next game began without #KIF */
            rc = game_finish(k, sink, ctx, err);
            game_reset(k);
        }
        if (!rc)
            rc = read_header(k, s, line, err);
    }
    if (!rc && k->started)
        rc = game_finish(k, sink, ctx, err);
    game_reset(k);
    free(k);
    free(text);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------ formats */

static const GameFormat kif_utf8 = {
    .name = "kif", .extension = "kifu",
    .write_record = kif_write, .read_records = kif_read,
};
static const GameFormat kif_sjis = {
    .name = "kif-sjis", .extension = "kif",
    .write_record = kif_sjis_write, .read_records = kif_read,
};
/* USI is shogi's own dialect; minishogi is named as Fairy-Stockfish
 * names it. Moves and SFEN are Ply's. */
static const GameFormat usi_shogi = {
    .name = "usi", .variant = "shogi", .flags = FORMAT_NATIVE,
};
static const GameFormat usi_minishogi = {.name = "usi"};

const GameFormat *const sg_formats_shogi[] = {&kif_utf8, &kif_sjis,
                                              &sg_format_csa, &usi_shogi,
                                              NULL};
const GameFormat *const sg_formats_minishogi[] = {&kif_utf8, &kif_sjis,
                                                  &usi_minishogi, NULL};
/* Micro shogi speaks USI only (no KIF convention exists for it), under
 * Fairy-Stockfish's variant name; moves and SFEN are already its own. */
static const GameFormat usi_micro = {.name = "usi", .variant = "micro"};
const GameFormat *const sg_formats_micro[] = {&usi_micro, NULL};
