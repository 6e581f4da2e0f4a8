/* test_conformance.c — the checks every registered game must pass, run on
 * seeded random games: unique, deterministic moves; copy/make agreement;
 * setup strings and move notation round-trips; hash against a state rebuilt
 * from its setup string; termination within max_game_length; returns in
 * range (and zero-sum where declared); chance and observation hooks. */
#include "testlib.h"

#include "../../src/core/book.h"

/* random games per game (half under the sanitizers: PLY_SANITIZED) */
#ifdef PLY_SANITIZED
enum { GAMES_PER_GAME = 100 };
#else
enum { GAMES_PER_GAME = 200 };
#endif
/* state bytes x max_moves above which fewer games are played (above
 * every game but Go: chess is 1304 x 420) */
enum { CONFORMANCE_COST = 600000 };

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

typedef struct Ctx {
    const GameVtbl *g;
    int opt[PLY_MAX_OPTIONS];
    Move *moves, *moves2, *sorted;
    double *probs;
    unsigned char *a, *b, *c;
    char *text, *text2;
} Ctx;

enum { TEXT_MAX = 1 << 16 };

/* Hidden information, for each player q: two worlds sampled from q's
 * observation (their other hidden parts differ) are legal states (check,
 * setup string accepted, same player to move) that q sees exactly as in
 * st; the player to move has the same moves in them as in st (he never
 * needs to know what he cannot see to know his moves). */
static void check_hidden(Ctx *x, const void *st, int p, const char *where,
                         uint64_t seed)
{
    const GameVtbl *g = x->g;
    size_t sz = g->info.state_size;
    PlyError err = {{0}};
    if (!g->observe || !g->determinize)
        fail_msg("%s: GAME_HIDDEN without observe and determinize", where);
    int n = g->gen_moves(st, x->moves);
    for (int q = 0; q < g->info.num_players; q++) {
        g->observe(st, q, x->a);
        for (int k = 0; k < 2; k++) {
            Rng r;
            rng_seed(&r, seed * 2 + (uint64_t)k + 77 * (uint64_t)q);
            g->determinize(x->a, q, &r, x->b);
            if (g->check && g->check(x->b))
                fail_msg("%s: a world sampled for player %d is broken",
                         where, q);
            if (g->to_move(x->b) != p)
                fail_msg("%s: a world sampled for player %d has another "
                         "player to move", where, q);
            if (g->to_text(x->b, x->text, TEXT_MAX) < 0 ||
                g->init(x->c, x->opt, seed, &err) ||
                g->from_text(x->c, x->text, &err))
                fail_msg("%s: a world sampled for player %d is not a legal "
                         "setup ('%s'): %s", where, q, x->text, err.msg);
            g->observe(x->b, q, x->c);
            if (memcmp(x->a, x->c, sz))
                fail_msg("%s: player %d's observation changes with what he "
                         "cannot see", where, q);
            if (q == p) {
                int n2 = g->gen_moves(x->b, x->moves2);
                if (n2 != n || memcmp(x->moves, x->moves2,
                                      sizeof(Move) * (size_t)n))
                    fail_msg("%s: the mover's moves depend on what he "
                             "cannot see", where);
            }
        }
    }
}

static void check_position(Ctx *x, const void *st, int ply, uint64_t seed)
{
    const GameVtbl *g = x->g;
    const GameInfo *in = &g->info;
    size_t sz = in->state_size;
    char where[160];
    snprintf(where, sizeof where, "%s seed %llu ply %d", in->name,
             (unsigned long long)seed, ply);

    if (g->check && g->check(st))
        fail_msg("%s: check() reports a broken state", where);
    int p = g->to_move(st);
    if (!(p == PLAYER_TERMINAL || (p == PLAYER_CHANCE &&
                                   (in->flags & GAME_CHANCE)) ||
          (p >= 0 && p < in->num_players)))
        fail_msg("%s: to_move() = %d is out of range", where, p);

    /* setup string round-trip, and the hash of the rebuilt state */
    int tl = g->to_text(st, x->text, TEXT_MAX);
    if (tl < 0)
        fail_msg("%s: to_text failed", where);
    PlyError err = {{0}};
    if (g->init(x->c, x->opt, seed, &err))
        fail_msg("%s: init failed: %s", where, err.msg);
    if (g->from_text(x->c, x->text, &err))
        fail_msg("%s: from_text rejects to_text's '%s': %s", where, x->text,
                 err.msg);
    if (g->to_text(x->c, x->text2, TEXT_MAX) < 0 ||
        strcmp(x->text, x->text2))
        fail_msg("%s: setup string does not round-trip:\n  %s\n  %s", where,
                 x->text, x->text2);
    if (g->hash(x->c) != g->hash(st))
        fail_msg("%s: hash differs from the state rebuilt from '%s'", where,
                 x->text);
    if (g->to_move(x->c) != p)
        fail_msg("%s: rebuilt state has another player to move", where);
    if (g->seats) {     /* the seats playing: 0..n-1, fixed by the options */
        const char *names[PLY_MAX_PLAYERS] = {NULL};
        int n = g->seats(st, names);
        if (n < 1 || n > in->num_players || p >= n ||
            g->seats(x->c, NULL) != n)
            fail_msg("%s: seats() = %d with seat %d to move", where, n, p);
        for (int i = 0; i < n; i++)
            if (!names[i] || !names[i][0])
                fail_msg("%s: seats() names no seat %d", where, i);
        if (p == PLAYER_TERMINAL) {
            double r[PLY_MAX_PLAYERS];
            g->returns(st, r);
            for (int i = n; i < in->num_players; i++)
                if (r[i] != 0)
                    fail_msg("%s: seat %d does not play but returns %g",
                             where, i, r[i]);
        }
    }

    if (p == PLAYER_TERMINAL) {
        double r[PLY_MAX_PLAYERS], sum = 0;
        g->returns(st, r);
        for (int i = 0; i < in->num_players; i++) {
            if (!(r[i] >= -1.0 && r[i] <= 1.0))
                fail_msg("%s: return %d = %g outside [-1,1]", where, i, r[i]);
            sum += r[i];
        }
        if ((in->flags & GAME_ZERO_SUM) && (sum > 1e-9 || sum < -1e-9))
            fail_msg("%s: returns add up to %g in a zero-sum game", where,
                     sum);
        return;
    }

    int n = g->gen_moves(st, x->moves);
    if (n < 1 || n > in->max_moves)
        fail_msg("%s: %d moves (max_moves %d)", where, n, in->max_moves);
    int n2 = g->gen_moves(st, x->moves2);
    if (n2 != n || memcmp(x->moves, x->moves2, sizeof(Move) * (size_t)n))
        fail_msg("%s: move generation is not deterministic", where);
    int n3 = g->gen_moves(x->c, x->moves2);
    if (n3 != n || memcmp(x->moves, x->moves2, sizeof(Move) * (size_t)n))
        fail_msg("%s: the rebuilt state has other moves", where);
    memcpy(x->sorted, x->moves, sizeof(Move) * (size_t)n);
    qsort(x->sorted, (size_t)n, sizeof(Move), cmp_move);
    for (int i = 1; i < n; i++)
        if (x->sorted[i] == x->sorted[i - 1])
            fail_msg("%s: a move is generated twice", where);

    if (p == PLAYER_CHANCE) {
        int k = g->chance_outcomes(st, x->moves2, x->probs);
        double sum = 0;
        for (int i = 0; i < k; i++) {
            if (!(x->probs[i] > 0))
                fail_msg("%s: chance outcome with probability %g", where,
                         x->probs[i]);
            sum += x->probs[i];
        }
        if (k != n || memcmp(x->moves, x->moves2, sizeof(Move) * (size_t)n))
            fail_msg("%s: chance_outcomes and gen_moves differ", where);
        if (sum < 1 - 1e-9 || sum > 1 + 1e-9)
            fail_msg("%s: chance probabilities add up to %g", where, sum);
    }

    for (int i = 0; i < n; i++) {
        Move m;
        if (g->move_to_text(st, x->moves[i], x->text, 256) < 0)
            fail_msg("%s: move_to_text failed", where);
        if (g->text_to_move(st, x->text, &m, &err))
            fail_msg("%s: text_to_move rejects '%s': %s", where, x->text,
                     err.msg);
        if (m != x->moves[i])
            fail_msg("%s: move '%s' does not round-trip", where, x->text);
        /* copy-make equals make on the original */
        memcpy(x->a, st, sz);
        memcpy(x->b, st, sz);
        g->make(x->a, x->moves[i]);
        g->make(x->b, x->moves[i]);
        if (memcmp(x->a, x->b, sz) || g->hash(x->a) != g->hash(x->b))
            fail_msg("%s: make of '%s' is not deterministic", where,
                     x->text);
        if (g->heuristic)
            (void)g->heuristic(st, x->moves[i]);
        if (g->is_noisy)
            (void)g->is_noisy(st, x->moves[i]);
    }
    if (g->eval && p >= 0)
        for (int q = 0; q < in->num_players; q++) {
            int e = g->eval(st, q);
            if (e <= -EVAL_WIN || e >= EVAL_WIN)
                fail_msg("%s: eval %d outside (-EVAL_WIN, EVAL_WIN)", where,
                         e);
        }
    if (g->eval_all && p >= 0) {
        int all[PLY_MAX_PLAYERS];
        g->eval_all(st, all);
        for (int q = 0; q < state_seats(g, st, NULL); q++)
            if (all[q] != g->eval(st, q))
                fail_msg("%s: eval_all gives player %d %d, eval %d", where,
                         q, all[q], g->eval(st, q));
    }
    if (g->observe && p >= 0) {
        g->observe(st, p, x->a);
        Rng r;
        rng_seed(&r, seed + (uint64_t)ply);
        g->determinize(x->a, p, &r, x->b);
        g->observe(x->b, p, x->c);
        if (memcmp(x->a, x->c, sz))
            fail_msg("%s: a determinized state looks different to its "
                     "player", where);
    }
    if ((in->flags & GAME_HIDDEN) && p >= 0)
        check_hidden(x, st, p, where, seed + (uint64_t)ply);
}

static void run_game_conformance_n(const GameVtbl *g, int games_wanted);

/* An opening book's table: sorted, keys distinct, the count in range;
 */
static void check_book(const GameVtbl *g)
{
    const Book *b = g->book;
    if (!b)
        return;
    if (b->n < 0 || (b->n && !b->entries) || !b->source)
        fail_msg("%s: a malformed book", g->info.name);
    for (int i = 1; i < b->n; i++)
        if (b->entries[i - 1].key >= b->entries[i].key)
            fail_msg("%s: book keys not sorted and distinct at entry %d",
                     g->info.name, i);
}

static void run_game_conformance(const GameVtbl *g)
{
    run_game_conformance_n(g, 0);
}

static void run_game_conformance_n(const GameVtbl *g, int games_wanted)
{
    const GameInfo *in = &g->info;
    Ctx x = {.g = g};
    PlyError err = {{0}};
    if (options_parse(g, NULL, x.opt, &err))
        fail_msg("%s: default options rejected: %s", in->name, err.msg);
    /* Four times the room the game claims, so that a list longer than
     * max_moves is reported by the check below rather than overrunning
     * the buffer (agon's relocation lists once did, in another test). */
    size_t room = 4 * (size_t)in->max_moves;
    x.moves = malloc(sizeof(Move) * room);
    x.moves2 = malloc(sizeof(Move) * room);
    x.sorted = malloc(sizeof(Move) * room);
    x.probs = malloc(sizeof(double) * room);
    x.a = malloc(in->state_size);
    x.b = malloc(in->state_size);
    x.c = malloc(in->state_size);
    x.text = malloc(TEXT_MAX);
    x.text2 = malloc(TEXT_MAX);
    void *st = malloc(in->state_size);
    int games = GAMES_PER_GAME;
    /* Each ply checks every move with two state copies: a game whose
     * state is large and whose moves are many (19x19 Go: an 8 KB state,
     * 362 moves, 600 plies) plays fewer games (at least 20), so that it
     * does not take the time of all the others together. */
    size_t cost = in->state_size * (size_t)in->max_moves;
    if (cost > CONFORMANCE_COST)
        games = (int)((size_t)games * CONFORMANCE_COST / cost);
    if (games < 20)
        games = 20;
    if (games_wanted > 0)
        games = games_wanted;
    const char *env = getenv("PLY_CONFORMANCE_GAMES");
    if (env && atoi(env) > 0)
        games = atoi(env);
    /* Symmetries (sym_move): the image of each game under each one is
     * played beside it and must stay legal, with as many moves at each
     * ply and the same result. */
    int nsym = g->sym_move ? g->nsym : 0;
    if (g->sym_move && (nsym < 2 || nsym > 16))
        fail_msg("%s: sym_move with nsym %d (2 to 16)", in->name, nsym);
    if ((g->nsym > 1) != (g->sym_move != NULL))
        fail_msg("%s: nsym and sym_move go together", in->name);
    void *img[16] = {0};
    for (int k = 0; k < nsym; k++)
        img[k] = malloc(in->state_size);
    check_book(g);
    for (int gi = 0; gi < games; gi++) {
        uint64_t seed = 1000 + (uint64_t)gi;
        Rng r;
        rng_seed(&r, seed);
        memset(st, 0, in->state_size);
        if (g->init(st, x.opt, seed, &err))
            fail_msg("%s: init failed: %s", in->name, err.msg);
        for (int k = 0; k < nsym; k++)
            memcpy(img[k], st, in->state_size);
        int ply = 0;
        for (;;) {
            check_position(&x, st, ply, seed);
            if (g->to_move(st) == PLAYER_TERMINAL)
                break;
            if (ply >= in->max_game_length)
                fail_msg("%s seed %llu: longer than max_game_length %d",
                         in->name, (unsigned long long)seed,
                         in->max_game_length);
            int n = g->gen_moves(st, x.moves);
            Move m = x.moves[rng_below(&r, (uint32_t)n)];
            for (int k = 1; k < nsym; k++) {
                if (g->to_move(img[k]) != g->to_move(st) ||
                    g->gen_moves(img[k], x.moves2) != n)
                    fail_msg("%s seed %llu ply %d: the image under "
                             "symmetry %d has another mover or move count",
                             in->name, (unsigned long long)seed, ply, k);
                Move mk = g->sym_move(st, k, m);
                int found = 0;
                for (int i = 0; i < n && !found; i++)
                    found = x.moves2[i] == mk;
                if (!found)
                    fail_msg("%s seed %llu ply %d: symmetry %d maps a legal "
                             "move to an illegal one", in->name,
                             (unsigned long long)seed, ply, k);
                g->make(img[k], mk);
            }
            g->make(st, m);
            ply++;
        }
        double ra[PLY_MAX_PLAYERS], rb[PLY_MAX_PLAYERS];
        g->returns(st, ra);
        for (int k = 1; k < nsym; k++) {
            if (g->to_move(img[k]) != PLAYER_TERMINAL)
                fail_msg("%s seed %llu: the image under symmetry %d has "
                         "not ended", in->name, (unsigned long long)seed, k);
            g->returns(img[k], rb);
            for (int p = 0; p < in->num_players; p++)
                if (ra[p] != rb[p])
                    fail_msg("%s seed %llu: the image under symmetry %d "
                             "ends otherwise", in->name,
                             (unsigned long long)seed, k);
        }
    }
    for (int k = 0; k < nsym; k++)
        free(img[k]);
    free(st);
    free(x.moves);
    free(x.moves2);
    free(x.sorted);
    free(x.probs);
    free(x.a);
    free(x.b);
    free(x.c);
    free(x.text);
    free(x.text2);
}

static void test_registry(void **state)
{
    (void)state;
    PlyError err = {{0}};
    assert_int_equal(registry_check(&err), 0);
    assert_non_null(ply_games[0]);
}

static void test_game(void **state)
{
    run_game_conformance(*state);
}

/* Games loaded from the rules files Ply's tests write (tests/zrf), with
 * how many random games each plays (their VM is slower than C). */
static const struct ZrfCase {
    const char *path;
    int games;
} zrf_cases[] = {
    {"tests/zrf/tictactoe.zrf", 100},
    {"tests/zrf/checkers.zrf", 50},
    {"tests/zrf/chess.zrf", 1},
    {"tests/zrf/shuffle.zrf", 20},
    {"tests/zrf/kingtake.zrf", 20},
    {"tests/zrf/recycle.zrf", 20},
    {"tests/zrf/proxy.zrf", 20},
    {"tests/zrf/count.zrf", 20},
    {"tests/zrf/maximal.zrf", 20},
    {"tests/zrf/dice.zrf", 20},
    {"tests/zrf/twogrids.zrf", 20},
    {"tests/zrf/reversi.zrf", 5},
    {"tests/zrf/three.zrf", 20},
};
enum { NZRF = sizeof zrf_cases / sizeof zrf_cases[0] };

static void test_zrf_game(void **state)
{
    const struct ZrfCase *c = *state;
    PlyError err = {{0}};
    const GameVtbl *g = game_load(c->path, &err);
    if (!g)
        fail_msg("%s: %s", c->path, err.msg);
    run_game_conformance_n(g, c->games);
}

int main(void)
{
    int n = 0;
    while (ply_games[n])
        n++;
    struct CMUnitTest *tests = calloc((size_t)n + 1 + NZRF, sizeof *tests);
    char (*names)[96] = calloc((size_t)n + 1 + NZRF, sizeof *names);
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_registry);
    const char *only = getenv("PLY_CONFORMANCE_ONLY");
    int k = 1;
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, ply_games[i]->info.name))
            continue;
        snprintf(names[k], sizeof names[k], "conformance %s",
                 ply_games[i]->info.name);
        tests[k].name = names[k];
        tests[k].test_func = test_game;
        tests[k].initial_state = (void *)ply_games[i];
        k++;
    }
    for (int i = 0; i < NZRF; i++) {
        if (only && strcmp(only, zrf_cases[i].path))
            continue;
        snprintf(names[k], sizeof names[k], "conformance %s",
                 zrf_cases[i].path);
        tests[k].name = names[k];
        tests[k].test_func = test_zrf_game;
        tests[k].initial_state = (void *)&zrf_cases[i];
        k++;
    }
    int r = _cmocka_run_group_tests("conformance", tests, (size_t)k, NULL,
                                    NULL);
    free(tests);
    free(names);
    return r;
}
