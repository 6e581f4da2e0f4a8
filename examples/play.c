/* play.c — two bots play one game: ./play [GAME [BOT0 [BOT1]]]
 * Prints the moves and the result. Build: cc play.c $(pkg-config --cflags --libs ply) */
#include <stdio.h>
#include <ply.h>

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "kalah";
    PlyError err;
    const PlyGame *g = ply_game_find(name, &err);
    PlyState *s = g ? ply_state_new(g, NULL, NULL, 1, &err) : NULL;
    PlyBot *bots[2] = {NULL, NULL};
    for (int i = 0; s && i < 2; i++)
        if (!(bots[i] = ply_bot_new(g, argc > 2 + i ? argv[2 + i] : "mcts:nodes=300", (uint64_t)i + 1, &err)))
            break;
    int rc = !s || !bots[0] || !bots[1];
    while (!rc && !ply_state_is_terminal(s)) {
        PlyMove m;
        char text[128];
        int p = ply_state_current_player(s);
        if (ply_bot_choose(bots[p % 2], s, NULL, &m, NULL, &err) ||
            ply_state_move_to_text(s, m, text, sizeof text, &err) < 0 ||
            ply_state_apply(s, m, &err))
            rc = 1;
        else
            printf("%s %s\n", ply_game_player_name(g, p), text);
    }
    double ret[PLY_PLAYERS_MAX];
    if (!rc) {
        int n = ply_state_returns(s, ret, PLY_PLAYERS_MAX);
        printf("result");
        for (int i = 0; i < n; i++)
            printf(" %s %g", ply_game_player_name(g, i), ret[i] + 0.0);
        printf("\n");
    } else {
        fprintf(stderr, "play: %s\n", err.message);
    }
    ply_bot_free(bots[0]);
    ply_bot_free(bots[1]);
    ply_state_free(s);
    return rc;
}
