/* records.h — match records (`ply match --out`, one JSON object a line)
 * to and from the record formats games declare (GameFormat): the body of
 * `ply record` and of its aliases `ply pgn`, `ply pdn`, `ply kif`. JSON
 * stays here; the formats see a plain Record. */
#ifndef PLY_RECORDS_H
#define PLY_RECORDS_H

#include <jansson.h>

#include "../core/record.h"

/* Fills r from one JSON record (strings borrowed from o; *moves is
 * allocated, free() it). Returns 0, or -1 with err naming the field. */
int record_from_json(json_t *o, Record *r, const char ***moves,
                     PlyError *err);
/* The record as a JSON object (new reference), in the key order of
 * `ply match --out`. */
json_t *record_to_json(const Record *r);

/* Writes every record of FILE (NULL or "-": standard input) whose game
 * speaks `format` in that format: to standard output, games separated by
 * a blank line, or with split set to SPLIT-001.EXT, ... one per game. A
 * bad record stops with exit code 2 and nothing of that game is written;
 * records of games without the format are skipped and counted on
 * stderr. cmd names the command in messages. */
int records_write(const char *cmd, const char *format, const char *file,
                  const char *split);
/* Reads FILE (NULL or "-": standard input) in `format` and prints one
 * JSON record line per game. Returns the exit code. */
int records_read(const char *cmd, const char *format, const char *file);

#endif
