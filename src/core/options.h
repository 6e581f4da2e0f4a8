/* options.h — declared option tables (game.h's Option): reading
 * "key=value,..." into a struct once, writing it back, describing rows.
 *
 * A table is an array of Option rows ended by {.key = NULL}. Values are
 * stored at base + row.offset in the type game.h lists for the row's type.
 * Every function fails with a message that names the bad input and, for an
 * unknown key, the valid ones.
 */
#ifndef PLY_OPTIONS_H
#define PLY_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* One table and the struct its rows write into. `given` is filled by
 * option_parse: bit i set when row i's key appeared (first 64 rows). */
typedef struct OptionSet {
    const Option *table;        /* may be NULL: no rows */
    void *base;
    uint64_t given;
} OptionSet;

/* Rows before the terminator. */
int option_count(const Option *t);
/* The row named key (exact), or NULL. */
const Option *option_find(const Option *t, const char *key);
/* The first row whose engine name is `engine` (case-insensitive), or NULL. */
const Option *option_find_engine(const Option *t, const char *engine);

/* Writes every row's default into base. */
void option_defaults(const Option *t, void *base);
/* Parses one value for row o into the field at `field` (its stored type).
 * The message reads "bad value 'V' for KEY: why" ("KEY must be a, b or c,
 * not 'V'" for a choice). */
int option_parse_value(const Option *o, const char *val, void *field,
                       PlyError *err);
/* Parses "key=value,..." (NULL or "" keeps the defaults already in the
 * bases) against n sets; a key belongs to the first set that has it. */
int option_parse(OptionSet *sets, int n, const char *s, PlyError *err);
/* For a front end serving untrusted clients (`ply serve`): after
 * option_parse, refuses the rows off their defaults that reach the host
 * itself: a file (OPT_FILE), a nested bot spec (OPT_STRING: its own
 * options would go unchecked) or an OPTF_COSTLY row above its default. */
int option_guard(const OptionSet *sets, int n, PlyError *err);
/* The value of the field at `field` as text option_parse_value accepts and
 * reads back to the same value. Returns the length or -1 (too long). */
int option_value_text(const Option *o, const void *field, char *buf,
                      size_t n);
/* "key=value,..." for the rows of t whose value in base is not the
 * default (aliases skipped). Returns the length or -1 (too long). */
int option_to_spec(const Option *t, const void *base, char *buf, size_t n);
/* One line for `ply info`: "key=N (1..32, default 6): help", without a
 * newline. Returns the length or -1. */
int option_describe(const Option *o, char *buf, size_t n);
/* Checks a bot's table against its struct size: types, offsets, choices,
 * defaults in range, unique keys. */
int option_table_check(const Option *t, size_t size, PlyError *err);

#endif
