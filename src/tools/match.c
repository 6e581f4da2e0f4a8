/* match.c — ply match: settings, the schedule, records, threads, resume
 * and statistics; one game is played by referee.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "engine.h"
#include "match.h"
#include "stats.h"

enum { ENGINE_START_MS = 10000 };

const char *const match_reason_names[REASON_COUNT] = {
    "normal", "time", "crash", "illegal", "adjudicated",
};

const char *const score_check_names[SCORE_CHECK_COUNT] = {
    "none", "agree", "margin", "disagree",
};

/* ------------------------------------------------------------------ */
/* settings                                                            */

int match_parse_tc(const char *s, MatchConfig *c, PlyError *err)
{
    char buf[64];
    if (!s || strlen(s) >= sizeof buf)
        return ply_fail(err, "bad time control '%s'", s ? s : "");
    snprintf(buf, sizeof buf, "%s", s);
    char *plus = strchr(buf, '+');
    if (plus) {
        *plus = 0;
        if (parse_duration_ms(buf, &c->tc_ms) ||
            parse_duration_ms(plus + 1, &c->inc_ms) || c->tc_ms <= 0)
            return ply_fail(err, "bad time control '%s' (want e.g. 100ms "
                            "per move, or 30s+0.1s per game)", s);
        c->tc = TC_GAME;
        return 0;
    }
    if (parse_duration_ms(buf, &c->tc_ms) || c->tc_ms <= 0)
        return ply_fail(err, "bad time control '%s' (want e.g. 100ms per "
                        "move, or 30s+0.1s per game)", s);
    c->tc = TC_MOVE;
    c->inc_ms = 0;
    return 0;
}

int match_parse_engine(const char *s, Participant *p, PlyError *err)
{
    memset(p, 0, sizeof *p);
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof p->name)
        return ply_fail(err, "bad --engine '%s' (want NAME=CMD[,proto=ugi|"
                        "uci|usi|cecp|codecup|gtp|gomocup][,option.NAME="
                        "VALUE]...)", s);
    memcpy(p->name, s, (size_t)(eq - s));
    for (const char *q = p->name; *q; q++)
        if (*q == ':' || *q == ',' || *q <= ' ' || *q > '~')
            return ply_fail(err, "bad engine name '%s' (letters, digits "
                            "and punctuation other than ':' and ',')",
                            p->name);
    const char *cmd = eq + 1;
    size_t len = strlen(cmd);
    p->kind = PART_UGI;
    /* the settings: from the first ",proto=" or ",option." on, each up to
     * the next comma */
    const char *set = NULL;
    for (const char *q = strchr(cmd, ','); q && !set; q = strchr(q + 1, ','))
        if (!strncmp(q, ",proto=", 7) || !strncmp(q, ",option.", 8))
            set = q;
    const char *pr = NULL;
    char prv[32] = "";
    if (set) {
        len = (size_t)(set - cmd);
        for (const char *q = set; *q == ',';) {
            const char *item = q + 1;
            size_t il = strcspn(item, ",");
            q = item + il;
            if (!strncmp(item, "proto=", 6)) {
                size_t vl = il - 6;
                if (vl >= sizeof prv)
                    vl = sizeof prv - 1;
                memcpy(prv, item + 6, vl);
                prv[vl] = 0;
                pr = prv;
                continue;
            }
            const char *oeq = memchr(item, '=', il);
            size_t used = strlen(p->opts);
            if (strncmp(item, "option.", 7) || !oeq || oeq == item + 7)
                return ply_fail(err, "engine %s: bad setting '%.*s' (want "
                                "proto=P or option.NAME=VALUE)", p->name,
                                (int)il, item);
            if (used + il - 7 + 2 > sizeof p->opts)
                return ply_fail(err, "engine %s: options too long",
                                p->name);
            snprintf(p->opts + used, sizeof p->opts - used, "%.*s\n",
                     (int)(il - 7), item + 7);
        }
    }
    if (pr) {
        const char *v = pr;
        if (!strcmp(v, "ugi"))
            p->kind = PART_UGI;
        else if (!strcmp(v, "codecup"))
            p->kind = PART_CODECUP;
        else if (!strcmp(v, "uci"))
            p->kind = PART_UCI;
        else if (!strcmp(v, "usi"))
            p->kind = PART_USI;
        else if (!strcmp(v, "cecp") || !strcmp(v, "xboard"))
            p->kind = PART_CECP;
        else if (!strcmp(v, "gtp"))
            p->kind = PART_GTP;
        else if (!strcmp(v, "gomocup"))
            p->kind = PART_GOMOCUP;
        else
            return ply_fail(err, "engine %s: unknown protocol '%s' (ugi, "
                            "uci, usi, cecp, codecup, gtp, gomocup)", p->name,
                            v);
    }
    if (p->opts[0] && (p->kind == PART_CODECUP || p->kind == PART_GTP ||
                       p->kind == PART_GOMOCUP))
        return ply_fail(err, "engine %s: its protocol has no options",
                        p->name);
    if (len == 0 || len >= sizeof p->cmd)
        return ply_fail(err, "engine %s: bad command", p->name);
    memcpy(p->cmd, cmd, len);
    p->cmd[len] = 0;
    return 0;
}

/* GTP tells an engine the board size and the komi, nothing else. */
static int gtp_options_ok(const char *options)
{
    for (const char *t = options; *t;) {
        size_t len = strcspn(t, ",");
        if (len && strncmp(t, "size=", 5) && strncmp(t, "komi=", 5))
            return 0;
        t += len;
        if (*t == ',')
            t++;
    }
    return 1;
}

static uint64_t shard_block(const MatchConfig *c);

int match_players(const MatchConfig *c)
{
    return c->np > 0 ? c->np : c->g->info.num_players;
}

int match_prepare(MatchConfig *c, PlyError *err)
{
    const GameVtbl *g = c->g;
    int opt[PLY_MAX_OPTIONS];
    if (options_parse(g, c->options, opt, err))
        return -1;
    int np = options_seats(g, c->options, NULL, err);
    if (np < 1)
        return -1;
    c->np = np;
    if (c->nparts < 1 || c->nparts > MATCH_MAX_PARTS)
        return ply_fail(err, "give 1 to %d participants", MATCH_MAX_PARTS);
    if (np >= 2 && c->nparts < 2)
        return ply_fail(err, "give at least two participants");
    c->npairings = 0;
    if (c->nparts == np) {
        for (int s = 0; s < np; s++)
            c->pairing[0][s] = s;
        c->npairings = 1;
    } else if (np == 2) {
        for (int a = 0; a < c->nparts; a++)
            for (int b = a + 1; b < c->nparts; b++) {
                c->pairing[c->npairings][0] = a;
                c->pairing[c->npairings][1] = b;
                c->npairings++;
            }
    } else if (np == 1) {
        for (int a = 0; a < c->nparts; a++)
            c->pairing[c->npairings++][0] = a;
    } else {
        return ply_fail(err, "%s is a %d-player game: give %d participants",
                        g->info.name, np, np);
    }
    if (c->games < 1)
        return ply_fail(err, "-n must be at least 1");
    if (c->games > MATCH_MAX_GAMES)
        return ply_fail(err, "-n %llu is too large (at most %d games per "
                        "pairing)", (unsigned long long)c->games,
                        MATCH_MAX_GAMES);
    c->total = c->games * (uint64_t)c->npairings;
    if (c->total > MATCH_MAX_TOTAL)
        return ply_fail(err, "%llu games (%d pairings of %llu) are too many "
                        "(at most %d in one match)",
                        (unsigned long long)c->total, c->npairings,
                        (unsigned long long)c->games, MATCH_MAX_TOTAL);
    if (c->open_count > MATCH_MAX_OPENINGS)
        return ply_fail(err, "%d openings are too many (at most %d)",
                        c->open_count, MATCH_MAX_OPENINGS);
    if (c->jobs > MATCH_MAX_JOBS)
        return ply_fail(err, "-j %d is too large (at most %d)", c->jobs,
                        MATCH_MAX_JOBS);
    if (c->sprt && !(isfinite(c->elo0) && isfinite(c->elo1) &&
                     fabs(c->elo0) <= MATCH_MAX_ELO &&
                     fabs(c->elo1) <= MATCH_MAX_ELO && c->elo0 < c->elo1 &&
                     c->alpha > 0 && c->alpha < 0.5 && c->beta > 0 &&
                     c->beta < 0.5))
        return ply_fail(err, "bad SPRT parameters (want finite elo0 < elo1 "
                        "within +-%d, 0 < alpha, beta < 0.5)",
                        MATCH_MAX_ELO);
    for (int i = 0; i < c->nparts; i++) {
        Participant *p = &c->parts[i];
        int dup = 0, k = 0;
        for (int j = 0; j < c->nparts; j++)
            if (!strcmp(c->parts[j].name, p->name)) {
                dup++;
                if (j <= i)
                    k++;
            }
        char suffix[16] = "";
        if (dup > 1)
            snprintf(suffix, sizeof suffix, "#%d", k);
        memcpy(p->label, p->name, sizeof p->name);
        strcat(p->label, suffix);
        if (c->merge)
            continue;           /* names from records: nothing to start */
        if (p->kind == PART_BOT) {
            Bot *b = bot_new(g, p->name, 1, err);
            if (!b)
                return -1;
            bot_free(b);
            continue;
        }
        if (np != 2)
            return ply_fail(err, "engine %s: external engines play "
                            "two-player games only", p->name);
        if ((p->kind == PART_UCI || p->kind == PART_USI ||
             p->kind == PART_CECP) && c->options[0])
            return ply_fail(err, "engine %s: UCI, USI and CECP have no way "
                            "to pass game options; drop --options", p->name);
        if (p->kind == PART_GTP && !gtp_options_ok(c->options))
            return ply_fail(err, "engine %s: GTP passes only the options "
                            "size (boardsize) and komi; drop the others "
                            "from --options", p->name);
        if (p->kind == PART_CODECUP && (c->open_plies || c->open_count))
            return ply_fail(err, "engine %s: CodeCup programs start from the "
                            "start position; drop --openings", p->name);
    }
    if (c->open_count) {
        void *st = state_alloc(g);
        if (!st)
            return ply_fail(err, "out of memory");
        for (int i = 0; i < c->open_count; i++) {
            PlyError e2 = {{0}};
            if (state_setup(g, st, c->options, c->open_lines[i], 0, &e2)) {
                free(st);
                return ply_fail(err, "opening %d: %s", i + 1, e2.msg);
            }
        }
        free(st);
    }
    if (c->shard_n && (c->shard_i < 1 || c->shard_i > c->shard_n ||
                       c->shard_n > MATCH_MAX_SHARDS))
        return ply_fail(err, "bad shard %d/%d", c->shard_i, c->shard_n);
    c->shard_total = c->total;
    if (c->shard_n) {
        /* blocks b < P*G with b mod N == r, each of S games but the last
         * of a pairing, which has games - (G-1)*S */
        uint64_t S = shard_block(c);
        uint64_t G = (c->games + S - 1) / S, N = (uint64_t)c->shard_n;
        uint64_t r = (uint64_t)(c->shard_i - 1);
        uint64_t B = (uint64_t)c->npairings * G;
        c->shard_total = (B > r ? (B - r - 1) / N + 1 : 0) * S;
        for (int p = 0; p < c->npairings; p++)
            if (((uint64_t)p * G + G - 1) % N == r)
                c->shard_total -= G * S - c->games;
    }
    if (c->jobs < 1)
        c->jobs = 1;
    if (c->grace_ms <= 0)
        c->grace_ms = 200;
    if (c->ext_move_ms <= 0)
        c->ext_move_ms = 1000;
    if (c->start_ms <= 0)
        c->start_ms = ENGINE_START_MS;
    return 0;
}

uint64_t match_seatings(const MatchConfig *c)
{
    int np = match_players(c);
    uint64_t f = 1;
    if (c->fixed_seats)
        return 1;
    for (int k = 2; k <= np; k++)
        f *= (uint64_t)k;
    return np > 2 ? f : (uint64_t)(np > 0 ? np : 1);
}

/* Seating k of np seats: the (k / np)-th order (lexicographic) of members
 * 1..np-1 behind member 0, rotated by k mod np. */
static void seating(int np, uint64_t k, int *order)
{
    int rest[PLY_MAX_PLAYERS], base[PLY_MAX_PLAYERS], m = np - 1;
    uint64_t fact[PLY_MAX_PLAYERS], b = k / (uint64_t)np;
    fact[0] = 1;
    for (int i = 1; i < PLY_MAX_PLAYERS; i++)
        fact[i] = fact[i - 1] * (uint64_t)i;
    for (int i = 0; i < m; i++)
        rest[i] = i + 1;
    base[0] = 0;
    for (int i = 0; i < m; i++) {
        uint64_t f = fact[m - 1 - i];
        int q = (int)(b / f);
        b %= f;
        base[i + 1] = rest[q];
        for (int j = q; j < m - 1 - i; j++)
            rest[j] = rest[j + 1];
    }
    for (int s = 0; s < np; s++)
        order[s] = base[(s + (int)(k % (uint64_t)np)) % np];
}

void match_schedule(const MatchConfig *c, uint64_t index, int *pairing,
                    int seats[PLY_MAX_PLAYERS])
{
    int np = match_players(c);
    int p = (int)(index / c->games);
    uint64_t j = index % c->games;
    int order[PLY_MAX_PLAYERS];
    if (c->fixed_seats) {
        for (int s = 0; s < np; s++)
            order[s] = s;
    } else if (np > 2) {
        seating(np, j % match_seatings(c), order);
    } else {
        for (int s = 0; s < np; s++)
            order[s] = (s + (int)(j % (uint64_t)np)) % np;
    }
    for (int s = 0; s < np; s++)
        seats[s] = c->pairing[p][order[s]];
    *pairing = p;
}

/* ------------------------------------------------------------------ */
/* shards                                                              */

/* Games per block: an opening pair with two players (so each shard's
 * pentanomial statistics see whole pairs), one game otherwise. */
static uint64_t shard_block(const MatchConfig *c)
{
    return match_players(c) == 2 ? 2 : 1;
}

int match_in_shard(const MatchConfig *c, uint64_t index)
{
    if (!c->shard_n)
        return 1;
    uint64_t S = shard_block(c), G = (c->games + S - 1) / S;
    uint64_t b = index / c->games * G + index % c->games / S;
    return b % (uint64_t)c->shard_n == (uint64_t)(c->shard_i - 1);
}

uint64_t match_shard_next(const MatchConfig *c, uint64_t index)
{
    if (index >= c->total)
        return c->total;
    if (match_in_shard(c, index))
        return index;
    uint64_t S = shard_block(c), G = (c->games + S - 1) / S;
    uint64_t N = (uint64_t)c->shard_n, r = (uint64_t)(c->shard_i - 1);
    uint64_t b = index / c->games * G + index % c->games / S;
    b += (r + N - b % N) % N;       /* the next block of the shard */
    uint64_t next = b / G * c->games + b % G * S;
    return next < c->total ? next : c->total;
}

int match_parse_shard(const char *s, MatchConfig *c, PlyError *err)
{
    char *end;
    errno = 0;
    long i = strtol(s, &end, 10), n = 0;
    if (end != s && *end == '/' && end[1] >= '0' && end[1] <= '9') {
        const char *t = end + 1;
        n = strtol(t, &end, 10);
    }
    if (errno || *end || n < 1 || n > MATCH_MAX_SHARDS || i < 1 || i > n ||
        s[0] < '0' || s[0] > '9')
        return ply_fail(err, "bad --shard '%s' (want I/N with 1 <= I <= N "
                        "<= %d)", s, MATCH_MAX_SHARDS);
    c->shard_i = (int)i;
    c->shard_n = (int)n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* records                                                             */

/* Engine output may be anything: keep records printable ASCII. */
static void sanitize(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
            *s = '?';
}

static json_t *json_num(double x)
{
    if (x == (double)(int64_t)x)
        return json_integer((json_int_t)x);
    return json_real(x);
}

/* What records of a sharded match say about the whole match. */
static json_t *match_desc(const MatchConfig *c)
{
    json_t *m = json_object(), *pa = json_array();
    for (int i = 0; i < c->nparts; i++)
        json_array_append_new(pa, json_string(c->parts[i].name));
    json_object_set_new(m, "participants", pa);
    json_object_set_new(m, "games", json_integer((json_int_t)c->games));
    json_object_set_new(m, "total", json_integer((json_int_t)c->total));
    json_object_set_new(m, "grace_ms", json_integer(c->grace_ms));
    if (c->fixed_seats)
        json_object_set_new(m, "fixed_seats", json_true());
    return m;
}

char *match_record_json(const MatchConfig *c, const GameRecord *r)
{
    int np = match_players(c);
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(c->g->info.name));
    json_object_set_new(o, "options", json_string(c->options));
    json_object_set_new(o, "setup", json_string(r->setup));
    json_t *seats = json_array(), *res = json_array(), *mv = json_array();
    for (int s = 0; s < np; s++) {
        json_array_append_new(seats,
                              json_string(c->parts[r->seats[s]].name));
        json_array_append_new(res, json_num(r->result[s]));
    }
    for (int i = 0; i < r->nmoves; i++)
        json_array_append_new(mv, json_string(r->moves[i]));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "moves", mv);
    json_object_set_new(o, "result", res);
    json_object_set_new(o, "reason",
                        json_string(match_reason_names[r->reason]));
    json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
    json_object_set_new(o, "index", json_integer((json_int_t)r->index));
    if (r->opening_plies)
        json_object_set_new(o, "opening_plies",
                            json_integer(r->opening_plies));
    int over = 0;
    for (int s = 0; s < np; s++)
        over |= r->overruns[s] > 0;
    if (over) {
        json_t *n = json_array(), *mx = json_array();
        for (int s = 0; s < np; s++) {
            json_array_append_new(n, json_integer(r->overruns[s]));
            json_array_append_new(mx, json_integer(r->overrun_max_ms[s]));
        }
        json_object_set_new(o, "overruns", n);
        json_object_set_new(o, "overrun_max_ms", mx);
    }
    int claims = 0;
    for (int s = 0; s < np; s++)
        claims |= r->claim_ply[s] > 0;
    if (claims) {
        json_t *cl = json_array();
        for (int s = 0; s < np; s++)
            json_array_append_new(cl, json_integer(r->claim_ply[s]));
        json_object_set_new(o, "claims", cl);
    }
    int checked = 0;
    for (int s = 0; s < np; s++)
        checked |= r->score_check[s] != SCORE_CHECK_NONE;
    if (checked) {
        /* the engines' own count of the final position (GTP final_score)
         * beside the referee's result written the same way */
        json_t *fs = json_object(), *en = json_array(), *ck = json_array();
        for (int s = 0; s < np; s++) {
            char t[PLAYER_SCORE_MAX];
            snprintf(t, sizeof t, "%s", r->score_own[s]);
            sanitize(t);
            json_array_append_new(en, json_string(t));
            json_array_append_new(ck, json_string(
                score_check_names[r->score_check[s]]));
        }
        char t[PLAYER_SCORE_MAX];
        snprintf(t, sizeof t, "%s", r->score_ref);
        sanitize(t);
        json_object_set_new(fs, "referee", json_string(t));
        json_object_set_new(fs, "engines", en);
        json_object_set_new(fs, "check", ck);
        json_object_set_new(o, "final_score", fs);
    }
    if (r->loser >= 0) {
        json_object_set_new(o, "forfeit", json_integer(r->loser));
        char e[256];
        snprintf(e, sizeof e, "%s", r->error);
        sanitize(e);
        json_object_set_new(o, "error", json_string(e));
    }
    if (c->shard_n) {
        /* last, so that a record without them is a prefix: what --merge
         * checks the shards against each other with */
        json_t *sh = json_array();
        json_array_append_new(sh, json_integer(c->shard_i));
        json_array_append_new(sh, json_integer(c->shard_n));
        json_object_set_new(o, "shard", sh);
        json_object_set_new(o, "match", match_desc(c));
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *line = malloc(n + 2);
    if (line) {
        memcpy(line, s, n);
        line[n] = '\n';
        line[n + 1] = 0;
    }
    free(s);
    return line;
}

/* ------------------------------------------------------------------ */
/* the match: threads, records, statistics                             */

typedef struct PairStats {
    int w, d, l;            /* from the pairing's first member's side */
    int ptnml[5];           /* finished opening pairs by points 0..2 */
} PairStats;

typedef struct PartStats {
    int games, wins, draws, losses, firsts;
    double points;          /* sum of (return + 1) / 2 */
    int forfeits[REASON_COUNT];
} PartStats;

/* A small open-addressing map from game numbers to a score: the games
 * on record when resuming, and the first finished game of each opening
 * pair whose partner is not finished yet. Its size follows the games on
 * record and the games in flight, never -n. */
typedef struct IndexMap {
    uint64_t *keys;         /* index + 1; 0: empty slot */
    signed char *vals;
    size_t cap, n;          /* cap: a power of two, or 0 */
} IndexMap;

static size_t map_slot(const IndexMap *m, uint64_t key)
{
    size_t i = (size_t)ply_mix64(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key + 1)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static signed char *map_get(IndexMap *m, uint64_t key)
{
    if (!m->n)
        return NULL;
    size_t i = map_slot(m, key);
    return m->keys[i] ? &m->vals[i] : NULL;
}

static int map_put(IndexMap *m, uint64_t key, signed char v)
{
    if ((m->n + 1) * 2 > m->cap) {
        IndexMap g = {0};
        g.cap = m->cap ? m->cap * 2 : 64;
        g.keys = calloc(g.cap, sizeof *g.keys);
        g.vals = calloc(g.cap, 1);
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = map_slot(&g, m->keys[i] - 1);
                g.keys[j] = m->keys[i];
                g.vals[j] = m->vals[i];
            }
        g.n = m->n;
        free(m->keys);
        free(m->vals);
        *m = g;
    }
    size_t i = map_slot(m, key);
    if (!m->keys[i]) {
        m->keys[i] = key + 1;
        m->n++;
    }
    m->vals[i] = v;
    return 0;
}

/* Removes key (backward shift: no tombstones). */
static void map_del(IndexMap *m, uint64_t key)
{
    if (!m->n)
        return;
    size_t i = map_slot(m, key), mask = m->cap - 1;
    if (!m->keys[i])
        return;
    m->keys[i] = 0;
    m->n--;
    for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
        size_t home = (size_t)ply_mix64(m->keys[j] - 1) & mask;
        /* move j back to the hole i when its home is not in (i, j] */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            m->keys[j] = 0;
            i = j;
        }
    }
}

static void map_free(IndexMap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

typedef struct Runner {
    MatchConfig *c;
    FILE *out;
    pthread_mutex_t mu;
    uint64_t next;          /* games are handed out in order, lazily */
    IndexMap done;          /* games on record (resume) */
    IndexMap pending;       /* opening pairs with one game finished: its
                             * first member's score (0, 1 or 2) */
    int stop;               /* SPRT decided, or an error */
    int fd;
    PairStats *pair;
    PartStats part[MATCH_MAX_PARTS];
    /* moves over time within --grace, and the largest excess */
    int overruns[MATCH_MAX_PARTS];
    int64_t overrun_max_ms[MATCH_MAX_PARTS];
    /* win claims (CodeCup's '!'): made, of them won, and the CodeCup
     * score over two-player games */
    int claims[MATCH_MAX_PARTS], claims_won[MATCH_MAX_PARTS];
    double cc_points[MATCH_MAX_PARTS];
    /* engines' own counts of the final position against the referee's:
     * per participant, games by ScoreCheck */
    int score_checks[MATCH_MAX_PARTS][SCORE_CHECK_COUNT];
    PlaceStats place;       /* more than two players: placements */
    uint64_t finished, played;
    int sprt_result;        /* +1 H1, -1 H0, 0 none */
    double llr, lower, upper;
    int failed;
    int oom;                /* a map could not grow */
    PlyError err;
    int64_t t0, last_print;
    uint64_t printed;
    int tty;
} Runner;

static int two_bot_match(const MatchConfig *c)
{
    return c->npairings == 1 && match_players(c) == 2;
}

/* Adds one finished game (played now or read back) to the statistics. */
static void add_result(Runner *R, uint64_t index, const int *seats,
                       const double *result, Reason reason, int loser)
{
    const MatchConfig *c = R->c;
    int np = match_players(c);
    int p = (int)(index / c->games);
    R->finished++;
    double best = -INFINITY;
    int nbest = 0;
    for (int s = 0; s < np; s++) {
        if (result[s] > best) {
            best = result[s];
            nbest = 1;
        } else if (result[s] == best) {
            nbest++;
        }
    }
    for (int s = 0; s < np; s++) {
        PartStats *ps = &R->part[seats[s]];
        ps->games++;
        ps->points += (result[s] + 1) / 2;
        if (result[s] == best && nbest == 1)
            ps->firsts++;
        if (s == loser)
            ps->forfeits[reason]++;
    }
    if (np > 2 && c->nparts == np)
        stats_place_add(&R->place, np, seats, result);
    if (np == 1) {  /* a puzzle: won (> 0), lost (< 0) or neither */
        PartStats *ps = &R->part[seats[0]];
        ps->wins += result[0] > 0;
        ps->losses += result[0] < 0;
        ps->draws += result[0] == 0;
        return;
    }
    if (np != 2)
        return;
    int a = c->pairing[p][0];
    int sa = seats[0] == a ? 0 : 1;
    double ra = result[sa], rb = result[1 - sa];
    int sc = ra > rb ? 2 : ra < rb ? 0 : 1;
    PartStats *pa = &R->part[a], *pb = &R->part[c->pairing[p][1]];
    PairStats *q = &R->pair[p];
    if (sc == 2) {
        q->w++;
        pa->wins++;
        pb->losses++;
    } else if (sc == 0) {
        q->l++;
        pa->losses++;
        pb->wins++;
    } else {
        q->d++;
        pa->draws++;
        pb->draws++;
    }
    uint64_t j = index % c->games;
    if ((j ^ 1) < c->games) {
        uint64_t key = index - (j & 1);     /* the pair's first game */
        signed char *other = map_get(&R->pending, key);
        if (other) {
            q->ptnml[sc + *other]++;
            map_del(&R->pending, key);
        } else if (map_put(&R->pending, key, (signed char)sc)) {
            R->oom = 1;
        }
    }
}

/* Statistics of pairing p: pentanomial when pairs are finished. */
/* A game's overruns (played now or read back) for its participants. */
static void add_overruns(Runner *R, const int *seats, const int *n,
                         const int64_t *mx)
{
    for (int s = 0; s < match_players(R->c); s++) {
        R->overruns[seats[s]] += n[s];
        if (mx[s] > R->overrun_max_ms[seats[s]])
            R->overrun_max_ms[seats[s]] = mx[s];
    }
}

/* A game's final_score checks (played now or read back). */
static void add_score_checks(Runner *R, const int *seats,
                             const ScoreCheck *ck)
{
    for (int s = 0; s < match_players(R->c); s++)
        if (ck[s] > SCORE_CHECK_NONE && ck[s] < SCORE_CHECK_COUNT)
            R->score_checks[seats[s]][ck[s]]++;
}

/* A game's win claims and CodeCup score (two players): a win 100 plus,
 * when claimed at move x, (39 - x) / 2 as the first player or (40 - x) / 2
 * as the second (0 to 10); a loss 50, or 0 when its seat claimed. */
static void add_claims(Runner *R, const int *seats, const int *claim_ply,
                       const double *result)
{
    if (match_players(R->c) != 2)
        return;
    for (int s = 0; s < 2; s++) {
        int i = seats[s], x = claim_ply[s];
        int won = result[s] > result[1 - s], lost = result[s] < result[1 - s];
        double pts = won ? 100 : lost ? 50 : 75;
        if (x > 0) {
            R->claims[i]++;
            R->claims_won[i] += won;
            double b = ((s == 0 ? 39 : 40) - x) / 2.0;
            pts = won ? 100 + (b > 10 ? 10 : b < 0 ? 0 : b) : 0;
        }
        R->cc_points[i] += pts;
    }
}

static int pair_stats(const Runner *R, int p, StatsResult *st, int *penta)
{
    const PairStats *q = &R->pair[p];
    int pairs = 0;
    for (int i = 0; i < 5; i++)
        pairs += q->ptnml[i];
    *penta = pairs > 0 && R->c->games >= 2;
    /* all pairs alike (say, each side won with the first move) gives a
     * zero variance: too few pairs to say more than the games do */
    if (*penta && !stats_pentanomial(q->ptnml, st) && st->var > 0)
        return 0;
    *penta = 0;
    return stats_trinomial(q->w, q->d, q->l, st);
}

static void update_sprt(Runner *R)
{
    const MatchConfig *c = R->c;
    if (!c->sprt || !two_bot_match(c))
        return;
    StatsResult st;
    int penta;
    if (pair_stats(R, 0, &st, &penta))
        return;
    R->llr = stats_sprt_llr(st.n, st.score, st.var, c->elo0, c->elo1);
    if (R->llr >= R->upper)
        R->sprt_result = 1;
    else if (R->llr <= R->lower)
        R->sprt_result = -1;
    if (R->sprt_result)
        R->stop = 1;
}

static double nz(double x)
{
    return fabs(x) < 0.05 ? 0 : x;  /* no "-0.0" */
}

static void fmt_elo(char *buf, size_t n, const StatsResult *st)
{
    snprintf(buf, n, "Elo %+.1f [%+.1f, %+.1f] (95%%%s)", nz(st->elo),
             nz(st->elo_lo), nz(st->elo_hi),
             st->clamped ? ", score clamped" : "");
}

static void progress(Runner *R, int final)
{
    const MatchConfig *c = R->c;
    if (!c->progress)
        return;
    int64_t t = now_ms();
    uint64_t every = c->shard_total / 10 ? c->shard_total / 10 : 1;
    if (!final && !R->tty && R->finished % every)
        return;
    if (!final && R->tty && t - R->last_print < 200)
        return;
    if (final && !R->tty && R->printed == R->finished)
        return;
    R->printed = R->finished;
    R->last_print = t;
    char line[512];
    int len = snprintf(line, sizeof line, "games %llu/%llu",
                       (unsigned long long)R->finished,
                       (unsigned long long)c->shard_total);
    if (two_bot_match(c)) {
        const PairStats *q = &R->pair[0];
        StatsResult st;
        int penta;
        len += snprintf(line + len, sizeof line - (size_t)len,
                        "  %s vs %s +%d =%d -%d", c->parts[0].label,
                        c->parts[1].label, q->w, q->d, q->l);
        if (!pair_stats(R, 0, &st, &penta)) {
            char e[128];
            fmt_elo(e, sizeof e, &st);
            len += snprintf(line + len, sizeof line - (size_t)len,
                            "  %s%s  LOS %.1f%%", e,
                            penta ? " ptnml" : "", st.los * 100);
        }
        if (c->sprt)
            len += snprintf(line + len, sizeof line - (size_t)len,
                            "  LLR %.2f [%.2f, %.2f]", R->llr, R->lower,
                            R->upper);
    }
    int forf = 0;
    for (int i = 0; i < c->nparts; i++)
        for (int k = 1; k < REASON_COUNT; k++)
            forf += R->part[i].forfeits[k];
    if (forf)
        snprintf(line + len, sizeof line - (size_t)len, "  forfeits %d",
                 forf);
    if (R->tty)
        fprintf(stderr, "\r%s\033[K%s", line, final ? "\n" : "");
    else
        fprintf(stderr, "%s\n", line);
}

static int write_record(Runner *R, const GameRecord *r)
{
    if (R->fd < 0)
        return 0;
    char *line = match_record_json(R->c, r);
    if (!line)
        return ply_fail(&R->err, "could not encode a record");
    size_t n = strlen(line);
    /* one write() of the whole line on an O_APPEND file: a kill leaves
     * either the line or nothing (or, on a full disk, a tail that
     * --resume cuts off) */
    ssize_t w = write(R->fd, line, n);
    free(line);
    if (w != (ssize_t)n)
        return ply_fail(&R->err, "writing %s: %s", R->c->out,
                        w < 0 ? strerror(errno) : "short write");
    return 0;
}

static void *worker(void *arg)
{
    Runner *R = arg;
    for (;;) {
        pthread_mutex_lock(&R->mu);
        R->next = match_shard_next(R->c, R->next);
        while (R->next < R->c->total && map_get(&R->done, R->next))
            R->next = match_shard_next(R->c, R->next + 1);
        if (R->stop || R->next >= R->c->total) {
            pthread_mutex_unlock(&R->mu);
            return NULL;
        }
        uint64_t index = R->next++;
        pthread_mutex_unlock(&R->mu);
        GameRecord rec;
        PlyError err = {{0}};
        int rc = match_play_game(R->c, index, &rec, &err);
        pthread_mutex_lock(&R->mu);
        if (rc) {
            if (!R->failed)
                R->err = err;
            R->failed = 1;
            R->stop = 1;
        } else if (write_record(R, &rec)) {
            R->failed = 1;
            R->stop = 1;
        } else {
            add_result(R, index, rec.seats, rec.result, rec.reason,
                       rec.loser);
            add_overruns(R, rec.seats, rec.overruns, rec.overrun_max_ms);
            add_claims(R, rec.seats, rec.claim_ply, rec.result);
            add_score_checks(R, rec.seats, rec.score_check);
            if (R->oom && !R->failed) {
                ply_fail(&R->err, "out of memory");
                R->failed = 1;
                R->stop = 1;
            }
            R->played++;
            update_sprt(R);
            progress(R, 0);
        }
        pthread_mutex_unlock(&R->mu);
        match_record_free(&rec);
    }
}

/* One game read back from a record file. */
typedef struct ReadGame {
    uint64_t index;
    int seats[PLY_MAX_PLAYERS];
    double res[PLY_MAX_PLAYERS];
    Reason why;
    int loser;
    int on[PLY_MAX_PLAYERS];
    int64_t om[PLY_MAX_PLAYERS];
    int claim[PLY_MAX_PLAYERS];
    ScoreCheck check[PLY_MAX_PLAYERS];
} ReadGame;

/* Block b of a match in N shards belongs to shard b mod N + 1. */
static int shard_of(const MatchConfig *c, uint64_t index, int n)
{
    uint64_t S = shard_block(c), G = (c->games + S - 1) / S;
    uint64_t b = index / c->games * G + index % c->games / S;
    return (int)(b % (uint64_t)n) + 1;
}


/* Checks record o (line lineno of path) against the match and reads it
 * into g. shard_n: the shards the record must come from (0: none). */
static int record_read(Runner *R, const char *path, long lineno, json_t *o,
                       int shard_n, ReadGame *g)
{
    const MatchConfig *c = R->c;
    int np = match_players(c);
    json_t *jg = json_object_get(o, "game");
    json_t *ji = json_object_get(o, "index");
    json_t *js = json_object_get(o, "seats");
    json_t *jr = json_object_get(o, "result");
    json_t *jre = json_object_get(o, "reason");
    json_t *jf = json_object_get(o, "forfeit");
    json_t *jo = json_object_get(o, "options");
    json_t *jseed = json_object_get(o, "seed");
    json_t *jsh = json_object_get(o, "shard");
    if (!json_is_string(jg) || !json_is_integer(ji) ||
        !json_is_array(js) || !json_is_array(jr) ||
        json_array_size(js) != (size_t)np ||
        json_array_size(jr) != (size_t)np)
        return ply_fail(&R->err, "%s line %ld is not a match record", path,
                        lineno);
    json_int_t idx = json_integer_value(ji);
    if (strcmp(json_string_value(jg), c->g->info.name) || idx < 0 ||
        (uint64_t)idx >= c->total)
        return ply_fail(&R->err, "%s line %ld belongs to another match "
                        "(game or game number differ)", path, lineno);
    if (c->merge && (!json_is_string(jo) ||
                     strcmp(json_string_value(jo), c->options) ||
                     !json_is_integer(jseed) ||
                     (uint64_t)json_integer_value(jseed) != c->seed))
        return ply_fail(&R->err, "%s line %ld belongs to another match "
                        "(options or seed differ)", path, lineno);
    if (shard_n) {
        json_t *a = json_array_get(jsh, 0), *b = json_array_get(jsh, 1);
        json_t *want = match_desc(c);
        int same = json_equal(want, json_object_get(o, "match"));
        json_decref(want);
        if (!json_is_integer(a) || !json_is_integer(b) ||
            json_array_size(jsh) != 2 || !same)
            return ply_fail(&R->err, "%s line %ld belongs to another match "
                            "(not a shard of it: participants, games or "
                            "--grace differ)", path, lineno);
        json_int_t si = json_integer_value(a), sn = json_integer_value(b);
        if (sn != shard_n || (!c->merge && si != c->shard_i))
            return ply_fail(&R->err, "%s line %ld is from shard %lld/%lld, "
                            "not %s%d", path, lineno, (long long)si,
                            (long long)sn, c->merge ? "a shard of " : "",
                            c->merge ? shard_n : c->shard_i);
        if (si < 1 || si > sn ||
            shard_of(c, (uint64_t)idx, shard_n) != (int)si)
            return ply_fail(&R->err, "%s line %ld: game %lld is not in "
                            "shard %lld/%lld", path, lineno, (long long)idx,
                            (long long)si, (long long)sn);
    } else if (jsh) {
        return ply_fail(&R->err, "%s line %ld is from a shard: give the "
                        "same --shard to resume it", path, lineno);
    }
    int pairing;
    g->index = (uint64_t)idx;
    match_schedule(c, g->index, &pairing, g->seats);
    for (int s = 0; s < np; s++) {
        json_t *x = json_array_get(js, (size_t)s);
        json_t *y = json_array_get(jr, (size_t)s);
        if (!json_is_string(x) ||
            strcmp(json_string_value(x), c->parts[g->seats[s]].name) ||
            /* a game's returns are in [-1, 1] */
            !json_is_number(y) || !(json_number_value(y) >= -1 &&
                                    json_number_value(y) <= 1))
            return ply_fail(&R->err, "%s line %ld: its seats or result do "
                            "not fit this match (other bots or settings?)",
                            path, lineno);
        g->res[s] = json_number_value(y);
    }
    g->why = REASON_NORMAL;
    for (int k = 0; k < REASON_COUNT; k++)
        if (json_is_string(jre) &&
            !strcmp(json_string_value(jre), match_reason_names[k]))
            g->why = (Reason)k;
    g->loser = json_is_integer(jf) ? (int)json_integer_value(jf) : -1;
    json_t *jon = json_object_get(o, "overruns");
    json_t *jom = json_object_get(o, "overrun_max_ms");
    for (int s = 0; s < np; s++) {
        json_t *x = json_array_get(jon, (size_t)s);
        json_t *y = json_array_get(jom, (size_t)s);
        json_int_t xv = json_is_integer(x) ? json_integer_value(x) : 0;
        json_int_t yv = json_is_integer(y) ? json_integer_value(y) : 0;
        g->on[s] = xv > 0 && xv < 1000000 ? (int)xv : 0;
        g->om[s] = yv > 0 && yv < INT64_C(1) << 40 ? (int64_t)yv : 0;
    }
    json_t *jcl = json_object_get(o, "claims");
    for (int s = 0; s < np; s++) {
        json_t *x = json_array_get(jcl, (size_t)s);
        json_int_t xv = json_is_integer(x) ? json_integer_value(x) : 0;
        g->claim[s] = xv > 0 && xv < 1000000 ? (int)xv : 0;
    }
    json_t *jck = json_object_get(json_object_get(o, "final_score"),
                                  "check");
    for (int s = 0; s < np; s++) {
        json_t *x = json_array_get(jck, (size_t)s);
        g->check[s] = SCORE_CHECK_NONE;
        for (int k = 1; k < SCORE_CHECK_COUNT && json_is_string(x); k++)
            if (!strcmp(json_string_value(x), score_check_names[k]))
                g->check[s] = (ScoreCheck)k;
    }
    return 0;
}

static void add_read(Runner *R, const ReadGame *g)
{
    add_result(R, g->index, g->seats, g->res, g->why, g->loser);
    add_overruns(R, g->seats, g->on, g->om);
    add_claims(R, g->seats, g->claim, g->res);
    add_score_checks(R, g->seats, g->check);
}

/* Reads the records of an interrupted match: cuts a trailing partial line
 * off, checks every line belongs to this match, and counts it. */
static int resume_read(Runner *R)
{
    const MatchConfig *c = R->c;
    FILE *f = fopen(c->out, "r");
    if (!f)
        return errno == ENOENT ? 0 : ply_fail(&R->err, "%s: %s", c->out,
                                              strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long good_end = 0, lineno = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] != '\n')
            break;              /* a partial last line: cut below */
        lineno++;
        json_error_t je;
        json_t *o = json_loadb(line, (size_t)n, 0, &je);
        ReadGame g;
        if (!o) {
            rc = ply_fail(&R->err, "%s line %ld is not a match record",
                          c->out, lineno);
            break;
        }
        rc = record_read(R, c->out, lineno, o, c->shard_n, &g);
        json_decref(o);
        if (rc)
            break;
        if (!map_get(&R->done, g.index)) {
            if (map_put(&R->done, g.index, 1)) {
                rc = ply_fail(&R->err, "out of memory");
                break;
            }
            add_read(R, &g);
            if (R->oom) {
                rc = ply_fail(&R->err, "out of memory");
                break;
            }
        }
        good_end = ftell(f);
    }
    free(line);
    fclose(f);
    if (rc)
        return rc;
    struct stat sb;
    if (!stat(c->out, &sb) && sb.st_size > good_end) {
        if (truncate(c->out, good_end))
            return ply_fail(&R->err, "cannot cut the partial last line of "
                            "%s: %s", c->out, strerror(errno));
        if (c->progress)
            fprintf(stderr, "%s: cut a partial last line\n", c->out);
    }
    return 0;
}

static json_t *json_elo(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}


static void placements_json(Runner *R, json_t *o)
{
    const MatchConfig *c = R->c;
    const PlaceStats *P = &R->place;
    int n = c->nparts;
    double elo[STATS_MAX_N], lo[STATS_MAX_N], hi[STATS_MAX_N];
    int rated = !stats_place_ratings(P, elo, lo, hi);
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        json_t *p = json_object(), *pl = json_array(), *cr = json_array();
        json_object_set_new(p, "label", json_string(c->parts[i].label));
        for (int k = 0; k < n; k++)
            json_array_append_new(pl, json_real(P->place[i][k]));
        json_object_set_new(p, "places", pl);
        json_object_set_new(p, "avg_place",
                            json_real(P->place_sum[i] / P->games));
        if (rated) {
            json_object_set_new(p, "elo", json_elo(elo[i]));
            json_object_set_new(p, "elo_lo", json_elo(lo[i]));
            json_object_set_new(p, "elo_hi", json_elo(hi[i]));
        }
        for (int j = 0; j < n; j++)
            json_array_append_new(cr, i == j ? json_null()
                                  : json_real(P->pair[i][j] / P->games));
        json_object_set_new(p, "pairs_ahead", cr);
        json_array_append_new(a, p);
    }
    json_object_set_new(o, "placements", a);
    json_object_set_new(o, "rating_model", json_string(
        "bradley-terry on placement pairs, 95% interval clustered by game"));
}

static void summary_json(Runner *R, FILE *out)
{
    const MatchConfig *c = R->c;
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(c->g->info.name));
    json_object_set_new(o, "options", json_string(c->options));
    json_object_set_new(o, "games", json_integer((json_int_t)R->finished));
    json_object_set_new(o, "scheduled",
                        json_integer((json_int_t)c->shard_total));
    if (c->shard_n) {
        json_t *sh = json_array();
        json_array_append_new(sh, json_integer(c->shard_i));
        json_array_append_new(sh, json_integer(c->shard_n));
        json_object_set_new(o, "shard", sh);
        json_object_set_new(o, "match_games",
                            json_integer((json_int_t)c->total));
    }
    json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
    json_t *parts = json_array();
    for (int i = 0; i < c->nparts; i++) {
        const PartStats *ps = &R->part[i];
        json_t *p = json_object();
        json_object_set_new(p, "name", json_string(c->parts[i].name));
        json_object_set_new(p, "label", json_string(c->parts[i].label));
        json_object_set_new(p, "games", json_integer(ps->games));
        json_object_set_new(p, "points", json_real(ps->points));
        json_object_set_new(p, "wins", json_integer(ps->wins));
        json_object_set_new(p, "draws", json_integer(ps->draws));
        json_object_set_new(p, "losses", json_integer(ps->losses));
        json_object_set_new(p, "firsts", json_integer(ps->firsts));
        json_t *f = json_object();
        for (int k = 1; k < REASON_COUNT; k++)
            json_object_set_new(f, match_reason_names[k],
                                json_integer(ps->forfeits[k]));
        json_object_set_new(p, "forfeits", f);
        json_object_set_new(p, "overruns", json_integer(R->overruns[i]));
        json_object_set_new(p, "overrun_max_ms",
                            json_integer(R->overrun_max_ms[i]));
        if (R->claims[i]) {
            json_object_set_new(p, "claims", json_integer(R->claims[i]));
            json_object_set_new(p, "claims_won",
                                json_integer(R->claims_won[i]));
        }
        if (R->score_checks[i][SCORE_CHECK_AGREE] +
            R->score_checks[i][SCORE_CHECK_MARGIN] +
            R->score_checks[i][SCORE_CHECK_DISAGREE]) {
            json_t *fs = json_object();
            for (int k = 1; k < SCORE_CHECK_COUNT; k++)
                json_object_set_new(fs, score_check_names[k],
                                    json_integer(R->score_checks[i][k]));
            json_object_set_new(p, "final_score", fs);
        }
        int any = 0;
        for (int j = 0; j < R->c->nparts; j++)
            any |= R->claims[j] > 0;
        if (any)
            json_object_set_new(p, "codecup_score",
                                json_real(R->cc_points[i]));
        json_array_append_new(parts, p);
    }
    json_object_set_new(o, "participants", parts);
    if (match_players(c) > 2 && R->place.games > 0)
        placements_json(R, o);
    if (match_players(c) == 2) {
        json_t *pairs = json_array();
        for (int p = 0; p < c->npairings; p++) {
            const PairStats *q = &R->pair[p];
            json_t *j = json_object();
            json_object_set_new(j, "a", json_string(
                c->parts[c->pairing[p][0]].label));
            json_object_set_new(j, "b", json_string(
                c->parts[c->pairing[p][1]].label));
            json_object_set_new(j, "wins", json_integer(q->w));
            json_object_set_new(j, "draws", json_integer(q->d));
            json_object_set_new(j, "losses", json_integer(q->l));
            json_t *pt = json_array();
            for (int i = 0; i < 5; i++)
                json_array_append_new(pt, json_integer(q->ptnml[i]));
            json_object_set_new(j, "pentanomial", pt);
            StatsResult st;
            int penta;
            if (!pair_stats(R, p, &st, &penta)) {
                json_object_set_new(j, "model", json_string(
                    penta ? "pentanomial" : "trinomial"));
                json_object_set_new(j, "score", json_real(st.score));
                json_object_set_new(j, "elo", json_elo(st.elo));
                json_object_set_new(j, "elo_lo", json_elo(st.elo_lo));
                json_object_set_new(j, "elo_hi", json_elo(st.elo_hi));
                json_object_set_new(j, "los", json_real(st.los));
                json_object_set_new(j, "clamped", json_boolean(st.clamped));
            }
            json_array_append_new(pairs, j);
        }
        json_object_set_new(o, "pairs", pairs);
    }
    if (c->sprt && two_bot_match(c)) {
        json_t *s = json_object();
        json_object_set_new(s, "elo0", json_real(c->elo0));
        json_object_set_new(s, "elo1", json_real(c->elo1));
        json_object_set_new(s, "alpha", json_real(c->alpha));
        json_object_set_new(s, "beta", json_real(c->beta));
        json_object_set_new(s, "llr", json_real(R->llr));
        json_object_set_new(s, "lower", json_real(R->lower));
        json_object_set_new(s, "upper", json_real(R->upper));
        json_object_set_new(s, "result", json_string(
            R->sprt_result > 0 ? "H1" : R->sprt_result < 0 ? "H0" : "none"));
        json_object_set_new(o, "sprt", s);
    }
    char *txt = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (txt)
        fprintf(out, "%s\n", txt);
    free(txt);
    json_decref(o);
}


/* More than two players: places, ratings from them, pairs crosstable. */
static void placements_text(Runner *R, FILE *out)
{
    const MatchConfig *c = R->c;
    const PlaceStats *P = &R->place;
    int n = c->nparts;
    double elo[STATS_MAX_N], lo[STATS_MAX_N], hi[STATS_MAX_N];
    int w = 12;
    for (int i = 0; i < n; i++)
        if ((int)strlen(c->parts[i].label) > w)
            w = (int)strlen(c->parts[i].label);
    fprintf(out, "\nplacements over %.0f games (a tie over k places counts "
            "1/k for each)\n%-*s", P->games, w + 2, "participant");
    for (int k = 0; k < n; k++)
        fprintf(out, "  %4d%s", k + 1, k == 0 ? "st" : k == 1 ? "nd"
                                         : k == 2 ? "rd" : "th");
    fprintf(out, "  avg place\n");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%-*s", w + 2, c->parts[i].label);
        for (int k = 0; k < n; k++)
            fprintf(out, "  %6.1f", P->place[i][k]);
        fprintf(out, "  %9.2f\n", P->place_sum[i] / P->games);
    }
    if (!stats_place_ratings(P, elo, lo, hi)) {
        fprintf(out, "\nratings: Bradley-Terry on the pairs of each game's "
                "placements (Elo scale, mean 0),\n95%% interval clustered by "
                "game (the pairs of one game are not independent)\n");
        for (int i = 0; i < n; i++) {
            fprintf(out, "%-*s %+7.0f", w + 2, c->parts[i].label, elo[i]);
            if (isfinite(lo[i]))
                fprintf(out, "  [%+.0f, %+.0f]", lo[i], hi[i]);
            fputc('\n', out);
        }
    }
    fprintf(out, "\ncrosstable: %% of the pairs the row placed ahead of the "
            "column (ties half)\n%-*s", w + 2, "");
    for (int j = 0; j < n; j++)
        fprintf(out, " %8.8s", c->parts[j].label);
    fputc('\n', out);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%-*s", w + 2, c->parts[i].label);
        for (int j = 0; j < n; j++) {
            if (i == j)
                fprintf(out, " %8s", "-");
            else
                fprintf(out, " %7.1f%%", 100 * P->pair[i][j] / P->games);
        }
        fputc('\n', out);
    }
}

static void summary_text(Runner *R, FILE *out)
{
    const MatchConfig *c = R->c;
    int np = match_players(c);
    fprintf(out, "%s: %llu of %llu games", c->g->info.name,
            (unsigned long long)R->finished,
            (unsigned long long)c->shard_total);
    if (c->shard_n)
        fprintf(out, " (shard %d/%d of %llu)", c->shard_i, c->shard_n,
                (unsigned long long)c->total);
    if (c->options[0])
        fprintf(out, " (options %s)", c->options);
    if (c->fixed_seats)
        fprintf(out, " (seats fixed)");
    fprintf(out, ", seed %llu\n", (unsigned long long)c->seed);
    if (np == 2) {
        for (int p = 0; p < c->npairings; p++) {
            const PairStats *q = &R->pair[p];
            StatsResult st;
            int penta;
            fprintf(out, "%s vs %s: +%d =%d -%d", c->parts[c->pairing[p][0]]
                    .label, c->parts[c->pairing[p][1]].label, q->w, q->d,
                    q->l);
            if (!pair_stats(R, p, &st, &penta)) {
                char e[128];
                fmt_elo(e, sizeof e, &st);
                fprintf(out, "  score %.1f%%  %s  LOS %.1f%%",
                        (q->w + 0.5 * q->d) * 100 / (q->w + q->d + q->l), e,
                        st.los * 100);
                if (penta)
                    fprintf(out, "  pentanomial %d %d %d %d %d",
                            q->ptnml[0], q->ptnml[1], q->ptnml[2],
                            q->ptnml[3], q->ptnml[4]);
            }
            fputc('\n', out);
        }
    }
    if (c->sprt && two_bot_match(c))
        fprintf(out, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f "
                "[%.2f, %.2f] %s\n", c->elo0, c->elo1, c->alpha, c->beta,
                R->llr, R->lower, R->upper,
                R->sprt_result > 0 ? "H1 accepted (elo1 or better)"
                : R->sprt_result < 0 ? "H0 accepted (elo0 or worse)"
                                     : "no decision yet");
    if (c->nparts > 2 && np == 2) {
        /* crosstable: points scored by the row against the column */
        int w = 8;
        for (int i = 0; i < c->nparts; i++)
            if ((int)strlen(c->parts[i].label) > w)
                w = (int)strlen(c->parts[i].label);
        fprintf(out, "\n%-*s", w + 2, "crosstable");
        for (int i = 0; i < c->nparts; i++)
            fprintf(out, " %8.8s", c->parts[i].label);
        fprintf(out, "    score\n");
        for (int i = 0; i < c->nparts; i++) {
            fprintf(out, "%-*s", w + 2, c->parts[i].label);
            for (int j = 0; j < c->nparts; j++) {
                if (i == j) {
                    fprintf(out, " %8s", "-");
                    continue;
                }
                int p = 0;
                for (; p < c->npairings; p++)
                    if ((c->pairing[p][0] == i && c->pairing[p][1] == j) ||
                        (c->pairing[p][0] == j && c->pairing[p][1] == i))
                        break;
                const PairStats *q = &R->pair[p];
                double pts = c->pairing[p][0] == i ? q->w + 0.5 * q->d
                                                    : q->l + 0.5 * q->d;
                fprintf(out, " %8.1f", pts);
            }
            const PartStats *ps = &R->part[i];
            fprintf(out, "  %5.1f/%d\n", ps->wins + 0.5 * ps->draws,
                    ps->games);
        }
    }
    fprintf(out, "\n%-24s %6s %6s %6s %6s %8s  forfeits\n", "participant",
            "games", "wins", "draws", "losses", "score");
    for (int i = 0; i < c->nparts; i++) {
        const PartStats *ps = &R->part[i];
        fprintf(out, "%-24s %6d %6d %6d %6d %7.1f%%", c->parts[i].label,
                ps->games, np <= 2 ? ps->wins : ps->firsts, ps->draws,
                ps->losses, ps->games ? 100 * ps->points / ps->games : 0);
        int any = 0;
        for (int k = 1; k < REASON_COUNT; k++)
            if (ps->forfeits[k]) {
                fprintf(out, "  %s %d", match_reason_names[k],
                        ps->forfeits[k]);
                any = 1;
            }
        fprintf(out, "%s\n", any ? "" : "  -");
    }
    int over = 0;
    for (int i = 0; i < c->nparts; i++)
        over |= R->overruns[i] > 0;
    if (over) {
        /* over the move's time but within --grace: not forfeits */
        fprintf(out, "\novertime moves within --grace %lld ms:",
                (long long)c->grace_ms);
        for (int i = 0; i < c->nparts; i++)
            if (R->overruns[i])
                fprintf(out, "  %s %d (max +%lld ms)", c->parts[i].label,
                        R->overruns[i], (long long)R->overrun_max_ms[i]);
        fprintf(out, "\n");
    }
    int claimed = 0;
    for (int i = 0; i < c->nparts; i++)
        claimed |= R->claims[i] > 0;
    if (claimed) {
        /* CodeCup's '!': the score counts claim bonuses and false claims */
        fprintf(out, "\nwin claims ('!'), won of made; CodeCup score "
                "(win 100 + claim bonus, loss 50, false claim 0):\n");
        for (int i = 0; i < c->nparts; i++)
            fprintf(out, "  %-24s claims %d/%d  score %.1f\n",
                    c->parts[i].label, R->claims_won[i], R->claims[i],
                    R->cc_points[i]);
    }
    int counted = 0;
    for (int i = 0; i < c->nparts; i++)
        for (int k = 1; k < SCORE_CHECK_COUNT; k++)
            counted |= R->score_checks[i][k] > 0;
    if (counted) {
        /* GTP engines asked final_score after each game */
        fprintf(out, "\nthe engines' own count of the final position "
                "(final_score) against the referee's:\n");
        for (int i = 0; i < c->nparts; i++) {
            const int *k = R->score_checks[i];
            if (k[SCORE_CHECK_AGREE] + k[SCORE_CHECK_MARGIN] +
                k[SCORE_CHECK_DISAGREE])
                fprintf(out, "  %-24s agree %d  same winner, other "
                        "margin %d  other winner %d\n", c->parts[i].label,
                        k[SCORE_CHECK_AGREE], k[SCORE_CHECK_MARGIN],
                        k[SCORE_CHECK_DISAGREE]);
        }
    }
    if (np > 2 && R->place.games > 0)
        placements_text(R, out);
}

int match_run(MatchConfig *c, FILE *out, PlyError *err)
{
    Runner R;
    memset(&R, 0, sizeof R);
    R.c = c;
    R.out = out;
    R.fd = -1;
    R.tty = isatty(2);
    R.t0 = now_ms();
    stats_sprt_bounds(c->alpha, c->beta, &R.lower, &R.upper);
    int rc = -1;
    /* nothing here grows with -n: games are handed out lazily */
    R.pair = calloc((size_t)c->npairings, sizeof *R.pair);
    pthread_t *th = calloc((size_t)c->jobs, sizeof *th);
    pthread_mutex_init(&R.mu, NULL);
    EngineWatch watch = {-1, -1};
    if (!R.pair || !th) {
        ply_fail(err, "out of memory");
        goto out;
    }
    int engines = 0;
    for (int i = 0; i < c->nparts; i++)
        engines |= c->parts[i].kind != PART_BOT;
    /* before any thread: the watchdog is forked from one thread */
    if (engines) {
        if (engine_watch_start(&watch, err))
            goto out;
        c->watch = &watch;
    }
    if (c->out) {
        struct stat sb;
        if (!c->resume && !stat(c->out, &sb) && sb.st_size > 0) {
            ply_fail(err, "%s already has records: add --resume to go on "
                     "with that match, or choose another file", c->out);
            goto out;
        }
        if (c->resume && resume_read(&R)) {
            *err = R.err;
            goto out;
        }
        R.fd = open(c->out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (R.fd < 0) {
            ply_fail(err, "%s: %s", c->out, strerror(errno));
            goto out;
        }
    }
    if (c->resume && c->progress)
        fprintf(stderr, "resuming: %llu games on record, %llu to play\n",
                (unsigned long long)R.finished,
                (unsigned long long)(c->shard_total - R.done.n));
    update_sprt(&R);
    int started = 0;
    for (int t = 0; t < c->jobs; t++) {
        if (pthread_create(&th[t], NULL, worker, &R))
            break;
        started++;
    }
    if (!started)
        worker(&R);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    if (R.failed) {
        *err = R.err;
        goto out;
    }
    progress(&R, 1);
    if (c->json)
        summary_json(&R, out);
    else
        summary_text(&R, out);
    rc = 0;
out:
    if (R.fd >= 0)
        close(R.fd);
    pthread_mutex_destroy(&R.mu);
    /* every game's engines are stopped: nothing left to watch */
    engine_watch_stop(&watch);
    c->watch = NULL;
    map_free(&R.done);
    map_free(&R.pending);
    free(R.pair);
    free(th);
    return rc;
}

/* ------------------------------------------------------------------ */
/* merging the shards' records                                         */

static int cmp_read(const void *a, const void *b)
{
    uint64_t x = ((const ReadGame *)a)->index;
    uint64_t y = ((const ReadGame *)b)->index;
    return x < y ? -1 : x > y;
}

/* The match as the first record of the files describes it (a shard may
 * have no games: an empty file). */
static int merge_setup(MatchConfig *c, int nfiles, char **files,
                       int *shard_n, PlyError *err)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = -1;
    const char *path = files[0];
    for (int i = 0; i < nfiles && n <= 0; i++) {
        path = files[i];
        FILE *f = fopen(path, "r");
        if (!f) {
            free(line);
            return ply_fail(err, "%s: %s", path, strerror(errno));
        }
        n = getline(&line, &cap, f);
        fclose(f);
    }
    if (n <= 0) {
        free(line);
        return ply_fail(err, "%s%s has no records", nfiles > 1 ? "none of "
                        "the files from " : "", files[0]);
    }
    json_error_t je;
    json_t *o = json_loadb(line, (size_t)n, 0, &je);
    free(line);
    json_t *jg = json_object_get(o, "game");
    json_t *jo = json_object_get(o, "options");
    json_t *jseed = json_object_get(o, "seed");
    json_t *jsh = json_object_get(o, "shard");
    json_t *m = json_object_get(o, "match");
    json_t *pa = json_object_get(m, "participants");
    json_t *jn = json_object_get(m, "games");
    json_t *jgr = json_object_get(m, "grace_ms");
    json_t *jsn = json_array_get(jsh, 1);
    int rc = -1;
    if (!o || !json_is_string(jg) || !json_is_string(jo) ||
        !json_is_integer(jseed) || !json_is_integer(jn) ||
        !json_is_integer(jgr) || !json_is_array(pa) ||
        !json_is_integer(jsn)) {
        ply_fail(err, "%s line 1 is not a record of a sharded match "
                 "(ply match --shard I/N --out FILE writes them)", path);
        goto out;
    }
    c->g = game_find(json_string_value(jg));
    if (!c->g) {
        ply_fail(err, "%s: unknown game '%s'", path, json_string_value(jg));
        goto out;
    }
    if (strlen(json_string_value(jo)) >= sizeof c->options ||
        json_array_size(pa) < 1 || json_array_size(pa) > MATCH_MAX_PARTS ||
        json_integer_value(jn) < 1 || json_integer_value(jgr) < 0 ||
        json_integer_value(jsn) < 1 ||
        json_integer_value(jsn) > MATCH_MAX_SHARDS) {
        ply_fail(err, "%s line 1: bad match settings", path);
        goto out;
    }
    snprintf(c->options, sizeof c->options, "%s", json_string_value(jo));
    c->fixed_seats = json_is_true(json_object_get(m, "fixed_seats"));
    c->nparts = (int)json_array_size(pa);
    for (int i = 0; i < c->nparts; i++) {
        json_t *x = json_array_get(pa, (size_t)i);
        Participant *p = &c->parts[i];
        memset(p, 0, sizeof *p);
        if (!json_is_string(x) ||
            strlen(json_string_value(x)) >= sizeof p->name) {
            ply_fail(err, "%s line 1: bad participant", path);
            goto out;
        }
        p->kind = PART_BOT;
        snprintf(p->name, sizeof p->name, "%s", json_string_value(x));
    }
    c->games = (uint64_t)json_integer_value(jn);
    c->seed = (uint64_t)json_integer_value(jseed);
    c->grace_ms = json_integer_value(jgr);
    c->merge = 1;
    c->shard_i = c->shard_n = 0;
    c->jobs = 1;
    c->progress = 0;
    *shard_n = (int)json_integer_value(jsn);
    if (match_prepare(c, err))
        goto out;
    if (c->grace_ms != json_integer_value(jgr)) {
        ply_fail(err, "%s line 1: bad --grace", path);
        goto out;
    }
    rc = 0;
out:
    json_decref(o);
    return rc;
}

int match_merge(MatchConfig *c, int nfiles, char **files, FILE *out,
                PlyError *err)
{
    if (nfiles < 1)
        return ply_fail(err, "--merge needs the shards' record files");
    int shard_n = 0;
    if (merge_setup(c, nfiles, files, &shard_n, err))
        return -1;
    Runner R;
    memset(&R, 0, sizeof R);
    R.c = c;
    R.out = out;
    R.fd = -1;
    stats_sprt_bounds(c->alpha, c->beta, &R.lower, &R.upper);
    R.pair = calloc((size_t)c->npairings, sizeof *R.pair);
    ReadGame *games = NULL;
    size_t ngames = 0, room = 0;
    char *line = NULL;
    size_t cap = 0;
    int rc = -1;
    if (!R.pair) {
        ply_fail(err, "out of memory");
        goto out;
    }
    for (int fi = 0; fi < nfiles; fi++) {
        FILE *f = fopen(files[fi], "r");
        if (!f) {
            ply_fail(err, "%s: %s", files[fi], strerror(errno));
            goto out;
        }
        ssize_t n;
        long lineno = 0;
        int bad = 0;
        while (!bad && (n = getline(&line, &cap, f)) > 0) {
            lineno++;
            if (line[n - 1] != '\n') {
                ply_fail(err, "%s line %ld is cut short (no newline): was "
                         "its shard stopped? run it again with --resume, "
                         "which cuts the line and plays what is missing",
                         files[fi], lineno);
                bad = 1;
                break;
            }
            json_error_t je;
            json_t *o = json_loadb(line, (size_t)n, 0, &je);
            if (!o) {
                ply_fail(err, "%s line %ld is not a match record", files[fi],
                         lineno);
                bad = 1;
                break;
            }
            if (ngames == room) {
                size_t r2 = room ? room * 2 : 256;
                ReadGame *g2 = realloc(games, r2 * sizeof *g2);
                if (!g2) {
                    json_decref(o);
                    ply_fail(err, "out of memory");
                    bad = 1;
                    break;
                }
                games = g2;
                room = r2;
            }
            ReadGame *g = &games[ngames];
            if (record_read(&R, files[fi], lineno, o, shard_n, g)) {
                *err = R.err;
                bad = 1;
            } else if (map_get(&R.done, g->index)) {
                ply_fail(err, "game %llu is on record twice (again in %s "
                         "line %ld): give each shard's file once",
                         (unsigned long long)g->index, files[fi], lineno);
                bad = 1;
            } else if (map_put(&R.done, g->index, 1)) {
                ply_fail(err, "out of memory");
                bad = 1;
            } else {
                ngames++;
            }
            json_decref(o);
        }
        fclose(f);
        if (bad)
            goto out;
    }
    if (ngames < c->total) {
        /* say which games, and from which shards */
        char list[256] = "", shards[256] = "";
        size_t ll = 0, sl = 0;
        int listed = 0;
        unsigned char *seen = calloc((size_t)shard_n + 1, 1);
        if (!seen) {
            ply_fail(err, "out of memory");
            goto out;
        }
        for (uint64_t i = 0; i < c->total; i++) {
            if (map_get(&R.done, i))
                continue;
            if (listed < 10 && ll < sizeof list)
                ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%llu",
                                       listed ? ", " : "",
                                       (unsigned long long)i);
            listed++;
            int s = shard_of(c, i, shard_n);
            if (!seen[s] && sl < sizeof shards)
                sl += (size_t)snprintf(shards + sl, sizeof shards - sl,
                                       "%s%d/%d", sl ? ", " : "", s,
                                       shard_n);
            seen[s] = 1;
        }
        free(seen);
        ply_fail(err, "%llu of %llu games are missing (from shard %s): "
                 "%s%s", (unsigned long long)(c->total - ngames),
                 (unsigned long long)c->total, shards, list,
                 listed > 10 ? ", ..." : "");
        goto out;
    }
    /* in game order: the statistics do not depend on the files' order */
    qsort(games, ngames, sizeof *games, cmp_read);
    for (size_t i = 0; i < ngames; i++)
        add_read(&R, &games[i]);
    if (R.oom) {
        ply_fail(err, "out of memory");
        goto out;
    }
    update_sprt(&R);
    if (c->json)
        summary_json(&R, out);
    else
        summary_text(&R, out);
    rc = 0;
out:
    free(line);
    free(games);
    map_free(&R.done);
    map_free(&R.pending);
    free(R.pair);
    return rc;
}
