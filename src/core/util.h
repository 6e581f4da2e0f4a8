/* util.h — small helpers shared by every component: clock, errors. */
#ifndef PLY_UTIL_H
#define PLY_UTIL_H

#include <stdint.h>

/* Monotonic clock in milliseconds, microseconds and seconds. */
int64_t now_ms(void);
int64_t now_us(void);
double now_seconds(void);

#endif
