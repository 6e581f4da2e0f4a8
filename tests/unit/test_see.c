/* test_see.c — the see hook (static exchange) of the 8x8 chess games on
 * hand-made exchanges, bounds it must keep on the captures of seeded
 * random games, and alpha-beta's selective options (pruning, reductions,
 * orderings) playing legal moves and finding a short mate. */
#include "testlib.h"

#include "core/bot.h"
#include "games/chess/board.h"
#include "search/alphabeta.h"

#define AB_WIN_BOUND_TEST AB_WIN_BOUND

typedef struct SeeCase {
    const char *game, *fen, *move;
    int want;
} SeeCase;

static const SeeCase CASES[] = {
    /* pawn takes an undefended pawn */
    {"chess", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},
    /* ... a defended one: pawn for pawn */
    {"chess", "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},
    /* queen takes a defended pawn */
    {"chess", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800},
    /* the rook behind the rook recaptures (x-ray) */
    {"chess", "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},
    /* without it the rook is lost for a pawn */
    {"chess", "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", -400},
    /* knight takes a pawn a bishop defends, the queen behind the knight:
     * taking back would cost black the bishop, so black stops */
    {"chess", "4k3/8/4b3/3p4/8/2N5/8/3QK3 w - - 0 1", "c3d5", 100},
    /* en passant */
    {"chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
    /* promotion: a queen for a pawn */
    {"chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 800},
    /* promotion onto a defended square */
    {"chess", "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", -100},
    /* the king takes an undefended pawn */
    {"chess", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", 100},
    /* rook for rook, and the king takes the pawn that took back */
    {"chess", "4k3/8/8/8/8/4p3/3r4/3RK3 w - - 0 1", "d1d2", 100},
};

static void test_see_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const SeeCase *c = &CASES[i];
        const GameVtbl *g = game_find(c->game);
        assert_non_null(g);
        assert_non_null(g->see);
        void *st = tl_position(c->game, NULL, c->fen, NULL);
        Move m;
        PlyError err = {{0}};
        if (g->text_to_move(st, c->move, &m, &err))
            fail_msg("%s %s: %s", c->fen, c->move, err.msg);
        int got = cb_see(st, m);
        if (got != c->want)
            fail_msg("%s %s: see %d, want %d", c->fen, c->move, got,
                     c->want);
        /* the hook: at least the value, not more */
        if (!g->see(st, m, c->want) || g->see(st, m, c->want + 1))
            fail_msg("%s %s: see hook disagrees with %d at its threshold",
                     c->fen, c->move, c->want);
        free(st);
    }
}

/* The piece values the hook counts with (eval.c's VALUE, centipawns),
 * by variant and type; a king as KING. */
enum { KING = 20000 };
static const int VAL[3][CB_NTYPES] = {
    {0, 100, 320, 330, 500, 900, KING, 0, 0, 0},
    {0, 100, 320, 0, 500, 0, KING, 180, 250, 0},
    {0, 100, 300, 0, 500, 0, KING, 160, 0, 120},
};

/* On every noisy move of seeded games: the exchange is worth at most what
 * the move takes and promotes to (the opponent may leave it), and at
 * least that less the piece then on the square (the mover may stop after
 * one recapture). */
static void test_see_bounds(void **state)
{
    (void)state;
    static const char *const games[] = {"chess", "makruk", "shatranj"};
    for (int gi = 0; gi < 3; gi++) {
        const GameVtbl *g = game_find(games[gi]);
        assert_non_null(g->see);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        int seen = 0, negative = 0, even = 0;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            void *st = tl_position(games[gi], NULL, NULL, NULL);
            Rng r;
            rng_seed(&r, seed * 1009);
            for (int k = 0; k < 160 && g->to_move(st) >= 0; k++) {
                int n = g->gen_moves(st, mv);
                const CBoard *b = st;
                const int *val = VAL[b->variant];
                for (int i = 0; i < n; i++) {
                    if (!g->is_noisy(st, mv[i]))
                        continue;
                    int to = CB_TO(mv[i]), from = CB_FROM(mv[i]);
                    int promo = CB_PROMO(mv[i]);
                    int victim = b->sq[to] ? b->sq[to] & 15
                               : cb_is_capture(b, mv[i]) ? CB_PAWN : 0;
                    int gain = val[victim] +
                               (promo ? val[promo] - val[CB_PAWN] : 0);
                    int on = promo ? val[promo] : val[b->sq[from] & 15];
                    int s = cb_see(st, mv[i]);
                    if (!g->see(st, mv[i], s) || g->see(st, mv[i], s + 1) ||
                        g->see(st, mv[i], 0) != (s >= 0))
                        fail_msg("%s: see hook disagrees with %d",
                                 games[gi], s);
                    if (s > gain || s < gain - on)
                        fail_msg("%s: see %d outside [%d, %d] for move "
                                 "%d-%d", games[gi], s, gain - on, gain,
                                 from, to);
                    seen++;
                    negative += s < 0;
                    even += s == 0;
                }
                g->make(st, mv[rng_below(&r, (uint32_t)n)]);
            }
            free(st);
        }
        /* the bounds were tested on exchanges of every kind */
        if (seen < 100 || !negative || !even)
            fail_msg("%s: %d noisy moves, %d losing, %d even", games[gi],
                     seen, negative, even);
        free(mv);
    }
}

/* alphabeta with every selective option on: legal moves at a few node
 * budgets in every two-player game with an evaluation, and a mate in
 * two found in chess. */
static void test_selective_search(void **state)
{
    (void)state;
    const char *spec = "alphabeta:rfp=100,razor=300,fut=150,lmp=1,"
                       "lmrtab=1,iir=1,cmove=1,see=1,nodes=3000";
    int tested = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.num_players != 2 || !g->eval ||
            (g->info.flags & GAME_HIDDEN))
            continue;
        PlyError err = {{0}};
        Bot *bot = bot_new(g, spec, 7, &err);
        if (!bot)
            fail_msg("%s: %s", g->info.name, err.msg);
        void *st = tl_position(g->info.name, NULL, NULL, NULL);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        for (int k = 0; k < 12 && g->to_move(st) >= 0; k++) {
            SearchInfo si;
            Move m = bot_choose(bot, st, NULL, &si);
            int n = g->gen_moves(st, mv), legal = 0;
            for (int i = 0; i < n; i++)
                legal |= mv[i] == m;
            if (!legal)
                fail_msg("%s: illegal move at ply %d", g->info.name, k);
            g->make(st, m);
        }
        free(mv);
        free(st);
        bot_free(bot);
        tested++;
    }
    assert_true(tested > 5);
    /* mate in two with two rooks: 1. Ra7 Kg8 2. Rb8# */
    const GameVtbl *g = game_find("chess");
    PlyError err = {{0}};
    Bot *bot = bot_new(g, "alphabeta:rfp=100,razor=300,fut=150,lmp=1,"
                                "lmrtab=1,iir=1,cmove=1,see=1,depth=6",
                             1, &err);
    assert_non_null(bot);
    void *st = tl_position("chess", NULL,
                           "7k/8/8/8/8/8/8/RR2K3 w - - 0 1", NULL);
    SearchInfo si;
    bot_choose(bot, st, NULL, &si);
    if (si.value < AB_WIN_BOUND_TEST)
        fail_msg("mate in two: value %d", si.value);
    free(st);
    bot_free(bot);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_see_cases),
        cmocka_unit_test(test_see_bounds),
        cmocka_unit_test(test_selective_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
