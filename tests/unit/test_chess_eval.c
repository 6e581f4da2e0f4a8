/* test_chess_eval.c — the chess evaluation's terms counted on hand-made
 * positions: pawn structure, threats, safe checks, rooks, outposts.
 * Each case names a term and how many times it counts for White less
 * for Black (its coefficient in the linear form, docs/tuning.md, with
 * the middlegame and endgame shares added back together). */
#include <math.h>

#include "testlib.h"

/* The coefficient of the weight `name` at the position (White's view). */
static double coef(const char *setup, const char *name)
{
    return tl_eval_coef("chess", setup, name);
}

typedef struct Case {
    const char *fen, *term;
    int want;   /* White's count less Black's */
    char kind;  /* 'p': a pair (mg + eg); 'm': mg only; 'e': eg only */
} Case;

static const Case CASES[] = {
    /* c2 and c3: doubled once (c2 has its own pawn ahead), both
     * isolated, neither supported nor side by side */
    {"4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", "pawn.doubled", 1, 'p'},
    {"4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", "pawn.isolated", 2, 'p'},
    {"4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", "pawn.supported", 0, 'p'},
    {"4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", "pawn.phalanx", 0, 'p'},
    /* e3 is backward (its neighbour d4 is ahead, f5 guards e4); e3
     * supports d4; Black's f5 is isolated */
    {"4k3/8/8/5p2/3P4/4P3/8/4K3 w - - 0 1", "pawn.backward", 1, 'p'},
    {"4k3/8/8/5p2/3P4/4P3/8/4K3 w - - 0 1", "pawn.supported", 1, 'p'},
    {"4k3/8/8/5p2/3P4/4P3/8/4K3 w - - 0 1", "pawn.isolated", -1, 'p'},
    /* without the guard on e4, e3 is not backward */
    {"4k3/8/8/8/3P4/4P3/8/4K3 w - - 0 1", "pawn.backward", 0, 'p'},
    /* d4 and e4 side by side */
    {"4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", "pawn.phalanx", 2, 'p'},
    {"4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", "pawn.isolated", 0, 'p'},
    /* a pawn attacks an undefended knight */
    {"4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "threat.pawn.knight", 1, 'p'},
    {"4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "hanging", 1, 'p'},
    /* defended by a pawn, the knight is not hanging */
    {"4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "hanging", 0, 'p'},
    {"4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "threat.pawn.knight", 1, 'p'},
    /* a knight attacks a rook */
    {"4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1", "threat.minor.rook", 1, 'p'},
    {"4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "threat.rook.queen", 1, 'p'},
    /* a passed pawn blocked by a knight */
    {"4k3/8/8/3n4/3P4/8/8/4K3 w - - 0 1", "passed.blocked", 1, 'p'},
    /* the black knight on h4 checks from f3 and g2, neither guarded */
    {"4k3/8/8/8/7n/8/P7/4K3 w - - 0 1", "safe_check.knight", -2, 'm'},
    /* a bishop on e2 guards f3: one safe check left */
    {"4k3/8/8/8/7n/8/P3B3/4K3 w - - 0 1", "safe_check.knight", -1, 'm'},
    /* White's king: open d, e and f files but for d2; Black's: all open */
    {"r3k3/8/8/8/8/8/3P4/R3K3 w - - 0 1", "king_open_file", -1, 'm'},
    /* rooks: open file and seventh rank; half-open file */
    {"4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "rook_seventh", 1, 'p'},
    {"4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "rook_open_file", 1, 'p'},
    {"4k3/R7/p7/8/8/8/8/4K3 w - - 0 1", "rook_semiopen_file", 1, 'p'},
    {"4k3/R7/p7/8/8/8/8/4K3 w - - 0 1", "rook_open_file", 0, 'p'},
    /* a knight on d5 held by e4, out of reach of Black's pawns; with a
     * black pawn on c7 it is not an outpost */
    {"4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", "outpost.knight", 1, 'p'},
    {"4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", "outpost.knight", 0, 'p'},
    /* the bishop on c1 (dark) and the pawn on b2 (dark), a2 light */
    {"4k3/8/8/8/8/8/PP6/2B1K3 w - - 0 1", "bishop_pawns", 1, 'p'},
    /* a passed pawn on d5: both kings 5 squares from d6, weighed by the
     * pawn's rank (d5: 2) */
    {"8/8/8/3P4/8/8/8/K6k w - - 0 1", "passed.king_own.eg", 10, 'e'},
    {"8/8/8/3P4/8/8/8/K6k w - - 0 1", "passed.king_their.eg", 10, 'e'},
    /* a knight's squares attacked by enemy pawns: of the knight on c3's,
     * c6 guards b5 and d5, e6 guards d5 */
    {"4k3/8/2p1p3/8/8/2N5/8/4K3 w - - 0 1", "mobility_unsafe.knight", 2,
     'p'},
};

static void test_terms_count(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Case *c = &CASES[i];
        char mg[96], eg[96];
        snprintf(mg, sizeof mg, "%s.mg", c->term);
        snprintf(eg, sizeof eg, "%s.eg", c->term);
        double got;
        if (c->kind == 'p') {
            got = coef(c->fen, mg) + coef(c->fen, eg);
        } else {
            /* one share only: divide by that share, read from a pawn
             * (every such case has one pawn more for White, or the
             * kings only and one pawn) */
            double share = coef(c->fen, c->kind == 'm' ? "material.pawn.mg"
                                                       : "material.pawn.eg");
            assert_true(share > 0);
            got = coef(c->fen, c->term) / share;
        }
        if (fabs(got - c->want) > 1e-6)
            fail_msg("%s: %s counts %g, want %d", c->fen, c->term, got,
                     c->want);
    }
}

/* Black's view is White's mirrored: every case, colours swapped and the
 * board turned, counts the same with the sign flipped. */
static void mirror_fen(const char *fen, char *out, size_t n)
{
    char ranks[8][16];
    int r = 0, k = 0;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            ranks[r][k] = 0;
            r++, k = 0;
        } else {
            char ch = *p;
            if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
            else if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
            ranks[r][k++] = ch;
        }
    }
    ranks[r][k] = 0;
    size_t len = 0;
    for (int i = 7; i >= 0; i--)
        len += (size_t)snprintf(out + len, n - len, "%s%s", ranks[i],
                                i ? "/" : "");
    snprintf(out + len, n - len, " b - - 0 1");
}

static void test_terms_mirror(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Case *c = &CASES[i];
        char fen[128], mg[96], eg[96];
        mirror_fen(c->fen, fen, sizeof fen);
        snprintf(mg, sizeof mg, "%s.mg", c->term);
        snprintf(eg, sizeof eg, "%s.eg", c->term);
        const char *name = c->kind == 'p' ? mg : c->term;
        double a = coef(c->fen, name), b = coef(fen, name);
        if (fabs(a + b) > 1e-6)
            fail_msg("%s / %s: %s %g and %g", c->fen, fen, name, a, b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms_count),
        cmocka_unit_test(test_terms_mirror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
