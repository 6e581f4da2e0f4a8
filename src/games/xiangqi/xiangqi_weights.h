/* xiangqi_weights.h — the weights of xiangqi's evaluation (xiangqi.c),
 * one name and one value per parameter, in the order of the XW_ indices.
 * `ply tune` fits them to game results and rewrites XQ_WEIGHTS; the
 * names and indices stay. Values are in EVAL units (soldier = 100);
 * hand-set, except the terms marked new, which are 0 until tuned. */
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
    XW_CANNON_HOLLOW,       /* new: on that file with nothing between */
    XW_CANNON_CENTRAL,      /* new: on file e (a central-cannon platform) */
    XW_DEFENDER_GAP,        /* per missing advisor/elephant per enemy
                               attacker (chariot, horse, cannon, crossed
                               soldier) */
    XW_ADVISOR_PAIR,        /* new: both advisors */
    XW_ELEPHANT_PAIR,       /* new: both elephants */
    XW_TEMPO,
    XW_N
};

static const char *const XQ_WEIGHT_NAMES[XW_N] = {
    "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
    "soldier.crossed", "soldier.central", "soldier.last_rank",
    "horse.centre", "horse.advance", "horse.blocked_leg",
    "chariot.mobility", "cannon.screen", "cannon.hollow", "cannon.central",
    "king.defender_gap", "advisor.pair", "elephant.pair", "tempo",
};

static const int XQ_WEIGHTS[XW_N] = {
    200,    /* advisor */
    200,    /* elephant */
    400,    /* horse */
    900,    /* chariot */
    450,    /* cannon */
    100,    /* soldier */
    80,     /* soldier.crossed */
    30,     /* soldier.central */
    -60,    /* soldier.last_rank */
    6,      /* horse.centre */
    4,      /* horse.advance */
    -8,     /* horse.blocked_leg */
    3,      /* chariot.mobility */
    40,     /* cannon.screen */
    0,      /* cannon.hollow */
    0,      /* cannon.central */
    -10,    /* king.defender_gap */
    0,      /* advisor.pair */
    0,      /* elephant.pair */
    10,     /* tempo */
};

#endif
