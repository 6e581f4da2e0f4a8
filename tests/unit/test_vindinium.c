/* test_vindinium.c — the subtle rules of Vindinium (shared/rules/
 * vindinium.md §9), the fixed maps and the random map generator. */
#include <math.h>

#include "testlib.h"

#include "games/vindinium/vindinium.h"

/* A 6x6 board: row 0 holds mines at (0,3) (hero 1's), (0,4) (hero 2's),
 * (0,5) (hero 3's); (2,4) a neutral mine, (4,0) a tavern, (3,3) a wall. */
static const char *board6 =
    "...123/....../....$./...#../T...../......";

static Vd *pos(const char *heroes, const char *tail)
{
    char s[512];
    snprintf(s, sizeof s, "%s:%s:%s", board6, heroes, tail);
    return tl_position("vindinium", NULL, s, NULL);
}

#define H(v, i) ((v)->hero[(i)])

static void test_bumps(void **state)
{
    (void)state;
    /* hero 1 at (0,0): north is off the board; hero 2 east of it */
    Vd *v = pos("0,0,50,0,5,5,-,0;0,1,100,0,5,4,-,0;5,0,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_NORTH);
    assert_int_equal(H(v, 0).x, 0);
    assert_int_equal(H(v, 0).y, 0);
    assert_int_equal(H(v, 0).life, 49);
    assert_int_equal(H(v, 0).gold, 1);       /* owns (0,3) */
    assert_int_equal(H(v, 1).life, 80);      /* fights after any move */
    /* hero 2 bumps into hero 1 (west): hits it; wall bump for hero 4 */
    vd_apply(v, VD_WEST);
    assert_int_equal(H(v, 1).y, 1);
    assert_int_equal(H(v, 0).life, 29);
    assert_int_equal(H(v, 1).life, 79);
    assert_int_equal(v->turn, 2);
    free(v);
    v = pos("2,2,50,0,5,5,-,0;0,0,100,0,5,4,-,0;5,0,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_SOUTH);                   /* (3,2) is air */
    assert_int_equal(H(v, 0).x, 3);
    vd_apply(v, VD_STAY);
    vd_apply(v, VD_STAY);
    vd_apply(v, VD_STAY);
    vd_apply(v, VD_EAST);                    /* (3,3) is a wall */
    assert_int_equal(H(v, 0).x, 3);
    assert_int_equal(H(v, 0).y, 2);
    assert_int_equal(H(v, 0).last_dir, 1 + VD_EAST);
    free(v);
}

static void test_tavern(void **state)
{
    (void)state;
    /* hero 1 at (3,0), tavern south at (4,0) */
    Vd *v = pos("3,0,40,1,5,5,-,0;0,0,100,0,5,4,-,0;1,0,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_SOUTH);
    assert_int_equal(H(v, 0).life, 39);      /* 1 gold: nothing, thirst */
    assert_int_equal(H(v, 0).gold, 2);       /* + its one mine */
    assert_int_equal(H(v, 0).x, 3);
    free(v);
    v = pos("3,0,100,5,5,5,-,0;0,0,100,0,5,4,-,0;1,0,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_SOUTH);
    assert_int_equal(H(v, 0).life, 99);      /* full life still pays */
    assert_int_equal(H(v, 0).gold, 5 - 2 + 1);
    free(v);
    v = pos("3,0,70,2,5,5,-,0;0,0,100,0,5,4,-,0;1,0,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_SOUTH);
    assert_int_equal(H(v, 0).life, 99);      /* capped at 100, thirst */
    assert_int_equal(H(v, 0).gold, 1);
    free(v);
}

static void test_mine_fights(void **state)
{
    (void)state;
    /* hero 1 at (2,3), neutral mine east at (2,4) */
    Vd *v = pos("2,3,21,0,5,5,-,0;0,0,100,0,5,4,-,0;1,0,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_EAST);
    assert_int_equal(H(v, 0).life, 1);
    assert_int_equal(H(v, 0).y, 3);
    assert_int_equal(v->tile[vd_cell(v, 2, 4)], VD_MINE + 1);
    assert_int_equal(v->owned[0], 2);
    assert_int_equal(H(v, 0).gold, 2);       /* the new mine pays now */
    free(v);
    /* at 20 HP: death, all mines neutral, respawn, 99 HP, no income */
    v = pos("2,3,20,7,5,5,-,0;0,0,100,0,5,4,-,0;2,2,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_EAST);
    assert_int_equal(v->tile[vd_cell(v, 2, 4)], VD_MINE);
    assert_int_equal(v->tile[vd_cell(v, 0, 3)], VD_MINE);
    assert_int_equal(v->owned[0], 0);
    assert_int_equal(H(v, 0).x, 5);
    assert_int_equal(H(v, 0).y, 5);
    assert_int_equal(H(v, 0).life, 99);
    assert_int_equal(H(v, 0).gold, 7);
    assert_int_equal(H(v, 2).life, 100);     /* no fights that move */
    free(v);
    /* ... and someone on the spawn is telefragged: its mines go to the
     * respawned hero, which earns for them */
    v = pos("2,3,20,7,5,5,-,0;5,5,100,0,5,4,-,0;1,0,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_EAST);
    assert_int_equal(v->tile[vd_cell(v, 0, 3)], VD_MINE);
    assert_int_equal(v->tile[vd_cell(v, 0, 4)], VD_MINE + 1);
    assert_int_equal(H(v, 0).gold, 8);
    assert_int_equal(H(v, 1).x, 5);
    assert_int_equal(H(v, 1).y, 4);
    assert_int_equal(H(v, 1).life, 100);
    assert_int_equal(v->owned[1], 0);
    free(v);
    /* own mine: nothing */
    v = pos("1,3,50,0,5,5,-,0;5,5,100,0,5,4,-,0;1,0,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_NORTH);
    assert_int_equal(H(v, 0).life, 49);
    assert_int_equal(H(v, 0).x, 1);
    assert_int_equal(v->owned[0], 1);
    free(v);
}

static void test_hero_fights(void **state)
{
    (void)state;
    /* hero 1 at (2,2); hero 2 north at 21 HP */
    Vd *v = pos("2,2,50,0,5,5,-,0;1,2,21,0,5,4,-,0;4,4,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 1).life, 1);
    assert_int_equal(H(v, 0).life, 49);      /* the attacker takes none */
    free(v);
    /* at 20 HP: killed, its mine to the attacker, which earns for it */
    v = pos("2,2,50,0,5,5,-,0;1,2,20,0,5,4,-,0;4,4,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 1).life, 100);     /* no thirst until it moves */
    assert_int_equal(H(v, 1).x, 5);
    assert_int_equal(H(v, 1).y, 4);
    assert_int_equal(v->owned[0], 2);
    assert_int_equal(H(v, 0).gold, 2);
    free(v);
}

/* The first enemy (in N, E, S, W order) dies and respawns onto the
 * second: the second is telefragged by the first and not hit again. */
static void test_fight_order_telefrag(void **state)
{
    (void)state;
    Vd *v = pos("2,2,50,0,5,5,-,0;1,2,20,0,2,1,-,0;2,1,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 1).x, 2);          /* hero 2 now on (2,1) */
    assert_int_equal(H(v, 1).y, 1);
    assert_int_equal(H(v, 2).x, 5);          /* hero 3 telefragged */
    assert_int_equal(H(v, 2).y, 1);
    assert_int_equal(H(v, 2).life, 100);     /* not attacked after */
    assert_int_equal(v->tile[vd_cell(v, 0, 5)], VD_MINE + 2); /* to hero 2 */
    assert_int_equal(v->tile[vd_cell(v, 0, 4)], VD_MINE + 1); /* killer */
    free(v);
    /* north before south: hero 2 (N) dies first and leaves; hero 3 (S)
     * dies next and respawns on hero 2's old cell, killing no one. The
     * other order would telefrag hero 2 and hand its mine to hero 3. */
    v = pos("2,2,50,0,5,5,-,0;1,2,20,0,0,0,-,0;3,2,20,0,1,2,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(v->owned[0], 3);
    assert_int_equal(H(v, 1).x, 0);
    assert_int_equal(H(v, 2).x, 1);
    assert_int_equal(H(v, 2).y, 2);
    free(v);
    /* east before west, the same way */
    v = pos("2,2,50,0,5,5,-,0;2,3,20,0,0,0,-,0;2,1,20,0,2,3,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(v->owned[0], 3);
    assert_int_equal(H(v, 2).x, 2);
    assert_int_equal(H(v, 2).y, 3);
    free(v);
}

/* The attacker stands on the victim's spawn. */
static void test_spawn_kill(void **state)
{
    (void)state;
    Vd *v = pos("2,2,50,3,5,5,-,0;2,3,20,0,2,2,-,0;3,2,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 1).x, 2);
    assert_int_equal(H(v, 1).y, 2);
    assert_int_equal(H(v, 1).life, 100);
    assert_int_equal(v->owned[1], 2);        /* its own back, and hero 1's */
    assert_int_equal(v->owned[0], 0);
    assert_int_equal(H(v, 0).x, 5);
    assert_int_equal(H(v, 0).y, 5);
    assert_int_equal(H(v, 0).life, 99);
    assert_int_equal(H(v, 0).gold, 3);
    assert_int_equal(H(v, 2).life, 100);     /* remaining attack cancelled */
    free(v);
}

static void test_thirst(void **state)
{
    (void)state;
    Vd *v = pos("2,2,1,0,5,5,-,0;0,0,37,0,5,4,-,0;4,4,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 0).life, 1);
    assert_int_equal(H(v, 1).life, 37);      /* only the mover is thirsty */
    for (int i = 0; i < 8; i++)
        vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 0).life, 1);
    assert_int_equal(H(v, 1).life, 35);
    free(v);
}

static void test_crashes(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("vindinium");
    Vd *v = pos("2,2,50,0,5,5,-,1;2,3,50,0,5,4,-,0;4,4,100,0,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "0/100/-");
    Move mv[8];
    assert_int_equal(g->gen_moves(v, mv), 1);
    assert_int_equal(mv[0], VD_STAY);
    vd_apply(v, VD_STAY);
    assert_int_equal(H(v, 1).life, 30);      /* crashed heroes still hit */
    assert_int_equal(H(v, 0).gold, 1);       /* and still earn */
    free(v);
    /* a crash in the arena: marked, thirst and income, turn advances */
    v = pos("2,2,50,0,5,5,-,0;0,0,50,0,5,4,-,0;4,4,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/-");
    vd_apply(v, VD_CRASH);
    assert_int_equal(H(v, 0).crashed, 1);
    assert_int_equal(H(v, 0).last_dir, 0);
    assert_int_equal(v->turn, 1);
    assert_false(v->finished);
    free(v);
    /* in training, hero 1's crash ends the game without a step */
    v = pos("2,2,50,0,5,5,-,0;0,0,50,0,5,4,-,0;4,4,100,0,5,1,-,0;"
            "5,3,100,0,5,2,-,0", "0/100/t");
    vd_apply(v, VD_CRASH);
    assert_true(v->finished);
    assert_int_equal(v->turn, 0);
    assert_int_equal(g->to_move(v), PLAYER_TERMINAL);
    free(v);
    /* the arena ends when all four have crashed */
    v = pos("2,2,50,0,5,5,-,1;0,0,50,0,5,4,-,1;4,4,100,0,5,1,-,1;"
            "5,3,100,0,5,2,-,0", "3/100/-");
    vd_apply(v, VD_CRASH);
    assert_true(v->finished);
    assert_int_equal(v->turn, 3);
    free(v);
}

static void test_ranking(void **state)
{
    (void)state;
    Vd *v = pos("2,2,50,10,5,5,-,0;0,0,50,10,5,4,-,0;4,4,100,5,5,1,-,0;"
                "5,3,100,0,5,2,-,0", "100/100/f");
    const GameVtbl *g = game_find("vindinium");
    double r[4];
    assert_int_equal(g->to_move(v), PLAYER_TERMINAL);
    g->returns(v, r);
    assert_true(fabs(r[0] - (2.5 / 1.5 - 1)) < 1e-9);
    assert_true(fabs(r[0] - r[1]) < 1e-9);   /* tied first share */
    assert_true(fabs(r[2] - (1 / 1.5 - 1)) < 1e-9);
    assert_true(fabs(r[3] + 1) < 1e-9);
    assert_true(fabs(r[0] + r[1] + r[2] + r[3]) < 1e-9);
    for (int i = 0; i < 4; i++)
        H(v, i).gold = 42;
    g->returns(v, r);
    for (int i = 0; i < 4; i++)
        assert_true(fabs(r[i]) < 1e-9);
    assert_int_equal(g->score(v, 0), 42);
    free(v);
}

static void test_fixed_maps(void **state)
{
    (void)state;
    /* sizes, mines and taverns from the digest; m1's odd spawn */
    static const int size[6] = {10, 12, 20, 18, 18, 16};
    static const int mines[6] = {4, 8, 14, 12, 20, 4};
    static const int taverns[6] = {4, 4, 2, 4, 4, 4};
    for (int i = 0; i < 6; i++) {
        Vd v;
        PlyError err = {{0}};
        assert_int_equal(vd_load_fixed(&v, i, &err), 0);
        assert_int_equal(v.size, size[i]);
        assert_int_equal(v.mine_count, mines[i]);
        int t = 0;
        for (int c = 0; c < v.size * v.size; c++)
            t += v.tile[c] == VD_TAVERN;
        assert_int_equal(t, taverns[i]);
    }
    Vd *v = tl_position("vindinium", "map=m1", NULL, NULL);
    assert_int_equal(H(v, 2).x, 7);
    assert_int_equal(H(v, 2).y, 7);
    assert_int_equal(H(v, 2).sx, 9);
    assert_int_equal(H(v, 2).sy, 8);
    /* hero 3 dies on a mine and appears at (9,8) */
    H(v, 2).x = 4;
    H(v, 2).y = 8;
    H(v, 2).life = 20;
    v->turn = 2;
    vd_apply(v, VD_EAST);
    assert_int_equal(H(v, 2).x, 9);
    assert_int_equal(H(v, 2).y, 8);
    free(v);
    v = tl_position("vindinium", "map=m3", NULL, NULL);
    assert_int_equal(H(v, 1).x, 12);
    assert_int_equal(H(v, 1).y, 2);
    assert_int_equal(H(v, 1).sx, 7);
    assert_int_equal(H(v, 1).sy, 0);
    assert_int_equal(H(v, 2).sx, 7);
    assert_int_equal(H(v, 2).sy, 19);
    free(v);
}

static void test_turn_limit(void **state)
{
    (void)state;
    Vd *v = tl_position("vindinium", "map=m1,turns=20", NULL, NULL);
    for (int i = 0; i < 19; i++)
        vd_apply(v, VD_STAY);
    assert_false(v->finished);
    vd_apply(v, VD_STAY);
    assert_true(v->finished);
    assert_int_equal(v->turn, 20);
    vd_apply(v, VD_STAY);                    /* no step when finished */
    assert_int_equal(v->turn, 20);
    free(v);
}

static void test_literal_maps(void **state)
{
    (void)state;
    Vd v;
    PlyError err = {{0}};
    assert_int_equal(vd_parse_map(&v, "\n@1@2\n@3@4\n\n", &err), 0);
    assert_int_equal(v.size, 2);
    assert_int_not_equal(vd_parse_map(&v, "@1@2\n@3  \n", &err), 0);
    assert_non_null(strstr(err.msg, "@4"));
    assert_int_not_equal(vd_parse_map(&v, "@1@2xx\n@3@4", &err), 0);
    assert_non_null(strstr(err.msg, "bad cell"));
    assert_int_not_equal(vd_parse_map(&v, "", &err), 0);
    /* odd widths pad with air; a short map is padded to a square */
    assert_int_equal(vd_parse_map(&v, "@1@2[]$1\n@3@4", &err), 0);
    assert_int_equal(v.size, 4);
    assert_int_equal(v.owned[0], 1);
    assert_int_equal(v.tile[vd_cell(&v, 3, 3)], VD_AIR);
}

static void test_bad_setups(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("vindinium");
    void *st = tl_position("vindinium", "map=m1", NULL, NULL);
    PlyError err = {{0}};
    const char *bad[] = {
        "",
        "..../....",
        "..:0,0,1,0,0,0,-,0",
        "../..:0,0,100,0,0,0,-,0;0,1,100,0,0,1,-,0;1,0,100,0,1,0,-,0;"
        "1,1,100,0,1,1,-,0:0/10/x",
        "../..:0,0,100,0,0,0,-,0;0,1,100,0,0,1,-,0;1,0,100,0,1,0,-,0;"
        "1,5,100,0,1,1,-,0:0/10/-",
        "../..:0,0,0,0,0,0,-,0;0,1,100,0,0,1,-,0;1,0,100,0,1,0,-,0;"
        "1,1,100,0,1,1,-,0:0/10/-",
        "../.Q:0,0,100,0,0,0,-,0;0,1,100,0,0,1,-,0;1,0,100,0,1,0,-,0;"
        "1,1,100,0,1,1,-,0:0/10/-",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_not_equal(g->from_text(st, bad[i], &err), 0);
    assert_int_equal(g->from_text(st, "../..:0,0,100,0,0,0,-,0;0,1,100,0,0,1,"
                                  "N,0;1,0,100,0,1,0,.,0;1,1,100,0,1,1,-,1:"
                                  "0/10/t", &err), 0);
    free(st);
}

/* Generator guarantees over many seeds: official sizes, symmetry, one
 * connected Air region holding the four spawns, four mirrored taverns,
 * mines (a multiple of 4) each next to the region. */
static void test_generator(void **state)
{
    (void)state;
    int seeds = tl_slow() ? 5000 : 400;
    int seen_size[30] = {0};
    for (int s = 0; s < seeds; s++) {
        Vd v;
        PlyError err = {{0}};
        if (vd_generate(&v, (uint64_t)s * 7919 + 1, &err))
            fail_msg("seed %d: %s", s, err.msg);
        int n = v.size, m = n - 1;
        assert_true(n >= 10 && n <= 28 && n % 2 == 0);
        seen_size[n]++;
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++) {
                int t = v.tile[x * n + y];
                assert_int_equal(t, v.tile[(m - x) * n + y]);
                assert_int_equal(t, v.tile[x * n + (m - y)]);
            }
        /* flood the Air from hero 1 */
        int start = vd_cell(&v, H(&v, 0).x, H(&v, 0).y);
        assert_int_equal(v.tile[start], VD_AIR);
        int16_t q[VD_CELLS];
        uint8_t seen[VD_CELLS] = {0};
        int head = 0, tail = 0;
        q[tail++] = (int16_t)start;
        seen[start] = 1;
        while (head < tail) {
            int c = q[head++];
            for (int d = 1; d <= 4; d++) {
                int a = c / n + vd_dx[d], b = c % n + vd_dy[d];
                if (a < 0 || b < 0 || a >= n || b >= n)
                    continue;
                int k = a * n + b;
                if (!seen[k] && v.tile[k] == VD_AIR) {
                    seen[k] = 1;
                    q[tail++] = (int16_t)k;
                }
            }
        }
        int air = 0, taverns = 0, mines = 0;
        for (int c = 0; c < n * n; c++) {
            int t = v.tile[c];
            air += t == VD_AIR;
            if (t == VD_AIR)
                assert_true(seen[c]);        /* all Air is one region */
            if (t == VD_TAVERN || vd_is_mine(t)) {
                int adj = 0;
                for (int d = 1; d <= 4; d++) {
                    int a = c / n + vd_dx[d], b = c % n + vd_dy[d];
                    if (a >= 0 && b >= 0 && a < n && b < n &&
                        seen[a * n + b])
                        adj = 1;
                }
                assert_true(adj);
            }
            taverns += t == VD_TAVERN;
            mines += vd_is_mine(t);
            assert_true(t == VD_AIR || t == VD_WALL || t == VD_TAVERN ||
                        t == VD_MINE);
        }
        assert_int_equal(tail, air);
        assert_int_equal(taverns, 4);
        assert_true(mines >= 4 && mines % 4 == 0);
        assert_int_equal(mines, v.mine_count);
        /* spawns: hero 1 in the top-left, others mirrored, all distinct */
        assert_true(H(&v, 0).x <= n / 2 - 3 && H(&v, 0).y <= n / 2 - 3);
        const int ex[4] = {H(&v, 0).x, m - H(&v, 0).x, m - H(&v, 0).x,
                           H(&v, 0).x};
        const int ey[4] = {H(&v, 0).y, H(&v, 0).y, m - H(&v, 0).y,
                           m - H(&v, 0).y};
        for (int h = 0; h < 4; h++) {
            assert_int_equal(H(&v, h).x, ex[h]);
            assert_int_equal(H(&v, h).y, ey[h]);
            assert_int_equal(H(&v, h).sx, ex[h]);
            assert_int_equal(H(&v, h).sy, ey[h]);
            assert_true(seen[vd_cell(&v, ex[h], ey[h])]);
        }
        /* the same seed gives the same map */
        Vd w;
        assert_int_equal(vd_generate(&w, (uint64_t)s * 7919 + 1, &err), 0);
        assert_memory_equal(&v, &w, sizeof v);
    }
    for (int n = 10; n <= 28; n += 2)
        assert_true(seen_size[n] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bumps),
        cmocka_unit_test(test_tavern),
        cmocka_unit_test(test_mine_fights),
        cmocka_unit_test(test_hero_fights),
        cmocka_unit_test(test_fight_order_telefrag),
        cmocka_unit_test(test_spawn_kill),
        cmocka_unit_test(test_thirst),
        cmocka_unit_test(test_crashes),
        cmocka_unit_test(test_ranking),
        cmocka_unit_test(test_fixed_maps),
        cmocka_unit_test(test_turn_limit),
        cmocka_unit_test(test_literal_maps),
        cmocka_unit_test(test_bad_setups),
        cmocka_unit_test(test_generator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
