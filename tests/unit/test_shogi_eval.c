/* test_shogi_eval.c — the shogi evaluation's attack terms counted on
 * hand-made positions: slider mobility, the enemy king's neighbourhood,
 * king escapes, safe checks by a drop, hanging and threatened pieces,
 * the king-relative tables. Each case names a term and how many times it
 * counts for Black less for White (its coefficient in the linear form,
 * docs/tuning.md); each is checked again on the position turned round
 * with the colours swapped, where it must count the opposite. */
#include <ctype.h>
#include <math.h>

#include "testlib.h"

/* The coefficient of the weight `name` at the position (Black's view). */
static double coef(const char *setup, const char *name)
{
    return tl_eval_coef("shogi", setup, name);
}

typedef struct Case {
    const char *sfen, *term;
    int want;   /* Black's count less White's */
} Case;

static const Case CASES[] = {
    /* the rook on 1i: eight squares up the 1 file, three along the
     * back rank up to its own king */
    {"4k4/9/9/9/9/9/9/9/4K3R b - 1", "mob.rook", 11},
    /* a silver on 5f attacked by a pawn, undefended, Black to move; the
     * pawn it attacks is undefended too, on White's waiting turn */
    {"4k4/9/9/9/4p4/4S4/9/9/4K4 b - 1", "hang.mid.stm", 1},
    {"4k4/9/9/9/4p4/4S4/9/9/4K4 b - 1", "hang.small.wait", -1},
    {"4k4/9/9/9/4p4/4S4/9/9/4K4 b - 1", "threat.lesser.stm", 1},
    /* with a gold behind it the silver is defended, still threatened */
    {"4k4/9/9/9/4p4/4S4/4G4/9/4K4 b - 1", "hang.mid.stm", 0},
    {"4k4/9/9/9/4p4/4S4/4G4/9/4K4 b - 1", "threat.lesser.stm", 1},
    /* a gold in hand: no safe check next to the king without support;
     * a pawn on 5c supports 5b */
    {"4k4/9/9/9/9/9/9/9/4K4 b G 1", "drop_check.gold", 0},
    {"4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "drop_check.gold", 1},
    /* a knight in hand checks from 6c and 4c */
    {"4k4/9/9/9/9/9/9/9/4K4 b N 1", "drop_check.knight", 2},
    /* a rook in hand: 7a-9a, 1a-3a and 5c-5h (not the three squares
     * next to the king, unsupported) */
    {"4k4/9/9/9/9/9/9/9/4K4 b R 1", "drop_check.rook", 12},
    /* the gold on 5c attacks 6b, 5b and 4b next to White's king, which
     * alone defends them; White's king may step to 6a and 4a only,
     * Black's to all five squares around it */
    {"4k4/9/4G4/9/9/9/9/9/4K4 b - 1", "zone.attacks", 3},
    {"4k4/9/4G4/9/9/9/9/9/4K4 b - 1", "zone.weak", 3},
    {"4k4/9/4G4/9/9/9/9/9/4K4 b - 1", "zone.danger", 36},
    {"4k4/9/4G4/9/9/9/9/9/4K4 b - 1", "king.escape", 3},
    /* a gold one row ahead of its king and one file towards the centre
     * (the king on the centre file: either side counts as towards) */
    {"4k4/9/9/9/9/9/9/5G3/4K4 b - 1", "kown.gold.r+1c+1", 1},
    /* the king on 8i: the gold on 9h is one file away from the centre */
    {"4k4/9/9/9/9/9/9/G8/1K7 b - 1", "kown.gold.r+1c-1", 1},
    {"4k4/9/9/9/9/9/9/G8/1K7 b - 1", "kown.gold.r+1c+1", 0},
    /* a silver two rows in front of the enemy king */
    {"4k4/9/4S4/9/9/9/9/9/4K4 b - 1", "kopp.silver.r+2c+0", 1},
};

static void test_terms_count(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Case *c = &CASES[i];
        double got = coef(c->sfen, c->term);
        if (fabs(got - c->want) > 1e-6)
            fail_msg("%s: %s counts %g, want %d", c->sfen, c->term, got,
                     c->want);
    }
}

/* The position turned round, colours swapped: rows in reverse order,
 * each row's squares reversed (a "+X" stays one square), the case of
 * every piece and hand letter swapped, the other side to move. */
static void turn_sfen(const char *sfen, char *out, size_t n)
{
    char rows[9][32];
    int r = 0, k = 0;
    const char *p = sfen;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            rows[r++][k] = 0;
            k = 0;
        } else {
            rows[r][k++] = *p;
        }
    }
    rows[r][k] = 0;
    size_t len = 0;
    for (int i = r; i >= 0; i--) {
        const char *row = rows[i];
        int m = (int)strlen(row);
        for (int j = m - 1; j >= 0; j--) {
            char ch = row[j];
            int prom = j > 0 && row[j - 1] == '+';
            if (ch == '+')
                continue;
            if (prom)
                out[len++] = '+';
            out[len++] = (char)(isupper((unsigned char)ch)
                                    ? tolower((unsigned char)ch)
                                    : toupper((unsigned char)ch));
        }
        if (i)
            out[len++] = '/';
    }
    p++;
    char side = *p == 'b' ? 'w' : 'b';
    p += 2;
    out[len++] = ' ';
    out[len++] = side;
    out[len++] = ' ';
    for (; *p && *p != ' '; p++)
        out[len++] = (char)(isupper((unsigned char)*p)
                                ? tolower((unsigned char)*p)
                                : toupper((unsigned char)*p));
    snprintf(out + len, n - len, " 1");
}

static void test_terms_turned(void **state)
{
    (void)state;
    char buf[128];
    turn_sfen("4k4/9/4P4/9/9/9/9/5+N3/G3K3R b Gp 1", buf, sizeof buf);
    assert_string_equal(buf, "r3k3g/3+n5/9/9/9/9/4p4/9/4K4 w gP 1");
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Case *c = &CASES[i];
        turn_sfen(c->sfen, buf, sizeof buf);
        double a = coef(c->sfen, c->term), b = coef(buf, c->term);
        if (fabs(a + b) > 1e-6)
            fail_msg("%s / %s: %s %g and %g", c->sfen, buf, c->term, a, b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms_count),
        cmocka_unit_test(test_terms_turned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
