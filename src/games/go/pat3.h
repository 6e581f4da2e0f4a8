/* pat3.h — the 3x3 patterns of Go's playout policy (the classic shapes of
 * the MoGo programme: hane, cuts, edge moves), written out by hand, and
 * a slow matcher over all eight symmetries and both colourings.
 *
 * A 3x3 neighbourhood is a 16-bit code: the eight neighbours of the
 * centre, row by row from the top left (the centre skipped), 2 bits each
 * (0 empty, 1 black, 2 white, 3 off the board). scripts/gen_go_pat3.c
 * turns the matcher into the constant bitset pat3_table.h that go.c
 * looks codes up in; test_go_policy checks the two agree. */
#ifndef PLY_GO_PAT3_H
#define PLY_GO_PAT3_H

/* Rows top to bottom, the centre (the move) in the middle. X and O are
 * the two colours (either way round), '.' empty, '#' off the board,
 * '?' anything, 'x' anything but X, 'o' anything but O. */
static const char *const go_pat3_src[] = {
    "XOX" "..." "???",      /* hane enclosing a stone */
    "XO." "..." "?.?",      /* hane, not cutting */
    "XO?" "X.." "x.?",      /* hane from a bent line (magari) */
    ".O." "X.." "...",      /* diagonal attachment */
    "XO?" "O.o" "?o?",      /* cut, unprotected */
    "XO?" "O.X" "???",      /* cut after a peep */
    "?X?" "O.O" "ooo",      /* cut through two stones */
    "OX?" "o.O" "???",      /* cut of a knight's move */
    "X.?" "O.?" "###",      /* edge: chase */
    "OX?" "X.O" "###",      /* edge: block the cut */
    "?X?" "x.O" "###",      /* edge: block the connection */
    "?XO" "x.x" "###",      /* edge: descend */
    "?OX" "X.O" "###",      /* edge: cut */
};
enum { GO_PAT3_N = sizeof go_pat3_src / sizeof go_pat3_src[0] };

/* The neighbour order of a code: (dx, dy) with dy up. */
static const int go_pat3_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int go_pat3_dy[8] = {1, 1, 1, 0, 0, -1, -1, -1};

static inline int go_pat3_cell(unsigned code, int i)
{
    return (int)(code >> (2 * i)) & 3;
}

/* Index of neighbour (dx, dy) in the code order. */
static inline int go_pat3_index(int dx, int dy)
{
    for (int i = 0; i < 8; i++)
        if (go_pat3_dx[i] == dx && go_pat3_dy[i] == dy)
            return i;
    return -1;
}

/* Symmetry t (0..7) of (dx, dy): bit 0 mirror x, bit 1 mirror y, bit 2
 * swap the axes. */
static inline void go_pat3_sym(int t, int *dx, int *dy)
{
    int x = *dx, y = *dy;
    if (t & 1)
        x = -x;
    if (t & 2)
        y = -y;
    if (t & 4) {
        int s = x;
        x = y;
        y = s;
    }
    *dx = x;
    *dy = y;
}

static inline int go_pat3_accepts(char ch, int v)
{
    switch (ch) {
    case '?': return 1;
    case '.': return v == 0;
    case 'X': return v == 1;
    case 'O': return v == 2;
    case '#': return v == 3;
    case 'x': return v != 1;
    case 'o': return v != 2;
    default: return 0;
    }
}

/* 1 when code matches a pattern in some symmetry and colouring. */
static inline int go_pat3_match_slow(unsigned code)
{
    for (int k = 0; k < GO_PAT3_N; k++) {
        const char *p = go_pat3_src[k];
        for (int t = 0; t < 8; t++)
            for (int sw = 0; sw < 2; sw++) {
                int ok = 1;
                for (int r = 0; r < 3 && ok; r++)
                    for (int c = 0; c < 3 && ok; c++) {
                        if (r == 1 && c == 1)
                            continue;
                        int dx = c - 1, dy = 1 - r;
                        go_pat3_sym(t, &dx, &dy);
                        int v = go_pat3_cell(code, go_pat3_index(dx, dy));
                        if (sw && (v == 1 || v == 2))
                            v = 3 - v;
                        ok = go_pat3_accepts(p[r * 3 + c], v);
                    }
                if (ok)
                    return 1;
            }
    }
    return 0;
}

#endif
