/* registry.h — the static tables of games and bots, looked up by name. */
#ifndef PLY_REGISTRY_H
#define PLY_REGISTRY_H

#include "bot.h"
#include "game.h"

extern const GameVtbl *const ply_games[];   /* NULL-terminated */
extern const BotVtbl *const ply_bots[];     /* NULL-terminated */

/* A registered game, or a game loaded at run time from a rules file
 * (a name ending in ".zrf", kept loaded for the life of the process). */
const GameVtbl *game_find(const char *name);
/* game_find with the reason when it fails (a rules file's error). */
const GameVtbl *game_load(const char *name, PlyError *err);
/* Checks a rules file (`ply rules check`): prints to out the words it does
 * not support with their lines, or a summary; 0 when it loads, 1 when it
 * names unsupported words, -1 on a read or syntax error (err). */
int game_rules_check(const char *path, int variant, FILE *out,
                     PlyError *err);
/* `ply list FILE`: a rules file's title and players in line (nothing kept
 * loaded); 0, or -1 with err when it does not load. */
int game_rules_describe(const char *path, char *line, size_t n,
                        PlyError *err);
/* A rules file's perft over whole turns (partial moves composed): 0, or
 * -1 when g is not loaded from a rules file. */
int game_turn_perft(const GameVtbl *g, const void *st, int depth,
                    uint64_t *out);
const BotVtbl *bot_find(const char *name);
/* The bot spec to use for g when the user names none: the game's own
 * info.default_bot; else a bot named like the game; else alphabeta when
 * the game has eval and is_noisy; else mcts; else alphabeta; else
 * random. Every front end asks here. */
const char *game_default_bot(const GameVtbl *g);
/* Start-up checks of the tables (required hooks, sizes, unique names).
 * Returns 0, or -1 with a message naming the faulty entry. */
int registry_check(PlyError *err);

#endif
