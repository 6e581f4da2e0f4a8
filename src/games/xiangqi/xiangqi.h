/* xiangqi.h — what xiangqi.c shows its tests beyond the vtable: the
 * static exchange behind the see hook. */
#ifndef PLY_XIANGQI_H
#define PLY_XIANGQI_H

#include "../../core/game.h"

/* The mover's net material (EVAL units) from the exchange the capture m
 * starts on its target, both sides recapturing with their least valuable
 * attacker while it pays. */
int xq_see_exchange(const void *st, Move m);

/* The value (as the exchange counts it: the general 20000) of the least
 * valuable piece of the side to move that attacks m's target, 0 when
 * none does; pins are not looked at. */
int xq_least_attacker_value(const void *st, Move m);

/* The same value of the piece m moves (to = 0) or takes (to = 1; 0
 * when none). */
int xq_piece_value(const void *st, Move m, int to);

#endif
