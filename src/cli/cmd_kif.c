/* cmd_kif.c — `ply kif`: shogi and minishogi match records (JSON lines,
 * as `ply match --out` writes them) as KIF, the game record format of
 * Kifu for Windows that shogi GUIs read (ShogiGUI, Shogidokoro, Kifu for
 * Windows, lishogi's importer); and `ply kif --read`, a KIF game back to a
 * record. Every move is replayed on the board through the game's own
 * parser, so a bad record or KIF is reported with its line instead of
 * being written out.
 *
 * KIF as written here (see docs/records.md): header lines `key：value`,
 * `手合割：平手` (or a handicap name, `5五将棋` for minishogi as lishogi
 * writes it, or a board diagram for other starts), then one line per move
 * `   1 ７六歩(77)` with the destination in full-width digit and kanji
 * numeral, the piece, 成 / 不成 / 打, and the origin in half-width digits;
 * 同 when a move lands where the previous one did; then the game's end
 * as a move (投了, 詰み, 千日手, ...) and a `まで` summary line. UTF-8 with
 * the `#KIF version=2.0 encoding=UTF-8` line by default (the .kifu
 * convention), Shift_JIS (CP932) with --sjis for programs that read .kif
 * files only so. */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"
#include "records.h"

/* ------------------------------------------------------------ tables */

/* Piece codes of the position read from an SFEN: type 1..8 (the order of
 * "PLNSGBRK"), PROM when promoted, WHITE for the second player. */
enum { PROM = 16, WHITE = 32, TYPE_MASK = 15 };
static const char SFEN_LETTERS[] = "PLNSGBRK";
enum { P_PAWN = 1, P_LANCE, P_KNIGHT, P_SILVER, P_GOLD, P_BISHOP, P_ROOK,
       P_KING };

static const char *const ZEN_DIGIT[10] = {
    "０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const KAN_NUM[19] = {
    "", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
    "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八"};
/* Move notation: the piece's name (two kanji for promoted minor pieces). */
static const char *const NAME[9] = {"", "歩", "香", "桂", "銀", "金", "角",
                                    "飛", "玉"};
static const char *const PROM_NAME[9] = {"", "と", "成香", "成桂", "成銀",
                                         "", "馬", "龍", ""};
/* Board diagrams: one kanji per piece. */
static const char *const PROM_CHAR[9] = {"", "と", "杏", "圭", "全", "",
                                         "馬", "龍", ""};
/* Hands are listed rook first, as Kifu for Windows does. */
static const int HAND_ORDER[7] = {P_ROOK, P_BISHOP, P_GOLD, P_SILVER,
                                  P_KNIGHT, P_LANCE, P_PAWN};

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

static int is_kif_game(const char *name)
{
    return !strcmp(name, "shogi") || !strcmp(name, "minishogi");
}

/* ------------------------------------------------------ SFEN reading */

typedef struct Pos {
    int w, h;           /* files, ranks */
    int side;           /* 0 Black (sente), 1 White */
    int sq[9][9];       /* [rank a..][column from the highest file] */
    int hand[2][9];     /* by type */
} Pos;

static int letter_type(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    const char *p = c ? strchr(SFEN_LETTERS, c) : NULL;
    return p ? (int)(p - SFEN_LETTERS) + 1 : 0;
}

/* Reads the board, side and hands of an SFEN that the game itself wrote
 * (so it is well formed); -1 when it is not what we expect. */
static int read_sfen(const char *s, int w, int h, Pos *p)
{
    memset(p, 0, sizeof *p);
    p->w = w;
    p->h = h;
    int r = 0, c = 0, prom = 0;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (c != w || ++r >= h)
                return -1;
            c = 0;
        } else if (*s >= '1' && *s <= '9') {
            c += *s - '0';
        } else if (*s == '+') {
            prom = PROM;
        } else {
            int t = letter_type(*s);
            if (!t || c >= w)
                return -1;
            p->sq[r][c++] = t | prom | (*s >= 'a' ? WHITE : 0);
            prom = 0;
        }
    }
    if (r != h - 1 || c != w || *s != ' ')
        return -1;
    s++;
    p->side = *s == 'w';
    s += 2;
    if (*s == '-')
        return 0;
    while (*s && *s != ' ') {
        int k = 0;
        while (*s >= '0' && *s <= '9')
            k = k * 10 + (*s++ - '0');
        int t = letter_type(*s);
        if (!t || t == P_KING || k > 18)
            return -1;
        p->hand[*s >= 'a'][t] += k ? k : 1;
        s++;
    }
    return 0;
}

/* "7g" (USI) -> rank index and column index; -1 when off the board. */
static int usi_square(const Pos *p, const char *t, int *r, int *c)
{
    if (t[0] < '1' || t[0] > '0' + p->w || t[1] < 'a' || t[1] >= 'a' + p->h)
        return -1;
    *r = t[1] - 'a';
    *c = p->w - (t[0] - '0');
    return 0;
}

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

static void put_hand(FILE *out, const char *who, const int *hand)
{
    fprintf(out, "%s：", who);
    int any = 0;
    for (int i = 0; i < 7; i++) {
        int t = HAND_ORDER[i], k = hand[t];
        if (k) {
            fprintf(out, "%s%s　", NAME[t], k > 1 ? KAN_NUM[k] : "");
            any = 1;
        }
    }
    fputs(any ? "\n" : "なし\n", out);
}

/* A board diagram (BOD), for starts without a name. */
static void put_diagram(FILE *out, const Pos *p, const char *const *sides)
{
    char who[64];
    snprintf(who, sizeof who, "%sの持駒", sides[1]);
    put_hand(out, who, p->hand[1]);
    fputs(" ", out);
    for (int c = 0; c < p->w; c++)
        fprintf(out, " %s", ZEN_DIGIT[p->w - c]);
    fputs("\n+", out);
    for (int c = 0; c < p->w * 3; c++)
        fputc('-', out);
    fputs("+\n", out);
    for (int r = 0; r < p->h; r++) {
        fputc('|', out);
        for (int c = 0; c < p->w; c++) {
            int pc = p->sq[r][c], t = pc & TYPE_MASK;
            if (!pc)
                fputs(" ・", out);
            else
                fprintf(out, "%c%s", pc & WHITE ? 'v' : ' ',
                        pc & PROM ? PROM_CHAR[t] : NAME[t]);
        }
        fprintf(out, "|%s\n", KAN_NUM[r + 1]);
    }
    fputc('+', out);
    for (int c = 0; c < p->w * 3; c++)
        fputc('-', out);
    fputs("+\n", out);
    snprintf(who, sizeof who, "%sの持駒", sides[0]);
    put_hand(out, who, p->hand[0]);
    if (p->side)
        fprintf(out, "%s番\n", sides[1]);
}

static const char *str_field(json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A comment line: '*' then the text on one line. */
static void put_comment(FILE *out, const char *text)
{
    fputc('*', out);
    for (; *text; text++)
        fputc(*text == '\n' || *text == '\r' ? ' ' : *text, out);
    fputc('\n', out);
}

/* The KIF text of USI move `usi` (legal at st, whose SFEN is p); prev_to
 * is the previous move's destination ("" at the start). */
static int kif_move(const GameVtbl *g, const void *st, const Pos *p,
                    const char *usi, const char *prev_to, char *buf,
                    size_t n)
{
    int tr, tc;
    if (usi[1] == '*') {
        int t = letter_type(usi[0]);
        if (!t || usi_square(p, usi + 2, &tr, &tc))
            return -1;
        snprintf(buf, n, "%s%s%s打", ZEN_DIGIT[usi[2] - '0'],
                 KAN_NUM[tr + 1], NAME[t]);
        return 0;
    }
    int fr, fc;
    if (usi_square(p, usi, &fr, &fc) || usi_square(p, usi + 2, &tr, &tc))
        return -1;
    int pc = p->sq[fr][fc], t = pc & TYPE_MASK;
    if (!pc)
        return -1;
    const char *name = pc & PROM ? PROM_NAME[t] : NAME[t];
    const char *suffix = "";
    if (usi[4] == '+') {
        suffix = "成";
    } else {
        /* a promotion declined is written out (不成) */
        char prom[8];
        Move m;
        snprintf(prom, sizeof prom, "%.4s+", usi);
        if (!(pc & PROM) && g->text_to_move(st, prom, &m, NULL) == 0)
            suffix = "不成";
    }
    char dest[32];
    if (!strncmp(prev_to, usi + 2, 2))
        snprintf(dest, sizeof dest, "同　");
    else
        snprintf(dest, sizeof dest, "%s%s", ZEN_DIGIT[usi[2] - '0'],
                 KAN_NUM[tr + 1]);
    snprintf(buf, n, "%s%s%s(%c%d)", dest, name, suffix, usi[0], fr + 1);
    return 0;
}

/* The record's end as a KIF special move and the `まで` line. */
typedef struct Ending {
    const char *special;    /* 投了, 詰み, ... */
    char summary[128];      /* after "まで N手で" */
} Ending;

static void decide_ending(const GameVtbl *g, const void *st, json_t *rec,
                          const char *reason, int side,
                          const char *const *sides, Ending *e)
{
    int winner = -1;
    json_t *res = json_object_get(rec, "result");
    if (json_is_array(res) && json_array_size(res) == 2) {
        double r0 = json_number_value(json_array_get(res, 0));
        double r1 = json_number_value(json_array_get(res, 1));
        winner = r0 > r1 ? 0 : r1 > r0 ? 1 : -1;
    }
    int over = g->to_move(st) == PLAYER_TERMINAL;
    const char *win = winner >= 0 ? sides[winner] : "";
    e->special = "中断";
    snprintf(e->summary, sizeof e->summary, "中断");
    if (!reason || !strcmp(reason, "normal")) {
        if (!over)
            return;
        char sfen[512];
        const char *tail = "";
        if (g->to_text(st, sfen, sizeof sfen) >= 0) {
            const char *sp = strrchr(sfen, ' ');
            tail = sp ? sp + 1 : "";
        }
        double r[2];
        g->returns(st, r);
        winner = r[0] > r[1] ? 0 : r[1] > r[0] ? 1 : -1;
        win = winner >= 0 ? sides[winner] : "";
        if (!strcmp(tail, "sennichite")) {
            e->special = "千日手";
            snprintf(e->summary, sizeof e->summary, "千日手");
        } else if (!strncmp(tail, "perpetual-", 10)) {
            /* the side that checked perpetually loses by a foul */
            e->special = winner == side ? "反則勝ち" : "反則負け";
            snprintf(e->summary, sizeof e->summary, "%sの反則勝ち", win);
        } else if (winner < 0) {
            e->special = "持将棋";   /* the move limit */
            snprintf(e->summary, sizeof e->summary, "持将棋");
        } else if (winner == side) {
            e->special = "入玉勝ち";  /* the 27-point declaration */
            snprintf(e->summary, sizeof e->summary, "%sの入玉勝ち", win);
        } else {
            e->special = "詰み";
            snprintf(e->summary, sizeof e->summary, "%sの勝ち", win);
        }
        return;
    }
    if (winner < 0) {
        e->special = "持将棋";      /* an adjudicated draw */
        snprintf(e->summary, sizeof e->summary, "持将棋");
        return;
    }
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

static int convert_record(json_t *rec, long line, int round, FILE *out)
{
    (void)round;
    const char *name = str_field(rec, "game");
    if (!name)
        return cli_error("kif", "line %ld: no \"game\" string", line), -1;
    if (!is_kif_game(name))
        return 1;
    const GameVtbl *g = game_find(name);
    if (!g)
        return cli_error("kif", "line %ld: game '%s' is not available",
                         line, name), -1;
    int w = strcmp(name, "minishogi") ? 9 : 5, h = w;
    const char *options = str_field(rec, "options");
    const char *setup = str_field(rec, "setup");
    const char *reason = str_field(rec, "reason");
    json_t *moves = json_object_get(rec, "moves");
    if (!json_is_array(moves))
        return cli_error("kif", "line %ld: no \"moves\" array", line), -1;
    json_t *seats = json_object_get(rec, "seats");
    if (!json_is_array(seats) || json_array_size(seats) != 2)
        return cli_error("kif", "line %ld: \"seats\" is not a list of two",
                         line), -1;
    void *st = state_alloc(g);
    if (!st)
        return cli_error("kif", "out of memory"), -1;
    PlyError err = {{0}};
    int rc = -1;
    char sfen[512], buf[256], prev_to[3] = "";
    Pos p;
    if (state_setup(g, st, options, setup, 1, &err)) {
        cli_error("kif", "line %ld: %s", line, err.msg);
        goto done;
    }
    if (g->to_text(st, sfen, sizeof sfen) < 0 || read_sfen(sfen, w, h, &p)) {
        cli_error("kif", "line %ld: cannot read the position", line);
        goto done;
    }
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
        handicap && strcmp(handicap, "平手") && strcmp(handicap, "5五将棋")
            ? HC : EVEN;

    fputs("#KIF version=2.0 encoding=UTF-8\n", out);
    fputs("# ---- Ply match record (ply kif) ----\n", out);
    fputs("棋戦：Ply match\n", out);
    json_t *idx = json_object_get(rec, "index");
    if (json_is_integer(idx))
        fprintf(out, "# game %lld of the match\n",
                (long long)json_integer_value(idx) + 1);
    if (handicap) {
        fprintf(out, "手合割：%s\n", handicap);
    } else {
        put_diagram(out, &p, sides);
    }
    for (int s = 0; s < 2; s++) {
        json_t *j = json_array_get(seats, (size_t)s);
        fprintf(out, "%s：%s\n", sides[s],
                json_is_string(j) ? json_string_value(j) : "?");
    }
    fputs("手数----指手---------消費時間--\n", out);

    size_t nm = json_array_size(moves);
    int num = 0;
    const char *illegal = NULL;
    for (size_t i = 0; i < nm; i++) {
        json_t *mj = json_array_get(moves, i);
        if (!json_is_string(mj)) {
            cli_error("kif", "line %ld: move %zu is not a string", line,
                      i + 1);
            goto done;
        }
        const char *text = json_string_value(mj);
        Move m;
        int who = g->to_move(st);
        if (who < 0 || g->text_to_move(st, text, &m, &err) ||
            !state_is_legal(g, st, m)) {
            if (who >= 0 && reason && !strcmp(reason, "illegal") &&
                i + 1 == nm) {
                illegal = text;     /* the move that lost */
                break;
            }
            cli_error("kif", "line %ld: move %zu '%.60s': %s", line, i + 1,
                      text, who < 0 ? "the game is over"
                      : err.msg[0] ? err.msg : "illegal");
            goto done;
        }
        if (g->to_text(st, sfen, sizeof sfen) < 0 ||
            read_sfen(sfen, w, h, &p) ||
            kif_move(g, st, &p, text, prev_to, buf, sizeof buf)) {
            cli_error("kif", "line %ld: move %zu '%.60s': cannot write it",
                      line, i + 1, text);
            goto done;
        }
        put_move_line(out, ++num, buf);
        memcpy(prev_to, text + 2, 2);   /* drops too */
        prev_to[2] = 0;
        g->make(st, m);
    }
    if (g->to_text(st, sfen, sizeof sfen) < 0 || read_sfen(sfen, w, h, &p)) {
        cli_error("kif", "line %ld: cannot read the final position", line);
        goto done;
    }
    Ending e;
    decide_ending(g, st, rec, reason, p.side, sides, &e);
    put_move_line(out, num + 1, e.special);
    const char *error = str_field(rec, "error");
    if (error && *error) {
        put_comment(out, error);
    } else if (illegal) {
        snprintf(buf, sizeof buf, "illegal move: %.100s", illegal);
        put_comment(out, buf);
    }
    fprintf(out, "まで%d手で%s\n", num, e.summary);
    rc = 0;
done:
    free(st);
    return rc;
}

/* ------------------------------------------------------------ output */

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
        size_t r = iconv(cd, &src, &left, &dst, &room);
        fwrite(obuf, 1, (size_t)(dst - obuf), out);
        if (r == (size_t)-1 && errno != E2BIG) {
            rc = -1;
            break;
        }
    }
    iconv_close(cd);
    return rc;
}

/* Writes one converted game: to stdout, or to PREFIX-NNN.kif(u). */
typedef struct KifOut {
    const char *split;          /* PREFIX, or NULL for standard output */
    int sjis;
} KifOut;

static int emit(const char *text, size_t len, int game, void *ctx)
{
    const KifOut *ko = ctx;
    const char *split = ko->split;
    int sjis = ko->sjis;
    FILE *out = stdout;
    if (!split && game > 1)
        fputc('\n', out);      /* a blank line between games */
    char path[4096];
    if (split) {
        snprintf(path, sizeof path, "%s-%03d.%s", split, game,
                 sjis ? "kif" : "kifu");
        out = fopen(path, "wb");
        if (!out)
            return cli_error("kif", "cannot write '%s'", path);
    }
    int rc = 0;
    if (sjis) {
        /* Shift_JIS files are recognized by their extension, not a line */
        const char *first = "#KIF version=2.0 encoding=UTF-8\n";
        size_t k = strlen(first);
        if (len >= k && !memcmp(text, first, k)) {
            text += k;
            len -= k;
        }
        if (to_sjis(text, len, out))
            rc = cli_error("kif", "cannot convert to Shift_JIS (CP932): "
                           "iconv lacks it");
    } else {
        fwrite(text, 1, len, out);
    }
    if (split) {
        if (fclose(out) && !rc)
            rc = cli_error("kif", "cannot write '%s'", path);
        if (!rc)
            fprintf(stderr, "ply kif: wrote %s\n", path);
    }
    return rc;
}

static int write_kif(const char *file, const char *split, int sjis)
{
    KifOut ko = {split, sjis};
    return cli_convert_record_file("kif", file, convert_record, emit, &ko,
                                   "games other than shogi and minishogi");
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

/* A piece name (move text or diagram); its code, or 0. */
static int eat_piece(const char **s)
{
    static const struct { const char *k; int code; } T[] = {
        {"成香", P_LANCE | PROM}, {"成桂", P_KNIGHT | PROM},
        {"成銀", P_SILVER | PROM}, {"歩", P_PAWN}, {"香", P_LANCE},
        {"桂", P_KNIGHT}, {"銀", P_SILVER}, {"金", P_GOLD},
        {"角", P_BISHOP}, {"飛", P_ROOK}, {"玉", P_KING}, {"王", P_KING},
        {"と", P_PAWN | PROM}, {"杏", P_LANCE | PROM},
        {"圭", P_KNIGHT | PROM}, {"全", P_SILVER | PROM},
        {"馬", P_BISHOP | PROM}, {"龍", P_ROOK | PROM},
        {"竜", P_ROOK | PROM}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (eat(s, T[i].k))
            return T[i].code;
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
    long first_line;
    int minishogi;
    char seat[2][128];
    const char *handicap_sfen;  /* from 手合割 */
    int rows;                   /* board diagram rows read */
    Pos bod;
    int bod_hand_seen, bod_white;
    void *st;
    const GameVtbl *g;
    json_t *moves;
    char prev_to[3];
    int ending, nmoves, size;   /* size: 9, or 5 in minishogi */
    int summary_winner;         /* from "まで..の勝ち": 0, 1, or -1 */
} KifGame;

static void game_reset(KifGame *k)
{
    json_decref(k->moves);
    free(k->st);
    memset(k, 0, sizeof *k);
    k->summary_winner = -1;
}

static int usi_of_piece(int code, int white)
{
    char c = SFEN_LETTERS[(code & TYPE_MASK) - 1];
    return white ? c - 'A' + 'a' : c;
}

/* The start position's SFEN from the header: a diagram, a handicap name,
 * or the even game. */
static int start_sfen(const KifGame *k, char *out, size_t n)
{
    if (!k->rows) {
        snprintf(out, n, "%s 1", k->handicap_sfen ? k->handicap_sfen
                 : HANDICAPS[0].sfen);
        return 0;
    }
    const Pos *p = &k->bod;
    size_t len = 0;
    for (int r = 0; r < p->h; r++) {
        int empty = 0;
        for (int c = 0; c < p->w; c++) {
            int pc = p->sq[r][c];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                len += (size_t)snprintf(out + len, n - len, "%d", empty);
            empty = 0;
            len += (size_t)snprintf(out + len, n - len, "%s%c",
                                    pc & PROM ? "+" : "",
                                    usi_of_piece(pc, pc & WHITE));
        }
        if (empty)
            len += (size_t)snprintf(out + len, n - len, "%d", empty);
        if (r + 1 < p->h)
            len += (size_t)snprintf(out + len, n - len, "/");
        if (len >= n)
            return -1;
    }
    len += (size_t)snprintf(out + len, n - len, " %c ",
                            k->bod_white ? 'w' : 'b');
    int any = 0;
    for (int col = 0; col < 2; col++)
        for (int i = 0; i < 7; i++) {
            int t = HAND_ORDER[i], c = p->hand[col][t];
            if (!c || len >= n)
                continue;
            any = 1;
            if (c > 1)
                len += (size_t)snprintf(out + len, n - len, "%d", c);
            len += (size_t)snprintf(out + len, n - len, "%c",
                                    usi_of_piece(t, col));
        }
    if (len < n)
        len += (size_t)snprintf(out + len, n - len, "%s 1", any ? "" : "-");
    return len >= n ? -1 : 0;
}

/* Sets up the game before its first move. */
static int game_start(KifGame *k, long line)
{
    if (k->st)
        return 0;
    k->size = k->minishogi || k->rows == 5 ? 5 : 9;
    k->g = game_find(k->size == 5 ? "minishogi" : "shogi");
    if (!k->g)
        return cli_error("kif", "line %ld: shogi is not available", line);
    if (k->rows && k->rows != 5 && k->rows != 9)
        return cli_error("kif", "line %ld: a board diagram of %d ranks "
                         "(shogi has 9, minishogi 5)", line, k->rows);
    char sfen[512];
    if (start_sfen(k, sfen, sizeof sfen))
        return cli_error("kif", "line %ld: bad board diagram", line);
    k->st = state_alloc(k->g);
    PlyError err = {{0}};
    if (!k->st || state_setup(k->g, k->st, NULL, sfen, 1, &err))
        return cli_error("kif", "line %ld: start position: %s", line,
                         err.msg[0] ? err.msg : "out of memory");
    k->moves = json_array();
    return 0;
}

/* The record of a finished game, as `ply match --out` writes it. */
static int game_finish(KifGame *k, FILE *out)
{
    if (!k->st)
        return 0;
    const GameVtbl *g = k->g;
    char sfen[512];
    PlyError err = {{0}};
    void *start = state_alloc(g);
    if (!start)
        return cli_error("kif", "out of memory");
    /* the setup is the start replayed from scratch: what the header said */
    if (start_sfen(k, sfen, sizeof sfen) ||
        state_setup(g, start, NULL, sfen, 1, &err) ||
        g->to_text(start, sfen, sizeof sfen) < 0) {
        free(start);
        return cli_error("kif", "bad start position");
    }
    free(start);
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(g->info.name));
    json_object_set_new(o, "options", json_string(""));
    json_object_set_new(o, "setup", json_string(sfen));
    json_t *seats = json_array();
    for (int s = 0; s < 2; s++)
        json_array_append_new(seats, json_string(k->seat[s][0] ? k->seat[s]
                                                 : "?"));
    json_object_set_new(o, "seats", seats);
    json_object_set(o, "moves", k->moves);
    /* the result: the game's own when it is over, else the KIF's word */
    int side = g->to_move(k->st), winner = -2;
    const char *reason = "normal";
    if (side == PLAYER_TERMINAL) {
        double r[2];
        g->returns(k->st, r);
        winner = r[0] > r[1] ? 0 : r[1] > r[0] ? 1 : -1;
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
    if (winner > -2) {
        json_t *res = json_array();
        json_array_append_new(res, json_integer(winner < 0 ? 0
                                                : winner == 0 ? 1 : -1));
        json_array_append_new(res, json_integer(winner < 0 ? 0
                                                : winner == 1 ? 1 : -1));
        json_object_set_new(o, "result", res);
        json_object_set_new(o, "reason", json_string(reason));
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return cli_error("kif", "out of memory");
    fprintf(out, "%s\n", text);
    free(text);
    return 0;
}

/* A move line's text after the number: a move, or the game's end. */
static int read_move(KifGame *k, const char *s, long line)
{
    if (game_start(k, line))
        return -1;
    if (k->ending)
        return cli_error("kif", "line %ld: a move after the end of the "
                         "game", line);
    if (!eat(&s, "▲") && !eat(&s, "△") && !eat(&s, "☗"))
        eat(&s, "☖");
    int end = eat_ending(&s);
    if (end) {
        k->ending = end;
        return 0;
    }
    char usi[8], to[3];
    const char *at = s;
    if (eat(&s, "同")) {
        if (!k->prev_to[0])
            return cli_error("kif", "line %ld: 同 at the first move", line);
        memcpy(to, k->prev_to, 3);
        skip_space(&s);
    } else {
        int f = eat_file(&s), r = eat_kanji_number(&s);
        if (!f || !r || f > k->size || r > k->size)
            return cli_error("kif", "line %ld: no square in '%.40s'", line,
                             at);
        to[0] = (char)('0' + f);
        to[1] = (char)('a' + r - 1);
        to[2] = 0;
    }
    int pc = eat_piece(&s);
    if (!pc)
        return cli_error("kif", "line %ld: no piece in '%.40s'", line, at);
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
        if (pc & PROM || (pc & TYPE_MASK) == P_KING)
            return cli_error("kif", "line %ld: no origin square '(FR)' in "
                             "'%.40s'", line, at);
        snprintf(usi, sizeof usi, "%c*%s", SFEN_LETTERS[(pc & TYPE_MASK) - 1],
                 to);
    } else {
        if (!eat(&s, "(") || s[0] < '1' || s[0] > '9' || s[1] < '1' ||
            s[1] > '9' || s[2] != ')')
            return cli_error("kif", "line %ld: no origin square '(FR)' in "
                             "'%.40s'", line, at);
        snprintf(usi, sizeof usi, "%c%c%s%s", s[0], 'a' + s[1] - '1', to,
                 prom ? "+" : "");
    }
    Move m;
    PlyError err = {{0}};
    if (k->g->to_move(k->st) < 0)
        return cli_error("kif", "line %ld: move %d '%.40s': the game is "
                         "already over here", line, k->nmoves + 1, at);
    if (k->g->text_to_move(k->st, usi, &m, &err) ||
        !state_is_legal(k->g, k->st, m))
        return cli_error("kif", "line %ld: move %d '%.40s' (%s): %s", line,
                         k->nmoves + 1, at, usi,
                         err.msg[0] ? err.msg : "illegal");
    /* the piece named must be the one that moves */
    char sfen[512];
    Pos p;
    if (usi[1] != '*' && k->g->to_text(k->st, sfen, sizeof sfen) >= 0 &&
        !read_sfen(sfen, k->size, k->size, &p)) {
        int fr, fc;
        if (!usi_square(&p, usi, &fr, &fc) &&
            (p.sq[fr][fc] & (TYPE_MASK | PROM)) != pc)
            return cli_error("kif", "line %ld: move %d '%.40s': that piece "
                             "is not on %c%c", line, k->nmoves + 1, at,
                             usi[0], usi[1]);
    }
    k->g->make(k->st, m);
    json_array_append_new(k->moves, json_string(usi));
    memcpy(k->prev_to, to, 3);
    k->nmoves++;
    return 0;
}

/* A board diagram row "|v香v桂 ・ ...|一". */
static int read_row(KifGame *k, const char *s, long line)
{
    if (k->rows >= 9)
        return cli_error("kif", "line %ld: more than 9 board ranks", line);
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
            return cli_error("kif", "line %ld: bad board rank", line);
        k->bod.sq[r][c++] = pc | (white ? WHITE : 0);
    }
    if (*s != '|' || (r > 0 && c != k->bod.w) || (c != 5 && c != 9))
        return cli_error("kif", "line %ld: a board rank has %d squares",
                         line, c);
    k->bod.w = k->bod.h = c;
    return 0;
}

static int read_hand(KifGame *k, int col, const char *s, long line)
{
    skip_space(&s);
    if (eat(&s, "なし"))
        return 0;
    while (*s) {
        skip_space(&s);
        if (!*s)
            break;
        int pc = eat_piece(&s);
        if (!pc || pc & PROM || (pc & TYPE_MASK) == P_KING)
            return cli_error("kif", "line %ld: bad piece in hand", line);
        int n = eat_kanji_number(&s);
        k->bod.hand[col][pc & TYPE_MASK] += n ? n : 1;
    }
    return 0;
}

/* A header line "key：value"; unknown keys are kept out of the record. */
static int read_header(KifGame *k, const char *s, long line)
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
            v = "5五将棋";
        if (!strcmp(v, "その他"))
            return 0;
        for (int i = 0; HANDICAPS[i].sfen; i++)
            if (!strcmp(v, HANDICAPS[i].name)) {
                k->handicap_sfen = HANDICAPS[i].sfen;
                k->minishogi = !strcmp(v, "5五将棋");
                return 0;
            }
        return cli_error("kif", "line %ld: unknown 手合割 '%.40s'", line, v);
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
        return read_hand(k, hand, v, line);
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

/* The whole input as UTF-8: Shift_JIS (CP932) input is converted. */
static char *slurp_utf8(FILE *in, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return NULL;
    char chunk[4096];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, in)) > 0)
        fwrite(chunk, 1, r, mem);
    fclose(mem);
    if (valid_utf8(buf, len))
        return buf;
    iconv_t cd = iconv_open("UTF-8", "CP932");
    if (cd == (iconv_t)-1) {
        free(buf);
        cli_error("kif", "'%s' is not UTF-8, and iconv cannot read "
                  "Shift_JIS here", name);
        return NULL;
    }
    size_t cap = len * 3 + 1, left = len, room = cap - 1;
    char *outb = malloc(cap), *src = buf, *dst = outb;
    if (!outb || iconv(cd, &src, &left, &dst, &room) == (size_t)-1) {
        cli_error("kif", "'%s' is neither UTF-8 nor Shift_JIS", name);
        free(outb);
        outb = NULL;
    } else {
        *dst = 0;
    }
    iconv_close(cd);
    free(buf);
    return outb;
}

static int read_kif(const char *file)
{
    FILE *in = stdin;
    const char *name = file && strcmp(file, "-") ? file : "stdin";
    if (file && strcmp(file, "-")) {
        in = fopen(file, "rb");
        if (!in)
            return cli_error("kif", "cannot open '%s'", file);
    }
    char *text = slurp_utf8(in, name);
    if (in != stdin)
        fclose(in);
    if (!text)
        return 2;
    KifGame k;
    memset(&k, 0, sizeof k);
    k.summary_winner = -1;
    int rc = 0, games = 0;
    long line = 0;
    char *save = NULL;
    /* records go to a buffer: a bad game prints nothing of itself */
    for (char *ln = strtok_r(text, "\n", &save); ln;
         ln = strtok_r(NULL, "\n", &save)) {
        line++;
        size_t n = strlen(ln);
        while (n && (ln[n - 1] == '\r' || ln[n - 1] == ' '))
            ln[--n] = 0;
        const char *s = ln;
        eat(&s, "\xef\xbb\xbf");    /* a byte order mark */
        if (!strncmp(s, "#KIF", 4) && k.st) {
            if ((rc = game_finish(&k, stdout)))
                break;
            games++;
            game_reset(&k);
        }
        if (*s == '#' || *s == '*' || *s == '&' || !*s)
            continue;
        if (eat(&s, "まで")) {          /* the summary ends a game */
            if (strstr(s, "先手の勝ち") || strstr(s, "下手の勝ち"))
                k.summary_winner = 0;
            else if (strstr(s, "後手の勝ち") || strstr(s, "上手の勝ち"))
                k.summary_winner = 1;
            if ((rc = game_finish(&k, stdout)))
                break;
            games += k.st != NULL;
            game_reset(&k);
            continue;
        }
        if (!strncmp(s, "変化", strlen("変化")))
            break;                      /* variations are not read */
        if (!strncmp(s, "手数", strlen("手数")))
            continue;
        if (*s == '|') {
            if (k.st) {
                rc = cli_error("kif", "line %ld: a board after the moves",
                               line);
                break;
            }
            if ((rc = read_row(&k, s, line)))
                break;
            continue;
        }
        if (!strcmp(s, "後手番") || !strcmp(s, "上手番")) {
            k.bod_white = 1;
            continue;
        }
        const char *t = s;
        skip_space(&t);
        if (*t >= '0' && *t <= '9') {
            while (*t >= '0' && *t <= '9')
                t++;
            skip_space(&t);
            if ((rc = read_move(&k, t, line)))
                break;
            continue;
        }
        if (k.st && (strstr(s, "：") || strchr(s, ':'))) {
            /* a header after moves: the next game began without #KIF */
            if ((rc = game_finish(&k, stdout)))
                break;
            games++;
            game_reset(&k);
        }
        if ((rc = read_header(&k, s, line)))
            break;
    }
    if (!rc && k.st) {
        rc = game_finish(&k, stdout);
        games++;
    }
    game_reset(&k);
    free(text);
    if (!rc && !games)
        rc = cli_error("kif", "no moves found in %s", name);
    return rc ? 2 : 0;
}

int cmd_kif(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "kif"))
        return 0;
    const char *file = NULL, *split = NULL;
    int sjis = 0, read = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--read")) {
            read = 1;
        } else if (!strcmp(argv[i], "--sjis")) {
            sjis = 1;
        } else if (!strcmp(argv[i], "--split")) {
            if (++i >= argc)
                return cli_error("kif", "--split needs a file name prefix");
            split = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_error("kif", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_error("kif", "usage: ply kif [FILE] [--split PREFIX] "
                             "[--sjis] | ply kif --read [KIFFILE]");
        } else {
            file = argv[i];
        }
    }
    if (read && (split || sjis))
        return cli_error("kif", "--read takes no --split or --sjis");
    return read ? read_kif(file) : write_kif(file, split, sjis);
}
