/* test_mcts.c — the mcts bot: solver proofs checked by an exhaustive
 * search written here, reproducibility, tiny pools, threads, tree reuse,
 * RAVE, chance nodes and a three-player game defined here. */
#include "testlib.h"

#include <math.h>

#include "core/bot.h"

/* ---------------------------------------------------------------------- */
/* Exhaustive max^n search (minimax for two players, expectation at chance
 * nodes). Fills v[] with the value per player; returns -1 when the node
 * budget runs out. */

static int exhaustive(const GameVtbl *g, const void *st, double *v,
                      long *budget)
{
    int np = g->info.num_players;
    if (--*budget < 0)
        return -1;
    int p = g->to_move(st);
    if (p == PLAYER_TERMINAL) {
        g->returns(st, v);
        return 0;
    }
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
    void *c = malloc(g->info.state_size);
    int n = p == PLAYER_CHANCE ? g->chance_outcomes(st, mv, pr)
                               : g->gen_moves(st, mv);
    double cv[PLY_MAX_PLAYERS];
    int rc = 0;
    for (int i = 0; i < np; i++)
        v[i] = p == PLAYER_CHANCE ? 0 : -HUGE_VAL;
    for (int i = 0; i < n && rc == 0; i++) {
        memcpy(c, st, g->info.state_size);
        g->make(c, mv[i]);
        rc = exhaustive(g, c, cv, budget);
        if (rc)
            break;
        if (p == PLAYER_CHANCE) {
            for (int j = 0; j < np; j++)
                v[j] += pr[i] * cv[j];
        } else if (cv[p] > v[p]) {
            memcpy(v, cv, sizeof(double) * (size_t)np);
        }
    }
    free(mv);
    free(pr);
    free(c);
    return rc;
}

static int is_legal(const GameVtbl *g, const void *st, Move m)
{
    return state_is_legal(g, st, m);
}

/* A bot; mcts gets a small pool unless the spec sets one (the default
 * 256 MiB is slow to allocate under ASan). */
static Bot *mk(const GameVtbl *g, const char *spec, uint64_t seed)
{
    PlyError err = {{0}};
    char buf[256];
    if (!strncmp(spec, "mcts", 4) && !strstr(spec, "mem="))
        snprintf(buf, sizeof buf, "%s%smem=16", spec,
                 strchr(spec, ':') ? "," : ":");
    else
        snprintf(buf, sizeof buf, "%s", spec);
    Bot *b = bot_new(g, buf, seed, &err);
    if (!b)
        fail_msg("bot '%s': %s", spec, err.msg);
    return b;
}

/* Checks one position: whatever mcts proves, the exhaustive search must
 * confirm; and when the tree is small, mcts must prove wins and losses and
 * pick an optimal move. Returns 1 if it was checked. */
static int check_solver(const GameVtbl *g, const void *st, const char *spec,
                        uint64_t iters, long cap, long must_prove_below)
{
    int p = g->to_move(st);
    if (p < 0)
        return 0;
    double v[PLY_MAX_PLAYERS];
    long budget = cap;
    if (exhaustive(g, st, v, &budget))
        return 0;
    long used = cap - budget;
    /* big trees are only checked for false proofs: fewer iterations */
    if (used >= must_prove_below && iters > 5000)
        iters = 5000;
    Bot *b = mk(g, spec, 42);
    Limits lim = {0};
    lim.nodes = iters;
    SearchInfo si;
    Move m = bot_choose(b, st, &lim, &si);
    char text[256] = "";
    g->to_text(st, text, sizeof text);
    assert_true(is_legal(g, st, m));
    /* the value of the chosen move */
    void *c = malloc(g->info.state_size);
    memcpy(c, st, g->info.state_size);
    g->make(c, m);
    double cv[PLY_MAX_PLAYERS];
    long b2 = cap;
    assert_int_equal(exhaustive(g, c, cv, &b2), 0);
    free(c);
    if (si.proven == 1) {
        if (!(v[p] >= 1.0 && cv[p] >= 1.0))
            fail_msg("%s %s: mcts proves a win, exhaustive says %g (move "
                     "%g)", g->info.name, text, v[p], cv[p]);
    } else if (si.proven == -1) {
        if (!(v[p] <= -1.0))
            fail_msg("%s %s: mcts proves a loss, exhaustive says %g",
                     g->info.name, text, v[p]);
    }
    int np = g->info.num_players;
    int solver_game = np == 1 || (np == 2 && (g->info.flags & GAME_ZERO_SUM));
    if (!solver_game)
        assert_int_equal(si.proven, 0);   /* no solver beyond two players */
    if (used < must_prove_below && solver_game) {
        if (v[p] >= 1.0 && si.proven != 1)
            fail_msg("%s %s: a win (%ld nodes) not proven in %llu "
                     "iterations", g->info.name, text, used,
                     (unsigned long long)iters);
        if (v[p] <= -1.0 && si.proven != -1)
            fail_msg("%s %s: a loss (%ld nodes) not proven", g->info.name,
                     text, used);
        /* a solved root stops the search early; then the move is optimal */
        if (si.nodes < iters && cv[p] < v[p] - 1e-9)
            fail_msg("%s %s: solved, but the move is worth %g of %g",
                     g->info.name, text, cv[p], v[p]);
    }
    bot_free(b);
    return 1;
}

static void random_position(const GameVtbl *g, void *st, Rng *r, int plies)
{
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    for (int i = 0; i < plies && g->to_move(st) != PLAYER_TERMINAL; i++) {
        int n = g->gen_moves(st, mv);
        void *save = malloc(g->info.state_size);
        memcpy(save, st, g->info.state_size);
        g->make(st, mv[rng_below(r, (uint32_t)n)]);
        if (g->to_move(st) == PLAYER_TERMINAL) {   /* stay before the end */
            memcpy(st, save, g->info.state_size);
            free(save);
            break;
        }
        free(save);
    }
    free(mv);
}

static void test_solver_kalah(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    const char *opts[] = {"houses=2,seeds=1", "houses=2,seeds=2",
                          "houses=2,seeds=3", "houses=3,seeds=1",
                          "houses=3,seeds=2", "houses=3,seeds=3"};
    const char *specs[] = {"mcts", "mcts:grave=20", "mcts:expand=1,c=0.5",
                           "mcts:ept=4,im=0.4"};
    int checked = 0, wins = 0, losses = 0;
    Rng r;
    rng_seed(&r, 7);
    for (int o = 0; o < 6; o++) {
        for (int k = 0; k < 8; k++) {
            void *st = tl_position("kalah", opts[o], NULL, NULL);
            random_position(g, st, &r, k);
            double v[2];
            long budget = 2000000;
            if (exhaustive(g, st, v, &budget) == 0 &&
                g->to_move(st) >= 0) {
                int p = g->to_move(st);
                wins += v[p] >= 1;
                losses += v[p] <= -1;
            }
            checked += check_solver(g, st, specs[k % 4], 200000, 2000000,
                                    20000);
            free(st);
        }
    }
    assert_true(checked >= 40);
    /* the sample has both outcomes, so both proof paths ran */
    assert_true(wins > 0);
    assert_true(losses > 0);
}

/* exact=1 (the game's exact hook at expansion, zuniq's solver): proofs
 * the exhaustive search confirms, and more of them than without it at
 * the same small number of iterations. */
static void test_exact_hook(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("zuniq");
    assert_non_null(g->exact);
    Rng r;
    rng_seed(&r, 11);
    int checked = 0, proven[2] = {0, 0};
    for (int k = 0; k < 24; k++) {
        /* near the end: proofs checked by the exhaustive search */
        void *st = tl_position("zuniq", NULL, NULL, NULL);
        random_position(g, st, &r, 31 + k % 5);
        checked += check_solver(g, st, "mcts:exact=1", 5000, 2000000,
                                20000);
        free(st);
        /* another: how often 40 iterations prove the result */
        st = tl_position("zuniq", NULL, NULL, NULL);
        random_position(g, st, &r, 31 + k % 5);
        for (int e = 0; e < 2; e++) {
            Bot *b = mk(g, e ? "mcts:exact=1" : "mcts", 5);
            Limits lim = {0};
            lim.nodes = 40;
            SearchInfo si;
            bot_choose(b, st, &lim, &si);
            proven[e] += si.proven != 0;
            bot_free(b);
        }
        free(st);
    }
    print_message("exact hook: %d checked, proven %d with, %d without\n",
                  checked, proven[1], proven[0]);
    assert_true(checked >= 8);
    assert_true(proven[1] > proven[0]);
}

/* Every registered game: positions a few plies before the end of random
 * games, where an exhaustive search finishes. */
static void test_solver_all_games(void **state)
{
    (void)state;
    int games = 0, games_checked = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.flags & GAME_HIDDEN)
            continue;
        size_t sz = g->info.state_size;
        int len = g->info.max_game_length;
        unsigned char *hist = malloc(sz * (size_t)(len + 1));
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        double *pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
        int checked = 0;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            void *st = tl_position(g->info.name, NULL, NULL, NULL);
            Rng r;
            rng_seed(&r, seed);
            int n = 0;
            memcpy(hist, st, sz);
            while (g->to_move(st) != PLAYER_TERMINAL && n < len) {
                int p = g->to_move(st);
                int k = p == PLAYER_CHANCE ? g->chance_outcomes(st, mv, pr)
                                           : g->gen_moves(st, mv);
                g->make(st, mv[rng_below(&r, (uint32_t)k)]);
                memcpy(hist + sz * (size_t)++n, st, sz);
            }
            for (int back = 2; back <= 10; back += 4) {
                if (n - back < 0)
                    continue;
                void *pos = hist + sz * (size_t)(n - back);
                if (g->to_move(pos) < 0)
                    continue;
                checked += check_solver(g, pos, "mcts", 30000, 100000, 3000);
                Bot *b = mk(g, seed & 1 ? "mcts:rave=1,threads=2"
                                        : "mcts:grave=10", seed);
                Limits lim = {0};
                lim.nodes = 500;
                assert_true(is_legal(g, pos, bot_choose(b, pos, &lim, NULL)));
                bot_free(b);
            }
            free(st);
        }
        /* Some games' random endings are too big for the exhaustive
         * search (minishogi's games run into the ply cap); the games that
         * the solver issue names must always be checked. */
        const char *must[] = {"kalah", "zuniq", "reversi",
                              "draughts-russian"};
        for (int i = 0; i < 4; i++)
            if (!checked && !strcmp(g->info.name, must[i]))
                fail_msg("%s: no endgame position small enough to check",
                         g->info.name);
        if (!checked)
            print_message("solver: %s has no endgame small enough\n",
                          g->info.name);
        games++;
        games_checked += checked > 0;
        free(hist);
        free(mv);
        free(pr);
    }
    /* most games have small endgames */
    assert_true(2 * games_checked >= games);
}

static void same_info(const SearchInfo *a, const SearchInfo *b)
{
    assert_true(a->best == b->best);
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->nodes, b->nodes);
    assert_int_equal(a->playouts, b->playouts);
    assert_int_equal(a->top_len, b->top_len);
    for (int i = 0; i < a->top_len; i++) {
        assert_true(a->top[i] == b->top[i]);
        assert_int_equal(a->top_visits[i], b->top_visits[i]);
        assert_true(a->top_value[i] == b->top_value[i]);
    }
}

static void test_reproducible(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    const char *specs[] = {"mcts:iterations=20000",
                           "mcts:iterations=5000,rave=1,playouts=3",
                           "mcts:iterations=5000,policy=random,grave=30,"
                           "im=0.3"};
    for (int s = 0; s < 3; s++) {
        void *st = tl_position("kalah", NULL, NULL, "3 1");
        Bot *b = mk(g, specs[s], 9);
        SearchInfo a, c, d;
        bot_choose(b, st, NULL, &a);
        assert_int_equal(a.nodes, s ? 5000 : 20000);
        assert_true(a.playouts > 0);
        assert_true(a.top_len > 0);
        bot_new_game(b);
        bot_choose(b, st, NULL, &c);
        same_info(&a, &c);
        Bot *b2 = mk(g, specs[s], 9);
        bot_choose(b2, st, NULL, &d);
        same_info(&a, &d);
        /* another seed searches differently (a check that can fail) */
        Bot *b3 = mk(g, specs[s], 10);
        bot_choose(b3, st, NULL, &d);
        int differs = d.playouts != a.playouts || d.best != a.best;
        for (int i = 0; i < a.top_len && i < d.top_len; i++)
            differs |= a.top_visits[i] != d.top_visits[i];
        assert_true(differs || s == 2);
        bot_free(b);
        bot_free(b2);
        bot_free(b3);
        free(st);
    }
}

/* Plays a whole game between two bots, informing both of every move (or
 * not), checking each move. */
static void play_game(const GameVtbl *g, const char *sa, const char *sb,
                      const char *opts, int inform, uint64_t seed)
{
    Bot *b[2] = {mk(g, sa, seed), mk(g, sb, seed + 1)};
    void *st = tl_position(g->info.name, opts, NULL, NULL);
    int plies = 0;
    while (g->to_move(st) != PLAYER_TERMINAL) {
        int p = g->to_move(st);
        SearchInfo si;
        Move m = bot_choose(b[p], st, NULL, &si);
        assert_true(is_legal(g, st, m));
        if (inform) {
            bot_inform(b[0], st, m);
            bot_inform(b[1], st, m);
        }
        g->make(st, m);
        plies++;
        assert_true(plies <= g->info.max_game_length);
    }
    bot_free(b[0]);
    bot_free(b[1]);
    free(st);
}

static void test_tiny_pool(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    void *st = tl_position("kalah", NULL, NULL, NULL);
    Bot *b = mk(g, "mcts:mem=4k,iterations=20000", 1);
    SearchInfo si;
    Move m = bot_choose(b, st, NULL, &si);
    assert_true(is_legal(g, st, m));
    assert_int_equal(si.nodes, 20000);   /* kept simulating when full */
    bot_free(b);
    /* full pools with reuse and compaction on every move, RAVE too */
    play_game(g, "mcts:mem=3k,iterations=3000",
              "mcts:mem=6k,iterations=2000,rave=1", NULL, 1, 3);
    play_game(g, "mcts:mem=3k,iterations=2000,reuse=0",
              "mcts:mem=2k,iterations=1000,threads=2", NULL, 0, 4);
    free(st);
}

static void test_threads(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    void *st = tl_position("kalah", NULL, NULL, "1");
    Bot *b = mk(g, "mcts:threads=2,iterations=20000", 1);
    SearchInfo si;
    Move m = bot_choose(b, st, NULL, &si);
    assert_true(is_legal(g, st, m));
    assert_true(si.nodes >= 20000 && si.nodes <= 20002);
    /* a time limit ends the search too */
    Limits lim = {0};
    lim.time_ms = 50;
    m = bot_choose(b, st, &lim, &si);
    assert_true(is_legal(g, st, m));
    assert_true(si.nodes > 0);
    bot_free(b);
    play_game(g, "mcts:threads=2,iterations=1500,rave=1",
              "mcts:threads=3,iterations=1000", "houses=4", 1, 5);
    free(st);
}

static void test_reuse_game(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    /* with inform (moves walked from the old root), and without (the new
     * root is found by a shallow search of the old tree) */
    play_game(g, "mcts:iterations=3000", "mcts:iterations=3000,rave=1",
              NULL, 1, 11);
    play_game(g, "mcts:iterations=3000", "mcts:iterations=2000,playouts=4",
              "houses=5,seeds=3", 0, 12);
}

static uint64_t visit_sum(const SearchInfo *si)
{
    uint64_t s = 0;
    for (int i = 0; i < si->top_len; i++)
        s += si->top_visits[i];
    return s;
}

/* The kept tree shows in the visit counts: after two moves, the root's
 * children carry more visits than this search's iterations. */
static void test_reuse_visits(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    for (int mode = 0; mode < 3; mode++) {
        /* 0: inform, 1: no inform (found by search), 2: reuse=0 */
        Bot *b = mk(g, mode == 2 ? "mcts:reuse=0" : "mcts", 1);
        void *st = tl_position("kalah", NULL, NULL, NULL);
        Limits lim = {0};
        lim.nodes = 20000;
        SearchInfo si;
        for (int ply = 0; ply < 2;) {
            int p = g->to_move(st);
            Move m = bot_choose(b, st, &lim, &si);
            if (mode == 0)
                bot_inform(b, st, m);
            g->make(st, m);
            if (g->to_move(st) != p)
                ply++;
        }
        lim.nodes = 1000;
        bot_choose(b, st, &lim, &si);
        assert_int_equal(si.nodes, 1000);
        if (mode == 2)
            assert_int_equal(visit_sum(&si), 1000);
        else if (visit_sum(&si) <= 1000)
            fail_msg("mode %d: no tree kept (%llu visits)", mode,
                     (unsigned long long)visit_sum(&si));
        bot_free(b);
        free(st);
    }
}

typedef struct InfoCount {
    int calls;
    uint64_t last_nodes;
} InfoCount;

static void on_info(const SearchInfo *si, void *user)
{
    InfoCount *c = user;
    c->calls++;
    assert_true(si->nodes >= c->last_nodes);
    c->last_nodes = si->nodes;
}

static void test_info_callback(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    void *st = tl_position("kalah", NULL, NULL, NULL);
    Bot *b = mk(g, "mcts", 1);
    InfoCount ic = {0, 0};
    Limits lim = {0};
    lim.time_ms = 600;
    lim.on_info = on_info;
    lim.user = &ic;
    SearchInfo si;
    bot_choose(b, st, &lim, &si);
    /* every 250 ms and at the end; a loaded machine may stretch it */
    assert_true(ic.calls >= 2);
    assert_int_equal(ic.last_nodes, si.nodes);
    assert_true(si.seconds >= 0.5);
    assert_true(si.pv_len >= 1 && si.pv[0] == si.best);
    bot_free(b);
    free(st);
}

/* The bot should still beat a random player (a weak check that MCTS
 * searches something sensible: 6 of 6 at 3000 iterations). */
static void test_beats_random(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    int won = 0;
    for (int i = 0; i < 6; i++) {
        Bot *b[2];
        int me = i & 1;
        b[me] = mk(g, "mcts:iterations=3000", (uint64_t)i);
        b[!me] = mk(g, "random", (uint64_t)i + 100);
        void *st = tl_position("kalah", NULL, NULL, NULL);
        while (g->to_move(st) != PLAYER_TERMINAL) {
            Move m = bot_choose(b[g->to_move(st)], st, NULL, NULL);
            bot_inform(b[0], st, m);
            bot_inform(b[1], st, m);
            g->make(st, m);
        }
        double r[2];
        g->returns(st, r);
        won += r[me] > 0;
        bot_free(b[0]);
        bot_free(b[1]);
        free(st);
    }
    assert_int_equal(won, 6);
}

/* ---------------------------------------------------------------------- */
/* Race3: three players take turns adding 1, 2 or 3 to a counter; who
 * brings it to 10 or more wins (+1, the others -0.5). */

typedef struct Race {
    int count, turn, winner;
} Race;

static int race_init(void *st, const int *opt, uint64_t seed, PlyError *e)
{
    (void)opt, (void)seed, (void)e;
    memset(st, 0, sizeof(Race));
    ((Race *)st)->winner = -1;
    return 0;
}
static int race_to_move(const void *st)
{
    const Race *r = st;
    return r->winner >= 0 ? PLAYER_TERMINAL : r->turn;
}
static int race_gen(const void *st, Move *out)
{
    (void)st;
    for (int i = 0; i < 3; i++)
        out[i] = (Move)(i + 1);
    return 3;
}
static void race_make(void *st, Move m)
{
    Race *r = st;
    r->count += (int)m;
    if (r->count >= 10)
        r->winner = r->turn;
    r->turn = (r->turn + 1) % 3;
}
static void race_returns(const void *st, double *out)
{
    const Race *r = st;
    for (int i = 0; i < 3; i++)
        out[i] = i == r->winner ? 1.0 : -0.5;
}
static uint64_t race_hash(const void *st)
{
    const Race *r = st;
    return ply_mix64((uint64_t)(r->count * 16 + r->turn * 4 + r->winner + 1));
}
static int race_text(const void *st, char *buf, size_t n)
{
    const Race *r = st;
    return snprintf(buf, n, "%d/%d", r->count, r->turn);
}
static int race_from(void *st, const char *s, PlyError *e)
{
    Race *r = st;
    if (sscanf(s, "%d/%d", &r->count, &r->turn) != 2)
        return ply_fail(e, "bad race setup");
    r->winner = -1;
    return 0;
}
static int race_mtext(const void *st, Move m, char *buf, size_t n)
{
    (void)st;
    return snprintf(buf, n, "%d", (int)m);
}
static int race_tmove(const void *st, const char *s, Move *m, PlyError *e)
{
    (void)st;
    int v = atoi(s);
    if (v < 1 || v > 3)
        return ply_fail(e, "bad move");
    *m = (Move)v;
    return 0;
}
static int race_render(const void *st, char *buf, size_t n)
{
    return race_text(st, buf, n);
}

static const char *const race_players[] = {"A", "B", "C"};
static const GameVtbl game_race = {
    .info = {.name = "race3", .title = "race", .num_players = 3,
             .max_moves = 3, .max_game_length = 12,
             .state_size = sizeof(Race), .flags = GAME_ZERO_SUM,
             .player_names = race_players, .notation = "", .rules = ""},
    .init = race_init, .to_move = race_to_move, .gen_moves = race_gen,
    .make = race_make, .returns = race_returns, .hash = race_hash,
    .to_text = race_text, .from_text = race_from,
    .move_to_text = race_mtext, .text_to_move = race_tmove,
    .render = race_render,
};

static void test_three_players(void **state)
{
    (void)state;
    const GameVtbl *g = &game_race;
    Race st;
    race_init(&st, NULL, 0, NULL);
    st.count = 8;
    st.turn = 2;
    /* player C wins at once with 2 or 3 */
    Bot *b = mk(g, "mcts:iterations=3000", 1);
    SearchInfo si;
    Move m = bot_choose(b, &st, NULL, &si);
    assert_true(m == 2 || m == 3);
    assert_true(si.value > 900);
    /* at 7, B wins only with 3: 1 or 2 hand C the win */
    st.count = 7;
    st.turn = 1;
    bot_new_game(b);
    m = bot_choose(b, &st, NULL, &si);
    assert_true(m == 3);
    bot_free(b);
    /* whole games with three bots, threads and RAVE */
    for (int seed = 0; seed < 5; seed++) {
        Bot *p[3] = {mk(g, "mcts:iterations=500", (uint64_t)seed),
                     mk(g, "mcts:iterations=500,rave=1", (uint64_t)seed),
                     mk(g, "mcts:iterations=500,threads=2", (uint64_t)seed)};
        race_init(&st, NULL, 0, NULL);
        while (race_to_move(&st) != PLAYER_TERMINAL) {
            Move mv = bot_choose(p[st.turn], &st, NULL, NULL);
            assert_true(mv >= 1 && mv <= 3);
            for (int i = 0; i < 3; i++)
                bot_inform(p[i], &st, mv);
            race_make(&st, mv);
        }
        for (int i = 0; i < 3; i++)
            bot_free(p[i]);
    }
}

/* ---------------------------------------------------------------------- */
/* Dice: one player picks A (a coin: win or loss), B (win with 0.9) or C (a
 * sure 0.5); chance decides. Exact values 0, 0.8 and 0.5: the solver
 * proves all three through the chance nodes. */

typedef struct Dice {
    int pick, outcome;    /* pick 0 none, 1..3; outcome 0 none, 1 win, 2 */
} Dice;

static int dice_init(void *st, const int *o, uint64_t s, PlyError *e)
{
    (void)o, (void)s, (void)e;
    memset(st, 0, sizeof(Dice));
    return 0;
}
static int dice_to_move(const void *st)
{
    const Dice *d = st;
    if (!d->pick)
        return 0;
    return d->outcome ? PLAYER_TERMINAL : PLAYER_CHANCE;
}
static int dice_chance(const void *st, Move *out, double *p)
{
    const Dice *d = st;
    out[0] = 1;
    out[1] = 2;
    p[0] = d->pick == 1 ? 0.5 : d->pick == 2 ? 0.9 : 1.0;
    p[1] = 1 - p[0];
    return d->pick == 3 ? 1 : 2;
}
static int dice_gen(const void *st, Move *out)
{
    const Dice *d = st;
    if (d->pick) {
        double p[2];
        return dice_chance(st, out, p);
    }
    for (int i = 0; i < 3; i++)
        out[i] = (Move)(i + 1);
    return 3;
}
static void dice_make(void *st, Move m)
{
    Dice *d = st;
    if (!d->pick)
        d->pick = (int)m;
    else
        d->outcome = (int)m;
}
static void dice_returns(const void *st, double *out)
{
    const Dice *d = st;
    out[0] = d->pick == 3 ? 0.5 : d->outcome == 1 ? 1.0 : -1.0;
}
static uint64_t dice_hash(const void *st)
{
    const Dice *d = st;
    return (uint64_t)(d->pick * 4 + d->outcome);
}
static int dice_text(const void *st, char *buf, size_t n)
{
    const Dice *d = st;
    return snprintf(buf, n, "%d%d", d->pick, d->outcome);
}
static int dice_from(void *st, const char *s, PlyError *e)
{
    (void)st, (void)s;
    return ply_fail(e, "no setup");
}

static const char *const dice_players[] = {"P"};
static const GameVtbl game_dice = {
    .info = {.name = "dice", .title = "dice", .num_players = 1,
             .max_moves = 3, .max_game_length = 2,
             .state_size = sizeof(Dice), .flags = GAME_CHANCE,
             .player_names = dice_players, .notation = "", .rules = ""},
    .init = dice_init, .to_move = dice_to_move, .gen_moves = dice_gen,
    .make = dice_make, .returns = dice_returns, .hash = dice_hash,
    .to_text = dice_text, .from_text = dice_from,
    .move_to_text = race_mtext, .text_to_move = race_tmove,
    .render = dice_text, .chance_outcomes = dice_chance,
};

static void test_chance(void **state)
{
    (void)state;
    const GameVtbl *g = &game_dice;
    Dice st;
    dice_init(&st, NULL, 0, NULL);
    const char *specs[] = {"mcts:expand=1", "mcts:solver=0",
                           "mcts:rave=1,playouts=2"};
    for (int s = 0; s < 3; s++) {
        Bot *b = mk(g, specs[s], 5);
        Limits lim = {0};
        lim.nodes = 20000;
        SearchInfo si;
        Move m = bot_choose(b, &st, &lim, &si);
        assert_true(m == 2);
        assert_int_equal(si.proven, 0);
        if (s == 0) {
            /* all three children proven: the search stopped early with
             * the exact expectation */
            if (si.nodes >= 20000) fail_msg("nodes %llu value %d", (unsigned long long)si.nodes, si.value);
            assert_int_equal(si.value, 800);
        } else {
            assert_true(si.value > 600 && si.value < 1000);
        }
        bot_free(b);
    }
}

/* ---------------------------------------------------------------------- */
/* Trap: A chooses 0 (a draw) or 1 (a trap); after the trap B has ten
 * moves, one of which wins for B while the other nine lose. Against best
 * replies the trap loses; against a random B it wins 80% of the time. */

typedef struct Trap {
    int stage, result;      /* stage 0: A, 1: B, 2: over; result for A */
} Trap;

static int trap_init(void *st, const int *opt, uint64_t seed, PlyError *e)
{
    (void)opt, (void)seed, (void)e;
    memset(st, 0, sizeof(Trap));
    return 0;
}
static int trap_to_move(const void *st)
{
    const Trap *t = st;
    return t->stage == 2 ? PLAYER_TERMINAL : t->stage;
}
static int trap_gen(const void *st, Move *out)
{
    const Trap *t = st;
    int n = t->stage == 0 ? 2 : 10;
    for (int i = 0; i < n; i++)
        out[i] = (Move)i;
    return n;
}
static void trap_make(void *st, Move m)
{
    Trap *t = st;
    if (t->stage == 0 && m == 0) {
        t->stage = 2;
        t->result = 0;
    } else if (t->stage == 0) {
        t->stage = 1;
    } else {
        t->stage = 2;
        t->result = m == 3 ? -1 : 1;
    }
}
static void trap_returns(const void *st, double *out)
{
    const Trap *t = st;
    out[0] = t->result;
    out[1] = -t->result;
}
static uint64_t trap_hash(const void *st)
{
    const Trap *t = st;
    return ply_mix64((uint64_t)(t->stage * 4 + t->result + 1));
}
static int trap_text(const void *st, char *buf, size_t n)
{
    const Trap *t = st;
    return snprintf(buf, n, "%d/%d", t->stage, t->result);
}
static int trap_from(void *st, const char *s, PlyError *e)
{
    Trap *t = st;
    if (sscanf(s, "%d/%d", &t->stage, &t->result) != 2)
        return ply_fail(e, "bad trap setup");
    return 0;
}

static int trap_tmove(const void *st, const char *s, Move *m, PlyError *e)
{
    Move mv[10];
    int n = trap_gen(st, mv);
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0 || v >= n)
        return ply_fail(e, "bad move");
    *m = (Move)v;
    return 0;
}

static const char *const trap_players[] = {"A", "B"};
static const GameVtbl game_trap = {
    .info = {.name = "trap", .title = "trap", .num_players = 2,
             .max_moves = 10, .max_game_length = 2,
             .state_size = sizeof(Trap), .flags = GAME_ZERO_SUM,
             .player_names = trap_players, .notation = "", .rules = ""},
    .init = trap_init, .to_move = trap_to_move, .gen_moves = trap_gen,
    .make = trap_make, .returns = trap_returns, .hash = trap_hash,
    .to_text = trap_text, .from_text = trap_from,
    .move_to_text = race_mtext, .text_to_move = trap_tmove,
    .render = trap_text,
};

/* oppeps: with the opponent choosing at random, the trap is worth
 * 0.8 and is played; without (the control), its best reply makes it a
 * loss and the draw is played. The solver is off: it would prove the
 * trap lost and never play it whatever the opponent model. */
static void test_opponent_eps(void **state)
{
    (void)state;
    const GameVtbl *g = &game_trap;
    const char *spec[] = {"mcts:iterations=4000,solver=0,oppeps=1",
                          "mcts:iterations=4000,solver=0,oppeps=0.9",
                          "mcts:iterations=4000,solver=0",
                          "mcts:iterations=4000,solver=0,oppeps=0.2",
                          /* oppseat: A is the first seat */
                          "mcts:iterations=4000,solver=0,oppeps=1,oppseat=1",
                          "mcts:iterations=4000,solver=0,oppeps=1,oppseat=2"};
    const Move want[] = {1, 1, 0, 0, 1, 0};
    for (int i = 0; i < 6; i++) {
        Trap st;
        trap_init(&st, NULL, 0, NULL);
        Bot *b = mk(g, spec[i], 3);
        SearchInfo si;
        Move m = bot_choose(b, &st, NULL, &si);
        if (m != want[i])
            fail_msg("%s: move %d, wanted %d", spec[i], (int)m,
                     (int)want[i]);
        bot_free(b);
    }
    /* B's own search is not affected: oppeps concerns the others */
    Trap st = {.stage = 1};
    Move mv;
    PlyError err;
    assert_int_equal(trap_tmove(&st, "9", &mv, &err), 0);
    assert_int_equal(mv, 9);
    assert_int_not_equal(trap_tmove(&st, "10", &mv, &err), 0);
    Bot *b = mk(g, "mcts:iterations=2000,solver=0,oppeps=1", 3);
    assert_int_equal(bot_choose(b, &st, NULL, NULL), 3);
    bot_free(b);
}

static void test_bad_options(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    const char *bad[] = {"mcts:c=x", "mcts:mem=0", "mcts:threads=0",
                         "mcts:bogus=1", "mcts:policy=smart",
                         "mcts:policy=game", "mcts:rave", "mcts:mem=5q",
                         "mcts:oppeps=2", "mcts:oppeps=-0.1",
                         "mcts:oppseat=9", "mcts:oppseat=-1"};
    for (int i = 0; i < 12; i++) {
        PlyError err = {{0}};
        Bot *b = bot_new(g, bad[i], 1, &err);
        assert_null(b);
        assert_true(err.msg[0] != 0);
    }
    /* early termination needs an eval hook */
    PlyError err = {{0}};
    assert_null(bot_new(&game_race, "mcts:ept=3", 1, &err));
    assert_non_null(strstr(err.msg, "eval"));
    assert_null(bot_new(&game_race, "mcts:im=0.5", 1, &err));
    assert_null(bot_new(g, "mcts:im=2", 1, &err));
    Bot *b = mk(g, "mcts:ept=3,ept_scale=250", 1);
    bot_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_kalah),
        cmocka_unit_test(test_exact_hook),
        cmocka_unit_test(test_solver_all_games),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_tiny_pool),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_reuse_game),
        cmocka_unit_test(test_reuse_visits),
        cmocka_unit_test(test_info_callback),
        cmocka_unit_test(test_beats_random),
        cmocka_unit_test(test_three_players),
        cmocka_unit_test(test_chance),
        cmocka_unit_test(test_opponent_eps),
        cmocka_unit_test(test_bad_options),
    };
    tl_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
