/* banqi.c — Banqi (half chess, Chinese dark chess) on a 4x8 board.
 *
 * The 32 xiangqi pieces lie face down. Face-down pieces are unknown to
 * both players, so the state does not fix them: it keeps the pool of
 * pieces not yet seen, and a flip is a chance event drawn from that pool
 * with exact probabilities (count / pieces left). Nothing is hidden from
 * one player that the other knows: observe() is the state itself and
 * determinize() returns it, so every bot is honest here by construction;
 * the game is flagged hidden-information for its face-down pieces.
 *
 * A turn: choose a face-down piece to flip (then chance reveals it; the
 * first flip gives its colour to the player who flipped), or move one of
 * one's own face-up pieces one step orthogonally to an empty square, or
 * capture. Rules (option rules=):
 *   taiwan (default, the computer-tournament form): ranks general >
 *     advisor > elephant > chariot > horse > cannon > soldier; a piece
 *     takes an equal or lower one, the soldier also takes the general, the
 *     general never takes a soldier; the cannon steps like the others but
 *     takes only by jumping exactly one piece (any, face up or down) along
 *     a row or column, landing on the first piece beyond, which must be a
 *     face-up enemy of any rank.
 *   chinese (as Dagaz's "Banqi (Chinese)"): the same ranks; the cannon
 *     takes by rank like the others, no jump; the general takes soldiers.
 * A player who cannot move, or whose pieces are all captured, loses. Draw
 * after 180 plies without a flip or a capture, or when a position occurs
 * the third time since the last flip or capture. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bot.h"
#include "../core/game.h"
#include "../core/layout.h"
#include "../core/util.h"

enum { SQ = 32, FACE_DOWN = 15, NCODES = 14, QUIET_DRAW = 180 };
enum { T_GEN, T_ADV, T_ELE, T_CHA, T_HOR, T_CAN, T_SOL, NTYPES };
enum { BQ_PLAYING, BQ_WIN0, BQ_WIN1, BQ_DRAW };
enum { FLIP = 0x1000, REVEAL = 0x4000 };
enum { MAX_MOVES = 32 + 16 * 12, MAX_PLIES = 64 * (QUIET_DRAW + 2) + 200 };

/* piece code: 1 + colour * 7 + type (colour 0 red, 1 black), 1..14 */
typedef struct Banqi {
    uint8_t sq[SQ];         /* a1 = 0 .. h4 = 31; 0 empty, FACE_DOWN */
    uint8_t pool[NCODES];   /* face-down pieces not yet seen, by code-1 */
    uint8_t side;           /* player to move (or who flips) */
    int8_t red;             /* the player with red; -1 before a flip */
    int8_t pending;         /* square being flipped: chance to move */
    uint8_t over;
    uint8_t rules;          /* 0 taiwan, 1 chinese */
    uint8_t rep3;           /* drawn by repetition (written "3fold") */
    uint8_t again;          /* in play, and the position occurred before
                             * since the last flip or capture */
    uint8_t pad;
    uint16_t quiet;         /* plies since the last flip or capture */
    uint16_t nhist;         /* keys in hist: positions since then */
    uint64_t hist[QUIET_DRAW + 2];
} Banqi;

static const int COUNT[NTYPES] = {1, 2, 2, 2, 2, 2, 5};
static const char LETTER[NTYPES] = {'K', 'A', 'E', 'R', 'H', 'C', 'P'};
static const int VALUE[NTYPES] = {650, 300, 150, 80, 40, 120, 30};

static int code_colour(int c) { return (c - 1) / NTYPES; }
static int code_type(int c) { return (c - 1) % NTYPES; }
static int colour_of_player(const Banqi *b, int p)
{
    return b->red < 0 ? -1 : b->red == p ? 0 : 1;
}

static uint64_t banqi_hash(const void *st)
{
    const Banqi *b = st;
    uint64_t h = ply_mix64(0xb4a9ull ^ (uint64_t)b->side ^
                           (uint64_t)(b->red + 2) << 4 ^
                           (uint64_t)(b->pending + 2) << 8 ^
                           (uint64_t)b->over << 16);
    for (int s = 0; s < SQ; s++)
        if (b->sq[s])
            h ^= ply_mix64(0x51ull * 64 + (uint64_t)(b->sq[s] * 32 + s));
    for (int c = 0; c < NCODES; c++)
        h ^= ply_mix64(0x9001ull + (uint64_t)(c * 8 + b->pool[c]));
    return h;
}

static int can_take(const Banqi *b, int att, int tgt)
{
    if (att == T_SOL)
        return tgt == T_SOL || tgt == T_GEN;
    if (att == T_GEN)
        return b->rules == 1 || tgt != T_SOL;
    return att <= tgt;
}

static const int DF[4] = {1, -1, 0, 0}, DR[4] = {0, 0, 1, -1};

static int gen(const Banqi *b, Move *out)
{
    int n = 0;
    for (int s = 0; s < SQ; s++)
        if (b->sq[s] == FACE_DOWN)
            out[n++] = FLIP | (Move)s;
    int c = colour_of_player(b, b->side);
    if (c < 0)
        return n;
    for (int s = 0; s < SQ; s++) {
        int pc = b->sq[s];
        if (!pc || pc == FACE_DOWN || code_colour(pc) != c)
            continue;
        int t = code_type(pc), f = s & 7, r = s >> 3;
        for (int d = 0; d < 4; d++) {
            int f1 = f + DF[d], r1 = r + DR[d];
            if (f1 < 0 || f1 > 7 || r1 < 0 || r1 > 3)
                continue;
            int to = r1 * 8 + f1, q = b->sq[to];
            if (!q) {
                out[n++] = (Move)s | (Move)to << 5;
            } else if (q != FACE_DOWN && code_colour(q) != c &&
                       !(t == T_CAN && b->rules == 0) &&
                       can_take(b, t, code_type(q))) {
                out[n++] = (Move)s | (Move)to << 5;
            }
            if (t == T_CAN && b->rules == 0) {
                /* the jump: a screen, then the first piece beyond */
                int screen = 0;
                for (int f2 = f + DF[d], r2 = r + DR[d];
                     f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 4;
                     f2 += DF[d], r2 += DR[d]) {
                    int x = b->sq[r2 * 8 + f2];
                    if (!x)
                        continue;
                    if (!screen) {
                        screen = 1;
                        continue;
                    }
                    if (x != FACE_DOWN && code_colour(x) != c)
                        out[n++] = (Move)s | (Move)(r2 * 8 + f2) << 5;
                    break;
                }
            }
        }
    }
    return n;
}

static void status(Banqi *b)
{
    b->over = BQ_PLAYING;
    b->rep3 = 0;
    b->again = 0;
    if (b->pending >= 0)
        return;
    if (b->red >= 0) {
        int left[2] = {0, 0};
        for (int s = 0; s < SQ; s++)
            if (b->sq[s] && b->sq[s] != FACE_DOWN)
                left[code_colour(b->sq[s])]++;
        for (int c = 0; c < NCODES; c++)
            left[code_colour(c + 1)] += b->pool[c];
        for (int col = 0; col < 2; col++)
            if (!left[col]) {
                int loser = col == 0 ? b->red : !b->red;
                b->over = loser ? BQ_WIN0 : BQ_WIN1;
                return;
            }
    }
    Move mv[MAX_MOVES];
    if (!gen(b, mv)) {
        b->over = b->side ? BQ_WIN0 : BQ_WIN1;
        return;
    }
    if (b->quiet >= QUIET_DRAW) {
        b->over = BQ_DRAW;
        return;
    }
    uint64_t k = banqi_hash(b);
    int seen = 0;
    for (int i = 0; i < b->nhist; i++)
        seen += b->hist[i] == k;
    if (seen >= 2) {
        b->over = BQ_DRAW;
        b->rep3 = 1;
    }
    b->again = seen == 1;
}

/* A search treats a position seen before (since the last flip or
 * capture) as the draw it can be forced into: otherwise a table entry
 * stored when it was new would hide that one more repetition draws. */
static int banqi_repeated(const void *st)
{
    return ((const Banqi *)st)->again;
}

static void setup_start(Banqi *b, int rules)
{
    memset(b, 0, sizeof *b);
    for (int s = 0; s < SQ; s++)
        b->sq[s] = FACE_DOWN;
    for (int c = 0; c < NCODES; c++)
        b->pool[c] = (uint8_t)COUNT[c % NTYPES];
    b->red = -1;
    b->pending = -1;
    b->rules = (uint8_t)rules;
}

static int banqi_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)seed, (void)err;
    setup_start(st, opt ? opt[0] : 0);
    status(st);
    return 0;
}

static int banqi_to_move(const void *st)
{
    const Banqi *b = st;
    return b->over ? PLAYER_TERMINAL : b->pending >= 0 ? PLAYER_CHANCE
                                                        : b->side;
}

static int banqi_chance(const void *st, Move *out, double *p)
{
    const Banqi *b = st;
    int total = 0, n = 0;
    for (int c = 0; c < NCODES; c++)
        total += b->pool[c];
    for (int c = 0; c < NCODES; c++)
        if (b->pool[c]) {
            out[n] = REVEAL | (Move)(c + 1);
            if (p)
                p[n] = (double)b->pool[c] / total;
            n++;
        }
    return n;
}

static int banqi_gen(const void *st, Move *out)
{
    const Banqi *b = st;
    if (b->over)
        return 0;
    if (b->pending >= 0)
        return banqi_chance(st, out, NULL);
    return gen(b, out);
}

static void banqi_make(void *st, Move m)
{
    Banqi *b = st;
    if (m & REVEAL) {
        int code = (int)(m & 15);
        b->sq[b->pending] = (uint8_t)code;
        b->pool[code - 1]--;
        if (b->red < 0)
            b->red = (int8_t)(code_colour(code) == 0 ? b->side : !b->side);
        b->pending = -1;
        b->side = !b->side;
        b->quiet = 0;
        b->nhist = 0;
    } else if (m & FLIP) {
        b->pending = (int8_t)(m & 31);
        return;   /* chance to move; no end test before the reveal */
    } else {
        int from = (int)(m & 31), to = (int)((m >> 5) & 31);
        int capture = b->sq[to] != 0;
        if (!capture && b->nhist < QUIET_DRAW + 2)
            b->hist[b->nhist++] = banqi_hash(b);
        b->sq[to] = b->sq[from];
        b->sq[from] = 0;
        b->side = !b->side;
        if (capture) {
            b->quiet = 0;
            b->nhist = 0;
        } else {
            b->quiet++;
        }
    }
    status(b);
}

static void banqi_returns(const void *st, double *out)
{
    const Banqi *b = st;
    out[0] = b->over == BQ_WIN0 ? 1 : b->over == BQ_WIN1 ? -1 : 0;
    out[1] = -out[0];
}

static void sq_name(int s, char *o)
{
    o[0] = (char)('a' + (s & 7));
    o[1] = (char)('1' + (s >> 3));
    o[2] = 0;
}

static char piece_char(int pc)
{
    if (pc == FACE_DOWN)
        return 'x';
    char ch = LETTER[code_type(pc)];
    return code_colour(pc) ? (char)tolower(ch) : ch;
}

static int code_of_char(int ch)
{
    for (int t = 0; t < NTYPES; t++) {
        if (ch == LETTER[t])
            return 1 + t;
        if (ch == tolower(LETTER[t]))
            return 1 + NTYPES + t;
    }
    return 0;
}

/* "rank4/rank3/rank2/rank1 SIDE RED POOL QUIET [FLIP]": ranks of 8
 * squares from a to h (letters, x face down, digits for empty runs), the
 * player to move 1|2, the player with red 1|2|- (before the first flip),
 * the face-down pieces not yet seen (letters, - when none), the plies
 * since the last flip or capture, and the square being flipped when a
 * reveal is due. */
static int banqi_to_text(const void *st, char *buf, size_t n)
{
    const Banqi *b = st;
    char s[200];
    int k = 0;
    for (int r = 3; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < 8; f++) {
            int pc = b->sq[r * 8 + f];
            if (!pc) {
                run++;
                continue;
            }
            if (run)
                s[k++] = (char)('0' + run);
            run = 0;
            s[k++] = piece_char(pc);
        }
        if (run)
            s[k++] = (char)('0' + run);
        s[k++] = r ? '/' : ' ';
    }
    s[k++] = (char)('1' + b->side);
    s[k++] = ' ';
    s[k++] = b->red < 0 ? '-' : (char)('1' + b->red);
    s[k++] = ' ';
    int any = 0;
    for (int c = 0; c < NCODES; c++)
        for (int i = 0; i < b->pool[c]; i++, any++)
            s[k++] = piece_char(c + 1);
    if (!any)
        s[k++] = '-';
    k += snprintf(s + k, sizeof s - (size_t)k, " %d", b->quiet);
    if (b->pending >= 0) {
        char nm[3];
        sq_name(b->pending, nm);
        k += snprintf(s + k, sizeof s - (size_t)k, " %s", nm);
    }
    if (b->rep3)
        k += snprintf(s + k, sizeof s - (size_t)k, " 3fold");
    int w = snprintf(buf, n, "%s", s);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int banqi_from_text(void *st, const char *text, PlyError *err)
{
    Banqi *b = st;
    Banqi t;
    setup_start(&t, b->rules);
    memset(t.sq, 0, sizeof t.sq);
    memset(t.pool, 0, sizeof t.pool);
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return ply_fail(err, "setup string too long");
    strcpy(buf, text);
    char *tok[8], *save = NULL;
    int nt = 0;
    for (char *x = strtok_r(buf, " \t", &save); x;
         x = strtok_r(NULL, " \t", &save)) {
        if (nt == 7)
            return ply_fail(err, "too many fields (board side red pool "
                            "quiet [flip])");
        tok[nt++] = x;
    }
    int rep3 = 0;
    if (nt >= 6 && !strcmp(tok[nt - 1], "3fold")) {
        rep3 = 1;
        nt--;
    }
    if (nt == 7)
        return ply_fail(err, "too many fields (board side red pool quiet "
                        "[flip] [3fold])");
    if (nt < 5)
        return ply_fail(err, "a banqi setup is 'board side red pool quiet "
                        "[flip]'");
    int r = 3, f = 0;
    for (const char *c = tok[0]; *c; c++) {
        if (*c == '/') {
            if (f != 8 || r == 0)
                return ply_fail(err, "the board needs 4 ranks of 8 squares");
            r--, f = 0;
        } else if (*c >= '1' && *c <= '8') {
            f += *c - '0';
            if (f > 8)
                return ply_fail(err, "a rank has more than 8 squares");
        } else {
            int code = *c == 'x' ? FACE_DOWN : code_of_char(*c);
            if (!code)
                return ply_fail(err, "'%c' is not a banqi piece (KAERHCP, "
                                "lower case black, x face down)", *c);
            if (f >= 8)
                return ply_fail(err, "a rank has more than 8 squares");
            t.sq[r * 8 + f++] = (uint8_t)code;
        }
    }
    if (r != 0 || f != 8)
        return ply_fail(err, "the board needs 4 ranks of 8 squares");
    if (strcmp(tok[1], "1") && strcmp(tok[1], "2"))
        return ply_fail(err, "the player to move is 1 or 2, not '%s'",
                        tok[1]);
    t.side = (uint8_t)(tok[1][0] - '1');
    if (!strcmp(tok[2], "-"))
        t.red = -1;
    else if (!strcmp(tok[2], "1") || !strcmp(tok[2], "2"))
        t.red = (int8_t)(tok[2][0] - '1');
    else
        return ply_fail(err, "the player with red is 1, 2 or -, not '%s'",
                        tok[2]);
    if (strcmp(tok[3], "-"))
        for (const char *c = tok[3]; *c; c++) {
            int code = code_of_char(*c);
            if (!code)
                return ply_fail(err, "'%c' in the pool is not a piece", *c);
            t.pool[code - 1]++;
        }
    char *end;
    long q = strtol(tok[4], &end, 10);
    if (*end || q < 0 || q > QUIET_DRAW)
        return ply_fail(err, "the quiet count is 0..%d, not '%s'",
                        QUIET_DRAW, tok[4]);
    t.quiet = (uint16_t)q;
    /* consistency: face-down squares hold exactly the pool; no piece
     * more often than the set has; colours only after a flip */
    int down = 0, pool = 0, up = 0, cnt[NCODES] = {0};
    for (int s = 0; s < SQ; s++) {
        if (t.sq[s] == FACE_DOWN)
            down++;
        else if (t.sq[s]) {
            up++;
            cnt[t.sq[s] - 1]++;
        }
    }
    for (int c = 0; c < NCODES; c++) {
        pool += t.pool[c];
        if (cnt[c] + t.pool[c] > COUNT[c % NTYPES])
            return ply_fail(err, "more '%c' than the set has",
                            piece_char(c + 1));
    }
    if (pool != down)
        return ply_fail(err, "%d face-down squares but %d pieces in the "
                        "pool", down, pool);
    if (t.red < 0 && (up || down != 32))
        return ply_fail(err, "colours are decided by the first flip: "
                        "give the player with red");
    if (nt == 6) {
        const char *p = tok[5];
        if (strlen(p) != 2 || p[0] < 'a' || p[0] > 'h' || p[1] < '1' ||
            p[1] > '4')
            return ply_fail(err, "the square being flipped, not '%s'", p);
        int s = (p[1] - '1') * 8 + (p[0] - 'a');
        if (t.sq[s] != FACE_DOWN)
            return ply_fail(err, "%s is not face down", p);
        t.pending = (int8_t)s;
    }
    status(&t);
    if (rep3) {
        if (t.over || t.pending >= 0)
            return ply_fail(err, "'3fold' on a position that is not "
                            "otherwise playing");
        t.over = BQ_DRAW;
        t.rep3 = 1;
    }
    *b = t;
    return 0;
}

static int banqi_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    char a[3], c[3];
    int w;
    if (m & REVEAL) {
        w = snprintf(buf, n, "=%c", piece_char((int)(m & 15)));
    } else if (m & FLIP) {
        sq_name((int)(m & 31), a);
        w = snprintf(buf, n, "%s", a);
    } else {
        sq_name((int)(m & 31), a);
        sq_name((int)((m >> 5) & 31), c);
        w = snprintf(buf, n, "%s%s", a, c);
    }
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int banqi_text_to_move(const void *st, const char *s, Move *m,
                              PlyError *err)
{
    Move mv[MAX_MOVES];
    int n = banqi_gen(st, mv);
    if (!n)
        return ply_fail(err, "the game is over");
    for (int i = 0; i < n; i++) {
        char t[16];
        banqi_move_to_text(st, mv[i], t, sizeof t);
        if (!strcmp(t, s)) {
            *m = mv[i];
            return 0;
        }
    }
    return ply_fail(err, "'%.40s' is not a legal move here (flip: c3; "
                    "move or capture: c3c4; a reveal: =K, =p)", s);
}

/* The 8x4 board for drawing: a1 bottom left, squares named as the
 * notation writes them (a flip is entered by clicking the piece), face-up
 * pieces by their Chinese glyph with the owner of their colour, face-down
 * pieces as a neutral "?" disc. */
static int banqi_layout(const void *st, Layout *l)
{
    static const char *const glyph[2][NTYPES] = {
        {"\u5E25", "\u4ED5", "\u76F8", "\u4FE5", "\u508C", "\u70AE",
         "\u5175"},
        {"\u5C07", "\u58EB", "\u8C61", "\u8ECA", "\u99AC", "\u7832",
         "\u5352"}};
    const Banqi *b = st;
    l->width = 8;
    l->height = 4;
    for (int s = 0; s < SQ; s++) {
        int f = s & 7, r = s >> 3;
        char name[3];
        sq_name(s, name);
        LayoutCell *c = layout_cell(l, (float)f + 0.5f, 3.5f - (float)r,
                                    CELL_SQUARE, (f + r) % 2 ? SHADE_LIGHT
                                    : SHADE_DARK, name);
        int pc = b->sq[s];
        if (!c || !pc)
            continue;
        if (pc == FACE_DOWN) {
            snprintf(c->glyph, sizeof c->glyph, "?");
            c->owner = -1;
        } else {
            int col = code_colour(pc);
            snprintf(c->glyph, sizeof c->glyph, "%s",
                     glyph[col][code_type(pc)]);
            c->owner = (int8_t)(b->red < 0 ? -1 : col ? !b->red : b->red);
        }
    }
    return 0;
}

static int banqi_render(const void *st, char *buf, size_t n)
{
    const Banqi *b = st;
    size_t len = 0;
    int w;
    for (int r = 3; r >= 0; r--) {
        char row[40];
        int k = 0;
        row[k++] = (char)('1' + r);
        row[k++] = ' ';
        for (int f = 0; f < 8; f++) {
            int pc = b->sq[r * 8 + f];
            row[k++] = ' ';
            row[k++] = pc ? piece_char(pc) : '.';
        }
        row[k] = 0;
        PLY_OUT("%s\n", row);
    }
    const char *who = b->red < 0 ? "colours not yet decided"
                    : b->red == 0 ? "player 1 red (upper case)"
                                  : "player 2 red (upper case)";
    w = snprintf(buf + len, n - len, "   a b c d e f g h\n%s\n", who);
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + (size_t)w);
}

static void banqi_observe(const void *st, int player, void *obs)
{
    (void)player;
    memmove(obs, st, sizeof(Banqi));   /* nothing is hidden from one side */
}

static void banqi_determinize(const void *obs, int player, Rng *r, void *st)
{
    (void)player, (void)r;
    memmove(st, obs, sizeof(Banqi));
}

/* Material of face-up pieces plus the expected value of the pool (each
 * side owns its colour's face-down pieces, which it will flip or the
 * opponent will). */
static int banqi_eval(const void *st, int player)
{
    const Banqi *b = st;
    int c = colour_of_player(b, player);
    if (c < 0)
        return 0;
    int v[2] = {0, 0};
    for (int s = 0; s < SQ; s++)
        if (b->sq[s] && b->sq[s] != FACE_DOWN)
            v[code_colour(b->sq[s])] += VALUE[code_type(b->sq[s])];
    for (int k = 0; k < NCODES; k++)
        v[code_colour(k + 1)] += b->pool[k] * VALUE[k % NTYPES] * 9 / 10;
    return v[c] - v[!c];
}

/* ---- the Dagaz author's chain heuristic (seed 001), as he describes
 * it: from each of the mover's face-up pieces, shortest chains of steps
 * over empty squares to every enemy face-up piece (for a Taiwanese cannon,
 * to the squares it can fire from); each chain is priced by the two
 * pieces' values, who can take whom, its length and its parity (an even
 * chain favours the side not to move); a move is worth the sum of the
 * chains it shortens. A flip is worth the chance that the piece revealed
 * is ours and takes an enemy beside it, less the chance that it is theirs
 * and takes one of ours beside it. Negative: a move a sensible player
 * avoids. With greedy (sort by it, drop the negative, skip moves that let
 * the opponent win at once) this is his bot. */

/* Steps from `from` over empty squares (from itself may be occupied). */
static void bfs(const Banqi *b, int from, int *dist)
{
    int q[SQ], h = 0, t = 0;
    for (int s = 0; s < SQ; s++)
        dist[s] = -1;
    dist[from] = 0;
    q[t++] = from;
    while (h < t) {
        int s = q[h++];
        for (int d = 0; d < 4; d++) {
            int f1 = (s & 7) + DF[d], r1 = (s >> 3) + DR[d];
            if (f1 < 0 || f1 > 7 || r1 < 0 || r1 > 3)
                continue;
            int n = r1 * 8 + f1;
            if (dist[n] >= 0)
                continue;
            dist[n] = dist[s] + 1;
            if (!b->sq[n])
                q[t++] = n;   /* occupied squares end a chain */
        }
    }
}

/* getChainPrice: the mover's piece of type a against enemy type e at
 * chain length len. */
static int chain_price(const Banqi *b, int a, int e, int len)
{
    int attacking = can_take(b, a, e), attacked = can_take(b, e, a);
    if (a == T_CAN && b->rules == 0) {
        attacking = 1;
        attacked = e == T_CAN && len == 1;
    }
    if (e == T_CAN && b->rules == 0)
        attacked = 0;   /* a cannon never takes an adjacent piece */
    int even = len % 2 == 0, price = 0;
    if (attacking) {
        if (attacked)
            price = even ? len - VALUE[a] : VALUE[e] - len;
        else {
            price = VALUE[e] - len;
            if (even)
                price /= 2;
        }
    } else if (attacked) {
        price = len - VALUE[a];
    }
    return price;
}

/* Squares from which a cannon takes the piece on t: beyond exactly one
 * screen, over empty squares (the cannon's own square counts). */
static uint32_t fire_squares(const Banqi *b, int t, int cannon)
{
    uint32_t set = 0;
    for (int d = 0; d < 4; d++) {
        int screen = 0;
        for (int f = (t & 7) + DF[d], r = (t >> 3) + DR[d];
             f >= 0 && f < 8 && r >= 0 && r < 4; f += DF[d], r += DR[d]) {
            int s = r * 8 + f;
            if (!screen) {
                screen = b->sq[s] != 0;
                continue;
            }
            if (b->sq[s] && s != cannon)
                break;
            set |= 1u << s;
        }
    }
    return set;
}

/* Probability (percent) that a flip reveals a piece of colour col that
 * takes a face-up piece of type other beside it. */
static int flip_odds(const Banqi *b, int col, int other)
{
    int total = 0, good = 0;
    for (int c = 0; c < NCODES; c++) {
        total += b->pool[c];
        if (code_colour(c + 1) != col)
            continue;
        int t = c % NTYPES;
        int ok = can_take(b, t, other);
        if (t == T_CAN && b->rules == 0)
            ok = 0;   /* a cannon does not take its neighbour */
        if (ok)
            good += b->pool[c];
    }
    return total ? 100 * good / total : 0;
}

static int banqi_heuristic(const void *st, Move m)
{
    const Banqi *b = st;
    if (m & REVEAL)
        return 0;
    int c = colour_of_player(b, b->side);
    if (c < 0)
        return 0;
    if (m & FLIP) {
        int s = (int)(m & 31), v = 0;
        for (int d = 0; d < 4; d++) {
            int f1 = (s & 7) + DF[d], r1 = (s >> 3) + DR[d];
            if (f1 < 0 || f1 > 7 || r1 < 0 || r1 > 3)
                continue;
            int x = b->sq[r1 * 8 + f1];
            if (!x || x == FACE_DOWN)
                continue;
            int t = code_type(x);
            if (code_colour(x) != c)   /* ours may take it */
                v += flip_odds(b, c, t) * VALUE[t] / 100;
            else                       /* theirs may take ours */
                v -= flip_odds(b, !c, t) * VALUE[t] / 100;
        }
        return v;
    }
    int from = (int)(m & 31), to = (int)((m >> 5) & 31);
    int a = code_type(b->sq[from]);
    if (b->sq[to])   /* a capture: the chain of length 1 */
        return chain_price(b, a, code_type(b->sq[to]), 1);
    int d0[SQ], d1[SQ];
    bfs(b, from, d0);
    bfs(b, to, d1);
    int sum = 0;
    for (int e = 0; e < SQ; e++) {
        int x = b->sq[e];
        if (!x || x == FACE_DOWN || code_colour(x) == c)
            continue;
        int et = code_type(x);
        if (a == T_CAN && b->rules == 0) {
            uint32_t fs = fire_squares(b, e, from);
            int best0 = -1, best1 = -1;
            for (int s = 0; s < SQ; s++)
                if (fs & (1u << s)) {
                    if (d0[s] >= 0 && (best0 < 0 || d0[s] < best0))
                        best0 = d0[s];
                    if (d1[s] >= 0 && (best1 < 0 || d1[s] < best1))
                        best1 = d1[s];
                }
            if (best0 > 0 && best1 >= 0 && best1 < best0)
                sum += chain_price(b, a, et, best0 + 1);
            continue;
        }
        if (d0[e] > 1 && d1[e] >= 0 && d1[e] < d0[e])
            sum += chain_price(b, a, et, d0[e]);
    }
    return sum;
}

static int banqi_is_noisy(const void *st, Move m)
{
    const Banqi *b = st;
    return !(m & (FLIP | REVEAL)) && b->sq[(m >> 5) & 31] != 0;
}

static int banqi_check(const void *st)
{
    const Banqi *b = st;
    int down = 0, pool = 0;
    for (int s = 0; s < SQ; s++) {
        if (b->sq[s] > FACE_DOWN)
            return -1;
        down += b->sq[s] == FACE_DOWN;
    }
    for (int c = 0; c < NCODES; c++)
        pool += b->pool[c];
    return down == pool + 0 ? 0 : -1;
}

static const char *const rules_choices[] = {"taiwan", "chinese", NULL};
static const GameOption banqi_options[] = {
    {.key = "rules", .type = OPT_CHOICE, .def = 0, .choices = rules_choices,
     .help = "taiwan: computer-tournament rules (cannon jumps to capture, "
             "general cannot take soldier); chinese: as Dagaz's Banqi "
             "(Chinese), cannon takes by rank, general takes soldiers"},
    {.key = NULL},
};

static const char *const banqi_players[] = {"First", "Second"};

const GameVtbl game_banqi = {
    .info = {
        .name = "banqi",
        .title = "Banqi (half chess, Chinese dark chess)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Banqi),
        .flags = GAME_ZERO_SUM | GAME_CHANCE | GAME_HIDDEN,
        .player_names = banqi_players,
        .options = banqi_options,
        .notation =
            "Squares a1..h4 (files a-h, ranks 1-4). A flip is the square\n"
            "(c3); then chance reveals the piece, written =K (red upper case,\n"
            "black lower case: K general, A advisor, E elephant, R chariot,\n"
            "H horse, C cannon, P soldier). A step or capture: c3c4. Setup:\n"
            "'rank4/rank3/rank2/rank1 SIDE RED POOL QUIET [FLIP]' with x for\n"
            "a face-down piece and digits for empty runs, the player to move\n"
            "(1|2), the player with red (1|2, - before the first flip), the\n"
            "unseen pieces (letters, - if none), plies since the last flip\n"
            "or capture, and the square being flipped when a reveal is due:\n"
            "xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx 1 - KAAEERRHHCCPPPPPkaaeerr"
            "hhccppppp 0",
        .rules =
            "Banqi on a 4x8 board, all 32 xiangqi pieces face down. A turn\n"
            "flips a face-down piece, steps one's own face-up piece one\n"
            "square orthogonally to an empty square, or captures. The first\n"
            "flip gives its colour to the player who flipped. Face-down\n"
            "pieces are unknown to both: a flip is a chance event over the\n"
            "pieces not yet seen, each with probability count/left.\n"
            "rules=taiwan (default, computer tournaments): general > advisor\n"
            "> elephant > chariot > horse > cannon > soldier; a piece takes an\n"
            "equal or lower one; the soldier takes the general, the general\n"
            "never takes a soldier; the cannon steps like the others but\n"
            "takes only by jumping exactly one piece (any, face up or down)\n"
            "along a line, any empty squares before and after, landing on a\n"
            "face-up enemy of any rank. rules=chinese (Dagaz's Banqi\n"
            "(Chinese)): the cannon takes by rank like the others, the\n"
            "general takes soldiers. Only face-up pieces are captured. A\n"
            "player who cannot move or has no pieces left loses. Draw after\n"
            "180 plies without a flip or capture, or at the third occurrence\n"
            "of a position since the last one. Nothing is hidden from one\n"
            "player that the other knows, so every bot is honest here.",
    },
    .init = banqi_init,
    .to_move = banqi_to_move,
    .gen_moves = banqi_gen,
    .make = banqi_make,
    .returns = banqi_returns,
    .hash = banqi_hash,
    .to_text = banqi_to_text,
    .from_text = banqi_from_text,
    .move_to_text = banqi_move_to_text,
    .text_to_move = banqi_text_to_move,
    .render = banqi_render,
    .eval = banqi_eval,
    .heuristic = banqi_heuristic,
    .repeated = banqi_repeated,
    .is_noisy = banqi_is_noisy,
    .chance_outcomes = banqi_chance,
    .observe = banqi_observe,
    .determinize = banqi_determinize,
    .check = banqi_check,
    .layout = banqi_layout,
};

/* ---- the chain bot: the Dagaz author's bot as he describes it (seed
 * 001): the moves sorted by the chain heuristic, the negative ones
 * dropped, the first that leaves the opponent no immediately winning
 * reply. That is the greedy bot (src/search/greedy.c) on banqi's
 * heuristic, without noise; this bot names it and plays only banqi. */
typedef struct ChainBot {
    Bot *greedy;
} ChainBot;

static void *chain_create(const GameVtbl *g, const void *opts, uint64_t seed,
                          PlyError *err)
{
    (void)opts;
    if (g != &game_banqi) {
        ply_fail(err, "the chain bot plays banqi only");
        return NULL;
    }
    ChainBot *c = calloc(1, sizeof *c);
    if (!c) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    c->greedy = bot_new(g, "greedy", seed, err);
    if (!c->greedy) {
        free(c);
        return NULL;
    }
    return c;
}

static void chain_destroy(void *p)
{
    ChainBot *c = p;
    if (c)
        bot_free(c->greedy);
    free(c);
}

static void chain_new_game(void *p)
{
    ChainBot *c = p;
    bot_new_game(c->greedy);
}

static Move chain_choose(void *p, const void *st, const Limits *lim,
                         SearchInfo *out)
{
    ChainBot *c = p;
    (void)lim;
    Move m = bot_choose(c->greedy, st, NULL, out);
    return m;
}

const BotVtbl bot_banqi_chain = {
    .name = "banqi-chain",
    .help = "Banqi only: the Dagaz author's bot as he describes it (seed "
            "001): moves sorted by his chain heuristic (shortest chains to "
            "targets priced by values, captures and parity; flips by the "
            "odds of a favourable reveal), negative ones dropped, the first "
            "that leaves no immediately winning reply. The benchmark "
            "opponent for banqi bots.",
    .create = chain_create,
    .destroy = chain_destroy,
    .new_game = chain_new_game,
    .choose = chain_choose,
};
