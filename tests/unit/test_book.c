/* test_book.c — opening books: the lookup (core/book.c), the generator
 * (tools/bookgen.c: every position it promises is in the table, the
 * symmetric images found, the same table whatever the threads, errors),
 * the shared bot option book=1, and zuniq's compiled-in book. */
#include "testlib.h"

#include "core/book.h"
#include "core/bot.h"
#include "tools/bookgen.h"

static const GameVtbl *zuniq(void)
{
    const GameVtbl *g = game_find("zuniq");
    assert_non_null(g);
    return g;
}

/* Every first move of White (60 positions at ply 1) and, at the start,
 * White's own: in book b, each with a legal move. Returns how many of
 * the 61 positions were found. */
static int count_ply1(const GameVtbl *g, const Book *b)
{
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    Move m, moves[64];
    int found = book_lookup(g, b, st, &m);
    int n = g->gen_moves(st, moves);
    assert_int_equal(n, 60);
    void *c = state_alloc(g);
    for (int i = 0; i < n; i++) {
        memcpy(c, st, g->info.state_size);
        g->make(c, moves[i]);
        if (book_lookup(g, b, c, &m)) {
            assert_true(state_is_legal(g, c, m));
            found++;
        }
    }
    free(c);
    free(st);
    return found;
}

static void test_lookup(void **unused)
{
    (void)unused;
    const GameVtbl *g = zuniq();
    void *st = tl_position("zuniq", NULL, NULL, "A1h");
    uint64_t key = g->hash(st);
    /* a table around the key: found; a move not legal there: refused */
    BookEntry e[3] = {{key - 1, 5}, {key, 7}, {key + 1, 9}};
    Book b = {e, 3, "test"};
    Move m = 0;
    assert_int_equal(book_lookup(g, &b, st, &m), 1);
    assert_int_equal(m, 7);
    e[1].move = 0;              /* A1h: drawn already */
    assert_int_equal(book_lookup(g, &b, st, &m), 0);
    e[1].key = key + 1;         /* another position's */
    e[2].key = key + 2;
    assert_int_equal(book_lookup(g, &b, st, &m), 0);
    Book empty = {e, 0, "none"};
    assert_int_equal(book_lookup(g, &empty, st, &m), 0);
    assert_int_equal(book_lookup(g, NULL, st, &m), 0);
    free(st);
}

static void test_generate(void **unused)
{
    (void)unused;
    const GameVtbl *g = zuniq();
    BookEntry *a = NULL, *b = NULL;
    int na = 0, nb = 0;
    BookGenStats sa, sb;
    PlyError err = {{0}};
    assert_int_equal(bookgen_run(g, NULL, "mcts:nodes=200", 7, 2, 1, 100,
                                 NULL, NULL, &a, &na, &sa, &err), 0);
    /* the start, and one position per class of White's first moves:
     * 9 of the 60 under the square's 8 symmetries */
    assert_int_equal(sa.per_ply[0], 1);
    assert_int_equal(sa.per_ply[1], 9);
    assert_int_equal(sa.searched, 10);
    /* every image stored: the 61 positions are found, where the 10
     * searched ones alone would give 10 */
    Book book = {a, na, "test"};
    assert_int_equal(count_ply1(g, &book), 61);
    for (int i = 1; i < na; i++)
        assert_true(a[i - 1].key < a[i].key);
    /* the same table with two threads (a node limit) */
    assert_int_equal(bookgen_run(g, NULL, "mcts:nodes=200", 7, 2, 2, 100,
                                 NULL, NULL, &b, &nb, &sb, &err), 0);
    assert_int_equal(na, nb);
    for (int i = 0; i < na; i++) {
        assert_true(a[i].key == b[i].key);
        assert_int_equal(a[i].move, b[i].move);
    }
    free(b);

    free(a);
    /* A game without symmetries: every position is its own class. */
    GameVtbl plain = *g;
    plain.nsym = 0;
    plain.sym_move = NULL;
    assert_int_equal(bookgen_run(&plain, NULL, "mcts:nodes=200", 7, 2, 1,
                                 100, NULL, NULL, &b, &nb, &sb, &err), 0);
    assert_int_equal(sb.searched, 61);
    assert_int_equal(nb, 61);
    free(b);

    /* errors */
    assert_int_equal(bookgen_run(g, NULL, "mcts:nodes=200", 7, 0, 1, 100,
                                 NULL, NULL, &a, &na, &sa, &err), -1);
    assert_int_equal(bookgen_run(g, NULL, "mcts:nodes=200,book=1", 7, 2, 1,
                                 100, NULL, NULL, &a, &na, &sa, &err), -1);
    assert_non_null(strstr(err.msg, "book="));
    assert_int_equal(bookgen_run(g, NULL, "nosuchbot", 7, 2, 1, 100, NULL,
                                 NULL, &a, &na, &sa, &err), -1);
    assert_int_equal(bookgen_run(g, NULL, "mcts:nodes=200", 7, 3, 1, 20,
                                 NULL, NULL, &a, &na, &sa, &err), -1);
    assert_non_null(strstr(err.msg, "more than 20"));
    const GameVtbl *dark = game_find("dark-chess");
    if (dark) {
        assert_int_equal(bookgen_run(dark, NULL, "random", 7, 2, 1, 100,
                                     NULL, NULL, &a, &na, &sa, &err), -1);
        assert_non_null(strstr(err.msg, "hidden"));
    }
}

/* Zuniq's compiled-in book covers what `ply book --plies 3` promises:
 * the start, every first move of White, and every reply to White's book
 * move. */
static void test_zuniq_book(void **unused)
{
    (void)unused;
    const GameVtbl *g = zuniq();
    assert_non_null(g->book);
    const Book *b = g->book;
    assert_true(b->n > 0);
    assert_int_equal(count_ply1(g, b), 61);
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    Move first, moves[64], m;
    assert_int_equal(book_lookup(g, b, st, &first), 1);
    g->make(st, first);
    int n = g->gen_moves(st, moves);
    void *c = state_alloc(g);
    for (int i = 0; i < n; i++) {
        memcpy(c, st, g->info.state_size);
        g->make(c, moves[i]);
        assert_int_equal(book_lookup(g, b, c, &m), 1);
    }
    free(c);
    free(st);
}

static void test_bot_option(void **unused)
{
    (void)unused;
    const GameVtbl *g = zuniq();
    void *st = tl_position("zuniq", NULL, NULL, NULL);
    Move want;
    assert_int_equal(book_lookup(g, g->book, st, &want), 1);
    PlyError err = {{0}};
    Bot *on = bot_new(g, "mcts:nodes=300,book=1", 1, &err);
    Bot *off = bot_new(g, "mcts:nodes=300", 1, &err);
    assert_non_null(on);
    assert_non_null(off);
    SearchInfo si;
    assert_true(bot_choose(on, st, NULL, &si) == want);
    assert_int_equal(si.book, 1);
    assert_int_equal(si.nodes, 0);
    bot_choose(off, st, NULL, &si);
    assert_int_equal(si.book, 0);
    assert_true(si.nodes >= 300);
    /* out of the book: the search */
    void *late = tl_position("zuniq", NULL, NULL,
                             "A1h A2h A3h A4h A5h B1h B2h B3h");
    assert_int_equal(book_lookup(g, g->book, late, &want), 0);
    bot_choose(on, late, NULL, &si);
    assert_int_equal(si.book, 0);
    assert_true(si.nodes >= 300);
    bot_free(on);
    bot_free(off);
    /* a game without a book: the option changes nothing */
    const GameVtbl *k = game_find("kalah");
    Bot *kb = bot_new(k, "mcts:nodes=100,book=1", 1, &err);
    assert_non_null(kb);
    void *ks = tl_position("kalah", NULL, NULL, NULL);
    bot_choose(kb, ks, NULL, &si);
    assert_int_equal(si.book, 0);
    bot_free(kb);
    free(ks);
    free(late);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_generate),
        cmocka_unit_test(test_zuniq_book),
        cmocka_unit_test(test_bot_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
