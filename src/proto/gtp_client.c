/* gtp_client.c — the referee's client of GTP engines (Go Text Protocol
 * version 2), for games with a "gtp" format (reversi against grhino's
 * gtp-rhino). Seat 0 is black (b), seat 1 white (w). Begin: boardsize
 * (when the format or a "size" option gives one), clear_board,
 * time_settings. Each move: the moves the engine has not seen as
 * `play COLOUR VERTEX`, time_left, `genmove COLOUR`; its answer is played
 * on its own board already. Games start from the start position (GTP has
 * no setup command); opening moves are sent as plays. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/format.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "client.h"
#include "gtp.h"

typedef struct GtpClient {
    Client c;
    const GameFormat *f;
    void *seen;         /* the position the engine has */
    int sent;           /* moves of c.moves on its board */
} GtpClient;

static char color_of(int seat)
{
    return seat == 0 ? 'b' : 'w';
}

/* Sends a command and reads its reply: *ok is 1 for '=', 0 for '?'; the
 * text after the id is left in text. Lines before the reply that are not
 * one (debug output) are skipped. */
static Reason ask(Client *c, int64_t dl, char *text, size_t n, int *ok,
                  PlyError *err, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static Reason ask(Client *c, int64_t dl, char *text, size_t n, int *ok,
                  PlyError *err, const char *fmt, ...)
{
    char cmd[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (engine_send(&c->eng, dl, "%s", cmd))
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", c->base.name);
    char line[ENGINE_LINE_MAX];
    char what[80];
    snprintf(what, sizeof what, "answer to '%.60s'", cmd);
    for (;;) {
        Reason why = client_read(c, line, sizeof line, dl, what, err);
        if (why != REASON_NORMAL)
            return why;
        if (line[0] == '=' || line[0] == '?')
            break;
    }
    *ok = line[0] == '=';
    const char *p = line + 1 + strspn(line + 1, "0123456789");
    p += strspn(p, " \t");
    snprintf(text, n, "%s", p);
    size_t l = strlen(text);
    while (l && (text[l - 1] == ' ' || text[l - 1] == '\t'))
        text[--l] = 0;
    return REASON_NORMAL;
}

/* The board size to announce: the game's "size" option, else the
 * format's; 0 for none. */
static int board_size(const GameVtbl *g, const GameFormat *f,
                      const char *options)
{
    for (const GameOption *o = g->info.options; o && o->key; o++) {
        if (strcmp(o->key, "size"))
            continue;
        const char *v = strstr(options, "size=");
        while (v && v != options && v[-1] != ',')
            v = strstr(v + 1, "size=");
        return v ? atoi(v + 5) : o->def;
    }
    return f->board_size;
}

/* The komi a game with a "komi" option plays with, as text ("7.5"), from
 * the options or the option's default; NULL for games without komi. */
static const char *komi_text(const GameVtbl *g, const char *options,
                             char *buf, size_t n)
{
    for (const GameOption *o = g->info.options; o && o->key; o++) {
        if (strcmp(o->key, "komi"))
            continue;
        const char *v = strstr(options, "komi=");
        while (v && v != options && v[-1] != ',')
            v = strstr(v + 1, "komi=");
        if (v)
            snprintf(buf, n, "%.*s", (int)strcspn(v + 5, ","), v + 5);
        else if (o->type == OPT_CHOICE)
            snprintf(buf, n, "%s", o->choices[(int)o->def]);
        else
            snprintf(buf, n, "%g", o->def);
        return buf;
    }
    return NULL;
}

static Reason gtp_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    GtpClient *T = (GtpClient *)p;
    Client *c = &T->c;
    const GameVtbl *g = pg->g;
    T->f = game_format(g, "gtp");
    if (!T->f || g->info.num_players != 2)
        return player_fail(err, REASON_CRASH, "%s: %s has no GTP format",
                           p->name, g->info.name);
    if (!pg->startpos)
        return player_fail(err, REASON_CRASH, "%s: GTP cannot start from a "
                           "position (no setup command)", p->name);
    PlyError e2 = {{0}};
    if (!(T->seen = state_alloc(g)) ||
        state_setup(g, T->seen, pg->options, NULL, 0, &e2))
        return player_fail(err, REASON_CRASH, "%s: %s", p->name,
                           e2.msg[0] ? e2.msg : "out of memory");
    Reason why = client_begin(c, pg, err);
    if (why)
        return why;
    const TimeControl *tc = pg->tc;
    int64_t dl = now_ms() + tc->start_ms;
    char text[ENGINE_LINE_MAX];
    int ok;
    int size = board_size(g, T->f, pg->options);
    if (size > 0) {
        if ((why = ask(c, dl, text, sizeof text, &ok, err, "boardsize %d",
                       size)))
            return why;
        if (!ok)
            return player_fail(err, REASON_CRASH, "%s: refused boardsize "
                               "%d: %.80s", p->name, size, text);
    }
    if ((why = ask(c, dl, text, sizeof text, &ok, err, "clear_board")))
        return why;
    if (!ok)
        return player_fail(err, REASON_CRASH, "%s: refused clear_board: "
                           "%.80s", p->name, text);
    char komi[32];
    if (komi_text(g, pg->options, komi, sizeof komi)) {
        if ((why = ask(c, dl, text, sizeof text, &ok, err, "komi %s", komi)))
            return why;
        if (!ok)
            return player_fail(err, REASON_CRASH, "%s: refused komi %s: "
                               "%.80s", p->name, komi, text);
    }
    /* absolute time per game, or one move per period of the move time;
     * an engine without time commands is left to its own pace */
    if (tc->kind == TC_GAME) {
        why = ask(c, dl, text, sizeof text, &ok, err, "time_settings %lld "
                  "0 0", (long long)(tc->tc_ms / 1000));
    } else {
        int64_t mv = tc->kind == TC_MOVE ? tc->tc_ms : tc->ext_move_ms;
        why = ask(c, dl, text, sizeof text, &ok, err, "time_settings 0 "
                  "%lld 1", (long long)(mv >= 2000 ? mv / 1000 : 1));
    }
    return why;
}

static Reason gtp_move(Player *p, const void *st, const PlayerClock *k,
                       Move *m, PlyError *err)
{
    GtpClient *T = (GtpClient *)p;
    Client *c = &T->c;
    const GameVtbl *g = c->g;
    int64_t dl = client_deadline(c, k);
    char text[ENGINE_LINE_MAX], wire[CLIENT_MOVE_MAX];
    int ok;
    Reason why;
    for (; T->sent < c->moves.n; T->sent++) {
        const char *mv = c->moves.text[T->sent];
        int who = g->to_move(T->seen);
        Move x;
        PlyError e2 = {{0}};
        if (who < 0 || g->text_to_move(T->seen, mv, &x, &e2))
            return player_fail(err, REASON_CRASH, "%s: cannot follow "
                               "move '%.60s': %s", p->name, mv, e2.msg);
        if (!c->moves.own[T->sent]) {
            format_move_to_wire(T->f, mv, wire, sizeof wire);
            if ((why = ask(c, dl, text, sizeof text, &ok, err, "play %c %s",
                           color_of(who), wire)))
                return why;
            /* Othello engines (grhino) take no pass: colours are given */
            if (!ok && strcmp(mv, "pass"))
                return player_fail(err, REASON_CRASH, "%s: rejected our "
                                   "move 'play %c %s': %.80s", p->name,
                                   color_of(who), wire, text);
        }
        g->make(T->seen, x);
    }
    const TimeControl *tc = c->tc;
    long long left_s = tc->kind == TC_GAME ? k->left_ms[c->seat] / 1000
                       : k->allowed_ms / 1000;
    if ((why = ask(c, dl, text, sizeof text, &ok, err, "time_left %c %lld "
                   "%d", color_of(c->seat), left_s < 1 ? 1 : left_s,
                   tc->kind == TC_GAME ? 0 : 1)))
        return why;
    if ((why = ask(c, dl, text, sizeof text, &ok, err, "genmove %c",
                   color_of(c->seat))))
        return why;
    if (!ok)
        return player_fail(err, REASON_CRASH, "%s: genmove failed: %.80s",
                           p->name, text);
    if (!strcasecmp(text, "resign"))
        return player_fail(err, REASON_ADJUDICATED, "%s resigned", p->name);
    char own[CLIENT_MOVE_MAX];
    if (strlen(text) > 200)
        text[200] = 0;
    format_move_from_wire(T->f, text, own, sizeof own);
    c->moved = 1;   /* genmove played it on its board */
    return player_text_move(p, g, st, own, m, err);
}

/* Winner and margin of a final_score text: "B+3.5", "W+12", "W+R"
 * (margin -1: not counted), "0" (*winner -1, margin 0). 0, or -1 when it
 * is none of these. */
static int parse_score(const char *s, int *winner, double *margin)
{
    s += strspn(s, " \t");
    if (!strcmp(s, "0") || !strcmp(s, "0.0") || !strcasecmp(s, "draw") ||
        !strcasecmp(s, "jigo")) {
        *winner = -1;
        *margin = 0;
        return 0;
    }
    char c = (char)toupper((unsigned char)s[0]);
    if ((c != 'B' && c != 'W') || s[1] != '+')
        return -1;
    *winner = c == 'B' ? 0 : 1;
    const char *m = s + 2;
    if (!*m || !strcasecmp(m, "R") || !strcasecmp(m, "Resign") ||
        !strcasecmp(m, "T") || !strcasecmp(m, "Time")) {
        *margin = -1;
        return 0;
    }
    char *end;
    *margin = strtod(m, &end);
    return *end || !(*margin >= 0 && *margin < 1e6) ? -1 : 0;
}

/* After a game that ended normally: the engine's board brought to the
 * final position, then its own count (final_score) against the
 * referee's, written the same way (gtp_score_text). An engine that does
 * not answer, or answers '?', gives no check. */
static void check_score(GtpClient *T)
{
    Client *c = &T->c;
    const GameVtbl *g = c->g;
    Player *p = &c->base;
    int64_t dl = now_ms() + c->tc->start_ms;
    char text[ENGINE_LINE_MAX], wire[CLIENT_MOVE_MAX];
    int ok;
    PlyError err = {{0}};
    for (; T->sent < c->moves.n; T->sent++) {
        const char *mv = c->moves.text[T->sent];
        int who = g->to_move(T->seen);
        Move x;
        if (who < 0 || g->text_to_move(T->seen, mv, &x, &err))
            return;
        if (!c->moves.own[T->sent]) {
            format_move_to_wire(T->f, mv, wire, sizeof wire);
            if (ask(c, dl, text, sizeof text, &ok, &err, "play %c %s",
                    color_of(who), wire))
                return;
        }
        g->make(T->seen, x);
    }
    if (gtp_score_text(g, T->f, T->seen, p->score_ref,
                       sizeof p->score_ref) <= 0 ||
        ask(c, dl, text, sizeof text, &ok, &err, "final_score") || !ok)
        return;
    snprintf(p->score_own, sizeof p->score_own, "%.*s",
             (int)sizeof p->score_own - 1, text);
    for (char *q = p->score_own; *q; q++)
        if ((unsigned char)*q < 32 || (unsigned char)*q > 126)
            *q = '?';
    int wr, wo;
    double mr, mo;
    if (parse_score(p->score_ref, &wr, &mr))
        return;
    if (parse_score(text, &wo, &mo) || wo != wr)
        p->score_check = SCORE_CHECK_DISAGREE;
    else if (mo >= 0 && mr >= 0 && fabs(mo - mr) > 1e-9)
        p->score_check = SCORE_CHECK_MARGIN;
    else
        p->score_check = SCORE_CHECK_AGREE;
}

static void gtp_end(Player *p, const double *result, Reason why,
                    int forfeited)
{
    (void)result;
    GtpClient *T = (GtpClient *)p;
    if (why == REASON_NORMAL && T->c.on && T->seen && T->f)
        check_score(T);
    client_quit((Client *)p, "quit", why, forfeited);
}

static void gtp_free(Player *p)
{
    GtpClient *T = (GtpClient *)p;
    if (T)
        free(T->seen);
    client_free(p);
}

static const PlayerVtbl gtp_vtbl = {gtp_begin, gtp_move, client_inform,
                                    gtp_end, gtp_free, NULL};

Player *gtp_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err)
{
    GtpClient *T = calloc(1, sizeof *T);
    if (!T) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    if (client_init(&T->c, &gtp_vtbl, name, cmd, quiet, watch, err)) {
        free(T);
        return NULL;
    }
    return &T->c.base;
}
