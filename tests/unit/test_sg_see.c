/* test_sg_see.c — the see hook (static exchange) of shogi and minishogi:
 * hand-made exchanges (x-rays, knights, promotions, the king that takes
 * back only an undefended piece, White to move), drops, the bounds on every
 * capture and promotion of seeded random games, and the least attacker
 * against the move generator's captures on the same squares. */
#include "testlib.h"

#include "games/shogi/shogi.h"

typedef struct SeeCase {
    const char *game, *sfen, *move;
    int want;
} SeeCase;

static const SeeCase CASES[] = {
    /* a rook takes an undefended pawn */
    {"shogi", "8k/9/9/9/4p4/9/9/4R4/K8 b - 1", "5h5e", 215},
    /* ... one a gold defends */
    {"shogi", "8k/9/9/4g4/4p4/9/9/4R4/K8 b - 1", "5h5e", -1795},
    /* silver takes silver, a pawn takes back */
    {"shogi", "8k/9/9/4p4/4s4/4S4/9/9/K8 b - 1", "5f5e", 0},
    /* the lance behind the rook takes back the silver */
    {"shogi", "8k/9/9/5s3/4p4/9/9/4R4/K3L4 b - 1", "5h5e", -735},
    /* ... without the lance */
    {"shogi", "8k/9/9/5s3/4p4/9/9/4R4/K8 b - 1", "5h5e", -1795},
    /* a knight takes a pawn a gold defends */
    {"shogi", "8k/9/9/4g4/4p4/9/3N5/9/K8 b - 1", "6g5e", -525},
    /* White: a bishop takes a pawn a knight defends */
    {"shogi", "8k/7b1/9/9/4P4/9/5N3/9/K8 w - 1", "2b5e", -1485},
    /* a silver promotes on a free square */
    {"shogi", "8k/9/9/5S3/9/9/9/9/K8 b - 1", "4d4c+", 50},
    /* ... on a square a gold holds */
    {"shogi", "8k/5g3/9/5S3/9/9/9/9/K8 b - 1", "4d4c+", -1060},
    /* the king takes back */
    {"minishogi", "4k/4p/5/5/K3R b - 1", "1e1b", -1795},
    /* ... not a piece the gold defends */
    {"minishogi", "4k/4p/3G1/5/K3R b - 1", "1e1b", 215},
};

static void test_sg_see_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const SeeCase *c = &CASES[i];
        const GameVtbl *g = game_find(c->game);
        assert_non_null(g->see);
        Shogi *st = tl_position(c->game, NULL, c->sfen, NULL);
        Move m;
        PlyError err = {{0}};
        if (g->text_to_move(st, c->move, &m, &err))
            fail_msg("%s %s: %s", c->sfen, c->move, err.msg);
        int got = sg_see_exchange(st, m);
        if (got != c->want)
            fail_msg("%s %s: see %d, want %d", c->sfen, c->move, got,
                     c->want);
        if (!g->see(st, m, c->want) || g->see(st, m, c->want + 1))
            fail_msg("%s %s: see hook disagrees with %d at its threshold",
                     c->sfen, c->move, c->want);
        free(st);
    }
    /* micro shogi's captures flip the capturer: no hook there */
    assert_null(game_find("micro-shogi")->see);
}

/* Drops: a drop takes nothing, so the exchange is 0 or the piece lost. */
static void test_sg_see_drops(void **state)
{
    (void)state;
    static const struct {
        const char *sfen, *move;
        int lost;   /* the dropped piece is lost */
    } drops[] = {
        /* a gold dropped next to the king, the king takes it */
        {"4k4/9/9/9/9/9/9/9/K8 b G 1", "G*5b", 1},
        /* ... supported by a pawn: the king may not take */
        {"4k4/9/4P4/9/9/9/9/9/K8 b G 1", "G*5b", 0},
        /* a pawn dropped where a silver takes it and a gold takes back */
        {"4k4/9/9/4s4/9/4G4/9/9/K8 b P 1", "P*5e", 0},
        /* ... without the gold */
        {"4k4/9/9/4s4/9/9/9/9/K8 b P 1", "P*5e", 1},
        /* White drops a rook on a square Black's bishop holds */
        {"4k4/9/9/9/9/9/9/1B7/K8 w r 1", "R*5e", 1},
        /* a knight dropped out of every attack */
        {"4k4/9/9/9/9/9/9/9/K8 b N 1", "N*5e", 0},
    };
    const GameVtbl *g = game_find("shogi");
    for (size_t i = 0; i < sizeof drops / sizeof drops[0]; i++) {
        Shogi *st = tl_position("shogi", NULL, drops[i].sfen, NULL);
        Move m;
        PlyError err = {{0}};
        if (g->text_to_move(st, drops[i].move, &m, &err))
            fail_msg("%s %s: %s", drops[i].sfen, drops[i].move, err.msg);
        int want = drops[i].lost ? -sg_see_swing(mv_drop(m)) : 0;
        int got = sg_see_exchange(st, m);
        if (got != want)
            fail_msg("%s %s: see %d, want %d", drops[i].sfen,
                     drops[i].move, got, want);
        if (!g->see(st, m, want) || g->see(st, m, want + 1))
            fail_msg("%s %s: see hook disagrees with %d at its threshold",
                     drops[i].sfen, drops[i].move, want);
        free(st);
    }
}

/* Seeded random games of both variants, captures preferred: on every
 * noisy move (capture or promotion) the hook agrees with the exchange at
 * and above its value, and the value is at most what the move gains at
 * once and at least that less the piece then on the square; on every
 * square the side to move can capture on, the least attacker exists, no
 * legal capture there is by a cheaper piece, and the least attacker's
 * own capture is legal unless a pin or check forbids it (rare). */
static void test_sg_see_random(void **state)
{
    (void)state;
    static const char *const games[] = {"shogi", "minishogi"};
    for (int gi = 0; gi < 2; gi++) {
        const GameVtbl *g = game_find(games[gi]);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        int seen = 0, negative = 0, even = 0, points = 0, same = 0;
        int drops = 0, lost = 0;
        for (uint64_t seed = 1; seed <= 16; seed++) {
            Shogi *st = tl_position(games[gi], NULL, NULL, NULL);
            Rng r;
            rng_seed(&r, seed * 7919);
            for (int k = 0; k < 160 && g->to_move(st) >= 0; k++) {
                int n = g->gen_moves(st, mv);
                for (int i = 0; i < n; i++) {
                    if (mv_drop(mv[i])) {
                        /* nothing gained, at most the piece lost */
                        int s = sg_see_exchange(st, mv[i]);
                        if (s > 0 || s < -sg_see_swing(mv_drop(mv[i])) ||
                            g->see(st, mv[i], 0) != (s == 0) ||
                            !g->see(st, mv[i], s))
                            fail_msg("%s seed %d ply %d: drop see %d",
                                     games[gi], (int)seed, k, s);
                        drops++;
                        lost += s < 0;
                        continue;
                    }
                    if (!g->is_noisy(st, mv[i]))
                        continue;
                    int s = sg_see_exchange(st, mv[i]);
                    if (!g->see(st, mv[i], s) || g->see(st, mv[i], s + 1) ||
                        g->see(st, mv[i], 0) != (s >= 0))
                        fail_msg("%s seed %d ply %d: see hook disagrees "
                                 "with %d", games[gi], (int)seed, k, s);
                    /* at most what the move takes and promotes to (the
                     * opponent may leave it), at least that less the
                     * piece then on the square (the mover may stop) */
                    int to = mv_to(mv[i]), from = mv_from(mv[i]);
                    int t = TYPE(st->board[from]);
                    int gain = (st->board[to] ?
                                sg_see_swing(TYPE(st->board[to])) : 0);
                    int on = sg_see_swing(mv_prom(mv[i]) ? t + PROM : t);
                    gain += on - sg_see_swing(t);
                    if (s > gain || s < gain - on)
                        fail_msg("%s seed %d ply %d: see %d outside "
                                 "[%d, %d]", games[gi], (int)seed, k, s,
                                 gain - on, gain);
                    seen++;
                    negative += s < 0;
                    even += s == 0;
                    if (!st->board[to])
                        continue;   /* a promotion: no capture to match */
                    /* the least attacker on this square against the
                     * legal captures there, once per square */
                    int first = 1;
                    for (int j = 0; j < i; j++)
                        if (!mv_drop(mv[j]) && mv_to(mv[j]) == to)
                            first = 0;
                    if (!first)
                        continue;
                    int at, least = sg_least_attacker(st->board, to,
                                                      st->side, &at);
                    if (!least)
                        fail_msg("%s seed %d ply %d: no attacker on a "
                                 "square with a legal capture", games[gi],
                                 (int)seed, k);
                    int legal = 0;
                    for (int j = 0; j < n; j++) {
                        if (mv_drop(mv[j]) || mv_to(mv[j]) != to)
                            continue;
                        int c = TYPE(st->board[mv_from(mv[j])]);
                        if (sg_see_swing(c) < sg_see_swing(least))
                            fail_msg("%s seed %d ply %d: a legal capture "
                                     "by %d, cheaper than the least "
                                     "attacker %d", games[gi], (int)seed,
                                     k, c, least);
                        legal |= mv_from(mv[j]) == at;
                    }
                    points++;
                    same += legal && TYPE(st->board[at]) == least;
                }
                g->make(st, tl_lively_move(g, st, mv, n, &r));
            }
            free(st);
        }
        if (!lost || lost == drops)
            fail_msg("%s: %d drops, %d of them lose the piece", games[gi],
                     drops, lost);
        if (seen < 300 || !negative || !even || same < points * 19 / 20)
            fail_msg("%s: %d noisy moves, %d losing, %d even; least "
                     "attacker a legal capturer on %d of %d squares",
                     games[gi], seen, negative, even, same, points);
        print_message("%s: %d noisy moves (%d losing, %d even); least "
                      "attacker a legal capturer on %d of %d squares\n",
                      games[gi], seen, negative, even, same, points);
        free(mv);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sg_see_cases),
        cmocka_unit_test(test_sg_see_drops),
        cmocka_unit_test(test_sg_see_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
