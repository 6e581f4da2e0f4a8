/* registry.c — every game and bot Ply knows, in static tables (C has no
 * portable constructors; adding a game means one extern line here and one
 * line in the table at the end of the file). */
#include <stdio.h>
#include <string.h>

#include "../games/zrf/zrf_api.h"
#include "options.h"
#include "registry.h"

/* Games. */
extern const GameVtbl game_kalah;
extern const GameVtbl game_reversi;
extern const GameVtbl game_zuniq;
extern const GameVtbl game_shogi;
extern const GameVtbl game_minishogi;
extern const GameVtbl game_chess;
extern const GameVtbl game_makruk;
extern const GameVtbl game_shatranj;
extern const GameVtbl game_xiangqi;
extern const GameVtbl game_draughts_russian;
extern const GameVtbl game_draughts_international;
extern const GameVtbl game_draughts_english;
extern const GameVtbl game_draughts_brazilian;
extern const GameVtbl game_draughts_pool;
extern const GameVtbl game_draughts_frisian;
extern const GameVtbl game_draughts_turkish;
extern const GameVtbl game_draughts_bashni;
extern const GameVtbl game_draughts_laska;
extern const GameVtbl game_draughts_czech;
extern const GameVtbl game_draughts_thai;
extern const GameVtbl game_vindinium;
extern const GameVtbl game_go;
extern const GameVtbl game_atari_go;
extern const GameVtbl game_splut;
extern const GameVtbl game_splut_duel;
extern const GameVtbl game_gomoku;
extern const GameVtbl game_renju;
extern const GameVtbl game_dark_chess;
extern const GameVtbl game_banqi;
extern const GameVtbl game_oware;
extern const GameVtbl game_jungle;
extern const GameVtbl game_fox_and_geese;
extern const GameVtbl game_micro_shogi;
extern const GameVtbl game_belarusian_chess;
extern const GameVtbl game_virus_wars;
extern const GameVtbl game_ming_mang;
extern const GameVtbl game_agon;
extern const GameVtbl game_yonin_shogi;
extern const GameVtbl game_apocalypse;
extern const GameVtbl game_shatra;
extern const GameVtbl game_generals;

/* Bots. */
extern const BotVtbl bot_random;
extern const BotVtbl bot_greedy;
extern const BotVtbl bot_alphabeta;
extern const BotVtbl bot_mcts;
extern const BotVtbl bot_ismcts;
extern const BotVtbl bot_pimc;
extern const BotVtbl bot_banqi_chain;
extern const GameVtbl game_minesweeper;
extern const BotVtbl bot_minesweeper;
extern const GameVtbl game_foxhunt;
extern const BotVtbl bot_foxhunt;
extern const BotVtbl bot_vindinium;
extern const BotVtbl bot_vindinium_simple;
extern const BotVtbl bot_gomoku;
extern const BotVtbl bot_kalah_perfect;
extern const BotVtbl bot_reversi;
extern const BotVtbl bot_oware;

const GameVtbl *game_find(const char *name)
{
    for (int i = 0; ply_games[i]; i++)
        if (!strcmp(ply_games[i]->info.name, name))
            return ply_games[i];
    if (zrf_is_path(name))
        return zrf_open(name, NULL);
    return NULL;
}

int game_rules_check(const char *path, int variant, FILE *out,
                     PlyError *err)
{
    if (!zrf_is_path(path))
        return ply_fail(err, "'%s' is not a rules file (.zrf)", path);
    return zrf_check(path, variant, out, err);
}

int game_rules_describe(const char *path, char *line, size_t n,
                        PlyError *err)
{
    if (!zrf_is_path(path))
        return ply_fail(err, "'%s' is not a rules file (.zrf)", path);
    return zrf_describe(path, line, n, err);
}

int game_turn_perft(const GameVtbl *g, const void *st, int depth,
                    uint64_t *out)
{
    return zrf_turn_perft(g, st, depth, out);
}

const GameVtbl *game_load(const char *name, PlyError *err)
{
    if (zrf_is_path(name))
        return zrf_open(name, err);
    const GameVtbl *g = game_find(name);
    if (!g)
        ply_fail(err, "unknown game '%s'", name);
    return g;
}

const BotVtbl *bot_find(const char *name)
{
    for (int i = 0; ply_bots[i]; i++)
        if (!strcmp(ply_bots[i]->name, name))
            return ply_bots[i];
    return NULL;
}

const char *game_default_bot(const GameVtbl *g)
{
    if (g && g->info.default_bot)
        return g->info.default_bot;
    if (g && bot_find(g->info.name))
        return g->info.name;
    if (g && g->eval && g->is_noisy && bot_find("alphabeta"))
        return "alphabeta";
    if (bot_find("mcts"))
        return "mcts";
    if (bot_find("alphabeta"))
        return "alphabeta";
    return "random";
}

int registry_check(PlyError *err)
{
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        const GameInfo *in = &g->info;
        if (!in->name || !in->title || !in->player_names || !in->notation ||
            !in->rules)
            return ply_fail(err, "game #%d: missing metadata", i);
        if (in->num_players < 1 || in->num_players > PLY_MAX_PLAYERS ||
            in->max_moves < 1 || in->max_game_length < 1 ||
            in->state_size < 1)
            return ply_fail(err, "game %s: bad sizes in its info", in->name);
        if (!g->init || !g->to_move || !g->gen_moves || !g->make ||
            !g->returns || !g->hash || !g->to_text || !g->from_text ||
            !g->move_to_text || !g->text_to_move || !g->render)
            return ply_fail(err, "game %s: a required hook is missing",
                            in->name);
        if ((in->flags & GAME_CHANCE) && !g->chance_outcomes)
            return ply_fail(err, "game %s: chance without chance_outcomes",
                            in->name);
        if ((in->flags & GAME_HIDDEN) && (!g->observe || !g->determinize))
            return ply_fail(err, "game %s: hidden information without "
                            "observe/determinize", in->name);
        int nopt = 0;
        for (const GameOption *o = in->options; o && o->key; o++) {
            nopt++;
            if (o->type != OPT_INT && o->type != OPT_BOOL &&
                o->type != OPT_CHOICE)
                return ply_fail(err, "game %s: option %s is not an int, "
                                "bool or choice", in->name, o->key);
        }
        if (nopt > PLY_MAX_OPTIONS)
            return ply_fail(err, "game %s: too many options", in->name);
        const char *specs[] = {in->default_bot, in->codecup_bot};
        for (int k = 0; k < 2; k++) {
            char name[64];
            if (!specs[k])
                continue;
            snprintf(name, sizeof name, "%.*s",
                     (int)strcspn(specs[k], ":"), specs[k]);
            if (!bot_find(name))
                return ply_fail(err, "game %s: %s bot '%s' is not "
                                "registered", in->name,
                                k ? "codecup" : "default", specs[k]);
        }
        for (int j = 0; j < i; j++)
            if (!strcmp(ply_games[j]->info.name, in->name))
                return ply_fail(err, "game %s registered twice", in->name);
    }
    for (int i = 0; ply_bots[i]; i++) {
        const BotVtbl *b = ply_bots[i];
        if (!b->name || !b->help || !b->create || !b->destroy ||
            !b->new_game || !b->choose)
            return ply_fail(err, "bot #%d: a required hook is missing", i);
        PlyError e2 = {{0}};
        if (option_table_check(b->options, b->options_size, &e2))
            return ply_fail(err, "bot %s: %s", b->name, e2.msg);
        for (const Option *o = b->options; o && o->key; o++)
            if (option_find(bot_limit_options(), o->key))
                return ply_fail(err, "bot %s: option %s is a shared limit",
                                b->name, o->key);
        for (int j = 0; j < i; j++)
            if (!strcmp(ply_bots[j]->name, b->name))
                return ply_fail(err, "bot %s registered twice", b->name);
    }
    return 0;
}

/* The tables: lookups go by name, so the order is only the listing order. */
const GameVtbl *const ply_games[] = {
    &game_kalah,
    &game_reversi,
    &game_zuniq,
    &game_shogi,
    &game_minishogi,
    &game_chess,
    &game_makruk,
    &game_shatranj,
    &game_xiangqi,
    &game_draughts_russian,
    &game_draughts_international,
    &game_draughts_english,
    &game_draughts_brazilian,
    &game_draughts_pool,
    &game_draughts_frisian,
    &game_draughts_turkish,
    &game_draughts_bashni,
    &game_draughts_laska,
    &game_draughts_czech,
    &game_draughts_thai,
    &game_vindinium,
    &game_go,
    &game_atari_go,
    &game_splut,
    &game_splut_duel,
    &game_gomoku,
    &game_renju,
    &game_dark_chess,
    &game_banqi,
    &game_oware,
    &game_jungle,
    &game_fox_and_geese,
    &game_micro_shogi,
    &game_belarusian_chess,
    &game_virus_wars,
    &game_ming_mang,
    &game_agon,
    &game_minesweeper,
    &game_foxhunt,
    &game_yonin_shogi,
    &game_apocalypse,
    &game_shatra,
    &game_generals,
    NULL,
};

const BotVtbl *const ply_bots[] = {
    &bot_random,
    &bot_greedy,
    &bot_alphabeta,
    &bot_mcts,
    &bot_vindinium,
    &bot_vindinium_simple,
    &bot_gomoku,
    &bot_ismcts,
    &bot_pimc,
    &bot_banqi_chain,
    &bot_minesweeper,
    &bot_foxhunt,
    &bot_kalah_perfect,
    &bot_reversi,
    &bot_oware,
    NULL,
};
