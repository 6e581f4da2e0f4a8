/* test_search_hist.c — the alpha-beta bot's history tables, correction
 * history and singular extensions (options conthist, corrhist,
 * singular; docs/search.md).
 *
 * The test includes search/alphabeta.c itself to reach its tables: the
 * butterfly and continuation histories must move by the bonus with
 * gravity, saturate at HIST_MAX, index by the moves one and two plies
 * back and skip a null move; searches with the options on must fill the
 * tables (and new_game clear them) and leave them empty when off; the
 * correction stays within its limit; ordering and the correction (which
 * only prunes) must not change the value of an exact fixed-depth search;
 * singular extensions must fire on a position with one winning move and
 * never with the option off; a node whose only move is excluded fails
 * low; chksee leaves a losing check unextended; lmpchk keeps a mating
 * drop that late-move pruning alone throws away. */
#include "testlib.h"

#include "core/bot.h"
#include "core/util.h"

/* the bot under test, with its static functions and types (this copy of
 * bot_alphabeta is the one the registry links against here) */
#include "search/alphabeta.c"

static Bot *make_bot(const GameVtbl *g, const char *spec)
{
    PlyError err = {{0}};
    Bot *b = bot_new(g, spec, 7, &err);
    if (!b)
        fail_msg("bot '%s' on %s: %s", spec, g->info.name, err.msg);
    if (b->v != &bot_alphabeta)
        fail_msg("bot '%s' is not this file's alphabeta", spec);
    return b;
}

static AbBot *ab_of(Bot *b)
{
    return b->impl;
}

/* the legal move `text` at st */
static Move move_of(const GameVtbl *g, const void *st, const char *text)
{
    Move m;
    PlyError err = {{0}};
    if (g->text_to_move(st, text, &m, &err))
        fail_msg("move %s: %s", text, err.msg);
    return m;
}

static int count_nonzero16(const int16_t *t, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += t[i] != 0;
    return c;
}

static int count_nonzero32(const int32_t *t, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += t[i] != 0;
    return c;
}

/* ------------------------------------------------------------------ */

/* Updates of the butterfly and continuation tables, by hand. */
static void test_history_updates(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    assert_non_null(g);
    void *st = tl_position("chess", NULL, NULL, NULL);
    Move e4 = move_of(g, st, "e2e4"), d4 = move_of(g, st, "d2d4");
    Move nf3 = move_of(g, st, "g1f3"), c4 = move_of(g, st, "c2c4");
    Bot *bot = make_bot(g, "alphabeta:conthist=1");
    AbBot *b = ab_of(bot);
    /* at ply 2: the opponent's move last[2], the player's own last[1] */
    b->last[1] = e4;
    b->last[2] = d4;
    int i0 = cont_index(b, 0, 2, 0, nf3), i1 = cont_index(b, 1, 2, 0, nf3);
    assert_true(i0 >= 0 && i0 < CONT_SIZE);
    assert_true(i1 >= 0 && i1 < CONT_SIZE);
    /* the same move after other moves (or of the other player) is
     * another bucket */
    b->last[2] = c4;
    assert_int_not_equal(cont_index(b, 0, 2, 0, nf3), i0);
    assert_int_equal(cont_index(b, 1, 2, 0, nf3), i1);
    b->last[2] = d4;
    assert_int_not_equal(cont_index(b, 0, 2, 1, nf3), i0);
    /* no move before the root, none after a null move */
    assert_int_equal(cont_index(b, 0, 0, 0, nf3), -1);
    assert_int_equal(cont_index(b, 1, 1, 0, nf3), -1);

    quiet_update(b, 0, nf3, 2, 100);
    assert_int_equal(b->history[0][hist_index(nf3)], 100);
    assert_int_equal(b->cont[0][i0], 100);
    assert_int_equal(b->cont[1][i1], 100);
    assert_int_equal(quiet_score(b, 0, nf3, 2), 300);
    /* gravity: 100 + 200 - 100 * 200 / HIST_MAX (truncated) */
    quiet_update(b, 0, nf3, 2, 200);
    int want = 100 + 200 - 100 * 200 / HIST_MAX;
    assert_int_equal(b->history[0][hist_index(nf3)], want);
    assert_int_equal(b->cont[0][i0], want);
    /* a malus */
    quiet_update(b, 0, nf3, 2, -50);
    want += -50 - want * 50 / HIST_MAX;
    assert_int_equal(b->cont[1][i1], want);
    /* saturation: never beyond +-HIST_MAX */
    for (int k = 0; k < 200; k++)
        quiet_update(b, 0, nf3, 2, 64 * 64);
    assert_true(b->cont[0][i0] <= HIST_MAX && b->cont[0][i0] > HIST_MAX / 2);
    assert_true(b->history[0][hist_index(nf3)] <= HIST_MAX);
    for (int k = 0; k < 400; k++)
        quiet_update(b, 0, nf3, 2, -64 * 64);
    assert_true(b->cont[1][i1] >= -HIST_MAX &&
                b->cont[1][i1] < -HIST_MAX / 2);
    /* after a null move (last[2] = 0) only the two-ply table moves */
    b->last[2] = 0;
    int before0 = b->cont[0][i0], before1 = b->cont[1][i1];
    quiet_update(b, 0, nf3, 2, 1000);
    assert_int_equal(b->cont[0][i0], before0);
    assert_int_not_equal(b->cont[1][i1], before1);
    bot_free(bot);

    /* conthist=0: the butterfly table alone */
    bot = make_bot(g, "alphabeta:conthist=0");
    b = ab_of(bot);
    b->last[1] = e4;
    b->last[2] = d4;
    quiet_update(b, 1, nf3, 2, 100);
    assert_int_equal(b->history[1][hist_index(nf3)], 100);
    assert_int_equal(quiet_score(b, 1, nf3, 2), 100);
    assert_int_equal(count_nonzero16(&b->cont[0][0], 2 * CONT_SIZE), 0);
    bot_free(bot);
    free(st);
}

/* Searches fill the tables the options ask for, and only those. */
static void test_tables_after_search(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    void *st = tl_position(
        "chess", NULL,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        NULL);
    Limits lim = {0};
    lim.depth = 7;
    SearchInfo si;
    Bot *on = make_bot(g, "alphabeta:conthist=1,corrhist=1");
    Bot *off = make_bot(g, "alphabeta");
    assert_true(state_is_legal(g, st, bot_choose(on, st, &lim, &si)));
    assert_int_equal(si.depth, 7);
    assert_true(state_is_legal(g, st, bot_choose(off, st, &lim, &si)));
    AbBot *a = ab_of(on), *o = ab_of(off);
    int c0 = count_nonzero16(a->cont[0], CONT_SIZE);
    int c1 = count_nonzero16(a->cont[1], CONT_SIZE);
    int cr = count_nonzero32(&a->corr[0][0], 2 * CORR_SIZE);
    assert_true(c0 > 10);
    assert_true(c1 > 10);
    assert_true(cr > 10);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < CORR_SIZE; i++)
            assert_true(a->corr[s][i] >= -CORR_LIMIT * CORR_GRAIN &&
                        a->corr[s][i] <= CORR_LIMIT * CORR_GRAIN);
    assert_int_equal(count_nonzero16(&o->cont[0][0], 2 * CONT_SIZE), 0);
    assert_int_equal(count_nonzero32(&o->corr[0][0], 2 * CORR_SIZE), 0);
    bot_new_game(on);
    assert_int_equal(count_nonzero16(&a->cont[0][0], 2 * CONT_SIZE), 0);
    assert_int_equal(count_nonzero32(&a->corr[0][0], 2 * CORR_SIZE), 0);
    bot_free(on);
    bot_free(off);
    free(st);
}

/* Ordering by continuation histories and the correction (which only
 * moves the static value pruning uses) do not change the value of an
 * exact search at a fixed depth, nor does a singular test below its
 * depth, on positions of every two-player game with an evaluation. */
static void test_exact_values_unchanged(void **state)
{
    (void)state;
    static const char *const base =
        "alphabeta:ttexact=1,lmr=0,null=0,check=0,mdp=0,rfp=0,razor=0,"
        "fut=0,lmp=0,iir=0,see=0";
    char with[256];
    snprintf(with, sizeof with, "%s,conthist=1,corrhist=1,singular=1",
             base);
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.num_players != 2 || !g->eval ||
            (g->info.flags & GAME_HIDDEN))
            continue;
        Bot *a = make_bot(g, base), *b = make_bot(g, with);
        void *st = state_alloc(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        Rng r;
        rng_seed(&r, 99 + (uint64_t)gi);
        int compared = 0;
        for (int k = 0; k < 8 && compared < 3; k++) {
            PlyError err = {{0}};
            if (state_setup(g, st, NULL, NULL, rng_next(&r), &err))
                fail_msg("%s: %s", g->info.name, err.msg);
            int len = (int)rng_below(&r, 30);
            for (int i = 0; i < len && g->to_move(st) >= 0; i++) {
                int n = g->gen_moves(st, mv);
                g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            }
            if (g->to_move(st) < 0)
                continue;
            Limits lim = {0};
            lim.depth = 3;
            lim.nodes = 5000;
            SearchInfo sa, sb;
            bot_new_game(a);
            bot_new_game(b);
            bot_choose(a, st, &lim, &sa);
            if (sa.nodes >= lim.nodes)
                continue;   /* too big for a quick exact search */
            /* a second search first, so the tables are not empty */
            bot_choose(b, st, &lim, &sb);
            bot_choose(b, st, &lim, &sb);
            char text[512] = "";
            g->to_text(st, text, sizeof text);
            if (sa.value != sb.value)
                fail_msg("%s at depth 3 on '%s': %d without the histories, "
                         "%d with", g->info.name, text, sa.value, sb.value);
            compared++;
        }
        tested += compared > 0;
        free(mv);
        free(st);
        bot_free(a);
        bot_free(b);
    }
    assert_true(tested > 10);
}

/* A position with one winning move (Rxd5 takes a free queen): deep
 * searches test and extend singular table moves, never with singular=0,
 * and both find the capture. */
static void test_singular_fires(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    void *st = tl_position("chess", NULL, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
                           NULL);
    Move want = move_of(g, st, "d2d5");
    Limits lim = {0};
    lim.depth = 9;
    SearchInfo si;
    Bot *on = make_bot(g, "alphabeta:singular=1");
    Bot *off = make_bot(g, "alphabeta:singular=0");
    assert_true(bot_choose(on, st, &lim, &si) == want);
    AbBot *a = ab_of(on);
    assert_true(a->sing_tests > 0);
    assert_true(a->sing_exts > 0);
    assert_true(a->sing_exts <= a->sing_tests);
    assert_true(bot_choose(off, st, &lim, &si) == want);
    assert_int_equal(ab_of(off)->sing_tests, 0);
    assert_int_equal(ab_of(off)->sing_exts, 0);
    bot_free(on);
    bot_free(off);
    free(st);
}

/* The excluded-move search: with its only legal move excluded, a node
 * fails low (returns alpha) and stores nothing under the position's own
 * key; with another move left, it searches that one. */
static void test_excluded_move(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    /* the black king on a8 in check from the rook on h8: Ka7 is its
     * one legal move (the white king on c6 guards b7) */
    void *st = tl_position("chess", NULL, "k6R/8/2K5/8/8/8/8/8 b - - 0 1",
                           NULL);
    Move mv[256];
    int n = g->gen_moves(st, mv);
    assert_int_equal(n, 1);
    Bot *bot = make_bot(g, "alphabeta:singular=1");
    AbBot *b = ab_of(bot);
    search_reset(b);
    b->root = 1;
    b->node_limit = 0;
    memcpy(state_at(b, 1), st, g->info.state_size);
    b->last[1] = 0;
    b->excluded[1] = mv[0];
    int v = negamax(b, 2, -500, -499, 1, 0);
    b->excluded[1] = 0;
    assert_int_equal(v, -500);
    TTHit hit;
    assert_false(tt_probe(b->ttp, node_key(b, st, 0), &hit));
    /* not excluded: the one move is searched and stored */
    negamax(b, 2, -AB_INF, AB_INF, 1, 0);
    assert_true(tt_probe(b->ttp, node_key(b, st, 0), &hit));
    assert_true(hit.move == mv[0]);
    bot_free(bot);
    free(st);
}

/* A fresh shogi bot `spec` (*bot), reset for a search that starts
 * below its root. */
static AbBot *shogi_searcher(const char *spec, Bot **bot)
{
    *bot = make_bot(game_find("shogi"), spec);
    AbBot *b = ab_of(*bot);
    search_reset(b);
    b->root = 0;
    b->node_limit = 0;
    return b;
}

/* Nodes a fresh bot `spec` visits searching, at depth `depth`, the
 * shogi position after `move` from `sfen` (the move recorded as the one
 * that led there, as the search does). */
static uint64_t nodes_after(const char *spec, const char *sfen,
                            const char *move, int depth)
{
    const GameVtbl *g = game_find("shogi");
    void *st = tl_position("shogi", NULL, sfen, NULL);
    Move m = move_of(g, st, move);
    Bot *bot;
    AbBot *b = shogi_searcher(spec, &bot);
    memcpy(state_at(b, 0), st, g->info.state_size);
    memcpy(state_at(b, 1), st, g->info.state_size);
    g->make(state_at(b, 1), m);
    assert_true(g->in_check(state_at(b, 1)));
    b->last[1] = m;
    negamax(b, depth, -AB_INF, AB_INF, 1, 0);
    uint64_t n = b->nodes;
    bot_free(bot);
    free(st);
    return n;
}

/* chksee=1: a check that loses its piece (a gold dropped next to the
 * king, which takes it) is not extended, so the search below it is
 * smaller than without the option; a check that loses nothing (a silver
 * dropped with a pawn's support) is extended either way (the same nodes
 * at depth 1, where no later check is searched). */
static void test_chksee(void **state)
{
    (void)state;
    static const char *const on = "alphabeta:chksee=1,hash=0",
                             *const off = "alphabeta:chksee=0,hash=0";
    const char *lose = "4k4/9/9/9/9/9/9/9/K8 b G 1";
    const char *safe = "4k4/9/4P4/9/9/9/9/9/K8 b S 1";
    for (int d = 1; d <= 3; d++) {
        uint64_t a = nodes_after(on, lose, "G*5b", d),
                 b = nodes_after(off, lose, "G*5b", d);
        if (a >= b)
            fail_msg("depth %d, losing check: %llu nodes with chksee, "
                     "%llu without", d, (unsigned long long)a,
                     (unsigned long long)b);
        if (d > 1)
            continue;   /* deeper, later checks in the tree may differ */
        a = nodes_after(on, safe, "S*5b", d);
        b = nodes_after(off, safe, "S*5b", d);
        if (a != b)
            fail_msg("depth %d, safe check: %llu nodes with chksee, %llu "
                     "without", d, (unsigned long long)a,
                     (unsigned long long)b);
    }
}

/* The value of a null-window search at depth `depth` (alpha, alpha + 1)
 * of the shogi position sfen by a fresh bot `spec`. */
static int window_value(const char *spec, const char *sfen, int depth,
                        int alpha)
{
    const GameVtbl *g = game_find("shogi");
    void *st = tl_position("shogi", NULL, sfen, NULL);
    Bot *bot;
    AbBot *b = shogi_searcher(spec, &bot);
    memcpy(state_at(b, 1), st, g->info.state_size);
    b->last[1] = 0;
    int v = negamax(b, depth, alpha, alpha + 1, 1, 0);
    bot_free(bot);
    free(st);
    return v;
}

/* lmpchk: a mate by a rook's drop on the king's file (R*1c: the white
 * king on 1a walled in by its own lance and pawn) at a depth-1 node with
 * a null window just under a win. The drop is ordered sixth (the drops
 * next to the king come first), so late-move pruning alone throws it
 * away with the other quiet moves (the negative control); lmpchk=1 and
 * =2 (nothing can take the rook) search the checks and find the mate. */
static void test_lmpchk(void **state)
{
    (void)state;
    static const char *const sfen = "7lk/7p1/9/9/9/9/9/9/4K4 b R 1";
    static const char *const base =
        "alphabeta:hash=0,rfp=0,razor=0,fut=0,null=0,lmp=1";
    char spec[128];
    int alpha = AB_WIN_BOUND - 1;  /* only a mate is above it */
    snprintf(spec, sizeof spec, "%s,lmpchk=0", base);
    int v0 = window_value(spec, sfen, 1, alpha);
    if (v0 > alpha)
        fail_msg("the mate was found without lmpchk (%d): the control "
                 "cannot fail", v0);
    for (int k = 1; k <= 2; k++) {
        snprintf(spec, sizeof spec, "%s,lmpchk=%d", base, k);
        int v = window_value(spec, sfen, 1, alpha);
        if (v <= alpha)
            fail_msg("lmpchk=%d: no mate found (%d)", k, v);
    }
}

/* Futility pruning spares a move that ends the game: from a game against
 * Fairy-Stockfish (2 December), White mates by 7e5g+ (the bishop takes
 * the gold on 5g and promotes; the pawn on 5h that could take back is
 * pinned by the dragon on 4h, which static exchange does not see, so the
 * capture counts as losing and is ordered and pruned like a quiet move).
 * The games' in_check is false once the game is over, so the mate was no
 * "check" to spare, and at a depth-1 node with a null window just under
 * a win futility pruning threw it away. The premises are checked first
 * (the mate's child is over and not "in check", the capture loses by
 * static exchange), so the case still reaches futility pruning. */
static void test_futility_mate(void **state)
{
    (void)state;
    static const char *const sfen =
        "ln3+R1nl/2s2p3/pppg1ks1p/6p2/2bpSG3/P8/1PPPG1P1P/2SKP+r3/"
        "LN1G3NL w BP3p 78";
    const GameVtbl *g = game_find("shogi");
    void *st = tl_position("shogi", NULL, sfen, NULL);
    Move m = move_of(g, st, "7e5g+");
    assert_false(g->see(st, m, 0));
    void *child = malloc(g->info.state_size);
    memcpy(child, st, g->info.state_size);
    g->make(child, m);
    assert_int_equal(g->to_move(child), PLAYER_TERMINAL);
    assert_false(g->in_check(child));
    free(child);
    free(st);
    int alpha = AB_WIN_BOUND - 1;  /* only a mate is above it */
    int v = window_value("alphabeta:hash=0,rfp=0,razor=0,null=0,lmp=0,"
                         "fut=150", sfen, 1, alpha);
    if (v <= alpha)
        fail_msg("futility pruning lost the mate 7e5g+ (%d)", v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_history_updates),
        cmocka_unit_test(test_tables_after_search),
        cmocka_unit_test(test_exact_values_unchanged),
        cmocka_unit_test(test_singular_fires),
        cmocka_unit_test(test_chksee),
        cmocka_unit_test(test_lmpchk),
        cmocka_unit_test(test_futility_mate),
        cmocka_unit_test(test_excluded_move),
    };
    tl_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
