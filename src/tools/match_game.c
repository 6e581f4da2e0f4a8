/* match_game.c — game number index of a match: its pairing, seats, opening
 * and seeds from the settings, its players built from the participants
 * (bots here, programs through the protocol clients the caller passed in
 * MatchConfig.clients), then one game by the referee. */
#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"
#include "match.h"
#include "referee.h"

static uint64_t game_seed(const MatchConfig *c, uint64_t index)
{
    return ply_mix64(c->seed ^ ply_mix64(index + 1));
}

/* Openings are shared by the rotations of one pairing and by all pairings,
 * so everybody plays the same positions from both sides. */
static uint64_t opening_seed(const MatchConfig *c, uint64_t index)
{
    uint64_t o = (index % c->games) / match_seatings(c);
    return ply_mix64(c->seed ^ 0x6f70656e696e67ull ^ ply_mix64(o + 7));
}

/* The protocol name a participant's kind stands for. */
static const char *proto_name(PartKind k)
{
    static const char *const names[] = {
        [PART_UGI] = "ugi", [PART_CODECUP] = "codecup", [PART_UCI] = "uci",
        [PART_USI] = "usi", [PART_CECP] = "cecp", [PART_GTP] = "gtp",
        [PART_GOMOCUP] = "gomocup",
    };
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : NULL;
}

static Player *make_player(const MatchConfig *c, const Participant *part,
                           PlyError *err)
{
    if (part->kind == PART_BOT)
        return bot_player_new(part->name, part->name, err);
    const char *proto = proto_name(part->kind);
    const PlayerClient *pc = proto ? player_client(c->clients, proto) : NULL;
    if (!pc) {
        ply_fail(err, "engine %s: no client for protocol %s", part->name,
                 proto ? proto : "?");
        return NULL;
    }
    Player *p = pc->create(part->name, part->cmd, c->quiet_engines,
                           c->watch, err);
    /* its options, NAME=VALUE lines */
    for (const char *o = part->opts; p && *o;) {
        size_t len = strcspn(o, "\n");
        char name[256], value[512];
        const char *eq = memchr(o, '=', len);
        size_t nl = eq ? (size_t)(eq - o) : len;
        size_t vl = eq ? len - nl - 1 : 0;
        snprintf(name, sizeof name, "%.*s", (int)nl, o);
        snprintf(value, sizeof value, "%.*s", (int)vl, eq ? eq + 1 : "");
        if (!p->vt->set_option) {
            ply_fail(err, "engine %s: its protocol has no options",
                     part->name);
        } else if (p->vt->set_option(p, name, value, err) == 0) {
            o += len + (o[len] == '\n');
            continue;
        }
        p->vt->free(p);
        p = NULL;
    }
    return p;
}

int match_play_game(const MatchConfig *c, uint64_t index, GameRecord *r,
                    PlyError *err)
{
    const GameVtbl *g = c->g;
    int np = match_players(c);
    memset(r, 0, sizeof *r);
    r->index = index;
    r->loser = -1;
    match_schedule(c, index, &r->pairing, r->seats);

    Opening op = {.setup = NULL, .plies = c->open_plies,
                  .seed = opening_seed(c, index)};
    if (c->open_count) {
        uint64_t o = (index % c->games) / match_seatings(c);
        op.setup = c->open_lines[o % (uint64_t)c->open_count];
    }
    TimeControl tc = {
        .kind = c->tc, .tc_ms = c->tc_ms, .inc_ms = c->inc_ms,
        .grace_ms = c->grace_ms, .ext_move_ms = c->ext_move_ms,
        .start_ms = c->start_ms,
    };
    Player *seats[PLY_MAX_PLAYERS] = {NULL};
    int ret = -1;
    for (int s = 0; s < np; s++)
        if (!(seats[s] = make_player(c, &c->parts[r->seats[s]], err)))
            goto out;
    ret = referee_play(g, c->options, seats, &tc, &op, game_seed(c, index),
                       r, err);
out:
    for (int s = 0; s < np; s++)
        if (seats[s])
            seats[s]->vt->free(seats[s]);
    return ret;
}
