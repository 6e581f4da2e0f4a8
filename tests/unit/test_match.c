/* test_match.c — ply match's pieces: Elo, intervals, LOS and SPRT against
 * hand-computed cases and simulated matches of known strength; settings
 * parsing; the schedule (seat rotation, pairings); reproducible games and
 * their JSON records; external programs with deadlines. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <jansson.h>

#include "testlib.h"
#include "core/util.h"
#include "tools/engine.h"
#include "tools/match.h"
#include "tools/stats.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

static void test_elo_basics(void **state)
{
    (void)state;
    NEAR(stats_elo(0.5), 0, 1e-12);
    /* 3:1 odds is 400 * log10(3) */
    NEAR(stats_elo(0.75), 400 * log10(3.0), 1e-9);
    NEAR(stats_elo(0.25), -400 * log10(3.0), 1e-9);
    NEAR(stats_score(stats_elo(0.9)), 0.9, 1e-12);
}

static void test_trinomial(void **state)
{
    (void)state;
    StatsResult st;
    /* 60 wins, 20 draws, 20 losses: score 0.7, per-game variance
     * (60*.09 + 20*.04 + 20*.49)/100 = 0.16, standard error 0.04 */
    assert_int_equal(stats_trinomial(60, 20, 20, &st), 0);
    NEAR(st.n, 100, 1e-12);
    NEAR(st.score, 0.7, 1e-12);
    NEAR(st.var, 0.16, 1e-12);
    NEAR(st.elo, 147.1907141, 1e-6);
    NEAR(st.elo_lo, 86.2250152, 1e-6);
    NEAR(st.elo_hi, 218.2517776, 1e-6);
    /* LOS = Phi((W-L)/sqrt(W+L)) = Phi(40/sqrt(80)) */
    NEAR(st.los, 0.9999961279, 1e-9);
    assert_int_equal(st.clamped, 0);
    /* even: estimate 0, symmetric interval, LOS one half */
    assert_int_equal(stats_trinomial(10, 5, 10, &st), 0);
    NEAR(st.elo, 0, 1e-9);
    NEAR(st.elo_lo, -st.elo_hi, 1e-9);
    NEAR(st.los, 0.5, 1e-12);
    assert_int_equal(stats_trinomial(0, 0, 0, &st), -1);
    /* all won: a finite, clamped estimate with a positive lower bound */
    assert_int_equal(stats_trinomial(20, 0, 0, &st), 0);
    assert_int_equal(st.clamped, 1);
    assert_true(isfinite(st.elo) && st.elo > 300);
    assert_true(st.elo_lo > 0 && st.elo_lo < st.elo);
}

static void test_pentanomial(void **state)
{
    (void)state;
    StatsResult st;
    /* 30 pairs: 2 x 0, 5 x 0.25, 10 x 0.5, 8 x 0.75, 5 x 1 (per game) */
    int p[5] = {2, 5, 10, 8, 5};
    assert_int_equal(stats_pentanomial(p, &st), 0);
    NEAR(st.n, 30, 1e-12);
    NEAR(st.score, 0.575, 1e-12);
    NEAR(st.var, 0.0797916667, 1e-9);
    NEAR(st.elo, 52.5115659, 1e-6);
    NEAR(st.elo_lo, -18.1388638, 1e-6);
    NEAR(st.elo_hi, 127.8243144, 1e-6);
    NEAR(st.los, 0.9270633756, 1e-8);
}

static void test_sprt_formula(void **state)
{
    (void)state;
    double lo, hi;
    stats_sprt_bounds(0.05, 0.05, &lo, &hi);
    NEAR(lo, -2.9444389792, 1e-9);
    NEAR(hi, 2.9444389792, 1e-9);
    /* the pentanomial case above, elo0 = 0, elo1 = 10 */
    NEAR(stats_sprt_llr(30, 0.575, 0.0797916667, 0, 10), 0.3667838958,
         1e-8);
    /* no variance (all won): still a decision, not a division by 0 */
    double llr = stats_sprt_llr(20, 1, 0, 0, 10);
    assert_true(isfinite(llr) && llr > hi);
}

/* A simulated match between bots elo apart (draws 30% of the games, as
 * many as the expected score allows), until the SPRT decides. */
static int simulate_sprt(double elo, double elo0, double elo1, uint64_t seed,
                         int *games)
{
    Rng r;
    rng_seed(&r, seed);
    double s = stats_score(elo), d = 0.3;
    if (d > 2 * (1 - s))
        d = 2 * (1 - s);
    if (d > 2 * s)
        d = 2 * s;
    double pw = s - d / 2;
    int w = 0, dr = 0, l = 0;
    double lo, hi;
    stats_sprt_bounds(0.05, 0.05, &lo, &hi);
    for (int n = 1; n <= 200000; n++) {
        double x = rng_double(&r);
        if (x < pw)
            w++;
        else if (x < pw + d)
            dr++;
        else
            l++;
        StatsResult st;
        stats_trinomial(w, dr, l, &st);
        double llr = stats_sprt_llr(st.n, st.score, st.var, elo0, elo1);
        if (llr >= hi || llr <= lo) {
            *games = n;
            return llr >= hi ? 1 : -1;
        }
    }
    *games = 200000;
    return 0;
}

static void test_sprt_simulated(void **state)
{
    (void)state;
    int h1 = 0, h0 = 0, games;
    /* clearly stronger (+60 against 0/20): H1, and quickly */
    for (int i = 0; i < 20; i++) {
        if (simulate_sprt(60, 0, 20, 100 + (uint64_t)i, &games) == 1)
            h1++;
        assert_true(games < 5000);
    }
    assert_true(h1 >= 19);
    /* clearly weaker: H0 */
    for (int i = 0; i < 20; i++)
        if (simulate_sprt(-40, 0, 20, 200 + (uint64_t)i, &games) == -1)
            h0++;
    assert_true(h0 >= 19);
    /* exactly elo0: H0 most of the time (alpha = 5%) */
    h0 = 0;
    for (int i = 0; i < 40; i++)
        if (simulate_sprt(0, 0, 20, 300 + (uint64_t)i, &games) == -1)
            h0++;
    assert_true(h0 >= 34);
    /* exactly elo1: H1 most of the time (beta = 5%) */
    h1 = 0;
    for (int i = 0; i < 40; i++)
        if (simulate_sprt(20, 0, 20, 400 + (uint64_t)i, &games) == 1)
            h1++;
    assert_true(h1 >= 34);
}

static void test_parse_settings(void **state)
{
    (void)state;
    MatchConfig c;
    PlyError err = {{0}};
    memset(&c, 0, sizeof c);
    assert_int_equal(match_parse_tc("100ms", &c, &err), 0);
    assert_int_equal(c.tc, TC_MOVE);
    assert_int_equal(c.tc_ms, 100);
    assert_int_equal(match_parse_tc("30s+0.1s", &c, &err), 0);
    assert_int_equal(c.tc, TC_GAME);
    assert_int_equal(c.tc_ms, 30000);
    assert_int_equal(c.inc_ms, 100);
    assert_int_equal(match_parse_tc("fast", &c, &err), -1);
    assert_non_null(strstr(err.msg, "fast"));
    assert_int_equal(match_parse_tc("0ms", &c, &err), -1);
    assert_int_equal(match_parse_tc("1s+x", &c, &err), -1);

    Participant p;
    assert_int_equal(match_parse_engine("e=./eng --x 1,y=2", &p, &err), 0);
    assert_string_equal(p.name, "e");
    assert_string_equal(p.cmd, "./eng --x 1,y=2");
    assert_int_equal(p.kind, PART_UGI);
    assert_int_equal(match_parse_engine("cc=prog a,proto=codecup", &p, &err),
                     0);
    assert_int_equal(p.kind, PART_CODECUP);
    assert_string_equal(p.cmd, "prog a");
    assert_int_equal(match_parse_engine("x=prog,proto=uci", &p, &err), 0);
    assert_int_equal(p.kind, PART_UCI);
    assert_int_equal(match_parse_engine("x=prog,proto=usi", &p, &err), 0);
    assert_int_equal(p.kind, PART_USI);
    assert_int_equal(match_parse_engine("x=prog,proto=cecp", &p, &err), 0);
    assert_int_equal(p.kind, PART_CECP);
    assert_int_equal(match_parse_engine("x=prog,proto=xboard", &p, &err), 0);
    assert_int_equal(p.kind, PART_CECP);
    assert_string_equal(p.cmd, "prog");
    assert_int_equal(match_parse_engine("x=prog,proto=foo", &p, &err), -1);
    assert_int_equal(match_parse_engine("=prog", &p, &err), -1);
    assert_int_equal(match_parse_engine("noequals", &p, &err), -1);
    assert_int_equal(match_parse_engine("e=", &p, &err), -1);
    /* engine options, after or before proto */
    assert_int_equal(match_parse_engine("sf=/usr/games/stockfish,proto=uci,"
                                        "option.Skill Level=8,option.Hash=16",
                                        &p, &err), 0);
    assert_int_equal(p.kind, PART_UCI);
    assert_string_equal(p.cmd, "/usr/games/stockfish");
    assert_string_equal(p.opts, "Skill Level=8\nHash=16\n");
    assert_int_equal(match_parse_engine("g=gnuchess --xboard,option.A=,"
                                        "proto=cecp", &p, &err), 0);
    assert_int_equal(p.kind, PART_CECP);
    assert_string_equal(p.cmd, "gnuchess --xboard");
    assert_string_equal(p.opts, "A=\n");
    /* bad settings, and options for protocols without them */
    assert_int_equal(match_parse_engine("x=prog,option.=1", &p, &err), -1);
    assert_int_equal(match_parse_engine("x=prog,option.A", &p, &err), -1);
    assert_int_equal(match_parse_engine("x=prog,proto=uci,foo=1", &p, &err),
                     -1);
    assert_int_equal(match_parse_engine("x=prog,proto=gtp,option.A=1", &p,
                                        &err), -1);
    assert_non_null(strstr(err.msg, "no options"));
    assert_int_equal(match_parse_engine("x=prog,proto=codecup,option.A=1",
                                        &p, &err), -1);
}

static MatchConfig *kalah_config(const char *a, const char *b,
                                 const char *c3)
{
    MatchConfig *c = calloc(1, sizeof *c);
    c->g = game_find("kalah");
    c->games = 6;
    c->seed = 11;
    const char *names[3] = {a, b, c3};
    for (int i = 0; i < 3 && names[i]; i++) {
        c->parts[i].kind = PART_BOT;
        snprintf(c->parts[i].name, sizeof c->parts[i].name, "%s", names[i]);
        c->nparts++;
    }
    PlyError err = {{0}};
    if (match_prepare(c, &err))
        fail_msg("%s", err.msg);
    return c;
}

static void test_schedule(void **state)
{
    (void)state;
    MatchConfig *c = kalah_config("random", "random:seed=2", NULL);
    assert_int_equal(c->npairings, 1);
    assert_int_equal(c->total, 6);
    assert_string_equal(c->parts[0].label, "random");
    for (uint64_t i = 0; i < c->total; i++) {
        int p, seats[PLY_MAX_PLAYERS];
        match_schedule(c, i, &p, seats);
        assert_int_equal(p, 0);
        /* even games: A first; odd: seats swapped */
        assert_int_equal(seats[0], (int)(i % 2));
        assert_int_equal(seats[1], (int)(1 - i % 2));
    }
    free(c);
    c = kalah_config("random", "random", "random:seed=3");
    assert_int_equal(c->npairings, 3);
    assert_int_equal(c->total, 18);
    assert_string_equal(c->parts[0].label, "random#1");
    assert_string_equal(c->parts[1].label, "random#2");
    int met[3][3] = {{0}};
    for (uint64_t i = 0; i < c->total; i++) {
        int p, seats[PLY_MAX_PLAYERS];
        match_schedule(c, i, &p, seats);
        assert_int_not_equal(seats[0], seats[1]);
        met[seats[0]][seats[1]]++;
    }
    /* each ordered pair (who sits first) exactly games/2 times */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            assert_int_equal(met[a][b], a == b ? 0 : 3);
    free(c);
}

static void test_games_reproducible(void **state)
{
    (void)state;
    MatchConfig *c = kalah_config("random", "random:seed=2", NULL);
    c->open_plies = 4;
    PlyError err = {{0}};
    for (uint64_t i = 0; i < 4; i++) {
        GameRecord r1, r2;
        assert_int_equal(match_play_game(c, i, &r1, &err), 0);
        assert_int_equal(match_play_game(c, i, &r2, &err), 0);
        assert_int_equal(r1.nmoves, r2.nmoves);
        for (int k = 0; k < r1.nmoves; k++)
            assert_string_equal(r1.moves[k], r2.moves[k]);
        assert_int_equal(r1.reason, REASON_NORMAL);
        assert_int_equal(r1.opening_plies, 4);
        assert_true(r1.result[0] == -r1.result[1]);
        /* the record replays to the recorded result */
        char *line = match_record_json(c, &r1);
        assert_non_null(line);
        assert_int_equal(line[strlen(line) - 1], '\n');
        /* one line: the only newline ends it */
        assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        assert_non_null(o);
        assert_string_equal(json_string_value(json_object_get(o, "game")),
                            "kalah");
        assert_int_equal(json_integer_value(json_object_get(o, "index")),
                         (json_int_t)i);
        json_t *mv = json_object_get(o, "moves");
        char moves[4096] = "";
        for (size_t k = 0; k < json_array_size(mv); k++) {
            strcat(moves, json_string_value(json_array_get(mv, k)));
            strcat(moves, " ");
        }
        void *st = tl_position("kalah", NULL,
                               json_string_value(json_object_get(o, "setup")),
                               moves);
        const GameVtbl *g = game_find("kalah");
        assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
        double res[2];
        g->returns(st, res);
        json_t *jr = json_object_get(o, "result");
        assert_true(json_number_value(json_array_get(jr, 0)) == res[0]);
        free(st);
        json_decref(o);
        free(line);
        match_record_free(&r1);
        match_record_free(&r2);
    }
    /* a pair shares its opening */
    GameRecord a, b;
    assert_int_equal(match_play_game(c, 2, &a, &err), 0);
    assert_int_equal(match_play_game(c, 3, &b, &err), 0);
    for (int k = 0; k < 4; k++)
        assert_string_equal(a.moves[k], b.moves[k]);
    match_record_free(&a);
    match_record_free(&b);
    free(c);
}

/* A three-player race with dice, to run the referee on chance nodes and
 * seat rotations (no such game is registered on every branch): a die
 * roll of 1..3 (chance), then the mover steps 1 or the roll; the first to
 * reach 10 wins. */
typedef struct Race {
    uint8_t pos[3], turn, roll;
} Race;

static int race_init(void *st, const int *opt, uint64_t seed, PlyError *err)
{
    (void)opt; (void)seed; (void)err;
    memset(st, 0, sizeof(Race));
    return 0;
}
static int race_over(const Race *r)
{
    return r->pos[0] >= 10 || r->pos[1] >= 10 || r->pos[2] >= 10;
}
static int race_to_move(const void *st)
{
    const Race *r = st;
    return race_over(r) ? PLAYER_TERMINAL : r->roll ? r->turn : PLAYER_CHANCE;
}
static int race_gen(const void *st, Move *out)
{
    const Race *r = st;
    if (race_over(r))
        return 0;
    if (!r->roll) {
        for (int i = 0; i < 3; i++)
            out[i] = (Move)(i + 1);
        return 3;
    }
    out[0] = 1;
    if (r->roll == 1)
        return 1;
    out[1] = r->roll;
    return 2;
}
static int race_chance(const void *st, Move *out, double *p)
{
    for (int i = 0; i < 3; i++)
        p[i] = 1.0 / 3;
    return race_gen(st, out);
}
static void race_make(void *st, Move m)
{
    Race *r = st;
    if (!r->roll) {
        r->roll = (uint8_t)m;
        return;
    }
    r->pos[r->turn] = (uint8_t)(r->pos[r->turn] + m);
    r->roll = 0;
    r->turn = (uint8_t)((r->turn + 1) % 3);
}
static void race_returns(const void *st, double *out)
{
    const Race *r = st;
    for (int i = 0; i < 3; i++)
        out[i] = r->pos[i] >= 10 ? 1 : -0.5;
}
static uint64_t race_hash(const void *st)
{
    const Race *r = st;
    return ply_mix64((uint64_t)r->pos[0] | (uint64_t)r->pos[1] << 8 |
                     (uint64_t)r->pos[2] << 16 | (uint64_t)r->turn << 24 |
                     (uint64_t)r->roll << 32);
}
static int race_to_text(const void *st, char *buf, size_t n)
{
    const Race *r = st;
    return snprintf(buf, n, "%d,%d,%d,%d,%d", r->pos[0], r->pos[1],
                    r->pos[2], r->turn, r->roll);
}
static int race_from_text(void *st, const char *s, PlyError *err)
{
    int a, b, c, t, d;
    if (sscanf(s, "%d,%d,%d,%d,%d", &a, &b, &c, &t, &d) != 5 || a < 0 ||
        a > 12 || b < 0 || b > 12 || c < 0 || c > 12 || t < 0 || t > 2 ||
        d < 0 || d > 3)
        return ply_fail(err, "bad race setup '%s'", s);
    Race *r = st;
    r->pos[0] = (uint8_t)a, r->pos[1] = (uint8_t)b, r->pos[2] = (uint8_t)c;
    r->turn = (uint8_t)t, r->roll = (uint8_t)d;
    return 0;
}
static int race_move_to_text(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    return snprintf(buf, n, "%d", (int)m);
}
static int race_text_to_move(const void *st, const char *s, Move *m,
                             PlyError *err)
{
    Move moves[3];
    int n = race_gen(st, moves);
    for (int i = 0; i < n; i++)
        if (s[0] == (char)('0' + moves[i]) && !s[1]) {
            *m = moves[i];
            return 0;
        }
    return ply_fail(err, "bad race move '%s'", s);
}
static int race_render(const void *st, char *buf, size_t n)
{
    return race_to_text(st, buf, n);
}
static const char *const race_players[] = {"A", "B", "C"};
static const GameVtbl race = {
    .info = {.name = "race", .title = "dice race", .num_players = 3,
             .max_moves = 3, .max_game_length = 100,
             .state_size = sizeof(Race), .flags = GAME_CHANCE,
             .player_names = race_players, .notation = "1..3",
             .rules = "race to 10"},
    .init = race_init, .to_move = race_to_move, .gen_moves = race_gen,
    .make = race_make, .returns = race_returns, .hash = race_hash,
    .to_text = race_to_text, .from_text = race_from_text,
    .move_to_text = race_move_to_text, .text_to_move = race_text_to_move,
    .render = race_render, .chance_outcomes = race_chance,
};

static void test_three_players_with_chance(void **state)
{
    (void)state;
    MatchConfig *c = calloc(1, sizeof *c);
    c->g = &race;
    c->games = 6;
    c->seed = 5;
    c->jobs = 2;
    for (int i = 0; i < 3; i++) {
        c->parts[i].kind = PART_BOT;
        snprintf(c->parts[i].name, sizeof c->parts[i].name,
                 "random:seed=%d", i + 1);
    }
    c->nparts = 3;
    PlyError err = {{0}};
    if (match_prepare(c, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(c->npairings, 1);
    assert_int_equal(c->total, 6);
    /* the three rotations first, then the other three orders: all six
     * seatings once */
    assert_int_equal(match_seatings(c), 6);
    int seen[6] = {0};
    for (uint64_t i = 0; i < 6; i++) {
        int p, seats[PLY_MAX_PLAYERS];
        match_schedule(c, i, &p, seats);
        if (i < 3)
            for (int s = 0; s < 3; s++)
                assert_int_equal(seats[s], (int)((s + i % 3) % 3));
        assert_true(seats[0] != seats[1] && seats[1] != seats[2] &&
                    seats[0] != seats[2]);
        seen[seats[0] * 2 + (seats[1] > seats[2])]++;
    }
    for (int k = 0; k < 6; k++)
        assert_int_equal(seen[k], 1);
    for (uint64_t i = 0; i < 6; i++) {
        GameRecord r1, r2;
        assert_int_equal(match_play_game(c, i, &r1, &err), 0);
        assert_int_equal(match_play_game(c, i, &r2, &err), 0);
        assert_int_equal(r1.reason, REASON_NORMAL);
        assert_int_equal(r1.nmoves, r2.nmoves);
        for (int k = 0; k < r1.nmoves; k++)
            assert_string_equal(r1.moves[k], r2.moves[k]);
        /* replay: chance outcomes are in the record */
        Race st;
        race_init(&st, NULL, 0, NULL);
        for (int k = 0; k < r1.nmoves; k++) {
            Move m;
            assert_int_equal(race_text_to_move(&st, r1.moves[k], &m, &err),
                             0);
            race_make(&st, m);
        }
        assert_true(race_over(&st));
        double res[3];
        race_returns(&st, res);
        for (int s = 0; s < 3; s++)
            assert_true(res[s] == r1.result[s]);
        match_record_free(&r1);
        match_record_free(&r2);
    }
    /* the whole match on two threads, records to a file */
    char path[] = "/tmp/ply-test-match-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    c->out = path;
    c->progress = 0;
    FILE *out = tmpfile();
    assert_int_equal(match_run(c, out, &err), 0);
    fclose(out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[8192];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        assert_non_null(strstr(line, "\"game\":\"race\""));
        lines++;
    }
    fclose(f);
    unlink(path);
    assert_int_equal(lines, 6);
    free(c);
}

static void test_engine_pipes(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    Engine e;
    PlyError err = {{0}};
    char line[256];
    assert_int_equal(engine_start(&e, "read x; echo \"got $x\"; echo bye",
                                  1, &err), 0);
    assert_int_equal(engine_send(&e, now_ms() + 1000, "hello"), 0);
    assert_int_equal(engine_read_line(&e, line, sizeof line,
                                      now_ms() + 2000), 1);
    assert_string_equal(line, "got hello");
    assert_int_equal(engine_read_line(&e, line, sizeof line,
                                      now_ms() + 2000), 1);
    assert_string_equal(line, "bye");
    assert_int_equal(engine_read_line(&e, line, sizeof line,
                                      now_ms() + 2000), -1);
    engine_stop(&e, 100);
    /* a hung program: the deadline holds and stop() kills it */
    assert_int_equal(engine_start(&e, "sleep 30", 1, &err), 0);
    int64_t t0 = now_ms();
    assert_int_equal(engine_read_line(&e, line, sizeof line, t0 + 100), 0);
    assert_true(now_ms() - t0 < 2000);
    engine_stop(&e, 50);
    assert_true(now_ms() - t0 < 3000);
    /* writing to a program that is gone: an error, not SIGPIPE */
    assert_int_equal(engine_start(&e, "exit 0", 1, &err), 0);
    usleep(100000);
    int rc = 0;
    for (int i = 0; i < 100 && !rc; i++)
        rc = engine_send(&e, now_ms() + 100, "x");
    assert_int_equal(rc, -1);
    engine_stop(&e, 50);
    /* a program that leaves a helper holding its output: its exit is
     * seen at once, and stop() kills the helper (the whole group) */
    /* (orphans come to this process, a subreaper, so that a killed one
     * is reaped here rather than left a zombie in the group) */
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
    assert_int_equal(engine_start(&e, "sleep 30 & echo started; exit 3", 1,
                                  &err), 0);
    pid_t group = e.pid;
    t0 = now_ms();
    assert_int_equal(engine_read_line(&e, line, sizeof line, t0 + 10000), 1);
    assert_string_equal(line, "started");
    assert_int_equal(engine_read_line(&e, line, sizeof line, t0 + 10000),
                     -1);
    assert_true(now_ms() - t0 < 2000);
    assert_true(engine_exited(&e));
    assert_int_equal(kill(-group, 0), 0);     /* the helper still runs */
    engine_stop(&e, 0);
    assert_true(now_ms() - t0 < 3000);
    for (int i = 0; i < 100 && waitpid(-1, NULL, WNOHANG) >= 0; i++)
        usleep(10000);  /* until ECHILD: the killed helper reaped */
    assert_int_equal(kill(-group, 0), -1);
    assert_int_equal(errno, ESRCH);
    prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    assert_int_equal(engine_send(&e, now_ms() + 100, "x"), -1);
}

/* The watchdog kills a registered group when this process is gone: here
 * a forked copy of the test starts the engine and is SIGKILLed. */
static void test_engine_watchdog(void **state)
{
    (void)state;
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        EngineWatch w;
        Engine e;
        PlyError err = {{0}};
        if (engine_watch_start(&w, &err) ||
            engine_start_watched(&e, "sleep 30 & sleep 30", 1, &w, &err))
            _exit(1);
        pid_t g = e.pid;
        if (write(p[1], &g, sizeof g) != sizeof g)
            _exit(1);
        pause();
        _exit(0);
    }
    close(p[1]);
    pid_t group = 0;
    assert_int_equal(read(p[0], &group, sizeof group), (ssize_t)sizeof group);
    close(p[0]);
    assert_true(group > 0);
    assert_int_equal(kill(-group, 0), 0);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    /* orphans come to this process (a subreaper), which reaps them: the
     * group is empty once its members are killed */
    int gone = 0;
    for (int i = 0; i < 200 && !gone; i++) {
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        gone = kill(-group, 0) < 0 && errno == ESRCH;
        if (!gone)
            usleep(20000);
    }
    prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    assert_true(gone);
}


/* Four players: 24 games are the 24 seatings, each bot 6 times a seat. */
static void test_four_player_seatings(void **state)
{
    (void)state;
    MatchConfig *c = calloc(1, sizeof *c);
    c->g = game_find("splut");
    assert_non_null(c->g);
    c->games = 48;
    c->seed = 1;
    for (int i = 0; i < 4; i++) {
        c->parts[i].kind = PART_BOT;
        snprintf(c->parts[i].name, sizeof c->parts[i].name,
                 "random:seed=%d", i + 1);
    }
    c->nparts = 4;
    PlyError err = {{0}};
    if (match_prepare(c, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(match_seatings(c), 24);
    int seen[256] = {0}, seat[4][4] = {{0}};
    for (uint64_t i = 0; i < 48; i++) {
        int p, seats[PLY_MAX_PLAYERS];
        match_schedule(c, i, &p, seats);
        int code = 0;
        for (int s = 0; s < 4; s++) {
            code = code * 4 + seats[s];
            seat[seats[s]][s]++;
        }
        seen[code]++;
    }
    int orders = 0;
    for (int k = 0; k < 256; k++) {
        assert_true(seen[k] == 0 || seen[k] == 2);
        orders += seen[k] == 2;
    }
    assert_int_equal(orders, 24);
    for (int b = 0; b < 4; b++)
        for (int s = 0; s < 4; s++)
            assert_int_equal(seat[b][s], 12);
    free(c);
}

/* Players from options: splut players=2 seats two participants (duels,
 * pairings of two with four participants), players=3 three (3! = 6
 * seatings). */
static void test_seats_from_options(void **state)
{
    (void)state;
    MatchConfig *c = calloc(1, sizeof *c);
    c->g = game_find("splut");
    c->games = 6;
    c->seed = 1;
    for (int i = 0; i < 4; i++) {
        c->parts[i].kind = PART_BOT;
        snprintf(c->parts[i].name, sizeof c->parts[i].name,
                 "random:seed=%d", i + 1);
    }
    snprintf(c->options, sizeof c->options, "players=2");
    c->nparts = 2;
    PlyError err = {{0}};
    if (match_prepare(c, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(match_players(c), 2);
    assert_int_equal(match_seatings(c), 2);
    assert_int_equal(c->npairings, 1);
    c->nparts = 4;      /* a round robin of duels */
    assert_int_equal(match_prepare(c, &err), 0);
    assert_int_equal(c->npairings, 6);
    snprintf(c->options, sizeof c->options, "players=3");
    c->nparts = 3;
    assert_int_equal(match_prepare(c, &err), 0);
    assert_int_equal(match_players(c), 3);
    assert_int_equal(match_seatings(c), 6);
    int seen[64] = {0};
    for (uint64_t i = 0; i < 6; i++) {
        int p, seats[PLY_MAX_PLAYERS];
        match_schedule(c, i, &p, seats);
        seen[seats[0] * 16 + seats[1] * 4 + seats[2]]++;
    }
    int orders = 0;
    for (int k = 0; k < 64; k++)
        orders += seen[k] == 1;
    assert_int_equal(orders, 6);
    c->nparts = 4;
    assert_int_not_equal(match_prepare(c, &err), 0);
    assert_non_null(strstr(err.msg, "3 participants"));
    snprintf(c->options, sizeof c->options, "players=7");
    assert_int_not_equal(match_prepare(c, &err), 0);
    free(c);
}

/* Placements with ties; Bradley-Terry ratings on Plackett-Luce games
 * (whose pairs follow Bradley-Terry exactly): estimates near the truth,
 * and the 95% intervals cover it in most of many small matches. */
static void test_place_ratings(void **state)
{
    (void)state;
    PlaceStats *ps = calloc(1, sizeof *ps);
    int who[4] = {2, 0, 3, 1};
    double res[4] = {1, 0, 0, -1};
    stats_place_add(ps, 4, who, res);
    assert_true(ps->place[2][0] == 1 && ps->place[0][1] == 0.5 &&
                ps->place[0][2] == 0.5 && ps->place[3][1] == 0.5 &&
                ps->place[1][3] == 1);
    assert_true(ps->place_sum[0] == 2.5 && ps->place_sum[1] == 4);
    assert_true(ps->pair[2][1] == 1 && ps->pair[0][3] == 0.5);
    double elo[4], lo[4], hi[4];
    assert_int_equal(stats_place_ratings(ps, elo, lo, hi), 0);
    assert_true(isnan(lo[0]));      /* one game: no interval */
    const double gam[4] = {1, 2, 4, 8};
    double truth[4], mean = 0;
    for (int i = 0; i < 4; i++)
        mean += (truth[i] = 400 * log10(gam[i])) / 4;
    for (int i = 0; i < 4; i++)
        truth[i] -= mean;
    Rng r;
    rng_seed(&r, 12);
    int covered = 0, total = 0;
    for (int rep = 0; rep < 60; rep++) {
        memset(ps, 0, sizeof *ps);
        int games = rep == 0 ? 4000 : 300;
        for (int gi = 0; gi < games; gi++) {
            /* Plackett-Luce: draw first place by strength, then second... */
            int left[4] = {0, 1, 2, 3}, nl = 4;
            double result[4];
            for (int place = 0; place < 4; place++) {
                double sum = 0;
                for (int k = 0; k < nl; k++)
                    sum += gam[left[k]];
                double x = rng_double(&r) * sum;
                int k = 0;
                while (k < nl - 1 && x >= gam[left[k]]) {
                    x -= gam[left[k]];
                    k++;
                }
                result[left[k]] = 3 - place;
                left[k] = left[--nl];
            }
            int id[4] = {0, 1, 2, 3};
            stats_place_add(ps, 4, id, result);
        }
        assert_int_equal(stats_place_ratings(ps, elo, lo, hi), 0);
        for (int i = 0; i < 4; i++) {
            assert_true(lo[i] < elo[i] && elo[i] < hi[i]);
            if (rep == 0 && fabs(elo[i] - truth[i]) > 20)
                fail_msg("rating %d: %.1f, truth %.1f", i, elo[i], truth[i]);
            if (rep) {
                total++;
                covered += lo[i] <= truth[i] && truth[i] <= hi[i];
            }
        }
    }
    printf("intervals covered the truth %d of %d times\n", covered, total);
    if (covered < total * 85 / 100 || covered > total * 99 / 100)
        fail_msg("95%% intervals covered the truth %d of %d times", covered,
                 total);
    free(ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_basics),
        cmocka_unit_test(test_trinomial),
        cmocka_unit_test(test_pentanomial),
        cmocka_unit_test(test_sprt_formula),
        cmocka_unit_test(test_sprt_simulated),
        cmocka_unit_test(test_parse_settings),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_games_reproducible),
        cmocka_unit_test(test_three_players_with_chance),
        cmocka_unit_test(test_four_player_seatings),
        cmocka_unit_test(test_seats_from_options),
        cmocka_unit_test(test_place_ratings),
        cmocka_unit_test(test_engine_pipes),
        cmocka_unit_test(test_engine_watchdog),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
