/* test_shards.c — ply match --shard: for every small match shape (players,
 * participants, games per pairing) and shard count, the shards partition
 * the games (each game in exactly one), keep a two-player opening pair
 * (both seatings of one opening) in one shard, match_shard_next() agrees
 * with a plain scan of match_in_shard(), and shard_total counts them. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "core/registry.h"
#include "tools/match.h"

static MatchConfig *config(const char *game, int nparts, uint64_t games)
{
    MatchConfig *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->g = game_find(game);
    assert_non_null(c->g);
    c->nparts = nparts;
    for (int i = 0; i < nparts; i++) {
        c->parts[i].kind = PART_BOT;
        snprintf(c->parts[i].name, sizeof c->parts[i].name, "random");
    }
    c->games = games;
    c->seed = 1;
    return c;
}

static void check_partition(const char *game, int nparts, uint64_t games)
{
    MatchConfig *c = config(game, nparts, games);
    PlyError err = {{0}};
    assert_int_equal(match_prepare(c, &err), 0);
    uint64_t total = c->total;
    assert_int_equal(c->shard_total, total);
    int np = c->g->info.num_players;
    unsigned char *owner = calloc((size_t)total, 1);
    assert_non_null(owner);
    for (int n = 1; n <= 7; n++) {
        memset(owner, 0, (size_t)total);
        uint64_t sum = 0;
        for (int i = 1; i <= n; i++) {
            c->shard_i = i;
            c->shard_n = n;
            assert_int_equal(match_prepare(c, &err), 0);
            uint64_t count = 0, next = match_shard_next(c, 0);
            for (uint64_t k = 0; k < total; k++) {
                if (!match_in_shard(c, k))
                    continue;
                /* the scan and the jump find the same games */
                assert_true(next == k);
                next = match_shard_next(c, k + 1);
                assert_int_equal(owner[k], 0);
                owner[k] = (unsigned char)i;
                count++;
            }
            assert_true(next == total);
            assert_true(count == c->shard_total);
            sum += count;
        }
        assert_true(sum == total);
        for (uint64_t k = 0; k < total; k++) {
            assert_int_not_equal(owner[k], 0);
            /* an opening pair stays together */
            uint64_t j = k % games;
            if (np == 2 && (j ^ 1) < games)
                assert_int_equal(owner[k], owner[k - j + (j ^ 1)]);
        }
        /* with more blocks than shards, every shard has games */
        uint64_t blocks = np == 2 ? (games + 1) / 2 * c->npairings : total;
        if (blocks >= (uint64_t)n)
            for (int i = 1; i <= n; i++) {
                int seen = 0;
                for (uint64_t k = 0; k < total; k++)
                    seen |= owner[k] == i;
                assert_true(seen);
            }
    }
    c->shard_i = c->shard_n = 0;
    free(owner);
    free(c);
}

static void test_partition(void **state)
{
    (void)state;
    for (uint64_t games = 1; games <= 9; games++) {
        check_partition("kalah", 2, games);
        check_partition("kalah", 3, games);
        check_partition("kalah", 5, games);
        check_partition("splut", 4, games * 3);
    }
}

static void test_parse(void **state)
{
    (void)state;
    MatchConfig c;
    PlyError err = {{0}};
    memset(&c, 0, sizeof c);
    assert_int_equal(match_parse_shard("2/3", &c, &err), 0);
    assert_int_equal(c.shard_i, 2);
    assert_int_equal(c.shard_n, 3);
    assert_int_equal(match_parse_shard("1/1", &c, &err), 0);
    const char *bad[] = {"0/3", "4/3", "3", "/3", "1/", "1/0", "-1/3",
                         "1/-3", "1/3x", "x/3", "1//3", " 1/3", "1/ 3",
                         "1/100001", "99999999999999999999/3", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(match_parse_shard(bad[i], &c, &err), -1);
}

/* Records of a shard carry it and the match's description. */
static void test_record_fields(void **state)
{
    (void)state;
    MatchConfig *c = config("kalah", 2, 4);
    PlyError err = {{0}};
    c->shard_i = 2;
    c->shard_n = 2;
    assert_int_equal(match_prepare(c, &err), 0);
    assert_int_equal(c->shard_total, 2);
    GameRecord r;
    uint64_t k = match_shard_next(c, 0);
    assert_true(k == 2);
    assert_int_equal(match_play_game(c, k, &r, &err), 0);
    char *line = match_record_json(c, &r);
    assert_non_null(line);
    assert_non_null(strstr(line, ",\"shard\":[2,2],\"match\":{"
                                 "\"participants\":[\"random\",\"random\"],"
                                 "\"games\":4,\"total\":4,"));
    free(line);
    c->shard_n = c->shard_i = 0;
    line = match_record_json(c, &r);
    assert_null(strstr(line, "shard"));
    free(line);
    match_record_free(&r);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partition),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_record_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
