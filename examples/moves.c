/* moves.c — the legal moves of a position: ./moves GAME [SETUP]
 * Build: cc moves.c $(pkg-config --cflags --libs ply) */
#include <stdio.h>
#include <stdlib.h>
#include <ply.h>

int main(int argc, char **argv)
{
    PlyError err;
    if (argc < 2) {
        fprintf(stderr, "usage: moves GAME [SETUP]\n");
        return 2;
    }
    const PlyGame *g = ply_game_find(argv[1], &err);
    PlyState *s = g ? ply_state_new(g, NULL, argc > 2 ? argv[2] : NULL, 0, &err) : NULL;
    if (!s) {
        fprintf(stderr, "moves: %s\n", err.message);
        return 1;
    }
    PlyMove *mv = malloc(sizeof *mv * (size_t)ply_game_max_moves(g));
    int n = mv ? ply_state_legal_moves(s, mv, ply_game_max_moves(g)) : -1;
    printf("%d legal moves\n", n);
    for (int i = 0; i < n; i++) {
        char text[128];
        if (ply_state_move_to_text(s, mv[i], text, sizeof text, &err) >= 0)
            printf("%s\n", text);
    }
    free(mv);
    ply_state_free(s);
    return n < 0;
}
