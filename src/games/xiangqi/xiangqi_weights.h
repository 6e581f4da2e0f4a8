/* xiangqi_weights.h — the layout of xiangqi's evaluation (xiangqi.c):
 * one index per weight, in the order of weights_xiangqi.h, which holds
 * their names and values (`ply tune --out` writes that file). Values are
 * in EVAL units (soldier = 100). */
#ifndef PLY_XIANGQI_WEIGHTS_H
#define PLY_XIANGQI_WEIGHTS_H

enum {
    XW_ADVISOR, XW_ELEPHANT, XW_HORSE, XW_CHARIOT, XW_CANNON, XW_SOLDIER,
    XW_SOLDIER_CROSSED,     /* a soldier over the river */
    XW_SOLDIER_CENTRAL,     /* ... on files d-f */
    XW_SOLDIER_LAST_RANK,   /* ... on the enemy's back rank */
    XW_HORSE_CENTRE,        /* per file towards the centre (0..4) */
    XW_HORSE_ADVANCE,       /* per rank from home (0..7) */
    XW_HORSE_BLOCKED_LEG,   /* per occupied point next to the horse */
    XW_CHARIOT_MOBILITY,    /* per empty point a chariot sees */
    XW_CANNON_SCREEN,       /* on the enemy general's file, one screen */
    XW_CANNON_HOLLOW,       /* on that file with nothing between */
    XW_CANNON_CENTRAL,      /* on file e (a central-cannon platform) */
    XW_DEFENDER_GAP,        /* per missing advisor/elephant per enemy
                               attacker (chariot, horse, cannon, crossed
                               soldier) */
    XW_ADVISOR_PAIR,        /* both advisors */
    XW_ELEPHANT_PAIR,       /* both elephants */
    XW_TEMPO,
    XW_HORSE_MOBILITY,      /* per jump with a free leg to a point without
                               an own piece */
    XW_CANNON_MOBILITY,     /* per empty point a cannon sees */
    XW_PST,                 /* 7 kinds (general .. soldier) x 10 ranks of
                               the own view x 5 files (a-e, i-h folded) */
    XW_N = XW_PST + 7 * 50
};

/* the piece-square weight of a piece of kind t (1 general .. 7 soldier)
 * on own-view rank rel (0 = the own back rank) and file f (0..8) */
static inline int xw_pst(int t, int rel, int f)
{
    return XW_PST + (t - 1) * 50 + rel * 5 + (f < 4 ? f : 8 - f);
}

#endif
